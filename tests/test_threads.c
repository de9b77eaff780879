/*
 * Issue 19, item 6: the documented thread model (include/axb/core.h, "Threads")
 * holds.  Several threads, each with its own handle, solve dense and
 * sparse systems, read Matrix Market text and fail on purpose, at the same
 * time; every thread's detail messages (per handle, and the thread-local
 * one of axb_detail(NULL)) must be its own.  scripts/test.sh runs this
 * program under ThreadSanitizer (clang, OpenMP off), which reports any
 * data race between the threads as an error.
 */
#include "testing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4
#define ROUNDS 6

typedef struct {
  int id;
  int failures; /* counted here: CHECK's counters are not thread-safe */
  char why[256];
} job;

static void fail(job *j, const char *what, const char *detail) {
  if (j->failures++ == 0)
    snprintf(j->why, sizeof j->why, "thread %d: %s (%s)", j->id, what,
             detail ? detail : "");
}

/* n x n diagonally dominant system with x = ones. */
static void dense_case(job *j, axb_handle h, int64_t n) {
  axb_dense A, B;
  if (axb_dense_create(&A, n, n, AXB_F64) ||
      axb_dense_create(&B, n, 1, AXB_F64)) {
    fail(j, "dense_create", axb_detail(NULL));
    axb_dense_destroy(&A);
    return;
  }
  double *a = A.data, *b = B.data;
  for (int64_t c = 0; c < n; ++c)
    for (int64_t r = 0; r < n; ++r)
      a[r + c * n] = r == c ? 2.0 * (double)n : 1.0 / (double)(1 + r + c);
  for (int64_t r = 0; r < n; ++r) {
    double s = 0;
    for (int64_t c = 0; c < n; ++c)
      s += a[r + c * n];
    b[r] = s;
  }
  axb_report rep;
  if (axb_solve(h, &A, &B, NULL, &rep) != AXB_SUCCESS)
    fail(j, "axb_solve", axb_detail(h));
  for (int64_t r = 0; r < n; ++r)
    if (!(fabs(b[r] - 1) < 1e-10)) {
      fail(j, "axb_solve answer", "x != ones");
      break;
    }
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}

static void sparse_case(job *j, axb_handle h) {
  /* A 1-D Laplacian read from text: the reader's locale guard runs in
     every thread at once. */
  char text[4096];
  int len = snprintf(text, sizeof text,
                     "%%%%MatrixMarket matrix coordinate real symmetric\n"
                     "%d %d %d\n",
                     20, 20, 39);
  for (int i = 1; i <= 20; ++i) {
    len += snprintf(text + len, sizeof text - (size_t)len, "%d %d 2.5\n", i, i);
    if (i < 20)
      len += snprintf(text + len, sizeof text - (size_t)len, "%d %d -1\n",
                      i + 1, i);
  }
  axb_csr S;
  if (axb_read_csr_mem(h, "lap.mtx", text, (size_t)len, AXB_F64, &S)) {
    fail(j, "read_csr_mem", axb_detail(h));
    return;
  }
  axb_dense B, X;
  axb_dense_create(&B, 20, 1, AXB_F64);
  axb_dense_create(&X, 20, 1, AXB_F64);
  for (int i = 0; i < 20; ++i)
    ((double *)B.data)[i] = 1;
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = j->id % 2 ? AXB_SPARSE_GMRES : AXB_SPARSE_CG;
  axb_sparse_report r;
  if (axb_sparse_solve(h, &S, &B, &X, &o, &r) != AXB_SUCCESS)
    fail(j, "axb_sparse_solve", axb_detail(h));
  axb_sparse_report_free(&r);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&S);
}

/* Failures of this thread: their messages name this thread's values. */
static void error_case(job *j, axb_handle h, int round) {
  char want[80], name[64];
  int64_t info;
  double a[1] = {1};
  int64_t ipiv[1];
  /* On the handle: m = -(id + 1) is argument 1. */
  axb_dgetrf(h, -(j->id + 1), 1, a, 1, ipiv, &info);
  if (!strstr(axb_detail(h), "argument 1"))
    fail(j, "handle detail", axb_detail(h));
  /* Without a handle: a method name only this thread uses. */
  snprintf(name, sizeof name, "no-such-method-%d-%d", j->id, round);
  axb_method m;
  if (axb_method_parse(name, &m) == AXB_SUCCESS)
    fail(j, "method_parse accepted", name);
  snprintf(want, sizeof want, "'%s'", name);
  if (!strstr(axb_detail(NULL), want))
    fail(j, "thread detail", axb_detail(NULL));
}

static void *worker(void *arg) {
  job *j = arg;
  axb_handle h = NULL;
  if (axb_handle_create(&h, j->id % 2 ? AXB_BACKEND_REF : AXB_BACKEND_CPU, 0)) {
    fail(j, "handle_create", axb_detail(NULL));
    return NULL;
  }
  for (int round = 0; round < ROUNDS; ++round) {
    dense_case(j, h, 24 + j->id);
    sparse_case(j, h);
    error_case(j, h, round);
  }
  axb_handle_destroy(h);
  return NULL;
}

int main(void) {
  pthread_t t[NTHREADS];
  job jobs[NTHREADS];
  memset(jobs, 0, sizeof jobs);
  for (int i = 0; i < NTHREADS; ++i) {
    jobs[i].id = i;
    CHECK(pthread_create(&t[i], NULL, worker, &jobs[i]) == 0, "thread %d", i);
  }
  for (int i = 0; i < NTHREADS; ++i) {
    pthread_join(t[i], NULL);
    CHECK(jobs[i].failures == 0, "%s", jobs[i].why);
  }
  return test_finish("test_threads");
}
