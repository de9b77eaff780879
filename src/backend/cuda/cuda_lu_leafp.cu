/*
 * The cluster LU leaf (issue 21): an m x w panel (w <= 32, m - c up to
 * 16 x 512 rows) factored by partial pivoting in one launch of one
 * thread-block cluster, one row per thread in registers, with no cluster
 * barrier per column: each block *pushes* its candidate into every block's
 * shared memory (st.async, completing bytes on the receiver's mbarrier),
 * and every block waits on its own mbarrier.  A column costs one
 * __syncthreads and one one-way trip between SMs, where the barrier-based
 * design it replaces cost a cluster barrier (900-3300 cycles, measured)
 * plus reads of remote shared memory.  docs/notes/dense-gpu.md has the
 * per-phase cycle counts of both.
 *
 * Per column jj (buffers double-buffered by column parity):
 *   1. each warp's candidate by redux.sync on the magnitude's bits
 *      (warp_max_key: exact; ties to the smaller position as LAPACK's
 *      idamax; NaN below every number), its winning lane writing the U
 *      part of its row to shared memory;
 *   2. __syncthreads; every warp reduces the block's warp candidates the
 *      same way; warp q pushes the block's best (key, position, U part)
 *      to blocks q, q + NW, ... of the cluster;
 *   3. every thread waits on its block's mbarrier (all CS pushes in);
 *   4. every warp reduces the CS candidates -> the pivot, the same in
 *      every block; the positions are interchanged, the rows updated.
 * Buffers of column jj are rewritten at jj + 2.  A block pushes jj + 1
 * only after the __syncthreads of jj + 1, which each of its threads
 * reaches after it has read jj's buffers; a block pushes jj + 2 only once
 * it has every block's jj + 1, and every block pushed jj + 1 only after
 * all of its jj bytes had landed: so no push overtakes a reader or a late
 * push of the same parity.  Pushes for a column may land before the
 * receiver has posted its expected byte count (mbarrier transaction
 * counts may run ahead).
 *
 * The column loop is rolled: each row's entries rotate left by one per
 * column while it takes part (entry 0 is the current column, its L value
 * goes to the end), so the code is one column's and fits the instruction
 * cache (the fully unrolled kernels ran at instruction-fetch speed).  A
 * row done at column t (the pivot of t) has rotated t times; at the end
 * every row rotates back to column order and is stored at its final
 * position (interchanges move whole rows, LAPACK's convention).
 */
#include "cuda_kernels.cuh"
#include "cuda_lu_leaf.cuh"

#include <stdlib.h>

