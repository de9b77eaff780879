/* Dense and CSR descriptors, dtype helpers. */
#include "core/csr.h"
#include "core/internal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

const char *axb_dtype_name(axb_dtype t) {
  return t == AXB_F32 ? "float" : t == AXB_F64 ? "double" : "unknown";
}

size_t axb_dtype_size(axb_dtype t) {
  return t == AXB_F32 ? sizeof(float) : t == AXB_F64 ? sizeof(double) : 0;
}

axb_dense axb_dense_wrap(int64_t rows, int64_t cols, int64_t ld,
                         axb_dtype dtype, void *data) {
  axb_dense A = {rows, cols, ld, dtype, AXB_MEM_HOST, data, 0};
  return A;
}

axb_status axb_dense_create(axb_dense *A, int64_t rows, int64_t cols,
                            axb_dtype dtype) {
  if (!A)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: invalid argument (!A)",
                     __func__);
  memset(A, 0, sizeof *A);
  if (rows < 0 || cols < 0 || axb_dtype_size(dtype) == 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_dense_create: %lld x %lld of dtype %d: sizes must "
                     "be >= 0 and the dtype float or double",
                     (long long)rows, (long long)cols, (int)dtype);
  int64_t ld = rows > 0 ? rows : 1;
  size_t es = axb_dtype_size(dtype);
  if (cols > 0 && ld > INT64_MAX / (int64_t)es / cols)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY,
                     "axb_dense_create: a %lld x %lld %s matrix: its size in "
                     "bytes overflows a 64-bit integer",
                     (long long)rows, (long long)cols, axb_dtype_name(dtype));
  void *p = axb__calloc(ld * cols, es);
  if (!p)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY,
                     "axb_dense_create: no memory for a %lld x %lld %s matrix "
                     "(%.3g GiB)",
                     (long long)rows, (long long)cols, axb_dtype_name(dtype),
                     (double)ld * (double)cols * (double)es / 1073741824.0);
  *A = axb_dense_wrap(rows, cols, ld, dtype, p);
  A->owns = 1;
  return AXB_SUCCESS;
}

void axb_dense_destroy(axb_dense *A) {
  if (!A) return;
  if (A->owns && A->mem == AXB_MEM_HOST) axb__free(A->data);
  memset(A, 0, sizeof *A);
}

double axb_dense_get(const axb_dense *A, int64_t i, int64_t j) {
  int64_t k = i + j * A->ld;
  return A->dtype == AXB_F64 ? ((const double *)A->data)[k]
                             : (double)((const float *)A->data)[k];
}

void axb_dense_set(axb_dense *A, int64_t i, int64_t j, double v) {
  int64_t k = i + j * A->ld;
  if (A->dtype == AXB_F64)
    ((double *)A->data)[k] = v;
  else
    ((float *)A->data)[k] = (float)v;
}

int axb__dense_finite(const axb_dense *A, int64_t *bad_i, int64_t *bad_j) {
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      if (!isfinite(axb_dense_get(A, i, j))) {
        if (bad_i) *bad_i = i;
        if (bad_j) *bad_j = j;
        return 0;
      }
  return 1;
}

axb_status axb_csr_create(axb_csr *A, int64_t rows, int64_t cols, int64_t nnz,
                          axb_dtype dtype) {
  if (!A)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: invalid argument (!A)",
                     __func__);
  memset(A, 0, sizeof *A);
  if (rows < 0 || cols < 0 || nnz < 0 || axb_dtype_size(dtype) == 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_csr_create: %lld x %lld with %lld entries of dtype "
                     "%d: sizes must be >= 0 and the dtype float or double",
                     (long long)rows, (long long)cols, (long long)nnz,
                     (int)dtype);
  /* rows + 1 row pointers: rows = INT64_MAX cannot be counted, let alone
     allocated. */
  if (rows == INT64_MAX)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY,
                     "axb_csr_create: %lld rows: the row pointers' count "
                     "overflows",
                     (long long)rows);
  A->rows = rows;
  A->cols = cols;
  A->nnz = nnz;
  A->dtype = dtype;
  A->rowptr = axb__calloc(rows + 1, sizeof(int64_t));
  A->colind = axb__calloc(nnz, sizeof(int64_t));
  A->values = axb__calloc(nnz, axb_dtype_size(dtype));
  if (!A->rowptr || !A->colind || !A->values) {
    axb_csr_destroy(A);
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY,
                     "axb_csr_create: no memory for %lld rows and %lld "
                     "entries",
                     (long long)rows, (long long)nnz);
  }
  return AXB_SUCCESS;
}

