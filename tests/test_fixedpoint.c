/*
 * The iterative (fixed-point) Crout LU of SEEDS.md 1 through the typed API
 * (axb_[ds]getrf_fixedpoint) and the driver (method lu-fixedpoint).
 *
 * Its converged Z is Crout's unpivoted factor, so it is judged against the
 * reference backend's axb_[ds]getrf_crout without pivoting: on the ref and
 * cpu backends the operations are the same, in the same order, and the
 * factors must agree exactly; on cuda (tiled sums, fused multiply-adds)
 * within 64 n eps max|Z|.  Every factor is also judged by the DESIGN.md LU
 * residual and by solving with it (scaled solve residual < 30).  Inputs are
 * strongly regular (diagonally dominant, SPD, diagonal, upper): the method
 * never pivots.  Also: the SEEDS.md 2 x 2 example exactly; both schedulers
 * give the same Z and sweep counts; every block edge (8, 16, 32) and small
 * sections (several sections, edges not multiples of the block); a tiny
 * pivot (singular leading minor, zero column, a minor deep in a later
 * section) is reported with its column and never divided by; the sweep cap
 * answers AXB_ERR_NO_CONVERGENCE; tol > 0 stops earlier; illegal options.
 * Sizes 0, 1, 2, 3, odd; on cuda also 1030 and 2049 (AXB_TEST_QUICK=1
 * leaves those out, for compute-sanitizer).
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static axb_handle h, href;
static int on_cuda, quick;

static axb_status fp(axb_handle hh, axb_dense *Z, const axb_fixedpoint_opts *o,
                     axb_fixedpoint_stats *st, int64_t *info) {
  if (Z->dtype == AXB_F64)
    return axb_dgetrf_fixedpoint(hh, Z->rows, Z->data, Z->ld, o, st, info);
  return axb_sgetrf_fixedpoint(hh, Z->rows, Z->data, Z->ld, o, st, info);
}

static axb_status crout_nopivot(axb_dense *Z, int64_t *info) {
  if (Z->dtype == AXB_F64)
    return axb_dgetrf_crout(href, Z->rows, Z->data, Z->ld, NULL, info);
  return axb_sgetrf_crout(href, Z->rows, Z->data, Z->ld, NULL, info);
}

static double max_abs(const axb_dense *A) {
  double m = 0;
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      m = fmax(m, fabs(axb_dense_get(A, i, j)));
  return m;
}

static double max_diff(const axb_dense *A, const axb_dense *B) {
  double m = 0;
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i) {
      double d = fabs(axb_dense_get(A, i, j) - axb_dense_get(B, i, j));
      m = d > m ? d : (d == d ? m : INFINITY);
    }
  return m;
}

/* Crout's Z rewritten as getrf's (unit L, U with the diagonal), then the
   DESIGN.md LU residual ||A - LU||_1 / (n ||A||_1 eps). */
static double lu_ratio(const axb_dense *A, const axb_dense *Z) {
  const int64_t n = Z->rows;
  axb_dense G = test_alloc(n, n, n, Z->dtype);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double z = axb_dense_get(Z, i, j);
      const double v = i > j ? z / axb_dense_get(Z, j, j)
                             : (i == j ? z : axb_dense_get(Z, i, i) * z);
      axb_dense_set(&G, i, j, v);
    }
  const double r = axb_check_lu(A, &G, NULL);
  axb_dense_destroy(&G);
  return r;
}

/* X = U^-1 L^-1 B with Z on the test's handle. */
static double solve_ratio(const axb_dense *A, const axb_dense *Z) {
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, A, 2, AXB_RHS_RANDOM, 3, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st) return NAN;
  axb_dense X = test_copy_ld(&B, B.rows);
  const int64_t n = A->rows;
  if (A->dtype == AXB_F64) {
    st = axb_dtrsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 2, 1,
                   Z->data, Z->ld, X.data, X.ld);
    if (!st)
      st = axb_dtrsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 2, 1,
                     Z->data, Z->ld, X.data, X.ld);
  } else {
    st = axb_strsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 2, 1,
                   Z->data, Z->ld, X.data, X.ld);
    if (!st)
      st = axb_strsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 2, 1,
                     Z->data, Z->ld, X.data, X.ld);
  }
  CHECK_STATUS(h, st, AXB_SUCCESS);
  const double r = st ? NAN : axb_check_solve(A, &X, &B);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  return r;
}

