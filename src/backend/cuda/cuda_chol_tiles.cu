/*
 * Cholesky by tiles in one launch (issue 21): the m x w lower trapezoid
 * at A (m >= w; upper storage: its transpose) cut into 64 x 64 tiles, one
 * thread block per tile, ordered by data flow instead of by launches.
 *
 * Tile (i, j), i >= j, is final when
 *     C := A(i,j) - sum_{k<j} L(i,k) L(j,k)^T            (left-looking)
 *     L(j,j) := chol(C)                                    (i == j)
 *     L(i,j) := C L(j,j)^-T                                (i > j)
 * so it needs the tiles (i,k) and (j,k) of every earlier tile column and,
 * below the diagonal, (j,j).  Each tile publishes a ready flag (release)
 * after its stores; a block waits for a flag (acquire) before it reads the
 * tile, through L2.  Blocks take their tile from a ticket counter in
 * column order (0,0), (1,0), ..., (1,1), (2,1), ...: every dependency has
 * an earlier ticket, whose block is already resident or done, so the
 * waits cannot deadlock whatever the hardware's block order.
 *
 * Why: cuSOLVER's dpotrf is one such kernel (its timeline, issue 21), and
 * axb's launch-per-step chain (diagonal kernel, TRSM, SYRK per 64 columns)
 * left 0.4-0.7x of it on the table at n <= 8192.
 *
 * Inside a tile the factorisation and the off-diagonal solve go by
 * 8-column blocks (tile_chol8, tile_solve8): a short forward substitution
 * per row in registers, then a rank-8 update on tensor cores, two barriers
 * per 8 columns.  The first version swept one column per barrier
 * (tile_sweep, in git history before 2026-11-26's fifth session): 0.57x
 * cuSOLVER at n = 1024 with ~21 us in the diagonal tile and ~16 us in the next
 * tile's solve of every 64 columns on the critical path; by blocks they take
 * ~10 and ~6 us, and dpotrf is 0.95-1.2x cuSOLVER (docs/notes/dense-gpu.md).
 *
 * Failure (a minor not positive, or NaN): the diagonal tile sets *info =
 * off + column + 1 (the smallest wins) and still publishes its flag; tiles
 * of that column or later then skip their work, earlier ones finish, so
 * the leading minor's factor is complete as in LAPACK.  An *info already
 * set when a tile starts (an earlier launch failed) makes it skip too.
 */
#include "cuda_chol_tiles.h"
#include "cuda_sync.cuh"

#include <cstdio>
#include <vector>

