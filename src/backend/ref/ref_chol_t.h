/*
 * Reference Cholesky factorizations in T (template, see core/template.h).
 *
 *   potrf               A = L L^T (LOWER) or U^T U (UPPER), blocked
 *                       right-looking with REF_CHOL_NB-wide block columns;
 *                       only the named triangle is read and written.
 *   potrf_crout         lower, unblocked, column by column (SEEDS.md 3):
 *                         L_jj = sqrt(A_jj - sum_{k<j} L_jk^2)
 *                         L_ij = (A_ij - sum_{k<j} L_ik L_jk) / L_jj, i > j
 *   potrf_banachiewicz  the same formulas, row by row.
 *
 * Every variant stops at the first diagonal whose value under the square
 * root is not positive (or is NaN): that is the order of the first leading
 * minor that is not positive, returned in info with AXB_ERR_NOT_SPD.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define TRSM_ AXB_FN(axb_ref_, trsm)
#define SQRT_(x) ((T)sqrt((double)(x)))
#define POTF2_L_ AXB_FN(ref_, potf2_lower)
#define POTF2_U_ AXB_FN(ref_, potf2_upper)
#define SYRK_L_ AXB_FN(ref_, syrk_lower)
#define SYRK_U_ AXB_FN(ref_, syrk_upper)
#define CHOL_COLUMN_ AXB_FN(ref_, chol_column)

#include "backend/chol_column_t.h"

/* Unblocked right-looking lower Cholesky of the n x n block: take the
   square root of the pivot, scale the column below (l_ij = a_ij / l_jj),
   and subtract l l^T from the lower part of the trailing block.
   Returns 0 or the 1-based failing minor. */
static int64_t POTF2_L_(int64_t n, T *A, int64_t lda) {
  for (int64_t j = 0; j < n; ++j) {
    const T ajj = AT(A, lda, j, j);
    if (!(ajj > 0)) return j + 1;
    const T ljj = SQRT_(ajj);
    AT(A, lda, j, j) = ljj;
    T *l = &AT(A, lda, 0, j);
    for (int64_t i = j + 1; i < n; ++i)
      l[i] /= ljj;
    for (int64_t k = j + 1; k < n; ++k) {
      const T lkj = l[k];
      T *a = &AT(A, lda, 0, k);
      for (int64_t i = k; i < n; ++i)
        a[i] -= l[i] * lkj;
    }
  }
  return 0;
}

/* Unblocked left-looking upper Cholesky (LAPACK potf2): column j of U is
   u_jj = sqrt(a_jj - u_j . u_j) and u_jc = (a_jc - u_j . u_c) / u_jj for
   c > j, where u_j is column j above the diagonal (dot products down
   columns, unit stride).  Returns 0 or the 1-based failing minor. */
static int64_t POTF2_U_(int64_t n, T *A, int64_t lda) {
  for (int64_t j = 0; j < n; ++j) {
    const T *uj = &AT(A, lda, 0, j);
    T s = AT(A, lda, j, j);
    for (int64_t k = 0; k < j; ++k)
      s -= uj[k] * uj[k];
    if (!(s > 0)) return j + 1;
    const T ujj = SQRT_(s);
    AT(A, lda, j, j) = ujj;
    for (int64_t c = j + 1; c < n; ++c) {
      T *uc = &AT(A, lda, 0, c);
      T t = uc[j];
      for (int64_t k = 0; k < j; ++k)
        t -= uj[k] * uc[k];
      uc[j] = t / ujj;
    }
  }
  return 0;
}

/* C := C - W W^T on the lower triangle of the n x n C, W n x k. */
static void SYRK_L_(int64_t n, int64_t k, const T *W, int64_t ldw, T *C,
                    int64_t ldc) {
  for (int64_t c = 0; c < n; ++c)
    CHOL_COLUMN_(n - c, k, &AT(W, ldw, c, 0), ldw, &AT(C, ldc, c, c));
}

/* C := C - W^T W on the upper triangle of the n x n C, W k x n:
   c_rc -= (column r of W) . (column c of W), r <= c. */
static void SYRK_U_(int64_t n, int64_t k, const T *W, int64_t ldw, T *C,
                    int64_t ldc) {
  for (int64_t c = 0; c < n; ++c) {
    const T *wc = &AT(W, ldw, 0, c);
    for (int64_t r = 0; r <= c; ++r) {
      const T *wr = &AT(W, ldw, 0, r);
      T s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += wr[l] * wc[l];
      AT(C, ldc, r, c) -= s;
    }
  }
}

