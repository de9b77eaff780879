/*
 * The distributed transposed solve and the certified driver's condition
 * estimate (issue 24) on a P x Q grid of CPU ranks:
 *   mpirun -np P*Q test_dist_cond P Q
 * Transposed solves are judged by the scaled residual of A^T X = B (A
 * unsymmetric, so that the solve of A X = B fails the same test, which is
 * checked too) and against the single-process getrs with trans; rcond
 * against the single-process axb_solve's estimate and the exact 1-norm
 * condition number from the inverse (both within a factor of 10), and bit
 * for bit the same on every rank.  Exit code: 1 when a check failed on
 * some rank.
 */
#include "core/internal.h" /* axb__alloc_fail_at: the allocation-failure hook */
#include "dist_testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The same 64 bits on every rank? */
static int same_bits(const void *p) {
  int64_t v;
  memcpy(&v, p, sizeof v);
  return same_everywhere(v);
}

static int same_status(axb_status st) { return same_everywhere(st); }

/* The distributed copy of F (every rank holds all of F): each rank takes
   its own blocks. */
static axb_dist_matrix scatter(const axb_dense *F, int64_t nb) {
  axb_dist_matrix A;
  if (axb_dist_matrix_create(HD, G, F->dtype, F->rows, nb, &A) != AXB_SUCCESS) {
    fprintf(stderr, "rank %d: create: %s\n", rank_, axb_detail(HD));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  size_t es = axb_dtype_size(F->dtype);
  for (int64_t j = 0; j < F->rows; ++j)
    for (int64_t i = 0; i < F->rows; ++i) {
      int pr, pc;
      int64_t li, lj;
      axb_dist_locate(&A, i, j, &pr, &pc, &li, &lj);
      if (pr * Q_ + pc == rank_)
        memcpy((char *)A.data + (size_t)(li + lj * A.lld) * es,
               (const char *)F->data + (size_t)(i + j * F->ld) * es, es);
    }
  return A;
}

static axb_dense transpose(const axb_dense *F) {
  axb_dense T;
  axb_dense_create(&T, F->rows, F->rows, F->dtype);
  for (int64_t j = 0; j < F->rows; ++j)
    for (int64_t i = 0; i < F->rows; ++i)
      axb_dense_set(&T, j, i, axb_dense_get(F, i, j));
  return T;
}

/* ---- getrs with trans ----------------------------------------------------
 */

static axb_status dist_getrs(axb_trans tr, const axb_dist_matrix *A,
                             const int64_t *ipiv, axb_dense *B) {
  return A->dtype == AXB_F64
             ? axb_dist_dgetrs(HD, tr, A, ipiv, B->cols, B->data, B->ld)
             : axb_dist_sgetrs(HD, tr, A, ipiv, B->cols, B->data, B->ld);
}

/* getrf, then A^T X = B for 2 columns (B = A^T x_true): the residual of
   the transposed system passes, that of A X = B does not (n >= 8), and X
   is the single-process getrs(TRANS)'s; then NO_TRANS after TRANS on the
   same factors still solves A X = B. */
static void trans_case(const char *spec, axb_dtype dt, int64_t nb) {
  axb_dense F = gen_full(spec, dt), At = transpose(&F);
  int64_t n = F.rows, info = -1, sinfo = 0;
  axb_dist_matrix A = scatter(&F, nb);
  int64_t *ipiv = calloc((size_t)n + 1, sizeof *ipiv);
  int64_t *jp = calloc((size_t)n + 1, sizeof *jp);
  axb_status st = dt == AXB_F64 ? axb_dist_dgetrf(HD, &A, ipiv, &info)
                                : axb_dist_sgetrf(HD, &A, ipiv, &info);
  CHECK(st == AXB_SUCCESS && info == 0, "%s: getrf %d: %s", spec, st,
        axb_detail(HD));
  axb_dense Xt, B, B0, S = gen_full(spec, dt), Xs;
  axb_gen_rhs(H, &At, 2, AXB_RHS_RANDOM, 11, &Xt, &B);
  axb_dense_destroy(&Xt);
  axb_gen_rhs(H, &At, 2, AXB_RHS_RANDOM, 11, &Xt, &B0);
  axb_dense_create(&Xs, n, 2, dt);
  memcpy(Xs.data, B.data, (size_t)(n * 2) * axb_dtype_size(dt));
  st = dist_getrs(AXB_TRANS, &A, ipiv, &B);
  CHECK(st == AXB_SUCCESS && same_status(st), "%s: getrs T %d: %s", spec, st,
        axb_detail(HD));
  double be = axb_check_solve(&At, &B, &B0);
  CHECK(be < 30, "%s nb %lld %s: A^T x = b backward error %.3g", spec,
        (long long)nb, axb_dtype_name(dt), be);
  if (n >= 8) { /* the check tells the two systems apart */
    double wrong = axb_check_solve(&F, &B, &B0);
    CHECK(wrong > 1e3, "%s: X also solves A X = B (%.3g)?", spec, wrong);
  }
  if (dt == AXB_F64) {
    axb_dgetrf(H, n, n, S.data, S.ld, jp, &sinfo);
    axb_dgetrs(H, AXB_TRANS, n, 2, S.data, S.ld, jp, Xs.data, Xs.ld, &sinfo);
  } else {
    axb_sgetrf(H, n, n, S.data, S.ld, jp, &sinfo);
    axb_sgetrs(H, AXB_TRANS, n, 2, S.data, S.ld, jp, Xs.data, Xs.ld, &sinfo);
  }
  double d = 0, xm = 0;
  for (int64_t k = 0; k < n * 2; ++k) {
    double a = axb_dense_get(&B, k % n, k / n),
           b = axb_dense_get(&Xs, k % n, k / n);
    d = fmax(d, fabs(a - b));
    xm = fmax(xm, fabs(b));
  }
  CHECK(d <= (dt == AXB_F64 ? 1e-10 : 1e-3) * xm,
        "%s nb %lld: X differs from the single-process getrs(T) by %.3g", spec,
        (long long)nb, d);
  /* The same factors, NO_TRANS: A X = B. */
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B0);
  axb_gen_rhs(H, &F, 2, AXB_RHS_RANDOM, 12, &Xt, &B0);
  memcpy(B.data, B0.data, (size_t)(n * 2) * axb_dtype_size(dt));
  st = dist_getrs(AXB_NO_TRANS, &A, ipiv, &B);
  be = axb_check_solve(&F, &B, &B0);
  CHECK(st == AXB_SUCCESS && be < 30, "%s: getrs N after T: %d %.3g", spec, st,
        be);
  axb_dense_destroy(&F);
  axb_dense_destroy(&At);
  axb_dense_destroy(&S);
  axb_dense_destroy(&Xs);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&B0);
  axb_dist_matrix_destroy(&A);
  free(ipiv);
  free(jp);
}

