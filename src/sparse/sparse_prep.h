/*
 * Preprocessing of the sparse Krylov path (issue 23; sparse_prep.c): the
 * test for zero diagonal entries and the maximum-transversal row
 * permutation of A and B.
 */
#ifndef AXB_SPARSE_PREP_H
#define AXB_SPARSE_PREP_H

#include "core/internal.h"

/* 1 when some diagonal entry of the square CSR A is missing or zero. */
int axb__prep_diag_defect(const axb_csr *A);

/* 1 when ILU(0) of A (square CSR) meets a zero or non-finite pivot, or A
   lacks a diagonal entry: the case the row permutation is for.  0 when it
   succeeds (or there is no memory to try: then nothing is permuted). */
int axb__prep_ilu0_fails(const axb_csr *A);

/* Ap := P A and Bp := P B (new arrays, freed by the caller with
   axb_csr_destroy / axb_dense_destroy) for P the maximum-transversal row
   permutation of A (axb__prep_maxtrans); *matched: the nonzero diagonal
   entries of P A.  The memory is checked first: these copies and
   `reserved` more bytes (the solve that will run on them).
   AXB_ERR_NOT_SUPPORTED without SuiteSparse; AXB_ERR_OUT_OF_MEMORY.  On failure
   nothing is left allocated. */
axb_status axb__prep_transversal(axb_handle h, const axb_csr *A,
                                 const axb_dense *B, double reserved,
                                 axb_csr *Ap, axb_dense *Bp, int64_t *matched);

#endif
