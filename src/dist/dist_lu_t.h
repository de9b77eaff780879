/*
 * Distributed right-looking blocked LU with partial pivoting (template: T,
 * P; instantiated by dist_lu.c).  ScaLAPACK's pdgetrf algorithm, written
 * for clarity over the local-operation table:
 *
 * step k (block column k, global columns k0 .. k0+jb-1, owner column qk,
 * owner of the diagonal block (pk, qk)):
 *   1. panel   (process column qk): for each column j of the panel, the
 *              largest |a_ij| over rows i >= k0+j of ALL process rows (one
 *              allreduce in the process column: value, then smallest global
 *              row on ties, as LAPACK's idamax; the winner brings its row's
 *              entries, so no broadcast of the pivot row follows); the two
 *              rows exchanged over the panel's columns (send/receive
 *              between their owners); multipliers l_ij = a_ij / a_jj and
 *              the rank-1 update, within sub-panels of ib columns whose U
 *              rows then update the rest of the panel by gemm.
 *   2. broadcast the panel's local rows, its pivots and info along each
 *              process row.
 *   3. swaps   every process column applies the jb interchanges to its
 *              other local columns (left: L is stored permuted, as LAPACK).
 *   4. U row   process row pk: U12 = L11^-1 A12 (trsm), broadcast down the
 *              process columns.
 *   5. update  A22 -= L21 U12 on every rank's local trailing blocks (gemm).
 *
 * Look-ahead (depth 1, grid->lookahead): in step k the owner column of
 * block k+1 updates that block column first, factors panel k+1 and starts
 * its broadcast (MPI_Ibcast) before the rest of the trailing update of step
 * k; the other ranks post the receive before their update and wait at the
 * start of step k+1.  Row interchanges commute with the update (the same
 * rows of L21 and A22 move together), so the result is that of the plain
 * order.
 *
 * The look-ahead lane (GPU ranks on one process row, issue 24i; as the
 * Cholesky's): the owner of block k+1 applies step k's interchanges, U12
 * and update to that block column and factors panel k+1 on the table's
 * second stream, beside the rest of its update of step k-1; every rank
 * updates its first block column after the look-ahead's first and fences
 * there, and three panel buffers rotate.
 *
 * Local pivoting (grid->pivot = AXB_DIST_PIVOT_LOCAL): the same, with the
 * candidates of step 1 restricted to the process row that owns row k0+j.
 */

#include "dist/dist_swap_t.h"

#define OPS AXB_CAT3(axb_dist_ops_, P, )
#define CTX AXB_FN(lu_ctx_, )
#define MPI_T (sizeof(T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)

typedef struct {
  axb_handle h;
  const axb_dist_grid *g;
  const OPS *ops;
  T *a;
  int64_t lld, n, nb, mloc, nloc;
  int64_t *ipiv, info;
  axb_status st;         /* first failed local operation            */
  T *pbuf[3];            /* panel buffers: (mloc - lr0) x jb         */
  int64_t *hbuf[3];      /* panel headers: jb pivots, info           */
  int nslot;             /* panel buffers: 2, or 3 with the lane     */
  int lane;              /* 1: the look-ahead lane is used           */
  int64_t ub0;           /* the local column of ubuf's first column  */
  T *ubuf, *rbuf, *urow; /* U12, one row for swaps, the pivot row    */
  AXB_FN(swap_ws_, ) sw; /* the batched interchanges (dist_swap_t.h) */
  MPI_Request req[2];
  MPI_Op maxloc;
  MPI_Datatype cand_type; /* ib + 2 doubles: |a|, row, the row's entries */
  int64_t ib;             /* columns of a sub-panel                       */
  double *cand;           /* 2 (ib + 2): the candidate and the winner     */
  T *pu;                  /* ib x nb: a sub-panel's U rows (the look-ahead
                             panel must not touch ubuf, still in use)     */
  T *pa;   /* the panel's first column (ld lld): in a, or in hp            */
  T *hp;   /* lld x nb host copy of the panel when the table asks for one
              (GPU ranks: the panel is factored on the host), else NULL    */
  T *prow; /* ib entries: the candidate row read through the table         */
  const T *pd, *ud;  /* pbuf[slot] and ubuf of the step where the trailing
                        gemms read them (the table's mirror: one upload)  */
  int pdev[3], udev; /* 1: this root packed pbuf[slot] / ubuf into the
                        table's device broadcast buffer (dbuf) instead    */
  axb_dist_times *t;
  int tl;       /* 1: the device timeline records (AXB_DIST_MARK) */
  int gather;   /* 1: panels gathered onto one device (P > 1, GPU ranks) */
  int late;     /* 1: receivers join a look-ahead broadcast after their
                   update (AXB_DIST_GPU_LATE_RECV=1, GPU ranks)            */
  T *gd, *gg;   /* the gathered pieces and the panel in global row order
                   (device work buffers of n x nb entries each)           */
  int *cnt;     /* 2 P: the pieces' counts and offsets                     */
  int defer;    /* 1: the panel headers broadcast when first read (one
                   process row), so that a GPU root need not wait for its
                   panel's pivots before it queues the trailing update    */
  int hpend[3]; /* root, deferred: slot's pivots still on the device    */
} CTX;

