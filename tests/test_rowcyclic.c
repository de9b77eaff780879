/*
 * Gaussian elimination on [A | B] of SEEDS.md 2 through axb_[ds]gesv_gauss
 * and axb_[ds]gesv_rowcyclic (on cuda: rows cyclic over a shrinking number
 * of blocks; on the CPU backends gesv_gauss).  Judged by the scaled solve
 * residual of DESIGN.md: with partial pivoting on general matrices, without
 * on strongly regular ones (diagonally dominant, SPD).  Every option: both
 * schedules, few and many blocks, 32 and 1024 threads, the tree and the
 * pipelined (per-unknown flags) back substitution.  A zero or tiny pivot is
 * reported without pivoting (AXB_ERR_SMALL_PIVOT, info = column) and solved
 * with it; a zero column is AXB_ERR_SINGULAR.  Sizes 1, 2, 3, odd, not
 * multiples of the block; on cuda also 1030 and 2049 (AXB_TEST_QUICK=1
 * leaves them out, for compute-sanitizer).
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;
static int on_cuda, quick;

static axb_status rc(axb_dense *A, axb_dense *B, const axb_rowcyclic_opts *o,
                     int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dgesv_rowcyclic(h, A->rows, B->cols, A->data, A->ld, B->data,
                               B->ld, o, info);
  return axb_sgesv_rowcyclic(h, A->rows, B->cols, A->data, A->ld, B->data,
                             B->ld, o, info);
}

static axb_rowcyclic_opts opts(int pivot, int sched, int blocks, int threads,
                               int pipelined) {
  axb_rowcyclic_opts o;
  axb_rowcyclic_opts_default(&o);
  o.pivot = pivot;
  o.schedule = sched;
  o.blocks = blocks;
  o.threads = threads;
  o.pipelined = pipelined;
  return o;
}

static axb_status rc_solver(axb_dense *F, axb_dense *X, const void *o,
                            int64_t *info) {
  return rc(F, X, o, info);
}

static void solve_case(axb_gen_kind kind, int64_t n, int64_t nrhs, axb_dtype t,
                       const axb_rowcyclic_opts *o) {
  char what[160];
  snprintf(what, sizeof what,
           "rowcyclic %s n=%lld nrhs=%lld %s pivot=%d sched=%d G0=%d T=%d "
           "pipe=%d",
           axb_gen_kind_name(kind), (long long)n, (long long)nrhs,
           axb_dtype_name(t), o->pivot, o->schedule, o->blocks, o->threads,
           o->pipelined);
  axb_dense A = test_gen(h, kind, n, t, 0, 0, 300 + (uint64_t)n);
  test_solve_inplace(h, &A, nrhs, 1, 2, rc_solver, o, what);
  axb_dense_destroy(&A);
}

static void cases(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 3, 17, 33, 100, 257};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    const int64_t n = sizes[i], k = i % 2 ? 3 : 1;
    axb_rowcyclic_opts o = opts(1, AXB_RC_DECREMENT, 0, 0, 0);
    solve_case(AXB_GEN_UNIFORM, n, k, t, &o);
    solve_case(AXB_GEN_INTEGER, n, k, t, &o);
    o = opts(1, AXB_RC_HALVE, 5, 32, 1);
    solve_case(AXB_GEN_UNIFORM1000, n, k, t, &o);
    o = opts(0, AXB_RC_DECREMENT, 3, 1024, 0);
    solve_case(AXB_GEN_DIAG_DOMINANT, n, k, t, &o);
    o = opts(0, AXB_RC_HALVE, 0, 64, 1);
    solve_case(AXB_GEN_SPD_SHIFT, n, k, t, &o);
  }
  if (on_cuda && !quick) {
    axb_rowcyclic_opts o = opts(1, AXB_RC_DECREMENT, 0, 0, 0);
    solve_case(AXB_GEN_UNIFORM, 1030, 2, t, &o);
    o = opts(1, AXB_RC_HALVE, 0, 0, 1);
    solve_case(AXB_GEN_UNIFORM, 2049, 1, t, &o);
    o = opts(0, AXB_RC_DECREMENT, 0, 128, 1);
    solve_case(AXB_GEN_DIAG_DOMINANT, 1030, 1, t, &o);
  }
}

/* [[0, 1], [1, 0]] and [[1e-20, 1], [1, 1]]: the original (no pivoting)
   must report the pivot of column 1; with pivoting both solve.  Also
   through gesv_gauss, the CUDA table's entry for the same kernels. */
