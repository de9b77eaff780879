/*
 * Reference kernels of the study variants (SEEDS.md 1 and 2) in T
 * (template, see core/template.h).
 *
 *   getrf_crout  Crout LU, P A = L U with L lower (diagonal included) and U
 *                unit upper, stored together in Z = A: for j = 0..n-1
 *                  l_ij = a_ij - sum_{k<j} l_ik u_kj        (i >= j)
 *                  u_ji = (a_ji - sum_{k<j} l_jk u_ki) / l_jj  (i > j)
 *                With ipiv, the pivot is the largest |l_ij| of the fresh
 *                column j and rows are swapped across the whole matrix.
 *   gesv_gauss   Gaussian elimination on [A | B] that normalises each pivot
 *                row (unit diagonal), then back substitution without
 *                division: x_k = b_k - sum_{j>k} u_kj x_j.
 *
 * Without pivoting a pivot with |p| <= n eps max|A| (max over the original
 * matrix) is reported as AXB_ERR_SMALL_PIVOT instead of being divided by;
 * the comparison is written so that a NaN pivot is reported too.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define ABS_(x) ((x) < 0 ? -(x) : (x))
#define IAMAX_ AXB_FN(ref_, var_iamax)
#define SWAP_ROWS_ AXB_FN(ref_, var_swap_rows)
#define TINY_ AXB_FN(ref_, var_tiny_threshold)
#define SMALL_ AXB_FN(ref_, var_small_pivot)
#define CROUT_L_ AXB_FN(ref_, crout_column_l)
#define CROUT_U_ AXB_FN(ref_, crout_row_u)
#define GAUSS_STEP_ AXB_FN(ref_, gauss_eliminate)
#define GAUSS_BACK_ AXB_FN(ref_, gauss_back_substitute)

#include "backend/ref/ref_rows_t.h"
#include "backend/ref/ref_tiny_t.h"

static axb_status SMALL_(axb_handle h, const char *who, int64_t k, double piv,
                         double tiny, int64_t *info) {
  if (info) *info = k + 1;
  return axb__fail(h, AXB_ERR_SMALL_PIVOT,
                   "%s: pivot %g in column %lld is not above n*eps*max|A| = "
                   "%g (no pivoting)",
                   who, piv, (long long)(k + 1), tiny);
}

/* Column j of L: l_ij = a_ij - sum_{k<j} l_ik u_kj for i >= j, as axpys
   down the columns of L (unit stride). */
static void CROUT_L_(int64_t n, T *A, int64_t lda, int64_t j) {
  T *l = &AT(A, lda, 0, j);
  for (int64_t k = 0; k < j; ++k) {
    const T ukj = l[k];
    const T *lk = &AT(A, lda, 0, k);
    for (int64_t i = j; i < n; ++i)
      l[i] -= lk[i] * ukj;
  }
}

/* Row j of U: u_ji = (a_ji - sum_{k<j} l_jk u_ki) / l_jj for i > j.  A zero
   l_jj (pivoted run, singular) leaves the row undivided. */
static void CROUT_U_(int64_t n, T *A, int64_t lda, int64_t j) {
  const T ljj = AT(A, lda, j, j);
  for (int64_t i = j + 1; i < n; ++i) {
    const T *ui = &AT(A, lda, 0, i);
    T s = ui[j];
    for (int64_t k = 0; k < j; ++k)
      s -= AT(A, lda, j, k) * ui[k];
    AT(A, lda, j, i) = ljj != (T)0 ? s / ljj : s;
  }
}

/*
 * With pivoting an exactly zero l_jj (then the whole fresh column is zero)
 * is recorded in info, the first one only, and the factorization goes on
 * with row j of U left undivided; Z is then not a factorization of A (none
 * with a zero l_jj and that row exists) and AXB_ERR_SINGULAR is returned.
 */
