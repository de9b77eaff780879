/* axb_solve with opts.trans = AXB_TRANS (issue 26: A^T X = B with the
   descriptor's A, so that a row-major A needs no transposing copy).  Every
   check is made against the explicit transpose At, formed here:
     - the answer's backward error recomputed as axb_check_solve(At, X, B),
       and the same check on A itself must FAIL (A unsymmetric): a driver
       that quietly solved A X = B cannot pass;
     - the report's backward error agrees with the independent one;
     - the report's rcond is that of At (exact 1-norm condition from an
       explicit inverse), on a matrix whose 1- and inf-norm conditions
       differ by more than the estimator's slack;
     - singular and ill-conditioned matrices get the same verdicts;
     - gauss and lu-mixed refuse with NOT_SUPPORTED, a bad trans with
       INVALID, an empty A as without trans.
   Both dtypes, n = 1, 2, odd sizes, several right-hand sides, ld > n.
   AXB_TEST_PER_BACKEND */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

static axb_dense copy_of(const axb_dense *B) {
  return test_copy_ld(B, B->rows);
}

static axb_status solve_t(const axb_dense *A, axb_dense *X, axb_method m,
                          axb_trans tr, axb_report *r) {
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  CHECK(o.trans == AXB_NO_TRANS, "default trans %d", (int)o.trans);
  o.method = m;
  o.trans = tr;
  return axb_solve(h, A, X, &o, r);
}

/* Methods that cannot run here (CPU-only study variants on cuda, mixed in
   float). */
static int skip(axb_method m, axb_dtype t) {
  if (axb_handle_backend(h) == AXB_BACKEND_CUDA &&
      (m == AXB_METHOD_LU_CROUT || m == AXB_METHOD_CHOLESKY_BANACHIEWICZ))
    return 1;
  return (m == AXB_METHOD_LU_MIXED || m == AXB_METHOD_CHOLESKY_MIXED) &&
         t != AXB_F64;
}

static int is_sym_method(axb_method m) {
  return m == AXB_METHOD_CHOLESKY || m == AXB_METHOD_CHOLESKY_CROUT ||
         m == AXB_METHOD_CHOLESKY_BANACHIEWICZ ||
         m == AXB_METHOD_CHOLESKY_MIXED;
}

/* Solve A^T X = B (B = At X_true) with method m on A (any ld) and judge
   it against At. */
static void good_case(const char *spec, axb_dtype t, axb_method m, int64_t nrhs,
                      int64_t pad) {
  axb_dense A0, Xt, B;
  if (test_gen_spec(h, spec, t, &A0)) {
    CHECK(0, "generator %s", spec);
    return;
  }
  axb_dense A = test_copy_ld(&A0, A0.rows + pad);
  axb_dense At = test_transpose(&A0);
  CHECK_STATUS(h, axb_gen_rhs(h, &At, nrhs, AXB_RHS_RANDOM, 11, &Xt, &B),
               AXB_SUCCESS);
  axb_dense X = copy_of(&B);
  axb_report r;
  axb_status st = solve_t(&A, &X, m, AXB_TRANS, &r);
  const char *tn = axb_dtype_name(t), *mn = axb_method_name(m);
  if (skip(m, t)) {
    CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED);
    goto done;
  }
  CHECK(st == AXB_SUCCESS, "%s %s %s trans: %s; %s", spec, tn, mn,
        axb_strerror(st), axb_detail(h));
  CHECK(pad == 0 || test_padding_intact(&A), "%s: A's padding written", spec);
  if (st) goto done;
  double be_t = axb_check_solve(&At, &X, &B);
  CHECK_RATIO(be_t, "%s %s %s: A^T X = B", spec, tn, mn);
  /* The report's certificate is the transposed system's (its residual is
     summed in another order: the ratios agree to their rounding, O(1)). */
  CHECK_RATIO(r.backward_error, "%s %s %s: report", spec, tn, mn);
  CHECK(fabs(r.backward_error - be_t) <= 1 + 0.5 * fmax(be_t, r.backward_error),
        "%s %s %s: report backward error %.6g, recomputed %.6g", spec, tn, mn,
        r.backward_error, be_t);
  if (A0.rows > 1 && !is_sym_method(m) && strncmp(spec, "spd", 3) != 0) {
    double be_a = axb_check_solve(&A0, &X, &B);
    CHECK(!(be_a < TEST_THRESHOLD), "%s %s %s: X also solves A X = B (%.3g)",
          spec, tn, mn, be_a);
  }
  double fwd = axb_forward_error(&X, &Xt);
  CHECK(fwd <= (t == AXB_F64 ? 1e-8 : 5e-2), "%s %s %s: forward error %.3g",
        spec, tn, mn, fwd);
  if (m != AXB_METHOD_CHOLESKY_MIXED)
    CHECK(r.rcond > 0 && r.rcond <= 1 + 1e-6, "%s %s %s: rcond %.3g", spec, tn,
          mn, r.rcond);
