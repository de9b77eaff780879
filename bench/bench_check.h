/*
 * bench_check.h: the error checks of the CUDA benchmark programs, C and
 * CUDA C++ (a benchmark that meets a failed call says where and stops).
 *   CU(call)   a CUDA runtime call that must return cudaSuccess
 *   OK(call)   a call (axb, cuBLAS, cuSOLVER) that must return 0
 */
#ifndef AXB_BENCH_CHECK_H
#define AXB_BENCH_CHECK_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#define CU(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call,             \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define OK(call)                                                               \
  do {                                                                         \
    long long e_ = (long long)(call);                                          \
    if (e_ != 0) {                                                             \
      fprintf(stderr, "%s:%d %s: status %lld\n", __FILE__, __LINE__, #call,    \
              e_);                                                             \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif
