/*
 * Reference LU with partial pivoting and the two inverses, in T (template,
 * see core/template.h).
 *
 *   getrf     P A = L U, L unit lower (m x min(m,n)), U upper; blocked
 *             right-looking: factor a panel of REF_LU_NB columns, apply its
 *             interchanges to the rest, U12 = L11^-1 A12, A22 -= L21 U12.
 *   laswp     row interchanges recorded by getrf.
 *   getri     inv(A) = inv(U) inv(L) P: invert U in place, solve X L = inv(U)
 *             for X, then undo the interchanges on the columns (LAPACK).
 *   getri_gj  Gauss-Jordan on [A | I] with partial pivoting, in place.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define LASWP_ AXB_FN(axb_ref_, laswp)
#define TRSM_ AXB_FN(axb_ref_, trsm)
#define GEMM_ AXB_FN(axb_ref_, gemm)
#define ABS_(x) ((x) < 0 ? -(x) : (x))
#define IAMAX_ AXB_FN(ref_, lu_iamax)
#define SWAP_ROWS_ AXB_FN(ref_, lu_swap_rows)
#define SWAP_COLS_ AXB_FN(ref_, lu_swap_cols)
#define GETF2_ AXB_FN(ref_, getf2)
#define TRTRI_ AXB_FN(ref_, trtri_upper)
#define SOLVE_XL_ AXB_FN(ref_, getri_solve_xl)
#define GJ_STEP_ AXB_FN(ref_, gj_step)
#define GETRI_START_ AXB_FN(ref_, getri_start)

#include "backend/ref/ref_rows_t.h"

/* Swap columns c and d (rows 0..m-1). */
static void SWAP_COLS_(int64_t m, T *A, int64_t lda, int64_t c, int64_t d) {
  if (c == d) return;
  T *x = &AT(A, lda, 0, c), *y = &AT(A, lda, 0, d);
  for (int64_t i = 0; i < m; ++i) {
    const T t = x[i];
    x[i] = y[i];
    y[i] = t;
  }
}

axb_status AXB_FN(axb_ref_, laswp)(axb_handle h, int64_t n, T *A, int64_t lda,
                                   int64_t k1, int64_t k2, const int64_t *ipiv,
                                   int forward) {
  (void)h;
  if (n <= 0 || k2 <= k1) return AXB_SUCCESS;
  /* Column by column, so that each swap touches one contiguous column. */
  for (int64_t j = 0; j < n; ++j) {
    T *a = &AT(A, lda, 0, j);
    for (int64_t t = 0; t < k2 - k1; ++t) {
      const int64_t k = forward ? k1 + t : k2 - 1 - t;
      const int64_t p = ipiv[k] - 1;
      if (p != k) {
        const T x = a[k];
        a[k] = a[p];
        a[p] = x;
      }
    }
  }
  return AXB_SUCCESS;
}

/* Unblocked LU of the m x n panel A (rows and columns counted from the
   panel's corner): for each column c, pick the largest |a_ic| (i >= c) as
   pivot, swap it into row c within the panel, divide the column below by
   it (l_ic = a_ic / u_cc), and subtract the rank-1 update l u^T from the
   rest of the panel.  An exactly zero pivot means the whole column below is
   zero: nothing to divide, record it (first only) and go on, as LAPACK.
   ipiv is panel-relative and 1-based; returns the panel-relative info. */
static int64_t GETF2_(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv) {
  int64_t info = 0;
  const int64_t mn = m < n ? m : n;
  for (int64_t c = 0; c < mn; ++c) {
    const int64_t p = c + IAMAX_(m - c, &AT(A, lda, c, c));
    ipiv[c] = p + 1;
    const T piv = AT(A, lda, p, c);
    if (piv != (T)0) {
      SWAP_ROWS_(n, A, lda, c, p);
      for (int64_t i = c + 1; i < m; ++i)
        AT(A, lda, i, c) /= piv;
    } else if (info == 0) {
      info = c + 1;
    }
    const T *l = &AT(A, lda, 0, c);
    for (int64_t j = c + 1; j < n; ++j) {
      const T u = AT(A, lda, c, j);
      T *a = &AT(A, lda, 0, j);
      for (int64_t i = c + 1; i < m; ++i)
        a[i] -= l[i] * u;
    }
  }
  return info;
}

axb_status AXB_FN(axb_ref_, getrf)(axb_handle h, int64_t m, int64_t n, T *A,
                                   int64_t lda, int64_t *ipiv, int64_t *info) {
  int64_t first = 0;
  const int64_t mn = m < n ? m : n;
  for (int64_t j = 0; j < mn; j += REF_LU_NB) {
    const int64_t jb = mn - j < REF_LU_NB ? mn - j : REF_LU_NB;
    /* Panel A(j:m, j:j+jb), then make its pivots global. */
    const int64_t pinfo = GETF2_(m - j, jb, &AT(A, lda, j, j), lda, ipiv + j);
    if (first == 0 && pinfo > 0) first = j + pinfo;
    for (int64_t i = j; i < j + jb; ++i)
      ipiv[i] += j;
    /* Interchanges on the columns left and right of the panel. */
    LASWP_(h, j, A, lda, j, j + jb, ipiv, 1);
    const int64_t rest = n - j - jb;
    if (rest <= 0) continue;
    LASWP_(h, rest, &AT(A, lda, 0, j + jb), lda, j, j + jb, ipiv, 1);
    /* U12 = L11^-1 A12; A22 -= L21 U12. */
    TRSM_(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, jb, rest, (T)1,
          &AT(A, lda, j, j), lda, &AT(A, lda, j, j + jb), lda);
    if (j + jb < m)
      GEMM_(h, AXB_NO_TRANS, AXB_NO_TRANS, m - j - jb, rest, jb, (T)-1,
            &AT(A, lda, j + jb, j), lda, &AT(A, lda, j, j + jb), lda, (T)1,
            &AT(A, lda, j + jb, j + jb), lda);
  }
  return axb__zero_pivot(h, info, first, "getrf", "U");
}

