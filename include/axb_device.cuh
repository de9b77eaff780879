/*
 * axb_device.cuh — dense solvers callable from inside a user's CUDA kernel
 * (header-only, C++ / CUDA, no library to link).  Include it in a .cu file.
 *
 * Two kinds of functions, float and double (template T), the matrix order n
 * chosen at run time up to a compile-time bound NMAX:
 *
 * Per thread (one matrix per thread, tiny n): the matrix lives in a local
 * array `T a[NMAX * NMAX]`, column-major with leading dimension NMAX, that
 * the compiler keeps in registers (every index is a compile-time constant
 * after unrolling; keep NMAX <= 8 in double, <= 12 in float).
 *     thread_getrf, thread_getrs, thread_inverse, thread_potrf, thread_potrs
 * A block's matrices reach such threads fastest through shared memory:
 *     tile_load, tile_get, tile_put, tile_store (coalesced staging)
 *
 * Cooperative (one matrix per group of threads, larger n): the G lanes of
 * the group hold the rows of the matrix in registers, NMAX / G rows each
 * (lane l: rows l, l + G, ...; one row per lane when G >= NMAX), and talk
 * through warp shuffles (Warp<G>, G = 2, 4, ..., 32 lanes), through warp
 * shuffles and a shared-memory slot per group (WarpShared<G, T, NMAX>,
 * faster) or through a small shared-memory workspace (Block<NW>: the whole
 * block, NW warps, one row per lane, n <= 32 * NW).  Row interchanges move
 * no data: a row stays in its lane and changes its position label.  The
 * batched API's shapes are GroupLanes in src/backend/cuda/batched.cu.  The
 * functions read and write the
 * matrix in any memory (global or shared), leading dimension lda: group_getrf,
 * group_getrs, group_gesv, group_gesv1 (one right-hand side), group_inverse,
 * group_potrf, group_potrs, group_posv.
 * Every lane of the group must call them together with the same arguments.
 * Warp<G, true> and WarpShared<G, T, NMAX, true> are for kernels that keep
 * every group of a warp in step: whole warps launched, all 32 lanes calling
 * the same function with the same n, the collectives then naming the whole
 * warp (which saves the compiler's convergence test before each of them).
 * Only group_inverse, group_gesv1 (both take active = false for a group
 * with no matrix, e.g. past the end of a batch) and group_getrf run the
 * same collectives whatever the matrix; the others stop early on a
 * singular or not-SPD matrix and refuse such groups at compile time.
 *
 * Statuses: every factorization returns the per-matrix info of LAPACK: 0, or
 * k (1-based) for the first exactly zero pivot U(k,k) (LU, inverse) or the
 * first leading minor that is not positive definite (Cholesky).  getrf
 * completes the factorization when U is singular (as LAPACK); the inverse,
 * gesv and posv leave A (inverse) or B (gesv, posv) unchanged then.  Pivot
 * arrays are 1-based (LAPACK): row i was interchanged with row ipiv[i].
 * Partial pivoting takes the largest magnitude and, on ties, the first row
 * in the current order (LAPACK's rule).  The warp groups (Warp, WarpShared)
 * compare magnitudes by their exponent and top mantissa bits (pivot_key:
 * double 15 / 13 / 11 bits at NMAX <= 8 / 16 / 32; float 18 / 16 / 14):
 * candidates that agree there count as tied and the first wins, so that
 * |l| <= 1 + 2^-11 (threshold partial pivoting, as stable as partial
 * pivoting), and a column whose candidates are all below 2^-1037 /
 * 2^-1035 / 2^-1033 (double, same NMAX) in magnitude is taken as zero
 * (getrf and gesv1 then pivot on the first row and report info when it
 * holds an exact zero; LAPACK would divide by the denormal, whose
 * reciprocal overflows).  There a NaN never wins the search: the inverse
 * reports a column of NaNs and zeros as singular, getrf pivots on its
 * first row.
 *
 * The same functions run behind the batched API of axb.h on CUDA handles
 * (axb_dgesv_batched, ...); examples/kalman/kalman.cu shows a user kernel.
 */
#ifndef AXB_DEVICE_CUH
#define AXB_DEVICE_CUH

#include <stdint.h>

namespace axb_dev {

template <typename T> __device__ __forceinline__ T absval(T x) {
  return x < T(0) ? -x : x;
}
__device__ __forceinline__ double sqrt_(double x) { return sqrt(x); }
__device__ __forceinline__ float sqrt_(float x) { return sqrtf(x); }

/* ======================================================================== */
/* Per thread: a[i + j * NMAX], n <= NMAX                                   */
/* ======================================================================== */

/* LU with partial pivoting, in place (L unit lower below, U on and above
   the diagonal); ipiv[0..n) 1-based.  Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_getrf(int n, T (&a)[NMAX * NMAX],
                                            int (&ipiv)[NMAX]) {
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      int p = k;
      T best = absval(a[k + k * NMAX]);
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        const T v = absval(a[i + k * NMAX]);
        if (i < n && v > best) {
          best = v;
          p = i;
        }
      }
      ipiv[k] = p + 1;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < NMAX; ++j) {
            const T t = a[k + j * NMAX];
            a[k + j * NMAX] = a[i + j * NMAX];
            a[i + j * NMAX] = t;
          }
        }
      }
      const T piv = a[k + k * NMAX];
      if (piv == T(0)) {
        if (!info) info = k + 1;
      } else {
        const T r = T(1) / piv;
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + k * NMAX] *= r;
      }
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T u = a[k + j * NMAX];
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * u;
      }
    }
  }
  return info;
}

/* Solve A x = b with thread_getrf's factors; b[0..n) becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_getrs(int n, const T (&a)[NMAX * NMAX],
                                             const int (&ipiv)[NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int p = ipiv[k] - 1;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
          const T t = b[k];
          b[k] = b[i];
          b[i] = t;
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
#pragma unroll
    for (int i = k + 1; i < NMAX; ++i)
      b[i] -= a[i + k * NMAX] * b[k];
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = 0; i < k; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
}

/* Inverse in place (Gauss-Jordan with partial pivoting).  Returns info; a is
   unspecified when info > 0 (keep a copy if you need it). */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_inverse(int n, T (&a)[NMAX * NMAX]) {
  int piv[NMAX];
  int info = 0; /* no early return: it would keep the loop from unrolling */
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    piv[k] = k;
    if (k < n && !info) {
      int p = k;
      T best = absval(a[k + k * NMAX]);
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        const T v = absval(a[i + k * NMAX]);
        if (i < n && v > best) {
          best = v;
          p = i;
        }
      }
      piv[k] = p;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < NMAX; ++j) {
            const T t = a[k + j * NMAX];
            a[k + j * NMAX] = a[i + j * NMAX];
            a[i + j * NMAX] = t;
          }
        }
      }
      const T d = a[k + k * NMAX];
      if (d == T(0)) {
        info = k + 1;
      } else {
        const T r = T(1) / d;
        a[k + k * NMAX] = T(1);
#pragma unroll
        for (int j = 0; j < NMAX; ++j)
          a[k + j * NMAX] *= r;
#pragma unroll
        for (int i = 0; i < NMAX; ++i) {
          if (i != k) {
            const T f = a[i + k * NMAX];
            a[i + k * NMAX] = T(0);
#pragma unroll
            for (int j = 0; j < NMAX; ++j)
              a[i + j * NMAX] -= f * a[k + j * NMAX];
          }
        }
      }
    }
  }
  if (info) return info;
    /* Undo the row interchanges on the columns, last first (written as
       selects: a branchy swap here made the compiler move a to local memory).
     */
