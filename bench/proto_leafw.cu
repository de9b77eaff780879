/*
 * Issue 21 prototype: an LU leaf (m x 32, partial pivoting) with one
 * cluster barrier per column and no block barrier, timed beside cuSOLVER's
 * getrf on the same panel.
 *
 * Why: the library's cluster leaf (lu_leafc_kernel) costs ~4.5 us per
 * column at m = 1024-8192 (bench_cuda's "panel" line), twice cuSOLVER's
 * whole getrf per column.  Per column it passes a block barrier (block
 * argmax through shared memory), the cluster barrier, a warp-0 read of
 * the candidates, a second block barrier, and its 32-column loop is
 * unrolled (a long straight code).  Here:
 *   - every warp finds its candidate with redux.sync on the magnitude's
 *     bits (max of the high word, then of the low word, then the lowest
 *     lane: exact, ties to the smaller row as LAPACK's idamax), and its
 *     winning lane publishes the row in the block's shared memory;
 *   - one cluster barrier (arrive.release / wait.acquire);
 *   - every warp reads all the cluster's candidates through distributed
 *     shared memory, reduces them the same way (same pivot everywhere),
 *     and copies the pivot row and row j into a warp-private buffer:
 *     no block barrier at all;
 *   - the column loop is rolled: each row is shifted left one entry per
 *     column (entry 0 is the current column), so the code is one column's.
 * Buffers are double-buffered by column parity: a warp rewrites its slot
 * of column jj at jj + 2, after the barrier of jj + 1, which every reader
 * of jj has passed.
 *
 * Standalone:  nvcc -O3 -arch=sm_90a bench/proto_leafw.cu -lcusolver -o leafw
 *              ./leafw [m ...]
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                        \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int W = 32;

/* The magnitude's bits + 1 (order = |x|'s order; 0: no row or NaN, which
   never wins, as in the library's better()). */
__device__ __forceinline__ unsigned long long mkey(double x) {
  if (x != x) return 0;
  return ((unsigned long long)__double_as_longlong(x) & 0x7fffffffffffffffull) +
         1;
}
__device__ __forceinline__ unsigned long long mkey(float x) {
  if (x != x) return 0;
  return (unsigned long long)(__float_as_uint(x) & 0x7fffffffu) + 1;
}

/* Warp: the largest key, then the smallest tag among lanes holding it
   (every lane gets both). */
__device__ __forceinline__ void warp_max_key(unsigned long long &key,
                                             unsigned &tag) {
  const unsigned hi = (unsigned)(key >> 32), lo = (unsigned)key;
  const unsigned mhi = __reduce_max_sync(0xffffffffu, hi);
  const unsigned mlo = __reduce_max_sync(0xffffffffu, hi == mhi ? lo : 0u);
  const bool top = hi == mhi && lo == mlo;
  tag = __reduce_min_sync(0xffffffffu, top ? tag : 0xffffffffu);
  key = (unsigned long long)mhi << 32 | mlo;
}

template <typename T, int NT> struct alignas(16) LeafShared {
  static constexpr int NW = NT / 32;
  unsigned long long key[2][NW]; /* each warp's best: key, row offset */
  int row[2][NW];
  T crow[2][NW][W];  /* each warp's best row */
  T jrow[2][W];      /* row j, at its owner block */
  T stage[NW][3][W]; /* per warp: pivot row (U part), pivot row, row j */
};

__device__ unsigned long long g_trace[16];

/* Rotate r left by one: r[k] := r[k + 1], r[W - 1] := old r[0]. */
template <typename T> __device__ __forceinline__ void rotate1(T (&r)[W]) {
  const T r0 = r[0];
#pragma unroll
  for (int k = 1; k < W; ++k)
    r[k - 1] = r[k];
  r[W - 1] = r0;
}

