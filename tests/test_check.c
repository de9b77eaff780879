/*
 * The accuracy checks must pass exact answers and fail wrong ones.  Factors
 * are built by hand from small integers so that A = L U (or L L^T, A x) is
 * formed exactly in double: the residual is then exactly 0, and a
 * perturbation of 1e-6 ||A|| in one entry must push the ratio far above the
 * threshold.  Also: NaN inputs never pass, n = 0, zero denominators, invalid
 * input (NaN), mixed dtypes, and the norms.
 */
#include "core/internal.h"
#include "testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAIL_FAR 1e3 /* "far above 30" */

/* A failing value: NaN, +Inf or >= the threshold. */
static int fails(double r) { return !(r < TEST_THRESHOLD); }

/* Small integers from a fixed LCG (tests only; the library has its own). */
static uint64_t lcg = 12345;
static int64_t rand_int(int64_t lo, int64_t hi) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (int64_t)((lcg >> 33) % (uint64_t)(hi - lo + 1));
}

static axb_dense make(int64_t m, int64_t n, axb_dtype t) {
  axb_dense A;
  axb_status st = axb_dense_create(&A, m, n, t);
  if (st != AXB_SUCCESS) {
    fprintf(stderr, "allocation failed\n");
    exit(1);
  }
  return A;
}

static double get(const axb_dense *A, int64_t i, int64_t j) {
  return axb_dense_get(A, i, j);
}
static void set(axb_dense *A, int64_t i, int64_t j, double v) {
  axb_dense_set(A, i, j, v);
}

static axb_dense copy_as(const axb_dense *A, axb_dtype t) {
  axb_dense B = make(A->rows, A->cols, t);
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      set(&B, i, j, get(A, i, j));
  return B;
}

/* C = A B (exact for small integers). */
static axb_dense mul(const axb_dense *A, const axb_dense *B) {
  axb_dense C = make(A->rows, B->cols, AXB_F64);
  for (int64_t j = 0; j < B->cols; ++j)
    for (int64_t k = 0; k < A->cols; ++k)
      for (int64_t i = 0; i < A->rows; ++i)
        set(&C, i, j, get(&C, i, j) + get(A, i, k) * get(B, k, j));
  return C;
}

static void swap_rows(axb_dense *A, int64_t i, int64_t p) {
  for (int64_t j = 0; j < A->cols; ++j) {
    double t = get(A, i, j);
    set(A, i, j, get(A, p, j));
    set(A, p, j, t);
  }
}

/* getrf-style factor: unit lower L (entries -2..2) below the diagonal, U
   upper (entries -3..3, diagonal 1..4) on and above; A = P^T L U where P is
   the product of the interchanges ipiv (applied in order), so P A = L U. */
static void make_lu(int64_t n, axb_dense *A, axb_dense *LU, int64_t *ipiv) {
  axb_dense L = make(n, n, AXB_F64), U = make(n, n, AXB_F64);
  *LU = make(n, n, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (i > j) set(&L, i, j, (double)rand_int(-2, 2));
      if (i == j) set(&L, i, j, 1);
      if (i < j) set(&U, i, j, (double)rand_int(-3, 3));
      if (i == j) set(&U, i, j, (double)rand_int(1, 4));
      set(LU, i, j, i > j ? get(&L, i, j) : get(&U, i, j));
    }
  *A = mul(&L, &U);
  for (int64_t i = 0; i < n; ++i)
    ipiv[i] = rand_int(i + 1, n);
  for (int64_t i = n - 1; i >= 0; --i)
    swap_rows(A, i, ipiv[i] - 1);
  axb_dense_destroy(&L);
  axb_dense_destroy(&U);
}

