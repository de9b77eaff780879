/*
 * bench_cert: the price of the certificate (issue 28).  The certified
 * driver beside the plain routines it certifies, same process, same
 * inputs, same thread count:
 *
 *   lu        axb_dgesv, OpenBLAS dgesv, axb_solve (method lu)
 *   cholesky  axb_dposv, OpenBLAS dposv, axb_solve (method cholesky) and
 *             axb_solve (auto, which tests symmetry first)
 *   inverse   axb_dgetrf + axb_dgetri, OpenBLAS dgetrf + dgetri,
 *             axb_invert (lu)
 *
 *   bench_cert [--threads N] [--reps R] [--pause MS] [--family lu,...] N...
 *
 * One right-hand side, uniform(-1, 1) input (spd for Cholesky), seed 42.
 * Each timed run gets a fresh copy of its input (not timed) after a pause
 * (default 50 ms, as `axb bench`); the runs of a size go round-robin over
 * the implementations, one warm-up each.  Reported: median and minimum
 * wall time, median/min, the median against axb's plain routine and
 * against OpenBLAS's, and for the driver the median of each phase of its
 * report (axb_report: check, symmetry, copy, factor, solve, rcond,
 * backward error).  Output is Markdown, for docs/notes/certificate.md.
 */
#include "axb.h"
#include "bench_time.h"
#include "vendor/vendor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAXREPS = 64, NPH = 7, NIMPL = 4 };
static const char *ph_names[NPH] = {"check", "sym",   "copy",    "factor",
                                    "solve", "rcond", "backward"};

