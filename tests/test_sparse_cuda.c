/*
 * The sparse GPU layer against host results: every SpMV kernel (VECTOR of
 * each width, MERGE, AUTO) in double and float against a host SpMV on
 * Poisson 2-D/3-D, hand-made irregular matrices (one long row spanning
 * many merge tiles, empty rows, 1 x 1, rectangular) and the real matrices
 * of ../shared/matrices; the cuSPARSE anchors (PCG + IC(0), BiCGStab +
 * ILU(0)) converge to a true residual <= tol and report a zero pivot.
 * Exit 77 without a GPU.  AXB_TEST_SPARSE_QUICK=1: small sizes only (for
 * compute-sanitizer).  AXB_TEST_SPARSE_RACE=1 (for compute-sanitizer
 * --tool racecheck, which checks shared memory only): every kernel of axb
 * that uses shared memory — the reductions, STREAM, MERGE, the CG1 fused
 * kernels and the flag and warp triangular solves (their shared ticket and
 * xs) — at the smallest sizes that still span several warps and blocks
 * (hand-made triangles of n <= 37, Poisson 2-D 13^2, vectors of n <= 1000);
 * it leaves out the solver runs (the same kernels at the same block
 * shapes, many more launches), the real matrices (the same kernels on
 * other data) and the cuSPARSE anchors (not axb's code).  The quick sizes
 * ran past 150 s under racecheck.
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#ifdef AXB_TEST_HAVE_CUDA
#include "core/template.h"
#include "sparse/cuda/spcuda.h"
#include "sparse/sparse_host.h"
#include "sparse/sparse_ops.h"
#include "vendor/cusparse_anchor.h"

#include <cuda_runtime.h>

static axb_handle g;   /* CUDA */
static axb_handle cpu; /* the CPU table's handle: the reference */
static int quick;
static int race; /* AXB_TEST_SPARSE_RACE: the racecheck subset */

/* The table entries against the CPU table, once per precision
   (tests/sparse_cuda/typed.c with T and P of core/template.h). */
#define g_h g
#define AXB_TEMPLATE "sparse_cuda/typed.c"
#include "core/instantiate.h"
#undef g_h

/* The untyped groups, in this order (each uses helpers of those before). */
#include "sparse_cuda/spmv.c"

#include "sparse_cuda/anchors.c"

#include "sparse_cuda/solvers.c"

int main(void) {
  int count = 0;
  if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
      axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    return test_skip("no CUDA device");
  }
  race = getenv("AXB_TEST_SPARSE_RACE") != NULL;
  quick = race || getenv("AXB_TEST_SPARSE_QUICK") != NULL;
  g = test_handle(AXB_BACKEND_CUDA);
  cpu = test_handle(AXB_BACKEND_CPU);
  ops_tests_d();
  ops_tests_s();
  if (!race) solver_tests();
  spmv_gen("poisson2d:7");
  if (!race) spmv_gen(quick ? "poisson3d:9" : "poisson3d:41");
  spmv_handmade();
  if (!race) {
    spmv_real();
    anchors();
  }
  axb__sparse_cuda_release(g);
  axb_handle_destroy(g);
  axb_handle_destroy(cpu);
  return test_finish("test_sparse_cuda");
}

#else
int main(void) { return test_skip("CUDA not compiled"); }
#endif
