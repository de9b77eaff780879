/*
 * The Cholesky factor of the mixed-precision solve on tensor cores
 * (cuda_chol_mixed.cu), used by the CUDA mixed session (cuda_mixed.cu).
 */
#ifndef AXB_CUDA_CHOL_MIXED_H
#define AXB_CUDA_CHOL_MIXED_H

#include "cuda_internal.h"

namespace axb_cuda {

/* F = L L^T (uplo lower) or U^T U (upper), in place, FP32, n x n, ld; the
   products under the thread's f32_compute.  *dinfo (device) := the first
   minor that is not positive definite (1-based), 0 if none.
   AXB_MIXED_CHOL_NB sets the block width (default 2048). */
axb_status chol_tc(axb_handle h, axb_uplo uplo, int64_t n, float *F, int64_t ld,
                   int64_t *dinfo);

} // namespace axb_cuda

#endif