static int64_t AXB_FN(lu_loc_, )(const CTX *c, int64_t gi, int row) {
  return row ? axb_dist_numroc(gi, c->nb, c->g->prow, c->g->nprow)
             : axb_dist_numroc(gi, c->nb, c->g->pcol, c->g->npcol);
}

static void AXB_FN(lu_note_, )(CTX *c, axb_status st) {
  if (c->st == AXB_SUCCESS && st != AXB_SUCCESS) c->st = st;
}

/* Exchange global rows r1 and r2 over the w panel columns at pa (ld lld;
   point to point within the process column). */
static void AXB_FN(lu_swap_, )(CTX *c, int64_t r1, int64_t r2, T *pa,
                               int64_t w) {
  if (r1 == r2) return;
  const axb_dist_grid *g = c->g;
  int o1 = dist_owner(r1, c->nb, g->nprow),
      o2 = dist_owner(r2, c->nb, g->nprow);
  int64_t l1 = dist_g2l(r1, c->nb, g->nprow),
          l2 = dist_g2l(r2, c->nb, g->nprow);
  if (w <= 0 || (o1 != g->prow && o2 != g->prow)) return;
  if (o1 == o2) {
    c->ops->swap_rows(w, pa, c->lld, l1, l2);
    return;
  }
  int other = o1 == g->prow ? o2 : o1;
  int64_t l = o1 == g->prow ? l1 : l2;
  c->ops->pack(1, w, pa + l, c->lld, c->rbuf);
  MPI_Sendrecv_replace(c->rbuf, (int)w, MPI_T, other, 7, other, 7, g->col,
                       MPI_STATUS_IGNORE);
  c->ops->unpack(1, w, c->rbuf, pa + l, c->lld);
}

/* One column j of the panel (columns lc0 .. lc0+jb-1), inside the
   sub-panel [j0, j1): the pivot search across the process column (one
   allreduce whose winner carries its row's entries j .. j1-1), the
   exchange of the two rows over the whole panel, the multipliers and the
   rank-1 update of the sub-panel. */
static void AXB_FN(lu_column_, )(CTX *c, int64_t k0, int64_t jb, int64_t j,
                                 int64_t j1, int64_t *hdr) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, lld = c->lld, gj = k0 + j;
  int64_t lrj = AXB_FN(lu_loc_, )(c, gj, 1), w = j1 - j;
  T *colj = c->pa + j * lld;
  double *cand = c->cand, *best = c->cand + c->ib + 2;
  memset(cand, 0, (size_t)(c->ib + 2) * sizeof(double));
  cand[0] = -1;
  cand[1] = (double)c->n;
  if (g->pivot != AXB_DIST_PIVOT_LOCAL ||
      dist_owner(gj, nb, g->nprow) == g->prow) {
    int64_t idx;
    c->ops->iamax(c->mloc - lrj, colj + lrj, &idx, &cand[0]);
    if (idx >= 0) {
      cand[1] = (double)dist_l2g(lrj + idx, nb, g->prow, g->nprow);
      c->ops->pack(1, w, colj + lrj + idx, lld, c->prow);
      for (int64_t e = 0; e < w; ++e)
        cand[2 + e] = (double)c->prow[e];
    }
  }
  MPI_Allreduce(cand, best, 1, c->cand_type, c->maxloc, g->col);
  int64_t p = (int64_t)best[1];
  if (best[0] < 0 || p >= c->n) p = gj; /* no candidate: cannot happen */
  hdr[j] = p + 1;
  AXB_FN(lu_swap_, )(c, gj, p, c->pa, jb);
  for (int64_t e = 0; e < w; ++e) /* the pivot row, as the owner has it */
    c->urow[e] = (T)best[2 + e];
  T piv = c->urow[0];
  if (piv == (T)0 && hdr[jb] == 0) hdr[jb] = gj + 1;
  int64_t lrb = AXB_FN(lu_loc_, )(c, gj + 1, 1);
  c->ops->panel_step(c->mloc - lrb, w - 1, piv, colj + lrb, c->urow + 1,
                     colj + lld + lrb, lld);
}

/* Step 1 on process column qk: factor the panel of block column k in
   place (local columns lc0 .. lc0+jb-1); pivots and info into hdr.
   Blocked by ib columns: after each sub-panel [j0, j1), its U rows right
   of it (all on process row pk: the panel's rows k0 .. k0+jb-1 form block
   row k) are solved there (trsm), broadcast down the column, and the rest
   of the panel is updated by one gemm, so that most of the panel's flops
   are BLAS-3 rather than rank-1 updates. */
