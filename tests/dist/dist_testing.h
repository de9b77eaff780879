/*
 * What the distributed tests (test_dist, test_dist_cond) share: the check
 * counters and CHECK, the handle and grid, start-up and the summary line,
 * a same-on-every-rank test and axb_gen_dense's full matrix on every rank.
 * Each program includes it once.
 */
#ifndef AXB_TESTS_DIST_TESTING_H
#define AXB_TESTS_DIST_TESTING_H

#include "axb_dist.h"

#include <stdio.h>
#include <stdlib.h>

static int fails, checks, rank_;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++fails;                                                                 \
      fprintf(stderr, "rank %d: %s:%d: CHECK(%s) failed: ", rank_, __FILE__,   \
              __LINE__, #cond);                                                \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

static axb_handle H;
static axb_dist_grid *G;
static int P_, Q_;

/* The same int64 on every rank? */
static inline int same_everywhere(int64_t v) {
  int64_t lo, hi;
  MPI_Allreduce(&v, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&v, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* axb_gen_dense's matrix for spec, whole, on every rank. */
static inline axb_dense gen_full(const char *spec, axb_dtype t) {
  axb_gen_spec s;
  axb_dense A;
  if (axb_gen_parse(H, spec, &s) != AXB_SUCCESS ||
      axb_gen_dense(H, &s, t, &A) != AXB_SUCCESS) {
    fprintf(stderr, "rank %d: cannot generate %s: %s\n", rank_, spec,
            axb_detail(H));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return A;
}

/* MPI, the CPU handle on one thread and the P x Q grid of argv[1], argv[2]
   (1 x 1 without them). */
static inline void dist_test_start(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  P_ = *argc > 2 ? atoi((*argv)[1]) : 1;
  Q_ = *argc > 2 ? atoi((*argv)[2]) : 1;
  axb_handle_create(&H, AXB_BACKEND_CPU, 0);
  axb_set_threads(H, 1);
  if (axb_dist_grid_create(H, MPI_COMM_WORLD, P_, Q_, &G) != AXB_SUCCESS) {
    fprintf(stderr, "grid: %s\n", axb_detail(H));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/* Every rank's counts summed, one line from rank 0, the grid and MPI gone;
   returns the exit code (1 when a check failed on some rank). */
static inline int dist_test_finish(const char *name) {
  int all_f = 0, all_c = 0;
  MPI_Allreduce(&fails, &all_f, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&checks, &all_c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0)
    printf("%s %dx%d: %d checks, %d failed\n", name, P_, Q_, all_c, all_f);
  axb_dist_grid_destroy(G);
  axb_handle_destroy(H);
  MPI_Finalize();
  return all_f ? 1 : 0;
}

#endif
