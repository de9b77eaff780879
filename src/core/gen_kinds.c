/*
 * The generators' matrices, in double (gen.c rounds to float afterwards).
 *
 * Determinism: one xoshiro256** stream per matrix, seeded with spec->seed
 * (rng.h); entries are drawn in the order stated at each kind, one 64-bit
 * draw per random number.  Arithmetic is +, -, *, / and sqrt only (IEEE,
 * correctly rounded), in a fixed order, with no contraction into FMAs, so a
 * spec and seed give bit-identical doubles on every platform.  libm's
 * log/exp/pow are not correctly rounded everywhere, hence det_log2 and
 * det_exp2 below.
 */
#include "core/gen.h"
#include "core/rng.h"

#include <math.h>
#include <string.h>

/* a*b + c must stay two roundings, never a fused multiply-add: clang
   contracts by default, GCC in GNU mode or under -ffp-contract=fast. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

enum { GEN_NB = 32 }; /* columns per block in the O(n^3) loops */

/* ---- deterministic log2 and exp2 ------------------------------------------
 */

/* log2(x) for finite x > 0.  x = m 2^e with m in [sqrt(1/2), sqrt(2)) (frexp
   is exact); log2(m) = (2 / ln 2) atanh(s), s = (m - 1)/(m + 1), |s| < 0.172,
   atanh(s) = s sum_{j=0..14} s^(2j) / (2j + 1): truncation below 1e-23. */
static double det_log2(double x) {
  int e;
  double m = frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2;
    e -= 1;
  }
  double s = (m - 1) / (m + 1), s2 = s * s, t = 1.0 / 29;
  for (int k = 27; k >= 1; k -= 2)
    t = t * s2 + 1.0 / k;
  return (double)e + 2.88539008177792681472 * (s * t);
}

/* 2^y for finite y: 2^y = 2^k e^(f ln 2), k = floor(y), f = y - k in [0, 1);
   e^z = sum_{j=0..20} z^j / j! for z in [0, 0.694) (truncation < 1e-22),
   then scaled by 2^k exactly (ldexp). */
static double det_exp2(double y) {
  double k = floor(y), z = (y - k) * 0.69314718055994530942, p = 1;
  for (int j = 20; j >= 1; --j)
    p = 1 + p * z / j;
  return ldexp(p, (int)k);
}

/* ---- entrywise kinds: one draw per entry, column-major (j outer, i inner) */

/* uniform(-1, 1), never 0 (axb__rng_sym). */
static void fill_uniform(axb_rng *r, int64_t n, double *a) {
  for (int64_t k = 0; k < n * n; ++k)
    a[k] = axb__rng_sym(r);
}

/* 1000 u, u uniform(-1, 1) and never 0: in [-1000, 1000], never 0 (the
   smallest |1000 u| is 1000 2^-53, a normal number in float too). */
static void fill_uniform1000(axb_rng *r, int64_t n, double *a) {
  for (int64_t k = 0; k < n * n; ++k)
    a[k] = 1000 * axb__rng_sym(r);
}

/* 1000 (1 - u), u uniform in [0, 1): in (0, 1000]. */
static void fill_positive1000(axb_rng *r, int64_t n, double *a) {
  for (int64_t k = 0; k < n * n; ++k)
    a[k] = 1000 * (1 - axb__rng_unit(r));
}

/* Integers uniform in [-100, 100]. */
static void fill_integer(axb_rng *r, int64_t n, double *a) {
  for (int64_t k = 0; k < n * n; ++k)
    a[k] = (double)(axb__rng_below(r, 201) - 100);
}

/* Diagonal 1 + u, u uniform in [0, 1): in [1, 2); one draw per diagonal
   entry, top to bottom. */
static void fill_diagonal(axb_rng *r, int64_t n, double *a) {
  for (int64_t j = 0; j < n; ++j)
    a[j + j * n] = 1 + axb__rng_unit(r);
}

/*
 * Upper triangular, drawn column by column, top to bottom (i <= j):
 * diagonal 1 + u in [1, 2), strictly upper uniform(-1, 1) / sqrt(n).
 * The 1/sqrt(n) keeps it well conditioned (kappa_1 about n/5 measured for
 * n = 10..1000): with unscaled (-1, 1) entries the condition number of a
 * random triangular matrix grows exponentially (Viswanath and Trefethen,
 * 1998; about 1e34 at n = 1000).
 */
static void fill_upper(axb_rng *r, int64_t n, double *a) {
  double scale = sqrt((double)n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= j; ++i)
      a[i + j * n] = i == j ? 1 + axb__rng_unit(r) : axb__rng_sym(r) / scale;
}

