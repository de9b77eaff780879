/* Small helpers: identity, zeroing the triangle a routine does not own. */

/* X (n x n at offset 0, leading dimension ld) := I; a 2-D range. */
kernel void set_identity(global real_t *X, long ld, int n) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i < n && j < n) X[(long)j * ld + i] = i == j ? 1 : 0;
}

/* Zero the strict upper (upper = 1) or strict lower triangle of the n x n
   matrix A (offset 0): the device copy of a triangle the host never lets
   us read may hold anything (NaN included), and CLBlast's triangular
   kernels may read the whole block. */
kernel void zero_triangle(global real_t *A, long lda, int n, int upper) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i < n && j < n && (upper ? i < j : i > j)) A[(long)j * lda + i] = 0;
}
