/*
 * Accuracy checks: the scaled residuals of DESIGN.md ("Accuracy", pass when
 * < 30) and the source documents' absolute metrics.
 *
 * Conventions, shared by every function of this file:
 *
 *   - Arithmetic is double throughout: float inputs are promoted entry by
 *     entry in typed loops (check_t.h).  The inputs may mix dtypes (e.g. a
 *     double A and a float factor); eps is the unit roundoff of the computed
 *     result's dtype: LU for check_lu, F for check_cholesky, X for
 *     check_solve, check_inverse and forward_error.
 *   - Invalid input returns NaN, a value that fails every "ratio < 30" test
 *     (testing.h's CHECK_RATIO wants r >= 0): a NULL or non-host matrix, an
 *     unknown dtype or norm/uplo, a negative size, ld < rows, mismatched
 *     dimensions, a non-square A where one is required, an ipiv entry
 *     outside 1..n.  Failure to allocate the O(n^2) workspace also returns
 *     NaN.
 *   - n = 0 (or no right-hand side) returns 0: there is nothing to be wrong.
 *   - Zero denominator (A = 0, X = 0, x_true = 0): LAPACK's convention made
 *     symmetric: the ratio is 0 when the numerator is 0 too (an exact answer
 *     for a zero problem) and 1/eps otherwise (a finite value far above 30).
 *   - NaN or Inf anywhere in what a check reads gives NaN or +Inf, never a
 *     passing value: sums carry NaN, maxima use chk_nanmax, and an infinite
 *     denominator (an infinite norm of A or X) gives NaN.  Entries a check
 *     does not read (the other triangle of a Cholesky A or factor) are not
 *     looked at.
 */
#include "core/internal.h"
#include "core/template.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum {
  CHK_ROWS = 256,    /* row block of the inf-norm (stack accumulator)      */
  CHK_NB = 32,       /* columns of W updated together in the O(n^3) loops */
  CHK_SYM_PARTS = 64 /* most column ranges of the symmetric residual   */
};
/* Work (entries of A touched) from which a check shares it among threads. */
#define CHK_PAR_WORK 1048576.0

/* max(a, b) that keeps a NaN: once a is NaN it stays NaN. */
static double chk_nanmax(double a, double b) {
  return (b > a || isnan(b)) ? b : a;
}

#define AXB_TEMPLATE "core/check_t.h"
#include "core/instantiate.h"

/* ---- argument checks ---------------------------------------------------- */

static int dense_ok(const axb_dense *A) {
  if (!A || A->mem != AXB_MEM_HOST) return 0;
  if (A->dtype != AXB_F32 && A->dtype != AXB_F64) return 0;
  if (A->rows < 0 || A->cols < 0) return 0;
  if (A->rows == 0 || A->cols == 0) return 1;
  return A->data != NULL && A->ld >= A->rows;
}

static int square_ok(const axb_dense *A) {
  return dense_ok(A) && A->rows == A->cols;
}

/* A and B square of the same order. */
static int same_square(const axb_dense *A, const axb_dense *B) {
  return square_ok(A) && square_ok(B) && A->rows == B->rows;
}

/* LAPACK interchanges: every ipiv[i] in 1..n (NULL: no permutation). */
static int ipiv_ok(int64_t n, const int64_t *ipiv) {
  if (!ipiv) return 1;
  for (int64_t i = 0; i < n; ++i)
    if (ipiv[i] < 1 || ipiv[i] > n) return 0;
  return 1;
}

/* ---- dtype dispatch ------------------------------------------------------ */

static void copy_dense(const axb_dense *A, double *b, int64_t ldb) {
  if (A->dtype == AXB_F64)
    chk_dcopy(A->rows, A->cols, A->data, A->ld, b, ldb);
  else
    chk_scopy(A->rows, A->cols, A->data, A->ld, b, ldb);
}

/* buf := column j of A, promoted to double. */
static void copy_col(const axb_dense *A, int64_t j, double *buf) {
  if (A->dtype == AXB_F64)
    chk_dcopy(A->rows, 1, (const double *)A->data + j * A->ld, A->ld, buf,
              A->rows);
  else
    chk_scopy(A->rows, 1, (const float *)A->data + j * A->ld, A->ld, buf,
              A->rows);
}

static void copy_lower(const axb_dense *A, int upper, double *b, int64_t ldb) {
  if (A->dtype == AXB_F64)
    chk_dcopy_lower(A->rows, A->data, A->ld, upper, b, ldb);
  else
    chk_scopy_lower(A->rows, A->data, A->ld, upper, b, ldb);
}

