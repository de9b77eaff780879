/*
 * The GPU-device LU leaf (issue 29d): one launch per column of a 16-64
 * column leaf [c0, c1) of the recursive panel, spread over many
 * work-groups (lu.cl's lu_panel keeps a whole panel on one work-group,
 * one SM of a GPU).  Launch j (lu_step) needs no other group's work of
 * the same launch: the pivot row and the old row j come from snapshots
 * that launch j - 1 (or lu_leaf_start) wrote, so the row interchange, the
 * scaling and the rank-1 update happen together:
 *   - every group reduces the partial maxima of column j to the pivot
 *     row p (LAPACK's first maximum: the largest |x|, the smaller row on
 *     ties; NaN never wins, an all-NaN column keeps p = j);
 *   - group 0 writes row j := the pivot row (the snapshot of row p),
 *     piv[j] := p, and *info := j + 1 on a zero maximum (if still 0);
 *   - rows i > j: l = A(i,j) / A(p,j) (not scaled when the pivot is 0:
 *     the column is zero or NaN below it, as lu_panel), A(i,c) -= l u(c)
 *     for c in (j, c1); row p gets the old row j, updated the same way;
 *   - each group's partial maximum of the updated column j + 1, and a
 *     snapshot of its winning row and of row j + 1, for launch j + 1.
 * Snapshots and partials alternate between two slots by the parity of the
 * column (launch j reads slot j & 1 and writes the other).  Local size: a
 * power of two up to RL; at most GMAX groups.
 */

#define RL 256      /* the reductions' local arrays (largest local size) */
#define LEAF_MAX 64 /* widest leaf: snapshot rows of LEAF_MAX values */
#define GMAX 256    /* most groups per launch (GPU_GROUPS of ocl_gpu.c) */

/* The scratch S (reals) and I (ints): partial maxima and their rows, the
   winning rows' snapshots, the snapshot of the next row j. */
#define PV(par, g) S[(par)*GMAX + (g)]
#define PI(par, g) I[(par)*GMAX + (g)]
#define CAND(par, g, c) S[2 * GMAX + ((long)(par)*GMAX + (g)) * LEAF_MAX + (c)]
#define ROWB(par, c) S[2 * GMAX + 2 * GMAX * LEAF_MAX + (par)*LEAF_MAX + (c)]

/* (|x|, row, slot) triples in local memory reduced to element 0: the
   largest magnitude, the smaller row on ties.  NaN never wins. */
