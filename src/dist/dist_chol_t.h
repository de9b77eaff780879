/*
 * Distributed right-looking blocked Cholesky, lower, A = L L^T (template:
 * T, P; instantiated by dist_chol.c).  ScaLAPACK's pdpotrf order:
 *
 * step k (block column k, owner column qk, diagonal block on (pk, qk)):
 *   1. (pk, qk) factors the diagonal block (potrf); its info (the global
 *      minor k0 + i) and then L11 are broadcast down process column qk.
 *   2. process column qk: L21 = A21 L11^-T (trsm) on its local rows.
 *   3. the panel W = L21 (global rows k0+jb .. n-1) is assembled in the
 *      process column (an allgather of each rank's packed rows, then each
 *      row put at its global place) and broadcast along every process row with
 * the info, so that every rank holds the rows of L21 that its local rows AND
 * its local columns need (the transposed operand).
 *   4. every rank updates its local blocks of the lower trailing matrix:
 *      A[I, J] -= W[I] W[J]^T for global block rows I >= J (gemm; on a
 *      diagonal block only the lower triangle is written).
 *
 * Look-ahead (grid->lookahead, as the LU's): in step k the owner column of
 * block k+1 updates that block column first, runs steps 1-3 of k+1 within
 * its column and starts the row broadcast of W_{k+1} (MPI_Ibcast) before
 * the rest of its update of step k; the other ranks post the receive first
 * and wait at the start of step k+1.  Two W buffers alternate.
 *
 * The look-ahead lane (GPU ranks on one process row, issue 24i): the owner
 * of block k+1 runs that block column's update and panel on the table's
 * second stream (lane 1), beside the rest of its update of step k-1 that
 * is still running on the compute stream; for that, every rank updates
 * its first block column after the look-ahead's (block k+2 on its owner)
 * first and fences the compute stream there, which is all that lane 1
 * waits for (with W_k).  W_{k+1} is then written while W_{k-1} may still
 * be read: three W buffers rotate.
 */

#define OPS AXB_CAT3(axb_dist_ops_, P, )
#define MPI_T (sizeof(T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)

typedef struct {
  axb_handle h;
  const axb_dist_grid *g;
  const OPS *ops;
  T *a;
  int64_t lld, n, nb, mloc, nloc;
  axb_status st;
  const T *l11d; /* L11's device copy from its NCCL broadcast (issue 24k) */
  T *l11, *w[3], *wl, *s; /* L11, W (n x nb) x nslot, W at local rows,
                             scratch */
  int nslot;              /* W buffers: 2, or 3 with the look-ahead lane */
  int lane;               /* 1: the look-ahead lane is used             */
  int late; /* 1: receivers join a look-ahead broadcast after their update */
  const T *wd, *wld; /* W and wl where the gemms read them (mirror)  */
  T *gbuf;           /* n x nb: the column's rows of L21, gathered   */
  int *cnt;          /* 2 P: counts and displacements                */
  int64_t info[3];   /* the info travelling with each W            */
  int wdev[3];       /* 1: this root packed W into the table's device
                        broadcast buffer (dbuf), not into w          */
  MPI_Request req[2];
  axb_dist_times *t;
  int tl; /* 1: the device timeline records (AXB_DIST_MARK) */
} AXB_FN(chol_ctx_, );

#define CCTX AXB_FN(chol_ctx_, )

static void AXB_FN(chol_note_, )(CCTX *c, axb_status st) {
  if (c->st == AXB_SUCCESS && st != AXB_SUCCESS) c->st = st;
}

/* cnt[p], dsp[p] (p < P): the entries of process row p's rows of L21
   (global rows k1..) packed, jb columns, and where they start. */
static void AXB_FN(chol_counts_, )(CCTX *c, int64_t k1, int64_t jb) {
  int P = c->g->nprow, *cnt = c->cnt, *dsp = c->cnt + P;
  int64_t off = 0;
  for (int p = 0; p < P; ++p) {
    int64_t mp =
        axb_dist_numroc(c->n, c->nb, p, P) - axb_dist_numroc(k1, c->nb, p, P);
    cnt[p] = (int)(mp * jb);
    dsp[p] = (int)off;
    off += mp * jb;
  }
}

/* W (global rows k1.., ld nw) := the gathered pieces at src (cnt, dsp):
   one 2-D copy per local block of rows (a local block is nb consecutive
   global rows), on the host or the device as src and w are. */
