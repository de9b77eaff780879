/*
 * Issue 23: the host-side set-up of the sparse Krylov path that AUTO runs
 * on a CUDA handle for large SPD matrices.  The one-pass symmetry test
 * (cursors walking each row) against the per-entry mirror search, on
 * symmetric matrices and on ones broken in a value, in the pattern (a
 * missing mirror, an extra entry at a row's end); the level-parallel IC(0)
 * against the sequential one: the same factor bit for bit on 1, 2 and 3
 * threads (double and float), the same failing row when a pivot is <= 0;
 * the input check's one pass over the values names the row of a NaN
 * after an empty row, in both dtypes.
 */
#include "sparse/sparse_host.h"
#include "sparse_testing.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The mirror of every entry by binary search: the reference. */
static int symmetric_ref(const axb_csr *A, int values) {
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      int64_t t = axb__csr_find(A->rowptr, A->colind, A->colind[k], i);
      if (t < 0 || (values && csr_val(A, t) != csr_val(A, k))) return 0;
    }
  return 1;
}

static void check_sym(const axb_csr *A, int want, const char *what) {
  for (int values = 0; values < 2; ++values) {
    int got = axb__csr_is_symmetric(A, values);
    int ref = symmetric_ref(A, values);
    CHECK(got == ref && (values ? got == want : 1),
          "%s (values %d): symmetric %d, reference %d, want %d", what, values,
          got, ref, want);
  }
}

static void symmetry(axb_handle h) {
  axb_csr A = test_gen_csr(h, "poisson2d:9", AXB_F64);
  check_sym(&A, 1, "poisson2d:9");
  double *v = A.values;
  int64_t k = A.rowptr[40] + 1; /* an off-diagonal entry of row 40 */
  double keep = v[k];
  v[k] *= 1 + 1e-15;
  check_sym(&A, 0, "one value changed");
  v[k] = keep;
  axb_csr_destroy(&A);
  /* Patterns: (0, 2) without (2, 0); and (2, 3) at the end of row 2
     without (3, 2). */
  double a[16] = {4, 1, 1, 0, 1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4};
  axb_csr B = csr_rows(4, a, AXB_F64);
  check_sym(&B, 0, "missing mirror");
  axb_csr_destroy(&B);
  double c[16] = {4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4, 1, 0, 0, 0, 4};
  axb_csr C = csr_rows(4, c, AXB_F64);
  check_sym(&C, 0, "extra entry at a row's end");
  axb_csr_destroy(&C);
  double d[1] = {3};
  axb_csr D = csr_rows(1, d, AXB_F32);
  check_sym(&D, 1, "1 x 1 float");
  axb_csr_destroy(&D);
}

static void ic0_parallel(axb_handle h, axb_dtype t) {
  axb_csr A = test_gen_csr(h, "poisson3d:12", t);
  axb_spf_pattern_owned P;
  int64_t info = 0;
  CHECK_STATUS(h,
               axb__spf_pattern_build_some(&A, AXB_SPF_IC, AXB_SPF_NEED_LEVELS,
                                           &P, &info),
               AXB_SUCCESS);
  size_t es = axb_dtype_size(t), bytes = (size_t)A.nnz * es;
  void *f = malloc(bytes), *g = malloc(bytes);
  if (!f || !g) exit(1);
  for (int bad = 0; bad < 2; ++bad) {
    if (bad) { /* a pivot <= 0 in row 1000 (1-based 1001) */
      if (t == AXB_F64)
        ((double *)A.values)[P.p.diag[1000]] = -1;
      else
        ((float *)A.values)[P.p.diag[1000]] = -1;
    }
    int64_t i1 = 0;
    axb_status s1 = t == AXB_F64 ? axb__spf_ic0_d(&P.p, A.values, f, &i1)
                                 : axb__spf_ic0_s(&P.p, A.values, f, &i1);
    CHECK(bad ? s1 == AXB_ERR_NOT_SPD && i1 == 1001 : s1 == AXB_SUCCESS,
          "sequential IC(0): status %d row %lld", s1, (long long)i1);
    for (int threads = 1; threads <= 3; ++threads) {
      int64_t i2 = 0;
      memset(g, 0, bytes);
      axb_status s2 = t == AXB_F64
                          ? axb__spf_ic0_par_d(&P.p, A.values, g, threads, &i2)
                          : axb__spf_ic0_par_s(&P.p, A.values, g, threads, &i2);
      CHECK(s2 == s1 && i2 == i1 && (bad || memcmp(f, g, bytes) == 0),
            "%s IC(0) on %d threads%s: status %d / %d, row %lld / %lld, "
            "factor %s",
            axb_dtype_name(t), threads, bad ? " (pivot <= 0)" : "", s2, s1,
            (long long)i2, (long long)i1,
            memcmp(f, g, bytes) ? "differs" : "the same");
    }
  }
  free(f);
  free(g);
  axb__spf_pattern_free(&P);
  axb_csr_destroy(&A);
}

static void nonfinite_row(axb_handle h) {
  for (int t = 0; t < 2; ++t) {
    /* row 2 (1-based) is empty; the NaN is (3, 3) */
    double a[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, NAN, 0, 0, 0, 0, 1};
    axb_csr A = csr_rows(4, a, t ? AXB_F32 : AXB_F64);
    axb_dense B, X;
    if (axb_dense_create(&B, 4, 1, A.dtype) ||
        axb_dense_create(&X, 4, 1, A.dtype))
      exit(1);
    CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, NULL, NULL),
                 AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "non-finite value in row 3") != NULL,
          "detail '%s'", axb_detail(h));
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
    axb_csr_destroy(&A);
  }
}

int main(void) {
  axb_handle h = test_handle(AXB_BACKEND_CPU);
  symmetry(h);
  nonfinite_row(h);
  ic0_parallel(h, AXB_F64);
  ic0_parallel(h, AXB_F32);
  axb_handle_destroy(h);
  return test_finish("test_sparse_hostsetup");
}
