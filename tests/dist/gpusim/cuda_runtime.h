/*
 * Stand-in for the CUDA runtime header, for the host simulation of GPU
 * ranks (tests/dist/gpusim/gpusim.c): only the names src/dist/dist_gpu.c
 * uses, declared from their documented behaviour.  Never on a real CUDA
 * build's include path of the library (only test_dist_gpusim's).
 */
#ifndef AXB_GPUSIM_CUDA_RUNTIME_H
#define AXB_GPUSIM_CUDA_RUNTIME_H
#include <stddef.h>

typedef int cudaError_t;
#define cudaSuccess 0
typedef void *cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
enum cudaMemcpyKind {
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDefault = 4
};
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
};
enum cudaMemLocationType { cudaMemLocationTypeDevice = 1 };
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
#define cudaMemAttachGlobal 1u
#define cudaStreamNonBlocking 1u
#define cudaEventDisableTiming 2u
typedef struct axb_gpusim_event *cudaEvent_t;

cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags);
cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaFree(void *p);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a,
                                     const void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes,
                            enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t bytes,
                                 struct cudaMemLocation loc, unsigned flags,
                                 cudaStream_t s);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags,
                                         int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int device);
cudaError_t cudaGetLastError(void);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceCount(int *count);
#endif