static void test_lu(int64_t n) {
  axb_dense A, LU;
  int64_t *ipiv = malloc((size_t)n * sizeof *ipiv);
  make_lu(n, &A, &LU, ipiv);
  double anorm = axb_matrix_norm(&A, AXB_NORM_ONE);
  CHECK(axb_check_lu(&A, &LU, ipiv) == 0, "n=%lld exact LU: %g", (long long)n,
        axb_check_lu(&A, &LU, ipiv));
  CHECK(axb_max_lu_diff(&A, &LU, ipiv) == 0, "exact LU max diff");

  /* float factor and float A of the same integers: still exact. */
  axb_dense As = copy_as(&A, AXB_F32), LUs = copy_as(&LU, AXB_F32);
  CHECK(axb_check_lu(&As, &LUs, ipiv) == 0, "float exact LU");
  CHECK(axb_check_lu(&A, &LUs, ipiv) == 0, "mixed dtypes exact LU");

  /* A wrong permutation fails (when there is one to forget). */
  int permuted = 0;
  for (int64_t i = 0; i < n; ++i)
    permuted |= ipiv[i] != i + 1;
  if (permuted)
    CHECK(fails(axb_check_lu(&A, &LU, NULL)), "missing P passes: %g",
          axb_check_lu(&A, &LU, NULL));

  /* One entry of L, then of U, off by 1e-6 ||A||_1. */
  int64_t cells[2][2] = {{n - 1, n / 2}, {n / 3, n - 1}};
  for (int c = 0; c < 2; ++c) {
    int64_t i = cells[c][0], j = cells[c][1];
    double old = get(&LU, i, j), d = 1e-6 * anorm;
    set(&LU, i, j, old + d);
    double r = axb_check_lu(&A, &LU, ipiv);
    CHECK(r > FAIL_FAR, "perturbed LU(%lld,%lld) ratio %g", (long long)i,
          (long long)j, r);
    /* max |P A - L U| = d max_r |l_ri| (U entry) or d max_c |u_jc| (L). */
    double big = 0;
    for (int64_t r = 0; r < n; ++r)
      big = fmax(big, i <= j ? fabs(r == i  ? 1
                                    : r > i ? get(&LU, r, i)
                                            : 0)
                             : fabs(r >= j ? get(&LU, j, r) : 0));
    double md = axb_max_lu_diff(&A, &LU, ipiv);
    CHECK(fabs(md - d * big) <= 1e-9 * md, "max diff %g want %g", md, d * big);
    set(&LU, i, j, old);

    float olds = (float)get(&LUs, i, j);
    set(&LUs, i, j, olds + 1e-1 * anorm); /* far above float eps */
    r = axb_check_lu(&As, &LUs, ipiv);
    CHECK(r > FAIL_FAR, "perturbed float LU ratio %g", r);
    set(&LUs, i, j, olds);
  }

  /* NaN in A or in the factor never passes. */
  set(&LU, n / 2, n / 2, NAN);
  CHECK(fails(axb_check_lu(&A, &LU, ipiv)), "NaN in LU passes");
  CHECK(isnan(axb_max_lu_diff(&A, &LU, ipiv)), "NaN in LU max diff");
  set(&LU, n / 2, n / 2, 1);
  set(&A, 0, n - 1, NAN);
  CHECK(fails(axb_check_lu(&A, &LU, ipiv)), "NaN in A passes");
  set(&A, 0, n - 1, INFINITY);
  CHECK(fails(axb_check_lu(&A, &LU, ipiv)), "Inf in A passes");

  free(ipiv);
  axb_dense_destroy(&A);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&As);
  axb_dense_destroy(&LUs);
}

/* A rounded (not exact) product passes with a small ratio. */
static void test_lu_rounded(void) {
  int64_t n = 150;
  axb_dense L = make(n, n, AXB_F64), U = make(n, n, AXB_F64);
  axb_dense LU = make(n, n, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double v = (double)rand_int(-1000000, 1000000) / 1048576.0 / 3.0;
      if (i > j) set(&L, i, j, v / 2);
      if (i == j) set(&L, i, j, 1);
      if (i <= j) set(&U, i, j, i == j ? 2 + fabs(v) : v);
      set(&LU, i, j, i > j ? get(&L, i, j) : get(&U, i, j));
    }
  axb_dense A = mul(&L, &U);
  double r = axb_check_lu(&A, &LU, NULL);
  CHECK(r >= 0 && r < 1, "rounded LU ratio %g", r);
  axb_dense_destroy(&L);
  axb_dense_destroy(&U);
  axb_dense_destroy(&LU);
  axb_dense_destroy(&A);
}

