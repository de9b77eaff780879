/*
 * axb_gpu_run (the benchmarks' GPU harness): every implementation x
 * operation it offers must return results that pass the DESIGN.md checks
 * (LU ||PA - LU||, Cholesky ||A - LL^T||, inverse ||I - AX||, gesv
 * ||b - Ax||, per problem for the batched ones), in float and double, on
 * sizes 1, odd, not multiples of block sizes; report positive device and
 * transfer times; refuse what an implementation lacks
 * (AXB_ERR_NOT_SUPPORTED) and bad arguments (-i); report a singular input
 * (AXB_ERR_SINGULAR with info in range; batched: the failing problem) and
 * a matrix that is not SPD.  Skipped (77) without CUDA or a GPU; without
 * CUDA compiled the runner must answer AXB_ERR_NOT_COMPILED.
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle hc, hg;
static axb_gpu_runner g;

static const char *impl_name(axb_anchor a) { return axb_anchor_name(a); }

static void check_times(const axb_gpu_times *tm, const char *what) {
  CHECK(tm->device_s > 0 && tm->device_s < 60, "%s: device_s %g", what,
        tm->device_s);
  CHECK(tm->transfer_s > 0 && tm->transfer_s < 60, "%s: transfer_s %g", what,
        tm->transfer_s);
}

static void dense(axb_anchor impl, int64_t n, axb_dtype t) {
  char what[128];
  size_t es = axb_dtype_size(t);
  int64_t info = -1;
  axb_gpu_times tm;
  int64_t *ipiv = test_new_ipiv(n);
  /* LU */
  snprintf(what, sizeof what, "%s lu n=%lld %s", impl_name(impl), (long long)n,
           axb_dtype_name(t));
  axb_dense A = test_gen(hc, AXB_GEN_UNIFORM, n, t, 0, 0, 3 + (uint64_t)n);
  axb_dense F = test_copy_ld(&A, n);
  CHECK_STATUS(
      hg,
      axb_gpu_run(g, impl, AXB_GPU_LU, t, n, 1, F.data, NULL, ipiv, &info, &tm),
      AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_lu(&A, &F, ipiv), "%s", what);
  check_times(&tm, what);
  /* gesv: b = row sums */
  snprintf(what, sizeof what, "%s gesv n=%lld %s", impl_name(impl),
           (long long)n, axb_dtype_name(t));
  axb_dense X = {0}, B = {0};
  CHECK_STATUS(hc, axb_gen_rhs(hc, &A, 1, AXB_RHS_ONES, 1, &X, &B),
               AXB_SUCCESS);
  axb_dense Xs = test_copy_ld(&B, n);
  memcpy(F.data, A.data, (size_t)(n * n) * es);
  CHECK_STATUS(hg,
               axb_gpu_run(g, impl, AXB_GPU_GESV, t, n, 1, F.data, Xs.data,
                           ipiv, &info, &tm),
               AXB_SUCCESS);
  CHECK_RATIO(axb_check_solve(&A, &Xs, &B), "%s", what);
  check_times(&tm, what);
  /* inverse */
  snprintf(what, sizeof what, "%s inverse n=%lld %s", impl_name(impl),
           (long long)n, axb_dtype_name(t));
  memcpy(F.data, A.data, (size_t)(n * n) * es);
  CHECK_STATUS(hg,
               axb_gpu_run(g, impl, AXB_GPU_INVERSE, t, n, 1, F.data, NULL,
                           NULL, &info, &tm),
               AXB_SUCCESS);
  CHECK_RATIO(axb_check_inverse(&A, &F), "%s", what);
  check_times(&tm, what);
  /* Cholesky */
  snprintf(what, sizeof what, "%s cholesky n=%lld %s", impl_name(impl),
           (long long)n, axb_dtype_name(t));
  axb_dense S = test_gen(hc, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 8 + (uint64_t)n);
  axb_dense L = test_copy_ld(&S, n);
  CHECK_STATUS(hg,
               axb_gpu_run(g, impl, AXB_GPU_CHOLESKY, t, n, 1, L.data, NULL,
                           NULL, &info, &tm),
               AXB_SUCCESS);
  CHECK_RATIO(axb_check_cholesky(&S, &L, AXB_LOWER), "%s", what);
  check_times(&tm, what);
  free(ipiv);
  axb_dense_destroy(&A), axb_dense_destroy(&F), axb_dense_destroy(&X);
  axb_dense_destroy(&B), axb_dense_destroy(&Xs), axb_dense_destroy(&S);
  axb_dense_destroy(&L);
}

