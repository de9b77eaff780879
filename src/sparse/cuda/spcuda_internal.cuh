/*
 * Internals shared by the sparse GPU files (C++, .cu only): the device CSR
 * matrix behind axb_spcuda_mat, launch helpers and the block reduction used
 * by every fused kernel.
 */
#ifndef AXB_SPCUDA_INTERNAL_CUH
#define AXB_SPCUDA_INTERNAL_CUH

#include "backend/cuda/cuda_internal.h"

extern "C" {
#include "sparse/cuda/spcuda.h"
}

#include <stdint.h>

namespace axb_spcuda {

/* Merge-path tile: THREADS threads, each walking IPT merge items. */
constexpr int kMergeThreads = 128;
constexpr int kMergeIpt = 8;
constexpr int kMergeTile = kMergeThreads * kMergeIpt;
/* Threads of the vector kernel's blocks and of the vector-op kernels. */
constexpr int kBlock = 256;

} // namespace axb_spcuda

/* The uploaded matrix (device arrays on device `device`). */
struct axb_spcuda_mat {
  int device;
  axb_dtype dtype;
  int64_t rows, cols, nnz;
  int64_t *rowptr; /* rows + 1 */
  int32_t *colind; /* nnz */
  void *val;       /* nnz of dtype */
  double mean_row;
  int64_t max_row;
  axb_spmv_kind kind; /* resolved: VECTOR or MERGE */
  int width;          /* VECTOR: lanes per row    */
  /* MERGE plan: tile t starts at row tile_row[t], nonzero tile_nz[t]
     (ntiles + 1 entries); carries of the rows split between tiles. */
  int64_t ntiles;
  int64_t *tile_row, *tile_nz;
  int64_t *carry_row;
  void *carry_val;
};

namespace axb_spcuda {

inline unsigned grid_for(int64_t items, int per_block) {
  int64_t g = (items + per_block - 1) / per_block;
  return (unsigned)(g < 1 ? 1 : g);
}

/* Sum of v over the block (blockDim.x a multiple of 32, <= 1024); the
   result is valid in thread 0.  Uses the 32-entry shared scratch. */
__device__ inline double block_sum(double v, double *scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  __syncthreads(); /* scratch may still be read by a previous call */
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int nw = blockDim.x >> 5;
  v = threadIdx.x < nw ? scratch[threadIdx.x] : 0.0;
  if (warp == 0)
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

} // namespace axb_spcuda

#endif