namespace axb_cuda {

namespace {

constexpr int kW = kLeafWidth;
constexpr int kMaxCluster = 16;

/* ---- magnitudes as keys, and the warp's largest --------------------- */

/* |x|'s bits + 1: the order of the magnitudes; 0: no row, or NaN (never a
   pivot, as in the other leaf kernels). */
__device__ __forceinline__ unsigned long long mag_key(double x) {
  if (x != x) return 0;
  return ((unsigned long long)__double_as_longlong(x) & 0x7fffffffffffffffull) +
         1;
}
__device__ __forceinline__ unsigned long long mag_key(float x) {
  if (x != x) return 0;
  return (unsigned long long)(__float_as_uint(x) & 0x7fffffffu) + 1;
}

/* The warp's largest key, then the smallest tag among the lanes holding it;
   every lane gets both.  Three redux.sync instead of shuffle rounds. */
__device__ __forceinline__ void warp_max_key(unsigned long long &key,
                                             unsigned &tag) {
  const unsigned hi = (unsigned)(key >> 32), lo = (unsigned)key;
  const unsigned mhi = __reduce_max_sync(0xffffffffu, hi);
  const unsigned mlo = __reduce_max_sync(0xffffffffu, hi == mhi ? lo : 0u);
  const bool top = hi == mhi && lo == mlo;
  tag = __reduce_min_sync(0xffffffffu, top ? tag : 0xffffffffu);
  key = (unsigned long long)mhi << 32 | mlo;
}

/* ---- pushes into another block's shared memory ---------------------- */

__device__ __forceinline__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
/* The address of the same variable in block `rank` of the cluster. */
__device__ __forceinline__ unsigned remote(unsigned a, int rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(r)
               : "r"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ void push(unsigned dst, unsigned long long v,
                                     unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 "
               "[%0], %1, [%2];" ::"r"(dst),
               "l"(v), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void push(unsigned dst, double v, unsigned bar) {
  push(dst, (unsigned long long)__double_as_longlong(v), bar);
}
__device__ __forceinline__ void push(unsigned dst, float v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 "
               "[%0], %1, [%2];" ::"r"(dst),
               "r"(__float_as_uint(v)), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void bar_init(unsigned bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
}
/* One arrival (the block's own) and the bytes the phase waits for. */
__device__ __forceinline__ void bar_expect(unsigned bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire"
                 ".cluster.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
}

/* ---- the kernel ------------------------------------------------------ */

template <typename T, int NT, int W> struct alignas(16) PushShared {
  static constexpr int NW = NT / 32;
  unsigned long long bar[2];
  /* this block's warps: best key, its position, its row's U part */
  unsigned long long wkey[2][NW];
  int wpos[2][NW];
  T wcrow[2][NW][W];
  /* pushed here by block b of the cluster: its best key, position, row */
  unsigned long long rkey[2][kMaxCluster];
  long long rpos[2][kMaxCluster];
  T rcrow[2][kMaxCluster][W];
};

/* Rotate r left by one: r[k] := r[k + 1], r[W - 1] := old r[0]. */
template <typename T, int W>
__device__ __forceinline__ void rotate_left(T (&r)[W]) {
  const T r0 = r[0];
#pragma unroll
  for (int k = 1; k < W; ++k)
    r[k - 1] = r[k];
  r[W - 1] = r0;
}

/* The candidate key of a row still taking part: magnitude order above 1,
   NaN = 1 (below every number, above "no row" = 0), so that a column of
   NaNs still has a winner (the smallest position: the row at position jj,
   which then stays, as in the other leaf kernels). */
template <typename T>
__device__ __forceinline__ unsigned long long cand_key(T x) {
  const unsigned long long k = mag_key(x);
  return k == 0 ? 1ull : k + 1;
}

/* Step 2: the block's best of its warps' candidates (largest key, then
   smallest position), pushed by this warp to its share of the blocks. */
template <typename T, int NT, int W>
__device__ __forceinline__ void push_candidate(PushShared<T, NT, W> &sh,
                                               int par, int rank, int CS,
                                               int warp, int lane) {
  constexpr int NW = NT / 32;
  const unsigned long long k0 = lane < NW ? sh.wkey[par][lane] : 0ull;
  const unsigned p0 = lane < NW ? (unsigned)sh.wpos[par][lane] : 0xffffffffu;
  unsigned long long bk = k0;
  unsigned bp = p0;
  warp_max_key(bk, bp);
  const unsigned hit = __ballot_sync(0xffffffffu, k0 == bk && p0 == bp);
  const int wb = bk != 0 ? __ffs(hit) - 1 : 0;
  const int e = lane < W ? lane : 0; /* lanes past W push no entry */
  const T cv = sh.wcrow[par][wb][e];
  const unsigned bar = smem(&sh.bar[par]);
  const unsigned row = smem(&sh.rcrow[par][rank][e]);
  const unsigned key = smem(&sh.rkey[par][rank]);
  const unsigned pos = smem(&sh.rpos[par][rank]);
  for (int d = warp; d < CS; d += NW) {
    const unsigned rb = remote(bar, d);
    if (lane < W) push(remote(row, d), cv, rb);
    if (lane == 0) {
      push(remote(key, d), bk, rb);
      push(remote(pos, d), (unsigned long long)bp, rb);
    }
  }
}

/*
 * Rows do not move between threads: each thread keeps its row and tracks
 * its position pos (LAPACK's interchange of positions jj and p moves the
 * row at jj to p and the pivot row to jj), and stores its row at the end
 * where its position says.  So no row j travels, no swap copies registers,
 * and the pushed pivot row is its U part only (entries past W - 1 - jj,
 * its L values, sent as zeros), which the update uses unmasked.
 */
template <typename T, int NT, int W>
__global__ void __launch_bounds__(NT, 1) lu_leafp_kernel(LeafArgs<T> a) {
  __shared__ PushShared<T, NT, W> sh;
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank(), CS = (int)cl.num_blocks();
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int li = rank * NT + tid; /* the row's first position (from c) */
  const int rows = (int)(a.m - a.c), w = a.w;
  if (tid == 0) {
    bar_init(smem(&sh.bar[0]));
    bar_init(smem(&sh.bar[1]));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    /* the swap plan's outside moves are counted from w on (below) */
    if (rank == 0) *a.plan.count = w;
  }
  /* every block's mbarriers initialised (and the count set) before any
     push: the cluster barrier's arrival here, its wait after the loads */
  cl.barrier_arrive();
  T r[W];
#pragma unroll
  for (int k = 0; k < W; ++k)
    r[k] = li < rows && k < w ? a.A[a.c + li + (a.c + k) * a.lda] : T(0);
  cl.barrier_wait();
  /* bytes a block receives per column: CS candidates */
  const unsigned bytes =
      (unsigned)(CS * (2 * sizeof(long long) + W * sizeof(T)));
  int64_t first_zero = 0;
  int pos = li, rot = 0; /* position; rotations of the row */
  bool live = li < rows; /* not yet a pivot row */
  for (int jj = 0; jj < w; ++jj) {
    const int par = jj & 1;
    if (tid == 0) bar_expect(smem(&sh.bar[par]), bytes);
    /* 1. the warp's candidate: largest key, then smallest position */
    const unsigned long long mine = live ? cand_key(r[0]) : 0ull;
    unsigned long long key = mine;
    unsigned tag = live ? (unsigned)pos : 0xffffffffu;
    warp_max_key(key, tag);
    if (live && mine == key && (unsigned)pos == tag) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        sh.wcrow[par][warp][k] = k < W - jj ? r[k] : T(0);
    }
    if (lane == 0) {
      sh.wkey[par][warp] = key;
      sh.wpos[par][warp] = (int)tag;
    }
    __syncthreads();
    /* 2-3. the block's best to every block; everyone's best here */
    push_candidate<T, NT, W>(sh, par, rank, CS, warp, lane);
    bar_wait(smem(&sh.bar[par]), (unsigned)(jj >> 1) & 1u);
    /* 4. the pivot: the same in every block */
    const unsigned long long k0 = lane < CS ? sh.rkey[par][lane] : 0ull;
    const unsigned p0 = lane < CS ? (unsigned)sh.rpos[par][lane] : 0xffffffffu;
    unsigned long long gk = k0;
    unsigned gp = p0;
    warp_max_key(gk, gp);
    const int wr = __ffs(__ballot_sync(0xffffffffu, k0 == gk && p0 == gp)) - 1;
    const T *prow = sh.rcrow[par][wr];
    const T piv = prow[0];
    const bool zero = piv == T(0);
    /* a zero pivot interchanges nothing; the row at jj is then U's */
    const int p = zero ? jj : (int)gp;
    if (live && pos == p) {
      live = false; /* the pivot row: U's row jj, stored at position jj */
      pos = jj;
    } else if (live) {
      if (pos == jj) pos = p; /* interchanged with the pivot row */
      T l = r[0];
      if (!zero) l = l / piv;
#pragma unroll
      for (int k = 1; k < W; ++k)
        r[k - 1] = r[k] - l * prow[k];
      r[W - 1] = l;
      ++rot;
    }
    if (rank == 0 && tid == 0) {
      a.ipiv[a.c + jj] = a.c + p + 1;
      if (zero && first_zero == 0) first_zero = a.c + jj + 1;
    }
  }
  for (int t = rot % W; t != 0 && t < W; ++t) /* W rotations in all */
    rotate_left(r);
  if (li < rows) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < w) a.A[a.c + pos + (a.c + k) * a.lda] = r[k];
  }
  /* The swap plan (what build_plan_warp derives from ipiv) straight from
     the positions: position c + t < c + w receives the row that started
     at c + li (the first w moves, in order, as swap_trsm needs), and each
     row that left the leaf's first w positions is one outside move (in
     any order: the plan is applied as a gather). */
  if (li < rows && (pos < w || pos != li)) {
    const int64_t e =
        pos < w ? pos
                : (int64_t)atomicAdd((unsigned long long *)a.plan.count, 1ull);
    a.plan.dst[e] = a.c + pos;
    a.plan.src[e] = a.c + li;
  }
  if (rank == 0 && tid == 0 && first_zero != 0 && *a.info == 0)
    *a.info = first_zero;
  /* No barrier at the end: every push into this block has landed (its
     last mbarrier wait), and no block reads another's shared memory. */
}

/* A launch of cs blocks of NT threads as one cluster (at: its attribute). */
struct ClusterLaunch {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  ClusterLaunch(int cs, int nt, cudaStream_t st) {
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim = {(unsigned)cs, 1, 1};
    cfg.gridDim = dim3((unsigned)cs);
    cfg.blockDim = dim3((unsigned)nt);
    cfg.stream = st;
    cfg.attrs = at;
    cfg.numAttrs = 1;
  }
};

/* The largest cluster of the kernel the device can schedule (cached per
   device and kernel; 0: none). */
template <typename T, int NT, int W> int max_cluster(int dev) {
  static int cache[64];
  if (dev >= 0 && dev < 64 && cache[dev] != 0) return cache[dev] - 1;
  auto kern = lu_leafp_kernel<T, NT, W>;
  int best = 0;
  if (cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed,
                           1) != cudaSuccess)
    cudaGetLastError();
  for (int cs = kMaxCluster; cs >= 2 && best == 0; cs /= 2) {
    ClusterLaunch l(cs, NT, 0);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kern, &l.cfg) !=
        cudaSuccess) {
      cudaGetLastError();
      clusters = 0;
    }
    if (clusters >= 1) best = cs;
  }
  if (dev >= 0 && dev < 64) cache[dev] = best + 1;
  return best;
}

