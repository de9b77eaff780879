/*
 * Blocked Gauss-Jordan inverse with partial pivoting on the device
 * (getri_gj and getri_gj_dev of the CUDA table), column-major, in place.
 *
 * Gauss-Jordan on [A | I] stored in place (Quintana-Orti et al. 2001, as
 * the CPU's omp_inv_t.h): the steps K = [k, k+kb) multiply the matrix from
 * the left by E = I + (E_K - I_K) e_K^T, the matrix that turns the panel
 * A(:, K) into the identity columns, after the panel's row interchanges
 * (pivots chosen among rows >= c, as in LU).  With the panel rows split
 * into top (rows < k), the pivot block P1 (rows K) and the bottom P2, and
 * P1 = L1 U, P2 = L2 U the LU factors of [P1; P2] with partial pivoting,
 *     E(K, K) = inv(P1) = inv(U) inv(L1),    E(bot, K) = -L2 inv(L1),
 *     E(top, K) = -Ptop inv(U) inv(L1),
 * and every other column piece C (the interchanges applied first) becomes
 *     A(:, C) += F W,  W = A(K, C) (a copy),  F = E(:, K) - [0; I; 0],
 * one GEMM per column range over all n rows (rows K: W + (E_KK - I) W =
 * E_KK W).  The panel's column of E is stored in place of A(:, K), which
 * is the identity half's column K of [A | I]; the row interchanges permute
 * the identity half's columns, undone at the end (in reverse order, as a
 * composed permutation and one gather).
 *
 * On the device: the panel LU by the LU leaf kernel (32 columns a launch,
 * cuda_kernels.cu) with swaps + TRSM + GEMM between leaves; E by four
 * cuBLAS TRSMs on n x kb; the update by cuBLAS GEMM.  Look-ahead as in the
 * LU: the critical path (panel, E, interchanges, the GEMM on the next
 * panel's columns) on the context's high-priority stream, the bulk GEMMs on
 * the handle's stream, ordered by events.  2n^3 flops, almost all GEMM
 * with inner dimension kb.  A zero pivot (exactly zero column below the
 * diagonal) is the first `info`; the later steps run on (and the result
 * holds) non-finite values, which the host entry does not return.
 *
 * Knobs (read once): AXB_CUDA_GJ_NB (widest panel, a multiple of 32, 32..256;
 * the panels are balanced below it),
 * AXB_CUDA_LOOKAHEAD=0 (one stream).
 */
#include "cuda_dense.h"
#include "cuda_internal.h"

#include <new>
#include <stdlib.h>

namespace axb_cuda {

namespace {

constexpr int kGjThreads = 256;
constexpr size_t kGjPlanBytes = 256 + 2 * 2 * kSwapBatch * sizeof(int64_t);

inline size_t up256(size_t x) { return (x + 255) & ~(size_t)255; }
inline unsigned grid_for(int64_t work) {
  return (unsigned)((work + kGjThreads - 1) / kGjThreads);
}

int64_t env_int(const char *name, int64_t dflt) {
  const char *e = getenv(name);
  if (!e || !*e) return dflt;
  char *end = nullptr;
  long long v = strtoll(e, &end, 10);
  return end && *end == '\0' ? (int64_t)v : dflt;
}

struct GjKnobs {
  int64_t nb;   /* 0: by n */
  int64_t look; /* 0: one stream */
};
const GjKnobs &gj_knobs() {
  static const GjKnobs k = {env_int("AXB_CUDA_GJ_NB", 0),
                            env_int("AXB_CUDA_LOOKAHEAD", 1)};
  return k;
}

/* Panel width: narrow panels where launches dominate (small n), wider ones
   for a deeper GEMM when the matrix is large. */
int64_t gj_nb(int64_t n) {
  int64_t nb = gj_knobs().nb;
  if (nb <= 0) nb = n <= 1536 ? 32 : n <= 4096 ? 64 : 128;
  nb = nb < kLeafWidth ? kLeafWidth : nb > 256 ? 256 : nb;
  return nb / kLeafWidth * kLeafWidth;
}

SwapPlan plan_at(char *base) {
  SwapPlan p;
  p.count = (int64_t *)base;
  p.dst = (int64_t *)(base + 256);
  p.src = p.dst + 2 * kSwapBatch;
  return p;
}

/* ---- kernels ------------------------------------------------------------- */

/* X := I (kb x kb, ld kb). */
template <typename T> __global__ void gj_identity_kernel(int64_t kb, T *X) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < kb * kb) X[t] = (t % kb == t / kb) ? T(1) : T(0);
}