static void bad_pivots(axb_dtype t) {
  const double cases2[2][4] = {{0, 1, 1, 0}, {1e-20, 1, 1, 1}};
  for (int c = 0; c < 2; ++c)
    for (int pivot = 0; pivot < 2; ++pivot)
      for (int entry = 0; entry < 2; ++entry) {
        axb_dense A = test_alloc(2, 2, 2, t), B = test_alloc(2, 1, 2, t);
        for (int k = 0; k < 4; ++k)
          axb_dense_set(&A, k % 2, k / 2, cases2[c][k]);
        axb_dense_set(&B, 0, 0, 1);
        axb_dense_set(&B, 1, 0, 2);
        axb_dense F = test_copy_ld(&A, 2), X = test_copy_ld(&B, 2);
        int64_t info = -1;
        axb_rowcyclic_opts o = opts(pivot, AXB_RC_DECREMENT, 0, 0, pivot);
        axb_status st =
            entry ? rc(&F, &X, &o, &info)
            : t == AXB_F64
                ? axb_dgesv_gauss(h, 2, 1, F.data, 2, X.data, 2, pivot, &info)
                : axb_sgesv_gauss(h, 2, 1, F.data, 2, X.data, 2, pivot, &info);
        if (pivot) {
          CHECK_STATUS(h, st, AXB_SUCCESS);
          CHECK_RATIO(axb_check_solve(&A, &X, &B), "pivot case %d", c);
        } else {
          CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
          CHECK(info == 1, "nopivot case %d: info %lld", c, (long long)info);
        }
        axb_dense_destroy(&A);
        axb_dense_destroy(&B);
        axb_dense_destroy(&F);
        axb_dense_destroy(&X);
      }
}

static axb_status rc_halve(axb_dense *F, axb_dense *X, int pivot,
                           int64_t *info) {
  axb_rowcyclic_opts o = opts(pivot, AXB_RC_HALVE, 4, 32, 0);
  return rc(F, X, &o, info);
}

static void singular(axb_dtype t, int64_t n, int64_t col) {
  test_singular_column(h, t, n, col, rc_halve, "rowcyclic");
}

static void arguments(void) {
  double a[4] = {2, 1, 1, 2}, b[2] = {3, 3};
  int64_t info = 0;
  axb_rowcyclic_opts o = opts(1, AXB_RC_DECREMENT, 0, 48, 0);
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 1, a, 2, b, 2, &o, &info), -7);
  CHECK(info == -7, "bad threads: info %lld", (long long)info);
  o = opts(2, AXB_RC_DECREMENT, 0, 0, 0);
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 1, a, 2, b, 2, &o, &info), -7);
  o = opts(1, 9, 0, 0, 0);
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 1, a, 2, b, 2, &o, &info), -7);
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 1, a, 1, b, 2, NULL, &info), -4);
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 0, 1, NULL, 1, NULL, 1, NULL, &info),
               AXB_SUCCESS);
  /* nrhs = 0: A is eliminated, nothing is solved. */
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 0, a, 2, NULL, 2, NULL, &info),
               AXB_SUCCESS);
  double a2[4] = {2, 1, 1, 2};
  CHECK_STATUS(h, axb_dgesv_rowcyclic(h, 2, 1, a2, 2, b, 2, NULL, &info),
               AXB_SUCCESS);
  CHECK(b[0] == 1 && b[1] == 1, "[[2,1],[1,2]] x = (3,3): x = (%g, %g)", b[0],
        b[1]);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  on_cuda = axb_handle_backend(h) == AXB_BACKEND_CUDA;
  const char *q = getenv("AXB_TEST_QUICK");
  quick = q && *q && strcmp(q, "0") != 0;
  arguments();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    bad_pivots(types[i]);
    singular(types[i], 10, 4);
    singular(types[i], 33, 32);
    singular(types[i], 1, 0);
    cases(types[i]);
  }
  axb_handle_destroy(h);
  return test_finish("test_rowcyclic");
}