static void AXB_FN(chol_assemble_, )(CCTX *c, const T *src, T *w, int64_t k1,
                                     int64_t jb) {
  int P = c->g->nprow, *cnt = c->cnt, *dsp = c->cnt + P;
  int64_t nb = c->nb, nw = c->n - k1;
  for (int p = 0; p < P; ++p) {
    int64_t mp = cnt[p] / (jb > 0 ? jb : 1);
    int64_t l0 = axb_dist_numroc(k1, nb, p, P), len;
    for (int64_t l = 0; l < mp; l += len) {
      len = nb - (l0 + l) % nb;
      if (len > mp - l) len = mp - l;
      int64_t gi = dist_l2g(l0 + l, nb, p, P) - k1;
      c->ops->copy(len, jb, src + dsp[p] + l, mp, w + gi, nw);
    }
  }
}

/* Step 3 of block k: W = L21 (global rows k1.., jb columns at local
   column lc0) assembled in the process column.  GPU ranks: device to
   device into the broadcast's buffer (one process row: the local rows are
   W's rows in order, one pack; else each rank's rows packed, gathered by
   NCCL and put at their global places), c->wdev[slot] = 1.  Otherwise, or
   without NCCL: MPI_Allgatherv of the packed local rows on the host, then
   each rank's rows put at their global places in the host W. */
static void AXB_FN(chol_gather_, )(CCTX *c, int64_t k1, int64_t jb, int64_t lc0,
                                   int slot) {
  const axb_dist_grid *g = c->g;
  int64_t nw = c->n - k1, lr1 = axb_dist_numroc(k1, c->nb, g->prow, g->nprow);
  const T *l21 = c->a + lr1 + lc0 * c->lld;
  int P = g->nprow, *cnt = c->cnt, *dsp = c->cnt + P;
  T *dw = c->ops->dbuf ? c->ops->dbuf(slot, nw * jb) : NULL;
  if (dw && P == 1) {
    c->ops->pack(nw, jb, l21, c->lld, dw);
    c->wdev[slot] = 1;
    return;
  }
  AXB_FN(chol_counts_, )(c, k1, jb);
  T *gd =
      dw && c->ops->dwork && c->ops->gatherv ? c->ops->dwork(0, nw * jb) : NULL;
  if (gd) {
    c->ops->pack(c->mloc - lr1, jb, l21, c->lld, gd + dsp[g->prow]);
    if (c->ops->gatherv(gd, cnt, dsp, g->col)) {
      AXB_FN(chol_assemble_, )(c, gd, dw, k1, jb);
      c->wdev[slot] = 1;
      return;
    }
  }
  c->ops->pack(c->mloc - lr1, jb, l21, c->lld, c->gbuf + dsp[g->prow]);
  if (P > 1)
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_T, c->gbuf, cnt, dsp, MPI_T, g->col);
  AXB_FN(chol_assemble_, )(c, c->gbuf, c->w[slot], k1, jb);
}

/* L11 (jb x jb, at d on the owner pk) down the process column.  GPU
   ranks (issue 24k): packed device to device into broadcast slot 3 (the
   LU's U12 slot, free in the Cholesky) and sent by NCCL, so it no longer
   crosses to the host; 1 with c->l11d its device copy on the receivers
   (the owner keeps reading d).  Otherwise the host copy by MPI (c->l11),
   0. */
static int AXB_FN(chol_l11_, )(CCTX *c, const T *d, int64_t jb, int pk) {
  const axb_dist_grid *g = c->g;
  int root = g->prow == pk;
  T *dl = root && c->ops->dbuf ? c->ops->dbuf(3, jb * jb) : NULL;
  if (root) c->ops->pack(jb, jb, d, c->lld, dl ? dl : c->l11);
  int fl = (dl ? AXB_DIST_BC_ROOT_DEV : 0) | AXB_DIST_BC_DEV_ONLY;
  if (AXB_DIST_BCAST(c->ops, c->l11, jb * jb, pk, g->col, 3, fl)) {
    /* the broadcast's device copy, the compute stream ordered after it */
    c->l11d = root ? NULL : c->ops->mirror(0, c->l11, jb * jb);
    return !root;
  }
  MPI_Bcast(c->l11, (int)(jb * jb), MPI_T, pk, g->col);
  return 0;
}

/* Steps 1-3 of block k within its process column: the diagonal block's
   potrf (info to the column), trsm, W assembled into c->w[slot] and the
   info into c->info[slot] (the rest of the grid learns both in step 4). */