#pragma unroll
  for (int kk = 0; kk < NMAX; ++kk) {
    const int k = NMAX - 1 - kk, p = piv[k];
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
      const T ak = a[i + k * NMAX];
      T nk = ak;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T aj = a[i + j * NMAX];
        const bool s = j == p;
        nk = s ? aj : nk;
        a[i + j * NMAX] = s ? ak : aj;
      }
      a[i + k * NMAX] = nk;
    }
  }
  return 0;
}

/* Cholesky A = L L^T in place (lower triangle referenced and written).
   Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_potrf(int n, T (&a)[NMAX * NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const T d = a[k + k * NMAX];
      if (!(d > T(0))) return k + 1;
      const T s = sqrt_(d), r = T(1) / s;
      a[k + k * NMAX] = s;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        a[i + k * NMAX] *= r;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T l = a[j + k * NMAX];
#pragma unroll
        for (int i = j; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * l;
      }
    }
  }
  return 0;
}

/* Solve A x = b with thread_potrf's factor; b becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_potrs(int n, const T (&a)[NMAX * NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      T s = b[k];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        if (i < n) s -= a[i + k * NMAX] * b[i];
      b[k] = s / a[k + k * NMAX];
    }
  }
}

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

/* ======================================================================== */
/* Groups: how the lanes of one matrix talk                                 */
/* ======================================================================== */

/*
 * A group of G lanes works on one matrix of order n <= NMAX.  Each lane
 * holds R = NMAX / G rows in registers (R = 1 when G >= NMAX): r[q] is row
 * lane + G q.  Fewer lanes per matrix (R > 1) means more matrices per warp
 * and R rows of independent work per lane between two exchanges, each of
 * which is a latency the whole group waits for.  A row is named by its id,
 * lane * R + q.  What a group provides (Warp, WarpShared, Block):
 *   keyed == true (Warp, WarpShared): max_key(key), first_lane(pred)
 *                                   the group's largest pivot key, the
 *                                   first lane where pred holds
 *   keyed == false (Block): argmax(v, pos, id, wpos)
 *                                   id of the best (v, pos) of the group;
 *                                   v and wpos become the best's
 *   row_begin(r, sq, src, j0); row_get(r, sq, j, src) ...; row_end()
 *                                   entries j >= j0 of row r[sq] of lane src
 *   row_get_dyn(r, sq, idx, src)    entry idx of that row (idx per lane)
 *   col_begin(x); col_get(x, j); col_end()
 *                                   x[q] of lane l is entry l + G q of a
 *                                   column; col_get returns entry j
 *   positions(pos); at(pos, k)      id of the row whose position is k
 *   shfl(x, src), barrier()
 */
template <int NMAX, int G> struct RowsPer {
  static_assert(NMAX <= G || NMAX % G == 0, "G must divide NMAX");
  static constexpr int value = NMAX <= G ? 1 : NMAX / G;
};

/* Better candidate: larger magnitude; on ties the smaller position (LAPACK
   takes the first). */
template <typename T>
__device__ __forceinline__ bool better(T v, int p, T bv, int bp) {
  return v > bv || (v == bv && p < bp);
}

/* Bits that hold a position or a row id, 0 .. NMAX - 1, in a pivot key. */
template <int NMAX> struct KeyBits {
  static constexpr int value =
      NMAX <= 2 ? 1 : 1 + KeyBits<(NMAX + 1) / 2>::value;
};

/* The top 31 bits of a magnitude (double: sign-free high word, 11 exponent
   and 20 mantissa bits; float: all its bits but the sign); a NaN gives 0. */
__device__ __forceinline__ unsigned magnitude_word(double x) {
  const unsigned hi =
      (unsigned)((unsigned long long)__double_as_longlong(x) >> 32);
  return x != x ? 0u : hi & 0x7fffffffu;
}
__device__ __forceinline__ unsigned magnitude_word(float x) {
  const unsigned b = __float_as_uint(x) & 0x7fffffffu;
  return b > 0x7f800000u ? 0u : b;
}

