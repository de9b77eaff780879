/* The typed LAPACK-like layer: instantiates lapack_t.h for double and float. */
#include "core/internal.h"
#include "core/template.h"
#include "dense/condest.h"

#include <math.h>

#define AXB_STR_d "axb_d"
#define AXB_STR_s "axb_s"

static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

static void set_info(int64_t *info, int64_t v) {
  if (info) *info = v;
}

/* Illegal argument i (LAPACK numbering, the handle not counted). */
static axb_status arg_error(axb_handle h, const char *routine, int i,
                            const char *what, int64_t *info) {
  set_info(info, -i);
  return axb__fail(h, -i, "%s: argument %d is illegal (%s)", routine, i, what);
}

static axb_status not_supported(axb_handle h, const char *routine,
                                int64_t *info) {
  set_info(info, 0);
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "%s is not implemented on the %s backend", routine,
                   h->ops ? h->ops->name : axb_backend_name(h->backend));
}

/* The argument checks every solve shares: n, nrhs, A, lda, [ipiv,] B, ldb
   are arguments off+1, off+2, ... (ipiv only when has_ipiv). */
static axb_status check_system(axb_handle h, const char *r, int off, int64_t n,
                               int64_t nrhs, const void *A, int64_t lda,
                               const int64_t *ipiv, int has_ipiv, const void *B,
                               int64_t ldb, int64_t *info) {
  int i = off;
  if (n < 0) return arg_error(h, r, i + 1, "n < 0", info);
  if (nrhs < 0) return arg_error(h, r, i + 2, "nrhs < 0", info);
  if (!A && n > 0) return arg_error(h, r, i + 3, "A is NULL", info);
  if (lda < imax(1, n)) return arg_error(h, r, i + 4, "lda < max(1, n)", info);
  if (has_ipiv && !ipiv && n > 0)
    return arg_error(h, r, i + 5, "ipiv is NULL", info);
  i += has_ipiv;
  if (!B && n > 0 && nrhs > 0) return arg_error(h, r, i + 5, "B is NULL", info);
  if (ldb < imax(1, n)) return arg_error(h, r, i + 6, "ldb < max(1, n)", info);
  return AXB_SUCCESS;
}

/* The checks getrf and getrf_dev share (LAPACK numbering 1..5). */
static axb_status check_getrf(axb_handle h, const char *r, int64_t m, int64_t n,
                              const void *A, int64_t lda, const int64_t *ipiv,
                              int64_t *info) {
  if (m < 0) return arg_error(h, r, 1, "m < 0", info);
  if (n < 0) return arg_error(h, r, 2, "n < 0", info);
  if (!A && m > 0 && n > 0) return arg_error(h, r, 3, "A is NULL", info);
  if (lda < imax(1, m)) return arg_error(h, r, 4, "lda < max(1, m)", info);
  if (!ipiv && m > 0 && n > 0) return arg_error(h, r, 5, "ipiv is NULL", info);
  return AXB_SUCCESS;
}

/* The checks potrf and potrf_dev share (LAPACK numbering 1..4). */
static axb_status check_potrf(axb_handle h, const char *r, axb_uplo uplo,
                              int64_t n, const void *A, int64_t lda,
                              int64_t *info) {
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", info);
  if (n < 0) return arg_error(h, r, 2, "n < 0", info);
  if (!A && n > 0) return arg_error(h, r, 3, "A is NULL", info);
  if (lda < imax(1, n)) return arg_error(h, r, 4, "lda < max(1, n)", info);
  return AXB_SUCCESS;
}

/* Turn a kernel's (status, index) into the routine's result and detail. */
static axb_status finish(axb_handle h, const char *routine, axb_status st,
                         int64_t i, int64_t *info) {
  switch (st) {
  case AXB_SUCCESS: set_info(info, 0); return st;
  case AXB_ERR_SINGULAR:
    set_info(info, i);
    return axb__fail(h, st,
                     "%s: pivot %lld is exactly zero: the matrix is singular",
                     routine, (long long)i);
  case AXB_ERR_NOT_SPD:
    set_info(info, i);
    return axb__fail(h, st,
                     "%s: the leading minor of order %lld is not positive "
                     "definite",
                     routine, (long long)i);
  case AXB_ERR_SMALL_PIVOT:
    set_info(info, i);
    if (h->detail[0]) return st; /* the kernel's message names the value */
    return axb__fail(h, st,
                     "%s: pivot %lld is zero or tiny and pivoting is off",
                     routine, (long long)i);
  default:
    set_info(info, 0);
    if (h->detail[0] == '\0')
      axb__fail(h, st, "%s: %s", routine, axb_strerror(st));
    return st;
  }
}

#define AXB_TEMPLATE "dense/lapack_t.h"
#include "core/instantiate.h"
