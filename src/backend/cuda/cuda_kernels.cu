/*
 * The CUDA backend's own kernels: the LU leaf panel (pivot search, swap,
 * scale and update of a 32-column panel in one cooperative launch, rows in
 * registers), the one-pass row interchange (plan + apply, and fused with
 * the leaf's triangular solve), the Cholesky step (diagonal block and the
 * panel below it in one launch), and small helpers.  Each has a
 * __device__ body, a thin __global__ kernel and a launcher that returns
 * early on empty input, launches on the handle's stream and checks the
 * launch (DESIGN.md).
 */
#include "cuda_internal.h"

#include <cooperative_groups.h>
#include <limits.h>
#include <stdlib.h>

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

/* ---- swap plans ------------------------------------------------------- */

/*
 * One warp simulates the interchanges ipiv[k1..k2) (forward or reverse
 * order) on row labels and writes the resulting moves, so that the rows are
 * then moved in one pass: position k1+t receives cur[t]; positions outside
 * [k1, k2) touched by a pivot are kept in a short list.  s_* are shared
 * arrays of cap >= k2 - k1 entries.
 */
__device__ void build_plan_warp(int64_t k1, int64_t k2, const int64_t *ipiv,
                                int forward, int64_t *s_piv, int64_t *s_cur,
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

__global__ void swap_plan_kernel(int64_t k1, int64_t k2, const int64_t *ipiv,
                                 int forward, SwapPlan plan) {
  __shared__ int64_t s_piv[kSwapBatch], s_cur[kSwapBatch], s_opos[kSwapBatch],
      s_osrc[kSwapBatch];
  build_plan_warp(k1, k2, ipiv, forward, s_piv, s_cur, s_opos, s_osrc, plan);
}

template <typename T>
axb_status swap_plan(axb_handle h, cudaStream_t st, int64_t k1, int64_t k2,
                     const int64_t *ipiv, int forward, SwapPlan plan) {
  if (k2 <= k1) return AXB_SUCCESS;
  if (k2 - k1 > kSwapBatch)
    return axb__fail(h, AXB_ERR_INTERNAL, "swap plan of %lld > %d",
                     (long long)(k2 - k1), kSwapBatch);
  swap_plan_kernel<<<1, 32, 0, st>>>(k1, k2, ipiv, forward, plan);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* Moves of a plan on the columns of A: columns are spread over the blocks;
   inside a block, groups of threads take one column each, a thread one or
   two moves; all reads of a column precede its writes (one barrier). */
template <typename T>
__device__ void swap_apply_body(SwapPlan plan, T *A, int64_t lda, int64_t ncols,
                                int64_t c_skip, int64_t n_skip,
                                int64_t cols_per_block) {
  __shared__ int64_t s_dst[2 * kSwapBatch], s_src[2 * kSwapBatch];
  const int tid = threadIdx.x;
  const int E = (int)*plan.count;
  for (int e = tid; e < E; e += blockDim.x) {
    s_dst[e] = plan.dst[e];
    s_src[e] = plan.src[e];
  }
  __syncthreads();
  if (E == 0) return;
  int tpc = ((E + 31) / 32) * 32; /* threads per column */
  if (tpc > kThreads) tpc = kThreads;
  const int groups = kThreads / tpc, g = tid / tpc, e0 = tid % tpc;
  const int64_t q0 = (int64_t)blockIdx.x * cols_per_block;
  int64_t q1 = q0 + cols_per_block;
  if (q1 > ncols) q1 = ncols;
  const int64_t iters = (q1 - q0 + groups - 1) / groups;
  for (int64_t it = 0; it < iters; ++it) {
    const int64_t q = q0 + it * groups + g;
    const bool active = q < q1 && g < groups;
    T *Ac = A + (q < c_skip ? q : q + n_skip) * lda;
    T v0 = 0, v1 = 0;
    const int ea = e0, eb = e0 + tpc;
    if (active && ea < E) v0 = Ac[s_src[ea]];
    if (active && eb < E) v1 = Ac[s_src[eb]];
    __syncthreads();
    if (active && ea < E) Ac[s_dst[ea]] = v0;
    if (active && eb < E) Ac[s_dst[eb]] = v1;
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    swap_apply_kernel(SwapPlan plan, T *A, int64_t lda, int64_t ncols,
                      int64_t c_skip, int64_t n_skip, int64_t cpb) {
  swap_apply_body<T>(plan, A, lda, ncols, c_skip, n_skip, cpb);
}

template <typename T>
axb_status swap_apply(axb_handle h, cudaStream_t st, SwapPlan plan, T *A,
                      int64_t lda, int64_t ncols, int64_t c_skip,
                      int64_t n_skip) {
  if (ncols <= 0) return AXB_SUCCESS;
  const int64_t cpb = 16;
  const int64_t blocks = (ncols + cpb - 1) / cpb;
  swap_apply_kernel<T><<<(unsigned)blocks, kThreads, 0, st>>>(
      plan, A, lda, ncols, c_skip, n_skip, cpb);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/*
 * The interchanges of one leaf (plan of <= 2 * kLeafWidth moves) on the
 * columns of A outside [c_skip, c_skip + n_skip), and, on the columns at or
 * right of solve_from, U := L11^-1 U for the w rows at c (L11 unit lower,
 * w x w at L, LAPACK dtrsm L/L/N/U order), in one pass: one warp per
 * column; lane t reads its moves, then writes them (one __syncwarp), and
 * the move into row c + t (the plan's first w moves are exactly those)
 * leaves the post-swap U entry in lane t's register for the solve.
 */
template <typename T>
__global__ void __launch_bounds__(kThreads)
    swap_trsm_kernel(SwapPlan plan, T *A, int64_t lda, int64_t ncols,
                     int64_t c_skip, int64_t n_skip, int64_t c, int w,
                     const T *L, int64_t solve_from) {
  __shared__ int64_t s_dst[2 * kLeafWidth], s_src[2 * kLeafWidth];
  __shared__ T s_L[kLeafWidth][kLeafWidth + 1];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int E = (int)*plan.count;
  for (int e = tid; e < E; e += blockDim.x) {
    s_dst[e] = plan.dst[e];
    s_src[e] = plan.src[e];
  }
  for (int e = tid; e < w * w; e += blockDim.x)
    s_L[e % w][e / w] = L[e % w + (int64_t)(e / w) * lda];
  __syncthreads();
  const int64_t q = (int64_t)blockIdx.x * (kThreads / 32) + warp;
  if (q >= ncols) return;
  const int64_t col = q < c_skip ? q : q + n_skip;
  T *Ac = A + col * lda;
  const int ea = lane, eb = lane + 32;
  T v0 = 0, v1 = 0;
  if (ea < E) v0 = Ac[s_src[ea]];
  if (eb < E) v1 = Ac[s_src[eb]];
  __syncwarp();
  if (ea < E) Ac[s_dst[ea]] = v0;
  if (eb < E) Ac[s_dst[eb]] = v1;
  if (col < solve_from) return; /* uniform in the warp */
  T x = v0;
  for (int j = 0; j < w; ++j) {
    const T u = __shfl_sync(0xffffffffu, x, j);
    if (lane > j && lane < w) x -= s_L[lane][j] * u;
  }
  if (lane < w) Ac[c + lane] = x;
}

template <typename T>
axb_status swap_trsm(axb_handle h, cudaStream_t st, SwapPlan plan, T *A,
                     int64_t lda, int64_t ncols, int64_t c_skip, int64_t n_skip,
                     int64_t c, int w, const T *L, int64_t solve_from) {
  if (ncols <= 0) return AXB_SUCCESS;
  if (w > kLeafWidth)
    return axb__fail(h, AXB_ERR_INTERNAL, "swap_trsm width %d", w);
  const int64_t per = kThreads / 32;
  swap_trsm_kernel<T><<<(unsigned)((ncols + per - 1) / per), kThreads, 0, st>>>(
      plan, A, lda, ncols, c_skip, n_skip, c, w, L, solve_from);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* ---- LU leaf panel ----------------------------------------------------- */

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

/*
 * Rows c..m-1 of the leaf are spread over the grid, R rows per thread, each
 * row's W entries in registers (fully unrolled loops keep the indices
 * constant).  Per column: block argmax -> candidates (with their rows) in
 * global memory -> one grid barrier -> every block picks the pivot, swaps
 * the two rows it may own, scales and updates its rows.  Buffers alternate
 * between columns, so one barrier per column is enough.
 */
template <typename T, int W, int R>
__device__ void lu_leaf_body(const LeafArgs<T> &a) {
  cg::grid_group grid = cg::this_grid();
  __shared__ T s_prow[W], s_jrow[W];
  __shared__ T s_wv[kThreads / 32];
  __shared__ int64_t s_wi[kThreads / 32];
  __shared__ int64_t s_best, s_p;
  __shared__ int s_bp;
  __shared__ int64_t s_piv[W], s_cur[W], s_opos[W], s_osrc[W];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int nblk = gridDim.x, b = blockIdx.x;
  const int64_t base = a.c + (int64_t)b * kThreads * R;
  T r[R][W];
  int64_t row[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    row[q] = base + q * kThreads + tid;
#pragma unroll
    for (int k = 0; k < W; ++k)
      r[q][k] =
          row[q] < a.m && k < a.w ? a.A[row[q] + (a.c + k) * a.lda] : T(0);
  }
  int64_t first_zero = 0;
#pragma unroll
  for (int jj = 0; jj < W; ++jj) {
    if (jj >= a.w) break;
    const int par = jj & 1;
    const int64_t j = a.c + jj;
    /* block argmax of |A(i, j)|, i >= j */
    T bv = -1;
    int64_t bi = kNoRow;
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (row[q] < a.m && row[q] >= j) better(bv, bi, absval(r[q][jj]), row[q]);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      T ov = __shfl_down_sync(0xffffffffu, bv, off);
      int64_t oi = __shfl_down_sync(0xffffffffu, bi, off);
      better(bv, bi, ov, oi);
    }
    if (lane == 0) {
      s_wv[warp] = bv;
      s_wi[warp] = bi;
    }
    __syncthreads();
    if (warp == 0) {
      bv = lane < kThreads / 32 ? s_wv[lane] : T(-1);
      bi = lane < kThreads / 32 ? s_wi[lane] : kNoRow;
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        T ov = __shfl_down_sync(0xffffffffu, bv, off);
        int64_t oi = __shfl_down_sync(0xffffffffu, bi, off);
        better(bv, bi, ov, oi);
      }
      if (lane == 0) {
        s_best = bi;
        a.cval[par * nblk + b] = bv;
        a.cidx[par * nblk + b] = bi;
      }
    }
    __syncthreads();
    const int64_t best = s_best;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (row[q] == best) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          a.crow[((int64_t)(par * nblk + b)) * W + k] = r[q][k];
      }
      if (row[q] == j) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          a.jrow[par * W + k] = r[q][k];
      }
    }
    if (nblk > 1)
      grid.sync();
    else
      __syncthreads();
    /* the pivot over all blocks */
    if (warp == 0) {
      T v = -1;
      int64_t i = kNoRow;
      int bb = -1;
      for (int q = lane; q < nblk; q += 32) {
        T ov = __ldcg(&a.cval[par * nblk + q]);
        int64_t oi = __ldcg(&a.cidx[par * nblk + q]);
        if (ov > v || (ov == v && oi < i)) {
          v = ov;
          i = oi;
          bb = q;
        }
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        T ov = __shfl_down_sync(0xffffffffu, v, off);
        int64_t oi = __shfl_down_sync(0xffffffffu, i, off);
        int ob = __shfl_down_sync(0xffffffffu, bb, off);
        if (ov > v || (ov == v && oi < i)) {
          v = ov;
          i = oi;
          bb = ob;
        }
      }
      if (lane == 0) {
        s_p = i;
        s_bp = i == kNoRow ? -1 : bb;
      }
    }
    __syncthreads();
    if (tid < W) {
      const T jr = __ldcg(&a.jrow[par * W + tid]);
      s_jrow[tid] = jr;
      s_prow[tid] =
          s_bp >= 0 ? __ldcg(&a.crow[((int64_t)(par * nblk + s_bp)) * W + tid])
                    : jr;
    }
    __syncthreads();
    const T piv = s_prow[jj];
    const bool zero = piv == T(0);
    const int64_t p = !zero && s_bp >= 0 ? s_p : j;
    if (p != j) {
#pragma unroll
      for (int q = 0; q < R; ++q) {
        if (row[q] == p) {
#pragma unroll
          for (int k = 0; k < W; ++k)
            r[q][k] = s_jrow[k];
        } else if (row[q] == j) {
#pragma unroll
          for (int k = 0; k < W; ++k)
            r[q][k] = s_prow[k];
        }
      }
    }
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (row[q] < a.m && row[q] > j) {
        T l = r[q][jj];
        if (!zero) l = l / piv;
        r[q][jj] = l;
#pragma unroll
        for (int k = jj + 1; k < W; ++k)
          r[q][k] -= l * s_prow[k];
      }
    }
    if (b == 0 && tid == 0) {
      a.ipiv[j] = p + 1;
      if (zero && first_zero == 0) first_zero = j + 1;
    }
  }
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (row[q] < a.m) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        if (k < a.w) a.A[row[q] + (a.c + k) * a.lda] = r[q][k];
    }
  if (b == 0) {
    if (tid == 0 && first_zero != 0 && *a.info == 0) *a.info = first_zero;
    __syncthreads(); /* ipiv of thread 0 visible to warp 0 */
    if (warp == 0)
      build_plan_warp(a.c, a.c + a.w, a.ipiv, 1, s_piv, s_cur, s_opos, s_osrc,
                      a.plan);
  }
}

