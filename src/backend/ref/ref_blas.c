/* Reference trsm and gemm, float and double (ref_blas_t.h). */
#include "backend/ref/ref.h"
#include "core/template.h"

#define T double
#define P d
#include "backend/ref/ref_blas_t.h"
#undef T
#undef P

#define T float
#define P s
#include "backend/ref/ref_blas_t.h"
#undef T
#undef P
