/*
 * Property test (issue 19, "the standard to reach"): for random and
 * extreme-scaled inputs, every solver path either returns an answer that
 * passes an independent residual check computed here in long double (whose
 * exponent range holds any product of doubles), or returns a non-success
 * status.  A wrong answer with AXB_SUCCESS fails the test.
 *
 *   sparse: axb_sparse_solve, every method x every preconditioner of the
 *           CPU table (factors applied by exact and by Jacobi-sweep
 *           triangular solves); passes when ||b - A x||_2 / ||b||_2 <=
 *           10 tol;
 *   dense:  axb_solve, every method; passes when
 *           ||b - A x||_inf / (||A||_inf ||x||_inf n eps) < 4 * 30 (the
 *           driver's certificate is < 30, computed in double).
 *
 * Matrices: symmetric diagonally dominant (SPD), nonsymmetric dominant,
 * nonsymmetric random (may be hard), symmetric indefinite; sizes 1, 6, 23;
 * scalings: none, A and/or b by 1e+-300 and 1e+-160, mixed row scales
 * (10^k, |k| <= 150), two-sided symmetric power-of-ten scales.  Seeded: the
 * same cases on every run.  Runs per CPU-side backend
 * (AXB_TEST_PER_BACKEND).
 */
#include "testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static double urand(void) { /* uniform in [0, 1) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) * 0x1.0p-53;
}

enum { K_SPD, K_DOM, K_RAND, K_INDEF, K_COUNT };
enum {
  S_NONE,
  S_A_TINY, /* A * 1e-300            */
  S_A_HUGE, /* A * 1e300             */
  S_B_TINY, /* b * 1e-300            */
  S_AB_160, /* A * 1e-160, b * 1e160 */
  S_A_160,  /* A * 1e160             */
  S_ROWS,   /* row i * 10^k_i        */
  S_SYM,    /* D A D, D = 10^k_i     */
  S_COUNT
};
static const char *const scale_names[S_COUNT] = {
    "none",    "A*1e-300",   "A*1e300",  "b*1e-300", "A*1e-160,b*1e160",
    "A*1e160", "mixed rows", "two-sided"};

/* Dense n x n of kind k (long double, column-major), unscaled. */
static void make_matrix(int kind, int n, long double *a) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[i + j * n] = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i != j && urand() > 0.35) continue;
      double v = 2 * urand() - 1;
      if (kind == K_SPD || kind == K_INDEF) {
        if (i > j) continue;
        a[i + j * n] = a[j + i * n] = v;
      } else {
        a[i + j * n] = v;
      }
    }
  for (int i = 0; i < n; ++i) {
    long double rs = 0;
    for (int j = 0; j < n; ++j)
      if (j != i) rs += fabsl(a[i + j * n]);
    if (kind == K_SPD || kind == K_DOM) a[i + i * n] = rs + 1 + urand();
    if (kind == K_INDEF) a[i + i * n] = (i % 2 ? -1 : 1) * (rs + 0.5L);
    if (kind == K_RAND && a[i + i * n] == 0) a[i + i * n] = 0.5L;
  }
}

/* Scale a as case s says; bs: the factor of b (A x_true times it). */
static void apply_scale(int s, int n, long double *a, long double *bs) {
  long double ra[64], ca[64];
  for (int i = 0; i < n; ++i)
    ra[i] = ca[i] = 1;
  long double all = 1, ball = 1;
  switch (s) {
  case S_A_TINY: all = 1e-300L; break;
  case S_A_HUGE: all = 1e300L; break;
  case S_B_TINY: ball = 1e-300L; break;
  case S_AB_160:
    all = 1e-160L;
    ball = 1e160L;
    break;
  case S_A_160: all = 1e160L; break;
  case S_ROWS:
    for (int i = 0; i < n; ++i)
      ra[i] = powl(10, (long double)((int)(urand() * 301) - 150));
    break;
  case S_SYM:
    for (int i = 0; i < n; ++i)
      ra[i] = ca[i] = powl(10, (long double)((int)(urand() * 161) - 80));
    break;
  default: break;
  }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[i + j * n] *= ra[i] * ca[j] * all;
  for (int i = 0; i < n; ++i)
    bs[i] = ball;
}

