/*
 * Cholesky through the typed API: axb_[ds]potrf (LOWER and UPPER), potrs,
 * posv, and the study variants potrf_crout and potrf_banachiewicz (lower).
 * Judged by the scaled residuals of DESIGN.md.  The triangle a routine must
 * not reference holds NaN, and must still hold it afterwards; lda > n with
 * NaN padding.  Not SPD: a negative (or NaN) diagonal entry k of an SPD
 * matrix makes the leading minor of order k+1 the first non-positive one,
 * so every variant must stop with info = k+1.
 * potrf_columns (SEEDS.md 3's column kernels on cuda: one kernel with the
 * diagonal recomputed per thread, 1024 threads per block; two kernels out
 * of place, 32 threads) is judged like potrf_crout; on the CPU backends it
 * is potrf_crout.  potrf_banachiewicz has no CUDA kernel (test_cuda checks
 * its honest NOT_SUPPORTED).
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

typedef enum { V_POTRF, V_CROUT, V_COL1, V_COL_OOP, V_BANACHIEWICZ } variant;
static const char *variant_name[] = {
    "potrf", "potrf_crout", "potrf_columns(1 kernel)",
    "potrf_columns(out of place)", "potrf_banachiewicz"};

/* The variants this backend has (no Banachiewicz kernel on cuda and
   opencl). */
static int has_variant(int v) {
  return v != V_BANACHIEWICZ || (axb_handle_backend(h) != AXB_BACKEND_CUDA &&
                                 axb_handle_backend(h) != AXB_BACKEND_OPENCL);
}

/* ---- helpers ------------------------------------------------------------- */

/* Copy of A with leading dimension ld; the padding rows and the triangle
   opposite to uplo (strictly) hold NaN. */
static axb_dense copy_tri(const axb_dense *A, int64_t ld, axb_uplo uplo) {
  axb_dense D = test_alloc(A->rows, A->cols, ld, A->dtype);
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < ld; ++i) {
      const int other = uplo == AXB_LOWER ? i < j : i > j;
      const int keep = i < A->rows && !other;
      axb_dense_set(&D, i, j, keep ? axb_dense_get(A, i, j) : NAN);
    }
  return D;
}

/* Padding and the opposite triangle are still NaN. */
static int untouched(const axb_dense *D, axb_uplo uplo) {
  for (int64_t j = 0; j < D->cols; ++j)
    for (int64_t i = 0; i < D->ld; ++i) {
      const int other = uplo == AXB_LOWER ? i < j : i > j;
      if ((i >= D->rows || other) && !isnan(axb_dense_get(D, i, j))) return 0;
    }
  return 1;
}

/* Copy of A with leading dimension ld; the padding rows hold zero. */
static axb_dense copy_plain(const axb_dense *A, int64_t ld) {
  axb_dense D = test_alloc(A->rows, A->cols, ld, A->dtype);
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      axb_dense_set(&D, i, j, axb_dense_get(A, i, j));
  return D;
}

static axb_status factor(variant v, axb_uplo uplo, axb_dense *A,
                         int64_t *info) {
  const int64_t n = A->rows, ld = A->ld;
  const int d = A->dtype == AXB_F64;
  switch (v) {
  case V_POTRF:
    return d ? axb_dpotrf(h, uplo, n, A->data, ld, info)
             : axb_spotrf(h, uplo, n, A->data, ld, info);
  case V_CROUT:
    return d ? axb_dpotrf_crout(h, n, A->data, ld, info)
             : axb_spotrf_crout(h, n, A->data, ld, info);
  case V_COL1:
  case V_COL_OOP: {
    axb_potrf_columns_opts o;
    axb_potrf_columns_opts_default(&o);
    o.kernels = v == V_COL1 ? 1 : 2;
    o.in_place = v == V_COL1;
    o.threads = v == V_COL1 ? 1024 : 32;
    return d ? axb_dpotrf_columns(h, n, A->data, ld, &o, info)
             : axb_spotrf_columns(h, n, A->data, ld, &o, info);
  }
  default:
    return d ? axb_dpotrf_banachiewicz(h, n, A->data, ld, info)
             : axb_spotrf_banachiewicz(h, n, A->data, ld, info);
  }
}

static axb_status potrs(axb_uplo uplo, const axb_dense *F, axb_dense *B,
                        int64_t *info) {
  if (F->dtype == AXB_F64)
    return axb_dpotrs(h, uplo, F->rows, B->cols, F->data, F->ld, B->data, B->ld,
                      info);
  return axb_spotrs(h, uplo, F->rows, B->cols, F->data, F->ld, B->data, B->ld,
                    info);
}

static axb_status posv(axb_uplo uplo, axb_dense *A, axb_dense *B,
                       int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dposv(h, uplo, A->rows, B->cols, A->data, A->ld, B->data, B->ld,
                     info);
  return axb_sposv(h, uplo, A->rows, B->cols, A->data, A->ld, B->data, B->ld,
                   info);
}

/* ---- SPD matrices
 * ------------------------------------------------------------ */

