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
#include <string.h>

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

static axb_handle H;  /* the CPU handle of the single-process references   */
static axb_handle HD; /* the distributed routines' handle: H, or with the
                         third argument `gpu` a CUDA handle (GPU ranks)  */
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

/* GPU ranks were asked for but there is no GPU (or no GPU ranks in this
   build): ctest's skip code. */
#define DIST_TEST_SKIP 77

/* MPI, the CPU handle on one thread and the P x Q grid of argv[1], argv[2]
   (1 x 1 without them); argv[3] = "gpu": the distributed routines run on
   GPU ranks (a CUDA handle on axb_dist_gpu_device's device; several ranks
   may share one GPU), and the program exits with DIST_TEST_SKIP when
   there is none. */
static inline void dist_test_start(int *argc, char ***argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0); /* NVLink multicast off (GPU ranks) */
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  P_ = *argc > 2 ? atoi((*argv)[1]) : 1;
  Q_ = *argc > 2 ? atoi((*argv)[2]) : 1;
  axb_handle_create(&H, AXB_BACKEND_CPU, 0);
  axb_set_threads(H, 1);
  HD = H;
  if (*argc > 3 && strcmp((*argv)[3], "gpu") == 0) {
    int dev = axb_dist_gpu_device(MPI_COMM_WORLD), lo = dev;
    MPI_Allreduce(&dev, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (lo < 0 ||
        axb_handle_create(&HD, AXB_BACKEND_CUDA, dev) != AXB_SUCCESS) {
      if (rank_ == 0)
        printf("%s %dx%d gpu: skipped (no GPU, or libaxb_dist built "
               "without CUDA)\n",
               (*argv)[0], P_, Q_);
      MPI_Finalize();
      exit(DIST_TEST_SKIP);
    }
  }
  if (axb_dist_grid_create(HD, MPI_COMM_WORLD, P_, Q_, &G) != AXB_SUCCESS) {
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
  if (HD != H) axb_handle_destroy(HD);
  axb_handle_destroy(H);
  MPI_Finalize();
  return all_f ? 1 : 0;
}

#endif
