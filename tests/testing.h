/*
 * A minimal test harness.  CHECK records a failure and goes on, so one run
 * reports every broken case; test_finish() prints the tally and returns the
 * process exit code (0 pass, 1 fail).  Exit code 77 = skipped (ctest).
 */
#ifndef AXB_TESTING_H
#define AXB_TESTING_H

#include "axb.h"

#include <math.h>
#include <stdio.h>

extern int test_failures;
extern int test_checks;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    ++test_checks;                                                             \
    if (!(cond)) {                                                             \
      ++test_failures;                                                         \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* A status equal to `want`; prints both names and the handle detail. */
#define CHECK_STATUS(h, got, want)                                             \
  CHECK((got) == (want), "status %d (%s) want %d (%s); detail: %s", (got),     \
        axb_strerror(got), (want), axb_strerror(want), axb_detail(h))

/* A scaled residual below the DESIGN.md threshold (and not NaN). */
#define TEST_THRESHOLD 30.0
#define CHECK_RATIO(r, ...)                                                    \
  do {                                                                         \
    double r_ = (r);                                                           \
    ++test_checks;                                                             \
    if (!(r_ >= 0 && r_ < TEST_THRESHOLD)) {                                   \
      ++test_failures;                                                         \
      fprintf(stderr, "%s:%d: scaled residual %.3g not below %g: ", __FILE__,  \
              __LINE__, r_, TEST_THRESHOLD);                                   \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* Backend from argv[1] ("ref", "cpu", "cuda"); default ref. */
axb_backend test_backend_arg(int argc, char **argv);
/* Handle for that backend; exits 77 (skip) when it cannot exist here. */
axb_handle test_handle(axb_backend b);
/* Directory of ../shared/matrices (AXB_MATRICES), or NULL when absent. */
const char *test_matrices_dir(void);
/* test_matrices_dir(), or NULL after "note: no shared matrices: <what>
   skipped" on stderr. */
const char *test_matrices_or_note(const char *what);
/* Directory of tests/data (AXB_TEST_DATA). */
const char *test_data_dir(void);
/* Print "name: N checks, M failed" and return the exit code. */
int test_finish(const char *name);
/* Print "SKIP: why" and return 77, ctest's skip code (SKIP_RETURN_CODE). */
int test_skip(const char *why);

/*
 * Operands shared by the typed-API tests.  Where a helper cannot produce
 * its result (generator error, out of memory) it prints why and exits 1: a
 * test cannot go on without its operands, and no CHECK is counted for them.
 */

/* n x n matrix of generator `kind` (kappa, col, seed as in axb_gen_spec). */
axb_dense test_gen(axb_handle h, axb_gen_kind kind, int64_t n, axb_dtype t,
                   double kappa, int64_t col, uint64_t seed);
/* Matrix from a spec string ("spd:40", "cond:60,kappa=1e8"): axb_gen_parse
   then axb_gen_dense.  Returns their status and does not exit: callers
   judge it. */
axb_status test_gen_spec(axb_handle h, const char *spec, axb_dtype t,
                         axb_dense *A);
/* axb_sparse_opts_default with method m and preconditioner p. */
axb_sparse_opts test_sparse_opts(axb_sparse_method m, axb_precond p);
/* CSR matrix from a spec string ("poisson2d:7"); exits 1 when it cannot be
   generated. */
axb_csr test_gen_csr(axb_handle h, const char *spec, axb_dtype t);
/* Zero rows x cols matrix with leading dimension ld >= max(rows, 1). */
axb_dense test_alloc(int64_t rows, int64_t cols, int64_t ld, axb_dtype t);
/* Copy of A (any leading dimension) with leading dimension ld >= rows; rows
   rows..ld-1 hold NaN, so a kernel that reads them spoils its result. */
axb_dense test_copy_ld(const axb_dense *A, int64_t ld);
/* A^T (ld = max(A->cols, 1)). */
axb_dense test_transpose(const axb_dense *A);
/* Problem k of a packed batch: Ak (n x n, ld n) into columns k n..k n + n-1
   of A (n x n*batch) and its row sums into column k of B (n x batch), so
   that x = ones solves it. */
void test_batch_put(axb_dense *A, axb_dense *B, int64_t k, const axb_dense *Ak);
/* View of problem k of a packed batch M (M->rows rows, `cols` columns per
   problem, leading dimension M->rows): n x n for matrices, n x 1 for
   right-hand sides. */
axb_dense test_batch_item(const axb_dense *M, int64_t k, int64_t cols);
/* The NaN padding of test_copy_ld (rows rows..ld-1) is still all NaN. */
int test_padding_intact(const axb_dense *D);
/* Zeroed pivot array of max(n, 1) entries; free() it. */
int64_t *test_new_ipiv(int64_t n);
/* A solver that overwrites F (a copy of A) and X (B on entry, x on exit)
   and sets *info; ctx is the caller's. */
typedef axb_status (*test_inplace_solver)(axb_dense *F, axb_dense *X,
                                          const void *ctx, int64_t *info);
/* Solves A X = B for nrhs random right-hand sides (seed 4) on NaN-padded
   copies (leading dimensions n + fpad, n + xpad) and checks the status,
   info == 0, the scaled residual and that the padding is untouched; what
   names the case in failure messages. */
void test_solve_inplace(axb_handle h, const axb_dense *A, int64_t nrhs,
                        int64_t fpad, int64_t xpad, test_inplace_solver solve,
                        const void *ctx, const char *what);
/* An in-place solver with or without partial pivoting. */
typedef axb_status (*test_pivot_solver)(axb_dense *F, axb_dense *X, int pivot,
                                        int64_t *info);
/* A singular n x n matrix (zero column col) with n right-hand sides, with
   and without pivoting: AXB_ERR_SINGULAR with pivoting (an exactly zero
   pivot), AXB_ERR_SMALL_PIVOT without (a zero or tiny one), info in
   1..col + 1 either way; name starts the failure messages. */
void test_singular_column(axb_handle h, axb_dtype t, int64_t n, int64_t col,
                          test_pivot_solver solve, const char *name);

#endif
