/*
 * The public face of the comparison anchors (axb.h, "Benchmarking and
 * tuning"): typed by axb_dtype, statuses as in the typed layer.  The
 * anchors themselves live in lapack_anchor.c / none_anchor.c (vendor.h).
 */
#include "core/internal.h"
#include "vendor/vendor.h"

const char *axb_anchor_name(axb_anchor a) {
  return a == AXB_ANCHOR_OPENBLAS ? "openblas" : "unknown";
}

int axb_anchor_available(axb_anchor a) {
  if (a != AXB_ANCHOR_OPENBLAS) return 0;
  int64_t piv = 0;
  double x = 0;
  /* n = 0 is a quick return when compiled, NOT_COMPILED when not. */
  return axb_vendor_dgetrf(0, &x, 1, &piv) == 0;
}

axb_status axb_anchor_set_threads(axb_anchor a, int nthreads) {
  if (!axb_anchor_available(a)) return AXB_ERR_NOT_COMPILED;
  if (nthreads < 0) return AXB_ERR_INVALID;
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
  if (a != AXB_ANCHOR_OPENBLAS) return AXB_ERR_INVALID;
  if (t != AXB_F64 && t != AXB_F32) return AXB_ERR_INVALID;
  if (n < 0 || lda < (n > 1 ? n : 1) || (!A && n > 0)) return AXB_ERR_INVALID;
  return AXB_SUCCESS;
}

axb_status axb_anchor_getrf(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, int64_t *ipiv, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if (!ipiv && n > 0) return AXB_ERR_INVALID;
  int r = t == AXB_F64 ? axb_vendor_dgetrf(n, A, lda, ipiv)
                       : axb_vendor_sgetrf(n, A, lda, ipiv);
  return verdict(r, AXB_ERR_SINGULAR, info);
}

axb_status axb_anchor_potrf(axb_anchor a, axb_dtype t, axb_uplo uplo, int64_t n,
                            void *A, int64_t lda, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  int r = t == AXB_F64 ? axb_vendor_dpotrf(uplo, n, A, lda)
                       : axb_vendor_spotrf(uplo, n, A, lda);
  return verdict(r, AXB_ERR_NOT_SPD, info);
}

axb_status axb_anchor_getri(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, const int64_t *ipiv, int64_t *info) {
  axb_status st = check(a, t, n, A, lda);
  if (st) return st;
  if (!ipiv && n > 0) return AXB_ERR_INVALID;
  int r = t == AXB_F64 ? axb_vendor_dgetri(n, A, lda, ipiv)
                       : axb_vendor_sgetri(n, A, lda, ipiv);
  return verdict(r, AXB_ERR_SINGULAR, info);
}
