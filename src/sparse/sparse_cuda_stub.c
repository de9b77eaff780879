/* The sparse GPU layer (src/sparse/cuda/spcuda.h, the CUDA sparse table of
   sparse_ops.h) when CUDA is not compiled in: no table, and every entry
   answers AXB_ERR_NOT_COMPILED. */
#include "core/internal.h"
#include "sparse/cuda/spcuda.h"
#include "sparse/sparse_ops.h"

const axb_sparse_ops *axb__sparse_cuda_ops(void) { return NULL; }

void axb__sparse_cuda_release(axb_handle h) { (void)h; }

static axb_status not_compiled(axb_handle h) {
  return axb__fail(h, AXB_ERR_NOT_COMPILED,
                   "this build of axb has no CUDA backend (sparse GPU layer)");
}

axb_status axb_spcuda_mat_create(axb_handle h, const axb_csr *A,
                                 axb_spcuda_mat **M) {
  (void)A;
  *M = NULL;
  return not_compiled(h);
}

void axb_spcuda_mat_destroy(axb_spcuda_mat *M) { (void)M; }

axb_status axb_spcuda_mat_set_spmv(axb_spcuda_mat *M, axb_spmv_kind kind,
                                   int width) {
  (void)M;
  (void)kind;
  (void)width;
  return AXB_ERR_NOT_COMPILED;
}

void axb_spcuda_mat_spmv_info(const axb_spcuda_mat *M, axb_spmv_kind *kind,
                              int *width) {
  (void)M;
  *kind = AXB_SPMV_AUTO;
  *width = 0;
}

void axb_spcuda_mat_stats(const axb_spcuda_mat *M, double *mean_row,
                          int64_t *max_row) {
  (void)M;
  *mean_row = 0;
  *max_row = 0;
}

double axb_spcuda_mat_spmv_bytes(const axb_spcuda_mat *M) {
  (void)M;
  return 0;
}

axb_status axb_spcuda_spmv(axb_handle h, const axb_spcuda_mat *M,
                           const void *dx, void *dy) {
  (void)M;
  (void)dx;
  (void)dy;
  return not_compiled(h);
}