static void AXB_FN(lu_panel_, )(CTX *c, int64_t k, int64_t *hdr) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, k0 = k * nb, jb = c->n - k0 < nb ? c->n - k0 : nb;
  int64_t lld = c->lld;
  int pk = dist_owner(k0, nb, g->nprow);
  hdr[jb] = 0;
  for (int64_t j0 = 0; j0 < jb; j0 += c->ib) {
    int64_t j1 = j0 + c->ib < jb ? j0 + c->ib : jb, wr = jb - j1;
    for (int64_t j = j0; j < j1; ++j)
      AXB_FN(lu_column_, )(c, k0, jb, j, j1, hdr);
    if (wr == 0) continue;
    T *a11 = c->pa + j0 * lld, *a12 = c->pa + j1 * lld;
    int64_t lu0 = AXB_FN(lu_loc_, )(c, k0 + j0, 1), bw = j1 - j0;
    if (g->prow == pk) {
      AXB_FN(lu_note_, )
      (c, c->ops->trsm(c->h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, bw,
                       wr, (T)1, a11 + lu0, lld, a12 + lu0, lld));
      c->ops->pack(bw, wr, a12 + lu0, lld, c->pu);
    }
    MPI_Bcast(c->pu, (int)(bw * wr), MPI_T, pk, g->col);
    int64_t lr1 = AXB_FN(lu_loc_, )(c, k0 + j1, 1);
    AXB_FN(lu_note_, )
    (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_NO_TRANS, c->mloc - lr1, wr, bw,
                     (T)-1, a11 + lr1, lld, c->pu, bw, (T)1, a12 + lr1, lld));
  }
}

/* The header of a panel factored in one call (panel_lu's pivots, 1-based
   panel rows, and info): global rows, and info as a global column; on a
   failed call no interchanges and no zero pivot (the status says it). */
static void AXB_FN(lu_hdr_, )(int64_t *hdr, int64_t k0, int64_t jb,
                              axb_status st, int64_t info) {
  for (int64_t j = 0; j < jb; ++j) /* panel rows -> global rows (1-based) */
    hdr[j] = st == AXB_SUCCESS ? hdr[j] + k0 : k0 + j + 1;
  hdr[jb] = st == AXB_SUCCESS && info ? k0 + info : 0;
}

/* One process row: the whole panel (rows lr0.. = k0.., jb columns at a0)
   is this rank's, so the table may factor it in one call (GPU ranks:
   cuSOLVER on the device array).  1 when it did (pivots and info into
   hdr as the distributed panel writes them), 0: the distributed panel. */
static int AXB_FN(lu_panel_whole_, )(CTX *c, int64_t k0, int64_t jb,
                                     int64_t lr0, T *a0, int slot) {
  int64_t *hdr = c->hbuf[slot];
  if (c->g->nprow != 1 || !c->ops->panel_lu || c->mloc - lr0 < jb) return 0;
  int64_t info = 0;
  if (c->defer && c->ops->panel_lu_start) { /* pivots read at first use */
    axb_status st = c->ops->panel_lu_start(c->h, c->mloc - lr0, jb, a0, c->lld);
    if (st != AXB_ERR_NOT_SUPPORTED) {
      AXB_FN(lu_note_, )(c, st);
      c->hpend[slot] = st == AXB_SUCCESS;
      if (st != AXB_SUCCESS) AXB_FN(lu_hdr_, )(hdr, k0, jb, st, 0);
      return 1;
    }
  }
  axb_status st =
      c->ops->panel_lu(c->h, c->mloc - lr0, jb, a0, c->lld, hdr, &info);
  if (st == AXB_ERR_NOT_SUPPORTED) return 0;
  AXB_FN(lu_note_, )(c, st);
  AXB_FN(lu_hdr_, )(hdr, k0, jb, st, info);
  return 1;
}

/* Deferred headers (one process row): the root's pending pivots of panel
   k (slot) read from the device, then the header broadcast along the
   process row, where the step first needs it. */
static void AXB_FN(lu_hdr_bcast_, )(CTX *c, int64_t k0, int64_t jb, int qk,
                                    int slot) {
  int64_t *hdr = c->hbuf[slot], info = 0;
  if (c->hpend[slot]) {
    c->hpend[slot] = 0;
    axb_status st = c->ops->panel_lu_wait(c->h, jb, hdr, &info);
    AXB_FN(lu_note_, )(c, st);
    AXB_FN(lu_hdr_, )(hdr, k0, jb, st, info);
  }
  MPI_Bcast(hdr, (int)jb + 1, MPI_INT64_T, qk, c->g->row);
}

/* cnt[p], dsp[p] (p < P): process row p's rows of the panel from global
   row k0 (jb columns) packed, and where they start in gd. */
