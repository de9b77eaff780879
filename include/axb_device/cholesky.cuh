/*
 * Part of axb_device.cuh (include that header, not this one).
 * Cholesky: on rows in registers (rows_potrf, rows_potrs) and on a
 * matrix in memory (group_potrf, group_potrs, group_posv; the symmetric
 * triangle's rows in and out).
 */
#ifndef AXB_DEVICE_CHOLESKY_CUH
#define AXB_DEVICE_CHOLESKY_CUH

#include "group.cuh"
#include "memory.cuh"

namespace axb_dev {

/* Cholesky (L L^T) of the rows in registers: r[q] is row lane + G q of the
   lower triangle (entries j <= i meaningful).  Returns info. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ int rows_potrf(Grp &g, int n, T (&r)[R][NMAX]) {
  constexpr int G = Grp::size;
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n && !info) {
      const T d = g.shfl(r[k / G][k], k % G);
      if (!(d > T(0))) {
        info = k + 1;
      } else {
        const T s = sqrt_(d), si = T(1) / s;
        T x[R];
#pragma unroll
        for (int q = 0; q < R; ++q) {
          const int i = g.lane + G * q;
          if (i == k) r[q][k] = s;
          if (i > k) r[q][k] *= si;
          x[q] = r[q][k];
        }
        g.col_begin(x);
#pragma unroll
        for (int j = k + 1; j < NMAX; ++j) {
          const T ljk = g.col_get(x, j);
#pragma unroll
          for (int q = 0; q < R; ++q)
            if (g.lane + G * q >= j) r[q][j] -= x[q] * ljk;
        }
        g.col_end();
      }
    }
  }
  return info;
}

/* Row k of the right-hand sides, brow, divided by the diagonal entry l_kk
   on the lane that holds it (mine). */
template <int NR, typename T>
__device__ __forceinline__ void rows_div_diag(bool mine, T lkk, T (&brow)[NR]) {
  if (mine) {
    const T d = T(1) / lkk;
#pragma unroll
    for (int c = 0; c < NR; ++c)
      brow[c] *= d;
  }
}

/* Solve with rows_potrf's factor on NR right-hand sides (b[q]: row
   lane + G q). */
template <int NMAX, int R, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_potrs(Grp &g, int n, const T (&r)[R][NMAX],
                                           T (&b)[R][NR]) {
  constexpr int G = Grp::size;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int kl = k % G, kq = k / G;
      rows_div_diag(g.lane == kl, r[kq][k], b[kq]);
      g.row_begin(b, kq, kl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b, kq, c, kl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane + G * q > k) b[q][c] -= r[q][k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int kl = k % G, kq = k / G;
      rows_div_diag(g.lane == kl, r[kq][k], b[kq]);
      /* L(k, i) for this lane's rows i < k: entry i of row k. */
      T lki[R];
      g.row_begin(r, kq, kl);
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const int i = g.lane + G * q;
        lki[q] = g.row_get_dyn(r, kq, i < k ? i : 0, kl);
      }
      g.row_end();
      g.row_begin(b, kq, kl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b, kq, c, kl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane + G * q < k) b[q][c] -= lki[q] * x;
      }
      g.row_end();
    }
  }
}

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* Rows lane + G q of the lower triangle of a symmetric A stored lower or
   upper (upper: row i of L = column i of U). */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void load_sym_rows(const Grp &g, int n, bool upper,
                                              const T *A, int64_t lda,
                                              T (&r)[R][NMAX]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + Grp::size * q;
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      r[q][j] =
          (i < n && j <= i) ? (upper ? A[j + i * lda] : A[i + j * lda]) : T(0);
  }
}
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void store_sym_rows(const Grp &g, int n, bool upper,
                                               T *A, int64_t lda,
                                               const T (&r)[R][NMAX]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + Grp::size * q;
    if (i < n) {
#pragma unroll
      for (int j = 0; j < NMAX; ++j)
        if (j <= i && j < n) {
          if (upper)
            A[j + (int64_t)i * lda] = r[q][j];
          else
            A[i + (int64_t)j * lda] = r[q][j];
        }
    }
  }
}

/* B := the solution from rows_potrf's factor in the rows, NR columns at a
   time (the lane's rows lane + G q of B). */
template <int NMAX, int NR, typename Grp, typename T, int R>
__device__ __forceinline__ void potrs_chunks(Grp &g, int n, int nrhs,
                                             const T (&r)[R][NMAX], T *B,
                                             int64_t ldb) {
  constexpr int G = Grp::size;
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
    rows_potrs<NMAX>(g, n, r, b);
    g.barrier();
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, g.lane + G * q, c0, b[q]);
  }
}

/* The Cholesky factorization of A in memory through the rows: loaded,
   factored, stored back (only the triangle `upper` names).  The rows keep
   the factor.  Returns info. */
template <int NMAX, typename Grp, typename T, int R>
__device__ __forceinline__ int factor_sym_rows(Grp &g, int n, bool upper, T *A,
                                               int64_t lda, T (&r)[R][NMAX]) {
  load_sym_rows<NMAX>(g, n, upper, A, lda, r);
  const int info = rows_potrf<NMAX>(g, n, r);
  g.barrier();
  store_sym_rows<NMAX>(g, n, upper, A, lda, r);
  return info;
}

/* Cholesky in place (uplo: false = lower A = L L^T, true = upper A = U^T U;
   only that triangle is read and written).  Returns info. */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_potrf(Grp &g, int n, bool upper, T *A,
                                           int64_t lda) {
  static_assert(!Grp::full,
                "group_potrf: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  const int info = factor_sym_rows<NMAX>(g, n, upper, A, lda, r);
  return info;
}

/* X = A^-1 B from group_potrf's factor. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void group_potrs(Grp &g, int n, int nrhs, bool upper,
                                            const T *F, int64_t lda, T *B,
                                            int64_t ldb) {
  static_assert(!Grp::full,
                "group_potrs: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  load_sym_rows<NMAX>(g, n, upper, F, lda, r);
  potrs_chunks<NMAX, NR>(g, n, nrhs, r, B, ldb);
}

/* Cholesky of A in place and X = A^-1 B.  Returns info; B is unchanged when
   info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_posv(Grp &g, int n, int nrhs, bool upper,
                                          T *A, int64_t lda, T *B,
                                          int64_t ldb) {
  static_assert(!Grp::full,
                "group_posv: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  const int info = factor_sym_rows<NMAX>(g, n, upper, A, lda, r);
  if (info) return info;
  potrs_chunks<NMAX, NR>(g, n, nrhs, r, B, ldb);
  return 0;
}

} // namespace axb_dev

#endif
