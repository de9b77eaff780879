/*
 * Triangular solves with the GPU incomplete factor (fac_dev.cuh; the
 * algorithms are described at the top of fac.cu): the Jacobi-sweep and
 * level-scheduled forms, the sync-free flag solve and the warp solve.
 */
#include "fac_dev.cuh"

#include "backend/cuda/cuda_sync.cuh"

#include <math.h>

using namespace axb_spcuda;
using axb_cuda::ld_acquire; /* backend/cuda/cuda_sync.cuh */
using axb_cuda::st_release;

namespace {

/* ---- triangular solves ----------------------------------------------------
 */

/* Row i of the lower (lower = 1) or upper solve with W lanes:
   xn_i = (b_i - sum_{k in the strict triangle} v_k xo_{col k}) / d_i
   (d_i = 1 for a unit diagonal).  rows == NULL: row = index; else the
   index-th row of rows[] (a level).  xo may be xn (exact solve: the rows
   read belong to earlier levels).  B > 1 (W = 1, a Jacobi sweep: xo is
   not xn, so nothing read changes during the launch): the entries in
   batches of B with the factor's lines evicted first from L2, as SpMV
   (row_sum_batched; the factor is streamed once per sweep, x and b stay
   in L2). */
template <typename T, int W, int B = 1>
__global__ void __launch_bounds__(kBlock)
    tri_rows(int64_t count, const int64_t *rows, const int64_t *rowptr,
             const int32_t *col, const int64_t *diag, const T *v, int lower,
             int unit, const T *b, const T *xo, T *xn) {
  const int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t idx = g / W;
  if (idx >= count) return;
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  const int64_t i = rows ? rows[idx] : idx;
  const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
  const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
  T s = 0;
  if (B > 1)
    s = row_sum_batched<T, AXB_SPMV_HINT_L2EF, B>(k0, k1, col, v, xo,
                                                  l2_evict_first());
  else
    for (int64_t k = k0 + lane; k < k1; k += W)
      s += v[k] * xo[col[k]];
  for (int o = W / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(mask, s, o, W);
  if (lane == 0) {
    const T r = b[i] - s;
    xn[i] = unit ? r : r / v[diag[i]];
  }
}

/* x0 = D^-1 b (unit: b). */
template <typename T>
__global__ void tri_init(int64_t n, const int64_t *diag, const T *v, int unit,
                         const T *b, T *x) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    x[i] = unit ? b[i] : b[i] / v[diag[i]];
}

/* The sync-free solve, W lanes per row, kBlock / W rows per block.
   Block ordinal = its ticket - base (base: tickets of earlier solves);
   the idx-th row in dependency order is row idx (lower) or n-1-idx
   (upper).  Each lane waits for the rows of its entries (ready[j] == gen,
   acquire), reads x_j past L1 (__ldcg: another SM wrote it), the lanes'
   sums are added by shuffles, and lane 0 stores x_i, fences, and
   publishes ready[i] = gen (release).  Rows of one warp may wait for each
   other when W < 32; independent thread scheduling (sm_70+) lets the
   lanes that can proceed do so. */
template <typename T, int W>
__global__ void __launch_bounds__(kBlock)
    tri_syncfree(int64_t n, const int64_t *rowptr, const int32_t *col,
                 const int64_t *diag, const T *v, int lower, int unit,
                 const T *b, T *x, unsigned *ready, unsigned gen,
                 unsigned long long *ticket, unsigned long long base) {
  __shared__ unsigned long long blk;
  if (threadIdx.x == 0) blk = atomicAdd(ticket, 1ull) - base;
  __syncthreads();
  const int64_t idx = (int64_t)blk * (kBlock / W) + threadIdx.x / W;
  if (idx >= n) return;
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  const int64_t i = lower ? idx : n - 1 - idx;
  const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
  const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
  T s = 0;
  for (int64_t k = k0 + lane; k < k1; k += W) {
    const int64_t j = col[k];
    while (ld_acquire(ready + j) != gen) {
    }
    s += v[k] * __ldcg(x + j);
  }
  for (int o = W / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(mask, s, o, W);
  if (lane == 0) {
    const T r = b[i] - s;
    __stcg(x + i, unit ? r : r / v[diag[i]]);
    /* The release store is the fence: x_i is visible (at GPU scope) to
       whoever acquires ready[i] == gen.  A __threadfence() before it
       would be a second MEMBAR.GPU on every hop of the chain. */
    st_release(ready + i, gen);
  }
}

/* ---- the warp solve: values as flags, in-warp resolution ----------------
 */

/* x_j's bits while row j is unsolved: all ones, a NaN that GPU arithmetic
   never produces (a computed value with these bits would be replaced by
   the canonical NaN, so a failed solve still reads as NaN).  Loads and
   stores at GPU scope, relaxed: the value is its own flag, so there is no
   other data to order behind it, and an aligned 4- or 8-byte access is
   single-copy atomic (a reader sees the sentinel or the whole value). */
template <typename T> struct Flagged {
  typedef typename BitsOf<T>::U U;
  static constexpr U kNone = ~U(0);
  static constexpr U kNaN =
      sizeof(T) == 8 ? (U)0x7ff8000000000000ull : (U)0x7fc00000u;
  static __device__ __forceinline__ U load(const T *p) {
    U v;
    if constexpr (sizeof(T) == 8)
      asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p));
    else
      asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
  }
  static __device__ __forceinline__ void store(T *p, U v) {
    if constexpr (sizeof(T) == 8)
      asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v)
                   : "memory");
    else
      asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v)
                   : "memory");
  }
  static __device__ __forceinline__ T val(U u) { return from_bits<T>(u); }
  static __device__ __forceinline__ U bits(T v) { return to_bits<T>(v); }
};

