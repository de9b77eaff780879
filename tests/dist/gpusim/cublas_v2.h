/*
 * Stand-in for cuBLAS's header, for the host simulation of GPU ranks
 * (tests/dist/gpusim/gpusim.c): the calls src/dist/dist_gpu.c makes, with
 * cuBLAS's documented meaning (column-major, 1-based amax index).
 */
#ifndef AXB_GPUSIM_CUBLAS_V2_H
#define AXB_GPUSIM_CUBLAS_V2_H
#include "cuda_runtime.h"

typedef struct axb_gpusim_blas *cublasHandle_t;
typedef int cublasStatus_t;
#define CUBLAS_STATUS_SUCCESS 0
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_FILL_MODE_LOWER = 0,
  CUBLAS_FILL_MODE_UPPER = 1
} cublasFillMode_t;
typedef enum {
  CUBLAS_DIAG_NON_UNIT = 0,
  CUBLAS_DIAG_UNIT = 1
} cublasDiagType_t;

cublasStatus_t cublasCreate(cublasHandle_t *h);
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s);

#define AXB_GPUSIM_BLAS(T, P, p)                                               \
  cublasStatus_t cublas##P##gemm(                                              \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,     \
      int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,  \
      const T *beta, T *C, int ldc);                                           \
  cublasStatus_t cublas##P##trsm(                                              \
      cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n,            \
      const T *alpha, const T *A, int lda, T *B, int ldb);                     \
  cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T *x, int incx,      \
                                 T *y, int incy);                              \
  cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x,          \
                                 int incx, T *y, int incy);                    \
  cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *alpha,      \
                                 T *x, int incx);                              \
  cublasStatus_t cublas##P##asum(cublasHandle_t h, int n, const T *x,          \
                                 int incx, T *result);                         \
  cublasStatus_t cublasI##p##amax(cublasHandle_t h, int n, const T *x,         \
                                  int incx, int *result);                      \
  cublasStatus_t cublas##P##ger(cublasHandle_t h, int m, int n,                \
                                const T *alpha, const T *x, int incx,          \
                                const T *y, int incy, T *A, int lda);          \
  cublasStatus_t cublas##P##syrk(cublasHandle_t h, cublasFillMode_t uplo,      \
                                 cublasOperation_t trans, int n, int k,        \
                                 const T *alpha, const T *A, int lda,          \
                                 const T *beta, T *C, int ldc);
AXB_GPUSIM_BLAS(double, D, d)
AXB_GPUSIM_BLAS(float, S, s)
#undef AXB_GPUSIM_BLAS
#endif
