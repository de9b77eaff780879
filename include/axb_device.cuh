/*
 * axb_device.cuh — dense solvers callable from inside a user's CUDA kernel
 * (header-only, C++ / CUDA, no library to link).  Include it in a .cu file.
 *
 * Two kinds of functions, float and double (template T), the matrix order n
 * chosen at run time up to a compile-time bound NMAX:
 *
 * Per thread (one matrix per thread, tiny n): the matrix lives in a local
 * array `T a[NMAX * NMAX]`, column-major with leading dimension NMAX, that
 * the compiler keeps in registers (every index is a compile-time constant
 * after unrolling; keep NMAX <= 8 in double, <= 12 in float).
 *     thread_getrf, thread_getrs, thread_inverse, thread_potrf, thread_potrs
 *
 * Cooperative (one matrix per group of threads, larger n): thread `lane` of
 * the group holds row `lane` of the matrix in registers and the group talks
 * through warp shuffles (Warp<G>, G = 2, 4, ..., 32 lanes, n <= G), through
 * warp shuffles and a shared-memory slot per group (WarpShared<G, T, NMAX>,
 * faster) or through a small shared-memory workspace (Block<NW>: the whole
 * block, NW warps, n <= 32 * NW).  Row interchanges move no data: a lane keeps
 * its row and changes its position label.  The functions read and write the
 * matrix in any memory (global or shared), leading dimension lda: group_getrf,
 * group_getrs, group_gesv, group_inverse, group_potrf, group_potrs, group_posv
 * Every lane of the group must call them together with the same arguments.
 *
 * Statuses: every factorization returns the per-matrix info of LAPACK: 0, or
 * k (1-based) for the first exactly zero pivot U(k,k) (LU, inverse) or the
 * first leading minor that is not positive definite (Cholesky).  getrf
 * completes the factorization when U is singular (as LAPACK); the inverse,
 * gesv and posv leave A (inverse) or B (gesv, posv) unchanged then.  Pivot
 * arrays are 1-based (LAPACK): row i was interchanged with row ipiv[i].
 *
 * The same functions run behind the batched API of axb.h on CUDA handles
 * (axb_dgesv_batched, ...); examples/kalman/kalman.cu shows a user kernel.
 */
#ifndef AXB_DEVICE_CUH
#define AXB_DEVICE_CUH

#include <stdint.h>

namespace axb_dev {

template <typename T> __device__ __forceinline__ T absval(T x) {
  return x < T(0) ? -x : x;
}
__device__ __forceinline__ double sqrt_(double x) { return sqrt(x); }
__device__ __forceinline__ float sqrt_(float x) { return sqrtf(x); }

/* ======================================================================== */
/* Per thread: a[i + j * NMAX], n <= NMAX                                   */
/* ======================================================================== */

/* LU with partial pivoting, in place (L unit lower below, U on and above
   the diagonal); ipiv[0..n) 1-based.  Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_getrf(int n, T (&a)[NMAX * NMAX],
                                            int (&ipiv)[NMAX]) {
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      int p = k;
      T best = absval(a[k + k * NMAX]);
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        const T v = absval(a[i + k * NMAX]);
        if (i < n && v > best) {
          best = v;
          p = i;
        }
      }
      ipiv[k] = p + 1;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < NMAX; ++j) {
            const T t = a[k + j * NMAX];
            a[k + j * NMAX] = a[i + j * NMAX];
            a[i + j * NMAX] = t;
          }
        }
      }
      const T piv = a[k + k * NMAX];
      if (piv == T(0)) {
        if (!info) info = k + 1;
      } else {
        const T r = T(1) / piv;
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + k * NMAX] *= r;
      }
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T u = a[k + j * NMAX];
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * u;
      }
    }
  }
  return info;
}

/* Solve A x = b with thread_getrf's factors; b[0..n) becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_getrs(int n, const T (&a)[NMAX * NMAX],
                                             const int (&ipiv)[NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int p = ipiv[k] - 1;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
          const T t = b[k];
          b[k] = b[i];
          b[i] = t;
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
#pragma unroll
    for (int i = k + 1; i < NMAX; ++i)
      b[i] -= a[i + k * NMAX] * b[k];
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = 0; i < k; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
}

/* Inverse in place (Gauss-Jordan with partial pivoting).  Returns info; a is
   unspecified when info > 0 (keep a copy if you need it). */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_inverse(int n, T (&a)[NMAX * NMAX]) {
  int piv[NMAX];
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    piv[k] = k;
    if (k < n) {
      int p = k;
      T best = absval(a[k + k * NMAX]);
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        const T v = absval(a[i + k * NMAX]);
        if (i < n && v > best) {
          best = v;
          p = i;
        }
      }
      piv[k] = p;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < NMAX; ++j) {
            const T t = a[k + j * NMAX];
            a[k + j * NMAX] = a[i + j * NMAX];
            a[i + j * NMAX] = t;
          }
        }
      }
      const T d = a[k + k * NMAX];
      if (d == T(0)) return k + 1;
      const T r = T(1) / d;
      a[k + k * NMAX] = T(1);
