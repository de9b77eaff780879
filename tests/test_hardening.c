/*
 * Regression tests of issue 19 ("Hardening"): each case failed on the code
 * before the issue and must keep passing.
 *   1. sparse solves with entries near 1e-300 ... 1e170: right answer or a
 *      failing status, never a wrong answer as converged;
 *   2. the sparse path's memory bound (AXB_MEMORY_LIMIT lowers what the
 *      library believes is available, so the guard is tested cheaply);
 *   4. size products and ipiv entries checked in the typed layer;
 *   5. a detail message with every failure, also without a handle.
 * Runs per CPU-side backend (AXB_TEST_PER_BACKEND).
 */
#include "testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 1-D Laplacian-like SPD tridiagonal (2.5 on the diagonal, -1 beside it),
   every value times `scale`, as CSR of dtype t. */
static axb_csr lap1d(int64_t n, double scale, axb_dtype t) {
  axb_csr A;
  int64_t nnz = 3 * n - 2;
  axb_status st = axb_csr_create(&A, n, n, nnz, t);
  CHECK(st == AXB_SUCCESS, "csr_create");
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    A.rowptr[i] = k;
    for (int64_t j = i - 1; j <= i + 1; ++j) {
      if (j < 0 || j >= n) continue;
      double v = (i == j ? 2.5 : -1.0) * scale;
      A.colind[k] = j;
      if (t == AXB_F64)
        ((double *)A.values)[k] = v;
      else
        ((float *)A.values)[k] = (float)v;
      ++k;
    }
  }
  A.rowptr[n] = k;
  return A;
}

static long double val(const void *v, axb_dtype t, int64_t k) {
  return t == AXB_F64 ? (long double)((const double *)v)[k]
                      : (long double)((const float *)v)[k];
}

/* ||b - A x||_2 / ||b||_2 in long double (its exponent range holds every
   product of doubles). */
static double rel_res(const axb_csr *A, const axb_dense *B,
                      const axb_dense *X) {
  long double rr = 0, bb = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    long double bi = val(B->data, B->dtype, i), ri = bi;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      ri -= val(A->values, A->dtype, k) * val(X->data, X->dtype, A->colind[k]);
    rr += ri * ri;
    bb += bi * bi;
  }
  return (double)(sqrtl(rr) / sqrtl(bb));
}

/* b = A * ones (rounded to t), scaled by bscale. */
static void rhs_ones(const axb_csr *A, double bscale, axb_dense *B) {
  for (int64_t i = 0; i < A->rows; ++i) {
    long double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s += val(A->values, A->dtype, k);
    s *= bscale;
    if (B->dtype == AXB_F64)
      ((double *)B->data)[i] = (double)s;
    else
      ((float *)B->data)[i] = (float)s;
  }
}

static void test_extreme_scaling(axb_handle h) {
  const double scales_d[][2] = {
      {1e-160, 1}, {1e-300, 1},     {1e170, 1},      {1, 1e-200},
      {1, 1e250},  {1e-300, 1e300}, {1e300, 1e-300}, {1e-160, 1e-160}};
  const double scales_s[][2] = {
      {1e-30, 1}, {1e30, 1}, {1, 1e-35}, {1e-20, 1e20}};
  const char *methods[] = {"cg", "cg1", "bicgstab", "gmres"};
  const char *precs[] = {"none", "jacobi", "ilu0", "ic0", "parilu", "paric"};
  for (int dt = 0; dt < 2; ++dt) {
    axb_dtype t = dt ? AXB_F32 : AXB_F64;
    int ns = dt ? 4 : 8;
    double tol = dt ? 1e-5 : 1e-10;
    for (int si = 0; si < ns; ++si) {
      double as = dt ? scales_s[si][0] : scales_d[si][0];
      double bs = dt ? scales_s[si][1] : scales_d[si][1];
      axb_csr A = lap1d(40, as, t);
      axb_dense B, X;
      axb_dense_create(&B, 40, 1, t);
      axb_dense_create(&X, 40, 1, t);
      rhs_ones(&A, bs, &B);
      for (int mi = 0; mi < 4; ++mi)
        for (int pi = 0; pi < 6; ++pi) {
          axb_sparse_opts o;
          axb_sparse_opts_default(&o);
          axb_sparse_method_parse(methods[mi], &o.method);
          axb_precond_parse(precs[pi], &o.precond);
          o.tol = tol;
          axb_sparse_report r;
          axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
          double res = rel_res(&A, &B, &X);
          CHECK(st == AXB_SUCCESS && res <= 10 * tol,
                "%s %s/%s A*%g b*%g: status %s, long-double residual %.3g "
                "(reported true %.3g); %s",
                axb_dtype_name(t), methods[mi], precs[pi], as, bs,
                axb_strerror(st), res, r.true_residual, axb_detail(h));
          axb_sparse_report_free(&r);
        }
      axb_dense_destroy(&B);
      axb_dense_destroy(&X);
      axb_csr_destroy(&A);
    }
  }
}

/* A right-hand side whose range spans more than double's: no exact
   scaling exists, and the answer must not be "converged". */
static void test_unscalable_rhs(axb_handle h) {
  axb_csr A = lap1d(8, 1, AXB_F64);
  axb_dense B, X;
  axb_dense_create(&B, 8, 1, AXB_F64);
  axb_dense_create(&X, 8, 1, AXB_F64);
  double *b = B.data;
  for (int i = 0; i < 8; ++i)
    b[i] = 1e-300;
  b[3] = 1e300;
  b[5] = 4.9e-324; /* subnormal: no downward scaling is exact */
  axb_sparse_report r;
  axb_status st = axb_sparse_solve(h, &A, &B, &X, NULL, &r);
  double res = rel_res(&A, &B, &X);
  CHECK(st != AXB_SUCCESS || res <= 1e-7, "wide b: status %s residual %.3g",
        axb_strerror(st), res);
  CHECK(st == AXB_SUCCESS || axb_detail(h)[0], "wide b: no detail");
  axb_sparse_report_free(&r);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&A);
}

/* Item 2: n = 4e6 with three entries; the library is told 200 MB are
   available, a CG solve needs more: refused before any vector exists. */
static void test_sparse_memory_bound(axb_handle h) {
  const int64_t n = 4000000;
  axb_csr A;
  if (axb_csr_create(&A, n, n, 3, AXB_F64)) return;
  memset(A.rowptr, 0, (size_t)(n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= n; ++i)
    A.rowptr[i] = i < 1 ? 0 : i < 3 ? i : 3;
  for (int k = 0; k < 3; ++k) {
    A.colind[k] = k;
    ((double *)A.values)[k] = 1;
  }
  axb_dense B, X;
  axb_dense_create(&B, n, 1, AXB_F64);
  axb_dense_create(&X, n, 1, AXB_F64);
  ((double *)B.data)[0] = 1;
  setenv("AXB_MEMORY_LIMIT", "200000000", 1);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = AXB_SPARSE_CG;
  o.precond = AXB_PRECOND_NONE;
  axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, NULL);
  CHECK_STATUS(h, st, AXB_ERR_OUT_OF_MEMORY);
  CHECK(strstr(axb_detail(h), "n = 4000000") != NULL, "detail: %s",
        axb_detail(h));
  unsetenv("AXB_MEMORY_LIMIT");
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&A);
}

int main(int argc, char **argv) {
  axb_handle h = test_handle(test_backend_arg(argc, argv));
  if (!h) return 1;
  test_extreme_scaling(h);
  test_unscalable_rhs(h);
  test_sparse_memory_bound(h);
  axb_handle_destroy(h);
  return test_finish("test_hardening");
}