/* D (kb x kb, ld ldd) := X (ld kb) + delta I. */
template <typename T>
__global__ void gj_put_kernel(int64_t kb, const T *X, T *D, int64_t ldd,
                              T delta) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= kb * kb) return;
  const int64_t i = t % kb, j = t / kb;
  D[i + j * ldd] = X[t] + (i == j ? delta : T(0));
}

/* src[j] := the column of the in-place result that becomes column j of the
   inverse: the interchanges (c, ipiv[c] - 1) on the columns, c from n - 1
   down to 0.  Before step c only positions > c have moved, so src[c] is c
   and step c is src[c] = src[p], src[p] = c.  One thread (a dependent
   chain) after every thread's share of src[j] = j; I: src's index type. */
template <typename I>
__device__ void gj_perm_chain(int64_t n, const int64_t *ipiv, I *src) {
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
    src[j] = (I)j;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int64_t c = n - 1; c >= 0; --c) {
      const int64_t p = ipiv[c] - 1;
      if (p != c) {
        src[c] = src[p];
        src[p] = (I)c;
      }
    }
}

/* gj_perm_chain into src, in shared memory when it fits (SH). */
template <bool SH>
__global__ void gj_perm_kernel(int64_t n, const int64_t *ipiv, int64_t *src) {
  extern __shared__ int s_src[];
  if (SH) {
    gj_perm_chain<int>(n, ipiv, s_src);
    __syncthreads();
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
      src[j] = s_src[j];
  } else {
    gj_perm_chain<int64_t>(n, ipiv, src);
  }
}

/* X(:, j) := A(:, src[j]) (X ld n). */
template <typename T>
__global__ void gj_gather_kernel(int64_t n, const T *A, int64_t lda,
                                 const int64_t *src, T *X) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
    X[i + j * n] = A[i + src[j] * lda];
}

/* ---- the two lanes ------------------------------------------------------- */

struct GjLanes {
  Context *ctx;
  cudaStream_t main, fast;
  cublasHandle_t bmain, bfast;
  bool on;
  GjLanes(axb_handle h, Context *c, bool enable)
      : ctx(c), main(stream(h)), fast(enable ? c->fast : stream(h)),
        bmain(c->blas), bfast(enable ? c->blas_fast : c->blas), on(enable) {}
  cudaError_t wait(cudaStream_t waiter, cudaStream_t done, cudaEvent_t ev) {
    if (!on) return cudaSuccess;
    cudaError_t e = cudaEventRecord(ev, done);
    return e == cudaSuccess ? cudaStreamWaitEvent(waiter, ev, 0) : e;
  }
  cudaError_t fast_waits_main() { return wait(fast, main, ctx->ev_main); }
  cudaError_t main_waits_fast() { return wait(main, fast, ctx->ev_fast); }
};

/* Joins the lanes on every return (the scratch is freed on main after). */
struct GjJoin {
  GjLanes &ln;
  explicit GjJoin(GjLanes &l) : ln(l) {}
  ~GjJoin() {
    if (ln.main_waits_fast() != cudaSuccess && ln.on)
      cudaStreamSynchronize(ln.fast);
  }
};

/* ---- one step ------------------------------------------------------------ */

/* LU with partial pivoting of rows k..n-1 of the panel columns K = [k, k+kb)
   (global pivots in ipiv[K]), leaf by leaf; only the panel's columns. */
