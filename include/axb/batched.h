/*
 * <axb/batched.h>: batched small systems (issue 6), float and double.
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_BATCHED_H
#define AXB_API_BATCHED_H

#include <stdint.h>

#include <axb/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Batched small systems (issue 6), float and double                        */
/* ------------------------------------------------------------------------ */

/*
 * `batch` independent n x n problems in one call, strided layout: matrix b
 * starts at A + b * strideA (column-major, leading dimension lda), its right
 * -hand sides at B + b * strideB (n x nrhs, ldb), its pivots at
 * ipiv + b * strideipiv (n entries, 1-based) and its outcome in info[b].
 * Strides are in elements; problems must not overlap (strideA >= lda * n,
 * strideB >= ldb * nrhs, strideipiv >= n when batch > 1).
 *
 * Where the arrays live follows the handle: a CUDA handle takes DEVICE
 * arrays (A, B, ipiv and info all in device memory of the handle's GPU) and
 * queues the work on the handle's stream with no host synchronisation; a
 * CPU handle takes HOST arrays and runs OpenMP over the batch (the handle's
 * threads); a REF handle runs the same host code sequentially.  The device
 * kernels handle 1 <= n <= 64 (larger n on a CUDA handle:
 * AXB_ERR_NOT_SUPPORTED); the host code any n.
 *
 * The call returns AXB_SUCCESS once the work is done (host) or queued
 * (device), -i for an illegal argument i (LAPACK numbering, the handle not
 * counted), or a library error.  Numerical outcomes never fail the call:
 * info[b] (int, like cuBLAS, so that tiny problems stay cheap to report) is
 * 0 or the 1-based index of the first exactly zero pivot (getrf, gesv,
 * inverse) or of the first leading minor that is not positive definite
 * (potrf, posv) of problem b alone; the other problems are unaffected.
 * getrf completes a singular factorization (as LAPACK); gesv and posv
 * leave that problem's B unchanged; inverse leaves its A unchanged.
 * Pivots and info are int (n <= 64 on the device; on the host n < 2^31).
 * Only the uplo triangle is read and written by potrf/potrs/posv.
 * Partial pivoting takes the largest magnitude, the first row on ties
 * (LAPACK's rule); the device kernels for 7 <= n <= 32 compare magnitudes
 * by their exponent and top 11-15 mantissa bits (axb_device.cuh,
 * pivot_key), so near-ties go to the first row: |l| <= 1 + 2^-11, the
 * stability of partial pivoting, but not always LAPACK's ipiv.
 */
#define AXB_DECLARE_BATCHED(T, p)                                              \
  axb_status axb_##p##getrf_batched(                                           \
      axb_handle h, int64_t n, T *A, int64_t lda, int64_t strideA, int *ipiv,  \
      int64_t strideipiv, int *info, int64_t batch);                           \
  /* B := A^-1 B from getrf_batched's factors.  Host arrays: an ipiv entry     \
     outside 1..n is argument 6 (checked, O(n batch)); device arrays are       \
     not checked. */                                                           \
  axb_status axb_##p##getrs_batched(                                           \
      axb_handle h, int64_t n, int64_t nrhs, const T *A, int64_t lda,          \
      int64_t strideA, const int *ipiv, int64_t strideipiv, T *B, int64_t ldb, \
      int64_t strideB, int64_t batch);                                         \
  /* LU of A in place and B := A^-1 B; ipiv may be NULL (not kept). */         \
  axb_status axb_##p##gesv_batched(                                            \
      axb_handle h, int64_t n, int64_t nrhs, T *A, int64_t lda,                \
      int64_t strideA, int *ipiv, int64_t strideipiv, T *B, int64_t ldb,       \
      int64_t strideB, int *info, int64_t batch);                              \
  /* A := A^-1 in place (Gauss-Jordan with partial pivoting). */               \
  axb_status axb_##p##inverse_batched(axb_handle h, int64_t n, T *A,           \
                                      int64_t lda, int64_t strideA, int *info, \
                                      int64_t batch);                          \
  axb_status axb_##p##potrf_batched(axb_handle h, axb_uplo uplo, int64_t n,    \
                                    T *A, int64_t lda, int64_t strideA,        \
                                    int *info, int64_t batch);                 \
  axb_status axb_##p##potrs_batched(axb_handle h, axb_uplo uplo, int64_t n,    \
                                    int64_t nrhs, const T *A, int64_t lda,     \
                                    int64_t strideA, T *B, int64_t ldb,        \
                                    int64_t strideB, int64_t batch);           \
  axb_status axb_##p##posv_batched(axb_handle h, axb_uplo uplo, int64_t n,     \
                                   int64_t nrhs, T *A, int64_t lda,            \
                                   int64_t strideA, T *B, int64_t ldb,         \
                                   int64_t strideB, int *info, int64_t batch);

AXB_DECLARE_BATCHED(double, d)
AXB_DECLARE_BATCHED(float, s)

/*
 * Certified batched solve, out of place (issue 26): X_b := A_b^-1 B_b for
 * every problem by LU with partial pivoting, A and B only read, and each
 * answer's normwise backward error ratio (DESIGN.md's certificate, < 30
 * passes)
 *     berr[b] = max over the columns c of
 *               ||B_b(:,c) - A_b X_b(:,c)||_inf / (||A_b||_inf
 *               ||X_b(:,c)||_inf n eps),
 * eps the unit roundoff of T, with check.c's conventions (0 for an exact
 * zero problem, 1/eps for a nonzero residual over a zero norm, NaN when a
 * norm is not finite).  One call, no copies of the caller's arrays, no
 * synchronisation on a CUDA handle.
 *
 * rowmajor = 0: A_b(i, j) = A[b strideA + i + j lda] (column-major, as the
 * other batched routines), B_b(i, c) = B[b strideB + i + c ldb], X alike
 * with ldx / strideX.  rowmajor = 1 (C order, as NumPy, CuPy and PyTorch
 * stack their arrays): A_b(i, j) = A[b strideA + i lda + j], B_b(i, c) =
 * B[b strideB + i ldb + c], X alike; then ldb, ldx >= max(1, nrhs).
 * info[b] is 0 or the first exactly zero pivot of problem b; that problem
 * gets NaN in X_b and berr[b] = +inf, the others are unaffected.  X must
 * not overlap A or B.  Arrays live where the handle's other batched
 * routines take them (device arrays on a CUDA handle, n <= 64 there);
 * returns -i for an illegal argument i (the handle not counted).
 */
#define AXB_DECLARE_BATCHED_CERT(T, p)                                         \
  axb_status axb_##p##gesv_batched_cert(                                       \
      axb_handle h, int rowmajor, int64_t n, int64_t nrhs, const T *A,         \
      int64_t lda, int64_t strideA, const T *B, int64_t ldb, int64_t strideB,  \
      T *X, int64_t ldx, int64_t strideX, int *info, T *berr, int64_t batch);

AXB_DECLARE_BATCHED_CERT(double, d)
AXB_DECLARE_BATCHED_CERT(float, s)

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_BATCHED_H */
