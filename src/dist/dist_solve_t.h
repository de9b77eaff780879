/*
 * Distributed triangular solves and the distributed backward error
 * (template: T, P; instantiated by dist_solve.c).
 *
 * B is replicated (every rank holds all n x nrhs).  Substitution by blocks
 * in the fan-in (dot-product) form: for block k, the ranks that hold the
 * blocks of A coupling block k to the blocks already solved compute their
 * partial products with the solved part of X (which every rank holds),
 * one MPI_Reduce sums them on the owner of the diagonal block, which
 * solves the jb x jb triangle and broadcasts x_k to every rank.
 *   L (unit for LU, non-unit for Cholesky), forward: row block k of L, left
 *     of the diagonal: process row pk, reduced along the row.
 *   U (LU), backward: row block k of U, right of the diagonal: process row
 *     pk, reduced along the row.
 *   L^T (Cholesky, and LU's transposed solve with a unit diagonal),
 *     backward: column block k of L below the diagonal: process column qk,
 *     reduced along the column (transposed products).
 *   U^T (LU's transposed solve), forward: column block k of U above the
 *     diagonal: process column qk, reduced along the column.
 * A^T X = B with P A = L U is U^T L^T P X = B: forward with U^T, backward
 * with L^T (unit), then X := P^T X, the interchanges in reverse order.
 */

#define OPS AXB_CAT3(axb_dist_ops_, P, )
#define MPI_T (sizeof(T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)

typedef struct {
  axb_handle h;
  const axb_dist_grid *g;
  const OPS *ops;
  const T *a;
  int64_t lld, n, nb, mloc, nloc, nrhs, ldb;
  T *b;
  T *xc, *xr, *part, *y; /* X at local columns, at local rows; nb x nrhs */
  axb_status st;
} AXB_FN(sv_ctx_, );
#define SCTX AXB_FN(sv_ctx_, )

static void AXB_FN(sv_note_, )(SCTX *c, axb_status st) {
  if (c->st == AXB_SUCCESS && st != AXB_SUCCESS) c->st = st;
}

/* Block k: y := B[k] - sum (reduced on (pk, qk) over `comm` to `root`),
   the triangle solved there, x_k broadcast to all and stored in B, xc and
   xr.  uplo/trans/diag describe the diagonal block's triangle. */
static void AXB_FN(sv_finish_, )(SCTX *c, int64_t k0, int64_t jb, MPI_Comm comm,
                                 int root, int in_comm, axb_uplo uplo,
                                 axb_trans trans, axb_diag diag) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, nr = c->nrhs;
  int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
  int me = g->prow == pk && g->pcol == qk;
  int cnt = (int)(jb * nr);
  if (in_comm)
    MPI_Reduce(me ? MPI_IN_PLACE : c->part, c->part, cnt, MPI_T, MPI_SUM, root,
               comm);
  if (me) {
    for (int64_t r = 0; r < nr; ++r)
      for (int64_t i = 0; i < jb; ++i)
        c->y[i + r * jb] = c->b[k0 + i + r * c->ldb] - c->part[i + r * jb];
    int64_t lr = dist_g2l(k0, nb, g->nprow), lc = dist_g2l(k0, nb, g->npcol);
    AXB_FN(sv_note_, )
    (c, c->ops->trsm(c->h, AXB_LEFT, uplo, trans, diag, jb, nr, (T)1,
                     c->a + lr + lc * c->lld, c->lld, c->y, jb));
  }
  MPI_Bcast(c->y, cnt, MPI_T, pk * g->npcol + qk, g->comm);
  for (int64_t r = 0; r < nr; ++r)
    for (int64_t i = 0; i < jb; ++i)
      c->b[k0 + i + r * c->ldb] = c->y[i + r * jb];
  if (g->pcol == qk)
    c->ops->unpack(jb, nr, c->y, c->xc + dist_g2l(k0, nb, g->npcol), c->nloc);
  if (g->prow == pk)
    c->ops->unpack(jb, nr, c->y, c->xr + dist_g2l(k0, nb, g->nprow), c->mloc);
}

