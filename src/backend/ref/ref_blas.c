/* Reference trsm and gemm, float and double (ref_blas_t.h). */
#include "backend/ref/ref.h"
#include "core/template.h"

#define AXB_TEMPLATE "backend/ref/ref_blas_t.h"
#include "core/instantiate.h"
