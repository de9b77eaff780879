/*
 * The sparse direct solvers when SuiteSparse is not in the build
 * (sparse_direct.h): every entry answers AXB_ERR_NOT_SUPPORTED with the
 * package to install.  CMake builds this file or direct_ss.c.
 */
#include "sparse/sparse_direct.h"

int axb__direct_available(void) { return 0; }

axb_status axb__direct_analyze(axb_handle h, const axb_csr *A, int try_chol,
                               axb_direct **F) {
  (void)A;
  (void)try_chol;
  *F = NULL;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "the sparse direct solvers (UMFPACK, CHOLMOD) are not in "
                   "this build: install SuiteSparse (Debian: "
                   "libsuitesparse-dev) and build axb again");
}

axb_status axb__direct_preestimate(axb_handle h, const axb_csr *A,
                                   double *flops) {
  (void)A;
  *flops = 0;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "no sparse direct solver");
}

double axb__direct_memory(const axb_direct *F) {
  (void)F;
  return 0;
}

void axb__direct_estimate(const axb_direct *F, double *flops, double *bytes) {
  (void)F;
  *flops = *bytes = 0;
}

axb_status axb__direct_factor(axb_handle h, axb_direct *F) {
  (void)F;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "no sparse direct solver");
}

axb_status axb__direct_solve(axb_handle h, axb_direct *F, int trans,
                             const double *b, double *x) {
  (void)F;
  (void)trans;
  (void)b;
  (void)x;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "no sparse direct solver");
}

void axb__direct_describe(const axb_direct *F, char *buf, size_t len) {
  (void)F;
  if (len) buf[0] = 0;
}

axb_status axb__direct_solve2(axb_handle h, axb_direct *F, const double *b,
                              double *x) {
  (void)F;
  (void)b;
  (void)x;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "no sparse direct solver");
}

axb_direct_kind axb__direct_kind(const axb_direct *F) {
  (void)F;
  return AXB_DIRECT_UMFPACK;
}

const char *axb__direct_name(const axb_direct *F) {
  (void)F;
  return "none";
}

int axb__direct_switched(const axb_direct *F) {
  (void)F;
  return 0;
}

void axb__direct_free(axb_direct *F) { (void)F; }