/* External entries a lane polls per round (their loads are in flight
   together: one L2 round trip for the row's dependencies, not one each). */
constexpr int kPollBatch = 4;

/* The warp solve: one lane per row, a warp owns 32 consecutive rows in
   dependency order (block ordinals from the ticket, as tri_syncfree).
   x holds the sentinel (memset before the launch) until x_j is solved, so
   a row polls the values it reads directly.  A lane's strict-triangle
   entries split into external ones (rows of earlier warps) and internal
   ones (rows of its own warp).  Each round: every unsolved lane issues the
   loads of its next kPollBatch external x_j at once and adds the solved
   prefix (in entry order); then the warp resolves internal dependencies
   without global memory: solved values go to shared memory, a ballot says
   which rows are solved, and a lane whose internal rows are all solved
   adds them (entry order) and solves its own, until a pass solves no new
   row.  A row therefore waits only for its own dependencies: a chain
   inside a warp (x-lines of a grid) costs shared-memory steps, not
   global-memory hops.  Sum order per row: external entries, then internal
   ones, each in entry order (deterministic).  backoff > 0: __nanosleep
   that many ns after a round without progress (less polling traffic in
   L2 while the window waits).  At most 32 registers: every thread slot
   of the SM can hold a row (the window of rows in flight). */
