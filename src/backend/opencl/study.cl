/*
 * The source documents' OpenCL algorithms (SEEDS.md 3 and 4), kept as the
 * study variants beside the blocked code.
 */

/* ---- column Cholesky (SEEDS.md 3): a host loop over columns j ---------- */
/* A is the buffer M from offset 0, L the same buffer from offset loff (0:
   in place; else a second n x n block after A), both with leading
   dimension ld: one pointer argument, so that the compiler sees that A and
   L may be the same memory (two arguments for one buffer broke the in-place
   form on PoCL). */
#define MA(i, j) M[(i) + (long)(j)*ld]
#define ML(i, j) M[loff + (i) + (long)(j)*ld]

/* Two-kernel form, first kernel (one work-group): the diagonal
   d = a_jj - sum_{k<j} l_jk^2 by a strided sum and a tree in local memory;
   l_jj = sqrt(d), or *info = j + 1 when d is not positive (NaN too). */
kernel void col_diag(global real_t *M, long ld, long loff, int j,
                     global int *info, local real_t *part) {
  /* No return before the barriers, and the work-item's id asked for again
     after them: PoCL 3.1 ran the closing "lid == 0" region for every
     work-item when lid was kept in a variable across this loop of
     barriers (the in-place form took the square root n times). */
  const int stop = *info, nt = get_local_size(0);
  real_t acc = 0;
  for (int k = get_local_id(0); k < j; k += nt) {
    const real_t v = ML(j, k);
    acc += v * v;
  }
  part[get_local_id(0)] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = nt / 2; s > 0; s >>= 1) {
    if ((int)get_local_id(0) < s) part[get_local_id(0)] += part[get_local_id(0) + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (get_local_id(0) == 0 && !stop) {
    const real_t d = MA(j, j) - part[0];
    if (d > 0)
      ML(j, j) = sqrt(d);
    else
      *info = j + 1;
  }
}

/* Two-kernel form, second kernel: one work-item per row i > j,
   l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj. */
kernel void col_offdiag(int n, global real_t *M, long ld, long loff, int j,
                        global const int *info) {
  if (*info) return;
  const int i = j + 1 + get_global_id(0);
  if (i >= n) return;
  real_t s = MA(i, j);
  for (int k = 0; k < j; ++k) s -= ML(i, k) * ML(j, k);
  ML(i, j) = s / ML(j, j);
}

/* Single-kernel form: every work-item of column j (rows i >= j) computes
   d itself, then its l_ij = s / sqrt(d); row j's records a non-positive d.
   Only the strictly lower part is written here (in place, l_jj written now
   would race with the other work-items' reads of a_jj); col_single_diag
   writes the diagonal at the end with the same arithmetic. */
kernel void col_single(int n, global real_t *M, long ld, long loff, int j,
                       global int *info) {
  if (*info) return;
  const int i = j + get_global_id(0);
  if (i >= n) return;
  real_t d = MA(j, j), s = MA(i, j);
  for (int k = 0; k < j; ++k) {
    const real_t ljk = ML(j, k);
    d -= ljk * ljk;
    s -= ML(i, k) * ljk;
  }
  if (!(d > 0)) {
    if (i == j) *info = j + 1;
    return;
  }
  if (i > j) ML(i, j) = s / sqrt(d);
}

/* l_jj for the columns factored: all n, or the info - 1 before a
   non-positive pivot. */
kernel void col_single_diag(int n, global real_t *M, long ld, long loff,
                            global const int *info) {
  const int j = get_global_id(0);
  if (j >= (*info ? *info - 1 : n)) return;
  real_t d = MA(j, j);
  for (int k = 0; k < j; ++k) {
    const real_t ljk = ML(j, k);
    d -= ljk * ljk;
  }
  ML(j, j) = sqrt(d);
}

/* A's lower triangle := L's. */
kernel void col_lower_copy(int n, global real_t *M, long ld, long loff) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i < n && j < n && i >= j) MA(i, j) = ML(i, j);
}

/* ---- per-pivot Gauss-Jordan with partial pivoting (SEEDS.md 4) -------- */

/*
 * Step k, first kernel (one work-group): the pivot p = the first largest
 * |a_ik|, i >= k; rows k and p swapped over all n columns; piv[k] := p; a
 * zero pivot sets *info = k + 1 and every later kernel returns.  Then
 * col := column k (the multipliers of the elimination), and row k is
 * divided by the pivot with a_kk := 1 / pivot (in-place Gauss-Jordan:
 * column k of the identity takes column k of A's place).
 */
kernel void gj_pivot(int n, global real_t *A, long lda, int k,
                     global int *piv, global real_t *col, global int *info) {
  local real_t v[WG];
  local int ix[WG];
  if (*info) return;
  const long a0 = 0;
  const int lid = get_local_id(0);
  const int p = column_argmax(A + a0 + (long)k * lda, k, n, v, ix, lid);
  const real_t pv = AT(p, k);
  SYNC();
  if (pv == 0) {
    if (lid == 0) *info = k + 1;
    return;
  }
  if (lid == 0) piv[k] = p;
  if (p != k)
    for (int j = lid; j < n; j += WG) {
      const real_t t = AT(k, j);
      AT(k, j) = AT(p, j);
      AT(p, j) = t;
    }
  SYNC();
  for (int i = lid; i < n; i += WG) col[i] = AT(i, k);
  SYNC();
  for (int j = lid; j < n; j += WG) AT(k, j) = j == k ? 1 / pv : AT(k, j) / pv;
}

/* Step k, second kernel (2-D range over i != k, all j):
   a_ij -= col_i a_kj, with a_ik := -col_i a_kk for column k. */
kernel void gj_eliminate(int n, global real_t *A, long lda, int k,
                         global const real_t *col, global const int *info) {
  if (*info) return;
  const long a0 = 0;
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= n || j >= n || i == k) return;
  if (j == k)
    AT(i, k) = -col[i] * AT(k, k);
  else
    AT(i, j) -= col[i] * AT(k, j);
}

/* The row interchanges of the elimination undone on the columns of the
   inverse, last first: inv(A) = inv(P A) P.  One work-item per row. */
kernel void gj_unswap(int n, global real_t *A, long lda,
                      global const int *piv) {
  const int i = get_global_id(0);
  if (i >= n) return;
  for (int k = n - 1; k >= 0; --k) {
    const int p = piv[k];
    if (p != k) {
      const real_t t = A[i + (long)k * lda];
      A[i + (long)k * lda] = A[i + (long)p * lda];
      A[i + (long)p * lda] = t;
    }
  }
}
