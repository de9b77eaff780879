/*
 * Inverses for the CPU backend, in T (template, see core/template.h).
 *
 * getri: inv(A) = inv(U) inv(L) P from P A = L U (LAPACK's getri).
 *   1. inv(U) in place, block column by block column from the left: with
 *      U = [U00 u01; 0 U11] and inv(U00) already in place,
 *          X01 = -inv(U00) U01 inv(U11),
 *      computed per row piece R of the block column as
 *          B_R := triu(X)(R, R) B_R + X(R, R+) B_{R+}    (trmm + gemm, B a
 *                                                           copy of U01)
 *          B_R := -B_R U11^-1                             (trsm)
 *      and then U11 inverted (unblocked).  Row pieces are cut to equal work
 *      (the rows of a triangle).
 *   2. X L = inv(U) solved for X, block column by block column from the
 *      right: X_J = (inv(U)_J - X_{J+} L_{J+,J}) L_JJ^-1.  The rows of X are
 *      independent, so each step is split into row pieces (gemm + trsm);
 *      L's block column is copied to a workspace first, as LAPACK does.
 *   3. The interchanges act on the columns of the inverse; undone in
 *      reverse order, each thread on its own rows.
 *
 * getri_gj_blocked: Gauss-Jordan on [A | I] with partial pivoting, in
 *   place, blocked (Quintana-Orti, Quintana-Orti, Sun, van de Geijn 2001).
 *   Steps K = [k, k+kb): factor the n x kb panel A(:, K) by in-place
 *   Gauss-Jordan with row interchanges (pivot rows chosen among rows >= c),
 *   which leaves in A(:, K) the block column E_K of the accumulated
 *   transformation E = I + (E_K - I_K) e_K^T; then every other column
 *   piece C gets the same interchanges and C := E C:
 *       W = A(K, C);  A(top, C) += E(top, K) W;  A(bot, C) += E(bot, K) W;
 *       A(K, C) = E(K, K) W.
 *   The panel is the same algorithm recursively (leaves of OMP_GJ_LEAF
 *   columns run the scalar sweep), so almost all flops are GEMM; the next
 *   panel is factored by one thread while the others update the rest
 *   (look-ahead, as in the LU).  The row interchanges permute the columns
 *   of the inverse: undone at the end in reverse order.
 *   Accuracy: rows K of C are formed as E(K, K) W, a product with the
 *   accumulated (inverse-like) diagonal block, where the per-pivot sweep
 *   eliminates; on very ill-conditioned A this costs accuracy.  Measured
 *   (cond generator, double, scaled ||I - A X||): at kappa = 1e8 below 4
 *   for n = 33..520, at kappa = 1e12 up to 20-50 (n = 33, 100, 129-131,
 *   200) where the per-pivot sweep and getri give 0.005.  Panels have
 *   balanced widths (below).
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define ABS_(x) ((x) < 0 ? -(x) : (x))
#define GEMM_ AXB_FN(axb_omp_, gemm_)
#define TRSM_ AXB_FN(axb_omp_, trsm_)
#define TRMM_ AXB_FN(axb_omp_, trmm_)
#define TRTI2_ AXB_FN(omp_, inv_trti2)
#define UNSWAP_ AXB_FN(omp_, inv_unswap_cols)
#define GJ_APPLY_ AXB_FN(omp_, gj_apply)
#define GJ_PANEL_ AXB_FN(omp_, gj_panel)
#define IAMAX_ AXB_FN(omp_, inv_iamax)
#define GETRI_START_ AXB_FN(omp_, getri_start)

#include "backend/iamax_t.h"

/* inv(U) of a diagonal block (LAPACK trti2), with the ISA clones. */
#define TRTI2_ATTR AXB_OMP_CLONES
#include "backend/trti2_t.h"
#undef TRTI2_ATTR

/* Undo the column interchanges perm[0..n-1] (0-based targets, applied in
   increasing k) on rows [r0, r1), in decreasing k. */
static void UNSWAP_(int64_t n, T *A, int64_t lda, int64_t r0, int64_t r1,
                    const int64_t *perm, int one_based) {
  for (int64_t k = n - 1; k >= 0; --k) {
    const int64_t p = perm[k] - (one_based ? 1 : 0);
    if (p == k) continue;
    T *x = &AT(A, lda, 0, k), *y = &AT(A, lda, 0, p);
    for (int64_t i = r0; i < r1; ++i) {
      const T t = x[i];
      x[i] = y[i];
      y[i] = t;
    }
  }
}

