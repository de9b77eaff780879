/*
 * Dense algorithms of the CUDA backend on device arrays (blocked LU with
 * our panel kernel, Cholesky by tiles (cuda_chol_tiles.cu), solves and the
 * inverse; cuBLAS TRSM/GEMM/SYRK for the updates).  The host-array
 * entries and the table: cuda_dense_host.cu.
 */
#include "cuda_chol_tiles.h"
#include "cuda_dense.h"

#include <new>
#include <stdlib.h>

namespace axb_cuda {

namespace {

/* Plan storage for swap_plan/swap_apply inside one allocation. */
SwapPlan carve_plan(char *base) {
  SwapPlan p;
  p.count = (int64_t *)base;
  p.dst = (int64_t *)(base + 256);
  p.src = p.dst + 2 * kSwapBatch;
  return p;
}
constexpr size_t kPlanBytes = 256 + 2 * 2 * kSwapBatch * sizeof(int64_t);

/* The interchanges ipiv[k0..k) (0-based positions, 1-based rows) on the
   ncols columns of B, in batches of kSwapBatch: each batch's moves planned
   by one warp, then applied in one pass over the columns (forward: the
   batches in increasing order, else decreasing, each planned the same
   way). */
template <typename T>
axb_status apply_pivots_from(axb_handle h, SwapPlan plan, int64_t k0, int64_t k,
                             const int64_t *ipiv, int forward, T *B,
                             int64_t ldb, int64_t ncols) {
  const int64_t batches = (k - k0 + kSwapBatch - 1) / kSwapBatch;
  for (int64_t i = 0; i < batches; ++i) {
    const int64_t bidx = forward ? i : batches - 1 - i;
    const int64_t k1 = k0 + bidx * kSwapBatch;
    const int64_t k2 = k1 + kSwapBatch < k ? k1 + kSwapBatch : k;
    axb_status st = swap_plan<T>(h, stream(h), k1, k2, ipiv, forward, plan);
    if (!st) st = swap_apply<T>(h, stream(h), plan, B, ldb, ncols, ncols, 0);
    if (st) return st;
  }
  return AXB_SUCCESS;
}

/* The interchanges ipiv[0..k) on the ncols columns of B. */
template <typename T>
axb_status apply_pivots(axb_handle h, SwapPlan plan, int64_t k,
                        const int64_t *ipiv, int forward, T *B, int64_t ldb,
                        int64_t ncols) {
  return apply_pivots_from<T>(h, plan, 0, k, ipiv, forward, B, ldb, ncols);
}

/* Tuning knobs from the environment (experiments, scripts/cuda-tune.sh;
   the defaults are what the device measured best), read once per process:
   getenv on every factorisation would scan the environment each time and
   race with a caller's setenv on another thread. */
struct Knob {
  bool set = false;
  int64_t v = 0;
};
struct Knobs {
  Knob lu_nb, potrf_nb, lookahead, potrf_stripe, potrf_panel, getri_from;
};

Knob read_knob(const char *name) {
  Knob k;
  const char *e = getenv(name);
  if (!e || !*e) return k;
  char *end = nullptr;
  long long v = strtoll(e, &end, 10);
  if (end && *end == '\0') {
    k.set = true;
    k.v = (int64_t)v;
  }
  return k;
}

const Knobs &knobs() {
  static const Knobs k = [] {
    Knobs r;
    r.lu_nb = read_knob("AXB_CUDA_LU_NB");
    r.potrf_nb = read_knob("AXB_CUDA_POTRF_NB");
    r.lookahead = read_knob("AXB_CUDA_LOOKAHEAD");
    r.potrf_stripe = read_knob("AXB_CUDA_POTRF_STRIPE");
    r.potrf_panel = read_knob("AXB_CUDA_POTRF_PANEL");
    r.getri_from = read_knob("AXB_CUDA_GETRI_BLOCKED_FROM");
    return r;
  }();
  return k;
}

int64_t knob(const Knob &k, int64_t dflt) { return k.set ? k.v : dflt; }

/*
 * The two streams of a factorisation with look-ahead.  `fast` (the
 * context's high-priority stream and its cuBLAS handle) carries the
 * critical path: panels, their interchanges and triangular solves, and the
 * update of the next panel's columns; the handle's stream carries the rest
 * of each trailing update.  fast first waits for the work queued on the
 * handle's stream; at scope exit the handle's stream waits for fast, so
 * the caller (and scratch freed on that stream: declare Lanes after the
 * Scratch) sees the finished result.  Off: both are the handle's stream.
 */
struct Lanes {
  Context *ctx;
  cudaStream_t main, fast;
  cublasHandle_t bmain, bfast;
  bool on, joined = false;
  cudaError_t start; /* of the first fast_waits_main: check it */
  Lanes(axb_handle h, Context *c, bool enable)
      : ctx(c), main(stream(h)), fast(stream(h)), bmain(c->blas),
        bfast(c->blas), on(enable), start(cudaSuccess) {
    if (on) {
      fast = c->fast;
      bfast = c->blas_fast;
      start = fast_waits_main();
    }
  }
  Lanes(const Lanes &) = delete;
  Lanes &operator=(const Lanes &) = delete;
  /* A failed record or wait would leave the lanes unordered (a race, not
     an error at the next launch): callers turn it into a status. */
  cudaError_t fast_waits_main() {
    if (!on) return cudaSuccess;
    cudaError_t e = cudaEventRecord(ctx->ev_main, main);
    return e == cudaSuccess ? cudaStreamWaitEvent(fast, ctx->ev_main, 0) : e;
  }
  cudaError_t main_waits_fast() {
    if (!on) return cudaSuccess;
    cudaError_t e = cudaEventRecord(ctx->ev_fast, fast);
    return e == cudaSuccess ? cudaStreamWaitEvent(main, ctx->ev_fast, 0) : e;
  }
  /* The checked join that ends a successful factorisation.  When it fails
     the host waits for fast itself, so that scratch freed on main after
     the return is no longer in use. */
  cudaError_t join() {
    joined = true;
    cudaError_t e = main_waits_fast();
    if (e != cudaSuccess && on) cudaStreamSynchronize(fast);
    return e;
  }
  /* Early (error) returns: join as well as one can; the status the caller
     returns is a failure already. */
  ~Lanes() {
    if (!joined && main_waits_fast() != cudaSuccess && on)
      cudaStreamSynchronize(fast);
  }
};

} // namespace

/* ---- LU ------------------------------------------------------------------ */

/*
 * One panel of nb columns at k on the fast lane: leaves of 32 columns (16
 * where the rows need the tall leaf: lu_leaf_width) by the leaf kernel; after
 * each leaf, its interchanges reach the other panel columns and the leaf's rows
 * of the columns right of it are solved in one pass (swap_trsm), then a GEMM
 * updates those columns below.
 */
template <typename T>
static axb_status lu_panel(axb_handle h, Context *ctx, const Lanes &ln,
                           int64_t m, int64_t k, int64_t nb, T *A, int64_t lda,
                           int64_t *ipiv, int64_t *info,
                           const LeafScratch<T> &ls, SwapPlan leaf_plan) {
  const T one = 1, minus = -1;
  for (int64_t c = k, w = 0; c < k + nb; c += w) {
    const int lw = lu_leaf_width<T>(h, m - c);
    w = (int)(k + nb - c < lw ? k + nb - c : lw);
    axb_status st =
        lu_leaf<T>(h, ctx, ln.fast, m, c, w, A, lda, ipiv, info, ls, leaf_plan);
    if (!st && nb > w)
      st = swap_trsm<T>(h, ln.fast, leaf_plan, A + k * lda, lda, nb - w, c - k,
                        w, c, w, A + c + c * lda, c - k + w);
    if (st) return st;
    const int64_t rest = k + nb - c - w; /* panel columns right of leaf */
    if (rest > 0 && m - c - w > 0)
      AXB_BLAS(h,
               gemm(ln.bfast, CUBLAS_OP_N, CUBLAS_OP_N, m - c - w, rest, w,
                    &minus, A + (c + w) + c * lda, lda, A + c + (c + w) * lda,
                    lda, &one, A + (c + w) + (c + w) * lda, lda));
  }
  return AXB_SUCCESS;
}

/*
 * Right-looking blocked LU with look-ahead.  Step k on the fast lane:
 * the panel (lu_panel), then, once the handle's stream has finished the
 * previous step's bulk update, the panel's interchanges on every other
 * column with the solve U12 := L11^-1 A12 (one pass for a one-leaf panel;
 * plan + pass + cuBLAS TRSM otherwise), and the GEMM on the next panel's
 * columns only.  The GEMM on the remaining columns goes to the handle's
 * stream, where it runs while the fast lane factors the next panel.
 */
template <typename T>
axb_status getrf_dev(axb_handle h, int64_t m, int64_t n, T *A, int64_t lda,
                     int64_t *ipiv, int64_t *info) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(info, 0, sizeof(int64_t), s));
  if (m == 0 || n == 0) return AXB_SUCCESS;
  AXB_BLAS(h, cublasSetStream(ctx->blas, s));
  const int maxblk = lu_leaf_max_blocks<T>(h, ctx);
  const size_t b_cval = align_up(2 * (size_t)maxblk * sizeof(T));
  const size_t b_cidx = align_up(2 * (size_t)maxblk * sizeof(int64_t));
  const size_t b_crow = align_up(2 * (size_t)maxblk * kLeafWidth * sizeof(T));
  const size_t b_jrow = align_up(2 * kLeafWidth * sizeof(T));
  const size_t b_plan = align_up(kPlanBytes);
  Scratch scr(h);
  axb_status st = scr.alloc(b_cval + b_cidx + b_crow + b_jrow + 2 * b_plan);
  if (st) return st;
  char *base = (char *)scr.p;
  LeafScratch<T> ls;
  ls.cval = (T *)base;
  ls.cidx = (int64_t *)(base + b_cval);
  ls.crow = (T *)(base + b_cval + b_cidx);
  ls.jrow = (T *)(base + b_cval + b_cidx + b_crow);
  ls.max_blocks = maxblk;
  SwapPlan leaf_plan = carve_plan(base + b_cval + b_cidx + b_crow + b_jrow);
  SwapPlan panel_plan =
      carve_plan(base + b_cval + b_cidx + b_crow + b_jrow + b_plan);

  const T one = 1, minus = -1;
  const int64_t kmin = m < n ? m : n;
  /* Small matrices are latency-bound: one leaf per panel (its plan is the
     panel's, no inner TRSM/GEMM); larger ones amortise wider panels. */
  int64_t NB = knob(knobs().lu_nb, kmin <= 2048   ? kLeafWidth
                                   : kmin >= 4096 ? 256
                                                  : 128);
  NB = NB < kLeafWidth ? kLeafWidth
       : NB > 256      ? 256
                       : NB / kLeafWidth * kLeafWidth;
  static_assert(256 <= kSwapBatch, "panel plan must hold NB interchanges");
  Lanes ln(h, ctx, knob(knobs().lookahead, 1) != 0);
  AXB_CU(h, ln.start);
  for (int64_t k = 0; k < kmin; k += NB) {
    const int64_t nb = kmin - k < NB ? kmin - k : NB;
    st = lu_panel<T>(h, ctx, ln, m, k, nb, A, lda, ipiv, info, ls, leaf_plan);
    if (st) return st;
    /* columns outside the panel: after the bulk update of step k - 1 */
    AXB_CU(h, ln.fast_waits_main());
    const int64_t right = n - k - nb;
    if (n > nb && nb <= lu_leaf_width<T>(h, m - k)) {
      /* one leaf: its plan is the panel's; swap and solve in one pass */
      st = swap_trsm<T>(h, ln.fast, leaf_plan, A, lda, n - nb, k, nb, k,
                        (int)nb, A + k + k * lda, k + nb);
      if (st) return st;
    } else if (n > nb) {
      st = swap_plan<T>(h, ln.fast, k, k + nb, ipiv, 1, panel_plan);
      if (!st)
        st = swap_apply<T>(h, ln.fast, panel_plan, A, lda, n - nb, k, nb);
      if (st) return st;
      if (right > 0)
        AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                         CUBLAS_OP_N, CUBLAS_DIAG_UNIT, nb, right, &one,
                         A + k + k * lda, lda, A + k + (k + nb) * lda, lda));
    }
    const int64_t below = m - k - nb;
    if (right <= 0 || below <= 0) continue;
    /* the next panel's columns first, on the fast lane */
    int64_t next = kmin - k - nb < NB ? kmin - k - nb : NB;
    if (next < 0) next = 0;
    if (next > 0)
      AXB_BLAS(h,
               gemm(ln.bfast, CUBLAS_OP_N, CUBLAS_OP_N, below, next, nb, &minus,
                    A + (k + nb) + k * lda, lda, A + k + (k + nb) * lda, lda,
                    &one, A + (k + nb) + (k + nb) * lda, lda));
    AXB_CU(h, ln.main_waits_fast());
    const int64_t c0 = k + nb + next;
    if (n - c0 > 0)
      AXB_BLAS(h, gemm(ln.bmain, CUBLAS_OP_N, CUBLAS_OP_N, below, n - c0, nb,
                       &minus, A + (k + nb) + k * lda, lda, A + k + c0 * lda,
                       lda, &one, A + (k + nb) + c0 * lda, lda));
  }
  AXB_CU(h, ln.join());
  return AXB_SUCCESS;
}

