/*
 * Reference BLAS-3 kernels in T (template, see core/template.h): triangular
 * solve with many right-hand sides (trsm) and matrix product (gemm).
 * Column-major; every inner loop walks down a column (unit stride).
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define SCALE_ AXB_FN(ref_, scale_block)
#define TRSM_LN_ AXB_FN(ref_, trsm_left_notrans)
#define TRSM_LT_ AXB_FN(ref_, trsm_left_trans)
#define TRSM_RN_ AXB_FN(ref_, trsm_right_notrans)
#define TRSM_RT_ AXB_FN(ref_, trsm_right_trans)
#define GEMM_N_ AXB_FN(ref_, gemm_accumulate_notrans)
#define GEMM_T_ AXB_FN(ref_, gemm_dot_trans)

/* B := alpha B for an m x n block; alpha = 0 writes zeros without reading B
   (NaN in B is then discarded, as the BLAS do). */
static void SCALE_(int64_t m, int64_t n, T alpha, T *B, int64_t ldb) {
  if (alpha == (T)1) return;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      AT(B, ldb, i, j) = alpha == (T)0 ? (T)0 : alpha * AT(B, ldb, i, j);
}

/* X := A^-1 X, A m x m triangular, one column x at a time, by columns of A:
   lower: forward substitution x_k /= a_kk, x_{k+1:m} -= x_k a_{k+1:m,k};
   upper: the same backwards over k with rows 0:k. */
static void TRSM_LN_(axb_uplo uplo, axb_diag diag, int64_t m, int64_t n,
                     const T *A, int64_t lda, T *B, int64_t ldb) {
  for (int64_t j = 0; j < n; ++j) {
    T *x = &AT(B, ldb, 0, j);
    if (uplo == AXB_LOWER) {
      for (int64_t k = 0; k < m; ++k) {
        if (diag == AXB_NON_UNIT) x[k] /= AT(A, lda, k, k);
        const T xk = x[k];
        for (int64_t i = k + 1; i < m; ++i)
          x[i] -= xk * AT(A, lda, i, k);
      }
    } else {
      for (int64_t k = m - 1; k >= 0; --k) {
        if (diag == AXB_NON_UNIT) x[k] /= AT(A, lda, k, k);
        const T xk = x[k];
        for (int64_t i = 0; i < k; ++i)
          x[i] -= xk * AT(A, lda, i, k);
      }
    }
  }
}

/* X := A^-T X: row i of A^T is column i of A, so each unknown is a dot
   product with a column of A.  A upper (A^T lower): x_i = (b_i - sum_{k<i}
   a_ki x_k) / a_ii in increasing i; A lower: sum over k > i, decreasing i. */
static void TRSM_LT_(axb_uplo uplo, axb_diag diag, int64_t m, int64_t n,
                     const T *A, int64_t lda, T *B, int64_t ldb) {
  for (int64_t j = 0; j < n; ++j) {
    T *x = &AT(B, ldb, 0, j);
    if (uplo == AXB_UPPER) {
      for (int64_t i = 0; i < m; ++i) {
        T s = x[i];
        for (int64_t k = 0; k < i; ++k)
          s -= AT(A, lda, k, i) * x[k];
        x[i] = diag == AXB_NON_UNIT ? s / AT(A, lda, i, i) : s;
      }
    } else {
      for (int64_t i = m - 1; i >= 0; --i) {
        T s = x[i];
        for (int64_t k = i + 1; k < m; ++k)
          s -= AT(A, lda, k, i) * x[k];
        x[i] = diag == AXB_NON_UNIT ? s / AT(A, lda, i, i) : s;
      }
    }
  }
}

/* X := B A^-1, A n x n: column j of X A is sum_k x_k a_kj, so
   upper: x_j = (b_j - sum_{k<j} a_kj x_k) / a_jj in increasing j;
   lower: x_j = (b_j - sum_{k>j} a_kj x_k) / a_jj in decreasing j.
   Each step is a sum of whole columns of B (unit stride). */
static void TRSM_RN_(axb_uplo uplo, axb_diag diag, int64_t m, int64_t n,
                     const T *A, int64_t lda, T *B, int64_t ldb) {
  const int upper = uplo == AXB_UPPER;
  for (int64_t jj = 0; jj < n; ++jj) {
    const int64_t j = upper ? jj : n - 1 - jj;
    T *xj = &AT(B, ldb, 0, j);
    const int64_t k0 = upper ? 0 : j + 1, k1 = upper ? j : n;
    for (int64_t k = k0; k < k1; ++k) {
      const T akj = AT(A, lda, k, j);
      const T *xk = &AT(B, ldb, 0, k);
      for (int64_t i = 0; i < m; ++i)
        xj[i] -= akj * xk[i];
    }
    if (diag == AXB_NON_UNIT) {
      const T ajj = AT(A, lda, j, j);
      for (int64_t i = 0; i < m; ++i)
        xj[i] /= ajj;
    }
  }
}