namespace axb_cuda {

namespace {

constexpr int kT = kTileEdge; /* tile edge */
/* Shared-memory column stride: 68 = 4 mod 16 doubles, so that the 16
   lanes of a half-warp loading an mma fragment (4 columns x 4 rows) hit
   16 different banks; 65 (the usual odd pad) gave 4-way conflicts and a
   64 x 64 x 64 product of 3.6 us (tile trace, H100). */
constexpr int kLD = kT + 4;
constexpr int kTh = 256; /* threads per tile */

__device__ __forceinline__ int64_t ld_volatile(const int64_t *p) {
  return *(const volatile int64_t *)p;
}
__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

template <typename T> struct TileArgs {
  int64_t m, w; /* trapezoid rows, columns */
  T *A;
  int64_t lda;
  int upper;
  int64_t off; /* global column of A's first column (for info) */
  int64_t *info;
  unsigned *flags; /* Tr * Tc ready flags, then the ticket counter; zeroed */
  int Tr, Tc;
  unsigned long long *trace; /* AXB_CUDA_TILE_TRACE: kStamps per tile */
};
/* A tile's time stamps (a study aid): start, early updates done, last input
   ready, updates done, factor or solve done, published; then the diagonal
   tile's first 8-column block factored and its first update done, or the
   off-diagonal tile's L(j,j) loaded. */
constexpr int kStamps = 8;

/* Global element (r, c) of the lower factor (upper storage: transposed). */
template <typename T>
__device__ __forceinline__ T *el(const TileArgs<T> &a, int64_t r, int64_t c) {
  return a.upper ? a.A + c + r * a.lda : a.A + r + c * a.lda;
}

/* One tile in registers between its global load and its shared store:
   thread t holds elements t + kTh q, so the kTile^2 / kTh loads of a tile
   are all in flight at once (one L2 latency per tile, not sixteen). */
constexpr int kPer = kT * kT / kTh;
template <typename T> struct TileRegs { T v[kPer]; };

/* Thread t's elements of a tile: f = t % kT along the contiguous
   direction of storage and s = t / kT + 4q across it (kTh is a multiple of
   kT), so element q lies q * 4 * lda past the first: (row, col) = (f, s)
   for lower storage, (s, f) for upper. */
struct TileWalk {
  int f, s0;
  __device__ TileWalk() : f(threadIdx.x % kT), s0(threadIdx.x / kT) {}
};

/* r := tile (ti, tj) of L, zeros outside the trapezoid; diag: strictly
   upper part zero and padded diagonal one.  Through L2 (another SM wrote
   it), coalesced on both storages. */
template <typename T>
__device__ __forceinline__ void fetch(TileRegs<T> &r, const TileArgs<T> &a,
                                      int ti, int tj, bool diag) {
  const TileWalk w;
  const int64_t r0 = (int64_t)ti * kT, c0 = (int64_t)tj * kT;
  const T *p = el(a, r0 + (a.upper ? w.s0 : w.f), c0 + (a.upper ? w.f : w.s0));
  const int64_t step = 4 * a.lda;
  const bool fixed_in = a.upper ? c0 + w.f < a.w : r0 + w.f < a.m;
  const int64_t slow_end = a.upper ? a.m - r0 : a.w - c0;
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int sl = w.s0 + 4 * q;
    const int rr = a.upper ? sl : w.f, cc = a.upper ? w.f : sl;
    T v = T(0);
    if (fixed_in && sl < slow_end && (!diag || rr >= cc))
      v = __ldcg(p + q * step);
    if (diag && rr == cc && c0 + cc >= a.w) v = T(1);
    r.v[q] = v;
  }
}
/* s (column-major, stride kLD) := r. */
template <typename T>
__device__ __forceinline__ void put(const TileRegs<T> &r, T *s, int upper) {
  const TileWalk w;
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    const int sl = w.s0 + 4 * q;
    s[upper ? w.f * kLD + sl : sl * kLD + w.f] = r.v[q];
  }
}

/* Tile (ti, tj) of L := s (inside the trapezoid; diag: lower part only). */
template <typename T>
__device__ void store_tile(const T *s, const TileArgs<T> &a, int ti, int tj,
                           bool diag) {
  const TileWalk w;
  const int64_t r0 = (int64_t)ti * kT, c0 = (int64_t)tj * kT;
  T *p = el(a, r0 + (a.upper ? w.s0 : w.f), c0 + (a.upper ? w.f : w.s0));
  const int64_t step = 4 * a.lda;
  const bool fixed_in = a.upper ? c0 + w.f < a.w : r0 + w.f < a.m;
  const int64_t slow_end = a.upper ? a.m - r0 : a.w - c0;
#pragma unroll 4
  for (int q = 0; q < kPer; ++q) {
    const int sl = w.s0 + 4 * q;
    const int rr = a.upper ? sl : w.f, cc = a.upper ? w.f : sl;
    if (fixed_in && sl < slow_end && (!diag || rr >= cc))
      __stcg(p + q * step, s[cc * kLD + rr]);
  }
}

/*
 * A tile's accumulator: 16 entries per thread.  Entry (p, q) is element
 * (row(p), col(q)) of the 64 x 64 tile: for double the layout of the FP64
 * tensor-core product (mma m8n8k4: warp w owns rows 32 (w % 2) .. + 32 and
 * columns 16 (w / 2) .. + 16, lane l the rows 8p + l / 4 and columns
 * 8 (q / 2) + 2 (l % 4) + q % 2); for float a 16 x 16 thread grid with
 * stride 16 (FP32 has no faster path than the FMA units).
 */
