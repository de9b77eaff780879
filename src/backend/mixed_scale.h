/*
 * The power-of-two scales of the mixed-precision sessions (backend.h,
 * axb_mixed_backend), shared by the host session (src/dense) and the CUDA
 * session: exact scalings, so that As = R A C loses nothing before it is
 * rounded down.  C and C++.
 */
#ifndef AXB_BACKEND_MIXED_SCALE_H
#define AXB_BACKEND_MIXED_SCALE_H

#include <math.h>
#include <stdint.h>

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

/* Row scales of an LU session: r_i = 2^-e(max_j |a_ij|), every row's
   largest entry in [1/2, 1) (HPZ 2019; needed for the 16-bit formats'
   narrow range).  But row scaling changes partial pivoting's choices, and
   on matrices whose rows are well scaled already it slowed refinement:
   `cond` kappa = 1e6 (row maxima over a range of 64), n = 2048, FP32
   factor: 6 steps with the row scales, 3 without (the contraction per step
   ~20x against ~300x; kappa(R A) can be kappa(R) times kappa(A)).  So when
   `one_ok` (an FP32 factor first) every row gets the one power of two
   that brings max |a_ij| into [1/2, 1) when the row maxima mx span at most
   2^AXB_MIXED_ROW_RANGE: every row's largest entry is then
   >= 2^-(AXB_MIXED_ROW_RANGE+1), far inside FP32's normal range (2^-126).
   Columns are scaled after either way (a column scale changes no pivot).
   scale 0: r = 1. */
#define AXB_MIXED_ROW_RANGE 40
static inline void axb__mixed_row_scales(int one_ok, int64_t n,
                                         const double *mx, int scale,
                                         double *r) {
  double lo = INFINITY, hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (mx[i] > 0 && mx[i] < lo) lo = mx[i];
    if (mx[i] > hi) hi = mx[i];
  }
  const int one = one_ok && hi > 0 && hi <= ldexp(lo, AXB_MIXED_ROW_RANGE);
  const double g = axb__mixed_pow2_scale(hi);
  for (int64_t i = 0; i < n; ++i)
    r[i] = !scale ? 1 : one ? g : axb__mixed_pow2_scale(mx[i]);
}

#endif