static void AXB_FN(chol_column_, )(CCTX *c, int64_t k0, int64_t jb, int slot) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, lld = c->lld;
  int pk = dist_owner(k0, nb, g->nprow);
  int64_t lr0 = axb_dist_numroc(k0, nb, g->prow, g->nprow);
  int64_t lr1 = axb_dist_numroc(k0 + jb, nb, g->prow, g->nprow);
  int64_t lc0 = axb_dist_numroc(k0, nb, g->pcol, g->npcol), info = 0;
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_PANEL, 1);
  T *d = c->a + lr0 + lc0 * lld;
  const T *l11 = c->l11; /* L11 where the trsm reads it */
  int64_t ldl = jb;
  if (g->prow == pk) { /* the owner reads L11 in place (on the device) */
    int64_t li = 0;
    AXB_FN(chol_note_, )(c, c->ops->potrf(c->h, jb, d, lld, &li));
    if (li) info = k0 + li;
    l11 = d;
    ldl = lld;
  }
  MPI_Bcast(&info, 1, MPI_INT64_T, pk, g->col);
  c->info[slot] = info;
  c->wdev[slot] = 0;
  if (!info) {
    if (g->nprow > 1 && AXB_FN(chol_l11_, )(c, d, jb, pk)) {
      l11 = c->l11d;
      ldl = jb;
    }
    AXB_FN(chol_note_, )
    (c, c->ops->trsm(c->h, AXB_RIGHT, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT,
                     c->mloc - lr1, jb, (T)1, l11, ldl, c->a + lr1 + lc0 * lld,
                     lld));
    AXB_FN(chol_gather_, )(c, k0 + jb, jb, lc0, slot);
  }
  c->t->panel += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_PANEL, 0);
}

/* Steps 1-4 of block k: the column's part on its column, then the row
   broadcast of info and W (blocking, or started for the look-ahead).  W
   travels even after a failure (its size must be known to post the
   receive); nobody uses it then. */
static void AXB_FN(chol_panel_, )(CCTX *c, int64_t k0, int slot,
                                  int nonblocking) {
  const axb_dist_grid *g = c->g;
  int64_t jb = c->n - k0 < c->nb ? c->n - k0 : c->nb, nw = c->n - k0 - jb;
  int qk = dist_owner(k0, c->nb, g->npcol);
  if (g->pcol == qk) AXB_FN(chol_column_, )(c, k0, jb, slot);
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 1);
  int cnt = (int)(nw * jb);
  /* Receivers read W through mirror only (wl is built from it). */
  int fl = (g->pcol == qk && c->wdev[slot] ? AXB_DIST_BC_ROOT_DEV : 0) |
           AXB_DIST_BC_DEV_ONLY;
  if (nonblocking) {
    MPI_Ibcast(&c->info[slot], 1, MPI_INT64_T, qk, g->row, &c->req[0]);
    if (AXB_DIST_BCAST(c->ops, c->w[slot], cnt, qk, g->row, slot, fl))
      c->req[1] = MPI_REQUEST_NULL;
    else
      MPI_Ibcast(c->w[slot], cnt, MPI_T, qk, g->row, &c->req[1]);
  } else {
    MPI_Bcast(&c->info[slot], 1, MPI_INT64_T, qk, g->row);
    if (!AXB_DIST_BCAST(c->ops, c->w[slot], cnt, qk, g->row, slot, fl))
      MPI_Bcast(c->w[slot], cnt, MPI_T, qk, g->row);
  }
  c->t->bcast += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 0);
}

/* wl (ld mw) := W (global rows k1 .. n-1, ld nw, at w) at this rank's
   local rows >= lr1: one 2-D copy per local block of rows. */
static void AXB_FN(chol_wl_, )(CCTX *c, const T *w, T *wl, int64_t k1,
                               int64_t jb) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, nw = c->n - k1, len;
  int64_t lr1 = axb_dist_numroc(k1, nb, g->prow, g->nprow), mw = c->mloc - lr1;
  for (int64_t l = lr1; l < c->mloc; l += len) {
    len = nb - l % nb;
    if (len > c->mloc - l) len = c->mloc - l;
    int64_t gi = dist_l2g(l, nb, g->prow, g->nprow) - k1;
    c->ops->copy(len, jb, w + gi, nw, wl + (l - lr1), mw);
  }
}

/* The diagonal block at local (rs, cb), wd x wd: its lower triangle -=
   W[J] W[J]^T (W[J] = wl's rows from rs, as the block's rows are global
   rows J).  syrk where the table has one, else gemm into scratch and a
   host loop over the lower triangle (the CPU table). */
