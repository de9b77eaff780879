/* Hager/Higham 1-norm estimator of an operator known only by its action. */
#ifndef AXB_CONDEST_H
#define AXB_CONDEST_H

#include "axb.h"

/* x := B x (transpose = 0) or B^T x (transpose = 1), in place. */
typedef axb_status (*axb_apply_fn)(void *ctx, int transpose, double *x);

/*
 * Estimate ||B||_1 (Higham, "FORTRAN codes for estimating the one-norm of a
 * real or complex matrix", TOMS 14, 1988 — the algorithm of LAPACK's
 * xLACN2).  swap = 1 estimates ||B^T||_1 = ||B||_inf instead.  x, v: n
 * doubles; isgn: n int64 of workspace.  The estimate is a lower bound,
 * almost always within a factor 3 of the true norm.
 */
axb_status axb__norm1_estimate(int64_t n, axb_apply_fn apply, void *ctx,
                               int swap, double *x, double *v, int64_t *isgn,
                               double *est);

#endif
