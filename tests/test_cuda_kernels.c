/*
 * The CUDA backend against the reference backend and cuSOLVER, at sizes
 * that are multiples of no block size (1, 31, 33, 257, 1000, 4099), float
 * and double: LU, solves, Cholesky (lower and upper), inverse, through the
 * host API and the _dev API (device arrays, info in device memory).
 * Judged by the scaled residuals of DESIGN.md, never element by element;
 * numerical outcomes (singular pivot, not-SPD minor) must match the
 * reference's info.  Exits 77 without CUDA or a GPU.
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#ifdef AXB_TEST_HAVE_CUDA
#include "vendor/cusolver_anchor.h"

#include <cuda_runtime_api.h>

static axb_handle g, ref;

static const int64_t sizes[] = {1, 31, 33, 257, 1000, 4099};
#define NSIZES (sizeof sizes / sizeof *sizes)
/* O(n^3) checks in double on the host stay below this order. */
#define BIG 1000

static int is_d(const axb_dense *A) { return A->dtype == AXB_F64; }

static axb_status getrf(axb_handle h, axb_dense *A, int64_t *ipiv,
                        int64_t *info) {
  return is_d(A) ? axb_dgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info)
                 : axb_sgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info);
}
static axb_status potrf(axb_handle h, axb_uplo u, axb_dense *A, int64_t *info) {
  return is_d(A) ? axb_dpotrf(h, u, A->rows, A->data, A->ld, info)
                 : axb_spotrf(h, u, A->rows, A->data, A->ld, info);
}

/* Host API: LU + solve (+ inverse at moderate n) on the device, judged by
   the residuals; the reference's LU passes the same check. */