static void AXB_FN(chol_diag_, )(CCTX *c, const T *wj, int64_t nw, int64_t rs,
                                 int64_t lr1, int64_t wd, int64_t jb, T *acol) {
  int64_t mw = c->mloc - lr1;
  axb_status st = AXB_ERR_NOT_SUPPORTED;
  if (c->ops->syrk)
    st = c->ops->syrk(c->h, wd, jb, (T)-1, c->wld + (rs - lr1), mw, acol + rs,
                      c->lld);
  if (st != AXB_ERR_NOT_SUPPORTED) {
    AXB_FN(chol_note_, )(c, st);
    return;
  }
  AXB_FN(chol_note_, )
  (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_TRANS, wd, wd, jb, (T)1,
                   c->wld + (rs - lr1), mw, wj, nw, (T)0, c->s, c->nb));
  for (int64_t j = 0; j < wd; ++j)
    for (int64_t i = j; i < wd; ++i)
      acol[rs + i + j * c->lld] -= c->s[i + j * c->nb];
}

/* Step 5 of block k on the local column blocks [cb0, cb1): A[I, J] -=
   W[I] W[J]^T for the lower trailing blocks (wl built for this step; w and
   wl read through c->wd and c->wld, their mirrors). */
static void AXB_FN(chol_update_, )(CCTX *c, int64_t k1, int64_t jb, int64_t cb0,
                                   int64_t cb1) {
  const T *w = c->wd;
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, lld = c->lld, nw = c->n - k1;
  int64_t lr1 = axb_dist_numroc(k1, nb, g->prow, g->nprow);
  int64_t mw = c->mloc - lr1;
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 1);
  for (int64_t cb = cb0; cb < cb1; cb += nb) {
    int64_t wd = cb1 - cb < nb ? cb1 - cb : nb;
    int64_t j0 = dist_l2g(cb, nb, g->pcol, g->npcol); /* global column */
    int64_t rs = axb_dist_numroc(j0, nb, g->prow, g->nprow);
    const T *wj = w + (j0 - k1);
    T *acol = c->a + cb * lld;
    if (dist_owner(j0, nb, g->nprow) == g->prow) { /* the diagonal block */
      AXB_FN(chol_diag_, )(c, wj, nw, rs, lr1, wd, jb, acol);
      rs += wd;
    }
    AXB_FN(chol_note_, )
    (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_TRANS, c->mloc - rs, wd, jb, (T)-1,
                     c->wld + (rs - lr1), mw, wj, nw, (T)1, acol + rs, lld));
  }
  c->t->update += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_UPDATE, 0);
}

/* Step k (its panel broadcast done or pending): returns the info. */
static int64_t AXB_FN(chol_step_, )(CCTX *c, int64_t k0, int slot,
                                    int pending) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, jb = c->n - k0 < nb ? c->n - k0 : nb, k1 = k0 + jb;
  double t0 = axb__now();
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 1);
  if (pending) MPI_Waitall(2, c->req, MPI_STATUSES_IGNORE);
  AXB_DIST_BCAST_WAIT(c->ops, c->w[slot]);
  c->t->bcast += axb__now() - t0;
  AXB_DIST_MARK(c, AXB_DIST_PH_BCAST, 0);
  if (c->info[slot]) return c->info[slot];
  const T *w = c->w[slot];
  /* One upload of W and wl per step (GPU ranks), not one per gemm.  On one
     process row local rows are global rows, so wl is W itself. */
  int64_t lr1 = axb_dist_numroc(k1, nb, g->prow, g->nprow);
  int64_t nwj = (c->n - k1) * jb, mwj = (c->mloc - lr1) * jb;
  c->wd = c->ops->mirror(1, w, nwj);
  if (g->nprow == 1) {
    c->wld = c->wd;
  } else {
    /* wl built where W is: from W's device copy into a device buffer (GPU
       ranks), else on the host and uploaded once. */
    T *wl = c->wd != w && c->ops->dwork ? c->ops->dwork(1, mwj) : NULL;
    if (!wl && c->wd != w && mwj > 0) /* the host w may lack W (DEV_ONLY);
                                        no local rows left: no wl needed */
      c->ops->pack(nwj, 1, c->wd, nwj, c->w[slot]);
    AXB_FN(chol_wl_, )(c, wl ? c->wd : w, wl ? wl : c->wl, k1, jb);
    c->wld = wl ? wl : c->ops->mirror(0, c->wl, mwj);
  }
  int64_t lc1 = axb_dist_numroc(k1, nb, g->pcol, g->npcol);
  if (g->lookahead && k1 < c->n) {
    int64_t jb1 = c->n - k1 < nb ? c->n - k1 : nb;
    int own = g->pcol == dist_owner(k1, nb, g->npcol);
    int late = !own && c->late; /* join W's broadcast after the update */
    if (own && c->lane) c->ops->lane(1);
    if (own) AXB_FN(chol_update_, )(c, k1, jb, lc1, lc1 + jb1);
    if (!late) AXB_FN(chol_panel_, )(c, k1, (slot + 1) % c->nslot, 1);
    if (own && c->lane) c->ops->lane(0);
    /* The next look-ahead's block column first (when this rank owns block
       k+2, it is its first local block column left), then the fence. */
    int64_t r0 = own ? lc1 + jb1 : lc1,
            r1 = r0 + nb < c->nloc ? r0 + nb : c->nloc;
    if (c->lane) {
      AXB_FN(chol_update_, )(c, k1, jb, r0, r1);
      c->ops->fence();
      r0 = r1;
    }
    AXB_FN(chol_update_, )(c, k1, jb, r0, c->nloc);
    if (late) AXB_FN(chol_panel_, )(c, k1, (slot + 1) % c->nslot, 1);
  } else {
    AXB_FN(chol_update_, )(c, k1, jb, lc1, c->nloc);
  }
  return 0;
}

