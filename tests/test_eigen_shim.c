/*
 * The Eigen anchor (src/vendor/eigen_shim.h) through its C entry points and
 * through axb_anchor_*.  Dense: getrf's factors and its LAPACK-style ipiv
 * (converted from Eigen's permutation) must pass axb_check_lu, potrf
 * axb_check_cholesky, inverse axb_check_inverse, gesv axb_check_solve, in float
 * and double, on sizes 1, 2, odd and above Eigen's blocking (n > 128 uses its
 * blocked LU), with lda > n and NaN padding; singular input gives info > 0, a
 * matrix that is not SPD gives 1.  Sparse: CG + IncompleteCholesky on Poisson
 * (symmetric) and BiCGSTAB + IncompleteLUT on a non-symmetric convection-
 * diffusion matrix must converge to the requested tolerance by the true
 * residual recomputed here, report iterations and times, and report
 * AXB_ERR_NO_CONVERGENCE when the iteration cap is too small; illegal
 * arguments give -i.  Skipped (77) when Eigen is not compiled in (then
 * every entry must say AXB_ERR_NOT_COMPILED).
 */
#include "testing.h"
#include "vendor/eigen_shim.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

static void dense_lu(int64_t n, axb_dtype t) {
  char what[96];
  snprintf(what, sizeof what, "eigen getrf n=%lld %s", (long long)n,
           axb_dtype_name(t));
  axb_dense A = test_gen(h, AXB_GEN_UNIFORM, n, t, 0, 0, 11 + (uint64_t)n);
  axb_dense F = test_copy_ld(&A, n + 3);
  int64_t *ipiv = test_new_ipiv(n);
  int r = axb_eigen_getrf(t, n, F.data, F.ld, ipiv);
  CHECK(r == 0, "%s: returned %d", what, r);
  int ok = 1;
  for (int64_t i = 0; i < n; ++i)
    ok &= ipiv[i] >= i + 1 && ipiv[i] <= n;
  CHECK(ok, "%s: ipiv out of LAPACK's range", what);
  CHECK_RATIO(axb_check_lu(&A, &F, ipiv), "%s", what);
  CHECK(test_padding_intact(&F), "%s: wrote outside A", what);
  /* The public anchor gives the same through a status. */
  axb_dense G = test_copy_ld(&A, n);
  int64_t info = -1;
  CHECK_STATUS(
      h, axb_anchor_getrf(AXB_ANCHOR_EIGEN, t, n, G.data, G.ld, ipiv, &info),
      AXB_SUCCESS);
  CHECK_RATIO(axb_check_lu(&A, &G, ipiv), "%s (anchor)", what);
  /* gesv: x of A x = b (b = row sums) judged by the solve residual. */
  axb_dense X = {0}, B = {0};
  CHECK_STATUS(h, axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B), AXB_SUCCESS);
  axb_dense Xs = test_copy_ld(&B, n + 1);
  memcpy(G.data, A.data, (size_t)(n * n) * axb_dtype_size(t));
  CHECK_STATUS(h,
               axb_anchor_gesv(AXB_ANCHOR_EIGEN, t, n, 1, G.data, G.ld, ipiv,
                               Xs.data, Xs.ld, &info),
               AXB_SUCCESS);
  CHECK_RATIO(axb_check_solve(&A, &Xs, &B), "%s gesv", what);
  CHECK(test_padding_intact(&Xs), "%s: gesv wrote outside B", what);
  free(ipiv);
  axb_dense_destroy(&A);
  axb_dense_destroy(&F);
  axb_dense_destroy(&G);
  axb_dense_destroy(&X);
  axb_dense_destroy(&B);
  axb_dense_destroy(&Xs);
}

