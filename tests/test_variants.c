/*
 * The study variants of SEEDS.md 1 and 2 through the typed API:
 *
 *   axb_[ds]getrf_crout + axb_[ds]crout_extract: Crout LU, Z = L (with its
 *   diagonal) below and unit U above.  Judged by the LU residual of
 *   DESIGN.md after rewriting L and U in getrf's layout (unit L, U with the
 *   diagonal: L D^-1 and D U, D = diag(L)), and by solving with Z through
 *   axb_[ds]trsm.  With partial pivoting on general matrices; without
 *   pivoting on matrices that need none (diagonally dominant, SPD,
 *   diagonal, upper).  The 2 x 2 example of SEEDS.md 1 must come out
 *   exactly; a 10 x 10 singular matrix must fail cleanly (AXB_ERR_SINGULAR
 *   with pivoting, AXB_ERR_SMALL_PIVOT without).
 *
 *   axb_[ds]gesv_gauss: elimination on [A | B] with unit pivot rows and
 *   back substitution; judged by the solve residual.  Without pivoting a
 *   zero or tiny pivot ([[0,1],[1,0]], [[1e-20,1],[1,1]]) is reported as
 *   AXB_ERR_SMALL_PIVOT with info = 1; with pivoting both solve.
 *
 * Sizes 0, 1, 2, 3, odd and larger, lda > n with NaN padding.
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

/* ---- helpers ------------------------------------------------------------- */

static axb_status crout(axb_dense *A, int64_t *ipiv, int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dgetrf_crout(h, A->rows, A->data, A->ld, ipiv, info);
  return axb_sgetrf_crout(h, A->rows, A->data, A->ld, ipiv, info);
}

static axb_status gauss(axb_dense *A, axb_dense *B, int pivot, int64_t *info) {
  if (A->dtype == AXB_F64)
    return axb_dgesv_gauss(h, A->rows, B->cols, A->data, A->ld, B->data, B->ld,
                           pivot, info);
  return axb_sgesv_gauss(h, A->rows, B->cols, A->data, A->ld, B->data, B->ld,
                         pivot, info);
}

static axb_status trsm(axb_uplo ul, axb_diag dg, const axb_dense *A,
                       axb_dense *B) {
  if (A->dtype == AXB_F64)
    return axb_dtrsm(h, AXB_LEFT, ul, AXB_NO_TRANS, dg, B->rows, B->cols, 1.0,
                     A->data, A->ld, B->data, B->ld);
  return axb_strsm(h, AXB_LEFT, ul, AXB_NO_TRANS, dg, B->rows, B->cols, 1.0f,
                   A->data, A->ld, B->data, B->ld);
}

static axb_status extract(const axb_dense *Z, axb_dense *L, axb_dense *U) {
  if (Z->dtype == AXB_F64)
    return axb_dcrout_extract(Z->rows, Z->data, Z->ld, L->data, L->ld, U->data,
                              U->ld);
  return axb_scrout_extract(Z->rows, Z->data, Z->ld, L->data, L->ld, U->data,
                            U->ld);
}

/* Row interchanges ipiv[0..n-1] applied to B in increasing order (P B). */
static void permute_rows(axb_dense *B, const int64_t *ipiv) {
  for (int64_t k = 0; k < B->rows; ++k)
    for (int64_t j = 0; j < B->cols; ++j) {
      const int64_t p = ipiv[k] - 1;
      const double x = axb_dense_get(B, k, j);
      axb_dense_set(B, k, j, axb_dense_get(B, p, j));
      axb_dense_set(B, p, j, x);
    }
}

/* ---- Crout
 * ------------------------------------------------------------------- */

/* Crout's factors rewritten as getrf's: below the diagonal l_ij / l_jj,
   on and above it l_ii u_ij (u_ii = 1), so that the product is the same
   L U; then the DESIGN.md LU residual with getrf's check. */
static double crout_lu_ratio(const axb_dense *A, const axb_dense *Z,
                             const int64_t *ipiv) {
  const int64_t n = Z->rows;
  axb_dense L = test_alloc(n, n, n, Z->dtype),
            U = test_alloc(n, n, n, Z->dtype);
  axb_dense G = test_alloc(n, n, n, Z->dtype);
  axb_status st = extract(Z, &L, &U);
  CHECK(st == AXB_SUCCESS, "crout_extract: %d", st);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double v = i > j
                           ? axb_dense_get(&L, i, j) / axb_dense_get(&L, j, j)
                           : axb_dense_get(&L, i, i) * axb_dense_get(&U, i, j);
      axb_dense_set(&G, i, j, v);
    }
  const double r = axb_check_lu(A, &G, ipiv);
  axb_dense_destroy(&L);
  axb_dense_destroy(&U);
  axb_dense_destroy(&G);
  return r;
}