void axb_csr_destroy(axb_csr *A) {
  if (!A) return;
  axb__free(A->rowptr);
  axb__free(A->colind);
  axb__free(A->values);
  memset(A, 0, sizeof *A);
}

axb_status axb__csr_check(axb_handle h, const axb_csr *A) {
  if (A->dtype != AXB_F32 && A->dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_INVALID,
                     "bad CSR matrix: dtype %d is neither float nor double",
                     (int)A->dtype);
  if (A->rows < 0 || A->rows == INT64_MAX || A->cols < 0 || A->nnz < 0 ||
      !A->rowptr || (A->nnz > 0 && (!A->colind || !A->values)))
    return axb__fail(
        h, AXB_ERR_INVALID,
        "bad CSR matrix: %" PRId64 " x %" PRId64 ", nnz %" PRId64 "%s", A->rows,
        A->cols, A->nnz,
        !A->rowptr                                   ? ", rowptr NULL"
        : (A->nnz > 0 && (!A->colind || !A->values)) ? ", colind or values NULL"
                                                     : "");
  const int64_t *rp = A->rowptr;
  if (rp[0] != 0)
    return axb__fail(h, AXB_ERR_INVALID,
                     "bad CSR matrix: rowptr[0] = %" PRId64 ", want 0", rp[0]);
  /* All of rowptr before any column: the rows' ranges then lie in 0..nnz. */
  for (int64_t i = 0; i < A->rows; ++i)
    if (rp[i + 1] < rp[i] || rp[i + 1] > A->nnz)
      return axb__fail(h, AXB_ERR_INVALID,
                       "bad CSR matrix: rowptr[%" PRId64 "] = %" PRId64
                       " after rowptr[%" PRId64 "] = %" PRId64
                       " (want non-decreasing, at most nnz = %" PRId64 ")",
                       i + 1, rp[i + 1], i, rp[i], A->nnz);
  if (rp[A->rows] != A->nnz)
    return axb__fail(h, AXB_ERR_INVALID,
                     "bad CSR matrix: rowptr[rows] = %" PRId64
                     ", want nnz = %" PRId64,
                     rp[A->rows], A->nnz);
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = rp[i]; k < rp[i + 1]; ++k) {
      int64_t c = A->colind[k];
      if (c < 0 || c >= A->cols)
        return axb__fail(h, AXB_ERR_INVALID,
                         "bad CSR matrix: column %" PRId64
                         " out of range 0..%" PRId64 " in row %" PRId64
                         " (0-based)",
                         c, A->cols - 1, i);
      if (k > rp[i] && A->colind[k - 1] >= c)
        return axb__fail(
            h, AXB_ERR_INVALID,
            "bad CSR matrix: row %" PRId64 " (0-based): column %" PRId64
            " %s column %" PRId64 " (want sorted, no duplicates)",
            i, c, A->colind[k - 1] == c ? "repeats" : "comes after",
            A->colind[k - 1]);
    }
  return AXB_SUCCESS;
}

axb_status axb_csr_to_dense(axb_handle h, const axb_csr *S, axb_dense *D) {
  if (D) memset(D, 0, sizeof *D);
  if (!S || !D) return axb__fail(h, AXB_ERR_INVALID, "NULL matrix");
  axb_status st = axb__csr_check(h, S);
  if (st != AXB_SUCCESS) return st;
  st = axb_dense_create(D, S->rows, S->cols, S->dtype);
  if (st != AXB_SUCCESS)
    return axb__fail(h, st, "cannot allocate a dense %lld x %lld matrix",
                     (long long)S->rows, (long long)S->cols);
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k) {
      double v = S->dtype == AXB_F64 ? ((const double *)S->values)[k]
                                     : ((const float *)S->values)[k];
      axb_dense_set(D, i, S->colind[k], v);
    }
  axb__clear(h);
  return AXB_SUCCESS;
}
