/* issue28k scratch: take_lower_ (library) against the variant in
   variant.h, interleaved, wall time on T threads, min and median of R
   runs; A re-read by a memcpy before each, as in bench_cert. */
#include "dense/solve.c"
#include "take_lower_knobs.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(getenv("CPUT") ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
int main(int argc, char **argv) {
  int64_t n = atoi(argv[1]);
  int R = atoi(argv[2]), th = atoi(argv[3]);
  if (getenv("PFD")) PFD = atoi(getenv("PFD"));
  if (getenv("PFL")) PFL = atoi(getenv("PFL"));
  double *A = malloc(n * n * 8), *F = axb__malloc_large(n * n, 8),
         *W = malloc(n * n * 8), *rows = calloc(n * th, 8),
         *r2 = calloc(n * th, 8);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      A[i + j * n] = A[j + i * n] = 1.0 / (1 + i + j) + (i == j);
  memset(F, 0, n * n * 8);
  double t[3][400];
  for (int r = 0; r < R; ++r) {
    memcpy(W, A, n * n * 8);
    double t0 = now();
    memset(rows, 0, n * th * 8);
    int s1 = take_lower_d(n, A, n, F, n, rows, th);
    double t1 = now();
    memcpy(W, A, n * n * 8);
    double t2 = now();
    memset(r2, 0, n * th * 8);
    int s2 = take_lower2_d(n, A, n, F, n, r2, th);
    double t3 = now();
    memcpy(W, A, n * n * 8);
    double t4 = now();
    double cs[1];
    (void)cs;
    take_a_d(n, A, n, W, n, rows + 0, NULL, NULL, th); /* LU's copy (into W) */
    double t5 = now();
    if (!s1 || !s2) return printf("asym\n"), 1;
    if (r == 0) {
      memset(rows, 0, n * th * 8);
      memset(r2, 0, n * th * 8);
      take_lower_d(n, A, n, F, n, rows, th);
      take_lower2_d(n, A, n, F, n, r2, th);
      if (memcmp(rows, r2, n * th * 8)) printf("sums differ!\n");
    }
    t[0][r] = t1 - t0, t[1][r] = t3 - t2, t[2][r] = t5 - t4;
  }
  for (int k = 0; k < 3; ++k)
    qsort(t[k], R, 8, cmpd);
  printf("n=%lld th=%d PFD=%d PFL=%d wall ms: cur min %.3f med %.3f | var min "
         "%.3f med %.3f | LU copy min %.3f med %.3f\n",
         (long long)n, th, PFD, PFL, t[0][0] * 1e3, t[0][R / 2] * 1e3,
         t[1][0] * 1e3, t[1][R / 2] * 1e3, t[2][0] * 1e3, t[2][R / 2] * 1e3);
  return 0;
}
