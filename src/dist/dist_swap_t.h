/*
 * The row interchanges of one LU step outside the panel, as one exchange
 * (template: T, P; included by dist_lu.c before dist_lu_t.h).
 *
 * The jb interchanges k0+j <-> piv_j - 1 (j = 0 .. jb-1, applied in order,
 * LAPACK's laswp) are first composed into one permutation of the at most
 * 2 jb rows they touch: destination row R_i receives the data of row
 * src_i.  Every rank of a process column computes the same lists, so that
 * one MPI_Alltoallv in the column moves every row that changes process row
 * (each message ordered by i, known to both sides), and the rows that stay
 * on their process row move locally.  All rows are read before any is
 * written.  This replaces jb send/receive pairs of strided rows by one
 * collective whose rows are packed column by column (ScaLAPACK's pdlaswp
 * swaps one row pair at a time).
 */

#define OPS AXB_CAT3(axb_dist_ops_, P, )
#define MPI_T (sizeof(T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)
#define SWS AXB_FN(swap_ws_, )

typedef struct {
  int64_t *R, *src, *rows; /* 2 nb each: the permutation; row lists     */
  T *sbuf, *rbuf, *lbuf;   /* 2 nb x nloc each: sent, received, local   */
  int *cnt;                /* 4 P: send counts, displs, recv, displs    */
  int64_t m;               /* entries of each buffer                    */
  axb_status st;           /* a failed local laswp                      */
} SWS;

static axb_status AXB_FN(swap_ws_alloc_, )(SWS *w, int64_t nb, int64_t nloc,
                                           int P) {
  int64_t m = 2 * nb * (nloc > 1 ? nloc : 1);
  w->m = m;
  w->R = axb__malloc(6 * nb, sizeof(int64_t));
  w->src = w->R ? w->R + 2 * nb : NULL;
  w->rows = w->R ? w->R + 4 * nb : NULL;
  w->sbuf = axb__malloc(3 * m, sizeof(T));
  w->rbuf = w->sbuf ? w->sbuf + m : NULL;
  w->lbuf = w->sbuf ? w->sbuf + 2 * m : NULL;
  w->cnt = axb__malloc(4 * (int64_t)P, sizeof(int));
  if (!w->R || !w->sbuf || !w->cnt) return AXB_ERR_OUT_OF_MEMORY;
  return m > AXB_DIST_MSG_MAX ? AXB_ERR_NOT_SUPPORTED : AXB_SUCCESS;
}

static void AXB_FN(swap_ws_free_, )(SWS *w) {
  axb__free(w->R);
  axb__free(w->sbuf);
  axb__free(w->cnt);
}

/* The permutation of the step: R[i] receives src[i]; returns the count. */
static int64_t AXB_FN(swap_perm_, )(SWS *w, int64_t k0, int64_t jb,
                                    const int64_t *piv) { /* global ipiv */
  int64_t nr = 0;
  for (int64_t j = 0; j < jb; ++j) {
    int64_t ab[2] = {k0 + j, piv[k0 + j] - 1}, at[2];
    for (int e = 0; e < 2; ++e) {
      int64_t i = 0;
      while (i < nr && w->R[i] != ab[e])
        ++i;
      if (i == nr) {
        w->R[nr] = w->src[nr] = ab[e];
        ++nr;
      }
      at[e] = i;
    }
    int64_t t = w->src[at[0]];
    w->src[at[0]] = w->src[at[1]];
    w->src[at[1]] = t;
  }
  return nr;
}

/* Local rows (of process row `me`) of the moves with source on process row
   `from` and destination on `to` (i in increasing order); rows of the
   source side (src = 1) or the destination side. */
static int64_t AXB_FN(swap_list_, )(const SWS *w, int64_t nr, int64_t nb,
                                    int nprow, int from, int to, int srcside,
                                    int64_t *out) {
  int64_t m = 0;
  for (int64_t i = 0; i < nr; ++i) {
    if (w->src[i] == w->R[i]) continue;
    if (dist_owner(w->src[i], nb, nprow) != from ||
        dist_owner(w->R[i], nb, nprow) != to)
      continue;
    out[m++] = dist_g2l(srcside ? w->src[i] : w->R[i], nb, nprow);
  }
  return m;
}

/* buf := the rows over the column ranges [c0, c1) and [c2, c3). */
static void AXB_FN(swap_pack_, )(const OPS *ops, int unpack, int64_t m,
                                 const int64_t *rows, T *a, int64_t lld,
                                 const int64_t cr[4], T *buf) {
  int64_t w1 = cr[1] - cr[0], w2 = cr[3] - cr[2];
  if (m == 0) return;
  if (unpack) {
    ops->unpack_rows(m, rows, w1, buf, a + cr[0] * lld, lld);
    ops->unpack_rows(m, rows, w2, buf + m * w1, a + cr[2] * lld, lld);
  } else {
    ops->pack_rows(m, rows, w1, a + cr[0] * lld, lld, buf);
    ops->pack_rows(m, rows, w2, a + cr[2] * lld, lld, buf + m * w1);
  }
}