template <typename T> struct AccMap {
  int r0, c0;
  __device__ AccMap() {
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    if (sizeof(T) == 8) {
      r0 = (warp % 2) * 32 + lane / 4;
      c0 = (warp / 2) * 16 + 2 * (lane % 4);
    } else {
      r0 = tid % 16;
      c0 = tid / 16;
    }
  }
  __device__ int row(int p) const { return r0 + (sizeof(T) == 8 ? 8 : 16) * p; }
  __device__ int col(int q) const {
    return sizeof(T) == 8 ? c0 + 8 * (q / 2) + q % 2 : c0 + 16 * q;
  }
};

__device__ __forceinline__ void dmma(double &c0, double &c1, double a,
                                     double b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, "
               "{%2}, {%3}, {%0,%1};"
               : "+d"(c0), "+d"(c1)
               : "d"(a), "d"(b));
}

/* acc -= X Y^T (sum_k X(r,k) Y(c,k)) for two column-major shared tiles,
   the product summed apart and then subtracted, so that the rounding error
   of an entry grows with the tile edge plus the number of tiles, not with
   the whole column count (as a blocked right-looking update's).  Double:
   FP64 tensor cores (A fragment X(r, k0 + l % 4), B fragment Y(c, k0 +
   l % 4)); float: FMA units. */
__device__ __forceinline__ void tile_gemm_nt(double (&acc)[4][4],
                                             const double *X, const double *Y) {
  const AccMap<double> m;
  const int lane = threadIdx.x % 32, kk = lane % 4;
  const int rb = m.r0, cb = m.c0 - 2 * (lane % 4) + lane / 4;
  double part[4][4] = {};
#pragma unroll 4
  for (int k0 = 0; k0 < kT; k0 += 4) {
    double x[4], y[2];
#pragma unroll
    for (int p = 0; p < 4; ++p)
      x[p] = X[(k0 + kk) * kLD + rb + 8 * p];
#pragma unroll
    for (int n = 0; n < 2; ++n)
      y[n] = Y[(k0 + kk) * kLD + cb + 8 * n];
#pragma unroll
    for (int p = 0; p < 4; ++p)
#pragma unroll
      for (int n = 0; n < 2; ++n)
        dmma(part[p][2 * n], part[p][2 * n + 1], x[p], y[n]);
  }
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      acc[p][q] -= part[p][q];
}
__device__ __forceinline__ void tile_gemm_nt(float (&acc)[4][4], const float *X,
                                             const float *Y) {
  const AccMap<float> m;
  float part[4][4] = {};
#pragma unroll 8
  for (int k = 0; k < kT; ++k) {
    float x[4], y[4];
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      x[p] = X[k * kLD + m.row(p)];
      y[p] = Y[k * kLD + m.col(p)];
    }
#pragma unroll
    for (int p = 0; p < 4; ++p)
#pragma unroll
      for (int q = 0; q < 4; ++q)
        part[p][q] = fmaf(x[p], y[q], part[p][q]);
  }
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      acc[p][q] -= part[p][q];
}

template <typename T>
__device__ __forceinline__ void acc_from(T (&acc)[4][4], const T *s) {
  const AccMap<T> m;
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      acc[p][q] = s[m.col(q) * kLD + m.row(p)];
}
template <typename T>
__device__ __forceinline__ void acc_to(const T (&acc)[4][4], T *s) {
  const AccMap<T> m;
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      s[m.col(q) * kLD + m.row(p)] = acc[p][q];
}

/*
 * The diagonal tile's Cholesky by 8-column blocks, two
 * barriers per block instead of one per column.  For the block at column
 * o (o < nv):
 *   1. every thread of a row r >= o loads the 8 x 8 diagonal block
 *      S(o:o+8, o:o+8) and factors it in registers (chol8: all callers
 *      get the same L11 and the same verdict, so no barrier), then solves
 *      its own row, x L11^T = S(r, o:o+8), by forward substitution — rows
 *      inside the block come out as L11's rows, rows below as L21's (the
 *      same operations in the same order as chol8's: bitwise the same);
 *      the rows go to P (the final factor), not to S, because other
 *      threads still read S's diagonal block;
 *   2. S(o+8:, o+8:) -= P(o+8:, o:o+8) P(o+8:, o:o+8)^T on the lower 8 x 8
 *      blocks (FP64 tensor cores; FMA units in float).
 * Columns from nv on are padding (or, in a trapezoid's diagonal tile,
 * columns that belong to no one): never pivots, zero in P.
 */