static double norm_of(const axb_dense *A, axb_norm norm) {
  if (A->dtype == AXB_F64)
    return chk_dnorm(A->rows, A->cols, A->data, A->ld, norm);
  return chk_snorm(A->rows, A->cols, A->data, A->ld, norm);
}

/* W := W - A X (X double, nrhs columns). */
static void sub_ax(const axb_dense *A, const double *x, int64_t ldx,
                   int64_t nrhs, double *w, int64_t ldw) {
  if (A->dtype == AXB_F64)
    chk_dsub_ax(A->rows, A->cols, A->data, A->ld, x, ldx, nrhs, w, ldw);
  else
    chk_ssub_ax(A->rows, A->cols, A->data, A->ld, x, ldx, nrhs, w, ldw);
}

static void sub_lu(const axb_dense *LU, double *w, int64_t ldw) {
  if (LU->dtype == AXB_F64)
    chk_dsub_lu(LU->rows, LU->data, LU->ld, w, ldw);
  else
    chk_ssub_lu(LU->rows, LU->data, LU->ld, w, ldw);
}

/* A as a double array: A's own storage when it is double, else a promoted
   copy in *own (to be freed).  NULL when the copy cannot be allocated. */
static const double *as_double(const axb_dense *A, int64_t *ld, double **own) {
  *own = NULL;
  if (A->dtype == AXB_F64) {
    *ld = A->ld;
    return A->data;
  }
  *own = axb__malloc(A->rows * A->cols, sizeof(double));
  if (!*own) return NULL;
  *ld = A->rows > 0 ? A->rows : 1;
  copy_dense(A, *own, *ld);
  return *own;
}

/* ---- helpers on double residuals ------------------------------------------
 */

/* num / (d1 d2 s), s > 0 a fixed scale (n eps, or 1), under the file's
   conventions: NaN or infinite factors give NaN; a zero factor gives 0 when
   num = 0 and 1/eps otherwise.  Dividing in turn avoids underflow of the
   product d1 d2 s.  Also the batched certificate's (batched_cert_t.h). */
double axb__check_ratio(double num, double d1, double d2, double s,
                        double eps) {
  if (isnan(num) || isnan(d1) || isnan(d2) || isinf(d1) || isinf(d2))
    return NAN;
  if (d1 == 0 || d2 == 0) return num == 0 ? 0 : 1 / eps;
  return num / d1 / d2 / s;
}

/* Upper triangle of the n x n W := transpose of its lower triangle. */
static void mirror_lower(int64_t n, double *w) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j + 1; i < n; ++i)
      w[j + i * n] = w[i + j * n];
}

/* Rows i and p of the n x n W exchanged, for i = 0.. n-1, p = ipiv[i] - 1:
   W := P W with P the product of getrf's interchanges, applied in order. */
static void apply_ipiv(int64_t n, const int64_t *ipiv, double *w) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = ipiv[i] - 1;
    if (p == i) continue;
    for (int64_t j = 0; j < n; ++j) {
      double t = w[i + j * n];
      w[i + j * n] = w[p + j * n];
      w[p + j * n] = t;
    }
  }
}

/* W = P A - L U (n x n, ld n, allocated), or NULL when out of memory. */
static double *lu_residual(const axb_dense *A, const axb_dense *LU,
                           const int64_t *ipiv) {
  int64_t n = A->rows;
  double *w = axb__malloc(n * n, sizeof(double));
  if (!w) return NULL;
  copy_dense(A, w, n);
  if (ipiv) apply_ipiv(n, ipiv, w);
  sub_lu(LU, w, n);
  return w;
}

/* ---- public API ------------------------------------------------------------
 */

/* Unit roundoff u = 2^-53 (double) or 2^-24 (float); NaN for another value. */
double axb_eps(axb_dtype t) {
  if (t == AXB_F64) return 0x1p-53;
  if (t == AXB_F32) return 0x1p-24;
  return NAN;
}

double axb_matrix_norm(const axb_dense *A, axb_norm norm) {
  if (!dense_ok(A)) return NAN;
  return norm_of(A, norm);
}

static int lu_args_ok(const axb_dense *A, const axb_dense *LU,
                      const int64_t *ipiv) {
  return same_square(A, LU) && ipiv_ok(A->rows, ipiv);
}

/* ||P A - L U|| in the 1-norm (max = 0) or the max norm (max = 1); 0 for
   n = 0; NAN for bad arguments, a failed allocation or a NaN entry. */
