/*
 * The condition estimate of the sparse direct path (sparse_direct.h):
 * Hager's 1-norm estimate of ||(R A)^-1||_1 (the idea of LAPACK's xLACON)
 * through the solves of the factor of A, with Higham's extra test vector,
 * so that rcond = 1 / (||R A||_1 ||(R A)^-1||_1) costs a handful of solves
 * instead of an inverse.  R = diag(1 / max_j |a_ij|) equilibrates the rows.
 *
 * Why R A and not A: a row scaling leaves x unchanged (R A x = R b), and
 * for any nonsingular diagonal R the forward error of a computed x with
 * residual r obeys ||dx|| / ||x|| <= kappa(R A) ||R r|| / (||R A|| ||x||),
 * so kappa(R A) is as valid a certificate as kappa(A) and never needlessly
 * pessimistic about a badly scaled row.  sherman3 is the case: 2107 of its
 * 5005 rows are a lone 1e-10 on the diagonal (inactive cells), which makes
 * kappa_1(A) ~ 7e16 while the row-equilibrated matrix is well conditioned
 * (van der Sluis: row equilibration is within a factor n of the best row
 * scaling in the infinity norm).  A truly near-singular matrix (cryg2500)
 * stays near-singular after any scaling.
 */
#include "sparse/sparse_direct.h"

#include <math.h>

static double csr_val(const axb_csr *A, int64_t k) {
  return A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                             : ((const float *)A->values)[k];
}

/* rs_i = 1 / max_j |a_ij| (1 for an empty row: it leaves A singular, which
   the estimate then reports). */
static void row_scale(const axb_csr *A, double *rs) {
  for (int64_t i = 0; i < A->rows; ++i) {
    double mx = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (fabs(csr_val(A, k)) > mx) mx = fabs(csr_val(A, k));
    rs[i] = mx > 0 && isfinite(1.0 / mx) ? 1.0 / mx : 1.0;
  }
}

/* ||R A||_1: the largest column sum of |rs_i a_ij|. */
static double csr_norm1(const axb_csr *A, const double *rs, double *colsum) {
  for (int64_t j = 0; j < A->cols; ++j)
    colsum[j] = 0;
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      colsum[A->colind[k]] += rs[i] * fabs(csr_val(A, k));
  double mx = 0;
  for (int64_t j = 0; j < A->cols; ++j)
    if (colsum[j] > mx) mx = colsum[j];
  return mx;
}

static double vnorm1(const double *v, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += fabs(v[i]);
  return s;
}

/* Hager: maximise ||A^-1 x||_1 over ||x||_1 = 1 by a gradient ascent
   that moves to a unit vector e_j (j = argmax |A^-T sign(A^-1 x)|) while
   that promises an increase; at most 5 steps, fewer when the estimate
   stops growing, the sign vector repeats or j repeats.  Then Higham's vector
   x_i = (-1)^i (1 + i / (n - 1)) guards against the cases where the
   ascent stalls: est = max(est, 2 ||A^-1 x||_1 / (3 n)). */
/* Products with (R A)^-1 = A^-1 R^-1 and (R A)^-T = R^-1 A^-T through A's
   factor: x is divided by rs in place before a solve with A, the answer
   of a solve with A^T after it. */
static void unscale(double *x, const double *rs, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    x[i] /= rs[i];
}

static axb_status inv_norm1(axb_handle h, axb_direct *F, int64_t n,
                            const double *rs, double *x, double *y,
                            signed char *sgn, double *est) {
  axb_status st;
  *est = 0;
  /* Hager's start ones / n and Higham's vector, solved together (one
     pass over the factor for both: CHOLMOD solves columns at once). */
  for (int64_t i = 0; i < n; ++i) {
    x[i] = 1.0 / (double)n;
    x[n + i] = (i % 2 ? -1.0 : 1.0) *
               (1.0 + (n > 1 ? (double)i / (double)(n - 1) : 0.0));
  }
  unscale(x, rs, n);
  unscale(x + n, rs, n);
  if ((st = axb__direct_solve2(h, F, x, y))) return st;
  double alt = 2 * vnorm1(y + n, n) / (3.0 * (double)n);
  int64_t jlast = -1;
  for (int it = 0; it < 5; ++it) {
    if (it > 0) {
      unscale(x, rs, n);
      if ((st = axb__direct_solve(h, F, 0, x, y))) return st;
    }
    double e = vnorm1(y, n);
    if (!isfinite(e)) {
      *est = INFINITY;
      return AXB_SUCCESS;
    }
    if (it > 0 && e <= *est) break;
    *est = e;
    int same = it > 0; /* the sign vector repeats: converged (xLACN2) */
    for (int64_t i = 0; i < n; ++i) {
      signed char s = y[i] >= 0 ? 1 : -1;
      same = same && s == sgn[i];
      sgn[i] = s;
      y[i] = s;
    }
    if (same) break;
    if ((st = axb__direct_solve(h, F, 1, y, x))) return st;
    unscale(x, rs, n);
    int64_t j = 0;
    for (int64_t i = 1; i < n; ++i)
      if (fabs(x[i]) > fabs(x[j])) j = i;
    if (j == jlast) break;
    jlast = j;
    for (int64_t i = 0; i < n; ++i)
      x[i] = i == j ? 1.0 : 0.0;
  }
  if (!(alt <= *est)) *est = alt; /* NaN: stays infinite below */
  return AXB_SUCCESS;
}

axb_status axb__direct_rcond(axb_handle h, const axb_csr *A, axb_direct *F,
                             double *rcond) {
  int64_t n = A->rows;
  *rcond = 0;
  if (n == 0) {
    *rcond = 1;
    return AXB_SUCCESS;
  }
  double *w = axb__malloc(5 * n, sizeof(double)); /* x, y: 2 n; rs */
  signed char *sgn = axb__malloc(n, 1);
  if (!w || !sgn) {
    axb__free(w);
    axb__free(sgn);
    w = NULL;
  }
  if (!w)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "no memory for the condition estimate (n = %lld)",
                     (long long)n);
  double *rs = w + 4 * n;
  row_scale(A, rs);
  double anorm = csr_norm1(A, rs, w), est = 0;
  axb_status st = inv_norm1(h, F, n, rs, w, w + 2 * n, sgn, &est);
  if (!st && anorm > 0 && isfinite(est) && est > 0)
    *rcond = 1.0 / (anorm * est);
  axb__free(w);
  axb__free(sgn);
  return st;
}