static void lu_case(int64_t n, axb_dtype t) {
  char what[64];
  snprintf(what, sizeof what, "lu n=%lld %s", (long long)n, axb_dtype_name(t));
  axb_dense A = test_gen(g, AXB_GEN_UNIFORM, n, t, 0, 0, 100 + (uint64_t)n);
  axb_dense LU = test_copy_ld(&A, n + 5);
  int64_t *ipiv = test_new_ipiv(n), info = -1;
  CHECK_STATUS(g, getrf(g, &LU, ipiv, &info), AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK(test_padding_intact(&LU), "%s: wrote outside A", what);
  int ok = 1;
  for (int64_t k = 0; k < n; ++k)
    ok &= ipiv[k] >= k + 1 && ipiv[k] <= n;
  CHECK(ok, "%s: pivot out of range", what);
  if (n <= BIG) {
    CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "%s getrf", what);
    axb_dense R = test_copy_ld(&A, n);
    int64_t *rp = test_new_ipiv(n);
    CHECK_STATUS(ref, getrf(ref, &R, rp, &info), AXB_SUCCESS);
    CHECK_RATIO(axb_check_lu(&A, &R, rp), "%s reference getrf", what);
    free(rp);
    axb_dense_destroy(&R);
  }
  axb_dense Xt, B;
  CHECK_STATUS(g, axb_gen_rhs(g, &A, 3, AXB_RHS_RANDOM, 9, &Xt, &B),
               AXB_SUCCESS);
  for (int tr = 0; tr <= 1; ++tr) {
    axb_dense M = A;
    axb_dense At = test_alloc(n, n, n, t);
    if (tr) {
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
          axb_dense_set(&At, i, j, axb_dense_get(&A, j, i));
      M = At;
    }
    axb_dense X = test_copy_ld(&B, n + 1);
    axb_status st = is_d(&A) ? axb_dgetrs(g, (axb_trans)tr, n, 3, LU.data,
                                          LU.ld, ipiv, X.data, X.ld, &info)
                             : axb_sgetrs(g, (axb_trans)tr, n, 3, LU.data,
                                          LU.ld, ipiv, X.data, X.ld, &info);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    /* B = A Xt, not A^T Xt: judge A^T X = B directly. */
    CHECK_RATIO(axb_check_solve(&M, &X, &B), "%s getrs trans=%d", what, tr);
    CHECK(test_padding_intact(&X), "%s: getrs wrote outside B", what);
    axb_dense_destroy(&X);
    axb_dense_destroy(&At);
  }
  if (n <= BIG) {
    axb_status st = is_d(&A) ? axb_dgetri(g, n, LU.data, LU.ld, ipiv, &info)
                             : axb_sgetri(g, n, LU.data, LU.ld, ipiv, &info);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    CHECK_RATIO(axb_check_inverse(&A, &LU), "%s getri", what);
  }
  free(ipiv);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

static void chol_case(int64_t n, axb_dtype t, axb_uplo u) {
  char what[64];
  snprintf(what, sizeof what, "potrf n=%lld %s %s", (long long)n,
           axb_dtype_name(t), u == AXB_LOWER ? "lower" : "upper");
  axb_dense A = test_gen(g, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 200 + (uint64_t)n);
  axb_dense F = test_copy_ld(&A, n + 3);
  int64_t info = -1;
  CHECK_STATUS(g, potrf(g, u, &F, &info), AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  if (n <= BIG) CHECK_RATIO(axb_check_cholesky(&A, &F, u), "%s", what);
  axb_dense Xt, B;
  CHECK_STATUS(g, axb_gen_rhs(g, &A, 2, AXB_RHS_RANDOM, 3, &Xt, &B),
               AXB_SUCCESS);
  axb_dense X = test_copy_ld(&B, n);
  axb_status st =
      is_d(&A) ? axb_dpotrs(g, u, n, 2, F.data, F.ld, X.data, X.ld, &info)
               : axb_spotrs(g, u, n, 2, F.data, F.ld, X.data, X.ld, &info);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s potrs", what);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&F);
  axb_dense_destroy(&A);
}

/* Exactly singular: column col zero, so U(col, col) = 0 exactly on every
   backend; info = col + 1 and the factorization completes. */
static void singular_case(int64_t n, axb_dtype t) {
  const int64_t col = n / 2;
  axb_dense A = test_gen(g, AXB_GEN_SINGULAR, n, t, 0, col, 5);
  axb_dense LU = test_copy_ld(&A, n);
  int64_t *ipiv = test_new_ipiv(n), info = -1;
  CHECK_STATUS(g, getrf(g, &LU, ipiv, &info), AXB_ERR_SINGULAR);
  CHECK(info == col + 1, "singular n=%lld: info %lld want %lld", (long long)n,
        (long long)info, (long long)(col + 1));
  if (n <= BIG)
    CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "singular n=%lld", (long long)n);
  free(ipiv);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

/* Not SPD at minor k+1: the device and the reference agree on info. */
static void not_spd_case(int64_t n, int64_t k, axb_dtype t, axb_uplo u) {
  axb_dense A = test_gen(g, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 7);
  axb_dense_set(&A, k, k, -1.0);
  axb_dense F = test_copy_ld(&A, n), R = test_copy_ld(&A, n);
  int64_t info = -1, rinfo = -1;
  CHECK_STATUS(g, potrf(g, u, &F, &info), AXB_ERR_NOT_SPD);
  CHECK_STATUS(ref, potrf(ref, u, &R, &rinfo), AXB_ERR_NOT_SPD);
  CHECK(info == rinfo && info == k + 1, "not SPD n=%lld k=%lld: %lld vs %lld",
        (long long)n, (long long)k, (long long)info, (long long)rinfo);
  axb_dense_destroy(&F);
  axb_dense_destroy(&R);
  axb_dense_destroy(&A);
}

/* ---- _dev API --------------------------------------------------------- */

/* The handle's stream does not synchronise with the legacy default stream
   of cudaMemcpy: wait for everything before and after host copies. */
static void dsync(void) { cudaDeviceSynchronize(); }

static void *dev_copy(const axb_dense *A) {
  void *d = NULL;
  size_t es = axb_dtype_size(A->dtype);
  if (cudaMalloc(&d, (size_t)(A->rows * A->cols) * es) != cudaSuccess)
    return NULL;
  cudaMemcpy2D(d, (size_t)A->rows * es, A->data, (size_t)A->ld * es,
               (size_t)A->rows * es, (size_t)A->cols, cudaMemcpyHostToDevice);
  dsync();
  return d;
}
static void dev_back(axb_dense *A, const void *d) {
  size_t es = axb_dtype_size(A->dtype);
  dsync();
  cudaMemcpy2D(A->data, (size_t)A->ld * es, d, (size_t)A->rows * es,
               (size_t)A->rows * es, (size_t)A->cols, cudaMemcpyDeviceToHost);
}
static int64_t dev_info(const int64_t *d) {
  int64_t v = -1;
  dsync();
  cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}

static void dev_api_case(int64_t n, axb_dtype t) {
  const int d = t == AXB_F64;
  char what[64];
  snprintf(what, sizeof what, "dev n=%lld %s", (long long)n, axb_dtype_name(t));
  axb_dense A = test_gen(g, AXB_GEN_UNIFORM, n, t, 0, 0, 300 + (uint64_t)n);
  axb_dense Xt, B;
  CHECK_STATUS(g, axb_gen_rhs(g, &A, 2, AXB_RHS_RANDOM, 4, &Xt, &B),
               AXB_SUCCESS);
  void *dA = dev_copy(&A), *dB = dev_copy(&B);
  int64_t *dipiv = NULL, *dinfo = NULL;
  cudaMalloc((void **)&dipiv, (size_t)n * sizeof(int64_t));
  cudaMalloc((void **)&dinfo, sizeof(int64_t));
  CHECK(dA && dB && dipiv && dinfo, "%s: cudaMalloc", what);
  if (!(dA && dB && dipiv && dinfo)) return;
  axb_status st = d ? axb_dgetrf_dev(g, n, n, dA, n, dipiv, dinfo)
                    : axb_sgetrf_dev(g, n, n, dA, n, dipiv, dinfo);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  st = d ? axb_dgetrs_dev(g, AXB_NO_TRANS, n, 2, dA, n, dipiv, dB, n)
         : axb_sgetrs_dev(g, AXB_NO_TRANS, n, 2, dA, n, dipiv, dB, n);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK(cudaStreamSynchronize(axb_get_stream(g)) == cudaSuccess, "sync");
  CHECK(dev_info(dinfo) == 0, "%s: getrf_dev info", what);
  axb_dense X = test_alloc(n, 2, n, t);
  dev_back(&X, dB);
  CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s getrf_dev+getrs_dev", what);
  if (n <= BIG) {
    axb_dense LU = test_alloc(n, n, n, t);
    dev_back(&LU, dA);
    int64_t *ipiv = test_new_ipiv(n);
    dsync();
    cudaMemcpy(ipiv, dipiv, (size_t)n * sizeof(int64_t),
               cudaMemcpyDeviceToHost);
    CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "%s getrf_dev", what);
    st = d ? axb_dgetri_dev(g, n, dA, n, dipiv, dinfo)
           : axb_sgetri_dev(g, n, dA, n, dipiv, dinfo);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    dev_back(&LU, dA);
    CHECK(dev_info(dinfo) == 0, "%s: getri_dev info", what);
    CHECK_RATIO(axb_check_inverse(&A, &LU), "%s getri_dev", what);
    free(ipiv);
    axb_dense_destroy(&LU);
  }
  /* cuSOLVER on the same matrix passes the same check */
  axb_cusolver *cs = NULL;
  CHECK(axb_cusolver_create(&cs, axb_get_stream(g)) == 0, "cusolver create");
  if (cs) {
    cudaFree(dA);
    cudaFree(dB);
    dA = dev_copy(&A);
    dB = dev_copy(&B);
    int *di = NULL;
    cudaMalloc((void **)&di, sizeof(int));
    CHECK(axb_cusolver_getrf(cs, t, n, dA, n, dipiv, di) == 0, "cusolver lu");
    CHECK(axb_cusolver_getrs(cs, t, n, 2, dA, n, dipiv, dB, n, di) == 0,
          "cusolver getrs");
    cudaStreamSynchronize(axb_get_stream(g));
    dev_back(&X, dB);
    CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s cuSOLVER getrf+getrs", what);
    cudaFree(di);
    axb_cusolver_destroy(cs);
  }
  /* Cholesky on device arrays, and a not-SPD minor reported in dinfo */
  axb_dense S = test_gen(g, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 11);
  axb_dense Sx, Sb;
  CHECK_STATUS(g, axb_gen_rhs(g, &S, 2, AXB_RHS_RANDOM, 4, &Sx, &Sb),
               AXB_SUCCESS);
  void *dS = dev_copy(&S), *dSb = dev_copy(&Sb);
  st = d ? axb_dpotrf_dev(g, AXB_LOWER, n, dS, n, dinfo)
         : axb_spotrf_dev(g, AXB_LOWER, n, dS, n, dinfo);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  st = d ? axb_dpotrs_dev(g, AXB_LOWER, n, 2, dS, n, dSb, n)
         : axb_spotrs_dev(g, AXB_LOWER, n, 2, dS, n, dSb, n);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK(dev_info(dinfo) == 0, "%s: potrf_dev info", what);
  dev_back(&X, dSb);
  CHECK_RATIO(axb_check_solve(&S, &X, &Sb), "%s potrf_dev+potrs_dev", what);
  if (n > 2) {
    axb_dense_set(&S, n / 2, n / 2, -1.0);
    cudaFree(dS);
    dS = dev_copy(&S);
    st = d ? axb_dpotrf_dev(g, AXB_UPPER, n, dS, n, dinfo)
           : axb_spotrf_dev(g, AXB_UPPER, n, dS, n, dinfo);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    CHECK(dev_info(dinfo) == n / 2 + 1, "%s: not-SPD dinfo %lld", what,
          (long long)dev_info(dinfo));
  }
  /* Illegal arguments are caught on the host, numbered as the host API. */
  CHECK(axb_dgetrf_dev(g, -1, n, dA, n, dipiv, dinfo) == -1, "m < 0");
  CHECK(axb_dgetrf_dev(g, n, n, dA, n, dipiv, NULL) == -6, "dinfo NULL");
  cudaFree(dS);
  cudaFree(dSb);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dipiv);
  cudaFree(dinfo);
  axb_dense_destroy(&S);
  axb_dense_destroy(&Sx);
  axb_dense_destroy(&Sb);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

/* Blocked Gauss-Jordan on device arrays: inverse against the host check
   (n <= BIG), a solve x = inv(A) b judged at every size, a zero column
   reported in dinfo, n = 0, and the argument checks. */
static void gj_dev_case(int64_t n, axb_dtype t) {
  const int d = t == AXB_F64;
  char what[64];
  snprintf(what, sizeof what, "gj_dev n=%lld %s", (long long)n,
           axb_dtype_name(t));
  axb_dense A = test_gen(g, AXB_GEN_UNIFORM, n, t, 0, 0, 700 + (uint64_t)n);
  void *dA = dev_copy(&A);
  int64_t *dinfo = NULL;
  cudaMalloc((void **)&dinfo, sizeof(int64_t));
  CHECK(dA && dinfo, "%s: cudaMalloc", what);
  if (!(dA && dinfo)) return;
  axb_status st = d ? axb_dgetri_gj_dev(g, n, dA, n, dinfo)
                    : axb_sgetri_gj_dev(g, n, dA, n, dinfo);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK(dev_info(dinfo) == 0, "%s: info %lld", what,
        (long long)dev_info(dinfo));
  axb_dense X = test_alloc(n, n, n, t);
  dev_back(&X, dA);
  if (n <= BIG) CHECK_RATIO(axb_check_inverse(&A, &X), "%s", what);
  /* x = inv(A) b with b = A * ones: x must be ones to the condition */
  axb_dense B = test_alloc(n, 1, n, t), Y = test_alloc(n, 1, n, t);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(&A, i, j);
    axb_dense_set(&B, i, 0, s);
  }
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(&X, i, j) * axb_dense_get(&B, j, 0);
    axb_dense_set(&Y, i, 0, s);
  }
  CHECK_RATIO(axb_check_solve(&A, &Y, &B), "%s inv(A) b", what);
  /* a zero column: dinfo at or before it */
  if (n >= 31) {
    const int64_t col = n / 2;
    axb_dense Z = test_gen(g, AXB_GEN_SINGULAR, n, t, 0, col, 9);
    cudaFree(dA);
    dA = dev_copy(&Z);
    st = d ? axb_dgetri_gj_dev(g, n, dA, n, dinfo)
           : axb_sgetri_gj_dev(g, n, dA, n, dinfo);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    const int64_t inf = dev_info(dinfo);
    CHECK(inf >= 1 && inf <= col + 1, "%s zero column %lld: dinfo %lld", what,
          (long long)col, (long long)inf);
    axb_dense_destroy(&Z);
  }
  CHECK_STATUS(g,
               d ? axb_dgetri_gj_dev(g, 0, dA, 1, dinfo)
                 : axb_sgetri_gj_dev(g, 0, dA, 1, dinfo),
               AXB_SUCCESS);
  CHECK(dev_info(dinfo) == 0, "%s: n = 0 info", what);
  CHECK(axb_dgetri_gj_dev(g, n, dA, n, NULL) == -4, "gj dinfo NULL");
  CHECK(axb_dgetri_gj_dev(g, 2, dA, 1, dinfo) == -3, "gj ldda < n");
  cudaFree(dA);
  cudaFree(dinfo);
  axb_dense_destroy(&B);
  axb_dense_destroy(&Y);
  axb_dense_destroy(&X);
  axb_dense_destroy(&A);
}