/* LAPACK's laswp on device arrays (k1..k2 1-based, incx 1 or -1; checked
   by the typed layer): the planned moves of apply_pivots_from, one pass
   over the columns per batch of interchanges instead of a row swap per
   pivot across every column. */
template <typename T>
axb_status laswp_dev(axb_handle h, int64_t n, T *dA, int64_t ldda, int64_t k1,
                     int64_t k2, const int64_t *dipiv, int64_t incx) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  if (n == 0 || k2 < k1) return AXB_SUCCESS;
  DeviceScope scope(h->device);
  Scratch scr(h);
  axb_status st = scr.alloc(kPlanBytes);
  if (st) return st;
  return apply_pivots_from<T>(h, carve_plan((char *)scr.p), k1 - 1, k2, dipiv,
                              incx > 0, dA, ldda, n);
}

template <typename T>
axb_status getrs_dev(axb_handle h, axb_trans trans, int64_t n, int64_t nrhs,
                     const T *A, int64_t lda, const int64_t *ipiv, T *B,
                     int64_t ldb) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  if (n == 0 || nrhs == 0) return AXB_SUCCESS;
  DeviceScope scope(h->device);
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  Scratch scr(h);
  axb_status st = scr.alloc(kPlanBytes);
  if (st) return st;
  SwapPlan plan = carve_plan((char *)scr.p);
  const T one = 1;
  if (trans == AXB_NO_TRANS) {
    st = apply_pivots<T>(h, plan, n, ipiv, 1, B, ldb, nrhs);
    if (st) return st;
    AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, nrhs, &one, A, lda, B,
                     ldb));
    AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                     CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, nrhs, &one, A, lda,
                     B, ldb));
    return AXB_SUCCESS;
  }
  AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                   CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, nrhs, &one, A, lda, B,
                   ldb));
  AXB_BLAS(h,
           trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                CUBLAS_OP_T, CUBLAS_DIAG_UNIT, n, nrhs, &one, A, lda, B, ldb));
  return apply_pivots<T>(h, plan, n, ipiv, 0, B, ldb, nrhs);
}