/* A = L L^T from an integer lower L with positive diagonal. */
static void test_cholesky(int64_t n) {
  axb_dense L = make(n, n, AXB_F64), LT = make(n, n, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      double v = i == j ? (double)rand_int(1, 3) : (double)rand_int(-2, 2);
      set(&L, i, j, v);
      set(&LT, j, i, v);
    }
  axb_dense A = mul(&L, &LT);
  double anorm = axb_matrix_norm(&A, AXB_NORM_ONE);
  /* Garbage in the triangles that must not be read. */
  axb_dense Al = copy_as(&A, AXB_F64), Au = copy_as(&A, AXB_F64);
  axb_dense Fl = copy_as(&L, AXB_F64), Fu = copy_as(&LT, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (i < j) set(&Al, i, j, NAN), set(&Fl, i, j, 1e300);
      if (i > j) set(&Au, i, j, NAN), set(&Fu, i, j, NAN);
    }
  CHECK(axb_check_cholesky(&Al, &Fl, AXB_LOWER) == 0, "exact LL^T: %g",
        axb_check_cholesky(&Al, &Fl, AXB_LOWER));
  CHECK(axb_check_cholesky(&Au, &Fu, AXB_UPPER) == 0, "exact U^TU: %g",
        axb_check_cholesky(&Au, &Fu, AXB_UPPER));
  axb_dense Fs = copy_as(&Fl, AXB_F32);
  CHECK(axb_check_cholesky(&Al, &Fs, AXB_LOWER) == 0, "float exact LL^T");

  double d = 1e-6 * anorm;
  set(&Fl, n - 1, n / 2, get(&Fl, n - 1, n / 2) + d);
  CHECK(axb_check_cholesky(&Al, &Fl, AXB_LOWER) > FAIL_FAR,
        "perturbed L ratio %g", axb_check_cholesky(&Al, &Fl, AXB_LOWER));
  set(&Fu, n / 2, n - 1, get(&Fu, n / 2, n - 1) + d);
  CHECK(axb_check_cholesky(&Au, &Fu, AXB_UPPER) > FAIL_FAR,
        "perturbed U ratio %g", axb_check_cholesky(&Au, &Fu, AXB_UPPER));
  /* The diagonal too. */
  set(&Fs, 0, 0, get(&Fs, 0, 0) + 1e-1 * anorm);
  CHECK(axb_check_cholesky(&Al, &Fs, AXB_LOWER) > FAIL_FAR,
        "perturbed float L ratio %g", axb_check_cholesky(&Al, &Fs, AXB_LOWER));

  set(&Fs, n - 1, 0, NAN);
  CHECK(fails(axb_check_cholesky(&Al, &Fs, AXB_LOWER)), "NaN in F passes");
  set(&Al, n - 1, 0, NAN);
  CHECK(fails(axb_check_cholesky(&Al, &L, AXB_LOWER)), "NaN in A passes");
  CHECK(isnan(axb_check_cholesky(&A, &L, (axb_uplo)7)), "bad uplo");

  axb_dense_destroy(&L);
  axb_dense_destroy(&LT);
  axb_dense_destroy(&A);
  axb_dense_destroy(&Al);
  axb_dense_destroy(&Au);
  axb_dense_destroy(&Fl);
  axb_dense_destroy(&Fu);
  axb_dense_destroy(&Fs);
}