#pragma unroll
      for (int j = 0; j < NMAX; ++j)
        a[k + j * NMAX] *= r;
#pragma unroll
      for (int i = 0; i < NMAX; ++i) {
        if (i != k) {
          const T f = a[i + k * NMAX];
          a[i + k * NMAX] = T(0);
#pragma unroll
          for (int j = 0; j < NMAX; ++j)
            a[i + j * NMAX] -= f * a[k + j * NMAX];
        }
      }
    }
  }
  /* Undo the row interchanges on the columns, last first. */
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
#pragma unroll
    for (int j = k + 1; j < NMAX; ++j) {
      if (j == piv[k]) {
#pragma unroll
        for (int i = 0; i < NMAX; ++i) {
          const T t = a[i + k * NMAX];
          a[i + k * NMAX] = a[i + j * NMAX];
          a[i + j * NMAX] = t;
        }
      }
    }
  }
  return 0;
}

/* Cholesky A = L L^T in place (lower triangle referenced and written).
   Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_potrf(int n, T (&a)[NMAX * NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const T d = a[k + k * NMAX];
      if (!(d > T(0))) return k + 1;
      const T s = sqrt_(d), r = T(1) / s;
      a[k + k * NMAX] = s;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        a[i + k * NMAX] *= r;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T l = a[j + k * NMAX];
#pragma unroll
        for (int i = j; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * l;
      }
    }
  }
  return 0;
}

/* Solve A x = b with thread_potrf's factor; b becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_potrs(int n, const T (&a)[NMAX * NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      T s = b[k];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        if (i < n) s -= a[i + k * NMAX] * b[i];
      b[k] = s / a[k + k * NMAX];
    }
  }
}

/* ======================================================================== */
/* Groups: how the lanes of one matrix talk                                 */
/* ======================================================================== */

/* Better candidate: larger magnitude; on ties the smaller position (LAPACK
   takes the first). */
template <typename T>
__device__ __forceinline__ bool better(T v, int p, T bv, int bp) {
  return v > bv || (v == bv && p < bp);
}