/* One factorization judged three ways; returns the total sweeps. */
static int64_t judge(axb_gen_kind kind, int64_t n, axb_dtype t,
                     const axb_fixedpoint_opts *o, axb_dense *Zout) {
  char what[160];
  snprintf(what, sizeof what,
           "fixedpoint %s n=%lld %s section=%lld block=%d sched=%d",
           axb_gen_kind_name(kind), (long long)n, axb_dtype_name(t),
           (long long)(o ? o->section : 0), o ? o->block : 0,
           o ? o->scheduler : 0);
  axb_dense A = test_gen(h, kind, n, t, 0, 0, 700 + (uint64_t)n);
  axb_dense Z = test_copy_ld(&A, n + 3), C = test_copy_ld(&A, n);
  int64_t info = -1, cinfo = -1;
  axb_fixedpoint_stats s;
  memset(&s, 0, sizeof s);
  axb_status st = fp(h, &Z, o, &s, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK(test_padding_intact(&Z), "%s: wrote outside A", what);
  CHECK(s.sweeps >= s.sections && s.sections == s.nsec * s.nsec &&
            s.max_section_sweeps >= 1,
        "%s: stats sweeps %lld sections %lld nsec %lld", what,
        (long long)s.sweeps, (long long)s.sections, (long long)s.nsec);
  CHECK(crout_nopivot(&C, &cinfo) == AXB_SUCCESS, "%s: crout failed", what);
  if (st == AXB_SUCCESS) {
    const double d = max_diff(&Z, &C),
                 bound =
                     on_cuda ? 64.0 * (double)n * axb_eps(t) * max_abs(&C) : 0;
    CHECK(d <= bound, "%s: max|Z - Crout| = %g > %g", what, d, bound);
    CHECK_RATIO(lu_ratio(&A, &Z), "%s: LU residual", what);
    CHECK_RATIO(solve_ratio(&A, &Z), "%s: solve with Z", what);
  }
  if (Zout)
    *Zout = Z;
  else
    axb_dense_destroy(&Z);
  axb_dense_destroy(&C);
  axb_dense_destroy(&A);
  return s.sweeps;
}

static axb_fixedpoint_opts opts(int64_t section, int block, int sched) {
  axb_fixedpoint_opts o;
  axb_fixedpoint_opts_default(&o);
  o.section = section;
  o.block = block;
  o.scheduler = sched;
  return o;
}

static void regular_cases(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 3, 5, 17, 33, 70};
  const axb_gen_kind kinds[] = {AXB_GEN_DIAG_DOMINANT, AXB_GEN_SPD_SHIFT,
                                AXB_GEN_SPD_GRAM, AXB_GEN_DIAGONAL,
                                AXB_GEN_UPPER};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i)
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; ++k)
      judge(kinds[k], sizes[i], t, NULL, NULL);
  /* Several sections, edges not multiples of the block, every block. */
  const int blocks[] = {8, 16, 32};
  for (int b = 0; b < 3; ++b) {
    axb_fixedpoint_opts o = opts(24, blocks[b], AXB_FP_SCHED_PAIRS);
    judge(AXB_GEN_DIAG_DOMINANT, 101, t, &o, NULL);
    judge(AXB_GEN_SPD_SHIFT, 75, t, &o, NULL);
  }
  if (on_cuda && !quick) {
    judge(AXB_GEN_DIAG_DOMINANT, 1030, t, NULL, NULL); /* 5 sections of 256 */
    judge(AXB_GEN_SPD_SHIFT, 1030, t, NULL, NULL);
    axb_fixedpoint_opts o = opts(0, 32, AXB_FP_SCHED_DAG);
    judge(AXB_GEN_DIAG_DOMINANT, 2049, t, &o, NULL);
    o = opts(300, 8, AXB_FP_SCHED_PAIRS); /* rounds to 304 */
    judge(AXB_GEN_SPD_SHIFT, 1030, t, &o, NULL);
  }
}