/* Forward substitution with the lower triangle (unit or not). */
static void AXB_FN(sv_lower_, )(SCTX *c, axb_diag diag) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb;
  for (int64_t k0 = 0; k0 < c->n; k0 += nb) {
    int64_t jb = c->n - k0 < nb ? c->n - k0 : nb;
    int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
    if (g->prow == pk) {
      int64_t lr = dist_g2l(k0, nb, g->nprow);
      int64_t lc = axb_dist_numroc(k0, nb, g->pcol, g->npcol);
      memset(c->part, 0, (size_t)(jb * c->nrhs) * sizeof(T));
      AXB_FN(sv_note_, )
      (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_NO_TRANS, jb, c->nrhs, lc, (T)1,
                       c->a + lr, c->lld, c->xc, c->nloc, (T)0, c->part, jb));
    }
    AXB_FN(sv_finish_, )
    (c, k0, jb, g->row, qk, g->prow == pk, AXB_LOWER, AXB_NO_TRANS, diag);
  }
}

/* Backward substitution with U (LU's upper triangle, non-unit). */
static void AXB_FN(sv_upper_, )(SCTX *c) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, nblk = (c->n + nb - 1) / nb;
  for (int64_t k = nblk - 1; k >= 0; --k) {
    int64_t k0 = k * nb, jb = c->n - k0 < nb ? c->n - k0 : nb;
    int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
    if (g->prow == pk) {
      int64_t lr = dist_g2l(k0, nb, g->nprow);
      int64_t lc1 = axb_dist_numroc(k0 + jb, nb, g->pcol, g->npcol);
      memset(c->part, 0, (size_t)(jb * c->nrhs) * sizeof(T));
      AXB_FN(sv_note_, )
      (c, c->ops->gemm(c->h, AXB_NO_TRANS, AXB_NO_TRANS, jb, c->nrhs,
                       c->nloc - lc1, (T)1, c->a + lr + lc1 * c->lld, c->lld,
                       c->xc + lc1, c->nloc, (T)0, c->part, jb));
    }
    AXB_FN(sv_finish_, )
    (c, k0, jb, g->row, qk, g->prow == pk, AXB_UPPER, AXB_NO_TRANS,
     AXB_NON_UNIT);
  }
}

/* Forward substitution with U^T (LU's transposed solve). */
static void AXB_FN(sv_upper_trans_, )(SCTX *c) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb;
  for (int64_t k0 = 0; k0 < c->n; k0 += nb) {
    int64_t jb = c->n - k0 < nb ? c->n - k0 : nb;
    int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
    if (g->pcol == qk) { /* U(0:k0, block k)^T x(0:k0), local rows < k0 */
      int64_t lc = dist_g2l(k0, nb, g->npcol);
      int64_t lr = axb_dist_numroc(k0, nb, g->prow, g->nprow);
      memset(c->part, 0, (size_t)(jb * c->nrhs) * sizeof(T));
      AXB_FN(sv_note_, )
      (c, c->ops->gemm(c->h, AXB_TRANS, AXB_NO_TRANS, jb, c->nrhs, lr, (T)1,
                       c->a + lc * c->lld, c->lld, c->xr, c->mloc, (T)0,
                       c->part, jb));
    }
    AXB_FN(sv_finish_, )
    (c, k0, jb, g->col, pk, g->pcol == qk, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT);
  }
}

/* Backward substitution with L^T (Cholesky: non-unit; LU: unit). */
static void AXB_FN(sv_lower_trans_, )(SCTX *c, axb_diag diag) {
  const axb_dist_grid *g = c->g;
  int64_t nb = c->nb, nblk = (c->n + nb - 1) / nb;
  for (int64_t k = nblk - 1; k >= 0; --k) {
    int64_t k0 = k * nb, jb = c->n - k0 < nb ? c->n - k0 : nb;
    int pk = dist_owner(k0, nb, g->nprow), qk = dist_owner(k0, nb, g->npcol);
    if (g->pcol == qk) {
      int64_t lc = dist_g2l(k0, nb, g->npcol);
      int64_t lr1 = axb_dist_numroc(k0 + jb, nb, g->prow, g->nprow);
      memset(c->part, 0, (size_t)(jb * c->nrhs) * sizeof(T));
      AXB_FN(sv_note_, )
      (c, c->ops->gemm(c->h, AXB_TRANS, AXB_NO_TRANS, jb, c->nrhs,
                       c->mloc - lr1, (T)1, c->a + lr1 + lc * c->lld, c->lld,
                       c->xr + lr1, c->mloc, (T)0, c->part, jb));
    }
    AXB_FN(sv_finish_, )
    (c, k0, jb, g->col, pk, g->pcol == qk, AXB_LOWER, AXB_TRANS, diag);
  }
}

