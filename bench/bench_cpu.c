/*
 * bench_cpu: GFLOP/s of axb's CPU backend beside OpenBLAS's LAPACK.
 *
 *   bench_cpu [--threads N] [--reps R] [--csv FILE] [--routines a,b,...]
 *             [--study-max N] [--pause MS] [N ...]
 *
 * For each routine and size the input is generated once (axb_gen_dense:
 * uniform(-1,1) for LU and the inverses, spd for Cholesky, seed 42); then
 * OpenBLAS and axb run alternately on fresh copies (copy not timed), one
 * warm-up each, R timed runs each (default 5); the median is reported.
 * Each timed run starts after a pause (default 100 ms) in which the idle
 * threads of the previous call (OpenBLAS's pthread pool, libgomp's team)
 * stop spinning; without it each side pays for the other's spinning.
 * Both use N threads (OpenBLAS through openblas_set_num_threads, axb
 * through axb_set_threads).  The residual column is axb's result judged by
 * a solve: b = A x_true (x_true random), x from axb's factors or inverse,
 * axb_check_solve(A, x, b) (O(n^2), so that it is cheap at every size);
 * a value >= 30 marks a wrong answer however fast.
 *
 * Routines: dgetrf sgetrf dpotrf spotrf dgetri (getrf + getri, both sides)
 * dgetri_gj (axb's blocked Gauss-Jordan inverse vs OpenBLAS getrf+getri),
 * and the study variants dpotrf_crout (vs OpenBLAS dpotrf) and
 * dgetri_gjstudy (vs OpenBLAS getrf+getri), run only up to --study-max
 * (default 2048) because they are O(n^3) at memory speed.
 */
#include "axb.h"
#include "backend/omp/omp.h"
#include "bench_time.h"
#include "vendor/vendor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum {
  R_DGETRF,
  R_SGETRF,
  R_DPOTRF,
  R_SPOTRF,
  R_DGETRI,
  R_DGETRI_GJ,
  R_DPOTRF_CROUT,
  R_DGETRI_GJSTUDY,
  R_COUNT
} routine;

static const char *names[R_COUNT] = {
    "dgetrf", "sgetrf",    "dpotrf",       "spotrf",
    "dgetri", "dgetri_gj", "dpotrf_crout", "dgetri_gjstudy"};

/* Let the other side's idle threads stop spinning before a timed run:
   OpenBLAS's pthread workers and libgomp's threads busy-wait for a while
   after a call, and on a 2-core machine that halves the next call. */
