/* Reference getrf_crout and gesv_gauss, float and double
   (ref_variants_t.h). */
#include "backend/ref/ref.h"
#include "backend/verdict.h"
#include "core/internal.h"
#include "core/template.h"

#include <math.h>

#define AXB_TEMPLATE "backend/ref/ref_variants_t.h"
#include "core/instantiate.h"
