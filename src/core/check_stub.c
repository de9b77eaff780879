/* TEMPORARY stubs until this part lands (delete this file). */
#include "axb.h"

double axb_eps(axb_dtype t) {
  (void)t;
  return -1;
}
double axb_matrix_norm(const axb_dense *A, axb_norm norm) {
  (void)A;
  (void)norm;
  return -1;
}
double axb_check_lu(const axb_dense *A, const axb_dense *LU,
                    const int64_t *ipiv) {
  (void)A;
  (void)LU;
  (void)ipiv;
  return -1;
}
double axb_check_cholesky(const axb_dense *A, const axb_dense *F,
                          axb_uplo uplo) {
  (void)A;
  (void)F;
  (void)uplo;
  return -1;
}
double axb_check_solve(const axb_dense *A, const axb_dense *X,
                       const axb_dense *B) {
  (void)A;
  (void)X;
  (void)B;
  return -1;
}
double axb_check_inverse(const axb_dense *A, const axb_dense *X) {
  (void)A;
  (void)X;
  return -1;
}
double axb_forward_error(const axb_dense *X, const axb_dense *X_true) {
  (void)X;
  (void)X_true;
  return -1;
}
double axb_max_lu_diff(const axb_dense *A, const axb_dense *LU,
                       const int64_t *ipiv) {
  (void)A;
  (void)LU;
  (void)ipiv;
  return -1;
}
double axb_max_abs_diff(const axb_dense *A, const axb_dense *Y) {
  (void)A;
  (void)Y;
  return -1;
}
