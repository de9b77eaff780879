/*
 * The batched API (issue 6): getrf, getrs, gesv, inverse, potrf, potrs and
 * posv _batched, float and double, every n from 1 to 64, strided batches
 * with lda > n and gaps between problems (NaN padding that must stay NaN)
 * and packed ones (lda = n, no gap),
 * batches mixing well-conditioned, ill-conditioned and singular (or not
 * SPD) problems: each problem is judged alone by the library's checks
 * (axb_check_lu/solve/inverse/cholesky < 30) and its info against the
 * reference backend's typed routine on the same matrix; a failed problem
 * leaves its B (gesv, posv) or A (inverse) unchanged.  Batch sizes 0, 1,
 * odd and large (on CUDA with 18 GB free, past one grid of 2^22 blocks);
 * mostly-zero matrices; matrices scaled near the ends of the exponent
 * range (2^+-1003 double, 2^+-102 float); illegal arguments.  Host arrays on
 * ref/cpu handles; the same program built as test_batched_cuda runs it on
 * device arrays; gesv_batched_cert (batched/cert.c) on both.
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

static axb_handle h, href;
static int on_device;

/* The parts, one file each under tests/batched/ (one translation unit:
   test_batched_cuda.c builds the same program with TEST_BATCHED_CUDA). */
#include "batched/batch_buf.c"

#include "batched/operands.c"

#include "batched/arguments.c"
#include "batched/cert.c"
#include "batched/chol_family.c"
#include "batched/lu_family.c"
#include "batched/past_one_grid.c"

int main(int argc, char **argv) {
#ifdef TEST_BATCHED_CUDA
#ifndef AXB_TEST_HAVE_CUDA
  (void)argc;
  (void)argv;
  printf("test_batched_cuda: no CUDA in this build\n");
  return 77;
#else
  (void)argc;
  (void)argv;
  h = test_handle(AXB_BACKEND_CUDA);
  on_device = 1;
#endif
#else
  h = test_handle(test_backend_arg(argc, argv));
#endif
  href = test_handle(AXB_BACKEND_REF);
  test_arguments();
  test_cert();
  const axb_dtype types[2] = {AXB_F64, AXB_F32};
  for (int ti = 0; ti < 2; ++ti) {
    /* AXB_TEST_BATCHED_QUICK=1 (for compute-sanitizer runs): fewer n. */
    const char *quick = getenv("AXB_TEST_BATCHED_QUICK");
    const int q = quick && quick[0] == '1';
    for (int64_t n = 1; n <= 64; ++n) {
      if (q &&
          !(n <= 3 || n == 6 || n == 7 || n == 8 || n == 10 || n == 12 ||
            n == 13 || n == 17 || n == 24 || n == 32 || n == 33 || n == 64))
        continue;
      test_lu_family(types[ti], n, 7);
      test_chol_family(types[ti], n, 5, (n & 1) ? AXB_UPPER : AXB_LOWER);
    }
    /* batch sizes 0 and 1, and a large odd batch (grid-stride loops) */
    const int64_t ns[] = {1, 3, 6, 16, 33, 64};
    for (int i = 0; i < 6; ++i) {
      test_lu_family(types[ti], ns[i], 0);
      test_lu_family(types[ti], ns[i], 1);
      test_chol_family(types[ti], ns[i], 1, AXB_LOWER);
      test_chol_family(types[ti], ns[i], 0, AXB_UPPER);
    }
    test_lu_family(types[ti], 5, q ? 65 : 1001);
    /* packed (lda = n, no gap) at and around the group kernels' size
       classes, odd batches (a warp's last groups inactive) */
    packed_mode = 1;
    const int64_t pn[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                          11, 12, 13, 14, 15, 16, 17, 24, 32, 64};
    for (int i = 0; i < 20; ++i)
      test_lu_family(types[ti], pn[i], q ? 5 : 37);
    /* packed but one element off 16-byte alignment (element-wise tiles) */
    shift_mode = 1;
    for (int64_t n = 1; n <= 6; ++n)
      test_lu_family(types[ti], n, q ? 5 : 37);
    shift_mode = 0;
    packed_mode = 0;
    /* pivots of extreme scale */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      scale_exp = sgn * (types[ti] == AXB_F64 ? 1003 : 102);
      const int64_t xn[] = {7, 8, 11, 12, 15, 16, 24, 32};
      for (int i = 0; i < 8; ++i)
        test_lu_family(types[ti], xn[i], q ? 5 : 10);
      packed_mode = 1;
      test_lu_family(types[ti], 16, q ? 5 : 10);
      packed_mode = 0;
    }
    scale_exp = 0;
    /* mostly-zero matrices: the zero-multiplier skips of the paired
       elimination steps (CPU kernels), odd and even n */
    sparse_mode = 1;
    const int64_t sn[] = {2, 3, 4, 5, 8, 9, 16, 17, 31, 64};
    for (int i = 0; i < 10; ++i)
      test_lu_family(types[ti], sn[i], 15);
    sparse_mode = 0;
    /* exactly tied pivot candidates (and +-0 columns), around the group
       and block sizes of the CUDA kernels */
    tie_mode = 1;
    pivots_compared = 0;
    const int64_t tn[] = {2, 5, 7, 8, 9, 16, 17, 24, 31, 32, 33, 48, 63, 64};
    for (int i = 0; i < 14; ++i)
      test_lu_family(types[ti], tn[i], 8);
    CHECK(pivots_compared > 0, "tie problems: no pivots compared");
    tie_mode = 0;
    test_chol_family(types[ti], 12, q ? 33 : 333, AXB_LOWER);
  }
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  {
    const char *quick = getenv("AXB_TEST_BATCHED_QUICK");
    if (!(quick && quick[0] == '1')) test_past_one_grid();
  }
#endif
  axb_handle_destroy(href);
  axb_handle_destroy(h);
  return test_finish(on_device ? "test_batched_cuda" : "test_batched");
}
