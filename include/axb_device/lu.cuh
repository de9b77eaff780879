/*
 * Part of axb_device.cuh (include that header, not this one).
 * LU with partial pivoting and the solves: on rows in registers
 * (rows_getrf, rows_getrs, rows_backsolve) and on a matrix in memory
 * (group_getrf, group_getrs, group_gesv, group_gesv1).
 */
#ifndef AXB_DEVICE_LU_CUH
#define AXB_DEVICE_LU_CUH

#include "group.cuh"
#include "memory.cuh"

namespace axb_dev {

/* LU with partial pivoting of the rows in registers.  lpiv[q] (ipiv entry
   of row lane + G q, 1-based) is set for pivot k on the lane holding row k.
   Columns NMAX..W-1 of the rows (W > NMAX) are carried right-hand sides:
   eliminated with the matrix, so that they end as L^-1 P b (the forward
   substitution done on the way).  rec (may be NULL) records the pivots for
   rows_backsolve.  Returns info. */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ int
rows_getrf(Grp &g, int n, T (&r)[R][W], int (&pos)[R], int (&lpiv)[R],
           PivotRecord<NMAX, R, T> *rec = nullptr) {
  static_assert(W >= NMAX, "rows shorter than NMAX");
  constexpr int G = Grp::size;
  int info = 0;
#pragma unroll
  for (int q = 0; q < R; ++q) {
    pos[q] = g.lane + G * q;
    lpiv[q] = pos[q] + 1;
  }
  if (rec) rec->id.clear();
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      int wpos;
      bool wzero;
      const int wid = pivot_search<NMAX>(g, n, r, pos, k, wpos, wzero);
      const int wl = wid / R, wq = wid % R;
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (g.lane + G * q == k) lpiv[q] = wpos + 1;
      swap_positions(pos, g.lane, k, wid, wpos);
      g.row_begin(r, wq, wl, k);
      const T piv = g.row_get(r, wq, k, wl);
      const bool zero = piv == T(0);
      if (zero && !info) info = k + 1;
      const T rp = T(1) / piv;
      if (rec) {
        rec->id.set(k, wid);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (g.lane * R + q == wid) rec->rinv[q] = rp;
      }
      bool below[R];
      T l[R];
#pragma unroll
      for (int q = 0; q < R; ++q) {
        below[q] = pos[q] > k && g.lane + G * q < n;
        l[q] = zero ? r[q][k] : r[q][k] * rp;
        if (below[q]) r[q][k] = l[q];
      }
#pragma unroll
      for (int j = k + 1; j < W; ++j) {
        const T u = g.row_get(r, wq, j, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (below[q]) r[q][j] -= l[q] * u;
      }
      g.row_end();
    }
  }
  return info;
}

/* Forward and back substitution with rows_getrf's factors on NR right-hand
   sides: b[q] holds row lane + G q of B (the row that started there) and
   ends with the row of X at position pos[q]. */
