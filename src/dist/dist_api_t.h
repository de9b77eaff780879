/*
 * The public typed distributed routines and the certified driver (template:
 * T, P; instantiated by dist_api.c).  Arguments are checked on every rank
 * and the ranks agree on the verdict before any work (a NULL on one rank is
 * an error on all).  A NULL A or grid cannot be agreed on (there is no
 * communicator) and returns at once on the rank that has it.
 */

#define DTYPE (sizeof(T) == sizeof(double) ? AXB_F64 : AXB_F32)

/* Common checks: h a host-array backend, A consistent, and the arguments
   flagged by `bad` (LAPACK's -i).  Agreed. */
static axb_status AXB_FN(api_check_, )(axb_handle h, const axb_dist_matrix *A,
                                       const char *who, int bad_arg) {
  if (!A || !A->grid)
    return axb__fail(h, AXB_ERR_INVALID, "%s: NULL matrix or grid", who);
  axb_status st = AXB_SUCCESS;
  if (!h)
    st = axb__fail(h, AXB_ERR_INVALID, "%s: NULL handle", who);
  else if (axb_handle_backend(h) == AXB_BACKEND_CUDA &&
           !axb__dist_gpu_handle(h))
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "%s: this build has no GPU ranks (libaxb_dist without "
                   "CUDA; use a CPU handle)",
                   who);
  else if (axb__dist_check(h, A, DTYPE, who) != AXB_SUCCESS)
    st = -2;
  else if (bad_arg)
    st = axb__fail(h, (axb_status)-bad_arg, "%s: argument %d is illegal", who,
                   bad_arg);
  return axb__dist_agree(h, A->grid, st);
}

static int AXB_FN(api_ldb_bad_, )(const axb_dist_matrix *A, int64_t nrhs,
                                  const T *B, int64_t ldb) {
  int64_t n1 = A->n > 1 ? A->n : 1;
  return nrhs < 0 || ldb < n1 || (!B && A->n > 0 && nrhs > 0);
}

axb_status AXB_FN(axb_dist_, getrf)(axb_handle h, axb_dist_matrix *A,
                                    int64_t *ipiv, int64_t *info) {
  int bad = !ipiv && A && A->n > 0 ? 3 : !info ? 4 : 0;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_getrf", bad);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, getrf)(h, A, ipiv, info);
}

axb_status AXB_FN(axb_dist_, getrs)(axb_handle h, axb_trans trans,
                                    const axb_dist_matrix *A,
                                    const int64_t *ipiv, int64_t nrhs, T *B,
                                    int64_t ldb) {
  int bad = 0;
  if (trans != AXB_NO_TRANS && trans != AXB_TRANS)
    bad = 2;
  else if (A && !ipiv && A->n > 0)
    bad = 4;
  else if (A && AXB_FN(api_ldb_bad_, )(A, nrhs, B, ldb))
    bad = nrhs < 0 ? 5 : !B ? 6 : 7;
  else if (A)
    for (int64_t i = 0; i < A->n; ++i)
      if (ipiv[i] < 1 || ipiv[i] > A->n) {
        bad = 4;
        break;
      }
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_getrs", bad);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, getrs)(h, trans, A, ipiv, nrhs, B, ldb);
}

axb_status AXB_FN(axb_dist_, gesv)(axb_handle h, axb_dist_matrix *A,
                                   int64_t *ipiv, int64_t nrhs, T *B,
                                   int64_t ldb, int64_t *info) {
  int bad = 0;
  if (A && !ipiv && A->n > 0)
    bad = 3;
  else if (A && AXB_FN(api_ldb_bad_, )(A, nrhs, B, ldb))
    bad = nrhs < 0 ? 4 : !B ? 5 : 6;
  else if (!info)
    bad = 7;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_gesv", bad);
  if (st != AXB_SUCCESS) return st;
  st = AXB_FN(axb__dist_, getrf)(h, A, ipiv, info);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, getrs)(h, AXB_NO_TRANS, A, ipiv, nrhs, B, ldb);
}