/* X := B A^-T: column j of X A^T is sum_k x_k a_jk.  Finish x_k (divide by
   a_kk) and subtract its share a_jk x_k from every column j still open,
   reading column k of A: A upper opens j < k (decreasing k), A lower opens
   j > k (increasing k). */
static void TRSM_RT_(axb_uplo uplo, axb_diag diag, int64_t m, int64_t n,
                     const T *A, int64_t lda, T *B, int64_t ldb) {
  const int upper = uplo == AXB_UPPER;
  for (int64_t kk = 0; kk < n; ++kk) {
    const int64_t k = upper ? n - 1 - kk : kk;
    T *xk = &AT(B, ldb, 0, k);
    if (diag == AXB_NON_UNIT) {
      const T akk = AT(A, lda, k, k);
      for (int64_t i = 0; i < m; ++i)
        xk[i] /= akk;
    }
    const int64_t j0 = upper ? 0 : k + 1, j1 = upper ? k : n;
    for (int64_t j = j0; j < j1; ++j) {
      const T ajk = AT(A, lda, j, k);
      T *xj = &AT(B, ldb, 0, j);
      for (int64_t i = 0; i < m; ++i)
        xj[i] -= ajk * xk[i];
    }
  }
}

/* B := alpha op(A)^-1 B (LEFT, A m x m) or alpha B op(A)^-1 (RIGHT, A n x n).
   alpha is applied first: op(A) X = alpha B is the same X. */
axb_status AXB_FN(axb_ref_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                                  axb_trans trans, axb_diag diag, int64_t m,
                                  int64_t n, T alpha, const T *A, int64_t lda,
                                  T *B, int64_t ldb) {
  (void)h;
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  SCALE_(m, n, alpha, B, ldb);
  if (alpha == (T)0) return AXB_SUCCESS;
  if (side == AXB_LEFT && trans == AXB_NO_TRANS)
    TRSM_LN_(uplo, diag, m, n, A, lda, B, ldb);
  else if (side == AXB_LEFT)
    TRSM_LT_(uplo, diag, m, n, A, lda, B, ldb);
  else if (trans == AXB_NO_TRANS)
    TRSM_RN_(uplo, diag, m, n, A, lda, B, ldb);
  else
    TRSM_RT_(uplo, diag, m, n, A, lda, B, ldb);
  return AXB_SUCCESS;
}

/* C += alpha A op(B), A m x k not transposed: column j of C gathers the
   columns of A weighted by alpha op(B)_lj (axpy, unit stride). */
static void GEMM_N_(axb_trans tb, int64_t m, int64_t n, int64_t k, T alpha,
                    const T *A, int64_t lda, const T *B, int64_t ldb, T *C,
                    int64_t ldc) {
  for (int64_t j = 0; j < n; ++j) {
    T *c = &AT(C, ldc, 0, j);
    for (int64_t l = 0; l < k; ++l) {
      const T blj = tb == AXB_NO_TRANS ? AT(B, ldb, l, j) : AT(B, ldb, j, l);
      const T t = alpha * blj;
      const T *a = &AT(A, lda, 0, l);
      for (int64_t i = 0; i < m; ++i)
        c[i] += t * a[i];
    }
  }
}

/* C := alpha A^T op(B) + beta C: c_ij is the dot product of column i of A
   with column j of op(B); beta = 0 never reads C. */
static void GEMM_T_(axb_trans tb, int64_t m, int64_t n, int64_t k, T alpha,
                    const T *A, int64_t lda, const T *B, int64_t ldb, T beta,
                    T *C, int64_t ldc) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const T *a = &AT(A, lda, 0, i);
      T s = 0;
      if (tb == AXB_NO_TRANS) {
        const T *b = &AT(B, ldb, 0, j);
        for (int64_t l = 0; l < k; ++l)
          s += a[l] * b[l];
      } else {
        for (int64_t l = 0; l < k; ++l)
          s += a[l] * AT(B, ldb, j, l);
      }
      T *c = &AT(C, ldc, i, j);
      *c = beta == (T)0 ? alpha * s : alpha * s + beta * *c;
    }
}

/* C := alpha op(A) op(B) + beta C, C m x n, op(A) m x k, op(B) k x n. */
axb_status AXB_FN(axb_ref_, gemm)(axb_handle h, axb_trans ta, axb_trans tb,
                                  int64_t m, int64_t n, int64_t k, T alpha,
                                  const T *A, int64_t lda, const T *B,
                                  int64_t ldb, T beta, T *C, int64_t ldc) {
  (void)h;
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  if (ta == AXB_TRANS && alpha != (T)0 && k > 0) {
    GEMM_T_(tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    return AXB_SUCCESS;
  }
  SCALE_(m, n, beta, C, ldc);
  if (alpha != (T)0 && k > 0)
    GEMM_N_(tb, m, n, k, alpha, A, lda, B, ldb, C, ldc);
  return AXB_SUCCESS;
}

#undef AT
#undef SCALE_
#undef TRSM_LN_
#undef TRSM_LT_
#undef TRSM_RN_
#undef TRSM_RT_
#undef GEMM_N_
#undef GEMM_T_
