/*
 * LU with partial pivoting: the panel (LAPACK's getf2 on a column block, in
 * one work-group) and the row interchanges on other columns (laswp).
 */

/* Tree reduction of (|x|, row) pairs in local memory: the largest
   magnitude, the smallest row on ties (LAPACK's first maximum).  NaN never
   wins a comparison, so a NaN entry is never chosen as a pivot unless the
   whole column is NaN (row = INT_MAX then; the caller keeps the diagonal). */
static void argmax_local(local real_t *v, local int *ix, int lid) {
  for (int s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) {
      real_t a = v[lid], b = v[lid + s];
      int ia = ix[lid], ib = ix[lid + s];
      if (b > a || (b == a && ib < ia)) {
        v[lid] = b;
        ix[lid] = ib;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* The pivot row of a column (col[from .. to - 1]): the first largest |x|,
   from itself when every entry is NaN.  Every work-item of the group calls
   it; v and ix are WG-long local scratch. */
static int column_argmax(global const real_t *col, int from, int to,
                         local real_t *v, local int *ix, int lid) {
  real_t best = -1;
  int bi = INT_MAX;
  for (int i = from + lid; i < to; i += WG) {
    const real_t x = fabs(col[i]);
    if (x > best) {
      best = x;
      bi = i;
    }
  }
  v[lid] = best;
  ix[lid] = bi;
  barrier(CLK_LOCAL_MEM_FENCE);
  argmax_local(v, ix, lid);
  return ix[0] < to ? ix[0] : from;
}

/*
 * Factor the m x jb panel at a0 in place: for each column j, the pivot is
 * the first largest |A(i, j)|, i >= j; rows j and p are swapped within the
 * panel; the column below the diagonal is divided by the pivot; the rest of
 * the panel gets the rank-1 update A(i, c) -= A(i, j) A(j, c).  piv[k0 + j]
 * := k0 + p (0-based rows of the whole matrix).  A zero pivot is skipped
 * (the column below it is zero already) and the first one sets *info =
 * k0 + j + 1 when *info is still 0, as LAPACK's getf2.
 * One work-group of WG work-items; work-item lid owns rows lid, lid + WG...
 */
kernel void lu_panel(global real_t *A, long a0, long lda, int m, int jb,
                     int k0, global int *piv, global int *info) {
  local real_t v[WG];
  local int ix[WG];
  const int lid = get_local_id(0);
  for (int j = 0; j < jb; ++j) {
    const int p = column_argmax(A + a0 + (long)j * lda, j, m, v, ix, lid);
    const real_t pv = AT(p, j);
    SYNC();
    if (lid == 0) piv[k0 + j] = k0 + p;
    if (p != j)
      for (int c = lid; c < jb; c += WG) {
        real_t t = AT(j, c);
        AT(j, c) = AT(p, c);
        AT(p, c) = t;
      }
    SYNC();
    /* two plain ifs, not if/else: PoCL 5.0's work-group compiler crashed
       on the if/else (a loop in one arm, a store in the other) between
       two barriers (its issue 1435, fixed in 6.0; Ubuntu 24.04 ships 5.0) */
    if (pv != 0)
      for (int i = j + 1 + lid; i < m; i += WG) AT(i, j) /= pv;
    if (pv == 0 && lid == 0 && *info == 0) *info = k0 + j + 1;
    SYNC();
    /* columns outside, rows inside: consecutive work-items (or, with one
       work-item, consecutive iterations) touch consecutive rows */
    for (int c = j + 1; c < jb; ++c) {
      const real_t u = AT(j, c);
#if WG == 1
      /* one work-item (a CPU device): 8 rows per vector.  The update is
         the panel's work (m jb^2 / 2 per panel) and runs on one core; as
         the scalar loop it was most of getrf's serial time on 16 cores,
         with explicit vectors a quarter of it (notes/opencl.md). */
      global real_t *x = A + a0 + (long)c * lda;
      global const real_t *l = A + a0 + (long)j * lda;
      int i = j + 1;
      for (; i + 8 <= m; i += 8)
        vstore8(vload8(0, x + i) - vload8(0, l + i) * u, 0, x + i);
      for (; i < m; ++i) x[i] -= l[i] * u;
#else
      for (int i = j + 1 + lid; i < m; i += WG) AT(i, c) -= AT(i, j) * u;
#endif
    }
    SYNC();
  }
}

/*
 * Row interchanges on ncols columns starting at a0: for k = k1..k2-1
 * (forward) or k2-1..k1 (backward) swap rows k and piv[k] (0-based).
 * One work-item per column.
 */
kernel void laswp(global real_t *A, long a0, long lda, int ncols,
                  global const int *piv, int k1, int k2, int forward) {
  const int c = get_global_id(0);
  if (c >= ncols) return;
  global real_t *col = A + a0 + (long)c * lda;
  for (int t = 0; t < k2 - k1; ++t) {
    const int k = forward ? k1 + t : k2 - 1 - t;
    const int p = piv[k];
    if (p != k) {
      real_t x = col[k];
      col[k] = col[p];
      col[p] = x;
    }
  }
}
