/*
 * The argument checks of the dense driver (solve_args.c), shared by
 * axb_solve and axb_invert (solve.c).  `what` names the operand in the
 * message ("A", "B", "X").
 */
#ifndef AXB_DENSE_SOLVE_ARGS_H
#define AXB_DENSE_SOLVE_ARGS_H

#include "core/internal.h"

/* AXB_ERR_INVALID when ld x cols entries of A overflow a byte count. */
axb_status axb__solve_extent_ok(axb_handle h, const axb_dense *A,
                                const char *what);
/* A square, non-empty host matrix of a known dtype with ld >= rows. */
axb_status axb__solve_square(axb_handle h, const axb_dense *A,
                             const char *what);
/* Every entry of A finite; else the first NaN or Inf, 1-based. */
axb_status axb__solve_finite(axb_handle h, const axb_dense *A,
                             const char *what);
/* axb__solve_square(A) and B a host n x nrhs (nrhs >= 1) matrix of A's
   dtype. */
axb_status axb__solve_shapes(axb_handle h, const axb_dense *A,
                             const axb_dense *B);

#endif
