/* cuSOLVER anchor (see cusolver_anchor.h). */
#include "cusolver_anchor.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <new>
#include <stdlib.h>

struct axb_cusolver {
  cusolverDnHandle_t dn = nullptr;
  cusolverDnParams_t params = nullptr;
  cudaStream_t stream = nullptr;
  void *dwork = nullptr;
  size_t dwork_bytes = 0;
  void *hwork = nullptr;
  size_t hwork_bytes = 0;
};

static cudaDataType dtype_of(axb_dtype t) {
  return t == AXB_F64 ? CUDA_R_64F : CUDA_R_32F;
}
static cublasFillMode_t fill_of(axb_uplo u) {
  return u == AXB_LOWER ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

/* Grow the workspaces to the queried sizes (synchronises only when they
   grow, i.e. not in timed loops after a warm-up). */
static int reserve(axb_cusolver *s, size_t dbytes, size_t hbytes) {
  if (dbytes > s->dwork_bytes) {
    cudaStreamSynchronize(s->stream);
    cudaFree(s->dwork);
    s->dwork = nullptr;
    s->dwork_bytes = 0;
    cudaError_t e = cudaMalloc(&s->dwork, dbytes);
    if (e != cudaSuccess) return -(int)e;
    s->dwork_bytes = dbytes;
  }
  if (hbytes > s->hwork_bytes) {
    free(s->hwork);
    s->hwork = malloc(hbytes);
    if (!s->hwork) return -1;
    s->hwork_bytes = hbytes;
  }
  return 0;
}

extern "C" int axb_cusolver_create(axb_cusolver **out, void *stream) {
  *out = nullptr;
  axb_cusolver *s = new (std::nothrow) axb_cusolver();
  if (!s) return -1;
  s->stream = (cudaStream_t)stream;
  cusolverStatus_t st = cusolverDnCreate(&s->dn);
  if (st == CUSOLVER_STATUS_SUCCESS) st = cusolverDnSetStream(s->dn, s->stream);
  if (st == CUSOLVER_STATUS_SUCCESS) st = cusolverDnCreateParams(&s->params);
  if (st != CUSOLVER_STATUS_SUCCESS) {
    axb_cusolver_destroy(s);
    return -(int)st;
  }
  *out = s;
  return 0;
}

extern "C" void axb_cusolver_destroy(axb_cusolver *s) {
  if (!s) return;
  if (s->params) cusolverDnDestroyParams(s->params);
  if (s->dn) cusolverDnDestroy(s->dn);
  cudaFree(s->dwork);
  free(s->hwork);
  delete s;
}

extern "C" int axb_cusolver_version(void) {
  int v = 0;
  cusolverGetVersion(&v);
  return v;
}

extern "C" int axb_cusolver_getrf(axb_cusolver *s, axb_dtype t, int64_t n,
                                  void *dA, int64_t lda, int64_t *dipiv,
                                  int *dinfo) {
  size_t db = 0, hb = 0;
  cudaDataType dt = dtype_of(t);
  cusolverStatus_t st = cusolverDnXgetrf_bufferSize(s->dn, s->params, n, n, dt,
                                                    dA, lda, dt, &db, &hb);
  if (st != CUSOLVER_STATUS_SUCCESS) return -(int)st;
  int r = reserve(s, db, hb);
  if (r) return r;
  st = cusolverDnXgetrf(s->dn, s->params, n, n, dt, dA, lda, dipiv, dt,
                        s->dwork, db, s->hwork, hb, dinfo);
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -(int)st;
}

extern "C" int axb_cusolver_getrs(axb_cusolver *s, axb_dtype t, int64_t n,
                                  int64_t nrhs, const void *dA, int64_t lda,
                                  const int64_t *dipiv, void *dB, int64_t ldb,
                                  int *dinfo) {
  cudaDataType dt = dtype_of(t);
  cusolverStatus_t st =
      cusolverDnXgetrs(s->dn, s->params, CUBLAS_OP_N, n, nrhs, dt, dA, lda,
                       dipiv, dt, dB, ldb, dinfo);
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -(int)st;
}

extern "C" int axb_cusolver_potrf(axb_cusolver *s, axb_dtype t, axb_uplo uplo,
                                  int64_t n, void *dA, int64_t lda,
                                  int *dinfo) {
  size_t db = 0, hb = 0;
  cudaDataType dt = dtype_of(t);
  cusolverStatus_t st = cusolverDnXpotrf_bufferSize(
      s->dn, s->params, fill_of(uplo), n, dt, dA, lda, dt, &db, &hb);
  if (st != CUSOLVER_STATUS_SUCCESS) return -(int)st;
  int r = reserve(s, db, hb);
  if (r) return r;
  st = cusolverDnXpotrf(s->dn, s->params, fill_of(uplo), n, dt, dA, lda, dt,
                        s->dwork, db, s->hwork, hb, dinfo);
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -(int)st;
}

extern "C" int axb_cusolver_potrs(axb_cusolver *s, axb_dtype t, axb_uplo uplo,
                                  int64_t n, int64_t nrhs, const void *dA,
                                  int64_t lda, void *dB, int64_t ldb,
                                  int *dinfo) {
  cudaDataType dt = dtype_of(t);
  cusolverStatus_t st = cusolverDnXpotrs(s->dn, s->params, fill_of(uplo), n,
                                         nrhs, dt, dA, lda, dt, dB, ldb, dinfo);
  return st == CUSOLVER_STATUS_SUCCESS ? 0 : -(int)st;
}