static void AXB_FN(lu_counts_, )(CTX *c, int64_t k0, int64_t jb) {
  int P = c->g->nprow, *cnt = c->cnt, *dsp = c->cnt + P;
  int64_t off = 0;
  for (int p = 0; p < P; ++p) {
    int64_t mp =
        axb_dist_numroc(c->n, c->nb, p, P) - axb_dist_numroc(k0, c->nb, p, P);
    cnt[p] = (int)(mp * jb);
    dsp[p] = (int)off;
    off += mp * jb;
  }
}

/* Between the pieces in gd (process row order) and G = gg (global rows
   k0 .. n-1 in order, ld n - k0): one 2-D copy per local block of rows (nb
   consecutive global rows); into G (to_g 1) or back. */
static void AXB_FN(lu_regroup_, )(CTX *c, int64_t k0, int64_t jb, int to_g) {
  int P = c->g->nprow, *cnt = c->cnt, *dsp = c->cnt + P;
  int64_t nb = c->nb, m = c->n - k0;
  for (int p = 0; p < P; ++p) {
    int64_t mp = cnt[p] / jb, l0 = axb_dist_numroc(k0, nb, p, P), len;
    for (int64_t l = 0; l < mp; l += len) {
      len = nb - (l0 + l) % nb;
      if (len > mp - l) len = mp - l;
      T *x = c->gd + dsp[p] + l, *y = c->gg + dist_l2g(l0 + l, nb, p, P) - k0;
      if (to_g)
        c->ops->copy(len, jb, x, mp, y, m);
      else
        c->ops->copy(len, jb, y, m, x, mp);
    }
  }
}

/* Several process rows, GPU ranks (issue 24k): the panel's column block
   (rows k0.. of every process row of column qk) gathered onto the diagonal
   block's owner pk in global row order, G = A[k0:n, k0:k0+jb], factored
   there in one call (panel_lu: cuSOLVER getrf), the factored rows sent
   back, the pivots and info broadcast down the column.  This is exactly
   partial pivoting on the global column: getrf on G compares the same
   entries as the column search (rows k0+j.. of column j after the same
   eliminations), breaks ties to the smallest row as idamax does, and row
   i of the factored G is global row k0 + i after the interchanges, so
   sending it back by position leaves the panel interchanged and factored
   as lu_panel_ does.  Messages per panel: one gather and one scatter (P -
   1 transfers each, NCCL, device to device) and one broadcast of jb + 1
   integers, with their agreements: O(1) per panel, where the column
   search takes jb allreduces and up to jb row exchanges.  1: done; 0:
   not available (agreed: no NCCL), the column search instead. */
static int AXB_FN(lu_panel_gather_, )(CTX *c, int64_t k0, int64_t jb,
                                      int64_t lr0, T *a0, int64_t *hdr) {
  const axb_dist_grid *g = c->g;
  if (!c->gather) return 0;
  int P = g->nprow, pk = dist_owner(k0, c->nb, P), *dsp = c->cnt + P;
  int64_t m = c->n - k0, info = 0, mine = c->mloc - lr0;
  AXB_FN(lu_counts_, )(c, k0, jb);
  c->ops->pack(mine, jb, a0, c->lld, c->gd + dsp[g->prow]);
  if (!c->ops->gatherv_root(c->gd, c->cnt, dsp, pk, 0, g->col)) return 0;
  if (g->prow == pk) {
    AXB_FN(lu_regroup_, )(c, k0, jb, 1);
    axb_status st = c->ops->panel_lu(c->h, m, jb, c->gg, m, hdr, &info);
    if (st == AXB_ERR_NOT_SUPPORTED) /* no solver or workspace: a failure */
      st = axb__fail(c->h, AXB_ERR_DEVICE,
                     "distributed getrf: the gathered %lld x %lld panel "
                     "could not be factored on the device",
                     (long long)m, (long long)jb);
    AXB_FN(lu_note_, )(c, st);
    for (int64_t j = 0; j < jb; ++j) /* panel rows -> global rows */
      hdr[j] = st == AXB_SUCCESS ? hdr[j] + k0 : k0 + j + 1;
    hdr[jb] = st == AXB_SUCCESS && info ? k0 + info : 0;
    AXB_FN(lu_regroup_, )(c, k0, jb, 0);
  }
  if (!c->ops->gatherv_root(c->gd, c->cnt, dsp, pk, 1, g->col))
    AXB_FN(lu_note_, )
  (c, axb__fail(c->h, AXB_ERR_DEVICE,
                "distributed getrf: the factored panel could not be sent "
                "back (NCCL)"));
  MPI_Bcast(hdr, (int)jb + 1, MPI_INT64_T, pk, g->col);
  c->ops->unpack(mine, jb, c->gd + dsp[g->prow], a0, c->lld);
  return 1;
}

/* Factor panel k on its column (root) into pbuf/hbuf, and broadcast it
   along the process rows: blocking, or started (req) for the look-ahead. */
