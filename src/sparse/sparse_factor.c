/* Exact ILU(0)/IC(0) and the ParILU/ParIC initial guess (sparse_host.h). */
#include "core/internal.h"
#include "core/template.h"
#include "sparse/sparse_host.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "sparse/sparse_factor_t.h"
#include "core/instantiate.h"