/* Blocked right-looking: factor the diagonal block, solve for the block
   column (row) below (right of) it, update the trailing triangle. */
axb_status AXB_FN(axb_ref_, potrf)(axb_handle h, axb_uplo uplo, int64_t n, T *A,
                                   int64_t lda, int64_t *info) {
  if (info) *info = 0;
  for (int64_t j = 0; j < n; j += REF_CHOL_NB) {
    const int64_t jb = n - j < REF_CHOL_NB ? n - j : REF_CHOL_NB;
    const int64_t rest = n - j - jb;
    T *A11 = &AT(A, lda, j, j);
    if (uplo == AXB_LOWER) {
      const int64_t bad = POTF2_L_(jb, A11, lda);
      if (bad) return axb__not_spd(h, info, j + bad, "potrf");
      if (rest <= 0) break;
      /* L21 = A21 L11^-T; A22 -= L21 L21^T (lower part). */
      T *A21 = &AT(A, lda, j + jb, j);
      TRSM_(h, AXB_RIGHT, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT, rest, jb, (T)1,
            A11, lda, A21, lda);
      SYRK_L_(rest, jb, A21, lda, &AT(A, lda, j + jb, j + jb), lda);
    } else {
      const int64_t bad = POTF2_U_(jb, A11, lda);
      if (bad) return axb__not_spd(h, info, j + bad, "potrf");
      if (rest <= 0) break;
      /* U12 = U11^-T A12; A22 -= U12^T U12 (upper part). */
      T *A12 = &AT(A, lda, j, j + jb);
      TRSM_(h, AXB_LEFT, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, jb, rest, (T)1,
            A11, lda, A12, lda);
      SYRK_U_(rest, jb, A12, lda, &AT(A, lda, j + jb, j + jb), lda);
    }
  }
  return AXB_SUCCESS;
}

/* Column-wise (Crout): column j is finished from the columns k < j to its
   left, s_i = a_ij - sum_k l_ik l_jk for i >= j (axpy down columns), then
   l_jj = sqrt(s_j) and l_ij = s_i / l_jj. */
axb_status AXB_FN(axb_ref_, potrf_crout)(axb_handle h, int64_t n, T *A,
                                         int64_t lda, int64_t *info) {
  if (info) *info = 0;
  for (int64_t j = 0; j < n; ++j) {
    T *s = &AT(A, lda, 0, j);
    CHOL_COLUMN_(n - j, j, &AT(A, lda, j, 0), lda, s + j);
    if (!(s[j] > 0)) return axb__not_spd(h, info, j + 1, "potrf_crout");
    s[j] = SQRT_(s[j]);
    for (int64_t i = j + 1; i < n; ++i)
      s[i] /= s[j];
  }
  return AXB_SUCCESS;
}

/* Row-wise (Banachiewicz): row i is finished from the rows j < i above it,
   l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj for j < i, then
   l_ii = sqrt(a_ii - sum_{k<i} l_ik^2).  Rows are strided in column-major
   storage; that is this variant's access pattern. */
axb_status AXB_FN(axb_ref_, potrf_banachiewicz)(axb_handle h, int64_t n, T *A,
                                                int64_t lda, int64_t *info) {
  if (info) *info = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < i; ++j) {
      T s = AT(A, lda, i, j);
      for (int64_t k = 0; k < j; ++k)
        s -= AT(A, lda, i, k) * AT(A, lda, j, k);
      AT(A, lda, i, j) = s / AT(A, lda, j, j);
    }
    T d = AT(A, lda, i, i);
    for (int64_t k = 0; k < i; ++k)
      d -= AT(A, lda, i, k) * AT(A, lda, i, k);
    if (!(d > 0)) return axb__not_spd(h, info, i + 1, "potrf_banachiewicz");
    AT(A, lda, i, i) = SQRT_(d);
  }
  return AXB_SUCCESS;
}

#undef AT
#undef SQRT_
#undef POTF2_L_
#undef POTF2_U_
#undef SYRK_L_
#undef SYRK_U_
#undef CHOL_COLUMN_
#undef TRSM_