/* Pivot key of a candidate row of a warp group, 32 bits: the magnitude's
   top bits above, then (2^P - 1) - its position and its id (P =
   KeyBits<NMAX> bits each) below, so that one unsigned maximum picks the
   largest magnitude and, among equal ones, the first position (LAPACK's
   rule), and names the winner: one shuffle and one maximum a round.  The
   magnitude keeps its exponent and 24 - 2P (float) or 21 - 2P (double)
   mantissa bits: double 15 at NMAX <= 8, 13 at <= 16, 11 at <= 32; float
   18, 16, 14.  Candidates that agree in those bits count as tied and the
   first of them wins: threshold partial pivoting with |l| <= 1 + 2^-11 at
   worst (double, NMAX <= 32), whose stability is that of partial
   pivoting.  A NaN counts as 0; a row that may not pivot has key 0, below
   every candidate's. */
template <int NMAX>
__device__ __forceinline__ unsigned pivot_key(unsigned mag, int pos, int id) {
  constexpr int P = KeyBits<NMAX>::value;
  static_assert(2 * P <= 14, "NMAX <= 128");
  /* unsigned: a row that is no candidate may have pos >= 2^P (its key is
     dropped), and a negative int must not be shifted */
  return (mag >> (2 * P - 1)) << (2 * P) | (unsigned)((1 << P) - 1 - pos) << P |
         (unsigned)id;
}
/* The position and id a key carries, and whether its magnitude reads 0
   (double: below 2^(-1022 - (21 - 2P)); a pivot that small has a
   reciprocal that overflows). */
template <int NMAX> __device__ __forceinline__ int key_position(unsigned key) {
  constexpr int P = KeyBits<NMAX>::value;
  return (1 << P) - 1 - (int)((key >> P) & ((1u << P) - 1u));
}
template <int NMAX> __device__ __forceinline__ int key_id(unsigned key) {
  return (int)(key & ((1u << KeyBits<NMAX>::value) - 1u));
}
template <int NMAX> __device__ __forceinline__ bool key_zero(unsigned key) {
  return (key >> (2 * KeyBits<NMAX>::value)) == 0u;
}

/* G consecutive lanes of a warp (G a power of two <= 32), by shuffles.
   FULL = true: the caller guarantees that all 32 lanes of the warp run the
   group functions together, every group of the warp in step (same n, same
   calls; see group_inverse's active argument for a batch's last matrices),
   and the collectives then name the whole warp (mask 0xffffffff), which
   spares the compiler's convergence test before each of them (sixth
   round, docs/PERFORMANCE.md: ~10 % of a Gauss-Jordan step). */
template <int G, bool FULL = false> struct Warp {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: 1..32, 2^k");
  static constexpr int size = G;
  static constexpr bool keyed = true; /* pivot search by max_key */
  static constexpr bool full = FULL;  /* in step with the whole warp */
  unsigned mask;                      /* lanes of the collectives */
  unsigned bits;                      /* lanes of the group */
  int lane;
  __device__ Warp() {
    const int l = (int)(threadIdx.x & 31);
    lane = l & (G - 1);
    bits = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (l & ~(G - 1));
    mask = FULL ? 0xffffffffu : bits;
  }
  template <typename T> __device__ __forceinline__ T shfl(T v, int src) const {
    return __shfl_sync(mask, v, src, G);
  }
  /* The largest key of the group.  In step on sm_80 and later, for G >= 16:
     one warp-wide REDUX per group of the warp, the other groups' lanes
     giving 0 (below every key), one hop instead of log2(G) shuffle rounds
     on each elimination step's serial chain (eighth round,
     docs/PERFORMANCE.md: H200, double, the solve 4.85 -> 5.10x cuBLAS at
     n = 16, 4.20 -> 4.88x at 24; at G = 8 four reductions instead of three
     rounds measured slower). */
  __device__ __forceinline__ unsigned max_key(unsigned key) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (FULL && G >= 16) {
      const int me = (int)(threadIdx.x & 31) / G;
      unsigned out = 0u;
#pragma unroll
      for (int h = 0; h < 32 / G; ++h) {
        const unsigned m = __reduce_max_sync(0xffffffffu, me == h ? key : 0u);
        if (me == h) out = m;
      }
      return out;
    } else
#endif
      return max_key_shfl(key);
  }
  __device__ __forceinline__ unsigned max_key_shfl(unsigned key) const {
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {
      const unsigned ok = __shfl_xor_sync(mask, key, o, G);
      key = ok > key ? ok : key;
    }
    return key;
  }
  /* The first lane of the group where pred holds (it must hold on one). */
  __device__ __forceinline__ int first_lane(bool pred) const {
    const unsigned b = __ballot_sync(mask, pred) & bits;
    return __ffs(b) - 1 - (int)((threadIdx.x & 31) & ~(unsigned)(G - 1));
  }
  /* r[sq][j] on lane src (the other lanes' sq are ignored). */
  template <typename T, int R, int M>
  __device__ __forceinline__ void row_begin(const T (&)[R][M], int, int,
                                            int = 0) {}
  template <typename T, int R, int M>
  __device__ __forceinline__ T row_get(const T (&r)[R][M], int sq, int j,
                                       int src) const {
    T x = r[0][j];
#pragma unroll
    for (int q = 1; q < R; ++q)
      if (sq == q) x = r[q][j];
    return shfl(x, src);
  }
  template <typename T, int R, int M>
  __device__ __forceinline__ T row_get_dyn(const T (&r)[R][M], int sq, int idx,
                                           int src) const {
    T out = T(0);
#pragma unroll
    for (int j = 0; j < M; ++j) {
      const T v = row_get(r, sq, j, src);
      if (j == idx) out = v;
    }
    return out;
  }
  __device__ __forceinline__ void row_end() {}
  template <typename T, int R>
  __device__ __forceinline__ void col_begin(const T (&)[R]) {}
  template <typename T, int R>
  __device__ __forceinline__ T col_get(const T (&x)[R], int j) const {
    return shfl(x[j / G], j % G);
  }
  __device__ __forceinline__ void col_end() {}
  /* Memory barrier of the group (reads before writes). */
  __device__ __forceinline__ void barrier() const { __syncwarp(mask); }
  template <int R>
  __device__ __forceinline__ void positions(const int (&)[R]) {}
  template <int R>
  __device__ __forceinline__ int at(const int (&pos)[R], int k) const {
    bool hit = false;
    int myq = 0;
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (pos[q] == k) {
        hit = true;
        myq = q;
      }
    const int wl = first_lane(hit);
    return R == 1 ? wl : wl * R + __shfl_sync(mask, myq, wl, G);
  }
};