template <typename T> struct Chol8 {
  T d[36]; /* L11(i, c) at i (i + 1) / 2 + c, c <= i */
  T rinv[8];
  int bad; /* first column whose pivot is not positive (or NaN), else 8 */
};

__device__ __forceinline__ constexpr int tri(int i, int c) {
  return i * (i + 1) / 2 + c;
}

template <typename T>
__device__ __forceinline__ void chol8(Chol8<T> &f, const T *S, int o, int nv) {
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int c = 0; c <= i; ++c)
      f.d[tri(i, c)] = S[(o + c) * kLD + o + i];
  f.bad = 8;
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    f.rinv[c] = T(0);
    if (o + c >= nv) continue;
    const T p = f.d[tri(c, c)];
    if (!(p > T(0)) && f.bad == 8) f.bad = c;
    const T r = p > T(0) ? rsqrt(p) : T(0);
    f.rinv[c] = r;
#pragma unroll
    for (int i = c; i < 8; ++i)
      f.d[tri(i, c)] *= r;
#pragma unroll
    for (int k = c + 1; k < 8; ++k)
#pragma unroll
      for (int i = k; i < 8; ++i)
        f.d[tri(i, k)] = fma(-f.d[tri(i, c)], f.d[tri(k, c)], f.d[tri(i, k)]);
  }
}

/* Row r's 8 entries of block column o into P: x L11^T = S(r, o:o+8) by
   forward substitution; rel = r - o for a row of the diagonal tile (its
   entries above the diagonal come out zero), 8 for a row of an
   off-diagonal tile. */
template <typename T>
__device__ __forceinline__ void chol8_row(const Chol8<T> &f, const T *S, T *P,
                                          int o, int r, int rel) {
  T x[8];
#pragma unroll
  for (int c = 0; c < 8; ++c)
    x[c] = S[(o + c) * kLD + r];
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    T v = x[c];
#pragma unroll
    for (int k = 0; k < c; ++k)
      v = fma(-x[k], f.d[tri(c, k)], v);
    v *= f.rinv[c];            /* zero on padding */
    x[c] = c > rel ? T(0) : v; /* above the diagonal */
    P[(o + c) * kLD + r] = x[c];
  }
}

/* S(:, o+8:) -= A(:, o:o+8) B(o+8:, o:o+8)^T: LOWER, the diagonal tile's
   trailing update (rows from o + 8, lower 8 x 8 blocks only; A = B = P);
   else an off-diagonal tile's (all 64 rows; A = its solved columns, B =
   L(j,j)).  Double: one 8 x 8 block per warp at a time, two mma.m8n8k4
   (fragments as in tile_gemm_nt; with kLD = 4 mod 16 the A and B
   fragments' half-warps hit 16 different banks); float: FMA units. */
