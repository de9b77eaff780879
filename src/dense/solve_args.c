/*
 * The argument checks of the dense driver (axb_solve, axb_invert in
 * solve.c): shapes, storage and finiteness of the host matrices, each
 * failure an AXB_ERR_INVALID (or NOT_SUPPORTED) status naming the operand.
 */
#include "dense/solve_args.h"

#include <math.h>

/* ld x cols entries whose byte count overflows int64: no such array
   exists, and indexing it would wrap (issue 19: the norm crashed on a
   3037000500 x 3037000500 descriptor). */
axb_status axb__solve_extent_ok(axb_handle h, const axb_dense *A,
                                const char *what) {
  int64_t es = (int64_t)axb_dtype_size(A->dtype);
  if (A->cols > 0 && A->ld > INT64_MAX / es / A->cols)
    return axb__fail(h, AXB_ERR_INVALID,
                     "%s is %lld x %lld with ld %lld: its size in bytes "
                     "overflows a 64-bit integer",
                     what, (long long)A->rows, (long long)A->cols,
                     (long long)A->ld);
  return AXB_SUCCESS;
}

/* Checks shared by axb_solve and axb_invert: a square, non-empty, finite
   host matrix. */
axb_status axb__solve_square(axb_handle h, const axb_dense *A,
                             const char *what) {
  if (!A || (!A->data && A->rows > 0 && A->cols > 0))
    return axb__fail(h, AXB_ERR_INVALID, "%s is NULL", what);
  if (A->dtype != AXB_F32 && A->dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_INVALID, "%s has an unknown dtype", what);
  if (A->mem != AXB_MEM_HOST)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "%s in device memory: use the _dev routines", what);
  if (A->rows != A->cols)
    return axb__fail(h, AXB_ERR_INVALID,
                     "%s is %lld x %lld: a square matrix is needed", what,
                     (long long)A->rows, (long long)A->cols);
  if (A->rows <= 0)
    return axb__fail(h, AXB_ERR_INVALID, "%s is empty (%lld x %lld)", what,
                     (long long)A->rows, (long long)A->cols);
  if (A->ld < A->rows)
    return axb__fail(h, AXB_ERR_INVALID, "%s has ld %lld < rows %lld", what,
                     (long long)A->ld, (long long)A->rows);
  return axb__solve_extent_ok(h, A, what);
}

axb_status axb__solve_finite(axb_handle h, const axb_dense *A,
                             const char *what) {
  int64_t i = 0, j = 0;
  if (axb__dense_finite(A, &i, &j)) return AXB_SUCCESS;
  double v = axb_dense_get(A, i, j);
  return axb__fail(h, AXB_ERR_INVALID, "%s(%lld,%lld) is %s", what,
                   (long long)i + 1, (long long)j + 1,
                   isnan(v) ? "NaN" : "infinite");
}

/* The shapes of A and B; their contents are checked later (B's at once,
   A's in the pass that copies it: axb_solve). */
axb_status axb__solve_shapes(axb_handle h, const axb_dense *A,
                             const axb_dense *B) {
  axb_status st = axb__solve_square(h, A, "A");
  if (st) return st;
  if (!B || !B->data)
    return axb__fail(h, AXB_ERR_INVALID, "B (the right-hand side) is NULL");
  if (B->mem != AXB_MEM_HOST)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "B in device memory");
  if (B->dtype != A->dtype)
    return axb__fail(h, AXB_ERR_INVALID, "A is %s but B is %s",
                     axb_dtype_name(A->dtype), axb_dtype_name(B->dtype));
  if (B->rows != A->rows || B->cols < 1)
    return axb__fail(h, AXB_ERR_INVALID,
                     "B is %lld x %lld but A is %lld x %lld",
                     (long long)B->rows, (long long)B->cols, (long long)A->rows,
                     (long long)A->cols);
  if (B->ld < B->rows)
    return axb__fail(h, AXB_ERR_INVALID, "B has ld %lld < rows %lld",
                     (long long)B->ld, (long long)B->rows);
  return axb__solve_extent_ok(h, B, "B");
}
