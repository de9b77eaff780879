#include "testing.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int test_failures;
int test_checks;

axb_backend test_backend_arg(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "ref") == 0) return AXB_BACKEND_REF;
  if (strcmp(argv[1], "cpu") == 0) return AXB_BACKEND_CPU;
  if (strcmp(argv[1], "cuda") == 0) return AXB_BACKEND_CUDA;
  if (strcmp(argv[1], "opencl") == 0) return AXB_BACKEND_OPENCL;
  fprintf(stderr, "unknown backend '%s'\n", argv[1]);
  exit(2);
}

axb_handle test_handle(axb_backend b) {
  axb_handle h = NULL;
  axb_status st = axb_handle_create(&h, b, 0);
  if (st == AXB_ERR_NOT_COMPILED || st == AXB_ERR_NO_DEVICE) {
    printf("SKIP: backend %s unavailable here (%s)\n", axb_backend_name(b),
           axb_strerror(st));
    exit(77);
  }
  if (st != AXB_SUCCESS) {
    fprintf(stderr, "cannot create a %s handle: %s\n", axb_backend_name(b),
            axb_strerror(st));
    exit(1);
  }
  return h;
}

static int is_dir(const char *p) {
  struct stat s;
  return p && stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

const char *test_matrices_dir(void) {
  const char *d = getenv("AXB_MATRICES");
  if (is_dir(d)) return d;
  static const char fallback[] = AXB_SOURCE_DIR "/../shared/matrices";
  return is_dir(fallback) ? fallback : NULL;
}

const char *test_matrices_or_note(const char *what) {
  const char *d = test_matrices_dir();
  if (!d) fprintf(stderr, "note: no shared matrices: %s skipped\n", what);
  return d;
}

const char *test_data_dir(void) {
  const char *d = getenv("AXB_TEST_DATA");
  return is_dir(d) ? d : AXB_SOURCE_DIR "/tests/data";
}

int test_finish(const char *name) {
  printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
  return test_failures ? 1 : 0;
}

int test_skip(const char *why) {
  printf("SKIP: %s\n", why);
  return 77;
}

axb_sparse_opts test_sparse_opts(axb_sparse_method m, axb_precond p) {
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = m;
  o.precond = p;
  return o;
}

axb_dense test_gen(axb_handle h, axb_gen_kind kind, int64_t n, axb_dtype t,
                   double kappa, int64_t col, uint64_t seed) {
  axb_gen_spec s = {kind, n, kappa, col, seed};
  axb_dense A;
  axb_status st = axb_gen_dense(h, &s, t, &A);
  if (st != AXB_SUCCESS) {
    fprintf(stderr, "axb_gen_dense(%s, %lld): %s; %s\n",
            axb_gen_kind_name(kind), (long long)n, axb_strerror(st),
            axb_detail(h));
    exit(1);
  }
  return A;
}

axb_csr test_gen_csr(axb_handle h, const char *spec, axb_dtype t) {
  axb_gen_spec s;
  axb_csr A;
  memset(&A, 0, sizeof A);
  if (axb_gen_parse(h, spec, &s) || axb_gen_csr(h, &s, t, &A)) {
    fprintf(stderr, "cannot generate %s: %s\n", spec, axb_detail(h));
    exit(1);
  }
  return A;
}

axb_status test_gen_spec(axb_handle h, const char *spec, axb_dtype t,
                         axb_dense *A) {
  axb_gen_spec g;
  axb_status st = axb_gen_parse(h, spec, &g);
  return st != AXB_SUCCESS ? st : axb_gen_dense(h, &g, t, A);
}

axb_dense test_alloc(int64_t rows, int64_t cols, int64_t ld, axb_dtype t) {
  axb_dense D;
  if (axb_dense_create(&D, ld, cols, t) != AXB_SUCCESS) {
    fprintf(stderr, "cannot allocate a %lld x %lld matrix\n", (long long)ld,
            (long long)cols);
    exit(1);
  }
  D.rows = rows;
  return D;
}

axb_dense test_copy_ld(const axb_dense *A, int64_t ld) {
  axb_dense D = test_alloc(A->rows, A->cols, ld, A->dtype);
  const size_t es = axb_dtype_size(A->dtype);
  for (int64_t j = 0; j < A->cols; ++j) {
    if (A->rows > 0)
      memcpy((char *)D.data + (size_t)(j * ld) * es,
             (const char *)A->data + (size_t)(j * A->ld) * es,
             (size_t)A->rows * es);
    for (int64_t i = A->rows; i < ld; ++i)
      axb_dense_set(&D, i, j, NAN);
  }
  return D;
}

axb_dense test_transpose(const axb_dense *A) {
  axb_dense T =
      test_alloc(A->cols, A->rows, A->cols > 0 ? A->cols : 1, A->dtype);
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      axb_dense_set(&T, j, i, axb_dense_get(A, i, j));
  return T;
}

void test_batch_put(axb_dense *A, axb_dense *B, int64_t k,
                    const axb_dense *Ak) {
  const int64_t n = Ak->rows;
  const size_t es = axb_dtype_size(A->dtype);
  memcpy((char *)A->data + (size_t)(k * n * n) * es, Ak->data,
         (size_t)(n * n) * es);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(Ak, i, j);
    axb_dense_set(B, i, k, s);
  }
}

axb_dense test_batch_item(const axb_dense *M, int64_t k, int64_t cols) {
  const int64_t n = M->rows;
  return axb_dense_wrap(n, cols, n, M->dtype,
                        (char *)M->data +
                            (size_t)(k * n * cols) * axb_dtype_size(M->dtype));
}

int test_padding_intact(const axb_dense *D) {
  for (int64_t j = 0; j < D->cols; ++j)
    for (int64_t i = D->rows; i < D->ld; ++i)
      if (!isnan(axb_dense_get(D, i, j))) return 0;
  return 1;
}

int64_t *test_new_ipiv(int64_t n) {
  int64_t *p = calloc(n > 0 ? (size_t)n : 1, sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

void test_solve_inplace(axb_handle h, const axb_dense *A, int64_t nrhs,
                        int64_t fpad, int64_t xpad, test_inplace_solver solve,
                        const void *ctx, const char *what) {
  const int64_t n = A->rows;
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, A, nrhs, AXB_RHS_RANDOM, 4, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  axb_dense F = test_copy_ld(A, n + fpad), X = test_copy_ld(&B, n + xpad);
  int64_t info = -1;
  st = solve(&F, &X, ctx, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_solve(A, &X, &B), "%s", what);
  CHECK(test_padding_intact(&F) && test_padding_intact(&X), "%s: wrote outside",
        what);
  axb_dense_destroy(&F);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

void test_singular_column(axb_handle h, axb_dtype t, int64_t n, int64_t col,
                          test_pivot_solver solve, const char *name) {
  axb_dense A = test_gen(h, AXB_GEN_SINGULAR, n, t, 0, col, 12);
  for (int pivot = 0; pivot < 2; ++pivot) {
    axb_dense F = test_copy_ld(&A, n), X = test_copy_ld(&A, n);
    int64_t info = -1;
    axb_status st = solve(&F, &X, pivot, &info);
    CHECK_STATUS(h, st, pivot ? AXB_ERR_SINGULAR : AXB_ERR_SMALL_PIVOT);
    CHECK(info >= 1 && info <= col + 1,
          "%s n=%lld zero column %lld pivot=%d: info %lld", name, (long long)n,
          (long long)col, pivot, (long long)info);
    axb_dense_destroy(&F);
    axb_dense_destroy(&X);
  }
  axb_dense_destroy(&A);
}