/* B := P B (forward, LAPACK's laswp with incx = 1) or P^T B (the
   interchanges in reverse order); ipiv global and replicated. */
static void AXB_FN(sv_permute_, )(int64_t n, const int64_t *ipiv, int reverse,
                                  int64_t nrhs, T *B, int64_t ldb) {
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = reverse ? n - 1 - s : s;
    if (ipiv[i] - 1 == i) continue;
    for (int64_t r = 0; r < nrhs; ++r) {
      T t = B[i + r * ldb];
      B[i + r * ldb] = B[ipiv[i] - 1 + r * ldb];
      B[ipiv[i] - 1 + r * ldb] = t;
    }
  }
}

/* The triangular solves of one system (c's B holds the right-hand sides):
   chol 1: B := L^-T L^-1 B; chol 0, NO_TRANS: B := U^-1 L^-1 P B; chol 0,
   TRANS: B := P^T L^-T U^-T B. */
static void AXB_FN(sv_solve_, )(SCTX *c, const int64_t *ipiv, int chol,
                                axb_trans trans) {
  if (chol) {
    AXB_FN(sv_lower_, )(c, AXB_NON_UNIT);
    AXB_FN(sv_lower_trans_, )(c, AXB_NON_UNIT);
  } else if (trans == AXB_NO_TRANS) {
    AXB_FN(sv_permute_, )(c->n, ipiv, 0, c->nrhs, c->b, c->ldb);
    AXB_FN(sv_lower_, )(c, AXB_UNIT);
    AXB_FN(sv_upper_, )(c);
  } else {
    AXB_FN(sv_upper_trans_, )(c);
    AXB_FN(sv_lower_trans_, )(c, AXB_UNIT);
    AXB_FN(sv_permute_, )(c->n, ipiv, 1, c->nrhs, c->b, c->ldb);
  }
}

static axb_status AXB_FN(sv_run_, )(axb_handle h, const axb_dist_matrix *A,
                                    const int64_t *ipiv, int chol,
                                    axb_trans trans, int64_t nrhs, T *B,
                                    int64_t ldb) {
  axb_dist_grid *g = (axb_dist_grid *)A->grid;
  SCTX c;
  AXB_DIST_CTX_INIT(c, h, A);
  c.nrhs = nrhs;
  c.b = B;
  c.ldb = ldb;
  double t0 = axb__now();
  int64_t nr = nrhs > 1 ? nrhs : 1;
  c.xc = axb__calloc((c.nloc > 1 ? c.nloc : 1) * nr, sizeof(T));
  c.xr = axb__calloc((c.mloc > 1 ? c.mloc : 1) * nr, sizeof(T));
  c.part = axb__malloc(c.nb * nr, sizeof(T));
  c.y = axb__malloc(c.nb * nr, sizeof(T));
  axb_status st = AXB_SUCCESS;
  if (!c.xc || !c.xr || !c.part || !c.y)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "distributed solve: cannot allocate %lld right-hand sides",
                   (long long)nrhs);
  else if (c.nb * nr > AXB_DIST_MSG_MAX)
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "distributed solve: nb x nrhs above 2^30");
  st = axb__dist_agree(h, g, st);
  if (st == AXB_SUCCESS && c.n > 0 && nrhs > 0) {
    AXB_FN(sv_solve_, )(&c, ipiv, chol, trans);
    st = axb__dist_agree(h, g, c.st);
  }
  axb__free(c.xc);
  axb__free(c.xr);
  axb__free(c.part);
  axb__free(c.y);
  g->times.solve = axb__now() - t0;
  if (st == AXB_SUCCESS) axb__clear(h);
  return st;
}

axb_status AXB_FN(axb__dist_, getrs)(axb_handle h, axb_trans trans,
                                     const axb_dist_matrix *A,
                                     const int64_t *ipiv, int64_t nrhs, T *B,
                                     int64_t ldb) {
  return AXB_FN(sv_run_, )(h, A, ipiv, 0, trans, nrhs, B, ldb);
}

