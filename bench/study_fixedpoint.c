/*
 * study_fixedpoint: the iterative (fixed-point) Crout LU of SEEDS.md 1
 * beside the production LU, on real matrices (dense storage) and random
 * dense ones -- the document's experiment, with the sweep counts it never
 * reported and the accuracy it never checked.
 *
 *   study_fixedpoint [--backend cuda|cpu|ref] [--budget SECONDS]
 *                    [--random N,N,...] [--cm-max N] [--block 8|16|32]
 *                    [--section S] [--tol T] [--only-fp 1]
 *                    [--precision double|single|both] [FILE.mtx ...]
 *
 * Per matrix and precision (double, float): production getrf (median of 3
 * after a warm-up, host arrays, transfers included as in axb solve), the
 * fixed point with the pairs scheduler and with the DAG scheduler (one run
 * each: a run is many sweeps), and for n <= --cm-max the sequential Crout
 * loop on one CPU thread (the document's "CM" baseline, the ref backend).
 * Columns: time, sweeps over all sections (and sections), max |A - LU| (the
 * document's metric; P A for getrf), the DESIGN.md LU residual
 * ||A - LU||_1/(n ||A||_1 eps) and the backward error of a solve with the
 * factor.  Random dense matrices are the document's: uniform in
 * [-1000, 1000], no zeros.  --budget stops starting new matrices after that
 * many seconds.  Output: one line per case on stdout (whitespace columns).
 */
#include "axb.h"
#include "bench_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static axb_handle h, href, hcpu;
static axb_fixedpoint_opts fp_base; /* --block, --section, --tol */
static int only_fp;                 /* --only-fp 1: no getrf, no CM */

/* Copy of A (ld = n). */
static axb_dense copy(const axb_dense *A) {
  axb_dense C;
  if (axb_dense_create(&C, A->rows, A->cols, A->dtype)) exit(3);
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      axb_dense_set(&C, i, j, axb_dense_get(A, i, j));
  return C;
}

/* Crout's Z in getrf's layout: unit L (l_ij / l_jj), U with the diagonal. */
static void to_getrf_layout(axb_dense *Z) {
  const int64_t n = Z->rows;
  double *d = malloc((size_t)n * sizeof *d);
  if (!d) exit(3);
  for (int64_t i = 0; i < n; ++i)
    d[i] = axb_dense_get(Z, i, i);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double z = axb_dense_get(Z, i, j);
      if (i > j) axb_dense_set(Z, i, j, z / d[j]);
      if (i < j) axb_dense_set(Z, i, j, z * d[i]);
    }
  free(d);
}

/* Backward error of x from a getrf-layout factor (ipiv may be NULL). */
static double solve_berr(const axb_dense *A, const axb_dense *F,
                         const int64_t *ipiv) {
  const int64_t n = A->rows;
  axb_dense Xt, B;
  if (axb_gen_rhs(hcpu, A, 1, AXB_RHS_RANDOM, 1, &Xt, &B)) return NAN;
  axb_dense X = copy(&B);
  int64_t *p = malloc((size_t)n * sizeof *p);
  for (int64_t i = 0; i < n && p; ++i)
    p[i] = ipiv ? ipiv[i] : i + 1;
  axb_status st = !p ? AXB_ERR_OUT_OF_MEMORY
                  : A->dtype == AXB_F64
                      ? axb_dgetrs(hcpu, AXB_NO_TRANS, n, 1, F->data, F->ld, p,
                                   X.data, X.ld, NULL)
                      : axb_sgetrs(hcpu, AXB_NO_TRANS, n, 1, F->data, F->ld, p,
                                   X.data, X.ld, NULL);
  const double r = st ? NAN : axb_check_solve(A, &X, &B);
  free(p);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  return r;
}

