/*
 * The condition estimate (issue 28): axb's block 1-norm estimator (Higham
 * & Tisseur, condest.c) against LAPACK's xGECON / xPOCON (Hager-Higham
 * xLACN2) from OpenBLAS, on the usual matrix types: uniform(-1, 1), the
 * generator's cond matrices with kappa = 1e2 ... 1e14, Hilbert, SPD, and
 * the real matrices of ../shared/matrices (read in place).  For each:
 *   - gecon (and pocon on SPD input) agrees with LAPACK's within a factor
 *     of 3: both are lower bounds of ||A^-1||_1 that are almost always
 *     within 3 of it, so two honest estimates cannot be further apart;
 *   - the estimate is a lower bound: rcond >= 1 / (||A||_1 ||inv(A)||_1)
 *     with inv(A) computed (n <= 400, kappa <= 1e8, where the computed
 *     inverse is accurate to well under the 1% allowed);
 *   - axb_solve's rcond (its estimate starts from the first block solved
 *     beside b) meets the same two tests, and its backward error is
 *     axb_check_solve's, bit for bit with LU, within 1 with Cholesky (its
 *     residual from the lower triangle of the symmetric A).
 * The cpu backend also runs one case on 3 threads, where the estimator's
 * two-column solves share their rows among the threads.
 * Skipped (77) without the OpenBLAS anchor.
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"
#include "vendor/vendor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static axb_handle h;
static int is_ref;

/* A copy with ld = n. */
static axb_dense copy_of(const axb_dense *A) {
  return test_copy_ld(A, A->rows);
}

