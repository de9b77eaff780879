/*
 * bench_mixed_cpu (issue 22): axb's mixed-precision solve on the CPU
 * backend (FP32 factor + FP64 refinement + certificate) beside OpenBLAS's
 * LAPACK dgesv and dsgesv and axb's own FP64 gesv, same process, same
 * matrices, same threads (OpenBLAS's and the handle's: all cores).
 *   bench_mixed_cpu [--reps R] [--phases] N ...   uniform and cond 1e6
 * R runs of every solver (default 3) after one warm-up, the solvers taken
 * in turn within each run (so that load from other processes spreads over
 * all of them); wall-clock median and minimum, process CPU time (median);
 * A and b are copied before each run (not timed); the answer's certificate
 * ratio is computed by the bench (< 30 certified).  axb-dsgesv-base is the
 * same call with AXB_MIXED_HOST_KERNELS=0 (the host session's path before
 * issue 22c: the typed entries, no rounding during the scan), and
 * axb-dsgesv-obf with AXB_MIXED_SGETRF=2 (OpenBLAS's sgetrf for the FP32
 * factor instead of the CPU table's getrf).  --phases
 * adds where axb's mixed solves spent the median run (axb_mixed_info):
 * scan, factor (with the rounded copy when it is not made by the scan),
 * triangular solves, residuals, the rest, and the refinement steps.
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

enum { NSOLV = 6 };
static const char *const names[NSOLV] = {"openblas-dgesv",  "openblas-dsgesv",
                                         "axb-dgesv",       "axb-dsgesv",
                                         "axb-dsgesv-base", "axb-dsgesv-obf"};

typedef struct {
  double wall, cpu;
  axb_mixed_info inf;
} sample;

static int cmp_sample(const void *a, const void *b) {
  const double x = ((const sample *)a)->wall, y = ((const sample *)b)->wall;
  return x < y ? -1 : x > y;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One solve by solver s on a copy of A; returns LAPACK's/axb's iter. */
static long long solve_once(axb_handle h, int s, int n, const double *A,
                            double *W, const double *b, double *x, double *wk,
                            float *sw, int *ip, int64_t *ip64,
                            axb_mixed_info *inf) {
  int one = 1, info = 0, it = 0;
  int64_t info64 = 0;
  memcpy(W, A, (size_t)n * n * sizeof(double));
  memcpy(x, b, n * sizeof(double));
  if (s == 0) dgesv_(&n, &one, W, &n, ip, x, &n, &info);
  if (s == 1)
    dsgesv_(&n, &one, W, &n, ip, (double *)b, &n, x, &n, wk, sw, &it, &info);
  if (s == 2) axb_dgesv(h, n, 1, W, n, ip64, x, n, &info64);
  if (s >= 3) {
    setenv("AXB_MIXED_HOST_KERNELS", s == 4 ? "0" : "1", 1);
    setenv("AXB_MIXED_SGETRF", s == 5 ? "2" : "0", 1);
    axb_dsxsv_ex(h, 0, AXB_LOWER, 0, n, 1, A, n, b, n, x, n, NULL, inf,
                 &info64);
    return inf->iter;
  }
  return s == 1 ? it : 0;
}

int main(int argc, char **argv) {
  int reps = 3, phases = 0;
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 1;
  printf("%-8s %6s %-16s %10s %9s %8s %9s %9s %5s\n", "kind", "n", "solver",
         "ms", "min_ms", "speedup", "cpu_ms", "ratio", "iter");
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
      reps = atoi(argv[++a]);
      if (reps < 1 || reps > 64) reps = 3;
      continue;
    }
    if (!strcmp(argv[a], "--phases")) {
      phases = 1;
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
      double *x = malloc(NSOLV * (size_t)n * sizeof(double));
      double *wk = malloc(n * sizeof(double));
      float *sw = malloc((nn + n) * sizeof(float));
      int *ip = malloc(n * sizeof(int));
      int64_t *ip64 = malloc(n * sizeof(int64_t));
      static sample smp[NSOLV][64];
      long long iter[NSOLV] = {0};
      for (int i = 0; i < n; ++i)
        b[i] = sin(i + 1.0);
      for (int r = 0; r <= reps; ++r)
        for (int s = 0; s < NSOLV; ++s) {
          axb_mixed_info inf;
          memset(&inf, 0, sizeof inf);
          double c0 = cpu_now(), t0 = bench_now();
          iter[s] = solve_once(h, s, n, A.data, W, b, x + (size_t)s * n, wk, sw,
                               ip, ip64, &inf);
          double t1 = bench_now(), c1 = cpu_now();
          if (r)
            smp[s][r - 1] = (sample){1e3 * (t1 - t0), 1e3 * (c1 - c0), inf};
        }
      double base = 0;
      for (int s = 0; s < NSOLV; ++s) {
        double cpu[64];
        for (int r = 0; r < reps; ++r)
          cpu[r] = smp[s][r].cpu;
        qsort(smp[s], reps, sizeof(sample), cmp_sample);
        const sample *med = &smp[s][reps / 2];
        if (s == 0) base = med->wall;
        printf("%-8s %6d %-16s %10.2f %9.2f %7.2fx %9.2f %9.2g %5lld\n",
               kind ? "cond6" : "uniform", n, names[s], med->wall,
               smp[s][0].wall, base / med->wall, bench_median(cpu, reps),
               ratio(n, A.data, b, x + (size_t)s * n), iter[s]);
        if (phases && s >= 3) {
          const axb_mixed_info *f = &med->inf;
          double rest =
              f->t_total - f->t_scan - f->t_factor - f->t_solve - f->t_residual;
          printf("  phases %-16s total %.1f ms: scan %.1f, factor %.1f, "
                 "solves %.1f, residuals %.1f, rest %.1f; steps %lld, "
                 "precision %s\n",
                 names[s], 1e3 * f->t_total, 1e3 * f->t_scan, 1e3 * f->t_factor,
                 1e3 * f->t_solve, 1e3 * f->t_residual, 1e3 * rest,
                 (long long)f->ir_steps,
                 axb_factor_precision_name(f->precision));
        }
        fflush(stdout);
      }
      free(W), free(b), free(x), free(wk), free(sw), free(ip), free(ip64);
      axb_dense_destroy(&A);
    }
  }
  axb_handle_destroy(h);
  return 0;
}
