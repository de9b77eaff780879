/*
 * Mixed-precision solves with an FP64 certificate (axb.h, issue 22): the
 * factor precision chain, classic iterative refinement, GMRES-IR and the
 * certificate, written once over a session (backend.h, axb_mixed_backend)
 * that holds A and its factors where they live.  All vector work is here,
 * on the host: the sessions do the O(n^2) products and solves.
 *
 * The maths.  With As = R A C (R, C diagonal powers of two) and M = L U
 * (or L L^T) the low-precision factors of As, the correction of a residual
 * r is d = C M^-1 R r, computed as
 *     w = R r;  s = 2^-e(max |w|);  d = C M^-1 (s w) / s,
 * so that the vector rounded down to the factor's precision has its
 * largest entry in [1/2, 1) whatever the scale of A and b.  A step is
 * certified when every column satisfies
 *     ||b - A x||_inf / (||A||_inf ||x||_inf n eps) < 30      (DESIGN.md).
 */
#include "dense/mixed.h"
#include "core/internal.h"
#include "core/tune.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define CERT_RATIO 30.0

/* ---- scales and formats ------------------------------------------------ */

/* v rounded to `bits` significant bits, to nearest, ties to even. */
static double round_bits(double v, int bits) {
  if (v == 0 || !isfinite(v)) return v;
  int e;
  double f = frexp(v, &e); /* |f| in [1/2, 1) */
  return ldexp(nearbyint(ldexp(f, bits)), e - bits);
}

double axb__mixed_format_max(axb_factor_precision p) {
  switch (p) {
  case AXB_FACTOR_FP16: return 65504.0;
  case AXB_FACTOR_FP64: return DBL_MAX;
  default: return FLT_MAX;
  }
}

double axb__mixed_round(double v, axb_factor_precision p) {
  double r;
  switch (p) {
  case AXB_FACTOR_FP32: return (double)(float)v;
  case AXB_FACTOR_TF32: r = round_bits(v, 11); break;
  case AXB_FACTOR_BF16: r = round_bits(v, 8); break;
  case AXB_FACTOR_FP16:
    if (fabs(v) < ldexp(1.0, -14)) /* subnormal: a fixed quantum 2^-24 */
      return ldexp(nearbyint(ldexp(v, 24)), -24);
    r = round_bits(v, 11);
    if (fabs(r) > 65504.0) return v > 0 ? INFINITY : -INFINITY;
    return r;
  default: return v;
  }
  if (fabs(r) > FLT_MAX) return v > 0 ? INFINITY : -INFINITY;
  return (double)(float)r;
}

/* ---- names and options ------------------------------------------------- */

static const char *const prec_names[AXB_FACTOR_COUNT] = {
    "auto", "fp32", "tf32", "fp16", "bf16", "fp64"};

const char *axb_factor_precision_name(axb_factor_precision p) {
  return (unsigned)p < AXB_FACTOR_COUNT ? prec_names[p] : "?";
}

axb_status axb_factor_precision_parse(const char *name,
                                      axb_factor_precision *p) {
  if (!name || !p)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_factor_precision_parse: %s is NULL",
                     name ? "p" : "name");
  for (int i = 0; i < AXB_FACTOR_COUNT; ++i)
    if (!strcmp(name, prec_names[i])) {
      *p = (axb_factor_precision)i;
      return AXB_SUCCESS;
    }
  return axb__fail(NULL, AXB_ERR_INVALID,
                   "unknown factor precision '%s' (auto, fp32, tf32, fp16, "
                   "bf16, fp64)",
                   name);
}

void axb_mixed_opts_default(axb_mixed_opts *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->fallback = 1;
  o->scale = 1;
}

/* ---- the driver's state ------------------------------------------------ */

