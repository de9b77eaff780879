/* The typed driver of axb_sparse_solve: upload, preconditioner (with the
   AUTO fallback), one Krylov solve per column with true-residual restarts,
   report.  Written once in T; included by sparse_solve.c. */

#include "sparse/sparse_precond_t.h"

#include "sparse/sparse_krylov_t.h"

static axb_status AXB_FN(sp_, run)(SP_CTX *c, axb_sparse_method m, const T *b,
                                   T *x) {
  switch (m) {
  case AXB_SPARSE_CG1: return AXB_FN(sp_, cg1)(c, b, x);
  case AXB_SPARSE_BICGSTAB: return AXB_FN(sp_, bicgstab)(c, b, x);
  case AXB_SPARSE_GMRES: return AXB_FN(sp_, gmres)(c, b, x);
  default: return AXB_FN(sp_, cg)(c, b, x);
  }
}

/* One right-hand side: run the method; when its recurrence says converged
   but the true residual ||b - A x|| / ||b|| (in double) is above tol,
   restart from x (at most SP_TRUE_RESTARTS times, within max_iter). */
static axb_status AXB_FN(sp_, solve1)(SP_CTX *c, axb_sparse_method m,
                                      const T *b, T *x, double *true_res,
                                      int *restarts) {
  for (int attempt = 0;; ++attempt) {
    c->bd = AXB_BREAKDOWN_NONE;
    axb_status st = AXB_FN(sp_, run)(c, m, b, x);
    if (st < 0) return st;
    double tr;
    axb_status st2 = c->o->resid_nrm2(c->h, c->A, x, b, &tr);
    if (st2) return st2;
    *true_res = tr / c->bnorm;
    if (st == AXB_SUCCESS && !(*true_res <= c->tol)) {
      if (attempt < SP_TRUE_RESTARTS && c->iters < c->max_iter) {
        ++*restarts;
        continue;
      }
      st = AXB_ERR_NO_CONVERGENCE;
    }
    return st;
  }
}

/* Preconditioner set-up with the AUTO policy; fills the report's
   preconditioner fields.  Returns 0, or the failure of a preconditioner
   asked for by name (its status; detail on h), or a library error. */
static axb_status AXB_FN(sp_, setup_pc)(SP_CTX *c, const axb_csr *A,
                                        axb_precond want, axb_sparse_method m,
                                        const axb_sparse_opts *o,
                                        axb_sparse_report *r) {
  axb_precond pc = want;
  if (pc == AXB_PRECOND_AUTO)
    pc = (m == AXB_SPARSE_CG || m == AXB_SPARSE_CG1) &&
                 axb__csr_symmetric_once(A, &c->sym)
             ? AXB_PRECOND_IC0
             : AXB_PRECOND_ILU0;
  int64_t info = 0;
  axb_status st = AXB_FN(sp_, pc_setup)(c, A, pc, o->sweeps, &info);
  r->precond_requested = pc; /* AUTO's choice: what a fallback names */
  r->precond = pc;
  r->precond_shift = c->ic_shift;
  if (st == AXB_SUCCESS) return st;
  if (st < 0 && st != AXB_ERR_INVALID) return st;
  r->precond_status = st;
  r->precond_info = info;
  if (want != AXB_PRECOND_AUTO) {
    r->info = info;
    if (st == AXB_ERR_INVALID)
      return axb__fail(c->h, st,
                       "preconditioner %s needs a symmetric matrix (A is not "
                       "symmetric); use ilu0, parilu or jacobi",
                       axb_precond_name(pc));
    return axb__fail(c->h, st,
                     "preconditioner %s failed: %s at row %lld (1-based)",
                     axb_precond_name(pc),
                     st == AXB_ERR_NOT_SPD ? "pivot not positive"
                                           : "zero or non-finite pivot",
                     (long long)info);
  }
  /* AUTO: an ILU(0) that failed gives way to ILUT (issue 23: its zero
     pivots are replaced, so it exists for every matrix without an empty
     row); then Jacobi, then none. */
  r->precond_fell_back = 1;
  if (pc == AXB_PRECOND_ILU0) {
    r->precond = AXB_PRECOND_ILUT;
    st = AXB_FN(sp_, pc_setup)(c, A, AXB_PRECOND_ILUT, 0, &info);
    if (st == AXB_SUCCESS) return st;
    if (st < 0 && st != AXB_ERR_OUT_OF_MEMORY) return st;
    axb__clear(c->h);
  }
  r->precond = AXB_PRECOND_JACOBI;
  st = AXB_FN(sp_, pc_setup)(c, A, AXB_PRECOND_JACOBI, 0, &info);
  if (st > 0) {
    r->precond = AXB_PRECOND_NONE;
    st = AXB_SUCCESS;
  }
  return st;
}

