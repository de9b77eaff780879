/*
 * The block 1-norm estimator (Higham & Tisseur 2000, Algorithm 2.4) behind
 * a callback; see condest.h.  In the notation of the paper, with B the
 * operator and X the n x t block of test vectors (unit 1-norm columns):
 *
 *   Y = B X;  est = max_j ||Y_j||_1           (a lower bound of ||B||_1)
 *   S = sign(Y)                                (a subgradient of ||B x||_1)
 *   Z = B^T S;  h_i = ||Z(i, :)||_inf          (how much e_i would gain)
 *   X = [e_i for the t largest h_i not tried yet]
 *
 * until the estimate stops growing, the new signs repeat old ones, the
 * best h is the one already taken, or every promising e_i was tried.
 */
#include "dense/condest.h"

#include "core/internal.h"
#include "core/rng.h"

#include <math.h>
#include <string.h>

enum { ITMAX = 5 };
_Static_assert(AXB_CONDEST_T >= 2, "the first block holds two vectors");

/* Columns a and b of length n with entries +-1 are parallel (equal up to
   sign) when |a . b| = n. */
static int parallel(int64_t n, const double *a, const double *b) {
  double d = 0;
  for (int64_t i = 0; i < n; ++i)
    d += a[i] * b[i];
  return fabs(d) == (double)n;
}

/* x := a random +-1 vector (fixed seed: the estimate is reproducible). */
static void random_signs(int64_t n, double *x, axb_rng *g) {
  for (int64_t i = 0; i < n; ++i)
    x[i] = (axb__rng_next(g) >> 63) ? 1.0 : -1.0;
}

/* Column j of S (n x t) parallel to an earlier column of S or to any of
   the kold columns of Sold. */
static int repeats(int64_t n, const double *S, int64_t j, const double *Sold,
                   int64_t kold) {
  for (int64_t q = 0; q < j; ++q)
    if (parallel(n, S + j * n, S + q * n)) return 1;
  for (int64_t q = 0; q < kold; ++q)
    if (parallel(n, S + j * n, Sold + q * n)) return 1;
  return 0;
}

/* The index of the largest h_i among those with mark[i] == 0 (the smallest
   such index on ties), or -1 when none is left. */
static int64_t best_unmarked(int64_t n, const double *h,
                             const unsigned char *mark) {
  int64_t b = -1;
  for (int64_t i = 0; i < n; ++i)
    if (!mark[i] && (b < 0 || h[i] > h[b])) b = i;
  return b;
}

/* ||B||_1 exactly for n <= t: B times the identity, the largest column
   sum. */
static axb_status exact(int64_t n, axb_apply_fn apply, void *ctx, int fwd,
                        double *X, double *est) {
  memset(X, 0, (size_t)(n * n) * sizeof *X);
  for (int64_t j = 0; j < n; ++j)
    X[j + j * n] = 1;
  axb_status st = apply(ctx, fwd, X, n);
  if (st) return st;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += fabs(X[i + j * n]);
    if (s > *est || isnan(s)) *est = s;
  }
  return AXB_SUCCESS;
}

/* The first block: x_0 = (1, ..., 1)/n, x_1 = xLACN2's alternating vector
   (-1)^i (1 + i/(n-1)) / (1.5 n) (sum of magnitudes n + n/2), then random
   +-1 columns / n, each drawn again while it is parallel to an earlier +-1
   column (a few tries: a parallel column costs accuracy, not
   correctness). */
static void first_block(int64_t n, int64_t t, double *X, axb_rng *g) {
  for (int64_t i = 0; i < n; ++i) {
    X[i] = 1.0;
    X[i + n] = (i % 2 ? -1.0 : 1.0) * (1.0 + (double)i / (double)(n - 1));
  }
  for (int64_t j = 2; j < t; ++j)
    for (int tries = 0; tries < 8; ++tries) {
      random_signs(n, X + j * n, g);
      int par = parallel(n, X + j * n, X);
      for (int64_t q = 2; q < j && !par; ++q)
        par = parallel(n, X + j * n, X + q * n);
      if (!par) break;
    }
  for (int64_t i = 0; i < n; ++i) {
    X[i] /= (double)n;
    X[i + n] /= 1.5 * (double)n;
  }
  for (int64_t j = 2; j < t; ++j)
    for (int64_t i = 0; i < n; ++i)
      X[i + j * n] /= (double)n;
}

void axb__norm1_first_block(int64_t n, double *X) {
  axb_rng g;
  axb__rng_seed(&g, 0x4878a7d3ULL);
  first_block(n, AXB_CONDEST_T, X, &g);
}