typedef struct {
  axb_handle h;      /* the handle that runs it (an AUTO handle's GPU) */
  axb_handle caller; /* the caller's: failures are reported there      */
  const axb_mixed_backend *be;
  void *s;
  int chol;
  int64_t n, k;
  double anorm, amax;
  double *r, *c;     /* scales, n each                             */
  double *B, *X, *R; /* n x k (ld n): B, the iterate, the residual */
  double *best;      /* n x k: the iterate with the lowest ratio   */
  double best_ratio;
  double *V, *Hs;   /* GMRES: basis n x (m+1), Hessenberg + rotations */
  double *colscale; /* k: psolve's column scales                  */
  int m;            /* GMRES iterations per step                  */
  axb_mixed_info *inf;
} mx_t;

static double vmax_abs(int64_t n, const double *x) {
  double m = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = fabs(x[i]);
    if (v > m || isnan(v)) m = v;
  }
  return m;
}

/* V := C M^-1 R V column by column (see the top); 1 when the result is not
   finite (the factor overflowed or is too poor), a library error < 0. */
static int psolve_(mx_t *x, int64_t k, double *V);
static int psolve(mx_t *x, int64_t k, double *V) {
  double t0 = axb__now();
  int e = psolve_(x, k, V);
  x->inf->t_solve += axb__now() - t0;
  return e;
}

static int psolve_(mx_t *x, int64_t k, double *V) {
  const int64_t n = x->n;
  double *sc = x->colscale;
  for (int64_t q = 0; q < k; ++q) {
    double *v = V + q * n;
    for (int64_t i = 0; i < n; ++i)
      v[i] *= x->r[i];
    double m = vmax_abs(n, v);
    if (!isfinite(m)) return 1;
    sc[q] = axb__mixed_pow2_scale(m);
    for (int64_t i = 0; i < n; ++i)
      v[i] *= sc[q];
  }
  axb_status st = x->be->solve(x->h, x->s, k, V);
  if (st) return st < 0 ? st : AXB_ERR_INTERNAL;
  for (int64_t q = 0; q < k; ++q) {
    double *v = V + q * n;
    for (int64_t i = 0; i < n; ++i) {
      v[i] = v[i] * x->c[i] / sc[q];
      if (!isfinite(v[i])) return 1;
    }
  }
  return 0;
}

/* R := B - A X; the worst column's certificate ratio (NaN-safe: a NaN
   ratio is reported as +Inf, which certifies nothing). */
static axb_status residual(mx_t *x, double *ratio) {
  const int64_t n = x->n;
  const double t0 = axb__now();
  axb_status st = x->be->matmul(x->h, x->s, x->k, x->X, x->R);
  if (st) return st;
  double worst = 0, eps = DBL_EPSILON / 2;
  for (int64_t q = 0; q < x->k; ++q) {
    double *rq = x->R + q * n;
    const double *bq = x->B + q * n;
    for (int64_t i = 0; i < n; ++i)
      rq[i] = bq[i] - rq[i];
    double rn = vmax_abs(n, rq), xn = vmax_abs(n, x->X + q * n), q_ratio;
    if (isnan(rn) || !isfinite(xn))
      q_ratio = INFINITY;
    else if (xn == 0 || x->anorm == 0)
      q_ratio = rn == 0 ? 0 : INFINITY;
    else
      q_ratio = rn / x->anorm / xn / ((double)n * eps);
    if (!(q_ratio <= worst)) worst = q_ratio;
  }
  if (isnan(worst)) worst = INFINITY;
  if (worst < x->best_ratio) {
    x->best_ratio = worst;
    memcpy(x->best, x->X, (size_t)(n * x->k) * sizeof(double));
  }
  *ratio = worst;
  x->inf->t_residual += axb__now() - t0;
  return AXB_SUCCESS;
}

/* The ratio refinement aims for: LAPACK dsgesv's ||r|| < ||x|| ||A|| eps
   sqrt(n), i.e. ratio < 1/sqrt(n), the accuracy of an FP64 LU; a run that
   stagnates above it is still certified when its ratio is < 30. */
static double aim(const mx_t *x) { return 1.0 / sqrt((double)x->n); }

