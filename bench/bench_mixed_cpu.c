/*
 * bench_mixed_cpu (issue 22): axb's mixed-precision solve on the CPU
 * backend (FP32 factor + FP64 refinement + certificate) beside OpenBLAS's
 * LAPACK dgesv and dsgesv and axb's own FP64 gesv, same process, same
 * matrices, same threads (OpenBLAS's and the handle's: all cores).
 *   bench_mixed_cpu [--reps R] N ...     uniform and cond kappa = 1e6
 * Wall-clock medians of R runs (default 3) after one warm-up; A and b are
 * copied before each run (not timed); the answer's certificate ratio is
 * computed by the bench (< 30 certified).
 */
#include "axb.h"
#include "bench_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv,
            double *b, const int *ldb, int *info);
void dsgesv_(const int *n, const int *nrhs, double *a, const int *lda,
             int *ipiv, double *b, const int *ldb, double *x, const int *ldx,
             double *work, float *swork, int *iter, int *info);

static double ratio(int n, const double *A, const double *b, const double *x) {
  double an = 0, rn = 0, xn = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0, r = b[i];
    for (int j = 0; j < n; ++j) {
      s += fabs(A[i + (size_t)j * n]);
      r -= A[i + (size_t)j * n] * x[j];
    }
    an = fmax(an, s);
    rn = fmax(rn, fabs(r));
    xn = fmax(xn, fabs(x[i]));
  }
  return rn / an / xn / n / 1.1102230246251565e-16;
}

int main(int argc, char **argv) {
  int reps = 3;
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 1;
  printf("%-8s %6s %-16s %10s %8s %9s %5s\n", "kind", "n", "solver", "ms",
         "speedup", "ratio", "iter");
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
      reps = atoi(argv[++a]);
      continue;
    }
    int n = atoi(argv[a]);
    if (n <= 0) continue;
    /* cond's generator is O(n^3) on one core: kappa = 1e6 up to 4096 */
    for (int kind = 0; kind < (n <= 4096 ? 2 : 1); ++kind) {
      char spec[64];
      snprintf(spec, sizeof spec, kind ? "cond:%d,kappa=1e6" : "uniform:%d", n);
      axb_gen_spec gs;
      axb_dense A;
      if (axb_gen_parse(NULL, spec, &gs) ||
          axb_gen_dense(NULL, &gs, AXB_F64, &A))
        return 1;
      size_t nn = (size_t)n * n;
      double *W = malloc(nn * sizeof(double)), *b = malloc(n * sizeof(double));
      double *x = malloc(n * sizeof(double)), *wk = malloc(n * sizeof(double));
      float *sw = malloc((nn + n) * sizeof(float));
      int *ip = malloc(n * sizeof(int));
      for (int i = 0; i < n; ++i)
        b[i] = sin(i + 1.0);
      double base = 0;
      for (int s = 0; s < 4; ++s) {
        double t[64];
        long long iter = 0;
        for (int r = 0; r <= reps; ++r) {
          memcpy(W, A.data, nn * sizeof(double));
          memcpy(x, b, n * sizeof(double));
          int one = 1, info = 0, it = 0;
          int64_t it64 = 0, info64 = 0;
          double t0 = bench_now();
          if (s == 0) dgesv_(&n, &one, W, &n, ip, x, &n, &info);
          if (s == 1)
            dsgesv_(&n, &one, W, &n, ip, b, &n, x, &n, wk, sw, &it, &info);
          if (s == 2) {
            int64_t *ip64 = malloc(n * sizeof(int64_t));
            axb_dgesv(h, n, 1, W, n, ip64, x, n, &info64);
            free(ip64);
          }
          if (s == 3)
            axb_dsgesv(h, n, 1, A.data, n, b, n, x, n, &it64, &info64);
          double t1 = bench_now();
          if (r) t[r - 1] = 1e3 * (t1 - t0);
          iter = s == 1 ? it : it64;
        }
        qsort(t, reps, sizeof(double), bench_cmp_double);
        double ms = t[reps / 2];
        if (s == 0) base = ms;
        static const char *names[] = {"openblas-dgesv", "openblas-dsgesv",
                                      "axb-dgesv", "axb-dsgesv"};
        printf("%-8s %6d %-16s %10.2f %7.2fx %9.2g %5lld\n",
               kind ? "cond6" : "uniform", n, names[s], ms, base / ms,
               ratio(n, A.data, b, x), iter);
        fflush(stdout);
      }
      free(W), free(b), free(x), free(wk), free(sw), free(ip);
      axb_dense_destroy(&A);
    }
  }
  axb_handle_destroy(h);
  return 0;
}