/* G lanes of a warp like Warp<G>, but rows and columns are broadcast
   through a small shared-memory slot of the group (fewer instructions than
   shuffles, two per double): ws points to WarpShared::kWords entries of T
   in __shared__ memory (not global or local: the address is kept as a
   shared-window offset), one slot per group, 16-byte aligned. */
template <int G, typename T, int NMAX, bool FULL = false>
struct WarpShared : Warp<G, FULL> {
  /* a row with a carried right-hand side (NMAX + 1), or a chunk of up to
     8 right-hand sides */
  static constexpr int kRow = NMAX + 8;
  /* a multiple of 4, so that consecutive slots stay 16-byte aligned at odd
     NMAX too */
  static constexpr int kWords = (kRow + NMAX + 3) / 4 * 4;
  T *s;
  __device__ explicit WarpShared(T *ws) : Warp<G, FULL>(), s(pinned(ws)) {}
  /* ws, held in a register as a shared-memory address: without the empty
     asm, ptxas may recompute the slot's address from the block's shared
     window (S2R, LEA) before each broadcast when registers are short
     (seventh round: ~8 instructions a step and an S2R latency, inverse at
     NMAX = 16). */
  static __device__ __forceinline__ T *pinned(T *ws) {
#ifdef __CUDA_ARCH__
    unsigned a = (unsigned)__cvta_generic_to_shared(ws);
    asm volatile("" : "+r"(a));
    return (T *)__cvta_shared_to_generic(a);
#else
    return ws; /* host emulation (tests/device_emu) */
#endif
  }
  template <int R, int M>
  __device__ __forceinline__ void row_begin(const T (&r)[R][M], int sq, int src,
                                            int j0 = 0) {
    static_assert(M <= kRow, "row longer than the slot");
    if (this->lane == src) {
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (q == sq) {
#pragma unroll
          for (int j = 0; j < M; ++j)
            if (j >= j0) s[j] = r[q][j];
        }
    }
    __syncwarp(this->mask);
  }
  template <int R, int M>
  __device__ __forceinline__ T row_get(const T (&)[R][M], int, int j,
                                       int) const {
    return s[j];
  }
  template <int R, int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[R][M], int, int idx,
                                           int) const {
    return s[idx];
  }
  __device__ __forceinline__ void row_end() { __syncwarp(this->mask); }
  template <int R> __device__ __forceinline__ void col_begin(const T (&x)[R]) {
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (this->lane + G * q < NMAX) s[kRow + this->lane + G * q] = x[q];
    __syncwarp(this->mask);
  }
  template <int R>
  __device__ __forceinline__ T col_get(const T (&)[R], int j) const {
    return s[kRow + j];
  }
  __device__ __forceinline__ void col_end() { __syncwarp(this->mask); }
};

/* Shared-memory workspace of Block<NW> (declare it __shared__). */
template <typename T, int NMAX> struct BlockWork {
  T row[NMAX + 8]; /* a row and a carried right-hand side */
  T col[NMAX];
  T rv[32];
  int rp[32], rl[32];
  int wl[NMAX];
};

/* The whole thread block (blockDim.x == 32 * NW), through shared memory;
   one row per lane (NMAX <= 32 * NW). */
template <int NW, typename T, int NMAX> struct Block {
  static constexpr int size = 32 * NW;
  static constexpr bool keyed = false; /* pivot search by argmax */
  static constexpr bool full = false;
  static_assert(NMAX <= size, "Block: one row per lane");
  BlockWork<T, NMAX> *w;
  int lane;
  __device__ explicit Block(BlockWork<T, NMAX> *work)
      : w(work), lane((int)threadIdx.x) {}
  __device__ __forceinline__ T shfl(T v, int src) const {
    __syncthreads();
    if (lane == src) w->rv[0] = v;
    __syncthreads();
    return w->rv[0];
  }
  __device__ __forceinline__ int argmax(T &v, int pos, int id,
                                        int &wpos) const {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const T ov = __shfl_xor_sync(0xffffffffu, v, o);
      const int op = __shfl_xor_sync(0xffffffffu, pos, o);
      const int oi = __shfl_xor_sync(0xffffffffu, id, o);
      if (better(ov, op, v, pos)) {
        v = ov;
        pos = op;
        id = oi;
      }
    }
    __syncthreads();
    if ((lane & 31) == 0) {
      w->rv[lane >> 5] = v;
      w->rp[lane >> 5] = pos;
      w->rl[lane >> 5] = id;
    }
    __syncthreads();
    v = w->rv[0];
    pos = w->rp[0];
    id = w->rl[0];
#pragma unroll
    for (int q = 1; q < NW; ++q) {
      if (better(w->rv[q], w->rp[q], v, pos)) {
        v = w->rv[q];
        pos = w->rp[q];
        id = w->rl[q];
      }
    }
    wpos = pos;
    return id;
  }
  template <int M>
  __device__ __forceinline__ void row_begin(const T (&r)[1][M], int, int src,
                                            int j0 = 0) {
    static_assert(M <= NMAX + 8, "row longer than the workspace");
    if (lane == src) {
#pragma unroll
      for (int j = 0; j < M; ++j)
        if (j >= j0) w->row[j] = r[0][j];
    }
    __syncthreads();
  }
  template <int M>
  __device__ __forceinline__ T row_get(const T (&)[1][M], int, int j,
                                       int) const {
    return w->row[j];
  }
  template <int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[1][M], int, int idx,
                                           int) const {
    return w->row[idx];
  }
  __device__ __forceinline__ void row_end() { __syncthreads(); }
  __device__ __forceinline__ void col_begin(const T (&x)[1]) {
    if (lane < NMAX) w->col[lane] = x[0];
    __syncthreads();
  }
  __device__ __forceinline__ T col_get(const T (&)[1], int j) const {
    return w->col[j];
  }
  __device__ __forceinline__ void col_end() { __syncthreads(); }
  __device__ __forceinline__ void barrier() const { __syncthreads(); }
  __device__ __forceinline__ void positions(const int (&pos)[1]) {
    __syncthreads();
    if (pos[0] < NMAX) w->wl[pos[0]] = lane;
    __syncthreads();
  }
  __device__ __forceinline__ int at(const int (&)[1], int k) const {
    return w->wl[k];
  }
};