template <typename T, int NT, int W>
axb_status launch(axb_handle h, cudaStream_t st, const LeafArgs<T> &a,
                  int64_t rows, bool *used) {
  /* at least 2 blocks: st.async into a cluster of one is invalid
     (compute-sanitizer's memcheck says so); the second holds no rows */
  int64_t cs = (rows + NT - 1) / NT;
  if (cs < 2) cs = 2;
  if (cs > max_cluster<T, NT, W>(h->device)) return AXB_SUCCESS;
  *used = true;
  ClusterLaunch l((int)cs, NT, st);
  AXB_CU(h, cudaLaunchKernelEx(&l.cfg, lu_leafp_kernel<T, NT, W>, a));
  return AXB_SUCCESS;
}

} // namespace

/* Rows from which a leaf is 16 columns wide on 1024 threads a block (the
   32-wide leaf's registers hold 16 x 512 rows at most);
   AXB_CUDA_LU_TALL_FROM lowers it, so that tests reach that kernel. */
static int64_t tall_from() {
  static const int64_t v = [] {
    const char *e = getenv("AXB_CUDA_LU_TALL_FROM");
    const int64_t x = e && *e ? (int64_t)atoll(e) : 0;
    return x > 0 ? x : (int64_t)kMaxCluster * 512 + 1;
  }();
  return v;
}