/* The rows this rank sends (to each other process row p, packed into
   buf at sd[p], sc[p] entries) and receives (rc[p] at rd[p]); wd columns. */
static void AXB_FN(swap_sends_, )(const OPS *ops, const axb_dist_grid *g,
                                  SWS *w, int64_t nr, int64_t nb, T *a,
                                  int64_t lld, const int64_t cr[4], T *buf) {
  int64_t wd = (cr[1] - cr[0]) + (cr[3] - cr[2]), so = 0, ro = 0;
  int me = g->prow, P = g->nprow;
  int *sc = w->cnt, *sd = sc + P, *rc = sd + P, *rd = rc + P;
  for (int p = 0; p < P; ++p) {
    int64_t ms =
        p == me ? 0 : AXB_FN(swap_list_, )(w, nr, nb, P, me, p, 1, w->rows);
    AXB_FN(swap_pack_, )(ops, 0, ms, w->rows, a, lld, cr, buf + so);
    sc[p] = (int)(ms * wd);
    sd[p] = (int)so;
    so += ms * wd;
    int64_t mr =
        p == me ? 0 : AXB_FN(swap_list_, )(w, nr, nb, P, p, me, 0, w->rows);
    rc[p] = (int)(mr * wd);
    rd[p] = (int)ro;
    ro += mr * wd;
  }
}

/* Apply the step's interchanges (piv: the global ipiv, its entries k0 ..
   k0+jb-1 set) to the local columns [c0, c1) and [c2, c3) of this rank
   (collective over the process column).  One process row: the backend's
   laswp in place (local rows are the global ones).  GPU ranks (issue
   24k): the rows packed into a device work buffer and exchanged by the
   table's alltoallv (NCCL), so they no longer cross to the host; without
   it (agreed), packed into host buffers and MPI_Alltoallv. */
static void AXB_FN(dist_laswp_, )(axb_handle h, const OPS *ops,
                                  const axb_dist_grid *g, T *a, int64_t lld,
                                  int64_t nb, int64_t k0, int64_t jb,
                                  const int64_t *piv, const int64_t cr[4],
                                  SWS *w) {
  if (g->nprow == 1) { /* every row local, local = global: laswp in place */
    axb_status s1 =
        ops->laswp(h, cr[1] - cr[0], a + cr[0] * lld, lld, k0, k0 + jb, piv);
    axb_status s2 =
        ops->laswp(h, cr[3] - cr[2], a + cr[2] * lld, lld, k0, k0 + jb, piv);
    w->st = s1 != AXB_SUCCESS ? s1 : s2;
    return;
  }
  int64_t nr = AXB_FN(swap_perm_, )(w, k0, jb, piv);
  int64_t wd = (cr[1] - cr[0]) + (cr[3] - cr[2]);
  int me = g->prow, P = g->nprow;
  int *sc = w->cnt, *sd = sc + P, *rc = sd + P, *rd = rc + P;
  int dx = ops->alltoallv && wd > 0; /* the device exchange is tried */
  /* ...with device buffers only for a device array (a GPU rank may hold a
     host array: its rows are packed on the host); a NULL on any rank makes
     alltoallv answer 0 everywhere (agreed), and MPI exchanges instead. */
  T *dv = dx && ops->dwork && ops->panel_on_host(a) > 0
              ? ops->dwork(2, 3 * w->m)
              : NULL;
  T *sb = dv ? dv : w->sbuf, *rb = dv ? dv + w->m : w->rbuf,
    *lb = dv ? dv + 2 * w->m : w->lbuf;
  /* every row read first: sends, then the local moves */
  AXB_FN(swap_sends_, )(ops, g, w, nr, nb, a, lld, cr, sb);
  int64_t ml = AXB_FN(swap_list_, )(w, nr, nb, P, me, me, 1, w->rows);
  AXB_FN(swap_pack_, )(ops, 0, ml, w->rows, a, lld, cr, lb);
  if (!(dx && ops->alltoallv(dv, sc, sd, dv ? rb : NULL, rc, rd, g->col)) &&
      wd > 0) {
    if (dv) /* the sends again, into the host buffer (nothing written yet) */
      AXB_FN(swap_sends_, )(ops, g, w, nr, nb, a, lld, cr, w->sbuf);
    rb = w->rbuf;
    MPI_Alltoallv(w->sbuf, sc, sd, MPI_T, rb, rc, rd, MPI_T, g->col);
  }
  AXB_FN(swap_list_, )(w, nr, nb, P, me, me, 0, w->rows);
  AXB_FN(swap_pack_, )(ops, 1, ml, w->rows, a, lld, cr, lb);
  for (int p = 0; p < P; ++p) {
    if (p == me) continue;
    int64_t mr = AXB_FN(swap_list_, )(w, nr, nb, P, p, me, 0, w->rows);
    AXB_FN(swap_pack_, )(ops, 1, mr, w->rows, a, lld, cr, rb + rd[p]);
  }
}

#undef OPS
#undef MPI_T
#undef SWS
