/*
 * Helpers shared by the sparse tests (test_sparse.c and its groups in
 * tests/sparse/, test_sparse_direct.c, test_sparse_match.c): CSR operands
 * built by hand, the
 * right-hand side b = A x_true, and the tests' own relative residual
 * ||b - A x||_2 / ||b||_2, computed from the CSR in long double so that it
 * judges the library independently of its own SpMV.  Static inline: each
 * program uses only some of them.
 */
#ifndef AXB_SPARSE_TESTING_H
#define AXB_SPARSE_TESTING_H

#include "testing.h"

#include <stdlib.h>

/* Entry k of A's values, as double. */
static inline double csr_val(const axb_csr *A, int64_t k) {
  return A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                             : ((const float *)A->values)[k];
}

/* An n x n CSR from dense row-major values (exact zeros dropped). */
static inline axb_csr csr_rows(int64_t n, const double *a, axb_dtype t) {
  int64_t nnz = 0;
  for (int64_t k = 0; k < n * n; ++k)
    nnz += a[k] != 0;
  axb_csr A;
  if (axb_csr_create(&A, n, n, nnz, t)) exit(1);
  int64_t k = 0;
  A.rowptr[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j)
      if (a[i * n + j] != 0) {
        A.colind[k] = j;
        if (t == AXB_F64)
          ((double *)A.values)[k] = a[i * n + j];
        else
          ((float *)A.values)[k] = (float)a[i * n + j];
        ++k;
      }
    A.rowptr[i + 1] = k;
  }
  return A;
}

/* Xt(i, j) = xtrue(i, j) (n x nrhs, A's dtype) and B = A Xt, the products
   summed in double; both allocated here. */
static inline void csr_make_rhs(const axb_csr *A, int64_t nrhs, axb_dense *Xt,
                                axb_dense *B,
                                double (*xtrue)(int64_t i, int64_t j)) {
  if (axb_dense_create(Xt, A->rows, nrhs, A->dtype) ||
      axb_dense_create(B, A->rows, nrhs, A->dtype))
    exit(1);
  for (int64_t j = 0; j < nrhs; ++j) {
    for (int64_t i = 0; i < A->rows; ++i)
      axb_dense_set(Xt, i, j, xtrue(i, j));
    for (int64_t i = 0; i < A->rows; ++i) {
      double s = 0;
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
        s += csr_val(A, k) * axb_dense_get(Xt, A->colind[k], j);
      axb_dense_set(B, i, j, s);
    }
  }
}

/* The worst column's ||b - A x||_2 / ||b||_2 in long double (||b - A x||_2
   itself for a zero column b). */
static inline double csr_rel_residual(const axb_csr *A, const axb_dense *X,
                                      const axb_dense *B) {
  double worst = 0;
  for (int64_t j = 0; j < B->cols; ++j) {
    long double rr = 0, bb = 0;
    for (int64_t i = 0; i < A->rows; ++i) {
      long double s = axb_dense_get(B, i, j);
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
        s -= (long double)csr_val(A, k) * axb_dense_get(X, A->colind[k], j);
      rr += s * s;
      bb += (long double)axb_dense_get(B, i, j) * axb_dense_get(B, i, j);
    }
    double r = (double)sqrtl(rr / (bb > 0 ? bb : 1));
    if (!(r <= worst)) worst = r;
  }
  return worst;
}

#endif /* AXB_SPARSE_TESTING_H */
