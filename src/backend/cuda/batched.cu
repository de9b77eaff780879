/*
 * The batched API on device arrays (issue 6): one kernel per operation and
 * size class, each a thin __global__ around include/axb_device.cuh.
 *   n <= kThreadMaxN (6): one matrix per thread at its exact order, the
 *     block's matrices staged through shared memory (tile_*), per-thread
 *     functions in registers.
 *   7..32: one matrix per group of GroupLanes<OP, NMAX> lanes (NMAX = 8, 12,
 *     16, 24, 32: n runs at the smallest NMAX >= n, except the inverse and
 *     the one-rhs solve at n = 7, 9..11, 13..15, which run at NMAX = n
 *     (InStepExact); the Cholesky
 *     factorization, and the inverse at 24, with fewer lanes, two or three
 *     rows each), rows in registers; pivot rows broadcast through a slot
 *     of shared memory (WarpShared) or shuffles (Warp) by operation.
 *   33..64: a whole 64-thread block through shared memory.
 * Solves with one right-hand side have their own group kernels.  The
 * inverse and the one-rhs solve keep whole warps in step (InStep).
 * Grid-stride over the batch, except the per-thread factorizations and
 * inverse (one tile per block) and the in-step kernels (one matrix per
 * group), which the host launches once per 2^22 blocks; no host
 * synchronisation; info per matrix.
 */
#include "cuda_internal.h"

#include "axb_device.cuh"
#include "backend/batched_ops.h"
#include "batched_thread.cuh"