static void pause_ms(double ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

static double median(const double *v, int k) {
  double s[MAXREPS];
  memcpy(s, v, (size_t)k * sizeof *s);
  qsort(s, (size_t)k, sizeof *s, bench_cmp_double);
  return k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
}

static double minimum(const double *v, int k) {
  double m = v[0];
  for (int i = 1; i < k; ++i)
    m = v[i] < m ? v[i] : m;
  return m;
}

typedef struct {
  axb_handle h;
  const axb_dense *A;
  double *W, *X, *B; /* working copy of A, of b, and the kept b */
  int64_t *ipiv;
  int64_t n;
} problem;

/* One run of implementation `impl` of family `fam`; the phases of a driver
   run into ph (seconds), else left alone.  Returns the wall time or NaN on
   failure. */
static double run(const problem *p, const char *fam, int impl, double *ph) {
  const int64_t n = p->n;
  int64_t info = 0;
  memcpy(p->W, p->A->data, (size_t)(n * n) * sizeof(double));
  memcpy(p->X, p->B, (size_t)n * sizeof(double));
  axb_dense Xd = axb_dense_wrap(n, 1, n, AXB_F64, p->X);
  axb_dense Wd = axb_dense_wrap(n, n, n, AXB_F64, p->W);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  axb_report rep;
  axb_status st = AXB_SUCCESS;
  int drv = 0;
  double t0 = bench_now();
  if (!strcmp(fam, "lu")) {
    if (impl == 0) st = axb_dgesv(p->h, n, 1, p->W, n, p->ipiv, p->X, n, &info);
    if (impl == 1) st = axb_vendor_dgesv(n, 1, p->W, n, p->ipiv, p->X, n);
    if (impl == 2) o.method = AXB_METHOD_LU, drv = 1;
  } else if (!strcmp(fam, "cholesky")) {
    if (impl == 0)
      st = axb_dposv(p->h, AXB_LOWER, n, 1, p->W, n, p->X, n, &info);
    if (impl == 1) {
      st = axb_vendor_dposv(AXB_LOWER, n, 1, p->W, n, p->X, n) ? AXB_ERR_NOT_SPD
                                                               : AXB_SUCCESS;
    }
    if (impl == 2) o.method = AXB_METHOD_CHOLESKY, drv = 1;
    if (impl == 3) o.method = AXB_METHOD_AUTO, drv = 1;
  } else {
    if (impl == 0) {
      st = axb_dgetrf(p->h, n, n, p->W, n, p->ipiv, &info);
      if (!st) st = axb_dgetri(p->h, n, p->W, n, p->ipiv, &info);
    }
    if (impl == 1) {
      st = axb_vendor_dgetrf(n, p->W, n, p->ipiv);
      if (!st) st = axb_vendor_dgetri(n, p->W, n, p->ipiv);
    }
    if (impl == 2) st = axb_invert(p->h, p->A, &Wd, AXB_METHOD_LU);
  }
  if (drv) st = axb_solve(p->h, p->A, &Xd, &o, &rep);
  double t = bench_now() - t0;
  if (drv && ph) {
    double v[NPH] = {rep.t_check, rep.t_symmetry, rep.t_copy,    rep.t_factor,
                     rep.t_solve, rep.t_rcond,    rep.t_backward};
    memcpy(ph, v, sizeof v);
  }
  return st ? NAN : t;
}

static int impls(const char *fam) { return !strcmp(fam, "cholesky") ? 4 : 3; }

static const char *impl_name(const char *fam, int i) {
  static const char *lu[] = {"axb gesv", "OpenBLAS dgesv", "axb_solve lu"};
  static const char *ch[] = {"axb posv", "OpenBLAS dposv", "axb_solve cholesky",
                             "axb_solve auto"};
  static const char *inv[] = {"axb getrf+getri", "OpenBLAS getrf+getri",
                              "axb_invert lu"};
  return !strcmp(fam, "lu") ? lu[i] : !strcmp(fam, "cholesky") ? ch[i] : inv[i];
}

static int bench(axb_handle h, const char *fam, int64_t n, int reps,
                 double pause) {
  axb_gen_spec spec;
  char text[64];
  snprintf(text, sizeof text, "%s:%lld,seed=42",
           !strcmp(fam, "cholesky") ? "spd" : "uniform", (long long)n);
  axb_dense A = {0};
  if (axb_gen_parse(h, text, &spec) || axb_gen_dense(h, &spec, AXB_F64, &A))
    return fprintf(stderr, "bench_cert: %s\n", axb_detail(h)), 1;
  problem p = {h,
               &A,
               malloc((size_t)(n * n) * sizeof(double)),
               malloc((size_t)n * sizeof(double)),
               malloc((size_t)n * sizeof(double)),
               malloc((size_t)n * sizeof(int64_t)),
               n};
  int rc = 0;
  if (!p.W || !p.X || !p.B || !p.ipiv) {
    fprintf(stderr, "bench_cert: out of memory\n");
    rc = 1;
    goto done;
  }
  for (int64_t i = 0; i < n; ++i) /* b = row sums: x = ones */
    p.B[i] = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      p.B[i] += ((const double *)A.data)[i + j * n];
  const int ni = impls(fam);
  double t[NIMPL][MAXREPS], ph[NIMPL][NPH][MAXREPS];
  for (int i = 0; i < ni; ++i) /* warm-up */
    run(&p, fam, i, NULL);
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < ni; ++i) {
      double v[NPH] = {0};
      pause_ms(pause);
      t[i][r] = run(&p, fam, i, v);
      for (int k = 0; k < NPH; ++k)
        ph[i][k][r] = v[k];
    }
  double base = median(t[0], reps), ob = median(t[1], reps);
  for (int i = 0; i < ni; ++i) {
    double m = median(t[i], reps), mn = minimum(t[i], reps);
    printf("| %s | %lld | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f |", fam,
           (long long)n, axb_get_threads(h), impl_name(fam, i), 1e3 * m,
           1e3 * mn, m / mn, m / base, m / ob);
    if (i >= 2)
      for (int k = 0; k < NPH; ++k)
        printf(" %s %.2f", ph_names[k], 1e3 * median(ph[i][k], reps));
    printf(" |\n");
    fflush(stdout);
  }
done:
  free(p.W);
  free(p.X);
  free(p.B);
  free(p.ipiv);
  axb_dense_destroy(&A);
  return rc;
}

int main(int argc, char **argv) {
  int threads = 0, reps = 5;
  double pause = 50;
  const char *fams = "lu,cholesky,inverse";
  int64_t sizes[32];
  int ns = 0;
  for (int i = 1; i < argc; ++i) {
    if (bench_run_option(argc, argv, &i, &threads, &reps, &pause)) continue;
    if (!strcmp(argv[i], "--family") && i + 1 < argc)
      fams = argv[++i];
    else if (ns < 32 && atoll(argv[i]) > 0)
      sizes[ns++] = atoll(argv[i]);
    else
      return fprintf(stderr, "bench_cert: bad argument '%s'\n", argv[i]), 2;
  }
  if (reps < 1 || reps > MAXREPS) reps = 5;
  if (!ns) sizes[ns++] = 1024;
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0))
    return fprintf(stderr, "bench_cert: no CPU handle\n"), 1;
  if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  axb_set_threads(h, threads);
  axb_vendor_set_threads(threads);
  printf("| family | n | threads | implementation | median ms | min ms | "
         "med/min | vs axb | vs OpenBLAS | driver phases (median ms) |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n");
  int rc = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", fams);
  for (char *f = strtok(buf, ","); f && !rc; f = strtok(NULL, ","))
    for (int s = 0; s < ns && !rc; ++s)
      rc = bench(h, f, sizes[s], reps, pause);
  axb_handle_destroy(h);
  return rc;
}