/* A = (R + R^T)/2 + n I, R uniform(-1, 1) drawn column-major.  Exactly
   symmetric; |a_ij| < 1 off the diagonal and a_ii > n - 1, so A is strictly
   diagonally dominant with positive diagonal, hence SPD. */
static void fill_spd_shift(axb_rng *r, int64_t n, double *a) {
  fill_uniform(r, n, a);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = j + 1; i < n; ++i) {
      double s = (a[i + j * n] + a[j + i * n]) * 0.5;
      a[i + j * n] = s;
      a[j + i * n] = s;
    }
    a[j + j * n] += (double)n;
  }
}

/* Lower triangle of a += R R^T: a_ic += sum_k r_ik r_ck for i >= c, the sum
   taken over k in increasing order (blocking over c changes no result). */
static void lower_gram(int64_t n, const double *rm, double *a) {
  for (int64_t c0 = 0; c0 < n; c0 += GEN_NB) {
    int64_t c1 = c0 + GEN_NB < n ? c0 + GEN_NB : n;
    for (int64_t k = 0; k < n; ++k) {
      const double *rk = rm + k * n;
      for (int64_t c = c0; c < c1; ++c) {
        double rck = rk[c];
        double *ac = a + c * n;
        for (int64_t i = c; i < n; ++i)
          ac[i] += rk[i] * rck;
      }
    }
  }
}

/* A = R R^T + n I, R uniform(-1, 1) drawn column-major.  Exactly symmetric
   (the lower triangle is computed and mirrored); SPD with lambda_min >= n. */
static axb_status fill_spd_gram(axb_rng *r, int64_t n, double *a) {
  double *rm = axb__malloc(n * n, sizeof(double));
  if (!rm) return AXB_ERR_OUT_OF_MEMORY;
  fill_uniform(r, n, rm);
  lower_gram(n, rm, a);
  axb__free(rm);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = j + 1; i < n; ++i)
      a[j + i * n] = a[i + j * n];
    a[j + j * n] += (double)n;
  }
  return AXB_SUCCESS;
}

/* Off-diagonal uniform(-1, 1) (every entry drawn column-major, the diagonal
   draws included); a_ii = (s_i + 1) + |r_ii| with s_i = sum_{j != i} |a_ij|
   summed over j in increasing order: |a_ii| > s_i with margin >= 1, which
   survives rounding to float for any n below 1e7. */
static axb_status fill_diagdom(axb_rng *r, int64_t n, double *a) {
  double *s = axb__calloc(n, sizeof(double));
  if (!s) return AXB_ERR_OUT_OF_MEMORY;
  fill_uniform(r, n, a);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (i != j) s[i] += fabs(a[i + j * n]);
  for (int64_t i = 0; i < n; ++i)
    a[i + i * n] = (s[i] + 1) + fabs(a[i + i * n]);
  axb__free(s);
  return AXB_SUCCESS;
}

/* a_ij = 1 / (i + j + 1), 0-based. */
static void fill_hilbert(int64_t n, double *a) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      a[i + j * n] = 1.0 / (double)(i + j + 1);
}

/* ---- cond: U diag(sigma) V^T -----------------------------------------------
 */

/* M := H M for the m x ncols block M (leading dimension ld), where
   H = I - tau v v^T, tau = 2 / (v^T v), is the reflector of v (length m):
   column by column, w = v^T m_j (summed top to bottom), m_j -= (tau w) v.
   Four columns go together so that their four sums run side by side; each
   column's arithmetic, and so its result, is that of the one-column loop. */
static void reflect_left(int64_t m, const double *v, double tau, int64_t ncols,
                         double *mb, int64_t ld) {
  int64_t j = 0;
  for (; j + 4 <= ncols; j += 4) {
    double *m0 = mb + j * ld, *m1 = m0 + ld, *m2 = m1 + ld, *m3 = m2 + ld;
    double w0 = 0, w1 = 0, w2 = 0, w3 = 0;
    for (int64_t i = 0; i < m; ++i) {
      w0 += v[i] * m0[i];
      w1 += v[i] * m1[i];
      w2 += v[i] * m2[i];
      w3 += v[i] * m3[i];
    }
    w0 *= tau;
    w1 *= tau;
    w2 *= tau;
    w3 *= tau;
    for (int64_t i = 0; i < m; ++i) {
      m0[i] -= w0 * v[i];
      m1[i] -= w1 * v[i];
      m2[i] -= w2 * v[i];
      m3[i] -= w3 * v[i];
    }
  }
  for (; j < ncols; ++j) {
    double *mj = mb + j * ld, w = 0;
    for (int64_t i = 0; i < m; ++i)
      w += v[i] * mj[i];
    w *= tau;
    for (int64_t i = 0; i < m; ++i)
      mj[i] -= w * v[i];
  }
}