/* rcond by axb (typed layer) and by LAPACK, LU or Cholesky. */
static void both(const axb_dense *A, int chol, double *ours, double *lap) {
  int64_t n = A->rows, info = 0;
  double anorm = axb_matrix_norm(A, AXB_NORM_ONE);
  axb_dense F = copy_of(A), G = copy_of(A);
  int64_t *ipiv = test_new_ipiv(n);
  int d = A->dtype == AXB_F64;
  axb_status st;
  *ours = *lap = -1;
  if (chol) {
    st = d ? axb_dpotrf(h, AXB_LOWER, n, F.data, n, &info)
           : axb_spotrf(h, AXB_LOWER, n, F.data, n, &info);
    if (!st)
      st = d ? axb_dpocon(h, AXB_LOWER, n, F.data, n, anorm, ours, &info)
             : axb_spocon(h, AXB_LOWER, n, F.data, n, anorm, ours, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    int li = d ? axb_vendor_dpotrf(AXB_LOWER, n, G.data, n)
               : axb_vendor_spotrf(AXB_LOWER, n, G.data, n);
    if (!li)
      li = d ? axb_vendor_dpocon(AXB_LOWER, n, G.data, n, anorm, lap)
             : axb_vendor_spocon(AXB_LOWER, n, G.data, n, anorm, lap);
    CHECK(li == 0, "LAPACK potrf/pocon info %d", li);
  } else {
    st = d ? axb_dgetrf(h, n, n, F.data, n, ipiv, &info)
           : axb_sgetrf(h, n, n, F.data, n, ipiv, &info);
    if (!st)
      st = d ? axb_dgecon(h, AXB_NORM_ONE, n, F.data, n, anorm, ours, &info)
             : axb_sgecon(h, AXB_NORM_ONE, n, F.data, n, anorm, ours, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    int li = d ? axb_vendor_dgetrf(n, G.data, n, ipiv)
               : axb_vendor_sgetrf(n, G.data, n, ipiv);
    if (!li)
      li = d ? axb_vendor_dgecon(n, G.data, n, anorm, lap)
             : axb_vendor_sgecon(n, G.data, n, anorm, lap);
    CHECK(li == 0, "LAPACK getrf/gecon info %d", li);
  }
  free(ipiv);
  axb_dense_destroy(&F);
  axb_dense_destroy(&G);
}

/* 1 / (||A||_1 ||inv(A)||_1) from the computed inverse (LU, getri). */
static double true_rcond(const axb_dense *A) {
  int64_t n = A->rows, info = 0;
  axb_dense X = copy_of(A);
  int64_t *ipiv = test_new_ipiv(n);
  double r = -1;
  if (!axb_dgetrf(h, n, n, X.data, n, ipiv, &info) &&
      !axb_dgetri(h, n, X.data, n, ipiv, &info))
    r = 1 /
        (axb_matrix_norm(A, AXB_NORM_ONE) * axb_matrix_norm(&X, AXB_NORM_ONE));
  free(ipiv);
  axb_dense_destroy(&X);
  return r;
}

/* The driver on A with b = A 1: its rcond (the estimator's first block
   solved beside b, P applied to it with LU) within a factor 3 of LAPACK's
   and a lower bound of the true one (t > 0: checkable), its backward error
   axb_check_solve's exactly. */
static void driver(const axb_dense *A, int chol, double lap, double t,
                   const char *what) {
  int64_t n = A->rows;
  axb_dense B = test_alloc(n, 1, n, A->dtype),
            X = test_alloc(n, 1, n, A->dtype);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(A, i, j);
    axb_dense_set(&B, i, 0, s);
    axb_dense_set(&X, i, 0, s);
  }
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = chol ? AXB_METHOD_CHOLESKY : AXB_METHOD_LU;
  axb_report rep;
  axb_status st = axb_solve(h, A, &X, &o, &rep);
  CHECK(st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED ||
            st == AXB_ERR_INACCURATE,
        "%s: driver status %d (%s)", what, (int)st, axb_detail(h));
  if (st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED ||
      st == AXB_ERR_INACCURATE) {
    double q = rep.rcond > lap ? rep.rcond / lap : lap / rep.rcond;
    CHECK(rep.rcond > 0 && q <= 3,
          "%s: driver rcond %.3g, LAPACK's %.3g (ratio %.3g > 3)", what,
          rep.rcond, lap, q);
    CHECK(!(t > 0) || rep.rcond >= 0.99 * t,
          "%s: driver rcond %.6g below the true %.6g", what, rep.rcond, t);
    /* LU: axb_check_solve's ratio bit for bit (one pass, same order).
       Cholesky: the residual from the lower triangle of the symmetric A,
       summed in another order: the two residuals differ by rounding,
       at most ~n eps ||A|| ||x||, i.e. by about 1 in the ratio's unit. */
    double be = axb_check_solve(A, &X, &B);
    CHECK(chol ? fabs(rep.backward_error - be) <= 1 : rep.backward_error == be,
          "%s: driver backward error %.17g, axb_check_solve %.17g", what,
          rep.backward_error, be);
  }
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
}

/* Every check on one matrix; kappa: its condition (0: unknown). */
static void judge(const axb_dense *A, int chol, double kappa,
                  const char *what) {
  double ours, lap;
  both(A, chol, &ours, &lap);
  double q = ours > lap ? ours / lap : lap / ours;
  CHECK(ours > 0 && lap > 0 && q <= 3,
        "%s: rcond %.3g, LAPACK's %.3g (ratio %.3g > 3)", what, ours, lap, q);
  double t = -1;
  if (A->dtype == AXB_F64 && A->rows <= 400 && kappa > 0 && kappa <= 1e8) {
    t = true_rcond(A);
    CHECK(ours >= 0.99 * t, "%s: rcond %.6g below the true %.6g", what, ours,
          t);
  }
  driver(A, chol, lap, t, what);
}

static void gen_case(const char *spec, axb_dtype t, int chol, double kappa) {
  axb_dense A = {0};
  axb_status st = test_gen_spec(h, spec, t, &A);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st) return;
  char what[96];
  snprintf(what, sizeof what, "%s %s %s", spec, axb_dtype_name(t),
           chol ? "pocon" : "gecon");
  judge(&A, chol, kappa, what);
  axb_dense_destroy(&A);
}