/* X = U^-1 L^-1 P B straight from Z: L is Z's lower triangle with the
   diagonal, U its strictly upper part with a unit diagonal. */
static void crout_solve(const axb_dense *A, const axb_dense *Z,
                        const int64_t *ipiv, const char *what) {
  axb_dense Xt, B;
  axb_status st = axb_gen_rhs(h, A, 2, AXB_RHS_RANDOM, 3, &Xt, &B);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  axb_dense X = test_copy_ld(&B, B.rows);
  if (ipiv) permute_rows(&X, ipiv);
  st = trsm(AXB_LOWER, AXB_NON_UNIT, Z, &X);
  if (st == AXB_SUCCESS) st = trsm(AXB_UPPER, AXB_UNIT, Z, &X);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK_RATIO(axb_check_solve(A, &X, &B), "%s solve with Z", what);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
}

static void crout_case(axb_gen_kind kind, int64_t n, axb_dtype t, double kappa,
                       int pivot) {
  char what[128];
  snprintf(what, sizeof what, "crout %s %s n=%lld %s kappa=%g",
           pivot ? "pivot" : "nopivot", axb_gen_kind_name(kind), (long long)n,
           axb_dtype_name(t), kappa);
  axb_dense A = test_gen(h, kind, n, t, kappa, 0, 500 + (uint64_t)n);
  axb_dense Z = test_copy_ld(&A, n + 2);
  int64_t *ipiv = pivot ? test_new_ipiv(n) : NULL, info = -1;
  axb_status st = crout(&Z, ipiv, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "%s: info %lld", what, (long long)info);
  CHECK(test_padding_intact(&Z), "%s: wrote outside A", what);
  if (st == AXB_SUCCESS) {
    CHECK_RATIO(crout_lu_ratio(&A, &Z, ipiv), "%s", what);
    crout_solve(&A, &Z, ipiv, what);
  }
  free(ipiv);
  axb_dense_destroy(&Z);
  axb_dense_destroy(&A);
}

static void crout_cases(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 3, 5, 17, 32, 33, 65, 100};
  const axb_gen_kind general[] = {AXB_GEN_UNIFORM, AXB_GEN_UNIFORM1000,
                                  AXB_GEN_INTEGER, AXB_GEN_DIAG_DOMINANT};
  const axb_gen_kind regular[] = {AXB_GEN_DIAG_DOMINANT, AXB_GEN_SPD_SHIFT,
                                  AXB_GEN_SPD_GRAM, AXB_GEN_DIAGONAL,
                                  AXB_GEN_UPPER};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    for (size_t k = 0; k < sizeof general / sizeof *general; ++k)
      crout_case(general[k], sizes[i], t, 0, 1);
    for (size_t k = 0; k < sizeof regular / sizeof *regular; ++k)
      crout_case(regular[k], sizes[i], t, 0, 0);
    crout_case(AXB_GEN_COND, sizes[i], t, 1e3, 1);
    if (t == AXB_F64) crout_case(AXB_GEN_COND, sizes[i], t, 1e8, 1);
  }
  crout_case(AXB_GEN_UNIFORM, 257, t, 0, 1);
  crout_case(AXB_GEN_DIAG_DOMINANT, 257, t, 0, 0);
}

/* SEEDS.md 1: A = [[4, 24], [2, 15]] -> L = [[4, 0], [2, 3]],
   U = [[1, 6], [0, 1]], exactly (every operation is exact), with and
   without pivoting (|4| > |2|: no interchange). */
static void crout_seeds_example(axb_dtype t, int pivot) {
  double a[4] = {4, 2, 24, 15};
  const double wantL[4] = {4, 2, 0, 3}, wantU[4] = {1, 0, 6, 1};
  axb_dense A0 = axb_dense_wrap(2, 2, 2, AXB_F64, a);
  axb_dense Z = test_copy_ld(&A0, 3);
  axb_dense_destroy(&A0);
  if (t == AXB_F32) { /* same values, float storage */
    axb_dense Zs = test_alloc(2, 2, 3, AXB_F32);
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t i = 0; i < 3; ++i)
        axb_dense_set(&Zs, i, j, axb_dense_get(&Z, i, j));
    axb_dense_destroy(&Z);
    Z = Zs;
  }
  int64_t ipiv[2] = {0, 0}, info = -1;
  axb_status st = crout(&Z, pivot ? ipiv : NULL, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_dense L = test_alloc(2, 2, 2, t), U = test_alloc(2, 2, 2, t);
  CHECK(extract(&Z, &L, &U) == AXB_SUCCESS, "crout_extract failed");
  int exact = 1;
  for (int64_t k = 0; k < 4; ++k)
    exact &= axb_dense_get(&L, k % 2, k / 2) == wantL[k] &&
             axb_dense_get(&U, k % 2, k / 2) == wantU[k];
  CHECK(exact, "SEEDS 2x2 %s pivot=%d: L=[%g %g; %g %g] U=[%g %g; %g %g]",
        axb_dtype_name(t), pivot, axb_dense_get(&L, 0, 0),
        axb_dense_get(&L, 0, 1), axb_dense_get(&L, 1, 0),
        axb_dense_get(&L, 1, 1), axb_dense_get(&U, 0, 0),
        axb_dense_get(&U, 0, 1), axb_dense_get(&U, 1, 0),
        axb_dense_get(&U, 1, 1));
  if (pivot) CHECK(ipiv[0] == 1 && ipiv[1] == 2, "SEEDS 2x2: interchanged");
  axb_dense_destroy(&L);
  axb_dense_destroy(&U);
  axb_dense_destroy(&Z);
}

