/* p28c scratch harness: the driver's copy passes alone, one thread, thread
   CPU time (robust to other processes on the 2 cores), minimum of R runs.
   Built against the worktree (it includes src/dense/solve.c):
     gcc -O3 -DNDEBUG -fopenmp -std=c11 -D_POSIX_C_SOURCE=200809L \
       -DAXB_HAVE_OPENMP=1 -Iinclude -Isrc pass.c -o pass -Lbuild/rel \
       -l:libaxb.so.0 -lm -Wl,-rpath,$PWD/build/rel
   take_a sym: the old Cholesky/AUTO pass; take_lower: the new one;
   take_a plain: LU's copy. */
#include "dense/solve.c"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
  int64_t n = atoi(argv[1]);
  int R = atoi(argv[2]);
  double *A = malloc(n * n * 8), *F = malloc(n * n * 8), *cs = malloc(n * 8),
         *rows = calloc(n, 8);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      A[i + j * n] = A[j + i * n] = 1.0 / (1 + i + j) + (i == j);
  memset(F, 0, n * n * 8);
  double best[3] = {1e9, 1e9, 1e9};
  for (int r = 0; r < R; ++r) {
    int sym;
    double t0 = cpu();
    take_a_d(n, A, n, F, n, cs, NULL, &sym, 1);
    double t1 = cpu();
    memset(rows, 0, n * 8);
    sym = take_lower_d(n, A, n, F, n, rows, 1);
    double t2 = cpu();
    take_a_d(n, A, n, F, n, cs, NULL, NULL, 1);
    double t3 = cpu();
    if (t1 - t0 < best[0]) best[0] = t1 - t0;
    if (t2 - t1 < best[1]) best[1] = t2 - t1;
    if (t3 - t2 < best[2]) best[2] = t3 - t2;
  }
  printf("n=%lld cpu-min ms: take_a sym %.2f  take_lower %.2f  take_a "
         "plain(LU) %.2f\n",
         (long long)n, best[0] * 1e3, best[1] * 1e3, best[2] * 1e3);
  return 0;
}