/* Largest and smallest nonzero magnitudes of v[0 .. n) (0, 0 when all are
   zero). */
static void AXB_FN(sp_, range)(const T *v, int64_t n, double *mx, double *mn) {
  double hi = 0, lo = 0;
  for (int64_t i = 0; i < n; ++i) {
    double a = fabs((double)v[i]);
    if (a > hi) hi = a;
    if (a > 0 && (lo == 0 || a < lo)) lo = a;
  }
  *mx = hi;
  *mn = lo;
}

/* The scale exponent of a set of values of T (sp_scale_exp). */
static int AXB_FN(sp_, exp_of)(const T *v, int64_t n, int exact) {
  double mx, mn;
  AXB_FN(sp_, range)(v, n, &mx, &mn);
  return sizeof(T) == sizeof(double)
             ? sp_scale_exp(mx, mn, DBL_MIN_EXP, DBL_MAX_EXP, SP_BAND_D, exact)
             : sp_scale_exp(mx, mn, FLT_MIN_EXP, FLT_MAX_EXP, SP_BAND_S, exact);
}

/* y := 2^e v (exact for A: e comes from sp_scale_exp of v's own range). */
static void AXB_FN(sp_, shift)(const T *v, int64_t n, int e, T *y) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = (T)ldexp((double)v[i], e);
}

/* x := 2^k x in place, for the answer of the scaled system; 0 when an
   entry leaves the range of T (overflow, or bits lost in the subnormals),
   with its index in *bad. */
static int AXB_FN(sp_, unshift)(T *x, int64_t n, int k, int64_t *bad) {
  int ok = 1;
  for (int64_t i = 0; i < n; ++i) {
    T v = (T)ldexp((double)x[i], k);
    if (!isfinite((double)v) || (T)ldexp((double)v, -k) != x[i]) {
      if (ok) *bad = i;
      ok = 0;
    }
    x[i] = v;
  }
  return ok;
}

/* The verdict, on the host in long double (whose exponent range holds
   any product of two doubles), on the caller's own A, b and the returned
   x, independent of the backend and of the scaling:
   *res = ||b - A x||_2 / ||b||_2 and *unc = the bound on the rounding of
   that residual itself, (k + 1) u || |b| + |A| |x| ||_2 / ||b||_2 (k the
   longest row, u long double's unit roundoff).  When |A| |x| dwarfs b (an
   ill-conditioned system), a residual computed in double can come out as
   0 while the true one is far above tol (found by fuzz/fuzz_sparse.c):
   only res + unc <= tol certifies. */
static void AXB_FN(sp_, certify)(const axb_csr *A, const T *b, const T *y,
                                 double *res, double *unc) {
  const T *v = (const T *)A->values;
  long double rr = 0, gg = 0, bb = 0;
  int64_t kmax = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    long double ri = b[i], gi = fabsl((long double)b[i]);
    int64_t k0 = A->rowptr[i], k1 = A->rowptr[i + 1];
    if (k1 - k0 > kmax) kmax = k1 - k0;
    for (int64_t k = k0; k < k1; ++k) {
      long double p = (long double)v[k] * (long double)y[A->colind[k]];
      ri -= p;
      gi += fabsl(p);
    }
    rr += ri * ri;
    gg += gi * gi;
    bb += (long double)b[i] * (long double)b[i];
  }
  long double bn = sqrtl(bb);
  *res = (double)(sqrtl(rr) / bn);
  *unc =
      (double)((long double)(kmax + 1) * (LDBL_EPSILON / 2) * sqrtl(gg) / bn);
}

