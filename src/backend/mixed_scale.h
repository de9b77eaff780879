/*
 * The power-of-two scales of the mixed-precision sessions (backend.h,
 * axb_mixed_backend), shared by the host session (src/dense) and the CUDA
 * session: exact scalings, so that As = R A C loses nothing before it is
 * rounded down.  C and C++.
 */
#ifndef AXB_BACKEND_MIXED_SCALE_H
#define AXB_BACKEND_MIXED_SCALE_H

#include <math.h>

/* 2^-e where m = f 2^e, f in [1/2, 1): m times it lies in [1/2, 1).  1 for
   m = 0 or non-finite m; e clamped so that the scale is finite. */
static inline double axb__mixed_pow2_scale(double m) {
  if (!(m > 0) || !isfinite(m)) return 1;
  int e;
  frexp(m, &e);
  if (e > 1000) e = 1000;
  if (e < -1000) e = -1000;
  return ldexp(1.0, -e);
}

/* 2^-ceil(e/2) for a diagonal entry a = f 2^e > 0, so that d a d lies in
   [1/4, 1); 1 when a is not positive and finite. */
static inline double axb__mixed_sym_scale(double a) {
  if (!(a > 0) || !isfinite(a)) return 1;
  int e;
  frexp(a, &e);
  int half = e >= 0 ? (e + 1) / 2 : -((-e) / 2); /* ceil(e / 2) */
  return ldexp(1.0, -half);
}

#endif
