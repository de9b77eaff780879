/*
 * The LU leaf panel: pivot search, interchange, scaling and update of a
 * panel of up to 32 columns with its rows in registers, in one launch: a
 * cooperative grid (lu_leaf_kernel), a single block for short leaves
 * (lu_leaf1_kernel) or a thread-block cluster (lu_leafp_kernel, in
 * cuda_lu_leafp.cu); lu_leaf picks one.  Each ends with the panel's swap
 * plan (build_plan_warp).
 */
#include "cuda_kernels.cuh"
#include "cuda_lu_leaf.cuh"

#include <stdlib.h>

namespace axb_cuda {

/* ---- LU leaf panel ----------------------------------------------------- */

/*
 * The steps of a leaf on the rows a thread holds in registers: row[q] is
 * the global index of r[q] (R rows of W entries; rows at or past m hold
 * zeros and never move).  lu_leaf1_kernel is written with them (its SASS is
 * the same as with the loops written out); lu_leaf_body keeps its loops:
 * with these helpers ptxas scheduled it differently (code 5 % smaller to
 * 4 % larger), which no device run has yet measured.
 */
template <typename T, int W, int R>
__device__ __forceinline__ void
leaf_load(const LeafArgs<T> &a, const int64_t (&row)[R], T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      r[q][k] =
          row[q] < a.m && k < a.w ? a.A[row[q] + (a.c + k) * a.lda] : T(0);
  }
}
/* The thread's best pivot candidate of column jj (global j): rows >= j. */
template <typename T, int W, int R>
__device__ __forceinline__ void
leaf_candidate(T &bv, int64_t &bi, int64_t m, const int64_t (&row)[R],
               const T (&r)[R][W], int jj, int64_t j) {
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (row[q] < m && row[q] >= j) better(bv, bi, absval(r[q][jj]), row[q]);
}
/* dst := the row with global index i, if this thread holds it. */
template <typename T, int W, int R>
__device__ __forceinline__ void leaf_copy_row(T *dst, const int64_t (&row)[R],
                                              const T (&r)[R][W], int64_t i) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (row[q] == i) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        dst[k] = r[q][k];
    }
  }
}
/* Interchange of rows p and j (p != j): row p takes jrow, row j prow. */
template <typename T, int W, int R>
__device__ __forceinline__ void leaf_swap(T (&r)[R][W], const int64_t (&row)[R],
                                          int64_t p, int64_t j, const T *jrow,
                                          const T *prow) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (row[q] == p) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        r[q][k] = jrow[k];
    } else if (row[q] == j) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        r[q][k] = prow[k];
    }
  }
}
/* Rows below j: l = a(i, j) / piv (left as is on a zero pivot), then the
   entries right of column jj minus l times the pivot row. */
template <typename T, int W, int R>
__device__ __forceinline__ void
leaf_eliminate(T (&r)[R][W], const int64_t (&row)[R], int64_t m, int jj,
               int64_t j, bool zero, T piv, const T *prow) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (row[q] < m && row[q] > j) {
      T l = r[q][jj];
      if (!zero) l = l / piv;
      r[q][jj] = l;
#pragma unroll
      for (int k = jj + 1; k < W; ++k)
        r[q][k] -= l * prow[k];
    }
  }
}
/* The rows back to A (the leaf's columns only). */
template <typename T, int W, int R>
__device__ __forceinline__ void
leaf_store(const LeafArgs<T> &a, const int64_t (&row)[R], const T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (row[q] < a.m) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        if (k < a.w) a.A[row[q] + (a.c + k) * a.lda] = r[q][k];
    }
}

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
  for (int q = 0; q < R; ++q)
    row[q] = a.c + q * NT + tid;
  leaf_load(a, row, r);
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
    leaf_candidate(bv, bi, a.m, row, r, jj, j);
    if (SH && rs < a.m) better(bv, bi, absval(sh[jj * NT + tid]), rs);
    block_best<NW>(bv, bi, s_wv, s_wi, lane, warp);
    const int64_t best = bi;
    leaf_copy_row(s_prow[par], row, r, best);
    leaf_copy_row(s_jrow[par], row, r, j);
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
      leaf_swap(r, row, p, j, s_jrow[par], prow);
      if (SH && rs == p) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          sh[k * NT + tid] = s_jrow[par][k];
      }
    }
    leaf_eliminate(r, row, a.m, jj, j, zero, piv, prow);
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
  leaf_store(a, row, r);
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
  /* AXB_CUDA_LU_CLUSTER=0: the cluster leaf off (comparison runs) */
  static const int cluster_on = [] {
    const char *e = getenv("AXB_CUDA_LU_CLUSTER");
    return e && *e ? atoi(e) : 1;
  }();
  if (cluster_on) {
    bool used = false;
    const axb_status st2 = lu_leafp<T>(h, st, a, &used);
    if (used) return st2;
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

/* ---- instantiations ----------------------------------------------------- */

#define AXB_INSTANTIATE(T)                                                     \
  template axb_status lu_leaf<T>(axb_handle, Context *, cudaStream_t, int64_t, \
                                 int64_t, int, T *, int64_t, int64_t *,        \
                                 int64_t *, const LeafScratch<T> &, SwapPlan); \
  template int lu_leaf_max_blocks<T>(axb_handle, Context *);
AXB_INSTANTIATE(double)
AXB_INSTANTIATE(float)

} // namespace axb_cuda
