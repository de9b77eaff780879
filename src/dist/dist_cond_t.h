/*
 * The distributed 1-norm condition estimate (template: T, P; instantiated
 * by dist_cond.c).
 *
 *   rcond = 1 / (||A||_1 est(||A^-1||_1))
 *
 * ||A||_1 is the largest column sum of |a_ij| of the caller's A: each rank
 * sums its local columns, the process column adds them up, the grid takes
 * the largest.  est is axb_solve's estimator (dense/condest.h: Higham and
 * Tisseur's block method with 2 columns, LAPACK's xLACN2 for t = 1) run on
 * every rank at once: its operator is A^-1 (getrs NO_TRANS, or potrs) and
 * its transpose A^-T (getrs TRANS), applied by the distributed solves to 2
 * replicated columns.  The solves return bit-identical replicated columns
 * (each block of X is broadcast from one owner) and the estimator is
 * deterministic (fixed seed), so every rank takes the same steps, calls
 * the same collectives and ends with the same rcond, bit for bit.
 *
 * P is kept in the operator (A^-1 = U^-1 L^-1 P), unlike gecon, which
 * drops it: the norms are the same and the pair A^-1, A^-T stays exact
 * transposes.  As in axb_solve, the estimator's first block X1 is solved
 * beside B (axb__dist_Psolve_x1): the solves read the factors once for
 * all columns and cost about the same with 2 more, so the estimate's
 * first product A^-1 X1 is nearly free.
 */

/* Columns summed per message: the sums travel in chunks of a fixed stack
   buffer, so the norm allocates nothing and cannot fail on one rank. */
#ifndef AXB_DIST_NORM1_CHUNK
#define AXB_DIST_NORM1_CHUNK 512
#endif

double AXB_FN(axb__dist_, norm1)(const axb_dist_matrix *A) {
  const axb_dist_grid *g = A->grid;
  const T *a = A->data;
  double sums[AXB_DIST_NORM1_CHUNK], best = 0;
  /* Ranks of one process column have the same nloc: the same chunks. */
  for (int64_t j0 = 0; j0 < A->nloc; j0 += AXB_DIST_NORM1_CHUNK) {
    int64_t w = A->nloc - j0 < AXB_DIST_NORM1_CHUNK ? A->nloc - j0
                                                    : AXB_DIST_NORM1_CHUNK;
    for (int64_t j = 0; j < w; ++j) {
      const T *col = a + (j0 + j) * A->lld;
      double s = 0;
      for (int64_t i = 0; i < A->mloc; ++i)
        s += fabs((double)col[i]);
      sums[j] = s;
    }
    if (g->nprow > 1)
      MPI_Allreduce(MPI_IN_PLACE, sums, (int)w, MPI_DOUBLE, MPI_SUM, g->col);
    for (int64_t j = 0; j < w; ++j) /* NaN: MPI_MAX is undefined on it */
      best = sums[j] != sums[j] ? INFINITY : sums[j] > best ? sums[j] : best;
  }
  MPI_Allreduce(MPI_IN_PLACE, &best, 1, MPI_DOUBLE, MPI_MAX, g->comm);
  return best;
}

typedef struct {
  axb_handle h;
  const axb_dist_matrix *F; /* the factors */
  const int64_t *ipiv;      /* LU's, global and replicated; NULL: Cholesky */
  T *w;                     /* n x AXB_CONDEST_T: the columns in T */
  int64_t calls;            /* products asked for by the estimator */
} AXB_FN(cond_ctx_, );

/* The estimator's product X := A^-1 X or A^-T X (n x t, replicated).  It
   opens with an agreement: a rank whose estimator failed before its first
   product (its workspace) joins that agreement from the caller instead
   (axb__dist_Prcond), so the others leave with its status, not wait. */