static void dense_failures(axb_anchor impl, axb_dtype t) {
  const int64_t n = 37, col = 11;
  int64_t info = 0;
  axb_gpu_times tm;
  int64_t *ipiv = test_new_ipiv(n);
  axb_dense Z = test_gen(hc, AXB_GEN_SINGULAR, n, t, 0, col, 5);
  axb_status st =
      axb_gpu_run(g, impl, AXB_GPU_LU, t, n, 1, Z.data, NULL, ipiv, &info, &tm);
  CHECK_STATUS(hg, st, AXB_ERR_SINGULAR);
  CHECK(info >= 1 && info <= col + 1, "%s singular: info %lld", impl_name(impl),
        (long long)info);
  axb_dense U = test_gen(hc, AXB_GEN_UNIFORM, n, t, 0, 0, 6);
  axb_dense_set(&U, 0, 0, -3.0);
  CHECK_STATUS(hg,
               axb_gpu_run(g, impl, AXB_GPU_CHOLESKY, t, n, 1, U.data, NULL,
                           NULL, &info, &tm),
               AXB_ERR_NOT_SPD);
  CHECK(info >= 1, "%s not SPD: info %lld", impl_name(impl), (long long)info);
  free(ipiv);
  axb_dense_destroy(&Z), axb_dense_destroy(&U);
}

/* Runs batched solve r on the copies W, X: problem `bad` (0-based, or -1)
   must make it fail with `fail` and info = bad + 1, else it succeeds. */
static void run_batched(axb_anchor impl, axb_gpu_op r, axb_dtype t, int64_t n,
                        int64_t nb, axb_dense *W, axb_dense *X, int64_t bad,
                        axb_status fail, const char *what) {
  int64_t info = -1;
  axb_gpu_times tm;
  axb_status st =
      axb_gpu_run(g, impl, r, t, n, nb, W->data, X->data, NULL, &info, &tm);
  if (bad >= 0) {
    CHECK_STATUS(hg, st, fail);
    CHECK(info == bad + 1, "%s: info %lld", what, (long long)info);
  } else {
    CHECK_STATUS(hg, st, AXB_SUCCESS);
    check_times(&tm, what);
  }
}

/* batch problems side by side; b_k = row sums; problem `bad` (0-based, or
   -1) gets a zero column. */
static void batched(axb_anchor impl, int64_t n, int64_t nb, axb_dtype t,
                    int64_t bad) {
  char what[128];
  snprintf(what, sizeof what, "%s batched n=%lld x%lld %s%s", impl_name(impl),
           (long long)n, (long long)nb, axb_dtype_name(t),
           bad >= 0 ? " singular" : "");
  size_t es = axb_dtype_size(t);
  axb_dense A = test_alloc(n, n * nb, n, t), B = test_alloc(n, nb, n, t);
  for (int64_t k = 0; k < nb; ++k) {
    axb_dense Ak = test_gen(hc, k == bad ? AXB_GEN_SINGULAR : AXB_GEN_UNIFORM,
                            n, t, 0, 0, 100 + (uint64_t)k);
    test_batch_put(&A, &B, k, &Ak);
    axb_dense_destroy(&Ak);
  }
  axb_dense W = test_copy_ld(&A, n), X = test_copy_ld(&B, n);
  run_batched(impl, AXB_GPU_BATCHED_GESV, t, n, nb, &W, &X, bad,
              AXB_ERR_SINGULAR, what);
  memcpy(W.data, A.data, (size_t)(n * n * nb) * es);
  int64_t info = -1;
  axb_gpu_times tm;
  axb_status st2 = axb_gpu_run(g, impl, AXB_GPU_BATCHED_INVERSE, t, n, nb,
                               W.data, NULL, NULL, &info, &tm);
  CHECK_STATUS(hg, st2, bad >= 0 ? AXB_ERR_SINGULAR : AXB_SUCCESS);
  if (bad < 0) {
    double worst_x = 0, worst_inv = 0;
    for (int64_t k = 0; k < nb; ++k) {
      axb_dense Ak = test_batch_item(&A, k, n);
      axb_dense Bk = test_batch_item(&B, k, 1);
      axb_dense Xk = test_batch_item(&X, k, 1);
      axb_dense Vk = test_batch_item(&W, k, n);
      double a = axb_check_solve(&Ak, &Xk, &Bk),
             b = axb_check_inverse(&Ak, &Vk);
      if (!(a <= worst_x)) worst_x = a;
      if (!(b <= worst_inv)) worst_inv = b;
    }
    CHECK_RATIO(worst_x, "%s gesv", what);
    CHECK_RATIO(worst_inv, "%s inverse", what);
  }
  axb_dense_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&W);
  axb_dense_destroy(&X);
}

