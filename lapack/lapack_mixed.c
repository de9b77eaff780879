/*
 * dsgesv_ and dsposv_ of the drop-in: LAPACK's mixed-precision drivers on
 * axb's (axb_dsxsv_ex: FP32 factor of the power-of-two scaled A, FP64
 * refinement, certified answer).
 *
 * LAPACK's contract is kept where it differs from axb_dsgesv's: after a
 * fallback (ITER < 0) A holds the FP64 factors (and IPIV their pivots),
 * and INFO > 0 says that FP64 factorization failed.  So axb runs with its
 * own fallback off, and on failure this file does LAPACK's second half
 * itself (FP64 factor in A, X := B, solve) instead of factoring twice.
 * With ITER >= 0, IPIV refers in LAPACK to the FP32 factor in the
 * workspace SWORK, which no caller can use; axb's FP32 factor is of the
 * scaled matrix and lives elsewhere, so IPIV is set to the identity.
 * WORK and SWORK are not used.
 */
#include "axb_lapack.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef void (*dsgesv_fn)(const lapack_int *, const lapack_int *, double *,
                          const lapack_int *, lapack_int *, double *,
                          const lapack_int *, double *, const lapack_int *,
                          double *, float *, lapack_int *, lapack_int *);
typedef void (*dsposv_fn)(const char *, const lapack_int *, const lapack_int *,
                          double *, const lapack_int *, double *,
                          const lapack_int *, double *, const lapack_int *,
                          double *, float *, lapack_int *, lapack_int *,
                          size_t);

typedef void (*getrs_fn)(const char *, const lapack_int *, const lapack_int *,
                         const double *, const lapack_int *, const lapack_int *,
                         double *, const lapack_int *, lapack_int *, size_t);
typedef void (*potrs_fn)(const char *, const lapack_int *, const lapack_int *,
                         const double *, const lapack_int *, double *,
                         const lapack_int *, lapack_int *, size_t);

/* The system BLAS (OpenBLAS or the program's): LAPACK's own residual. */
void dgemm_(const char *ta, const char *tb, const lapack_int *m,
            const lapack_int *n, const lapack_int *k, const double *alpha,
            const double *A, const lapack_int *lda, const double *B,
            const lapack_int *ldb, const double *beta, double *C,
            const lapack_int *ldc, size_t, size_t);
void dsymm_(const char *side, const char *uplo, const lapack_int *m,
            const lapack_int *n, const double *alpha, const double *A,
            const lapack_int *lda, const double *B, const lapack_int *ldb,
            const double *beta, double *C, const lapack_int *ldc, size_t,
            size_t);

/* LAPACK's stopping test on the answer axb certified: every column has
   ||b - A x||_inf < ||x||_inf ||A||_inf eps sqrt(n), with the residual
   computed as dsgesv (DGEMM) or dsposv (DSYMM) compute it.  axb's own
   residual is a different sum of the same terms; at the threshold the
   difference is rounding noise, and LAPACK's tester judges with the
   BLAS, so the drop-in decides with the BLAS too.  Returns 1 when the
   answer passes (or no memory for the check: axb's certificate holds). */
static int lapack_converged(int chol, const char *uplo, lapack_int n,
                            lapack_int nrhs, const double *A, lapack_int lda,
                            const double *B, lapack_int ldb, const double *X,
                            lapack_int ldx) {
  double *R = malloc((size_t)n * (size_t)nrhs * sizeof *R);
  if (!R) return 1;
  for (lapack_int j = 0; j < nrhs; ++j)
    memcpy(R + (size_t)j * n, B + (size_t)j * ldb, (size_t)n * sizeof *R);
  const double m1 = -1, one = 1;
  if (chol)
    dsymm_("L", uplo, &n, &nrhs, &m1, A, &lda, X, &ldx, &one, R, &n, 1, 1);
  else
    dgemm_("N", "N", &n, &nrhs, &n, &m1, A, &lda, X, &ldx, &one, R, &n, 1, 1);
  /* ||A||_inf: row sums (of the symmetric A from its stored triangle). */
  double *rs = calloc((size_t)n, sizeof *rs), anrm = 0;
  if (!rs) {
    free(R);
    return 1;
  }
  const int up = axl_lsame(uplo, 'U');
  for (lapack_int j = 0; j < n; ++j)
    for (lapack_int i = 0; i < n; ++i) {
      double a = fabs(A[(size_t)j * lda + i]);
      if (!chol)
        rs[i] += a;
      else if (up ? i < j : i > j)
        rs[i] += a, rs[j] += a;
      else if (i == j)
        rs[i] += a;
    }
  for (lapack_int i = 0; i < n; ++i)
    if (rs[i] > anrm || isnan(rs[i])) anrm = rs[i];
  const double cte = anrm * (DBL_EPSILON / 2) * sqrt((double)n);
  int ok = 1;
  for (lapack_int j = 0; j < nrhs && ok; ++j) {
    double xn = 0, rn = 0;
    for (lapack_int i = 0; i < n; ++i) {
      xn = fmax(xn, fabs(X[(size_t)j * ldx + i]));
      rn = fmax(rn, fabs(R[(size_t)j * n + i]));
    }
    ok = rn < xn * cte;
  }
  free(rs);
  free(R);
  return ok;
}