/* The pairs and the dependency-driven schedulers iterate each section on
   the same converged inputs: the same Z, bit for bit, and the same sweeps. */
static void schedulers_agree(axb_dtype t, int64_t n, int64_t section) {
  axb_dense Zp, Zd;
  axb_fixedpoint_opts o = opts(section, 8, AXB_FP_SCHED_PAIRS);
  const int64_t sp = judge(AXB_GEN_DIAG_DOMINANT, n, t, &o, &Zp);
  o.scheduler = AXB_FP_SCHED_DAG;
  o.streams = 3;
  const int64_t sd = judge(AXB_GEN_DIAG_DOMINANT, n, t, &o, &Zd);
  CHECK(max_diff(&Zp, &Zd) == 0 && sp == sd,
        "schedulers n=%lld %s: max diff %g, sweeps %lld vs %lld", (long long)n,
        axb_dtype_name(t), max_diff(&Zp, &Zd), (long long)sp, (long long)sd);
  axb_dense_destroy(&Zp);
  axb_dense_destroy(&Zd);
}

/* SEEDS.md 1: A = [[4, 24], [2, 15]] -> L = [[4, 0], [2, 3]],
   U = [[1, 6], [0, 1]] exactly. */
static void seeds_example(axb_dtype t) {
  const double a[4] = {4, 2, 24, 15}, want[4] = {4, 2, 6, 3};
  axb_dense Z = test_alloc(2, 2, 2, t);
  for (int k = 0; k < 4; ++k)
    axb_dense_set(&Z, k % 2, k / 2, a[k]);
  int64_t info = -1;
  axb_fixedpoint_stats s;
  memset(&s, 0, sizeof s);
  CHECK_STATUS(h, fp(h, &Z, NULL, &s, &info), AXB_SUCCESS);
  int exact = 1;
  for (int k = 0; k < 4; ++k)
    exact &= axb_dense_get(&Z, k % 2, k / 2) == want[k];
  /* Sweep 1: L's column 0 and u_01 = 24/4 (z_00 = a_00 is already final),
     l_11 = 15 - 2*24; sweep 2: l_11 = 3; sweep 3 changes nothing. */
  CHECK(exact && s.sweeps == 3, "SEEDS 2x2 %s: Z = [%g %g; %g %g], sweeps %lld",
        axb_dtype_name(t), axb_dense_get(&Z, 0, 0), axb_dense_get(&Z, 0, 1),
        axb_dense_get(&Z, 1, 0), axb_dense_get(&Z, 1, 1), (long long)s.sweeps);
  axb_dense_destroy(&Z);
}

/* A tiny pivot is reported with its (1-based) column, never divided by. */
static void tiny_pivots(axb_dtype t) {
  /* Leading minor [[1, 2], [2, 4]] singular: column 2. */
  const double a[9] = {1, 2, 0, 2, 4, 1, 0, 1, 1};
  axb_dense Z = test_alloc(3, 3, 3, t);
  for (int k = 0; k < 9; ++k)
    axb_dense_set(&Z, k % 3, k / 3, a[k]);
  int64_t info = -1;
  CHECK_STATUS(h, fp(h, &Z, NULL, NULL, &info), AXB_ERR_SMALL_PIVOT);
  CHECK(info == 2, "fixedpoint singular minor: info %lld", (long long)info);
  axb_dense_destroy(&Z);
  /* 10 x 10 with a zero column (SEEDS.md 1: must fail cleanly). */
  const int64_t cols[] = {0, 4, 9};
  for (int c = 0; c < 3; ++c) {
    axb_dense A = test_gen(h, AXB_GEN_SINGULAR, 10, t, 0, cols[c], 10);
    info = -1;
    CHECK_STATUS(h, fp(h, &A, NULL, NULL, &info), AXB_ERR_SMALL_PIVOT);
    CHECK(info >= 1 && info <= cols[c] + 1,
          "fixedpoint zero column %lld: info %lld", (long long)cols[c],
          (long long)info);
    axb_dense_destroy(&A);
  }
  /* Row 150 = row 149 in a diagonally dominant 300 x 300: the leading
     minor of order 151 is singular, in the third section of 64. */
  const int64_t n = 300;
  axb_dense A = test_gen(h, AXB_GEN_DIAG_DOMINANT, n, t, 0, 0, 5);
  for (int64_t j = 0; j < n; ++j)
    axb_dense_set(&A, 150, j, axb_dense_get(&A, 149, j));
  axb_fixedpoint_opts o = opts(64, 16, AXB_FP_SCHED_DAG);
  for (int sched = 0; sched < 2; ++sched) {
    o.scheduler = sched;
    axb_dense Z2 = test_copy_ld(&A, n + 1);
    info = -1;
    CHECK_STATUS(h, fp(h, &Z2, &o, NULL, &info), AXB_ERR_SMALL_PIVOT);
    CHECK(info == 151, "fixedpoint deep singular minor sched %d: info %lld",
          sched, (long long)info);
    CHECK(test_padding_intact(&Z2), "fixedpoint singular: wrote outside");
    axb_dense_destroy(&Z2);
  }
  axb_dense_destroy(&A);
}