namespace axb_cuda {

namespace {

/* Lanes per matrix of the group kernels (n > kThreadMaxN), per operation:
   each lane holds NMAX / G rows (one when G >= NMAX; G is a power of two,
   so NMAX = 12 and 24 leave 4 and 8 lanes idle with one row each).  Fewer
   lanes than rows give each lane several rows of independent work between
   two exchanges of the group and put more matrices in a warp, at the price
   of registers.  Measured on an H200 (`bench_batched sweep`, double,
   docs/PERFORMANCE.md third, sixth and seventh rounds): the Gauss-Jordan
   inverse (but at NMAX = 24, three rows: 455 -> 408 us per 65 536) and
   the LU solves are fastest with one row per lane, the Cholesky
   factorization with two or three (n = 12: 104 -> 79 us per 100 000 at
   G = 16 -> 4; 16: 154 -> 123 at 16 -> 8; 24: 309 -> 207 us per 65 536
   at 32 -> 8; 32: 545 -> 448 at 32 -> 16); potrs and posv keep one (posv
   spills at NMAX = 32 with two). */
template <int NMAX> struct PowerOfTwoLanes { /* the least 2^k >= NMAX */
  static constexpr int value =
      NMAX <= 1 ? 1 : 2 * PowerOfTwoLanes<(NMAX + 1) / 2>::value;
};
template <int OP, int NMAX> struct GroupLanes {
  static constexpr bool fewer =
      (OP == BAT_POTRF && NMAX > 8) || (OP == BAT_INVERSE && NMAX == 24);
  static constexpr int value = !fewer          ? PowerOfTwoLanes<NMAX>::value
                               : NMAX % 3 == 0 ? NMAX / 3
                                               : NMAX / 2;
};

/* Right-hand sides per pass of the solves (registers per lane); one when
   the call has one right-hand side. */
template <int OP, int NMAX> struct RhsChunk {
  static constexpr int R =
      (NMAX + GroupLanes<OP, NMAX>::value - 1) / GroupLanes<OP, NMAX>::value;
  static constexpr int value = R >= 4 ? 2 : NMAX >= 32 ? 4 : 8;
};

/* How the lanes of a group talk, per operation and size (measured on an
   H200, docs/PERFORMANCE.md): the Gauss-Jordan inverse and, above
   NMAX = 8 (the classes 12, 16, 24, 32 measured; the exact classes 9-15
   of the one-rhs solve follow them), the LU-based routines broadcast
   pivot rows through a shared-memory slot (WarpShared); Cholesky gathers
   columns by shuffles (Warp). */
template <int OP, int NMAX> struct UseSlot {
  static constexpr bool value =
      OP == BAT_INVERSE ||
      (NMAX > 8 && (OP == BAT_GETRF || OP == BAT_GETRS || OP == BAT_GESV));
};

/* Matrix m of the batch on group g; active = false (InStep operations
   only): m is past the batch's end and the group only keeps its warp in
   step.  EXACT: the caller has checked n == NMAX and lda == NMAX, and the
   device functions see both as constants. */
template <int OP, int NMAX, int NR, bool EXACT = false, typename Grp,
          typename T>
__device__ __forceinline__ void bat_one(Grp &g, const BatArgs<T> &a, int64_t m,
                                        bool active = true) {
  const int n = EXACT ? NMAX : a.n;
  const int64_t lda = EXACT ? NMAX : a.lda;
  T *A = a.A + m * a.sA;
  T *B = a.B ? a.B + m * a.sB : nullptr;
  int *ip = a.ipiv ? a.ipiv + m * a.sP : nullptr;
  int info = 0;
  if constexpr (OP == BAT_GETRF) {
    info = axb_dev::group_getrf<NMAX>(g, n, A, lda, ip);
  } else if constexpr (OP == BAT_GETRS) {
    axb_dev::group_getrs<NMAX, NR>(g, n, a.nrhs, A, lda, ip, B, a.ldb);
  } else if constexpr (OP == BAT_GESV && NR == 1 && NMAX <= 32) {
    /* one right-hand side (the NR = 1 kernels run only for nrhs == 1):
       carried through the elimination (fifth round, docs/PERFORMANCE.md) */
    info = axb_dev::group_gesv1<NMAX>(g, n, A, lda, ip, B, active);
  } else if constexpr (OP == BAT_GESV) {
    info = axb_dev::group_gesv<NMAX, NR>(g, n, a.nrhs, A, lda, ip, B, a.ldb);
  } else if constexpr (OP == BAT_INVERSE) {
    info = axb_dev::group_inverse<NMAX>(g, n, A, lda, active);
  } else if constexpr (OP == BAT_POTRF) {
    info = axb_dev::group_potrf<NMAX>(g, n, a.up != 0, A, lda);
  } else if constexpr (OP == BAT_POTRS) {
    axb_dev::group_potrs<NMAX, NR>(g, n, a.nrhs, a.up != 0, A, lda, B, a.ldb);
  } else {
    info = axb_dev::group_posv<NMAX, NR>(g, n, a.nrhs, a.up != 0, A, lda, B,
                                         a.ldb);
  }
  if (OP != BAT_GETRS && OP != BAT_POTRS && g.lane == 0 && active)
    a.info[m] = info;
}

constexpr int kWarpBlock = 128;

/* Operations whose group kernels keep every group of a warp in step
   (Warp<G, true>: no convergence test before each collective; sixth
   round): the inverse and the one-right-hand-side solve, whose device
   functions run the same collectives on singular and inactive groups.
   On the H200 (double) the solve in step went 3.81 -> 4.14x cuBLAS at
   n = 12 and 3.55 -> 3.89x at 16, but 3.13 -> 3.03x at 32 (sixth round);
   since the group maximum is one REDUX in step (Warp::max_key), 3.49 ->
   4.05x at 32 as well (eighth round, docs/PERFORMANCE.md). */
template <int OP, int NMAX, int NR> struct InStep {
  static constexpr bool value =
      OP == BAT_INVERSE || (OP == BAT_GESV && NR == 1 && NMAX <= 32);
};

/* Blocks of kWarpBlock threads per SM the kernel must fit (0: the plain
   __launch_bounds__(kWarpBlock)), which caps its registers: the in-step
   kernels at NMAX = 12 and 16 with their packed copy take 72-81
   registers, 6 blocks (24 warps) per SM; 7 blocks allow 73 (H200, double,
   seventh round run H: the solve 4.46 -> 4.86x cuBLAS at n = 16, 5.00 ->
   5.32x at 12; the inverse -1 % at 12).  The exact classes 9..15 (ninth
   round) take the same bound, measured with it only.  Elsewhere a bound
   measured no better (the solve at 24: +1.5 %) or worse (32). */
template <int OP, int NMAX, int NR> struct MinBlocks {
  static constexpr int value =
      InStep<OP, NMAX, NR>::value && NMAX >= 9 && NMAX <= 16 ? 7 : 0;
};

/* The group's matrices: first, first + step, ... (grid-stride); in step
   (FULL), only the matrix first, inactive when it is past the batch's end:
   the launch covers the batch (the host launches again past 2^22 blocks),
   and without a loop the compiler sees every warp converged at each
   collective, so it emits no divergence test before them (seventh round:
   ~5 SASS instructions per elimination step). */
template <int OP, int NMAX, int NR, bool FULL, typename Grp, typename T>
__device__ __forceinline__ void bat_groups(Grp &g, const BatArgs<T> &a,
                                           int64_t first, int64_t step) {
  if constexpr (FULL) {
    /* n = NMAX in packed storage, the common case: a copy of the body with
       both constant, which folds every bound test and index product
       (seventh round: 19-25 % fewer SASS instructions for the solve at
       NMAX = 12, 16); the test is uniform over the grid */
    if (a.n == NMAX && a.lda == NMAX)
      bat_one<OP, NMAX, NR, true>(g, a, first, first < a.batch);
    else
      bat_one<OP, NMAX, NR>(g, a, first, first < a.batch);
  } else {
    for (int64_t m = first; m < a.batch; m += step)
      bat_one<OP, NMAX, NR>(g, a, m);
  }
}

/* NMAX <= 32: groups of G = GroupLanes<OP, NMAX> lanes inside warps;
   block b0 + blockIdx.x of the batch. */
template <int OP, int NMAX, int NR, typename T>
__global__ void __launch_bounds__(kWarpBlock, MinBlocks<OP, NMAX, NR>::value)
    bat_warp_kernel(const BatArgs<T> a, int64_t b0) {
  constexpr int G = GroupLanes<OP, NMAX>::value;
  constexpr int per_block = kWarpBlock / G;
  const int64_t step = (int64_t)gridDim.x * per_block;
  const int64_t first = (b0 + blockIdx.x) * per_block + threadIdx.x / G;
  constexpr bool full = InStep<OP, NMAX, NR>::value;
  if constexpr (UseSlot<OP, NMAX>::value) {
    using Grp = axb_dev::WarpShared<G, T, NMAX, full>;
    __shared__ __align__(16) T slots[per_block][Grp::kWords];
    Grp g(slots[threadIdx.x / G]);
    bat_groups<OP, NMAX, NR, full>(g, a, first, step);
  } else {
    axb_dev::Warp<G, full> g;
    bat_groups<OP, NMAX, NR, full>(g, a, first, step);
  }
}

/* NMAX = 64: one matrix per block of 64 threads (shared-memory group). */
template <int OP, int NR, typename T>
__global__ void __launch_bounds__(64) bat_block_kernel(const BatArgs<T> a) {
  __shared__ axb_dev::BlockWork<T, 64> work;
  axb_dev::Block<2, T, 64> g(&work);
  for (int64_t m = blockIdx.x; m < a.batch; m += gridDim.x)
    bat_one<OP, 64, NR>(g, a, m);
}

/* Kernel launches over `blocks` blocks of a batch.  covering (one unit of
   work per block, no loop in the kernel): one launch per grid of kMaxGrid
   blocks, the kernel told its first block b0; otherwise one launch of at
   most kMaxGrid blocks whose kernel strides over the rest.  launch(b0, nb)
   queues one kernel of nb blocks. */
template <typename Launch>
axb_status launch_grids(axb_handle h, int64_t blocks, bool covering,
                        Launch launch) {
  constexpr int64_t kMaxGrid = 1 << 22;
  const int64_t step = covering ? kMaxGrid : blocks;
  for (int64_t b0 = 0; b0 < blocks; b0 += step) {
    launch(b0, (unsigned)(blocks - b0 < kMaxGrid ? blocks - b0 : kMaxGrid));
    AXB_CU(h, cudaGetLastError());
  }
  return AXB_SUCCESS;
}

template <int OP, int N, typename T>
axb_status thread_launch(axb_handle h, const BatArgs<T> &a) {
  constexpr int M = ThreadTile<N>::kMats;
  /* one tile per block (the factorizations and the inverse) or a
     grid-stride loop (the solves) */
  return launch_grids(h, (a.batch + M - 1) / M, ThreadOneTile<OP>::value,
                      [&](int64_t b0, unsigned nb) {
                        bat_thread_kernel<OP, N, T>
                            <<<nb, M, 0, stream(h)>>>(a, b0);
                      });
}

/* The run-time operation to Kernels::go<OP>, Kernels one size class's
   launches (ThreadKernels<N>, GroupKernels<NMAX>). */
template <typename Kernels, typename T>
axb_status by_op(axb_handle h, int op, const BatArgs<T> &a) {
  switch (op) {
  case BAT_GETRF: return Kernels::template go<BAT_GETRF>(h, a);
  case BAT_GETRS: return Kernels::template go<BAT_GETRS>(h, a);
  case BAT_GESV: return Kernels::template go<BAT_GESV>(h, a);
  case BAT_INVERSE: return Kernels::template go<BAT_INVERSE>(h, a);
  case BAT_POTRF: return Kernels::template go<BAT_POTRF>(h, a);
  case BAT_POTRS: return Kernels::template go<BAT_POTRS>(h, a);
  case BAT_POSV: return Kernels::template go<BAT_POSV>(h, a);
  default: return axb__fail(h, AXB_ERR_INTERNAL, "batched: op %d", op);
  }
}

template <int N> struct ThreadKernels {
  template <int OP, typename T>
  static axb_status go(axb_handle h, const BatArgs<T> &a) {
    return thread_launch<OP, N>(h, a);
  }
};

/* n (1..kThreadMaxN) to its exact-order kernels. */
template <int N, typename T>
axb_status thread_order(axb_handle h, int op, int n, const BatArgs<T> &a) {
  if constexpr (N < kThreadMaxN) {
    if (n != N) return thread_order<N + 1>(h, op, n, a);
  }
  return by_op<ThreadKernels<N>>(h, op, a);
}

template <int OP, int NMAX, int NR, typename T>
axb_status bat_launch_nr(axb_handle h, const BatArgs<T> &a) {
  if constexpr (NMAX <= 32) {
    constexpr int per_block = kWarpBlock / GroupLanes<OP, NMAX>::value;
    /* in step: one matrix per group; a grid-stride loop otherwise */
    return launch_grids(h, (a.batch + per_block - 1) / per_block,
                        InStep<OP, NMAX, NR>::value,
                        [&](int64_t b0, unsigned nb) {
                          bat_warp_kernel<OP, NMAX, NR, T>
                              <<<nb, kWarpBlock, 0, stream(h)>>>(a, b0);
                        });
  } else {
    return launch_grids(h, a.batch, false, [&](int64_t, unsigned nb) {
      bat_block_kernel<OP, NR, T><<<nb, 64, 0, stream(h)>>>(a);
    });
  }
}

/* Solves with one right-hand side get their own kernels (no idle chunk). */
template <int OP, int NMAX, typename T>
axb_status bat_launch(axb_handle h, const BatArgs<T> &a) {
  constexpr bool solves =
      OP == BAT_GETRS || OP == BAT_GESV || OP == BAT_POTRS || OP == BAT_POSV;
  if constexpr (solves) {
    if (a.nrhs == 1) return bat_launch_nr<OP, NMAX, 1>(h, a);
  }
  return bat_launch_nr<OP, NMAX, RhsChunk<OP, NMAX>::value>(h, a);
}

template <int NMAX> struct GroupKernels {
  template <int OP, typename T>
  static axb_status go(axb_handle h, const BatArgs<T> &a) {
    return bat_launch<OP, NMAX>(h, a);
  }
};
template <int NMAX, typename T>
axb_status bat_size(axb_handle h, int op, const BatArgs<T> &a) {
  return by_op<GroupKernels<NMAX>>(h, op, a);
}

/* Exact size classes of the in-step operations (the inverse and the
   one-rhs solve) at the orders between the classes: n = 7, 9..11, 13..15
   ran the NMAX = 8, 12 or 16 kernels, with every row update as long as
   NMAX + 1 columns and n, lda and the loop bounds at run time, so their
   time hardly fell with n while cuBLAS's does (H200, double, batch 10^5,
   ninth round: the solve 4.2-4.8x cuBLAS at n = 9-11 and 13-15, the
   inverse 4.6x at 7, against 5.1-5.7x at 12 and 16).  At n = NMAX (and
   packed storage) the body folds every bound (bat_groups). */
/* op: the inverse, or gesv with one right-hand side (the caller's test) */
template <int N, typename T>
axb_status bat_exact(axb_handle h, int op, const BatArgs<T> &a) {
  return op == BAT_INVERSE ? bat_launch_nr<BAT_INVERSE, N, 1>(h, a)
                           : bat_launch_nr<BAT_GESV, N, 1>(h, a);
}
/* The orders with exact classes, listed once: run() launches order n's
   kernel and returns true, or returns false when n has none. */
template <int... N> struct ExactOrders {
  template <typename T>
  static bool run(axb_handle h, int op, int n, const BatArgs<T> &a,
                  axb_status *st) {
    return ((n == N && (*st = bat_exact<N>(h, op, a), true)) || ...);
  }
};
using InStepExact = ExactOrders<7, 9, 10, 11, 13, 14, 15>;

} // namespace

/* A CUDA handle takes device (or managed) arrays.  Host memory would be
   read asynchronously after the call returned (or fault): refuse it with a
   clear message instead; one cheap attribute query per array. */
axb_status need_device(axb_handle h, const void *p, const char *what) {
  if (!p) return AXB_SUCCESS;
  cudaPointerAttributes at;
  if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
    cudaGetLastError();
    at.type = cudaMemoryTypeUnregistered;
  }
  if (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged)
    return AXB_SUCCESS;
  return axb__fail(h, AXB_ERR_INVALID,
                   "batched: %s is host memory; a CUDA handle takes device "
                   "arrays (use a CPU handle for host arrays)",
                   what);
}