static void amax_tree(local real_t *v, local int *ix, local int *gt) {
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    const int lid = get_local_id(0);
    if (lid < s) {
      const real_t a = v[lid], b = v[lid + s];
      const int ia = ix[lid], ib = ix[lid + s];
      if (b > a || (b == a && ib < ia)) {
        v[lid] = b;
        ix[lid] = ib;
        gt[lid] = gt[lid + s];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* This group's best (|x|, row) into partial slot (par, group) and the
   row's leaf columns [c0, c1) into its snapshot.  The global fence makes
   the rows the group's work-items wrote visible to all of them. */
static void group_partial(global const real_t *A, long lda, int c0, int c1,
                          real_t best, int bi, local real_t *v, local int *ix,
                          local int *gt, global real_t *S, global int *I,
                          int par) {
  const long a0 = 0;
  v[get_local_id(0)] = best;
  ix[get_local_id(0)] = bi;
  gt[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  amax_tree(v, ix, gt);
  const int g = get_group_id(0), r = ix[0];
  if (get_local_id(0) == 0) {
    PV(par, g) = v[0];
    PI(par, g) = r;
  }
  if (r != INT_MAX)
    for (int c = c0 + get_local_id(0); c < c1; c += get_local_size(0))
      CAND(par, g, c - c0) = AT(r, c);
}

/* Row i (> j) of column j's step, lu_step's and lu_leaf_persist's: the
   multiplier l = A(i,j) / d (A(p,j) = d, the pivot; not scaled when d is
   0), row p getting the old row j (rj) with its update, the rank-1 update
   A(i,c) -= l u(c) for c in (j, c1) (u: the pivot row); then |A(i,j+1)|
   into the running maximum (nbest, nbi) when w > 0 columns follow, and
   row j + 1's snapshot into slot nxt. */
static void lu_row(global real_t *A, long lda, int i, int j, int p, int c0,
                   int c1, int w, real_t d, local const real_t *u,
                   local const real_t *rj, global real_t *S, int nxt,
                   real_t *nbest, int *nbi) {
  const long a0 = 0;
  real_t l = i == p ? rj[j - c0] : AT(i, j);
  if (d != 0) l /= d;
  if (i == p) /* the old row j moves here: its L part, then its update */
    for (int c = c0; c < j; ++c)
      AT(i, c) = rj[c - c0];
  AT(i, j) = l;
  for (int c = j + 1; c < c1; ++c)
    AT(i, c) = (i == p ? rj[c - c0] : AT(i, c)) - l * u[c - c0];
  if (w > 0) {
    const real_t x = fabs(AT(i, j + 1));
    if (x > *nbest) {
      *nbest = x;
      *nbi = i;
    }
  }
  if (i == j + 1)
    for (int c = c0; c < c1; ++c)
      ROWB(nxt, c - c0) = AT(i, c);
}

/* The pivot row of column j from the g_in partials of slot par
   (returned; *colmax its magnitude), the pivot row's snapshot into u and
   row j's into rj (w leaf columns).  S and I: the scratch, read volatile
   (other groups wrote it).  v, ix, gt are read before the last barrier:
   the group's next writes to them may come before a slow work-item's
   reads otherwise. */
static int lu_pivot(volatile global const real_t *S,
                    volatile global const int *I, int par, int g_in, int w,
                    local real_t *v, local int *ix, local int *gt,
                    local real_t *u, local real_t *rj, int j, real_t *colmax) {
  real_t best = -1;
  int bi = INT_MAX, bt = 0;
  for (int t = get_local_id(0); t < g_in; t += get_local_size(0)) {
    const real_t x = PV(par, t);
    const int r = PI(par, t);
    if (x > best || (x == best && r < bi)) {
      best = x;
      bi = r;
      bt = t;
    }
  }
  v[get_local_id(0)] = best;
  ix[get_local_id(0)] = bi;
  gt[get_local_id(0)] = bt;
  barrier(CLK_LOCAL_MEM_FENCE);
  amax_tree(v, ix, gt);
  const int p = ix[0] == INT_MAX ? j : ix[0], t = gt[0];
  for (int c = get_local_id(0); c < w; c += get_local_size(0)) {
    rj[c] = ROWB(par, c);
    u[c] = p == j ? rj[c] : CAND(par, t, c);
  }
  *colmax = v[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return p;
}

/* Group 0: row j := the pivot row (u, when p != j), piv[j] := p, and
 *info := j + 1 on a zero column maximum (the first only). */
static void lu_take_pivot(global real_t *A, long lda, int j, int p, int c0,
                          int c1, local const real_t *u, real_t colmax,
                          global int *piv, global int *info) {
  const long a0 = 0;
  if (get_group_id(0) != 0) return;
  if (p != j)
    for (int c = c0 + get_local_id(0); c < c1; c += get_local_size(0))
      AT(j, c) = u[c - c0];
  if (get_local_id(0) == 0) {
    piv[j] = p;
    if (colmax == 0 && *info == 0) *info = j + 1;
  }
}

/* Column c0's largest |A(i, c0)| over rows i = i0, i0 + gs, ... < m into
   (best, bi) (rows ascending: `>` keeps the first), and row c0's snapshot
   (slot c0 & 1) by the work-item that owns it. */
static void lu_first_max(global const real_t *A, long lda, int c0, int c1,
                         int m, int i0, int gs, global real_t *S, real_t *best,
                         int *bi) {
  const long a0 = 0;
  for (int i = i0; i < m; i += gs) {
    const real_t x = fabs(AT(i, c0));
    if (x > *best) {
      *best = x;
      *bi = i;
    }
    if (i == c0)
      for (int c = c0; c < c1; ++c)
        ROWB(c0 & 1, c - c0) = AT(i, c);
  }
}

/* The leaf's first column: partial maxima of |A(i, c0)|, rows [c0, m)
   (grid-stride, rows ascending within a work-item: `>` keeps the first),
   the winners' snapshots and the snapshot of row c0. */
kernel void lu_leaf_start(global const real_t *A, long lda, int c0, int c1,
                          int m, global real_t *S, global int *I) {
  local real_t v[RL];
  local int ix[RL], gt[RL];
  const long a0 = 0;
  const int par = c0 & 1;
  real_t best = -1;
  int bi = INT_MAX;
  lu_first_max(A, lda, c0, c1, m, c0 + get_global_id(0), get_global_size(0), S,
               &best, &bi);
  group_partial(A, lda, c0, c1, best, bi, v, ix, gt, S, I, par);
}

/* Column j of the leaf [c0, c1) (rows to m), from the g_in partials that
   the launch before wrote; see the top of this file. */
kernel void lu_step(global real_t *A, long lda, int j, int c0, int c1, int m,
                    int g_in, global real_t *S, global int *I, global int *piv,
                    global int *info) {
  local real_t v[RL], u[LEAF_MAX], rj[LEAF_MAX];
  local int ix[RL], gt[RL];
  const long a0 = 0;
  const int par = j & 1, nxt = (j + 1) & 1, w = c1 - j - 1;
  real_t colmax;
  const int p =
      lu_pivot(S, I, par, g_in, c1 - c0, v, ix, gt, u, rj, j, &colmax);
  const real_t d = u[j - c0];
  lu_take_pivot(A, lda, j, p, c0, c1, u, colmax, piv, info);
  real_t nbest = -1;
  int nbi = INT_MAX;
  for (int i = j + 1 + get_global_id(0); i < m; i += get_global_size(0)) {
    lu_row(A, lda, i, j, p, c0, c1, w, d, u, rj, S, nxt, &nbest, &nbi);
  }
  if (w > 0) group_partial(A, lda, c0, c1, nbest, nbi, v, ix, gt, S, I, nxt);
}