template <typename T, int W, int R>
__global__ void __launch_bounds__(kThreads) lu_leaf_kernel(LeafArgs<T> a) {
  lu_leaf_body<T, W, R>(a);
}

/*
 * Single-block variant for short leaves (m - c <= NT * R): the whole leaf
 * in the registers of one block, so a column costs two __syncthreads and
 * no grid barrier, no global round trip.  Per column: warp argmax ->
 * per-warp candidates in shared memory -> every warp reduces them (same
 * order, same result) -> the owners publish the pivot row and row j in
 * shared memory (double-buffered by column parity) -> swap, scale, update.
 * Same tie rule, NaN and zero-pivot handling as lu_leaf_body.
 */
template <typename T, int W, int R, int NT, bool SH>
__global__ void __launch_bounds__(NT) lu_leaf1_kernel(LeafArgs<T> a) {
  constexpr int NW = NT / 32;
  /* SH: a further row per thread (row c + R * NT + tid) in dynamic shared
     memory, sh[k * NT + tid]; only its own thread touches it. */
  extern __shared__ unsigned char s_dyn[];
  T *sh = (T *)s_dyn;
  static_assert(NW <= 32, "one warp reduces the warp candidates");
  __shared__ T s_prow[2][W], s_jrow[2][W];
  __shared__ T s_wv[NW];
  __shared__ int64_t s_wi[NW];
  __shared__ int64_t s_piv[W], s_cur[W], s_opos[W], s_osrc[W];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  T r[R][W];
  int64_t row[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    row[q] = a.c + q * NT + tid;
#pragma unroll
    for (int k = 0; k < W; ++k)
      r[q][k] =
          row[q] < a.m && k < a.w ? a.A[row[q] + (a.c + k) * a.lda] : T(0);
  }
  const int64_t rs = a.c + R * NT + tid; /* > every j of the leaf */
  if (SH) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      sh[k * NT + tid] =
          rs < a.m && k < a.w ? a.A[rs + (a.c + k) * a.lda] : T(0);
  }
  int64_t first_zero = 0;
