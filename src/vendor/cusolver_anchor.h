/*
 * cuSOLVER as comparison anchor (never used by the solvers): dense getrf,
 * getrs, potrf, potrs through the 64-bit generic API (cusolverDnX*), on
 * device arrays, queued on a caller's stream.  Compiled only with CUDA
 * (src/vendor/cusolver_anchor.cu); tests and bench/bench_cuda call it in
 * the same process as axb, on the same matrices.  Workspace is kept in the
 * anchor and grows on demand, so timed calls after a warm-up allocate
 * nothing.  Return: 0, or a negative cusolverStatus_t / CUDA error
 * (negated); cuSOLVER's own info lands in *dinfo (device int).
 */
#ifndef AXB_CUSOLVER_ANCHOR_H
#define AXB_CUSOLVER_ANCHOR_H

#include "axb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axb_cusolver axb_cusolver;

/* On the current device; stream is a cudaStream_t (NULL: default stream). */
int axb_cusolver_create(axb_cusolver **s, void *stream);
void axb_cusolver_destroy(axb_cusolver *s);
/* Library version as major*1000 + minor*100 + patch. */
int axb_cusolver_version(void);

int axb_cusolver_getrf(axb_cusolver *s, axb_dtype t, int64_t n, void *dA,
                       int64_t lda, int64_t *dipiv, int *dinfo);
int axb_cusolver_getrs(axb_cusolver *s, axb_dtype t, int64_t n, int64_t nrhs,
                       const void *dA, int64_t lda, const int64_t *dipiv,
                       void *dB, int64_t ldb, int *dinfo);
int axb_cusolver_potrf(axb_cusolver *s, axb_dtype t, axb_uplo uplo, int64_t n,
                       void *dA, int64_t lda, int *dinfo);
int axb_cusolver_potrs(axb_cusolver *s, axb_dtype t, axb_uplo uplo, int64_t n,
                       int64_t nrhs, const void *dA, int64_t lda, void *dB,
                       int64_t ldb, int *dinfo);

#ifdef __cplusplus
}
#endif
#endif