/* A 10 x 10 matrix with column col zero: with pivoting the fresh column is
   exactly zero (info = col + 1; at most that); without pivoting the pivot
   is zero or tiny at some column <= col + 1. */
static void crout_singular(axb_dtype t, int64_t col) {
  axb_dense A = test_gen(h, AXB_GEN_SINGULAR, 10, t, 0, col, 10);
  for (int pivot = 0; pivot < 2; ++pivot) {
    axb_dense Z = test_copy_ld(&A, 11);
    int64_t ipiv[10], info = -1;
    axb_status st = crout(&Z, pivot ? ipiv : NULL, &info);
    CHECK_STATUS(h, st, pivot ? AXB_ERR_SINGULAR : AXB_ERR_SMALL_PIVOT);
    CHECK(info >= 1 && info <= col + 1,
          "crout 10x10 zero column %lld pivot=%d: info %lld", (long long)col,
          pivot, (long long)info);
    CHECK(test_padding_intact(&Z), "crout singular: wrote outside A");
    axb_dense_destroy(&Z);
  }
  axb_dense_destroy(&A);
}

/* Leading minor [[1, 2], [2, 4]] is singular: no-pivot Crout must stop at
   column 2 although the whole matrix is nonsingular; pivoting copes. */
static void crout_needs_pivot(void) {
  double a[9] = {1, 2, 0, 2, 4, 1, 0, 1, 1};
  int64_t info = -1, ipiv[3];
  double z[9];
  memcpy(z, a, sizeof z);
  axb_status st = axb_dgetrf_crout(h, 3, z, 3, NULL, &info);
  CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
  CHECK(info == 2, "crout singular minor: info %lld", (long long)info);
  memcpy(z, a, sizeof z);
  st = axb_dgetrf_crout(h, 3, z, 3, ipiv, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_dense A = axb_dense_wrap(3, 3, 3, AXB_F64, a);
  axb_dense Z = axb_dense_wrap(3, 3, 3, AXB_F64, z);
  CHECK_RATIO(crout_lu_ratio(&A, &Z, ipiv), "crout pivoted, singular minor");
}

/* ---- Gauss
 * ------------------------------------------------------------------- */

static axb_status gauss_solver(axb_dense *F, axb_dense *X, const void *pivot,
                               int64_t *info) {
  return gauss(F, X, *(const int *)pivot, info);
}

static void gauss_case(axb_gen_kind kind, int64_t n, int64_t nrhs, axb_dtype t,
                       double kappa, int pivot) {
  char what[128];
  snprintf(what, sizeof what, "gauss %s %s n=%lld nrhs=%lld %s kappa=%g",
           pivot ? "pivot" : "nopivot", axb_gen_kind_name(kind), (long long)n,
           (long long)nrhs, axb_dtype_name(t), kappa);
  axb_dense A = test_gen(h, kind, n, t, kappa, 0, 900 + (uint64_t)n);
  test_solve_inplace(h, &A, nrhs, 1, 3, gauss_solver, &pivot, what);
  axb_dense_destroy(&A);
}

static void gauss_cases(axb_dtype t) {
  const int64_t sizes[] = {1, 2, 3, 5, 17, 32, 33, 65, 100};
  const axb_gen_kind general[] = {AXB_GEN_UNIFORM, AXB_GEN_UNIFORM1000,
                                  AXB_GEN_INTEGER};
  const axb_gen_kind regular[] = {AXB_GEN_DIAG_DOMINANT, AXB_GEN_SPD_SHIFT,
                                  AXB_GEN_DIAGONAL, AXB_GEN_UPPER};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    const int64_t nrhs = i % 2 ? 3 : 1;
    for (size_t k = 0; k < sizeof general / sizeof *general; ++k)
      gauss_case(general[k], sizes[i], nrhs, t, 0, 1);
    for (size_t k = 0; k < sizeof regular / sizeof *regular; ++k) {
      gauss_case(regular[k], sizes[i], nrhs, t, 0, 0);
      gauss_case(regular[k], sizes[i], nrhs, t, 0, 1);
    }
    gauss_case(AXB_GEN_COND, sizes[i], nrhs, t, 1e3, 1);
    if (t == AXB_F64) gauss_case(AXB_GEN_COND, sizes[i], nrhs, t, 1e8, 1);
  }
  for (int64_t n = 1; n <= (t == AXB_F64 ? 8 : 5); ++n)
    gauss_case(AXB_GEN_HILBERT, n, 2, t, 0, 1);
  gauss_case(AXB_GEN_UNIFORM, 257, 2, t, 0, 1);
}

