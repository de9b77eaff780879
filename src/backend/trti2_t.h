/*
 * inv(U) in place for an n x n upper triangular U with nonzero diagonal
 * (LAPACK trti2), shared by the reference getri (ref_lu_t.h) and the
 * OpenMP one's diagonal blocks (omp_inv_t.h).  Written in their T; the
 * including template defines AT, TRTI2_ (the function's name),
 * TRTI2_ATTR (its attributes: the OpenMP backend's ISA clones) and
 * GETRI_START_ (the name of getri's common start, below).  No include
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

/* The start both getri share, on the factors of getrf in A: a zero u_jj
   makes U, hence A, singular (AXB_ERR_SINGULAR naming the first, nothing
   overwritten); otherwise *work := the n x min(n, nb) workspace
   (AXB_ERR_OUT_OF_MEMORY without it) and *info := 0. */
static axb_status GETRI_START_(axb_handle h, int64_t n, const T *A, int64_t lda,
                               int64_t nb, int64_t *info, T **work) {
  if (info) *info = 0;
  for (int64_t j = 0; j < n; ++j)
    if (AT(A, lda, j, j) == (T)0)
      return axb__zero_pivot(h, info, j + 1, "getri", "U");
  *work = axb__getri_work(h, n, n < nb ? n : nb, sizeof(T));
  return *work ? AXB_SUCCESS : AXB_ERR_OUT_OF_MEMORY;
}
