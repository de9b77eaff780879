#include "dense/condest.h"

#include <math.h>

static double sum_abs(int64_t n, const double *x) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += fabs(x[i]);
  return s;
}

static int64_t argmax_abs(int64_t n, const double *x) {
  int64_t j = 0;
  for (int64_t i = 1; i < n; ++i)
    if (fabs(x[i]) > fabs(x[j])) j = i;
  return j;
}

/* x := sign(x) (+1 for 0); returns 1 when the signs equal isgn already. */
static int take_signs(int64_t n, double *x, int64_t *isgn) {
  int same = 1;
  for (int64_t i = 0; i < n; ++i) {
    int64_t s = x[i] >= 0 ? 1 : -1;
    if (s != isgn[i]) same = 0;
    isgn[i] = s;
    x[i] = (double)s;
  }
  return same;
}

axb_status axb__norm1_estimate(int64_t n, axb_apply_fn apply, void *ctx,
                               int swap, double *x, double *v, int64_t *isgn,
                               double *est) {
  /* B is the operator, B^T its transpose; swap exchanges them. */
  const int fwd = swap ? 1 : 0, bwd = swap ? 0 : 1;
  axb_status st;
  *est = 0;
  /* Start from x = (1/n, ..., 1/n): ||B x||_1 is the average column sum. */
  for (int64_t i = 0; i < n; ++i)
    x[i] = 1.0 / (double)n;
  if ((st = apply(ctx, fwd, x))) return st;
  if (n == 1) {
    *est = fabs(x[0]);
    return AXB_SUCCESS;
  }
  *est = sum_abs(n, x);
  for (int64_t i = 0; i < n; ++i)
    isgn[i] = 0;
  take_signs(n, x, isgn);
  /* The gradient B^T sign(Bx) points at the column e_j to try next. */
  if ((st = apply(ctx, bwd, x))) return st;
  int64_t j = argmax_abs(n, x);
  for (int iter = 2; iter <= 5; ++iter) {
    for (int64_t i = 0; i < n; ++i)
      x[i] = 0;
    x[j] = 1;
    if ((st = apply(ctx, fwd, x))) return st;
    for (int64_t i = 0; i < n; ++i)
      v[i] = x[i];
    double old = *est;
    *est = sum_abs(n, v);
    if (take_signs(n, x, isgn) || *est <= old) {
      if (*est < old) *est = old;
      break; /* converged: no better column in sight */
    }
    if ((st = apply(ctx, bwd, x))) return st;
    int64_t jlast = j;
    j = argmax_abs(n, x);
    if (fabs(x[jlast]) == fabs(x[j])) break;
  }
  /* Higham's extra test vector guards against the (rare) underestimates of
     the gradient iteration: x_i = (-1)^i (1 + i/(n-1)). */
  for (int64_t i = 0; i < n; ++i)
    x[i] = (i % 2 ? -1.0 : 1.0) * (1.0 + (double)i / (double)(n - 1));
  if ((st = apply(ctx, fwd, x))) return st;
  double alt = 2.0 * sum_abs(n, x) / (3.0 * (double)n);
  if (alt > *est) *est = alt;
  return AXB_SUCCESS;
}
