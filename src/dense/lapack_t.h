/*
 * The typed LAPACK-like layer, written once for T = double/float (see
 * core/template.h).  Each routine checks its arguments with LAPACK's
 * numbering, returns early on empty input, and calls the kernels of the
 * handle's backend table.  Solves are composed here from backend kernels
 * (laswp, trsm), so a backend gets getrs/potrs/gesv/posv for free.
 */

#define KERNEL(h, name) ((h)->ops ? (h)->ops->P.name : NULL)
#define PREFIX_STR AXB_CAT2(AXB_STR_, P)

/* A routine's first step: a NULL handle fails (the detail names the
   routine, there is no handle to hold it); otherwise the handle's last
   detail is cleared. */
#define ENTER(h)                                                               \
  do {                                                                         \
    if (!(h))                                                                  \
      return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL",        \
                       __func__);                                              \
    axb__clear(h);                                                             \
  } while (0)

/* Look up kernel `name`; fail with NOT_SUPPORTED when the backend lacks it. */
#define NEED_KERNEL(h, var, name, info)                                        \
  __typeof__(KERNEL(h, name)) var = KERNEL(h, name);                           \
  if (!var) return not_supported(h, PREFIX_STR #name, info);

axb_status AXB_FN(axb_, getrf)(axb_handle h, int64_t m, int64_t n, T *A,
                               int64_t lda, int64_t *ipiv, int64_t *info) {
  const char *r = PREFIX_STR "getrf";
  set_info(info, 0);
  ENTER(h);
  axb_status st = check_getrf(h, r, m, n, A, lda, ipiv, info);
  if (st || m == 0 || n == 0) return st;
  NEED_KERNEL(h, k, getrf, info);
  int64_t i = 0;
  st = k(h, m, n, A, lda, ipiv, &i);
  return finish(h, r, st, i, info);
}

/* Solve op(A) X = B with A = P L U from getrf.
   No transpose: X = U^-1 L^-1 P B.  Transpose: A^T = U^T L^T P, so
   X = P^T L^-T U^-T B (the interchanges are undone in reverse order). */
axb_status AXB_FN(axb_, getrs)(axb_handle h, axb_trans trans, int64_t n,
                               int64_t nrhs, const T *A, int64_t lda,
                               const int64_t *ipiv, T *B, int64_t ldb,
                               int64_t *info) {
  const char *r = PREFIX_STR "getrs";
  set_info(info, 0);
  ENTER(h);
  if (trans != AXB_NO_TRANS && trans != AXB_TRANS)
    return arg_error(h, r, 1, "trans", info);
  axb_status st = check_system(h, r, 1, n, nrhs, A, lda, ipiv, 1, B, ldb, info);
  if (!st) st = check_ipiv(h, r, 6, n, ipiv, info);
  if (st || n == 0 || nrhs == 0) return st;
  if (KERNEL(h, getrs)) {
    st = KERNEL(h, getrs)(h, trans, n, nrhs, A, lda, ipiv, B, ldb);
    return finish(h, r, st, 0, info);
  }
  NEED_KERNEL(h, swp, laswp, info);
  NEED_KERNEL(h, tr, trsm, info);
  if (trans == AXB_NO_TRANS) {
    st = swp(h, nrhs, B, ldb, 0, n, ipiv, 1);
    if (!st)
      st = tr(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, n, nrhs, 1, A,
              lda, B, ldb);
    if (!st)
      st = tr(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, n, nrhs, 1, A,
              lda, B, ldb);
  } else {
    st = tr(h, AXB_LEFT, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, n, nrhs, 1, A, lda,
            B, ldb);
    if (!st)
      st = tr(h, AXB_LEFT, AXB_LOWER, AXB_TRANS, AXB_UNIT, n, nrhs, 1, A, lda,
              B, ldb);
    if (!st) st = swp(h, nrhs, B, ldb, 0, n, ipiv, 0);
  }
  return finish(h, r, st, 0, info);
}

axb_status AXB_FN(axb_, gesv)(axb_handle h, int64_t n, int64_t nrhs, T *A,
                              int64_t lda, int64_t *ipiv, T *B, int64_t ldb,
                              int64_t *info) {
  const char *r = PREFIX_STR "gesv";
  set_info(info, 0);
  ENTER(h);
  axb_status st = check_system(h, r, 0, n, nrhs, A, lda, ipiv, 1, B, ldb, info);
  if (st) return st;
  st = AXB_FN(axb_, getrf)(h, n, n, A, lda, ipiv, info);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb_, getrs)(h, AXB_NO_TRANS, n, nrhs, A, lda, ipiv, B, ldb,
                             info);
}

axb_status AXB_FN(axb_, potrf)(axb_handle h, axb_uplo uplo, int64_t n, T *A,
                               int64_t lda, int64_t *info) {
  const char *r = PREFIX_STR "potrf";
  set_info(info, 0);
  ENTER(h);
  axb_status st = check_potrf(h, r, uplo, n, A, lda, info);
  if (st || n == 0) return st;
  NEED_KERNEL(h, k, potrf, info);
  int64_t i = 0;
  st = k(h, uplo, n, A, lda, &i);
  return finish(h, r, st, i, info);
}

/* A = L L^T: X = L^-T L^-1 B.  A = U^T U: X = U^-1 U^-T B. */
static axb_status AXB_FN(chol_solve_, )(axb_handle h, axb_uplo uplo, int64_t n,
                                        int64_t nrhs, const T *A, int64_t lda,
                                        T *B, int64_t ldb) {
  __typeof__(KERNEL(h, trsm)) tr = KERNEL(h, trsm);
  if (!tr) return not_supported(h, PREFIX_STR "trsm", NULL);
  axb_trans first = uplo == AXB_LOWER ? AXB_NO_TRANS : AXB_TRANS;
  axb_trans second = uplo == AXB_LOWER ? AXB_TRANS : AXB_NO_TRANS;
  axb_status st =
      tr(h, AXB_LEFT, uplo, first, AXB_NON_UNIT, n, nrhs, 1, A, lda, B, ldb);
  if (st) return st;
  return tr(h, AXB_LEFT, uplo, second, AXB_NON_UNIT, n, nrhs, 1, A, lda, B,
            ldb);
}

axb_status AXB_FN(axb_, potrs)(axb_handle h, axb_uplo uplo, int64_t n,
                               int64_t nrhs, const T *A, int64_t lda, T *B,
                               int64_t ldb, int64_t *info) {
  const char *r = PREFIX_STR "potrs";
  set_info(info, 0);
  ENTER(h);
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", info);
  axb_status st = check_system(h, r, 1, n, nrhs, A, lda, NULL, 0, B, ldb, info);
  if (st) return st;
  if (n == 0 || nrhs == 0) return AXB_SUCCESS;
  if (KERNEL(h, potrs))
    st = KERNEL(h, potrs)(h, uplo, n, nrhs, A, lda, B, ldb);
  else
    st = AXB_FN(chol_solve_, )(h, uplo, n, nrhs, A, lda, B, ldb);
  return finish(h, r, st, 0, info);
}

axb_status AXB_FN(axb_, posv)(axb_handle h, axb_uplo uplo, int64_t n,
                              int64_t nrhs, T *A, int64_t lda, T *B,
                              int64_t ldb, int64_t *info) {
  const char *r = PREFIX_STR "posv";
  set_info(info, 0);
  ENTER(h);
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", info);
  axb_status st = check_system(h, r, 1, n, nrhs, A, lda, NULL, 0, B, ldb, info);
  if (st) return st;
  st = AXB_FN(axb_, potrf)(h, uplo, n, A, lda, info);
  if (st != AXB_SUCCESS) return st;
  return AXB_FN(axb_, potrs)(h, uplo, n, nrhs, A, lda, B, ldb, info);
}

/* Arguments 1-3 of a routine on one square matrix (n, A, lda), numbered
   as LAPACK numbers them (handle not counted). */
static axb_status AXB_FN(check_, square)(axb_handle h, const char *r, int64_t n,
                                         const T *A, int64_t lda,
                                         int64_t *info) {
  if (n < 0) return arg_error(h, r, 1, "n < 0", info);
  if (!A && n > 0) return arg_error(h, r, 2, "A is NULL", info);
  if (lda < imax(1, n) || oversize(lda, n))
    return arg_error(h, r, 3, "lda < max(1, n), or lda * n overflows", info);
  return AXB_SUCCESS;
}

axb_status AXB_FN(axb_, getri)(axb_handle h, int64_t n, T *A, int64_t lda,
                               const int64_t *ipiv, int64_t *info) {
  const char *r = PREFIX_STR "getri";
  set_info(info, 0);
  ENTER(h);
  axb_status ast = AXB_FN(check_, square)(h, r, n, A, lda, info);
  if (ast) return ast;
  if (!ipiv && n > 0) return arg_error(h, r, 4, "ipiv is NULL", info);
  if ((ast = check_ipiv(h, r, 4, n, ipiv, info))) return ast;
  if (n == 0) return AXB_SUCCESS;
  NEED_KERNEL(h, k, getri, info);
  int64_t i = 0;
  axb_status st = k(h, n, A, lda, ipiv, &i);
  return finish(h, r, st, i, info);
}

axb_status AXB_FN(axb_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                              axb_trans trans, axb_diag diag, int64_t m,
                              int64_t n, T alpha, const T *A, int64_t lda, T *B,
                              int64_t ldb) {
  const char *r = PREFIX_STR "trsm";
  ENTER(h);
  if (side != AXB_LEFT && side != AXB_RIGHT)
    return arg_error(h, r, 1, "side", NULL);
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 2, "uplo", NULL);
  if (trans != AXB_NO_TRANS && trans != AXB_TRANS)
    return arg_error(h, r, 3, "trans", NULL);
  if (diag != AXB_NON_UNIT && diag != AXB_UNIT)
    return arg_error(h, r, 4, "diag", NULL);
  if (m < 0) return arg_error(h, r, 5, "m < 0", NULL);
  if (n < 0) return arg_error(h, r, 6, "n < 0", NULL);
  int64_t k = side == AXB_LEFT ? m : n;
  if (!A && k > 0) return arg_error(h, r, 8, "A is NULL", NULL);
  if (lda < imax(1, k) || oversize(lda, k))
    return arg_error(h, r, 9, "lda too small, or lda * k overflows", NULL);
  if (!B && m > 0 && n > 0) return arg_error(h, r, 10, "B is NULL", NULL);
  if (ldb < imax(1, m) || oversize(ldb, n))
    return arg_error(h, r, 11, "ldb < max(1, m), or ldb * n overflows", NULL);
  if (m == 0 || n == 0) return AXB_SUCCESS;
  NEED_KERNEL(h, tr, trsm, NULL);
  axb_status st = tr(h, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
  return finish(h, r, st, 0, NULL);
}

/* ---- condition estimates (Hager 1984, Higham 1988: LAPACK's xLACN2) ---- */

typedef struct {
  axb_handle h;
  /* trsm on host arrays: the backend's own, or its host table's */
  axb_status (*tr)(axb_handle h, axb_side side, axb_uplo uplo, axb_trans trans,
                   axb_diag diag, int64_t m, int64_t n, T alpha, const T *A,
                   int64_t lda, T *B, int64_t ldb);
  const T *F; /* factor(s) */
  int64_t n, ld;
  axb_uplo uplo;    /* pocon */
  T *w;             /* n x AXB_CONDEST_T work entries in T */
  void *res;        /* or: factors resident on the device (res_trsv) */
  const double *y1; /* the first block's product, formed by the driver's
                       solve (axb__norm1_estimate_y1), or NULL */
} AXB_FN(condctx_, );

/* W := op(T)^-1 W for the t columns of W (n x t, ld n), T the uplo
   triangle of the factor: one triangular solve with t right-hand sides on
   the host copy (the CPU backend shares its rows among the threads), or t
   solves on the backend's resident copy (only n-vectors move). */
static axb_status AXB_FN(cond_tri_, )(AXB_FN(condctx_, ) * c, axb_uplo uplo,
                                      axb_trans trans, axb_diag diag,
                                      int64_t t) {
  if (!c->res)
    return c->tr(c->h, AXB_LEFT, uplo, trans, diag, c->n, t, 1, c->F, c->ld,
                 c->w, c->n);
  axb_status st = AXB_SUCCESS;
  for (int64_t j = 0; j < t && !st; ++j)
    st =
        c->h->ops->P.res_trsv(c->h, c->res, uplo, trans, diag, c->w + j * c->n);
  return st;
}

/* X := A^-1 X or A^-T X (n x t) with A = P L U; the permutation is dropped
   because it permutes the columns (A^-1) or rows (A^-T) of the inverse,
   which changes neither its 1-norm nor its inf-norm. */
static axb_status AXB_FN(lu_apply_, )(void *vctx, int transpose, double *x,
                                      int64_t t) {
  AXB_FN(condctx_, ) *c = vctx;
  for (int64_t i = 0; i < c->n * t; ++i)
    c->w[i] = (T)x[i];
  axb_status st;
  if (!transpose) {
    st = AXB_FN(cond_tri_, )(c, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, t);
    if (!st)
      st = AXB_FN(cond_tri_, )(c, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, t);
  } else {
    st = AXB_FN(cond_tri_, )(c, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, t);
    if (!st) st = AXB_FN(cond_tri_, )(c, AXB_LOWER, AXB_TRANS, AXB_UNIT, t);
  }
  for (int64_t i = 0; i < c->n * t; ++i)
    x[i] = (double)c->w[i];
  return st;
}

/* X := A^-1 X with A = L L^T or U^T U (symmetric: A^-T = A^-1). */
static axb_status AXB_FN(chol_apply_, )(void *vctx, int transpose, double *x,
                                        int64_t t) {
  (void)transpose;
  AXB_FN(condctx_, ) *c = vctx;
  for (int64_t i = 0; i < c->n * t; ++i)
    c->w[i] = (T)x[i];
  axb_trans first = c->uplo == AXB_LOWER ? AXB_NO_TRANS : AXB_TRANS;
  axb_trans second = c->uplo == AXB_LOWER ? AXB_TRANS : AXB_NO_TRANS;
  axb_status st = AXB_FN(cond_tri_, )(c, c->uplo, first, AXB_NON_UNIT, t);
  if (!st) st = AXB_FN(cond_tri_, )(c, c->uplo, second, AXB_NON_UNIT, t);
  for (int64_t i = 0; i < c->n * t; ++i)
    x[i] = (double)c->w[i];
  return st;
}

/* The estimate itself: rcond = 1 / (anorm * est(||A^-1||)), est from the
   solves of c (n > 0, anorm > 0, a diagonal without zeros). */
static axb_status AXB_FN(con_estimate_, )(AXB_FN(condctx_, ) * c, const char *r,
                                          int is_chol, axb_norm norm,
                                          double anorm, double *rcond,
                                          int64_t *info) {
  axb_handle h = c->h;
  int64_t n = c->n;
  double est = 0;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  /* n x max(t, n) entries: the exact case (n <= t) takes n columns. */
  c->w = axb__malloc(n * AXB_CONDEST_T, sizeof(T));
  if (c->w) {
    /* ||A^-1||_inf = ||A^-T||_1: estimate with the transpose swapped (a
       y1 given is then the swapped operator's first product). */
    int swap = !is_chol && norm == AXB_NORM_INF;
    st = axb__norm1_estimate_y1(
        n, is_chol ? AXB_FN(chol_apply_, ) : AXB_FN(lu_apply_, ), c, swap,
        c->y1, &est);
  }
  axb__free(c->w);
  c->w = NULL;
  if (st == AXB_ERR_OUT_OF_MEMORY)
    return axb__fail(h, st, "%s: no memory for %lld work entries", r,
                     (long long)n);
  if (st) return finish(h, r, st, 0, info);
  if (est > 0 && isfinite(est)) *rcond = (1.0 / est) / anorm;
  return AXB_SUCCESS;
}

/* Shared body of gecon/pocon: argument checks, zero-pivot short cut, and
   rcond = 1 / (anorm * est(||A^-1||)). */
static axb_status AXB_FN(con_, )(axb_handle h, const char *r, int is_chol,
                                 axb_uplo uplo, axb_norm norm, int64_t n,
                                 const T *F, int64_t lda, double anorm,
                                 const double *y1, double *rcond,
                                 int64_t *info) {
  set_info(info, 0);
  ENTER(h);
  if (is_chol && uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", info);
  if (!is_chol && norm != AXB_NORM_ONE && norm != AXB_NORM_INF)
    return arg_error(h, r, 1, "norm must be ONE or INF", info);
  if (n < 0) return arg_error(h, r, 2, "n < 0", info);
  if (!F && n > 0) return arg_error(h, r, 3, "factor is NULL", info);
  if (lda < imax(1, n) || oversize(lda, n))
    return arg_error(h, r, 4, "lda < max(1, n), or lda * n overflows", info);
  if (!(anorm >= 0) || isinf(anorm))
    return arg_error(h, r, 5, "anorm must be finite and >= 0", info);
  if (!rcond) return arg_error(h, r, 6, "rcond is NULL", info);
  *rcond = 0;
  if (n == 0) {
    *rcond = 1;
    return AXB_SUCCESS;
  }
  if (anorm == 0) return AXB_SUCCESS;
  /* An exactly zero or non-finite diagonal: the factor is singular. */
  for (int64_t i = 0; i < n; ++i) {
    T d = F[i + i * lda];
    if (d == 0 || !isfinite(d)) return AXB_SUCCESS;
  }
  /* O(n^2) work per vector on host arrays: a device backend's host table
     does it where the factor already is. */
  const axb_backend_ops *hops = h->ops && h->ops->host ? h->ops->host : h->ops;
  __typeof__(KERNEL(h, trsm)) tr = hops ? hops->P.trsm : NULL;
  if (!tr) return not_supported(h, PREFIX_STR "trsm", info);
  AXB_FN(condctx_, ) c = {h, tr, F, n, lda, uplo, NULL, NULL, y1};
  return AXB_FN(con_estimate_, )(&c, r, is_chol, norm, anorm, rcond, info);
}

axb_status AXB_FN(axb_, gecon)(axb_handle h, axb_norm norm, int64_t n,
                               const T *LU, int64_t lda, double anorm,
                               double *rcond, int64_t *info) {
  return AXB_FN(con_, )(h, PREFIX_STR "gecon", 0, AXB_LOWER, norm, n, LU, lda,
                        anorm, NULL, rcond, info);
}

axb_status AXB_FN(axb_, pocon)(axb_handle h, axb_uplo uplo, int64_t n,
                               const T *L, int64_t lda, double anorm,
                               double *rcond, int64_t *info) {
  return AXB_FN(con_, )(h, PREFIX_STR "pocon", 1, uplo, AXB_NORM_ONE, n, L, lda,
                        anorm, NULL, rcond, info);
}

axb_status AXB_FN(axb__, con_y1)(axb_handle h, int chol, axb_norm norm,
                                 int64_t n, const T *F, int64_t ld,
                                 double anorm, const double *y1,
                                 double *rcond) {
  return AXB_FN(con_, )(h, chol ? PREFIX_STR "pocon" : PREFIX_STR "gecon", chol,
                        AXB_LOWER, chol ? AXB_NORM_ONE : norm, n, F, ld, anorm,
                        y1, rcond, NULL);
}

/* ---- resident factors (dense/resident.h) ----
   The certified driver's steps on factors the backend keeps in device
   memory: same statuses and detail messages as getrf/potrf, getrs/potrs,
   gecon/pocon and getri on host arrays. */

#define RES_NAME(chol, lu_name, chol_name)                                     \
  ((chol) ? PREFIX_STR chol_name : PREFIX_STR lu_name)

axb_status AXB_FN(axb__, res_factor)(axb_handle h, int chol, int64_t n,
                                     const T *A, int64_t lda, void **res,
                                     int64_t *info) {
  const char *r = RES_NAME(chol, "getrf", "potrf");
  *res = NULL;
  set_info(info, 0);
  axb__clear(h);
  NEED_KERNEL(h, k, res_factor, info);
  int64_t i = 0;
  axb_status st = k(h, chol, n, A, lda, res, &i); /* before i is read */
  return finish(h, r, st, i, info);
}

axb_status AXB_FN(axb__, res_solve)(axb_handle h, void *res, int chol,
                                    axb_trans trans, int64_t nrhs, T *B,
                                    int64_t ldb) {
  const char *r = RES_NAME(chol, "getrs", "potrs");
  axb__clear(h);
  NEED_KERNEL(h, k, res_solve, NULL);
  /* Cholesky's A is symmetric: A^T = A, the same solve. */
  return finish(h, r, k(h, res, chol ? AXB_NO_TRANS : trans, nrhs, B, ldb), 0,
                NULL);
}

axb_status AXB_FN(axb__, res_con)(axb_handle h, void *res, int chol,
                                  axb_norm norm, int64_t n, double anorm,
                                  const double *y1, double *rcond) {
  const char *r = RES_NAME(chol, "gecon", "pocon");
  axb__clear(h);
  *rcond = 0;
  if (!(anorm >= 0) || isinf(anorm))
    return arg_error(h, r, 5, "anorm must be finite and >= 0", NULL);
  if (n == 0) {
    *rcond = 1;
    return AXB_SUCCESS;
  }
  if (anorm == 0) return AXB_SUCCESS;
  NEED_KERNEL(h, kd, res_diag, NULL);
  if (!KERNEL(h, res_trsv)) return not_supported(h, PREFIX_STR "trsv", NULL);
  /* An exactly zero or non-finite diagonal: the factor is singular. */
  T *d = axb__malloc(n, sizeof(T));
  if (!d)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "%s: no memory for %lld entries",
                     r, (long long)n);
  axb_status st = kd(h, res, d);
  int singular = 0;
  for (int64_t i = 0; !st && i < n; ++i)
    if (d[i] == 0 || !isfinite(d[i])) singular = 1;
  axb__free(d);
  if (st) return finish(h, r, st, 0, NULL);
  if (singular) return AXB_SUCCESS;
  /* The driver's resident y1 is A^-1 X1: the 1-norm estimate's only. */
  if (norm == AXB_NORM_INF && !chol) y1 = NULL;
  AXB_FN(condctx_, ) c = {h, NULL, NULL, n, n, AXB_LOWER, NULL, res, y1};
  return AXB_FN(con_estimate_, )(&c, r, chol, norm, anorm, rcond, NULL);
}

axb_status AXB_FN(axb__, res_getri)(axb_handle h, void *res, T *X, int64_t ldx,
                                    int64_t *info) {
  const char *r = PREFIX_STR "getri";
  set_info(info, 0);
  axb__clear(h);
  NEED_KERNEL(h, k, res_getri, info);
  NEED_KERNEL(h, get, res_get, info);
  int64_t i = 0;
  axb_status st = k(h, res, &i);
  if (!st) st = get(h, res, X, ldx);
  return finish(h, r, st, i, info);
}

#undef RES_NAME

/* ---- device-pointer API (arrays and info in device memory) ----
   Same argument checks and numbering as the host routines; the backend
   entry runs asynchronously on the handle's stream and writes the
   numerical outcome (0, or the failing pivot/minor) to *dinfo. */

axb_status AXB_FN(axb_, getrf_dev)(axb_handle h, int64_t m, int64_t n, T *dA,
                                   int64_t ldda, int64_t *dipiv,
                                   int64_t *dinfo) {
  const char *r = PREFIX_STR "getrf_dev";
  ENTER(h);
  axb_status st = check_getrf(h, r, m, n, dA, ldda, dipiv, NULL);
  if (st) return st;
  if (!dinfo) return arg_error(h, r, 6, "dinfo is NULL", NULL);
  NEED_KERNEL(h, k, getrf_dev, NULL);
  return finish(h, r, k(h, m, n, dA, ldda, dipiv, dinfo), 0, NULL);
}

axb_status AXB_FN(axb_, getrs_dev)(axb_handle h, axb_trans trans, int64_t n,
                                   int64_t nrhs, const T *dA, int64_t ldda,
                                   const int64_t *dipiv, T *dB, int64_t lddb) {
  const char *r = PREFIX_STR "getrs_dev";
  ENTER(h);
  if (trans != AXB_NO_TRANS && trans != AXB_TRANS)
    return arg_error(h, r, 1, "trans", NULL);
  axb_status st =
      check_system(h, r, 1, n, nrhs, dA, ldda, dipiv, 1, dB, lddb, NULL);
  if (st) return st;
  NEED_KERNEL(h, k, getrs_dev, NULL);
  if (n == 0 || nrhs == 0) return AXB_SUCCESS;
  return finish(h, r, k(h, trans, n, nrhs, dA, ldda, dipiv, dB, lddb), 0, NULL);
}

axb_status AXB_FN(axb_, laswp_dev)(axb_handle h, int64_t n, T *dA, int64_t ldda,
                                   int64_t k1, int64_t k2, const int64_t *dipiv,
                                   int64_t incx) {
  const char *r = PREFIX_STR "laswp_dev";
  ENTER(h);
  if (n < 0) return arg_error(h, r, 1, "n < 0", NULL);
  if (!dA && n > 0) return arg_error(h, r, 2, "dA is NULL", NULL);
  if (k1 < 1) return arg_error(h, r, 4, "k1 < 1", NULL);
  if (ldda < 1 || ldda < k2)
    return arg_error(h, r, 3, "ldda < max(1, k2)", NULL);
  if (!dipiv && k2 >= k1) return arg_error(h, r, 6, "dipiv is NULL", NULL);
  if (incx != 1 && incx != -1)
    return arg_error(h, r, 7, "incx is not 1 or -1", NULL);
  NEED_KERNEL(h, k, laswp_dev, NULL);
  if (n == 0 || k2 < k1) return AXB_SUCCESS;
  return finish(h, r, k(h, n, dA, ldda, k1, k2, dipiv, incx), 0, NULL);
}

axb_status AXB_FN(axb_, potrf_dev)(axb_handle h, axb_uplo uplo, int64_t n,
                                   T *dA, int64_t ldda, int64_t *dinfo) {
  const char *r = PREFIX_STR "potrf_dev";
  ENTER(h);
  axb_status st = check_potrf(h, r, uplo, n, dA, ldda, NULL);
  if (st) return st;
  if (!dinfo) return arg_error(h, r, 5, "dinfo is NULL", NULL);
  NEED_KERNEL(h, k, potrf_dev, NULL);
  return finish(h, r, k(h, uplo, n, dA, ldda, dinfo), 0, NULL);
}

axb_status AXB_FN(axb_, potrs_dev)(axb_handle h, axb_uplo uplo, int64_t n,
                                   int64_t nrhs, const T *dA, int64_t ldda,
                                   T *dB, int64_t lddb) {
  const char *r = PREFIX_STR "potrs_dev";
  ENTER(h);
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", NULL);
  axb_status st =
      check_system(h, r, 1, n, nrhs, dA, ldda, NULL, 0, dB, lddb, NULL);
  if (st) return st;
  NEED_KERNEL(h, k, potrs_dev, NULL);
  if (n == 0 || nrhs == 0) return AXB_SUCCESS;
  return finish(h, r, k(h, uplo, n, nrhs, dA, ldda, dB, lddb), 0, NULL);
}

/* Arguments 1-3 (n, dA, ldda) of a routine on one square device matrix. */
static axb_status AXB_FN(check_, square_dev)(axb_handle h, const char *r,
                                             int64_t n, const T *dA,
                                             int64_t ldda) {
  if (n < 0) return arg_error(h, r, 1, "n < 0", NULL);
  if (!dA && n > 0) return arg_error(h, r, 2, "dA is NULL", NULL);
  if (ldda < imax(1, n) || oversize(ldda, n))
    return arg_error(h, r, 3, "ldda < max(1, n), or ldda * n overflows", NULL);
  return AXB_SUCCESS;
}

axb_status AXB_FN(axb_, getri_dev)(axb_handle h, int64_t n, T *dA, int64_t ldda,
                                   const int64_t *dipiv, int64_t *dinfo) {
  const char *r = PREFIX_STR "getri_dev";
  ENTER(h);
  axb_status st = AXB_FN(check_, square_dev)(h, r, n, dA, ldda);
  if (st) return st;
  if (!dipiv && n > 0) return arg_error(h, r, 4, "dipiv is NULL", NULL);
  if (!dinfo) return arg_error(h, r, 5, "dinfo is NULL", NULL);
  NEED_KERNEL(h, k, getri_dev, NULL);
  return finish(h, r, k(h, n, dA, ldda, dipiv, dinfo), 0, NULL);
}

axb_status AXB_FN(axb_, getri_gj_dev)(axb_handle h, int64_t n, T *dA,
                                      int64_t ldda, int64_t *dinfo) {
  const char *r = PREFIX_STR "getri_gj_dev";
  ENTER(h);
  axb_status st = AXB_FN(check_, square_dev)(h, r, n, dA, ldda);
  if (st) return st;
  if (!dinfo) return arg_error(h, r, 4, "dinfo is NULL", NULL);
  NEED_KERNEL(h, k, getri_gj_dev, NULL);
  return finish(h, r, k(h, n, dA, ldda, dinfo), 0, NULL);
}

/* ---- study variants ---- */

axb_status AXB_FN(axb_, getrf_crout)(axb_handle h, int64_t n, T *A, int64_t lda,
                                     int64_t *ipiv, int64_t *info) {
  const char *r = PREFIX_STR "getrf_crout";
  set_info(info, 0);
  ENTER(h);
  axb_status ast = AXB_FN(check_, square)(h, r, n, A, lda, info);
  if (ast) return ast;
  if (n == 0) return AXB_SUCCESS;
  NEED_KERNEL(h, k, getrf_crout, info);
  int64_t i = 0;
  axb_status st = k(h, n, A, lda, ipiv, &i);
  return finish(h, r, st, i, info);
}

/* Z = L (with diagonal) below/on the diagonal, unit U strictly above. */
axb_status AXB_FN(axb_, crout_extract)(int64_t n, const T *Z, int64_t ldz, T *L,
                                       int64_t ldl, T *U, int64_t ldu) {
  if (n < 0) return -1;
  if (!Z && n > 0) return -2;
  if (ldz < imax(1, n)) return -3;
  if (!L && n > 0) return -4;
  if (ldl < imax(1, n)) return -5;
  if (!U && n > 0) return -6;
  if (ldu < imax(1, n)) return -7;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      T z = Z[i + j * ldz];
      L[i + j * ldl] = i >= j ? z : 0;
      U[i + j * ldu] = i < j ? z : (i == j ? 1 : 0);
    }
  return AXB_SUCCESS;
}