/* Classic refinement from X = M^-1 B: *ok = 1 when certified.  Stops at
   the aim, or when a step does not lower the ratio by a tenth (stagnation
   or divergence: the contraction kappa u_f is near or above 1), or after
   max_iter steps.  A slow but steady contraction (a 10- or 11-bit factor
   of a matrix with kappa ~ 1e3) runs on: such steps are cheap (O(n^2)). */
static axb_status refine_ir(mx_t *x, int max_iter, int *ok) {
  const int64_t nk = x->n * x->k;
  double prev = INFINITY, ratio;
  *ok = 0;
  for (int it = 0;; ++it) {
    axb_status st = residual(x, &ratio);
    if (st) return st;
    if (ratio < aim(x) || it >= max_iter || !(ratio <= 0.9 * prev)) {
      *ok = x->best_ratio < CERT_RATIO;
      if (*ok) memcpy(x->X, x->best, (size_t)nk * sizeof(double));
      return AXB_SUCCESS;
    }
    prev = ratio;
    int e = psolve(x, x->k, x->R);
    if (e < 0) return e;
    if (e) return AXB_SUCCESS;
    for (int64_t i = 0; i < nk; ++i)
      x->X[i] += x->R[i];
    x->inf->ir_steps++;
  }
}

static double dot(int64_t n, const double *a, const double *b) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

/* GMRES on M^-1 A d = M^-1 r for one column r (n), left preconditioned,
   modified Gram-Schmidt and Givens rotations, at most x->m iterations or
   until the preconditioned residual drops by 1e-10; d overwrites r.
   Returns < 0 for a library error, 1 when a vector went non-finite. */
static int gmres_column(mx_t *x, double *r) {
  const int64_t n = x->n;
  const int m = x->m;
  double *V = x->V, *H = x->Hs;
  double *cs = H + (size_t)(m + 1) * m, *sn = cs + m, *g = sn + m;
  /* the residual at unit scale, so that no norm below underflows */
  double rs = axb__mixed_pow2_scale(vmax_abs(n, r));
  for (int64_t i = 0; i < n; ++i)
    V[i] = r[i] * rs;
  int e = psolve(x, 1, V);
  if (e) return e;
  double beta = sqrt(dot(n, V, V));
  memset(r, 0, (size_t)n * sizeof(double));
  if (beta == 0) return 0;
  for (int64_t i = 0; i < n; ++i)
    V[i] /= beta;
  memset(g, 0, (size_t)(m + 1) * sizeof(double));
  g[0] = beta;
  int j = 0;
  for (; j < m;) {
    double *vj = V + (size_t)j * n, *v1 = vj + n;
    axb_status st = x->be->matmul(x->h, x->s, 1, vj, v1);
    if (st) return st;
    e = psolve(x, 1, v1);
    if (e) return e;
    double *hj = H + (size_t)j * (m + 1);
    for (int i = 0; i <= j; ++i) {
      hj[i] = dot(n, v1, V + (size_t)i * n);
      const double *vi = V + (size_t)i * n;
      for (int64_t t = 0; t < n; ++t)
        v1[t] -= hj[i] * vi[t];
    }
    hj[j + 1] = sqrt(dot(n, v1, v1));
    if (hj[j + 1] > 0)
      for (int64_t t = 0; t < n; ++t)
        v1[t] /= hj[j + 1];
    for (int i = 0; i < j; ++i) { /* earlier rotations */
      double a = hj[i], b = hj[i + 1];
      hj[i] = cs[i] * a + sn[i] * b;
      hj[i + 1] = -sn[i] * a + cs[i] * b;
    }
    double den = hypot(hj[j], hj[j + 1]);
    cs[j] = den > 0 ? hj[j] / den : 1;
    sn[j] = den > 0 ? hj[j + 1] / den : 0;
    hj[j] = den;
    hj[j + 1] = 0;
    g[j + 1] = -sn[j] * g[j];
    g[j] = cs[j] * g[j];
    ++j;
    x->inf->gmres_iters++;
    if (fabs(g[j]) <= 1e-10 * beta || den == 0) break;
  }
  /* y = H^-1 g (upper triangular j x j), d = V y / rs */
  for (int i = j - 1; i >= 0; --i) {
    double s = g[i];
    for (int t = i + 1; t < j; ++t)
      s -= H[(size_t)t * (m + 1) + i] * g[t];
    double d = H[(size_t)i * (m + 1) + i];
    g[i] = d != 0 ? s / d : 0;
  }
  for (int i = 0; i < j; ++i) {
    const double *vi = V + (size_t)i * n;
    for (int64_t t = 0; t < n; ++t)
      r[t] += g[i] * vi[t];
  }
  for (int64_t t = 0; t < n; ++t) {
    r[t] /= rs;
    if (!isfinite(r[t])) return 1;
  }
  return 0;
}

