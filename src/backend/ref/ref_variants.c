/* Reference getrf_crout and gesv_gauss, float and double
   (ref_variants_t.h). */
#include "backend/ref/ref.h"
#include "core/internal.h"
#include "core/template.h"

#define T double
#define P d
#include "backend/ref/ref_variants_t.h"
#undef T
#undef P

#define T float
#define P s
#include "backend/ref/ref_variants_t.h"
#undef T
#undef P