static void test_solve(int64_t n, int64_t nrhs) {
  axb_dense A = make(n, n, AXB_F64), X = make(n, nrhs, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      set(&A, i, j, (double)rand_int(-9, 9));
  for (int64_t j = 0; j < nrhs; ++j)
    for (int64_t i = 0; i < n; ++i)
      set(&X, i, j, (double)rand_int(-5, 5));
  set(&X, 0, nrhs - 1, 7); /* no zero column */
  axb_dense B = mul(&A, &X);
  CHECK(axb_check_solve(&A, &X, &B) == 0, "exact solve: %g",
        axb_check_solve(&A, &X, &B));
  axb_dense As = copy_as(&A, AXB_F32), Xs = copy_as(&X, AXB_F32),
            Bs = copy_as(&B, AXB_F32);
  CHECK(axb_check_solve(&As, &Xs, &Bs) == 0, "float exact solve");
  CHECK(axb_forward_error(&X, &X) == 0, "forward error of x_true");

  /* Perturb the last column: the max over columns sees it. */
  double xn = axb_matrix_norm(&X, AXB_NORM_MAX), d = 1e-6 * xn;
  axb_dense Y = copy_as(&X, AXB_F64);
  set(&Y, n / 2, nrhs - 1, get(&Y, n / 2, nrhs - 1) + d);
  CHECK(axb_check_solve(&A, &Y, &B) > FAIL_FAR, "perturbed x ratio %g",
        axb_check_solve(&A, &Y, &B));
  double fe = axb_forward_error(&Y, &X);
  double xcol = 0;
  for (int64_t i = 0; i < n; ++i)
    xcol = fmax(xcol, fabs(get(&X, i, nrhs - 1)));
  CHECK(fabs(fe - d / xcol) <= 1e-9 * fe, "forward error %g want %g", fe,
        d / xcol);
  set(&Xs, n - 1, 0, get(&Xs, n - 1, 0) + xn);
  CHECK(axb_check_solve(&As, &Xs, &Bs) > FAIL_FAR, "perturbed float x %g",
        axb_check_solve(&As, &Xs, &Bs));

  /* NaN anywhere. */
  set(&Y, 0, 0, NAN);
  CHECK(fails(axb_check_solve(&A, &Y, &B)), "NaN in X passes");
  CHECK(fails(axb_forward_error(&Y, &X)), "NaN in X forward error");
  CHECK(fails(axb_forward_error(&X, &Y)), "NaN in X_true forward error");
  set(&B, n - 1, 0, NAN);
  CHECK(fails(axb_check_solve(&A, &X, &B)), "NaN in B passes");
  set(&A, n - 1, 0, NAN);
  CHECK(fails(axb_check_solve(&A, &X, &B)), "NaN in A passes");

  /* Mismatched dimensions: invalid (NaN). */
  axb_dense Z = make(n + 1, nrhs, AXB_F64);
  CHECK(isnan(axb_check_solve(&As, &Z, &Bs)), "bad X rows");
  CHECK(isnan(axb_forward_error(&X, &Z)), "bad shape forward error");

  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
  axb_dense_destroy(&B);
  axb_dense_destroy(&As);
  axb_dense_destroy(&Xs);
  axb_dense_destroy(&Bs);
  axb_dense_destroy(&Y);
  axb_dense_destroy(&Z);
}

/* A unit lower integer L; its inverse is integer too, by forward
   substitution: column j of X solves L x = e_j exactly. */
static void test_inverse(int64_t n) {
  axb_dense A = make(n, n, AXB_F64), X = make(n, n, AXB_F64);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      set(&A, i, j, i == j ? 1 : (double)rand_int(-1, 1));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      double s = i == j ? 1 : 0;
      for (int64_t k = j; k < i; ++k)
        s -= get(&A, i, k) * get(&X, k, j);
      set(&X, i, j, s);
    }
  CHECK(axb_check_inverse(&A, &X) == 0, "exact inverse: %g",
        axb_check_inverse(&A, &X));
  CHECK(axb_max_abs_diff(&A, &A) == 0, "max_abs_diff(A, A)");
  axb_dense Xs = copy_as(&X, AXB_F32);
  CHECK(axb_check_inverse(&A, &Xs) == 0, "float exact inverse");

  double d = 1e-6 * axb_matrix_norm(&X, AXB_NORM_ONE);
  axb_dense Y = copy_as(&X, AXB_F64);
  set(&Y, n - 1, 0, get(&Y, n - 1, 0) + d);
  CHECK(axb_check_inverse(&A, &Y) > FAIL_FAR, "perturbed inverse %g",
        axb_check_inverse(&A, &Y));
  double md = axb_max_abs_diff(&X, &Y);
  CHECK(fabs(md - d) <= 1e-9 * d, "max_abs_diff %g want %g", md, d);
  CHECK(axb_max_abs_diff(&Y, &Xs) == md, "mixed dtype max_abs_diff");

  set(&Y, 0, n - 1, NAN);
  CHECK(fails(axb_check_inverse(&A, &Y)), "NaN in X passes");
  CHECK(isnan(axb_max_abs_diff(&X, &Y)), "NaN max_abs_diff");
  CHECK(isnan(axb_max_abs_diff(&Y, &X)), "NaN max_abs_diff (first)");
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xs);
  axb_dense_destroy(&Y);
}