template <typename T>
__global__ void __launch_bounds__(kBlock, 2048 / kBlock)
    tri_warp(int64_t n, const int64_t *rowptr, const int32_t *col,
             const int64_t *diag, const T *v, int lower, int unit, const T *b,
             T *x, unsigned long long *ticket, unsigned long long base,
             int backoff) {
  typedef Flagged<T> F;
  typedef typename F::U U;
  __shared__ unsigned long long blk;
  __shared__ T xs[kBlock];
  if (threadIdx.x == 0) blk = atomicAdd(ticket, 1ull) - base;
  __syncthreads();
  const int lane = threadIdx.x & 31, w0 = threadIdx.x & ~31;
  const int64_t d0 = (int64_t)blk * kBlock + w0; /* the warp's first index */
  if (d0 >= n) return;                           /* the whole warp */
  const int64_t idx = d0 + lane;
  const bool valid = idx < n;
  const int64_t i = valid ? (lower ? idx : n - 1 - idx) : 0;
  /* External entries [ke, ke1), internal ones [ki, ki1). */
  int64_t ke = 0, ke1 = 0, ki = 0, ki1 = 0;
  T s = 0, bi = 0, di = 1;
  if (valid) {
    const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
    const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
    int64_t split;
    if (lower) { /* internal: columns >= d0, the tail */
      split = k1;
      while (split > k0 && col[split - 1] >= d0)
        --split;
      ke = k0, ke1 = split, ki = split, ki1 = k1;
    } else { /* internal: columns <= n - 1 - d0, the head */
      split = k0;
      while (split < k1 && col[split] <= n - 1 - d0)
        ++split;
      ki = k0, ki1 = split, ke = split, ke1 = k1;
    }
    bi = b[i];
    if (!unit) di = v[diag[i]];
  }
  bool done = !valid;
  unsigned solved = __ballot_sync(0xffffffffu, done);
  while (solved != 0xffffffffu) {
    const unsigned before = solved;
    bool moved = false;
    if (!done && ke < ke1) {
      U u[kPollBatch];
#pragma unroll
      for (int q = 0; q < kPollBatch; ++q)
        u[q] = ke + q < ke1 ? F::load(x + col[ke + q]) : F::kNone;
      bool go = true;
#pragma unroll
      for (int q = 0; q < kPollBatch; ++q) {
        go = go && u[q] != F::kNone;
        if (go) {
          s += v[ke] * F::val(u[q]);
          ++ke;
          moved = true;
        }
      }
    }
    for (;;) { /* resolve inside the warp */
      if (!done && ke == ke1) {
        for (; ki < ki1; ++ki) {
          const int64_t j = col[ki];
          const int t = (int)(lower ? j - d0 : n - 1 - j - d0);
          if (!((solved >> t) & 1u)) break;
          s += v[ki] * xs[w0 + t];
        }
        if (ki == ki1) {
          const T r = bi - s;
          U xb = F::bits(unit ? r : r / di);
          if (xb == F::kNone) xb = F::kNaN;
          xs[threadIdx.x] = F::val(xb);
          F::store(x + i, xb);
          done = true;
        }
      }
      __syncwarp(); /* xs written above is read after the ballot */
      const unsigned now = __ballot_sync(0xffffffffu, done);
      if (now == solved) break;
      solved = now;
    }
    if (backoff > 0 && solved == before && !__any_sync(0xffffffffu, moved))
      __nanosleep((unsigned)backoff);
  }
}

} // namespace

/* The flag solve's default lanes per row: a sync-free row waits in
   place, so only resident rows make progress; the widest W <= 32 with
   n * W within the resident threads, at least 1. */
int axb_spcuda::sf_width_for(int64_t n, int device) {
  const double resident = resident_threads(device);
  for (int w = 32; w >= 2; w /= 2)
    if ((double)n * w <= resident) return w;
  return 1;
}

/* AUTO's exact solve, from docs/PERFORMANCE.md "Round 3" (H200, lower +
   upper pair): with every row resident (n <= 2048 threads x SMs) the warp
   solve beat the best flag solve and the level-scheduled one (sherman3
   101 us against 221 and 347; cage10 155 against 246 and 369; bcsstk16
   2.58 ms against 3.01 and 5.04); at n = 10^6 (Poisson, convdiff3d 100^3)
   the level-scheduled solve won (3.43-3.54 ms against 4.76-4.79 for the
   warp solve, 3.59 with its best back-off): rows beyond the resident
   window wait for blocks to retire, and polling warps crowd the memory
   system. */
bool axb_spcuda::tri_auto_levels(int64_t n, int device) {
  return (double)n > resident_threads(device);
}