static void pause(double ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

/* The per-phase profile of axb's timed runs (AXB_OMP_PROFILE=1 in the
   environment; omp.h): percent of the wall time of the profiled calls spent
   in each phase, for thread 0 (the panel thread of the tiled LU, the
   calling thread of the hybrid paths) and the mean and maximum over the
   other threads.  r.* are inside the recursion (the hybrid paths, or
   thread 0's panels on the tiled path, nested in "panel" there). */
static void print_profile(const char *name, int64_t n) {
  const axb_omp_prof *p = axb_omp_prof_get();
  if (p->calls == 0) return;
  static const char *paths[] = {"", "tiled", "hybrid", "hybrid-chol", "other"};
  const int nt =
      p->threads < AXB_OMP_PROF_THREADS ? p->threads : AXB_OMP_PROF_THREADS;
  const double wall = p->wall;
  printf("# profile %s n=%lld path=%s threads=%d calls=%d wall=%.2f ms/call\n",
         name, (long long)n,
         p->path >= 1 && p->path <= 4 ? paths[p->path] : "?", p->threads,
         p->calls, 1e3 * wall / p->calls);
  printf("#   %-8s %8s %10s %10s\n", "phase", "thread0", "others.mean",
         "others.max");
  for (int ph = 0; ph < AXB_OMP_PH_COUNT; ++ph) {
    double sum = 0, mx = 0;
    for (int t = 1; t < nt; ++t) {
      const double v = p->t[t][ph];
      sum += v;
      mx = v > mx ? v : mx;
    }
    if (p->t[0][ph] == 0 && sum == 0) continue;
    printf("#   %-8s %7.1f%% %9.1f%% %9.1f%%\n", axb_omp_prof_names[ph],
           100 * p->t[0][ph] / wall,
           nt > 1 && p->path == 1 ? 100 * sum / (nt - 1) / wall : 0.0,
           100 * mx / wall);
  }
}

/* LAPACK working-note flop counts. */
static double flops(routine r, double n) {
  const double getrf = 2.0 / 3 * n * n * n - 0.5 * n * n + 5.0 / 6 * n;
  const double potrf = n * n * n / 3 + 0.5 * n * n + n / 6;
  const double getri = 4.0 / 3 * n * n * n - n * n + 5.0 / 3 * n;
  switch (r) {
  case R_DGETRF:
  case R_SGETRF: return getrf;
  case R_DPOTRF:
  case R_SPOTRF:
  case R_DPOTRF_CROUT: return potrf;
  default: return getrf + getri; /* every inverse: 2 n^3 */
  }
}

static int is_float(routine r) { return r == R_SGETRF || r == R_SPOTRF; }
static int is_chol(routine r) {
  return r == R_DPOTRF || r == R_SPOTRF || r == R_DPOTRF_CROUT;
}
static int is_inverse(routine r) {
  return r == R_DGETRI || r == R_DGETRI_GJ || r == R_DGETRI_GJSTUDY;
}
static int is_study(routine r) {
  return r == R_DPOTRF_CROUT || r == R_DGETRI_GJSTUDY;
}

/* One OpenBLAS run on W (n x n, ld n); returns LAPACK info or an error. */
static int run_vendor(routine r, int64_t n, void *W, int64_t *ipiv) {
  switch (r) {
  case R_DGETRF: return axb_vendor_dgetrf(n, W, n, ipiv);
  case R_SGETRF: return axb_vendor_sgetrf(n, W, n, ipiv);
  case R_DPOTRF:
  case R_DPOTRF_CROUT: return axb_vendor_dpotrf(AXB_LOWER, n, W, n);
  case R_SPOTRF: return axb_vendor_spotrf(AXB_LOWER, n, W, n);
  default: {
    int st = axb_vendor_dgetrf(n, W, n, ipiv);
    return st ? st : axb_vendor_dgetri(n, W, n, ipiv);
  }
  }
}

/* One axb run on W. */
static axb_status run_axb(axb_handle h, routine r, int64_t n, void *W,
                          int64_t *ipiv) {
  int64_t info = 0;
  axb_status st;
  switch (r) {
  case R_DGETRF: return axb_dgetrf(h, n, n, W, n, ipiv, &info);
  case R_SGETRF: return axb_sgetrf(h, n, n, W, n, ipiv, &info);
  case R_DPOTRF: return axb_dpotrf(h, AXB_LOWER, n, W, n, &info);
  case R_SPOTRF: return axb_spotrf(h, AXB_LOWER, n, W, n, &info);
  case R_DPOTRF_CROUT: return axb_dpotrf_crout(h, n, W, n, &info);
  case R_DGETRI:
    st = axb_dgetrf(h, n, n, W, n, ipiv, &info);
    return st ? st : axb_dgetri(h, n, W, n, ipiv, &info);
  case R_DGETRI_GJ: return axb_omp_dgetri_gj_blocked(h, n, W, n, &info);
  case R_DGETRI_GJSTUDY: return axb_dgetri_gj(h, n, W, n, &info);
  default: return AXB_ERR_INTERNAL;
  }
}

/* Backward error of a solve with axb's result F (factors or inverse). */
static double residual(axb_handle h, routine r, const axb_dense *A,
                       const void *F, const int64_t *ipiv) {
  const int64_t n = A->rows;
  axb_dense Xt, B, X;
  if (axb_gen_rhs(h, A, 1, AXB_RHS_RANDOM, 7, &Xt, &B) != AXB_SUCCESS)
    return NAN;
  if (axb_dense_create(&X, n, 1, A->dtype) != AXB_SUCCESS) return NAN;
  axb_status st = AXB_SUCCESS;
  int64_t info = 0;
  const size_t es = axb_dtype_size(A->dtype);
  if (is_inverse(r)) { /* x = inv(A) b, in double */
    const double *Xi = F, *b = B.data;
    double *x = X.data;
    for (int64_t i = 0; i < n; ++i)
      x[i] = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        x[i] += Xi[i + j * n] * b[j];
  } else {
    memcpy(X.data, B.data, (size_t)n * es);
    if (is_chol(r))
      st = is_float(r) ? axb_spotrs(h, AXB_LOWER, n, 1, F, n, X.data, n, &info)
                       : axb_dpotrs(h, AXB_LOWER, n, 1, F, n, X.data, n, &info);
    else
      st =
          is_float(r)
              ? axb_sgetrs(h, AXB_NO_TRANS, n, 1, F, n, ipiv, X.data, n, &info)
              : axb_dgetrs(h, AXB_NO_TRANS, n, 1, F, n, ipiv, X.data, n, &info);
  }
  const double res = st == AXB_SUCCESS ? axb_check_solve(A, &X, &B) : NAN;
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  return res;
}

static int parse_routines(const char *s, int *on) {
  for (int r = 0; r < R_COUNT; ++r)
    on[r] = 0;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
    int found = 0;
    for (int r = 0; r < R_COUNT; ++r)
      if (!strcmp(t, names[r])) on[r] = found = 1;
    if (!found) {
      fprintf(stderr, "bench_cpu: unknown routine '%s'\n", t);
      return 0;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  int threads = 0, reps = 5;
  double pause_ms = 100;
  int64_t study_max = 2048;
  const char *csv = NULL;
  int64_t sizes[64];
  int nsizes = 0, on[R_COUNT];
  for (int r = 0; r < R_COUNT; ++r)
    on[r] = 1;
  on[R_SPOTRF] = 0;
  for (int i = 1; i < argc; ++i) {
    if (bench_run_option(argc, argv, &i, &threads, &reps, &pause_ms)) continue;
    if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = argv[++i];
    else if (!strcmp(argv[i], "--study-max") && i + 1 < argc)
      study_max = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--routines") && i + 1 < argc) {
      if (!parse_routines(argv[++i], on)) return 2;
    } else if (argv[i][0] != '-' && nsizes < 64)
      sizes[nsizes++] = atoll(argv[i]);
    else {
      fprintf(stderr,
              "usage: bench_cpu [--threads N] [--reps R] [--csv FILE] "
              "[--routines a,b] [--study-max N] [--pause MS] [N ...]\n");
      return 2;
    }
  }
  if (!nsizes) {
    const int64_t def[] = {64, 128, 256, 512, 1024, 2048, 4096};
    for (size_t i = 0; i < sizeof def / sizeof *def; ++i)
      sizes[nsizes++] = def[i];
  }
  if (reps < 1) reps = 1;
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0) != AXB_SUCCESS) return 1;
  axb_set_threads(h, threads);
  const int nt = axb_omp_threads(h);
  FILE *out = csv ? fopen(csv, "w") : NULL;
  if (csv && !out) {
    perror(csv);
    return 1;
  }
  if (out)
    fprintf(out, "routine,n,threads,openblas_gflops,axb_gflops,ratio,"
                 "openblas_s,axb_s,axb_residual\n");
  printf("# axb %s, %s, %d threads, median of %d runs\n", axb_version(),
         axb_blas_info(), nt, reps);
  printf("%-15s %6s %10s %10s %7s %10s\n", "routine", "n", "OpenBLAS", "axb",
         "ratio", "residual");
  double *tv = malloc((size_t)reps * sizeof *tv);
  double *ta = malloc((size_t)reps * sizeof *ta);
  for (int r = 0; r < R_COUNT; ++r) {
    if (!on[r]) continue;
    for (int s = 0; s < nsizes; ++s) {
      const int64_t n = sizes[s];
      if (n < 1 || (is_study(r) && n > study_max)) continue;
      const axb_dtype dt = is_float(r) ? AXB_F32 : AXB_F64;
      axb_gen_spec spec = {is_chol(r) ? AXB_GEN_SPD_SHIFT : AXB_GEN_UNIFORM, n,
                           0, 0, 42};
      axb_dense A, W;
      if (axb_gen_dense(h, &spec, dt, &A) != AXB_SUCCESS ||
          axb_dense_create(&W, n, n, dt) != AXB_SUCCESS) {
        fprintf(stderr, "bench_cpu: cannot generate n=%lld\n", (long long)n);
        return 1;
      }
      int64_t *ipiv = malloc((size_t)n * sizeof *ipiv);
      const size_t bytes = (size_t)n * (size_t)n * axb_dtype_size(dt);
      int bad = 0;
      for (int it = -1; it < reps; ++it) { /* it = -1: warm-up */
        memcpy(W.data, A.data, bytes);
        axb_vendor_set_threads(nt);
        pause(pause_ms);
        double t0 = bench_now();
        int vi = run_vendor(r, n, W.data, ipiv);
        double t1 = bench_now();
        if (vi != 0) bad = 1;
        if (it >= 0) tv[it] = t1 - t0;
        memcpy(W.data, A.data, bytes);
        if (it == 0) axb_omp_prof_reset(); /* profile the timed runs only */
        pause(pause_ms);
        t0 = bench_now();
        axb_status st = run_axb(h, r, n, W.data, ipiv);
        t1 = bench_now();
        if (st != AXB_SUCCESS) {
          fprintf(stderr, "%s n=%lld: %s (%s)\n", names[r], (long long)n,
                  axb_strerror(st), axb_detail(h));
          bad = 1;
        }
        if (it >= 0) ta[it] = t1 - t0;
      }
      /* W holds axb's last result. */
      const double res = residual(h, r, &A, W.data, ipiv);
      const double mv = bench_median(tv, reps), ma = bench_median(ta, reps);
      const double f = flops(r, (double)n) * 1e-9;
      printf("%-15s %6lld %10.2f %10.2f %7.3f %10.3g%s\n", names[r],
             (long long)n, f / mv, f / ma, mv / ma, res, bad ? "  FAILED" : "");
      print_profile(names[r], n);
      fflush(stdout);
      if (out)
        fprintf(out, "%s,%lld,%d,%.4f,%.4f,%.4f,%.6g,%.6g,%.4g\n", names[r],
                (long long)n, nt, f / mv, f / ma, mv / ma, mv, ma, res);
      free(ipiv);
      axb_dense_destroy(&W);
      axb_dense_destroy(&A);
    }
  }
  free(tv);
  free(ta);
  if (out) fclose(out);
  axb_handle_destroy(h);
  return 0;
}
