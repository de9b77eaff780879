/*
 * axb bench: reproducible comparisons of routines x backends x precisions
 * x sizes x matrix types x thread counts (issue 5), with a table on
 * stdout, JSON + CSV (+ gnuplot SVG/PNG) in --out DIR.  Method: per
 * problem the input is generated (or read) once; every implementation gets
 * its warm-up runs, then all timed runs of all implementations run in one
 * seeded random order, each on a fresh copy of the input (copy not timed).
 * Every run is judged by the scaled residual ||b - Ax|| / (||A|| ||x|| n
 * eps) of x computed from its output; a run at or above 30 (or failing) is
 * flagged and its implementation is not ranked.  The sparse solvers (CG,
 * CG1, PCG on generated Poisson matrices) are judged by their status: the
 * true relative residual must reach the tolerance.  --plot-history plots
 * the residual histories of `axb solve --history` and measures nothing.
 */
#include "bench.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int cli_bench(int argc, char **argv) {
  config c;
  int rc0 = bench_options(&c, argc, argv);
  if (rc0 >= 0) return rc0;
  if (c.nhist) { /* plot histories, measure nothing */
    for (int i = 0; i < c.nfile; ++i)
      free(c.file[i]);
    return plot_histories(&c);
  }

  /* Handles of the backends asked for; absent ones are dropped. */
  bench b;
  memset(&b, 0, sizeof b);
  b.c = &c;
  if (cli_handle(&b.hc, AXB_BACKEND_CPU, 0, 0, NULL, 0)) return CLI_INPUT;
  int any = open_backends(&b);
  if (!any) {
    close_backends(&b);
    cli_error("no backend to measure");
    return CLI_DEVICE;
  }
  if (c.baseline == -2) { /* openblas when measured, else the first present */
    c.baseline = -1;
    for (int i = 0; i < c.nbe; ++i)
      if (b.present[c.be[i]] && (c.baseline < 0 || c.be[i] == BK_OPENBLAS))
        c.baseline = c.be[i];
  }
  if (c.out && !mkdir_p(c.out)) {
    cli_error("%s: cannot create: %s", c.out, strerror(errno));
    close_backends(&b);
    return CLI_INPUT;
  }
  bench_rng_seed(c.seed);
  struct sigaction old;
  bench_catch_sigint(&old);

  /* Work estimate for the progress line. */
  progress pg = {0, 0, bench_now(), isatty(2)};
  impl im[BK_COUNT * MAXL];
  int ni = impls_for(&c, &b, im);
  int nsrc = c.nfile ? c.nfile : c.nmat;
  for (int d = 0; d < c.ndt; ++d)
    for (int m = 0; m < nsrc; ++m)
      for (int k = 0; k < (c.nfile ? 1 : c.nn); ++k)
        for (int r = 0; r < c.nrt; ++r)
          pg.total += rt_cost(c.rt[r], c.nfile ? 1000.0 : (double)c.n[k]) *
                      (rt_batched(c.rt[r]) ? (double)c.batch : 1.0) * ni *
                      (c.reps + c.warmup);

  int rc = CLI_OK;
  for (int d = 0; d < c.ndt && !bench_stop_flag; ++d)
    for (int m = 0; m < nsrc && !bench_stop_flag; ++m)
      for (int k = 0; k < (c.nfile ? 1 : c.nn) && !bench_stop_flag; ++k) {
        for (int pass = 0; pass < 2 && !bench_stop_flag; ++pass) {
          /* pass 0: routines on a general matrix, 1: on an SPD one
             (matrix "auto"); an explicit kind serves both. */
          int want_spd = pass == 1,
              auto_kind = !c.nfile && strcmp(c.mat[m], "auto") == 0;
          int any_rt = 0;
          for (int r = 0; r < c.nrt; ++r)
            any_rt |= rt_spd(c.rt[r]) == want_spd;
          if (auto_kind ? !any_rt : pass == 1) continue;
          /* The fixed point never pivots: with it in the list, "auto"
             gives every general routine a diagonally dominant matrix. */
          int no_pivot_rt = 0;
          for (int r = 0; r < c.nrt; ++r)
            no_pivot_rt |= c.rt[r] == RT_LU_FP || c.rt[r] == RT_LU_FP_DAG;
          const char *kind = auto_kind ? (want_spd      ? "spd"
                                          : no_pivot_rt ? "diagdom"
                                                        : "uniform")
                                       : (c.nfile ? NULL : c.mat[m]);
          /* Sparse solvers first (their matrices are Poisson CSR); then
             the dense routines, if any, on a dense problem. */
          int dense_rt = 0;
          for (int r = 0; r < c.nrt && !bench_stop_flag; ++r) {
            rtn rt = c.rt[r];
            if (!rt_sparse(rt)) {
              dense_rt |= !auto_kind || rt_spd(rt) == want_spd;
              continue;
            }
            if (pass == 1 || c.nfile) continue;
            const char *sk = auto_kind ? "poisson2d" : c.mat[m];
            if (strcmp(sk, "poisson2d") == 0 || strcmp(sk, "poisson3d") == 0)
              run_sparse(&b, rt, sk, c.n[k], c.dt[d], &pg);
          }
          if (!dense_rt) continue;
          axb_dense A = {0}, X = {0}, B = {0};
          char err[512] = "";
          axb_status st = make_problem(&b, kind, c.nfile ? c.file[m] : NULL,
                                       c.nfile ? 0 : c.n[k], c.dt[d], &A, &X,
                                       &B, err, sizeof err);
          const char *label = kind;
          if (c.nfile) {
            label = strrchr(c.file[m], '/');
            label = label ? label + 1 : c.file[m];
          }
          if (st) {
            fprintf(stderr, "axb bench: %s: %s (skipped)\n",
                    c.nfile ? c.file[m] : kind, err);
          } else if (c.nfile && A.rows > c.max_n) { /* --max-n: files only */
            fprintf(stderr,
                    "axb bench: %s: n = %lld > --max-n %lld (skipped)\n",
                    c.file[m], (long long)A.rows, (long long)c.max_n);
          } else {
            for (int r = 0; r < c.nrt && !bench_stop_flag; ++r) {
              rtn rt = c.rt[r];
              if (rt_sparse(rt)) continue;
              if (auto_kind && rt_spd(rt) != want_spd) continue;
              if (rt_study(rt) && A.rows > c.study_max) continue;
              if (rt_batched(rt))
                run_batched(&b, rt, kind, A.rows, c.dt[d], &pg);
              else
                run_problem(&b, rt, &A, &B, label, &pg);
            }
          }
          axb_dense_destroy(&A);
          axb_dense_destroy(&X);
          axb_dense_destroy(&B);
        }
      }
  if (pg.tty) fputs("\r\033[K", stderr);
  bench_release_sigint(&old);
  int interrupted = bench_stop_flag != 0;
  bench_derive(&c);
  if (c.source_note)
    printf("preset %s; the source reported: %s\n", c.preset, c.source_note);
  if (c.out) {
    if (!write_json(c.out, &c, argc, argv, interrupted) || !write_csv(c.out)) {
      cli_error("%s: cannot write the results: %s", c.out, strerror(errno));
      rc = CLI_INPUT;
    } else {
      fprintf(stderr, "axb bench: results.json, results.csv, runs.csv in %s\n",
              c.out);
      bench_plots(c.out, &c);
    }
  }
  print_table(stdout, &c);
  fflush(stdout);
  if (interrupted) {
    fprintf(stderr, "axb bench: interrupted; kept what was measured\n");
    rc = 130;
  }
  bench_results_free();
  for (int i = 0; i < c.nfile; ++i)
    free(c.file[i]);
  close_backends(&b);
  return rc;
}