#pragma unroll
  for (int jj = 0; jj < W; ++jj) {
    if (jj >= a.w) break;
    const int par = jj & 1;
    const int64_t j = a.c + jj;
    T bv = -1;
    int64_t bi = kNoRow;
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (row[q] < a.m && row[q] >= j) better(bv, bi, absval(r[q][jj]), row[q]);
    if (SH && rs < a.m) better(bv, bi, absval(sh[jj * NT + tid]), rs);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      T ov = __shfl_xor_sync(0xffffffffu, bv, off);
      int64_t oi = __shfl_xor_sync(0xffffffffu, bi, off);
      better(bv, bi, ov, oi);
    }
    if (lane == 0) {
      s_wv[warp] = bv;
      s_wi[warp] = bi;
    }
    __syncthreads();
    bv = lane < NW ? s_wv[lane] : T(-1);
    bi = lane < NW ? s_wi[lane] : kNoRow;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      T ov = __shfl_xor_sync(0xffffffffu, bv, off);
      int64_t oi = __shfl_xor_sync(0xffffffffu, bi, off);
      better(bv, bi, ov, oi);
    }
    const int64_t best = bi;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (row[q] == best) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          s_prow[par][k] = r[q][k];
      }
      if (row[q] == j) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          s_jrow[par][k] = r[q][k];
      }
    }
    if (SH && rs == best) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        s_prow[par][k] = sh[k * NT + tid];
    }
    __syncthreads();
    const T *prow = best == kNoRow ? s_jrow[par] : s_prow[par];
    const T piv = prow[jj];
    const bool zero = piv == T(0);
    const int64_t p = !zero && best != kNoRow ? best : j;
    if (p != j) {
#pragma unroll
      for (int q = 0; q < R; ++q) {
        if (row[q] == p) {
#pragma unroll
          for (int k = 0; k < W; ++k)
            r[q][k] = s_jrow[par][k];
        } else if (row[q] == j) {
#pragma unroll
          for (int k = 0; k < W; ++k)
            r[q][k] = prow[k];
        }
      }
      if (SH && rs == p) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          sh[k * NT + tid] = s_jrow[par][k];
      }
    }
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (row[q] < a.m && row[q] > j) {
        T l = r[q][jj];
        if (!zero) l = l / piv;
        r[q][jj] = l;
#pragma unroll
        for (int k = jj + 1; k < W; ++k)
          r[q][k] -= l * prow[k];
      }
    }
    if (SH && rs < a.m) {
      T l = sh[jj * NT + tid];
      if (!zero) l = l / piv;
      sh[jj * NT + tid] = l;
#pragma unroll
      for (int k = jj + 1; k < W; ++k)
        sh[k * NT + tid] -= l * prow[k];
    }
    if (tid == 0) {
      a.ipiv[j] = p + 1;
      if (zero && first_zero == 0) first_zero = j + 1;
    }
  }
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (row[q] < a.m) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        if (k < a.w) a.A[row[q] + (a.c + k) * a.lda] = r[q][k];
    }
  if (SH && rs < a.m) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < a.w) a.A[rs + (a.c + k) * a.lda] = sh[k * NT + tid];
  }
  if (tid == 0 && first_zero != 0 && *a.info == 0) *a.info = first_zero;
  __syncthreads(); /* ipiv of thread 0 visible to warp 0 */
  if (warp == 0)
    build_plan_warp(a.c, a.c + a.w, a.ipiv, 1, s_piv, s_cur, s_opos, s_osrc,
                    a.plan);
}