done:
  axb_dense_destroy(&A0);
  axb_dense_destroy(&A);
  axb_dense_destroy(&At);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
}

static void methods(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 7, 33, 129};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    long long n = (long long)sizes[i];
    char uni[64], dd[64], spd[64];
    snprintf(uni, sizeof uni, "uniform:%lld", n);
    snprintf(dd, sizeof dd, "diagdom:%lld", n);
    snprintf(spd, sizeof spd, "spd:%lld", n);
    good_case(uni, t, AXB_METHOD_LU, 3, 0);
    good_case(uni, t, AXB_METHOD_LU, 2, 5);
    /* AUTO on an unsymmetric A: LU with A^T (n = 1 is SPD). */
    good_case(n > 1 ? uni : dd, t, AXB_METHOD_AUTO, 1, 0);
    good_case(uni, t, AXB_METHOD_GAUSS_JORDAN, 2, 0);
    good_case(uni, t, AXB_METHOD_LU_CROUT, 2, 0);
    good_case(dd, t, AXB_METHOD_LU_FIXEDPOINT, 1, 0);
    /* The Cholesky methods: A symmetric, A^T = A. */
    good_case(spd, t, AXB_METHOD_AUTO, 2, 0);
    good_case(spd, t, AXB_METHOD_CHOLESKY, 2, 3);
    good_case(spd, t, AXB_METHOD_CHOLESKY_CROUT, 1, 0);
    good_case(spd, t, AXB_METHOD_CHOLESKY_BANACHIEWICZ, 1, 0);
    good_case(spd, t, AXB_METHOD_CHOLESKY_MIXED, 1, 0);
  }
}

/* 1 / (||M||_1 ||inv(M)||_1) from an explicit inverse. */
static double exact_rcond(const axb_dense *M) {
  axb_dense Mi;
  if (axb_dense_create(&Mi, M->rows, M->cols, M->dtype)) exit(1);
  CHECK_STATUS(h, axb_invert(h, M, &Mi, AXB_METHOD_LU), AXB_SUCCESS);
  double rc = 1.0 / (axb_matrix_norm(M, AXB_NORM_ONE) *
                     axb_matrix_norm(&Mi, AXB_NORM_ONE));
  axb_dense_destroy(&Mi);
  return rc;
}

/* Row 0 of a random A scaled by 1e6: its inf-norm condition is far above
   its 1-norm one, so rcond of A and of A^T differ by far more than the
   estimator's slack.  The trans report must give A^T's. */
static void rcond_case(axb_dtype t, axb_method m, int64_t n) {
  char spec[64];
  snprintf(spec, sizeof spec, "uniform:%lld", (long long)n);
  axb_dense A;
  if (test_gen_spec(h, spec, t, &A)) {
    CHECK(0, "generator");
    return;
  }
  for (int64_t j = 0; j < n; ++j)
    axb_dense_set(&A, 0, j, 1e3 * axb_dense_get(&A, 0, j));
  axb_dense At = test_transpose(&A), Xt, B;
  CHECK_STATUS(h, axb_gen_rhs(h, &At, 1, AXB_RHS_RANDOM, 3, &Xt, &B),
               AXB_SUCCESS);
  double rc_at = exact_rcond(&At), rc_a = exact_rcond(&A);
  CHECK(rc_at < rc_a / 8 || rc_a < rc_at / 8,
        "test has no power: rcond(A) %.3g rcond(A^T) %.3g", rc_a, rc_at);
  axb_report r;
  axb_status st = solve_t(&A, &B, m, AXB_TRANS, &r);
  if (skip(m, t)) {
    CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED);
  } else {
    /* X exists either way (float: rcond near eps); the report says rcond. */
    CHECK(st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED, "%s: %s",
          axb_method_name(m), axb_detail(h));
    /* The estimate is a lower bound of ||inv||, so rcond >= the exact value
       (up to rounding), and within a small factor of it. */
    CHECK(r.rcond >= rc_at * (1 - 1e-3) && r.rcond <= 3 * rc_at,
          "%s %s n=%lld: rcond %.4g, exact of A^T %.4g (of A %.4g)",
          axb_method_name(m), axb_dtype_name(t), (long long)n, r.rcond, rc_at,
          rc_a);
  }
  axb_dense_destroy(&A);
  axb_dense_destroy(&At);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

