/* The Krylov methods, written once in T over the backend table; included
   by sparse_solve_t.h after sparse_precond_t.h.  Each method starts from
   the x it is given, runs until ||r|| / ||b|| <= tol (AXB_SUCCESS) or
   c->iters reaches c->max_iter (AXB_ERR_NO_CONVERGENCE, breakdown
   MAX_ITER) or breaks down (AXB_ERR_NOT_SPD / AXB_ERR_NO_CONVERGENCE with
   c->bd set).  Scalars are carried in double; no breakdown ever reaches
   the vectors as a NaN: every divisor is tested first. */

#define TRY(call)                                                              \
  do {                                                                         \
    if ((st = (call)) != AXB_SUCCESS) goto done;                               \
  } while (0)

static axb_status AXB_FN(sp_, stop)(SP_CTX *c, axb_sparse_breakdown bd) {
  c->bd = bd;
  return bd == AXB_BREAKDOWN_NOT_SPD ? AXB_ERR_NOT_SPD : AXB_ERR_NO_CONVERGENCE;
}

/* A residual norm that is not finite, or above SP_DIVERGED ||b|| (the
   iteration diverges: stop before the vectors overflow); else NONE. */
#define SP_DIVERGED 1e8
static axb_sparse_breakdown AXB_FN(sp_, wild)(const SP_CTX *c, double rn) {
  if (!isfinite(rn)) return AXB_BREAKDOWN_NON_FINITE;
  return rn > SP_DIVERGED * c->bnorm ? AXB_BREAKDOWN_DIVERGED
                                     : AXB_BREAKDOWN_NONE;
}

/* A step length that would put Inf or NaN into x (a tiny positive
   divisor, or a value beyond the range of T) is a breakdown, not an update:
   the vectors never see a non-finite scalar.  1 (with *st) to stop. */
static int AXB_FN(sp_, bad_step)(SP_CTX *c, double a, axb_status *st) {
  if (isfinite(a) && isfinite((double)(T)a)) return 0;
  *st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_NON_FINITE);
  return 1;
}

/* The end of an iteration: record ||r||; 1 when the loop stops, on a wild
   residual (its breakdown in *st) or on convergence. */
static int AXB_FN(sp_, settle)(SP_CTX *c, double rn, axb_status *st) {
  AXB_FN(sp_, push)(c, rn);
  axb_sparse_breakdown w = AXB_FN(sp_, wild)(c, rn);
  if (w) {
    *st = AXB_FN(sp_, stop)(c, w);
    return 1;
  }
  return c->res <= c->tol;
}

/* Allocate k vectors of n (all or none). */
static axb_status AXB_FN(sp_, valloc)(SP_CTX *c, int k, T **v) {
  for (int i = 0; i < k; ++i)
    v[i] = NULL;
  for (int i = 0; i < k; ++i) {
    axb_status st = c->o->vec_alloc(c->h, c->n, &v[i]);
    if (st) { /* freed and cleared: GMRES's cleanup frees v again */
      for (int j = 0; j < i; ++j) {
        c->o->vec_free(c->h, v[j]);
        v[j] = NULL;
      }
      return st;
    }
  }
  return AXB_SUCCESS;
}

static void AXB_FN(sp_, vfree)(SP_CTX *c, int k, T **v) {
  for (int i = 0; i < k; ++i)
    c->o->vec_free(c->h, v[i]);
}

/* r := b - A x. */
static axb_status AXB_FN(sp_, residual)(SP_CTX *c, const T *b, const T *x,
                                        T *r) {
  axb_status st = c->o->copy(c->h, c->n, b, r);
  return st ? st : c->o->spmv(c->h, c->A, (T)-1, x, (T)1, r);
}

