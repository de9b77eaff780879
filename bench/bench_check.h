/*
 * bench_check.h: the error checks of the CUDA benchmark programs, C and
 * CUDA C++ (a benchmark that meets a failed call says where and stops).
 *   CU(call)   a CUDA runtime call that must return cudaSuccess
 *   OK(call)   a call (axb, cuBLAS, cuSOLVER) that must return 0
 *   bench_event_ms (CUDA C++)  ms per call of back-to-back calls, by events
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

#ifdef __cplusplus
/* Milliseconds per call of `calls` back-to-back calls of body() on stream
   s, between the events e0 and e1 (waits for e1). */
template <typename Body>
static inline float bench_event_ms(cudaStream_t s, cudaEvent_t e0,
                                   cudaEvent_t e1, int calls, Body body) {
  CU(cudaEventRecord(e0, s));
  for (int c = 0; c < calls; ++c)
    body();
  CU(cudaEventRecord(e1, s));
  CU(cudaEventSynchronize(e1));
  float ms = 0;
  CU(cudaEventElapsedTime(&ms, e0, e1));
  return ms / calls;
}
#endif

#endif