/* potrf_dev on one handle queued on three streams (axb_set_stream), so the
   tile kernels of different calls may run at the same time: each launch
   must keep its own ready flags and ticket counter (shared ones would let
   one launch read another's tiles).  Every factor is checked, then a
   fourth call on the handle's own stream. */
static void potrf_streams_case(int64_t n) {
  enum { K = 3 };
  cudaStream_t s[K];
  void *own = axb_get_stream(g);
  axb_dense S[K], F = test_alloc(n, n, n, AXB_F64);
  void *dS[K];
  int64_t *dinfo = NULL;
  cudaMalloc((void **)&dinfo, (K + 1) * sizeof(int64_t));
  for (int k = 0; k < K; ++k) {
    cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
    S[k] = test_gen(g, AXB_GEN_SPD_SHIFT, n, AXB_F64, 0, 0, 40 + (uint64_t)k);
    dS[k] = dev_copy(&S[k]);
  }
  for (int k = 0; k < K; ++k) {
    CHECK_STATUS(g, axb_set_stream(g, s[k]), AXB_SUCCESS);
    CHECK_STATUS(g, axb_dpotrf_dev(g, AXB_LOWER, n, dS[k], n, dinfo + k),
                 AXB_SUCCESS);
  }
  CHECK_STATUS(g, axb_set_stream(g, own), AXB_SUCCESS);
  void *d4 = dev_copy(&S[0]);
  CHECK_STATUS(g, axb_dpotrf_dev(g, AXB_LOWER, n, d4, n, dinfo + K),
               AXB_SUCCESS);
  for (int k = 0; k <= K; ++k) {
    CHECK(dev_info(dinfo + k) == 0, "potrf streams n=%lld call %d: info",
          (long long)n, k);
    dev_back(&F, k < K ? dS[k] : d4);
    CHECK_RATIO(axb_check_cholesky(&S[k < K ? k : 0], &F, AXB_LOWER),
                "potrf_dev n=%lld on stream %d", (long long)n, k);
  }
  for (int k = 0; k < K; ++k) {
    cudaStreamDestroy(s[k]);
    cudaFree(dS[k]);
    axb_dense_destroy(&S[k]);
  }
  cudaFree(d4);
  cudaFree(dinfo);
  axb_dense_destroy(&F);
}