/* Batched Cholesky (posv): nb SPD problems, b_k = row sums; problem `bad`
   (or -1) gets a negative diagonal entry. */
static void batched_posv(axb_anchor impl, int64_t n, int64_t nb, axb_dtype t,
                         int64_t bad) {
  char what[128];
  snprintf(what, sizeof what, "%s batched posv n=%lld x%lld %s%s",
           impl_name(impl), (long long)n, (long long)nb, axb_dtype_name(t),
           bad >= 0 ? " not SPD" : "");
  axb_dense A = test_alloc(n, n * nb, n, t), B = test_alloc(n, nb, n, t);
  for (int64_t k = 0; k < nb; ++k) {
    axb_dense Ak =
        test_gen(hc, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 300 + (uint64_t)k);
    if (k == bad) axb_dense_set(&Ak, n / 2, n / 2, -1.0);
    test_batch_put(&A, &B, k, &Ak);
    axb_dense_destroy(&Ak);
  }
  axb_dense W = test_copy_ld(&A, n), X = test_copy_ld(&B, n);
  run_batched(impl, AXB_GPU_BATCHED_POSV, t, n, nb, &W, &X, bad,
              AXB_ERR_NOT_SPD, what);
  if (bad < 0) {
    double worst = 0;
    for (int64_t k = 0; k < nb; ++k) {
      axb_dense Ak = test_batch_item(&A, k, n);
      axb_dense Bk = test_batch_item(&B, k, 1);
      axb_dense Xk = test_batch_item(&X, k, 1);
      double a = axb_check_solve(&Ak, &Xk, &Bk);
      if (!(a <= worst)) worst = a;
    }
    CHECK_RATIO(worst, "%s", what);
  }
  axb_dense_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&W);
  axb_dense_destroy(&X);
}