static axb_status
AXB_FN(axb__sparse_solve_, )(axb_handle h, const axb_sparse_ops *all,
                             const axb_csr *A, const axb_dense *B, axb_dense *X,
                             const axb_sparse_opts *o, axb_sparse_method m,
                             int sym, axb_sparse_report *r) {
  SP_CTX c;
  memset(&c, 0, sizeof(c));
  c.h = h;
  c.all = all;
  c.o = &all->P;
  c.n = A->rows;
  c.sym = sym;
  c.pc = AXB_PRECOND_NONE;
  c.tol = o->tol;
  c.max_iter = o->max_iter;
  c.restart = o->restart;
  c.mode =
      o->trisolve == AXB_TRISOLVE_JACOBI ? AXB_SPTRI_JACOBI : AXB_SPTRI_EXACT;
  c.tri_sweeps = o->tri_sweeps;
  c.record = o->history;
  const SP_OPS *ops = c.o;
  int64_t n = c.n, nrhs = B->cols;
  T *b = NULL, *x = NULL, *col = NULL, *vals = NULL;
  axb_status st, first_fail = AXB_SUCCESS;
  double unc = 0; /* the largest rounding bound that refused a verdict */
  double t0 = axb__now();
  /* Equilibration by a power of two: A far outside the unit range is
     solved as 2^sa A (exactly: no entry leaves the normal range), each
     column of B likewise as 2^sb b (entries below 2^-1000 max|b| may
     flush to 0), so that no norm or inner product of the iteration under-
     or overflows; the answer is scaled back exactly (or refused) and the
     verdict is certified on the caller's own A and b (sp_certify).
     Values inside the band are used as given (bitwise as before). */
  const axb_csr *A0 = A; /* the caller's: the verdict is on it */
  axb_csr As = *A;
  int sa = AXB_FN(sp_, exp_of)((const T *)A->values, A->nnz, 1);
  if (sa) {
    if (!(vals = axb__malloc(A->nnz, sizeof(T)))) {
      st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "no memory for the scaled copy of A's %lld values",
                     (long long)A->nnz);
      goto done;
    }
    AXB_FN(sp_, shift)((const T *)A->values, A->nnz, sa, vals);
    As.values = vals;
    A = &As;
  }
  if (!(col = axb__malloc(n, sizeof(T)))) {
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "no memory for a scaled column of n = %lld", (long long)n);
    goto done;
  }
  if ((st = ops->mat_create(h, A, &c.A))) goto done;
  if ((st = ops->vec_alloc(h, n, &b))) goto done;
  if ((st = ops->vec_alloc(h, n, &x))) goto done;
  double tp = axb__now();
  r->t_upload = tp - t0;
  if ((st = AXB_FN(sp_, setup_pc)(&c, A, o->precond, m, o, r))) goto done;
  if (all->finish && (st = all->finish(h))) goto done;
  double t1 = axb__now();
  r->t_precond = t1 - tp;
  r->t_precond_host = c.t_host;
  r->t_setup += t1 - t0; /* after AUTO's analysis, when it ran */
  for (int64_t j = 0; j < nrhs; ++j) {
    const T *bj = (const T *)B->data + j * B->ld;
    T *xj = (T *)X->data + j * X->ld;
    double bmax, bmin;
    AXB_FN(sp_, range)(bj, n, &bmax, &bmin);
    int sb = AXB_FN(sp_, exp_of)(bj, n, 0);
    AXB_FN(sp_, shift)(bj, n, sb, col);
    if ((st = ops->vec_upload(h, n, col, b))) goto done;
    if (o->use_x0) { /* the start of the scaled system: 2^(sb - sa) x0 */
      AXB_FN(sp_, shift)(xj, n, sb - sa, col);
      int64_t bad;
      if (!AXB_FN(sp_, unshift)(col, n, 0, &bad)) /* overflowed: start at 0 */
        memset(col, 0, (size_t)n * sizeof(T));
      st = ops->vec_upload(h, n, col, x);
    } else {
      st = ops->fill(h, n, (T)0, x);
    }
    if (st) goto done;
    c.iters = 0;
    c.hlen = 0;
    c.bd = AXB_BREAKDOWN_NONE;
    if ((st = ops->nrm2(h, n, b, &c.bnorm))) goto done;
    double tr = 0;
    axb_status sj = AXB_SUCCESS;
    if (bmax > 0 && !(c.bnorm > 0 && isfinite(c.bnorm))) {
      /* No exact scaling brings this column's range inside T's. */
      st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "B(:, %lld) has entries from %.3g to %.3g: its 2-norm "
                     "cannot be formed in %s even after scaling",
                     (long long)j + 1, bmin, bmax, axb_dtype_name(A->dtype));
      goto done;
    }
    if (bmax == 0) { /* b = 0: x = 0 exactly */
      if ((st = ops->fill(h, n, (T)0, x))) goto done;
      c.res = 0;
    } else {
      sj = AXB_FN(sp_, solve1)(&c, m, b, x, &tr, &r->restarts);
      if (sj < 0) {
        st = sj;
        goto done;
      }
    }
    r->restarts += c.cycles;
    c.cycles = 0;
    if ((st = ops->vec_download(h, n, x, xj))) goto done;
    int64_t bad = 0;
    if (!AXB_FN(sp_, unshift)(xj, n, sa - sb, &bad) && !sj) {
      sj = AXB_ERR_INACCURATE;
      c.bd = AXB_BREAKDOWN_NONE;
      if (!first_fail) first_fail = sj;
      axb__fail(h, sj,
                "x(%lld, %lld) is outside the range of %s: the solution of "
                "the system (solved scaled by 2^%d) is not representable",
                (long long)bad + 1, (long long)j + 1, axb_dtype_name(A->dtype),
                sa - sb);
    }
    if (!sj && bmax > 0) { /* certify x on the caller's system */
      double cres, cunc, tcert = axb__now();
      AXB_FN(sp_, certify)(A0, bj, xj, &cres, &cunc);
      r->t_certify += axb__now() - tcert;
      tr = cres;
      if (!(cres + cunc <= c.tol)) {
        sj = AXB_ERR_NO_CONVERGENCE;
        c.bd = AXB_BREAKDOWN_NONE;
        if (cunc > unc) unc = cunc;
      }
    }
    if (c.iters > r->iterations) r->iterations = c.iters;
    if (c.res > r->residual || j == 0) r->residual = c.res;
    if (tr > r->true_residual || j == 0) r->true_residual = tr;
    if (sj && !first_fail) {
      first_fail = sj;
      r->breakdown = c.bd;
    }
  }
  if (all->finish && (st = all->finish(h))) goto done;
  r->t_solve = axb__now() - t1;
  st = first_fail;
  if (st == AXB_ERR_NOT_SPD)
    axb__fail(h, st,
              "%s: the matrix (or its preconditioner) is not positive "
              "definite (breakdown %s after %lld iterations)",
              axb_sparse_method_name(m),
              axb_sparse_breakdown_name(r->breakdown),
              (long long)r->iterations);
  else if (st == AXB_ERR_NO_CONVERGENCE && unc > c.tol / 2)
    axb__fail(h, st,
              "%s: the answer cannot be certified: its true relative "
              "residual %.3g (in extended precision) carries a rounding "
              "bound of %.3g, above tol %.3g (|A| |x| is far larger than "
              "|b|: the system is too ill-conditioned for this tol)",
              axb_sparse_method_name(m), r->true_residual, unc, c.tol);
  else if (st == AXB_ERR_NO_CONVERGENCE)
    axb__fail(h, st,
              "%s did not converge: %s after %lld iterations, relative "
              "residual %.3g (true %.3g), tol %.3g",
              axb_sparse_method_name(m),
              r->breakdown == AXB_BREAKDOWN_NONE
                  ? "true residual above tol"
                  : axb_sparse_breakdown_name(r->breakdown),
              (long long)r->iterations, r->residual, r->true_residual, c.tol);
done:
  if (st < 0 && st != AXB_ERR_INVALID && !axb_detail(h)[0])
    axb__fail(h, st, "sparse solve: %s", axb_strerror(st));
  r->history = c.hist;
  r->history_len = c.hlen;
  c.hist = NULL;
  AXB_FN(sp_, pc_free)(&c);
  ops->vec_free(h, b);
  ops->vec_free(h, x);
  ops->mat_destroy(h, c.A);
  axb__free(col);
  axb__free(vals);
  return st;
}

#include "sparse/sparse_direct_t.h"

#undef SP_CTX
#undef SP_OPS