template <bool LOWER>
__device__ __forceinline__ void rank8_update(double *S, const double *A,
                                             const double *B, int o) {
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const int t = (kT - o - 8) / 8; /* trailing block columns */
  const int nblk = LOWER ? t * (t + 1) / 2 : 8 * t;
  for (int idx = w; idx < nblk; idx += kTh / 32) {
    int cc = idx / 8, rb = 8 * (idx % 8); /* warp w: row block w */
    if (LOWER) {
      int rem = idx;
      cc = 0;
      while (rem >= t - cc) {
        rem -= t - cc;
        ++cc;
      }
      rb = o + 8 + 8 * (cc + rem);
    }
    const int cb = o + 8 + 8 * cc;
    const int r = rb + lane / 4, c = cb + 2 * (lane % 4);
    double c0 = S[c * kLD + r], c1 = S[(c + 1) * kLD + r];
#pragma unroll
    for (int kk = 0; kk < 8; kk += 4) {
      const int k = o + kk + lane % 4;
      dmma(c0, c1, -A[k * kLD + r], B[k * kLD + cb + lane / 4]);
    }
    S[c * kLD + r] = c0;
    S[(c + 1) * kLD + r] = c1;
  }
}
template <bool LOWER>
__device__ __forceinline__ void rank8_update(float *S, const float *A,
                                             const float *B, int o) {
  const int c = threadIdx.x / 4, g = threadIdx.x % 4;
  if (c < o + 8) return;
  float bc[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    bc[k] = B[(o + k) * kLD + c];
  for (int r = (LOWER ? c : 0) + g; r < kT; r += 4) {
    float v = S[c * kLD + r];
#pragma unroll
    for (int k = 0; k < 8; ++k)
      v = fmaf(-A[(o + k) * kLD + r], bc[k], v);
    S[c * kLD + r] = v;
  }
}

/* The diagonal tile S factored into P (lower part; on a failure the
   columns from the failing one on keep S's partly updated values, the
   factorisation not completed, as LAPACK leaves them).  Returns the first
   column whose pivot is not positive (or NaN), else nv; block-uniform. */
template <typename T>
__device__ int tile_chol8(T *S, T *P, int nv, int *s_fail,
                          unsigned long long *stamp) {
  const int tid = threadIdx.x;
  if (tid == 0) *s_fail = nv;
  int o = 0;
#pragma unroll 1
  for (; o < nv; o += 8) {
    if (tid >= o && tid < kT) {
      Chol8<T> f;
      chol8(f, S, o, nv);
      if (f.bad < 8 && tid == o) *s_fail = o + f.bad;
      chol8_row(f, S, P, o, tid, tid - o);
    }
    __syncthreads();
    if (stamp && o == 0) stamp[6] = now_ns();
    if (*s_fail < nv) break; /* uniform after the barrier */
    rank8_update<true>(S, P, P, o);
    __syncthreads();
    if (stamp && o == 0) stamp[7] = now_ns();
  }
  const int bad = *s_fail;
  if (bad < nv) /* the failed block's columns from the bad one on: S's */
    for (int e = tid; e < kT * kT; e += kTh) {
      const int r = e % kT, c = e / kT;
      if (c >= bad) P[c * kLD + r] = S[c * kLD + r];
    }
  __syncthreads();
  return bad;
}

/*
 * An off-diagonal tile's solve X = C L^-T, in place on the
 * shared tile S, by 8-column blocks: each thread of a row solves its 8
 * entries against the 8 x 8 diagonal block of L (chol8_row, L and rinv =
 * 1 / diag L read from shared memory), then the block's columns update
 * the later ones (rank8_update), two barriers per block: a true
 * triangular solve (backward stable, unlike one through L^-1) whose
 * dependent chain per block is one short forward substitution.
 */
template <typename T>
__device__ void tile_solve8(T *S, const T *L, const T *rinv, int nv) {
  const int tid = threadIdx.x;
#pragma unroll 1
  for (int o = 0; o < nv; o += 8) {
    if (tid < kT) {
      Chol8<T> f;
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int c = 0; c <= i; ++c)
          f.d[tri(i, c)] = L[(o + c) * kLD + o + i];
#pragma unroll
      for (int c = 0; c < 8; ++c)
        f.rinv[c] = rinv[o + c];
      chol8_row(f, S, S, o, tid, 8);
    }
    __syncthreads();
    rank8_update<false>(S, S, L, o);
    __syncthreads();
  }
}

/* Thread 0 waits for the flag (acquire); the caller's __syncthreads then
   orders the block's reads of the tile (through L2) after it. */
__device__ __forceinline__ void wait_flag(const unsigned *f) {
  if (threadIdx.x == 0)
    while (ld_acquire(f) == 0)
      __nanosleep(32);
}

