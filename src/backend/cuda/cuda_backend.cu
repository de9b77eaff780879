/*
 * CUDA backend glue: device discovery, per-handle device and stream.
 * The dense kernels arrive with issue 4; until then the table is empty and
 * every routine on a CUDA handle returns AXB_ERR_NOT_SUPPORTED.
 */
#include <cuda_runtime.h>

#include <string.h>

extern "C" {
#include "core/internal.h"
}

extern "C" int axb__cuda_compiled(void) { return 1; }

extern "C" axb_status axb__cuda_device_count(int *count) {
  int n = 0;
  /* No driver or no GPU: report zero devices, which is not an error. */
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky-free error state */
    n = 0;
  }
  *count = n;
  return AXB_SUCCESS;
}

extern "C" axb_status axb__cuda_device_info(int dev, char *name,
                                            size_t name_len,
                                            size_t *total_bytes) {
  int n = 0;
  axb__cuda_device_count(&n);
  if (dev < 0 || dev >= n) return AXB_ERR_NO_DEVICE;
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return AXB_ERR_DEVICE;
  if (name && name_len) {
    strncpy(name, prop.name, name_len - 1);
    name[name_len - 1] = '\0';
  }
  if (total_bytes) *total_bytes = prop.totalGlobalMem;
  return AXB_SUCCESS;
}

extern "C" axb_status axb__cuda_handle_init(axb_handle h) {
  int n = 0;
  axb__cuda_device_count(&n);
  if (n == 0) return axb__fail(h, AXB_ERR_NO_DEVICE, "no CUDA device found");
  if (h->device < 0 || h->device >= n)
    return axb__fail(h, AXB_ERR_NO_DEVICE,
                     "CUDA device %d does not exist (%d found)", h->device, n);
  /* The stream belongs to h->device; the caller's current device is
     restored afterwards (no hidden global state). */
  int previous = 0;
  cudaError_t e = cudaGetDevice(&previous);
  if (e == cudaSuccess) e = cudaSetDevice(h->device);
  cudaStream_t s = NULL;
  if (e == cudaSuccess)
    e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaSetDevice(previous);
  if (e != cudaSuccess)
    return axb__fail(h, AXB_ERR_DEVICE, "CUDA: %s", cudaGetErrorString(e));
  h->own_stream = s;
  h->stream = s;
  return AXB_SUCCESS;
}

extern "C" void axb__cuda_handle_fini(axb_handle h) {
  if (h->own_stream) cudaStreamDestroy((cudaStream_t)h->own_stream);
  h->own_stream = NULL;
  h->stream = NULL;
}

static axb_backend_ops cuda_ops;

extern "C" const axb_backend_ops *axb_cuda_ops(void) {
  cuda_ops.name = "cuda";
  return &cuda_ops;
}
