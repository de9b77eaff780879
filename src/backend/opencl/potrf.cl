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
    if (!upper)
      for (int i = j + 1 + lid; i < nb; i += WG) AT(i, j) /= s;
    else
      for (int c = j + 1 + lid; c < nb; c += WG) AT(j, c) /= s;
    SYNC();
    if (!upper)
      for (int i = j + 1 + lid; i < nb; i += WG) {
        const real_t l = AT(i, j);
        for (int c = j + 1; c <= i; ++c) AT(i, c) -= l * AT(c, j);
      }
    else
      for (int c = j + 1 + lid; c < nb; c += WG) {
        const real_t u = AT(j, c);
        for (int i = j + 1; i <= c; ++i) AT(i, c) -= AT(j, i) * u;
      }
    SYNC();
  }
}
