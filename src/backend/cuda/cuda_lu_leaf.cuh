/*
 * What the LU leaf kernels share (cuda_lu_leaf.cu, cuda_lu_leafp.cu): the
 * arguments of one leaf launch, and the cluster leaf's entry point.
 * Device code, included by those two files only.
 */
#ifndef AXB_CUDA_LU_LEAF_CUH
#define AXB_CUDA_LU_LEAF_CUH

#include "cuda_internal.h"

namespace axb_cuda {

/* One leaf: columns c .. c + w - 1 (w <= kLeafWidth) of rows c .. m - 1 of
   A; ipiv and info as getrf's; the grid kernel's candidate scratch (cval,
   cidx, crow, jrow); the plan the leaf's interchanges are written to. */
template <typename T> struct LeafArgs {
  int64_t m, c;
  int w;
  T *A;
  int64_t lda;
  int64_t *ipiv, *info;
  T *cval;
  int64_t *cidx;
  T *crow, *jrow;
  SwapPlan plan;
};

/* The leaf by the cluster kernel (cuda_lu_leafp.cu) when its rows fit one
   cluster that the device can schedule: *used then, and the launch's
   status; otherwise *used = false and nothing is launched. */
template <typename T>
axb_status lu_leafp(axb_handle h, cudaStream_t st, const LeafArgs<T> &a,
                    bool *used);

} // namespace axb_cuda

#endif
