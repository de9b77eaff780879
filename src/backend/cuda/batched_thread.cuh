/*
 * The per-thread kernels of the batched API (src/backend/cuda/batched.cu):
 * device code only, no runtime calls, so that tests/device_emu can run it
 * on the host.  Include inside namespace axb_cuda::{anonymous}.
 */
#ifndef AXB_BATCHED_THREAD_CUH
#define AXB_BATCHED_THREAD_CUH

#include "axb_device.cuh"
#include "backend/batched_ops.h"

namespace axb_cuda {
namespace {

/* One call's arguments (batched.h), as every batched kernel takes them. */
template <typename T> struct BatArgs {
  int up, n, nrhs;
  T *A;
  int64_t lda, sA;
  int *ipiv;
  int64_t sP;
  T *B;
  int64_t ldb, sB;
  int *info;
  int64_t batch;
};

/* ---- one matrix per thread (n <= kThreadMaxN) ------------------------------
 *
 * Below nine rows a group of lanes per matrix spends its time talking (an
 * argmax and a row broadcast per elimination step for a few flops), so each
 * thread owns a whole matrix in registers at its exact order N (every loop
 * unrolled, no run-time n) and calls the per-thread functions of
 * axb_device.cuh.  The block's matrices move through shared memory in tiles
 * (coalesced over the packed batch region); right-hand sides one column at a
 * time, so any nrhs works.  Instruction count is ~N^3 selects and flops per
 * matrix per thread: at N = 8, ~70 warp instructions per matrix against
 * ~600 for the group kernels, so the tile traffic is what remains. */
/* 6, not 8: on the H200 (bench_batched, double) the per-thread kernels at
   n = 8 ran inverse/solve/Cholesky at 1.78/2.04/4.34x cuBLAS/cuSOLVER where
   the group kernels had reached 3.51/3.29/8.9x (registers grow as N^2); at
   n = 2..6 the per-thread path measured 1.5-3.3x (inverse), 4.5-11x (solve).
   n = 7 was not measured either way. */
constexpr int kThreadMaxN = 6;

template <int N> struct ThreadTile {
  static constexpr int kMats = N <= 4 ? 128 : 64; /* = threads per block */
  /* global loads in flight per thread in tile_load (axb_device.cuh): 16
     from N = 5 (H200: the N = 6 inverse 38 -> 30 us per 100 000, the solve
     44 -> 35); below, one at a time (16 doubled the registers, ptxas:
     inverse 44 / 64 -> 125 / 128 at N = 3 / 4, for no measured gain),
     which axb_dev::tile_load / tile_store turn into 16-byte pieces for
     packed, aligned tiles (ninth round). */
  static constexpr int kBatch = N <= 4 ? 1 : axb_dev::kTileBatch;
};

/* uplo mask of tile_store for A after the operation. */
template <int OP> __device__ __forceinline__ int a_mask(int up) {
  if (OP == BAT_POTRF || OP == BAT_POSV) return up ? 2 : 1;
  return 0;
}

template <int OP, int N, typename T>
__device__ __forceinline__ void thread_tile(const BatArgs<T> &a, int64_t m0,
                                            int cnt, T *sA, T *sB) {
  constexpr bool chol = OP == BAT_POTRF || OP == BAT_POTRS || OP == BAT_POSV;
  constexpr bool solve =
      OP == BAT_GETRS || OP == BAT_GESV || OP == BAT_POTRS || OP == BAT_POSV;
  constexpr bool writes_a = OP != BAT_GETRS && OP != BAT_POTRS;
  constexpr int ss = axb_dev::tile_ld<N, N>();
  const int t = (int)threadIdx.x;
  const bool me = t < cnt;
  const int64_t m = m0 + t;
  T *A = a.A + m0 * a.sA;
  axb_dev::tile_load<N, N, ThreadTile<N>::kBatch>(sA, A, a.lda, a.sA, cnt);
  __syncthreads();
  T r[N * N];
  int piv[N];
  int info = 0;
  if (me) {
    if (chol && a.up) { /* work on L = U^T */
#pragma unroll
      for (int j = 0; j < N; ++j)
#pragma unroll
        for (int i = 0; i < N; ++i)
          r[i + j * N] = sA[t * ss + j + i * N];
    } else {
      axb_dev::tile_get<N, N>(sA, t, r);
    }
    if constexpr (OP == BAT_GETRS) {
#pragma unroll
      for (int i = 0; i < N; ++i)
        piv[i] = a.ipiv[m * a.sP + i];
    }
    if constexpr (OP == BAT_GETRF || OP == BAT_GESV)
      info = axb_dev::thread_getrf<N>(N, r, piv);
    if constexpr (OP == BAT_INVERSE) info = axb_dev::thread_inverse<N>(N, r);
    if constexpr (OP == BAT_POTRF || OP == BAT_POSV)
      info = axb_dev::thread_potrf<N>(N, r);
    if (writes_a && !(OP == BAT_INVERSE && info)) {
      if (chol && a.up) {
#pragma unroll
        for (int j = 0; j < N; ++j)
#pragma unroll
          for (int i = j; i < N; ++i)
            sA[t * ss + j + i * N] = r[i + j * N];
      } else {
        axb_dev::tile_put<N, N>(sA, t, r);
      }
    }
    if (writes_a) a.info[m] = info;
    if ((OP == BAT_GETRF || OP == BAT_GESV) && a.ipiv) {
#pragma unroll
      for (int i = 0; i < N; ++i)
        a.ipiv[m * a.sP + i] = piv[i];
    }
  }
  __syncthreads();
  if (writes_a)
    axb_dev::tile_store<N, N, ThreadTile<N>::kBatch>(A, a.lda, a.sA, sA, cnt,
                                                     a_mask<OP>(a.up));
  if constexpr (solve) {
    for (int c = 0; c < a.nrhs; ++c) {
      T *B = a.B + m0 * a.sB + (int64_t)c * a.ldb;
      __syncthreads(); /* the last column's store has read sB */
      axb_dev::tile_load<N, 1, ThreadTile<N>::kBatch>(sB, B, a.ldb, a.sB, cnt);
      __syncthreads();
      if (me && !info) {
        T b[N];
        axb_dev::tile_get<N, 1>(sB, t, b);
        if constexpr (chol)
          axb_dev::thread_potrs<N>(N, r, b);
        else
          axb_dev::thread_getrs<N>(N, r, piv, b);
        axb_dev::tile_put<N, 1>(sB, t, b);
      }
      __syncthreads();
      axb_dev::tile_store<N, 1, ThreadTile<N>::kBatch>(B, a.ldb, a.sB, sB, cnt);
    }
  }
  __syncthreads(); /* the stores have read sA and sB before the next tile */
}

/* The solves loop over tiles (grid stride); the factorizations and the
   inverse take one tile per block (block0 + blockIdx.x) and the host
   launches again for the rest: without the loop ptxas gives them far fewer
   registers (sm_90, double, N = 5 / 6: inverse 134 / 236 -> 100 / 168,
   getrf 128 / 130 -> 80 / 100, potrf 98 / 128 -> 72 / 95), where the
   solves would gain registers or spill (gesv N = 5: 124 -> 160). */
template <int OP> struct ThreadOneTile {
  static constexpr bool value =
      OP == BAT_GETRF || OP == BAT_INVERSE || OP == BAT_POTRF;
};
template <int OP, int N, typename T>
__global__ void __launch_bounds__(ThreadTile<N>::kMats)
    bat_thread_kernel(const BatArgs<T> a, int64_t block0) {
  constexpr int M = ThreadTile<N>::kMats;
  constexpr bool solve =
      OP == BAT_GETRS || OP == BAT_GESV || OP == BAT_POTRS || OP == BAT_POSV;
  __shared__ T sA[M * axb_dev::tile_ld<N, N>()];
  __shared__ T sB[solve ? M * axb_dev::tile_ld<N, 1>() : 1];
  if constexpr (ThreadOneTile<OP>::value) {
    const int64_t m0 = (block0 + blockIdx.x) * M, left = a.batch - m0;
    if (left > 0) thread_tile<OP, N>(a, m0, left < M ? (int)left : M, sA, sB);
  } else {
    for (int64_t m0 = (int64_t)blockIdx.x * M; m0 < a.batch;
         m0 += (int64_t)gridDim.x * M) {
      const int64_t left = a.batch - m0;
      thread_tile<OP, N>(a, m0, left < M ? (int)left : M, sA, sB);
    }
  }
}

} // namespace
} // namespace axb_cuda

#endif