/* GMRES-IR from the best iterate so far: up to 10 steps, each solving for
   the correction with GMRES; stops when a step does not halve the ratio. */
static axb_status refine_gmres(mx_t *x, int *ok) {
  const int64_t n = x->n, nk = n * x->k;
  double prev = INFINITY, ratio;
  *ok = 0;
  if (x->best_ratio < INFINITY)
    memcpy(x->X, x->best, (size_t)nk * sizeof(double));
  for (int it = 0;; ++it) {
    axb_status st = residual(x, &ratio);
    if (st) return st;
    if (ratio < aim(x) || it >= 10 || !(ratio <= 0.5 * prev)) {
      *ok = x->best_ratio < CERT_RATIO;
      if (*ok) memcpy(x->X, x->best, (size_t)nk * sizeof(double));
      return AXB_SUCCESS;
    }
    prev = ratio;
    for (int64_t q = 0; q < x->k; ++q) {
      int e = gmres_column(x, x->R + q * n);
      if (e < 0) return e;
      if (e) return AXB_SUCCESS;
    }
    for (int64_t i = 0; i < nk; ++i)
      x->X[i] += x->R[i];
    x->inf->ir_steps++;
  }
}

/* ---- one factor precision ---------------------------------------------- */

enum {
  TRY_CERTIFIED = 0,
  TRY_OVERFLOW = -2,
  TRY_FACTOR = -3,
  TRY_REFINE = -31
};

/* Factor in p and refine: *outcome is TRY_CERTIFIED or the LAPACK ITER
   code of the failure; *finfo the factor's info (numerical failure). */
static axb_status try_precision(mx_t *x, axb_factor_precision p,
                                const axb_mixed_opts *o, int *outcome,
                                int64_t *finfo) {
  const int64_t nk = x->n * x->k;
  *finfo = 0;
  if (x->amax > axb__mixed_format_max(p)) {
    *outcome = TRY_OVERFLOW;
    return AXB_SUCCESS;
  }
  double t0 = axb__now();
  axb_status st = x->be->factor(x->h, x->s, p, finfo);
  x->inf->t_factor += axb__now() - t0;
  if (st > 0) {
    *outcome = TRY_FACTOR;
    return AXB_SUCCESS;
  }
  if (st) return st;
  memcpy(x->X, x->B, (size_t)nk * sizeof(double));
  int e = psolve(x, x->k, x->X);
  if (e < 0) return e;
  if (e) {
    *outcome = TRY_OVERFLOW;
    return AXB_SUCCESS;
  }
  int ok = 0;
  if (o->refine != AXB_REFINE_GMRES) {
    st = refine_ir(x, o->max_iter > 0 ? o->max_iter : 30, &ok);
    if (st) return st;
  }
  if (!ok && o->refine != AXB_REFINE_IR) {
    st = refine_gmres(x, &ok);
    if (st) return st;
    x->inf->gmres_used = ok;
  }
  *outcome = ok ? TRY_CERTIFIED : TRY_REFINE;
  return AXB_SUCCESS;
}

/* ---- the entry points -------------------------------------------------- */

