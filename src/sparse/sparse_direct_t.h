/* The typed driver of the sparse direct path (issue 23), written once in T
   and included at the end of sparse_solve_t.h (it shares the verdict,
   sp_certify): factor (CHOLMOD or UMFPACK, sparse_direct.h), condition
   estimate, per right-hand side a solve in double with iterative
   refinement, the answer rounded to T and certified on the caller's own
   A and b. */

/* ||b - A x||_2 / ||b||_2 with the residual r = b - A x accumulated in
   long double (A's values of T, b and x in double). */
static double AXB_FN(spd_, resid)(const axb_csr *A, const double *b,
                                  const double *x, double *r, double bn) {
  const T *v = (const T *)A->values;
  long double rr = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    long double ri = b[i];
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      ri -= (long double)v[k] * (long double)x[A->colind[k]];
    r[i] = (double)ri;
    rr += ri * ri;
  }
  return (double)sqrtl(rr) / bn;
}

/* x := A^-1 b, then, while the relative residual is above 64 eps (the
   level of a backward stable solve), at most 3 steps of iterative
   refinement x += A^-1 r, each kept only while it lowers the residual (by
   at least half: a stalled refinement stops).  w: 3 n doubles.  Returns the
   steps taken in *steps. */
static axb_status AXB_FN(spd_, solve_refine)(axb_handle h, const axb_csr *A,
                                             axb_direct *F, const double *b,
                                             double *x, double *w, int *steps) {
  int64_t n = A->rows;
  double *r = w, *d = w + n, *r2 = w + 2 * n, bn = 0;
  for (int64_t i = 0; i < n; ++i)
    bn += b[i] * b[i];
  bn = sqrt(bn);
  axb_status st = axb__direct_solve(h, F, 0, b, x);
  if (st || !(bn > 0)) return st;
  double res = AXB_FN(spd_, resid)(A, b, x, r, bn);
  const double enough = 64 * (DBL_EPSILON / 2);
  for (int s = 0; s < 3 && res > enough && isfinite(res); ++s) {
    if ((st = axb__direct_solve(h, F, 0, r, d))) return st;
    for (int64_t i = 0; i < n; ++i)
      d[i] += x[i]; /* the candidate x + A^-1 r */
    double res2 = AXB_FN(spd_, resid)(A, b, d, r2, bn);
    if (!(res2 < res)) break;
    memcpy(x, d, (size_t)n * sizeof(double));
    double *t = r; /* r2 is the residual of the new x */
    r = r2;
    r2 = t;
    ++*steps;
    if (res2 > 0.5 * res) break;
    res = res2;
  }
  return AXB_SUCCESS;
}

/* Solve A X = B with the analysed factor F (axb__direct_analyze on A):
   factor, estimate rcond, solve and certify each column.  Outcomes:
   AXB_SUCCESS (certified, rcond >= eps of T); AXB_ERR_ILL_CONDITIONED
   (solved, rcond < eps: X is returned, not trustworthy);
   AXB_ERR_INACCURATE (the certificate failed); AXB_ERR_SINGULAR; library
   errors.  Fills the report's direct fields; t_setup gets the
   factorisation (the caller adds its analysis). */
static axb_status AXB_FN(axb__sparse_direct_, )(axb_handle h, const axb_csr *A,
                                                const axb_dense *B,
                                                axb_dense *X, double tol,
                                                axb_direct *F,
                                                axb_sparse_report *r) {
  int64_t n = A->rows;
  double t0 = axb__now();
  axb_status st = axb__direct_factor(h, F);
  snprintf(r->solver, sizeof r->solver, "%s", axb__direct_name(F));
  r->method = AXB_SPARSE_DIRECT;
  r->precond = AXB_PRECOND_NONE;
  if (st) return st;
  double rcond = -1;
  if ((st = axb__direct_rcond(h, A, F, &rcond))) return st;
  r->rcond = rcond;
  double t1 = axb__now();
  r->t_setup += t1 - t0;
  double *w = axb__malloc(5 * (n > 0 ? n : 1), sizeof(double));
  if (!w)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "no memory for the direct solve's vectors (n = %lld)",
                     (long long)n);
  double *bd = w, *xd = w + n, *work = w + 2 * n, worst = 0, unc_w = 0;
  axb_status verdict = AXB_SUCCESS;
  for (int64_t j = 0; j < B->cols && !st; ++j) {
    const T *bj = (const T *)B->data + j * B->ld;
    T *xj = (T *)X->data + j * X->ld;
    for (int64_t i = 0; i < n; ++i)
      bd[i] = (double)bj[i];
    int steps = 0;
    if ((st = AXB_FN(spd_, solve_refine)(h, A, F, bd, xd, work, &steps))) break;
    if (steps > r->iterations) r->iterations = steps;
    int finite = 1;
    for (int64_t i = 0; i < n; ++i) {
      xj[i] = (T)xd[i];
      if (!isfinite((double)xj[i])) finite = 0;
    }
    double res = 0, unc = 0;
    int bzero = 1;
    for (int64_t i = 0; i < n && bzero; ++i)
      bzero = bj[i] == 0;
    if (!bzero) AXB_FN(sp_, certify)(A, bj, xj, &res, &unc);
    if (!finite) res = INFINITY;
    if (res > worst || j == 0) worst = res;
    if (!(res + unc <= tol) && !verdict) {
      verdict = AXB_ERR_INACCURATE;
      unc_w = unc;
    }
  }
  axb__free(w);
  r->t_solve = axb__now() - t1;
  r->residual = r->true_residual = worst;
  if (st) return st;
  if (rcond >= 0 && rcond < AXB_EPS(T))
    return axb__fail(h, AXB_ERR_ILL_CONDITIONED,
                     "direct (%s): solved, but the matrix is ill-conditioned "
                     "(rcond estimate of the row-equilibrated matrix %.3g < "
                     "eps %.3g; relative residual "
                     "%.3g): the answer is not trustworthy",
                     axb__direct_name(F), rcond, (double)AXB_EPS(T), worst);
  if (verdict)
    return axb__fail(h, verdict,
                     "direct (%s): the relative residual %.3g (rounding "
                     "bound %.3g) is above tol %.3g: the answer is not "
                     "certified (rcond estimate %.3g)",
                     axb__direct_name(F), worst, unc_w, tol, rcond);
  return AXB_SUCCESS;
}
