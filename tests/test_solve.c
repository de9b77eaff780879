/* axb_solve and axb_invert: every method, both precisions, the verdicts and
   the input checks.  On cuda the methods without CUDA kernels (lu-crout,
   cholesky-banachiewicz) must answer NOT_SUPPORTED; the rest is judged as
   everywhere.
   AXB_TEST_PER_BACKEND */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

/* Methods that are CPU-only and answer NOT_SUPPORTED on cuda; on opencl
   (issue 29) the LU study variants and Banachiewicz. */
static int absent_here(axb_method m) {
  if (axb_handle_backend(h) == AXB_BACKEND_OPENCL)
    return m == AXB_METHOD_LU_CROUT || m == AXB_METHOD_GAUSS ||
           m == AXB_METHOD_CHOLESKY_BANACHIEWICZ ||
           m == AXB_METHOD_LU_FIXEDPOINT;
  return axb_handle_backend(h) == AXB_BACKEND_CUDA &&
         (m == AXB_METHOD_LU_CROUT || m == AXB_METHOD_CHOLESKY_BANACHIEWICZ);
}

/* The mixed-precision methods: double systems only, no rcond estimate
   (their certificate is the refinement's backward error). */
static int is_mixed(axb_method m) {
  return m == AXB_METHOD_LU_MIXED || m == AXB_METHOD_CHOLESKY_MIXED;
}

/* Generate A from a spec and B = A x_true; returns 0 on failure. */
static int make_system(const char *spec, axb_dtype t, int64_t nrhs,
                       axb_dense *A, axb_dense *X, axb_dense *B) {
  axb_status st = test_gen_spec(h, spec, t, A);
  if (!st) st = axb_gen_rhs(h, A, nrhs, AXB_RHS_RANDOM, 7, X, B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  return st == AXB_SUCCESS;
}

static void free3(axb_dense *a, axb_dense *b, axb_dense *c) {
  axb_dense_destroy(a);
  axb_dense_destroy(b);
  axb_dense_destroy(c);
}

/* Solve and check status, method used, backward and forward error. */
static void solve_case(const char *spec, axb_dtype t, axb_method m,
                       int64_t nrhs, axb_status want, axb_method want_m,
                       double max_fwd) {
  axb_dense A, X, B;
  if (!make_system(spec, t, nrhs, &A, &X, &B)) return;
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = m;
  axb_report r;
  axb_status st = axb_solve(h, &A, &B, &o, &r);
  if (absent_here(m) || (is_mixed(m) && t != AXB_F64)) {
    CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED);
    free3(&A, &X, &B);
    return;
  }
  CHECK(st == want, "%s %s %s: status %d (%s) want %d; %s", spec,
        axb_dtype_name(t), axb_method_name(m), st, axb_strerror(st), want,
        axb_detail(h));
  CHECK(r.status == st, "report status %d vs %d", r.status, st);
  CHECK(r.method == want_m, "%s: method %s want %s", spec,
        axb_method_name(r.method), axb_method_name(want_m));
  if (st == AXB_SUCCESS) {
    CHECK_RATIO(r.backward_error, "%s %s %s", spec, axb_dtype_name(t),
                axb_method_name(m));
    /* B now holds X: the check recomputed here must agree. */
    double fwd = axb_forward_error(&B, &X);
    CHECK(fwd <= max_fwd, "%s %s %s: forward error %.3g > %.3g", spec,
          axb_dtype_name(t), axb_method_name(m), fwd, max_fwd);
    CHECK(r.n == A.rows && r.nrhs == nrhs, "report sizes");
    CHECK(r.t_factor >= 0 && r.t_solve >= 0 && r.t_total >= r.t_factor,
          "report times");
    if (m != AXB_METHOD_GAUSS && !is_mixed(m))
      CHECK(r.rcond > 0 && r.rcond <= 1 + 1e-6, "%s: rcond %.3g", spec,
            r.rcond);
  }
  free3(&A, &X, &B);
}