static void dense_chol_inv(int64_t n, axb_dtype t) {
  char what[96];
  snprintf(what, sizeof what, "eigen n=%lld %s", (long long)n,
           axb_dtype_name(t));
  axb_dense S = test_gen(h, AXB_GEN_SPD_SHIFT, n, t, 0, 0, 5 + (uint64_t)n);
  axb_dense L = test_copy_ld(&S, n + 1);
  CHECK(axb_eigen_potrf(t, n, L.data, L.ld) == 0, "%s: potrf", what);
  CHECK_RATIO(axb_check_cholesky(&S, &L, AXB_LOWER), "%s potrf", what);
  CHECK(test_padding_intact(&L), "%s: potrf wrote outside A", what);
  axb_dense A = test_gen(h, AXB_GEN_UNIFORM, n, t, 0, 0, 9 + (uint64_t)n);
  axb_dense X = test_copy_ld(&A, n + 2);
  int64_t info = -1;
  CHECK_STATUS(h,
               axb_anchor_inverse(AXB_ANCHOR_EIGEN, t, n, X.data, X.ld, &info),
               AXB_SUCCESS);
  CHECK_RATIO(axb_check_inverse(&A, &X), "%s inverse", what);
  CHECK(test_padding_intact(&X), "%s: inverse wrote outside A", what);
  axb_dense_destroy(&S);
  axb_dense_destroy(&L);
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
}

static void dense_failures(axb_dtype t) {
  const int64_t n = 9, col = 4;
  axb_dense Z = test_gen(h, AXB_GEN_SINGULAR, n, t, 0, col, 3);
  axb_dense F = test_copy_ld(&Z, n);
  int64_t *ipiv = test_new_ipiv(n), info = 0;
  int r = axb_eigen_getrf(t, n, F.data, F.ld, ipiv);
  CHECK(r >= 1 && r <= col + 1, "singular getrf returned %d", r);
  memcpy(F.data, Z.data, (size_t)(n * n) * axb_dtype_size(t));
  CHECK_STATUS(h, axb_anchor_inverse(AXB_ANCHOR_EIGEN, t, n, F.data, n, &info),
               AXB_ERR_SINGULAR);
  CHECK(info >= 1 && info <= col + 1, "singular inverse info %lld",
        (long long)info);
  axb_dense U = test_gen(h, AXB_GEN_UNIFORM, n, t, 0, 0, 4);
  axb_dense_set(&U, 0, 0, -5.0); /* a negative diagonal: not SPD */
  CHECK_STATUS(
      h, axb_anchor_potrf(AXB_ANCHOR_EIGEN, t, AXB_LOWER, n, U.data, n, &info),
      AXB_ERR_NOT_SPD);
  CHECK(info == 1, "not SPD: info %lld", (long long)info);
  CHECK(axb_eigen_getrf(t, -1, F.data, n, ipiv) == AXB_ERR_INVALID,
        "n = -1 accepted");
  CHECK(axb_eigen_getrf(t, 3, F.data, 2, ipiv) == AXB_ERR_INVALID,
        "lda < n accepted");
  CHECK(axb_eigen_getrf(t, 0, NULL, 1, NULL) == 0, "n = 0 failed");
  free(ipiv);
  axb_dense_destroy(&Z);
  axb_dense_destroy(&F);
  axb_dense_destroy(&U);
}

/* ||b - A x||_2 / ||b||_2 recomputed from the CSR arrays. */
static double true_relres(const axb_csr *A, const double *b, const double *x) {
  const double *v = A->values;
  double r2 = 0, b2 = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = b[i];
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s -= v[k] * x[A->colind[k]];
    r2 += s * s;
    b2 += b[i] * b[i];
  }
  return sqrt(r2 / b2);
}

/* b = A ones, x = 0. */
static void rhs(const axb_csr *A, double *b, double *x) {
  const double *v = A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    b[i] = 0;
    x[i] = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      b[i] += v[k];
  }
}

