/* Build without a BLAS/LAPACK anchor: every anchor says so. */
#include "vendor/vendor.h"

const char *axb_blas_info(void) { return "none"; }

void axb_vendor_set_threads(int nthreads) { (void)nthreads; }
int axb_vendor_get_threads(void) { return 0; }

#define NONE_GETRF(T, p)                                                       \
  int axb_vendor_##p##getrf(int64_t n, T *A, int64_t lda, int64_t *ipiv) {     \
    (void)n, (void)A, (void)lda, (void)ipiv;                                   \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##potrf(axb_uplo uplo, int64_t n, T *A, int64_t lda) {     \
    (void)uplo, (void)n, (void)A, (void)lda;                                   \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##getri(int64_t n, T *A, int64_t lda,                      \
                            const int64_t *ipiv) {                             \
    (void)n, (void)A, (void)lda, (void)ipiv;                                   \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##gesv(int64_t n, int64_t nrhs, T *A, int64_t lda,         \
                           int64_t *ipiv, T *B, int64_t ldb) {                 \
    (void)n, (void)nrhs, (void)A, (void)lda, (void)ipiv, (void)B, (void)ldb;   \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##posv(axb_uplo uplo, int64_t n, int64_t nrhs, T *A,       \
                           int64_t lda, T *B, int64_t ldb) {                   \
    (void)uplo, (void)n, (void)nrhs, (void)A, (void)lda, (void)B, (void)ldb;   \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##gecon(int64_t n, const T *LU, int64_t lda, double anorm, \
                            double *rcond) {                                   \
    (void)n, (void)LU, (void)lda, (void)anorm, (void)rcond;                    \
    return AXB_ERR_NOT_COMPILED;                                               \
  }                                                                            \
  int axb_vendor_##p##pocon(axb_uplo uplo, int64_t n, const T *L, int64_t lda, \
                            double anorm, double *rcond) {                     \
    (void)uplo, (void)n, (void)L, (void)lda, (void)anorm, (void)rcond;         \
    return AXB_ERR_NOT_COMPILED;                                               \
  }
NONE_GETRF(double, d)
NONE_GETRF(float, s)
