/*
 * Reference iterative (fixed-point) Crout LU in T (template, see
 * core/template.h): the sequential form of the GPU algorithm of SEEDS.md 1,
 * the oracle the CUDA kernels are tested against.
 *
 * The fixed point Z = F(Z) of Crout's formulas (A the original matrix):
 *   i >= j:  z_ij = a_ij - sum_{k<j} z_ik z_kj            (L, with diagonal)
 *   i <  j:  z_ij = (a_ij - sum_{k<i} z_ik z_kj) / z_ii   (U, unit diagonal)
 * is Crout's factor.  Z starts as A; a sweep over a section computes every
 * entry of the section from the previous sweep's Z (Jacobi: the new values
 * go to a scratch W, then W replaces the section), until the largest change
 * is <= tol.  Sections are visited in the document's order: diagonal (k,k),
 * then (k,j) and (j,k) for j > k; each is iterated only once every section
 * it reads has converged, which is the same for any valid schedule, so the
 * pairs and the dependency-driven scheduler give the same Z and sweeps.
 *
 * A transient |z_ii| <= tiny (n eps max|A|) while section (k,k) iterates
 * leaves the numerator undivided; the converged diagonal is then checked
 * and a tiny pivot reported (AXB_ERR_SMALL_PIVOT, info = column), so no
 * division by it ever happens and the U sections right of it never run.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define FP_TINY_ AXB_FN(ref_, fp_tiny)
#define FP_SWEEP_ AXB_FN(ref_, fp_sweep)
#define FP_SECTION_ AXB_FN(ref_, fp_section)

#define TINY_ FP_TINY_
#include "backend/ref/ref_tiny_t.h"
#undef TINY_

/* One Jacobi sweep over rows [r0, r0+m) x columns [c0, c0+q): new values
   into W (ld m), then copied into Z; returns max |new - old| (inf when a
   value is NaN, so that it never counts as converged). */
static double FP_SWEEP_(const T *A0, int64_t n, T *Z, int64_t ldz, int64_t r0,
                        int64_t m, int64_t c0, int64_t q, double tiny, T *W) {
  double change = 0;
  for (int64_t jj = 0; jj < q; ++jj)
    for (int64_t ii = 0; ii < m; ++ii) {
      const int64_t i = r0 + ii, j = c0 + jj;
      const int64_t kmax = i < j ? i : j;
      T s = AT(A0, n, i, j);
      for (int64_t k = 0; k < kmax; ++k)
        s -= AT(Z, ldz, i, k) * AT(Z, ldz, k, j);
      if (i < j) {
        const T d = AT(Z, ldz, i, i);
        if (fabs((double)d) > tiny) s /= d;
      }
      const double dz = fabs((double)s - (double)AT(Z, ldz, i, j));
      change = dz > change ? dz : (dz == dz ? change : INFINITY);
      W[ii + jj * m] = s;
    }
  for (int64_t jj = 0; jj < q; ++jj)
    for (int64_t ii = 0; ii < m; ++ii)
      AT(Z, ldz, r0 + ii, c0 + jj) = W[ii + jj * m];
  return change;
}

/* Iterate section (I, J) to convergence; AXB_ERR_NO_CONVERGENCE at the
   cap. */
static axb_status FP_SECTION_(axb_handle h, const T *A0, int64_t n, T *Z,
                              int64_t ldz, int64_t I, int64_t J,
                              const axb_fixedpoint_opts *o,
                              axb_fixedpoint_stats *st, double tiny, T *W) {
  const int64_t s = o->section;
  const int64_t r0 = I * s, c0 = J * s;
  const int64_t m = n - r0 < s ? n - r0 : s, q = n - c0 < s ? n - c0 : s;
  int64_t sweeps = 0;
  double change;
  do {
    change = FP_SWEEP_(A0, n, Z, ldz, r0, m, c0, q, tiny, W);
    ++sweeps;
  } while (!(change <= o->tol) && sweeps < o->max_sweeps);
  st->sweeps += sweeps;
  st->sections += 1;
  if (sweeps > st->max_section_sweeps) st->max_section_sweeps = sweeps;
  if (st->section_sweeps) st->section_sweeps[I * st->nsec + J] = sweeps;
  st->last_change = change;
  if (!(change <= o->tol))
    return axb__fail(h, AXB_ERR_NO_CONVERGENCE,
                     "getrf_fixedpoint: section (%lld,%lld) still changed by "
                     "%g after %lld sweeps (cap)",
                     (long long)I, (long long)J, change, (long long)sweeps);
  return AXB_SUCCESS;
}

axb_status AXB_FN(axb_ref_,
                  getrf_fixedpoint)(axb_handle h, int64_t n, T *A, int64_t lda,
                                    const axb_fixedpoint_opts *o,
                                    axb_fixedpoint_stats *st, int64_t *info) {
  *info = 0;
  const int64_t s = o->section, ns = (n + s - 1) / s;
  T *A0 = axb__malloc(n * n, sizeof(T));
  T *W = axb__malloc(s * s, sizeof(T));
  axb_status rc = AXB_SUCCESS;
  if (!A0 || !W) {
    rc = axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "getrf_fixedpoint: no memory");
    goto done;
  }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      A0[i + j * n] = AT(A, lda, i, j);
  const double tiny = FP_TINY_(n, A, lda);
  for (int64_t k = 0; k < ns && !rc; ++k) {
    rc = FP_SECTION_(h, A0, n, A, lda, k, k, o, st, tiny, W);
    for (int64_t i = k * s; i < n && i < (k + 1) * s && !rc; ++i) {
      const double d = (double)AT(A, lda, i, i);
      if (!(fabs(d) > tiny)) {
        *info = i + 1;
        rc = axb__fail(h, AXB_ERR_SMALL_PIVOT,
                       "getrf_fixedpoint: converged pivot %g in column %lld "
                       "is not above n*eps*max|A| = %g (no pivoting)",
                       d, (long long)(i + 1), tiny);
      }
    }
    for (int64_t j = k + 1; j < ns && !rc; ++j) {
      rc = FP_SECTION_(h, A0, n, A, lda, k, j, o, st, tiny, W);
      if (!rc) rc = FP_SECTION_(h, A0, n, A, lda, j, k, o, st, tiny, W);
    }
  }
done:
  axb__free(A0);
  axb__free(W);
  return rc;
}

/* The column-Cholesky kernels' options only shape GPU launches: on the CPU
   the factor is potrf_crout's. */
axb_status AXB_FN(axb_ref_, potrf_columns)(axb_handle h, int64_t n, T *A,
                                           int64_t lda,
                                           const axb_potrf_columns_opts *o,
                                           int64_t *info) {
  (void)o;
  return AXB_FN(axb_ref_, potrf_crout)(h, n, A, lda, info);
}

/* Row-cyclic elimination's options shape GPU launches only: on the CPU it
   is gesv_gauss, with or without pivoting. */
axb_status AXB_FN(axb_ref_,
                  gesv_rowcyclic)(axb_handle h, int64_t n, int64_t nrhs, T *A,
                                  int64_t lda, T *B, int64_t ldb,
                                  const axb_rowcyclic_opts *o, int64_t *info) {
  return AXB_FN(axb_ref_, gesv_gauss)(h, n, nrhs, A, lda, B, ldb, o->pivot,
                                      info);
}

#undef AT
#undef FP_TINY_
#undef FP_SWEEP_
#undef FP_SECTION_