static void sparse(void) {
  axb_gen_spec s;
  axb_csr P = {0};
  CHECK_STATUS(h, axb_gen_parse(h, "poisson2d:30", &s), AXB_SUCCESS);
  CHECK_STATUS(h, axb_gen_csr(h, &s, AXB_F64, &P), AXB_SUCCESS);
  const int64_t n = P.rows;
  double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
  if (!b || !x || n != 900) {
    CHECK(0, "poisson2d:30 setup (n = %lld)", (long long)n);
    free(b), free(x);
    axb_csr_destroy(&P);
    return;
  }
  const double tol = 1e-10;
  axb_eigen_iter_result res;
  rhs(&P, b, x);
  int r =
      axb_eigen_cg_ic(n, P.rowptr, P.colind, P.values, b, x, tol, 1000, &res);
  double rr = true_relres(&P, b, x);
  CHECK(r == 0, "cg_ic returned %d", r);
  CHECK(rr <= 10 * tol && fabs(rr - res.true_relres) <= 1e-3 * rr + 1e-300,
        "cg_ic true residual %.3g (shim says %.3g)", rr, res.true_relres);
  CHECK(res.iterations > 0 && res.iterations < n, "cg_ic iterations %lld",
        (long long)res.iterations);
  CHECK(res.setup_seconds >= 0 && res.solve_seconds > 0, "cg_ic times");
  double err = 0;
  for (int64_t i = 0; i < n; ++i)
    err = fmax(err, fabs(x[i] - 1));
  CHECK(err < 1e-6, "cg_ic x - ones = %.3g", err);
  rhs(&P, b, x);
  r = axb_eigen_cg_ic(n, P.rowptr, P.colind, P.values, b, x, tol, 2, &res);
  CHECK(r == AXB_ERR_NO_CONVERGENCE && res.iterations == 2,
        "cg_ic with 2 iterations: %d, %lld", r, (long long)res.iterations);

  /* Convection-diffusion: upwind-weighted Poisson, not symmetric. */
  double *v = P.values;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = P.rowptr[i]; k < P.rowptr[i + 1]; ++k)
      if (P.colind[k] > i)
        v[k] *= 0.4;
      else if (P.colind[k] < i)
        v[k] *= 1.6;
  rhs(&P, b, x);
  r = axb_eigen_bicgstab_ilut(n, P.rowptr, P.colind, P.values, b, x, tol, 1000,
                              1e-4, 10, &res);
  rr = true_relres(&P, b, x);
  CHECK(r == 0, "bicgstab_ilut returned %d", r);
  CHECK(rr <= 10 * tol, "bicgstab_ilut true residual %.3g", rr);
  CHECK(res.iterations > 0 && res.iterations < n,
        "bicgstab_ilut iterations %lld", (long long)res.iterations);
  rhs(&P, b, x);
  r = axb_eigen_bicgstab_ilut(n, P.rowptr, P.colind, P.values, b, x, 1e-14, 1,
                              0.5, 1, &res);
  CHECK(r == AXB_ERR_NO_CONVERGENCE, "bicgstab_ilut capped at 1: %d", r);

  /* Illegal arguments, LAPACK numbering. */
  CHECK(axb_eigen_cg_ic(-1, P.rowptr, P.colind, P.values, b, x, tol, 10,
                        &res) == -1,
        "n = -1");
  CHECK(axb_eigen_cg_ic(n, P.rowptr, P.colind, P.values, b, x, 0, 10, &res) ==
            -7,
        "tol = 0");
  CHECK(axb_eigen_cg_ic(n, P.rowptr, P.colind, P.values, b, x, tol, 10, NULL) ==
            -9,
        "res = NULL");
  int64_t keep = P.colind[5];
  P.colind[5] = n; /* column out of range */
  CHECK(axb_eigen_bicgstab_ilut(n, P.rowptr, P.colind, P.values, b, x, tol, 10,
                                1e-4, 10, &res) == -3,
        "bad column index");
  P.colind[5] = keep;
  CHECK(axb_eigen_bicgstab_ilut(n, P.rowptr, P.colind, P.values, b, x, tol, 10,
                                1e-4, 0, &res) == -10,
        "fill factor 0");
  CHECK(axb_eigen_cg_ic(0, P.rowptr, P.colind, P.values, b, x, tol, 10, &res) ==
            0,
        "n = 0");
  free(b), free(x);
  axb_csr_destroy(&P);
}

/* Batched through axb_anchor_batched: nb problems of order n (gesv and
   inverse on uniform matrices, posv on SPD ones), b_k = row sums, judged
   per problem; problem `bad` (or -1) made singular / not SPD must be the
   reported one, its output unchanged. */