static void generated(void) {
  gen_case("uniform:50,seed=3", AXB_F64, 0, 0);
  gen_case("uniform:300,seed=4", AXB_F64, 0, 0);
  gen_case("uniform:300,seed=5", AXB_F32, 0, 0);
  if (!is_ref) gen_case("uniform:1100,seed=6", AXB_F64, 0, 0);
  for (int e = 2; e <= 14; e += 2) {
    char spec[64];
    snprintf(spec, sizeof spec, "cond:300,kappa=1e%d,seed=%d", e, e);
    gen_case(spec, AXB_F64, 0, pow(10, e));
    if (e <= 6) gen_case(spec, AXB_F32, 0, 0);
  }
  gen_case("spd:300,seed=7", AXB_F64, 1, 0);
  gen_case("spd:300,seed=8", AXB_F32, 1, 0);
  /* Hilbert: kappa_1 about 1.5e10 (8), 3.5e13 (10). */
  for (int n = 6; n <= 10; n += 2) {
    char spec[32];
    snprintf(spec, sizeof spec, "hilbert:%d", n);
    gen_case(spec, AXB_F64, 0, 0);
    gen_case(spec, AXB_F64, 1, 0);
  }
}

/* The shared real matrices: LU on the unsymmetric and indefinite ones,
   LU and Cholesky on the SPD ones (INDEX.md), n <= 2300 (1200 on ref). */
static void real_matrices(void) {
  static const struct {
    const char *file;
    int spd;
  } m[] = {{"bcsstk01.mtx", 1},
           {"nos4.mtx", 1},
           {"494_bus.mtx", 1},
           {"nos7.mtx", 1},
           {"1138_bus.mtx", 1},
           {"bcsstk14.mtx", 1},
           {"sherman1.mtx", 0},
           {"cage5.mtx", 0},
           {"west0067.mtx", 0},
           {"arc130.mtx", 0},
           {"fs_183_1.mtx", 0},
           {"west0479.mtx", 0},
           {"olm500.mtx", 0},
           {"steam2.mtx", 0},
           {"bfw782a.mtx", 0},
           {"orsirr_1.mtx", 0},
           {"sherman2.mtx", 0},
           {"watt_1.mtx", 0},
           {"dw2048.mtx", 0},
           {"orsreg_1.mtx", 0},
           {"tumorAntiAngiogenesis_2.mtx", 0}};
  const char *dir = test_matrices_dir();
  if (!dir) {
    printf("note: no shared matrices directory, real matrices skipped\n");
    return;
  }
  for (size_t k = 0; k < sizeof m / sizeof *m; ++k) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, m[k].file);
    axb_dense A = {0};
    axb_status st = axb_read_dense(h, path, AXB_F64, &A);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st) continue;
    if (A.rows <= (is_ref ? 1200 : 2300)) {
      judge(&A, 0, 0, m[k].file);
      if (m[k].spd) judge(&A, 1, 0, m[k].file);
    }
    axb_dense_destroy(&A);
  }
}

int main(int argc, char **argv) {
  axb_backend b = test_backend_arg(argc, argv);
  double probe = 0;
  if (axb_vendor_dgecon(1, &probe, 1, 0, &probe) == AXB_ERR_NOT_COMPILED) {
    return test_skip("no LAPACK anchor");
  }
  h = test_handle(b);
  is_ref = b == AXB_BACKEND_REF;
  generated();
  real_matrices();
  if (!is_ref) { /* two-column solves shared by rows among 3 threads */
    axb_set_threads(h, 3);
    gen_case("uniform:1100,seed=9", AXB_F64, 0, 0);
    gen_case("cond:1100,kappa=1e10,seed=9", AXB_F64, 0, 0);
    gen_case("spd:1100,seed=9", AXB_F64, 1, 0);
  }
  axb_handle_destroy(h);
  return test_finish("test_condest");
}
