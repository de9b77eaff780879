/* The solver context and the preconditioners of the Krylov solvers,
   written once in T over the backend table (sparse_ops.h); included by
   sparse_solve_t.h. */

#define SP_CTX AXB_CAT2(sp_ctx_, P)
#define SP_OPS AXB_CAT2(axb_sparse_ops_, P)

typedef struct SP_CTX {
  axb_handle h;
  const axb_sparse_ops *all;
  const SP_OPS *o;
  axb_spmat *A;
  int64_t n;
  int sym; /* A symmetric: -1 not yet known (axb__csr_symmetric_once) */
  /* preconditioner */
  axb_precond pc;
  double ic_shift;      /* IC(0): the alpha of A + alpha diag(A) used, or 0 */
  int64_t ilut_boosted; /* ILUT: zero pivots replaced                 */
  T *dinv;              /* Jacobi: 1 / a_ii                         */
  axb_spfac *F;         /* ILU0, IC0, ParILU, ParIC                 */
  axb_sptri_mode mode;
  int tri_sweeps;
  T *pw1, *pw2; /* the triangular solves' intermediate and work */
  /* stopping rule and outcome of the current right-hand side */
  double bnorm, tol;
  int64_t max_iter, iters;
  double res; /* last recurrence ||r|| / ||b|| */
  axb_sparse_breakdown bd;
  int restart; /* GMRES(m) */
  int cycles;  /* GMRES restarts */
  /* residual history */
  int record;
  double *hist;
  int64_t hlen, hcap;
  double t_host; /* seconds of the preconditioner's set-up on the host */
} SP_CTX;

/* Append ||r|| / ||b|| to the history and remember it as the last. */
static void AXB_FN(sp_, push)(SP_CTX *c, double rnorm) {
  c->res = rnorm / c->bnorm;
  if (!c->record) return;
  if (c->hlen == c->hcap) {
    int64_t cap = c->hcap ? 2 * c->hcap : 64;
    double *nh = axb__malloc(cap, sizeof(double));
    if (!nh) {
      c->record = 0; /* out of memory: stop recording, keep solving */
      return;
    }
    if (c->hlen) memcpy(nh, c->hist, (size_t)c->hlen * sizeof(double));
    axb__free(c->hist);
    c->hist = nh;
    c->hcap = cap;
  }
  c->hist[c->hlen++] = c->res;
}

/* z := M^-1 r (z distinct from r). */
static axb_status AXB_FN(sp_, pc_apply)(SP_CTX *c, const T *r, T *z) {
  axb_handle h = c->h;
  axb_status st;
  switch (c->pc) {
  case AXB_PRECOND_JACOBI: return c->o->vmul(h, c->n, c->dinv, r, z);
  case AXB_PRECOND_ILU0:
  case AXB_PRECOND_ILUT:
  case AXB_PRECOND_IC0:
  case AXB_PRECOND_PARILU:
  case AXB_PRECOND_PARIC:
    /* M = L U (or L L^T): z = U^-1 (L^-1 r). */
    st = c->o->tri_solve(h, c->F, AXB_LOWER, c->mode, c->tri_sweeps, r, c->pw1,
                         c->pw2);
    if (st) return st;
    return c->o->tri_solve(h, c->F, AXB_UPPER, c->mode, c->tri_sweeps, c->pw1,
                           z, c->pw2);
  default: return c->o->copy(h, c->n, r, z);
  }
}

static void AXB_FN(sp_, pc_free)(SP_CTX *c) {
  c->o->vec_free(c->h, c->dinv);
  c->o->fac_destroy(c->h, c->F);
  c->o->vec_free(c->h, c->pw1);
  c->o->vec_free(c->h, c->pw2);
  c->dinv = c->pw1 = c->pw2 = NULL;
  c->F = NULL;
  c->pc = AXB_PRECOND_NONE;
}

