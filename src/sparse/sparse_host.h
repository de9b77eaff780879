/*
 * Host-side helpers of the sparse solvers, shared by every backend: the
 * pattern description of an incomplete factor (diagonal positions, CSC
 * view, transposed positions, level sets), the exact sequential ILU(0) and
 * IC(0), the ParILU/ParIC initial guess, and structural questions about a
 * CSR matrix (an entry's position, symmetry, positive diagonal).
 */
#ifndef AXB_SPARSE_HOST_H
#define AXB_SPARSE_HOST_H

#include "sparse/sparse_ops.h"

/* An axb_spf_pattern that owns its arrays. */
typedef struct axb_spf_pattern_owned {
  axb_spf_pattern p; /* points into the arrays below */
  int64_t *diag, *colptr, *csrrow, *cscpos, *tpos;
  int64_t *lo_ptr, *lo_rows, *up_ptr, *up_rows;
} axb_spf_pattern_owned;

/* Parts of the pattern beyond the diagonal positions (and, for
   AXB_SPF_IC, the transposed positions), built only when asked for: the
   set-up of a preconditioner builds what its solves will read. */
enum {
  AXB_SPF_NEED_CSC = 1,    /* colptr, csrrow, cscpos: ParILU sweeps       */
  AXB_SPF_NEED_LEVELS = 2, /* lo_*, up_*: level-scheduled exact solves    */
  AXB_SPF_NEED_ALL = 3
};

/* Build the pattern of a factor of kind `kind` on A's pattern (A square,
   validated) with the parts in `need` (the others NULL, nlev 0).  A row
   without a stored diagonal entry: AXB_ERR_SMALL_PIVOT, *info = row
   (1-based).  AXB_SPF_IC on a pattern that is not symmetric:
   AXB_ERR_INVALID.  Out of memory: AXB_ERR_OUT_OF_MEMORY.  On failure
   nothing is left allocated.  axb__spf_pattern_build builds every part. */
axb_status axb__spf_pattern_build_some(const axb_csr *A, axb_spf_kind kind,
                                       int need, axb_spf_pattern_owned *P,
                                       int64_t *info);
axb_status axb__spf_pattern_build(const axb_csr *A, axb_spf_kind kind,
                                  axb_spf_pattern_owned *P, int64_t *info);
void axb__spf_pattern_free(axb_spf_pattern_owned *P);

/* Level sets of the lower (upper = 0) or upper (upper = 1) triangle of a
   square CSR pattern: level(i) = 1 + max level(j) over the stored j < i
   (j > i for upper), 0 without such j.  ptr: nlev + 1 entries (allocated
   with n + 1), rows: n. */
axb_status axb__spf_levels(int64_t n, const int64_t *rowptr,
                           const int64_t *colind, int upper, int64_t **ptr,
                           int64_t **rows, int64_t *nlev);

/* First k in [lo, hi) with a[k] >= key, or hi (binary search: a is sorted
   ascending on [lo, hi)). */
int64_t axb__lower_bound(const int64_t *a, int64_t lo, int64_t hi, int64_t key);

/* Position of column c in row i of (rowptr, colind), or -1 (binary search:
   columns are sorted within rows). */
int64_t axb__csr_find(const int64_t *rowptr, const int64_t *colind, int64_t i,
                      int64_t c);

/* 1 when A (square) equals its transpose: pattern and values (values
   compared exactly; `values` may be NULL to compare the pattern only). */
int axb__csr_is_symmetric(const axb_csr *A, int values);
/* The same answer on `threads` OpenMP threads (large A only): a binary
   search for the mirror of each entry above the diagonal, rows in
   parallel, and as many entries below as above (the mirrors of the upper
   entries are distinct, so they are then all of the lower ones). */
