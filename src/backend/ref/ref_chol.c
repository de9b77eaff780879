/* Reference potrf, potrf_crout and potrf_banachiewicz, float and double
   (ref_chol_t.h). */
#include "backend/ref/ref.h"
#include "backend/verdict.h"
#include "core/internal.h"
#include "core/template.h"

#include <math.h>

/* Block width of the blocked potrf. */
#define REF_CHOL_NB 32

#define AXB_TEMPLATE "backend/ref/ref_chol_t.h"
#include "core/instantiate.h"