/*
 * Each row's W entries rotate left by one per column while the row takes
 * part (entry 0 is the current column; the L value rotates to the end), so
 * the code is one column's.  A row done at column t (the pivot of t) has
 * rotated t times; at the end every row rotates back to column order and
 * is stored where it stands, L and U together (interchanges move whole
 * rows, LAPACK's convention).  V: 0 as described; 1 the cluster barrier
 * replaced by __syncthreads (one block only: its cost); TR: thread 0 of
 * block 0 accumulates clock64() per phase into g_trace.
 */
template <typename T, int NT, int V, bool TR>
__global__ void __launch_bounds__(NT, 1)
    leafw_kernel(T *A, int64_t lda, int64_t m, int64_t c, int w, int64_t *ipiv,
                 int64_t *info) {
  constexpr int NW = NT / 32;
  __shared__ LeafShared<T, NT> sh;
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank(), CS = (int)cl.num_blocks();
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int li = rank * NT + tid; /* row offset from c */
  const int rows = (int)(m - c);
  T r[W];
#pragma unroll
  for (int k = 0; k < W; ++k)
    r[k] = li < rows && k < w ? A[c + li + (c + k) * lda] : T(0);
  int64_t first_zero = 0;
  int rot = 0; /* rotations done by this row */
  const int nslot = CS * NW;
  unsigned long long tr[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const bool trt = TR && rank == 0 && tid == 0;
  for (int jj = 0; jj < w; ++jj) {
    unsigned long long t0 = TR ? clock64() : 0;
    const int par = jj & 1;
    /* the warp's candidate among rows jj.. (offsets) */
    const bool act = li < rows && li >= jj;
    unsigned long long key = act ? mkey(r[0]) : 0ull;
    unsigned tag = act ? (unsigned)lane : 0xffffffffu;
    warp_max_key(key, tag);
    if (TR) {
      unsigned long long t = clock64();
      tr[0] += t - t0;
      t0 = t;
    }
    if (lane == (int)tag && key != 0) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        sh.crow[par][warp][k] = r[k];
    }
    if (lane == 0) {
      sh.key[par][warp] = key;
      sh.row[par][warp] = key != 0 ? li - lane + (int)tag : -1;
    }
    if (li == jj) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        sh.jrow[par][k] = r[k];
    }
    if (TR) {
      unsigned long long t = clock64();
      tr[1] += t - t0;
      t0 = t;
    }
    if (V == 1)
      __syncthreads();
    else
      cl.sync();
    if (TR) {
      unsigned long long t = clock64();
      tr[2] += t - t0;
      t0 = t;
    }
    /* every warp: the cluster's best slot (smallest slot on equal keys =
       the smallest row) */
    unsigned long long bk = 0;
    unsigned bs = 0xffffffffu;
    int brow = -1;
    for (int s = lane; s < nslot; s += 32) {
      const int b = s / NW, wq = s % NW;
      const LeafShared<T, NT> *o = V == 1 ? &sh : cl.map_shared_rank(&sh, b);
      const unsigned long long k2 = o->key[par][wq];
      if (k2 > bk) {
        bk = k2;
        bs = (unsigned)s;
        brow = o->row[par][wq];
      }
    }
    unsigned long long gk = bk;
    unsigned gs = bs;
    warp_max_key(gk, gs);
    const int prow_off = __shfl_sync(0xffffffffu, brow, (int)(gs & 31));
    const bool none = gk == 0; /* every entry NaN: row j stays */
    if (TR) {
      unsigned long long t = clock64();
      tr[3] += t - t0;
      t0 = t;
    }
    {
      /* row j (offset jj < 32 <= NT) is in block 0 */
      const LeafShared<T, NT> *oj = V == 1 ? &sh : cl.map_shared_rank(&sh, 0);
      const T jv = oj->jrow[par][lane];
      T pv = jv;
      if (!none) {
        const LeafShared<T, NT> *op =
            V == 1 ? &sh : cl.map_shared_rank(&sh, (int)(gs / NW));
        pv = op->crow[par][gs % NW][lane];
      }
      sh.stage[warp][0][lane] = lane < W - jj ? pv : T(0);
      sh.stage[warp][1][lane] = pv;
      sh.stage[warp][2][lane] = jv;
    }
    __syncwarp();
    if (TR) {
      unsigned long long t = clock64();
      tr[4] += t - t0;
      t0 = t;
    }
    const T *prow = sh.stage[warp][0];
    const T piv = prow[0];
    const bool zero = piv == T(0);
    const int p = !zero && !none ? prow_off : jj;
    if (p != jj) {
      if (li == p) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = sh.stage[warp][2][k];
      } else if (li == jj) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = sh.stage[warp][1][k];
      }
    }
    if (li < rows && li > jj) {
      T l = r[0];
      if (!zero) l = l / piv;
#pragma unroll
      for (int k = 1; k < W; ++k)
        r[k - 1] = r[k] - l * prow[k];
      r[W - 1] = l;
      ++rot;
    }
    if (rank == 0 && tid == 0) {
      ipiv[c + jj] = c + p + 1;
      if (zero && first_zero == 0) first_zero = c + jj + 1;
    }
    __syncwarp(); /* stage is rewritten next column */
    if (TR) {
      unsigned long long t = clock64();
      tr[5] += t - t0;
    }
  }
  /* back to column order: W rotations in all */
  for (int t = rot % W; t != 0 && t < W; ++t)
    rotate1(r);
  if (li < rows) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < w) A[c + li + (c + k) * lda] = r[k];
  }
  if (rank == 0 && tid == 0 && first_zero != 0 && *info == 0)
    *info = first_zero;
  if (trt)
    for (int i = 0; i < 6; ++i)
      g_trace[i] = tr[i];
  if (V == 1)
    __syncthreads();
  else
    cl.sync(); /* no block leaves while another may read its shared memory */
}

