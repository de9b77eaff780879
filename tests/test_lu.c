/*
 * LU with partial pivoting through the typed API: axb_[ds]getrf, getrs (no
 * transpose and transpose), gesv.  Judged by the scaled residuals of
 * DESIGN.md only.  Covers every generator kind that is nonsingular, sizes 1,
 * 2, 3, odd and around the panel width, lda > n with NaN in the padding
 * (never read, never written), rectangular m > n and m < n (reconstructed
 * here), exactly singular input (info = first zero pivot, factorization
 * completed), ties in the pivot search, NaN input and empty sizes.
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

/* ---- helpers ------------------------------------------------------------- */

static int any_nan(const axb_dense *A) {
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      if (isnan(axb_dense_get(A, i, j))) return 1;
  return 0;
}

static axb_status getrf(axb_dense *A, int64_t *ipiv, int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info);
  return axb_sgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info);
}

static axb_status getrs(axb_trans tr, const axb_dense *LU, const int64_t *ipiv,
                        axb_dense *B, int64_t *info) {
  if (LU->dtype == AXB_F64)
    return axb_dgetrs(h, tr, LU->rows, B->cols, LU->data, LU->ld, ipiv, B->data,
                      B->ld, info);
  return axb_sgetrs(h, tr, LU->rows, B->cols, LU->data, LU->ld, ipiv, B->data,
                    B->ld, info);
}

static axb_status gesv(axb_dense *A, int64_t *ipiv, axb_dense *B,
                       int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dgesv(h, A->rows, B->cols, A->data, A->ld, ipiv, B->data, B->ld,
                     info);
  return axb_sgesv(h, A->rows, B->cols, A->data, A->ld, ipiv, B->data, B->ld,
                   info);
}

/* ---- square factor and solves ----------------------------------------------
 */

/* Solve A X = B (or A^T X = B) with the factors of A and judge X. */
static void check_getrs(const axb_dense *A, const axb_dense *LU,
                        const int64_t *ipiv, axb_trans tr, const char *what) {
  axb_dense M =
      tr == AXB_NO_TRANS ? test_copy_ld(A, A->rows) : test_transpose(A);
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, &M, 3, AXB_RHS_RANDOM, 11, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st == AXB_SUCCESS) {
    axb_dense X = test_copy_ld(&B, B.rows + 2);
    int64_t info = -1;
    st = getrs(tr, LU, ipiv, &X, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    CHECK(info == 0, "%s: getrs info %lld", what, (long long)info);
    CHECK_RATIO(axb_check_solve(&M, &X, &B), "%s getrs trans=%d", what, tr);
    CHECK(test_padding_intact(&X), "%s: getrs wrote outside B", what);
    axb_dense_destroy(&X);
  }
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&M);
}

/* gesv on a copy of A; for AXB_GEN_COND also bound the forward error by
   the classical kappa * backward error estimate. */