/* The vectors v_p (p = n-2 down to 0, in this order; entries uniform(-1, 1)
   top to bottom) of Q = H_0 H_1 ... H_{n-2}, H_p = I - tau_p v_p v_p^T
   acting on rows p..n-1: packed in v (length n - p each, p = n-2 first),
   tau_p = 2 / (v_p^T v_p) in tau[p]. */
static void draw_reflectors(axb_rng *r, int64_t n, double *v, double *tau) {
  for (int64_t p = n - 2; p >= 0; --p) {
    int64_t m = n - p;
    double vv = 0;
    for (int64_t i = 0; i < m; ++i) {
      v[i] = axb__rng_sym(r);
      vv += v[i] * v[i];
    }
    tau[p] = 2 / vv;
    v += m;
  }
}

/* a := Q a, the reflectors applied right to left (p = n-2 first).  Each
   column is independent, so the columns are taken GEN_NB at a time (the
   block stays in cache while every reflector passes over it); the result
   does not depend on the blocking.  triangular != 0: a's rows p..n-1 are
   known to be zero left of column p (a diagonal initially), so H_p only
   updates columns p..n-1. */
static void apply_q(int64_t n, const double *v, const double *tau, double *a,
                    int triangular) {
  for (int64_t c0 = 0; c0 < n; c0 += GEN_NB) {
    int64_t c1 = c0 + GEN_NB < n ? c0 + GEN_NB : n;
    const double *vp = v;
    for (int64_t p = n - 2; p >= 0; --p) {
      int64_t m = n - p, cs = triangular && p > c0 ? p : c0;
      if (cs < c1) reflect_left(m, vp, tau[p], c1 - cs, a + p + cs * n, n);
      vp += m;
    }
  }
}

static void transpose_square(int64_t n, double *a) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j + 1; i < n; ++i) {
      double t = a[i + j * n];
      a[i + j * n] = a[j + i * n];
      a[j + i * n] = t;
    }
}

/*
 * A = U diag(d sigma) V^T: sigma_i = kappa^(-i/(n-1)), geometric from 1 to
 * 1/kappa (sigma_0 = 1 when n = 1), so ||A||_2 = 1 and kappa_2(A) = kappa;
 * d_i = +-1 random signs.
 * U and V are products of n - 1 Householder reflectors of growing length
 * (Stewart, SIAM J. Numer. Anal. 17, 1980).  With Gaussian vectors and the
 * sign matrix this construction gives exactly Haar-distributed orthogonal
 * matrices; we draw the vectors' entries uniform(-1, 1) instead, because
 * Gaussian sampling needs log/cos, which are not bit-reproducible across
 * libms.  U and V are therefore orthogonal to rounding but only
 * approximately Haar (directions slightly favour the cube's diagonals).
 * Draw order: the n signs, then V's vectors, then U's (draw_reflectors).
 * Work: V D Sigma is formed exploiting its triangular structure (4n^3/3
 * flops), transposed, then U applied to the full matrix (2n^3 flops);
 * workspace n^2/2 doubles for the vectors.
 */
static axb_status fill_cond(axb_rng *r, int64_t n, double kappa, double *a) {
  /* the packed vectors: sum_{p<n-1} (n - p) = n(n+1)/2 - 1 entries */
  double *v = axb__malloc(n * (n + 1) / 2 + n, sizeof(double));
  if (!v) return AXB_ERR_OUT_OF_MEMORY;
  double *tau = v + n * (n + 1) / 2, l2k = det_log2(kappa);
  for (int64_t i = 0; i < n; ++i) {
    double sigma = n > 1 ? det_exp2(-((double)i / (double)(n - 1)) * l2k) : 1;
    a[i + i * n] = axb__rng_sign(r) * sigma;
  }
  draw_reflectors(r, n, v, tau);
  apply_q(n, v, tau, a, 1); /* V D Sigma     */
  transpose_square(n, a);   /* D Sigma V^T   */
  draw_reflectors(r, n, v, tau);
  apply_q(n, v, tau, a, 0); /* U D Sigma V^T */
  axb__free(v);
  return AXB_SUCCESS;
}

/* ---- Poisson ----------------------------------------------------------------
 */