/*
 * Cluster variant for leaves of up to 16 x 512 rows (Hopper thread block
 * clusters): CS blocks of one cluster, one row per thread in registers as
 * in lu_leaf1_kernel, so a column costs one cluster barrier (hardware)
 * instead of a grid barrier and global round trips.  Per column: block
 * argmax (warp shuffles, one __syncthreads) -> the block's candidate and
 * its row, and row j at its owner, in the block's own shared memory
 * (double-buffered by column parity) -> cluster.sync -> warp 0 reads the
 * CS candidates through distributed shared memory, picks the pivot (same
 * order in every block, so the same pivot) and copies the pivot row and
 * row j into local shared memory -> __syncthreads -> swap, scale, update.
 * A block's buffers of column jj are rewritten at jj + 2, after the
 * cluster barrier of jj + 1, which every reader of jj has passed.  Same
 * tie/NaN/zero-pivot rules and outputs as the other leaf kernels.
 */
template <typename T, int W, int NT>
__global__ void __launch_bounds__(NT, 1) lu_leafc_kernel(LeafArgs<T> a) {
  constexpr int NW = NT / 32;
  static_assert(NW <= 32 && W <= 32, "one warp reduces warps and columns");
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank(), CS = (int)cl.num_blocks();
  __shared__ T s_cv[2];
  __shared__ int64_t s_ci[2], s_p[2];
  __shared__ T s_crow[2][W], s_jr[2][W];   /* this block's: published */
  __shared__ T s_prow[2][W], s_jrow[2][W]; /* the pivot row, row j: local */
  __shared__ T s_wv[NW];
  __shared__ int64_t s_wi[NW];
  __shared__ int64_t s_piv[W], s_cur[W], s_opos[W], s_osrc[W];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int64_t row = a.c + (int64_t)rank * NT + tid;
  T r[W];
#pragma unroll
  for (int k = 0; k < W; ++k)
    r[k] = row < a.m && k < a.w ? a.A[row + (a.c + k) * a.lda] : T(0);
  int64_t first_zero = 0;
#pragma unroll
  for (int jj = 0; jj < W; ++jj) {
    if (jj >= a.w) break;
    const int par = jj & 1;
    const int64_t j = a.c + jj;
    T bv = -1;
    int64_t bi = kNoRow;
    if (row < a.m && row >= j) better(bv, bi, absval(r[jj]), row);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      T ov = __shfl_xor_sync(0xffffffffu, bv, off);
      int64_t oi = __shfl_xor_sync(0xffffffffu, bi, off);
      better(bv, bi, ov, oi);
    }
    if (lane == 0) {
      s_wv[warp] = bv;
      s_wi[warp] = bi;
    }
    __syncthreads();
    bv = lane < NW ? s_wv[lane] : T(-1);
    bi = lane < NW ? s_wi[lane] : kNoRow;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      T ov = __shfl_xor_sync(0xffffffffu, bv, off);
      int64_t oi = __shfl_xor_sync(0xffffffffu, bi, off);
      better(bv, bi, ov, oi);
    }
    if (row == bi) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        s_crow[par][k] = r[k];
    }
    if (row == j) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        s_jr[par][k] = r[k];
    }
    if (tid == 0) {
      s_cv[par] = bv;
      s_ci[par] = bi;
    }
    cl.sync();
    if (warp == 0) {
      T v = -1;
      int64_t i = kNoRow;
      int rb = -1;
      if (lane < CS) {
        v = *cl.map_shared_rank(&s_cv[par], lane);
        i = *cl.map_shared_rank(&s_ci[par], lane);
        rb = lane;
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) {
        T ov = __shfl_xor_sync(0xffffffffu, v, off);
        int64_t oi = __shfl_xor_sync(0xffffffffu, i, off);
        int ob = __shfl_xor_sync(0xffffffffu, rb, off);
        if (ov > v || (ov == v && oi < i)) {
          v = ov;
          i = oi;
          rb = ob;
        }
      }
      if (i == kNoRow) rb = -1;
      const int rj = (int)((j - a.c) / NT); /* the block that holds row j */
      const T jr = *cl.map_shared_rank(&s_jr[par][lane], rj);
      s_jrow[par][lane] = jr;
      s_prow[par][lane] =
          rb >= 0 ? *cl.map_shared_rank(&s_crow[par][lane], rb) : jr;
      if (lane == 0) s_p[par] = rb >= 0 ? i : kNoRow;
    }
    __syncthreads();
    const T *prow = s_prow[par];
    const T piv = prow[jj];
    const bool zero = piv == T(0);
    const int64_t best = s_p[par];
    const int64_t p = !zero && best != kNoRow ? best : j;
    if (p != j) {
      if (row == p) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = s_jrow[par][k];
      } else if (row == j) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = prow[k];
      }
    }
    if (row < a.m && row > j) {
      T l = r[jj];
      if (!zero) l = l / piv;
      r[jj] = l;
#pragma unroll
      for (int k = jj + 1; k < W; ++k)
        r[k] -= l * prow[k];
    }
    if (rank == 0 && tid == 0) {
      a.ipiv[j] = p + 1;
      if (zero && first_zero == 0) first_zero = j + 1;
    }
  }
  if (row < a.m) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < a.w) a.A[row + (a.c + k) * a.lda] = r[k];
  }
  if (rank == 0) {
    if (tid == 0 && first_zero != 0 && *a.info == 0) *a.info = first_zero;
    __syncthreads(); /* ipiv of thread 0 visible to warp 0 */
    if (warp == 0)
      build_plan_warp(a.c, a.c + a.w, a.ipiv, 1, s_piv, s_cur, s_opos, s_osrc,
                      a.plan);
  }
  cl.sync(); /* no block leaves while another may read its shared memory */
}