template <typename T>
axb_status gj_panel_lu(axb_handle h, Context *ctx, const GjLanes &ln, int64_t n,
                       int64_t k, int64_t kb, T *A, int64_t lda, int64_t *ipiv,
                       int64_t *info, const LeafScratch<T> &ls,
                       SwapPlan leaf_plan) {
  const T one = 1, minus = -1;
  for (int64_t c = k; c < k + kb; c += kLeafWidth) {
    const int w = (int)(k + kb - c < kLeafWidth ? k + kb - c : kLeafWidth);
    axb_status st =
        lu_leaf<T>(h, ctx, ln.fast, n, c, w, A, lda, ipiv, info, ls, leaf_plan);
    if (!st && kb > w)
      st = swap_apply<T>(h, ln.fast, leaf_plan, A + k * lda, lda, kb - w, c - k,
                         w);
    if (st) return st;
    const int64_t rest = k + kb - c - w; /* panel columns right of the leaf */
    if (rest <= 0) continue;
    T *Lcc = A + c + c * lda, *R = A + c + (c + w) * lda;
    AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, w, rest, &one, Lcc, lda, R,
                     lda));
    if (n - c - w > 0)
      AXB_BLAS(h, gemm(ln.bfast, CUBLAS_OP_N, CUBLAS_OP_N, n - c - w, rest, w,
                       &minus, Lcc + w, lda, R, lda, &one, R + w, lda));
  }
  return AXB_SUCCESS;
}

/* The panel's column block of E in place of A(:, K), with E(K, K) - I in
   the diagonal block (F of the header) and E(K, K) itself in E1 (kb x kb). */
template <typename T>
axb_status gj_panel_e(axb_handle h, const GjLanes &ln, int64_t n, int64_t k,
                      int64_t kb, T *A, int64_t lda, T *E1) {
  const T one = 1, minus = -1;
  T *Akk = A + k + k * lda;
  gj_identity_kernel<T><<<grid_for(kb * kb), kGjThreads, 0, ln.fast>>>(kb, E1);
  AXB_CU(h, cudaGetLastError());
  AXB_BLAS(h,
           trsm(ln.bfast, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                CUBLAS_DIAG_UNIT, kb, kb, &one, Akk, lda, E1, kb));
  AXB_BLAS(h,
           trsm(ln.bfast, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                CUBLAS_DIAG_NON_UNIT, kb, kb, &one, Akk, lda, E1, kb));
  const int64_t bot = n - k - kb;
  if (bot > 0)
    AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, bot, kb, &minus, Akk, lda,
                     Akk + kb, lda));
  if (k > 0) {
    T *top = A + k * lda;
    AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                     CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, k, kb, &minus, Akk, lda,
                     top, lda));
    AXB_BLAS(h, trsm(ln.bfast, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                     CUBLAS_OP_N, CUBLAS_DIAG_UNIT, k, kb, &one, Akk, lda, top,
                     lda));
  }
  gj_put_kernel<T>
      <<<grid_for(kb * kb), kGjThreads, 0, ln.fast>>>(kb, E1, Akk, lda, T(-1));
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

/* A(:, c0 : c0 + w) += F W(:, c0 : c0 + w), F = A(:, K). */
template <typename T>
axb_status gj_update(axb_handle h, cublasHandle_t b, int64_t n, int64_t k,
                     int64_t kb, T *A, int64_t lda, const T *W, int64_t c0,
                     int64_t w) {
  if (w <= 0) return AXB_SUCCESS;
  const T one = 1;
  AXB_BLAS(h, gemm(b, CUBLAS_OP_N, CUBLAS_OP_N, n, w, kb, &one, A + k * lda,
                   lda, W + c0 * kb, kb, &one, A + c0 * lda, lda));
  return AXB_SUCCESS;
}

} // namespace

