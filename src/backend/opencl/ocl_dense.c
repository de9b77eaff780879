/*
 * The OpenCL backend's kernels behind the table (issue 29): launchers of
 * our OpenCL C kernels (lu.cl, potrf.cl, util.cl), the host-array entries
 * for double and float (ocl_dense_t.h), and the table itself.
 */
#include "backend/opencl/ocl.h"
#include "backend/verdict.h"
#include "core/template.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>

/* Our kernels index with int: orders beyond INT_MAX are refused. */
static axb_status ocl_fits(axb_handle h, int64_t a, int64_t b) {
  if (a <= INT_MAX && b <= INT_MAX) return AXB_SUCCESS;
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "OpenCL backend: dimension %lld exceeds %d",
                   (long long)(a > b ? a : b), INT_MAX);
}

#define run_args axb__ocl_run

static axb_status ocl_lu_panel(axb_handle h, int dbl, cl_mem A, int64_t a0,
                               int64_t lda, int64_t m, int64_t jb, int64_t k0,
                               cl_mem piv, cl_mem info) {
  cl_long a = a0, l = lda;
  cl_int mm = (cl_int)m, j = (cl_int)jb, k = (cl_int)k0;
  const size_t sz[] = {sizeof A, sizeof a, sizeof l,   sizeof mm,
                       sizeof j, sizeof k, sizeof piv, sizeof info};
  const void *const v[] = {&A, &a, &l, &mm, &j, &k, &piv, &info};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  return run_args(h, dbl, OCL_LU_PANEL, wg, 0, wg, 0, 8, sz, v);
}

/* x_r := op(T)^-1 x_r, util.cl's trsv_block on one work-group. */
static axb_status ocl_trsv_block(axb_handle h, int dbl, cl_mem A, int64_t a0,
                                 int64_t lda, int64_t n, int trans, int down,
                                 int unit, cl_mem B, int64_t b0, int64_t ldb,
                                 int64_t nrhs) {
  cl_long a = a0, l = lda, b = b0, lb = ldb;
  cl_int nn = (cl_int)n, tr = trans, dn = down, un = unit, nr = (cl_int)nrhs;
  const size_t sz[] = {sizeof A,  sizeof a,  sizeof l,  sizeof nn,
                       sizeof tr, sizeof dn, sizeof un, sizeof B,
                       sizeof b,  sizeof lb, sizeof nr};
  const void *const v[] = {&A, &a, &l, &nn, &tr, &dn, &un, &B, &b, &lb, &nr};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  return run_args(h, dbl, OCL_TRSV_BLOCK, wg, 0, wg, 0, 11, sz, v);
}

axb_status axb__ocl_laswp(axb_handle h, int dbl, cl_mem A, int64_t a0,
                          int64_t lda, int64_t ncols, cl_mem piv, int64_t k1,
                          int64_t k2, int forward) {
  cl_long a = a0, l = lda;
  cl_int nc = (cl_int)ncols, p = (cl_int)k1, r = (cl_int)k2, f = forward;
  const size_t sz[] = {sizeof A,   sizeof a, sizeof l, sizeof nc,
                       sizeof piv, sizeof p, sizeof r, sizeof f};
  const void *const v[] = {&A, &a, &l, &nc, &piv, &p, &r, &f};
  return run_args(h, dbl, OCL_LASWP, (size_t)ncols, 0, 64, 0, 8, sz, v);
}

axb_status axb__ocl_chol_diag(axb_handle h, int dbl, cl_mem A, int64_t a0,
                              int64_t lda, int64_t nb, int64_t k0, int upper,
                              cl_mem info) {
  cl_long a = a0, l = lda;
  cl_int n = (cl_int)nb, k = (cl_int)k0, u = upper;
  const size_t sz[] = {sizeof A, sizeof a, sizeof l,   sizeof n,
                       sizeof k, sizeof u, sizeof info};
  const void *const v[] = {&A, &a, &l, &n, &k, &u, &info};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  return run_args(h, dbl, OCL_CHOL_DIAG, wg, 0, wg, 0, 7, sz, v);
}

/* W (at w0, ld ldw) := inv(L) of the nb x nb lower block at a0 (unit
   diagonal when unit), or inv(U^T) of the upper block (upper = 1):
   trtri_lower, one work-item per column. */