/* ---- Cholesky ------------------------------------------------------------ */

/*
 * Cholesky with the tile kernel (potrf_tiles).  Up to NB columns one
 * launch factors the whole matrix.  Past it, blocks of NB columns: the fast
 * lane factors the block column k and updates the next block column (SYRK
 * on its diagonal block, GEMM below); the handle's stream updates the rest
 * of the trailing matrix, overlapping the next block column's
 * factorisation.  Upper storage is the mirror image (U = L^T).
 *
 * The block column k is either one tile-kernel launch over all its rows
 * (PANEL_TILES) or the tile kernel on its nb x nb diagonal block and a
 * cuBLAS TRSM for the rows below, L21 = A21 L11^-T (PANEL_TRSM,
 * AXB_CUDA_POTRF_PANEL=1): the tile kernel's products run at ~22 TF/s, but
 * the TRSM panel measured only 1-2 % faster at 32768 and slower at 16384
 * (H100, docs/notes/dense-gpu.md), so tiles stay the default.  When L11
 * fails (*info set) the TRSM still runs; the columns past the failing
 * minor are then not LAPACK's, as with the trailing updates already.
 *
 * The rest of the trailing update, C -= P P^T with C lower r2 x r2, goes by
 * stripes of S columns: SYRK on each S x S diagonal block and one GEMM for
 * the rows below it.  cuSOLVER's dpotrf does this (its timeline: GEMMs 70 %
 * of the kernel time at n = 32768); one SYRK over the whole of C took
 * 198 ms there against cuSOLVER's 189 ms of GEMMs and SYRKs for the same
 * products.
 */
