/*
 * Internal interface of the batched API (issue 6).  The operation codes,
 * the device kernels' largest n and the CUDA backend's entries on device
 * arrays are the backend layer's (backend/batched_ops.h); this adds the
 * staged entries on host arrays (src/batched/batched_stage.cu; present only
 * in CUDA builds, called only for CUDA handles).  Arguments arrive checked.
 */
#ifndef AXB_BATCHED_H
#define AXB_BATCHED_H

#include "axb.h"
#include "backend/batched_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same on HOST arrays for an AUTO handle's CUDA sub-handle g
   (src/batched/batched_stage.cu): copies in, kernels, copies out, waits.
   *touched = 0 when it failed before writing the host arrays (the caller
   may then run the host code instead). */
axb_status axb__cuda_dbatched_host(axb_handle g, int op, int up, int64_t n,
                                   int64_t nrhs, double *A, int64_t lda,
                                   int64_t sA, int *ipiv, int64_t sP, double *B,
                                   int64_t ldb, int64_t sB, int *info,
                                   int64_t batch, int *touched);
axb_status axb__cuda_sbatched_host(axb_handle g, int op, int up, int64_t n,
                                   int64_t nrhs, float *A, int64_t lda,
                                   int64_t sA, int *ipiv, int64_t sP, float *B,
                                   int64_t ldb, int64_t sB, int *info,
                                   int64_t batch, int *touched);

#ifdef __cplusplus
}
#endif
#endif
