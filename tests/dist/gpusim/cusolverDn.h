/*
 * Stand-in for cuSOLVER's dense header, for the host simulation of GPU
 * ranks (tests/dist/gpusim/gpusim.c): the getrf, potrf and laswp calls
 * src/dist/dist_gpu.c makes (the one-process-row LU panel, the Cholesky's
 * diagonal block), with cuSOLVER's documented meaning (1-based pivots,
 * devInfo the first zero pivot or the order of the failed minor).
 */
#ifndef AXB_GPUSIM_CUSOLVERDN_H
#define AXB_GPUSIM_CUSOLVERDN_H
#include "cublas_v2.h"
#include "cuda_runtime.h"

typedef struct axb_gpusim_solver *cusolverDnHandle_t;
typedef int cusolverStatus_t;
#define CUSOLVER_STATUS_SUCCESS 0

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *h);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t h, cudaStream_t s);
#define AXB_GPUSIM_SOLVER(T, P)                                                \
  cusolverStatus_t cusolverDn##P##getrf_bufferSize(                            \
      cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork);          \
  cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n,    \
                                        T *A, int lda, T *work, int *ipiv,     \
                                        int *info);                            \
  cusolverStatus_t cusolverDn##P##potrf_bufferSize(                            \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda,       \
      int *lwork);                                                             \
  cusolverStatus_t cusolverDn##P##potrf(                                       \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda,       \
      T *work, int lwork, int *info);                                          \
  cusolverStatus_t cusolverDn##P##laswp(cusolverDnHandle_t h, int n, T *A,     \
                                        int lda, int k1, int k2,               \
                                        const int *ipiv, int incx);
AXB_GPUSIM_SOLVER(double, D)
AXB_GPUSIM_SOLVER(float, S)
#undef AXB_GPUSIM_SOLVER
#endif
