/*
 * The CPU backend's triangular solve for few right-hand sides (issue 28,
 * src/backend/omp/omp_trsv_t.h), called directly: op(A) X = B for every
 * triangle, transpose and diagonal, m from 0 to 1107 (1, odd, around and
 * between its 64-row blocks), 1 to 16 columns, float and double, 1 to 3
 * threads, lda and ldb larger than m; judged by the scaled residual of
 * DESIGN.md against the dense op(A), and bitwise equal on 1, 2 and 3
 * threads (each entry gets its updates in the same order whatever the
 * threads).  The entries of A outside the triangle hold NaN (never read).
 */
#include "testing.h"

#include "backend/omp/omp.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static axb_handle h;
static uint64_t lcg = 4242;

static double uniform(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg >> 11) / 9007199254740992.0 * 2 - 1;
}

/* One solve on nt threads: X (m x t, ld m + 3) from B, in T. */
static void solve(axb_uplo ul, axb_trans tr, axb_diag dg, int64_t m, int64_t t,
                  const double *A, int64_t lda, double *X, int fl, int nt) {
  const int64_t ldx = m + 3;
  if (!fl) {
    CHECK(axb_omp_dtrsv_few(ul, tr, dg, m, t, A, lda, X, ldx, nt) == 0,
          "dtrsv_few m=%lld failed", (long long)m);
    return;
  }
  float *a = malloc((size_t)(lda * (m > 0 ? m : 1)) * sizeof *a);
  float *x = malloc((size_t)(ldx * t) * sizeof *x);
  for (int64_t i = 0; i < lda * m; ++i)
    a[i] = (float)A[i];
  for (int64_t i = 0; i < ldx * t; ++i)
    x[i] = (float)X[i];
  CHECK(axb_omp_strsv_few(ul, tr, dg, m, t, a, lda, x, ldx, nt) == 0,
        "strsv_few m=%lld failed", (long long)m);
  for (int64_t i = 0; i < ldx * t; ++i)
    X[i] = x[i];
  free(a);
  free(x);
}

static void one_case(axb_uplo ul, axb_trans tr, axb_diag dg, int64_t m,
                     int64_t t, int fl) {
  const int64_t lda = m + 2, ldx = m + 3;
  double *A = malloc((size_t)(lda * (m > 0 ? m : 1)) * sizeof *A);
  double *B = malloc((size_t)(ldx * t) * sizeof *B);
  double *X[3];
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < lda; ++i) {
      const int in = i < m && (ul == AXB_UPPER ? i <= j : i >= j);
      double v = in ? (i == j ? 1 + fabs(uniform()) : uniform() / 4) : NAN;
      if (i == j && dg == AXB_UNIT) v = NAN; /* must not be read */
      A[i + j * lda] = v;
    }
  for (int64_t i = 0; i < ldx * t; ++i)
    B[i] = uniform();
  for (int nt = 1; nt <= 3; ++nt) {
    X[nt - 1] = malloc((size_t)(ldx * t) * sizeof *B);
    memcpy(X[nt - 1], B, (size_t)(ldx * t) * sizeof *B);
    solve(ul, tr, dg, m, t, A, lda, X[nt - 1], fl, nt);
  }
  char what[96];
  snprintf(what, sizeof what, "%s %s %s m=%lld t=%lld %s",
           ul == AXB_UPPER ? "upper" : "lower",
           tr == AXB_TRANS ? "trans" : "notrans",
           dg == AXB_UNIT ? "unit" : "nonunit", (long long)m, (long long)t,
           fl ? "float" : "double");
  CHECK(!memcmp(X[0], X[1], (size_t)(ldx * t) * sizeof *B) &&
            !memcmp(X[0], X[2], (size_t)(ldx * t) * sizeof *B),
        "%s: not the same bits on 1, 2 and 3 threads", what);
  if (m > 0) {
    /* M = op(A), unit diagonal restored; X and B as m x t matrices. */
    axb_dense M = test_alloc(m, m, m, AXB_F64);
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i) {
        const int64_t r = tr == AXB_TRANS ? j : i, c = tr == AXB_TRANS ? i : j;
        const int in = ul == AXB_UPPER ? r <= c : r >= c;
        double v = in ? A[r + c * lda] : 0;
        if (r == c && dg == AXB_UNIT) v = 1;
        axb_dense_set(&M, i, j, v);
      }
    axb_dense Xd = axb_dense_wrap(m, t, ldx, AXB_F64, X[0]);
    axb_dense Bd = axb_dense_wrap(m, t, ldx, AXB_F64, B);
    double r = axb_check_solve(&M, &Xd, &Bd);
    /* float: the solve ran in float, judged at float's eps */
    if (fl) r *= (double)DBL_EPSILON / (double)FLT_EPSILON;
    CHECK_RATIO(r, "%s", what);
    int pad = 1; /* rows m..m+2 of X untouched */
    for (int64_t c = 0; c < t; ++c)
      for (int64_t i = m; i < ldx; ++i)
        pad &= fl ? X[0][i + c * ldx] == (double)(float)B[i + c * ldx]
                  : X[0][i + c * ldx] == B[i + c * ldx];
    CHECK(pad, "%s: wrote outside X", what);
    axb_dense_destroy(&M);
  }
  for (int q = 0; q < 3; ++q)
    free(X[q]);
  free(A);
  free(B);
}

int main(void) {
  h = test_handle(AXB_BACKEND_CPU);
  const int64_t ms[] = {0, 1, 2, 7, 63, 64, 65, 130, 333, 1107};
  const int64_t ts[] = {1, 2, 3, 16};
  for (size_t a = 0; a < sizeof ms / sizeof *ms; ++a)
    for (size_t b = 0; b < sizeof ts / sizeof *ts; ++b) {
      if (ms[a] > 400 && ts[b] > 3) continue; /* time */
      for (int ul = 0; ul < 2; ++ul)
        for (int tr = 0; tr < 2; ++tr)
          for (int dg = 0; dg < 2; ++dg)
            one_case((axb_uplo)ul, (axb_trans)tr, (axb_diag)dg, ms[a], ts[b],
                     (int)((a + b) % 2));
    }
  axb_handle_destroy(h);
  return test_finish("test_trsv_few");
}