static void all_methods(axb_dtype t) {
  double tol = t == AXB_F64 ? 1e-9 : 1e-2;
  const int64_t sizes[] = {1, 2, 7, 33, 100};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    char spd[64], gen[64];
    snprintf(spd, sizeof spd, "spd:%lld", (long long)sizes[i]);
    snprintf(gen, sizeof gen, "diagdom:%lld", (long long)sizes[i]);
    solve_case(spd, t, AXB_METHOD_AUTO, 3, AXB_SUCCESS, AXB_METHOD_CHOLESKY,
               tol);
    /* A 1 x 1 positive matrix is SPD: AUTO rightly takes Cholesky. */
    solve_case(gen, t, AXB_METHOD_AUTO, 2, AXB_SUCCESS,
               sizes[i] == 1 ? AXB_METHOD_CHOLESKY : AXB_METHOD_LU, tol);
    for (int m = AXB_METHOD_LU; m < AXB_METHOD_COUNT; ++m)
      solve_case(spd, t, (axb_method)m, 2, AXB_SUCCESS, (axb_method)m, tol);
    solve_case(gen, t, AXB_METHOD_LU_CROUT, 1, AXB_SUCCESS, AXB_METHOD_LU_CROUT,
               tol);
    solve_case(gen, t, AXB_METHOD_GAUSS, 1, AXB_SUCCESS, AXB_METHOD_GAUSS, tol);
    solve_case(gen, t, AXB_METHOD_GAUSS_JORDAN, 1, AXB_SUCCESS,
               AXB_METHOD_GAUSS_JORDAN, tol);
    solve_case(gen, t, AXB_METHOD_LU_FIXEDPOINT, 1, AXB_SUCCESS,
               AXB_METHOD_LU_FIXEDPOINT, tol);
  }
  /* Random unsymmetric matrices need pivoting. */
  solve_case("uniform:150", t, AXB_METHOD_LU, 4, AXB_SUCCESS, AXB_METHOD_LU,
             t == AXB_F64 ? 1e-8 : 1);
  solve_case("uniform1000:97", t, AXB_METHOD_AUTO, 1, AXB_SUCCESS,
             AXB_METHOD_LU, t == AXB_F64 ? 1e-8 : 1);
}

/* AUTO on a symmetric matrix with positive diagonal that is not SPD falls
   back to LU and says so. */
static void auto_fallback(void) {
  axb_dense A, X, B;
  int64_t n = 40;
  if (!make_system("spd:40", AXB_F64, 1, &A, &X, &B)) return;
  /* Make it indefinite but keep symmetry and the positive diagonal:
     A(0,1) = A(1,0) = 10 n exceeds sqrt(A00 A11). */
  axb_dense_set(&A, 0, 1, 10.0 * (double)n);
  axb_dense_set(&A, 1, 0, 10.0 * (double)n);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B), AXB_SUCCESS);
  axb_report r;
  axb_status st = axb_solve(h, &A, &B, NULL, &r);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(r.method == AXB_METHOD_LU && r.cholesky_fell_back == 1,
        "fallback: method %s fell_back %d", axb_method_name(r.method),
        r.cholesky_fell_back);
  CHECK_RATIO(r.backward_error, "fallback");
  /* Forcing Cholesky reports the minor. */
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = AXB_METHOD_CHOLESKY;
  double b0 = axb_dense_get(&B, 0, 0);
  st = axb_solve(h, &A, &B, &o, &r);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
  CHECK(r.info == 2, "not-SPD minor %lld want 2", (long long)r.info);
  CHECK(axb_dense_get(&B, 0, 0) == b0, "B changed by a failed solve");
  free3(&A, &X, &B);
}

