/*
 * The CUDA backend's own kernels besides the LU leaf (cuda_lu_leaf.cu): the
 * one-pass row interchange (plan + apply, and fused with the leaf's
 * triangular solve) and small helpers (Cholesky: cuda_chol_tiles.cu).  Each has
 * a
 * __device__ body, a thin __global__ kernel and a launcher that returns
 * early on empty input, launches on the handle's stream and checks the
 * launch (DESIGN.md).
 */
#include "cuda_kernels.cuh"

#include <stdlib.h>

namespace axb_cuda {

/* ---- swap plans ------------------------------------------------------- */

/* build_plan_warp (cuda_kernels.cuh) serves the leaf kernels (at most 32
   interchanges).  For a whole panel's 256 the warp's search of the outside
   list for every pivot cost ~111 us a panel on the H100 (a search, a warp
   reduction and two warp barriers per interchange; 7 % of dgetrf at
   n = 8192).  Here one lane simulates the interchanges alone and finds an
   outside position in an open-addressing table of kPlanSlots slots
   (load <= 1/2): a few shared-memory accesses per interchange and no
   barrier.  The plan is the same, entry for entry: outside positions are
   numbered in the order of their first touch. */
constexpr int kPlanSlots = 2 * kSwapBatch;

__global__ void swap_plan_kernel(int64_t k1, int64_t k2, const int64_t *ipiv,
                                 int forward, SwapPlan plan) {
  __shared__ int64_t s_piv[kSwapBatch], s_cur[kSwapBatch], s_opos[kSwapBatch],
      s_osrc[kSwapBatch];
  __shared__ short s_slot[kPlanSlots];
  const int lane = threadIdx.x;
  const int64_t L = k2 - k1;
  for (int64_t t = lane; t < L; t += 32) {
    s_piv[t] = ipiv[k1 + t] - 1;
    s_cur[t] = k1 + t;
  }
  for (int t = lane; t < kPlanSlots; t += 32)
    s_slot[t] = -1;
  __syncwarp();
  __shared__ int s_cnt;
  if (lane == 0) {
    int cnt = 0;
    for (int64_t s = 0; s < L; ++s) {
      const int64_t j = forward ? k1 + s : k2 - 1 - s;
      const int64_t p = s_piv[j - k1];
      if (p == j) continue;
      int64_t *cp;
      if (p >= k1 && p < k2) {
        cp = &s_cur[p - k1];
      } else {
        unsigned hsh = (unsigned)((uint64_t)p * 0x9E3779B97F4A7C15ull >> 32);
        int slot = (int)(hsh & (kPlanSlots - 1));
        while (s_slot[slot] >= 0 && s_opos[s_slot[slot]] != p)
          slot = (slot + 1) & (kPlanSlots - 1);
        if (s_slot[slot] < 0) {
          s_slot[slot] = (short)cnt;
          s_opos[cnt] = s_osrc[cnt] = p;
          ++cnt;
        }
        cp = &s_osrc[s_slot[slot]];
      }
      const int64_t cj = s_cur[j - k1];
      s_cur[j - k1] = *cp;
      *cp = cj;
    }
    s_cnt = cnt;
  }
  __syncwarp();
  const int cnt = s_cnt;
  swap_plan_store(plan, k1, L, cnt, s_cur, s_opos, s_osrc, lane);
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
  template axb_status swap_plan<T>(axb_handle, cudaStream_t, int64_t, int64_t, \
                                   const int64_t *, int, SwapPlan);            \
  template axb_status swap_apply<T>(axb_handle, cudaStream_t, SwapPlan, T *,   \
                                    int64_t, int64_t, int64_t, int64_t);       \
  template axb_status swap_trsm<T>(axb_handle, cudaStream_t, SwapPlan, T *,    \
                                   int64_t, int64_t, int64_t, int64_t,         \
                                   int64_t, int, const T *, int64_t);          \
  template axb_status set_identity<T>(axb_handle, int64_t, T *, int64_t);      \
  template axb_status diag_zero_info<T>(axb_handle, int64_t, const T *,        \
                                        int64_t, int64_t *);
AXB_INSTANTIATE(double)
AXB_INSTANTIATE(float)

} // namespace axb_cuda