static double lu_diff_norm(const axb_dense *A, const axb_dense *LU,
                           const int64_t *ipiv, int max) {
  if (!lu_args_ok(A, LU, ipiv)) return NAN;
  int64_t n = A->rows;
  if (n == 0) return 0;
  double *w = lu_residual(A, LU, ipiv);
  if (!w) return NAN;
  double d = max ? chk_dnorm_max(n, n, w, n) : chk_dnorm_one(n, n, w, n);
  axb__free(w);
  return d;
}

/* ||P A - L U||_1 / (n ||A||_1 eps(LU)); ipiv NULL: P = I.  (A NaN
   residual gives NAN, as axb__check_ratio would.) */
double axb_check_lu(const axb_dense *A, const axb_dense *LU,
                    const int64_t *ipiv) {
  double resid = lu_diff_norm(A, LU, ipiv, 0);
  if (isnan(resid) || A->rows == 0) return resid;
  double eps = axb_eps(LU->dtype);
  return axb__check_ratio(resid, norm_of(A, AXB_NORM_ONE), 1,
                          (double)A->rows * eps, eps);
}

/* max_ij |(P A - L U)_ij|; ipiv NULL: P = I. */
double axb_max_lu_diff(const axb_dense *A, const axb_dense *LU,
                       const int64_t *ipiv) {
  return lu_diff_norm(A, LU, ipiv, 1);
}

/* Lower triangle of W -= L L^T with L = F (lower) or F^T (upper); 0 when the
   transposed copy cannot be allocated. */
static int sub_cholesky(const axb_dense *F, axb_uplo uplo, double *w) {
  int64_t n = F->rows;
  if (uplo == AXB_LOWER) {
    if (F->dtype == AXB_F64)
      chk_dsub_llt(n, F->data, F->ld, w, n);
    else
      chk_ssub_llt(n, F->data, F->ld, w, n);
    return 1;
  }
  double *l = axb__malloc(n * n, sizeof(double));
  if (!l) return 0;
  copy_lower(F, 1, l, n);
  chk_dsub_llt(n, l, n, w, n);
  axb__free(l);
  return 1;
}

/*
 * ||A - L L^T||_1 / (n ||A||_1 eps(F)) (lower) or with U^T U (upper).  A is
 * taken symmetric: only its uplo triangle is read, as potrf does, and both
 * norms are those of the symmetric matrices that triangle defines (the
 * residual is symmetric too).  Only F's uplo triangle is read.
 */
double axb_check_cholesky(const axb_dense *A, const axb_dense *F,
                          axb_uplo uplo) {
  if (!same_square(A, F) || (uplo != AXB_LOWER && uplo != AXB_UPPER))
    return NAN;
  int64_t n = A->rows;
  if (n == 0) return 0;
  double *w = axb__malloc(n * n, sizeof(double));
  if (!w) return NAN;
  copy_lower(A, uplo == AXB_UPPER, w, n);
  mirror_lower(n, w);
  double anorm = chk_dnorm_one(n, n, w, n);
  if (!sub_cholesky(F, uplo, w)) {
    axb__free(w);
    return NAN;
  }
  mirror_lower(n, w);
  double resid = chk_dnorm_one(n, n, w, n);
  axb__free(w);
  double eps = axb_eps(F->dtype);
  return axb__check_ratio(resid, anorm, 1, (double)n * eps, eps);
}

/* The largest over the columns of ||r_c||_inf / (||A||_inf ||x_c||_inf
   n eps) (axb__check_ratio's guards), r: n x nrhs with ld n, x with ld ldx. */
static double worst_ratio(const double *r, const double *x, int64_t ldx,
                          int64_t n, int64_t nrhs, double anorm, double eps) {
  double worst = 0;
  for (int64_t c = 0; c < nrhs; ++c) {
    double rn = chk_dnorm_max(n, 1, r + c * n, n);
    double xn = chk_dnorm_max(n, 1, x + c * ldx, ldx);
    worst = chk_nanmax(worst,
                       axb__check_ratio(rn, anorm, xn, (double)n * eps, eps));
  }
  return worst;
}

/* The residual routines' shared start: 1 when A is square, X and B are
   n x nrhs and neither size is 0; otherwise 0 with *early = NaN (shapes
   that do not match) or 0 (an empty system: nothing to check).  *oom is
   cleared. */
static int system_ok(const axb_dense *A, const axb_dense *X, const axb_dense *B,
                     int *oom, double *early) {
  if (oom) *oom = 0;
  *early = NAN;
  if (!square_ok(A) || !dense_ok(X) || !dense_ok(B)) return 0;
  int64_t n = A->rows, nrhs = X->cols;
  if (X->rows != n || B->rows != n || B->cols != nrhs) return 0;
  *early = 0;
  return n > 0 && nrhs > 0;
}

