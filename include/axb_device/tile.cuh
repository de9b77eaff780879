/*
 * Part of axb_device.cuh (include that header, not this one).
 * Tiles: a block's matrices staged through shared memory for the
 * per-thread functions (tile_load, tile_get, tile_put, tile_store).
 */
#ifndef AXB_DEVICE_TILE_CUH
#define AXB_DEVICE_TILE_CUH

#include <stdint.h>

namespace axb_dev {

/* ======================================================================== */
/* Tiles: a block's matrices staged through shared memory                   */
/* ======================================================================== */

/*
 * One matrix per thread reads and writes global memory well only when the
 * warp's accesses are contiguous, and thread t's matrix starts R*C elements
 * after thread t-1's: per-thread loads would touch 32 separate cache lines
 * per instruction.  A tile moves the R x C blocks of cnt consecutive matrices
 * (matrix t at G + t * stride, element (i, j) at i + j * ld) between global
 * memory and shared memory with consecutive threads on consecutive elements
 * (coalesced whenever the storage is packed: ld == R, stride == R * C), so
 * each thread then computes from its own block in shared memory.
 *
 * Tile layout: block t at S + t * tile_ld<R, C>(), element (i, j) at i + j * R.
 * tile_ld is odd, so the lanes of a warp reading the same element of their
 * blocks hit distinct banks.  Every thread of the block calls tile_load /
 * tile_store (with __syncthreads() between a load and the reads, and
 * between the writes and a store); tile_get / tile_put are per thread.
 *
 *     __shared__ T S[64 * axb_dev::tile_ld<N, N>()];   // 64 threads
 *     axb_dev::tile_load<N, N>(S, A + m0 * N * N, N, N * N, cnt);
 *     __syncthreads();
 *     T a[N * N];
 *     if (threadIdx.x < cnt) {
 *       axb_dev::tile_get<N, N>(S, threadIdx.x, a);
 *       info = axb_dev::thread_inverse<N>(N, a);
 *       if (!info) axb_dev::tile_put<N, N>(S, threadIdx.x, a);
 *     }
 *     __syncthreads();
 *     axb_dev::tile_store<N, N>(A + m0 * N * N, N, N * N, S, cnt);
 */
template <int R, int C> __host__ __device__ constexpr int tile_ld() {
  return (R * C) | 1;
}

/* Elements per thread in flight: tile_load<R, C, K> with K > 1 issues K
   global loads before it writes any of them to shared memory (a loop of
   load-then-store keeps one or two loads per thread in flight, and a block
   of 64 threads then waits a memory latency per few hundred bytes).  The
   price is registers: ptxas puts the batched API's per-thread inverse at
   N = 3, 4, 6 (double) at 125 / 128 / 254 registers with K = 16 against
   44 / 64 / 168 with K = 1 (the plain loop), so the API takes K = 16 only
   from N = 5 on (H200, batch 100 000: the N = 6 inverse 38 -> 30 us, the
   solve 44 -> 35 us; docs/PERFORMANCE.md, third round).  tile_load's
   default K follows that measurement: 16 from R * C = 25 elements per
   matrix on, 1 below. */
constexpr int kTileBatch = 16;
template <int R, int C> constexpr int tile_batch_default() {
  return R * C >= 25 ? kTileBatch : 1;
}

/* Element e of the tile's region in global memory (matrix t = e / E at
   G + t * stride, element (i, j) at i + j * ld); packed storage (ld == R,
   stride == R * C) is element e itself.  PACKED is a template argument so
   that the packed loops carry no index arithmetic: tile_load and
   tile_store test for it once per call (on the H200 the run-time select
   per element cost the API's per-thread kernels about a quarter of their
   time at n = 6 against a user kernel with packed constants; sixth round,
   docs/PERFORMANCE.md). */
template <int R, int C, bool PACKED>
__device__ __forceinline__ int64_t tile_gidx(int e, int64_t ld,
                                             int64_t stride) {
  constexpr int E = R * C;
  if constexpr (PACKED) return e;
  const int t = e / E, r = e - t * E, j = r / R, i = r - j * R;
  return t * stride + i + j * ld;
}
/* Its place in the tile: block t at t * tile_ld, then element r. */
template <int R, int C> __device__ __forceinline__ int tile_sidx(int e) {
  constexpr int E = R * C;
  return e + (tile_ld<R, C>() - E) * (e / E);
}

template <int R, int C, int K, bool PACKED, typename T>
__device__ __forceinline__ void tile_load_run(T *S, const T *G, int64_t ld,
                                              int64_t stride, int total) {
  const int nt = (int)blockDim.x;
  for (int e0 = (int)threadIdx.x; e0 < total; e0 += K * nt) {
    T v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int e = e0 + k * nt;
      if (e < total) v[k] = G[tile_gidx<R, C, PACKED>(e, ld, stride)];
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int e = e0 + k * nt;
      if (e < total) S[tile_sidx<R, C>(e)] = v[k];
    }
  }
}

/* Small tiles (K = 1: a few loads per thread, issued in rounds) of packed
   storage at a 16-byte aligned address move in 16-byte pieces (two
   doubles, four floats): half (a quarter) of the global instructions,
   and the same bytes in flight in half the rounds.  The price is shared
   memory bank conflicts (a thread writes W consecutive elements), so
   tiles that already keep K = 16 loads in flight stay element-wise
   (ninth round, H200, docs/PERFORMANCE.md: the per-thread solve at n = 4
   had waited 11 of its 19 cycles per instruction on four rounds of tile
   loads, and went 16.3 -> 11.6-14.4 us per 100 000; with pieces at n = 5, 6
   as well, the float solve at 5 and the double solve at 6 lost 40 % and
   7 %). */
