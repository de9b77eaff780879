/*
 * Issue 23: AUTO's pre-estimate before UMFPACK's analysis (sparse_solve.c,
 * auto_pre_skip).  The two O(nnz) gates (envelope bound of A's own order,
 * share of the pattern that is symmetric) against values worked out by
 * hand; then AUTO on a matrix where AMD's estimate must NOT skip the direct
 * path (a 2-D Poisson pattern scattered by a permutation: the envelope
 * bound is far above the limit, AMD's count far below) and on one where it
 * must (a random pattern of degree ~16, n = 10000: an expander, whose LU
 * fills in almost completely); each answer judged by this test's own
 * relative residual, and the report's path must name the estimate that
 * decided.  With ../shared/matrices: cage10 skips, gemat12 (pattern 0.1 %
 * symmetric: AMD of A + A^T is 3800x UMFPACK's estimate) never runs it.
 */
#include "sparse/sparse_direct.h"
#include "sparse/sparse_host.h"
#include "sparse_testing.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t i, j;
  double v;
} entry;

static int by_pos(const void *a, const void *b) {
  const entry *x = a, *y = b;
  return x->i != y->i   ? (x->i < y->i ? -1 : 1)
         : x->j != y->j ? (x->j < y->j ? -1 : 1)
                        : 0;
}

/* CSR of the m entries e (sorted here; repeated positions summed). */
static axb_csr from_entries(int64_t n, entry *e, int64_t m) {
  qsort(e, (size_t)m, sizeof *e, by_pos);
  int64_t u = 0;
  for (int64_t k = 0; k < m; ++k)
    if (u > 0 && e[u - 1].i == e[k].i && e[u - 1].j == e[k].j)
      e[u - 1].v += e[k].v;
    else
      e[u++] = e[k];
  axb_csr A;
  if (axb_csr_create(&A, n, n, u, AXB_F64)) exit(1);
  memset(A.rowptr, 0, (size_t)(n + 1) * sizeof(int64_t));
  for (int64_t k = 0; k < u; ++k) {
    ++A.rowptr[e[k].i + 1];
    A.colind[k] = e[k].j;
    ((double *)A.values)[k] = e[k].v;
  }
  for (int64_t i = 0; i < n; ++i)
    A.rowptr[i + 1] += A.rowptr[i];
  return A;
}

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

/* Off-diagonal entries -u (u in [0.1, 1), drawn per entry: the values are
   not symmetric, so AUTO analyses for UMFPACK) and a diagonal 1 + the
   row's absolute sum (strictly diagonally dominant: ILU(0) exists and
   GMRES converges in a few iterations). */
static void dominant_values(axb_csr *A, uint64_t seed) {
  double *v = A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = 1;
    int64_t d = -1;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (A->colind[k] == i)
        d = k;
      else
        s += (v[k] = -(0.1 + 0.9 * (double)(lcg(&seed) % 1000) / 1000));
    if (d < 0) exit(1);
    v[d] = 2 - s; /* s = 1 - sum |a_ij| */
  }
}

/* The 5-point pattern of a g x g grid, node (x, y) numbered
   p(x + g y) = (k (x + g y)) mod n with k coprime to n: neighbours land
   far apart, so the envelope of this order is nearly full. */
static axb_csr scattered_poisson(int64_t g, int64_t k) {
  int64_t n = g * g, m = 0;
  entry *e = malloc((size_t)(5 * n) * sizeof *e);
  if (!e) exit(1);
  for (int64_t y = 0; y < g; ++y)
    for (int64_t x = 0; x < g; ++x) {
      int64_t i = (k * (x + g * y)) % n;
      const int64_t dx[5] = {0, 1, -1, 0, 0}, dy[5] = {0, 0, 0, 1, -1};
      for (int t = 0; t < 5; ++t) {
        int64_t xx = x + dx[t], yy = y + dy[t];
        if (xx < 0 || yy < 0 || xx >= g || yy >= g) continue;
        e[m++] = (entry){i, (k * (xx + g * yy)) % n, 1};
      }
    }
  axb_csr A = from_entries(n, e, m);
  free(e);
  dominant_values(&A, 7);
  return A;
}

/* A random symmetric pattern: each row i joined to `deg` random j, both
   (i, j) and (j, i) stored, and the diagonal. */
static axb_csr random_pattern(int64_t n, int deg, uint64_t seed) {
  entry *e = malloc((size_t)(n * (2 * deg + 1)) * sizeof *e);
  if (!e) exit(1);
  int64_t m = 0;
  for (int64_t i = 0; i < n; ++i) {
    e[m++] = (entry){i, i, 1};
    for (int t = 0; t < deg; ++t) {
      int64_t j = (int64_t)(lcg(&seed) % (uint64_t)n);
      if (j == i) continue;
      e[m++] = (entry){i, j, 1};
      e[m++] = (entry){j, i, 1};
    }
  }
  axb_csr A = from_entries(n, e, m);
  free(e);
  dominant_values(&A, seed);
  return A;
}

typedef struct {
  axb_status st;
  axb_sparse_report r;
  double res;
} outcome;

static double xtrue(int64_t i, int64_t j) {
  return 1 + (double)((i + 3 * j) % 7) / 8;
}