static axb_status arg(axb_handle h, const char *r, int i, const char *what,
                      int64_t *info) {
  if (info) *info = -i;
  return axb__fail(h, -i, "%s: argument %d is illegal (%s)", r, i, what);
}

static void scale_range(int64_t n, const double *v, double *lo, double *hi) {
  *lo = *hi = 1;
  for (int64_t i = 0; i < n; ++i) {
    if (i == 0 || v[i] < *lo) *lo = v[i];
    if (i == 0 || v[i] > *hi) *hi = v[i];
  }
}

/* The session's backend for h: the table's own where it has one. */
static const axb_mixed_backend *session_of(axb_handle h) {
  return h->ops && h->ops->mixed ? h->ops->mixed : &axb__mixed_host;
}

static axb_status free_all(mx_t *x, axb_status st) {
  if (st && x->caller != x->h && axb_detail(x->caller)[0] == '\0')
    axb__fail(x->caller, st, "%s", axb_detail(x->h));
  if (x->s) x->be->close(x->h, x->s);
  axb__free(x->r);
  axb__free(x->B);
  axb__free(x->V);
  axb__free(x->Hs);
  return st;
}

/* Argument numbers: off + 1 = n, + 2 nrhs, + 3 A, + 4 lda, + 5 B, + 6 ldb,
   + 7 X, + 8 ldx. */