/* Rows per block of the cluster leaf kernel and the largest cluster it
   may use; the cluster size the device can schedule with it (cached per
   device; 0: none, the kernel is not used). */
constexpr int kLeafCThreads = 512;
constexpr int kLeafCMaxCluster = 16;
template <typename T> static int leafc_max_cluster(int dev) {
  static int cache[64];
  if (dev >= 0 && dev < 64 && cache[dev] != 0) return cache[dev] - 1;
  auto kern = lu_leafc_kernel<T, kLeafWidth, kLeafCThreads>;
  int best = 0;
  if (cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed,
                           1) != cudaSuccess)
    cudaGetLastError();
  for (int cs = kLeafCMaxCluster; cs >= 2 && best == 0; cs /= 2) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cs;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)cs);
    cfg.blockDim = dim3(kLeafCThreads);
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kern, &cfg) != cudaSuccess) {
      cudaGetLastError();
      clusters = 0;
    }
    if (clusters >= 1) best = cs;
  }
  if (dev >= 0 && dev < 64) cache[dev] = best + 1;
  return best;
}

template <typename T>
static axb_status lu_leafc(axb_handle h, cudaStream_t st, LeafArgs<T> a,
                           int cs) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = (unsigned)cs;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3((unsigned)cs);
  cfg.blockDim = dim3(kLeafCThreads);
  cfg.stream = st;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  AXB_CU(h, cudaLaunchKernelEx(
                &cfg, lu_leafc_kernel<T, kLeafWidth, kLeafCThreads>, a));
  return AXB_SUCCESS;
}