static void cap_and_tol(axb_dtype t) {
  axb_dense A = test_gen(h, AXB_GEN_DIAG_DOMINANT, 50, t, 0, 0, 8);
  axb_dense Z = test_copy_ld(&A, 50);
  axb_fixedpoint_opts o = opts(0, 0, AXB_FP_SCHED_PAIRS);
  o.max_sweeps = 2;
  int64_t info = -1;
  axb_fixedpoint_stats s;
  memset(&s, 0, sizeof s);
  CHECK_STATUS(h, fp(h, &Z, &o, &s, &info), AXB_ERR_NO_CONVERGENCE);
  CHECK(info == 0 && s.sweeps == 2 && s.last_change > 0,
        "fixedpoint cap: info %lld sweeps %lld change %g", (long long)info,
        (long long)s.sweeps, s.last_change);
  axb_dense_destroy(&Z);
  /* tol > 0 stops before the exact fixed point, with fewer sweeps. */
  axb_dense Z0 = test_copy_ld(&A, 50), Z1 = test_copy_ld(&A, 50);
  axb_fixedpoint_stats s0, s1;
  memset(&s0, 0, sizeof s0);
  memset(&s1, 0, sizeof s1);
  o = opts(0, 0, AXB_FP_SCHED_PAIRS);
  CHECK_STATUS(h, fp(h, &Z0, &o, &s0, &info), AXB_SUCCESS);
  o.tol = 1e-3;
  CHECK_STATUS(h, fp(h, &Z1, &o, &s1, &info), AXB_SUCCESS);
  CHECK(s1.sweeps < s0.sweeps && s0.last_change == 0 && s1.last_change <= 1e-3,
        "fixedpoint tol: sweeps %lld (tol 1e-3) vs %lld (tol 0)",
        (long long)s1.sweeps, (long long)s0.sweeps);
  axb_dense_destroy(&Z0);
  axb_dense_destroy(&Z1);
  axb_dense_destroy(&A);
}

