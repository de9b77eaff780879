/*
 * Vendor libraries used as comparison anchors (never by the solvers):
 * OpenBLAS's LAPACK, called in the same process as axb by the benchmark
 * (bench/bench_cpu.c) and by tests that compare against it.  Sizes are
 * int64_t as everywhere in axb; OpenBLAS from Debian uses 32-bit LAPACK
 * integers, so the wrappers refuse sizes above INT32_MAX
 * (AXB_ERR_NOT_SUPPORTED).  Without OpenBLAS (AXB_LAPACK=OFF) every
 * wrapper returns AXB_ERR_NOT_COMPILED.  Positive return values are
 * LAPACK's info (singular pivot, minor not positive definite).
 */
#ifndef AXB_VENDOR_H
#define AXB_VENDOR_H

#include "axb.h"

/* OpenBLAS's own thread count (process-global); set before timing it. */
void axb_vendor_set_threads(int nthreads);
int axb_vendor_get_threads(void);

int axb_vendor_dgetrf(int64_t n, double *A, int64_t lda, int64_t *ipiv);
int axb_vendor_sgetrf(int64_t n, float *A, int64_t lda, int64_t *ipiv);
int axb_vendor_dpotrf(axb_uplo uplo, int64_t n, double *A, int64_t lda);
int axb_vendor_spotrf(axb_uplo uplo, int64_t n, float *A, int64_t lda);
/* Inverse from getrf's factors (ipiv as returned by axb_vendor_?getrf). */
int axb_vendor_dgetri(int64_t n, double *A, int64_t lda, const int64_t *ipiv);
int axb_vendor_sgetri(int64_t n, float *A, int64_t lda, const int64_t *ipiv);

/* A x = B by getrf + getrs (LAPACK gesv); ipiv as getrf's. */
int axb_vendor_dgesv(int64_t n, int64_t nrhs, double *A, int64_t lda,
                     int64_t *ipiv, double *B, int64_t ldb);
int axb_vendor_sgesv(int64_t n, int64_t nrhs, float *A, int64_t lda,
                     int64_t *ipiv, float *B, int64_t ldb);
/* A x = B by potrf + potrs (LAPACK posv); returns info. */
int axb_vendor_dposv(axb_uplo uplo, int64_t n, int64_t nrhs, double *A,
                     int64_t lda, double *B, int64_t ldb);
int axb_vendor_sposv(axb_uplo uplo, int64_t n, int64_t nrhs, float *A,
                     int64_t lda, float *B, int64_t ldb);
/* LAPACK's 1-norm rcond estimate from getrf's (gecon) or potrf's (pocon)
   factors; returns info. */
int axb_vendor_dgecon(int64_t n, const double *LU, int64_t lda, double anorm,
                      double *rcond);
int axb_vendor_sgecon(int64_t n, const float *LU, int64_t lda, double anorm,
                      double *rcond);
int axb_vendor_dpocon(axb_uplo uplo, int64_t n, const double *L, int64_t lda,
                      double anorm, double *rcond);
int axb_vendor_spocon(axb_uplo uplo, int64_t n, const float *L, int64_t lda,
                      double anorm, double *rcond);

/* Device anchors (gpu_runner.cu; gpu_runner_none.c without CUDA). */
int axb_vendor_gpu_compiled(void);
/* Version text of AXB_ANCHOR_CUSOLVER / _CUBLAS ("none" without CUDA). */
const char *axb_vendor_gpu_version(axb_anchor a);

#endif