enum { PANEL_TILES = 0, PANEL_TRSM = 1 };

template <typename T>
static axb_status trailing_stripes(axb_handle h, cublasHandle_t b, bool lower,
                                   int64_t r2, int64_t nb, int64_t S,
                                   const T *P2, T *C2, int64_t lda) {
  const T one = 1, minus = -1;
  if (S <= 0) S = r2;
  for (int64_t j = 0; j < r2; j += S) {
    const int64_t s = r2 - j < S ? r2 - j : S, below = r2 - j - s;
    T *Cjj = C2 + j + j * lda;
    if (lower) {
      AXB_BLAS(h, syrk(b, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, s, nb, &minus,
                       P2 + j, lda, &one, Cjj, lda));
      if (below > 0)
        AXB_BLAS(h, gemm(b, CUBLAS_OP_N, CUBLAS_OP_T, below, s, nb, &minus,
                         P2 + j + s, lda, P2 + j, lda, &one, Cjj + s, lda));
    } else {
      AXB_BLAS(h, syrk(b, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, s, nb, &minus,
                       P2 + j * lda, lda, &one, Cjj, lda));
      if (below > 0)
        AXB_BLAS(h, gemm(b, CUBLAS_OP_T, CUBLAS_OP_N, s, below, nb, &minus,
                         P2 + j * lda, lda, P2 + (j + s) * lda, lda, &one,
                         Cjj + s * lda, lda));
    }
  }
  return AXB_SUCCESS;
}

