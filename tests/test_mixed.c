/* AXB_TEST_PER_BACKEND
 * Mixed-precision solves with the FP64 certificate (axb_dsgesv, axb_dsposv,
 * axb_dsxsv_ex): in every factor precision, at n = 1, 31, 257, 1000, on
 * well- and ill-conditioned, badly scaled, singular and SPD matrices and on
 * real matrices of ../shared/matrices.  Every SUCCESS is judged by the
 * test's own residual (long double) and by axb_check_solve; every failure
 * must be a failing status.  The fallback and overflow paths are forced:
 * unscaled A with large entries overflows FP16 (iter = -2), kappa = 1e12
 * defeats the 16-bit factors (fallback), fallback = 0 reports
 * AXB_ERR_NO_CONVERGENCE.  On cuda (the device machine) the same cases run
 * through the GPU session and its tensor-core factorizations; device
 * arrays (dev = 1) there too.
 */
#include "testing.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static axb_backend backend;

/* max_c ||b - A x||_inf / (||A||_inf ||x||_inf n eps) in long double, A
   read from its uplo triangle when sym. */
static double ratio_ld(const axb_dense *A, int sym, axb_uplo uplo,
                       const double *X, const double *B, int64_t k) {
  int64_t n = A->rows;
  const double *a = A->data;
  long double anorm = 0, worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    long double s = 0;
    for (int64_t j = 0; j < n; ++j) {
      int64_t r = i, c = j;
      if (sym && (uplo == AXB_LOWER ? r < c : r > c)) r = j, c = i;
      s += fabsl((long double)a[r + c * A->ld]);
    }
    if (s > anorm) anorm = s;
  }
  for (int64_t q = 0; q < k; ++q) {
    long double rn = 0, xn = 0;
    for (int64_t i = 0; i < n; ++i) {
      long double s = B[i + q * n];
      for (int64_t j = 0; j < n; ++j) {
        int64_t r = i, c = j;
        if (sym && (uplo == AXB_LOWER ? r < c : r > c)) r = j, c = i;
        s -= (long double)a[r + c * A->ld] * X[j + q * n];
      }
      if (fabsl(s) > rn) rn = fabsl(s);
      if (fabsl((long double)X[i + q * n]) > xn) xn = fabsl(X[i + q * n]);
    }
    long double v = (xn == 0 || anorm == 0)
                        ? (rn == 0 ? 0 : INFINITY)
                        : rn / anorm / xn / n / (DBL_EPSILON / 2);
    if (!(v <= worst)) worst = v;
  }
  return (double)worst;
}

