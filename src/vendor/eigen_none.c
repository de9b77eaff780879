/* Build without Eigen3: every Eigen anchor says so (eigen_shim.h). */
#include "vendor/eigen_shim.h"

int axb_eigen_available(void) { return 0; }
const char *axb_eigen_version(void) { return "none"; }
void axb_eigen_set_threads(int nthreads) { (void)nthreads; }

int axb_eigen_getrf(axb_dtype t, int64_t n, void *A, int64_t lda,
                    int64_t *ipiv) {
  (void)t, (void)n, (void)A, (void)lda, (void)ipiv;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_potrf(axb_dtype t, int64_t n, void *A, int64_t lda) {
  (void)t, (void)n, (void)A, (void)lda;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_inverse(axb_dtype t, int64_t n, void *A, int64_t lda) {
  (void)t, (void)n, (void)A, (void)lda;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_gesv(axb_dtype t, int64_t n, int64_t nrhs, void *A, int64_t lda,
                   int64_t *ipiv, void *B, int64_t ldb) {
  (void)t, (void)n, (void)nrhs, (void)A, (void)lda, (void)ipiv, (void)B;
  (void)ldb;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_batched(int op, axb_dtype t, int64_t n, int64_t batch, void *A,
                      void *B, int nthreads, int *info) {
  (void)op, (void)t, (void)n, (void)batch, (void)A, (void)B, (void)nthreads;
  (void)info;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_cg_ic(int64_t n, const int64_t *rowptr, const int64_t *colind,
                    const double *val, const double *b, double *x, double tol,
                    int64_t maxit, axb_eigen_iter_result *res) {
  (void)n, (void)rowptr, (void)colind, (void)val, (void)b, (void)x, (void)tol;
  (void)maxit, (void)res;
  return AXB_ERR_NOT_COMPILED;
}

int axb_eigen_bicgstab_ilut(int64_t n, const int64_t *rowptr,
                            const int64_t *colind, const double *val,
                            const double *b, double *x, double tol,
                            int64_t maxit, double droptol, int fill_factor,
                            axb_eigen_iter_result *res) {
  (void)n, (void)rowptr, (void)colind, (void)val, (void)b, (void)x, (void)tol;
  (void)maxit, (void)droptol, (void)fill_factor, (void)res;
  return AXB_ERR_NOT_COMPILED;
}