template <typename T> struct alignas(16) Vec16 {
  static constexpr int W = 16 / (int)sizeof(T);
  T e[W];
};
/* Pieces need W whole elements in 16 bytes (float, double; not e.g. a
   12-byte float3, nor anything wider than 16 bytes). */
template <typename T> __host__ __device__ constexpr bool in_pieces() {
  return sizeof(T) <= 16 && 16 % sizeof(T) == 0;
}
__device__ __forceinline__ bool aligned16(const void *p) {
  return ((unsigned long long)p & 15) == 0;
}
/* One piece at p (16-byte aligned): one 16-byte access on the device;
   element by element in the host emulation (tests/device_emu), where the
   cast would break strict aliasing. */
template <typename T>
__device__ __forceinline__ Vec16<T> piece_load(const T *p) {
#ifdef __CUDA_ARCH__
  return *reinterpret_cast<const Vec16<T> *>(p);
#else
  Vec16<T> v;
  for (int w = 0; w < Vec16<T>::W; ++w)
    v.e[w] = p[w];
  return v;
#endif
}
template <typename T>
__device__ __forceinline__ void piece_store(T *p, const Vec16<T> &v) {
#ifdef __CUDA_ARCH__
  *reinterpret_cast<Vec16<T> *>(p) = v;
#else
  for (int w = 0; w < Vec16<T>::W; ++w)
    p[w] = v.e[w];
#endif
}
template <int R, int C, typename T>
__device__ __forceinline__ void tile_load_vec(T *S, const T *G, int total) {
  constexpr int W = Vec16<T>::W;
  const int nt = (int)blockDim.x, nv = total / W;
  for (int v0 = (int)threadIdx.x; v0 < nv; v0 += nt) {
    const Vec16<T> v = piece_load(G + W * v0);
#pragma unroll
    for (int w = 0; w < W; ++w)
      S[tile_sidx<R, C>(W * v0 + w)] = v.e[w];
  }
  for (int e = nv * W + (int)threadIdx.x; e < total; e += nt)
    S[tile_sidx<R, C>(e)] = G[e];
}
template <int R, int C, typename T>
__device__ __forceinline__ void tile_store_vec(T *G, const T *S, int total) {
  constexpr int W = Vec16<T>::W;
  const int nt = (int)blockDim.x, nv = total / W;
  for (int v0 = (int)threadIdx.x; v0 < nv; v0 += nt) {
    Vec16<T> v;
#pragma unroll
    for (int w = 0; w < W; ++w)
      v.e[w] = S[tile_sidx<R, C>(W * v0 + w)];
    piece_store(G + W * v0, v);
  }
  for (int e = nv * W + (int)threadIdx.x; e < total; e += nt)
    G[e] = S[tile_sidx<R, C>(e)];
}

template <int R, int C, int K = tile_batch_default<R, C>(), typename T>
__device__ __forceinline__ void tile_load(T *S, const T *G, int64_t ld,
                                          int64_t stride, int cnt) {
  const int total = cnt * R * C;
  if (ld == R && stride == R * C) {
    if constexpr (K == 1 && in_pieces<T>()) {
      if (aligned16(G)) {
        tile_load_vec<R, C>(S, G, total);
        return;
      }
    }
    tile_load_run<R, C, K, true>(S, G, ld, stride, total);
  } else {
    tile_load_run<R, C, K, false>(S, G, ld, stride, total);
  }
}

/* uplo: 0 every element, 1 only i >= j (lower), 2 only i <= j (upper). */
template <int R, int C, bool PACKED, typename T>
__device__ __forceinline__ void tile_store_run(T *G, int64_t ld, int64_t stride,
                                               const T *S, int total,
                                               int uplo) {
  constexpr int E = R * C;
  const int nt = (int)blockDim.x;
  for (int e = (int)threadIdx.x; e < total; e += nt) {
    if (uplo != 0) {
      const int r = e % E, j = r / R, i = r - j * R;
      if (uplo == 1 ? i < j : i > j) continue;
    }
    G[tile_gidx<R, C, PACKED>(e, ld, stride)] = S[tile_sidx<R, C>(e)];
  }
}
/* K: as tile_load's (pieces only for K = 1). */
template <int R, int C, int K = tile_batch_default<R, C>(), typename T>
__device__ __forceinline__ void tile_store(T *G, int64_t ld, int64_t stride,
                                           const T *S, int cnt, int uplo = 0) {
  const int total = cnt * R * C;
  if (ld == R && stride == R * C) {
    if constexpr (K == 1 && in_pieces<T>()) { /* whole pieces only when
                                                 every element is written */
      if (uplo == 0 && aligned16(G)) {
        tile_store_vec<R, C>(G, S, total);
        return;
      }
    }
    tile_store_run<R, C, true>(G, ld, stride, S, total, uplo);
  } else {
    tile_store_run<R, C, false>(G, ld, stride, S, total, uplo);
  }
}

template <int R, int C, typename T>
__device__ __forceinline__ void tile_get(const T *S, int t, T (&x)[R * C]) {
#pragma unroll
  for (int e = 0; e < R * C; ++e)
    x[e] = S[t * tile_ld<R, C>() + e];
}
template <int R, int C, typename T>
__device__ __forceinline__ void tile_put(T *S, int t, const T (&x)[R * C]) {
#pragma unroll
  for (int e = 0; e < R * C; ++e)
    S[t * tile_ld<R, C>() + e] = x[e];
}

} // namespace axb_dev

#endif