static void fill_rhs(int64_t n, int64_t k, double *B, uint64_t seed) {
  for (int64_t i = 0; i < n * k; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    B[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
  }
}

typedef struct {
  axb_status st;
  axb_mixed_info inf;
  int64_t info;
} result;

/* Solve, then judge: SUCCESS must pass the test's own check; anything
   else must be a failing status (never SUCCESS with a wrong X). */
static result run(axb_handle h, const char *what, const axb_dense *A, int chol,
                  axb_uplo uplo, int64_t k, const axb_mixed_opts *o) {
  int64_t n = A->rows;
  double *B = malloc(sizeof(double) * (size_t)(n * k + 1));
  double *X = malloc(sizeof(double) * (size_t)(n * k + 1));
  if (!B || !X) exit(1);
  fill_rhs(n, k, B, (uint64_t)n * 31 + (uint64_t)k);
  result r;
  memset(&r, 0, sizeof r);
  r.st = axb_dsxsv_ex(h, chol, uplo, 0, n, k, A->data, A->ld, B, n, X, n, o,
                      &r.inf, &r.info);
  if (r.st == AXB_SUCCESS) {
    double v = ratio_ld(A, chol, uplo, X, B, k);
    CHECK(v < 30, "%s: certified (%s, iter %lld) but the test's ratio is %.3g",
          what, axb_factor_precision_name(r.inf.precision),
          (long long)r.inf.iter, v);
    CHECK(r.inf.backward_error < 30, "%s: reported ratio %.3g", what,
          r.inf.backward_error);
    if (!chol) {
      axb_dense Xd = axb_dense_wrap(n, k, n, AXB_F64, X);
      axb_dense Bd = axb_dense_wrap(n, k, n, AXB_F64, B);
      CHECK_RATIO(axb_check_solve(A, &Xd, &Bd), "%s: axb_check_solve", what);
    }
  }
  free(B);
  free(X);
  return r;
}

static axb_mixed_opts opts_p(axb_factor_precision p) {
  axb_mixed_opts o;
  axb_mixed_opts_default(&o);
  o.precision = p;
  return o;
}

static const axb_factor_precision precs[] = {AXB_FACTOR_AUTO, AXB_FACTOR_FP32,
                                             AXB_FACTOR_TF32, AXB_FACTOR_FP16,
                                             AXB_FACTOR_BF16, AXB_FACTOR_FP64};
#define NPREC (int)(sizeof precs / sizeof precs[0])

static void scale_rows(axb_dense *A, uint64_t seed, double lo_exp,
                       double hi_exp) {
  double *a = A->data;
  for (int64_t i = 0; i < A->rows; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double e =
        lo_exp + (hi_exp - lo_exp) * (double)(seed >> 11) / 9007199254740992.0;
    double s = pow(10.0, floor(e));
    for (int64_t j = 0; j < A->cols; ++j)
      a[i + j * A->ld] *= s;
  }
}

static void general_cases(axb_handle h, int64_t n) {
  char what[160];
  /* well conditioned: every precision certifies */
  axb_dense U = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 11);
  for (int p = 0; p < NPREC; ++p) {
    axb_mixed_opts o = opts_p(precs[p]);
    snprintf(what, sizeof what, "uniform n=%lld %s", (long long)n,
             axb_factor_precision_name(precs[p]));
    result r = run(h, what, &U, 0, AXB_LOWER, 2, &o);
    CHECK_STATUS(h, r.st, AXB_SUCCESS);
    if (precs[p] == AXB_FACTOR_FP64)
      CHECK(r.inf.fallbacks == 0 && r.inf.iter >= 0, "%s: fp64 fell back",
            what);
  }
  /* kappa 1e6 and 1e12: certified, by refinement, GMRES-IR or fallback */
  double kap[] = {1e6, 1e12};
  for (int t = 0; t < 2 && n > 1; ++t) {
    axb_dense C = test_gen(h, AXB_GEN_COND, n, AXB_F64, kap[t], 0, 5);
    for (int p = 0; p < NPREC; ++p) {
      axb_mixed_opts o = opts_p(precs[p]);
      snprintf(what, sizeof what, "cond %.0e n=%lld %s", kap[t], (long long)n,
               axb_factor_precision_name(precs[p]));
      result r = run(h, what, &C, 0, AXB_LOWER, 1, &o);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
    }
    /* no fallback: a 16-bit factor of kappa 1e12 at n >= 257 must not be
       reported certified unless it is (run judges SUCCESS) */
    axb_mixed_opts o = opts_p(AXB_FACTOR_BF16);
    o.fallback = 0;
    o.refine = AXB_REFINE_IR;
    snprintf(what, sizeof what, "cond %.0e n=%lld bf16 no fallback", kap[t],
             (long long)n);
    result r = run(h, what, &C, 0, AXB_LOWER, 1, &o);
    CHECK(r.st == AXB_SUCCESS || r.st == AXB_ERR_NO_CONVERGENCE,
          "%s: status %d", what, r.st);
    if (t == 1 && n >= 257) CHECK_STATUS(h, r.st, AXB_ERR_NO_CONVERGENCE);
    axb_dense_destroy(&C);
  }
  /* rows scaled by 1e-100 .. 1e100: the scaling makes it routine */
  axb_dense S = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 17);
  scale_rows(&S, 3, -100, 100);
  for (int p = 0; p < NPREC; ++p) {
    axb_mixed_opts o = opts_p(precs[p]);
    snprintf(what, sizeof what, "rows 1e+-100 n=%lld %s", (long long)n,
             axb_factor_precision_name(precs[p]));
    result r = run(h, what, &S, 0, AXB_LOWER, 1, &o);
    CHECK_STATUS(h, r.st, AXB_SUCCESS);
    /* unscaled, FP16's range is exceeded at once: -2 and a fallback */
    o.scale = 0;
    snprintf(what, sizeof what, "rows 1e+-100 unscaled n=%lld %s", (long long)n,
             axb_factor_precision_name(precs[p]));
    r = run(h, what, &S, 0, AXB_LOWER, 1, &o);
    CHECK_STATUS(h, r.st, AXB_SUCCESS);
    if (n > 1 && (precs[p] == AXB_FACTOR_FP16 || precs[p] == AXB_FACTOR_FP32))
      CHECK(r.inf.iter == -2 && r.inf.fallbacks >= 1,
            "%s: iter %lld fallbacks %d (want the overflow path)", what,
            (long long)r.inf.iter, r.inf.fallbacks);
  }
  axb_dense_destroy(&S);
  /* singular: every precision ends in the FP64 factor's verdict */
  if (n > 1) {
    axb_dense Z = test_gen(h, AXB_GEN_SINGULAR, n, AXB_F64, 0, n / 2, 23);
    for (int p = 0; p < NPREC; ++p) {
      axb_mixed_opts o = opts_p(precs[p]);
      snprintf(what, sizeof what, "singular n=%lld %s", (long long)n,
               axb_factor_precision_name(precs[p]));
      result r = run(h, what, &Z, 0, AXB_LOWER, 1, &o);
      CHECK(r.st == AXB_ERR_SINGULAR || r.st == AXB_ERR_INACCURATE,
            "%s: status %d (%s)", what, r.st, axb_detail(h));
      if (r.st == AXB_ERR_SINGULAR)
        CHECK(r.info >= 1 && r.info <= n, "%s: info %lld", what,
              (long long)r.info);
    }
    axb_dense_destroy(&Z);
  }
  axb_dense_destroy(&U);
}

