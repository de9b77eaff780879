/*
 * Allocation-failure injection (issue 19; CSparse's Tcov does the same):
 * every allocation a call makes through the library's helpers is made to
 * fail in turn (axb__alloc_fail_at, src/core/status.c).  Each run must end
 * in AXB_ERR_OUT_OF_MEMORY with a detail message, or in success with a
 * right answer (an optional buffer, such as the residual history, may be
 * dropped); never another status, a crash, or a leak (the ASan build of
 * scripts/test.sh runs LeakSanitizer at exit).  Runs per CPU-side backend
 * (AXB_TEST_PER_BACKEND).
 */
#include "core/internal.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ALLOCS 100000

typedef axb_status (*call_fn)(axb_handle h, void *ctx, int *right);

/* Allocations seen by the armed run; each call disarms right after the
   library call, so that its own checks allocate freely. */
static int64_t seen = -1;
static void disarm(void) {
  if (seen < 0) seen = axb__alloc_seen();
  axb__alloc_fail_at(0);
}

/* Fail allocation k = 1, 2, ... of call() until a run makes no more than
   k - 1 allocations (the injection did not fire). */
static void each_failure(axb_handle h, const char *name, call_fn call,
                         void *ctx) {
  int64_t k = 1;
  for (; k < MAX_ALLOCS; ++k) {
    int right = 0;
    seen = -1;
    axb__alloc_fail_at(k);
    axb_status st = call(h, ctx, &right);
    disarm();
    if (seen < k) { /* nothing failed: the run must be a success */
      CHECK(st == AXB_SUCCESS && right, "%s: clean run: status %d (%s)", name,
            st, axb_detail(h));
      break;
    }
    if (st == AXB_SUCCESS) {
      CHECK(right, "%s: allocation %lld failed, success, wrong answer", name,
            (long long)k);
    } else {
      CHECK(st == AXB_ERR_OUT_OF_MEMORY && axb_detail(h)[0],
            "%s: allocation %lld failed: status %d (%s), detail '%s'", name,
            (long long)k, st, axb_strerror(st), axb_detail(h));
    }
  }
  CHECK(k > 1, "%s: no allocation seen", name);
  printf("%s: %lld allocations failed in turn\n", name, (long long)(k - 1));
}

/* ---- dense: axb_solve and axb_invert on a diagonally dominant n = 30 --- */

typedef struct {
  int n;
  axb_method method;
  axb_dtype t;
} dense_ctx;

static void fill(axb_dense *A, axb_dense *B, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      axb_dense_set(A, i, j, i == j ? 2.0 * n : 1.0 / (1 + i + j));
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += axb_dense_get(A, i, j);
    axb_dense_set(B, i, 0, s);
  }
}

static axb_status dense_solve(axb_handle h, void *p, int *right) {
  dense_ctx *c = p;
  axb_dense A, B;
  axb_status st = axb_dense_create(&A, c->n, c->n, c->t);
  if (st) return axb__fail(h, st, "test: %s", axb_detail(NULL));
  if ((st = axb_dense_create(&B, c->n, 1, c->t))) {
    axb_dense_destroy(&A);
    return axb__fail(h, st, "test: %s", axb_detail(NULL));
  }
  fill(&A, &B, c->n);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = c->method;
  axb_report r;
  st = axb_solve(h, &A, &B, &o, &r);
  disarm();
  *right = 1;
  for (int i = 0; i < c->n; ++i)
    if (!(fabs(axb_dense_get(&B, i, 0) - 1) < 1e-4)) *right = 0;
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
  return st;
}

static axb_status dense_invert(axb_handle h, void *p, int *right) {
  dense_ctx *c = p;
  axb_dense A, B, X;
  axb_status st = axb_dense_create(&A, c->n, c->n, c->t);
  if (st) return axb__fail(h, st, "test: %s", axb_detail(NULL));
  axb_dense_create(&B, c->n, 1, c->t);
  axb_dense_create(&X, c->n, c->n, c->t);
  if (!B.data || !X.data) {
    axb_dense_destroy(&A);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "test: operands");
  }
  fill(&A, &B, c->n);
  st = axb_invert(h, &A, &X, c->method);
  disarm();
  *right = st == AXB_SUCCESS && axb_check_inverse(&A, &X) < 30;
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return st;
}

/* ---- sparse: axb_sparse_solve on a 1-D Laplacian, n = 50 ---------------- */

typedef struct {
  axb_sparse_method m;
  axb_precond pc;
  int history;
} sparse_ctx;

static axb_status sparse_solve(axb_handle h, void *p, int *right) {
  sparse_ctx *c = p;
  const int n = 50;
  axb_csr A;
  axb_status st = axb_csr_create(&A, n, n, 3 * n - 2, AXB_F64);
  if (st) return axb__fail(h, st, "test: %s", axb_detail(NULL));
  axb_dense B, X;
  axb_dense_create(&B, n, 1, AXB_F64);
  axb_dense_create(&X, n, 1, AXB_F64);
  if (!B.data || !X.data) {
    axb_csr_destroy(&A);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "test: operands");
  }
  int64_t q = 0;
  double *v = A.values, *b = B.data;
  for (int i = 0; i < n; ++i) {
    A.rowptr[i] = q;
    b[i] = 0;
    for (int j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < n) {
        A.colind[q] = j;
        v[q] = i == j ? 2.5 : -1;
        b[i] += v[q++];
      }
  }
  A.rowptr[n] = q;
  axb_sparse_opts o = test_sparse_opts(c->m, c->pc);
  o.history = c->history;
  axb_sparse_report r;
  st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
  disarm();
  *right = 1;
  for (int i = 0; i < n; ++i)
    if (!(fabs(((double *)X.data)[i] - 1) < 1e-6)) *right = 0;
  axb_sparse_report_free(&r);
  axb_csr_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return st;
}