/* G consecutive lanes of a warp (G a power of two <= 32), by shuffles. */
template <int G> struct Warp {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: 1..32, 2^k");
  static constexpr int size = G;
  unsigned mask;
  int lane;
  __device__ Warp() {
    const int l = (int)(threadIdx.x & 31);
    lane = l & (G - 1);
    mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (l & ~(G - 1));
  }
  template <typename T> __device__ __forceinline__ T shfl(T v, int src) const {
    return __shfl_sync(mask, v, src, G);
  }
  /* Winner lane of (v, pos) over the group, and its pos. */
  template <typename T>
  __device__ __forceinline__ int argmax(T v, int pos, int &wpos) const {
    int wl = lane;
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {
      const T ov = __shfl_xor_sync(mask, v, o, G);
      const int op = __shfl_xor_sync(mask, pos, o, G);
      const int ol = __shfl_xor_sync(mask, wl, o, G);
      if (better(ov, op, v, pos)) {
        v = ov;
        pos = op;
        wl = ol;
      }
    }
    wpos = pos;
    return wl;
  }
  /* Row broadcast: row_begin(r, src); row_get(r[j], j, src) ...; row_end(). */
  template <typename T, int M>
  __device__ __forceinline__ void row_begin(const T (&)[M], int) {}
  template <typename T>
  __device__ __forceinline__ T row_get(T x, int, int src) const {
    return shfl(x, src);
  }
  /* r[idx] of lane src, idx differing between lanes (idx < M). */
  template <typename T, int M>
  __device__ __forceinline__ T row_get_dyn(const T (&r)[M], int idx,
                                           int src) const {
    T out = T(0);
#pragma unroll
    for (int j = 0; j < M; ++j) {
      const T v = shfl(r[j], src);
      if (j == idx) out = v;
    }
    return out;
  }
  __device__ __forceinline__ void row_end() {}
  /* Column gather: col_begin(x); col_get(x, j) = x of lane j; col_end(). */
  template <typename T> __device__ __forceinline__ void col_begin(T) {}
  template <typename T> __device__ __forceinline__ T col_get(T x, int j) const {
    return shfl(x, j);
  }
  __device__ __forceinline__ void col_end() {}
  /* Memory barrier of the group (reads before writes). */
  __device__ __forceinline__ void barrier() const { __syncwarp(mask); }
  /* Lane at position k (after positions(pos) on every lane). */
  __device__ __forceinline__ void positions(int) {}
  __device__ __forceinline__ int who(int pos, int k) const {
    const unsigned b = __ballot_sync(mask, pos == k);
    return __ffs(b) - 1 - (int)((threadIdx.x & 31) & ~(unsigned)(G - 1));
  }
};

/* G lanes of a warp like Warp<G>, but rows and columns are broadcast
   through a small shared-memory slot of the group (fewer instructions than
   shuffles, two per double): ws points to WarpShared::kWords entries of T,
   one slot per group, 16-byte aligned. */
template <int G, typename T, int NMAX> struct WarpShared : Warp<G> {
  static constexpr int kRow = NMAX > 8 ? NMAX : 8; /* rows and rhs chunks */
  static constexpr int kWords = kRow + NMAX;
  T *s;
  __device__ explicit WarpShared(T *ws) : Warp<G>(), s(ws) {}
  template <int M>
  __device__ __forceinline__ void row_begin(const T (&r)[M], int src) {
    static_assert(M <= kRow, "row longer than the slot");
    if (this->lane == src) {
#pragma unroll
      for (int j = 0; j < M; ++j)
        s[j] = r[j];
    }
    __syncwarp(this->mask);
  }
  __device__ __forceinline__ T row_get(T, int j, int) const { return s[j]; }
  template <int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[M], int idx, int) const {
    return s[idx];
  }
  __device__ __forceinline__ void row_end() { __syncwarp(this->mask); }
  __device__ __forceinline__ void col_begin(T x) {
    if (this->lane < NMAX) s[kRow + this->lane] = x;
    __syncwarp(this->mask);
  }
  __device__ __forceinline__ T col_get(T, int j) const { return s[kRow + j]; }
  __device__ __forceinline__ void col_end() { __syncwarp(this->mask); }
};

/* Shared-memory workspace of Block<NW> (declare it __shared__). */
template <typename T, int NMAX> struct BlockWork {
  T row[NMAX];
  T col[NMAX];
  T rv[32];
  int rp[32], rl[32];
  int wl[NMAX];
};