/* The driver's rcond for A^T is gecon's inf-norm estimate on getrf's
   factors of A (its first product rides with B's solve, the interchanges
   undone: the estimate must be the one gecon forms alone; without the
   undoing, the cond:257 and cond:200 cases differ by 2-3 %). */
static void rcond_matches_gecon(axb_dtype t, const char *spec) {
  axb_dense A, F, Xt, B;
  if (test_gen_spec(h, spec, t, &A)) {
    CHECK(0, "generator %s", spec);
    return;
  }
  int64_t n = A.rows;
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &Xt, &B), AXB_SUCCESS);
  F = copy_of(&A);
  int64_t *ipiv = test_new_ipiv(n);
  double rc = -1, anorm = axb_matrix_norm(&A, AXB_NORM_INF);
  axb_status st = t == AXB_F64 ? axb_dgetrf(h, n, n, F.data, n, ipiv, NULL)
                               : axb_sgetrf(h, n, n, F.data, n, ipiv, NULL);
  if (!st)
    st = t == AXB_F64
             ? axb_dgecon(h, AXB_NORM_INF, n, F.data, n, anorm, &rc, NULL)
             : axb_sgecon(h, AXB_NORM_INF, n, F.data, n, anorm, &rc, NULL);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_report r;
  st = solve_t(&A, &B, AXB_METHOD_LU, AXB_TRANS, &r);
  /* (hilbert and kappa = 1e7 are beyond float: rcond is reported anyway) */
  CHECK(st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED, "%s %s: %s", spec,
        axb_dtype_name(t), axb_detail(h));
  double q = r.rcond / rc;
  CHECK(t == AXB_F64 ? fabs(q - 1) <= 1e-6 : (q <= 3 && q >= 1.0 / 3),
        "%s %s: driver rcond %.9g, gecon(INF) %.9g", spec, axb_dtype_name(t),
        r.rcond, rc);
  free(ipiv);
  axb_dense_destroy(&A);
  axb_dense_destroy(&F);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

/* A zero column of A is a zero row of A^T: singular either way, B left
   unchanged; far beyond 1/eps: no certificate. */
static void bad_cases(axb_dtype t) {
  const int64_t sizes[] = {2, 9, 65};
  const axb_method ms[] = {AXB_METHOD_LU, AXB_METHOD_AUTO,
                           AXB_METHOD_GAUSS_JORDAN, AXB_METHOD_LU_CROUT};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i)
    for (size_t k = 0; k < sizeof ms / sizeof *ms; ++k) {
      int64_t n = sizes[i];
      axb_method m = ms[k];
      if (skip(m, t)) continue;
      char spec[64];
      snprintf(spec, sizeof spec, "singular:%lld,col=%lld", (long long)n,
               (long long)(n / 2));
      axb_dense A, Xt, B;
      if (test_gen_spec(h, spec, t, &A)) continue;
      CHECK_STATUS(h, axb_gen_rhs(h, &A, 2, AXB_RHS_ONES, 1, &Xt, &B),
                   AXB_SUCCESS);
      axb_dense X = copy_of(&B);
      axb_report r;
      axb_status st = solve_t(&A, &X, m, AXB_TRANS, &r);
      CHECK(st == AXB_ERR_SINGULAR || st == AXB_ERR_ILL_CONDITIONED,
            "%s %s %s: %s", spec, axb_dtype_name(t), axb_method_name(m),
            axb_strerror(st));
      if (st == AXB_ERR_SINGULAR)
        CHECK(axb_forward_error(&X, &B) == 0 && r.info > 0,
              "%s: B changed or no info after a failed factorization", spec);
      axb_dense_destroy(&A);
      axb_dense_destroy(&Xt);
      axb_dense_destroy(&B);
      axb_dense_destroy(&X);
      /* A 2 x 2 cond matrix rounds to kappa ~ 1/eps whatever kappa asks
         (rcond 1.10e-16 against eps 1.11e-16 on the CPU, just above eps
         on the GPU's rounding): no verdict can be demanded there. */
      if (n < 9) continue;
      snprintf(spec, sizeof spec, "cond:%lld,kappa=%s", (long long)n,
               t == AXB_F64 ? "1e20" : "1e10");
      if (test_gen_spec(h, spec, t, &A)) continue;
      CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &Xt, &B),
                   AXB_SUCCESS);
      st = solve_t(&A, &B, m, AXB_TRANS, &r);
      CHECK(st == AXB_ERR_SINGULAR || st == AXB_ERR_ILL_CONDITIONED ||
                st == AXB_ERR_INACCURATE,
            "%s %s %s: %s", spec, axb_dtype_name(t), axb_method_name(m),
            axb_strerror(st));
      axb_dense_destroy(&A);
      axb_dense_destroy(&Xt);
      axb_dense_destroy(&B);
    }
}

