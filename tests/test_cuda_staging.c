/*
 * Host arrays on the CUDA backend through its pinned staging
 * (src/backend/cuda/cuda_staging.cu).  Four handles move the same inputs:
 * pageable copies (AXB_CUDA_STAGING=0, the reference), staging with a
 * 4 KiB chunk (so that a matrix crosses in many pieces: whole columns for
 * n <= 512 doubles, column segments above), the caller's array registered
 * (=2, same chunk for what falls back), and staging with the default chunk.
 * Every routine with host arrays (getrf, getrs, gesv, potrf, potrs, posv,
 * getri, getri_gj, axb_solve) runs on each, with lda > n (NaN padding that
 * must stay untouched), n = 0, 1, odd sizes; each result must pass its
 * scaled-residual check and agree with the pageable handle's to rounding.
 * Exits 77 (skipped) without the CUDA backend or a GPU.
 */
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NH = 4 };
static axb_handle H[NH];
static const char *hname[NH] = {"pageable", "staged 4K", "registered",
                                "staged 16M"};

static axb_handle make(const char *mode, const char *chunk) {
  setenv("AXB_CUDA_STAGING", mode, 1);
  if (chunk)
    setenv("AXB_CUDA_STAGE_CHUNK", chunk, 1);
  else
    unsetenv("AXB_CUDA_STAGE_CHUNK");
  axb_handle g = NULL;
  if (axb_handle_create(&g, AXB_BACKEND_CUDA, 0) != AXB_SUCCESS) {
    fprintf(stderr, "CUDA handle (%s): %s\n", mode, axb_detail(NULL));
    exit(1);
  }
  return g;
}

/* max |X - Y| over the rows x cols part <= tol * max |Y| (both host). */
static int close_to(const axb_dense *X, const axb_dense *Y, double tol) {
  double dmax = 0, ymax = 0;
  for (int64_t j = 0; j < X->cols; ++j)
    for (int64_t i = 0; i < X->rows; ++i) {
      const double x = axb_dense_get(X, i, j), y = axb_dense_get(Y, i, j);
      if (isnan(x) || isnan(y)) {
        if (isnan(x) != isnan(y)) return 0;
        continue;
      }
      if (fabs(x - y) > dmax) dmax = fabs(x - y);
      if (fabs(y) > ymax) ymax = fabs(y);
    }
  return dmax <= tol * (ymax > 0 ? ymax : 1);
}

static double tol_for(axb_dtype t, int64_t n) {
  return 64.0 * (double)(n + 1) * axb_eps(t);
}

/* B (n x nrhs, ld n + 1): A times columns of 1, 2, 3 (host, in double). */
static axb_dense rhs_for(const axb_dense *A, int64_t nrhs) {
  const int64_t n = A->rows;
  axb_dense B = test_alloc(n, nrhs, n + 1, A->dtype);
  for (int64_t c = 0; c < nrhs; ++c)
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j)
        s += axb_dense_get(A, i, j) * (double)(c + 1);
      axb_dense_set(&B, i, c, s);
    }
  return B;
}

/* ---- LU family ------------------------------------------------------------
 */