/* The whole thread block (blockDim.x == 32 * NW), through shared memory. */
template <int NW, typename T, int NMAX> struct Block {
  static constexpr int size = 32 * NW;
  BlockWork<T, NMAX> *w;
  int lane;
  __device__ explicit Block(BlockWork<T, NMAX> *work)
      : w(work), lane((int)threadIdx.x) {}
  __device__ __forceinline__ T shfl(T v, int src) const {
    __syncthreads();
    if (lane == src) w->rv[0] = v;
    __syncthreads();
    return w->rv[0];
  }
  __device__ __forceinline__ int argmax(T v, int pos, int &wpos) const {
    int wl = lane;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const T ov = __shfl_xor_sync(0xffffffffu, v, o);
      const int op = __shfl_xor_sync(0xffffffffu, pos, o);
      const int ol = __shfl_xor_sync(0xffffffffu, wl, o);
      if (better(ov, op, v, pos)) {
        v = ov;
        pos = op;
        wl = ol;
      }
    }
    __syncthreads();
    if ((lane & 31) == 0) {
      w->rv[lane >> 5] = v;
      w->rp[lane >> 5] = pos;
      w->rl[lane >> 5] = wl;
    }
    __syncthreads();
    v = w->rv[0];
    pos = w->rp[0];
    wl = w->rl[0];
#pragma unroll
    for (int q = 1; q < NW; ++q) {
      if (better(w->rv[q], w->rp[q], v, pos)) {
        v = w->rv[q];
        pos = w->rp[q];
        wl = w->rl[q];
      }
    }
    wpos = pos;
    return wl;
  }
  template <int M>
  __device__ __forceinline__ void row_begin(const T (&r)[M], int src) {
    static_assert(M <= NMAX, "row longer than the workspace");
    if (lane == src) {
#pragma unroll
      for (int j = 0; j < M; ++j)
        w->row[j] = r[j];
    }
    __syncthreads();
  }
  __device__ __forceinline__ T row_get(T, int j, int) const {
    return w->row[j];
  }
  template <int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[M], int idx, int) const {
    return w->row[idx];
  }
  __device__ __forceinline__ void row_end() { __syncthreads(); }
  __device__ __forceinline__ void col_begin(T x) {
    if (lane < NMAX) w->col[lane] = x;
    __syncthreads();
  }
  __device__ __forceinline__ T col_get(T, int j) const { return w->col[j]; }
  __device__ __forceinline__ void col_end() { __syncthreads(); }
  __device__ __forceinline__ void barrier() const { __syncthreads(); }
  __device__ __forceinline__ void positions(int pos) {
    __syncthreads();
    if (pos < NMAX) w->wl[pos] = lane;
    __syncthreads();
  }
  __device__ __forceinline__ int who(int, int k) const { return w->wl[k]; }
};

/* ======================================================================== */
/* Cooperative kernels on rows in registers                                 */
/* ======================================================================== */

/*
 * State of a factored matrix in a group: lane `g.lane` holds the row r that
 * started as row g.lane and now sits at position pos (g.who(pos, k) is the
 * lane at position k).  Lanes >= n hold zeros and never move.
 */
template <int NMAX> struct RowState { int pos; };

/* Positions: the lane at position k and the pivot's lane exchange them. */
__device__ __forceinline__ void swap_positions(int &pos, int lane, int k, int w,
                                               int wpos) {
  if (pos == k) pos = wpos;
  if (lane == w) pos = k;
}

/* LU with partial pivoting of the rows in registers.  lpiv (this lane's
   entry of ipiv, 1-based) is set on lane k for pivot k.  Returns info. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int rows_getrf(Grp &g, int n, T (&r)[NMAX],
                                          RowState<NMAX> &st, int &lpiv) {
  int info = 0;
  st.pos = g.lane;
  lpiv = g.lane + 1;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      T v = absval(r[k]);
      if (!(v >= T(0))) v = T(0); /* NaN never wins */
      if (!(g.lane < n && st.pos >= k)) v = T(-1);
      int wpos;
      const int w = g.argmax(v, st.pos, wpos);
      if (g.lane == k) lpiv = wpos + 1;
      swap_positions(st.pos, g.lane, k, w, wpos);
      g.row_begin(r, w);
      const T piv = g.row_get(r[k], k, w);
      const bool zero = piv == T(0);
      if (zero && !info) info = k + 1;
      const bool below = st.pos > k && g.lane < n;
      const T l = zero ? r[k] : r[k] * (T(1) / piv);
      if (below) r[k] = l;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T u = g.row_get(r[j], j, w);
        if (below) r[j] -= l * u;
      }
      g.row_end();
    }
  }
  return info;
}