static axb_status mixed_solve(axb_handle h, const char *rn, int off, int chol,
                              axb_uplo uplo, int dev, int64_t n, int64_t nrhs,
                              const double *A, int64_t lda, const double *B,
                              int64_t ldb, double *X, int64_t ldx,
                              const axb_mixed_opts *opts, axb_mixed_info *inf,
                              int64_t *info) {
  double t_start = axb__now();
  axb_mixed_opts o;
  axb_mixed_info scratch_inf;
  if (opts)
    o = *opts;
  else
    axb_mixed_opts_default(&o);
  if (!inf) inf = &scratch_inf;
  memset(inf, 0, sizeof *inf);
  inf->backward_error = NAN;
  if (info) *info = 0;
  if (!h) return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL", rn);
  axb__clear(h);
  if (chol && uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg(h, rn, off == 3 ? 2 : 1, "uplo is not AXB_LOWER or AXB_UPPER",
               info);
  int64_t one_n = n > 1 ? n : 1;
  if (n < 0) return arg(h, rn, off + 1, "n < 0", info);
  if (nrhs < 0) return arg(h, rn, off + 2, "nrhs < 0", info);
  if (!A && n > 0) return arg(h, rn, off + 3, "A is NULL", info);
  if (lda < one_n) return arg(h, rn, off + 4, "lda < max(1, n)", info);
  if (!B && n > 0 && nrhs > 0) return arg(h, rn, off + 5, "B is NULL", info);
  if (ldb < one_n) return arg(h, rn, off + 6, "ldb < max(1, n)", info);
  if (!X && n > 0 && nrhs > 0) return arg(h, rn, off + 7, "X is NULL", info);
  if (ldx < one_n) return arg(h, rn, off + 8, "ldx < max(1, n)", info);
  if ((unsigned)o.precision >= AXB_FACTOR_COUNT || (unsigned)o.refine > 2 ||
      o.max_iter < 0 || o.gmres_inner < 0)
    return arg(h, rn, off + 9, "options out of range", info);
  if (n == 0 || nrhs == 0) {
    inf->backward_error = 0;
    return AXB_SUCCESS;
  }
  /* An AUTO handle hands large problems on host arrays to its GPU. */
  axb_handle g =
      dev ? h : axb__auto_pick(h, chol ? AXB_TUNE_CHOLESKY : AXB_TUNE_LU, n);
  mx_t x;
  memset(&x, 0, sizeof x);
  x.h = g;
  x.caller = h;
  x.be = session_of(g);
  inf->backend = g->backend;
  x.chol = chol;
  x.n = n;
  x.k = nrhs;
  x.inf = inf;
  x.best_ratio = INFINITY;
  x.m = o.gmres_inner > 0 ? o.gmres_inner : 30;
  if (x.m > n) x.m = (int)n;
  if (dev && x.be == &axb__mixed_host)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "%s: device arrays need a CUDA handle", rn);
  /* host vectors: r, c; B, X, R, best (n x k each); the GMRES basis and
     psolve's k column scales after it; the Hessenberg matrix */
  x.r = axb__malloc(2 * n, sizeof(double));
  x.B = axb__malloc(n * nrhs, 4 * sizeof(double));
  x.V = axb__malloc(n * (x.m + 1) + nrhs, sizeof(double));
  x.Hs = axb__malloc((int64_t)(x.m + 4), (size_t)(x.m + 1) * sizeof(double));
  if (!x.r || !x.B || !x.V || !x.Hs)
    return free_all(&x, axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                                  "%s: vectors of n = %lld, nrhs = %lld", rn,
                                  (long long)n, (long long)nrhs));
  x.c = x.r + n;
  x.X = x.B + n * nrhs;
  x.R = x.X + n * nrhs;
  x.best = x.R + n * nrhs;
  x.colscale = x.V + (size_t)(x.m + 1) * n;
  axb_status st = AXB_SUCCESS;
  if (dev)
    st = x.be->copy(g, x.B, n, B, ldb, n, nrhs, 0);
  else
    for (int64_t q = 0; q < nrhs; ++q)
      memcpy(x.B + q * n, B + q * ldb, (size_t)n * sizeof(double));
  if (st) return free_all(&x, st);
  /* The chain: the requested precision, then FP32, then FP64. */
  axb_factor_precision p0 = o.precision;
  /* AUTO (measured on the H100, docs/notes/mixed.md): a Cholesky factor
     with FP16 updates (TF32's unit roundoff, and the diagonal scaling
     keeps the scaled A and L within FP16's range; 2.5x cuSOLVER at
     n = 32768 where TF32 gives 1.9x), an LU factor in FP32 (with
     tensor-core updates the panel still bounds the LU, and its refinement
     needs many more steps). */
  if (p0 == AXB_FACTOR_AUTO)
    p0 = g->ops->mixed && chol ? AXB_FACTOR_FP16 : AXB_FACTOR_FP32;
  axb_mixed_scan scan;
  memset(&scan, 0, sizeof scan);
  scan.first = p0;
  double t_open = axb__now();
  st =
      x.be->open(g, chol, uplo, dev, n, A, lda, o.scale, x.r, x.c, &scan, &x.s);
  inf->t_scan = axb__now() - t_open;
  if (st) return free_all(&x, st);
  if (!scan.finite)
    return free_all(
        &x, axb__fail(h, AXB_ERR_INVALID, "%s: A has a NaN or Inf entry", rn));
  for (int64_t i = 0; i < n * nrhs; ++i)
    if (!isfinite(x.B[i]))
      return free_all(&x, axb__fail(h, AXB_ERR_INVALID,
                                    "%s: B has a NaN or Inf entry at (%lld, "
                                    "%lld)",
                                    rn, (long long)(i % n + 1),
                                    (long long)(i / n + 1)));
  x.anorm = scan.anorm;
  x.amax = scan.amax;
  scale_range(n, x.r, &inf->row_scale_min, &inf->row_scale_max);
  scale_range(n, x.c, &inf->col_scale_min, &inf->col_scale_max);

  inf->requested = p0;
  axb_factor_precision chain[3];
  int len = 0;
  chain[len++] = p0;
  if (o.fallback) {
    if (p0 != AXB_FACTOR_FP32 && p0 != AXB_FACTOR_FP64)
      chain[len++] = AXB_FACTOR_FP32;
    if (p0 != AXB_FACTOR_FP64) chain[len++] = AXB_FACTOR_FP64;
  }
  int first_fail = 0, outcome = TRY_REFINE;
  int64_t finfo = 0;
  for (int t = 0; t < len; ++t) {
    inf->precision = chain[t];
    st = try_precision(&x, chain[t], &o, &outcome, &finfo);
    if (st) return free_all(&x, st);
    if (outcome == TRY_CERTIFIED) break;
    if (!first_fail) first_fail = outcome;
    if (t + 1 < len) inf->fallbacks++;
  }
  inf->iter = first_fail ? first_fail : inf->ir_steps;
  inf->backward_error = x.best_ratio;
  /* the answer: the certified iterate, else the best one seen */
  const double *ans = outcome == TRY_CERTIFIED ? x.X : x.best;
  if (outcome != TRY_CERTIFIED && x.best_ratio == INFINITY) ans = NULL;
  if (outcome == TRY_FACTOR) ans = NULL; /* singular: X (maybe B) untouched */
  if (ans) {
    if (dev)
      st = x.be->copy(g, X, ldx, ans, n, n, nrhs, 1);
    else
      for (int64_t q = 0; q < nrhs; ++q)
        memcpy(X + q * ldx, ans + q * n, (size_t)n * sizeof(double));
    if (st) return free_all(&x, st);
  }
  inf->t_total = axb__now() - t_start;
  inf->t_refine = inf->t_total - inf->t_factor;
  const char *pn = axb_factor_precision_name(inf->precision);
  if (outcome == TRY_CERTIFIED)
    st = AXB_SUCCESS;
  else if (outcome == TRY_FACTOR) {
    if (info) *info = finfo;
    st = axb__fail(h, chol ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR,
                   chol ? "%s: the %s Cholesky factor failed at minor %lld "
                          "(not positive definite)"
                        : "%s: the %s LU factor has a zero pivot at column "
                          "%lld (singular)",
                   rn, pn, (long long)finfo);
  } else if (inf->precision == AXB_FACTOR_FP64)
    st = axb__fail(h, AXB_ERR_INACCURATE,
                   "%s: even the FP64 answer fails the certificate "
                   "(backward error ratio %.3g >= 30)",
                   rn, x.best_ratio);
  else
    st = axb__fail(h, AXB_ERR_NO_CONVERGENCE,
                   "%s: the %s factor did not certify (%s; best backward "
                   "error ratio %.3g) and fallback is off",
                   rn, pn,
                   outcome == TRY_OVERFLOW ? "rounding A down overflows"
                                           : "refinement stagnated",
                   x.best_ratio);
  return free_all(&x, st);
}