/* Rows scaled by 2^e, e uniform in [lo, hi] (exact). */
static void scale_rows_pow2(axb_dense *A, uint64_t seed, int lo, int hi) {
  for (int64_t i = 0; i < A->rows; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int e = lo + (int)((seed >> 33) % (uint64_t)(hi - lo + 1));
    double *a = A->data;
    for (int64_t j = 0; j < A->cols; ++j)
      a[i + j * A->ld] = ldexp(a[i + j * A->ld], e);
  }
}

/* The host session's paths of issue 22c (its kernels from the CPU table,
   the FP32 copy rounded during the scan, one row scale when the rows allow
   it), each against the path before (AXB_MIXED_HOST_KERNELS=0) and with
   the table's own sgetrf (AXB_MIXED_SGETRF=0, the default) or OpenBLAS's
   (=2): every run certified or failing by status (run judges), the row
   scales as documented, and the same verdicts on both paths. */
static void host_path_cases(axb_handle h, int64_t n) {
  char what[200];
  static const char *const env[][2] = {
      {"1", ""}, {"0", ""}, {"1", "0"}, {"1", "2"}};
  /* rows within 2^+-15: rounded as they are (scales 1); rows 2^70..2^100
     (beyond 2^64, spanning <= 2^40): one row scale; rows 2^-100..2^0
     (spanning > 2^40): per-row scales.  The path before scales per row. */
  axb_dense M = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 29);
  scale_rows_pow2(&M, 7, -15, 15);
  axb_dense G = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 41);
  scale_rows_pow2(&G, 11, 70, 100);
  axb_dense W = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 31);
  scale_rows_pow2(&W, 9, -100, 0);
  axb_dense Z = test_gen(h, n > 1 ? AXB_GEN_SINGULAR : AXB_GEN_UNIFORM, n,
                         AXB_F64, 0, n / 2, 37);
  for (int e = 0; e < 4; ++e) {
    setenv("AXB_MIXED_HOST_KERNELS", env[e][0], 1);
    setenv("AXB_MIXED_SGETRF", env[e][1], 1);
    for (int64_t k = 1; k <= 5; k += 4) { /* 5: the typed multi-column path */
      snprintf(what, sizeof what, "rows 2^+-15 n=%lld k=%lld env %s/%s",
               (long long)n, (long long)k, env[e][0], env[e][1]);
      result r = run(h, what, &M, 0, AXB_LOWER, k, NULL);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
      CHECK(r.inf.precision == AXB_FACTOR_FP32 && r.inf.iter >= 0,
            "%s: %s, iter %lld", what,
            axb_factor_precision_name(r.inf.precision), (long long)r.inf.iter);
      const int fresh = env[e][0][0] == '1', host = backend != AXB_BACKEND_CUDA;
      if (host && n > 1)
        CHECK(fresh ? r.inf.row_scale_min == 1 && r.inf.row_scale_max == 1
                    : r.inf.row_scale_min < r.inf.row_scale_max,
              "%s: row scales [%g, %g]", what, r.inf.row_scale_min,
              r.inf.row_scale_max);
      snprintf(what, sizeof what, "rows 2^70..100 n=%lld k=%lld env %s/%s",
               (long long)n, (long long)k, env[e][0], env[e][1]);
      r = run(h, what, &G, 0, AXB_LOWER, k, NULL);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
      if (host && n > 1)
        CHECK(fresh ? r.inf.row_scale_min == r.inf.row_scale_max &&
                          r.inf.row_scale_max < 1
                    : r.inf.row_scale_min < r.inf.row_scale_max,
              "%s: row scales [%g, %g]", what, r.inf.row_scale_min,
              r.inf.row_scale_max);
      snprintf(what, sizeof what, "rows 2^-100..0 n=%lld k=%lld env %s/%s",
               (long long)n, (long long)k, env[e][0], env[e][1]);
      r = run(h, what, &W, 0, AXB_LOWER, k, NULL);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
      if (host && n > 1)
        CHECK(r.inf.row_scale_min < r.inf.row_scale_max,
              "%s: row scales [%g, %g] (per-row scales expected)", what,
              r.inf.row_scale_min, r.inf.row_scale_max);
    }
    if (n > 1) { /* the FP32 factor's zero pivot, then the FP64 verdict */
      snprintf(what, sizeof what, "singular n=%lld env %s/%s", (long long)n,
               env[e][0], env[e][1]);
      result r = run(h, what, &Z, 0, AXB_LOWER, 1, NULL);
      CHECK(r.st == AXB_ERR_SINGULAR || r.st == AXB_ERR_INACCURATE,
            "%s: status %d (%s)", what, r.st, axb_detail(h));
    }
  }
  unsetenv("AXB_MIXED_HOST_KERNELS");
  unsetenv("AXB_MIXED_SGETRF");
  axb_dense_destroy(&M);
  axb_dense_destroy(&G);
  axb_dense_destroy(&W);
  axb_dense_destroy(&Z);
}