axb_status AXB_FN(axb_dist_, potrf)(axb_handle h, axb_uplo uplo,
                                    axb_dist_matrix *A, int64_t *info) {
  int bad = uplo != AXB_LOWER ? 2 : !info ? 4 : 0;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_potrf", bad);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, potrf)(h, A, info);
}

axb_status AXB_FN(axb_dist_, potrs)(axb_handle h, axb_uplo uplo,
                                    const axb_dist_matrix *A, int64_t nrhs,
                                    T *B, int64_t ldb) {
  int bad = uplo != AXB_LOWER ? 2 : 0;
  if (!bad && A && AXB_FN(api_ldb_bad_, )(A, nrhs, B, ldb))
    bad = nrhs < 0 ? 4 : !B ? 5 : 6;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_potrs", bad);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, potrs)(h, A, nrhs, B, ldb);
}

axb_status AXB_FN(axb_dist_, posv)(axb_handle h, axb_uplo uplo,
                                   axb_dist_matrix *A, int64_t nrhs, T *B,
                                   int64_t ldb, int64_t *info) {
  int bad = uplo != AXB_LOWER ? 2 : 0;
  if (!bad && A && AXB_FN(api_ldb_bad_, )(A, nrhs, B, ldb))
    bad = nrhs < 0 ? 4 : !B ? 5 : 6;
  else if (!bad && !info)
    bad = 7;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_posv", bad);
  if (st != AXB_SUCCESS) return st;
  st = AXB_FN(axb__dist_, potrf)(h, A, info);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb__dist_, potrs)(h, A, nrhs, B, ldb);
}

/* ---- the certified driver ---------------------------------------------- */

/* The first non-finite entry of this rank's blocks and of B, as a status
   with its global position (B is replicated: every rank finds the same). */
static axb_status AXB_FN(drv_scan_, )(axb_handle h, const axb_dist_matrix *A,
                                      int64_t nrhs, const T *B, int64_t ldb) {
  const axb_dist_grid *g = A->grid;
  const T *a = A->data;
  for (int64_t lj = 0; lj < A->nloc; ++lj)
    for (int64_t li = 0; li < A->mloc; ++li)
      if (!isfinite((double)a[li + lj * A->lld]))
        return axb__fail(h, AXB_ERR_INVALID,
                         "A(%lld,%lld) is %g (a NaN or Inf in the blocks of "
                         "this rank)",
                         (long long)dist_l2g(li, A->nb, g->prow, g->nprow) + 1,
                         (long long)dist_l2g(lj, A->nb, g->pcol, g->npcol) + 1,
                         (double)a[li + lj * A->lld]);
  for (int64_t r = 0; r < nrhs; ++r)
    for (int64_t i = 0; i < A->n; ++i)
      if (!isfinite((double)B[i + r * ldb]))
        return axb__fail(h, AXB_ERR_INVALID, "B(%lld,%lld) is %g",
                         (long long)i + 1, (long long)r + 1,
                         (double)B[i + r * ldb]);
  return AXB_SUCCESS;
}

/* The verdict on a computed X, axb_solve's (dense/solve.c, certify): the
   backward error first, then rcond (-1: not estimated). */
