/*
 * Instantiate a precision template (see core/template.h) for double and
 * float:
 *
 *   #define AXB_TEMPLATE "backend/ref/ref_lu_t.h"
 *   #include "core/instantiate.h"
 *
 * No include guard: included once per template.
 */
#define T double
#define P d
#include AXB_TEMPLATE
#undef T
#undef P

#define T float
#define P s
#include AXB_TEMPLATE
#undef T
#undef P

#undef AXB_TEMPLATE