/* axb answered (certified, or the low precision failed in a way LAPACK's
   ITER < 0 describes). */
static int mixed_served(axb_status st) {
  return st == AXB_SUCCESS || st == AXB_ERR_NO_CONVERGENCE ||
         st == AXB_ERR_SINGULAR || st == AXB_ERR_NOT_SPD;
}

static axb_status mixed_call(axl_call *c, int chol, const char *ul,
                             lapack_int n, lapack_int nrhs, const double *A,
                             lapack_int lda, const double *B, lapack_int ldb,
                             double *X, lapack_int ldx, axb_mixed_info *mi) {
  const axb_uplo uplo = axl_lsame(ul, 'U') ? AXB_UPPER : AXB_LOWER;
  axb_mixed_opts o;
  axb_mixed_opts_default(&o);
  o.precision = AXB_FACTOR_FP32; /* LAPACK's: single precision */
  o.fallback = 0;
  int64_t i = 0;
  axb_status st = axb_dsxsv_ex(c->h, chol, uplo, 0, n, nrhs, A, lda, B, ldb, X,
                               ldx, &o, mi, &i);
  if (!mixed_served(st) && c->on_gpu && axl_retry_cpu(c, st) == 0)
    st = axb_dsxsv_ex(c->h, chol, uplo, 0, n, nrhs, A, lda, B, ldb, X, ldx, &o,
                      mi, &i);
  /* axb certifies a refinement that stagnated below its ratio 30; LAPACK
     returns ITER >= 0 only when ||r|| < ||A|| ||x|| eps sqrt(n), i.e.
     axb's ratio < 1/sqrt(n) (LAPACK's tester checks exactly that), and
     otherwise falls back to FP64 with ITER = -31.  So does the drop-in. */
  if (st == AXB_SUCCESS &&
      (!(mi->backward_error < 1 / sqrt((double)n)) ||
       !lapack_converged(chol, ul, n, nrhs, A, lda, B, ldb, X, ldx))) {
    st = AXB_ERR_NO_CONVERGENCE;
    mi->iter = -31;
  }
  return st;
}

static void copy_cols(int64_t n, int64_t k, const double *B, int64_t ldb,
                      double *X, int64_t ldx) {
  for (int64_t j = 0; j < k; ++j)
    memcpy(X + j * ldx, B + j * ldb, (size_t)n * sizeof *X);
}

/* The mixed-precision attempt of DSGESV (chol 0) or DSPOSV (chol 1): c and
   mi set up, then mixed_call when nrhs > 0 and the call is served (nrhs = 0
   still factors A in LAPACK, INFO may be positive: the system routine
   keeps that corner exact).  AXB_ERR_OUT_OF_MEMORY when not tried. */
static axb_status mixed_try(axl_call *c, const char *name, int chol,
                            const char *ul, lapack_int n, lapack_int nrhs,
                            const double *A, lapack_int lda, const double *B,
                            lapack_int ldb, double *X, lapack_int ldx,
                            axb_mixed_info *mi) {
  memset(c, 0, sizeof *c);
  c->name = name;
  memset(mi, 0, sizeof *mi);
  if (nrhs > 0 && axl_begin(c, name, chol ? AXL_CHOL : AXL_LU, n, 0, 0) == 0)
    return mixed_call(c, chol, ul, n, nrhs, A, lda, B, ldb, X, ldx, mi);
  return AXB_ERR_OUT_OF_MEMORY;
}

