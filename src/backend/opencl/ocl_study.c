/*
 * The source documents' OpenCL algorithms on the OpenCL backend (issue 29;
 * kernels in study.cl), host-array entries of the table:
 *   potrf_columns  SEEDS.md 3's column Cholesky: a host loop over columns,
 *                  one work-item per element; two kernels (diagonal, then
 *                  the rest of the column) or one (every work-item
 *                  recomputing the diagonal); in place or into a second
 *                  device array.  potrf_crout is its two-kernel in-place
 *                  form (as on CUDA).
 *   getri_gj_unblocked  SEEDS.md 4's per-pivot Gauss-Jordan inverse, with
 *                  the partial pivoting the thesis lacked: per pivot one
 *                  work-group finds and swaps the pivot row and scales it,
 *                  then one work-item per entry eliminates; the row
 *                  interchanges are undone on the columns at the end.
 * Written once over the element size (the kernels carry the precision).
 */
#include "backend/opencl/ocl.h"
#include "backend/verdict.h"

#include <limits.h>

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* One column step j of the column Cholesky (kernels 1 or 2); A at offset
   0 of M, L at offset loff (kernels in study.cl). */
static axb_status col_step(axb_handle h, int dbl, size_t es, int kernels,
                           size_t nt, cl_int n, cl_mem M, cl_long ld,
                           cl_long loff, cl_int j, cl_mem dinfo) {
  if (kernels == 1) {
    const size_t sz[] = {sizeof n,    sizeof M, sizeof ld,
                         sizeof loff, sizeof j, sizeof dinfo};
    const void *const v[] = {&n, &M, &ld, &loff, &j, &dinfo};
    return axb__ocl_run(h, dbl, OCL_COL_SINGLE, (size_t)(n - j), 0, nt, 0, 6,
                        sz, v);
  }
  const size_t sz[] = {sizeof M, sizeof ld,    sizeof loff,
                       sizeof j, sizeof dinfo, nt * es};
  const void *const v[] = {&M, &ld, &loff, &j, &dinfo, NULL};
  axb_status st = axb__ocl_run(h, dbl, OCL_COL_DIAG, nt, 0, nt, 0, 6, sz, v);
  if (st || j + 1 >= n) return st;
  const size_t so[] = {sizeof n,    sizeof M, sizeof ld,
                       sizeof loff, sizeof j, sizeof dinfo};
  const void *const vo[] = {&n, &M, &ld, &loff, &j, &dinfo};
  return axb__ocl_run(h, dbl, OCL_COL_OFFDIAG, (size_t)(n - j - 1), 0, nt, 0, 6,
                      so, vo);
}

/* After the loop: the single-kernel form's diagonal; out of place, L's
   lower triangle back into A. */
static axb_status col_finish(axb_handle h, int dbl, int kernels, size_t nt,
                             cl_int n, cl_mem M, cl_long ld, cl_long loff,
                             cl_mem dinfo) {
  axb_status st = AXB_SUCCESS;
  if (kernels == 1) {
    const size_t sz[] = {sizeof n, sizeof M, sizeof ld, sizeof loff,
                         sizeof dinfo};
    const void *const v[] = {&n, &M, &ld, &loff, &dinfo};
    st = axb__ocl_run(h, dbl, OCL_COL_SINGLE_DIAG, (size_t)n, 0, nt, 0, 5, sz,
                      v);
  }
  if (!st && loff) {
    const size_t sz[] = {sizeof n, sizeof M, sizeof ld, sizeof loff};
    const void *const v[] = {&n, &M, &ld, &loff};
    st = axb__ocl_run(h, dbl, OCL_COL_LOWER_COPY, (size_t)n, (size_t)n, 16, 16,
                      4, sz, v);
  }
  return st;
}

static axb_status potrf_columns(axb_handle h, int dbl, size_t es, int64_t n,
                                void *A, int64_t lda,
                                const axb_potrf_columns_opts *o,
                                int64_t *info) {
  if (n > INT_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "potrf_columns: n too large");
  const size_t nt = min_sz((size_t)o->threads, (size_t)axb__ocl(h)->max_wg);
  cl_mem M = NULL, dinfo = NULL;
  int64_t ldd = 0, ld1 = 0;
  int hinfo = 0;
  /* one buffer: A, and out of place L after it (starting as A's copy, so
     that columns a failure leaves unfactored stay A's) */
  axb_status st =
      axb__ocl_upload(h, NULL, lda, n, o->in_place ? n : 2 * n, es, &M, &ldd);
  const size_t nn = (size_t)(ldd * n) * es;
  if (!st) st = axb__ocl_write(h, M, ldd, n, n, es, A, lda);
  if (!st) st = axb__ocl_upload(h, &hinfo, 1, 1, 1, sizeof(int), &dinfo, &ld1);
  if (!st && !o->in_place)
    st = axb__ocl_check(
        h, clEnqueueCopyBuffer(axb__ocl(h)->q, M, M, 0, nn, nn, 0, NULL, NULL),
        "clEnqueueCopyBuffer");
  const cl_long loff = o->in_place ? 0 : ldd * n;
  for (int64_t j = 0; !st && j < n; ++j)
    st = col_step(h, dbl, es, o->kernels, nt, (cl_int)n, M, ldd, loff,
                  (cl_int)j, dinfo);
  if (!st)
    st = col_finish(h, dbl, o->kernels, nt, (cl_int)n, M, ldd, loff, dinfo);
  if (!st) st = axb__ocl_download(h, dinfo, 1, 1, 1, sizeof(int), &hinfo, 1);
  /* the kernels wrote the lower triangle only: the rest is A's, bit for
     bit, so one download of the block restores it */
  if (!st) st = axb__ocl_download(h, M, ldd, n, n, es, A, lda);
  if (!st && hinfo) {
    *info = hinfo;
    st = axb__fail(h, AXB_ERR_NOT_SPD,
                   "potrf_columns: leading minor of order %d is not positive "
                   "definite",
                   hinfo);
  }
  axb__ocl_free(M);
  axb__ocl_free(dinfo);
  return st;
}

