/*
 * OpenBLAS as a comparison anchor (benchmarks and tests run LAPACK beside
 * axb in the same process).  OpenBLAS from Debian uses 32-bit LAPACK
 * integers, so the anchors refuse sizes above INT32_MAX; pivots are
 * converted between int64_t (axb) and int (LAPACK).
 */
#define _GNU_SOURCE /* dladdr */
#include "vendor/vendor.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

char *openblas_get_config(void);
void openblas_set_num_threads(int n);
int openblas_get_num_threads(void);

/* Fortran LAPACK entry points (OpenBLAS's own getrf/potrf, reference
   getri on OpenBLAS BLAS).  Character arguments are passed with their
   hidden length (gfortran ABI), as 1. */
void dgetrf_(const int *m, const int *n, double *A, const int *lda, int *ipiv,
             int *info);
void sgetrf_(const int *m, const int *n, float *A, const int *lda, int *ipiv,
             int *info);
void dpotrf_(const char *uplo, const int *n, double *A, const int *lda,
             int *info, size_t uplo_len);
void spotrf_(const char *uplo, const int *n, float *A, const int *lda,
             int *info, size_t uplo_len);
void dgesv_(const int *n, const int *nrhs, double *A, const int *lda, int *ipiv,
            double *B, const int *ldb, int *info);
void sgesv_(const int *n, const int *nrhs, float *A, const int *lda, int *ipiv,
            float *B, const int *ldb, int *info);
void dposv_(const char *uplo, const int *n, const int *nrhs, double *A,
            const int *lda, double *B, const int *ldb, int *info,
            size_t uplo_len);
void sposv_(const char *uplo, const int *n, const int *nrhs, float *A,
            const int *lda, float *B, const int *ldb, int *info,
            size_t uplo_len);
void dgecon_(const char *norm, const int *n, const double *A, const int *lda,
             const double *anorm, double *rcond, double *work, int *iwork,
             int *info, size_t norm_len);
void sgecon_(const char *norm, const int *n, const float *A, const int *lda,
             const float *anorm, float *rcond, float *work, int *iwork,
             int *info, size_t norm_len);
void dpocon_(const char *uplo, const int *n, const double *A, const int *lda,
             const double *anorm, double *rcond, double *work, int *iwork,
             int *info, size_t uplo_len);
void spocon_(const char *uplo, const int *n, const float *A, const int *lda,
             const float *anorm, float *rcond, float *work, int *iwork,
             int *info, size_t uplo_len);
void dgetri_(const int *n, double *A, const int *lda, const int *ipiv,
             double *work, const int *lwork, int *info);
void sgetri_(const int *n, float *A, const int *lda, const int *ipiv,
             float *work, const int *lwork, int *info);

/* The entry points are taken from OpenBLAS itself, not from the first
   definition in the process: under LD_PRELOAD=libaxb_lapack.so (the
   drop-in, lapack/) the plain names are axb's own routines, and an anchor
   that called them would compare axb with itself.  dlsym on OpenBLAS's
   handle finds OpenBLAS's definitions; the plain symbols are the fallback
   when that lookup fails (a static OpenBLAS). */
/* clang-format off */
#define ANCHOR_FNS(X)                                                          \
  X(dgetrf) X(sgetrf) X(dpotrf) X(spotrf) X(dgesv) X(sgesv) X(dposv)          \
  X(sposv) X(dgetri) X(sgetri)
/* clang-format on */
static struct {
#define X(f) __typeof__(&f##_) f;
  ANCHOR_FNS(X)
#undef X
} ob;
static pthread_once_t ob_once = PTHREAD_ONCE_INIT;