static void test_norms(void) {
  /* [1 -2; 3 4] */
  double a[4] = {1, 3, -2, 4};
  axb_dense A = axb_dense_wrap(2, 2, 2, AXB_F64, a);
  CHECK(axb_matrix_norm(&A, AXB_NORM_ONE) == 6, "one");
  CHECK(axb_matrix_norm(&A, AXB_NORM_INF) == 7, "inf");
  CHECK(axb_matrix_norm(&A, AXB_NORM_MAX) == 4, "max");
  CHECK(fabs(axb_matrix_norm(&A, AXB_NORM_FRO) - sqrt(30)) < 1e-15, "fro");
  float f[4] = {1, 3, -2, 4};
  axb_dense F = axb_dense_wrap(2, 2, 2, AXB_F32, f);
  CHECK(axb_matrix_norm(&F, AXB_NORM_INF) == 7, "float inf");
  CHECK(isnan(axb_matrix_norm(&A, (axb_norm)9)), "bad norm kind");

  /* Inf norm over more than one row block, with a leading dimension. */
  int64_t m = 700, ld = 703;
  double *b = calloc((size_t)(ld * 3), sizeof *b);
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t i = 0; i < m; ++i)
      b[i + j * ld] = i == 600 ? -5 : 1;
  b[701] = 1e9; /* padding: never read */
  axb_dense B = axb_dense_wrap(m, 3, ld, AXB_F64, b);
  CHECK(axb_matrix_norm(&B, AXB_NORM_INF) == 15, "inf blocked %g",
        axb_matrix_norm(&B, AXB_NORM_INF));
  CHECK(axb_matrix_norm(&B, AXB_NORM_ONE) == 699 + 5, "one with ld");
  /* Frobenius without overflow. */
  b[0] = 1e300;
  CHECK(isfinite(axb_matrix_norm(&B, AXB_NORM_FRO)), "fro overflow");
  b[5 + ld] = NAN;
  for (int k = 0; k < 4; ++k)
    CHECK(isnan(axb_matrix_norm(&B, (axb_norm)k)), "NaN norm %d", k);
  free(b);

  CHECK(axb_eps(AXB_F64) == ldexp(1, -53), "eps double");
  CHECK(axb_eps(AXB_F32) == ldexp(1, -24), "eps float");
}

static void test_edges(void) {
  /* n = 0: every check is 0. */
  axb_dense E = make(0, 0, AXB_F64), E1 = make(0, 1, AXB_F32);
  CHECK(axb_check_lu(&E, &E, NULL) == 0, "n=0 lu");
  CHECK(axb_max_lu_diff(&E, &E, NULL) == 0, "n=0 lu diff");
  CHECK(axb_check_cholesky(&E, &E, AXB_UPPER) == 0, "n=0 chol");
  CHECK(axb_check_solve(&E, &E1, &E1) == 0, "n=0 solve");
  CHECK(axb_check_inverse(&E, &E) == 0, "n=0 inverse");
  CHECK(axb_forward_error(&E1, &E1) == 0, "n=0 forward");
  CHECK(axb_max_abs_diff(&E, &E) == 0, "n=0 diff");
  CHECK(axb_matrix_norm(&E, AXB_NORM_FRO) == 0, "n=0 norm");

  /* Zero denominators: 0/0 -> 0, x/0 -> 1/eps. */
  axb_dense Z = make(3, 3, AXB_F64), O = make(3, 3, AXB_F64);
  axb_dense z = make(3, 1, AXB_F64), o = make(3, 1, AXB_F64);
  for (int64_t i = 0; i < 3; ++i)
    set(&O, i, i, 1), set(&o, i, 0, 1);
  double big = 1 / axb_eps(AXB_F64);
  CHECK(axb_check_lu(&Z, &Z, NULL) == 0, "A = 0, LU = 0");
  CHECK(axb_check_lu(&Z, &O, NULL) == big, "A = 0, LU = I: %g",
        axb_check_lu(&Z, &O, NULL));
  CHECK(axb_check_cholesky(&Z, &Z, AXB_LOWER) == 0, "chol 0");
  CHECK(axb_check_cholesky(&Z, &O, AXB_LOWER) == big, "chol A=0");
  CHECK(axb_check_solve(&O, &z, &z) == 0, "x = 0, b = 0");
  CHECK(axb_check_solve(&O, &z, &o) == big, "x = 0, b != 0");
  CHECK(axb_check_solve(&Z, &o, &z) == 0, "A = 0, b = 0");
  CHECK(axb_check_inverse(&Z, &O) == big, "inverse of 0");
  CHECK(axb_forward_error(&z, &z) == 0, "x_true = 0 = x");
  CHECK(axb_forward_error(&o, &z) == big, "x_true = 0 != x");

  /* Invalid input: NaN. */
  int64_t bad_ipiv[3] = {1, 4, 3}, ok_ipiv[3] = {3, 3, 3};
  CHECK(isnan(axb_check_lu(&O, &O, bad_ipiv)), "ipiv out of range");
  CHECK(axb_check_lu(&O, &O, ok_ipiv) > FAIL_FAR, "wrong ipiv");
  CHECK(isnan(axb_check_lu(NULL, &O, NULL)), "NULL A");
  CHECK(isnan(axb_check_lu(&O, &o, NULL)), "non-square LU");
  CHECK(isnan(axb_check_inverse(&O, &E)), "size mismatch");
  CHECK(isnan(axb_max_abs_diff(&O, &o)), "shape mismatch");
  axb_dense D = O;
  D.mem = AXB_MEM_DEVICE;
  CHECK(isnan(axb_matrix_norm(&D, AXB_NORM_ONE)), "device memory");
  D = O;
  D.ld = 2;
  CHECK(isnan(axb_check_lu(&D, &O, NULL)), "ld < rows");
  D = O;
  D.dtype = (axb_dtype)0;
  CHECK(isnan(axb_check_inverse(&D, &O)), "bad dtype");
  CHECK(isnan(axb_eps((axb_dtype)0)), "eps of bad dtype");

  axb_dense_destroy(&E);
  axb_dense_destroy(&E1);
  axb_dense_destroy(&Z);
  axb_dense_destroy(&O);
  axb_dense_destroy(&z);
  axb_dense_destroy(&o);
}

