/* The distributed lower Cholesky: dist_chol_t.h, for double and float. */
#include "core/template.h"
#include "dist/dist.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "dist/dist_chol_t.h"
#include "core/instantiate.h"