axb_status axb__norm1_estimate(int64_t n, axb_apply_fn apply, void *ctx,
                               int swap, double *est) {
  return axb__norm1_estimate_y1(n, apply, ctx, swap, NULL, est);
}

axb_status axb__norm1_estimate_y1(int64_t n, axb_apply_fn apply, void *ctx,
                                  int swap, const double *y1, double *est) {
  /* B is the operator, B^T its transpose; swap exchanges them. */
  const int fwd = swap ? 1 : 0, bwd = swap ? 0 : 1;
  int64_t t = n < AXB_CONDEST_T ? n : AXB_CONDEST_T;
  *est = 0;
  if (n <= 0) return AXB_SUCCESS;
  /* X and S (n x t, or n x n when exact), Sold (n x t), h (n), marks. */
  int64_t cols = n <= t ? n : t;
  double *X = axb__malloc(n * (2 * cols + t + 1), sizeof(double));
  unsigned char *tried = axb__calloc(n, 1), *taken = axb__calloc(n, 1);
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  if (!X || !tried || !taken) goto done;
  if (n <= t) {
    st = exact(n, apply, ctx, fwd, X, est);
    goto done;
  }
  double *S = X + n * t, *Sold = S + n * t, *h = Sold + n * t;
  axb_rng g;
  axb__rng_seed(&g, 0x4878a7d3ULL);
  first_block(n, t, X, &g);
  int64_t kold = 0, best = -1, ind[AXB_CONDEST_T];
  double old = 0;
  for (int k = 1;; ++k) {
    if (k == 1 && y1) /* B X1 computed by the caller */
      memcpy(X, y1, (size_t)(n * t) * sizeof *X);
    else if ((st = apply(ctx, fwd, X, t)))
      goto done;
    double e = 0;
    int64_t jb = 0;
    for (int64_t j = 0; j < t; ++j) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i)
        s += fabs(X[i + j * n]);
      if (s > e || isnan(s)) e = s, jb = j;
    }
    if (!isfinite(e)) { /* overflow or NaN in the solves: said as is */
      old = e;
      break;
    }
    if (k >= 2 && e <= old) break; /* no better column: keep old */
    if (k >= 2) best = ind[jb];
    old = e;
    if (k > ITMAX) break;
    /* S = sign(Y) (+1 for 0); stop when every column repeats an old one,
       else make each column new (random +-1 while it repeats). */
    for (int64_t i = 0; i < n * t; ++i)
      S[i] = X[i] >= 0 ? 1.0 : -1.0;
    int all_old = kold > 0;
    for (int64_t j = 0; j < t && all_old; ++j) {
      int found = 0;
      for (int64_t q = 0; q < kold && !found; ++q)
        found = parallel(n, S + j * n, Sold + q * n);
      all_old = found;
    }
    if (all_old) break;
    for (int64_t j = 0; j < t; ++j)
      for (int tries = 0; tries < 8 && repeats(n, S, j, Sold, kold); ++tries)
        random_signs(n, S + j * n, &g);
    memcpy(Sold, S, (size_t)(n * t) * sizeof *S);
    kold = t;
    /* Z = B^T S, h_i = max_j |z_ij|. */
    memcpy(X, S, (size_t)(n * t) * sizeof *S);
    if ((st = apply(ctx, bwd, X, t))) goto done;
    for (int64_t i = 0; i < n; ++i) {
      double m = 0;
      for (int64_t j = 0; j < t; ++j)
        if (fabs(X[i + j * n]) > m) m = fabs(X[i + j * n]);
      h[i] = m;
    }
    if (k >= 2 && best >= 0) {
      double hmax = 0;
      for (int64_t i = 0; i < n; ++i)
        hmax = h[i] > hmax ? h[i] : hmax;
      if (h[best] == hmax) break; /* the best column is the one taken */
    }
    /* The t largest h_i: stop when all were tried; else take the t largest
       among the untried. */
    memset(taken, 0, (size_t)n);
    int all_tried = 1;
    for (int64_t q = 0; q < t; ++q) {
      int64_t i = best_unmarked(n, h, taken);
      taken[i] = 1;
      all_tried = all_tried && tried[i];
    }
    if (all_tried) break;
    int64_t nx = 0;
    for (; nx < t; ++nx) {
      int64_t i = best_unmarked(n, h, tried);
      if (i < 0) break;
      tried[i] = 1;
      ind[nx] = i;
    }
    if (nx < t) break; /* fewer than t unit vectors left: done */
    memset(X, 0, (size_t)(n * t) * sizeof *X);
    for (int64_t j = 0; j < t; ++j)
      X[ind[j] + j * n] = 1;
  }
  *est = old;
  st = AXB_SUCCESS;
done:
  axb__free(X);
  axb__free(tried);
  axb__free(taken);
  return st;
}