static void check_gesv(const axb_dense *A, double kappa, const char *what) {
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, A, 2, AXB_RHS_RANDOM, 5, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  axb_dense F = test_copy_ld(A, A->rows + 1), X = test_copy_ld(&B, B.rows + 1);
  int64_t *ipiv = test_new_ipiv(A->rows), info = -1;
  st = gesv(&F, ipiv, &X, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: gesv info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_solve(A, &X, &B), "%s gesv", what);
  if (kappa > 0) {
    double n = (double)A->rows, eps = axb_eps(A->dtype);
    double fe = axb_forward_error(&X, &Xt);
    CHECK(fe <= 30 * n * kappa * eps, "%s: forward error %.3g > %.3g", what, fe,
          30 * n * kappa * eps);
  }
  free(ipiv);
  axb_dense_destroy(&F);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

/* getrf on A stored with lda = n + 3, then residual, pivots, solves. */
static void square_case(axb_gen_kind kind, int64_t n, axb_dtype t,
                        double kappa) {
  char what[96];
  snprintf(what, sizeof what, "%s n=%lld %s kappa=%g", axb_gen_kind_name(kind),
           (long long)n, axb_dtype_name(t), kappa);
  axb_dense A = test_gen(h, kind, n, t, kappa, 0, 42 + (uint64_t)n);
  axb_dense LU = test_copy_ld(&A, n + 3);
  int64_t *ipiv = test_new_ipiv(n), info = -1;
  axb_status st = getrf(&LU, ipiv, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "%s getrf", what);
  CHECK(test_padding_intact(&LU), "%s: getrf wrote outside A", what);
  int pivots_ok = 1;
  for (int64_t k = 0; k < n; ++k)
    pivots_ok &= ipiv[k] >= k + 1 && ipiv[k] <= n;
  CHECK(pivots_ok, "%s: a pivot index outside k+1..n", what);
  if (st == AXB_SUCCESS) {
    check_getrs(&A, &LU, ipiv, AXB_NO_TRANS, what);
    check_getrs(&A, &LU, ipiv, AXB_TRANS, what);
    check_gesv(&A, kind == AXB_GEN_COND ? kappa : 0, what);
  }
  free(ipiv);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

static void square_cases(axb_dtype t) {
  const int64_t small[] = {1, 2, 3, 5, 17, 31, 32, 33, 65};
  const axb_gen_kind kinds[] = {AXB_GEN_UNIFORM,       AXB_GEN_UNIFORM1000,
                                AXB_GEN_INTEGER,       AXB_GEN_DIAGONAL,
                                AXB_GEN_UPPER,         AXB_GEN_SPD_SHIFT,
                                AXB_GEN_DIAG_DOMINANT, AXB_GEN_SPD_GRAM};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; ++k)
    for (size_t i = 0; i < sizeof small / sizeof *small; ++i)
      square_case(kinds[k], small[i], t, 0);
  const double big_kappa = t == AXB_F64 ? 1e8 : 1e3;
  for (size_t i = 0; i < sizeof small / sizeof *small; ++i) {
    square_case(AXB_GEN_COND, small[i], t, 1e3);
    square_case(AXB_GEN_COND, small[i], t, big_kappa);
  }
  /* Hilbert: kappa(H_8) ~ 1.5e10, still a fine test of backward stability in
     double; float stops at 5 (kappa ~ 4.8e5). */
  for (int64_t n = 1; n <= (t == AXB_F64 ? 8 : 5); ++n)
    square_case(AXB_GEN_HILBERT, n, t, 0);
  const int64_t larger[] = {100, 257};
  for (size_t i = 0; i < sizeof larger / sizeof *larger; ++i) {
    square_case(AXB_GEN_UNIFORM, larger[i], t, 0);
    square_case(AXB_GEN_DIAG_DOMINANT, larger[i], t, 0);
    square_case(AXB_GEN_COND, larger[i], t, big_kappa);
  }
  square_case(AXB_GEN_UNIFORM, 501, t, 0);
}

/* ---- rectangular
 * ------------------------------------------------------------- */

/* ||P A - L U||_1 / (max(m,n) ||A||_1 eps) for an m x n getrf result: L is
   m x min(m,n) unit lower, U min(m,n) x n upper.  Computed in double. */
static double rect_lu_ratio(const axb_dense *A, const axb_dense *LU,
                            const int64_t *ipiv) {
  const int64_t m = A->rows, n = A->cols, k = m < n ? m : n;
  axb_dense W;
  if (axb_dense_create(&W, m, n, AXB_F64) != AXB_SUCCESS) return NAN;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      axb_dense_set(&W, i, j, axb_dense_get(A, i, j));
  for (int64_t r = 0; r < k; ++r) /* P A: interchanges in increasing order */
    for (int64_t j = 0; j < n; ++j) {
      const int64_t p = ipiv[r] - 1;
      const double x = axb_dense_get(&W, r, j);
      axb_dense_set(&W, r, j, axb_dense_get(&W, p, j));
      axb_dense_set(&W, p, j, x);
    }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      const int64_t top = i < j ? i : j;
      for (int64_t l = 0; l <= top && l < k; ++l) {
        const double lil = i == l ? 1 : axb_dense_get(LU, i, l);
        s += lil * axb_dense_get(LU, l, j);
      }
      axb_dense_set(&W, i, j, axb_dense_get(&W, i, j) - s);
    }
  const double resid = axb_matrix_norm(&W, AXB_NORM_ONE);
  const double anorm = axb_matrix_norm(A, AXB_NORM_ONE);
  axb_dense_destroy(&W);
  const double big = (double)(m > n ? m : n);
  return resid / (big * anorm * axb_eps(LU->dtype));
}

static void rect_case(int64_t m, int64_t n, axb_dtype t) {
  const int64_t big = m > n ? m : n, k = m < n ? m : n;
  axb_dense S = test_gen(h, AXB_GEN_UNIFORM, big, t, 0, 0, 7 + (uint64_t)m);
  axb_dense A = axb_dense_wrap(m, n, S.ld, t, S.data); /* leading block */
  axb_dense LU = test_copy_ld(&A, m + 2);
  int64_t *ipiv = test_new_ipiv(k), info = -1;
  axb_status st = getrf(&LU, ipiv, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%lldx%lld: info %lld", (long long)m, (long long)n,
        (long long)info);
  CHECK_RATIO(rect_lu_ratio(&A, &LU, ipiv), "getrf %lldx%lld %s", (long long)m,
              (long long)n, axb_dtype_name(t));
  CHECK(test_padding_intact(&LU), "%lldx%lld: getrf wrote outside A",
        (long long)m, (long long)n);
  free(ipiv);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&S);
}

static void rect_cases(axb_dtype t) {
  const int64_t shapes[][2] = {{1, 4},   {4, 1},   {5, 3},    {3, 5},
                               {70, 33}, {33, 70}, {100, 40}, {40, 100}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i)
    rect_case(shapes[i][0], shapes[i][1], t);
}

/* ---- singular, ties, NaN, empty ---------------------------------------------
 */