#define TRTI2_ TRTRI_
#define TRTI2_ATTR
#include "backend/trti2_t.h"
#undef TRTI2_
#undef TRTI2_ATTR

/* Given inv(U) in the upper triangle and the unit L below it, overwrite A
   with X = inv(U) inv(L), i.e. solve X L = inv(U), from the right block
   column to the left (LAPACK getri): copy the block column of L to work and
   zero it in A, then X_j = (A_j - X_{j+1:n} L_{j+1:n, j}) L_jj^-1. */
static void SOLVE_XL_(axb_handle h, int64_t n, T *A, int64_t lda, T *work) {
  const int64_t nb = REF_LU_NB;
  for (int64_t j = ((n - 1) / nb) * nb; j >= 0; j -= nb) {
    const int64_t jb = n - j < nb ? n - j : nb;
    for (int64_t c = j; c < j + jb; ++c)
      for (int64_t i = 0; i < n; ++i) {
        T *w = &AT(work, n, i, c - j);
        if (i > c) {
          *w = AT(A, lda, i, c);
          AT(A, lda, i, c) = 0;
        } else {
          *w = 0;
        }
      }
    if (j + jb < n)
      GEMM_(h, AXB_NO_TRANS, AXB_NO_TRANS, n, jb, n - j - jb, (T)-1,
            &AT(A, lda, 0, j + jb), lda, &AT(work, n, j + jb, 0), n, (T)1,
            &AT(A, lda, 0, j), lda);
    TRSM_(h, AXB_RIGHT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, n, jb, (T)1,
          &AT(work, n, j, 0), n, &AT(A, lda, 0, j), lda);
  }
}

axb_status AXB_FN(axb_ref_, getri)(axb_handle h, int64_t n, T *A, int64_t lda,
                                   const int64_t *ipiv, int64_t *info) {
  T *work = NULL;
  axb_status st = GETRI_START_(h, n, A, lda, REF_LU_NB, info, &work);
  if (st) return st;
  TRTRI_(n, A, lda);
  SOLVE_XL_(h, n, A, lda, work);
  axb__free(work);
  /* inv(A) = inv(U) inv(L) P: the row interchanges of P A act on the columns
     of the inverse, undone in reverse order. */
  for (int64_t j = n - 2; j >= 0; --j)
    SWAP_COLS_(n, A, lda, j, ipiv[j] - 1);
  return AXB_SUCCESS;
}

/* One Gauss-Jordan step on pivot k, in place ("sweep"): with p = a_kk,
     a_kj := a_kj / p                  (pivot row normalised, j != k)
     a_ij := a_ij - a_ik a_kj          (i != k, j != k)
     a_ik := -a_ik / p,  a_kk := 1 / p (column k becomes column k of the
                                        identity part, eliminated).
   The identity's column k is stored where A's (now eliminated) column k
   was, so the inverse builds up in place. */
static void GJ_STEP_(int64_t n, T *A, int64_t lda, int64_t k) {
  const T p = AT(A, lda, k, k);
  const T *ak = &AT(A, lda, 0, k);
  for (int64_t j = 0; j < n; ++j) {
    if (j == k) continue;
    T *a = &AT(A, lda, 0, j);
    const T f = a[k] / p;
    a[k] = f;
    for (int64_t i = 0; i < n; ++i)
      if (i != k) a[i] -= ak[i] * f;
  }
  T *c = &AT(A, lda, 0, k);
  for (int64_t i = 0; i < n; ++i)
    if (i != k) c[i] = -c[i] / p;
  c[k] = (T)1 / p;
}

axb_status AXB_FN(axb_ref_, getri_gj)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t *info) {
  if (info) *info = 0;
  int64_t *perm = axb__pivot_space(h, n, "getri_gj");
  if (!perm) return AXB_ERR_OUT_OF_MEMORY;
  for (int64_t k = 0; k < n; ++k) {
    /* Partial pivoting: largest |a_ik| among the rows not yet pivoted. */
    const int64_t p = k + IAMAX_(n - k, &AT(A, lda, k, k));
    if (AT(A, lda, p, k) == (T)0) {
      axb__free(perm);
      return axb__zero_pivot_column(h, info, k + 1, "getri_gj");
    }
    perm[k] = p;
    SWAP_ROWS_(n, A, lda, k, p);
    GJ_STEP_(n, A, lda, k);
  }
  /* A row swap of [A | I] permutes the identity part's columns: the result
     holds inv(A) with columns interchanged, undone in reverse order. */
  for (int64_t k = n - 1; k >= 0; --k)
    SWAP_COLS_(n, A, lda, k, perm[k]);
  axb__free(perm);
  return AXB_SUCCESS;
}

#undef AT
#undef ABS_
#undef IAMAX_
#undef SWAP_ROWS_
#undef SWAP_COLS_
#undef GETF2_
#undef TRTRI_
#undef SOLVE_XL_
#undef GJ_STEP_
#undef GETRI_START_
#undef LASWP_
#undef TRSM_
#undef GEMM_
