/* The distributed 1-norm condition estimate and ||A||_1: dist_cond_t.h,
   for double and float. */
#include "core/template.h"
#include "dense/condest.h"
#include "dist/dist.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "dist/dist_cond_t.h"
#include "core/instantiate.h"