axb_status AXB_FN(axb_omp_, getri)(axb_handle h, int64_t n, T *A, int64_t lda,
                                   const int64_t *ipiv, int64_t *info) {
  if (!axb_omp_fits_int(n, lda))
    return AXB_FN(axb_ref_, getri)(h, n, A, lda, ipiv, info);
  T *work = NULL;
  axb_status st = GETRI_START_(h, n, A, lda, OMP_GETRI_NB, info, &work);
  if (st) return st;
  const int64_t nb = n < OMP_GETRI_NB ? n : OMP_GETRI_NB;
  int nt = axb_omp_threads(h);
  if (n <= OMP_INV_SMALL) nt = 1;
  const int saved = axb_omp_blas_begin();
  axb_omp_bar bar = {0, 0};
  AXB_OMP(parallel num_threads(nt) if (nt > 1)) {
    int64_t bounds[AXB_OMP_MAX_PARTS + 1];
    int sense = 0;
    /* 1. inv(U), block columns from the left; work holds a copy of U01. */
    for (int64_t j = 0; j < n; j += nb) {
      const int64_t jb = n - j < nb ? n - j : nb;
      if (j > 0) {
        const int parts = axb_omp_split_tri(0, j, 16, 2 * nt, bounds);
        AXB_OMP(for schedule(static) nowait)
        for (int q = 0; q < parts; ++q)
          for (int64_t c = 0; c < jb; ++c)
            for (int64_t i = bounds[q]; i < bounds[q + 1]; ++i)
              AT(work, n, i, c) = AT(A, lda, i, j + c);
        axb_omp_barrier(&bar, &sense);
        AXB_OMP(for schedule(dynamic, 1) nowait)
        for (int q = 0; q < parts; ++q) {
          const int64_t r0 = bounds[q], r1 = bounds[q + 1];
          T *B = &AT(A, lda, r0, j);
          TRMM_(AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, r1 - r0, jb,
                (T)1, &AT(A, lda, r0, r0), lda, B, lda);
          if (r1 < j)
            GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, r1 - r0, jb, j - r1, (T)1,
                  &AT(A, lda, r0, r1), lda, &AT(work, n, r1, 0), n, (T)1, B,
                  lda);
          TRSM_(AXB_RIGHT, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, r1 - r0, jb,
                (T)-1, &AT(A, lda, j, j), lda, B, lda);
        }
        axb_omp_barrier(&bar, &sense);
      }
      AXB_OMP(single nowait)
      TRTI2_(jb, &AT(A, lda, j, j), lda);
      axb_omp_barrier(&bar, &sense);
    }
    /* 2. X L = inv(U), block columns from the right. */
    const int rparts = axb_omp_split(0, n, 16, nt, bounds);
    for (int64_t j = ((n - 1) / nb) * nb; j >= 0; j -= nb) {
      const int64_t jb = n - j < nb ? n - j : nb;
      AXB_OMP(for schedule(static) nowait)
      for (int q = 0; q < rparts; ++q)
        for (int64_t c = j; c < j + jb; ++c)
          for (int64_t i = bounds[q]; i < bounds[q + 1]; ++i) {
            T *w = &AT(work, n, i, c - j);
            if (i > c) {
              *w = AT(A, lda, i, c);
              AT(A, lda, i, c) = 0;
            } else {
              *w = 0;
            }
          }
      axb_omp_barrier(&bar, &sense);
      AXB_OMP(for schedule(static) nowait)
      for (int q = 0; q < rparts; ++q) {
        const int64_t r0 = bounds[q], r1 = bounds[q + 1];
        if (j + jb < n)
          GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, r1 - r0, jb, n - j - jb, (T)-1,
                &AT(A, lda, r0, j + jb), lda, &AT(work, n, j + jb, 0), n, (T)1,
                &AT(A, lda, r0, j), lda);
        TRSM_(AXB_RIGHT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, r1 - r0, jb, (T)1,
              &AT(work, n, j, 0), n, &AT(A, lda, r0, j), lda);
      }
      axb_omp_barrier(&bar, &sense);
    }
    /* 3. inv(A) = inv(U) inv(L) P: undo the interchanges on the columns. */
    AXB_OMP(for schedule(static))
    for (int q = 0; q < rparts; ++q)
      UNSWAP_(n - 1, A, lda, bounds[q], bounds[q + 1], ipiv, 1);
  }
  axb_omp_blas_end(saved);
  axb__free(work);
  return AXB_SUCCESS;
}

