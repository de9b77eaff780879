/*
 * The left-looking update of one column of a lower Cholesky factor, shared
 * by the reference templates (ref_chol_t.h: the Crout variant and the
 * blocked factorization's SYRK) and the OpenMP Crout variant
 * (omp_variants_t.h).  Written in their T; the including template defines
 * CHOL_COLUMN_ (the function's name, unique per template and precision).
 * No include guard: included once per template instantiation.
 */

/* x[0:m) -= W[0:m, 0:k) w^T, w = W[0, 0:k) the first row of W (leading
   dimension ldw), one column of W at a time.  With W = &A[j, 0], k = j and
   x = &A[j, j]: a_ij -= sum_{c<j} l_ic l_jc for i >= j, column j of the
   factor before its square root and scaling. */
static void CHOL_COLUMN_(int64_t m, int64_t k, const T *W, int64_t ldw, T *x) {
  for (int64_t l = 0; l < k; ++l) {
    const T *w = W + l * ldw;
    const T w0 = w[0];
    for (int64_t i = 0; i < m; ++i)
      x[i] -= w[i] * w0;
  }
}