static axb_status AXB_FN(drv_verdict_, )(axb_handle h,
                                         const axb_dist_report *rep) {
  double eps = axb_eps(DTYPE);
  if (!(rep->backward_error < 30))
    return axb__fail(h, AXB_ERR_INACCURATE,
                     "axb_dist_solve: backward error %.3g n eps is not below "
                     "30: X is not certified",
                     rep->backward_error);
  if (rep->rcond >= 0 && rep->rcond < eps)
    return axb__fail(h, AXB_ERR_ILL_CONDITIONED,
                     "rcond = %.3g is below eps = %.3g: the matrix is "
                     "singular to working precision",
                     rep->rcond, eps);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(drv_run_, )(axb_handle h, const axb_dist_matrix *A,
                                     int chol, int64_t nrhs, const T *B,
                                     int64_t ldb, T *X, int64_t ldx,
                                     axb_dist_report *rep) {
  axb_dist_grid *g = (axb_dist_grid *)A->grid;
  int64_t cnt = A->lld * (A->nloc > 1 ? A->nloc : 1);
  axb_dist_matrix F = *A; /* the working copy, factored in place */
  F.data = axb__dist_alloc(h, cnt, sizeof(T), &F.owns);
  int64_t *ipiv = axb__malloc(A->n > 1 ? A->n : 1, sizeof(int64_t));
  axb_status st = AXB_SUCCESS;
  if (!F.data || !ipiv)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "axb_dist_solve: cannot copy the %lld x %lld local blocks",
                   (long long)A->mloc, (long long)A->nloc);
  else
    st = AXB_FN(drv_scan_, )(h, A, nrhs, B, ldb);
  st = axb__dist_agree(h, g, st);
  double anorm = 0, t_cond = 0;
  if (st == AXB_SUCCESS && g->rcond) { /* ||A||_1 of the caller's A */
    double t0 = axb__now();
    anorm = AXB_FN(axb__dist_, norm1)(A);
    t_cond = axb__now() - t0;
  }
  if (st == AXB_SUCCESS) {
    memcpy(F.data, A->data, (size_t)cnt * sizeof(T));
    for (int64_t r = 0; r < nrhs; ++r)
      memcpy(X + r * ldx, B + r * ldb, (size_t)A->n * sizeof(T));
    st = chol ? AXB_FN(axb__dist_, potrf)(h, &F, &rep->info)
              : AXB_FN(axb__dist_, getrf)(h, &F, ipiv, &rep->info);
  }
  axb_dist_times t = g->times;
  t.rcond = t_cond;
  double *y1 = NULL; /* the estimate's first block, solved beside B */
  if (st == AXB_SUCCESS && g->rcond)
    st = AXB_FN(axb__dist_, solve_x1)(h, &F, ipiv, chol, nrhs, X, ldx, &y1);
  else if (st == AXB_SUCCESS)
    st = chol ? AXB_FN(axb__dist_, potrs)(h, &F, nrhs, X, ldx)
              : AXB_FN(axb__dist_, getrs)(h, AXB_NO_TRANS, &F, ipiv, nrhs, X,
                                          ldx);
  t.solve = g->times.solve;
  if (st == AXB_SUCCESS && g->rcond) {
    double t0 = axb__now();
    st = AXB_FN(axb__dist_, rcond)(h, &F, ipiv, chol, anorm, y1, &rep->rcond);
    t.rcond += axb__now() - t0;
  }
  axb__free(y1);
  axb_dist_matrix_destroy(&F);
  axb__free(ipiv);
  if (st == AXB_SUCCESS) {
    double t0 = axb__now();
    st = AXB_FN(axb__dist_, backward_error)(h, A, nrhs, B, ldb, X, ldx,
                                            &rep->backward_error);
    t.check = axb__now() - t0;
    if (st == AXB_SUCCESS) st = AXB_FN(drv_verdict_, )(h, rep);
  }
  g->times = t;
  rep->times = t;
  return st;
}

static axb_status AXB_FN(axb__dist_solve_, )(axb_handle h,
                                             const axb_dist_matrix *A, int chol,
                                             int64_t nrhs, const void *B,
                                             int64_t ldb, void *X, int64_t ldx,
                                             axb_dist_report *report) {
  axb_dist_report rep;
  memset(&rep, 0, sizeof rep);
  rep.rcond = -1;
  int bad = 0;
  if (AXB_FN(api_ldb_bad_, )(A, nrhs, B, ldb))
    bad = nrhs < 0 ? 4 : !B ? 5 : 6;
  else if (ldx < (A->n > 1 ? A->n : 1) || (!X && A->n > 0 && nrhs > 0))
    bad = !X ? 7 : 8;
  axb_status st = AXB_FN(api_check_, )(h, A, "axb_dist_solve", bad);
  if (st == AXB_SUCCESS)
    st = AXB_FN(drv_run_, )(h, A, chol, nrhs, B, ldb, X, ldx, &rep);
  rep.status = st;
  if (report) *report = rep;
  if (st == AXB_SUCCESS) axb__clear(h);
  return st;
}

#undef DTYPE