axb_status AXB_FN(axb__dist_, potrs)(axb_handle h, const axb_dist_matrix *A,
                                     int64_t nrhs, T *B, int64_t ldb) {
  return AXB_FN(sv_run_, )(h, A, NULL, 1, AXB_NO_TRANS, nrhs, B, ldb);
}

/* ---- the backward error ------------------------------------------------ */

/* acc (mloc x (nrhs + 1), ld mloc) := [A_loc X_c, row sums of |A_loc|] in
   double, X_c = the rows of X at this rank's local columns. */
static void AXB_FN(be_local_, )(const axb_dist_matrix *A, int64_t nrhs,
                                const T *X, int64_t ldx, double *acc) {
  const axb_dist_grid *g = A->grid;
  const T *a = A->data;
  int64_t m = A->mloc;
  memset(acc, 0, (size_t)(m * (nrhs + 1)) * sizeof(double));
  for (int64_t lj = 0; lj < A->nloc; ++lj) {
    int64_t gj = dist_l2g(lj, A->nb, g->pcol, g->npcol);
    const T *col = a + lj * A->lld;
    for (int64_t i = 0; i < m; ++i)
      acc[i + nrhs * m] += fabs((double)col[i]);
    for (int64_t r = 0; r < nrhs; ++r) {
      double x = (double)X[gj + r * ldx];
      double *o = acc + r * m;
      for (int64_t i = 0; i < m; ++i)
        o[i] += (double)col[i] * x;
    }
  }
}

axb_status AXB_FN(axb__dist_,
                  backward_error)(axb_handle h, const axb_dist_matrix *A,
                                  int64_t nrhs, const T *B, int64_t ldb,
                                  const T *X, int64_t ldx, double *ratio) {
  const axb_dist_grid *g = A->grid;
  int64_t m = A->mloc, cols = nrhs + 1;
  *ratio = 0;
  double *acc = axb__malloc((m > 1 ? m : 1) * cols, sizeof(double));
  double *mx = axb__malloc(cols, sizeof(double));
  axb_status st = AXB_SUCCESS;
  if (!acc || !mx)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "distributed backward error: out of memory");
  else if (m * cols > AXB_DIST_MSG_MAX)
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "distributed backward error: local rows x (nrhs + 1) "
                   "above 2^30");
  st = axb__dist_agree(h, g, st);
  if (st == AXB_SUCCESS && A->n > 0 && nrhs > 0) {
    AXB_FN(be_local_, )(A, nrhs, X, ldx, acc);
    if (m > 0)
      MPI_Allreduce(MPI_IN_PLACE, acc, (int)(m * cols), MPI_DOUBLE, MPI_SUM,
                    g->row);
    /* Local rows' residuals |b_i - (Ax)_i| and row sums, maxima. */
    for (int64_t r = 0; r < cols; ++r)
      mx[r] = 0;
    for (int64_t i = 0; i < m; ++i) {
      int64_t gi = dist_l2g(i, A->nb, g->prow, g->nprow);
      for (int64_t r = 0; r < nrhs; ++r) {
        double res = fabs((double)B[gi + r * ldb] - acc[i + r * m]);
        if (res != res) res = INFINITY; /* MPI_MAX is undefined on NaN */
        if (res > mx[r]) mx[r] = res;
      }
      if (acc[i + nrhs * m] > mx[nrhs]) mx[nrhs] = acc[i + nrhs * m];
    }
    MPI_Allreduce(MPI_IN_PLACE, mx, (int)cols, MPI_DOUBLE, MPI_MAX, g->comm);
    double anorm = mx[nrhs], eps = AXB_EPS(T), worst = 0;
    for (int64_t r = 0; r < nrhs; ++r) {
      double xn = 0;
      for (int64_t i = 0; i < A->n; ++i) {
        double v = fabs((double)X[i + r * ldx]);
        if (v != v) v = INFINITY;
        if (v > xn) xn = v;
      }
      double den = anorm * xn * (double)A->n * eps;
      double q = mx[r] == 0 ? 0 : den > 0 ? mx[r] / den : INFINITY;
      if (q > worst || q != q) worst = q;
    }
    *ratio = worst;
  }
  axb__free(acc);
  axb__free(mx);
  return st;
}

#undef OPS
#undef MPI_T
#undef SCTX