static void AXB_FN(lu_panel_bcast_, )(CTX *c, int64_t k, int slot,
                                      int nonblocking) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, k0 = k * nb, jb = c->n - k0 < nb ? c->n - k0 : nb;
  int64_t lr0 = AXB_FN(lu_loc_, )(c, k0, 1), lc0 = AXB_FN(lu_loc_, )(c, k0, 0);
  int qk = dist_owner(k0, nb, g->npcol);
  if (g->pcol == qk) {
    double t0 = axb__now();
    AXB_DIST_MARK(c, AXB_DIST_PH_PANEL, 1);
    /* The panel's rows lr0.. of columns lc0 .. lc0+jb-1, one contiguous
       range of a (with the rows above lr0 of the later columns). */
    T *a0 = c->a + lr0 + lc0 * c->lld;
    int64_t span = (jb - 1) * c->lld + (c->mloc - lr0);
    c->pa = c->a + lc0 * c->lld;
    if (!AXB_FN(lu_panel_whole_, )(c, k0, jb, lr0, a0, slot) &&
        !AXB_FN(lu_panel_gather_, )(c, k0, jb, lr0, a0, c->hbuf[slot])) {
      if (c->hp && c->mloc > lr0) { /* factored on a host copy */
        c->ops->pack(span, 1, a0, span, c->hp + lr0);
        c->pa = c->hp;
      }
      AXB_FN(lu_panel_, )(c, k, c->hbuf[slot]);
    }
    /* Into the table's broadcast buffer (GPU ranks: device to device from
       a device panel, one upload from a host copy), else pbuf. */
    T *dp = c->ops->dbuf ? c->ops->dbuf(slot, (c->mloc - lr0) * jb) : NULL;
    c->pdev[slot] = dp != NULL;
    c->ops->pack(c->mloc - lr0, jb, c->pa + lr0, c->lld,
                 dp ? dp : c->pbuf[slot]);
    if (c->pa == c->hp) c->ops->unpack(span, 1, c->hp + lr0, a0, span);
    c->t->panel += axb__now() - t0;
    AXB_DIST_MARK(c, AXB_DIST_PH_PANEL, 0);
  }
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 1);
  int cnt = (int)((c->mloc - lr0) * jb);
  /* Nobody reads the panel on the host but through mirror (pd). */
  int fl = (g->pcol == qk && c->pdev[slot] ? AXB_DIST_BC_ROOT_DEV : 0) |
           AXB_DIST_BC_DEV_ONLY;
  if (nonblocking) {
    c->req[0] = MPI_REQUEST_NULL; /* deferred: lu_hdr_bcast_ */
    if (!c->defer)
      MPI_Ibcast(c->hbuf[slot], (int)jb + 1, MPI_INT64_T, qk, g->row,
                 &c->req[0]);
    if (AXB_DIST_BCAST(c->ops, c->pbuf[slot], cnt, qk, g->row, slot, fl))
      c->req[1] = MPI_REQUEST_NULL;
    else
      MPI_Ibcast(c->pbuf[slot], cnt, MPI_T, qk, g->row, &c->req[1]);
  } else {
    if (!c->defer)
      MPI_Bcast(c->hbuf[slot], (int)jb + 1, MPI_INT64_T, qk, g->row);
    if (!AXB_DIST_BCAST(c->ops, c->pbuf[slot], cnt, qk, g->row, slot, fl))
      MPI_Bcast(c->pbuf[slot], cnt, MPI_T, qk, g->row);
  }
  c->t->bcast += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 0);
}

/* A[lr1.., c0..c1) -= L21 U12[:, c0 - ub0 ..] for step k (c->pd, c->ud). */
static void AXB_FN(lu_update_, )(CTX *c, int64_t lr0, int64_t lr1, int64_t jb,
                                 int64_t c0, int64_t c1) {
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 1);
  int64_t ldp = c->mloc - lr0;
  AXB_FN(lu_note_, )
  (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_NO_TRANS, c->mloc - lr1, c1 - c0, jb,
                   (T)-1, c->pd + (lr1 - lr0), ldp, c->ud + (c0 - c->ub0) * jb,
                   jb, (T)1, c->a + lr1 + c0 * c->lld, c->lld));
  c->t->update += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 0);
}

/* The look-ahead lane (one process row: this rank holds row block k): on
   the table's second stream, block column k+1 (local columns lc1 ..
   lc1+jb1) gets step k's interchanges, its part of U12 (trsm in place) and
   its update, then panel k+1 is factored into slot next and its broadcast
   started. */