/* Rows up to which lu_leaf uses the single-block kernel (0: never): one
   row per thread; 512 threads x 32 doubles is what the register file holds
   without spills (R > 1 or 1024 threads spill); up to twice that with a
   second row per thread in shared memory. */
constexpr int kLeaf1Threads = 512;
constexpr int64_t kLeaf1MaxRows = kLeaf1Threads;

/* Co-resident blocks of lu_leaf_kernel<T, W, R> on h's device (cached). */
template <typename T, int R> static int leaf_capacity(Context *ctx, int dev) {
  static int cache[64];
  if (dev >= 0 && dev < 64 && cache[dev] > 0) return cache[dev];
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, lu_leaf_kernel<T, kLeafWidth, R>, kThreads, 0) !=
      cudaSuccess) {
    cudaGetLastError();
    per_sm = 1;
  }
  int cap = per_sm * ctx->sm_count;
  if (cap < 1) cap = 1;
  if (dev >= 0 && dev < 64) cache[dev] = cap;
  return cap;
}

template <typename T> int lu_leaf_max_blocks(axb_handle h, Context *ctx) {
  int a = leaf_capacity<T, 1>(ctx, h->device);
  int b = leaf_capacity<T, 4>(ctx, h->device);
  return a > b ? a : b;
}

template <typename T>
axb_status lu_leaf(axb_handle h, Context *ctx, cudaStream_t st, int64_t m,
                   int64_t c, int w, T *A, int64_t lda, int64_t *ipiv,
                   int64_t *info, const LeafScratch<T> &s, SwapPlan plan) {
  if (m <= c || w <= 0) return AXB_SUCCESS;
  LeafArgs<T> a = {m,    c,      w,      A,      lda,    ipiv,
                   info, s.cval, s.cidx, s.crow, s.jrow, plan};
  const int64_t rows = m - c;
  /* AXB_CUDA_LU_CLUSTER=0: the cluster kernel off (comparison runs) */
  static const int cluster_on = [] {
    const char *e = getenv("AXB_CUDA_LU_CLUSTER");
    return e && *e ? atoi(e) : 1;
  }();
  if (cluster_on && rows > kLeaf1MaxRows) {
    const int maxcs = leafc_max_cluster<T>(h->device);
    /* a power of two (extra blocks hold no rows) */
    int64_t cs = 2;
    while (cs * kLeafCThreads < rows)
      cs *= 2;
    if (cs <= maxcs) return lu_leafc<T>(h, st, a, (int)cs);
  }
  if (rows <= kLeaf1MaxRows) {
    lu_leaf1_kernel<T, kLeafWidth, 1, kLeaf1Threads, false>
        <<<1, kLeaf1Threads, 0, st>>>(a);
    AXB_CU(h, cudaGetLastError());
    return AXB_SUCCESS;
  }
  if (rows <= 2 * kLeaf1MaxRows) { /* the second row in shared memory */
    const size_t bytes = (size_t)kLeaf1Threads * kLeafWidth * sizeof(T);
    auto kern1 = lu_leaf1_kernel<T, kLeafWidth, 1, kLeaf1Threads, true>;
    static bool attr_set[64]; /* per device */
    const int dev = h->device;
    if (dev < 0 || dev >= 64 || !attr_set[dev]) {
      AXB_CU(h, cudaFuncSetAttribute(
                    kern1, cudaFuncAttributeMaxDynamicSharedMemorySize,
                    (int)bytes));
      if (dev >= 0 && dev < 64) attr_set[dev] = true;
    }
    kern1<<<1, kLeaf1Threads, bytes, st>>>(a);
    AXB_CU(h, cudaGetLastError());
    return AXB_SUCCESS;
  }
  void *args[] = {&a};
  int64_t blocks = (rows + kThreads - 1) / kThreads;
  void *kern = (void *)lu_leaf_kernel<T, kLeafWidth, 1>;
  if (blocks > leaf_capacity<T, 1>(ctx, h->device)) {
    blocks = (rows + 4 * kThreads - 1) / (4 * kThreads);
    kern = (void *)lu_leaf_kernel<T, kLeafWidth, 4>;
    if (blocks > leaf_capacity<T, 4>(ctx, h->device))
      return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                       "getrf: %lld rows exceed the LU panel kernel's reach",
                       (long long)rows);
  }
  if (blocks > s.max_blocks)
    return axb__fail(h, AXB_ERR_INTERNAL, "LU panel scratch too small");
  AXB_CU(h, cudaLaunchCooperativeKernel(kern, dim3((unsigned)blocks),
                                        dim3(kThreads), args, 0, st));
  return AXB_SUCCESS;
}

/* ---- Cholesky step: diagonal block and the panel below it ------------------
 */

/* L(i, j) of the factor in lower or upper storage (upper: U = L^T). */
template <typename T>
__device__ inline T &lref(T *A, int64_t lda, int upper, int64_t i, int64_t j) {
  return upper ? A[j + i * lda] : A[i + j * lda];
}