/* What cannot be honoured is refused, clearly. */
static void refusals(axb_dtype t) {
  axb_dense A, Xt, B;
  if (test_gen_spec(h, "uniform:5", t, &A)) return;
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &Xt, &B), AXB_SUCCESS);
  axb_report r;
  axb_status st = solve_t(&A, &B, AXB_METHOD_GAUSS, AXB_TRANS, &r);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED);
  CHECK(strstr(axb_detail(h), "transposed") != NULL, "detail: %s",
        axb_detail(h));
  st = solve_t(&A, &B, AXB_METHOD_LU_MIXED, AXB_TRANS, &r);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED);
  st = solve_t(&A, &B, AXB_METHOD_LU, (axb_trans)7, &r);
  CHECK_STATUS(h, st, AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "trans") != NULL, "detail: %s", axb_detail(h));
  /* Without the estimate: rcond -1, the backward error still A^T's. */
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.trans = AXB_TRANS;
  o.estimate_rcond = 0;
  axb_dense At = test_transpose(&A), X = copy_of(&B);
  st = axb_solve(h, &A, &X, &o, &r);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(r.rcond == -1, "rcond %.3g without the estimate", r.rcond);
  CHECK_RATIO(axb_check_solve(&At, &X, &B), "no-rcond trans");
  /* n = 0: refused as without trans. */
  axb_dense E = axb_dense_wrap(0, 0, 1, t, A.data);
  axb_dense Eb = axb_dense_wrap(0, 1, 1, t, B.data);
  axb_status s0 = solve_t(&E, &Eb, AXB_METHOD_LU, AXB_NO_TRANS, &r);
  axb_status s1 = solve_t(&E, &Eb, AXB_METHOD_LU, AXB_TRANS, &r);
  CHECK(s0 == s1 && s1 == AXB_ERR_INVALID, "n = 0: %s / %s", axb_strerror(s0),
        axb_strerror(s1));
  axb_dense_destroy(&A);
  axb_dense_destroy(&At);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  const axb_dtype ts[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    methods(ts[i]);
    rcond_case(ts[i], AXB_METHOD_LU, 41);
    rcond_case(ts[i], AXB_METHOD_LU, 300);
    rcond_case(ts[i], AXB_METHOD_GAUSS_JORDAN, 41);
    rcond_case(ts[i], AXB_METHOD_LU_CROUT, 41);
    const char *specs[] = {"uniform:50",
                           "uniform:201",
                           "uniform:333",
                           "cond:120,kappa=1e5",
                           "cond:257,kappa=1e3",
                           "integer:77",
                           "uniform1000:150",
                           "hilbert:9",
                           "cond:64,kappa=1e7,seed=5",
                           "uniform:90,seed=3",
                           "uniform:91,seed=4",
                           "cond:200,kappa=1e4,seed=9"};
    for (size_t k = 0; k < sizeof specs / sizeof *specs; ++k)
      rcond_matches_gecon(ts[i], specs[k]);
    bad_cases(ts[i]);
    refusals(ts[i]);
  }
  axb_handle_destroy(h);
  return test_finish("test_solve_trans");
}