/* laswp_dev against LAPACK's loop on the host, entry for entry (a
   permutation of rows moves values, it computes none): pivots anywhere in
   the m rows, k1 > 1, more interchanges than one plan batch (256),
   forward and backward, and the argument checks. */
static void laswp_dev_case(axb_dtype t) {
  const int d = t == AXB_F64;
  const int64_t m = 600, n = 37, k1 = 3, k2 = 590;
  char what[64];
  snprintf(what, sizeof what, "laswp_dev %s", axb_dtype_name(t));
  axb_dense A = test_gen(g, AXB_GEN_UNIFORM, m, t, 0, 0, 77);
  int64_t *ipiv = test_new_ipiv(m);
  uint64_t x = 12345;
  for (int64_t i = 0; i < m; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    ipiv[i] = 1 + (int64_t)((x >> 33) % (uint64_t)m);
  }
  int64_t *dipiv = NULL;
  cudaMalloc((void **)&dipiv, (size_t)m * sizeof(int64_t));
  cudaMemcpy(dipiv, ipiv, (size_t)m * sizeof(int64_t), cudaMemcpyHostToDevice);
  for (int incx = 1; incx >= -1; incx -= 2) {
    axb_dense E = test_copy_ld(&A, m), D = test_copy_ld(&A, m);
    size_t es = axb_dtype_size(t);
    for (int64_t s = 0; s <= k2 - k1; ++s) { /* the reference: one by one */
      const int64_t i = incx > 0 ? k1 + s : k2 - s, r = ipiv[i - 1];
      for (int64_t j = 0; j < n && r != i; ++j) {
        char tmp[8], *a = (char *)E.data + ((i - 1) + j * E.ld) * (int64_t)es,
                     *b = (char *)E.data + ((r - 1) + j * E.ld) * (int64_t)es;
        memcpy(tmp, a, es);
        memcpy(a, b, es);
        memcpy(b, tmp, es);
      }
    }
    void *dA = dev_copy(&D);
    axb_status st = d ? axb_dlaswp_dev(g, n, dA, m, k1, k2, dipiv, incx)
                      : axb_slaswp_dev(g, n, dA, m, k1, k2, dipiv, incx);
    CHECK_STATUS(g, st, AXB_SUCCESS);
    dev_back(&D, dA);
    int same = 1;
    for (int64_t j = 0; j < n; ++j)
      same &=
          memcmp((char *)D.data + j * D.ld * (int64_t)es,
                 (char *)E.data + j * E.ld * (int64_t)es, (size_t)m * es) == 0;
    CHECK(same, "%s incx %d: differs from the host loop", what, incx);
    cudaFree(dA);
    axb_dense_destroy(&E);
    axb_dense_destroy(&D);
  }
  double z = 0;
  CHECK_STATUS(g, axb_dlaswp_dev(g, 1, &z, 1, 1, 1, dipiv, 2), -7);
  CHECK_STATUS(g, axb_dlaswp_dev(g, 1, &z, 1, 0, 1, dipiv, 1), -4);
  CHECK_STATUS(g, axb_dlaswp_dev(g, 1, &z, 4, 1, 5, dipiv, 1), -3);
  CHECK_STATUS(ref, axb_dlaswp_dev(ref, 1, &z, 1, 1, 1, ipiv, 1),
               AXB_ERR_NOT_SUPPORTED);
  cudaFree(dipiv);
  free(ipiv);
  axb_dense_destroy(&A);
}

