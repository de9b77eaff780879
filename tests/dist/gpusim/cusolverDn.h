/*
 * Stand-in for cuSOLVER's dense header, for the host simulation of GPU
 * ranks (tests/dist/gpusim/gpusim.c): the getrf calls src/dist/dist_gpu.c
 * makes (the one-process-row panel), with cuSOLVER's documented meaning
 * (1-based pivots, devInfo the first zero pivot).
 */
#ifndef AXB_GPUSIM_CUSOLVERDN_H
#define AXB_GPUSIM_CUSOLVERDN_H
#include "cuda_runtime.h"

typedef struct axb_gpusim_solver *cusolverDnHandle_t;
typedef int cusolverStatus_t;
#define CUSOLVER_STATUS_SUCCESS 0

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *h);
#define AXB_GPUSIM_SOLVER(T, P)                                                \
  cusolverStatus_t cusolverDn##P##getrf_bufferSize(                            \
      cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork);          \
  cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n,    \
                                        T *A, int lda, T *work, int *ipiv,     \
                                        int *info);
AXB_GPUSIM_SOLVER(double, D)
AXB_GPUSIM_SOLVER(float, S)
#undef AXB_GPUSIM_SOLVER
#endif
