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

/*
 * x_r := op(T)^-1 x_r for the nrhs columns of B at b0 (ld ldb), T the
 * n x n triangle at a0 of A: op(T)(i, j) = A(i, j), or A(j, i) with trans;
 * down: op(T) lower (forward substitution), else upper (backward); unit:
 * ones on the diagonal, not read.  One work-group of WG work-items: per
 * column j of op(T), x_j /= op(T)(j, j), then the rows still to solve
 * lose op(T)(i, j) x_j, spread over the work-items.  trsm_left's path for
 * a few right-hand sides (the certified solve's one), where inverting
 * each diagonal block cost more than the whole solve (notes/opencl.md).
 * One loop and plain ifs between the barriers (PoCL 5.0: lu.cl).
 */
#define OPT(i, j) (trans ? A[a0 + (j) + (long)(i)*lda] : A[a0 + (i) + (long)(j)*lda])
kernel void trsv_block(global const real_t *A, long a0, long lda, int n,
                       int trans, int down, int unit, global real_t *B,
                       long b0, long ldb, int nrhs) {
  const int lid = get_local_id(0);
  for (int r = 0; r < nrhs; ++r) {
    global real_t *x = B + b0 + (long)r * ldb;
    for (int t = 0; t < n; ++t) {
      const int j = down ? t : n - 1 - t;
      SYNC(); /* the updates of x_j by every work-item */
      const real_t xj = unit ? x[j] : x[j] / OPT(j, j);
      SYNC(); /* every work-item has read x_j */
      if (lid == 0) x[j] = xj;
      const int lo = down ? j + 1 : 0, hi = down ? n : j;
      for (int i = lo + lid; i < hi; i += WG) x[i] -= OPT(i, j) * xj;
    }
  }
}