template <typename T>
static axb_status potrf_tiled(axb_handle h, Context *ctx, axb_uplo uplo,
                              int64_t n, T *A, int64_t lda, int64_t *info,
                              int64_t NB, int64_t S, int panel) {
  if (NB >= n) NB = n;
  NB = NB < kTileEdge ? kTileEdge : NB / kTileEdge * kTileEdge;
  const bool by_trsm = panel == PANEL_TRSM && NB < n;
  /* rows of block column k that the tile kernel factors */
  auto tile_rows = [&](int64_t k) {
    const int64_t w = n - k < NB ? n - k : NB;
    return by_trsm ? w : n - k;
  };
  size_t nflags = 0;
  for (int64_t k = 0; k < n; k += NB)
    nflags += potrf_tiles_flags(tile_rows(k), n - k < NB ? n - k : NB);
  Scratch scr(h);
  axb_status st = scr.alloc(nflags * sizeof(unsigned));
  if (st) return st;
  unsigned *flags = (unsigned *)scr.p;
  AXB_CU(h, cudaMemsetAsync(flags, 0, nflags * sizeof(unsigned), stream(h)));
  if (NB >= n)
    return potrf_tiles<T>(h, stream(h), uplo, n, n, A, lda, 0, info, flags);
  const T one = 1, minus = -1;
  const bool lower = uplo == AXB_LOWER;
  Lanes ln(h, ctx, knob(knobs().lookahead, 1) != 0);
  AXB_CU(h, ln.start);
  for (int64_t k = 0; k < n; k += NB) {
    const int64_t nb = n - k < NB ? n - k : NB;
    const int64_t rem = n - k - nb;
    T *Akk = A + k + k * lda;
    st = potrf_tiles<T>(h, ln.fast, uplo, tile_rows(k), nb, Akk, lda, k, info,
                        flags);
    if (st) return st;
    flags += potrf_tiles_flags(tile_rows(k), nb);
    if (rem <= 0) continue;
    /* P: the panel, L21 (rem x nb, lower) or U12 (nb x rem, upper) */
    T *P = lower ? Akk + nb : Akk + nb * lda;
    if (by_trsm) {
      if (lower)
        AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                         CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, rem, nb, &one, Akk,
                         lda, P, lda));
      else
        AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                         CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, nb, rem, &one, Akk,
                         lda, P, lda));
    }
    AXB_CU(h, ln.fast_waits_main());
    /* the next block column: n2 columns, its diagonal block by SYRK */
    const int64_t n2 = rem < NB ? rem : NB, r2 = rem - n2;
    T *A22 = Akk + nb + nb * lda;
    T *P2 = lower ? P + n2 : P + n2 * lda;
    T *C2 = A22 + n2 + n2 * lda;
    st = trailing_stripes<T>(h, ln.bfast, lower, n2, nb, n2, P, A22, lda);
    if (st) return st;
    if (r2 > 0) { /* the off-diagonal part of the next block column */
      if (lower)
        AXB_BLAS(h, gemm(ln.bfast, CUBLAS_OP_N, CUBLAS_OP_T, r2, n2, nb, &minus,
                         P2, lda, P, lda, &one, A22 + n2, lda));
      else
        AXB_BLAS(h, gemm(ln.bfast, CUBLAS_OP_T, CUBLAS_OP_N, n2, r2, nb, &minus,
                         P, lda, P2, lda, &one, A22 + n2 * lda, lda));
    }
    AXB_CU(h, ln.main_waits_fast());
    if (r2 <= 0) continue;
    st = trailing_stripes<T>(h, ln.bmain, lower, r2, nb, S, P2, C2, lda);
    if (st) return st;
  }
  AXB_CU(h, ln.join());
  return AXB_SUCCESS;
}