axb_status AXB_FN(axb__dist_, potrf)(axb_handle h, axb_dist_matrix *A,
                                     int64_t *info) {
  axb_dist_grid *g = (axb_dist_grid *)A->grid;
  CCTX c;
  AXB_DIST_CTX_INIT(c, h, A);
  memset(&g->times, 0, sizeof g->times);
  c.t = &g->times;
  *info = 0;
  double t0 = axb__now();
  c.tl = axb__dist_gpu_timeline_start(h);
  int64_t nn = c.n > 1 ? c.n : 1;
  c.l11 = axb__malloc(c.nb * c.nb, sizeof(T));
  c.s = axb__malloc(c.nb * c.nb, sizeof(T));
  c.lane = c.ops->lane && c.ops->fence && g->nprow == 1 && g->lookahead;
  c.late = axb__dist_late_recv(c.ops->bcast != NULL);
  c.nslot = c.lane ? 3 : 2;
  for (int i = 0; i < c.nslot; ++i)
    c.w[i] = axb__dist_bcbuf(h, nn * c.nb, sizeof(T));
  c.wl = axb__dist_bcbuf(h, (c.mloc > 1 ? c.mloc : 1) * c.nb, sizeof(T));
  c.gbuf = axb__dist_bcbuf(h, nn * c.nb, sizeof(T));
  c.cnt = axb__malloc(2 * (int64_t)g->nprow, sizeof(int));
  axb_status st = AXB_SUCCESS;
  if (!c.l11 || !c.s || !c.w[0] || !c.w[1] || (c.lane && !c.w[2]) || !c.wl ||
      !c.gbuf || !c.cnt)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "distributed potrf: cannot allocate the %lld x %lld panel",
                   (long long)c.n, (long long)c.nb);
  else if (nn * c.nb > AXB_DIST_MSG_MAX)
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "distributed potrf: a panel message would exceed 2^30 "
                   "entries (lower nb)");
  st = axb__dist_agree(h, g, st);
  if (c.lane && st == AXB_SUCCESS) c.ops->fence(); /* lane 1's first wait */
  int64_t found = 0;
  int pending = 0;
  for (int64_t k0 = 0; st == AXB_SUCCESS && k0 < c.n; k0 += c.nb) {
    int slot = (int)((k0 / c.nb) % c.nslot);
    if (!pending) AXB_FN(chol_panel_, )(&c, k0, slot, 0);
    found = AXB_FN(chol_step_, )(&c, k0, slot, pending);
    pending = g->lookahead && k0 + c.nb < c.n && !found;
    if (found) break;
  }
  /* The device's work done before host code reads the array (GPU ranks). */
  if (c.ops->sync) AXB_FN(chol_note_, )(&c, c.ops->sync(h));
  axb__dist_gpu_timeline_end(&g->timeline); /* after the sync: complete */
  if (st == AXB_SUCCESS) st = axb__dist_agree(h, g, c.st);
  axb__dist_hfree(c.l11); /* broadcast: its device copy forgotten */
  axb__free(c.s);
  for (int i = 0; i < c.nslot; ++i)
    axb__dist_hfree(c.w[i]);
  axb__dist_hfree(c.wl);
  axb__dist_hfree(c.gbuf);
  axb__free(c.cnt);
  g->times.factor = axb__now() - t0;
  if (st != AXB_SUCCESS) return st;
  *info = found;
  if (found)
    return axb__fail(h, AXB_ERR_NOT_SPD,
                     "distributed potrf: the leading minor of order %lld is "
                     "not positive definite",
                     (long long)found);
  axb__clear(h);
  return AXB_SUCCESS;
}

#undef OPS
#undef MPI_T
#undef CCTX