/* ======================================================================== */
/* Cooperative kernels on rows in registers                                 */
/* ======================================================================== */

/*
 * State of a factored matrix in a group: row q of a lane (row i = lane +
 * G q at the start) sits at position pos[q]; g.at(pos, k) is the id of the
 * row at position k.  Row interchanges move no data: two rows exchange
 * their positions.  Rows >= n hold zeros and never move.
 */

/* Positions after the interchange of step k: the row at position k takes
   the pivot's position wpos, the pivot row (id wid) takes k. */
template <int R>
__device__ __forceinline__ void swap_positions(int (&pos)[R], int lane, int k,
                                               int wid, int wpos) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (pos[q] == k) pos[q] = wpos;
    if (lane * R + q == wid) pos[q] = k;
  }
}

/* Partial pivoting in column k: the best of the lane's rows that are below
   n and at position >= k, then of the group (warp groups: by pivot_key,
   one maximum; Block: by argmax).  Returns the winner's id; wpos is its
   position, and wzero tells that its magnitude is 0 (a NaN counts as 0:
   it never wins, and a column of NaNs and zeros is singular). */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ int pivot_search(Grp &g, int n, const T (&r)[R][W],
                                            const int (&pos)[R], int k,
                                            int &wpos, bool &wzero) {
  if constexpr (Grp::keyed) {
    unsigned best = 0u;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const unsigned key =
          pivot_key<NMAX>(magnitude_word(r[q][k]), pos[q], g.lane * R + q);
      const bool cand = g.lane + Grp::size * q < n && pos[q] >= k;
      if (cand && key > best) best = key;
    }
    /* k < n leaves a candidate; its key may be 0 (magnitude 0, the last
       position, id 0), and then it is still the one that 0 decodes to */
    const unsigned wkey = g.max_key(best);
    wpos = key_position<NMAX>(wkey);
    wzero = key_zero<NMAX>(wkey);
    return key_id<NMAX>(wkey);
  } else {
    T bv = T(-1);
    int bp = 0x7fffffff, bid = g.lane * R;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      T v = absval(r[q][k]);
      if (!(v >= T(0))) v = T(0); /* NaN never wins */
      if (!(g.lane + Grp::size * q < n && pos[q] >= k)) v = T(-1);
      if (better(v, pos[q], bv, bp)) {
        bv = v;
        bp = pos[q];
        bid = g.lane * R + q;
      }
    }
    const int wid = g.argmax(bv, bp, bid, wpos);
    wzero = !(bv > T(0));
    return wid;
  }
}

/* The id of each elimination step's pivot row (the row that ends at
   position k; the same on every lane of the group), a byte per step: w[k /
   4] byte k % 4.  Indexed only by unrolled constants, so it stays in
   registers. */
template <int NMAX> struct PivotIds {
  static_assert(NMAX <= 256, "ids in one byte");
  unsigned w[(NMAX + 3) / 4];
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int i = 0; i < (NMAX + 3) / 4; ++i)
      w[i] = 0u;
  }
  __device__ __forceinline__ void set(int k, int id) {
    w[k / 4] |= (unsigned)id << (8 * (k % 4));
  }
  __device__ __forceinline__ int get(int k) const {
    return (int)((w[k / 4] >> (8 * (k % 4))) & 255u);
  }
};

/* What a solve with a carried right-hand side keeps of each elimination
   step: the pivot rows' ids (so that the back substitution needs no search
   for them) and rinv[q] = 1 / the pivot of the lane's row q (no division on
   the back substitution's serial chain). */
template <int NMAX, int R, typename T> struct PivotRecord {
  PivotIds<NMAX> id;
  T rinv[R];
};

/* LU with partial pivoting of the rows in registers.  lpiv[q] (ipiv entry
   of row lane + G q, 1-based) is set for pivot k on the lane holding row k.
   Columns NMAX..W-1 of the rows (W > NMAX) are carried right-hand sides:
   eliminated with the matrix, so that they end as L^-1 P b (the forward
   substitution done on the way).  rec (may be NULL) records the pivots for
   rows_backsolve.  Returns info. */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ int
rows_getrf(Grp &g, int n, T (&r)[R][W], int (&pos)[R], int (&lpiv)[R],
           PivotRecord<NMAX, R, T> *rec = nullptr) {
  static_assert(W >= NMAX, "rows shorter than NMAX");
  constexpr int G = Grp::size;
  int info = 0;
#pragma unroll
  for (int q = 0; q < R; ++q) {
    pos[q] = g.lane + G * q;
    lpiv[q] = pos[q] + 1;
  }
  if (rec) rec->id.clear();
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      int wpos;
      bool wzero;
      const int wid = pivot_search<NMAX>(g, n, r, pos, k, wpos, wzero);
      const int wl = wid / R, wq = wid % R;
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (g.lane + G * q == k) lpiv[q] = wpos + 1;
      swap_positions(pos, g.lane, k, wid, wpos);
      g.row_begin(r, wq, wl, k);
      const T piv = g.row_get(r, wq, k, wl);
      const bool zero = piv == T(0);
      if (zero && !info) info = k + 1;
      const T rp = T(1) / piv;
      if (rec) {
        rec->id.set(k, wid);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane * R + q == wid) rec->rinv[q] = rp;
      }
      bool below[R];
      T l[R];
