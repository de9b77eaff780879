/*
 * <axb/dense.h>: the typed LAPACK-like layer on host arrays and the
 * device-pointer API, float and double. One piece of axb's public API: include
 * <axb.h>, which includes every piece (its conventions hold here); each piece
 * also compiles alone.
 */
#ifndef AXB_API_DENSE_H
#define AXB_API_DENSE_H

#include <stdint.h>

#include <axb/core.h>
#include <axb/study.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Typed LAPACK-like layer (host memory), float and double                  */
/* ------------------------------------------------------------------------ */

/*
 * Every routine follows its LAPACK namesake: on return *info is 0, -i for an
 * illegal argument i, or the positive index of the failing pivot/minor; the
 * returned status says the same thing (AXB_ERR_SINGULAR, AXB_ERR_NOT_SPD, -i,
 * or a library error).  info may be NULL.  getrf, like LAPACK, completes the
 * factorization when U is exactly singular.
 */
#define AXB_DECLARE_TYPED(T, p)                                                \
  axb_status axb_##p##getrf(axb_handle h, int64_t m, int64_t n, T *A,          \
                            int64_t lda, int64_t *ipiv, int64_t *info);        \
  axb_status axb_##p##getrs(                                                   \
      axb_handle h, axb_trans trans, int64_t n, int64_t nrhs, const T *A,      \
      int64_t lda, const int64_t *ipiv, T *B, int64_t ldb, int64_t *info);     \
  axb_status axb_##p##gesv(axb_handle h, int64_t n, int64_t nrhs, T *A,        \
                           int64_t lda, int64_t *ipiv, T *B, int64_t ldb,      \
                           int64_t *info);                                     \
  axb_status axb_##p##potrf(axb_handle h, axb_uplo uplo, int64_t n, T *A,      \
                            int64_t lda, int64_t *info);                       \
  axb_status axb_##p##potrs(axb_handle h, axb_uplo uplo, int64_t n,            \
                            int64_t nrhs, const T *A, int64_t lda, T *B,       \
                            int64_t ldb, int64_t *info);                       \
  axb_status axb_##p##posv(axb_handle h, axb_uplo uplo, int64_t n,             \
                           int64_t nrhs, T *A, int64_t lda, T *B, int64_t ldb, \
                           int64_t *info);                                     \
  /* Inverse from getrf's factors, in place. */                                \
  axb_status axb_##p##getri(axb_handle h, int64_t n, T *A, int64_t lda,        \
                            const int64_t *ipiv, int64_t *info);               \
  /* B := alpha * op(A)^-1 B (LEFT) or alpha * B op(A)^-1 (RIGHT). */          \
  axb_status axb_##p##trsm(axb_handle h, axb_side side, axb_uplo uplo,         \
                           axb_trans trans, axb_diag diag, int64_t m,          \
                           int64_t n, T alpha, const T *A, int64_t lda, T *B,  \
                           int64_t ldb);                                       \
  /* Reciprocal condition number estimate from getrf's factors (the block      \
     1-norm estimator of Higham & Tisseur with 2 columns, LAPACK's xLACN2      \
     generalised: rcond >= the true value, almost always within 3 of it);      \
     anorm = norm of the original A in the same norm (ONE or INF). */          \
  axb_status axb_##p##gecon(axb_handle h, axb_norm norm, int64_t n,            \
                            const T *LU, int64_t lda, double anorm,            \
                            double *rcond, int64_t *info);                     \
  /* Same from potrf's factor; anorm = 1-norm of the original A. */            \
  axb_status axb_##p##pocon(axb_handle h, axb_uplo uplo, int64_t n,            \
                            const T *L, int64_t lda, double anorm,             \
                            double *rcond, int64_t *info);                     \
  /* ---- study variants from the source documents (SEEDS.md) ---- */          \
  /* Crout LU: Z holds L (with its diagonal) below and on the diagonal and     \
     unit U strictly above.  ipiv != NULL: partial pivoting (rows); NULL:      \
     none, and a zero or tiny pivot is reported as AXB_ERR_SMALL_PIVOT. */     \
  axb_status axb_##p##getrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,  \
                                  int64_t *ipiv, int64_t *info);               \
  /* Split Crout's Z into L (n x n lower, with diagonal) and U (unit upper).   \
   */                                                                          \
  axb_status axb_##p##crout_extract(int64_t n, const T *Z, int64_t ldz, T *L,  \
                                    int64_t ldl, T *U, int64_t ldu);           \
  /* Gaussian elimination on [A|B] with row normalisation (unit diagonal)      \
     and back substitution.  pivot=1: partial pivoting; pivot=0: the           \
     original algorithm, which reports a zero/tiny pivot instead of            \
     dividing by it.  A is destroyed; B is overwritten with X. */              \
  axb_status axb_##p##gesv_gauss(axb_handle h, int64_t n, int64_t nrhs, T *A,  \
                                 int64_t lda, T *B, int64_t ldb, int pivot,    \
                                 int64_t *info);                               \
  /* Cholesky, lower, unblocked: column-wise (Crout) or row-wise               \
     (Banachiewicz).  Only the lower triangle is referenced/written. */        \
  axb_status axb_##p##potrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,  \
                                  int64_t *info);                              \
  axb_status axb_##p##potrf_banachiewicz(axb_handle h, int64_t n, T *A,        \
                                         int64_t lda, int64_t *info);          \
  /* Gauss-Jordan inverse on [A|I] with partial pivoting, in place: the        \
     backend's fastest form (blocked on the CPU backend). */                   \
  axb_status axb_##p##getri_gj(axb_handle h, int64_t n, T *A, int64_t lda,     \
                               int64_t *info);                                 \
  /* The same, one pivot at a time (the source document's algorithm; on the    \
     CPU backend rows in parallel, simd over columns): a study variant. */     \
  axb_status axb_##p##getri_gj_unblocked(axb_handle h, int64_t n, T *A,        \
                                         int64_t lda, int64_t *info);          \
  /* Iterative (fixed-point) Crout LU without pivoting (see                    \
     axb_fixedpoint_opts): on return A holds Z as getrf_crout's (L with its    \
     diagonal, unit U above).  opts NULL: defaults; stats may be NULL.         \
     AXB_ERR_SMALL_PIVOT (info = column) when a converged pivot is not above   \
     n eps max|A| (never divided by); AXB_ERR_NO_CONVERGENCE (info = 0) when   \
     a section reached the sweep cap.  Arguments: n 1, A 2, lda 3, opts 4. */  \
  axb_status axb_##p##getrf_fixedpoint(                                        \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_fixedpoint_opts *opts, axb_fixedpoint_stats *stats,            \
      int64_t *info);                                                          \
  /* Cholesky, lower, column by column (see axb_potrf_columns_opts; opts       \
     NULL: defaults), as potrf_crout: AXB_ERR_NOT_SPD with info = the order    \
     of the first minor that is not positive definite.  Arguments: n 1, A 2,   \
     lda 3, opts 4. */                                                         \
  axb_status axb_##p##potrf_columns(                                           \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_potrf_columns_opts *opts, int64_t *info);                      \
  /* gesv_gauss with the row-cyclic GPU decomposition's options (see           \
     axb_rowcyclic_opts; NULL: defaults).  Statuses as gesv_gauss's.           \
     Arguments: n 1, nrhs 2, A 3, lda 4, B 5, ldb 6, opts 7. */                \
  axb_status axb_##p##gesv_rowcyclic(                                          \
      axb_handle h, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,          \
      int64_t ldb, const axb_rowcyclic_opts *opts, int64_t *info);