static void line(const char *name, const axb_dense *A, const char *impl,
                 double t, const axb_fixedpoint_stats *s, axb_status st,
                 double maxdiff, double lu, double berr) {
  char sw[64] = "-";
  if (s)
    snprintf(sw, sizeof sw, "%lld/%lld", (long long)s->sweeps,
             (long long)s->sections);
  printf("%-26s %6lld %-6s %-14s %10.3f %12s %11.3g %10.3g %10.3g  %s\n", name,
         (long long)A->rows, axb_dtype_name(A->dtype), impl, 1e3 * t, sw,
         maxdiff, lu, berr, st ? axb_strerror(st) : "ok");
  fflush(stdout);
}

static void production(const char *name, const axb_dense *A) {
  const int64_t n = A->rows;
  int64_t *ipiv = malloc((size_t)n * sizeof *ipiv), info = 0;
  double t[4];
  axb_dense F = {0};
  axb_status st = AXB_SUCCESS;
  for (int r = 0; r < 4 && !st; ++r) {
    if (r) axb_dense_destroy(&F);
    F = copy(A);
    const double t0 = bench_now();
    st = A->dtype == AXB_F64 ? axb_dgetrf(h, n, n, F.data, F.ld, ipiv, &info)
                             : axb_sgetrf(h, n, n, F.data, F.ld, ipiv, &info);
    t[r] = bench_now() - t0;
  }
  qsort(t + 1, 3, sizeof *t, bench_cmp_double);
  line(
      name, A, "getrf", t[2], NULL, st, st ? NAN : axb_max_lu_diff(A, &F, ipiv),
      st ? NAN : axb_check_lu(A, &F, ipiv), st ? NAN : solve_berr(A, &F, ipiv));
  axb_dense_destroy(&F);
  free(ipiv);
}

static void fixedpoint(const char *name, const axb_dense *A, int sched) {
  axb_fixedpoint_opts o = fp_base;
  o.scheduler = sched;
  axb_fixedpoint_stats s;
  memset(&s, 0, sizeof s);
  axb_dense Z = copy(A);
  int64_t info = 0;
  const double t0 = bench_now();
  axb_status st =
      A->dtype == AXB_F64
          ? axb_dgetrf_fixedpoint(h, A->rows, Z.data, Z.ld, &o, &s, &info)
          : axb_sgetrf_fixedpoint(h, A->rows, Z.data, Z.ld, &o, &s, &info);
  const double t = bench_now() - t0;
  double md = NAN, lu = NAN, be = NAN;
  if (!st) {
    to_getrf_layout(&Z);
    md = axb_max_lu_diff(A, &Z, NULL);
    lu = axb_check_lu(A, &Z, NULL);
    be = solve_berr(A, &Z, NULL);
  }
  char impl[32];
  snprintf(impl, sizeof impl, "%s-B%d", sched ? "fp-dag" : "fp-pairs",
           o.block ? o.block : 16);
  line(name, A, impl, t, &s, st, md, lu, be);
  if (st && info) printf("    (%s)\n", axb_detail(h));
  axb_dense_destroy(&Z);
}

/* The document's sequential Crout ("CM"), no pivoting, one CPU thread. */
static void crout_cm(const char *name, const axb_dense *A) {
  axb_dense Z = copy(A);
  int64_t info = 0;
  const double t0 = bench_now();
  axb_status st =
      A->dtype == AXB_F64
          ? axb_dgetrf_crout(href, A->rows, Z.data, Z.ld, NULL, &info)
          : axb_sgetrf_crout(href, A->rows, Z.data, Z.ld, NULL, &info);
  const double t = bench_now() - t0;
  double md = NAN;
  if (!st) {
    to_getrf_layout(&Z);
    md = axb_max_lu_diff(A, &Z, NULL);
  }
  line(name, A, "crout-cpu1", t, NULL, st, md, NAN, NAN);
  axb_dense_destroy(&Z);
}

