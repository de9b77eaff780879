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

/* A right-hand side whose range spans more than double's (1e300 beside
   1e-300 and a subnormal): scaled, its tiny entries flush, and the answer
   is certified on the caller's b; right, or a failing status. */
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

/* Item 2: n = 4e6 with three entries; the library is told 20 MB are
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
  setenv("AXB_MEMORY_LIMIT", "20000000", 1);
  axb_sparse_opts o = test_sparse_opts(AXB_SPARSE_CG, AXB_PRECOND_NONE);
  axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, NULL);
  CHECK_STATUS(h, st, AXB_ERR_OUT_OF_MEMORY);
  CHECK(strstr(axb_detail(h), "n = 4000000") != NULL, "detail: %s",
        axb_detail(h));
  /* The same check for a caller before its own vectors exist. */
  CHECK_STATUS(h, axb_sparse_check_memory(h, &A, 1, &o, 3),
               AXB_ERR_OUT_OF_MEMORY);
  setenv("AXB_MEMORY_LIMIT", "100000000000000", 1); /* cannot raise it */
  unsetenv("AXB_MEMORY_LIMIT");
  CHECK_STATUS(h, axb_sparse_check_memory(h, &A, 1, &o, 3), AXB_SUCCESS);
  CHECK_STATUS(h, axb_sparse_check_memory(h, &A, -1, &o, 3), AXB_ERR_INVALID);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&A);
}

/* Item 4: size products and pivots. */
static void test_api_sizes(axb_handle h) {
  double a[16] = {4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4, 1, 0, 0, 1, 4};
  double b[4] = {1, 2, 3, 4};
  int64_t ipiv[4], info = 0;
  /* n = 3037000500: lda * n * 8 overflows int64; a small buffer must not
     be touched. */
  const int64_t big = 3037000500LL;
  axb_status st = axb_dgetrf(h, big, big, a, big, ipiv, &info);
  CHECK(st < 0 && st > -100 && info == st && axb_detail(h)[0],
        "getrf n = %lld: status %d info %lld (%s)", (long long)big, st,
        (long long)info, axb_detail(h));
  st = axb_dpotrf(h, AXB_LOWER, big, a, big, &info);
  CHECK(st < 0 && st > -100, "potrf huge: %d (%s)", st, axb_detail(h));
  st = axb_dgesv(h, 4, big, a, 4, ipiv, b, big, &info);
  CHECK(st < 0 && st > -100, "gesv huge nrhs: %d (%s)", st, axb_detail(h));
  axb_dense A = axb_dense_wrap(big, big, big, AXB_F64, a);
  axb_dense B = axb_dense_wrap(big, 1, big, AXB_F64, b);
  st = axb_solve(h, &A, &B, NULL, NULL);
  CHECK(st == AXB_ERR_INVALID && strstr(axb_detail(h), "overflows"),
        "axb_solve huge descriptor: %d (%s)", st, axb_detail(h));
  double inv[16];
  axb_dense A4 = axb_dense_wrap(4, 4, 4, AXB_F64, a);
  axb_dense Xbig = axb_dense_wrap(4, 4, INT64_MAX / 4, AXB_F64, inv);
  st = axb_invert(h, &A4, &Xbig, AXB_METHOD_LU);
  CHECK(st == AXB_ERR_INVALID && strstr(axb_detail(h), "overflows"),
        "axb_invert X with a huge ld: %d (%s)", st, axb_detail(h));
  /* ipiv out of range: 99, -5, 0 for n = 4 (1-based). */
  const int64_t badv[3] = {99, -5, 0};
  for (int k = 0; k < 3; ++k) {
    double lu[16];
    memcpy(lu, a, sizeof lu);
    CHECK_STATUS(h, axb_dgetrf(h, 4, 4, lu, 4, ipiv, &info), AXB_SUCCESS);
    ipiv[2] = badv[k];
    double x[4] = {1, 2, 3, 4};
    st = axb_dgetrs(h, AXB_NO_TRANS, 4, 1, lu, 4, ipiv, x, 4, &info);
    CHECK(st == -6 && info == -6 && strstr(axb_detail(h), "ipiv"),
          "dgetrs ipiv %lld: %d (%s)", (long long)badv[k], st, axb_detail(h));
    st = axb_dgetrs(h, AXB_TRANS, 4, 1, lu, 4, ipiv, x, 4, &info);
    CHECK(st == -6, "dgetrs^T ipiv %lld: %d", (long long)badv[k], st);
    st = axb_dgetri(h, 4, lu, 4, ipiv, &info);
    CHECK(st == -4 && strstr(axb_detail(h), "ipiv"), "dgetri ipiv %lld: %d",
          (long long)badv[k], st);
    float luf[16], xf[4] = {1, 2, 3, 4};
    for (int i = 0; i < 16; ++i)
      luf[i] = (float)lu[i];
    st = axb_sgetrs(h, AXB_NO_TRANS, 4, 1, luf, 4, ipiv, xf, 4, &info);
    CHECK(st == -6, "sgetrs ipiv %lld: %d", (long long)badv[k], st);
    /* the batched getrs on host arrays: two problems, the second bad */
    if (axb_handle_backend(h) != AXB_BACKEND_CUDA) {
      double lu2[32], x2[8] = {1, 2, 3, 4, 1, 2, 3, 4};
      int ip2[8], inf2[2];
      memcpy(lu2, a, sizeof a);
      memcpy(lu2 + 16, a, sizeof a);
      CHECK_STATUS(h, axb_dgetrf_batched(h, 4, lu2, 4, 16, ip2, 4, inf2, 2),
                   AXB_SUCCESS);
      ip2[4 + 2] = (int)badv[k];
      st = axb_dgetrs_batched(h, 4, 1, lu2, 4, 16, ip2, 4, x2, 4, 4, 2);
      CHECK(st == -6 && strstr(axb_detail(h), "ipiv") && x2[0] == 1 &&
                x2[7] == 4,
            "dgetrs_batched ipiv %lld: %d (%s)", (long long)badv[k], st,
            axb_detail(h));
    }
  }
}