template <typename T>
__global__ void __launch_bounds__(kTh, 2) potrf_tiles_kernel(TileArgs<T> a) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T *sX = (T *)smem_raw; /* C, then L(j,j) or the solve's X */
  T *sY = sX + kT * kLD; /* L(j,k), or L(j,j) */
  __shared__ T s_rinv[kT];
  __shared__ int s_i, s_j, s_skip, s_fail;
  const int tid = threadIdx.x;
  unsigned *ticket = a.flags + (int64_t)a.Tr * a.Tc;
  if (tid == 0) {
    int t = (int)atomicAdd(ticket, 1u), j = 0;
    while (t >= a.Tr - j) { /* column j holds tiles j .. Tr-1 */
      t -= a.Tr - j;
      ++j;
    }
    s_i = j + t;
    s_j = j;
  }
  __syncthreads();
  const int i = s_i, j = s_j;
  const bool diag = i == j;
  unsigned long long *stamp = a.trace && tid == 0
                                  ? a.trace + kStamps * ((int64_t)i * a.Tc + j)
                                  : nullptr;
  if (stamp) stamp[0] = now_ns();
  const unsigned *fi = a.flags + (int64_t)i * a.Tc,
                 *fj = a.flags + (int64_t)j * a.Tc;
  /* first column of tile column j, local to the trapezoid */
  const int64_t cj = (int64_t)j * kT;
  const int nv = (int)(a.w - cj < kT ? a.w - cj : kT); /* valid columns */
  auto skipped = [&]() { /* by thread 0: an earlier minor failed */
                         const int64_t f = ld_volatile(a.info);
                         return f != 0 && f - a.off - 1 < cj + kT;
  };
  if (tid == 0) s_skip = skipped();
  __syncthreads();
  T acc[4][4];
  if (!s_skip) {
    TileRegs<T> rx, ry;
    fetch(rx, a, i, j, diag);
    put(rx, sX, a.upper);
    __syncthreads();
    acc_from(acc, sX);
    /* step k: wait for tiles (i,k) and (j,k), load them (all loads of a
       tile in flight at once), multiply */
    for (int k = 0; k < j; ++k) {
      if (stamp && k == j - 1) stamp[1] = now_ns();
      wait_flag(fi + k);
      if (!diag) wait_flag(fj + k);
      if (stamp && diag && k == j - 1) stamp[2] = now_ns();
      __syncthreads(); /* also: the previous product's reads are done */
      fetch(rx, a, i, k, false);
      if (!diag) fetch(ry, a, j, k, false);
      put(rx, sX, a.upper);
      if (!diag) put(ry, sY, a.upper);
      __syncthreads();
      tile_gemm_nt(acc, sX, diag ? sX : sY);
    }
    if (stamp && !diag) stamp[1] = stamp[1] ? stamp[1] : now_ns();
    if (!diag) wait_flag(fj + j);
    if (stamp && !diag) stamp[2] = now_ns();
    if (tid == 0 && skipped()) s_skip = 1; /* column j failed */
    __syncthreads();
    if (stamp) stamp[3] = now_ns();
  }
  if (!s_skip && diag) {
    acc_to(acc, sX);
    __syncthreads();
    const int bad = tile_chol8<T>(sX, sY, nv, &s_fail, stamp); /* into sY */
    if (bad < nv && tid == 0) { /* the smallest failing column wins */
      unsigned long long v = (unsigned long long)(a.off + cj + bad + 1);
      unsigned long long *p = (unsigned long long *)a.info;
      unsigned long long old = *(volatile unsigned long long *)p;
      while (old == 0 || v < old) {
        unsigned long long prev = atomicCAS(p, old, v);
        if (prev == old) break;
        old = prev;
      }
    }
    if (stamp) stamp[4] = now_ns();
    store_tile(sY, a, i, j, true); /* on failure: the columns as LAPACK */
  } else if (!s_skip) {
    TileRegs<T> rl;
    fetch(rl, a, j, j, true);
    acc_to(acc, sX); /* C */
    put(rl, sY, a.upper);
    __syncthreads();
    /* X = C L^-T by 8-column blocks */
    if (tid < kT) s_rinv[tid] = T(1) / sY[tid * kLD + tid];
    __syncthreads();
    if (stamp) stamp[6] = now_ns();
    tile_solve8(sX, sY, s_rinv, nv);
    __syncthreads();
    if (stamp) stamp[4] = now_ns();
    store_tile(sX, a, i, j, false);
  }
  /* publish: the block's stores, then the flag; the barrier orders them
     before thread 0's release at device scope (as CUTLASS's semaphore) */
  __syncthreads();
  if (tid == 0) st_release(a.flags + (int64_t)i * a.Tc + j, 1u);
  if (stamp) stamp[5] = now_ns();
}

