/*
 * Precision templates without a code generator (CXSparse cs_ci_*.c style):
 * a file `foo_t.h` is written once in terms of T (the scalar) and P (the
 * LAPACK prefix letter), and a `foo.c` includes it twice:
 *
 *   #define T double
 *   #define P d
 *   #include "foo_t.h"
 *   #undef T
 *   #undef P
 *   #define T float
 *   #define P s
 *   #include "foo_t.h"
 *
 * core/instantiate.h does those two inclusions:
 *
 *   #define AXB_TEMPLATE "foo_t.h"
 *   #include "core/instantiate.h"
 *
 * AXB_FN(prefix, name) pastes prefix ## P ## name, e.g.
 * AXB_FN(axb_ref_, getrf) -> axb_ref_dgetrf.  AXB_EPS(T) is the unit
 * roundoff of T.
 */
#ifndef AXB_TEMPLATE_H
#define AXB_TEMPLATE_H

#include <float.h>

#define AXB_CAT2_(a, b) a##b
#define AXB_CAT2(a, b) AXB_CAT2_(a, b)
#define AXB_CAT3_(a, b, c) a##b##c
#define AXB_CAT3(a, b, c) AXB_CAT3_(a, b, c)
#define AXB_FN(prefix, name) AXB_CAT3(prefix, P, name)

/* Unit roundoff: 2^-53 for double, 2^-24 for float. */
#define AXB_EPS(T)                                                             \
  (sizeof(T) == sizeof(double) ? DBL_EPSILON / 2 : FLT_EPSILON / 2)
/* Smallest normal number, the safe minimum for reciprocals. */
#define AXB_SAFMIN(T) (sizeof(T) == sizeof(double) ? DBL_MIN : FLT_MIN)

#endif