/* ---- push variant: st.async into every block's shared memory + mbarrier */

__device__ __forceinline__ unsigned sm_addr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ unsigned cl_addr(unsigned a, int rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(r)
               : "r"(a), "r"(rank));
  return r;
}
__device__ __forceinline__ void push8(unsigned raddr, unsigned long long v,
                                      unsigned rbar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 "
               "[%0], %1, [%2];" ::"r"(raddr),
               "l"(v), "r"(rbar)
               : "memory");
}
__device__ __forceinline__ void push4(unsigned raddr, unsigned v,
                                      unsigned rbar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 "
               "[%0], %1, [%2];" ::"r"(raddr),
               "r"(v), "r"(rbar)
               : "memory");
}
__device__ __forceinline__ void push_val(unsigned ra, double v, unsigned rb) {
  push8(ra, (unsigned long long)__double_as_longlong(v), rb);
}
__device__ __forceinline__ void push_val(unsigned ra, float v, unsigned rb) {
  push4(ra, __float_as_uint(v), rb);
}
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}
__device__ __forceinline__ void mbar_expect(unsigned bar, unsigned bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster"
                 ".shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
}

template <typename T, int NT> struct alignas(16) PushShared {
  static constexpr int NW = NT / 32;
  unsigned long long bar[2];
  unsigned long long wkey[2][NW]; /* the block's warps: best key, row */
  int wrow[2][NW];
  T wcrow[2][NW][W];
  T wjrow[2][W];
  /* received from every block b of the cluster (pushed by b) */
  unsigned long long rkey[2][16];
  long long rrow[2][16];
  T rcrow[2][16][W];
  T rjrow[2][W];
};