/* IC(0) that survives (issue 23): when the factorisation of A meets a
   pivot <= 0, it is computed again on A + alpha diag(A) (Manteuffel's
   shifted incomplete Cholesky: for alpha large enough the shifted matrix
   is an H-matrix and IC(0) exists), alpha = 1e-3, then growing 4x per
   attempt, at most SP_IC_SHIFTS attempts.  The Krylov method still
   solves A x = b: only the preconditioner is of the shifted matrix.
   c->ic_shift gets the alpha that worked (0: none needed). */
#ifndef SP_IC_SHIFTS
#define SP_IC_SHIFTS 8
#endif
static axb_status AXB_FN(sp_, ic0_shifted)(SP_CTX *c, const axb_spf_pattern *p,
                                           const axb_csr *A, T *f,
                                           int64_t *info) {
  const T *a = (const T *)A->values;
  c->ic_shift = 0;
  axb_status st = AXB_FN(axb__spf_ic0_, )(p, a, f, info);
  if (st != AXB_ERR_NOT_SPD) return st;
  T *as = axb__malloc(A->nnz > 0 ? A->nnz : 1, sizeof(T));
  if (!as) return AXB_ERR_OUT_OF_MEMORY;
  memcpy(as, a, (size_t)A->nnz * sizeof(T));
  double alpha = 1e-3;
  int64_t first = *info;
  for (int k = 0; k < SP_IC_SHIFTS && st == AXB_ERR_NOT_SPD; ++k) {
    for (int64_t i = 0; i < p->n; ++i)
      as[p->diag[i]] = (T)((1 + alpha) * (double)a[p->diag[i]]);
    st = AXB_FN(axb__spf_ic0_, )(p, as, f, info);
    if (!st) c->ic_shift = alpha;
    alpha *= 4;
  }
  axb__free(as);
  if (st == AXB_ERR_NOT_SPD) *info = first;
  return st;
}

/* ILUT (issue 23): the factor computed on the host (axb__spf_ilut) with
   its own pattern, which the backend's factor takes as it takes ILU(0)'s
   (fac_create copies pattern and values). */
static axb_status AXB_FN(sp_, ilut_setup)(SP_CTX *c, const axb_csr *A,
                                          int64_t *info) {
  axb_handle h = c->h;
  axb_csr LU;
  int64_t boosted = 0;
  double th = axb__now();
  axb_status st = axb__spf_ilut(A, SP_ILUT_P, SP_ILUT_TAU, &LU, &boosted, info);
  if (st) return st;
  int need = 0;
  if (c->mode == AXB_SPTRI_EXACT &&
      (!c->all->tri_levels || c->all->tri_levels(h, c->n)))
    need |= AXB_SPF_NEED_LEVELS;
  axb_spf_pattern_owned pat;
  T *f = axb__malloc(LU.nnz > 0 ? LU.nnz : 1, sizeof(T));
  if (!f) st = AXB_ERR_OUT_OF_MEMORY;
  if (!st) st = axb__spf_pattern_build_some(&LU, AXB_SPF_LU, need, &pat, info);
  c->t_host += axb__now() - th;
  if (!st) {
    for (int64_t k = 0; k < LU.nnz; ++k)
      f[k] = (T)((const double *)LU.values)[k];
    st = c->o->fac_create(h, &pat.p, f, &c->F);
    axb__spf_pattern_free(&pat);
  }
  axb__free(f);
  axb_csr_destroy(&LU);
  if (!st) st = c->o->vec_alloc(h, c->n, &c->pw1);
  if (!st) st = c->o->vec_alloc(h, c->n, &c->pw2);
  if (st) {
    AXB_FN(sp_, pc_free)(c);
    return st;
  }
  c->ilut_boosted = boosted;
  c->pc = AXB_PRECOND_ILUT;
  return AXB_SUCCESS;
}

/* Set up preconditioner pc on A (host CSR, already uploaded as c->A).
   A numerical failure returns its status with *info = the row; the caller
   decides about a fallback.  Leaves c->pc = NONE on failure. */
