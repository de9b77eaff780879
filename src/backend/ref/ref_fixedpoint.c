/* Reference iterative (fixed-point) Crout LU and the CPU forms of the
   column-Cholesky and row-cyclic entries, float and double
   (ref_fixedpoint_t.h). */
#include "backend/ref/ref.h"
#include "core/internal.h"
#include "core/template.h"

#include <math.h>

#define AXB_TEMPLATE "backend/ref/ref_fixedpoint_t.h"
#include "core/instantiate.h"
