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

/*
 * W (nb x nb at offset w0, leading dimension ldw) := the inverse of the lower
 * triangular nb x nb block at a0 (unit: ones on its diagonal, not read),
 * or with upper = 1 the inverse of the transpose of the upper block
 * (= inv(U)^T).  One work-item per column c of W: forward substitution
 * L w = e_c.  The LU's U12 and the Cholesky's block column become GEMMs
 * with W (CLBlast's TRSM inverts its diagonal blocks the same way, and
 * ran 11 ms per 64-row call on PoCL).
 */
kernel void trtri_lower(global const real_t *A, long a0, long lda, int nb,
                        int unit, int upper, global real_t *W, long w0,
                        long ldw) {
  const int c = get_global_id(0);
  if (c >= nb) return;
#define LT(i, k) (upper ? A[a0 + (long)(i)*lda + (k)] : AT(i, k))
#define WT(i, k) W[w0 + (i) + (long)(k)*ldw]
  for (int i = 0; i < c; ++i) WT(i, c) = 0;
  WT(c, c) = unit ? 1 : 1 / LT(c, c);
  for (int i = c + 1; i < nb; ++i) {
    real_t s = 0;
    for (int k = c; k < i; ++k) s += LT(i, k) * WT(k, c);
    WT(i, c) = unit ? -s : -s / LT(i, i);
  }
#undef LT
#undef WT
}