static void test_trans(void) {
  const char *specs[] = {"uniform:1", "uniform:2", "uniform:5", "uniform:37",
                         "uniform:70"};
  const int64_t nbs[] = {1, 4, 16};
  for (int t = 0; t < 2; ++t)
    for (size_t s = 0; s < sizeof specs / sizeof *specs; ++s)
      for (size_t b = 0; b < 3; ++b)
        trans_case(specs[s], t ? AXB_F32 : AXB_F64, nbs[b]);
  /* trans outside NO_TRANS/TRANS: argument 2, on every rank. */
  axb_dense F = gen_full("uniform:6", AXB_F64);
  axb_dist_matrix A = scatter(&F, 2);
  int64_t ipiv[6] = {1, 2, 3, 4, 5, 6};
  axb_status st = axb_dist_dgetrs(HD, (axb_trans)7, &A, ipiv, 1, F.data, F.ld);
  CHECK(st == -2 && same_status(st), "bad trans: %d", st);
  /* No right-hand side, and n = 0: nothing to do, success. */
  st = axb_dist_dgetrs(HD, AXB_TRANS, &A, ipiv, 0, F.data, F.ld);
  CHECK(st == AXB_SUCCESS, "nrhs = 0: %d %s", st, axb_detail(HD));
  axb_dense_destroy(&F);
  axb_dist_matrix_destroy(&A);
  F = gen_full("uniform:0", AXB_F32);
  A = scatter(&F, 4);
  float b0[1] = {0};
  st = axb_dist_sgetrs(HD, AXB_TRANS, &A, NULL, 1, b0, 1);
  CHECK(st == AXB_SUCCESS && same_status(st), "n = 0: %d %s", st,
        axb_detail(HD));
  axb_dense_destroy(&F);
  axb_dist_matrix_destroy(&A);
}

/* ---- rcond ---------------------------------------------------------------
 */

/* axb_dist_solve of A (the distributed copy of F) with b = row sums; the
   last rank's allocation fail_at of the call fails (0: none). */