/* Forward and back substitution with rows_getrf's factors on NR right-hand
   sides: b holds this lane's row of B (the row that started at g.lane) and
   ends with the row of X at position st.pos. */
template <int NMAX, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_getrs(Grp &g, int n, const T (&r)[NMAX],
                                           const RowState<NMAX> &st,
                                           T (&b)[NR]) {
  g.positions(st.pos);
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int w = g.who(st.pos, k);
      g.row_begin(b, w);
      const bool below = st.pos > k;
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b[c], c, w);
        if (below) b[c] -= r[k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int w = g.who(st.pos, k);
      if (g.lane == w) {
        const T d = T(1) / r[k];
#pragma unroll
        for (int c = 0; c < NR; ++c)
          b[c] *= d;
      }
      g.row_begin(b, w);
      const bool above = st.pos < k;
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b[c], c, w);
        if (above) b[c] -= r[k] * x;
      }
      g.row_end();
    }
  }
}

/* Gauss-Jordan inverse of the rows in registers (in place, partial
   pivoting).  On success the lane at position p holds row p of Y with
   Y[p][c] = inv(A)[p][g.who(pos, c)].  Returns info (then r is unspecified). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int rows_inverse(Grp &g, int n, T (&r)[NMAX],
                                            RowState<NMAX> &st) {
  int info = 0;
  st.pos = g.lane;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n && !info) {
      T v = absval(r[k]);
      if (!(v >= T(0))) v = T(0);
      if (!(g.lane < n && st.pos >= k)) v = T(-1);
      int wpos;
      const int w = g.argmax(v, st.pos, wpos);
      swap_positions(st.pos, g.lane, k, w, wpos);
      g.row_begin(r, w);
      const T piv = g.row_get(r[k], k, w);
      if (piv == T(0)) {
        info = k + 1;
      } else {
        const T rinv = T(1) / piv;
        const bool me = g.lane == w;
        const T f = r[k] * rinv;
#pragma unroll
        for (int j = 0; j < NMAX; ++j) {
          const T u = g.row_get(r[j], j, w);
          if (j == k) {
            r[j] = me ? rinv : -f;
          } else {
            r[j] = me ? r[j] * rinv : r[j] - f * u;
          }
        }
      }
      g.row_end();
    }
  }
  return info;
}

/* Cholesky (L L^T) of the rows in registers: lane i holds row i of the
   lower triangle (entries j <= i meaningful).  Returns info. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int rows_potrf(Grp &g, int n, T (&r)[NMAX]) {
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n && !info) {
      g.row_begin(r, k);
      const T d = g.row_get(r[k], k, k);
      g.row_end();
      if (!(d > T(0))) {
        info = k + 1;
      } else {
        const T s = sqrt_(d);
        if (g.lane == k) r[k] = s;
        if (g.lane > k) r[k] *= T(1) / s;
        g.col_begin(r[k]);
#pragma unroll
        for (int j = k + 1; j < NMAX; ++j) {
          const T ljk = g.col_get(r[k], j);
          if (g.lane >= j) r[j] -= r[k] * ljk;
        }
        g.col_end();
      }
    }
  }
  return info;
}

/* Solve with rows_potrf's factor on NR right-hand sides (b: row g.lane). */
template <int NMAX, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_potrs(Grp &g, int n, const T (&r)[NMAX],
                                           T (&b)[NR]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      if (g.lane == k) {
        const T d = T(1) / r[k];
#pragma unroll
        for (int c = 0; c < NR; ++c)
          b[c] *= d;
      }
      g.row_begin(b, k);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b[c], c, k);
        if (g.lane > k) b[c] -= r[k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      if (g.lane == k) {
        const T d = T(1) / r[k];
#pragma unroll
        for (int c = 0; c < NR; ++c)
          b[c] *= d;
      }
      /* L(k, lane): entry `lane` of lane k's row. */
      g.row_begin(r, k);
      const T lki = g.row_get_dyn(r, g.lane < k ? g.lane : 0, k);
      g.row_end();
      g.row_begin(b, k);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b[c], c, k);
        if (g.lane < k) b[c] -= lki * x;
      }
      g.row_end();
    }
  }
}

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* Row `lane` of A (zeros outside n x n). */
template <int NMAX, typename T>
__device__ __forceinline__ void load_row(int n, const T *A, int64_t lda,
                                         int lane, T (&r)[NMAX]) {
#pragma unroll
  for (int j = 0; j < NMAX; ++j)
    r[j] = (lane < n && j < n) ? A[lane + j * lda] : T(0);
}
/* Row i of the lower triangle of a symmetric A stored lower or upper
   (upper: row i of L = column i of U). */
