/*
 * The OpenCL backend's GEMM (issue 29): on a CPU device our gemm_cpu
 * kernel (gemm_cpu.cl: CLBlast's GPU-shaped kernel ran at 8.7 GFLOP/s
 * under PoCL 5.0 on 2 cores, ours at 53, docs/notes/opencl.md), on a GPU
 * CLBlast's.  AXB_OPENCL_CPU_GEMM=clblast keeps CLBlast on CPU devices
 * too (with the handle's scratch there, axb__ocl_gemm_tmp).
 */
#include "backend/opencl/ocl.h"

/* CLBlast's GEMM, with the handle's scratch on a CPU device. */
static axb_status blast_gemm(axb_handle h, const char *what, int dbl, int ta,
                             int tb, size_t m, size_t n, size_t k, double alpha,
                             cl_mem A, size_t a0, size_t lda, cl_mem B,
                             size_t b0, size_t ldb, double beta, cl_mem C,
                             size_t c0, size_t ldc) {
  cl_command_queue q = axb__ocl(h)->q;
  const CLBlastLayout L = CLBlastLayoutColMajor;
  const CLBlastTranspose TA = ta ? CLBlastTransposeYes : CLBlastTransposeNo,
                         TB = tb ? CLBlastTransposeYes : CLBlastTransposeNo;
  size_t bytes = 0;
  cl_mem tmp = NULL;
  int own = 0;
  CLBlastStatusCode s = CLBlastSuccess;
  if (axb__ocl(h)->cpu_dev) {
    s = dbl ? CLBlastDGemmTempBufferSize(L, TA, TB, m, n, k, a0, lda, b0, ldb,
                                         c0, ldc, &q, &bytes)
            : CLBlastSGemmTempBufferSize(L, TA, TB, m, n, k, a0, lda, b0, ldb,
                                         c0, ldc, &q, &bytes);
    if (s == CLBlastSuccess)
      s = (CLBlastStatusCode)axb__ocl_gemm_tmp(h, bytes, &tmp, &own);
  }
  if (s != CLBlastSuccess) return axb__ocl_blast(h, s, what);
  if (dbl)
    s = tmp ? CLBlastDgemmWithTempBuffer(L, TA, TB, m, n, k, alpha, A, a0, lda,
                                         B, b0, ldb, beta, C, c0, ldc, &q, NULL,
                                         tmp)
            : CLBlastDgemm(L, TA, TB, m, n, k, alpha, A, a0, lda, B, b0, ldb,
                           beta, C, c0, ldc, &q, NULL);
  else
    s = tmp ? CLBlastSgemmWithTempBuffer(L, TA, TB, m, n, k, (float)alpha, A,
                                         a0, lda, B, b0, ldb, (float)beta, C,
                                         c0, ldc, &q, NULL, tmp)
            : CLBlastSgemm(L, TA, TB, m, n, k, (float)alpha, A, a0, lda, B, b0,
                           ldb, (float)beta, C, c0, ldc, &q, NULL);
  if (own) clReleaseMemObject(tmp); /* freed once the GEMM is done */
  return axb__ocl_blast(h, s, what);
}

/* A scalar kernel argument of the precision: its bytes in *buf. */
static size_t real_arg(int dbl, double v, double *d, float *f) {
  *d = v;
  *f = (float)v;
  return dbl ? sizeof *d : sizeof *f;
}

/* T (m x k, ld m) := the k x m block of A at a0 transposed, in the
   handle's GEMM scratch (*tmp; *own: a buffer of its own to release). */
static axb_status transpose_a(axb_handle h, const char *what, int dbl, size_t m,
                              size_t k, cl_mem A, size_t a0, size_t lda,
                              cl_mem *tmp, int *own) {
  const size_t es = dbl ? sizeof(double) : sizeof(float);
  const cl_int err = axb__ocl_gemm_tmp(h, m * k * es, tmp, own);
  if (err != CL_SUCCESS) return axb__ocl_check(h, err, what);
  const cl_int rows = (cl_int)k, cols = (cl_int)m;
  const cl_long o = (cl_long)a0, ld = (cl_long)lda, ldt = (cl_long)m;
  const size_t sz[] = {sizeof rows, sizeof cols, sizeof A,  sizeof o,
                       sizeof ld,   sizeof *tmp, sizeof ldt};
  const void *const v[] = {&rows, &cols, &A, &o, &ld, tmp, &ldt};
  return axb__ocl_run(h, dbl, OCL_TRANSPOSE_CPU, (k + 15) / 16, (m + 15) / 16,
                      1, 1, 7, sz, v);
}

static axb_status cpu_gemm(axb_handle h, const char *what, int dbl, int ta,
                           int tb, size_t m, size_t n, size_t k, double alpha,
                           cl_mem A, size_t a0, size_t lda, cl_mem B, size_t b0,
                           size_t ldb, double beta, cl_mem C, size_t c0,
                           size_t ldc) {
  cl_mem tmp = NULL;
  int own = 0;
  axb_status st = AXB_SUCCESS;
  if (ta && k > 0) {
    st = transpose_a(h, what, dbl, m, k, A, a0, lda, &tmp, &own);
    A = tmp;
    a0 = 0;
    lda = m;
  }
  const size_t mr = dbl ? 16 : 32, nr = 8; /* gemm_cpu.cl's tile */
  const cl_int M = (cl_int)m, N = (cl_int)n, K = (cl_int)k, TB = tb != 0;
  const cl_long ao = (cl_long)a0, la = (cl_long)lda, bo = (cl_long)b0,
                lb = (cl_long)ldb, co = (cl_long)c0, lc = (cl_long)ldc;
  double ad, bd;
  float af, bf;
  const size_t as = real_arg(dbl, alpha, &ad, &af),
               bs = real_arg(dbl, beta, &bd, &bf);
  const size_t sz[] = {sizeof M,  sizeof N,  sizeof K, as,        sizeof A,
                       sizeof ao, sizeof la, sizeof B, sizeof bo, sizeof lb,
                       sizeof TB, bs,        sizeof C, sizeof co, sizeof lc};
  const void *const v[] = {
      &M,  &N,  &K,  dbl ? (const void *)&ad : &af, &A, &ao, &la, &B,
      &bo, &lb, &TB, dbl ? (const void *)&bd : &bf, &C, &co, &lc};
  if (!st)
    st = axb__ocl_run(h, dbl, OCL_GEMM_CPU, (m + mr - 1) / mr,
                      (n + nr - 1) / nr, 1, 1, 15, sz, v);
  if (own) clReleaseMemObject(tmp); /* freed once the GEMM is done */
  return st;
}

axb_status axb__ocl_gemm(axb_handle h, const char *what, int dbl, int ta,
                         int tb, size_t m, size_t n, size_t k, double alpha,
                         cl_mem A, size_t a0, size_t lda, cl_mem B, size_t b0,
                         size_t ldb, double beta, cl_mem C, size_t c0,
                         size_t ldc) {
  if (m == 0 || n == 0) return AXB_SUCCESS;
  if (axb__ocl(h)->own_gemm)
    return cpu_gemm(h, what, dbl, ta, tb, m, n, k, alpha, A, a0, lda, B, b0,
                    ldb, beta, C, c0, ldc);
  return blast_gemm(h, what, dbl, ta, tb, m, n, k, alpha, A, a0, lda, B, b0,
                    ldb, beta, C, c0, ldc);
}