int axb__csr_is_symmetric_par(const axb_csr *A, int values, int threads);
/* axb__csr_is_symmetric(A, 1) remembered in *known (-1: not yet asked,
   else the answer): the test reads every entry and searches its mirror, so
   one solve computes it at most once however many choices ask for it
   (AUTO method, AUTO preconditioner, the IC(0)/ParIC check). */
int axb__csr_symmetric_once(const axb_csr *A, int *known);
/* 1 when every diagonal entry is stored and > 0. */
int axb__csr_positive_diag(const axb_csr *A);
/* The share of A's off-diagonal entries (i, j) whose mirror (j, i) is
   stored too (1 for an empty off-diagonal part): amd.h's AMD_SYMMETRY. */
double axb__csr_pattern_symmetry(const axb_csr *A);
/* An upper bound on the flops of LU without pivoting in A's own order when
   the pattern is taken as A + A^T's: fill stays inside the envelope, so
   column k of L (and row k of U) spans at most w_k = k - f_k entries below
   (right of) the diagonal, f_k the first row or column of A + A^T met in
   column (row) k, and step k costs at most w_k divisions and w_k^2
   multiply-adds (2 w_k^2 + w_k flops).  O(nnz) with one n-array; -1 when
   that array cannot be had. */
double axb__csr_envelope_flops(const axb_csr *A);

/* Exact incomplete factorisations, sequential, in double arithmetic on the
   host (the values are rounded to T at the end), with F's layout of
   sparse_ops.h.  a: A's values (nnz), f: the factor (nnz).
   ILU(0), IKJ variant: for i, for stored k < i: f_ik /= f_kk, then
   f_ij -= f_ik f_kj for stored j > k in both rows.  A zero or non-finite
   pivot: AXB_ERR_SMALL_PIVOT, *info = row (1-based).
   IC(0): left-looking over the lower triangle; a pivot <= 0 or non-finite:
   AXB_ERR_NOT_SPD, *info = row.  The upper part mirrors L. */
axb_status axb__spf_ilu0_d(const axb_spf_pattern *P, const double *a, double *f,
                           int64_t *info);
axb_status axb__spf_ilu0_s(const axb_spf_pattern *P, const float *a, float *f,
                           int64_t *info);
axb_status axb__spf_ic0_d(const axb_spf_pattern *P, const double *a, double *f,
                          int64_t *info);
axb_status axb__spf_ic0_s(const axb_spf_pattern *P, const float *a, float *f,
                          int64_t *info);

/* Initial guess of the fixed-point sweeps (Chow-Patel): for AXB_SPF_LU
   l_ij = a_ij / a_jj (i > j), u_ij = a_ij (i <= j); for AXB_SPF_IC
   l_ij = a_ij / sqrt(a_jj), l_ii = sqrt(a_ii), mirrored.  A zero,
   non-finite (or, for IC, non-positive) diagonal: AXB_ERR_SMALL_PIVOT
   (AXB_ERR_NOT_SPD), *info = row. */
axb_status axb__spf_init_d(const axb_spf_pattern *P, const double *a, double *f,
                           int64_t *info);
axb_status axb__spf_init_s(const axb_spf_pattern *P, const float *a, float *f,
                           int64_t *info);

/* ILUT(p, tau) of A (square, validated; values read as double) into F, a
   new double CSR in the factor layout (L strictly below the diagonal with
   a unit diagonal implied, U on and above it, every diagonal entry
   stored): multipliers and entries below tau ||a_i||_2 dropped, at most
   the row's count in A + p entries kept in each of L's and U's parts, a
   zero pivot replaced by tau ||a_i||_2 (counted in *boosted).
   AXB_ERR_SMALL_PIVOT (*info = row) for an empty row or a non-finite
   entry; AXB_ERR_OUT_OF_MEMORY (checked first against the available
   memory).  F is freed with axb_csr_destroy (nothing left on failure). */
axb_status axb__spf_ilut(const axb_csr *A, int p, double tau, axb_csr *F,
                         int64_t *boosted, int64_t *info);

#endif