static void singular_and_ill(void) {
  axb_dense A, X, B;
  axb_report r;
  /* A zero column: exact zero pivot, B untouched. */
  if (make_system("singular:30,col=4", AXB_F64, 1, &A, &X, &B)) {
    axb_status st = axb_solve(h, &A, &B, NULL, &r);
    CHECK_STATUS(h, st, AXB_ERR_SINGULAR);
    CHECK(r.info >= 1 && r.info <= 5, "singular info %lld", (long long)r.info);
    CHECK(strstr(axb_detail(h), "singular") != NULL, "detail: %s",
          axb_detail(h));
    free3(&A, &X, &B);
  }
  /* kappa = 1e18 in double: rcond < eps, answer returned with a verdict. */
  if (make_system("cond:60,kappa=1e18", AXB_F64, 1, &A, &X, &B)) {
    axb_status st = axb_solve(h, &A, &B, NULL, &r);
    CHECK(st == AXB_ERR_ILL_CONDITIONED || st == AXB_ERR_SINGULAR,
          "kappa 1e18: status %d (%s)", st, axb_strerror(st));
    if (st == AXB_ERR_ILL_CONDITIONED)
      CHECK(r.rcond < 1e-15, "rcond %.3g", r.rcond);
    free3(&A, &X, &B);
  }
  /* kappa = 1e8 is fine in double, ill-conditioned in float. */
  if (make_system("cond:60,kappa=1e8", AXB_F64, 1, &A, &X, &B)) {
    CHECK_STATUS(h, axb_solve(h, &A, &B, NULL, &r), AXB_SUCCESS);
    CHECK(r.rcond > 1e-10 && r.rcond < 1e-6, "rcond %.3g for kappa 1e8",
          r.rcond);
    free3(&A, &X, &B);
  }
  if (make_system("cond:60,kappa=1e8", AXB_F32, 1, &A, &X, &B)) {
    axb_status st = axb_solve(h, &A, &B, NULL, &r);
    CHECK(st == AXB_ERR_ILL_CONDITIONED || st == AXB_ERR_INACCURATE,
          "float kappa 1e8: status %d (%s)", st, axb_strerror(st));
    free3(&A, &X, &B);
  }
}

/* The unpivoted study variants report a zero pivot instead of dividing. */
static void no_pivot(void) {
  double a[4] = {0, 1, 1, 0}, b[2] = {1, 2};
  axb_dense A = axb_dense_wrap(2, 2, 2, AXB_F64, a);
  axb_dense B = axb_dense_wrap(2, 1, 2, AXB_F64, b);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  axb_report r;
  for (int m = 0; m < 2; ++m) {
    o.method = m ? AXB_METHOD_GAUSS : AXB_METHOD_LU_CROUT;
    if (absent_here(o.method)) continue;
    o.pivot = 0;
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_SMALL_PIVOT);
    CHECK(r.info == 1, "info %lld", (long long)r.info);
    o.pivot = 1;
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_SUCCESS);
    CHECK(b[0] == 2 && b[1] == 1, "x = (%g, %g) want (2, 1)", b[0], b[1]);
    b[0] = 1;
    b[1] = 2;
  }
  o.method = AXB_METHOD_LU;
  o.pivot = 0;
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
  o.pivot = 2;
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
  o.method = AXB_METHOD_GAUSS;
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
  /* Forcing Cholesky on an unsymmetric matrix is refused up front, as not
     SPD (issue 19). */
  double u[4] = {4, 1, 2, 4};
  axb_dense U = axb_dense_wrap(2, 2, 2, AXB_F64, u);
  o.pivot = 1;
  o.method = AXB_METHOD_CHOLESKY_CROUT;
  CHECK_STATUS(h, axb_solve(h, &U, &B, &o, &r), AXB_ERR_NOT_SPD);
  CHECK(strstr(axb_detail(h), "not symmetric") != NULL, "detail %s",
        axb_detail(h));
}

/* The gauss variant keeps no factors, yet its answers are certified too:
   Hilbert(12) in single precision must not come back as plain success. */
static void gauss_certified(void) {
  axb_dense A, X, B;
  if (test_gen_spec(h, "hilbert:12", AXB_F32, &A)) return;
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B), AXB_SUCCESS);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = AXB_METHOD_GAUSS;
  axb_report r;
  axb_status st = axb_solve(h, &A, &B, &o, &r);
  CHECK(st == AXB_ERR_ILL_CONDITIONED || st == AXB_ERR_INACCURATE,
        "gauss on float Hilbert(12): status %d (%s), rcond %.3g", st,
        axb_strerror(st), r.rcond);
  CHECK(r.rcond >= 0 && r.rcond < 1e-6, "rcond %.3g", r.rcond);
  free3(&A, &X, &B);
}

