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
/* Directory of tests/data (AXB_TEST_DATA). */
const char *test_data_dir(void);
/* Print "name: N checks, M failed" and return the exit code. */
int test_finish(const char *name);

#endif