template <typename T, int NT, bool TR>
__global__ void __launch_bounds__(NT, 1)
    leafp_kernel(T *A, int64_t lda, int64_t m, int64_t c, int w, int64_t *ipiv,
                 int64_t *info) {
  constexpr int NW = NT / 32;
  __shared__ PushShared<T, NT> sh;
  cg::cluster_group cl = cg::this_cluster();
  const int rank = (int)cl.block_rank(), CS = (int)cl.num_blocks();
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int li = rank * NT + tid;
  const int rows = (int)(m - c);
  if (tid == 0) {
    mbar_init(sm_addr(&sh.bar[0]), 1);
    mbar_init(sm_addr(&sh.bar[1]), 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  T r[W];
#pragma unroll
  for (int k = 0; k < W; ++k)
    r[k] = li < rows && k < w ? A[c + li + (c + k) * lda] : T(0);
  cl.sync(); /* every block's barriers ready before any push */
  const unsigned tx = (unsigned)(CS * (16 + W * sizeof(T)) + W * sizeof(T));
  int64_t first_zero = 0;
  int rot = 0;
  unsigned long long tr[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int jj = 0; jj < w; ++jj) {
    unsigned long long t0 = TR ? clock64() : 0;
    const int par = jj & 1;
    if (tid == 0) mbar_expect(sm_addr(&sh.bar[par]), tx);
    const bool act = li < rows && li >= jj;
    unsigned long long key = act ? mkey(r[0]) : 0ull;
    unsigned tag = act ? (unsigned)lane : 0xffffffffu;
    warp_max_key(key, tag);
    if (lane == (int)tag && key != 0) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        sh.wcrow[par][warp][k] = r[k];
    }
    if (lane == 0) {
      sh.wkey[par][warp] = key;
      sh.wrow[par][warp] = key != 0 ? li - lane + (int)tag : -1;
    }
    if (li == jj) {
#pragma unroll
      for (int k = 0; k < W; ++k)
        sh.wjrow[par][k] = r[k];
    }
    __syncthreads();
    if (TR) {
      unsigned long long t = clock64();
      tr[0] += t - t0;
      t0 = t;
    }
    if (warp == 0) { /* the block's best, pushed to every block */
      unsigned long long bk = lane < NW ? sh.wkey[par][lane] : 0ull;
      unsigned bw = lane < NW ? (unsigned)lane : 0xffffffffu;
      warp_max_key(bk, bw);
      const int wb = bk != 0 ? (int)bw : 0;
      const long long brow = bk != 0 ? sh.wrow[par][wb] : -1;
      const T cv = sh.wcrow[par][wb][lane];
      const T jv = sh.wjrow[par][lane];
      const unsigned lbar = sm_addr(&sh.bar[par]);
      const unsigned lrow = sm_addr(&sh.rcrow[par][rank][lane]);
      const unsigned ljr = sm_addr(&sh.rjrow[par][lane]);
      const unsigned lkey = sm_addr(&sh.rkey[par][rank]);
      const unsigned lrr = sm_addr(&sh.rrow[par][rank]);
      for (int d = 0; d < CS; ++d) {
        const unsigned rb = cl_addr(lbar, d);
        push_val(cl_addr(lrow, d), cv, rb);
        if (rank == 0) push_val(cl_addr(ljr, d), jv, rb);
        if (lane == 0) {
          push8(cl_addr(lkey, d), bk, rb);
          push8(cl_addr(lrr, d), (unsigned long long)brow, rb);
        }
      }
    }
    if (TR) {
      unsigned long long t = clock64();
      tr[1] += t - t0;
      t0 = t;
    }
    mbar_wait(sm_addr(&sh.bar[par]), (unsigned)(jj >> 1) & 1u);
    if (TR) {
      unsigned long long t = clock64();
      tr[2] += t - t0;
      t0 = t;
    }
    /* every warp: the best block (smallest rank on equal keys) */
    unsigned long long gk = lane < CS ? sh.rkey[par][lane] : 0ull;
    unsigned gs = lane < CS ? (unsigned)lane : 0xffffffffu;
    warp_max_key(gk, gs);
    const bool none = gk == 0;
    const int wr = none ? 0 : (int)gs;
    const int prow_off = none ? -1 : (int)sh.rrow[par][wr];
    const T *prow = sh.rcrow[par][wr];
    const T *jrow = sh.rjrow[par];
    const T piv = none ? jrow[0] : prow[0];
    const bool zero = piv == T(0);
    const int p = !zero && !none ? prow_off : jj;
    if (TR) {
      unsigned long long t = clock64();
      tr[3] += t - t0;
      t0 = t;
    }
    if (p != jj) {
      if (li == p) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = jrow[k];
      } else if (li == jj) {
#pragma unroll
        for (int k = 0; k < W; ++k)
          r[k] = prow[k];
      }
    }
    if (li < rows && li > jj) {
      T l = r[0];
      if (!zero) l = l / piv;
      const T *u = none ? jrow : prow;
#pragma unroll
      for (int k = 1; k < W; ++k)
        r[k - 1] = r[k] - (k < W - jj ? l * u[k] : T(0));
      r[W - 1] = l;
      ++rot;
    }
    if (rank == 0 && tid == 0) {
      ipiv[c + jj] = c + p + 1;
      if (zero && first_zero == 0) first_zero = c + jj + 1;
    }
    if (TR) {
      unsigned long long t = clock64();
      tr[5] += t - t0;
    }
  }
  for (int t = rot % W; t != 0 && t < W; ++t)
    rotate1(r);
  if (li < rows) {
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < w) A[c + li + (c + k) * lda] = r[k];
  }
  if (rank == 0 && tid == 0 && first_zero != 0 && *info == 0)
    *info = first_zero;
  if (TR && rank == 0 && tid == 0)
    for (int i = 0; i < 6; ++i)
      g_trace[i] = tr[i];
  cl.sync();
}