/* The certified driver's backward error for a symmetric A from its lower
   triangle (axb__backward_error_sym, the Cholesky methods'): on integer
   data every sum is exact, so it must equal axb_check_solve's ratio
   exactly, 0 for B = A X and the same nonzero value after one entry of B
   is moved by 1 (upper or lower half, every column); sizes 1 to 1030
   (threaded from n = 1024, on 1-3 column ranges), 1 and 3 right-hand
   sides, float and double; a NaN in X gives NaN. */
static void test_sym_backward(int64_t n, int64_t nrhs, axb_dtype t) {
  axb_dense A = make(n, n, t), X = make(n, nrhs, t);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      const double v = (double)rand_int(-4, 4) + (i == j ? 9 : 0);
      set(&A, i, j, v);
      set(&A, j, i, v);
    }
  for (int64_t j = 0; j < nrhs; ++j)
    for (int64_t i = 0; i < n; ++i)
      set(&X, i, j, (double)rand_int(-3, 3));
  axb_dense P = mul(&A, &X), B = copy_as(&P, t);
  const double anorm = axb_matrix_norm(&A, AXB_NORM_ONE);
  for (int th = 1; th <= 3; ++th) {
    int oom = 0;
    double s = axb__backward_error_sym(&A, &X, &B, anorm, th, &oom);
    CHECK(s == 0 && !oom, "n=%lld exact B: ratio %g", (long long)n, s);
  }
  const int64_t i = n / 3, c = nrhs - 1;
  set(&B, i, c, get(&B, i, c) + 1);
  const double want = axb_check_solve(&A, &X, &B);
  for (int th = 1; th <= 3; ++th) {
    double s = axb__backward_error_sym(&A, &X, &B, anorm, th, NULL);
    CHECK(s == want && s > 0,
          "n=%lld nrhs=%lld %s threads %d: %.17g, want %.17g", (long long)n,
          (long long)nrhs, axb_dtype_name(t), th, s, want);
  }
  set(&X, n - 1, 0, NAN);
  CHECK(isnan(axb__backward_error_sym(&A, &X, &B, anorm, 2, NULL)),
        "n=%lld: NaN in X not seen", (long long)n);
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
  axb_dense_destroy(&P);
  axb_dense_destroy(&B);
}

int main(void) {
  test_norms();
  test_edges();
  int64_t sizes[] = {1, 2, 7, 33, 100};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
    test_lu(sizes[k]);
    test_cholesky(sizes[k]);
    test_solve(sizes[k], 3);
    test_inverse(sizes[k] < 40 ? sizes[k] : 40);
  }
  test_lu_rounded();
  const int64_t sym_n[] = {1, 5, 37, 1030};
  for (size_t k = 0; k < sizeof sym_n / sizeof *sym_n; ++k)
    for (int64_t nrhs = 1; nrhs <= 3; nrhs += 2) {
      test_sym_backward(sym_n[k], nrhs, AXB_F64);
      test_sym_backward(sym_n[k], nrhs, AXB_F32);
    }
  return test_finish("test_check");
}