axb_status AXB_FN(axb_ref_, getrf_crout)(axb_handle h, int64_t n, T *A,
                                         int64_t lda, int64_t *ipiv,
                                         int64_t *info) {
  if (info) *info = 0;
  const double tiny = ipiv ? 0 : TINY_(n, A, lda);
  int64_t first = 0;
  for (int64_t j = 0; j < n; ++j) {
    CROUT_L_(n, A, lda, j);
    if (ipiv) {
      const int64_t p = j + IAMAX_(n - j, &AT(A, lda, j, j));
      ipiv[j] = p + 1;
      SWAP_ROWS_(n, A, lda, j, p);
      if (AT(A, lda, j, j) == (T)0 && first == 0) first = j + 1;
    } else {
      const double ljj = (double)AT(A, lda, j, j);
      if (!(ABS_(ljj) > tiny))
        return SMALL_(h, "getrf_crout", j, ljj, tiny, info);
    }
    CROUT_U_(n, A, lda, j);
  }
  return axb__zero_pivot(h, info, first, "getrf_crout", "L");
}

/* Pivot step k on [A | B]: normalise row k by the pivot p = a_kk
   (a_kj /= p, b_k /= p, a_kk = 1), then eliminate below it,
   a_ij -= a_ik a_kj and b_i -= a_ik b_k for i > k, and a_ik = 0. */
static void GAUSS_STEP_(int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,
                        int64_t ldb, int64_t k) {
  const T p = AT(A, lda, k, k);
  const T *m = &AT(A, lda, 0, k);
  for (int64_t j = k + 1; j < n; ++j) {
    T *a = &AT(A, lda, 0, j);
    a[k] /= p;
    for (int64_t i = k + 1; i < n; ++i)
      a[i] -= m[i] * a[k];
  }
  for (int64_t r = 0; r < nrhs; ++r) {
    T *b = &AT(B, ldb, 0, r);
    b[k] /= p;
    for (int64_t i = k + 1; i < n; ++i)
      b[i] -= m[i] * b[k];
  }
  T *c = &AT(A, lda, 0, k);
  c[k] = 1;
  for (int64_t i = k + 1; i < n; ++i)
    c[i] = 0;
}

/* Back substitution on the unit upper triangle, no division: once x_j is
   known, remove its share u_ij x_j from every b_i above (i < j). */
static void GAUSS_BACK_(int64_t n, int64_t nrhs, const T *A, int64_t lda, T *B,
                        int64_t ldb) {
  for (int64_t r = 0; r < nrhs; ++r) {
    T *x = &AT(B, ldb, 0, r);
    for (int64_t j = n - 1; j > 0; --j) {
      const T xj = x[j];
      const T *u = &AT(A, lda, 0, j);
      for (int64_t i = 0; i < j; ++i)
        x[i] -= u[i] * xj;
    }
  }
}

/* pivot = 1: rows swapped to bring the largest |a_ik| (i >= k) to row k; an
   exactly zero one is AXB_ERR_SINGULAR.  On failure A and B hold the
   partially eliminated system. */
axb_status AXB_FN(axb_ref_, gesv_gauss)(axb_handle h, int64_t n, int64_t nrhs,
                                        T *A, int64_t lda, T *B, int64_t ldb,
                                        int pivot, int64_t *info) {
  if (info) *info = 0;
  const double tiny = pivot ? 0 : TINY_(n, A, lda);
  for (int64_t k = 0; k < n; ++k) {
    if (pivot) {
      const int64_t p = k + IAMAX_(n - k, &AT(A, lda, k, k));
      if (AT(A, lda, p, k) == (T)0) {
        return axb__zero_pivot_column(h, info, k + 1, "gesv_gauss");
      }
      SWAP_ROWS_(n - k, &AT(A, lda, 0, k), lda, k, p);
      SWAP_ROWS_(nrhs, B, ldb, k, p);
    } else {
      const double akk = (double)AT(A, lda, k, k);
      if (!(ABS_(akk) > tiny))
        return SMALL_(h, "gesv_gauss", k, akk, tiny, info);
    }
    GAUSS_STEP_(n, nrhs, A, lda, B, ldb, k);
  }
  GAUSS_BACK_(n, nrhs, A, lda, B, ldb);
  return AXB_SUCCESS;
}

#undef AT
#undef ABS_
#undef IAMAX_
#undef SWAP_ROWS_
#undef TINY_
#undef SMALL_
#undef CROUT_L_
#undef CROUT_U_
#undef GAUSS_STEP_
#undef GAUSS_BACK_