static void lu_case(int64_t n, axb_dtype t) {
  const int d = t == AXB_F64;
  char what[96];
  axb_dense A = test_gen(H[0], AXB_GEN_DIAG_DOMINANT, n, t, 0, 0, 5 + n);
  axb_dense B = rhs_for(&A, 3);
  axb_dense LU0 = {0}, X0 = {0}, I0 = {0}, G0 = {0}, S0 = {0};
  for (int k = 0; k < NH; ++k) {
    axb_handle h = H[k];
    snprintf(what, sizeof what, "%s n=%lld %s", hname[k], (long long)n,
             axb_dtype_name(t));
    int64_t *ipiv = test_new_ipiv(n), info = -1;
    /* getrf, getrs */
    axb_dense LU = test_copy_ld(&A, n + 3);
    axb_status st = d ? axb_dgetrf(h, n, n, LU.data, LU.ld, ipiv, &info)
                      : axb_sgetrf(h, n, n, LU.data, LU.ld, ipiv, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    CHECK(info == 0, "%s getrf info %lld", what, (long long)info);
    if (n > 0) CHECK_RATIO(axb_check_lu(&A, &LU, ipiv), "%s getrf", what);
    CHECK(test_padding_intact(&LU), "%s getrf padding", what);
    axb_dense X = test_copy_ld(&B, n + 1);
    st = d ? axb_dgetrs(h, AXB_NO_TRANS, n, 3, LU.data, LU.ld, ipiv, X.data,
                        X.ld, &info)
           : axb_sgetrs(h, AXB_NO_TRANS, n, 3, LU.data, LU.ld, ipiv, X.data,
                        X.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s getrs", what);
    CHECK(test_padding_intact(&X), "%s getrs padding", what);
    /* getri from the factors */
    axb_dense I = test_copy_ld(&LU, n + 3);
    st = d ? axb_dgetri(h, n, I.data, I.ld, ipiv, &info)
           : axb_sgetri(h, n, I.data, I.ld, ipiv, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_inverse(&A, &I), "%s getri", what);
    CHECK(test_padding_intact(&I), "%s getri padding", what);
    /* getri_gj */
    axb_dense G = test_copy_ld(&A, n + 2);
    st = d ? axb_dgetri_gj(h, n, G.data, G.ld, &info)
           : axb_sgetri_gj(h, n, G.data, G.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_inverse(&A, &G), "%s getri_gj", what);
    CHECK(test_padding_intact(&G), "%s getri_gj padding", what);
    /* gesv */
    axb_dense F = test_copy_ld(&A, n + 1), S = test_copy_ld(&B, n + 2);
    st = d ? axb_dgesv(h, n, 3, F.data, F.ld, ipiv, S.data, S.ld, &info)
           : axb_sgesv(h, n, 3, F.data, F.ld, ipiv, S.data, S.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_solve(&A, &S, &B), "%s gesv", what);
    CHECK(test_padding_intact(&S) && test_padding_intact(&F), "%s gesv padding",
          what);
    if (k == 0) {
      LU0 = LU;
      X0 = X;
      I0 = I;
      G0 = G;
      S0 = S;
    } else {
      const double tol = tol_for(t, n);
      CHECK(close_to(&LU, &LU0, tol), "%s getrf differs from pageable", what);
      CHECK(close_to(&X, &X0, tol), "%s getrs differs from pageable", what);
      CHECK(close_to(&I, &I0, 1e3 * tol), "%s getri differs", what);
      CHECK(close_to(&G, &G0, 1e3 * tol), "%s getri_gj differs", what);
      CHECK(close_to(&S, &S0, tol), "%s gesv differs", what);
      axb_dense_destroy(&LU);
      axb_dense_destroy(&X);
      axb_dense_destroy(&I);
      axb_dense_destroy(&G);
      axb_dense_destroy(&S);
    }
    axb_dense_destroy(&F);
    free(ipiv);
  }
  axb_dense_destroy(&LU0);
  axb_dense_destroy(&X0);
  axb_dense_destroy(&I0);
  axb_dense_destroy(&G0);
  axb_dense_destroy(&S0);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

/* ---- Cholesky family ------------------------------------------------------
 */

static void chol_case(int64_t n, axb_dtype t, axb_uplo uplo) {
  const int d = t == AXB_F64;
  char what[96];
  axb_dense A = test_gen(H[0], AXB_GEN_SPD_SHIFT, n, t, 0, 0, 9 + n);
  axb_dense B = rhs_for(&A, 2);
  axb_dense F0 = {0}, X0 = {0};
  for (int k = 0; k < NH; ++k) {
    axb_handle h = H[k];
    snprintf(what, sizeof what, "%s n=%lld %s %s", hname[k], (long long)n,
             axb_dtype_name(t), uplo == AXB_LOWER ? "lower" : "upper");
    int64_t info = -1;
    axb_dense F = test_copy_ld(&A, n + 5);
    axb_status st = d ? axb_dpotrf(h, uplo, n, F.data, F.ld, &info)
                      : axb_spotrf(h, uplo, n, F.data, F.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_cholesky(&A, &F, uplo), "%s potrf", what);
    CHECK(test_padding_intact(&F), "%s potrf padding", what);
    axb_dense X = test_copy_ld(&B, n + 1);
    st = d ? axb_dpotrs(h, uplo, n, 2, F.data, F.ld, X.data, X.ld, &info)
           : axb_spotrs(h, uplo, n, 2, F.data, F.ld, X.data, X.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s potrs", what);
    axb_dense P = test_copy_ld(&A, n + 1), Y = test_copy_ld(&B, n + 3);
    st = d ? axb_dposv(h, uplo, n, 2, P.data, P.ld, Y.data, Y.ld, &info)
           : axb_sposv(h, uplo, n, 2, P.data, P.ld, Y.data, Y.ld, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (n > 0) CHECK_RATIO(axb_check_solve(&A, &Y, &B), "%s posv", what);
    CHECK(test_padding_intact(&Y) && test_padding_intact(&P), "%s posv padding",
          what);
    if (k == 0) {
      F0 = F;
      X0 = X;
    } else {
      CHECK(close_to(&X, &X0, tol_for(t, n)), "%s potrs differs", what);
      /* the factor's triangle (the other holds A's entries either way) */
      CHECK(close_to(&F, &F0, tol_for(t, n)), "%s potrf differs", what);
      axb_dense_destroy(&F);
      axb_dense_destroy(&X);
    }
    axb_dense_destroy(&P);
    axb_dense_destroy(&Y);
  }
  axb_dense_destroy(&F0);
  axb_dense_destroy(&X0);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

/* ---- the certified driver (resident factors) ----------------------------- */

static void driver_case(int64_t n, axb_dtype t, axb_method m) {
  char what[96];
  axb_dense A = test_gen(
      H[0], m == AXB_METHOD_CHOLESKY ? AXB_GEN_SPD_SHIFT : AXB_GEN_UNIFORM, n,
      t, 0, 0, 31 + n);
  axb_dense B = rhs_for(&A, 2);
  axb_dense X0 = {0};
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  o.method = m;
  for (int k = 0; k < NH; ++k) {
    snprintf(what, sizeof what, "%s solve n=%lld %s %s", hname[k], (long long)n,
             axb_dtype_name(t), axb_method_name(m));
    axb_dense Ac = test_copy_ld(&A, n + 4), X = test_copy_ld(&B, n + 2);
    axb_report rep;
    memset(&rep, 0, sizeof rep);
    CHECK_STATUS(H[k], axb_solve(H[k], &Ac, &X, &o, &rep), AXB_SUCCESS);
    CHECK(rep.backend == AXB_BACKEND_CUDA, "%s: backend", what);
    if (n > 0) CHECK_RATIO(axb_check_solve(&A, &X, &B), "%s", what);
    CHECK(n == 0 || rep.t_transfer > 0, "%s: t_transfer %g", what,
          rep.t_transfer);
    CHECK(test_padding_intact(&X) && test_padding_intact(&Ac), "%s padding",
          what);
    CHECK(close_to(&Ac, &A, 0), "%s: A changed", what);
    if (k == 0) {
      X0 = X;
    } else {
      CHECK(close_to(&X, &X0, tol_for(t, n)), "%s differs", what);
      axb_dense_destroy(&X);
    }
    axb_dense_destroy(&Ac);
  }
  axb_dense_destroy(&X0);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

/* getrf at a size of several default chunks, each handle against the
   pageable one (the O(n^3) checks are left to the smaller cases). */
static void big_case(int64_t n) {
  axb_dense A = test_gen(H[0], AXB_GEN_DIAG_DOMINANT, n, AXB_F64, 0, 0, 3);
  axb_dense LU0 = {0};
  for (int k = 0; k < NH; ++k) {
    int64_t *ipiv = test_new_ipiv(n), info = -1;
    axb_dense LU = test_copy_ld(&A, n + 7);
    CHECK_STATUS(H[k], axb_dgetrf(H[k], n, n, LU.data, LU.ld, ipiv, &info),
                 AXB_SUCCESS);
    CHECK(test_padding_intact(&LU), "%s n=%lld padding", hname[k],
          (long long)n);
    free(ipiv);
    if (k == 0) {
      LU0 = LU;
      continue;
    }
    CHECK(close_to(&LU, &LU0, tol_for(AXB_F64, n)), "%s n=%lld getrf differs",
          hname[k], (long long)n);
    axb_dense_destroy(&LU);
  }
  axb_dense_destroy(&LU0);
  axb_dense_destroy(&A);
}

int main(void) {
  if (!axb_backend_compiled(AXB_BACKEND_CUDA)) {
    return test_skip("CUDA backend not compiled");
  }
  int count = 0;
  if (axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    return test_skip("no CUDA device");
  }
  H[0] = make("0", NULL);
  H[1] = make("1", "4096");
  H[2] = make("2", "4096");
  H[3] = make("1", NULL);
  const int64_t sizes[] = {0, 1, 2, 31, 33, 257, 600};
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int ti = 0; ti < 2; ++ti)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
      lu_case(sizes[i], types[ti]);
      chol_case(sizes[i], types[ti], AXB_LOWER);
      chol_case(sizes[i], types[ti], AXB_UPPER);
      if (sizes[i] > 0) {
        driver_case(sizes[i], types[ti], AXB_METHOD_LU);
        driver_case(sizes[i], types[ti], AXB_METHOD_CHOLESKY);
      }
    }
  /* A matrix beyond the device's memory (2^19 squared doubles, 2 TiB): a
     clean out-of-memory status before any host data is read. */
  {
    double a1 = 1;
    int64_t ip1 = 0, info = 0;
    const int64_t big = (int64_t)1 << 19;
    CHECK_STATUS(H[1], axb_dgetrf(H[1], big, big, &a1, big, &ip1, &info),
                 AXB_ERR_OUT_OF_MEMORY);
    CHECK(a1 == 1, "OOM getrf wrote A");
  }
  /* matrices of several default (16 MiB) chunks: 1500^2 doubles */
  big_case(1500);
  driver_case(1500, AXB_F64, AXB_METHOD_LU);
  for (int k = 0; k < NH; ++k)
    axb_handle_destroy(H[k]);
  return test_finish("test_cuda_staging");
}