static axb_status AXB_FN(cond_apply_, )(void *vctx, int transpose, double *x,
                                        int64_t t) {
  AXB_FN(cond_ctx_, ) *c = vctx;
  const axb_dist_grid *g = c->F->grid;
  int64_t n = c->F->n;
  ++c->calls;
  axb_status st = axb__dist_agree(c->h, g, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return st;
  for (int64_t i = 0; i < n * t; ++i)
    c->w[i] = (T)x[i];
  if (c->ipiv)
    st = AXB_FN(axb__dist_, getrs)(c->h, transpose ? AXB_TRANS : AXB_NO_TRANS,
                                   c->F, c->ipiv, t, c->w, n);
  else /* A^-T = A^-1 */
    st = AXB_FN(axb__dist_, potrs)(c->h, c->F, t, c->w, n);
  for (int64_t i = 0; i < n * t; ++i)
    x[i] = (double)c->w[i];
  return st;
}

axb_status AXB_FN(axb__dist_, solve_x1)(axb_handle h, const axb_dist_matrix *F,
                                        const int64_t *ipiv, int chol,
                                        int64_t nrhs, T *X, int64_t ldx,
                                        double **y1) {
  const axb_dist_grid *g = F->grid;
  int64_t n = F->n, t = AXB_CONDEST_T, k = nrhs + t;
  *y1 = NULL;
  if (n <= t) /* the estimate is exact there: no first block */
    return chol ? AXB_FN(axb__dist_, potrs)(h, F, nrhs, X, ldx)
                : AXB_FN(axb__dist_, getrs)(h, AXB_NO_TRANS, F, ipiv, nrhs, X,
                                            ldx);
  T *W = axb__malloc(n * k, sizeof(T));
  double *y = axb__malloc(n * t, sizeof(double));
  axb_status st = W && y ? AXB_SUCCESS
                         : axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                                     "axb_dist_solve: no memory for %lld x "
                                     "%lld right-hand sides",
                                     (long long)n, (long long)k);
  st = axb__dist_agree(h, g, st);
  if (st == AXB_SUCCESS) {
    for (int64_t r = 0; r < nrhs; ++r)
      memcpy(W + r * n, X + r * ldx, (size_t)n * sizeof(T));
    axb__norm1_first_block(n, y);
    for (int64_t i = 0; i < n * t; ++i)
      W[nrhs * n + i] = (T)y[i];
    st = chol ? AXB_FN(axb__dist_, potrs)(h, F, k, W, n)
              : AXB_FN(axb__dist_, getrs)(h, AXB_NO_TRANS, F, ipiv, k, W, n);
  }
  if (st == AXB_SUCCESS) {
    for (int64_t r = 0; r < nrhs; ++r)
      memcpy(X + r * ldx, W + r * n, (size_t)n * sizeof(T));
    for (int64_t i = 0; i < n * t; ++i)
      y[i] = (double)W[nrhs * n + i];
    *y1 = y;
    y = NULL;
  }
  axb__free(W);
  axb__free(y);
  return st;
}

axb_status AXB_FN(axb__dist_, rcond)(axb_handle h, const axb_dist_matrix *F,
                                     const int64_t *ipiv, int chol,
                                     double anorm, const double *y1,
                                     double *rcond) {
  const axb_dist_grid *g = F->grid;
  int64_t n = F->n;
  /* gecon's conventions: n = 0 is perfectly conditioned, A = 0 is not. */
  *rcond = n == 0 ? 1 : 0;
  if (n == 0 || anorm == 0) return AXB_SUCCESS;
  AXB_FN(cond_ctx_, ) c = {h, F, chol ? NULL : ipiv, NULL, 0};
  c.w = axb__malloc(n * AXB_CONDEST_T, sizeof(T));
  axb_status st = c.w ? AXB_SUCCESS
                      : axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                                  "distributed rcond: no memory for %lld x %d "
                                  "work entries",
                                  (long long)n, AXB_CONDEST_T);
  st = axb__dist_agree(h, g, st);
  double est = 0;
  if (st == AXB_SUCCESS) {
    st = axb__norm1_estimate_y1(n, AXB_FN(cond_apply_, ), &c, 0, y1, &est);
    /* No product on this rank: its estimator failed to allocate (its only
       local failure), or stopped at once on a non-finite first block (then
       on every rank alike).  The other ranks are either in their first
       product's agreement or, when they stopped at once too, here: one
       agreement more on every rank that made no product keeps the counts
       equal in all these cases, and the failure reaches everyone. */
    if (c.calls == 0) {
      if (st != AXB_SUCCESS)
        st = axb__fail(h, st,
                       "distributed rcond: the estimator's workspace "
                       "(%lld x %d doubles) cannot be allocated",
                       (long long)n, 2 * AXB_CONDEST_T + 2);
      st = axb__dist_agree(h, g, st);
    }
    st = axb__dist_agree(h, g, st);
  }
  axb__free(c.w);
  /* est: a lower bound of ||A^-1||_1; NaN or Inf (overflow in the solves)
     leaves rcond = 0, as gecon. */
  if (st != AXB_SUCCESS)
    *rcond = -1; /* not estimated */
  else if (est > 0 && isfinite(est))
    *rcond = (1.0 / est) / anorm;
  return st;
}
