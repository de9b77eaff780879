/*
 * Issue 23: the host-side set-up of the sparse Krylov path that AUTO runs
 * on a CUDA handle for large SPD matrices.  The one-pass symmetry test
 * (cursors walking each row) and the threaded one (1-3 threads, on a
 * matrix large enough for it) against the per-entry mirror search, on
 * symmetric matrices and on ones broken in a value, in the pattern (a
 * missing mirror, an extra entry at a row's end); the input check's one
 * pass over the values names the row of a NaN after an empty row, in
 * both dtypes.
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
    int ref = symmetric_ref(A, values);
    for (int threads = 0; threads <= 3; ++threads) { /* 0: the walk */
      int got = threads ? axb__csr_is_symmetric_par(A, values, threads)
                        : axb__csr_is_symmetric(A, values);
      CHECK(got == ref && (values ? got == want : 1),
            "%s (values %d, threads %d): symmetric %d, reference %d, want %d",
            what, values, threads, got, ref, want);
    }
  }
}

/* A without its entry k (a new CSR). */
static axb_csr drop_entry(const axb_csr *A, int64_t k) {
  axb_csr B;
  if (axb_csr_create(&B, A->rows, A->cols, A->nnz - 1, A->dtype)) exit(1);
  size_t es = axb_dtype_size(A->dtype);
  for (int64_t q = 0, o = 0; q < A->nnz; ++q)
    if (q != k) {
      B.colind[o] = A->colind[q];
      memcpy((char *)B.values + o * es, (const char *)A->values + q * es, es);
      ++o;
    }
  for (int64_t i = 0; i <= A->rows; ++i)
    B.rowptr[i] = A->rowptr[i] - (A->rowptr[i] > k);
  return B;
}

/* Large enough for the threaded test (nnz >= 65536): poisson3d:30. */
static void symmetry_large(axb_handle h) {
  axb_csr A = test_gen_csr(h, "poisson3d:30", AXB_F64);
  check_sym(&A, 1, "poisson3d:30");
  double *v = A.values;
  int64_t k = A.rowptr[20000] + 1;
  double keep = v[k];
  v[k] *= 2;
  check_sym(&A, 0, "poisson3d:30, one value changed");
  v[k] = keep;
  axb_csr U = drop_entry(&A, A.rowptr[27000 - 1]); /* lower: (26999, 26099) */
  check_sym(&U, 0, "poisson3d:30 without one entry below the diagonal");
  axb_csr_destroy(&U);
  axb_csr L = drop_entry(&A, A.rowptr[1] - 1); /* upper: row 0's last */
  check_sym(&L, 0, "poisson3d:30 without one entry above the diagonal");
  axb_csr_destroy(&L);
  axb_csr_destroy(&A);
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
  symmetry_large(h);
  nonfinite_row(h);
  axb_handle_destroy(h);
  return test_finish("test_sparse_hostsetup");
}
