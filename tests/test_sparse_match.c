/*
 * Issue 23: the maximum-product matching of the Krylov path's
 * preprocessing (src/sparse/sparse_match.c, axb__prep_mc64), against
 * brute force: on 300 random sparse matrices of order 1..7 (about 40 %
 * nonzeros, magnitudes over 12 decades, some structurally singular) the
 * matching's product of |a_i,sigma(i)| equals the largest over all n!
 * permutations (to rounding), a structurally singular matrix is reported
 * singular, and its scaling D_r P A D_c has every entry of modulus <= 1
 * and a diagonal of modulus 1 (the duals' certificate of optimality).
 * Then the shared zero-diagonal matrices with `--direct never`: AUTO's
 * Krylov path certifies those the matching rescued (measured 10 of 14
 * with it against 5 with BTF's unweighted transversal).
 */
#include "sparse/sparse_prep.h"
#include "sparse_testing.h"
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double unif(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* The largest sum of log|a| over permutations (-INFINITY: none), by
   recursion over the rows with a used-column mask. */
static double best(const double *a, int n, int row, int used) {
  if (row == n) return 0;
  double b = -INFINITY;
  for (int j = 0; j < n; ++j)
    if (!(used >> j & 1) && a[row * n + j] != 0) {
      double s = log(fabs(a[row * n + j])) + best(a, n, row + 1, used | 1 << j);
      if (s > b) b = s;
    }
  return b;
}

static void random_cases(axb_handle h) {
  int singular = 0, regular = 0;
  for (int t = 0; t < 300; ++t) {
    int n = 1 + t % 7;
    double a[49];
    for (int k = 0; k < n * n; ++k)
      a[k] =
          unif() < 0.4 ? (unif() < 0.5 ? -1 : 1) * pow(10, 12 * unif() - 6) : 0;
    double want = best(a, n, 0, 0);
    axb_csr A = csr_rows(n, a, AXB_F64);
    int64_t perm[7], matched = -1;
    double dr[7], dc[7];
    axb_status st = axb__prep_mc64(h, &A, perm, dr, dc, &matched);
    if (want == -INFINITY) {
      ++singular;
      CHECK(st == AXB_ERR_SINGULAR, "case %d (n = %d): singular, status %d", t,
            n, st);
      axb_csr_destroy(&A);
      continue;
    }
    ++regular;
    CHECK(st == AXB_SUCCESS && matched == n, "case %d: status %d (%s)", t, st,
          axb_detail(h));
    if (st) {
      axb_csr_destroy(&A);
      continue;
    }
    double got = 0, worst = 0, dev = 0;
    for (int k = 0; k < n; ++k) /* new row k = old row perm[k] */
      got += log(fabs(a[perm[k] * n + k]));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = fabs(a[i * n + j]) * dr[i] * dc[j];
        if (s > worst) worst = s;
      }
    for (int k = 0; k < n; ++k)
      dev = fmax(dev, fabs(fabs(a[perm[k] * n + k]) * dr[perm[k]] * dc[k] - 1));
    CHECK(fabs(got - want) <= 1e-9 * (1 + fabs(want)),
          "case %d (n = %d): log product %.12g, best %.12g", t, n, got, want);
    CHECK(worst <= 1 + 1e-9 && dev <= 1e-9,
          "case %d: scaled max %.3g, diagonal off 1 by %.3g", t, worst, dev);
    axb_csr_destroy(&A);
  }
  CHECK(singular > 10 && regular > 100, "cases: %d singular, %d regular",
        singular, regular);
}

/* AUTO's Krylov path (no direct) on the shared zero-diagonal matrices that
   the matching rescued: certified by this test's own residual. */
static void shared(axb_handle h, const char *dir) {
  const char *names[] = {"west0479", "impcol_b", "lns_131", "hangGlider_2",
                         "tumorAntiAngiogenesis_2"};
  for (int k = 0; k < 5; ++k) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.mtx", dir, names[k]);
    axb_csr A;
    if (axb_read_csr(h, path, AXB_F64, &A)) {
      fprintf(stderr, "note: %s not read: skipped\n", path);
      continue;
    }
    axb_dense B, X;
    if (axb_dense_create(&B, A.rows, 1, AXB_F64) ||
        axb_dense_create(&X, A.rows, 1, AXB_F64))
      exit(1);
    double *b = (double *)B.data, *x = (double *)X.data;
    const double *v = (const double *)A.values;
    long double bb = 0, rr = 0;
    for (int64_t i = 0; i < A.rows; ++i) {
      b[i] = 0;
      for (int64_t q = A.rowptr[i]; q < A.rowptr[i + 1]; ++q)
        b[i] += v[q];
      bb += (long double)b[i] * b[i];
    }
    axb_sparse_opts o;
    axb_sparse_opts_default(&o);
    o.direct = AXB_DIRECT_NEVER;
    o.tol = 1e-8;
    axb_sparse_report r;
    axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
    for (int64_t i = 0; i < A.rows; ++i) {
      long double ri = b[i];
      for (int64_t q = A.rowptr[i]; q < A.rowptr[i + 1]; ++q)
        ri -= (long double)v[q] * x[A.colind[q]];
      rr += ri * ri;
    }
    double res = (double)sqrtl(rr / bb);
    CHECK(st == AXB_SUCCESS && res <= 1.01e-8 &&
              strstr(r.path, "maximum-product matching") != NULL,
          "%s: status %d residual %.3g path '%s'", names[k], st, res, r.path);
    axb_sparse_report_free(&r);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
    axb_csr_destroy(&A);
  }
}

int main(void) {
  axb_handle h = test_handle(AXB_BACKEND_CPU);
  random_cases(h);
  const char *dir = test_matrices_or_note("the shared cases");
  if (dir) shared(h, dir);
  axb_handle_destroy(h);
  return test_finish("test_sparse_match");
}
