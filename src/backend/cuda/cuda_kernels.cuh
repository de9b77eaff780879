/*
 * What the CUDA backend's own kernels (cuda_kernels.cu, cuda_lu_leaf.cu)
 * share: the block size, the pivot comparison and the warp and block
 * reductions built on it, and the warp that turns a panel's interchanges
 * into a swap plan.  Device code, included by those two files only.
 */
#ifndef AXB_CUDA_KERNELS_CUH
#define AXB_CUDA_KERNELS_CUH

#include "cuda_internal.h"

#include <cooperative_groups.h>
#include <limits.h>

namespace cg = cooperative_groups;

namespace axb_cuda {

constexpr int kThreads = 256;
constexpr int64_t kNoRow = INT64_MAX;

template <typename T> __device__ inline T absval(T x) { return x < 0 ? -x : x; }

/* Larger magnitude wins; equal magnitudes: the smaller row (LAPACK takes the
   first).  NaN never wins (comparisons are false), as in idamax. */
template <typename T>
__device__ inline void better(T &v, int64_t &i, T ov, int64_t oi) {
  if (ov > v || (ov == v && oi < i)) {
    v = ov;
    i = oi;
  }
}

/* The warp's best (v, i) by better(), in five butterfly shuffle rounds:
   every lane ends with it. */
template <typename T>
__device__ __forceinline__ void warp_best(T &v, int64_t &i) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    T ov = __shfl_xor_sync(0xffffffffu, v, off);
    int64_t oi = __shfl_xor_sync(0xffffffffu, i, off);
    better(v, i, ov, oi);
  }
}

/* The block's best over NW warps, known to every thread: each warp's best
   (butterfly) to shared memory, then every warp reduces those NW in the
   same order, so all agree.  One __syncthreads. */
template <int NW, typename T>
__device__ __forceinline__ void block_best(T &v, int64_t &i, T *s_wv,
                                           int64_t *s_wi, int lane, int warp) {
  warp_best(v, i);
  if (lane == 0) {
    s_wv[warp] = v;
    s_wi[warp] = i;
  }
  __syncthreads();
  v = lane < NW ? s_wv[lane] : T(-1);
  i = lane < NW ? s_wi[lane] : kNoRow;
  warp_best(v, i);
}

/* Stores a swap plan from one warp: row k1 + t of the block takes row
   s_cur[t] (t < L), then the cnt rows outside it, s_opos[q] from
   s_osrc[q]. */
__device__ inline void swap_plan_store(SwapPlan plan, int64_t k1, int64_t L,
                                       int cnt, const int64_t *s_cur,
                                       const int64_t *s_opos,
                                       const int64_t *s_osrc, int lane) {
  for (int64_t t = lane; t < L; t += 32) {
    plan.dst[t] = k1 + t;
    plan.src[t] = s_cur[t];
  }
  for (int q = lane; q < cnt; q += 32) {
    plan.dst[L + q] = s_opos[q];
    plan.src[L + q] = s_osrc[q];
  }
  if (lane == 0) *plan.count = L + cnt;
}

/*
 * One warp simulates the interchanges ipiv[k1..k2) (forward or reverse
 * order) on row labels and writes the resulting moves, so that the rows are
 * then moved in one pass: position k1+t receives cur[t]; positions outside
 * [k1, k2) touched by a pivot are kept in a short list.  s_* are shared
 * arrays of cap >= k2 - k1 entries.
 */
__device__ inline void build_plan_warp(int64_t k1, int64_t k2,
                                       const int64_t *ipiv, int forward,
                                       int64_t *s_piv, int64_t *s_cur,
                                       int64_t *s_opos, int64_t *s_osrc,
                                       SwapPlan plan) {
  const int lane = threadIdx.x & 31;
  const int64_t L = k2 - k1;
  for (int64_t t = lane; t < L; t += 32) {
    s_piv[t] = ipiv[k1 + t] - 1;
    s_cur[t] = k1 + t;
  }
  __syncwarp();
  int cnt = 0;
  for (int64_t s = 0; s < L; ++s) {
    const int64_t j = forward ? k1 + s : k2 - 1 - s;
    const int64_t p = s_piv[j - k1];
    if (p == j) continue;
    const bool in_range = p >= k1 && p < k2;
    int f = 0;
    if (!in_range) {
      unsigned mine = UINT_MAX;
      for (int q = lane; q < cnt; q += 32)
        if (s_opos[q] == p && (unsigned)q < mine) mine = (unsigned)q;
      unsigned found = __reduce_min_sync(0xffffffffu, mine);
      if (found == UINT_MAX) {
        f = cnt++;
        if (lane == 0) s_opos[f] = s_osrc[f] = p;
      } else {
        f = (int)found;
      }
      __syncwarp();
    }
    if (lane == 0) {
      int64_t *cp = in_range ? &s_cur[p - k1] : &s_osrc[f];
      const int64_t cj = s_cur[j - k1];
      s_cur[j - k1] = *cp;
      *cp = cj;
    }
    __syncwarp();
  }
  swap_plan_store(plan, k1, L, cnt, s_cur, s_opos, s_osrc, lane);
}

} // namespace axb_cuda

#endif