static axb_status drive_failing(const axb_dense *F, int64_t nb, int chol,
                                int64_t fail_at, axb_dist_report *rep) {
  axb_dist_matrix A = scatter(F, nb);
  int64_t n = F->rows, n1 = n > 0 ? n : 1;
  size_t es = axb_dtype_size(F->dtype);
  char *B = calloc((size_t)n1, es), *X = calloc((size_t)n1, es);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(F, i, j);
    if (F->dtype == AXB_F64)
      ((double *)B)[i] = s;
    else
      ((float *)B)[i] = (float)s;
  }
  int last = rank_ == P_ * Q_ - 1;
  if (last && fail_at > 0) axb__alloc_fail_at(fail_at);
  axb_status st = axb_dist_solve(HD, &A, chol, 1, B, n1, X, n1, rep);
  if (last && fail_at > 0) axb__alloc_fail_at(0);
  free(B);
  free(X);
  axb_dist_matrix_destroy(&A);
  return st;
}

static axb_status drive(const axb_dense *F, int64_t nb, int chol,
                        axb_dist_report *rep) {
  return drive_failing(F, nb, chol, 0, rep);
}

/* 1 / (||A||_1 ||A^-1||_1) from the inverse, in double; 0 if singular. */
static double exact_rcond(const axb_dense *F) {
  int64_t n = F->rows;
  axb_dense D, Xi;
  axb_dense_create(&D, n, n, AXB_F64);
  axb_dense_create(&Xi, n, n, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      axb_dense_set(&D, i, j, axb_dense_get(F, i, j));
  double r = 0;
  if (axb_invert(H, &D, &Xi, AXB_METHOD_LU) == AXB_SUCCESS)
    r = 1.0 / (axb_matrix_norm(&D, AXB_NORM_ONE) *
               axb_matrix_norm(&Xi, AXB_NORM_ONE));
  axb_dense_destroy(&D);
  axb_dense_destroy(&Xi);
  return r;
}

/* The single-process axb_solve's status and rcond on the same system. */
static axb_status single(const axb_dense *F, int chol, double *rcond) {
  int64_t n = F->rows;
  axb_dense B;
  axb_dense_create(&B, n, 1, F->dtype);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += axb_dense_get(F, i, j);
    axb_dense_set(&B, i, 0, s);
  }
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = chol ? AXB_METHOD_CHOLESKY : AXB_METHOD_LU;
  axb_report r;
  axb_status st = axb_solve(H, F, &B, &o, &r);
  *rcond = r.rcond;
  axb_dense_destroy(&B);
  return st;
}

static int within10(double a, double b) {
  return a > 0 && b > 0 && a <= 10 * b && b <= 10 * a;
}

/* spec (at most 80 entries: the exact rcond inverts it on every rank):
   the distributed rcond within 10x of the single-process estimate and of
   the exact one, the same status as axb_solve's, the same rcond bit for
   bit on every rank.  ill: rcond < eps is expected (exactness not
   checked: both estimates and the inverse are then rounding noise). */
static void cond_case(const char *spec, axb_dtype dt, int64_t nb, int chol,
                      int ill) {
  axb_dense F = gen_full(spec, dt);
  axb_dist_report rep;
  axb_status st = drive(&F, nb, chol, &rep);
  double rs = -1, ex = exact_rcond(&F), eps = axb_eps(dt);
  axb_status ss = single(&F, chol, &rs);
  CHECK(same_bits(&rep.rcond) && same_status(st),
        "%s: rcond %.17g or status %d differs among ranks", spec, rep.rcond,
        st);
  CHECK(st == ss, "%s %s nb %lld: status %d, axb_solve's %d (%s)", spec,
        axb_dtype_name(dt), (long long)nb, st, ss, axb_detail(HD));
  if (ill) {
    CHECK(st == AXB_ERR_ILL_CONDITIONED && rep.rcond >= 0 && rep.rcond < eps &&
              strstr(axb_detail(HD), "singular to working precision"),
          "%s %s: status %d rcond %.3g: want ILL_CONDITIONED", spec,
          axb_dtype_name(dt), st, rep.rcond);
  } else {
    CHECK(st == AXB_SUCCESS && within10(rep.rcond, rs) &&
              within10(rep.rcond, ex),
          "%s %s nb %lld: rcond %.3g, axb_solve %.3g, exact %.3g (%d: %s)",
          spec, axb_dtype_name(dt), (long long)nb, rep.rcond, rs, ex, st,
          axb_detail(HD));
  }
  if (rank_ == 0 && getenv("AXB_TEST_VERBOSE"))
    printf("%-22s %s chol %d: rcond %.3e single %.3e exact %.3e\n", spec,
           axb_dtype_name(dt), chol, rep.rcond, rs, ex);
  axb_dense_destroy(&F);
}

