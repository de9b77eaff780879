/*
 * Resident factors: the certified driver (solve.c) on a backend whose
 * table has the res_ entries (a device backend) factors A where the
 * backend keeps it and runs the solve, the condition estimate's solves and
 * the inverse there; A crosses to the device once, X (or inv(A)) back
 * once.  Statuses and detail messages are those of the host-array
 * routines (getrf/potrf, getrs/potrs, gecon/pocon, getri).  Defined in
 * lapack_t.h; *res is released with axb__res_free.
 */
#ifndef AXB_RESIDENT_H
#define AXB_RESIDENT_H

#include "core/internal.h"

#define AXB_RES_DECLARE(T, P)                                                  \
  /* LU (chol 0) or lower Cholesky (chol 1) of the host A into *res. */        \
  axb_status axb__##P##res_factor(axb_handle h, int chol, int64_t n,           \
                                  const T *A, int64_t lda, void **res,         \
                                  int64_t *info);                              \
  /* Host B (n x nrhs) := op(A)^-1 B (trans: A^-T; Cholesky: A^-1). */         \
  axb_status axb__##P##res_solve(axb_handle h, void *res, int chol,            \
                                 axb_trans trans, int64_t nrhs, T *B,          \
                                 int64_t ldb);                                 \
  /* rcond in the 1-norm (norm ONE) or the inf-norm (INF: that of A^T in the   \
     1-norm; Cholesky: the same), as gecon/pocon on the same factors; y1:      \
     the estimator's first product from the driver's solve (1-norm only),      \
     or NULL. */                                                               \
  axb_status axb__##P##res_con(axb_handle h, void *res, int chol,              \
                               axb_norm norm, int64_t n, double anorm,         \
                               const double *y1, double *rcond);               \
  /* The same on host factors (getrf's, or potrf's lower): gecon/pocon with    \
     the first product y1 given (or NULL); norm INF (LU): y1 is then           \
     (L U)^-T X1, the swapped estimate's first product. */                     \
  axb_status axb__##P##con_y1(axb_handle h, int chol, axb_norm norm,           \
                              int64_t n, const T *F, int64_t ld, double anorm, \
                              const double *y1, double *rcond);                \
  /* LU factors to inv(A) on the device, then host X := inv(A). */             \
  axb_status axb__##P##res_getri(axb_handle h, void *res, T *X, int64_t ldx,   \
                                 int64_t *info);

AXB_RES_DECLARE(double, d)
AXB_RES_DECLARE(float, s)
#undef AXB_RES_DECLARE

/* 1 when h's backend keeps factors resident (the res_ entries exist). */
static inline int axb__res_available(axb_handle h, axb_dtype t) {
  if (!h->ops || !h->ops->res_free) return 0;
  return t == AXB_F64 ? h->ops->d.res_factor != NULL
                      : h->ops->s.res_factor != NULL;
}

static inline void axb__res_free(axb_handle h, void *res) {
  if (res && h->ops && h->ops->res_free) h->ops->res_free(h, res);
}

#endif