static void refusals(void) {
  double a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
  int64_t ipiv[2], info;
  axb_gpu_times tm;
  CHECK(axb_gpu_run(g, AXB_ANCHOR_CUSOLVER, AXB_GPU_BATCHED_GESV, AXB_F64, 2, 1,
                    a, b, NULL, &info, &tm) == AXB_ERR_NOT_SUPPORTED,
        "cusolver batched accepted");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_CUBLAS, AXB_GPU_BATCHED_POSV, AXB_F64, 2, 1,
                    a, b, NULL, &info, &tm) == AXB_ERR_NOT_SUPPORTED,
        "cublas batched posv accepted");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_CUBLAS, AXB_GPU_LU, AXB_F64, 2, 1, a, NULL,
                    ipiv, &info, &tm) == AXB_ERR_NOT_SUPPORTED,
        "cublas lu accepted");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_OPENBLAS, AXB_GPU_LU, AXB_F64, 2, 1, a, NULL,
                    ipiv, &info, &tm) == AXB_ERR_NOT_SUPPORTED,
        "openblas on the gpu runner accepted");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_AXB, AXB_GPU_LU, AXB_F64, -1, 1, a, NULL,
                    ipiv, &info, &tm) == -5,
        "n = -1");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_AXB, AXB_GPU_BATCHED_GESV, AXB_F64, 2, 0, a,
                    b, NULL, &info, &tm) == -6,
        "batch = 0");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_AXB, AXB_GPU_LU, AXB_F64, 2, 1, a, NULL, NULL,
                    &info, &tm) == -9,
        "ipiv = NULL");
  CHECK(axb_gpu_run(NULL, AXB_ANCHOR_AXB, AXB_GPU_LU, AXB_F64, 2, 1, a, NULL,
                    ipiv, &info, &tm) == -1,
        "runner = NULL");
  CHECK(axb_gpu_run(g, AXB_ANCHOR_AXB, AXB_GPU_LU, AXB_F64, 0, 1, NULL, NULL,
                    NULL, &info, &tm) == AXB_SUCCESS,
        "n = 0");
  /* axb's batched kernels stop at n = 64. */
  axb_dense A = test_gen(hc, AXB_GEN_UNIFORM, 65, AXB_F64, 0, 0, 1);
  CHECK(axb_gpu_run(g, AXB_ANCHOR_AXB, AXB_GPU_BATCHED_INVERSE, AXB_F64, 65, 1,
                    A.data, NULL, NULL, &info, &tm) == AXB_ERR_NOT_SUPPORTED,
        "axb batched n = 65");
  axb_dense_destroy(&A);
}

int main(void) {
  hc = test_handle(AXB_BACKEND_CPU);
  int count = 0;
  if (!axb_backend_compiled(AXB_BACKEND_CUDA)) {
    axb_gpu_runner r = (axb_gpu_runner)1;
    CHECK(axb_gpu_runner_create(&r, hc) == AXB_ERR_NOT_COMPILED && !r,
          "runner without CUDA");
    CHECK(!axb_anchor_available(AXB_ANCHOR_CUSOLVER), "cusolver available");
    axb_handle_destroy(hc);
    int rc = test_finish("test_gpu_runner");
    return rc ? rc : 77;
  }
  if (axb_cuda_device_count(&count) || count == 0) {
    printf("test_gpu_runner: no GPU: skipped\n");
    axb_handle_destroy(hc);
    return 77;
  }
  hg = test_handle(AXB_BACKEND_CUDA);
  CHECK(axb_gpu_runner_create(&g, hc) == -2, "runner on a CPU handle");
  CHECK_STATUS(hg, axb_gpu_runner_create(&g, hg), AXB_SUCCESS);
  if (!g) return test_finish("test_gpu_runner");
  const int64_t sizes[] = {1, 31, 200, 517};
  const axb_anchor dense_impls[] = {AXB_ANCHOR_AXB, AXB_ANCHOR_CUSOLVER};
  const axb_anchor batch_impls[] = {AXB_ANCHOR_AXB, AXB_ANCHOR_CUBLAS};
  for (int d = 0; d < 2; ++d) {
    axb_dtype t = d ? AXB_F32 : AXB_F64;
    for (int i = 0; i < 2; ++i) {
      for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k)
        dense(dense_impls[i], sizes[k], t);
      dense_failures(dense_impls[i], t);
      batched(batch_impls[i], 1, 3, t, -1);
      batched(batch_impls[i], 7, 50, t, -1);
      batched(batch_impls[i], 33, 20, t, -1);
      batched(batch_impls[i], 8, 9, t, 4);
      /* Batched Cholesky: axb and cuSOLVER potrfBatched/potrsBatched. */
      batched_posv(dense_impls[i], 1, 3, t, -1);
      batched_posv(dense_impls[i], 7, 50, t, -1);
      batched_posv(dense_impls[i], 33, 20, t, -1);
      batched_posv(dense_impls[i], 8, 9, t, 4);
    }
  }
  refusals();
  printf("%s, %s\n", axb_anchor_version(AXB_ANCHOR_CUSOLVER),
         axb_anchor_version(AXB_ANCHOR_CUBLAS));
  axb_gpu_runner_destroy(g);
  axb_handle_destroy(hg);
  axb_handle_destroy(hc);
  return test_finish("test_gpu_runner");
}
