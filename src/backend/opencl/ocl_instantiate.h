/*
 * Instantiates the template file named by OCL_TEMPLATE (a string) for
 * double and float: T, P (the name prefix), DBL and BL (the CLBlast entry
 * of that precision) set around each inclusion.  No include guard: one
 * inclusion per template.
 */
#define T double
#define P d
#define DBL 1
#define BL(name) CLBlastD##name
#include OCL_TEMPLATE
#undef T
#undef P
#undef DBL
#undef BL

#define T float
#define P s
#define DBL 0
#define BL(name) CLBlastS##name
#include OCL_TEMPLATE
#undef T
#undef P
#undef DBL
#undef BL
#undef OCL_TEMPLATE
