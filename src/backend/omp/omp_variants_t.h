/*
 * The OpenMP study variants of the source documents (SEEDS.md 3 and 4), in
 * T (template, see core/template.h).  They need no BLAS.  They are meant to
 * be correct and measurable beside the production kernels, not fast.
 *
 * potrf_crout: Cholesky-Crout, lower, in place, column by column:
 *     s_i  = a_ij - sum_{k<j} l_ik l_jk      (i >= j)
 *     l_jj = sqrt(s_j),  l_ij = s_i / l_jj  (i > j)
 *   with a parallel-for (static schedule) over the rows i of each column,
 *   in runs of OMP_CROUT_ROWS rows; each run has the k loop outside and its
 *   rows inside (unit stride, simd).
 *   The last `cutoff` columns, whose row loops are too short to pay for a
 *   fork/join, run sequentially (the thesis's cutoff): AXB_CHOL_CUTOFF in
 *   the environment, default OMP_CROUT_CUTOFF; 0 disables it.
 *
 * getri_gj: Gauss-Jordan inverse with partial pivoting, a parallel-for
 *   over the rows and simd over the columns of each elimination.  The
 *   column-major A is read as the row-major matrix B = A^T (same memory:
 *   row i of B is column i of A, contiguous), and B is inverted in place:
 *   inv(B) in row-major memory is inv(A)^T read row-major, i.e. inv(A) in
 *   column-major.  Partial pivoting of A by rows is pivoting of B by
 *   columns: pivot k = largest |b_kj| (j >= k, contiguous), swap columns k
 *   and p of B, then the in-place sweep
 *       b_kj := b_kj / b_kk (j != k),  b_kk := 1 / b_kk,
 *       b_ij := b_ij - b_ik b_kj,  b_ik := -b_ik / b_kk   (i != k),
 *   where the row loop is the parallel-for and the j loop the simd one.
 *   The column swaps Q give inv(B Q) = Q^-1 inv(B): the rows of the
 *   result are swapped back at the end, in reverse order.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define ABS_(x) ((x) < 0 ? -(x) : (x))
#define SQRT_(x) ((T)sqrt((double)(x)))
#define IAMAX_ AXB_FN(omp_, var_iamax)
#define CHOL_COLUMN_ AXB_FN(omp_, var_chol_column)

#include "backend/chol_column_t.h"
#include "backend/iamax_t.h"

axb_status AXB_FN(axb_omp_, potrf_crout)(axb_handle h, int64_t n, T *A,
                                         int64_t lda, int64_t *info) {
  if (info) *info = 0;
  const int nt = axb_omp_threads(h);
  (void)nt; /* only in pragmas, which a build without OpenMP drops */
  int64_t cutoff = axb_omp_env_int("AXB_CHOL_CUTOFF", OMP_CROUT_CUTOFF);
  if (cutoff < 0) cutoff = 0;
  int64_t bad = 0; /* 1-based failing column */
  axb_omp_bar bar = {0, 0};
  AXB_OMP(parallel num_threads(nt) if (nt > 1 && n > OMP_CROUT_SMALL)) {
    int sense = 0;
    const int me = axb_omp_thread_id();
    for (int64_t j = 0; j < n; ++j) {
      T *s = &AT(A, lda, 0, j);
      /* Columns from n - cutoff on: one thread does everything. */
      if (n - j <= cutoff) {
        if (me == 0)
          for (int64_t jj = j; jj < n; ++jj) {
            T *t = &AT(A, lda, 0, jj);
            CHOL_COLUMN_(n - jj, jj, &AT(A, lda, jj, 0), lda, t + jj);
            if (!(t[jj] > 0)) {
              bad = jj + 1;
              break;
            }
            t[jj] = SQRT_(t[jj]);
            const T r = (T)1 / t[jj];
            for (int64_t i = jj + 1; i < n; ++i)
              t[i] *= r;
          }
        break; /* the end of the region waits for thread 0 */
      }
      /* s_i for the rows i >= j, split statically among the threads in
         runs of OMP_CROUT_ROWS rows; a run subtracts l_ik l_jk column by
         column (k outside, its rows inside: unit stride).  The loops end
         with nowait and meet at axb_omp_barrier (omp.h says why). */
      AXB_OMP(for schedule(static) nowait)
      for (int64_t i0 = j; i0 < n; i0 += OMP_CROUT_ROWS) {
        const int64_t i1 = i0 + OMP_CROUT_ROWS < n ? i0 + OMP_CROUT_ROWS : n;
        for (int64_t k = 0; k < j; ++k) {
          const T ljk = AT(A, lda, j, k);
          const T *l = &AT(A, lda, 0, k);
          AXB_OMP(simd)
          for (int64_t i = i0; i < i1; ++i)
            s[i] -= l[i] * ljk;
        }
      }
      axb_omp_barrier(&bar, &sense);
      /* Every thread reads the same s_j: the same decision everywhere. */
      if (!(s[j] > 0)) {
        if (me == 0) bad = j + 1;
        break;
      }
      const T ljj = SQRT_(s[j]);
      AXB_OMP(for schedule(static) nowait)
      for (int64_t i = j + 1; i < n; ++i)
        s[i] /= ljj;
      axb_omp_barrier(&bar, &sense);
      /* Every thread has read s_j; nothing reads l_jj before the end. */
      if (me == 0) s[j] = ljj;
    }
  }
  return bad ? axb__not_spd(h, info, bad, "potrf_crout") : AXB_SUCCESS;
}

