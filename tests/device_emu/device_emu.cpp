/*
 * tests/device_emu: runs the device code of the batched solvers on the host
 * through cuda_emu.h and checks it (run.sh builds and runs this; no GPU,
 * not part of ctest).  Covered: the cooperative group functions of
 * axb_device.cuh for NMAX = 8, 12, 16, 24, 32 (groups of 2..32 lanes, one to
 * four rows per lane, shuffles and shared-memory slots) and 64 (Block), every
 * operation, singular and not-SPD matrices in the mix; thread_inverse; and
 * the per-thread kernels of the batched API (batched_thread.cuh) for
 * n = 1..8 in both precisions with padded and packed strides (packed also
 * one element off 16-byte alignment), both triangles, one and three
 * right-hand sides and batches of 1, 3, 129, 130, 131 and 150 (two tiles);
 * and the exact classes NMAX = 7, 9..11, 13..15 of the inverse and the
 * one-rhs solve.
 */
#include "cuda_emu.h"

#include "axb_device.cuh"
#include "batched_thread.cuh"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <thread>
#include <vector>

using axb_cuda::bat_thread_kernel;
using axb_cuda::BatArgs;
using axb_cuda::ThreadTile;

static int g_fail = 0, g_checks = 0, g_exact = 0;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    ++g_checks;                                                                \
    if (!(c)) {                                                                \
      ++g_fail;                                                                \
      if (g_fail < 30) {                                                       \
        printf("FAIL: ");                                                      \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

/* One OS thread per CUDA thread of one block. */
static void run_threads(int nthreads, const std::function<void(int)> &f) {
  emu_init(nthreads);
  std::vector<std::thread> th;
  for (int t = 0; t < nthreads; ++t)
    th.emplace_back([&, t] {
      threadIdx.x = (unsigned)t;
      f(t);
    });
  for (auto &x : th)
    x.join();
}
static std::mt19937_64 rng(7);

// The groups of checks, in this order (each uses functions of those before).
#include "group_functions.cpp"

#include "ties.cpp"

#include "thread_kernels.cpp"

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "ties")) { /* the tie cases alone */
    all_ties();
    printf("ties: %d exact factorizations (pivots compared)\n", g_exact);
    CHECK(g_exact > 0, "ties: no exact factorization, no pivot compared");
    printf("device_emu ties: %d checks, %d failed\n", g_checks, g_fail);
    return g_fail != 0;
  }
  per_thread<1>();
  per_thread<2>();
  per_thread<3>();
  per_thread<4>();
  per_thread<5>();
  per_thread<6>();
  per_thread<7>();
  per_thread<8>();
  both<1>();
  both<2>();
  both<3>();
  both<4>();
  both<5>();
  both<6>();
  both<7>();
  both<8>();
  printf("per thread: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n = 1; n <= 8; ++n) {
    coop<8, 8, true>(n);
    coop<8, 8, false>(n);
    coop<8, 4, true>(n);
    coop<8, 2, true>(n);
    coop<8, 2, false>(n);
  }
  printf("NMAX 8: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n = 1; n <= 16; ++n) {
    coop<16, 16, true>(n);
    coop<16, 16, false>(n);
    coop<16, 8, true>(n);
    coop<16, 8, false>(n);
    coop<16, 4, true>(n);
    coop<16, 4, false>(n);
  }
  for (int n : {1, 7, 9, 11, 12}) { /* the API's size class 12 */
    coop<12, 16, true>(n);
    coop<12, 16, false>(n);
    coop<12, 4, false>(n);
  }
  /* the API's exact classes of the inverse and the one-rhs solve (slot
     and shuffles at n = NMAX, and one smaller n at the ends) */
  exact_classes<7, 9, 10, 11, 13, 14, 15>();
  coop<7, 8, true>(4);
  coop<15, 16, true>(8);
  printf("NMAX 16: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n : {1, 2, 5, 16, 17, 23, 24, 31, 32}) {
    coop<32, 32, false>(n);
    coop<32, 32, true>(n);
    coop<32, 16, true>(n);
    coop<32, 16, false>(n);
    coop<32, 8, false>(n);
  }
  for (int n : {1, 13, 17, 23, 24}) { /* the API's size class 24 */
    coop<24, 32, true>(n);
    coop<24, 32, false>(n);
    coop<24, 8, false>(n);
  }
  printf("NMAX 32: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n : {1, 33, 47, 64})
    coop<64, 64, false>(n);
  all_ties();
  printf("ties: %d exact factorizations (pivots compared)\n", g_exact);
  CHECK(g_exact > 0, "ties: no exact factorization, no pivot compared");
  printf("device_emu: %d checks, %d failed\n", g_checks, g_fail);
  return g_fail != 0;
}
