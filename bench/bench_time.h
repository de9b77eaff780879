/*
 * bench_time.h: the clock and the median the benchmark programs share (C,
 * header only; static inline, so a program takes what it uses).
 *   bench_now()           seconds on CLOCK_MONOTONIC
 *   bench_cmp_double      qsort's ascending order of doubles
 *   bench_median(v, n)    the median of v[0..n) (sorts v; n >= 1)
 *   bench_run_option      --threads, --reps, --pause (bench_cert, bench_cpu)
 */
#ifndef AXB_BENCH_TIME_H
#define AXB_BENCH_TIME_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The middle value, or the mean of the two middle ones for even n. */
static inline double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The run options bench_cert and bench_cpu share, at argv[*i]: --threads
   N, --reps R, --pause MS.  1 when it took one (*i then stands on its
   value); 0 for anything else, or an option with no value after it. */
static inline int bench_run_option(int argc, char **argv, int *i, int *threads,
                                   int *reps, double *pause_ms) {
  const char *o = argv[*i];
  if (*i + 1 >= argc) return 0;
  if (!strcmp(o, "--threads"))
    *threads = atoi(argv[++*i]);
  else if (!strcmp(o, "--reps"))
    *reps = atoi(argv[++*i]);
  else if (!strcmp(o, "--pause"))
    *pause_ms = atof(argv[++*i]);
  else
    return 0;
  return 1;
}

#endif