/* Column col zeroed: U(col,col) is exactly zero (or an earlier pivot is), so
   info is in 1..col+1 (LAPACK gives col+1 for a random matrix); getrf still
   completes the factorization, so P A = L U holds; gesv and getrs-free
   paths report the same. */
static void singular_case(int64_t n, int64_t col, axb_dtype t) {
  axb_dense A = test_gen(h, AXB_GEN_SINGULAR, n, t, 0, col, 3);
  axb_dense LU = test_copy_ld(&A, n + 1);
  int64_t *ipiv = test_new_ipiv(n), info = -1;
  axb_status st = getrf(&LU, ipiv, &info);
  CHECK_STATUS(h, st, AXB_ERR_SINGULAR);
  CHECK(info >= 1 && info <= col + 1, "n=%lld zero column %lld: info %lld",
        (long long)n, (long long)col, (long long)info);
  CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "singular n=%lld col=%lld %s",
              (long long)n, (long long)col, axb_dtype_name(t));
  axb_dense F = test_copy_ld(&A, n), B = test_copy_ld(&A, n); /* any n x n B */
  int64_t gi = -1;
  st = gesv(&F, ipiv, &B, &gi);
  CHECK_STATUS(h, st, AXB_ERR_SINGULAR);
  CHECK(gi == info, "gesv info %lld, getrf info %lld", (long long)gi,
        (long long)info);
  free(ipiv);
  axb_dense_destroy(&F);
  axb_dense_destroy(&B);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

/* A zero matrix: every pivot is zero; info = 1 and L U = 0 = P A. */
static void zero_matrix(axb_dtype t) {
  axb_dense Z;
  axb_dense_create(&Z, 4, 4, t);
  int64_t ipiv[4], info = -1;
  axb_status st = getrf(&Z, ipiv, &info);
  CHECK_STATUS(h, st, AXB_ERR_SINGULAR);
  CHECK(info == 1, "zero matrix: info %lld", (long long)info);
  axb_dense_destroy(&Z);
}

/* Equal magnitudes: LAPACK takes the first, i.e. no interchange. */
static void pivot_ties(void) {
  double a[4] = {1, -1, 2, 3}; /* [[1, 2], [-1, 3]] */
  int64_t ipiv[2], info = -1;
  axb_status st = axb_dgetrf(h, 2, 2, a, 2, ipiv, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(ipiv[0] == 1 && ipiv[1] == 2, "ties: ipiv %lld %lld",
        (long long)ipiv[0], (long long)ipiv[1]);
}

/*
 * NaN in the input: the typed routines do not scan for it (axb_solve does,
 * AXB_ERR_INVALID).  The reference getrf never takes NaN for a zero pivot,
 * so it returns AXB_SUCCESS (AXB_ERR_SINGULAR is allowed too, for a backend
 * whose exact-zero test sees an earlier zero) and the NaN reaches the
 * factors, where the LU check cannot pass.
 */
static void nan_input(axb_dtype t) {
  axb_dense A = test_gen(h, AXB_GEN_UNIFORM, 6, t, 0, 0, 9);
  axb_dense_set(&A, 2, 1, NAN);
  axb_dense LU = test_copy_ld(&A, 6);
  int64_t ipiv[6], info = -1;
  axb_status st = getrf(&LU, ipiv, &info);
  CHECK(st == AXB_SUCCESS || st == AXB_ERR_SINGULAR, "NaN input: status %d",
        st);
  CHECK(any_nan(&LU), "NaN input vanished from the factors");
  const double r = axb_check_lu(&A, &LU, ipiv);
  CHECK(!(r < TEST_THRESHOLD), "NaN input passed the LU check (%g)", r);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

/* m = 0 or n = 0: nothing to do, info = 0, arrays may be NULL. */
static void empty_sizes(void) {
  int64_t info = -1;
  CHECK_STATUS(h, axb_dgetrf(h, 0, 0, NULL, 1, NULL, &info), AXB_SUCCESS);
  CHECK(info == 0, "getrf 0x0 info %lld", (long long)info);
  CHECK_STATUS(h, axb_sgetrf(h, 0, 5, NULL, 1, NULL, &info), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dgetrf(h, 5, 0, NULL, 5, NULL, &info), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dgesv(h, 0, 3, NULL, 1, NULL, NULL, 1, &info),
               AXB_SUCCESS);
  CHECK_STATUS(h,
               axb_sgetrs(h, AXB_NO_TRANS, 0, 1, NULL, 1, NULL, NULL, 1, &info),
               AXB_SUCCESS);
  CHECK(info == 0, "empty info %lld", (long long)info);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  empty_sizes();
  pivot_ties();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    square_cases(types[i]);
    rect_cases(types[i]);
    singular_case(1, 0, types[i]);
    singular_case(5, 0, types[i]);
    singular_case(33, 16, types[i]);
    singular_case(65, 64, types[i]);
    singular_case(100, 37, types[i]);
    singular_case(300, 270, types[i]); /* past an outer block of 256 */
    zero_matrix(types[i]);
    nan_input(types[i]);
  }
  axb_handle_destroy(h);
  return test_finish("test_lu");
}