/*
 * One step of the blocked Cholesky in one launch: every block factors the
 * nb x nb diagonal block (nb <= 64, padded with the identity to 64) in its
 * own registers and shared memory, then solves its 64 rows of the panel
 * below, X L^T = B (LAPACK dtrsm R/L/T/N: x_j = b_j / l_jj, then
 * b_k -= x_j l_kj), so the diagonal factor never makes a trip through
 * global memory and needs no second launch.
 *
 * Both column loops are rolled (one copy of the loop body: the unrolled
 * form ran ~100 KB of straight-line code once per launch and ncu put 27 %
 * of its stall cycles on instruction fetch; the rolled form measured
 * 0.62 vs 0.79 ms for dpotrf n = 1024 on an H200, docs/PERFORMANCE.md).
 * Registers are windows: at step j, a[k] (factor) and x[k] (panel) hold
 * the row's entry in column j + k and shift left by one per step; the
 * first 32 steps shift 64 entries, the rest 32 (columns >= 64 are never
 * needed), so register indices stay constants.
 *
 * Factor, thread i < 64, step j: s_c[j & 1][k] = the raw a(j + k, j)
 * (published shifted at the end of step j - 1, zero past the block), d =
 * s_c[.][0]; l = sqrt(d) (i = j) or a[0] / sqrt(d); L(j + k, j) goes to
 * s_Ls[j][k]; a[k - 1] = a[k] - (l / sqrt(d)) s_c[.][k].  One barrier per
 * step.  Panel: x_j = x[0] / l_jj, then x[k - 1] = x[k] - x_j s_Ls[j][k].
 *
 * L11 overwrites A11, which every block reads when it starts: a block
 * scheduled late (the device busy with other streams' work) would factor
 * L11 instead of A11.  So L11 and info are written by the block that
 * arrives last on the launch's own counter (*arrive, zeroed by the
 * caller; unused for one block): by then every block has read A11.  The
 * counter belongs to one launch because launches of the same handle may
 * run at once on different streams (axb_set_stream).  Whether the step
 * runs at all (*info of an earlier step) is read by thread 0 only, so it
 * is one value for the block and, as info is only written by a last
 * block, for the launch.  Not positive (or NaN) at j: the factored
 * columns and the updated rest of the block are written (as LAPACK leaves
 * them), *info = off + j + 1, the panel is left alone.
 */
template <typename T, int WN>
__device__ __forceinline__ bool chol_steps(T (&a)[kCholBlock], int j0, int j1,
                                           int &j, T (*s_c)[kCholBlock],
                                           T (*s_Ls)[kCholBlock], T *s_rinv) {
  constexpr int B = kCholBlock;
  const int i = threadIdx.x; /* threads >= B only keep the barriers */
#pragma unroll 1
  for (j = j0; j < j1; ++j) {
    const int par = j & 1;
    const T d = s_c[par][0];
    if (!(d > T(0))) return false; /* the same value in every thread */
    if (i < B) {
      const T r = sqrt(d), rinv = T(1) / r;
      const T l = i == j ? r : a[0] * rinv;
      s_Ls[j][(i - j) & (B - 1)] = i >= j ? l : T(0);
      if (i == j) s_rinv[j] = rinv;
      const T t = l * rinv; /* rows above j: garbage, never read */
#pragma unroll
      for (int k = 1; k < WN; ++k)
        a[k - 1] = a[k] - t * s_c[par][k];
      a[WN - 1] = T(0);
      s_c[par ^ 1][(i - j - 1) & (B - 1)] = i > j ? a[0] : T(0);
    }
    __syncthreads();
  }
  return true;
}

template <typename T, int WN>
__device__ __forceinline__ void
chol_solve(T (&x)[kCholBlock], int j0, int j1, T *A, int64_t lda, int upper,
           int64_t row, const T (*s_Ls)[kCholBlock], const T *s_rinv) {
#pragma unroll 1
  for (int j = j0; j < j1; ++j) {
    const T xj = x[0] * s_rinv[j];
    lref(A, lda, upper, row, j) = xj;
#pragma unroll
    for (int k = 1; k < WN; ++k)
      x[k - 1] = x[k] - xj * s_Ls[j][k];
    x[WN - 1] = T(0);
  }
}