template <int NMAX, typename T>
__device__ __forceinline__ void load_sym_row(int n, bool upper, const T *A,
                                             int64_t lda, int lane,
                                             T (&r)[NMAX]) {
#pragma unroll
  for (int j = 0; j < NMAX; ++j)
    r[j] = (lane < n && j <= lane)
               ? (upper ? A[j + lane * lda] : A[lane + j * lda])
               : T(0);
}

template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ void store_row(Grp &, int n, T *A, int64_t lda,
                                          int row, const T (&r)[NMAX]) {
  if (row < n) {
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      if (j < n) A[row + j * lda] = r[j];
  }
}

/* LU with partial pivoting in place; ipiv (may be NULL) 1-based.  The group
   must have at least n lanes.  Returns info (same on every lane). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_getrf(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv) {
  T r[NMAX];
  load_row<NMAX>(n, A, lda, g.lane, r);
  RowState<NMAX> st;
  int lpiv;
  const int info = rows_getrf<NMAX>(g, n, r, st, lpiv);
  g.barrier();
  store_row<NMAX>(g, n, A, lda, st.pos, r);
  if (ipiv && g.lane < n) ipiv[g.lane] = lpiv;
  return info;
}

/* Right-hand sides of B in chunks of NR columns: b[c] = B(row, c0 + c). */
template <int NR, typename T>
__device__ __forceinline__ void load_b(int n, int nrhs, const T *B, int64_t ldb,
                                       int row, int c0, T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    b[c] = (row < n && c0 + c < nrhs) ? B[row + (int64_t)(c0 + c) * ldb] : T(0);
}
template <int NR, typename T>
__device__ __forceinline__ void store_b(int n, int nrhs, T *B, int64_t ldb,
                                        int row, int c0, const T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    if (row < n && c0 + c < nrhs) B[row + (int64_t)(c0 + c) * ldb] = b[c];
}

/* X = A^-1 B from group_getrf's factors (LU, ipiv) in memory. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void
group_getrs(Grp &g, int n, int nrhs, const T *LU, int64_t lda, const int *ipiv,
            T *B, int64_t ldb) {
  T r[NMAX];
  load_row<NMAX>(n, LU, lda, g.lane, r);
  RowState<NMAX> st;
  st.pos = g.lane;
  /* Row of B that ends at position g.lane: trace the interchanges back. */
  int src = g.lane;
  for (int k = n - 1; k >= 0; --k) {
    const int p = ipiv[k] - 1;
    if (src == k)
      src = p;
    else if (src == p)
      src = k;
  }
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[NR];
    load_b<NR>(n, nrhs, B, ldb, src, c0, b);
    rows_getrs<NMAX, NR>(g, n, r, st, b);
    g.barrier(); /* all lanes read B before any lane writes it */
    store_b<NR>(n, nrhs, B, ldb, st.pos, c0, b);
  }
}