static void AXB_FN(lu_lane_, )(CTX *c, int64_t k, int next, int64_t lr0,
                               int64_t lr1, int64_t lc1, int64_t jb,
                               int64_t jb1) {
  int64_t k0 = k * c->nb, lld = c->lld, ldp = c->mloc - lr0;
  T *col = c->a + lc1 * lld;
  c->ops->lane(1);
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_SWAP, 1);
  AXB_FN(lu_note_, )
  (c, c->ops->laswp(c->h, jb1, col, lld, k0, k0 + jb, c->ipiv));
  c->t->swap += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_SWAP, 0);
  t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 1);
  AXB_FN(lu_note_, )
  (c, c->ops->trsm(c->h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, jb, jb1,
                   (T)1, c->pd, ldp, col + lr0, lld));
  AXB_FN(lu_note_, )
  (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_NO_TRANS, c->mloc - lr1, jb1, jb,
                   (T)-1, c->pd + (lr1 - lr0), ldp, col + lr0, lld, (T)1,
                   col + lr1, lld));
  c->t->update += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 0);
  AXB_FN(lu_panel_bcast_, )(c, k + 1, next, 1);
  c->ops->lane(0);
}

/* Steps 2-5 of block column k (its panel factored and broadcast, or its
   broadcast started when pending). */
static void AXB_FN(lu_step_, )(CTX *c, int64_t k, int slot, int pending) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, k0 = k * nb, jb = c->n - k0 < nb ? c->n - k0 : nb;
  int64_t lr0 = AXB_FN(lu_loc_, )(c, k0, 1), lc0 = AXB_FN(lu_loc_, )(c, k0, 0);
  int64_t lr1 = AXB_FN(lu_loc_, )(c, k0 + jb, 1);
  int64_t lc1 = AXB_FN(lu_loc_, )(c, k0 + jb, 0);
  int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 1);
  if (pending) MPI_Waitall(2, c->req, MPI_STATUSES_IGNORE);
  AXB_DIST_BCAST_WAIT(c->ops, c->pbuf[slot]);
  if (c->defer) AXB_FN(lu_hdr_bcast_, )(c, k0, jb, qk, slot);
  c->t->bcast += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 0);
  const int64_t *hdr = c->hbuf[slot];
  for (int64_t j = 0; j < jb; ++j)
    c->ipiv[k0 + j] = hdr[j];
  if (hdr[jb] && !c->info) c->info = hdr[jb];
  /* The step's L11/L21 where the device reads it (GPU ranks: the
     broadcast's device copy, or one upload), for the trsms and gemms. */
  c->pd = c->ops->mirror(0, c->pbuf[slot], (c->mloc - lr0) * jb);
  int64_t k1 = k0 + jb, jb1 = c->n - k1 < nb ? c->n - k1 : nb;
  int la = g->lookahead && k1 < c->n, next = (slot + 1) % c->nslot;
  int own = la && g->pcol == dist_owner(k1, nb, g->npcol);
  int lane = own && c->lane; /* block column k+1 on the lane */
  if (lane) AXB_FN(lu_lane_, )(c, k, next, lr0, lr1, lc1, jb, jb1);
  /* 3: interchanges on the columns outside the panel (and outside block
     column k+1 when the lane has it), one exchange. */
  t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_SWAP, 1);
  int in = g->pcol == qk;
  int64_t cr[4] = {0, in ? lc0 : c->nloc, in ? lc0 + jb : c->nloc, c->nloc};
  if (lane) { /* one process row: [0, lc0) and after block column k+1 */
    cr[1] = lc0;
    cr[2] = lc1 + jb1;
  }
  AXB_FN(dist_laswp_, )
  (c->h, c->ops, g, c->a, c->lld, nb, k0, jb, c->ipiv, cr, &c->sw);
  AXB_FN(lu_note_, )(c, c->sw.st);
  c->t->swap += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_SWAP, 0);
  /* 4: U12 on process row pk (from local column ub0: the lane has block
     column k+1's), broadcast down the columns. */
  c->ub0 = lane ? lc1 + jb1 : lc1;
  int64_t wu = c->nloc - c->ub0;
  t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 1);
  c->udev = 0;
  if (g->prow == pk && wu > 0) {
    T *a12 = c->a + lr0 + c->ub0 * c->lld;
    AXB_FN(lu_note_, )
    (c, c->ops->trsm(c->h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, jb, wu,
                     (T)1, c->pd, c->mloc - lr0, a12, c->lld));
    T *du = c->ops->dbuf ? c->ops->dbuf(3, jb * wu) : NULL;
    c->udev = du != NULL;
    c->ops->pack(jb, wu, a12, c->lld, du ? du : c->ubuf);
  }
  c->t->update += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 0);
  t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 1);
  int fl = (g->prow == pk && c->udev ? AXB_DIST_BC_ROOT_DEV : 0) |
           AXB_DIST_BC_DEV_ONLY;
  if (wu > 0 && !AXB_DIST_BCAST(c->ops, c->ubuf, jb * wu, pk, g->col, 3, fl))
    MPI_Bcast(c->ubuf, (int)(jb * wu), MPI_T, pk, g->col);
  AXB_DIST_BCAST_WAIT(c->ops, c->ubuf);
  c->t->bcast += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 0);
  c->ud = c->ops->mirror(1, c->ubuf, jb * (wu > 0 ? wu : 0));
  /* 5: the trailing update, with the look-ahead's block column first (and
     with the lane, the next look-ahead's block column, then the fence). */
  if (la) {
    /* A receiver of panel k+1 joins its broadcast after enqueuing its
       update (late: its GPU works while the owner factors), or before. */
    int late = !own && c->late;
    if (!lane) {
      if (own) AXB_FN(lu_update_, )(c, lr0, lr1, jb, lc1, lc1 + jb1);
      if (!late) AXB_FN(lu_panel_bcast_, )(c, k + 1, next, 1);
    }
    int64_t r0 = own ? lc1 + jb1 : lc1;
    if (c->lane) {
      int64_t r1 = r0 + nb < c->nloc ? r0 + nb : c->nloc;
      AXB_FN(lu_update_, )(c, lr0, lr1, jb, r0, r1);
      c->ops->fence();
      r0 = r1;
    }
    AXB_FN(lu_update_, )(c, lr0, lr1, jb, r0, c->nloc);
    if (late) AXB_FN(lu_panel_bcast_, )(c, k + 1, next, 1);
  } else {
    AXB_FN(lu_update_, )(c, lr0, lr1, jb, lc1, c->nloc);
  }
}