/* Item 5: every failure comes with a message, also without a handle. */
static void test_details(void) {
  double a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
  int64_t ipiv[2], info;
  axb_dense A = axb_dense_wrap(2, 2, 2, AXB_F64, a);
  axb_dense B = axb_dense_wrap(2, 1, 2, AXB_F64, b);
  axb_csr S;
  axb_csr_create(&S, 2, 2, 2, AXB_F64);
#define NOH(call)                                                              \
  do {                                                                         \
    axb_status st_ = (call);                                                   \
    CHECK(st_ != AXB_SUCCESS && axb_detail(NULL)[0] != '\0',                   \
          "%s: status %d, detail '%s'", #call, st_, axb_detail(NULL));         \
  } while (0)
  NOH(axb_dgesv(NULL, 2, 1, a, 2, ipiv, b, 2, &info));
  NOH(axb_sgetrf(NULL, 2, 2, (float *)a, 2, ipiv, &info));
  NOH(axb_solve(NULL, &A, &B, NULL, NULL));
  NOH(axb_invert(NULL, &A, &B, AXB_METHOD_LU));
  NOH(axb_sparse_solve(NULL, &S, &B, &B, NULL, NULL));
  NOH(axb_handle_create(NULL, AXB_BACKEND_CPU, 0));
  NOH(axb_set_threads(NULL, 2));
  axb_dense D;
  NOH(axb_dense_create(&D, -1, 2, AXB_F64));
  NOH(axb_dense_create(&D, INT64_MAX / 2, 3, AXB_F64));
  NOH(axb_dense_create(NULL, 1, 1, AXB_F64));
  axb_csr S2;
  NOH(axb_csr_create(&S2, -2, 2, 0, AXB_F64));
  axb_method m;
  NOH(axb_method_parse(NULL, &m));
  NOH(axb_method_parse("nope", &m));
  axb_sparse_method sm;
  NOH(axb_sparse_method_parse(NULL, &sm));
  axb_precond pc;
  NOH(axb_precond_parse("nope", &pc));
#undef NOH
  axb_csr_destroy(&S);
}

int main(int argc, char **argv) {
  axb_handle h = test_handle(test_backend_arg(argc, argv));
  if (!h) return 1;
  test_extreme_scaling(h);
  test_unscalable_rhs(h);
  test_sparse_memory_bound(h);
  test_api_sizes(h);
  test_details();
  axb_handle_destroy(h);
  return test_finish("test_hardening");
}