/* Cholesky on device arrays: potrf_tiled with NB = n up to 4096 (one
   launch), 1024 below 32768 and 2048 from there, trailing stripes of 4096
   columns (AXB_CUDA_POTRF_NB / _STRIPE / _PANEL override; the device's
   measurements: bench/results/dense-h100/s7, docs/notes/dense-gpu.md). */
template <typename T>
axb_status potrf_dev(axb_handle h, axb_uplo uplo, int64_t n, T *A, int64_t lda,
                     int64_t *info) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  AXB_CU(h, cudaMemsetAsync(info, 0, sizeof(int64_t), stream(h)));
  if (n == 0) return AXB_SUCCESS;
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  const int64_t nb = knob(knobs().potrf_nb, n <= 4096   ? n
                                            : n < 32768 ? 1024
                                                        : 2048);
  return potrf_tiled<T>(h, ctx, uplo, n, A, lda, info, nb,
                        knob(knobs().potrf_stripe, nb > 4096 ? nb : 4096),
                        (int)knob(knobs().potrf_panel, PANEL_TILES));
}

template <typename T>
axb_status potrs_dev(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                     const T *A, int64_t lda, T *B, int64_t ldb) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  if (n == 0 || nrhs == 0) return AXB_SUCCESS;
  DeviceScope scope(h->device);
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  const T one = 1;
  const cublasOperation_t first = uplo == AXB_LOWER ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t second =
      uplo == AXB_LOWER ? CUBLAS_OP_T : CUBLAS_OP_N;
  AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, fill(uplo), first,
                   CUBLAS_DIAG_NON_UNIT, n, nrhs, &one, A, lda, B, ldb));
  AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, fill(uplo), second,
                   CUBLAS_DIAG_NON_UNIT, n, nrhs, &one, A, lda, B, ldb));
  return AXB_SUCCESS;
}

/* ---- inverse ------------------------------------------------------------- */

/*
 * inv(A) = U^-1 L^-1 R with R = P I (LAPACK's A = P L U; R the identity's
 * rows interchanged by ipiv), as LAPACK's getri: W = U^-1 L^-1, then the
 * columns moved.  L^-1 is lower triangular, so its block column j comes
 * from L's trailing block alone: n^3 / 3 multiply-adds there instead of
 * the n^3 of one TRSM over R (still used below kGetriBlockedFrom: R, two
 * full TRSMs, 2 n^3); U^-1 L^-1 by one TRSM (n^3).  The column moves: R =
 * rows of I gathered, R[i, r[i]] = 1, so (W R)[:, r[i]] = W[:, i], with r
 * = (0, 1, ..., n - 1) put through the same interchanges (apply_pivots on
 * one column; integers below 2^24 are exact in float too).
 */
template <typename T> __global__ void iota_kernel(int64_t n, T *v) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) v[i] = (T)i;
}

/* A[:, r[j]] := W[:, j] for every column j (r a permutation, as T). */
template <typename T>
__global__ void scatter_cols_kernel(int64_t n, const T *W, int64_t ldw,
                                    const T *r, T *A, int64_t lda) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
    A[i + (int64_t)r[j] * lda] = W[i + j * ldw];
}

