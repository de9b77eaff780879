/* Sequential reference kernels: the test oracle for every other backend. */
#ifndef AXB_REF_H
#define AXB_REF_H

#include "backend/backend.h"

#define AXB_DECLARE_REF(T, p)                                                  \
  axb_status axb_ref_##p##getrf(axb_handle h, int64_t m, int64_t n, T *A,      \
                                int64_t lda, int64_t *ipiv, int64_t *info);    \
  axb_status axb_ref_##p##laswp(axb_handle h, int64_t n, T *A, int64_t lda,    \
                                int64_t k1, int64_t k2, const int64_t *ipiv,   \
                                int forward);                                  \
  axb_status axb_ref_##p##trsm(axb_handle h, axb_side side, axb_uplo uplo,     \
                               axb_trans trans, axb_diag diag, int64_t m,      \
                               int64_t n, T alpha, const T *A, int64_t lda,    \
                               T *B, int64_t ldb);                             \
  axb_status axb_ref_##p##gemm(axb_handle h, axb_trans ta, axb_trans tb,       \
                               int64_t m, int64_t n, int64_t k, T alpha,       \
                               const T *A, int64_t lda, const T *B,            \
                               int64_t ldb, T beta, T *C, int64_t ldc);        \
  axb_status axb_ref_##p##potrf(axb_handle h, axb_uplo uplo, int64_t n, T *A,  \
                                int64_t lda, int64_t *info);                   \
  axb_status axb_ref_##p##getri(axb_handle h, int64_t n, T *A, int64_t lda,    \
                                const int64_t *ipiv, int64_t *info);           \
  axb_status axb_ref_##p##getri_gj(axb_handle h, int64_t n, T *A, int64_t lda, \
                                   int64_t *info);                             \
  axb_status axb_ref_##p##getrf_crout(axb_handle h, int64_t n, T *A,           \
                                      int64_t lda, int64_t *ipiv,              \
                                      int64_t *info);                          \
  axb_status axb_ref_##p##gesv_gauss(axb_handle h, int64_t n, int64_t nrhs,    \
                                     T *A, int64_t lda, T *B, int64_t ldb,     \
                                     int pivot, int64_t *info);                \
  axb_status axb_ref_##p##potrf_crout(axb_handle h, int64_t n, T *A,           \
                                      int64_t lda, int64_t *info);             \
  axb_status axb_ref_##p##potrf_banachiewicz(axb_handle h, int64_t n, T *A,    \
                                             int64_t lda, int64_t *info);      \
  axb_status axb_ref_##p##getrf_fixedpoint(                                    \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_fixedpoint_opts *o, axb_fixedpoint_stats *st, int64_t *info);  \
  axb_status axb_ref_##p##potrf_columns(                                       \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_potrf_columns_opts *o, int64_t *info);                         \
  axb_status axb_ref_##p##gesv_rowcyclic(                                      \
      axb_handle h, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,          \
      int64_t ldb, const axb_rowcyclic_opts *o, int64_t *info);

AXB_DECLARE_REF(double, d)
AXB_DECLARE_REF(float, s)

#endif
