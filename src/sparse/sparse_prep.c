/*
 * Preprocessing of the Krylov path (issue 23): a matrix with zero or
 * missing diagonal entries (chemical process, circuit, KKT matrices) has
 * its rows permuted by a maximum-product matching (sparse_match.c) so
 * that ILU(0) finds a nonzero pivot, as large as a permutation can make
 * it, in every row.  A row permutation P changes neither the
 * solution (P A x = P b) nor the 2-norm of any residual, so the Krylov
 * method's tolerance and the certificate mean what they meant.
 */
#include "sparse/sparse_prep.h"

#include "sparse/sparse_host.h"
#include "sparse/sparse_mem.h"

#include <math.h>
#include <string.h>

int axb__prep_diag_defect(const axb_csr *A) {
  int64_t bad = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    int64_t k = axb__csr_find(A->rowptr, A->colind, i, i);
    double d = 0;
    if (k >= 0)
      d = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                              : ((const float *)A->values)[k];
    if (d == 0) ++bad;
  }
  return bad > 0;
}

int axb__prep_ilu0_fails(const axb_csr *A) {
  axb_spf_pattern_owned pat;
  int64_t info = 0;
  if (axb__spf_pattern_build_some(A, AXB_SPF_LU, 0, &pat, &info))
    return 1; /* a missing diagonal entry (or no memory: do not permute) */
  void *f = axb__malloc(A->nnz > 0 ? A->nnz : 1, axb_dtype_size(A->dtype));
  axb_status st = AXB_SUCCESS;
  if (f && A->dtype == AXB_F64)
    st = axb__spf_ilu0_d(&pat.p, (const double *)A->values, f, &info);
  else if (f)
    st = axb__spf_ilu0_s(&pat.p, (const float *)A->values, f, &info);
  axb__free(f);
  axb__spf_pattern_free(&pat);
  return f && st > 0;
}

/* B := the rows of A in the order perm (new row k = old row perm[k]), a
   new CSR of A's dtype. */
static axb_status permute_rows(axb_handle h, const axb_csr *A,
                               const int64_t *perm, axb_csr *B) {
  axb_status st = axb_csr_create(B, A->rows, A->cols, A->nnz, A->dtype);
  if (st) return axb__fail(h, st, "no memory for the row-permuted copy of A");
  size_t es = axb_dtype_size(A->dtype);
  int64_t q = 0;
  B->rowptr[0] = 0;
  for (int64_t k = 0; k < A->rows; ++k) {
    int64_t i = perm[k], k0 = A->rowptr[i], len = A->rowptr[i + 1] - k0;
    memcpy(B->colind + q, A->colind + k0, (size_t)len * sizeof(int64_t));
    memcpy((char *)B->values + (size_t)q * es,
           (const char *)A->values + (size_t)k0 * es, (size_t)len * es);
    q += len;
    B->rowptr[k + 1] = q;
  }
  return AXB_SUCCESS;
}

/* Y := the rows of X in the order perm (a new host dense matrix). */
static axb_status permute_dense(axb_handle h, const axb_dense *X,
                                const int64_t *perm, axb_dense *Y) {
  axb_status st = axb_dense_create(Y, X->rows, X->cols, X->dtype);
  if (st) return axb__fail(h, st, "no memory for the permuted B");
  size_t es = axb_dtype_size(X->dtype);
  for (int64_t j = 0; j < X->cols; ++j)
    for (int64_t k = 0; k < X->rows; ++k)
      memcpy((char *)Y->data + ((size_t)(j * Y->ld + k)) * es,
             (const char *)X->data + ((size_t)(j * X->ld + perm[k])) * es, es);
  return AXB_SUCCESS;
}

axb_status axb__prep_matching(axb_handle h, const axb_csr *A,
                              const axb_dense *B, double reserved, axb_csr *Ap,
                              axb_dense *Bp, int64_t *matched) {
  memset(Ap, 0, sizeof *Ap);
  memset(Bp, 0, sizeof *Bp);
  int64_t n = A->rows, nn = n > 0 ? n : 1;
  /* the matching's work (costs: nnz doubles; 5 n doubles, 9 n indices
     with perm) and the copies of A (values, column indices) and B */
  double need = (double)A->nnz * (16 + (double)axb_dtype_size(A->dtype)) +
                (double)n * (double)B->cols * (double)axb_dtype_size(B->dtype) +
                16.0 * (double)n * 8 + reserved;
  axb_status st =
      axb__sparse_reserve(h, need, "weighted matching", A->rows, A->nnz);
  if (st) return st;
  int64_t *perm = axb__malloc(nn, sizeof(int64_t));
  double *dr = axb__malloc(2 * nn, sizeof(double));
  if (!perm || !dr)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for a matching");
  if (!st) st = axb__prep_mc64(h, A, perm, dr, dr + nn, matched);
  if (!st) st = permute_rows(h, A, perm, Ap);
  if (!st) st = permute_dense(h, B, perm, Bp);
  axb__free(perm);
  axb__free(dr);
  if (st) {
    axb_csr_destroy(Ap);
    axb_dense_destroy(Bp);
  }
  return st;
}
