/*
 * The CUDA backend's batched entries (src/backend/cuda/batched.cu; only in
 * CUDA builds: src/batched/batched.c calls them under AXB_HAVE_CUDA) and
 * what callers above need to know of them: the operation codes and the kernels'
 * largest n.  Declared here, in the backend layer, so that the backend never
 * includes src/batched/ and AUTO's crossover test (src/core/tune.c) reads the
 * limit from the layer that owns it.  Arguments arrive checked
 * (src/batched/batched.c).
 */
#ifndef AXB_BACKEND_BATCHED_OPS_H
#define AXB_BACKEND_BATCHED_OPS_H

#include "axb.h"

/* Largest n of the device kernels (axb.h documents n <= 64). */
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

/* axb_Xgesv_batched_cert on device arrays (batched_cert.cu), arguments
   checked: rm = 1 for row-major operands. */
axb_status axb__cuda_dgesv_cert(axb_handle h, int rm, int64_t n, int64_t nrhs,
                                const double *A, int64_t lda, int64_t sA,
                                const double *B, int64_t ldb, int64_t sB,
                                double *X, int64_t ldx, int64_t sX, int *info,
                                double *berr, int64_t batch);
axb_status axb__cuda_sgesv_cert(axb_handle h, int rm, int64_t n, int64_t nrhs,
                                const float *A, int64_t lda, int64_t sA,
                                const float *B, int64_t ldb, int64_t sB,
                                float *X, int64_t ldx, int64_t sX, int *info,
                                float *berr, int64_t batch);

#ifdef __cplusplus
}
#endif
#endif
