/* Handles, status strings, argument checking of the typed layer, and the
   condition estimator against exact condition numbers.
   AXB_TEST_PER_BACKEND */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_handle h;

static void handles(void) {
  CHECK(strcmp(axb_version(), "0.1.0") == 0, "version %s", axb_version());
  int ma, mi, pa;
  axb_version_numbers(&ma, &mi, &pa);
  CHECK(ma == AXB_VERSION_MAJOR && mi == AXB_VERSION_MINOR &&
            pa == AXB_VERSION_PATCH,
        "version numbers");
  CHECK(axb_handle_create(NULL, AXB_BACKEND_CPU, 0) == AXB_ERR_INVALID,
        "NULL out");
  axb_handle g = NULL;
  CHECK(axb_handle_create(&g, (axb_backend)42, 0) == AXB_ERR_INVALID,
        "bad backend");
  CHECK(g == NULL, "handle set on failure");
  CHECK(strstr(axb_detail(NULL), "unknown backend") != NULL,
        "creation detail: '%s'", axb_detail(NULL));
  CHECK_STATUS(h, axb_handle_create(&g, AXB_BACKEND_AUTO, 0), AXB_SUCCESS);
  CHECK(axb_handle_backend(g) != AXB_BACKEND_AUTO, "AUTO must resolve");
  CHECK_STATUS(g, axb_set_threads(g, -1), AXB_ERR_INVALID);
  CHECK(strlen(axb_detail(g)) > 0, "detail after failure");
  CHECK_STATUS(g, axb_set_threads(g, 3), AXB_SUCCESS);
  CHECK(axb_get_threads(g) == 3, "threads");
  CHECK_STATUS(g, axb_handle_destroy(g), AXB_SUCCESS);
  CHECK(axb_handle_destroy(NULL) == AXB_SUCCESS, "destroy NULL");
  /* Every status has a distinct, non-empty message. */
  const axb_status all[] = {AXB_SUCCESS,
                            AXB_ERR_SINGULAR,
                            AXB_ERR_NOT_SPD,
                            AXB_ERR_SMALL_PIVOT,
                            AXB_ERR_NO_CONVERGENCE,
                            AXB_ERR_ILL_CONDITIONED,
                            AXB_ERR_INACCURATE,
                            AXB_ERR_INVALID,
                            AXB_ERR_OUT_OF_MEMORY,
                            AXB_ERR_IO,
                            AXB_ERR_PARSE,
                            AXB_ERR_NOT_SUPPORTED,
                            AXB_ERR_NOT_COMPILED,
                            AXB_ERR_NO_DEVICE,
                            AXB_ERR_DEVICE,
                            AXB_ERR_INTERNAL,
                            -3};
  int n = (int)(sizeof all / sizeof *all);
  for (int i = 0; i < n; ++i) {
    CHECK(axb_strerror(all[i]) && *axb_strerror(all[i]), "status %d", all[i]);
    for (int j = 0; j < i; ++j)
      CHECK(strcmp(axb_strerror(all[i]), axb_strerror(all[j])) != 0,
            "statuses %d and %d share a message", all[i], all[j]);
  }
  CHECK(strcmp(axb_strerror(12345), "unknown status") == 0, "unknown");
  axb_method m;
  for (int k = 0; k < AXB_METHOD_COUNT; ++k) {
    CHECK(axb_method_parse(axb_method_name((axb_method)k), &m) == 0 &&
              (int)m == k,
          "method round trip %d", k);
  }
  CHECK(axb_method_parse("qr", &m) == AXB_ERR_INVALID, "unknown method");
  CHECK(axb_backend_compiled(AXB_BACKEND_CPU) == 1, "cpu compiled");
  int count = -1;
  CHECK_STATUS(h, axb_cuda_device_count(&count), AXB_SUCCESS);
  CHECK(count >= 0, "device count %d", count);
}