template <typename T>
axb_status getri_gj_dev(axb_handle h, int64_t n, T *A, int64_t lda,
                        int64_t *info) {
  Context *ctx = context(h);
  if (!ctx)
    return axb__fail(h, AXB_ERR_INTERNAL, "CUDA handle without context");
  DeviceScope scope(h->device);
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(info, 0, sizeof(int64_t), s));
  if (n == 0) return AXB_SUCCESS;
  AXB_BLAS(h, cublasSetStream(ctx->blas, s));
  const int64_t NB = gj_nb(n);
  const int maxblk = lu_leaf_max_blocks<T>(h, ctx);
  /* one allocation: leaf scratch, two plans, pivots, src, two E1 blocks,
     W (NB x n), X (n x n) for the final gather */
  const size_t b_cval = up256(2 * (size_t)maxblk * sizeof(T)),
               b_cidx = up256(2 * (size_t)maxblk * sizeof(int64_t)),
               b_crow = up256(2 * (size_t)maxblk * kLeafWidth * sizeof(T)),
               b_jrow = up256(2 * kLeafWidth * sizeof(T)),
               b_plan = up256(kGjPlanBytes),
               b_piv = up256((size_t)n * sizeof(int64_t)),
               b_e1 = up256((size_t)NB * NB * sizeof(T)),
               b_w = up256((size_t)NB * n * sizeof(T)),
               b_x = up256((size_t)n * n * sizeof(T));
  Scratch scr(h);
  AXB_CU(h, dmalloc(h, &scr.p,
                    b_cval + b_cidx + b_crow + b_jrow + 2 * b_plan + 2 * b_piv +
                        2 * b_e1 + b_w + b_x,
                    s));
  char *p = (char *)scr.p;
  LeafScratch<T> ls;
  ls.cval = (T *)p;
  p += b_cval;
  ls.cidx = (int64_t *)p;
  p += b_cidx;
  ls.crow = (T *)p;
  p += b_crow;
  ls.jrow = (T *)p;
  p += b_jrow;
  ls.max_blocks = maxblk;
  SwapPlan leaf_plan = plan_at(p);
  p += b_plan;
  SwapPlan panel_plan = plan_at(p);
  p += b_plan;
  int64_t *ipiv = (int64_t *)p;
  p += b_piv;
  int64_t *src = (int64_t *)p;
  p += b_piv;
  T *E1[2] = {(T *)p, (T *)(p + b_e1)};
  p += 2 * b_e1;
  T *W = (T *)p;
  p += b_w;
  T *X = (T *)p;

  GjLanes ln(h, ctx, gj_knobs().look != 0);
  AXB_CU(h, ln.fast_waits_main());
  GjJoin join(ln);
  axb_status st = AXB_SUCCESS;
  /* Balanced panels: P = ceil(n / NB) panels, panel s = [s n / P, (s+1) n
     / P), widths differing by at most one.  A narrow last panel after wide
     ones (n = 33 in 32 + 1) measured a residual ||I - A X|| / (n ||A||
     ||X|| eps) of 226 on a kappa = 1e8 matrix where balanced panels (17 +
     16) give 0.8 (host model of this algorithm; the CPU's blocked GJ shows
     the same at n = 130 = 128 + 2: docs/PERFORMANCE.md). */
  const int64_t P = (n + NB - 1) / NB;
  auto start = [n, P](int64_t s) { return s >= P ? n : s * n / P; };
  int64_t kb = start(1); /* the first panel: nothing to its left yet */
  st = gj_panel_lu<T>(h, ctx, ln, n, 0, kb, A, lda, ipiv, info, ls, leaf_plan);
  for (int64_t step = 0; !st && step < P; ++step) {
    const int64_t k = start(step);
    kb = start(step + 1) - k;
    T *e1 = E1[step & 1];
    /* panel k is factored; its E on the fast lane */
    st = gj_panel_e<T>(h, ln, n, k, kb, A, lda, e1);
    if (st) return st;
    /* the rest of the matrix once the previous step's bulk is done */
    AXB_CU(h, ln.fast_waits_main());
    st = swap_plan<T>(h, ln.fast, k, k + kb, ipiv, 1, panel_plan);
    /* (swap_apply's ncols counts the columns it moves: all but K) */
    if (!st) st = swap_apply<T>(h, ln.fast, panel_plan, A, lda, n - kb, k, kb);
    if (st) return st;
    AXB_CU(h, cudaMemcpy2DAsync(W, (size_t)kb * sizeof(T), A + k,
                                (size_t)lda * sizeof(T), (size_t)kb * sizeof(T),
                                (size_t)n, cudaMemcpyDeviceToDevice, ln.fast));
    const int64_t k1 = k + kb;
    const int64_t next = start(step + 2) - k1;
    /* the next panel's columns first, then factor it on the fast lane */
    st = gj_update<T>(h, ln.bfast, n, k, kb, A, lda, W, k1, next);
    if (!st && next > 0)
      st = gj_panel_lu<T>(h, ctx, ln, n, k1, next, A, lda, ipiv, info, ls,
                          leaf_plan);
    if (st) return st;
    /* the bulk on the handle's stream: columns left of K and right of the
       next panel; then E(K, K) itself into place */
    AXB_CU(h, ln.main_waits_fast());
    st = gj_update<T>(h, ln.bmain, n, k, kb, A, lda, W, 0, k);
    if (!st)
      st = gj_update<T>(h, ln.bmain, n, k, kb, A, lda, W, k1 + next,
                        n - k1 - next);
    if (st) return st;
    gj_put_kernel<T><<<grid_for(kb * kb), kGjThreads, 0, ln.main>>>(
        kb, e1, A + k + k * lda, lda, T(0));
    AXB_CU(h, cudaGetLastError());
  }
  if (st) return st;
  AXB_CU(h, ln.main_waits_fast());
  /* undo the interchanges on the columns: X(:, j) = A(:, src[j]) */
  const size_t shmem = (size_t)n * sizeof(int);
  if (shmem <= 48 * 1024) {
    gj_perm_kernel<true><<<1, 256, shmem, s>>>(n, ipiv, src);
  } else {
    gj_perm_kernel<false><<<1, 256, 0, s>>>(n, ipiv, src);
  }
  AXB_CU(h, cudaGetLastError());
  gj_gather_kernel<T><<<dim3(grid_for(n), (unsigned)(n < 65535 ? n : 65535)),
                        kGjThreads, 0, s>>>(n, A, lda, src, X);
  AXB_CU(h, cudaGetLastError());
  AXB_CU(h, cudaMemcpy2DAsync(A, (size_t)lda * sizeof(T), X,
                              (size_t)n * sizeof(T), (size_t)n * sizeof(T),
                              (size_t)n, cudaMemcpyDeviceToDevice, s));
  return AXB_SUCCESS;
}

