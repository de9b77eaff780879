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
  /* AUTO: fall back to Jacobi, then to none. */
  r->precond_fell_back = 1;
  r->precond = AXB_PRECOND_JACOBI;
  st = AXB_FN(sp_, pc_setup)(c, A, AXB_PRECOND_JACOBI, 0, &info);
  if (st > 0) {
    r->precond = AXB_PRECOND_NONE;
    st = AXB_SUCCESS;
  }
  return st;
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
  T *b = NULL, *x = NULL;
  axb_status st, first_fail = AXB_SUCCESS;
  double t0 = axb__now();
  if ((st = ops->mat_create(h, A, &c.A))) goto done;
  if ((st = ops->vec_alloc(h, n, &b))) goto done;
  if ((st = ops->vec_alloc(h, n, &x))) goto done;
  if ((st = AXB_FN(sp_, setup_pc)(&c, A, o->precond, m, o, r))) goto done;
  if (all->finish && (st = all->finish(h))) goto done;
  double t1 = axb__now();
  r->t_setup = t1 - t0;
  for (int64_t j = 0; j < nrhs; ++j) {
    const T *bj = (const T *)B->data + j * B->ld;
    T *xj = (T *)X->data + j * X->ld;
    if ((st = ops->vec_upload(h, n, bj, b))) goto done;
    if (o->use_x0)
      st = ops->vec_upload(h, n, xj, x);
    else
      st = ops->fill(h, n, (T)0, x);
    if (st) goto done;
    c.iters = 0;
    c.hlen = 0;
    c.bd = AXB_BREAKDOWN_NONE;
    if ((st = ops->nrm2(h, n, b, &c.bnorm))) goto done;
    double tr = 0;
    axb_status sj = AXB_SUCCESS;
    if (c.bnorm == 0) { /* b = 0: x = 0 exactly */
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
  return st;
}

#undef SP_CTX
#undef SP_OPS