template <typename T, int NT, int V = 0, bool TR = false>
void leafw(T *A, int64_t lda, int64_t m, int64_t c, int w, int64_t *ipiv,
           int64_t *info, cudaStream_t st) {
  const int64_t rows = m - c;
  const int cs = (int)((rows + NT - 1) / NT);
  auto kern = V == 2 ? leafp_kernel<T, NT, TR> : leafw_kernel<T, NT, V, TR>;
  static bool once = false;
  if (!once) {
    CK(cudaFuncSetAttribute(kern,
                            cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    once = true;
  }
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = (unsigned)cs;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3((unsigned)cs);
  cfg.blockDim = dim3(NT);
  cfg.stream = st;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  CK(cudaLaunchKernelEx(&cfg, kern, A, lda, m, c, w, ipiv, info));
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

template <typename T> double eps() {
  return sizeof(T) == 8 ? 1.11e-16 : 5.96e-8;
}

/* ||P A - L U||_1 / (||A||_1 w eps) from the host copies. */
template <typename T>
double check(const std::vector<T> &A0, const std::vector<T> &F,
             const std::vector<int64_t> &ipiv, int64_t m, int w) {
  std::vector<T> P(A0);
  for (int j = 0; j < w; ++j) {
    const int64_t p = ipiv[j] - 1;
    if (p != j)
      for (int k = 0; k < w; ++k)
        std::swap(P[j + k * m], P[p + k * m]);
  }
  double an = 0, rn = 0;
  for (int k = 0; k < w; ++k) {
    double ca = 0, cr = 0;
    for (int64_t i = 0; i < m; ++i) {
      double lu = 0;
      for (int t = 0; t <= std::min<int64_t>(k, i); ++t) {
        const double l = t == i ? 1.0 : (double)F[i + t * m];
        lu += l * (double)F[t + k * m];
      }
      ca += fabs((double)A0[i + k * m]);
      cr += fabs((double)P[i + k * m] - lu);
    }
    an = std::max(an, ca);
    rn = std::max(rn, cr);
  }
  return rn / (an * w * eps<T>());
}

template <typename T> static float med(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T, int NT, int V = 0>
void run(int64_t m, int w, int kind, cusolverDnHandle_t sol, cudaStream_t st) {
  const int64_t lda = m;
  std::vector<T> A0((size_t)m * w);
  for (size_t i = 0; i < A0.size(); ++i)
    A0[i] =
        (T)((double)(mix(i + 12345 * m) >> 11) / 9007199254740992.0 * 2 - 1);
  if (kind == 1) /* a zero column and a NaN-free tie pattern */
    for (int64_t i = 0; i < m; ++i) {
      A0[i + 3 * m] = 0;
      A0[i + 5 * m] = (T)((i % 7) - 3);
    }
  T *dA, *dW;
  int64_t *dipiv, *dinfo;
  CK(cudaMalloc(&dA, A0.size() * sizeof(T)));
  CK(cudaMalloc(&dipiv, w * 8));
  CK(cudaMalloc(&dinfo, 8));
  CK(cudaMemset(dinfo, 0, 8));
  CK(cudaMemcpy(dA, A0.data(), A0.size() * sizeof(T), cudaMemcpyHostToDevice));
  leafw<T, NT, V>(dA, lda, m, 0, w, dipiv, dinfo, st);
  CK(cudaStreamSynchronize(st));
  CK(cudaGetLastError());
  std::vector<T> F(A0.size());
  std::vector<int64_t> ip(w);
  int64_t info;
  CK(cudaMemcpy(F.data(), dA, F.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ip.data(), dipiv, w * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&info, dinfo, 8, cudaMemcpyDeviceToHost));
  const double res = check<T>(A0, F, ip, m, w);
  std::vector<T> Fw = F;

  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timeit = [&](auto &&f) {
    std::vector<float> t;
    for (int r = 0; r < 21; ++r) {
      CK(cudaMemcpyAsync(dA, A0.data(), A0.size() * sizeof(T),
                         cudaMemcpyHostToDevice, st));
      CK(cudaEventRecord(e0, st));
      f();
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r) t.push_back(ms * 1000);
    }
    return med<T>(t);
  };
  const float t_w =
      timeit([&] { leafw<T, NT, V>(dA, lda, m, 0, w, dipiv, dinfo, st); });

  int lw = 0, *dip, *dinf;
  CK(cudaMalloc(&dip, w * sizeof(int)));
  CK(cudaMalloc(&dinf, sizeof(int)));
  if (sizeof(T) == 8)
    cusolverDnDgetrf_bufferSize(sol, (int)m, w, (double *)dA, (int)lda, &lw);
  else
    cusolverDnSgetrf_bufferSize(sol, (int)m, w, (float *)dA, (int)lda, &lw);
  CK(cudaMalloc(&dW, (size_t)(lw + 1) * sizeof(T)));
  auto cus = [&] {
    if (sizeof(T) == 8)
      cusolverDnDgetrf(sol, (int)m, w, (double *)dA, (int)lda, (double *)dW,
                       dip, dinf);
    else
      cusolverDnSgetrf(sol, (int)m, w, (float *)dA, (int)lda, (float *)dW, dip,
                       dinf);
  };
  const float t_cus = timeit(cus);
  CK(cudaMemcpyAsync(dA, A0.data(), A0.size() * sizeof(T),
                     cudaMemcpyHostToDevice, st));
  cus();
  CK(cudaStreamSynchronize(st));
  std::vector<int> ipc(w);
  std::vector<int64_t> ipc64(w);
  int cinfo = 0;
  CK(cudaMemcpy(F.data(), dA, F.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ipc.data(), dip, w * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&cinfo, dinf, sizeof(int), cudaMemcpyDeviceToHost));
  for (int j = 0; j < w; ++j)
    ipc64[j] = ipc[j];
  const double res_c = check<T>(A0, F, ipc64, m, w);
  int same = 0;
  for (int j = 0; j < w; ++j)
    same += ipc64[j] == ip[j];
  double maxdiff = 0;
  for (size_t i = 0; i < F.size(); ++i)
    maxdiff = std::max(maxdiff, fabs((double)F[i] - (double)Fw[i]));
  printf("%s V=%d NT=%d m=%6lld w=%2d kind=%d  leafw %7.1f us (%5.2f us/col)  "
         "cusolver %7.1f us  ratio %.2f | res %.3f (cus %.3f) same ipiv "
         "%d/%d info %lld (cus %d) max|F-Fcus| %.2e\n",
         sizeof(T) == 8 ? "d" : "s", V, NT, (long long)m, w, kind, t_w, t_w / w,
         t_cus, t_cus / t_w, res, res_c, same, w, (long long)info, cinfo,
         maxdiff);
  cudaFree(dA);
  cudaFree(dW);
  cudaFree(dip);
  cudaFree(dinf);
  cudaFree(dipiv);
  cudaFree(dinfo);
}

/* Per-column cycles of each phase (thread 0 of block 0), and the time. */
template <typename T, int NT, int V> void trace(int64_t m, cudaStream_t st) {
  const int w = W;
  std::vector<T> A0((size_t)m * w);
  for (size_t i = 0; i < A0.size(); ++i)
    A0[i] = (T)((double)(mix(i + 777 * m) >> 11) / 9007199254740992.0 * 2 - 1);
  T *dA;
  int64_t *dipiv, *dinfo;
  CK(cudaMalloc(&dA, A0.size() * sizeof(T)));
  CK(cudaMalloc(&dipiv, w * 8));
  CK(cudaMalloc(&dinfo, 8));
  CK(cudaMemset(dinfo, 0, 8));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ts;
  for (int r = 0; r < 11; ++r) {
    CK(cudaMemcpy(dA, A0.data(), A0.size() * sizeof(T),
                  cudaMemcpyHostToDevice));
    CK(cudaEventRecord(e0, st));
    leafw<T, NT, V, false>(dA, m, m, 0, w, dipiv, dinfo, st);
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r) ts.push_back(ms * 1000);
  }
  CK(cudaMemcpy(dA, A0.data(), A0.size() * sizeof(T), cudaMemcpyHostToDevice));
  leafw<T, NT, V, true>(dA, m, m, 0, w, dipiv, dinfo, st);
  CK(cudaStreamSynchronize(st));
  unsigned long long g[16];
  CK(cudaMemcpyFromSymbol(g, g_trace, sizeof(g)));
  printf("trace %s NT=%d V=%d m=%6lld: %.1f us; cycles/col: argmax %llu "
         "publish %llu barrier %llu reduce %llu rows %llu update %llu\n",
         sizeof(T) == 8 ? "d" : "s", NT, V, (long long)m, med<T>(ts), g[0] / w,
         g[1] / w, g[2] / w, g[3] / w, g[4] / w, g[5] / w);
  cudaFree(dA);
  cudaFree(dipiv);
  cudaFree(dinfo);
}

int main(int argc, char **argv) {
  std::vector<int64_t> ms;
  for (int i = 1; i < argc; ++i)
    ms.push_back(atoll(argv[i]));
  if (ms.empty()) ms = {33, 100, 512, 1000, 1024, 2048, 4096, 8192};
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  cusolverDnHandle_t sol;
  cusolverDnCreate(&sol);
  cusolverDnSetStream(sol, st);
  for (int64_t m : ms) {
    if (m <= 4096) run<double, 256, 0>(m, 32, 0, sol, st);
    if (m <= 4096) run<double, 256, 2>(m, 32, 0, sol, st);
    if (m <= 8192) run<double, 512, 2>(m, 32, 0, sol, st);
  }
  for (int64_t m : ms)
    if (m <= 4096) run<float, 256, 2>(m, 32, 0, sol, st);
  run<double, 256, 2>(1000, 32, 1, sol, st);
  run<double, 256, 2>(777, 19, 0, sol, st);
  run<float, 256, 2>(1000, 32, 1, sol, st);
  run<double, 256, 2>(5, 3, 0, sol, st);
  trace<double, 256, 2>(33, st);
  trace<double, 256, 2>(1024, st);
  trace<double, 256, 2>(4096, st);
  trace<double, 512, 2>(8192, st);
  cusolverDnDestroy(sol);
  return 0;
}