static void arguments(void) {
  double a[4] = {2, 1, 1, 2};
  int64_t info = 0, sweeps[4] = {-1, -1, -1, -1};
  axb_fixedpoint_opts o = opts(0, 12, 0);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, a, 2, &o, NULL, &info), -4);
  CHECK(info == -4, "bad block: info %lld", (long long)info);
  o = opts(0, 0, 0);
  o.tol = -1;
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, a, 2, &o, NULL, &info), -4);
  o = opts(0, 0, 7);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, a, 2, &o, NULL, &info), -4);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, -1, a, 2, NULL, NULL, &info), -1);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, NULL, 2, NULL, NULL, &info), -2);
  CHECK_STATUS(h, axb_sgetrf_fixedpoint(h, 2, NULL, 1, NULL, NULL, &info), -2);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, a, 1, NULL, NULL, &info), -3);
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 0, NULL, 1, NULL, NULL, &info),
               AXB_SUCCESS);
  /* Section resolution and the per-section sweep counts. */
  axb_fixedpoint_stats s;
  memset(&s, 0, sizeof s);
  s.section_sweeps = sweeps;
  s.section_sweeps_len = 4;
  o = opts(1, 8, 0); /* rounds up to 8 >= n: one section */
  CHECK_STATUS(h, axb_dgetrf_fixedpoint(h, 2, a, 2, &o, &s, &info),
               AXB_SUCCESS);
  CHECK(s.section == 2 && s.nsec == 1 && sweeps[0] == s.sweeps &&
            sweeps[1] == -1,
        "one section: section %lld nsec %lld sweeps %lld [%lld]",
        (long long)s.section, (long long)s.nsec, (long long)s.sweeps,
        (long long)sweeps[0]);
  axb_dense A = test_gen(h, AXB_GEN_DIAG_DOMINANT, 20, AXB_F64, 0, 0, 2);
  memset(&s, 0, sizeof s);
  s.section_sweeps = sweeps;
  s.section_sweeps_len = 4;
  o = opts(9, 8, 0); /* rounds up to 16: 2 x 2 sections */
  CHECK_STATUS(h, fp(h, &A, &o, &s, &info), AXB_SUCCESS);
  CHECK(s.section == 16 && s.nsec == 2 &&
            sweeps[0] + sweeps[1] + sweeps[2] + sweeps[3] == s.sweeps &&
            sweeps[0] > 0 && sweeps[1] > 0 && sweeps[2] > 0 && sweeps[3] > 0,
        "two sections: section %lld nsec %lld", (long long)s.section,
        (long long)s.nsec);
  axb_dense_destroy(&A);
}

/* The driver: lu-fixedpoint solves and reports its sweeps; a matrix that
   needs pivoting is refused with the pivot's column. */
static void driver(axb_dtype t) {
  axb_dense A = test_gen(h, AXB_GEN_SPD_SHIFT, 90, t, 0, 0, 3);
  axb_dense Xt, B;
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 2, AXB_RHS_RANDOM, 1, &Xt, &B),
               AXB_SUCCESS);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = AXB_METHOD_LU_FIXEDPOINT;
  o.fixedpoint.section = 40; /* rounds up to 48: 2 x 2 sections */
  axb_report r;
  CHECK_STATUS(h, axb_solve(h, &A, &B, &o, &r), AXB_SUCCESS);
  CHECK(r.sweeps > 0 && r.sections == 4 && r.backward_error < 30 && r.rcond > 0,
        "driver: sweeps %lld sections %lld berr %g rcond %g",
        (long long)r.sweeps, (long long)r.sections, r.backward_error, r.rcond);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
  double a[9] = {1, 2, 0, 2, 4, 1, 0, 1, 1}, b[3] = {1, 1, 1};
  axb_dense A3 = axb_dense_wrap(3, 3, 3, AXB_F64, a),
            B3 = axb_dense_wrap(3, 1, 3, AXB_F64, b);
  CHECK_STATUS(h, axb_solve(h, &A3, &B3, &o, &r), AXB_ERR_SMALL_PIVOT);
  CHECK(r.info == 2 && b[0] == 1, "driver singular minor: info %lld",
        (long long)r.info);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  on_cuda = axb_handle_backend(h) == AXB_BACKEND_CUDA;
  const char *q = getenv("AXB_TEST_QUICK");
  quick = q && *q && strcmp(q, "0") != 0;
  if (axb_handle_create(&href, AXB_BACKEND_REF, 0) != AXB_SUCCESS) return 1;
  arguments();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    const axb_dtype t = types[i];
    seeds_example(t);
    tiny_pivots(t);
    cap_and_tol(t);
    schedulers_agree(t, 100, 24);
    if (on_cuda && !quick) schedulers_agree(t, 1030, 0);
    regular_cases(t);
    driver(t);
  }
  axb_handle_destroy(href);
  axb_handle_destroy(h);
  return test_finish("test_fixedpoint");
}