/* Apply the Gauss-Jordan steps K = [k, k+kb) (factored panel in A(:, K),
   pivot rows perm[K], 0-based) to the columns [c0, c1), outside K:
   interchanges, then C := E C through the kb x w workspace W. */
static void GJ_APPLY_(int64_t n, T *A, int64_t lda, int64_t k, int64_t kb,
                      const int64_t *perm, int64_t c0, int64_t c1, T *W,
                      int64_t ldw) {
  const int64_t w = c1 - c0;
  if (w <= 0) return;
  for (int64_t j = c0; j < c1; ++j) {
    T *a = &AT(A, lda, 0, j);
    for (int64_t c = k; c < k + kb; ++c) {
      const int64_t p = perm[c];
      const T t = a[c];
      a[c] = a[p];
      a[p] = t;
    }
    for (int64_t c = 0; c < kb; ++c)
      AT(W, ldw, c, j - c0) = a[k + c];
  }
  if (k > 0)
    GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, k, w, kb, (T)1, &AT(A, lda, 0, k), lda, W,
          ldw, (T)1, &AT(A, lda, 0, c0), lda);
  if (k + kb < n)
    GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, n - k - kb, w, kb, (T)1,
          &AT(A, lda, k + kb, k), lda, W, ldw, (T)1, &AT(A, lda, k + kb, c0),
          lda);
  GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, kb, w, kb, (T)1, &AT(A, lda, k, k), lda, W,
        ldw, (T)0, &AT(A, lda, k, c0), lda);
}

/* Factor the Gauss-Jordan panel of columns K = [k, k+kb) of the n x n A
   (only these columns are touched): pivots perm[K] (0-based) among rows
   >= c.  Recursive on column halves; W is kb x kb workspace.  Returns 0 or
   the 1-based global index of the first zero pivot (then stops). */
AXB_OMP_CLONES
static int64_t GJ_PANEL_(int64_t n, T *A, int64_t lda, int64_t k, int64_t kb,
                         int64_t *perm, T *W) {
  if (kb <= OMP_GJ_LEAF) {
    for (int64_t c = k; c < k + kb; ++c) {
      T *ac = &AT(A, lda, 0, c);
      int64_t p = c + IAMAX_(n - c, ac + c);
      if (ac[p] == (T)0) return c + 1;
      perm[c] = p;
      /* Interchange rows c and p in the panel's columns. */
      if (p != c)
        for (int64_t j = k; j < k + kb; ++j) {
          const T t = AT(A, lda, c, j);
          AT(A, lda, c, j) = AT(A, lda, p, j);
          AT(A, lda, p, j) = t;
        }
      /* Sweep on pivot c over the panel's columns: a_cj /= piv, a_ij -=
         a_ic a_cj (i != c); column c becomes -a_ic / piv and 1 / piv. */
      const T r = (T)1 / ac[c];
      for (int64_t j = k; j < k + kb; ++j) {
        if (j == c) continue;
        T *a = &AT(A, lda, 0, j);
        const T f = a[c] * r;
        a[c] = f;
        for (int64_t i = 0; i < c; ++i)
          a[i] -= ac[i] * f;
        for (int64_t i = c + 1; i < n; ++i)
          a[i] -= ac[i] * f;
      }
      for (int64_t i = 0; i < n; ++i)
        ac[i] = -ac[i] * r;
      ac[c] = r;
    }
    return 0;
  }
  const int64_t k1 = kb / 2, k2 = kb - k1;
  int64_t bad = GJ_PANEL_(n, A, lda, k, k1, perm, W);
  if (bad) return bad;
  GJ_APPLY_(n, A, lda, k, k1, perm, k + k1, k + kb, W, k1);
  bad = GJ_PANEL_(n, A, lda, k + k1, k2, perm, W);
  if (bad) return bad;
  GJ_APPLY_(n, A, lda, k + k1, k2, perm, k, k + k1, W, k2);
  return 0;
}

#ifndef OMP_GJ_START_DEFINED
#define OMP_GJ_START_DEFINED
/* First column of step s of `steps` balanced steps over n columns (s may
   be past the last step: n).  Balanced widths (they differ by at most one)
   rather than nb, nb, ..., rest: a narrow last panel after wide ones made
   the blocked inverse lose accuracy on ill-conditioned matrices (residual
   ||I - A X|| up to 1e5 times the unblocked sweep's at n = 129..131,
   kappa = 1e12; balanced widths bring it back to the unblocked level). */