#pragma unroll
      for (int q = 0; q < R; ++q) {
        below[q] = pos[q] > k && g.lane + G * q < n;
        l[q] = zero ? r[q][k] : r[q][k] * rp;
        if (below[q]) r[q][k] = l[q];
      }
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T u = g.row_get(r, wq, j, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (below[q]) r[q][j] -= l[q] * u;
      }
      g.row_end();
    }
  }
  return info;
}

/* Forward and back substitution with rows_getrf's factors on NR right-hand
   sides: b[q] holds row lane + G q of B (the row that started there) and
   ends with the row of X at position pos[q]. */
template <int NMAX, int R, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_getrs(Grp &g, int n, const T (&r)[R][NMAX],
                                           const int (&pos)[R], T (&b)[R][NR]) {
  g.positions(pos);
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int wid = g.at(pos, k), wl = wid / R, wq = wid % R;
      g.row_begin(b, wq, wl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b, wq, c, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (pos[q] > k) b[q][c] -= r[q][k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int wid = g.at(pos, k), wl = wid / R, wq = wid % R;
      T dkk = r[0][k];
#pragma unroll
      for (int q = 1; q < R; ++q)
        if (wq == q) dkk = r[q][k];
      const T d = T(1) / dkk;
      if (g.lane == wl) {
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (q == wq) {
#pragma unroll
            for (int c = 0; c < NR; ++c)
              b[q][c] *= d;
          }
      }
      g.row_begin(b, wq, wl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b, wq, c, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (pos[q] < k) b[q][c] -= r[q][k] * x;
      }
      g.row_end();
    }
  }
}

/* Back substitution U x = y on rows_getrf's factors with y carried in
   column NMAX (rows of width NMAX + 1) and rec its pivot record: the row at
   position p ends with x[p] there.  Step k: the lane holding position k
   (known from rec, no ballot) forms x[k] = y[k] / u[k][k] as a product,
   one shuffle gives it to the group, and every row above position k takes
   its multiply-add: x[p] = (y[p] - sum_{k > p} u[p][k] x[k]) / u[p][p]. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void
rows_backsolve(Grp &g, int n, T (&r)[R][NMAX + 1], const int (&pos)[R],
               const PivotRecord<NMAX, R, T> &rec) {
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int wid = rec.id.get(k);
      const int wl = wid / R, wq = wid % R;
      T y = r[0][NMAX] * rec.rinv[0];
#pragma unroll
      for (int q = 1; q < R; ++q)
        if (wq == q) y = r[q][NMAX] * rec.rinv[q];
      const T x = g.shfl(y, wl);
#pragma unroll
      for (int q = 0; q < R; ++q) {
        if (pos[q] < k) r[q][NMAX] -= r[q][k] * x;
        if (pos[q] == k) r[q][NMAX] = x;
      }
    }
  }
}

/* Gauss-Jordan inverse of the rows in registers (in place, partial
   pivoting).  On success the row at position p holds row p of Y with
   Y[p][c] = inv(A)[p][i_c], i_c the starting row of the row at position c,
   which is the pivot row of step c: ids.get(c) is its id.  Returns info
   (then r is unspecified).
   The textbook step k with pivot row p (entry a = r_p[k] != 0) makes the
   pivot row r_p / a with entry k = 1 / a, and every other row i
   r_i - r_i[k] * (new r_p) with entry k first set to 0 (so it ends as
   -r_i[k] / a).  Here the pivot row is kept unscaled, as s_p * r'_p with
   r'_p = r_p with entry k = 1 and s_p = 1 / a: every other row takes
   f_i = r_i[k] / a and becomes r_i - f_i * r'_p (entry k first 0), the
   same rows.  A later step's update of row p is linear in it and a later
   pivot row is one that has not been a pivot (scale 1), so the scale
   commutes with every later step and is applied once at the end.  Per
   step that is one multiply-add per entry and lane (the pivot lane takes
   f = 0) and one product per row for f, instead of the scaled row's
   product per entry on the pivot lane. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ int rows_inverse(Grp &g, int n, T (&r)[R][NMAX],
                                            int (&pos)[R],
                                            PivotIds<NMAX> &ids) {
  constexpr int G = Grp::size;
  int info = 0;
  T scale[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    pos[q] = g.lane + G * q;
    scale[q] = T(1);
  }
  ids.clear();
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    /* After a zero pivot (info > 0) the steps go on without arithmetic, so
       that every step's collectives run on every group (Warp<G, true>). */
    if (k < n) {
      int wpos;
      bool wzero;
      const int wid = pivot_search<NMAX>(g, n, r, pos, k, wpos, wzero);
      const int wl = wid / R, wq = wid % R;
      swap_positions(pos, g.lane, k, wid, wpos);
      ids.set(k, wid);
      if (wzero && !info) info = k + 1; /* uniform over the group */
      g.row_begin(r, wq, wl);
      const T rinv = T(1) / g.row_get(r, wq, k, wl);
      T f[R];
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const bool piv = g.lane == wl && q == wq;
        f[q] = info || piv ? T(0) : r[q][k] * rinv;
        if (piv) scale[q] = rinv;
        if (!info) r[q][k] = piv ? T(1) : -f[q];
      }
#pragma unroll
      for (int j = 0; j < NMAX; ++j) {
        if (j == k) continue;
        const T u = g.row_get(r, wq, j, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          r[q][j] -= f[q] * u;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int q = 0; q < R; ++q)
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      r[q][j] *= scale[q];
  return info;
}