template <int NMAX, int R, int NR, typename Grp, typename T>
__device__ __forceinline__ void rows_getrs(Grp &g, int n, const T (&r)[R][NMAX],
                                           const int (&pos)[R], T (&b)[R][NR]) {
  g.positions(pos);
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int wid = g.at(pos, k), wl = wid / R, wq = wid % R;
      g.row_begin(b, wq, wl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T y = g.row_get(b, wq, c, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (pos[q] > k) b[q][c] -= r[q][k] * y;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int wid = g.at(pos, k), wl = wid / R, wq = wid % R;
      T dkk = r[0][k];
#pragma unroll
      for (int q = 1; q < R; ++q)
        if (wq == q) dkk = r[q][k];
      const T d = T(1) / dkk;
      if (g.lane == wl) {
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (q == wq) {
#pragma unroll
            for (int c = 0; c < NR; ++c)
              b[q][c] *= d;
          }
      }
      g.row_begin(b, wq, wl);
#pragma unroll
      for (int c = 0; c < NR; ++c) {
        const T x = g.row_get(b, wq, c, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          if (pos[q] < k) b[q][c] -= r[q][k] * x;
      }
      g.row_end();
    }
  }
}

/* Back substitution U x = y on rows_getrf's factors with y carried in
   column NMAX (rows of width NMAX + 1) and rec its pivot record: the row at
   position p ends with x[p] there.  Step k: the lane holding position k
   (known from rec, no ballot) forms x[k] = y[k] / u[k][k] as a product,
   one shuffle gives it to the group, and every row above position k takes
   its multiply-add: x[p] = (y[p] - sum_{k > p} u[p][k] x[k]) / u[p][p]. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ void
rows_backsolve(Grp &g, int n, T (&r)[R][NMAX + 1], const int (&pos)[R],
               const PivotRecord<NMAX, R, T> &rec) {
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      const int wid = rec.id.get(k);
      const int wl = wid / R, wq = wid % R;
      T y = r[0][NMAX] * rec.rinv[0];
#pragma unroll
      for (int q = 1; q < R; ++q)
        if (wq == q) y = r[q][NMAX] * rec.rinv[q];
      const T x = g.shfl(y, wl);
#pragma unroll
      for (int q = 0; q < R; ++q) {
        if (pos[q] < k) r[q][NMAX] -= r[q][k] * x;
        if (pos[q] == k) r[q][NMAX] = x;
      }
    }
  }
}

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* ipiv entries of the lane's rows (ipiv may be NULL). */
template <int NMAX, int R, typename Grp>
__device__ __forceinline__ void put_ipiv(const Grp &g, int n,
                                         const int (&lpiv)[R], int *ipiv) {
  if (!ipiv) return;
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (g.lane + Grp::size * q < n) ipiv[g.lane + Grp::size * q] = lpiv[q];
}

/* The LU factorization of A in memory through the rows: loaded, factored
   with partial pivoting, stored back with ipiv (may be NULL).  The rows
   keep the factors, pos their positions.  Returns info. */
template <int NMAX, typename Grp, typename T, int R>
__device__ __forceinline__ int factor_rows(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv, T (&r)[R][NMAX],
                                           int (&pos)[R]) {
  load_rows<NMAX>(g, n, A, lda, r);
  int lpiv[R];
  const int info = rows_getrf<NMAX>(g, n, r, pos, lpiv);
  g.barrier();
  store_rows<NMAX>(n, A, lda, pos, r);
  put_ipiv<NMAX>(g, n, lpiv, ipiv);
  return info;
}

/* LU with partial pivoting in place; ipiv (may be NULL) 1-based.  The group
   (G lanes) must have G >= NMAX lanes or G dividing NMAX.  Returns info
   (same on every lane). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_getrf(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value;
  T r[R][NMAX];
  int pos[R];
  const int info = factor_rows<NMAX>(g, n, A, lda, ipiv, r, pos);
  return info;
}

/* B := the solution from the factors in the rows, NR columns at a time:
   the lane's row q takes its right-hand side from row src[q] of B and
   leaves its result in row pos[q]. */
template <int NMAX, int NR, typename Grp, typename T, int R>
__device__ __forceinline__ void
solve_chunks(Grp &g, int n, int nrhs, const T (&r)[R][NMAX],
             const int (&pos)[R], const int (&src)[R], T *B, int64_t ldb) {
  for (int c0 = 0; c0 < nrhs; c0 += NR) {
    T b[R][NR];
#pragma unroll
    for (int q = 0; q < R; ++q)
      load_b<NR>(n, nrhs, B, ldb, src[q], c0, b[q]);
    rows_getrs<NMAX>(g, n, r, pos, b);
    g.barrier(); /* all lanes read B before any lane writes it */
#pragma unroll
    for (int q = 0; q < R; ++q)
      store_b<NR>(n, nrhs, B, ldb, pos[q], c0, b[q]);
  }
}

/* X = A^-1 B from group_getrf's factors (LU, ipiv) in memory. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ void
group_getrs(Grp &g, int n, int nrhs, const T *LU, int64_t lda, const int *ipiv,
            T *B, int64_t ldb) {
  static_assert(!Grp::full,
                "group_getrs: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_rows<NMAX>(g, n, LU, lda, r);
  /* The factors are in place: row i is at position i.  The row of B that
     ends at position i: trace the interchanges back. */
  int pos[R], src[R];
#pragma unroll
  for (int q = 0; q < R; ++q)
    src[q] = pos[q] = g.lane + G * q;
  for (int k = n - 1; k >= 0; --k) {
    const int p = ipiv[k] - 1;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      if (src[q] == k)
        src[q] = p;
      else if (src[q] == p)
        src[q] = k;
    }
  }
  solve_chunks<NMAX, NR>(g, n, nrhs, r, pos, src, B, ldb);
}

/* A X = B: LU with partial pivoting of A in place (ipiv may be NULL), B
   overwritten with X.  Returns info; B is unchanged when info > 0. */
template <int NMAX, int NR = 4, typename Grp, typename T>
__device__ __forceinline__ int group_gesv(Grp &g, int n, int nrhs, T *A,
                                          int64_t lda, int *ipiv, T *B,
                                          int64_t ldb) {
  static_assert(!Grp::full,
                "group_gesv: not for groups in step (Warp<G, true>)");
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  int pos[R];
  const int info = factor_rows<NMAX>(g, n, A, lda, ipiv, r, pos);
  if (info) return info;
  int src[R];
#pragma unroll
  for (int q = 0; q < R; ++q)
    src[q] = g.lane + G * q;
  solve_chunks<NMAX, NR>(g, n, nrhs, r, pos, src, B, ldb);
  return info;
}

/* group_gesv with one right-hand side b (n entries), b carried through
   the factorization as column NMAX of the rows (the forward substitution
   is one more multiply-add per elimination step, and b is read with A, not
   after the factorization), then rows_backsolve: n serial steps of a
   product, a shuffle and a multiply-add, against the two-pass solve's 2n
   steps of a ballot, a slot round trip and two group barriers.  Returns
   info; b is unchanged when info > 0.  active = false: as in
   group_inverse (no memory touched, the steps run on zeros). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_gesv1(Grp &g, int n, T *A, int64_t lda,
                                           int *ipiv, T *b,
                                           bool active = true) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX + 1];
  load_rows<NMAX>(g, active ? n : 0, A, lda, r);
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const int i = g.lane + G * q;
    r[q][NMAX] = active && i < n ? b[i] : T(0);
  }
  int pos[R], lpiv[R];
  PivotRecord<NMAX, R, T> rec;
  const int info = rows_getrf<NMAX>(g, n, r, pos, lpiv, &rec);
  g.barrier();
  if (active) {
    store_rows<NMAX>(n, A, lda, pos, r);
    put_ipiv<NMAX>(g, n, lpiv, ipiv);
  }
  /* on every group, singular or not, so that a warp of Warp<G, true>
     groups stays in step (a singular matrix's result is dropped) */
  rows_backsolve<NMAX>(g, n, r, pos, rec);
  if (info || !active) return info;
#pragma unroll
  for (int q = 0; q < R; ++q)
    if (pos[q] < n) b[pos[q]] = r[q][NMAX];
  return 0;
}

} // namespace axb_dev

#endif