static outcome auto_solve(axb_handle h, const axb_csr *A) {
  outcome o;
  axb_dense Xt, B, X;
  csr_make_rhs(A, 1, &Xt, &B, xtrue);
  if (axb_dense_create(&X, A->rows, 1, AXB_F64)) exit(1);
  axb_sparse_opts opts;
  axb_sparse_opts_default(&opts);
  o.st = axb_sparse_solve(h, A, &B, &X, &opts, &o.r);
  o.res = csr_rel_residual(A, &X, &B);
  axb_sparse_report_free(&o.r);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return o;
}

static void gates(void) {
  /* Tridiagonal, n = 5: w_k = 1 for k >= 1, 4 (2 + 1) flops. */
  double t[25] = {2, 1, 0, 0, 0, 1, 2, 1, 0, 0, 0, 1, 2,
                  1, 0, 0, 0, 1, 2, 1, 0, 0, 0, 1, 2};
  axb_csr T = csr_rows(5, t, AXB_F64);
  double fl = axb__csr_envelope_flops(&T);
  CHECK(fl == 12, "tridiagonal envelope flops %.17g, want 12", fl);
  CHECK(axb__csr_pattern_symmetry(&T) == 1, "tridiagonal symmetry");
  axb_csr_destroy(&T);
  /* Off the diagonal (1, 2), (2, 3), (3, 1), (3, 2): column 2's first row
     is 1 (w_2 = 1: 3 flops), row 3's first column 1 (w_3 = 2: 10 flops),
     w_0 = w_1 = 0; (2, 3) and (3, 2) are matched, (1, 2) and (3, 1) not:
     2 of 4. */
  double a[16] = {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1};
  axb_csr S = csr_rows(4, a, AXB_F64);
  fl = axb__csr_envelope_flops(&S);
  CHECK(fl == 13, "envelope flops %.17g, want 13", fl);
  CHECK(axb__csr_pattern_symmetry(&S) == 0.5, "symmetry %.17g",
        axb__csr_pattern_symmetry(&S));
  axb_csr_destroy(&S);
}

static void decisions(axb_handle h) {
  /* Must not skip: the envelope bound is far above the direct limit (so
     the pre-estimate runs), AMD's count (a 2-D grid) far below it. */
  axb_csr P = scattered_poisson(50, 37);
  CHECK(axb__csr_envelope_flops(&P) > 1e9, "scattered envelope %.3g",
        axb__csr_envelope_flops(&P));
  outcome o = auto_solve(h, &P);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  CHECK(o.res <= 1.01e-8, "scattered Poisson residual %.3g", o.res);
  CHECK(o.r.method == AXB_SPARSE_DIRECT &&
            strstr(o.r.path, "pre-estimate: AMD on the pattern") &&
            strstr(o.r.path, "direct: umfpack"),
        "scattered Poisson: method %d, path '%s'", (int)o.r.method, o.r.path);
  CHECK(o.r.t_analysis > 0, "t_analysis %.3g", o.r.t_analysis);
  axb_csr_destroy(&P);

  /* Must skip: a random pattern's LU fills in (AMD's count > 10x the limit
     of 1e9 flops). */
  axb_csr R = random_pattern(10000, 8, 11);
  double fl = 0;
  CHECK_STATUS(h, axb__direct_preestimate(h, &R, &fl), AXB_SUCCESS);
  CHECK(fl > 1e10, "random pattern: AMD's LU count %.3g", fl);
  o = auto_solve(h, &R);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  CHECK(o.res <= 1.01e-8, "random pattern residual %.3g", o.res);
  CHECK(o.r.method != AXB_SPARSE_DIRECT &&
            strncmp(o.r.path, "iterative: AMD on the pattern", 29) == 0 &&
            strstr(o.r.path, "no direct analysis"),
        "random pattern: method %d, path '%s'", (int)o.r.method, o.r.path);
  axb_csr_destroy(&R);
}

static void shared(axb_handle h, const char *dir) {
  const char *name[2] = {"cage10", "gemat12"};
  for (int k = 0; k < 2; ++k) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.mtx", dir, name[k]);
    axb_csr A;
    if (axb_read_csr(h, path, AXB_F64, &A)) {
      fprintf(stderr, "note: %s not read: skipped\n", path);
      continue;
    }
    outcome o = auto_solve(h, &A);
    CHECK_STATUS(h, o.st, AXB_SUCCESS);
    CHECK(o.res <= 1.01e-8, "%s residual %.3g", name[k], o.res);
    if (k == 0)
      CHECK(o.r.method == AXB_SPARSE_GMRES &&
                strstr(o.r.path, "iterative: AMD on the pattern"),
            "cage10: method %d, path '%s'", (int)o.r.method, o.r.path);
    else
      CHECK(o.r.method == AXB_SPARSE_DIRECT && !strstr(o.r.path, "AMD on"),
            "gemat12: method %d, path '%s'", (int)o.r.method, o.r.path);
    axb_csr_destroy(&A);
  }
}

int main(void) {
  axb_handle h = test_handle(AXB_BACKEND_CPU);
  gates();
  if (axb__direct_available()) {
    decisions(h);
    const char *dir = test_matrices_or_note("pre-estimate");
    if (dir) shared(h, dir);
  } else {
    double fl = 1;
    axb_csr P = scattered_poisson(5, 3);
    CHECK_STATUS(h, axb__direct_preestimate(h, &P, &fl), AXB_ERR_NOT_SUPPORTED);
    axb_csr_destroy(&P);
  }
  axb_handle_destroy(h);
  return test_finish("test_sparse_preest");
}