int tile_count(int64_t v) { return (int)((v + kT - 1) / kT); }

} // namespace

size_t potrf_tiles_flags(int64_t m, int64_t w) {
  return (size_t)tile_count(m) * (size_t)tile_count(w) + 1;
}

template <typename T>
static axb_status write_trace(axb_handle h, cudaStream_t st,
                              const TileArgs<T> &a, const char *file,
                              size_t tb) {
  std::vector<unsigned long long> t(tb / sizeof(unsigned long long));
  AXB_CU(h, cudaStreamSynchronize(st));
  AXB_CU(h, cudaMemcpy(t.data(), a.trace, tb, cudaMemcpyDeviceToHost));
  AXB_CU(h, cudaFree(a.trace));
  if (FILE *f = fopen(file, "a")) {
    fprintf(f, "# launch m=%lld w=%lld\n", (long long)a.m, (long long)a.w);
    for (int ti = 0; ti < a.Tr; ++ti)
      for (int tj = 0; tj < a.Tc && tj <= ti; ++tj) {
        const unsigned long long *q = &t[kStamps * ((size_t)ti * a.Tc + tj)];
        fprintf(f, "%d %d", ti, tj);
        for (int e = 0; e < kStamps; ++e)
          fprintf(f, " %llu", q[e]);
        fprintf(f, "\n");
      }
    fclose(f);
  }
  return AXB_SUCCESS;
}

template <typename T>
axb_status potrf_tiles(axb_handle h, cudaStream_t st, axb_uplo uplo, int64_t m,
                       int64_t w, T *A, int64_t lda, int64_t off, int64_t *info,
                       unsigned *flags) {
  if (w <= 0) return AXB_SUCCESS;
  if (m < w)
    return axb__fail(h, AXB_ERR_INTERNAL, "potrf_tiles: %lld rows < %lld",
                     (long long)m, (long long)w);
  TileArgs<T> a;
  a.m = m;
  a.w = w;
  a.A = A;
  a.lda = lda;
  a.upper = uplo == AXB_UPPER;
  a.off = off;
  a.info = info;
  a.flags = flags;
  a.Tr = tile_count(m);
  a.Tc = tile_count(w);
  /* tiles: column j holds Tr - j of them */
  const int64_t tiles = (int64_t)a.Tc * a.Tr - (int64_t)a.Tc * (a.Tc - 1) / 2;
  const size_t smem = 2 * (size_t)kT * kLD * sizeof(T);
  /* every launch: the attribute belongs to the current device */
  auto kern = potrf_tiles_kernel<T>;
  AXB_CU(h, cudaFuncSetAttribute(
                kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  /* AXB_CUDA_TILE_TRACE=file (a study aid): every launch's per-tile time
     stamps appended to file ("i j" and kStamps ns stamps); synchronises */
  static const char *trace_file = getenv("AXB_CUDA_TILE_TRACE");
  const size_t tb = (size_t)a.Tr * a.Tc * kStamps * sizeof(unsigned long long);
  a.trace = nullptr;
  if (trace_file) {
    AXB_CU(h, cudaMalloc(&a.trace, tb));
    AXB_CU(h, cudaMemset(a.trace, 0, tb));
  }
  kern<<<(unsigned)tiles, kTh, smem, st>>>(a);
  AXB_CU(h, cudaGetLastError());
  if (trace_file) return write_trace(h, st, a, trace_file, tb);
  return AXB_SUCCESS;
}

template axb_status potrf_tiles<float>(axb_handle, cudaStream_t, axb_uplo,
                                       int64_t, int64_t, float *, int64_t,
                                       int64_t, int64_t *, unsigned *);
template axb_status potrf_tiles<double>(axb_handle, cudaStream_t, axb_uplo,
                                        int64_t, int64_t, double *, int64_t,
                                        int64_t, int64_t *, unsigned *);

} // namespace axb_cuda