int main(void) {
  int count = 0;
  if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
      axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    return test_skip("no CUDA device");
  }
  g = test_handle(AXB_BACKEND_CUDA);
  ref = test_handle(AXB_BACKEND_REF);
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int ti = 0; ti < 2; ++ti)
    for (size_t i = 0; i < NSIZES; ++i) {
      lu_case(sizes[i], types[ti]);
      chol_case(sizes[i], types[ti], AXB_LOWER);
      chol_case(sizes[i], types[ti], AXB_UPPER);
      dev_api_case(sizes[i], types[ti]);
      gj_dev_case(sizes[i], types[ti]);
      if (sizes[i] >= 31) {
        singular_case(sizes[i], types[ti]);
        const int64_t m = sizes[i] <= BIG ? sizes[i] : BIG;
        not_spd_case(m, 20, types[ti], AXB_LOWER);
        not_spd_case(m, m / 3 + 1, types[ti], AXB_UPPER);
      }
    }
  laswp_dev_case(AXB_F64);
  laswp_dev_case(AXB_F32);
  potrf_streams_case(500);
  potrf_streams_case(1000);
  /* The _dev API on a CPU handle: an honest NOT_SUPPORTED. */
  int64_t info;
  CHECK_STATUS(ref, axb_dgetrf_dev(ref, 2, 2, &(double){0}, 2, &info, &info),
               AXB_ERR_NOT_SUPPORTED);
  axb_handle_destroy(g);
  axb_handle_destroy(ref);
  return test_finish("test_cuda_kernels");
}

#else
int main(void) { return test_skip("CUDA not compiled"); }
#endif
