/*
 * Internal helpers of the mixed-precision driver (mixed.c) shared with the
 * host session (mixed_host.c): the rounding of a double to a factor
 * precision's format (the scales are in backend/mixed_scale.h, which the
 * CUDA session uses too).
 */
#ifndef AXB_DENSE_MIXED_H
#define AXB_DENSE_MIXED_H

#include "axb.h"
#include "backend/mixed_scale.h"

/* v rounded to nearest (ties to even) in p's format: FP32, TF32 (11
   significant bits, FP32's range), BF16 (8 bits, FP32's range), FP16 (11
   bits, largest 65504, subnormals down to 2^-24; beyond: +-Inf); FP64 and
   AUTO: v. */
double axb__mixed_round(double v, axb_factor_precision p);
/* The largest finite value of p's storage format. */
double axb__mixed_format_max(axb_factor_precision p);

/* axb_solve's lu-mixed and cholesky-mixed (solve_mixed.c): A and B checked
   (finite, square, symmetric for Cholesky) by the caller; r initialised. */
axb_status axb__solve_mixed(axb_handle h, const axb_dense *A, axb_dense *B,
                            const axb_solve_opts *o, axb_report *r,
                            double t_start);

#endif