/* r := B (n x nrhs doubles, then `extra` more doubles of scratch) and
   x := X as doubles (*own: a converted copy or NULL); 0 with *oom set
   when memory runs out. */
static int residual_setup(const axb_dense *X, const axb_dense *B, int64_t n,
                          int64_t nrhs, int64_t extra, double **r,
                          const double **x, int64_t *ldx, double **own,
                          int *oom) {
  *own = NULL;
  *r = axb__malloc(n * nrhs + extra, sizeof(double));
  *x = *r ? as_double(X, ldx, own) : NULL;
  if (!*x) {
    axb__free(*r);
    if (oom) *oom = 1;
    return 0;
  }
  copy_dense(B, *r, n);
  return 1;
}

/* max_c ||b_c - A x_c||_inf / (||A||_inf ||x_c||_inf n eps(X)). */
double axb_check_solve(const axb_dense *A, const axb_dense *X,
                       const axb_dense *B) {
  return axb__check_solve(A, X, B, NULL);
}

double axb__check_solve(const axb_dense *A, const axb_dense *X,
                        const axb_dense *B, int *oom) {
  double early, *r, *own;
  if (!system_ok(A, X, B, oom, &early)) return early;
  int64_t n = A->rows, nrhs = X->cols, ldx;
  const double *x;
  if (!residual_setup(X, B, n, nrhs, 0, &r, &x, &ldx, &own, oom)) return NAN;
  sub_ax(A, x, ldx, nrhs, r, n); /* r = b - A x, column by column */
  double worst = worst_ratio(r, x, ldx, n, nrhs, norm_of(A, AXB_NORM_INF),
                             axb_eps(X->dtype));
  axb__free(own);
  axb__free(r);
  return worst;
}

/* axb_check_solve's ratio, bit for bit, from one pass over A: the residual
   b - A x and the row sums of ||A||_inf are formed from the same reads
   (sub_ax_abs), rows shared among `threads` threads (the driver's
   certificate; axb_check_solve reads A twice). */
double axb__backward_error(const axb_dense *A, const axb_dense *X,
                           const axb_dense *B, int threads, int *oom) {
  return axb__backward_error_op(A, AXB_NO_TRANS, X, B, threads, oom);
}

/* The same for op(A) X = B: with op(A) = A^T, ||b - A^T x||_inf /
   (||A^T||_inf ||x||_inf n eps) from one pass over A by columns (the rows
   of A^T, sub_atx_abs); sums[i] is row i's (or column i's) sum of |a|. */
double axb__backward_error_op(const axb_dense *A, axb_trans trans,
                              const axb_dense *X, const axb_dense *B,
                              int threads, int *oom) {
  double early, *r, *own;
  if (!system_ok(A, X, B, oom, &early)) return early;
  int64_t n = A->rows, nrhs = X->cols, ldx;
  const double *x;
  if (!residual_setup(X, B, n, nrhs, n, &r, &x, &ldx, &own, oom)) return NAN;
  double *sums = r + n * nrhs;
  const int t = trans == AXB_TRANS, d = A->dtype == AXB_F64;
  if (t && d)
    chk_dsub_atx_abs(n, A->data, A->ld, x, ldx, nrhs, r, n, sums, threads);
  else if (t)
    chk_ssub_atx_abs(n, A->data, A->ld, x, ldx, nrhs, r, n, sums, threads);
  else if (d)
    chk_dsub_ax_abs(n, A->data, A->ld, x, ldx, nrhs, r, n, sums, threads);
  else
    chk_ssub_ax_abs(n, A->data, A->ld, x, ldx, nrhs, r, n, sums, threads);
  double anorm = 0;
  for (int64_t i = 0; i < n; ++i)
    anorm = chk_nanmax(anorm, sums[i]);
  double worst = worst_ratio(r, x, ldx, n, nrhs, anorm, axb_eps(X->dtype));
  axb__free(own);
  axb__free(r);
  return worst;
}

/* The driver's backward error for a symmetric A (its Cholesky methods
   have tested A == A^T exactly): the residual from A's lower triangle
   only (half the reads), anorm = ||A||_1 given by the caller, which for
   such an A is ||A||_inf bit for bit (row i and column i hold the same
   values in the same order).  The residual is formed in another order
   than axb_check_solve's, so the ratio may differ from it in the last
   bits. */