static void batched(int64_t n, int64_t nb, axb_dtype t, int64_t bad) {
  const axb_gpu_op ops[3] = {AXB_GPU_BATCHED_GESV, AXB_GPU_BATCHED_POSV,
                             AXB_GPU_BATCHED_INVERSE};
  size_t es = axb_dtype_size(t);
  for (int o = 0; o < 3; ++o) {
    char what[128];
    snprintf(what, sizeof what, "eigen batched op %d n=%lld x%lld %s%s", o,
             (long long)n, (long long)nb, axb_dtype_name(t),
             bad >= 0 ? " failing" : "");
    axb_dense A = test_alloc(n, n * nb, n, t), B = test_alloc(n, nb, n, t);
    for (int64_t k = 0; k < nb; ++k) {
      axb_dense Ak = test_gen(h, o == 1 ? AXB_GEN_SPD_SHIFT : AXB_GEN_UNIFORM,
                              n, t, 0, 0, 40 + (uint64_t)k);
      if (k == bad) /* last column zero; for posv a negative diagonal */
        for (int64_t i = 0; i < n; ++i)
          axb_dense_set(&Ak, i, n - 1, 0.0);
      if (k == bad && o == 1) axb_dense_set(&Ak, n - 1, n - 1, -1.0);
      test_batch_put(&A, &B, k, &Ak);
      axb_dense_destroy(&Ak);
    }
    axb_dense W = test_copy_ld(&A, n), X = test_copy_ld(&B, n);
    int64_t info = -1;
    axb_status st = axb_anchor_batched(AXB_ANCHOR_EIGEN, ops[o], t, n, nb,
                                       W.data, X.data, &info);
    if (bad >= 0) {
      CHECK(st == (o == 1 ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR) &&
                info == bad + 1,
            "%s: status %d info %lld", what, st, (long long)info);
      size_t off = (size_t)(bad * n) * es;
      CHECK(memcmp((char *)X.data + off, (char *)B.data + off,
                   (size_t)n * es) == 0 &&
                memcmp((char *)W.data + off * (size_t)n,
                       (char *)A.data + off * (size_t)n,
                       (size_t)(n * n) * es) == 0,
            "%s: failing problem's data changed", what);
    } else {
      CHECK(st == AXB_SUCCESS && info == 0, "%s: status %d", what, st);
      double worst = 0;
      for (int64_t k = 0; k < nb; ++k) {
        axb_dense Ak = test_batch_item(&A, k, n);
        axb_dense Bk = test_batch_item(&B, k, 1);
        axb_dense Xk = test_batch_item(&X, k, 1);
        axb_dense Vk = test_batch_item(&W, k, n);
        double v = o == 2 ? axb_check_inverse(&Ak, &Vk)
                          : axb_check_solve(&Ak, &Xk, &Bk);
        if (!(v <= worst)) worst = v;
      }
      CHECK_RATIO(worst, "%s", what);
    }
    axb_dense_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&W);
    axb_dense_destroy(&X);
  }
}

int main(void) {
  if (!axb_eigen_available()) {
    int64_t p = 0;
    double a = 0;
    CHECK(axb_eigen_getrf(AXB_F64, 1, &a, 1, &p) == AXB_ERR_NOT_COMPILED,
          "stub getrf");
    CHECK(axb_anchor_available(AXB_ANCHOR_EIGEN) == 0, "anchor available");
    int rc = test_finish("test_eigen_shim");
    return rc ? rc : 77;
  }
  h = test_handle(AXB_BACKEND_CPU);
  const int64_t sizes[] = {1, 2, 7, 33, 130, 257};
  for (int d = 0; d < 2; ++d) {
    axb_dtype t = d ? AXB_F32 : AXB_F64;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
      dense_lu(sizes[i], t);
      dense_chol_inv(sizes[i], t);
    }
    dense_failures(t);
    axb_anchor_set_threads(AXB_ANCHOR_EIGEN, 2);
    batched(1, 5, t, -1);
    batched(4, 1000, t, -1);
    batched(13, 77, t, -1);
    batched(64, 9, t, -1);
    batched(6, 50, t, 17);
    axb_anchor_set_threads(AXB_ANCHOR_EIGEN, 0);
  }
  int64_t info = -1;
  double a = 1, b = 1;
  CHECK(axb_anchor_batched(AXB_ANCHOR_OPENBLAS, AXB_GPU_BATCHED_GESV, AXB_F64,
                           1, 1, &a, &b, &info) ==
            (axb_anchor_available(AXB_ANCHOR_OPENBLAS) ? AXB_ERR_NOT_SUPPORTED
                                                       : AXB_ERR_NOT_COMPILED),
        "openblas batched");
  CHECK(axb_anchor_batched(AXB_ANCHOR_EIGEN, AXB_GPU_LU, AXB_F64, 1, 1, &a, &b,
                           &info) == AXB_ERR_INVALID,
        "eigen batched: not a batched op");
  sparse();
  printf("Eigen %s\n", axb_eigen_version());
  axb_handle_destroy(h);
  return test_finish("test_eigen_shim");
}