template <typename T>
__global__ void __launch_bounds__(kCholThreads)
    potrf_step_kernel(int upper, int nb, int64_t rem, T *A, int64_t lda,
                      int64_t off, int64_t *info, unsigned *arrive) {
  constexpr int B = kCholBlock, H = B / 2;
  static_assert(kCholThreads >= B, "one diagonal row per thread");
  __shared__ __align__(16) T s_c[2][B];
  __shared__ __align__(16) T s_Ls[B][B];
  __shared__ T s_rinv[B];
  __shared__ int s_skip, s_last;
  const int tid = threadIdx.x;
  if (tid == 0) s_skip = *(volatile int64_t *)info != 0;
  __syncthreads();
  const bool skip = s_skip; /* an earlier step failed: leave the rest */
  const int h1 = nb < H ? nb : H;
  bool ok = true;
  int done = nb; /* factored columns */
  T a[B];
  if (!skip) {
#pragma unroll
    for (int k = 0; k < B; ++k)
      a[k] = tid < nb && k < nb
                 ? (k <= tid ? lref(A, lda, upper, tid, k) : T(0))
                 : (k == tid ? T(1) : T(0));
    if (tid < B) s_c[0][tid] = a[0];
    __syncthreads();
    int j = 0;
    ok = chol_steps<T, B>(a, 0, h1, j, s_c, s_Ls, s_rinv);
    if (ok) ok = chol_steps<T, H>(a, H, nb, j, s_c, s_Ls, s_rinv);
    done = ok ? nb : j;
  }
  /* Arrival: every block, skipped or not, after its reads of A11. */
  __syncthreads();
  if (tid == 0) {
    if (gridDim.x == 1) {
      s_last = 1;
    } else {
      __threadfence();
      s_last = atomicAdd(arrive, 1u) == gridDim.x - 1;
    }
  }
  __syncthreads();
  if (s_last) {
    if (!skip && tid < nb) {
#pragma unroll 4
      for (int k = 0; k < done && k <= tid; ++k)
        lref(A, lda, upper, tid, k) = s_Ls[k][tid - k];
      if (!ok) { /* the rest of the row as updated so far */
        const int wn = done < H ? B : H;
#pragma unroll
        for (int k = 0; k < B; ++k)
          if (k < wn && done + k <= tid)
            lref(A, lda, upper, tid, done + k) = a[k];
      }
    }
    if (tid == 0 && !skip && !ok) *info = off + done + 1;
  }
  if (skip || !ok) return;
  const int64_t i = (int64_t)blockIdx.x * kCholThreads + tid;
  if (i >= rem) return;
  T x[B];
#pragma unroll
  for (int k = 0; k < B; ++k)
    x[k] = k < nb ? lref(A, lda, upper, nb + i, k) : T(0);
  chol_solve<T, B>(x, 0, h1, A, lda, upper, nb + i, s_Ls, s_rinv);
  chol_solve<T, H>(x, H, nb, A, lda, upper, nb + i, s_Ls, s_rinv);
}

template <typename T>
axb_status potrf_step(axb_handle h, cudaStream_t st, axb_uplo uplo, int64_t nb,
                      int64_t rem, T *A, int64_t lda, int64_t off,
                      int64_t *info, unsigned *arrive) {
  if (nb <= 0) return AXB_SUCCESS;
  if (nb > kCholBlock)
    return axb__fail(h, AXB_ERR_INTERNAL, "potrf block %lld > %d",
                     (long long)nb, kCholBlock);
  const int64_t blocks = rem > 0 ? (rem + kCholThreads - 1) / kCholThreads : 1;
  potrf_step_kernel<T><<<(unsigned)blocks, kCholThreads, 0, st>>>(
      uplo == AXB_UPPER, (int)nb, rem, A, lda, off, info, arrive);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* ---- helpers ---------------------------------------------------------- */

template <typename T>
__global__ void set_identity_kernel(int64_t n, T *X, int64_t ldx) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t j = blockIdx.y;
  for (int64_t jj = j; jj < n; jj += gridDim.y)
    if (i < n) X[i + jj * ldx] = i == jj ? T(1) : T(0);
}

template <typename T>
axb_status set_identity(axb_handle h, int64_t n, T *X, int64_t ldx) {
  if (n <= 0) return AXB_SUCCESS;
  dim3 grid((unsigned)((n + kThreads - 1) / kThreads),
            (unsigned)(n < 65535 ? n : 65535));
  set_identity_kernel<T><<<grid, kThreads, 0, stream(h)>>>(n, X, ldx);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

template <typename T>
__global__ void diag_zero_kernel(int64_t n, const T *A, int64_t lda,
                                 int64_t *info) {
  __shared__ unsigned long long s_min;
  if (threadIdx.x == 0) s_min = ULLONG_MAX;
  __syncthreads();
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
    if (A[i + i * lda] == T(0)) atomicMin(&s_min, (unsigned long long)i);
  __syncthreads();
  if (threadIdx.x == 0) *info = s_min == ULLONG_MAX ? 0 : (int64_t)s_min + 1;
}

template <typename T>
axb_status diag_zero_info(axb_handle h, int64_t n, const T *A, int64_t lda,
                          int64_t *info) {
  diag_zero_kernel<T><<<1, 1024, 0, stream(h)>>>(n, A, lda, info);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* ---- instantiations ----------------------------------------------------- */

#define AXB_INSTANTIATE(T)                                                     \
  template axb_status lu_leaf<T>(axb_handle, Context *, cudaStream_t, int64_t, \
                                 int64_t, int, T *, int64_t, int64_t *,        \
                                 int64_t *, const LeafScratch<T> &, SwapPlan); \
  template int lu_leaf_max_blocks<T>(axb_handle, Context *);                   \
  template axb_status swap_plan<T>(axb_handle, cudaStream_t, int64_t, int64_t, \
                                   const int64_t *, int, SwapPlan);            \
  template axb_status swap_apply<T>(axb_handle, cudaStream_t, SwapPlan, T *,   \
                                    int64_t, int64_t, int64_t, int64_t);       \
  template axb_status swap_trsm<T>(axb_handle, cudaStream_t, SwapPlan, T *,    \
                                   int64_t, int64_t, int64_t, int64_t,         \
                                   int64_t, int, const T *, int64_t);          \
  template axb_status potrf_step<T>(axb_handle, cudaStream_t, axb_uplo,        \
                                    int64_t, int64_t, T *, int64_t, int64_t,   \
                                    int64_t *, unsigned *);                    \
  template axb_status set_identity<T>(axb_handle, int64_t, T *, int64_t);      \
  template axb_status diag_zero_info<T>(axb_handle, int64_t, const T *,        \
                                        int64_t, int64_t *);
AXB_INSTANTIATE(double)
AXB_INSTANTIATE(float)

} // namespace axb_cuda
