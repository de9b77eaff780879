/*
 * Preprocessing of the sparse Krylov path (issue 23; sparse_prep.c): the
 * test for zero diagonal entries and the row permutation of A and B by
 * a maximum-product matching (sparse_match.c).
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

/* The maximum-product matching of A (sparse_match.c; MC64 job 5's idea,
   by shortest augmenting paths): perm (n): new row k = old row perm[k],
   so that D_r P A D_c has its entries of modulus <= 1 and a diagonal of
   modulus 1, with dr (n, indexed by A's rows) and dc (n) positive.  A
   structurally singular A (or a zero row): AXB_ERR_SINGULAR, nothing
   set.  *matched: n on success. */
axb_status axb__prep_mc64(axb_handle h, const axb_csr *A, int64_t *perm,
                          double *dr, double *dc, int64_t *matched);

/* Ap := P A and Bp := P B (new arrays, freed by the caller with
   axb_csr_destroy / axb_dense_destroy) for P the row permutation of the
   maximum-product matching (axb__prep_mc64; its scaling is not applied:
   on the Krylov path it cost the certificate, docs/notes/sparse-direct.md);
   *matched: n.  The memory (these copies and `reserved` more bytes: the
   solve that runs on them) is checked first.  AXB_ERR_SINGULAR when A is
   structurally singular.  On failure nothing is left allocated. */
axb_status axb__prep_matching(axb_handle h, const axb_csr *A,
                              const axb_dense *B, double reserved, axb_csr *Ap,
                              axb_dense *Bp, int64_t *matched);

#endif