static double get(const void *p, axb_dtype t, int64_t k) {
  return t == AXB_F64 ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

static void put(void *p, axb_dtype t, int64_t k, long double v) {
  if (t == AXB_F64)
    ((double *)p)[k] = (double)v;
  else
    ((float *)p)[k] = (float)v;
}

typedef struct {
  int n;
  axb_dtype t;
  axb_csr S;   /* A as CSR (the rounded values) */
  axb_dense D; /* the same A dense */
  axb_dense B; /* b */
  char name[96];
} problem;

/* A and b rounded to dtype t; b = A x_true (x_true random) in long double
   from the rounded A, times the scale case's factors. */
static int build(problem *p, int kind, int s, int n, axb_dtype t) {
  long double a[64 * 64], bs[64], x[64];
  make_matrix(kind, n, a);
  apply_scale(s, n, a, bs);
  int nnz = 0;
  for (int k = 0; k < n * n; ++k)
    nnz += a[k] != 0;
  p->n = n;
  p->t = t;
  if (axb_csr_create(&p->S, n, n, nnz, t) || axb_dense_create(&p->D, n, n, t) ||
      axb_dense_create(&p->B, n, 1, t))
    return 0;
  int q = 0;
  for (int i = 0; i < n; ++i) {
    p->S.rowptr[i] = q;
    for (int j = 0; j < n; ++j)
      if (a[i + j * n] != 0) {
        p->S.colind[q] = j;
        put(p->S.values, t, q, a[i + j * n]);
        put(p->D.data, t, i + (int64_t)j * n, a[i + j * n]);
        ++q;
      }
  }
  p->S.rowptr[n] = q;
  for (int i = 0; i < n; ++i)
    x[i] = 2 * urand() - 1 + 0.5L;
  for (int i = 0; i < n; ++i) {
    long double s2 = 0;
    for (int j = 0; j < n; ++j)
      s2 += (long double)get(p->D.data, t, i + (int64_t)j * n) * x[j];
    put(p->B.data, t, i, s2 * bs[i]);
  }
  snprintf(p->name, sizeof p->name, "%s n=%d kind %d scale %s",
           axb_dtype_name(t), n, kind, scale_names[s]);
  return 1;
}

static void drop(problem *p) {
  axb_csr_destroy(&p->S);
  axb_dense_destroy(&p->D);
  axb_dense_destroy(&p->B);
}

/* Relative 2-norm residual of x for the problem, in long double. */
static long double rel2(const problem *p, const axb_dense *X) {
  long double rr = 0, bb = 0;
  for (int i = 0; i < p->n; ++i) {
    long double r = get(p->B.data, p->t, i);
    bb += r * r;
    for (int64_t k = p->S.rowptr[i]; k < p->S.rowptr[i + 1]; ++k)
      r -= (long double)get(p->S.values, p->t, k) *
           get(X->data, p->t, p->S.colind[k]);
    rr += r * r;
  }
  return bb > 0 ? sqrtl(rr) / sqrtl(bb) : sqrtl(rr);
}

/* The dense certificate's ratio, in long double. */
static long double ratio_inf(const problem *p, const axb_dense *X) {
  long double rn = 0, an = 0, xn = 0;
  for (int i = 0; i < p->n; ++i) {
    long double r = get(p->B.data, p->t, i), rs = 0;
    for (int j = 0; j < p->n; ++j) {
      long double aij = get(p->D.data, p->t, i + (int64_t)j * p->n);
      r -= aij * get(X->data, p->t, j);
      rs += fabsl(aij);
    }
    if (fabsl(r) > rn || isnan((double)r)) rn = fabsl(r);
    if (rs > an) an = rs;
    long double xi = fabsl((long double)get(X->data, p->t, i));
    if (xi > xn || isnan((double)xi)) xn = xi;
  }
  long double eps = p->t == AXB_F64 ? 0x1p-53L : 0x1p-24L;
  if (rn == 0) return 0;
  return rn / (an * xn * p->n * eps);
}

static int sparse_solves, sparse_ok, dense_solves, dense_ok;

static void run_sparse(axb_handle h, const problem *p) {
  double tol = p->t == AXB_F64 ? 1e-9 : 1e-4;
  for (int m = 0; m < AXB_SPARSE_METHOD_COUNT; ++m)
    for (int pc = 0; pc < AXB_PRECOND_COUNT; ++pc)
      for (int tri = 0; tri < 2; ++tri) {
        /* both triangular-solve modes, where a factor is applied */
        if (tri && pc < AXB_PRECOND_ILU0) continue;
        axb_dense X;
        if (axb_dense_create(&X, p->n, 1, p->t)) return;
        axb_sparse_opts o =
            test_sparse_opts((axb_sparse_method)m, (axb_precond)pc);
        o.tol = tol;
        o.max_iter = 400;
        o.trisolve = tri ? AXB_TRISOLVE_JACOBI : AXB_TRISOLVE_EXACT;
        axb_sparse_report r;
        axb_status st = axb_sparse_solve(h, &p->S, &p->B, &X, &o, &r);
        ++sparse_solves;
        if (st == AXB_SUCCESS) {
          ++sparse_ok;
          long double res = rel2(p, &X);
          CHECK(res <= 10 * tol,
                "%s: sparse %s/%s says converged but the "
                "residual is %.3Lg (tol %g; reported %.3g)",
                p->name, axb_sparse_method_name(o.method),
                axb_precond_name(o.precond), res, tol, r.true_residual);
        } else {
          CHECK(axb_detail(h)[0] != '\0',
                "%s: sparse %s/%s: status %d "
                "without a detail",
                p->name, axb_sparse_method_name(o.method),
                axb_precond_name(o.precond), st);
        }
        axb_sparse_report_free(&r);
        axb_dense_destroy(&X);
      }
}

static void run_dense(axb_handle h, const problem *p) {
  for (int m = 0; m < AXB_METHOD_COUNT; ++m) {
    axb_dense X;
    if (axb_dense_create(&X, p->n, 1, p->t)) return;
    memcpy(X.data, p->B.data, (size_t)p->n * axb_dtype_size(p->t));
    axb_solve_opts o;
    axb_solve_opts_default(&o);
    o.method = (axb_method)m;
    if (m == AXB_METHOD_LU_FIXEDPOINT) o.pivot = 0;
    axb_report r;
    axb_status st = axb_solve(h, &p->D, &X, &o, &r);
    ++dense_solves;
    if (st == AXB_SUCCESS) {
      ++dense_ok;
      long double q = ratio_inf(p, &X);
      CHECK(q < 4 * TEST_THRESHOLD,
            "%s: dense %s says success but the scaled residual is %.3Lg "
            "(reported %.3g)",
            p->name, axb_method_name(o.method), q, r.backward_error);
    } else {
      CHECK(axb_detail(h)[0] != '\0',
            "%s: dense %s: status %d without a "
            "detail",
            p->name, axb_method_name(o.method), st);
    }
    axb_dense_destroy(&X);
  }
}

/* The batched gesv on host arrays (one problem): info 0 must come with an
   answer that passes the dense certificate's check, else info > 0. */
static int batched_solves, batched_ok;
static void run_batched(axb_handle h, const problem *p) {
  if (axb_handle_backend(h) == AXB_BACKEND_CUDA) return; /* device arrays */
  size_t es = axb_dtype_size(p->t), nn = (size_t)p->n * (size_t)p->n;
  axb_dense A, X;
  if (axb_dense_create(&A, p->n, p->n, p->t)) return;
  if (axb_dense_create(&X, p->n, 1, p->t)) {
    axb_dense_destroy(&A);
    return;
  }
  memcpy(A.data, p->D.data, nn * es);
  memcpy(X.data, p->B.data, (size_t)p->n * es);
  int info = -1, ipiv[64];
  axb_status st = p->t == AXB_F64
                      ? axb_dgesv_batched(h, p->n, 1, A.data, p->n, nn, ipiv,
                                          p->n, X.data, p->n, p->n, &info, 1)
                      : axb_sgesv_batched(h, p->n, 1, A.data, p->n, nn, ipiv,
                                          p->n, X.data, p->n, p->n, &info, 1);
  ++batched_solves;
  CHECK(st == AXB_SUCCESS, "%s: batched gesv status %d (%s)", p->name, st,
        axb_detail(h));
  if (st == AXB_SUCCESS && info == 0) {
    ++batched_ok;
    long double q = ratio_inf(p, &X);
    CHECK(q < 4 * TEST_THRESHOLD,
          "%s: batched gesv says info 0 but the scaled residual is %.3Lg",
          p->name, q);
  }
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
}

int main(int argc, char **argv) {
  axb_handle h = test_handle(test_backend_arg(argc, argv));
  if (!h) return 1;
  const int sizes[] = {1, 6, 23};
  for (int dt = 0; dt < 2; ++dt)
    for (int kind = 0; kind < K_COUNT; ++kind)
      for (int s = 0; s < S_COUNT; ++s)
        for (int si = 0; si < 3; ++si) {
          /* float holds 1e+-38: the extreme scalings are double only (as
             float input they are refused or rounded to zero/Inf). */
          if (dt == 1 && s != S_NONE) continue;
          problem p;
          memset(&p, 0, sizeof p);
          if (!build(&p, kind, s, sizes[si], dt ? AXB_F32 : AXB_F64)) {
            drop(&p);
            continue;
          }
          run_sparse(h, &p);
          run_dense(h, &p);
          run_batched(h, &p);
          drop(&p);
        }
  printf("sparse: %d solves, %d succeeded (checked); dense: %d solves, %d "
         "succeeded (checked); batched: %d solves, %d with info 0 "
         "(checked)\n",
         sparse_solves, sparse_ok, dense_solves, dense_ok, batched_solves,
         batched_ok);
  axb_handle_destroy(h);
  return test_finish("test_property");
}