/* Arguments 1-6 of the [A | B] eliminations (gesv_gauss, gesv_rowcyclic),
   numbered as LAPACK's gesv numbers them (handle not counted). */
static axb_status AXB_FN(check_, gesv_args)(axb_handle h, const char *r,
                                            int64_t n, int64_t nrhs, const T *A,
                                            int64_t lda, const T *B,
                                            int64_t ldb, int64_t *info) {
  if (n < 0) return arg_error(h, r, 1, "n < 0", info);
  if (nrhs < 0) return arg_error(h, r, 2, "nrhs < 0", info);
  if (!A && n > 0) return arg_error(h, r, 3, "A is NULL", info);
  if (lda < imax(1, n) || oversize(lda, n))
    return arg_error(h, r, 4, "lda < max(1, n), or lda * n overflows", info);
  if (!B && n > 0 && nrhs > 0) return arg_error(h, r, 5, "B is NULL", info);
  if (ldb < imax(1, n) || oversize(ldb, nrhs))
    return arg_error(h, r, 6, "ldb < max(1, n), or ldb * nrhs overflows", info);
  return AXB_SUCCESS;
}

axb_status AXB_FN(axb_, gesv_gauss)(axb_handle h, int64_t n, int64_t nrhs, T *A,
                                    int64_t lda, T *B, int64_t ldb, int pivot,
                                    int64_t *info) {
  const char *r = PREFIX_STR "gesv_gauss";
  set_info(info, 0);
  ENTER(h);
  axb_status ast =
      AXB_FN(check_, gesv_args)(h, r, n, nrhs, A, lda, B, ldb, info);
  if (ast) return ast;
  if (pivot != 0 && pivot != 1) return arg_error(h, r, 7, "pivot", info);
  if (n == 0) return AXB_SUCCESS;
  NEED_KERNEL(h, k, gesv_gauss, info);
  int64_t i = 0;
  axb_status st = k(h, n, nrhs, A, lda, B, ldb, pivot, &i);
  return finish(h, r, st, i, info);
}