/* Cholesky (L L^T) of the rows in registers: r[q] is row lane + G q of the
   lower triangle (entries j <= i meaningful).  Returns info. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ int rows_potrf(Grp &g, int n, T (&r)[R][NMAX]) {
  constexpr int G = Grp::size;
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n && !info) {
      const T d = g.shfl(r[k / G][k], k % G);
      if (!(d > T(0))) {
        info = k + 1;
      } else {
        const T s = sqrt_(d), si = T(1) / s;
        T x[R];
#pragma unroll
        for (int q = 0; q < R; ++q) {
          const int i = g.lane + G * q;
          if (i == k) r[q][k] = s;
          if (i > k) r[q][k] *= si;
          x[q] = r[q][k];
        }
        g.col_begin(x);
#pragma unroll
        for (int j = k + 1; j < NMAX; ++j) {
          const T ljk = g.col_get(x, j);
#pragma unroll
          for (int q = 0; q < R; ++q)
            if (g.lane + G * q >= j) r[q][j] -= x[q] * ljk;
        }
        g.col_end();
      }
    }
  }
  return info;
}

/* Solve with rows_potrf's factor on NR right-hand sides (b[q]: row
   lane + G q). */
template <int NMAX, int R, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_potrs(Grp &g, int n, const T (&r)[R][NMAX],
                                           T (&b)[R][NR]) {
  constexpr int G = Grp::size;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int kl = k % G, kq = k / G;
      if (g.lane == kl) {
        const T d = T(1) / r[kq][k];
#pragma unroll
        for (int c = 0; c < NR; ++c)
          b[kq][c] *= d;
      }
      g.row_begin(b, kq, kl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b, kq, c, kl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane + G * q > k) b[q][c] -= r[q][k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int kl = k % G, kq = k / G;
      if (g.lane == kl) {
        const T d = T(1) / r[kq][k];
#pragma unroll
        for (int c = 0; c < NR; ++c)
          b[kq][c] *= d;
      }
      /* L(k, i) for this lane's rows i < k: entry i of row k. */
      T lki[R];
      g.row_begin(r, kq, kl);
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const int i = g.lane + G * q;
        lki[q] = g.row_get_dyn(r, kq, i < k ? i : 0, kl);
      }
      g.row_end();
      g.row_begin(b, kq, kl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b, kq, c, kl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane + G * q < k) b[q][c] -= lki[q] * x;
      }
      g.row_end();
    }
  }
}

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* Row i of A (zeros outside n x n). */
template <int NMAX, typename T, int W>
__device__ __forceinline__ void load_row(int n, const T *A, int64_t lda, int i,
                                         T (&r)[W]) {
  static_assert(W >= NMAX, "row shorter than NMAX");
#pragma unroll
  for (int j = 0; j < NMAX; ++j)
    r[j] = (i < n && j < n) ? A[i + j * lda] : T(0);
}
/* The lane's rows lane + G q. */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ void load_rows(const Grp &g, int n, const T *A,
                                          int64_t lda, T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q)
    load_row<NMAX>(n, A, lda, g.lane + Grp::size * q, r[q]);
}
/* Rows lane + G q of the lower triangle of a symmetric A stored lower or
   upper (upper: row i of L = column i of U). */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void load_sym_rows(const Grp &g, int n, bool upper,
                                              const T *A, int64_t lda,
                                              T (&r)[R][NMAX]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + Grp::size * q;
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      r[q][j] =
          (i < n && j <= i) ? (upper ? A[j + i * lda] : A[i + j * lda]) : T(0);
  }
}
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void store_sym_rows(const Grp &g, int n, bool upper,
                                               T *A, int64_t lda,
                                               const T (&r)[R][NMAX]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + Grp::size * q;
    if (i < n) {
#pragma unroll
      for (int j = 0; j < NMAX; ++j)
        if (j <= i && j < n) {
          if (upper)
            A[j + (int64_t)i * lda] = r[q][j];
          else
            A[i + (int64_t)j * lda] = r[q][j];
        }
    }
  }
}

/* Row q of the lane (its first NMAX entries) to row pos[q] of A. */
template <int NMAX, int R, typename T, int W>
__device__ __forceinline__ void
store_rows(int n, T *A, int64_t lda, const int (&pos)[R], const T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (pos[q] < n) {
#pragma unroll
      for (int j = 0; j < NMAX; ++j)
        if (j < n) A[pos[q] + j * lda] = r[q][j];
    }
  }
}

/* ipiv entries of the lane's rows (ipiv may be NULL). */
template <int NMAX, int R, typename Grp>
__device__ __forceinline__ void put_ipiv(const Grp &g, int n,
                                         const int (&lpiv)[R], int *ipiv) {
  if (!ipiv) return;
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (g.lane + Grp::size * q < n) ipiv[g.lane + Grp::size * q] = lpiv[q];
}

/* LU with partial pivoting in place; ipiv (may be NULL) 1-based.  The group
   (G lanes) must have G >= NMAX lanes or G dividing NMAX.  Returns info
   (same on every lane). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_getrf(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  load_rows<NMAX>(g, n, A, lda, r);
  int pos[R], lpiv[R];
  const int info = rows_getrf<NMAX>(g, n, r, pos, lpiv);
  g.barrier();
  store_rows<NMAX>(n, A, lda, pos, r);
  put_ipiv<NMAX>(g, n, lpiv, ipiv);
  return info;
}

/* Right-hand sides of B in chunks of NR columns: b[c] = B(row, c0 + c). */
template <int NR, typename T>
__device__ __forceinline__ void load_b(int n, int nrhs, const T *B, int64_t ldb,
                                       int row, int c0, T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    b[c] = (row < n && c0 + c < nrhs) ? B[row + (int64_t)(c0 + c) * ldb] : T(0);
}
template <int NR, typename T>
__device__ __forceinline__ void store_b(int n, int nrhs, T *B, int64_t ldb,
                                        int row, int c0, const T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    if (row < n && c0 + c < nrhs) B[row + (int64_t)(c0 + c) * ldb] = b[c];
}