axb_status axb_dsxsv_ex(axb_handle h, int chol, axb_uplo uplo, int dev,
                        int64_t n, int64_t nrhs, const double *A, int64_t lda,
                        const double *B, int64_t ldb, double *X, int64_t ldx,
                        const axb_mixed_opts *opts, axb_mixed_info *info_out,
                        int64_t *info) {
  return mixed_solve(h, "axb_dsxsv_ex", 3, chol != 0, uplo, dev != 0, n, nrhs,
                     A, lda, B, ldb, X, ldx, opts, info_out, info);
}

axb_status axb_dsgesv(axb_handle h, int64_t n, int64_t nrhs, const double *A,
                      int64_t lda, const double *B, int64_t ldb, double *X,
                      int64_t ldx, int64_t *iter, int64_t *info) {
  axb_mixed_info inf;
  axb_status st = mixed_solve(h, "axb_dsgesv", 0, 0, AXB_LOWER, 0, n, nrhs, A,
                              lda, B, ldb, X, ldx, NULL, &inf, info);
  if (iter) *iter = inf.iter;
  return st;
}

axb_status axb_dsposv(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                      const double *A, int64_t lda, const double *B,
                      int64_t ldb, double *X, int64_t ldx, int64_t *iter,
                      int64_t *info) {
  axb_mixed_info inf;
  axb_status st = mixed_solve(h, "axb_dsposv", 1, 1, uplo, 0, n, nrhs, A, lda,
                              B, ldb, X, ldx, NULL, &inf, info);
  if (iter) *iter = inf.iter;
  return st;
}