template <typename T> int lu_leaf_width(axb_handle h, int64_t rows) {
  if (rows >= tall_from() && rows <= (int64_t)kMaxCluster * 1024 &&
      (rows + 1023) / 1024 <= max_cluster<T, 1024, 16>(h->device))
    return 16;
  return kW;
}

/* 256 threads a block up to 16 x 256 rows, 512 up to 16 x 512 (measured
   on an H100: 256 is faster where both fit, 512 beats the grid kernel at
   8192 rows); leaves of 16 columns (lu_leaf_width) on 1024 up to
   16 x 1024. */
template <typename T>
axb_status lu_leafp(axb_handle h, cudaStream_t st, const LeafArgs<T> &a,
                    bool *used) {
  *used = false;
  const int64_t rows = a.m - a.c;
  if (rows <= 0 || a.w <= 0 || a.w > kW) return AXB_SUCCESS;
  if (a.w <= 16 && lu_leaf_width<T>(h, rows) == 16)
    return launch<T, 1024, 16>(h, st, a, rows, used);
  if (rows <= (int64_t)kMaxCluster * 256)
    return launch<T, 256, kW>(h, st, a, rows, used);
  if (rows <= (int64_t)kMaxCluster * 512)
    return launch<T, 512, kW>(h, st, a, rows, used);
  return AXB_SUCCESS;
}

template axb_status lu_leafp<double>(axb_handle, cudaStream_t,
                                     const LeafArgs<double> &, bool *);
template int lu_leaf_width<double>(axb_handle, int64_t);
template int lu_leaf_width<float>(axb_handle, int64_t);
template axb_status lu_leafp<float>(axb_handle, cudaStream_t,
                                    const LeafArgs<float> &, bool *);

} // namespace axb_cuda
