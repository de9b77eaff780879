/*
 * CU(call): a CUDA runtime call a benchmark cannot go on without; on
 * failure it prints where and why and exits with status 1.  For the
 * benchmarks in C++ (.cu) and C alike (bench_batched.cu and bench_cuda.c
 * hold copies of their own that may move here).
 */
#ifndef AXB_BENCH_CU_H
#define AXB_BENCH_CU_H

#include <cuda_runtime.h>
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

#endif