axb_status AXB_FN(axb_omp_, getri_gj)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t *info) {
  if (info) *info = 0;
  int64_t *perm = axb__pivot_space(h, n, "getri_gj");
  if (!perm) return AXB_ERR_OUT_OF_MEMORY;
  const int nt = axb_omp_threads(h);
  (void)nt; /* only in pragmas, which a build without OpenMP drops */
  /* Row i of B = A^T starts at A + i * lda. */
#define B_(i, j) A[(i)*lda + (j)]
  int64_t bad = 0;
  axb_omp_bar bar = {0, 0};
  AXB_OMP(parallel num_threads(nt) if (nt > 1 && n > OMP_GJ_STUDY_SMALL)) {
    int sense = 0;
    const int me = axb_omp_thread_id();
    for (int64_t k = 0; k < n; ++k) {
      /* One thread picks the pivot, swaps and normalises the pivot row;
         the loops end with nowait and meet at axb_omp_barrier (omp.h). */
      if (me == 0) {
        /* Pivot: largest |b_kj|, j >= k, in row k of B (column k of A):
           partial pivoting of A by rows is column pivoting of B. */
        T *x = &B_(k, 0);
        int64_t p = k + IAMAX_(n - k, x + k);
        perm[k] = p;
        if (x[p] == (T)0) {
          bad = k + 1;
        } else {
          if (p != k)
            for (int64_t i = 0; i < n; ++i) {
              const T t = B_(i, k);
              B_(i, k) = B_(i, p);
              B_(i, p) = t;
            }
          /* Normalise the pivot row; b_kk becomes 1 / pivot. */
          const T r = (T)1 / x[k];
          AXB_OMP(simd)
          for (int64_t j = 0; j < n; ++j)
            x[j] *= r;
          x[k] = r;
        }
      }
      axb_omp_barrier(&bar, &sense); /* bad, swap and pivot row visible */
      if (bad) break;
      const T *xk = &B_(k, 0);
      AXB_OMP(for schedule(static) nowait)
      for (int64_t i = 0; i < n; ++i) {
        if (i == k) continue;
        T *x = &B_(i, 0);
        const T f = x[k];
        /* b_ik := 0 first, so that the same update gives -f / pivot. */
        x[k] = 0;
        AXB_OMP(simd)
        for (int64_t j = 0; j < n; ++j)
          x[j] -= f * xk[j];
      }
      axb_omp_barrier(&bar, &sense);
    }
    /* The column interchanges Q of B: the sweeps produced inv(B Q) =
       Q^-1 inv(B), so inv(B) = Q inv(B Q): swap rows k and perm[k] in
       decreasing k (contiguous rows, split among the threads by columns). */
    if (!bad) {
      AXB_OMP(for schedule(static))
      for (int64_t c = 0; c < n; c += 64) {
        const int64_t ce = c + 64 < n ? c + 64 : n;
        for (int64_t k = n - 1; k >= 0; --k) {
          const int64_t p = perm[k];
          if (p == k) continue;
          T *x = &B_(k, 0), *y = &B_(p, 0);
          for (int64_t j = c; j < ce; ++j) {
            const T t = x[j];
            x[j] = y[j];
            y[j] = t;
          }
        }
      }
    }
  }
#undef B_
  axb__free(perm);
  return axb__zero_pivot_column(h, info, bad, "getri_gj");
}

#undef AT
#undef ABS_
#undef SQRT_
#undef IAMAX_
#undef CHOL_COLUMN_
