/*
 * Cholesky by 64 x 64 tiles in one launch (cuda_chol_tiles.cu), used by
 * potrf_dev (cuda_dense.cu).
 */
#ifndef AXB_CUDA_CHOL_TILES_H
#define AXB_CUDA_CHOL_TILES_H

#include "cuda_internal.h"

namespace axb_cuda {

constexpr int kTileEdge = 64;

/* Ready flags (unsigned, zeroed by the caller) one launch of potrf_tiles on an
   m x w trapezoid uses. */
size_t potrf_tiles_flags(int64_t m, int64_t w);

/* The m x w lower trapezoid at A (m >= w; upper storage: its transpose)
   factored on st: the w columns' diagonal block by Cholesky and the rows
   below solved against it.  *info = off + j + 1 at the first minor that is
   not positive (the smallest wins); nothing when *info is already set.
   flags: potrf_tiles_flags(m, w) zeroed flags only this launch uses. */
template <typename T>
axb_status potrf_tiles(axb_handle h, cudaStream_t st, axb_uplo uplo, int64_t m,
                       int64_t w, T *A, int64_t lda, int64_t off, int64_t *info,
                       unsigned *flags);

} // namespace axb_cuda

#endif