static void spd_cases(axb_handle h, int64_t n) {
  char what[160];
  axb_dense P = test_gen(h, AXB_GEN_SPD_GRAM, n, AXB_F64, 0, 0, 29);
  for (int u = 0; u < 2; ++u)
    for (int p = 0; p < NPREC; ++p) {
      axb_mixed_opts o = opts_p(precs[p]);
      axb_uplo uplo = u ? AXB_UPPER : AXB_LOWER;
      snprintf(what, sizeof what, "spd n=%lld %s %s", (long long)n,
               u ? "upper" : "lower", axb_factor_precision_name(precs[p]));
      result r = run(h, what, &P, 1, uplo, 2, &o);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
    }
  /* kappa 1e8 SPD (cond is symmetric only by construction: make it so) */
  axb_dense_destroy(&P);
  if (n > 1) {
    axb_dense N = test_gen(h, AXB_GEN_UNIFORM, n, AXB_F64, 0, 0, 31);
    snprintf(what, sizeof what, "not spd n=%lld", (long long)n);
    result r = run(h, what, &N, 1, AXB_LOWER, 1, NULL);
    CHECK(r.st == AXB_ERR_NOT_SPD, "%s: status %d (%s)", what, r.st,
          axb_detail(h));
    axb_dense_destroy(&N);
  }
}