axb_status AXB_FN(axb_, getrf_fixedpoint)(axb_handle h, int64_t n, T *A,
                                          int64_t lda,
                                          const axb_fixedpoint_opts *opts,
                                          axb_fixedpoint_stats *stats,
                                          int64_t *info) {
  const char *r = PREFIX_STR "getrf_fixedpoint";
  set_info(info, 0);
  ENTER(h);
  axb_status ast = AXB_FN(check_, square)(h, r, n, A, lda, info);
  if (ast) return ast;
  axb_fixedpoint_opts o;
  axb_fixedpoint_stats local;
  if (!stats) {
    memset(&local, 0, sizeof local);
    stats = &local;
  }
  axb_status st = resolve_fixedpoint(h, r, n, opts, &o, stats, info);
  if (st || n == 0) return st;
  NEED_KERNEL(h, k, getrf_fixedpoint, info);
  int64_t i = 0;
  st = k(h, n, A, lda, &o, stats, &i);
  if (st == AXB_ERR_NO_CONVERGENCE) {
    set_info(info, 0);
    if (h->detail[0]) return st;
    return axb__fail(h, st,
                     "%s: a section did not converge in %lld sweeps (last "
                     "change %g)",
                     r, (long long)o.max_sweeps, stats->last_change);
  }
  return finish(h, r, st, i, info);
}