/* X = A^-1 B from group_getrf's factors (LU, ipiv) in memory. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void
group_getrs(Grp &g, int n, int nrhs, const T *LU, int64_t lda, const int *ipiv,
            T *B, int64_t ldb) {
  static_assert(!Grp::full,
                "group_getrs: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_rows<NMAX>(g, n, LU, lda, r);
  /* The factors are in place: row i is at position i.  The row of B that
     ends at position i: trace the interchanges back. */
  int pos[R], src[R];
#pragma unroll
  for (int q = 0; q < R; ++q)
    src[q] = pos[q] = g.lane + G * q;
  for (int k = n - 1; k >= 0; --k) {
    const int p = ipiv[k] - 1;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (src[q] == k)
        src[q] = p;
      else if (src[q] == p)
        src[q] = k;
    }
  }
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, src[q], c0, b[q]);
    rows_getrs<NMAX>(g, n, r, pos, b);
    g.barrier(); /* all lanes read B before any lane writes it */
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, pos[q], c0, b[q]);
  }
}

/* A X = B: LU with partial pivoting of A in place (ipiv may be NULL), B
   overwritten with X.  Returns info; B is unchanged when info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_gesv(Grp &g, int n, int nrhs, T *A,
                                          int64_t lda, int *ipiv, T *B,
                                          int64_t ldb) {
  static_assert(!Grp::full,
                "group_gesv: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_rows<NMAX>(g, n, A, lda, r);
  int pos[R], lpiv[R];
  const int info = rows_getrf<NMAX>(g, n, r, pos, lpiv);
  g.barrier();
  store_rows<NMAX>(n, A, lda, pos, r);
  put_ipiv<NMAX>(g, n, lpiv, ipiv);
  if (info) return info;
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
    rows_getrs<NMAX>(g, n, r, pos, b);
    g.barrier();
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, pos[q], c0, b[q]);
  }
  return info;
}

/* group_gesv with one right-hand side b (n entries), b carried through
   the factorization as column NMAX of the rows (the forward substitution
   is one more multiply-add per elimination step, and b is read with A, not
   after the factorization), then rows_backsolve: n serial steps of a
   product, a shuffle and a multiply-add, against the two-pass solve's 2n
   steps of a ballot, a slot round trip and two group barriers.  Returns
   info; b is unchanged when info > 0.  active = false: as in
   group_inverse (no memory touched, the steps run on zeros). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_gesv1(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv, T *b,
                                           bool active = true) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX + 1];
  load_rows<NMAX>(g, active ? n : 0, A, lda, r);
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + G * q;
    r[q][NMAX] = active && i < n ? b[i] : T(0);
  }
  int pos[R], lpiv[R];
  PivotRecord<NMAX, R, T> rec;
  const int info = rows_getrf<NMAX>(g, n, r, pos, lpiv, &rec);
  g.barrier();
  if (active) {
    store_rows<NMAX>(n, A, lda, pos, r);
    put_ipiv<NMAX>(g, n, lpiv, ipiv);
  }
  /* on every group, singular or not, so that a warp of Warp<G, true>
     groups stays in step (a singular matrix's result is dropped) */
  rows_backsolve<NMAX>(g, n, r, pos, rec);
  if (info || !active) return info;
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (pos[q] < n) b[pos[q]] = r[q][NMAX];
  return 0;
}

/* A := A^-1 (Gauss-Jordan, partial pivoting).  Returns info; A is unchanged
   when info > 0.  active = false: the group runs the same steps on a zero
   matrix without reading or writing A (a warp of Warp<G, true> groups past
   the end of a batch keeps its collectives in step that way). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_inverse(Grp &g, int n, T *A, int64_t lda,
                                             bool active = true) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_rows<NMAX>(g, active ? n : 0, A, lda, r);
  int pos[R];
  PivotIds<NMAX> ids;
  const int info = rows_inverse<NMAX>(g, n, r, pos, ids);
  g.barrier(); /* every lane has read A (on every group: Warp<G, true>) */
  if (info || !active) return info;
#pragma unroll
  for (int c = 0; c < NMAX; ++c) {
    if (c < n) {
      const int id = ids.get(c), col = id / R + G * (id % R);
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (g.lane + G * q < n) A[pos[q] + (int64_t)col * lda] = r[q][c];
    }
  }
  return 0;
}

/* Cholesky in place (uplo: false = lower A = L L^T, true = upper A = U^T U;
   only that triangle is read and written).  Returns info. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_potrf(Grp &g, int n, bool upper, T *A,
                                           int64_t lda) {
  static_assert(!Grp::full,
                "group_potrf: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  load_sym_rows<NMAX>(g, n, upper, A, lda, r);
  const int info = rows_potrf<NMAX>(g, n, r);
  g.barrier();
  store_sym_rows<NMAX>(g, n, upper, A, lda, r);
  return info;
}

/* X = A^-1 B from group_potrf's factor. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void group_potrs(Grp &g, int n, int nrhs, bool upper,
                                            const T *F, int64_t lda, T *B,
                                            int64_t ldb) {
  static_assert(!Grp::full,
                "group_potrs: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_sym_rows<NMAX>(g, n, upper, F, lda, r);
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
    rows_potrs<NMAX>(g, n, r, b);
    g.barrier();
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
  }
}

/* Cholesky of A in place and X = A^-1 B.  Returns info; B is unchanged when
   info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_posv(Grp &g, int n, int nrhs, bool upper,
                                          T *A, int64_t lda, T *B,
                                          int64_t ldb) {
  static_assert(!Grp::full,
                "group_posv: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_sym_rows<NMAX>(g, n, upper, A, lda, r);
  const int info = rows_potrf<NMAX>(g, n, r);
  g.barrier();
  store_sym_rows<NMAX>(g, n, upper, A, lda, r);
  if (info) return info;
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
    rows_potrs<NMAX>(g, n, r, b);
    g.barrier();
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
  }
  return 0;
}

} // namespace axb_dev

#endif