static inline int64_t omp_gj_start(int64_t n, int64_t steps, int64_t s) {
  return s >= steps ? n : (int64_t)((double)n * (double)s / (double)steps);
}
#endif
#define GJ_START_(n, steps, s) omp_gj_start(n, steps, s)

axb_status AXB_FN(axb_omp_, getri_gj_blocked)(axb_handle h, int64_t n, T *A,
                                              int64_t lda, int64_t *info) {
  if (!axb_omp_fits_int(n, lda))
    return AXB_FN(axb_ref_, getri_gj)(h, n, A, lda, info);
  if (info) *info = 0;
  const int64_t nb = n < OMP_GJ_NB ? n : OMP_GJ_NB;
  int64_t *perm = axb__malloc(n, sizeof(int64_t));
  T *W = axb__malloc(nb * (n + nb), sizeof(T));
  if (!perm || !W) {
    axb__free(perm);
    axb__free(W);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "getri_gj: cannot allocate workspace for n = %lld",
                     (long long)n);
  }
  int nt = axb_omp_threads(h);
  if (n <= OMP_INV_SMALL) nt = 1;
  const int saved = axb_omp_blas_begin();
  const int64_t nsteps = (n + nb - 1) / nb;
  /* W: columns [0, n) for the pieces, n.. for the panel's recursion. */
  T *Wp = &AT(W, nb, 0, n);
  int64_t bad = GJ_PANEL_(n, A, lda, 0, GJ_START_(n, nsteps, 1), perm, Wp);
  int64_t stop_step = bad ? 0 : nsteps;
  axb_omp_bar bar = {0, 0};
  AXB_OMP(parallel num_threads(nt) if (nt > 1 && stop_step > 0)) {
    int64_t bounds[2 * AXB_OMP_MAX_PARTS + 2];
    int sense = 0;
    for (int64_t s = 0; s < nsteps; ++s) {
      int64_t stop;
      AXB_OMP(atomic read)
      stop = stop_step;
      if (stop <= s) break;
      const int64_t k = GJ_START_(n, nsteps, s);
      const int64_t k1 = GJ_START_(n, nsteps, s + 1), kb = k1 - k;
      const int64_t kb1 = GJ_START_(n, nsteps, s + 2) - k1;
      /* Pieces: columns [0, k) and [k1 + kb1, n). */
      int parts = axb_omp_split(0, k, 16, 2 * nt, bounds);
      parts += axb_omp_split(k1 + kb1, n, 16, 2 * nt, bounds + parts);
      AXB_OMP(single nowait)
      if (kb1 > 0) {
        GJ_APPLY_(n, A, lda, k, kb, perm, k1, k1 + kb1, &AT(W, nb, 0, k1), kb);
        const int64_t pb = GJ_PANEL_(n, A, lda, k1, kb1, perm, Wp);
        if (pb) {
          bad = pb;
          AXB_OMP(atomic write)
          stop_step = s + 1;
        }
      }
      AXB_OMP(for schedule(dynamic, 1) nowait)
      for (int q = 0; q < parts; ++q) {
        /* bounds holds [0, k) pieces, then [k1 + kb1, n) pieces; a piece
           ends at the next start or at the end of its range. */
        const int64_t c0 = bounds[q];
        int64_t c1 = bounds[q + 1];
        if (c0 < k && c1 > k) c1 = k;
        GJ_APPLY_(n, A, lda, k, kb, perm, c0, c1, &AT(W, nb, 0, c0), kb);
      }
      axb_omp_barrier(&bar, &sense); /* panel s+1 and step s done */
    }
  }
  if (!bad) {
    int64_t rb[AXB_OMP_MAX_PARTS + 1];
    const int rparts = axb_omp_split(0, n, 16, nt, rb);
    AXB_OMP(parallel for num_threads(nt) schedule(static) if (nt > 1))
    for (int q = 0; q < rparts; ++q)
      UNSWAP_(n, A, lda, rb[q], rb[q + 1], perm, 0);
  }
  axb_omp_blas_end(saved);
  axb__free(W);
  axb__free(perm);
  return axb__zero_pivot_column(h, info, bad, "getri_gj");
}

#undef AT
#undef ABS_
#undef GEMM_
#undef TRSM_
#undef TRMM_
#undef TRTI2_
#undef UNSWAP_
#undef GJ_APPLY_
#undef GJ_PANEL_
#undef IAMAX_
#undef GETRI_START_