axb_status axb__ocl_trtri_at(axb_handle h, int dbl, cl_mem A, int64_t a0,
                             int64_t lda, int64_t nb, int unit, int upper,
                             cl_mem W, int64_t w0, int64_t ldw) {
  cl_long a = a0, l = lda, o = w0, lw = ldw;
  cl_int n = (cl_int)nb, un = unit, up = upper;
  const size_t sz[] = {sizeof A,  sizeof a, sizeof l, sizeof n, sizeof un,
                       sizeof up, sizeof W, sizeof o, sizeof lw};
  const void *const v[] = {&A, &a, &l, &n, &un, &up, &W, &o, &lw};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  return run_args(h, dbl, OCL_TRTRI_LOWER, (size_t)nb, 0, wg < 64 ? wg : 64, 0,
                  9, sz, v);
}

axb_status axb__ocl_trtri(axb_handle h, int dbl, cl_mem A, int64_t a0,
                          int64_t lda, int64_t nb, int unit, int upper,
                          cl_mem W, int64_t ldw) {
  return axb__ocl_trtri_at(h, dbl, A, a0, lda, nb, unit, upper, W, 0, ldw);
}

#define ocl_trtri axb__ocl_trtri
#define ocl_laswp axb__ocl_laswp
#define ocl_chol_diag axb__ocl_chol_diag
#define ocl_zero_triangle axb__ocl_zero_triangle

static axb_status ocl_identity(axb_handle h, int dbl, cl_mem X, int64_t ld,
                               int64_t n) {
  cl_long l = ld;
  cl_int nn = (cl_int)n;
  const size_t sz[] = {sizeof X, sizeof l, sizeof nn};
  const void *const v[] = {&X, &l, &nn};
  return run_args(h, dbl, OCL_SET_IDENTITY, (size_t)n, (size_t)n, 16, 16, 3, sz,
                  v);
}

axb_status axb__ocl_zero_triangle(axb_handle h, int dbl, cl_mem A, int64_t ld,
                                  int64_t n, int upper) {
  cl_long l = ld;
  cl_int nn = (cl_int)n, u = upper;
  const size_t sz[] = {sizeof A, sizeof l, sizeof nn, sizeof u};
  const void *const v[] = {&A, &l, &nn, &u};
  return run_args(h, dbl, OCL_ZERO_TRIANGLE, (size_t)n, (size_t)n, 16, 16, 4,
                  sz, v);
}

#define OCL_TEMPLATE "backend/opencl/ocl_dense_t.h"
#include "backend/opencl/ocl_instantiate.h"

/* ---- the table -------------------------------------------------------------
 */

static double take_transfer(axb_handle h) {
  axb_ocl *o = axb__ocl(h);
  if (!o) return 0;
  const double s = o->transfer_seconds;
  o->transfer_seconds = 0;
  return s;
}

/* Our entries over an empty table: a routine without an OpenCL kernel is
   NULL, i.e. an honest AXB_ERR_NOT_SUPPORTED, never a quiet CPU run.  The
   one exception is laswp, a pure data movement on host arrays (the typed
   layer's composed solves use it), taken from the CPU table; O(n^2) work
   of the condition estimate runs on the CPU table too (ops.host), as on
   CUDA. */
#define OCL_ENTRIES(ops, p)                                                    \
  do {                                                                         \
    (ops).getrf = axb_ocl_##p##getrf;                                          \
    (ops).getrs = axb_ocl_##p##getrs;                                          \
    (ops).potrf = axb_ocl_##p##potrf;                                          \
    (ops).potrs = axb_ocl_##p##potrs;                                          \
    (ops).getri = axb_ocl_##p##getri;                                          \
    (ops).gemm = axb_ocl_##p##gemm;                                            \
    (ops).trsm = axb_ocl_##p##trsm;                                            \
  } while (0)

static axb_backend_ops ocl_ops;
static pthread_once_t ocl_ops_once = PTHREAD_ONCE_INIT;

static void ocl_ops_fill(void) {
  const axb_backend_ops *cpu = axb_cpu_ops();
  axb_backend_ops ops;
  memset(&ops, 0, sizeof ops);
  ops.name = "opencl";
  OCL_ENTRIES(ops.d, d);
  OCL_ENTRIES(ops.s, s);
  ops.d.laswp = cpu->d.laswp;
  ops.s.laswp = cpu->s.laswp;
  ops.host = cpu;
  ops.take_transfer_seconds = take_transfer;
  axb__ocl_study_entries(&ops);
  axb__ocl_gj_entries(&ops);
  ocl_ops = ops;
}

const axb_backend_ops *axb_opencl_ops(void) {
  pthread_once(&ocl_ops_once, ocl_ops_fill);
  return &ocl_ops;
}