axb_status AXB_FN(axb_, potrf_columns)(axb_handle h, int64_t n, T *A,
                                       int64_t lda,
                                       const axb_potrf_columns_opts *opts,
                                       int64_t *info) {
  const char *r = PREFIX_STR "potrf_columns";
  set_info(info, 0);
  ENTER(h);
  axb_status ast = AXB_FN(check_, square)(h, r, n, A, lda, info);
  if (ast) return ast;
  axb_potrf_columns_opts o;
  axb_status st = resolve_columns(h, r, opts, &o, info);
  if (st || n == 0) return st;
  NEED_KERNEL(h, k, potrf_columns, info);
  int64_t i = 0;
  st = k(h, n, A, lda, &o, &i);
  return finish(h, r, st, i, info);
}

axb_status AXB_FN(axb_, gesv_rowcyclic)(axb_handle h, int64_t n, int64_t nrhs,
                                        T *A, int64_t lda, T *B, int64_t ldb,
                                        const axb_rowcyclic_opts *opts,
                                        int64_t *info) {
  const char *r = PREFIX_STR "gesv_rowcyclic";
  set_info(info, 0);
  ENTER(h);
  axb_status ast =
      AXB_FN(check_, gesv_args)(h, r, n, nrhs, A, lda, B, ldb, info);
  if (ast) return ast;
  axb_rowcyclic_opts o;
  axb_status st = resolve_rowcyclic(h, r, opts, &o, info);
  if (st || n == 0) return st;
  NEED_KERNEL(h, k, gesv_rowcyclic, info);
  int64_t i = 0;
  st = k(h, n, nrhs, A, lda, B, ldb, &o, &i);
  return finish(h, r, st, i, info);
}

