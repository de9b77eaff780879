/*
 * Cholesky of an nb x nb diagonal block in one work-group (LAPACK's potf2,
 * right-looking by columns).  Lower: A = L L^T, column j scaled by
 * 1/sqrt(d), then A(i, c) -= L(i, j) L(c, j) for j < c <= i.  Upper:
 * A = U^T U, the mirror image by rows.  A diagonal d that is not > 0 (NaN
 * included) stops the block with *info = k0 + j + 1 (the order of the
 * first leading minor that is not positive); entries of the other triangle
 * are never read.  A block launched after *info was set does nothing (the
 * GPU-device path queues later blocks before it reads info back), so
 * *info keeps the first failing minor.
 */
/* Element (r, c) of the triangle being factored as the lower case sees
   it: A(r, c) for lower, A(c, r) for upper (U^T U mirrors L L^T), so one
   loop nest serves both.  One nest, not an if/else of two around the
   loops between barriers: PoCL 5.0's work-group compiler crashed on that
   shape (its issue 1435, fixed in 6.0; Ubuntu 24.04 ships 5.0). */
#define TR(r, c) A[a0 + (upper ? (long)(r)*lda + (c) : (long)(c)*lda + (r))]

kernel void chol_diag(global real_t *A, long a0, long lda, int nb, int k0,
                      int upper, global int *info) {
  const int lid = get_local_id(0);
  if (*info != 0) return; /* the same in every work-item: all leave */
  for (int j = 0; j < nb; ++j) {
    const real_t d = AT(j, j);
    SYNC();
    if (!(d > 0)) { /* the same d in every work-item: all leave */
      if (lid == 0) *info = k0 + j + 1;
      return;
    }
    const real_t s = sqrt(d);
    if (lid == 0) AT(j, j) = s;
    for (int i = j + 1 + lid; i < nb; i += WG) TR(i, j) /= s;
    SYNC();
    /* lower: row i of L below j; upper: column i of U right of j */
    for (int i = j + 1 + lid; i < nb; i += WG) {
      const real_t l = TR(i, j);
      for (int c = j + 1; c <= i; ++c) TR(i, c) -= l * TR(c, j);
    }
    SYNC();
  }
}