/* SEEDS.md 2's failure: a zero or tiny leading pivot.  No pivoting reports
   it at column 1; partial pivoting solves the system. */
static void gauss_bad_pivots(axb_dtype t) {
  const double cases[2][4] = {{0, 1, 1, 0}, {1e-20, 1, 1, 1}};
  for (int c = 0; c < 2; ++c)
    for (int pivot = 0; pivot < 2; ++pivot) {
      double a[4], b[2] = {1, 2};
      memcpy(a, cases[c], sizeof a);
      axb_dense A0 = axb_dense_wrap(2, 2, 2, AXB_F64, a);
      axb_dense B0 = axb_dense_wrap(2, 1, 2, AXB_F64, b);
      axb_dense A = test_alloc(2, 2, 2, t), B = test_alloc(2, 1, 2, t);
      for (int64_t k = 0; k < 4; ++k)
        axb_dense_set(&A, k % 2, k / 2, axb_dense_get(&A0, k % 2, k / 2));
      for (int64_t k = 0; k < 2; ++k)
        axb_dense_set(&B, k, 0, axb_dense_get(&B0, k, 0));
      axb_dense F = test_copy_ld(&A, 2), X = test_copy_ld(&B, 2);
      int64_t info = -1;
      axb_status st = gauss(&F, &X, pivot, &info);
      if (pivot) {
        CHECK_STATUS(h, st, AXB_SUCCESS);
        CHECK_RATIO(axb_check_solve(&A, &X, &B), "gauss pivot case %d %s", c,
                    axb_dtype_name(t));
      } else {
        CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
        CHECK(info == 1, "gauss nopivot case %d: info %lld", c,
              (long long)info);
      }
      axb_dense_destroy(&A);
      axb_dense_destroy(&B);
      axb_dense_destroy(&F);
      axb_dense_destroy(&X);
    }
}

/* Zero column col: with pivoting an exactly zero pivot at col + 1 (or
   earlier); without, a zero or tiny one. */
static void gauss_singular(axb_dtype t, int64_t n, int64_t col) {
  test_singular_column(h, t, n, col, gauss, "gauss");
}

static void empty_sizes(void) {
  int64_t info = -1;
  CHECK_STATUS(h, axb_dgetrf_crout(h, 0, NULL, 1, NULL, &info), AXB_SUCCESS);
  CHECK(info == 0, "crout n=0 info %lld", (long long)info);
  CHECK_STATUS(h, axb_sgetrf_crout(h, 0, NULL, 1, NULL, &info), AXB_SUCCESS);
  CHECK_STATUS(h, axb_dgesv_gauss(h, 0, 1, NULL, 1, NULL, 1, 1, &info),
               AXB_SUCCESS);
  CHECK_STATUS(h, axb_sgesv_gauss(h, 0, 0, NULL, 1, NULL, 1, 0, &info),
               AXB_SUCCESS);
  CHECK(axb_dcrout_extract(0, NULL, 1, NULL, 1, NULL, 1) == AXB_SUCCESS,
        "crout_extract n=0");
  /* nrhs = 0: A is still eliminated, B untouched. */
  double a = 2;
  CHECK_STATUS(h, axb_dgesv_gauss(h, 1, 0, &a, 1, NULL, 1, 0, &info),
               AXB_SUCCESS);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  empty_sizes();
  crout_needs_pivot();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int i = 0; i < 2; ++i) {
    const axb_dtype t = types[i];
    crout_seeds_example(t, 0);
    crout_seeds_example(t, 1);
    crout_singular(t, 0);
    crout_singular(t, 4);
    crout_singular(t, 9);
    crout_cases(t);
    gauss_bad_pivots(t);
    gauss_singular(t, 10, 4);
    gauss_singular(t, 33, 32);
    gauss_singular(t, 1, 0);
    gauss_cases(t);
  }
  axb_handle_destroy(h);
  return test_finish("test_variants");
}