/* The largest value (NaN above all), then the smallest row: the reduction
   of the pivot search on elements (|a|, global row, the row's entries) of
   doubles; the winner's whole element is kept. */
static void AXB_FN(lu_maxloc_, )(void *in, void *inout, int *len,
                                 MPI_Datatype *dt) {
  int size = 0;
  MPI_Type_size(*dt, &size);
  int64_t m = size / (int)sizeof(double);
  const double *x = in;
  double *y = inout;
  for (int i = 0; i < *len; ++i, x += m, y += m) {
    int xn = x[0] != x[0], yn = y[0] != y[0];
    int take = yn ? (xn && x[1] < y[1])
                  : (xn || x[0] > y[0] || (x[0] == y[0] && x[1] < y[1]));
    if (take) memcpy(y, x, (size_t)m * sizeof(double));
  }
}

/* The gathered panel (hp = 2: the table's choice; several process rows,
   partial pivoting): its two device buffers of (global rows) x nb entries,
   the largest panel (step 0), reserved before the first step, so that no
   step can fail for them.  Agreed over the process column (its ranks call
   the same collectives): where any rank cannot (another memory kind, an
   environment of its own, buffers that do not fit or a message above
   2^30 entries) the column searches as before, on the host copy. */
static void AXB_FN(lu_gather_alloc_, )(CTX *c, int hp) {
  const axb_dist_grid *g = c->g;
  int64_t ng = c->n * c->nb;
  int ok = hp == 2 && g->nprow > 1 && g->pivot != AXB_DIST_PIVOT_LOCAL &&
           c->n > 0 && c->ops->gatherv_root && c->ops->dwork &&
           c->ops->panel_lu && c->ops->copy && ng <= AXB_DIST_MSG_MAX;
  if (ok) {
    c->cnt = axb__malloc(2 * (int64_t)g->nprow, sizeof(int));
    c->gd = c->ops->dwork(0, ng);
    c->gg = c->gd ? c->ops->dwork(1, ng) : NULL;
    ok = c->cnt && c->gd && c->gg;
  }
  if (g->nprow > 1)
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, g->col);
  c->gather = ok;
  if (!ok) {
    axb__free(c->cnt);
    c->cnt = NULL;
    c->gd = c->gg = NULL;
  }
}