/* A singular matrix whose LU meets no exact zero: column 2 := column 0 +
   column 1 (rounded), so rcond ~ eps or below.  Exactly zero column:
   SINGULAR, rcond not estimated (-1, as axb_solve). */
static void test_singular(axb_dtype dt) {
  axb_dense F = gen_full("uniform:30", dt);
  for (int64_t i = 0; i < 30; ++i)
    axb_dense_set(&F, i, 2, axb_dense_get(&F, i, 0) + axb_dense_get(&F, i, 1));
  axb_dist_report rep;
  axb_status st = drive(&F, 4, 0, &rep);
  double rs;
  axb_status ss = single(&F, 0, &rs);
  CHECK(same_bits(&rep.rcond) && same_status(st), "singular: differs");
  CHECK((st == AXB_ERR_ILL_CONDITIONED || st == AXB_ERR_SINGULAR) && st == ss &&
            rep.rcond < axb_eps(dt),
        "dependent columns %s: status %d (axb_solve %d) rcond %.3g",
        axb_dtype_name(dt), st, ss, rep.rcond);
  /* The switch: no estimate, no ILL_CONDITIONED verdict. */
  axb_dist_set_rcond(G, 0);
  st = drive(&F, 4, 0, &rep);
  axb_dist_set_rcond(G, 1);
  CHECK(rep.rcond == -1 && st != AXB_ERR_ILL_CONDITIONED && same_status(st),
        "rcond off: status %d rcond %.3g", st, rep.rcond);
  axb_dense_destroy(&F);
  F = gen_full("singular:23,col=9", dt);
  st = drive(&F, 4, 0, &rep);
  ss = single(&F, 0, &rs);
  CHECK(st == AXB_ERR_SINGULAR && rep.info == 10 && rep.rcond == -1 &&
            rs == -1 && ss == st && same_status(st),
        "zero column: status %d info %lld rcond %.3g (axb_solve %d, %.3g)", st,
        (long long)rep.info, rep.rcond, ss, rs);
  axb_dense_destroy(&F);
}

/* One rank's allocation fails at every point of the driver in turn, the
   condition estimate's included: the same status everywhere (the one
   without failures, or OUT_OF_MEMORY), no hang, and some failures land in
   the estimator's own workspace (before its first product).  F2: a
   float matrix with a subnormal pivot, whose first block overflows to Inf
   in the solve, so that the estimator stops before any product on the
   ranks where it could allocate.  On GPU ranks F2's clean run is SINGULAR
   (cuSOLVER's float panel flushes the subnormal pivot; test_alloc), but
   where a failed allocation sends the pivot search to the host copy (the
   last rank's 12th on a 2 x 2 grid of H100s, twelfth session), the pivot
   is kept, the solve overflows and the verdict is INACCURATE, as on CPU
   ranks (with AXB_DIST_GPU_PANEL=host every k gave the clean status
   there).  Both are failure verdicts, agreed everywhere: accepted. */
static void alloc_loop(const axb_dense *F, int *in_rcond, int *in_est) {
  axb_dist_report rep;
  axb_status clean = drive(F, 3, 0, &rep);
  int flush = HD != H && F->dtype == AXB_F32 && clean == AXB_ERR_SINGULAR;
  for (int64_t k = 1; k <= 60; ++k) {
    axb_status st = drive_failing(F, 3, 0, k, &rep);
    CHECK((st == clean || st == AXB_ERR_OUT_OF_MEMORY ||
           (flush && st == AXB_ERR_INACCURATE)) &&
              same_status(st),
          "%s: allocation %lld failing: %d (without: %d): %s",
          axb_dtype_name(F->dtype), (long long)k, st, clean, axb_detail(HD));
    int oom = st == AXB_ERR_OUT_OF_MEMORY;
    *in_rcond += oom && strstr(axb_detail(HD), "rcond");
    *in_est += oom && strstr(axb_detail(HD), "estimator's workspace");
  }
}