/* Solve with potrs from F and with posv from A (lda > n, uplo triangle
   only); both judged by the solve residual. */
static void check_solves(const axb_dense *A, const axb_dense *F, axb_uplo uplo,
                         const char *what) {
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, A, 3, AXB_RHS_RANDOM, 13, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  axb_dense X = copy_plain(&B, B.rows + 1);
  int64_t info = -1;
  st = potrs(uplo, F, &X, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: potrs info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_solve(A, &X, &B), "%s potrs", what);
  axb_dense_destroy(&X);
  axb_dense G = copy_tri(A, A->rows + 2, uplo);
  X = copy_plain(&B, B.rows);
  st = posv(uplo, &G, &X, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK_RATIO(axb_check_solve(A, &X, &B), "%s posv", what);
  CHECK(untouched(&G, uplo), "%s: posv touched the other triangle", what);
  axb_dense_destroy(&G);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

/* Factor A with one variant and judge it. */
static void spd_case(axb_gen_kind kind, int64_t n, axb_dtype t, variant v,
                     axb_uplo uplo) {
  char what[128];
  snprintf(what, sizeof what, "%s %s %s n=%lld %s", variant_name[v],
           uplo == AXB_LOWER ? "lower" : "upper", axb_gen_kind_name(kind),
           (long long)n, axb_dtype_name(t));
  axb_dense A = test_gen(h, kind, n, t, 0, 0, 100 + (uint64_t)n);
  axb_dense F = copy_tri(&A, n + 3, uplo);
  int64_t info = -1;
  axb_status st = factor(v, uplo, &F, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK_RATIO(axb_check_cholesky(&A, &F, uplo), "%s", what);
  CHECK(untouched(&F, uplo), "%s: wrote outside its triangle", what);
  if (st == AXB_SUCCESS && v == V_POTRF) check_solves(&A, &F, uplo, what);
  axb_dense_destroy(&F);
  axb_dense_destroy(&A);
}

static void spd_all(axb_gen_kind kind, int64_t n, axb_dtype t) {
  spd_case(kind, n, t, V_POTRF, AXB_LOWER);
  spd_case(kind, n, t, V_POTRF, AXB_UPPER);
  for (int v = V_CROUT; v <= V_BANACHIEWICZ; ++v)
    if (has_variant(v)) spd_case(kind, n, t, (variant)v, AXB_LOWER);
}

static void spd_cases(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 3, 5, 17, 31, 32, 33, 65, 100};
  const axb_gen_kind kinds[] = {AXB_GEN_SPD_SHIFT, AXB_GEN_SPD_GRAM,
                                AXB_GEN_DIAGONAL};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; ++k)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i)
      spd_all(kinds[k], sizes[i], t);
  /* Hilbert is SPD with kappa(H_8) ~ 1.5e10 (double); float stops at 4. */
  for (int64_t n = 1; n <= (t == AXB_F64 ? 8 : 4); ++n)
    spd_all(AXB_GEN_HILBERT, n, t);
  spd_all(AXB_GEN_SPD_SHIFT, 257, t);
  spd_case(AXB_GEN_SPD_GRAM, 500, t, V_POTRF, AXB_LOWER);
  spd_case(AXB_GEN_SPD_GRAM, 500, t, V_POTRF, AXB_UPPER);
  /* Columns longer than a block of 1024 threads. */
  for (int v = V_CROUT; v <= V_COL1; ++v)
    if (has_variant(v)) spd_case(AXB_GEN_SPD_SHIFT, 1030, t, v, AXB_LOWER);
}

/* ---- not SPD
 * ----------------------------------------------------------------- */

/* A(k,k) := bad in an SPD matrix: minors 1..k stay positive definite, the
   one of order k+1 is not. */
static void not_spd_case(int64_t n, int64_t k, double bad, axb_dtype t,
                         variant v, axb_uplo uplo) {
  axb_dense A = test_gen(h, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 5);
  axb_dense_set(&A, k, k, bad);
  axb_dense F = copy_tri(&A, n + 1, uplo);
  int64_t info = -1;
  axb_status st = factor(v, uplo, &F, &info);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
  CHECK(info == k + 1, "%s %s n=%lld a_kk=%g at k=%lld: info %lld",
        variant_name[v], uplo == AXB_LOWER ? "lower" : "upper", (long long)n,
        bad, (long long)k, (long long)info);
  CHECK(untouched(&F, uplo), "not SPD: wrote outside its triangle");
  axb_dense_destroy(&F);
  axb_dense_destroy(&A);
}