AXB_DECLARE_TYPED(double, d)
AXB_DECLARE_TYPED(float, s)

/* ------------------------------------------------------------------------ */
/* Device-pointer API (CUDA handles), float and double                      */
/* ------------------------------------------------------------------------ */

/*
 * The same routines on arrays in device memory of the handle's GPU (MAGMA's
 * _gpu): no transfers, no device synchronisation.  Work is queued on the
 * handle's stream (axb_get_stream); the call returns AXB_SUCCESS once it is
 * queued, -i for an illegal argument i (numbered as the host routine, dinfo
 * last), or a library error.  The numerical outcome is written to *dinfo, an
 * int64_t in DEVICE memory: 0, or as the host routine's info (first exactly
 * zero pivot of U, which getrf still completes; order of the first minor
 * that is not positive definite).  Pivots (dipiv, 1-based) are in device
 * memory too.  A handle of a backend without device arrays answers
 * AXB_ERR_NOT_SUPPORTED.
 */
#define AXB_DECLARE_DEV(T, p)                                                  \
  axb_status axb_##p##getrf_dev(axb_handle h, int64_t m, int64_t n, T *dA,     \
                                int64_t ldda, int64_t *dipiv, int64_t *dinfo); \
  axb_status axb_##p##getrs_dev(axb_handle h, axb_trans trans, int64_t n,      \
                                int64_t nrhs, const T *dA, int64_t ldda,       \
                                const int64_t *dipiv, T *dB, int64_t lddb);    \
  /* LAPACK's laswp: rows i and dipiv[i-1] (1-based) of the n columns of       \
     dA interchanged for i = k1..k2 (incx 1) or k2..k1 (incx -1); planned      \
     moves, one pass over the columns per 256 interchanges. */                 \
  axb_status axb_##p##laswp_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,  \
                                int64_t k1, int64_t k2, const int64_t *dipiv,  \
                                int64_t incx);                                 \
  axb_status axb_##p##potrf_dev(axb_handle h, axb_uplo uplo, int64_t n, T *dA, \
                                int64_t ldda, int64_t *dinfo);                 \
  axb_status axb_##p##potrs_dev(axb_handle h, axb_uplo uplo, int64_t n,        \
                                int64_t nrhs, const T *dA, int64_t ldda,       \
                                T *dB, int64_t lddb);                          \
  /* Inverse from getrf_dev's factors, in place. */                            \
  axb_status axb_##p##getri_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,  \
                                const int64_t *dipiv, int64_t *dinfo);         \
  /* Blocked Gauss-Jordan inverse with partial pivoting, in place (no          \
     factors needed; *dinfo = the first zero pivot, then dA is undefined). */  \
  axb_status axb_##p##getri_gj_dev(axb_handle h, int64_t n, T *dA,             \
                                   int64_t ldda, int64_t *dinfo);

AXB_DECLARE_DEV(double, d)
AXB_DECLARE_DEV(float, s)

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_DENSE_H */
