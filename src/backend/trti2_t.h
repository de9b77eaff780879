/*
 * inv(U) in place for an n x n upper triangular U with nonzero diagonal
 * (LAPACK trti2), shared by the reference getri (ref_lu_t.h) and the
 * OpenMP one's diagonal blocks (omp_inv_t.h).  Written in their T; the
 * including template defines AT, TRTI2_ (the function's name) and
 * TRTI2_ATTR (its attributes: the OpenMP backend's ISA clones).  No include
 * guard: included once per template instantiation.
 *
 * Column j of inv(U) is [ -inv(U11) u_j / u_jj ; 1 / u_jj ], where
 * inv(U11), the leading j x j block, is already in place.  The product
 * inv(U11) x is taken column by column of inv(U11) (unit stride).
 */
TRTI2_ATTR
static void TRTI2_(int64_t n, T *A, int64_t lda) {
  for (int64_t j = 0; j < n; ++j) {
    AT(A, lda, j, j) = (T)1 / AT(A, lda, j, j);
    const T ajj = -AT(A, lda, j, j);
    T *x = &AT(A, lda, 0, j);
    /* x := inv(U11) x, upper triangular times vector, top-down safe. */
    for (int64_t k = 0; k < j; ++k) {
      const T xk = x[k];
      const T *u = &AT(A, lda, 0, k);
      for (int64_t i = 0; i < k; ++i)
        x[i] += xk * u[i];
      x[k] = xk * u[k];
    }
    for (int64_t i = 0; i < j; ++i)
      x[i] *= ajj;
  }
}