static void bad_inputs(void) {
  double a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {1, 1, 1};
  axb_dense A = axb_dense_wrap(3, 2, 3, AXB_F64, a);
  axb_dense B = axb_dense_wrap(3, 1, 3, AXB_F64, b);
  axb_report r;
  CHECK_STATUS(h, axb_solve(h, &A, &B, NULL, &r), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "square") != NULL, "detail %s", axb_detail(h));
  axb_dense E = axb_dense_wrap(0, 0, 1, AXB_F64, a);
  axb_dense E1 = axb_dense_wrap(0, 1, 1, AXB_F64, b);
  CHECK_STATUS(h, axb_solve(h, &E, &E1, NULL, &r), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "empty") != NULL, "detail %s", axb_detail(h));
  /* NaN and Inf are refused with their position. */
  double s[4] = {2, 0, 0, 2};
  axb_dense S = axb_dense_wrap(2, 2, 2, AXB_F64, s);
  axb_dense B2 = axb_dense_wrap(2, 1, 2, AXB_F64, b);
  s[2] = NAN;
  CHECK_STATUS(h, axb_solve(h, &S, &B2, NULL, &r), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "A(1,2) is NaN") != NULL, "detail %s",
        axb_detail(h));
  s[2] = 0;
  b[1] = INFINITY;
  CHECK_STATUS(h, axb_solve(h, &S, &B2, NULL, &r), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "B(2,1) is infinite") != NULL, "detail %s",
        axb_detail(h));
  b[1] = 1;
  /* Mismatched right-hand side and dtype. */
  axb_dense B3 = axb_dense_wrap(3, 1, 3, AXB_F64, b);
  CHECK_STATUS(h, axb_solve(h, &S, &B3, NULL, &r), AXB_ERR_INVALID);
  float fb[2] = {1, 1};
  axb_dense BF = axb_dense_wrap(2, 1, 2, AXB_F32, fb);
  CHECK_STATUS(h, axb_solve(h, &S, &BF, NULL, &r), AXB_ERR_INVALID);
  CHECK_STATUS(h, axb_solve(h, NULL, &B2, NULL, &r), AXB_ERR_INVALID);
  CHECK(axb_solve(NULL, &S, &B2, NULL, NULL) == AXB_ERR_INVALID, "NULL h");
}

/* A's contents are checked in the pass that copies it (issue 28): a NaN
   or Inf in A is still reported first, before an unknown method, a bad
   option or X, or a Cholesky method's symmetry test, with its position, at
   a size where the pass is threaded; a symmetric A that is not SPD and an
   unsymmetric one for Cholesky keep their statuses. */