/* A X = B: LU with partial pivoting of A in place (ipiv may be NULL), B
   overwritten with X.  Returns info; B is unchanged when info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_gesv(Grp &g, int n, int nrhs, T *A,
                                          int64_t lda, int *ipiv, T *B,
                                          int64_t ldb) {
  T r[NMAX];
  load_row<NMAX>(n, A, lda, g.lane, r);
  RowState<NMAX> st;
  int lpiv;
  const int info = rows_getrf<NMAX>(g, n, r, st, lpiv);
  g.barrier();
  store_row<NMAX>(g, n, A, lda, st.pos, r);
  if (ipiv && g.lane < n) ipiv[g.lane] = lpiv;
  if (info) return info;
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[NR];
    load_b<NR>(n, nrhs, B, ldb, g.lane, c0, b);
    rows_getrs<NMAX, NR>(g, n, r, st, b);
    g.barrier();
    store_b<NR>(n, nrhs, B, ldb, st.pos, c0, b);
  }
  return info;
}

/* A := A^-1 (Gauss-Jordan, partial pivoting).  Returns info; A is unchanged
   when info > 0. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_inverse(Grp &g, int n, T *A, int64_t lda) {
  T r[NMAX];
  load_row<NMAX>(n, A, lda, g.lane, r);
  RowState<NMAX> st;
  const int info = rows_inverse<NMAX>(g, n, r, st);
  if (info) return info;
  g.positions(st.pos);
  g.barrier(); /* every lane has read A */
#pragma unroll
  for (int c = 0; c < NMAX; ++c) {
    if (c < n) {
      const int col = g.who(st.pos, c);
      if (g.lane < n) A[st.pos + (int64_t)col * lda] = r[c];
    }
  }
  return 0;
}

/* Cholesky in place (uplo: false = lower A = L L^T, true = upper A = U^T U;
   only that triangle is read and written).  Returns info. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_potrf(Grp &g, int n, bool upper, T *A,
                                           int64_t lda) {
  T r[NMAX];
  load_sym_row<NMAX>(n, upper, A, lda, g.lane, r);
  const int info = rows_potrf<NMAX>(g, n, r);
  g.barrier();
  if (g.lane < n) {
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      if (j <= g.lane && j < n) {
        if (upper)
          A[j + (int64_t)g.lane * lda] = r[j];
        else
          A[g.lane + (int64_t)j * lda] = r[j];
      }
  }
  return info;
}

/* X = A^-1 B from group_potrf's factor. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void group_potrs(Grp &g, int n, int nrhs, bool upper,
                                            const T *F, int64_t lda, T *B,
                                            int64_t ldb) {
  T r[NMAX];
  load_sym_row<NMAX>(n, upper, F, lda, g.lane, r);
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[NR];
    load_b<NR>(n, nrhs, B, ldb, g.lane, c0, b);
    rows_potrs<NMAX, NR>(g, n, r, b);
    g.barrier();
    store_b<NR>(n, nrhs, B, ldb, g.lane, c0, b);
  }
}

/* Cholesky of A in place and X = A^-1 B.  Returns info; B is unchanged when
   info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_posv(Grp &g, int n, int nrhs, bool upper,
                                          T *A, int64_t lda, T *B,
                                          int64_t ldb) {
  T r[NMAX];
  load_sym_row<NMAX>(n, upper, A, lda, g.lane, r);
  const int info = rows_potrf<NMAX>(g, n, r);
  g.barrier();
  if (g.lane < n) {
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      if (j <= g.lane && j < n) {
        if (upper)
          A[j + (int64_t)g.lane * lda] = r[j];
        else
          A[g.lane + (int64_t)j * lda] = r[j];
      }
  }
  if (info) return info;
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[NR];
    load_b<NR>(n, nrhs, B, ldb, g.lane, c0, b);
    rows_potrs<NMAX, NR>(g, n, r, b);
    g.barrier();
    store_b<NR>(n, nrhs, B, ldb, g.lane, c0, b);
  }
  return 0;
}

} // namespace axb_dev

#endif
