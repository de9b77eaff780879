/* The distributed LU with partial pivoting and look-ahead: dist_lu_t.h,
   instantiated for double and float. */
#include "core/template.h"
#include "dist/dist.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "dist/dist_lu_t.h"
#include "core/instantiate.h"