namespace {

/* Host arrays: A up (pinned staging), the inverse down; on a zero pivot
   A is left as it was and info says where. */
template <typename T>
axb_status host_getri_gj(axb_handle h, int64_t n, T *A, int64_t lda,
                         int64_t *info) {
  *info = 0;
  if (n == 0) return AXB_SUCCESS;
  Context *ctx = context(h);
  if (!ctx)
    return axb__fail(h, AXB_ERR_INTERNAL, "CUDA handle without context");
  DeviceScope scope(h->device);
  Scratch buf(h);
  const size_t fa = up256((size_t)n * (size_t)n * sizeof(T));
  AXB_CU(h, dmalloc(h, &buf.p, fa + sizeof(int64_t), stream(h)));
  T *dA = (T *)buf.p;
  int64_t *dinfo = (int64_t *)((char *)buf.p + fa);
  axb_status st =
      copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice);
  if (!st) st = getri_gj_dev<T>(h, n, dA, n, dinfo);
  if (!st)
    st = copy_2d<int64_t>(h, ctx, info, 1, dinfo, 1, 1, 1,
                          cudaMemcpyDeviceToHost);
  if (st) return st;
  if (*info > 0)
    return axb__fail(h, AXB_ERR_SINGULAR,
                     "getri_gj: zero pivot in column %lld (1-based)",
                     (long long)*info);
  return copy_2d<T>(h, ctx, A, lda, dA, n, n, n, cudaMemcpyDeviceToHost);
}

template <typename T, typename Ops> void fill_gj_typed(Ops *o) {
  o->getri_gj = host_getri_gj<T>;
  o->getri_gj_dev = getri_gj_dev<T>;
}

} // namespace

void fill_gj_table(axb_backend_ops *ops) {
  fill_gj_typed<double>(&ops->d);
  fill_gj_typed<float>(&ops->s);
}

template axb_status getri_gj_dev<double>(axb_handle, int64_t, double *, int64_t,
                                         int64_t *);
template axb_status getri_gj_dev<float>(axb_handle, int64_t, float *, int64_t,
                                        int64_t *);

} // namespace axb_cuda