/* (Preconditioned) conjugate gradients. */
static axb_status AXB_FN(sp_, cg)(SP_CTX *c, const T *b, T *x) {
  const SP_OPS *o = c->o;
  axb_handle h = c->h;
  int64_t n = c->n;
  T *v[4];
  axb_status st = AXB_FN(sp_, valloc)(c, 4, v);
  if (st) return st;
  T *r = v[0], *z = v[1], *p = v[2], *q = v[3];
  double rn, rz, pq;
  TRY(AXB_FN(sp_, residual)(c, b, x, r));
  TRY(o->nrm2(h, n, r, &rn));
  AXB_FN(sp_, push)(c, rn);
  if (c->res <= c->tol) goto done;
  if (c->pc == AXB_PRECOND_NONE) {
    rz = rn * rn;
    TRY(o->copy(h, n, r, p));
  } else {
    TRY(AXB_FN(sp_, pc_apply)(c, r, z));
    TRY(o->dot(h, n, r, z, &rz));
    if (!(rz > 0)) {
      st = AXB_FN(sp_, stop)(c, isfinite(rz) ? AXB_BREAKDOWN_NOT_SPD
                                             : AXB_BREAKDOWN_NON_FINITE);
      goto done;
    }
    TRY(o->copy(h, n, z, p));
  }
  for (;;) {
    if (c->iters >= c->max_iter) {
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_MAX_ITER);
      break;
    }
    TRY(o->spmv(h, c->A, (T)1, p, (T)0, q));
    TRY(o->dot(h, n, p, q, &pq));
    /* p^T A p <= 0: A is not positive definite (or p vanished). */
    if (!(pq > 0)) {
      st = AXB_FN(sp_, stop)(c, isfinite(pq) ? AXB_BREAKDOWN_NOT_SPD
                                             : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    double alpha = rz / pq;
    if (AXB_FN(sp_, bad_step)(c, alpha, &st)) break;
    TRY(o->axpy(h, n, (T)alpha, p, x));
    TRY(o->axpy(h, n, (T)-alpha, q, r));
    ++c->iters;
    TRY(o->nrm2(h, n, r, &rn));
    if (AXB_FN(sp_, settle)(c, rn, &st)) break;
    double rz_new;
    if (c->pc == AXB_PRECOND_NONE) {
      rz_new = rn * rn;
      z = r;
    } else {
      TRY(AXB_FN(sp_, pc_apply)(c, r, z));
      TRY(o->dot(h, n, r, z, &rz_new));
      if (!(rz_new > 0)) { /* M not positive definite */
        st = AXB_FN(sp_, stop)(c, isfinite(rz_new) ? AXB_BREAKDOWN_NOT_SPD
                                                   : AXB_BREAKDOWN_NON_FINITE);
        break;
      }
    }
    TRY(o->axpby(h, n, (T)1, z, (T)(rz_new / rz), p));
    rz = rz_new;
  }
done:
  AXB_FN(sp_, vfree)(c, 4, v);
  return st;
}

/* Single-reduction CG (SEEDS.md 5; Chronopoulos-Gear with a
   preconditioner).  Per iteration, with z = M^-1 r:
     s = A z, gamma = <r,z>, omega = <z,s>, (and <r,r> for the stopping
     rule) in ONE fused SpMV + reduction + host read;
     beta = gamma / gamma_prev, sigma = omega - beta^2 sigma_prev
     (sigma = p^T A p), alpha = gamma / sigma;
     p = z + beta p, t = s + beta t (t = A p), x += alpha p, r -= alpha t
     in ONE fused update. */
static axb_status AXB_FN(sp_, cg1)(SP_CTX *c, const T *b, T *x) {
  const SP_OPS *o = c->o;
  axb_handle h = c->h;
  int64_t n = c->n;
  int pre = c->pc != AXB_PRECOND_NONE;
  T *v[5] = {NULL, NULL, NULL, NULL, NULL};
  axb_status st = AXB_FN(sp_, valloc)(c, pre ? 5 : 4, v);
  if (st) return st;
  T *r = v[0], *s = v[1], *p = v[2], *t = v[3], *z = pre ? v[4] : r;
  double gamma_prev = 0, sigma_prev = 0, r3[3];
  TRY(AXB_FN(sp_, residual)(c, b, x, r));
  TRY(o->fill(h, n, (T)0, p));
  TRY(o->fill(h, n, (T)0, t));
  if (pre) TRY(AXB_FN(sp_, pc_apply)(c, r, z));
  for (int first = 1;; first = 0) {
    TRY(o->cg1_spmv_dots(h, c->A, z, s, r, r3));
    double gamma = r3[0], omega = r3[1], rn = sqrt(r3[2]);
    AXB_FN(sp_, push)(c, rn);
    if (!isfinite(gamma) || !isfinite(omega) || AXB_FN(sp_, wild)(c, rn)) {
      st = AXB_FN(sp_, stop)(c, AXB_FN(sp_, wild)(c, rn)
                                    ? AXB_FN(sp_, wild)(c, rn)
                                    : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    if (c->res <= c->tol) break;
    if (c->iters >= c->max_iter) {
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_MAX_ITER);
      break;
    }
    if (!(gamma > 0)) { /* <r, M^-1 r> <= 0: M not positive definite */
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_NOT_SPD);
      break;
    }
    double beta = first ? 0 : gamma / gamma_prev;
    double sigma = first ? omega : omega - beta * beta * sigma_prev;
    if (!(sigma > 0)) {
      st = AXB_FN(sp_, stop)(c, isfinite(sigma) ? AXB_BREAKDOWN_NOT_SPD
                                                : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    double alpha = gamma / sigma;
    if (AXB_FN(sp_, bad_step)(c, alpha, &st)) break;
    TRY(o->cg1_update(h, n, (T)alpha, (T)beta, z, s, p, t, x, r));
    ++c->iters;
    gamma_prev = gamma;
    sigma_prev = sigma;
    if (pre) TRY(AXB_FN(sp_, pc_apply)(c, r, z));
  }
done:
  AXB_FN(sp_, vfree)(c, pre ? 5 : 4, v);
  return st;
}

/* BiCGStab, right preconditioned (x = M^-1 y, the iteration on A M^-1). */
static axb_status AXB_FN(sp_, bicgstab)(SP_CTX *c, const T *b, T *x) {
  const SP_OPS *o = c->o;
  axb_handle h = c->h;
  int64_t n = c->n;
  T *v[7];
  axb_status st = AXB_FN(sp_, valloc)(c, 7, v);
  if (st) return st;
  T *r = v[0], *rh = v[1], *p = v[2], *w = v[3], *ph = v[4], *sh = v[5],
    *t = v[6];
  double rn, rho_old = 1, alpha = 1, omega = 1, rho, rv, tt[2];
  TRY(AXB_FN(sp_, residual)(c, b, x, r));
  TRY(o->nrm2(h, n, r, &rn));
  AXB_FN(sp_, push)(c, rn);
  if (c->res <= c->tol) goto done;
  TRY(o->copy(h, n, r, rh));
  TRY(o->fill(h, n, (T)0, w));
  TRY(o->fill(h, n, (T)0, p));
  for (;;) {
    if (c->iters >= c->max_iter) {
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_MAX_ITER);
      break;
    }
    TRY(o->dot(h, n, rh, r, &rho));
    if (rho == 0 || !isfinite(rho)) {
      st = AXB_FN(sp_, stop)(c, rho == 0 ? AXB_BREAKDOWN_RHO
                                         : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    /* p = r + beta (p - omega v), beta = (rho / rho_old) (alpha / omega) */
    double beta = (rho / rho_old) * (alpha / omega);
    TRY(o->axpy(h, n, (T)-omega, w, p));
    TRY(o->axpby(h, n, (T)1, r, (T)beta, p));
    TRY(AXB_FN(sp_, pc_apply)(c, p, ph));
    TRY(o->spmv(h, c->A, (T)1, ph, (T)0, w)); /* v = A M^-1 p */
    TRY(o->dot(h, n, rh, w, &rv));
    if (rv == 0 || !isfinite(rv)) {
      st = AXB_FN(sp_, stop)(c, rv == 0 ? AXB_BREAKDOWN_RV
                                        : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    alpha = rho / rv;
    if (AXB_FN(sp_, bad_step)(c, alpha, &st)) break;
    TRY(o->axpy(h, n, (T)-alpha, w, r)); /* r is now s */
    double sn;
    TRY(o->nrm2(h, n, r, &sn));
    if (AXB_FN(sp_, wild)(c, sn)) { /* s diverged: keep x, stop */
      ++c->iters;
      AXB_FN(sp_, push)(c, sn);
      st = AXB_FN(sp_, stop)(c, AXB_FN(sp_, wild)(c, sn));
      break;
    }
    if (sn / c->bnorm <= c->tol) { /* converged on the half step */
      TRY(o->axpy(h, n, (T)alpha, ph, x));
      ++c->iters;
      AXB_FN(sp_, push)(c, sn);
      break;
    }
    TRY(AXB_FN(sp_, pc_apply)(c, r, sh));
    TRY(o->spmv(h, c->A, (T)1, sh, (T)0, t));
    TRY(o->dot2(h, n, t, r, t, t, tt));
    TRY(o->axpy(h, n, (T)alpha, ph, x)); /* keep the half step's progress */
    if (tt[1] == 0 || tt[0] == 0 || !isfinite(tt[0]) || !isfinite(tt[1])) {
      ++c->iters;
      AXB_FN(sp_, push)(c, sn);
      st = AXB_FN(sp_, stop)(c, isfinite(tt[0]) && isfinite(tt[1])
                                    ? AXB_BREAKDOWN_OMEGA
                                    : AXB_BREAKDOWN_NON_FINITE);
      break;
    }
    omega = tt[0] / tt[1];
    if (AXB_FN(sp_, bad_step)(c, omega, &st)) break;
    TRY(o->axpy(h, n, (T)omega, sh, x));
    TRY(o->axpy(h, n, (T)-omega, t, r));
    ++c->iters;
    TRY(o->nrm2(h, n, r, &rn));
    if (AXB_FN(sp_, settle)(c, rn, &st)) break;
    rho_old = rho;
  }
done:
  AXB_FN(sp_, vfree)(c, 7, v);
  return st;
}

/* Back substitution R y = g with the k x k upper triangle of H (leading
   dimension ldh, host, double); 0 when a diagonal entry is zero. */
static int AXB_FN(sp_, hsolve)(const double *H, int64_t ldh, int64_t k,
                               const double *g, double *y) {
  for (int64_t i = k - 1; i >= 0; --i) {
    double s = g[i];
    for (int64_t j = i + 1; j < k; ++j)
      s -= H[i + j * ldh] * y[j];
    if (H[i + i * ldh] == 0) return 0;
    y[i] = s / H[i + i * ldh];
  }
  return 1;
}

/* Restarted GMRES(m), right preconditioned, modified Gram-Schmidt, Givens
   rotations; the residual estimate |g_{j+1}| is the stopping test.  A
   "lucky" breakdown (h_{j+1,j} ~ 0: the Krylov space holds the solution)
   ends the cycle with the update; the driver's true residual decides. */
static axb_status AXB_FN(sp_, gmres)(SP_CTX *c, const T *b, T *x) {
  const SP_OPS *o = c->o;
  axb_handle h = c->h;
  int64_t n = c->n, m = c->restart;
  T *V = NULL, *v[2] = {NULL, NULL};
  double *H = axb__calloc((m + 1) * m, sizeof(double));
  double *cs = axb__malloc(m, sizeof(double));
  double *sn = axb__malloc(m, sizeof(double));
  double *g = axb__malloc(m + 1, sizeof(double));
  double *y = axb__malloc(m, sizeof(double));
  axb_status st = AXB_SUCCESS;
  if (!H || !cs || !sn || !g || !y) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto done;
  }
  if (n > INT64_MAX / (m + 1)) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto done;
  }
  TRY(o->vec_alloc(h, n * (m + 1), &V));
  TRY(AXB_FN(sp_, valloc)(c, 2, v));
  T *z = v[0], *u = v[1];
  for (int cycle = 0;; ++cycle) {
    double beta;
    TRY(AXB_FN(sp_, residual)(c, b, x, z));
    TRY(o->nrm2(h, n, z, &beta));
    if (cycle == 0) AXB_FN(sp_, push)(c, beta);
    c->res = beta / c->bnorm;
    if (AXB_FN(sp_, wild)(c, beta)) {
      st = AXB_FN(sp_, stop)(c, AXB_FN(sp_, wild)(c, beta));
      break;
    }
    if (c->res <= c->tol) break;
    if (c->iters >= c->max_iter) {
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_MAX_ITER);
      break;
    }
    if (cycle > 0) ++c->cycles;
    TRY(o->axpby(h, n, (T)(1 / beta), z, (T)0, V));
    g[0] = beta;
    int64_t k = 0;
    int lucky = 0, converged = 0;
    for (int64_t j = 0; j < m && c->iters < c->max_iter; ++j) {
      T *w = V + (j + 1) * n;
      double *hj = H + j * (m + 1);
      TRY(AXB_FN(sp_, pc_apply)(c, V + j * n, z));
      TRY(o->spmv(h, c->A, (T)1, z, (T)0, w));
      double wn0;
      TRY(o->nrm2(h, n, w, &wn0));
      for (int64_t i = 0; i <= j; ++i) { /* modified Gram-Schmidt */
        TRY(o->dot(h, n, w, V + i * n, &hj[i]));
        TRY(o->axpy(h, n, (T)-hj[i], V + i * n, w));
      }
      TRY(o->nrm2(h, n, w, &hj[j + 1]));
      if (!isfinite(hj[j + 1])) {
        st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_NON_FINITE);
        goto done;
      }
      ++c->iters;
      lucky = !(hj[j + 1] > 1e-14 * wn0);
      if (!lucky) TRY(o->axpby(h, n, (T)(1 / hj[j + 1]), w, (T)0, w));
      for (int64_t i = 0; i < j; ++i) { /* earlier rotations */
        double a = hj[i], bb = hj[i + 1];
        hj[i] = cs[i] * a + sn[i] * bb;
        hj[i + 1] = -sn[i] * a + cs[i] * bb;
      }
      double d = hypot(hj[j], hj[j + 1]);
      if (d == 0) {
        st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_GMRES);
        goto done;
      }
      cs[j] = hj[j] / d;
      sn[j] = hj[j + 1] / d;
      hj[j] = d;
      hj[j + 1] = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] *= cs[j];
      k = j + 1;
      AXB_FN(sp_, push)(c, fabs(g[j + 1]));
      if (c->res <= c->tol) converged = 1;
      if (converged || lucky) break;
    }
    /* x += M^-1 (V y), R y = g. */
    if (!AXB_FN(sp_, hsolve)(H, m + 1, k, g, y)) {
      st = AXB_FN(sp_, stop)(c, AXB_BREAKDOWN_GMRES);
      break;
    }
    TRY(o->fill(h, n, (T)0, z));
    TRY(o->lincomb(h, n, k, V, n, y, z));
    TRY(AXB_FN(sp_, pc_apply)(c, z, u));
    TRY(o->axpy(h, n, (T)1, u, x));
    if (converged) break;
  }
done:
  o->vec_free(h, V);
  AXB_FN(sp_, vfree)(c, 2, v);
  axb__free(H);
  axb__free(cs);
  axb__free(sn);
  axb__free(g);
  axb__free(y);
  return st;
}

#undef TRY
