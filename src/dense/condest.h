/* Block 1-norm estimator of an operator known only by its action. */
#ifndef AXB_CONDEST_H
#define AXB_CONDEST_H

#include "axb.h"

/* Columns of the estimator's blocks: each step is then one triangular
   solve with AXB_CONDEST_T right-hand sides (a small TRSM that the CPU
   backend shares among its threads by rows) instead of AXB_CONDEST_T
   single-vector solves. */
#define AXB_CONDEST_T 2

/* X := B X (transpose = 0) or B^T X (transpose = 1), in place; X is n x t,
   column-major with leading dimension n. */
typedef axb_status (*axb_apply_fn)(void *ctx, int transpose, double *X,
                                   int64_t t);

/*
 * Estimate ||B||_1 with the block algorithm of Higham and Tisseur ("A
 * block algorithm for matrix 1-norm estimation, with an application to
 * 1-norm pseudospectra", SIAM J. Matrix Anal. Appl. 21, 2000; Algorithm
 * 2.4, which generalises Hager's and Higham's xLACN2 of LAPACK from one
 * vector to t), with t = min(AXB_CONDEST_T, n) columns and at most 5
 * forward products.  swap = 1 estimates ||B^T||_1 = ||B||_inf instead.
 * Every column x the estimator tries has ||x||_1 = 1, so the estimate
 * ||B x||_1 is a lower bound of ||B||_1; the first block also holds
 * xLACN2's alternating vector x_i = (-1)^i (1 + i/(n-1)) / (1.5 n), which
 * guards against the gradient iteration's rare underestimates as it does
 * in LAPACK.  n <= t is exact (B times the identity).  Returns
 * AXB_ERR_OUT_OF_MEMORY when its O(n t) workspace cannot be allocated, or
 * the status of a failed product.
 */
axb_status axb__norm1_estimate(int64_t n, axb_apply_fn apply, void *ctx,
                               int swap, double *est);

/* The same with the first product Y1 = B X1 (n x AXB_CONDEST_T, ld n)
   already formed by the caller from X1 = axb__norm1_first_block, or from
   any block of unit 1-norm columns (a row permutation of X1: the driver
   solves with X1 beside B, P applied to both); y1 NULL: as above.  For
   n > AXB_CONDEST_T only (below it the estimate is exact and y1 unused). */
axb_status axb__norm1_estimate_y1(int64_t n, axb_apply_fn apply, void *ctx,
                                  int swap, const double *y1, double *est);
/* X1 (n x AXB_CONDEST_T, ld n, n > AXB_CONDEST_T): the estimator's first
   block, the columns 1/n and (-1)^i (1 + i/(n-1)) / (1.5 n) (and fixed-seed
   random +-1/n beyond two). */
void axb__norm1_first_block(int64_t n, double *X);

#endif
