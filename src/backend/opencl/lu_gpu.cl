/*
 * The GPU-device LU leaf (issue 29d): one column of a 32-64 column leaf
 * of the recursive panel per two launches, each spread over many
 * work-groups instead of one (lu.cl's lu_panel keeps a whole panel on one
 * work-group, one SM of a GPU).  Per column j of the leaf [c0, c1):
 *   lu_pivot       one group: the partial maxima of column j -> pivot row
 *                  p (LAPACK's first maximum), piv[j] := p, rows j and p
 *                  swapped on the leaf's columns, info on a zero pivot;
 *   lu_col_update  many groups over rows j+1..m-1: l = A(i,j) / A(j,j),
 *                  A(i,c) -= l A(j,c) for c in (j, c1), and the partial
 *                  maxima of the updated column j + 1 for the next pivot.
 * lu_amax gives the partial maxima of a leaf's first column.  Local size:
 * a power of two up to RL; partial g is group g's (|x|, row), row INT_MAX
 * when the group saw no number (no rows, or NaN only).
 */

#define RL 256     /* the reductions' local arrays (largest local size) */
#define LEAF_MAX 64 /* widest leaf: the pivot row kept in local memory */

/* (|x|, row) pairs in local memory reduced to element 0: the largest
   magnitude, the smaller row on ties.  NaN never wins a comparison. */
static void amax_tree(local real_t *v, local int *ix) {
  const int lid = get_local_id(0);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) {
      const real_t a = v[lid], b = v[lid + s];
      const int ia = ix[lid], ib = ix[lid + s];
      if (b > a || (b == a && ib < ia)) {
        v[lid] = b;
        ix[lid] = ib;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* This group's (best, row) pair into the partials, after the tree. */
static void amax_store(real_t best, int bi, local real_t *v, local int *ix,
                       global real_t *pv, global int *pi) {
  v[get_local_id(0)] = best;
  ix[get_local_id(0)] = bi;
  barrier(CLK_LOCAL_MEM_FENCE);
  amax_tree(v, ix);
  if (get_local_id(0) == 0) {
    pv[get_group_id(0)] = v[0];
    pi[get_group_id(0)] = ix[0];
  }
}

/* Partial maxima of |A(i, col)| for rows [from, to), grid-stride; rows
   ascend within a work-item, so `>` keeps the first maximum. */
kernel void lu_amax(global const real_t *A, long lda, int col, int from,
                    int to, global real_t *pv, global int *pi) {
  local real_t v[RL];
  local int ix[RL];
  const long a0 = 0;
  real_t best = -1;
  int bi = INT_MAX;
  const int step = get_global_size(0);
  for (int i = from + get_global_id(0); i < to; i += step) {
    const real_t x = fabs(AT(i, col));
    if (x > best) {
      best = x;
      bi = i;
    }
  }
  amax_store(best, bi, v, ix, pv, pi);
}

/* One work-group: the pivot of column j from g partials; piv[j] := p (all
   NaN: p = j, as lu_panel); rows j and p swapped on columns [c0, c1); a
   largest magnitude of exactly 0 sets *info = j + 1 if still 0. */
kernel void lu_pivot(global real_t *A, long lda, int j, int c0, int c1,
                     global const real_t *pv, global const int *pi, int g,
                     global int *piv, global int *info) {
  local real_t v[RL];
  local int ix[RL];
  const long a0 = 0;
  real_t best = -1;
  int bi = INT_MAX;
  for (int t = get_local_id(0); t < g; t += get_local_size(0)) {
    const real_t x = pv[t];
    const int r = pi[t];
    if (x > best || (x == best && r < bi)) {
      best = x;
      bi = r;
    }
  }
  v[get_local_id(0)] = best;
  ix[get_local_id(0)] = bi;
  barrier(CLK_LOCAL_MEM_FENCE);
  amax_tree(v, ix);
  const int p = ix[0] == INT_MAX ? j : ix[0];
  if (p != j)
    for (int c = c0 + get_local_id(0); c < c1; c += get_local_size(0)) {
      const real_t x = AT(j, c);
      AT(j, c) = AT(p, c);
      AT(p, c) = x;
    }
  if (get_local_id(0) == 0) {
    piv[j] = p;
    if (v[0] == 0 && *info == 0) *info = j + 1;
  }
}

/* Rows [j+1, m), grid-stride: column j scaled by the pivot A(j, j) (not
   when it is 0: the column is zero or NaN below it, as lu_panel), the
   rank-1 update of columns (j, c1), and the partial maxima of column j+1
   (when j + 1 < c1) for lu_pivot.  c1 - j <= LEAF_MAX. */
kernel void lu_col_update(global real_t *A, long lda, int j, int c1, int m,
                          global real_t *pv, global int *pi) {
  local real_t u[LEAF_MAX];
  local real_t v[RL];
  local int ix[RL];
  const long a0 = 0;
  const int w = c1 - j - 1; /* columns right of j in the leaf */
  for (int c = get_local_id(0); c < w; c += get_local_size(0))
    u[c] = AT(j, j + 1 + c);
  barrier(CLK_LOCAL_MEM_FENCE);
  const real_t d = AT(j, j);
  real_t best = -1;
  int bi = INT_MAX;
  const int step = get_global_size(0);
  for (int i = j + 1 + get_global_id(0); i < m; i += step) {
    real_t l = AT(i, j);
    if (d != 0) l /= d;
    AT(i, j) = l;
    for (int c = 0; c < w; ++c) AT(i, j + 1 + c) -= l * u[c];
    if (w > 0) {
      const real_t x = fabs(AT(i, j + 1));
      if (x > best) {
        best = x;
        bi = i;
      }
    }
  }
  if (w > 0) amax_store(best, bi, v, ix, pv, pi);
}
