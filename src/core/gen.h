/* Shared by gen.c (API, parsing, sizes) and gen_kinds.c (the matrices). */
#ifndef AXB_GEN_H
#define AXB_GEN_H

#include "core/internal.h"

/* Write the n x n matrix of spec (n = axb_gen_order(spec)) into a: double,
   column-major, ld = n, zero-filled on entry.  spec is valid, with kappa
   and col resolved.  Returns AXB_SUCCESS, or AXB_ERR_OUT_OF_MEMORY when a
   workspace cannot be allocated. */
axb_status axb__gen_fill(const axb_gen_spec *spec, int64_t n, double *a);

/* Row i of the Poisson matrix (dim 2: 5-point, dim 3: 7-point) on a grid of
   edge g: column indices ascending into col, values into val; returns the
   count (at most 7). */
int axb__gen_poisson_row(int dim, int64_t g, int64_t i, int64_t col[7],
                         double val[7]);
/* Row i of the 3-D convection-diffusion matrix (AXB_GEN_CONVDIFF3D) with
   cell Peclet number pe: Poisson 3-D's pattern; the neighbours before i
   (upwind side of the velocity (1, 1, 1)) -1 - 2 pe, after i -1, the
   diagonal 6 + 6 pe. */
int axb__gen_convdiff_row(int64_t g, double pe, int64_t i, int64_t col[7],
                          double val[7]);

#endif