static axb_status AXB_FN(sp_, pc_setup)(SP_CTX *c, const axb_csr *A,
                                        axb_precond pc, int sweeps,
                                        int64_t *info) {
  axb_handle h = c->h;
  axb_status st = AXB_SUCCESS;
  axb_spf_pattern_owned pat;
  memset(&pat, 0, sizeof pat); /* freed below only when built (have_pat) */
  T *f = NULL;
  int have_pat = 0;
  *info = 0;
  c->pc = AXB_PRECOND_NONE;
  if (pc == AXB_PRECOND_NONE) return AXB_SUCCESS;
  if (pc == AXB_PRECOND_JACOBI) {
    if ((st = c->o->vec_alloc(h, c->n, &c->dinv))) goto fail;
    if ((st = c->o->diag_inv(h, c->A, c->dinv, info))) goto fail;
    c->pc = pc;
    return AXB_SUCCESS;
  }
  if (pc == AXB_PRECOND_ILUT) return AXB_FN(sp_, ilut_setup)(c, A, info);
  int ic = pc == AXB_PRECOND_IC0 || pc == AXB_PRECOND_PARIC;
  if (ic && !axb__csr_symmetric_once(A, &c->sym)) {
    st = AXB_ERR_INVALID;
    goto fail;
  }
  /* Build only what will be read: the CSC view for ParILU's sweeps, the
     level sets for exact solves on a table that schedules by levels. */
  int need = 0;
  if (pc == AXB_PRECOND_PARILU) need |= AXB_SPF_NEED_CSC;
  if (c->mode == AXB_SPTRI_EXACT &&
      (!c->all->tri_levels || c->all->tri_levels(h, c->n)))
    need |= AXB_SPF_NEED_LEVELS;
  if (pc == AXB_PRECOND_ILU0 && c->o->fac_ilu0 && c->o->fac_from_mat &&
      need == 0) { /* factored on the device, on A's device pattern */
    if ((st = c->o->fac_from_mat(h, c->A, &c->F, info))) goto fail;
    if ((st = c->o->fac_ilu0(h, c->A, c->F, info))) goto fail;
    goto vectors;
  }
  double th = axb__now();
  st = axb__spf_pattern_build_some(A, ic ? AXB_SPF_IC : AXB_SPF_LU, need, &pat,
                                   info);
  c->t_host += axb__now() - th;
  if (st) goto fail;
  have_pat = 1;
  if (pc == AXB_PRECOND_ILU0 && c->o->fac_ilu0) { /* factored on the device */
    if ((st = c->o->fac_create(h, &pat.p, NULL, &c->F))) goto fail;
    if ((st = c->o->fac_ilu0(h, c->A, c->F, info))) goto fail;
    goto vectors;
  }
  f = axb__malloc(A->nnz > 0 ? A->nnz : 1, sizeof(T));
  if (!f) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto fail;
  }
  const T *a = (const T *)A->values;
  th = axb__now();
  if (pc == AXB_PRECOND_ILU0)
    st = AXB_FN(axb__spf_ilu0_, )(&pat.p, a, f, info);
  else if (pc == AXB_PRECOND_IC0)
    st = AXB_FN(sp_, ic0_shifted)(c, &pat.p, A, f, info);
  else
    st = AXB_FN(axb__spf_init_, )(&pat.p, a, f, info);
  c->t_host += axb__now() - th;
  if (st) goto fail;
  if ((st = c->o->fac_create(h, &pat.p, f, &c->F))) goto fail;
  if ((pc == AXB_PRECOND_PARILU || pc == AXB_PRECOND_PARIC) &&
      (st = c->o->fac_sweeps(h, c->A, c->F, sweeps, info)))
    goto fail;
vectors:
  if ((st = c->o->vec_alloc(h, c->n, &c->pw1))) goto fail;
  if ((st = c->o->vec_alloc(h, c->n, &c->pw2))) goto fail;
  c->pc = pc;
  axb__free(f);
  if (have_pat) axb__spf_pattern_free(&pat);
  return AXB_SUCCESS;
fail:
  axb__free(f);
  if (have_pat) axb__spf_pattern_free(&pat);
  AXB_FN(sp_, pc_free)(c);
  return st;
}