/* ---- handle creation and Matrix Market text ----------------------------- */

static axb_status handle_create(axb_handle h, void *p, int *right) {
  axb_handle g = NULL;
  axb_status st = axb_handle_create(&g, *(axb_backend *)p, 0);
  disarm();
  *right = st == AXB_SUCCESS && g;
  if (st) axb__fail(h, st, "%s", axb_detail(NULL));
  axb_handle_destroy(g);
  return st;
}

static axb_status read_text(axb_handle h, void *p, int *right) {
  (void)p;
  const char *text = "%%MatrixMarket matrix coordinate real symmetric\n"
                     "3 3 4\n1 1 2\n2 1 -1\n2 2 2\n3 3 2\n";
  axb_csr A;
  axb_status st = axb_read_csr_mem(h, "t.mtx", text, strlen(text), AXB_F64, &A);
  disarm();
  *right = st == AXB_SUCCESS && A.nnz == 5;
  axb_csr_destroy(&A);
  return st;
}

/* The file reader: its buffer, the parser's, the result. */
static axb_status read_file(axb_handle h, void *p, int *right) {
  axb_csr A;
  axb_status st = axb_read_csr(h, (const char *)p, AXB_F64, &A);
  disarm();
  *right = st == AXB_SUCCESS && A.nnz == 5;
  axb_csr_destroy(&A);
  return st;
}

/* Generators: a dense kind with workspace, a sparse kind, the rhs. */
static axb_status generate(axb_handle h, void *p, int *right) {
  axb_gen_spec spec;
  axb_status st = axb_gen_parse(h, (const char *)p, &spec);
  if (st) {
    disarm();
    return st;
  }
  axb_dense D = {0}, Xt = {0}, B = {0};
  axb_csr S = {0};
  int sparse = spec.kind == AXB_GEN_POISSON2D;
  st = sparse ? axb_gen_csr(h, &spec, AXB_F64, &S)
              : axb_gen_dense(h, &spec, AXB_F64, &D);
  if (!st && !sparse) st = axb_gen_rhs(h, &D, 2, AXB_RHS_RANDOM, 1, &Xt, &B);
  disarm();
  *right = st == AXB_SUCCESS && (sparse ? S.rows == 25 : B.rows == D.rows);
  axb_dense_destroy(&D);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_csr_destroy(&S);
  return st;
}

int main(int argc, char **argv) {
  axb_backend be = test_backend_arg(argc, argv);
  axb_handle h = test_handle(be);
  if (!h) return 1;
  const axb_method dm[] = {AXB_METHOD_AUTO,     AXB_METHOD_LU,
                           AXB_METHOD_CHOLESKY, AXB_METHOD_GAUSS_JORDAN,
                           AXB_METHOD_LU_CROUT, AXB_METHOD_GAUSS};
  char name[96];
  for (int t = 0; t < 2; ++t)
    for (size_t i = 0; i < sizeof dm / sizeof dm[0]; ++i) {
      dense_ctx c = {30, dm[i], t ? AXB_F32 : AXB_F64};
      snprintf(name, sizeof name, "axb_solve %s %s", axb_method_name(dm[i]),
               axb_dtype_name(c.t));
      each_failure(h, name, dense_solve, &c);
    }
  dense_ctx inv[] = {{30, AXB_METHOD_LU, AXB_F64},
                     {30, AXB_METHOD_GAUSS_JORDAN, AXB_F64}};
  for (int i = 0; i < 2; ++i) {
    snprintf(name, sizeof name, "axb_invert %s",
             axb_method_name(inv[i].method));
    each_failure(h, name, dense_invert, &inv[i]);
  }
  const sparse_ctx sp[] = {
      {AXB_SPARSE_CG, AXB_PRECOND_IC0, 1},
      {AXB_SPARSE_CG1, AXB_PRECOND_JACOBI, 0},
      {AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU, 0},
      {AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, 1},
      {AXB_SPARSE_CG, AXB_PRECOND_PARIC, 0},
      {AXB_SPARSE_AUTO, AXB_PRECOND_AUTO, 0},
  };
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; ++i) {
    sparse_ctx c = sp[i];
    snprintf(name, sizeof name, "axb_sparse_solve %s/%s",
             axb_sparse_method_name(c.m), axb_precond_name(c.pc));
    each_failure(h, name, sparse_solve, &c);
  }
  each_failure(h, "axb_handle_create", handle_create, &be);
  each_failure(h, "axb_read_csr_mem", read_text, NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/axb_alloc_fail_%d.mtx",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("%%MatrixMarket matrix coordinate real symmetric\n"
          "3 3 4\n1 1 2\n2 1 -1\n2 2 2\n3 3 2\n",
          f);
    fclose(f);
    each_failure(h, "axb_read_csr (file)", read_file, path);
    remove(path);
  }
  const char *gens[] = {"cond:20,kappa=1e4", "spd-gram:12", "poisson2d:5"};
  for (int i = 0; i < 3; ++i) {
    snprintf(name, sizeof name, "generate %s", gens[i]);
    each_failure(h, name, generate, (void *)gens[i]);
  }
  axb_handle_destroy(h);
  return test_finish("test_alloc_fail");
}