static void study(const char *name, const axb_dense *A, int64_t cm_max) {
  if (!only_fp) production(name, A);
  fixedpoint(name, A, AXB_FP_SCHED_PAIRS);
  fixedpoint(name, A, AXB_FP_SCHED_DAG);
  if (!only_fp && A->rows <= cm_max) crout_cm(name, A);
}

int main(int argc, char **argv) {
  axb_backend be = AXB_BACKEND_CUDA;
  double budget = 1e30;
  const char *random = "";
  int64_t cm_max = 2048;
  int first = 1, nt = 2, t0i = 0;
  axb_fixedpoint_opts_default(&fp_base);
  for (; first < argc && argv[first][0] == '-'; first += 2) {
    if (first + 1 >= argc) return 2;
    const char *o = argv[first], *v = argv[first + 1];
    if (!strcmp(o, "--backend"))
      be = !strcmp(v, "cpu")   ? AXB_BACKEND_CPU
           : !strcmp(v, "ref") ? AXB_BACKEND_REF
                               : AXB_BACKEND_CUDA;
    else if (!strcmp(o, "--budget"))
      budget = atof(v);
    else if (!strcmp(o, "--random"))
      random = v;
    else if (!strcmp(o, "--cm-max"))
      cm_max = atoll(v);
    else if (!strcmp(o, "--block"))
      fp_base.block = atoi(v);
    else if (!strcmp(o, "--section"))
      fp_base.section = atoll(v);
    else if (!strcmp(o, "--tol"))
      fp_base.tol = atof(v);
    else if (!strcmp(o, "--only-fp"))
      only_fp = atoi(v);
    else if (!strcmp(o, "--precision")) {
      t0i = !strcmp(v, "single");
      nt = !strcmp(v, "both") ? 2 : 1;
      if (nt == 2) t0i = 0;
    } else
      return 2;
  }
  axb_status st = axb_handle_create(&h, be, 0);
  if (st) {
    printf("SKIP: %s backend: %s\n", axb_backend_name(be), axb_strerror(st));
    return st == AXB_ERR_NO_DEVICE || st == AXB_ERR_NOT_COMPILED ? 77 : 1;
  }
  if (axb_handle_create(&href, AXB_BACKEND_REF, 0) ||
      axb_handle_create(&hcpu, AXB_BACKEND_CPU, 0))
    return 1;
  printf("%-26s %6s %-6s %-14s %10s %12s %11s %10s %10s  %s\n", "matrix", "n",
         "prec", "impl", "ms", "sweeps/sec", "max|A-LU|", "LU-ratio",
         "solve-berr", "status");
  const double t_start = bench_now();
  const axb_dtype types[2] = {AXB_F64, AXB_F32};
  char buf[256];
  snprintf(buf, sizeof buf, "%s", random);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    for (int d = t0i; d < t0i + nt && bench_now() - t_start < budget; ++d) {
      char spec[64];
      snprintf(spec, sizeof spec, "uniform1000:%s,seed=1", tok);
      axb_gen_spec g;
      axb_dense A;
      if (axb_gen_parse(h, spec, &g) || axb_gen_dense(h, &g, types[d], &A))
        continue;
      study(spec, &A, cm_max);
      axb_dense_destroy(&A);
    }
  }
  for (int f = first; f < argc; ++f)
    for (int d = t0i; d < t0i + nt && bench_now() - t_start < budget; ++d) {
      axb_dense A;
      if (axb_read_dense(h, argv[f], types[d], &A)) {
        printf("%s: %s\n", argv[f], axb_detail(h));
        continue;
      }
      const char *base = strrchr(argv[f], '/');
      study(base ? base + 1 : argv[f], &A, cm_max);
      axb_dense_destroy(&A);
    }
  if (bench_now() - t_start >= budget)
    printf("(budget of %g s reached)\n", budget);
  axb_handle_destroy(hcpu);
  axb_handle_destroy(href);
  axb_handle_destroy(h);
  return 0;
}