namespace {

template <typename T>
axb_status batched(axb_handle h, int op, int up, int64_t n, int64_t nrhs, T *A,
                   int64_t lda, int64_t sA, int *ipiv, int64_t sP, T *B,
                   int64_t ldb, int64_t sB, int *info, int64_t batch) {
  if (batch <= 0) return AXB_SUCCESS;
  if (n > AXB_BATCHED_MAX_N)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "batched: n = %lld > %d",
                     (long long)n, AXB_BATCHED_MAX_N);
  DeviceScope scope(h->device);
  const bool has_info = op != BAT_GETRS && op != BAT_POTRS;
  axb_status st = need_device(h, A, "A");
  if (!st) st = need_device(h, ipiv, "ipiv");
  if (!st) st = need_device(h, B, "B");
  if (!st && has_info) st = need_device(h, info, "info");
  if (st) return st;
  if (n == 0) {
    if (has_info)
      AXB_CU(h,
             cudaMemsetAsync(info, 0, (size_t)batch * sizeof(int), stream(h)));
    return AXB_SUCCESS;
  }
  BatArgs<T> a{up, (int)n, (int)nrhs, A,  lda,  sA,   ipiv,
               sP, B,      ldb,       sB, info, batch};
  if (n <= kThreadMaxN) return thread_order<1>(h, op, (int)n, a);
  if (op == BAT_INVERSE || (op == BAT_GESV && nrhs == 1)) {
    if (InStepExact::run(h, op, (int)n, a, &st)) return st;
  }
  /* Group kernels below kThreadMaxN + 1 exist only when the per-thread
     path is cut back (kThreadMaxN < 8). */
  if constexpr (kThreadMaxN < 2)
    if (n <= 2) return bat_size<2>(h, op, a);
  if constexpr (kThreadMaxN < 4)
    if (n <= 4) return bat_size<4>(h, op, a);
  if constexpr (kThreadMaxN < 8)
    if (n <= 8) return bat_size<8>(h, op, a);
  /* size classes 12 and 24 (sixth round): at n = 12 the NMAX = 16 kernels
     spent a quarter of every row update on zero columns */
  if (n <= 12) return bat_size<12>(h, op, a);
  if (n <= 16) return bat_size<16>(h, op, a);
  if (n <= 24) return bat_size<24>(h, op, a);
  if (n <= 32) return bat_size<32>(h, op, a);
  return bat_size<64>(h, op, a);
}

} // namespace

} // namespace axb_cuda

/* The C entry points of batched.h, one per precision. */
#define AXB_BATCHED_ENTRY(name, T)                                             \
  extern "C" axb_status name(axb_handle h, int op, int up, int64_t n,          \
                             int64_t nrhs, T *A, int64_t lda, int64_t sA,      \
                             int *ipiv, int64_t sP, T *B, int64_t ldb,         \
                             int64_t sB, int *info, int64_t batch) {           \
    return axb_cuda::batched<T>(h, op, up, n, nrhs, A, lda, sA, ipiv, sP, B,   \
                                ldb, sB, info, batch);                         \
  }
AXB_BATCHED_ENTRY(axb__cuda_dbatched, double)
AXB_BATCHED_ENTRY(axb__cuda_sbatched, float)