AXL_EXPORT void dsgesv_(const lapack_int *n, const lapack_int *nrhs, double *A,
                        const lapack_int *lda, lapack_int *ipiv, double *B,
                        const lapack_int *ldb, double *X, const lapack_int *ldx,
                        double *work, float *swork, lapack_int *iter,
                        lapack_int *info) {
  *iter = 0;
  const lapack_int e =
      axl_first_bad(5, *n < 0, 1, *nrhs < 0, 2, *lda < axl_max1(*n), 4,
                    *ldb < axl_max1(*n), 7, *ldx < axl_max1(*n), 9);
  if (axl_arg_error(info, "DSGESV", e)) return;
  if (*n == 0) return;
  axl_call c;
  axb_mixed_info mi;
  axb_status st = mixed_try(&c, "DSGESV", 0, "L", *n, *nrhs, A, *lda, B, *ldb,
                            X, *ldx, &mi);
  if (st == AXB_SUCCESS) {
    for (lapack_int j = 0; j < *n; ++j)
      ipiv[j] = j + 1;
    *iter = (lapack_int)mi.iter;
    axl_end(&c, st, 0);
    return;
  }
  if (mixed_served(st)) {
    /* LAPACK's fallback: A := its FP64 LU, X := A^-1 B. */
    *iter = mi.iter < 0 ? (lapack_int)mi.iter : -31;
    int64_t *piv = axl_piv(&c, *n), i = 0;
    st = AXB_ERR_OUT_OF_MEMORY;
    if (piv) {
      st = axb_dgetrf(c.h, *n, *n, A, *lda, piv, &i);
      if (!(st == AXB_SUCCESS || st == AXB_ERR_SINGULAR) &&
          axl_retry_cpu(&c, st) == 0)
        st = axb_dgetrf(c.h, *n, *n, A, *lda, piv, &i);
    }
    if (st == AXB_SUCCESS || st == AXB_ERR_SINGULAR) {
      for (lapack_int j = 0; j < *n; ++j)
        ipiv[j] = (lapack_int)piv[j];
      *info = (lapack_int)i;
      if (st == AXB_SUCCESS) {
        copy_cols(*n, *nrhs, B, *ldb, X, *ldx);
        st =
            axb_dgetrs(c.h, AXB_NO_TRANS, *n, *nrhs, A, *lda, piv, X, *ldx, &i);
      }
      axl_end(&c, st, *info);
      if (st == AXB_SUCCESS || st == AXB_ERR_SINGULAR) return;
      /* A holds the factors now: only the solve is left to the system. */
      getrs_fn g = (getrs_fn)axl_next("dgetrs_");
      lapack_int in = 0;
      if (g) g("N", n, nrhs, A, lda, ipiv, X, ldx, &in, 1);
      *info = g ? in : -1000;
      return;
    }
  }
  axl_end(&c, st, 0);
  dsgesv_fn f = (dsgesv_fn)axl_next("dsgesv_");
  if (f)
    f(n, nrhs, A, lda, ipiv, B, ldb, X, ldx, work, swork, iter, info);
  else
    *info = -1000;
}

AXL_EXPORT void dsposv_(const char *uplo, const lapack_int *n,
                        const lapack_int *nrhs, double *A,
                        const lapack_int *lda, double *B, const lapack_int *ldb,
                        double *X, const lapack_int *ldx, double *work,
                        float *swork, lapack_int *iter, lapack_int *info,
                        size_t uplo_len) {
  const int upper = axl_lsame(uplo, 'U');
  *iter = 0;
  const lapack_int e = axl_first_bad(
      6, !upper && !axl_lsame(uplo, 'L'), 1, *n < 0, 2, *nrhs < 0, 3,
      *lda < axl_max1(*n), 5, *ldb < axl_max1(*n), 7, *ldx < axl_max1(*n), 9);
  if (axl_arg_error(info, "DSPOSV", e)) return;
  if (*n == 0) return;
  const axb_uplo ul = upper ? AXB_UPPER : AXB_LOWER;
  axl_call c;
  axb_mixed_info mi;
  axb_status st = mixed_try(&c, "DSPOSV", 1, uplo, *n, *nrhs, A, *lda, B, *ldb,
                            X, *ldx, &mi);
  if (st == AXB_SUCCESS) {
    *iter = (lapack_int)mi.iter;
    axl_end(&c, st, 0);
    return;
  }
  if (mixed_served(st)) {
    /* LAPACK's fallback: A := its FP64 Cholesky factor, X := A^-1 B. */
    *iter = mi.iter < 0 ? (lapack_int)mi.iter : -31;
    int64_t i = 0;
    st = axb_dpotrf(c.h, ul, *n, A, *lda, &i);
    if (!(st == AXB_SUCCESS || st == AXB_ERR_NOT_SPD) &&
        axl_retry_cpu(&c, st) == 0)
      st = axb_dpotrf(c.h, ul, *n, A, *lda, &i);
    if (st == AXB_SUCCESS || st == AXB_ERR_NOT_SPD) {
      *info = (lapack_int)i;
      if (st == AXB_SUCCESS) {
        copy_cols(*n, *nrhs, B, *ldb, X, *ldx);
        st = axb_dpotrs(c.h, ul, *n, *nrhs, A, *lda, X, *ldx, &i);
      }
      axl_end(&c, st, *info);
      if (st == AXB_SUCCESS || st == AXB_ERR_NOT_SPD) return;
      /* A holds the factor now: only the solve is left to the system. */
      potrs_fn g = (potrs_fn)axl_next("dpotrs_");
      lapack_int in = 0;
      if (g) g(uplo, n, nrhs, A, lda, X, ldx, &in, 1);
      *info = g ? in : -1000;
      return;
    }
  }
  axl_end(&c, st, 0);
  dsposv_fn f = (dsposv_fn)axl_next("dsposv_");
  if (f)
    f(uplo, n, nrhs, A, lda, B, ldb, X, ldx, work, swork, iter, info, uplo_len);
  else
    *info = -1000;
}
