/*
 * Internal interface of the batched API (issue 6): the operation codes and
 * the CUDA entry points (src/backend/cuda/batched.cu; present only in CUDA
 * builds, called only for CUDA handles).  Arguments arrive checked.
 */
#ifndef AXB_BATCHED_H
#define AXB_BATCHED_H

#include "axb.h"

/* Largest n of the device kernels. */
#define AXB_BATCHED_MAX_N 64

enum {
  BAT_GETRF,
  BAT_GETRS,
  BAT_GESV,
  BAT_INVERSE,
  BAT_POTRF,
  BAT_POTRS,
  BAT_POSV
};

#ifdef __cplusplus
extern "C" {
#endif

/* op: BAT_*; up: 1 for upper (potrf/potrs/posv); arrays in device memory;
   B/ipiv may be NULL where the operation has none (gesv: ipiv optional). */
axb_status axb__cuda_dbatched(axb_handle h, int op, int up, int64_t n,
                              int64_t nrhs, double *A, int64_t lda, int64_t sA,
                              int *ipiv, int64_t sP, double *B, int64_t ldb,
                              int64_t sB, int *info, int64_t batch);
axb_status axb__cuda_sbatched(axb_handle h, int op, int up, int64_t n,
                              int64_t nrhs, float *A, int64_t lda, int64_t sA,
                              int *ipiv, int64_t sP, float *B, int64_t ldb,
                              int64_t sB, int *info, int64_t batch);

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