/* From this order the blocked L^-1 pays: getri 1.04 -> 1.14x cuSOLVER at
   16384, 1.17 / 1.18 at 8192; below, its 512-column TRSMs lost to one full
   TRSM over R (1.46 -> 1.34 at 2048, 1.27 -> 1.22 at 4096; H100,
   bench/results/dense-h100/s7/getri.txt against after-session6.txt).
   AXB_CUDA_GETRI_BLOCKED_FROM overrides (scripts/gpu-check.sh sets 1 for
   test_inverse, so that the tests' sizes reach the blocked path). */
constexpr int64_t kGetriBlockedFrom = 8192;

template <typename T>
axb_status getri_dev(axb_handle h, int64_t n, T *A, int64_t lda,
                     const int64_t *ipiv, int64_t *info) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(info, 0, sizeof(int64_t), s));
  if (n == 0) return AXB_SUCCESS;
  if (n > (int64_t)1 << 24)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "getri: n = %lld above 2^24 (column moves as T)",
                     (long long)n);
  AXB_BLAS(h, cublasSetStream(ctx->blas, s));
  axb_status st = diag_zero_info<T>(h, n, A, lda, info);
  if (st) return st;
  Scratch scr(h);
  st = scr.alloc(align_up(kPlanBytes) + align_up((size_t)n * sizeof(T)) +
                 (size_t)n * (size_t)n * sizeof(T));
  if (st) return st;
  SwapPlan plan = carve_plan((char *)scr.p);
  T *r = (T *)((char *)scr.p + align_up(kPlanBytes));
  T *W = (T *)((char *)r + align_up((size_t)n * sizeof(T)));
  constexpr int kT = 256; /* threads a block of the two small kernels */
  const unsigned g = (unsigned)((n + kT - 1) / kT);
  st = set_identity<T>(h, n, W, n);
  if (st) return st;
  const T one = 1;
  if (n < knob(knobs().getri_from, kGetriBlockedFrom)) { /* one TRSM */
    st = apply_pivots<T>(h, plan, n, ipiv, 1, W, n, n);
    if (st) return st;
    AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &one, A, lda, W, n));
    AXB_BLAS(h,
             trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                  CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, A, lda, W, n));
    AXB_CU(h, cudaMemcpy2DAsync(A, (size_t)lda * sizeof(T), W,
                                (size_t)n * sizeof(T), (size_t)n * sizeof(T),
                                (size_t)n, cudaMemcpyDeviceToDevice, s));
    return AXB_SUCCESS;
  }
  iota_kernel<T><<<g, kT, 0, s>>>(n, r);
  AXB_CU(h, cudaGetLastError());
  st = apply_pivots<T>(h, plan, n, ipiv, 1, r, n, 1);
  if (st) return st;
  const int64_t NB = 512;
  for (int64_t j = 0; j < n; j += NB) { /* W := L^-1, by block columns */
    const int64_t w = n - j < NB ? n - j : NB;
    AXB_BLAS(h, trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n - j, w, &one,
                     A + j + j * lda, lda, W + j + j * n, n));
  }
  AXB_BLAS(h,
           trsm(ctx->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, A, lda, W, n));
  const dim3 grid(g, (unsigned)(n < 65535 ? n : 65535));
  scatter_cols_kernel<T><<<grid, kT, 0, s>>>(n, W, n, r, A, lda);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* The device-array routines, for the table (cuda_dense_host.cu). */
#define AXB_DENSE_DEV(T)                                                       \
  template axb_status getrf_dev<T>(axb_handle, int64_t, int64_t, T *, int64_t, \
                                   int64_t *, int64_t *);                      \
  template axb_status laswp_dev<T>(axb_handle, int64_t, T *, int64_t, int64_t, \
                                   int64_t, const int64_t *, int64_t);         \
  template axb_status getrs_dev<T>(axb_handle, axb_trans, int64_t, int64_t,    \
                                   const T *, int64_t, const int64_t *, T *,   \
                                   int64_t);                                   \
  template axb_status potrf_dev<T>(axb_handle, axb_uplo, int64_t, T *,         \
                                   int64_t, int64_t *);                        \
  template axb_status potrs_dev<T>(axb_handle, axb_uplo, int64_t, int64_t,     \
                                   const T *, int64_t, T *, int64_t);          \
  template axb_status getri_dev<T>(axb_handle, int64_t, T *, int64_t,          \
                                   const int64_t *, int64_t *);
AXB_DENSE_DEV(double)
AXB_DENSE_DEV(float)

} // namespace axb_cuda