static void not_spd_cases(axb_dtype t) {
  /* 300: the failing minor in an inner block of a blocked backend's first
     outer block (k = 100; OpenCL on a CPU: 64 inside 256) and in its
     second (k = 270).  600 (OpenCL on a CPU: outer blocks 256, 256 and
     88 = 64 + 24; its info read once per outer block): in the last inner
     block of the first (k = 250), in the second of four inner blocks of
     the second (k = 380) and in the short last one (k = 590). */
  const int64_t shapes[][2] = {{1, 0},     {5, 0},     {5, 2},     {33, 32},
                               {70, 40},   {300, 100}, {300, 270}, {600, 250},
                               {600, 380}, {600, 590}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i) {
    const int64_t n = shapes[i][0], k = shapes[i][1];
    for (int v = V_POTRF; v <= V_BANACHIEWICZ; ++v) {
      if (!has_variant(v)) continue;
      not_spd_case(n, k, -1.0, t, (variant)v, AXB_LOWER);
      not_spd_case(n, k, NAN, t, (variant)v, AXB_LOWER);
      not_spd_case(n, k, 0.0, t, (variant)v, AXB_LOWER);
    }
    not_spd_case(n, k, -1.0, t, V_POTRF, AXB_UPPER);
    not_spd_case(n, k, NAN, t, V_POTRF, AXB_UPPER);
  }
}

/* Positive diagonal, indefinite: [[1, 2], [2, 1]] has det -3; posv says so
   too, without solving. */
static void indefinite_2x2(void) {
  for (int v = V_POTRF; v <= V_BANACHIEWICZ; ++v) {
    if (!has_variant(v)) continue;
    double a[4] = {1, 2, 2, 1};
    int64_t info = -1;
    axb_dense A = axb_dense_wrap(2, 2, 2, AXB_F64, a);
    axb_status st = factor((variant)v, AXB_LOWER, &A, &info);
    CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
    CHECK(info == 2, "%s indefinite 2x2: info %lld", variant_name[v],
          (long long)info);
  }
  float a[4] = {1, 2, 2, 1}, b[2] = {1, 1};
  int64_t info = -1;
  axb_status st = axb_sposv(h, AXB_UPPER, 2, 1, a, 2, b, 2, &info);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
  CHECK(info == 2, "sposv indefinite: info %lld", (long long)info);
}

static void empty_and_one(void) {
  int64_t info = -1;
  CHECK_STATUS(h, axb_dpotrf(h, AXB_LOWER, 0, NULL, 1, &info), AXB_SUCCESS);
  CHECK(info == 0, "n=0 info %lld", (long long)info);
  CHECK_STATUS(h, axb_spotrf_crout(h, 0, NULL, 1, &info), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dpotrf_banachiewicz(h, 0, NULL, 1, &info), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dposv(h, AXB_UPPER, 0, 2, NULL, 1, NULL, 1, &info),
               AXB_SUCCESS);
  double d9[9] = {0};
  CHECK_STATUS(h, axb_dpotrs(h, AXB_LOWER, 3, 0, d9, 3, NULL, 3, &info),
               AXB_SUCCESS);
  /* 1 x 1: sqrt(4) = 2 exactly; 0 is not positive. */
  double a = 4;
  CHECK_STATUS(h, axb_dpotrf(h, AXB_UPPER, 1, &a, 1, &info), AXB_SUCCESS);
  CHECK(a == 2, "sqrt(4) gave %g", a);
  a = 0;
  CHECK_STATUS(h, axb_dpotrf(h, AXB_LOWER, 1, &a, 1, &info), AXB_ERR_NOT_SPD);
  CHECK(info == 1, "potrf [0]: info %lld", (long long)info);
  if (has_variant(V_CROUT)) {
    CHECK_STATUS(h, axb_dpotrf_crout(h, 1, &a, 1, &info), AXB_ERR_NOT_SPD);
    CHECK(info == 1, "[0]: info %lld", (long long)info);
  }
  /* potrf_columns: illegal options are argument 4. */
  axb_potrf_columns_opts o;
  axb_potrf_columns_opts_default(&o);
  o.threads = 48;
  a = 4;
  CHECK_STATUS(h, axb_dpotrf_columns(h, 1, &a, 1, &o, &info), -4);
  o.threads = 0;
  o.kernels = 3;
  CHECK_STATUS(h, axb_dpotrf_columns(h, 1, &a, 1, &o, &info), -4);
  if (has_variant(V_COL1)) {
    CHECK_STATUS(h, axb_dpotrf_columns(h, 1, &a, 1, NULL, &info), AXB_SUCCESS);
    CHECK(a == 2, "potrf_columns sqrt(4) gave %g", a);
  }
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  empty_and_one();
  indefinite_2x2();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    spd_cases(types[i]);
    not_spd_cases(types[i]);
  }
  /* A variant this backend lacks says so, never a quiet CPU run. */
  for (int v = V_POTRF; v <= V_BANACHIEWICZ; ++v)
    if (!has_variant(v)) {
      axb_dense A = test_gen(h, AXB_GEN_SPD_SHIFT, 5, AXB_F64, 0, 0, 3);
      int64_t info = -1;
      CHECK_STATUS(h, factor((variant)v, AXB_LOWER, &A, &info),
                   AXB_ERR_NOT_SUPPORTED);
      axb_dense_destroy(&A);
    }
  axb_handle_destroy(h);
  return test_finish("test_cholesky");
}