namespace {

template <typename T>
cudaError_t launch_syncfree(const FacDev *F, int lower, int unit, const T *b,
                            T *x, cudaStream_t s) {
  unsigned gen;
  cudaError_t e = next_gen(F, s, &gen);
  if (e != cudaSuccess) return e;
  const unsigned grid = grid_for(F->n, kBlock / F->sf_width);
  const T *v = (const T *)F->val;
#define SF_CASE(W)                                                             \
  case W:                                                                      \
    tri_syncfree<T, W><<<grid, kBlock, 0, s>>>(                                \
        F->n, F->rowptr, F->colind, F->diag, v, lower, unit, b, x, F->ready,   \
        gen, F->ticket, F->issued);                                            \
    break;
  switch (F->sf_width) {
    SF_CASE(1)
    SF_CASE(2)
    SF_CASE(4)
    SF_CASE(8)
    SF_CASE(16)
  default: SF_CASE(32)
  }
#undef SF_CASE
  e = cudaGetLastError();
  if (e == cudaSuccess) F->issued += grid;
  return e;
}

/* The warp solve: x := the sentinel (all-ones bytes), then one launch.
   x must not be b (the sentinel would overwrite it): the caller takes the
   flag solve then. */
template <typename T>
cudaError_t launch_warp(const FacDev *F, int lower, int unit, const T *b, T *x,
                        cudaStream_t s) {
  cudaError_t e = cudaMemsetAsync(x, 0xff, sizeof(T) * (size_t)F->n, s);
  if (e != cudaSuccess) return e;
  const unsigned grid = grid_for(F->n, kBlock);
  tri_warp<T><<<grid, kBlock, 0, s>>>(F->n, F->rowptr, F->colind, F->diag,
                                      (const T *)F->val, lower, unit, b, x,
                                      F->ticket, F->issued, F->backoff);
  e = cudaGetLastError();
  if (e == cudaSuccess) F->issued += grid;
  return e;
}

template <typename T>
cudaError_t launch_rows(const FacDev *F, int64_t count, const int64_t *rows,
                        int lower, int unit, const T *b, const T *xo, T *xn,
                        cudaStream_t s) {
  const unsigned grid = grid_for(count * F->width, kBlock);
  const T *v = (const T *)F->val;
  if (F->width == 1 && xo != xn) { /* a Jacobi sweep of one lane per row */
    tri_rows<T, 1, 8><<<grid, kBlock, 0, s>>>(
        count, rows, F->rowptr, F->colind, F->diag, v, lower, unit, b, xo, xn);
    return cudaGetLastError();
  }
#define TRI_CASE(W)                                                            \
  case W:                                                                      \
    tri_rows<T, W><<<grid, kBlock, 0, s>>>(count, rows, F->rowptr, F->colind,  \
                                           F->diag, v, lower, unit, b, xo,     \
                                           xn);                                \
    break;
  switch (F->width) {
    TRI_CASE(1)
    TRI_CASE(2)
    TRI_CASE(4)
    TRI_CASE(8)
    TRI_CASE(16)
  default: TRI_CASE(32)
  }
#undef TRI_CASE
  return cudaGetLastError();
}

} // namespace

template <typename T>
axb_status axb_spcuda::f_tri_solve(axb_handle h, const axb_spfac *Fo,
                                   axb_uplo uplo, axb_sptri_mode mode,
                                   int sweeps, const T *b, T *x, T *work) {
  const FacDev *F = CF(Fo);
  if (F->n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  cudaStream_t s = axb_cuda::stream(h);
  const int lower = uplo == AXB_LOWER;
  const int unit = lower && F->kind == AXB_SPF_LU;
  if (mode == AXB_SPTRI_JACOBI) {
    /* Ping-pong between x and work so that the last sweep lands in x. */
    T *cur = sweeps % 2 == 1 ? work : x;
    tri_init<T><<<red_blocks(F->n), kBlock, 0, s>>>(
        F->n, F->diag, (const T *)F->val, unit, b, cur);
    AXB_CU(h, cudaGetLastError());
    for (int sw = 0; sw < sweeps; ++sw) {
      T *nxt = cur == x ? work : x;
      AXB_CU(h, launch_rows<T>(F, F->n, nullptr, lower, unit, b, cur, nxt, s));
      cur = nxt;
    }
    return AXB_SUCCESS;
  }
  if (F->alg == AXB_SPTRI_GPU_WARP && (const void *)b != (const void *)x) {
    AXB_CU(h, launch_warp<T>(F, lower, unit, b, x, s));
    return AXB_SUCCESS;
  }
  if (F->alg != AXB_SPTRI_GPU_LEVELS) {
    AXB_CU(h, launch_syncfree<T>(F, lower, unit, b, x, s));
    return AXB_SUCCESS;
  }
  const std::vector<int64_t> &lp = lower ? F->lo_ptr : F->up_ptr;
  const int64_t *lr = lower ? F->lo_rows : F->up_rows;
  for (size_t l = 0; l + 1 < lp.size(); ++l)
    AXB_CU(h, launch_rows<T>(F, lp[l + 1] - lp[l], lr + lp[l], lower, unit, b,
                             x, x, s));
  return AXB_SUCCESS;
}
template axb_status axb_spcuda::f_tri_solve<double>(axb_handle,
                                                    const axb_spfac *, axb_uplo,
                                                    axb_sptri_mode, int,
                                                    const double *, double *,
                                                    double *);
template axb_status axb_spcuda::f_tri_solve<float>(axb_handle,
                                                   const axb_spfac *, axb_uplo,
                                                   axb_sptri_mode, int,
                                                   const float *, float *,
                                                   float *);
