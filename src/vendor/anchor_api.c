/*
 * The public face of the host-array comparison anchors (axb.h,
 * "Benchmarking and tuning"): typed by axb_dtype, statuses as in the typed
 * layer.  The anchors themselves live in lapack_anchor.c / none_anchor.c
 * (vendor.h) and eigen_shim.cpp / eigen_none.c (eigen_shim.h); the device
 * anchors in gpu_runner.cu / gpu_runner_none.c.
 */
#include "core/internal.h"
#include "vendor/eigen_shim.h"
#include "vendor/vendor.h"

#include <stdio.h>
#include <stdlib.h>

const char *axb_anchor_name(axb_anchor a) {
  switch (a) {
  case AXB_ANCHOR_AXB: return "axb";
  case AXB_ANCHOR_OPENBLAS: return "openblas";
  case AXB_ANCHOR_EIGEN: return "eigen";
  case AXB_ANCHOR_CUSOLVER: return "cusolver";
  case AXB_ANCHOR_CUBLAS: return "cublas";
  default: return "unknown";
  }
}

int axb_anchor_available(axb_anchor a) {
  int64_t piv = 0;
  double x = 0;
  switch (a) {
  case AXB_ANCHOR_OPENBLAS:
    /* n = 0 is a quick return when compiled, NOT_COMPILED when not. */
    return axb_vendor_dgetrf(0, &x, 1, &piv) == 0;
  case AXB_ANCHOR_EIGEN: return axb_eigen_available();
  case AXB_ANCHOR_AXB:
  case AXB_ANCHOR_CUSOLVER:
  case AXB_ANCHOR_CUBLAS: return axb_vendor_gpu_compiled();
  default: return 0;
  }
}

const char *axb_anchor_version(axb_anchor a) {
  static _Thread_local char buf[96];
  switch (a) {
  case AXB_ANCHOR_OPENBLAS: return axb_blas_info();
  case AXB_ANCHOR_EIGEN:
    snprintf(buf, sizeof buf, "Eigen %s", axb_eigen_version());
    return buf;
  case AXB_ANCHOR_AXB:
    snprintf(buf, sizeof buf, "axb %s", axb_version());
    return buf;
  default: return axb_vendor_gpu_version(a);
  }
}

static int host_anchor(axb_anchor a) {
  return (a == AXB_ANCHOR_OPENBLAS || a == AXB_ANCHOR_EIGEN) &&
         axb_anchor_available(a);
}

/* Threads of the Eigen anchor's batched loop (0: all); process-global as
   Eigen's own setting. */
static int eigen_threads;

axb_status axb_anchor_set_threads(axb_anchor a, int nthreads) {
  if (!host_anchor(a))
    return axb__fail(NULL, AXB_ERR_NOT_COMPILED,
                     "%s: not compiled in (!host_anchor(a))", __func__);
  if (nthreads < 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (nthreads < 0)", __func__);
  if (a == AXB_ANCHOR_EIGEN)
    axb_eigen_set_threads(nthreads), eigen_threads = nthreads;
  else
    axb_vendor_set_threads(nthreads);
  return AXB_SUCCESS;
}

/* LAPACK info (>= 0) or an axb error (< 0) -> status + *info. */
static axb_status verdict(int r, axb_status positive, int64_t *info) {
  if (info) *info = r > 0 ? r : 0;
  if (r > 0) return positive;
  return r;
}

static axb_status check(axb_anchor a, axb_dtype t, int64_t n, const void *A,
                        int64_t lda) {
  if (a != AXB_ANCHOR_OPENBLAS && a != AXB_ANCHOR_EIGEN)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (a != AXB_ANCHOR_OPENBLAS && a != "
                     "AXB_ANCHOR_EIGEN)",
                     __func__);
  if (t != AXB_F64 && t != AXB_F32)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (t != AXB_F64 && t != AXB_F32)",
                     __func__);
  if (n < 0 || lda < (n > 1 ? n : 1) || (!A && n > 0))
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (n < 0 || lda < (n > 1 ? n : 1) || "
                     "(!A && n > 0))",
                     __func__);
  return AXB_SUCCESS;
}