/* potrf_crout, potrf_banachiewicz and getri_gj share one shape. */
#define AXB_SQUARE_VARIANT(name)                                               \
  axb_status AXB_FN(axb_, name)(axb_handle h, int64_t n, T * A, int64_t lda,   \
                                int64_t * info) {                              \
    const char *r = PREFIX_STR #name;                                          \
    set_info(info, 0);                                                         \
    if (!h) return axb__fail(NULL, AXB_ERR_INVALID, "%s: NULL handle", r);     \
    axb__clear(h);                                                             \
    axb_status ast = AXB_FN(check_, square)(h, r, n, A, lda, info);            \
    if (ast) return ast;                                                       \
    if (n == 0) return AXB_SUCCESS;                                            \
    NEED_KERNEL(h, k, name, info);                                             \
    int64_t i = 0;                                                             \
    axb_status st = k(h, n, A, lda, &i);                                       \
    return finish(h, r, st, i, info);                                          \
  }

AXB_SQUARE_VARIANT(potrf_crout)
AXB_SQUARE_VARIANT(potrf_banachiewicz)
AXB_SQUARE_VARIANT(getri_gj)
AXB_SQUARE_VARIANT(getri_gj_unblocked)

#undef AXB_SQUARE_VARIANT
#undef NEED_KERNEL
#undef ENTER
#undef PREFIX_STR
#undef KERNEL
