/* Reference getrf, laswp, getri and getri_gj, float and double
   (ref_lu_t.h). */
#include "backend/ref/ref.h"
#include "backend/verdict.h"
#include "core/internal.h"
#include "core/template.h"

/* Panel width of the blocked LU and block width of getri. */
#define REF_LU_NB 32

#define AXB_TEMPLATE "backend/ref/ref_lu_t.h"
#include "core/instantiate.h"