static void ob_init(void) {
  Dl_info di;
  void *lib = NULL;
  if (dladdr((void *)openblas_get_config, &di) && di.dli_fname)
    lib = dlopen(di.dli_fname, RTLD_NOW | RTLD_NOLOAD);
#define X(f)                                                                   \
  ob.f = lib ? (__typeof__(&f##_))dlsym(lib, #f "_") : NULL;                   \
  if (!ob.f) ob.f = f##_;
  ANCHOR_FNS(X)
#undef X
  /* lib stays open: its functions are used for the life of the process. */
}

#define OB(f) (pthread_once(&ob_once, ob_init), ob.f)

const char *axb_blas_info(void) {
  static char buf[256];
  snprintf(buf, sizeof buf, "OpenBLAS (%s)", openblas_get_config());
  return buf;
}

void axb_vendor_set_threads(int nthreads) {
  openblas_set_num_threads(nthreads > 0 ? nthreads : 1);
}
int axb_vendor_get_threads(void) { return openblas_get_num_threads(); }

static int fits(int64_t n, int64_t lda) {
  return n >= 0 && lda >= 1 && n <= INT_MAX && lda <= INT_MAX;
}

#define GETRF_ANCHOR(T, p)                                                     \
  int axb_vendor_##p##getrf(int64_t n, T *A, int64_t lda, int64_t *ipiv) {     \
    if (!fits(n, lda)) return AXB_ERR_NOT_SUPPORTED;                           \
    int *piv = malloc((n > 0 ? (size_t)n : 1) * sizeof *piv);                  \
    if (!piv) return AXB_ERR_OUT_OF_MEMORY;                                    \
    int in = (int)n, il = (int)lda, info = 0;                                  \
    OB(p##getrf)(&in, &in, A, &il, piv, &info);                                \
    for (int64_t i = 0; i < n; ++i)                                            \
      ipiv[i] = piv[i];                                                        \
    free(piv);                                                                 \
    return info;                                                               \
  }
GETRF_ANCHOR(double, d)
GETRF_ANCHOR(float, s)

#define POTRF_ANCHOR(T, p)                                                     \
  int axb_vendor_##p##potrf(axb_uplo uplo, int64_t n, T *A, int64_t lda) {     \
    if (!fits(n, lda)) return AXB_ERR_NOT_SUPPORTED;                           \
    int in = (int)n, il = (int)lda, info = 0;                                  \
    OB(p##potrf)(uplo == AXB_UPPER ? "U" : "L", &in, A, &il, &info, 1);        \
    return info;                                                               \
  }
POTRF_ANCHOR(double, d)
POTRF_ANCHOR(float, s)

/* Workspace query first, as LAPACK intends (lwork = -1). */
#define GETRI_ANCHOR(T, p)                                                     \
  int axb_vendor_##p##getri(int64_t n, T *A, int64_t lda,                      \
                            const int64_t *ipiv) {                             \
    if (!fits(n, lda)) return AXB_ERR_NOT_SUPPORTED;                           \
    int in = (int)n, il = (int)lda, info = 0, lw = -1;                         \
    int *piv = malloc((n > 0 ? (size_t)n : 1) * sizeof *piv);                  \
    if (!piv) return AXB_ERR_OUT_OF_MEMORY;                                    \
    for (int64_t i = 0; i < n; ++i)                                            \
      piv[i] = (int)ipiv[i];                                                   \
    T q = 0;                                                                   \
    OB(p##getri)(&in, A, &il, piv, &q, &lw, &info);                            \
    lw = (int)q > in ? (int)q : (in > 0 ? in : 1);                             \
    T *work = malloc((size_t)lw * sizeof *work);                               \
    if (!work) {                                                               \
      free(piv);                                                               \
      return AXB_ERR_OUT_OF_MEMORY;                                            \
    }                                                                          \
    OB(p##getri)(&in, A, &il, piv, work, &lw, &info);                          \
    free(work);                                                                \
    free(piv);                                                                 \
    return info;                                                               \
  }
GETRI_ANCHOR(double, d)
GETRI_ANCHOR(float, s)

#define GESV_ANCHOR(T, p)                                                      \
  int axb_vendor_##p##gesv(int64_t n, int64_t nrhs, T *A, int64_t lda,         \
                           int64_t *ipiv, T *B, int64_t ldb) {                 \
    if (!fits(n, lda) || !fits(nrhs, ldb)) return AXB_ERR_NOT_SUPPORTED;       \
    int *piv = malloc((n > 0 ? (size_t)n : 1) * sizeof *piv);                  \
    if (!piv) return AXB_ERR_OUT_OF_MEMORY;                                    \
    int in = (int)n, ir = (int)nrhs, il = (int)lda, ib = (int)ldb, info = 0;   \
    OB(p##gesv)(&in, &ir, A, &il, piv, B, &ib, &info);                         \
    for (int64_t i = 0; i < n; ++i)                                            \
      ipiv[i] = piv[i];                                                        \
    free(piv);                                                                 \
    return info;                                                               \
  }
GESV_ANCHOR(double, d)
GESV_ANCHOR(float, s)

#define POSV_ANCHOR(T, p)                                                      \
  int axb_vendor_##p##posv(axb_uplo uplo, int64_t n, int64_t nrhs, T *A,       \
                           int64_t lda, T *B, int64_t ldb) {                   \
    if (!fits(n, lda) || !fits(nrhs, ldb)) return AXB_ERR_NOT_SUPPORTED;       \
    int in = (int)n, ir = (int)nrhs, il = (int)lda, ib = (int)ldb, info = 0;   \
    OB(p##posv)                                                                \
    (uplo == AXB_UPPER ? "U" : "L", &in, &ir, A, &il, B, &ib, &info, 1);       \
    return info;                                                               \
  }
POSV_ANCHOR(double, d)
POSV_ANCHOR(float, s)

/* LAPACK's 1-norm condition estimates (xLACN2 inside) from getrf's or
   potrf's factors: the reference the tests hold axb's estimator to. */
#define CON_ANCHOR(T, p)                                                       \
  static int p##con(int chol, axb_uplo uplo, int64_t n, const T *F,            \
                    int64_t lda, double anorm, double *rcond) {                \
    if (!fits(n, lda)) return AXB_ERR_NOT_SUPPORTED;                           \
    size_t m = n > 0 ? (size_t)n : 1;                                          \
    T *work = malloc(4 * m * sizeof *work);                                    \
    int *iwork = malloc(m * sizeof *iwork);                                    \
    int in = (int)n, il = (int)lda, info = 0;                                  \
    T an = (T)anorm, rc = 0;                                                   \
    if (work && iwork) {                                                       \
      if (chol)                                                                \
        p##pocon_(uplo == AXB_UPPER ? "U" : "L", &in, F, &il, &an, &rc, work,  \
                  iwork, &info, 1);                                            \
      else                                                                     \
        p##gecon_("1", &in, F, &il, &an, &rc, work, iwork, &info, 1);          \
    }                                                                          \
    int st = work && iwork ? info : AXB_ERR_OUT_OF_MEMORY;                     \
    free(work);                                                                \
    free(iwork);                                                               \
    *rcond = (double)rc;                                                       \
    return st;                                                                 \
  }                                                                            \
  int axb_vendor_##p##gecon(int64_t n, const T *LU, int64_t lda, double anorm, \
                            double *rcond) {                                   \
    return p##con(0, AXB_LOWER, n, LU, lda, anorm, rcond);                     \
  }                                                                            \
  int axb_vendor_##p##pocon(axb_uplo uplo, int64_t n, const T *L, int64_t lda, \
                            double anorm, double *rcond) {                     \
    return p##con(1, uplo, n, L, lda, anorm, rcond);                           \
  }
CON_ANCHOR(double, d)
CON_ANCHOR(float, s)