/* LAPACK numbering: the handle is not counted, m of getrf is argument 1. */
static void arguments(void) {
  double a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
  int64_t ipiv[2], info = 99;
  CHECK(axb_dgetrf(h, -1, 2, a, 2, ipiv, &info) == -1 && info == -1, "m");
  CHECK(axb_dgetrf(h, 2, -1, a, 2, ipiv, &info) == -2, "n");
  CHECK(axb_dgetrf(h, 2, 2, NULL, 2, ipiv, &info) == -3, "A");
  CHECK(axb_dgetrf(h, 2, 2, a, 1, ipiv, &info) == -4, "lda");
  CHECK(strstr(axb_detail(h), "argument 4") != NULL, "detail %s",
        axb_detail(h));
  CHECK(axb_dgetrf(h, 2, 2, a, 2, NULL, &info) == -5, "ipiv");
  CHECK(axb_dgetrf(NULL, 2, 2, a, 2, ipiv, &info) == AXB_ERR_INVALID, "h");
  CHECK(axb_dgetrf(h, 0, 0, NULL, 1, NULL, &info) == 0 && info == 0,
        "empty quick return");
  CHECK(axb_dgetrs(h, (axb_trans)7, 2, 1, a, 2, ipiv, b, 2, &info) == -1,
        "trans");
  CHECK(axb_dgetrs(h, AXB_NO_TRANS, 2, 1, a, 2, ipiv, b, 1, &info) == -8,
        "ldb");
  CHECK(axb_dpotrf(h, (axb_uplo)5, 2, a, 2, &info) == -1, "uplo");
  CHECK(axb_spotrs(h, AXB_LOWER, 2, -1, NULL, 2, NULL, 2, &info) == -3, "nrhs");
  CHECK(axb_dtrsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, 2, 1, 1.0, a,
                  1, b, 2) == -9,
        "trsm lda");
  CHECK(axb_dgetri(h, 2, a, 2, NULL, &info) == -4, "getri ipiv");
  double rc;
  CHECK(axb_dgecon(h, AXB_NORM_MAX, 2, a, 2, 1.0, &rc, &info) == -1, "norm");
  CHECK(axb_dgecon(h, AXB_NORM_ONE, 2, a, 2, NAN, &rc, &info) == -5,
        "anorm NaN");
  CHECK(axb_dgesv_gauss(h, 2, 1, a, 2, b, 2, 3, &info) == -7, "pivot flag");
  CHECK(axb_dpotrf_crout(h, 2, a, 1, &info) == -3, "crout lda");
  CHECK(axb_sgetri_gj(h, -2, NULL, 1, &info) == -1, "gj n");
}

/* Exact ||A^-1||_1 from the explicit inverse, compared with the estimate:
   the estimate is a lower bound and, on these matrices, within 3x. */
static void condition(axb_dtype t, const char *spec) {
  axb_dense A, F, X;
  if (test_gen_spec(h, spec, t, &A)) {
    CHECK(0, "generator %s: %s", spec, axb_detail(h));
    return;
  }
  int64_t n = A.rows, info;
  axb_dense_create(&F, n, n, t);
  axb_dense_create(&X, n, n, t);
  CHECK_STATUS(h, axb_invert(h, &A, &X, AXB_METHOD_LU), AXB_SUCCESS);
  double anorm = axb_matrix_norm(&A, AXB_NORM_ONE);
  double exact = 1.0 / (anorm * axb_matrix_norm(&X, AXB_NORM_ONE));
  int64_t *ipiv = malloc((size_t)n * sizeof *ipiv);
  double rc = -1;
  memcpy(F.data, A.data, (size_t)(n * n) * axb_dtype_size(t));
  if (t == AXB_F64) {
    axb_dgetrf(h, n, n, F.data, n, ipiv, &info);
    CHECK_STATUS(h,
                 axb_dgecon(h, AXB_NORM_ONE, n, F.data, n, anorm, &rc, &info),
                 AXB_SUCCESS);
  } else {
    axb_sgetrf(h, n, n, F.data, n, ipiv, &info);
    CHECK_STATUS(h,
                 axb_sgecon(h, AXB_NORM_ONE, n, F.data, n, anorm, &rc, &info),
                 AXB_SUCCESS);
  }
  /* The float "exact" value carries kappa * eps relative error itself. */
  double lo = t == AXB_F64 ? 0.999 : 0.8;
  CHECK(rc >= exact * lo && rc <= 3 * exact, "%s %s: rcond %.4g exact %.4g",
        spec, axb_dtype_name(t), rc, exact);
  /* pocon on SPD input. */
  if (strncmp(spec, "spd", 3) == 0) {
    memcpy(F.data, A.data, (size_t)(n * n) * axb_dtype_size(t));
    if (t == AXB_F64) {
      axb_dpotrf(h, AXB_LOWER, n, F.data, n, &info);
      axb_dpocon(h, AXB_LOWER, n, F.data, n, anorm, &rc, &info);
    } else {
      axb_spotrf(h, AXB_LOWER, n, F.data, n, &info);
      axb_spocon(h, AXB_LOWER, n, F.data, n, anorm, &rc, &info);
    }
    CHECK(rc >= exact * lo && rc <= 3 * exact,
          "pocon %s: rcond %.4g exact %.4g", spec, rc, exact);
  }
  free(ipiv);
  axb_dense_destroy(&A);
  axb_dense_destroy(&F);
  axb_dense_destroy(&X);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  handles();
  arguments();
  const char *specs[] = {"uniform:1", "uniform:50", "cond:80,kappa=1e6",
                         "hilbert:6", "spd:64",     "spd-gram:31"};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; ++i) {
    condition(AXB_F64, specs[i]);
    if (strncmp(specs[i], "hilbert", 7) != 0) condition(AXB_F32, specs[i]);
  }
  axb_handle_destroy(h);
  return test_finish("test_api");
}