static void check_order(void) {
  const int64_t n = 600;
  axb_dense A = test_gen(h, AXB_GEN_SPD_SHIFT, n, AXB_F64, 0, 0, 11);
  axb_dense B = test_alloc(n, 1, n, AXB_F64), X = test_alloc(n, n, n, AXB_F64);
  axb_report r;
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  axb_dense_set(&A, 416, 299, NAN);
  const axb_method ms[] = {AXB_METHOD_AUTO, AXB_METHOD_LU, AXB_METHOD_CHOLESKY,
                           (axb_method)99};
  for (size_t k = 0; k < sizeof ms / sizeof *ms; ++k) {
    o.method = ms[k];
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "A(417,300) is NaN") != NULL,
          "method %d: detail %s", (int)ms[k], axb_detail(h));
  }
  o.method = AXB_METHOD_CHOLESKY;
  o.pivot = 0; /* not allowed for Cholesky: still A's NaN first */
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "A(417,300) is NaN") != NULL, "detail %s",
        axb_detail(h));
  o.pivot = 1;
  CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_CHOLESKY), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "A(417,300) is NaN") != NULL, "detail %s",
        axb_detail(h));
  CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_LU), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "A(417,300) is NaN") != NULL, "detail %s",
        axb_detail(h));
  /* Finite again but unsymmetric (one entry off): NOT_SPD for Cholesky,
     found by the fused pass; AUTO takes LU and solves. */
  axb_dense_set(&A, 416, 299, axb_dense_get(&A, 299, 416) * 0.5);
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_NOT_SPD);
  CHECK(strstr(axb_detail(h), "not symmetric") != NULL, "detail %s",
        axb_detail(h));
  axb_dense_set(&A, 416, 299, axb_dense_get(&A, 299, 416));
  /* One unequal pair at the pass's tile edges (256 rows x 32-128 columns,
     groups of 8 columns), above or below the diagonal. */
  const int64_t at[][2] = {{1, 0},     {31, 32},  {32, 31},   {255, 31},
                           {256, 32},  {599, 0},  {0, 599},   {599, 598},
                           {288, 287}, {511, 64}, {64, 511},  {512, 300},
                           {8, 7},     {7, 8},    {9, 8},     {135, 128},
                           {128, 127}, {64, 63},  {263, 257}, {599, 592}};
  for (size_t k = 0; k < sizeof at / sizeof *at; ++k) {
    const int64_t i = at[k][0], j = at[k][1];
    const double v = axb_dense_get(&A, i, j);
    axb_dense_set(&A, i, j, v + 1);
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_NOT_SPD);
    axb_dense_set(&A, i, j, v);
  }
  /* Above the diagonal only (the Cholesky and AUTO passes read it as the
     mirror): a NaN, then a symmetric pair of Infs, are reported as such. */
  const axb_method ca[] = {AXB_METHOD_CHOLESKY, AXB_METHOD_AUTO};
  for (size_t k = 0; k < 2; ++k) {
    o.method = ca[k];
    const double v = axb_dense_get(&A, 299, 416);
    axb_dense_set(&A, 299, 416, NAN);
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "A(300,417) is NaN") != NULL,
          "method %d: detail %s", (int)ca[k], axb_detail(h));
    axb_dense_set(&A, 299, 416, INFINITY);
    axb_dense_set(&A, 416, 299, INFINITY);
    CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "A(417,300) is infinite") != NULL,
          "method %d: detail %s", (int)ca[k], axb_detail(h));
    axb_dense_set(&A, 299, 416, v);
    axb_dense_set(&A, 416, 299, v);
  }
  /* Symmetric with a negative diagonal entry: AUTO takes LU, on a full
     copy of A (the symmetric pass copied the lower triangle only). */
  const double d5 = axb_dense_get(&A, 5, 5);
  axb_dense_set(&A, 5, 5, -d5);
  o.method = AXB_METHOD_AUTO;
  for (int64_t i = 0; i < n; ++i)
    axb_dense_set(&B, i, 0, 1);
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_SUCCESS);
  CHECK(r.method == AXB_METHOD_LU && !r.cholesky_fell_back,
        "AUTO on symmetric A with a negative diagonal took %s",
        axb_method_name(r.method));
  CHECK_RATIO(r.backward_error, "AUTO, negative diagonal");
  axb_dense_set(&A, 5, 5, d5);
  o.method = AXB_METHOD_CHOLESKY;
  axb_dense_set(&A, 416, 299, axb_dense_get(&A, 299, 416) * 0.5);
  o.method = AXB_METHOD_AUTO;
  for (int64_t i = 0; i < n; ++i)
    axb_dense_set(&B, i, 0, 1);
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_SUCCESS);
  CHECK(r.method == AXB_METHOD_LU && !r.cholesky_fell_back,
        "AUTO on unsymmetric A took %s", axb_method_name(r.method));
  /* Symmetric again: AUTO takes Cholesky. */
  axb_dense_set(&A, 416, 299, axb_dense_get(&A, 299, 416));
  for (int64_t i = 0; i < n; ++i)
    axb_dense_set(&B, i, 0, 1);
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_SUCCESS);
  CHECK(r.method == AXB_METHOD_CHOLESKY, "AUTO on SPD A took %s",
        axb_method_name(r.method));
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
}

static void invert(axb_dtype t) {
  axb_gen_spec g;
  axb_dense A, X;
  CHECK_STATUS(h, axb_gen_parse(h, "uniform:45", &g), AXB_SUCCESS);
  CHECK_STATUS(h, axb_gen_dense(h, &g, t, &A), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dense_create(&X, 45, 45, t), AXB_SUCCESS);
  CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_LU), AXB_SUCCESS);
  CHECK_RATIO(axb_check_inverse(&A, &X), "getri %s", axb_dtype_name(t));
  if (absent_here(AXB_METHOD_GAUSS_JORDAN)) {
    CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_GAUSS_JORDAN),
                 AXB_ERR_NOT_SUPPORTED);
  } else {
    CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_GAUSS_JORDAN),
                 AXB_SUCCESS);
    CHECK_RATIO(axb_check_inverse(&A, &X), "gj %s", axb_dtype_name(t));
  }
  CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_CHOLESKY), AXB_ERR_INVALID);
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  all_methods(AXB_F64);
  all_methods(AXB_F32);
  auto_fallback();
  check_order();
  singular_and_ill();
  if (!absent_here(AXB_METHOD_GAUSS)) {
    no_pivot();
    gauss_certified();
  }
  bad_inputs();
  invert(AXB_F64);
  invert(AXB_F32);
  axb_handle_destroy(h);
  return test_finish("test_solve");
}