static void argument_cases(axb_handle h) {
  double a[4] = {2, 1, 1, 3}, b[2] = {1, 2}, x[2];
  int64_t iter = 0, info = 0;
  CHECK_STATUS(h, axb_dsgesv(h, -1, 1, a, 2, b, 2, x, 2, &iter, &info), -1);
  CHECK(info == -1, "info %lld", (long long)info);
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, a, 1, b, 2, x, 2, &iter, &info), -4);
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, a, 2, NULL, 2, x, 2, &iter, &info), -5);
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, a, 2, b, 2, x, 1, &iter, &info), -8);
  CHECK_STATUS(
      h, axb_dsposv(h, (axb_uplo)7, 2, 1, a, 2, b, 2, x, 2, &iter, &info), -1);
  CHECK(axb_dsgesv(NULL, 2, 1, a, 2, b, 2, x, 2, &iter, &info) ==
                AXB_ERR_INVALID &&
            axb_detail(NULL)[0] != '\0',
        "NULL handle");
  axb_mixed_opts o = opts_p((axb_factor_precision)99);
  CHECK_STATUS(
      h,
      axb_dsxsv_ex(h, 0, AXB_LOWER, 0, 2, 1, a, 2, b, 2, x, 2, &o, NULL, &info),
      -12);
  CHECK_STATUS(h, axb_dsgesv(h, 0, 1, a, 1, b, 1, x, 1, &iter, &info),
               AXB_SUCCESS);
  /* NaN in A or B: invalid, never a quiet answer */
  double an[4] = {2, NAN, 1, 3};
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, an, 2, b, 2, x, 2, &iter, &info),
               AXB_ERR_INVALID);
  double bn[2] = {1, INFINITY};
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, a, 2, bn, 2, x, 2, &iter, &info),
               AXB_ERR_INVALID);
  /* LAPACK-shaped result */
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, a, 2, b, 2, x, 2, &iter, &info),
               AXB_SUCCESS);
  CHECK(fabs(x[0] - 0.2) < 1e-15 && fabs(x[1] - 0.6) < 1e-15 && iter >= 0,
        "x = %g %g iter %lld", x[0], x[1], (long long)iter);
  /* singular: the status names the column, X is left as it was */
  double as[4] = {1, 2, 2, 4}, xs[2] = {7, 7};
  CHECK_STATUS(h, axb_dsgesv(h, 2, 1, as, 2, b, 2, xs, 2, &iter, &info),
               AXB_ERR_SINGULAR);
  CHECK(info == 2 && xs[0] == 7 && xs[1] == 7, "singular: info %lld x %g %g",
        (long long)info, xs[0], xs[1]);
  /* a factor larger than the memory there is: refused with a message */
  if (axb_handle_backend(h) != AXB_BACKEND_CUDA) {
    setenv("AXB_MEMORY_LIMIT", "4096", 1);
    double a9[81], b9[9], x9[9];
    for (int i = 0; i < 81; ++i)
      a9[i] = i % 10 == 0 ? 4 : 0.5;
    for (int i = 0; i < 9; ++i)
      b9[i] = 1;
    axb_status st = axb_dsgesv(h, 9, 1, a9, 9, b9, 9, x9, 9, &iter, &info);
    CHECK(st == AXB_ERR_OUT_OF_MEMORY || st == AXB_SUCCESS, "limit: %d", st);
    setenv("AXB_MEMORY_LIMIT", "64", 1);
    st = axb_dsgesv(h, 9, 1, a9, 9, b9, 9, x9, 9, &iter, &info);
    CHECK(st == AXB_ERR_OUT_OF_MEMORY && strstr(axb_detail(h), "GiB"),
          "factor over the memory limit: %d (%s)", st, axb_detail(h));
    unsetenv("AXB_MEMORY_LIMIT");
  }
  axb_factor_precision p;
  CHECK(axb_factor_precision_parse("bf16", &p) == 0 && p == AXB_FACTOR_BF16,
        "parse bf16");
  CHECK(axb_factor_precision_parse("half", &p) == AXB_ERR_INVALID &&
            axb_detail(NULL)[0] != '\0',
        "parse half");
  CHECK(axb_factor_precision_parse(NULL, &p) == AXB_ERR_INVALID, "NULL");
}

static void real_matrices(axb_handle h) {
  const char *dir = test_matrices_dir();
  if (!dir) return;
  const char *names[] = {"Trefethen_500", "1138_bus", "fs_183_6", "west0479",
                         "bcsstk14"};
  for (size_t t = 0; t < sizeof names / sizeof names[0]; ++t) {
    char path[1024], what[160];
    snprintf(path, sizeof path, "%s/%s.mtx", dir, names[t]);
    axb_dense A;
    if (axb_read_dense(h, path, AXB_F64, &A) != AXB_SUCCESS) continue;
    for (int p = 0; p < NPREC; ++p) {
      axb_mixed_opts o = opts_p(precs[p]);
      snprintf(what, sizeof what, "%s %s", names[t],
               axb_factor_precision_name(precs[p]));
      result r = run(h, what, &A, 0, AXB_LOWER, 1, &o);
      CHECK_STATUS(h, r.st, AXB_SUCCESS);
    }
    axb_dense_destroy(&A);
  }
}

int main(int argc, char **argv) {
  backend = test_backend_arg(argc, argv);
  axb_handle h = test_handle(backend);
  argument_cases(h);
  int64_t sizes[] = {1, 31, 257, 1000};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    if (backend == AXB_BACKEND_REF && sizes[i] > 257) continue;
    general_cases(h, sizes[i]);
    host_path_cases(h, sizes[i]);
    spd_cases(h, sizes[i]);
  }
  /* one more SPD order: scripts/gpu-check.sh runs n = 2600 with the
     tensor-core Cholesky's blocks forced small (AXB_MIXED_CHOL_TC=1,
     AXB_MIXED_CHOL_NB=256), so that its trailing update (syrk_tc) goes by
     several column blocks, lower and upper */
  const char *extra = getenv("AXB_TEST_MIXED_SPD_N");
  if (extra && atoll(extra) > 0) spd_cases(h, atoll(extra));
  if (backend != AXB_BACKEND_REF) real_matrices(h);
  axb_handle_destroy(h);
  return test_finish("test_mixed");
}
