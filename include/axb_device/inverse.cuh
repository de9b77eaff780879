/*
 * Part of axb_device.cuh (include that header, not this one).
 * Gauss-Jordan inverse with partial pivoting: on rows in registers
 * (rows_inverse) and on a matrix in memory (group_inverse).
 */
#ifndef AXB_DEVICE_INVERSE_CUH
#define AXB_DEVICE_INVERSE_CUH

#include "group.cuh"
#include "memory.cuh"

namespace axb_dev {

/* Gauss-Jordan inverse of the rows in registers (in place, partial
   pivoting).  On success the row at position p holds row p of Y with
   Y[p][c] = inv(A)[p][i_c], i_c the starting row of the row at position c,
   which is the pivot row of step c: ids.get(c) is its id.  Returns info
   (then r is unspecified).
   The textbook step k with pivot row p (entry a = r_p[k] != 0) makes the
   pivot row r_p / a with entry k = 1 / a, and every other row i
   r_i - r_i[k] * (new r_p) with entry k first set to 0 (so it ends as
   -r_i[k] / a).  Here the pivot row is kept unscaled, as s_p * r'_p with
   r'_p = r_p with entry k = 1 and s_p = 1 / a: every other row takes
   f_i = r_i[k] / a and becomes r_i - f_i * r'_p (entry k first 0), the
   same rows.  A later step's update of row p is linear in it and a later
   pivot row is one that has not been a pivot (scale 1), so the scale
   commutes with every later step and is applied once at the end.  Per
   step that is one multiply-add per entry and lane (the pivot lane takes
   f = 0) and one product per row for f, instead of the scaled row's
   product per entry on the pivot lane. */
template <int NMAX, int R, typename Grp, typename T>
__device__ __forceinline__ int rows_inverse(Grp &g, int n, T (&r)[R][NMAX],
                                            int (&pos)[R],
                                            PivotIds<NMAX> &ids) {
  constexpr int G = Grp::size;
  int info = 0;
  T scale[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    pos[q] = g.lane + G * q;
    scale[q] = T(1);
  }
  ids.clear();
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    /* After a zero pivot (info > 0) the steps go on without arithmetic, so
       that every step's collectives run on every group (Warp<G, true>). */
    if (k < n) {
      int wpos;
      bool wzero;
      const int wid = pivot_search<NMAX>(g, n, r, pos, k, wpos, wzero);
      const int wl = wid / R, wq = wid % R;
      swap_positions(pos, g.lane, k, wid, wpos);
      ids.set(k, wid);
      if (wzero && !info) info = k + 1; /* uniform over the group */
      g.row_begin(r, wq, wl);
      const T rinv = T(1) / g.row_get(r, wq, k, wl);
      T f[R];
#pragma unroll
      for (int q = 0; q < R; ++q) {
        const bool piv = g.lane == wl && q == wq;
        f[q] = info || piv ? T(0) : r[q][k] * rinv;
        if (piv) scale[q] = rinv;
        if (!info) r[q][k] = piv ? T(1) : -f[q];
      }
#pragma unroll
      for (int j = 0; j < NMAX; ++j) {
        if (j == k) continue;
        const T u = g.row_get(r, wq, j, wl);
#pragma unroll
        for (int q = 0; q < R; ++q)
          r[q][j] -= f[q] * u;
      }
      g.row_end();
    }
  }
#pragma unroll
  for (int q = 0; q < R; ++q)
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
      r[q][j] *= scale[q];
  return info;
}

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* A := A^-1 (Gauss-Jordan, partial pivoting).  Returns info; A is unchanged
   when info > 0.  active = false: the group runs the same steps on a zero
   matrix without reading or writing A (a warp of Warp<G, true> groups past
   the end of a batch keeps its collectives in step that way). */
template <int NMAX, typename Grp, typename T>
__device__ __forceinline__ int group_inverse(Grp &g, int n, T *A, int64_t lda,
                                             bool active = true) {
  constexpr int R = RowsPer<NMAX, Grp::size>::value, G = Grp::size;
  T r[R][NMAX];
  load_rows<NMAX>(g, active ? n : 0, A, lda, r);
  int pos[R];
  PivotIds<NMAX> ids;
  const int info = rows_inverse<NMAX>(g, n, r, pos, ids);
  g.barrier(); /* every lane has read A (on every group: Warp<G, true>) */
  if (info || !active) return info;
#pragma unroll
  for (int c = 0; c < NMAX; ++c) {
    if (c < n) {
      const int id = ids.get(c), col = id / R + G * (id % R);
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (g.lane + G * q < n) A[pos[q] + (int64_t)col * lda] = r[q][c];
    }
  }
  return 0;
}

} // namespace axb_dev

#endif