axb_status axb_anchor_getrf(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, int64_t *ipiv, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if (!ipiv && n > 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (!ipiv && n > 0)", __func__);
  int r;
  if (a == AXB_ANCHOR_EIGEN)
    r = axb_eigen_getrf(t, n, A, lda, ipiv);
  else
    r = t == AXB_F64 ? axb_vendor_dgetrf(n, A, lda, ipiv)
                     : axb_vendor_sgetrf(n, A, lda, ipiv);
  return verdict(r, AXB_ERR_SINGULAR, info);
}

axb_status axb_anchor_potrf(axb_anchor a, axb_dtype t, axb_uplo uplo, int64_t n,
                            void *A, int64_t lda, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  int r;
  if (a == AXB_ANCHOR_EIGEN) {
    if (uplo != AXB_LOWER)
      return axb__fail(NULL, AXB_ERR_NOT_SUPPORTED,
                       "%s: not supported (uplo != AXB_LOWER)", __func__);
    r = axb_eigen_potrf(t, n, A, lda);
  } else {
    r = t == AXB_F64 ? axb_vendor_dpotrf(uplo, n, A, lda)
                     : axb_vendor_spotrf(uplo, n, A, lda);
  }
  return verdict(r, AXB_ERR_NOT_SPD, info);
}

axb_status axb_anchor_getri(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, const int64_t *ipiv, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if (a == AXB_ANCHOR_EIGEN)
    return axb__fail(NULL, AXB_ERR_NOT_SUPPORTED,
                     "%s: not supported (a == AXB_ANCHOR_EIGEN)", __func__);
  if (!ipiv && n > 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (!ipiv && n > 0)", __func__);
  for (int64_t i = 0; i < n; ++i) /* LAPACK would index out of bounds */
    if (ipiv[i] < 1 || ipiv[i] > n)
      return axb__fail(NULL, AXB_ERR_INVALID,
                       "%s: invalid argument (ipiv[i] < 1 || ipiv[i] > n)",
                       __func__);
  int r = t == AXB_F64 ? axb_vendor_dgetri(n, A, lda, ipiv)
                       : axb_vendor_sgetri(n, A, lda, ipiv);
  return verdict(r, AXB_ERR_SINGULAR, info);
}

axb_status axb_anchor_inverse(axb_anchor a, axb_dtype t, int64_t n, void *A,
                              int64_t lda, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if (a == AXB_ANCHOR_EIGEN)
    return verdict(axb_eigen_inverse(t, n, A, lda), AXB_ERR_SINGULAR, info);
  int64_t *ipiv = malloc((n > 0 ? (size_t)n : 1) * sizeof *ipiv);
  if (!ipiv)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY, "%s: out of memory (!ipiv)",
                     __func__);
  st = axb_anchor_getrf(a, t, n, A, lda, ipiv, info);
  if (!st) st = axb_anchor_getri(a, t, n, A, lda, ipiv, info);
  free(ipiv);
  return st;
}

axb_status axb_anchor_gesv(axb_anchor a, axb_dtype t, int64_t n, int64_t nrhs,
                           void *A, int64_t lda, int64_t *ipiv, void *B,
                           int64_t ldb, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if ((!ipiv && n > 0) || nrhs < 0 || ldb < (n > 1 ? n : 1) ||
      (!B && n > 0 && nrhs > 0))
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_anchor_gesv: ipiv, nrhs, ldb or B is illegal");
  int r;
  if (a == AXB_ANCHOR_EIGEN)
    r = axb_eigen_gesv(t, n, nrhs, A, lda, ipiv, B, ldb);
  else
    r = t == AXB_F64 ? axb_vendor_dgesv(n, nrhs, A, lda, ipiv, B, ldb)
                     : axb_vendor_sgesv(n, nrhs, A, lda, ipiv, B, ldb);
  return verdict(r, AXB_ERR_SINGULAR, info);
}

axb_status axb_anchor_batched(axb_anchor a, axb_gpu_op op, axb_dtype t,
                              int64_t n, int64_t batch, void *A, void *B,
                              int64_t *info) {
  if (a != AXB_ANCHOR_OPENBLAS && a != AXB_ANCHOR_EIGEN)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (a != AXB_ANCHOR_OPENBLAS && a != "
                     "AXB_ANCHOR_EIGEN)",
                     __func__);
  const int k = op == AXB_GPU_BATCHED_GESV      ? 0
                : op == AXB_GPU_BATCHED_POSV    ? 1
                : op == AXB_GPU_BATCHED_INVERSE ? 2
                                                : -1;
  if (k < 0 || (t != AXB_F64 && t != AXB_F32) || n < 0 || batch < 0 || !info ||
      (!A && n > 0 && batch > 0) || (!B && k != 2 && n > 0 && batch > 0))
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_anchor_batched: op, dtype, n, batch, info, A or B "
                     "is illegal");
  *info = 0;
  if (!host_anchor(a))
    return axb__fail(NULL, AXB_ERR_NOT_COMPILED,
                     "%s: not compiled in (!host_anchor(a))", __func__);
  if (a == AXB_ANCHOR_OPENBLAS)
    return axb__fail(NULL, AXB_ERR_NOT_SUPPORTED,
                     "%s: not supported (a == AXB_ANCHOR_OPENBLAS)", __func__);
  if (batch == 0) return AXB_SUCCESS;
  int *inf = malloc((size_t)batch * sizeof *inf);
  if (!inf)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY, "%s: out of memory (!inf)",
                     __func__);
  axb_status st = axb_eigen_batched(k, t, n, batch, A, B, eigen_threads, inf);
  for (int64_t i = 0; !st && i < batch; ++i)
    if (inf[i]) {
      *info = i + 1;
      st = k == 1 ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
    }
  free(inf);
  return st;
}
