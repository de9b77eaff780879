/*
 * What the CUDA study kernels (cuda_study_*.cu) share: staging through
 * stream-ordered device memory, pinned words, launch sizes, block
 * reductions; and each file's entry into the table.  Internal to those
 * files (its helpers sit in an anonymous namespace: one copy per file).
 */
#ifndef AXB_CUDA_STUDY_INTERNAL_CUH
#define AXB_CUDA_STUDY_INTERNAL_CUH

#include "cuda_dense.h"
#include "cuda_internal.h"
#include "cuda_study.h"

#include <math.h>
#include <string.h>
#include <vector>

namespace axb_cuda {

/* The entries of each study file (called by fill_study_table). */
void fill_study_fixedpoint(axb_backend_ops *ops);
void fill_study_columns(axb_backend_ops *ops);
void fill_study_gj(axb_backend_ops *ops);
void fill_study_rowcyclic(axb_backend_ops *ops);

namespace {

/* ---- staging helpers (device scratch: Scratch, cuda_dense.h) ----------- */

/* Pinned host words, freed at scope exit. */
struct PinBuf {
  void *p = nullptr;
  ~PinBuf() {
    if (p) cudaFreeHost(p);
  }
};

inline unsigned blocks_for(int64_t work, int threads) {
  return (unsigned)((work + threads - 1) / threads);
}

template <typename T> __device__ inline T absv(T x) { return x < 0 ? -x : x; }

/* Block reductions over shared memory (blockDim.x a power of two; every
   thread calls them): part[0] := the sum of every thread's acc ... */
template <typename T> __device__ inline void block_sum(T *part, T acc) {
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
}
/* ... and (sv[0], si[0]) := the largest best, on ties the smallest row bi
   (LAPACK takes the first). */
template <typename T>
__device__ inline void block_best_tree(T *sv, int64_t *si, T best, int64_t bi) {
  sv[threadIdx.x] = best;
  si[threadIdx.x] = bi;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) {
      const T ov = sv[threadIdx.x + w];
      const int64_t oi = si[threadIdx.x + w];
      if (ov > sv[threadIdx.x] ||
          (ov == sv[threadIdx.x] && oi < si[threadIdx.x])) {
        sv[threadIdx.x] = ov;
        si[threadIdx.x] = oi;
      }
    }
    __syncthreads();
  }
}

/* Largest |a_ij| of the n x n host matrix (NaN skipped). */
template <typename T> double host_max_abs(int64_t n, const T *A, int64_t lda) {
  double big = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double a = fabs((double)A[i + j * lda]);
      if (a > big) big = a;
    }
  return big;
}

} // namespace
} // namespace axb_cuda

#endif