double axb__backward_error_sym(const axb_dense *A, const axb_dense *X,
                               const axb_dense *B, double anorm, int threads,
                               int *oom) {
  double early, *r, *own;
  if (!system_ok(A, X, B, oom, &early)) return early;
  int64_t n = A->rows, nrhs = X->cols, ldx;
  const double *x;
  int parts = 1;
#ifdef _OPENMP
  parts = threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
#endif
  if ((double)n * (double)n < CHK_PAR_WORK) parts = 1;
  parts = parts < 1 ? 1 : parts > CHK_SYM_PARTS ? CHK_SYM_PARTS : parts;
  if (!residual_setup(X, B, n, nrhs, n * nrhs * parts, &r, &x, &ldx, &own, oom))
    return NAN;
  if (A->dtype == AXB_F64)
    chk_dsub_symx(n, A->data, A->ld, x, ldx, nrhs, r, n, r + n * nrhs, parts);
  else
    chk_ssub_symx(n, A->data, A->ld, x, ldx, nrhs, r, n, r + n * nrhs, parts);
  double worst = worst_ratio(r, x, ldx, n, nrhs, anorm, axb_eps(X->dtype));
  axb__free(own);
  axb__free(r);
  return worst;
}

/* ||I - A X||_1 / (n ||A||_1 ||X||_1 eps(X)). */
double axb_check_inverse(const axb_dense *A, const axb_dense *X) {
  if (!same_square(A, X)) return NAN;
  int64_t n = A->rows;
  if (n == 0) return 0;
  double *w = axb__calloc(n * n, sizeof(double)), *own = NULL;
  int64_t ldx;
  const double *x = w ? as_double(X, &ldx, &own) : NULL;
  if (!x) {
    axb__free(w);
    return NAN;
  }
  for (int64_t i = 0; i < n; ++i)
    w[i + i * n] = 1;
  sub_ax(A, x, ldx, n, w, n); /* w = I - A X */
  double resid = chk_dnorm_one(n, n, w, n);
  double xnorm = chk_dnorm_one(n, n, x, ldx);
  axb__free(own);
  axb__free(w);
  double eps = axb_eps(X->dtype);
  return axb__check_ratio(resid, norm_of(A, AXB_NORM_ONE), xnorm,
                          (double)n * eps, eps);
}

static int same_shape(const axb_dense *A, const axb_dense *B) {
  return dense_ok(A) && dense_ok(B) && A->rows == B->rows && A->cols == B->cols;
}

/* Column-wise scan of two same-shape matrices: for each column c, the
   max |a_ic - b_ic| into diff[c] and max |b_ic| into bmax[c] (either may be
   NULL).  0 when out of memory. */
static int scan_diff(const axb_dense *A, const axb_dense *B, double *diff,
                     double *bmax) {
  int64_t m = A->rows;
  double *a = axb__malloc(2 * m, sizeof(double));
  if (!a) return 0;
  double *b = a + m;
  for (int64_t c = 0; c < A->cols; ++c) {
    copy_col(A, c, a);
    copy_col(B, c, b);
    double d = 0, s = 0;
    for (int64_t i = 0; i < m; ++i) {
      d = chk_nanmax(d, fabs(a[i] - b[i]));
      s = chk_nanmax(s, fabs(b[i]));
    }
    if (diff) diff[c] = d;
    if (bmax) bmax[c] = s;
  }
  axb__free(a);
  return 1;
}

/* max_c ||x_c - x_true_c||_inf / ||x_true_c||_inf. */
double axb_forward_error(const axb_dense *X, const axb_dense *X_true) {
  if (!same_shape(X, X_true)) return NAN;
  int64_t nrhs = X->cols;
  if (X->rows == 0 || nrhs == 0) return 0;
  double *diff = axb__malloc(2 * nrhs, sizeof(double));
  if (!diff || !scan_diff(X, X_true, diff, diff + nrhs)) {
    axb__free(diff);
    return NAN;
  }
  double eps = axb_eps(X->dtype), worst = 0;
  for (int64_t c = 0; c < nrhs; ++c)
    worst =
        chk_nanmax(worst, axb__check_ratio(diff[c], diff[nrhs + c], 1, 1, eps));
  axb__free(diff);
  return worst;
}

/* max_ij |a_ij - y_ij|. */
double axb_max_abs_diff(const axb_dense *A, const axb_dense *Y) {
  if (!same_shape(A, Y)) return NAN;
  int64_t cols = A->cols;
  if (A->rows == 0 || cols == 0) return 0;
  double *diff = axb__malloc(cols, sizeof(double));
  if (!diff || !scan_diff(A, Y, diff, NULL)) {
    axb__free(diff);
    return NAN;
  }
  double worst = 0;
  for (int64_t c = 0; c < cols; ++c)
    worst = chk_nanmax(worst, diff[c]);
  axb__free(diff);
  return worst;
}