/* Natural ordering i = x + g y (+ g^2 z); Dirichlet boundary: neighbours
   outside the grid are dropped.  Diagonal 2 dim (4 or 6), neighbours -1. */
int axb__gen_poisson_row(int dim, int64_t g, int64_t i, int64_t col[7],
                         double val[7]) {
  int64_t x = i % g, y = (i / g) % g, z = dim == 3 ? i / (g * g) : 0;
  int64_t gg = g * g;
  int c = 0;
#define AXB_NEIGHBOUR(ok, j)                                                   \
  if (ok) {                                                                    \
    col[c] = (j);                                                              \
    val[c++] = -1;                                                             \
  }
  AXB_NEIGHBOUR(dim == 3 && z > 0, i - gg)
  AXB_NEIGHBOUR(y > 0, i - g)
  AXB_NEIGHBOUR(x > 0, i - 1)
  col[c] = i;
  val[c++] = 2.0 * dim;
  AXB_NEIGHBOUR(x < g - 1, i + 1)
  AXB_NEIGHBOUR(y < g - 1, i + g)
  AXB_NEIGHBOUR(dim == 3 && z < g - 1, i + gg)
#undef AXB_NEIGHBOUR
  return c;
}

/* -Laplace(u) + w . grad(u) on the unit cube, w = (w0, w0, w0) > 0,
   first-order upwind differences, scaled by h^2: per axis the upwind
   neighbour (before i in the natural ordering) gets -1 - 2 Pe, the other
   -1, the diagonal 2 + 2 Pe, with Pe = w0 h / 2 the cell Peclet number.
   Rows are weakly diagonally dominant (strictly on the boundary) with
   non-positive off-diagonals: an unsymmetric M-matrix, so ILU(0) exists. */
int axb__gen_convdiff_row(int64_t g, double pe, int64_t i, int64_t col[7],
                          double val[7]) {
  int c = axb__gen_poisson_row(3, g, i, col, val);
  for (int k = 0; k < c; ++k)
    val[k] = col[k] < i ? -1.0 - 2.0 * pe : col[k] > i ? -1.0 : 6.0 + 6.0 * pe;
  return c;
}

static void fill_poisson(int dim, int64_t g, int64_t n, double pe, double *a) {
  int64_t col[7];
  double val[7];
  for (int64_t i = 0; i < n; ++i) {
    int c = pe > 0 ? axb__gen_convdiff_row(g, pe, i, col, val)
                   : axb__gen_poisson_row(dim, g, i, col, val);
    for (int k = 0; k < c; ++k)
      a[i + col[k] * n] = val[k];
  }
}

/* ---- dispatch
 * ------------------------------------------------------------------ */

axb_status axb__gen_fill(const axb_gen_spec *spec, int64_t n, double *a) {
  axb_rng r;
  axb__rng_seed(&r, spec->seed);
  switch (spec->kind) {
  case AXB_GEN_UNIFORM: fill_uniform(&r, n, a); break;
  case AXB_GEN_UNIFORM1000: fill_uniform1000(&r, n, a); break;
  case AXB_GEN_POSITIVE1000: fill_positive1000(&r, n, a); break;
  case AXB_GEN_INTEGER: fill_integer(&r, n, a); break;
  case AXB_GEN_DIAGONAL: fill_diagonal(&r, n, a); break;
  case AXB_GEN_UPPER: fill_upper(&r, n, a); break;
  case AXB_GEN_SPD_SHIFT: fill_spd_shift(&r, n, a); break;
  case AXB_GEN_SPD_GRAM: return fill_spd_gram(&r, n, a);
  case AXB_GEN_DIAG_DOMINANT: return fill_diagdom(&r, n, a);
  case AXB_GEN_HILBERT: fill_hilbert(n, a); break;
  case AXB_GEN_COND: return fill_cond(&r, n, spec->kappa, a);
  case AXB_GEN_POISSON2D: fill_poisson(2, spec->n, n, 0, a); break;
  case AXB_GEN_POISSON3D: fill_poisson(3, spec->n, n, 0, a); break;
  case AXB_GEN_CONVDIFF3D: fill_poisson(3, spec->n, n, spec->kappa, a); break;
  case AXB_GEN_SINGULAR:
    /* uniform with the same seed, then column col zeroed. */
    fill_uniform(&r, n, a);
    if (n > 0) memset(a + spec->col * n, 0, (size_t)n * sizeof(double));
    break;
  default: return AXB_ERR_INTERNAL;
  }
  return AXB_SUCCESS;
}