static axb_status AXB_FN(lu_alloc_, )(CTX *c) {
  int64_t mnb = (c->mloc > 1 ? c->mloc : 1) * c->nb;
  c->lane =
      c->ops->lane && c->ops->fence && c->g->nprow == 1 && c->g->lookahead;
  c->late = axb__dist_late_recv(c->ops->bcast != NULL);
  c->nslot = c->lane ? 3 : 2;
  int bufs = 1;
  for (int i = 0; i < c->nslot; ++i) {
    c->pbuf[i] = axb__dist_bcbuf(c->h, mnb, sizeof(T));
    c->hbuf[i] = axb__malloc(c->nb + 1, sizeof(int64_t));
    bufs = bufs && c->pbuf[i] && c->hbuf[i];
  }
  c->ubuf =
      axb__dist_bcbuf(c->h, c->nb * (c->nloc > 1 ? c->nloc : 1), sizeof(T));
  c->rbuf = axb__malloc(c->nloc + 1, sizeof(T));
  c->urow = axb__malloc(c->nb, sizeof(T));
  c->ib = c->nb < 32 ? c->nb : 32;
  c->cand = axb__malloc(2 * (c->ib + 2), sizeof(double));
  c->pu = axb__malloc(c->ib * c->nb, sizeof(T));
  c->prow = axb__malloc(c->ib, sizeof(T));
  int hp = c->ops->panel_on_host(c->a);
  if (hp) c->hp = axb__dist_halloc(c->h, c->lld * c->nb, sizeof(T));
  AXB_FN(lu_gather_alloc_, )(c, hp);
  if (!bufs || !c->ubuf || !c->rbuf || !c->urow || !c->cand || !c->pu ||
      !c->prow || (hp && !c->hp))
    return axb__fail(c->h, AXB_ERR_OUT_OF_MEMORY,
                     "distributed getrf: cannot allocate the panel buffers "
                     "(%lld x %lld local)",
                     (long long)c->mloc, (long long)c->nloc);
  axb_status st = AXB_FN(swap_ws_alloc_, )(&c->sw, c->nb, c->nloc, c->g->nprow);
  if (st == AXB_ERR_OUT_OF_MEMORY)
    return axb__fail(c->h, st,
                     "distributed getrf: cannot allocate the "
                     "interchange buffers");
  if (st != AXB_SUCCESS || mnb > AXB_DIST_MSG_MAX ||
      c->nb * c->nloc > AXB_DIST_MSG_MAX)
    return axb__fail(c->h, AXB_ERR_NOT_SUPPORTED,
                     "distributed getrf: a panel message would exceed 2^30 "
                     "entries (lower nb)");
  return AXB_SUCCESS;
}

static void AXB_FN(lu_free_, )(CTX *c) {
  for (int i = 0; i < c->nslot; ++i) {
    axb__dist_hfree(c->pbuf[i]);
    axb__free(c->hbuf[i]);
  }
  axb__dist_hfree(c->ubuf);
  axb__free(c->rbuf);
  axb__free(c->urow);
  axb__free(c->cand);
  axb__free(c->pu);
  axb__free(c->prow);
  axb__dist_hfree(c->hp);
  axb__free(c->cnt);
  AXB_FN(swap_ws_free_, )(&c->sw);
}

axb_status AXB_FN(axb__dist_, getrf)(axb_handle h, axb_dist_matrix *A,
                                     int64_t *ipiv, int64_t *info) {
  axb_dist_grid *g = (axb_dist_grid *)A->grid;
  CTX c;
  AXB_DIST_CTX_INIT(c, h, A);
  c.ipiv = ipiv;
  memset(&g->times, 0, sizeof g->times);
  c.t = &g->times;
  *info = 0;
  double t0 = axb__now();
  c.tl = axb__dist_gpu_timeline_start(h);
  axb_status st = axb__dist_agree(h, g, AXB_FN(lu_alloc_, )(&c));
  if (st == AXB_SUCCESS && c.n > 0) {
    MPI_Op_create(AXB_FN(lu_maxloc_, ), 1, &c.maxloc);
    MPI_Type_contiguous((int)c.ib + 2, MPI_DOUBLE, &c.cand_type);
    MPI_Type_commit(&c.cand_type);
    int64_t nblk = (c.n + c.nb - 1) / c.nb;
    int pending = 0;
    /* Deferred headers where every rank of the (one) process row has the
       two-half panel: agreed, as every rank must call the same
       broadcasts. */
    c.defer = g->nprow == 1 && c.ops->panel_lu_start != NULL;
    MPI_Allreduce(MPI_IN_PLACE, &c.defer, 1, MPI_INT, MPI_MIN, g->row);
    if (c.lane) c.ops->fence(); /* lane 1's first wait */
    for (int64_t k = 0; k < nblk; ++k) {
      int slot = (int)(k % c.nslot);
      if (!pending) AXB_FN(lu_panel_bcast_, )(&c, k, slot, 0);
      AXB_FN(lu_step_, )(&c, k, slot, pending);
      pending = g->lookahead && k + 1 < nblk;
    }
    MPI_Op_free(&c.maxloc);
    MPI_Type_free(&c.cand_type);
    /* The device's work done before host code reads the array (GPU ranks). */
    if (c.ops->sync) AXB_FN(lu_note_, )(&c, c.ops->sync(h));
    st = axb__dist_agree(h, g, c.st);
  }
  axb__dist_gpu_timeline_end(&g->timeline); /* after the sync: complete */
  AXB_FN(lu_free_, )(&c);
  g->times.factor = axb__now() - t0;
  if (st != AXB_SUCCESS) return st;
  *info = c.info;
  if (c.info)
    return axb__fail(h, AXB_ERR_SINGULAR,
                     "distributed getrf: U(%lld,%lld) is exactly zero",
                     (long long)c.info, (long long)c.info);
  axb__clear(h);
  return AXB_SUCCESS;
}

#undef OPS
#undef CTX
#undef MPI_T
