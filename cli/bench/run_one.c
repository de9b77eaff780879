/* One timed run of a routine on a backend: axb's host handles, the host
   anchors (OpenBLAS, Eigen) and every GPU implementation through the GPU
   runner (axb_gpu_run). */
#include "bench.h"

/* The double or the float routine of a typed pair (d: double), same
   arguments (the arrays are void *). */
#define TYPED(name, ...)                                                       \
  (d ? axb_d##name(__VA_ARGS__) : axb_s##name(__VA_ARGS__))

static axb_gpu_op gpu_op(rtn k) {
  switch (k) {
  case RT_LU: return AXB_GPU_LU;
  case RT_CHOL: return AXB_GPU_CHOLESKY;
  case RT_INV: return AXB_GPU_INVERSE;
  case RT_BGESV: return AXB_GPU_BATCHED_GESV;
  case RT_BINV: return AXB_GPU_BATCHED_INVERSE;
  case RT_BPOSV: return AXB_GPU_BATCHED_POSV;
  default: return AXB_GPU_GESV;
  }
}

/* Runs through axb_gpu_run: every GPU anchor, and axb's CUDA backend for the
   routines the runner has (the others go through the host-array API). */
static int via_runner(int be, rtn r) {
  if (be == BK_CUDA)
    return r == RT_LU || r == RT_CHOL || r == RT_INV || r == RT_GESV ||
           rt_batched(r);
  return be == BK_CUSOLVER || be == BK_CUBLAS;
}

static axb_status run_host_anchor(int be, rtn k, int64_t n, axb_dtype t,
                                  work *w) {
  axb_anchor a = bk_anchor_id(be);
  int64_t info = 0;
  switch (k) {
  case RT_LU: return axb_anchor_getrf(a, t, n, w->W, n, w->ipiv, &info);
  case RT_CHOL: return axb_anchor_potrf(a, t, AXB_LOWER, n, w->W, n, &info);
  case RT_INV: return axb_anchor_inverse(a, t, n, w->W, n, &info);
  case RT_GESV:
    return axb_anchor_gesv(a, t, n, 1, w->W, n, w->ipiv, w->XB, n, &info);
  case RT_BGESV:
  case RT_BINV:
  case RT_BPOSV:
    return axb_anchor_batched(a, gpu_op(k), t, n, w->batch, w->W, w->XB, &info);
  default: return AXB_ERR_NOT_SUPPORTED;
  }
}

/* Batched routines on a host handle (ref, cpu): info per problem. */
static axb_status run_batched_host(axb_handle h, rtn r, int64_t n, int d,
                                   work *w) {
  int64_t nb = w->batch, nn = n * n;
  axb_status st;
  if (r == RT_BGESV)
    st = TYPED(gesv_batched, h, n, 1, w->W, n, nn, w->ip32, n, w->XB, n, n,
               w->inf32, nb);
  else if (r == RT_BPOSV)
    st = TYPED(posv_batched, h, AXB_LOWER, n, 1, w->W, n, nn, w->XB, n, n,
               w->inf32, nb);
  else
    st = TYPED(inverse_batched, h, n, w->W, n, nn, w->inf32, nb);
  for (int64_t k = 0; !st && k < nb; ++k)
    if (w->inf32[k]) st = r == RT_BPOSV ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
  return st;
}

axb_status run_timed(bench *b, int be, rtn r, const axb_dense *A, work *w,
                     double *xfer, double *dev) {
  int64_t n = A->rows, info = 0;
  axb_dtype t = A->dtype;
  int d = t == AXB_F64;
  void *W = w->W, *XB = w->XB;
  int64_t *ipiv = w->ipiv;
  *xfer = 0;
  *dev = NAN;
  if (bk_anchor(be) && !anchor_has(be, r)) return AXB_ERR_NOT_SUPPORTED;
  if (via_runner(be, r)) {
    axb_gpu_times tm = {0, 0};
    rtn k = be == BK_CUDA ? r : rt_anchor(r);
    axb_status st = axb_gpu_run(b->gpu, bk_anchor_id(be), gpu_op(k), t, n,
                                w->batch, W, XB, ipiv, &info, &tm);
    *xfer = tm.transfer_s;
    *dev = tm.device_s;
    return st;
  }
  if (bk_anchor(be)) return run_host_anchor(be, rt_anchor(r), n, t, w);
  axb_handle h = b->h[be];
  axb_status st;
  switch (r) {
  case RT_LU: return TYPED(getrf, h, n, n, W, n, ipiv, &info);
  case RT_CHOL: return TYPED(potrf, h, AXB_LOWER, n, W, n, &info);
  case RT_INV:
    st = TYPED(getrf, h, n, n, W, n, ipiv, &info);
    if (!st) st = TYPED(getri, h, n, W, n, ipiv, &info);
    return st;
  case RT_GESV: return TYPED(gesv, h, n, 1, W, n, ipiv, XB, n, &info);
  case RT_SOLVE: {
    axb_solve_opts o;
    axb_solve_opts_default(&o);
    o.method = AXB_METHOD_LU;
    axb_dense X = axb_dense_wrap(n, 1, n, t, XB);
    axb_report rep;
    st = axb_solve(h, A, &X, &o, &rep);
    *xfer = rep.t_transfer;
    return st;
  }
  case RT_LU_CROUT: return TYPED(getrf_crout, h, n, W, n, ipiv, &info);
  case RT_GAUSS: return TYPED(gesv_gauss, h, n, 1, W, n, XB, n, 1, &info);
  case RT_CHOL_CROUT: return TYPED(potrf_crout, h, n, W, n, &info);
  case RT_CHOL_BANA: return TYPED(potrf_banachiewicz, h, n, W, n, &info);
  case RT_GJ: return TYPED(getri_gj, h, n, W, n, &info);
  case RT_GJ_UNB: return TYPED(getri_gj_unblocked, h, n, W, n, &info);
  case RT_LU_FP:
  case RT_LU_FP_DAG: {
    axb_fixedpoint_opts o;
    axb_fixedpoint_opts_default(&o);
    if (r == RT_LU_FP_DAG) o.scheduler = AXB_FP_SCHED_DAG;
    return TYPED(getrf_fixedpoint, h, n, W, n, &o, NULL, &info);
  }
  case RT_CHOL_COL1: {
    axb_potrf_columns_opts o;
    axb_potrf_columns_opts_default(&o);
    o.kernels = 1;
    return TYPED(potrf_columns, h, n, W, n, &o, &info);
  }
  case RT_BGESV:
  case RT_BINV:
  case RT_BPOSV: return run_batched_host(h, r, n, d, w);
  default: return AXB_ERR_NOT_SUPPORTED;
  }
}

/* What a run leaves to judge: factors, an inverse, or x itself. */
