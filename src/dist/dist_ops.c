/* The CPU table of rank-local operations (dist.h): GEMM, TRSM and the
   diagonal block's Cholesky through the handle's backend table (OpenMP and
   OpenBLAS on a CPU handle), the O(n^2) steps as host loops. */
#include "core/template.h"
#include "dist/dist.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "dist/dist_ops_t.h"
#include "core/instantiate.h"