static void test_alloc(void) {
  axb_dense F = gen_full("uniform:20", AXB_F64),
            F2 = gen_full("diagonal:7", AXB_F32);
  axb_dense_set(&F2, 3, 3, 1e-40);
  int in_rcond = 0, in_est = 0, in_rcond2 = 0, in_est2 = 0;
  alloc_loop(&F, &in_rcond, &in_est);
  alloc_loop(&F2, &in_rcond2, &in_est2);
  axb_dist_report rep;
  axb_status st = drive(&F2, 3, 0, &rep);
  double rs;
  axb_status ss = single(&F2, 0, &rs);
  /* On GPU ranks the float panel runs in cuSOLVER, whose kernels flush the
     subnormal pivot 1e-40 to zero: the matrix is singular in the GPU's
     arithmetic (info > 0, the same on every rank: 5 on 2 H100s), a failure
     status as clear as the CPU's overflow, and the estimator never runs for
     F2. */
  int flushed = HD != H && st == AXB_ERR_SINGULAR && rep.info > 0;
  CHECK(in_rcond >= 2 && in_est >= 1 && (in_est2 >= 1 || flushed),
        "allocation failures in the estimate: %d, in its workspace: %d (%d "
        "with a first block that overflows)",
        in_rcond, in_est, in_est2);
  CHECK(((st == ss && rep.rcond == 0) || flushed) && same_status(st),
        "overflowing solve: status %d info %lld rcond %.3g (axb_solve %d, "
        "%.3g)",
        st, (long long)rep.info, rep.rcond, ss, rs);
  axb_dense_destroy(&F);
  axb_dense_destroy(&F2);
}

/* Several right-hand sides with ld > n, the estimate's first block solved
   beside them: every column solved, the padding rows of X untouched. */
static void test_layout(void) {
  axb_dense F = gen_full("uniform:25", AXB_F64), Xt, B;
  axb_gen_rhs(H, &F, 3, AXB_RHS_RANDOM, 3, &Xt, &B);
  int64_t n = 25, ldb = n + 2, ldx = n + 3;
  double Bp[27 * 3], Xp[28 * 3];
  for (int i = 0; i < 28 * 3; ++i)
    Xp[i] = -7;
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t i = 0; i < n; ++i)
      Bp[i + r * ldb] = axb_dense_get(&B, i, r);
  axb_dist_matrix A = scatter(&F, 4);
  axb_dist_report rep;
  axb_status st = axb_dist_solve(HD, &A, 0, 3, Bp, ldb, Xp, ldx, &rep);
  axb_dense X = axb_dense_wrap(n, 3, ldx, AXB_F64, Xp);
  double be = axb_check_solve(&F, &X, &B);
  int pad = 1;
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t i = n; i < ldx; ++i)
      pad &= Xp[i + r * ldx] == -7;
  CHECK(st == AXB_SUCCESS && be < 30 && pad && rep.rcond > 0,
        "3 columns, ld > n: %d be %.3g pad %d rcond %.3g", st, be, pad,
        rep.rcond);
  axb_dist_matrix_destroy(&A);
  axb_dense_destroy(&F);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

static void test_rcond(void) {
  test_layout();
  /* Well to ill conditioned, LU (kappa_1 of cond:n,kappa=K is about K). */
  const char *lu[] = {"cond:40,kappa=1e2", "cond:40,kappa=1e6",
                      "cond:41,kappa=1e9", "cond:40,kappa=1e12",
                      "uniform:3",         "uniform:2",
                      "uniform:1"};
  for (size_t i = 0; i < sizeof lu / sizeof *lu; ++i)
    cond_case(lu[i], AXB_F64, i % 2 ? 3 : 4, 0, 0);
  cond_case("cond:40,kappa=1e2", AXB_F32, 4, 0, 0);
  cond_case("cond:37,kappa=1e5", AXB_F32, 5, 0, 0);
  cond_case("cond:40,kappa=1e10", AXB_F32, 4, 0, 1);
  cond_case("hilbert:14", AXB_F64, 4, 0, 1);
  /* Cholesky. */
  cond_case("spd:50", AXB_F64, 6, 1, 0);
  cond_case("hilbert:8", AXB_F64, 3, 1, 0);
  cond_case("spd:33", AXB_F32, 4, 1, 0);
  cond_case("hilbert:4", AXB_F32, 1, 1, 0);
  test_singular(AXB_F64);
  test_singular(AXB_F32);
  test_alloc();
}

int main(int argc, char **argv) {
  dist_test_start(&argc, &argv);
  test_trans();
  test_rcond();
  return dist_test_finish("test_dist_cond");
}