/* Pivot step k of the Gauss-Jordan inverse: gj_pivot then gj_eliminate. */
static axb_status gj_step(axb_handle h, int dbl, cl_int n, cl_mem dA,
                          cl_long ld, cl_int k, cl_mem dpiv, cl_mem dcol,
                          cl_mem dinfo) {
  const size_t sz[] = {sizeof n,    sizeof dA,   sizeof ld,   sizeof k,
                       sizeof dpiv, sizeof dcol, sizeof dinfo};
  const void *const v[] = {&n, &dA, &ld, &k, &dpiv, &dcol, &dinfo};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  axb_status st = axb__ocl_run(h, dbl, OCL_GJ_PIVOT, wg, 0, wg, 0, 7, sz, v);
  if (st) return st;
  const size_t se[] = {sizeof n, sizeof dA,   sizeof ld,
                       sizeof k, sizeof dcol, sizeof dinfo};
  const void *const ve[] = {&n, &dA, &ld, &k, &dcol, &dinfo};
  return axb__ocl_run(h, dbl, OCL_GJ_ELIMINATE, (size_t)n, (size_t)n, 16, 16, 6,
                      se, ve);
}

static axb_status getri_gj_unblocked(axb_handle h, int dbl, size_t es,
                                     int64_t n, void *A, int64_t lda,
                                     int64_t *info) {
  if (n > INT_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "getri_gj: n too large");
  cl_mem dA = NULL, dpiv = NULL, dcol = NULL, dinfo = NULL;
  int64_t ldd = 0, ld1 = 0;
  int hinfo = 0;
  axb_status st = axb__ocl_upload(h, A, lda, n, n, es, &dA, &ldd);
  if (!st) st = axb__ocl_upload(h, &hinfo, 1, 1, 1, sizeof(int), &dinfo, &ld1);
  if (!st) st = axb__ocl_alloc(h, (size_t)n * sizeof(int), &dpiv);
  if (!st) st = axb__ocl_alloc(h, (size_t)n * es, &dcol);
  for (int64_t k = 0; !st && k < n; ++k)
    st = gj_step(h, dbl, (cl_int)n, dA, ldd, (cl_int)k, dpiv, dcol, dinfo);
  if (!st) st = axb__ocl_download(h, dinfo, 1, 1, 1, sizeof(int), &hinfo, 1);
  if (!st && !hinfo) {
    cl_int nn = (cl_int)n;
    cl_long ld = ldd;
    const size_t sz[] = {sizeof nn, sizeof dA, sizeof ld, sizeof dpiv};
    const void *const v[] = {&nn, &dA, &ld, &dpiv};
    st = axb__ocl_run(h, dbl, OCL_GJ_UNSWAP, (size_t)n, 0, 64, 0, 4, sz, v);
    if (!st) st = axb__ocl_download(h, dA, ldd, n, n, es, A, lda);
  }
  if (!st) st = axb__zero_pivot_column(h, info, hinfo, "getri_gj_unblocked");
  axb__ocl_free(dA);
  axb__ocl_free(dpiv);
  axb__ocl_free(dcol);
  axb__ocl_free(dinfo);
  return st;
}

/* ---- typed entries ----------------------------------------------------------
 */

#define OCL_STUDY_TYPED(T, p, dbl)                                             \
  static axb_status p##potrf_columns(                                          \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_potrf_columns_opts *o, int64_t *info) {                        \
    return potrf_columns(h, dbl, sizeof(T), n, A, lda, o, info);               \
  }                                                                            \
  static axb_status p##potrf_crout(axb_handle h, int64_t n, T *A, int64_t lda, \
                                   int64_t *info) {                            \
    const axb_potrf_columns_opts o = {2, 1, 256};                              \
    return potrf_columns(h, dbl, sizeof(T), n, A, lda, &o, info);              \
  }                                                                            \
  static axb_status p##getri_gj_unblocked(axb_handle h, int64_t n, T *A,       \
                                          int64_t lda, int64_t *info) {        \
    return getri_gj_unblocked(h, dbl, sizeof(T), n, A, lda, info);             \
  }

OCL_STUDY_TYPED(double, d, 1)
OCL_STUDY_TYPED(float, s, 0)

void axb__ocl_study_entries(axb_backend_ops *ops) {
  ops->d.potrf_columns = dpotrf_columns;
  ops->s.potrf_columns = spotrf_columns;
  ops->d.potrf_crout = dpotrf_crout;
  ops->s.potrf_crout = spotrf_crout;
  ops->d.getri_gj_unblocked = dgetri_gj_unblocked;
  ops->s.getri_gj_unblocked = sgetri_gj_unblocked;
}
