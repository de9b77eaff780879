/*
 * CUDA backend glue: device discovery, per-handle device, stream and
 * context (cuBLAS handle, transfer clock), error helpers and the table.
 * The dense algorithms are in cuda_dense.cu, the kernels in cuda_kernels.cu.
 */
#include "cuda_internal.h"
#include "cuda_study.h"
#include "sparse/cuda/spcuda.h"

#include <mutex>
#include <string.h>
#include <vector>

namespace axb_cuda {

/* Contexts by handle: the handle struct (src/core) has no slot for them. */
static std::mutex contexts_lock;
static std::vector<Context *> contexts;

Context *context(axb_handle h) {
  std::lock_guard<std::mutex> g(contexts_lock);
  for (Context *c : contexts)
    if (c->h == h) return c;
  return nullptr;
}

axb_status fail_cuda(axb_handle h, cudaError_t e, const char *what) {
  cudaGetLastError(); /* clear a non-sticky error */
  axb_status st =
      e == cudaErrorMemoryAllocation ? AXB_ERR_OUT_OF_MEMORY : AXB_ERR_DEVICE;
  return axb__fail(h, st, "CUDA: %s (%s)", cudaGetErrorString(e), what);
}

axb_status fail_blas(axb_handle h, cublasStatus_t e, const char *what) {
  axb_status st =
      e == CUBLAS_STATUS_ALLOC_FAILED ? AXB_ERR_OUT_OF_MEMORY : AXB_ERR_DEVICE;
  return axb__fail(h, st, "cuBLAS: %s (%s)", cublasGetStatusString(e), what);
}

} // namespace axb_cuda

using namespace axb_cuda;

/*
 * The handle's pool for stream-ordered scratch.  Why not the device's
 * default pool: it returns every freed byte to the driver at each
 * synchronisation (release threshold 0), so a small call after a sync maps
 * its scratch afresh: 60 us of a 0.42 ms dpotrf at n = 1024 (H100,
 * the default pool told to keep its memory: 0.42 -> 0.36 ms).  Ours keeps up to
 * kPoolKeep bytes between calls and trims above it; the caller's pools are
 * untouched.
 */
constexpr uint64_t kPoolKeep = 256ull << 20;
static void pool_init(Context *c, int device) {
  cudaMemPoolProps p = {};
  p.allocType = cudaMemAllocationTypePinned;
  p.location.type = cudaMemLocationTypeDevice;
  p.location.id = device;
  if (cudaMemPoolCreate(&c->pool, &p) != cudaSuccess) {
    cudaGetLastError(); /* not fatal: the default pool serves (dmalloc) */
    c->pool = nullptr;
    return;
  }
  uint64_t keep = kPoolKeep;
  if (cudaMemPoolSetAttribute(c->pool, cudaMemPoolAttrReleaseThreshold,
                              &keep) != cudaSuccess)
    cudaGetLastError(); /* a pool that trims at every sync still works */
}

cudaError_t axb_cuda::dmalloc(axb_handle h, void **p, size_t bytes,
                              cudaStream_t s) {
  Context *c = context(h);
  if (c && c->pool) return cudaMallocFromPoolAsync(p, bytes, c->pool, s);
  return cudaMallocAsync(p, bytes, s);
}

/* Releases what a context holds (members never created are null). */
static void context_destroy(axb_handle h, Context *c) {
  DeviceScope scope(h->device);
  if (c->fast) cudaStreamSynchronize(c->fast);
  if (c->blas_fast) cublasDestroy(c->blas_fast);
  if (c->blas) cublasDestroy(c->blas);
  if (c->ev_fast) cudaEventDestroy(c->ev_fast);
  if (c->ev_main) cudaEventDestroy(c->ev_main);
  if (c->fast) cudaStreamDestroy(c->fast);
  staging_release(c);
  cudaEventDestroy(c->t0);
  cudaEventDestroy(c->t1);
  /* allocations still outstanding keep the pool alive until freed */
  if (c->pool) cudaMemPoolDestroy(c->pool);
  delete c;
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
  /* The context: cuBLAS handle and transfer events on h->device. */
  Context *c = new (std::nothrow) Context();
  if (!c) {
    axb__cuda_handle_fini(h);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for CUDA context");
  }
  c->h = h;
  {
    DeviceScope scope(h->device);
    cublasStatus_t b = cublasCreate(&c->blas);
    if (b != CUBLAS_STATUS_SUCCESS) {
      delete c;
      axb__cuda_handle_fini(h);
      return fail_blas(h, b, "cublasCreate");
    }
    cudaEventCreate(&c->t0);
    cudaEventCreate(&c->t1);
    cudaDeviceGetAttribute(&c->sm_count, cudaDevAttrMultiProcessorCount,
                           h->device);
    /* The look-ahead stream: the greatest priority the device offers, so
       that panel blocks are scheduled before queued trailing-update ones. */
    int lo = 0, hi = 0;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    cudaError_t e2 =
        cudaStreamCreateWithPriority(&c->fast, cudaStreamNonBlocking, hi);
    if (e2 == cudaSuccess)
      e2 = cudaEventCreateWithFlags(&c->ev_fast, cudaEventDisableTiming);
    if (e2 == cudaSuccess)
      e2 = cudaEventCreateWithFlags(&c->ev_main, cudaEventDisableTiming);
    if (e2 == cudaSuccess) e2 = staging_init(c);
    if (e2 == cudaSuccess) pool_init(c, h->device);
    cublasStatus_t b2 = e2 == cudaSuccess ? cublasCreate(&c->blas_fast)
                                          : CUBLAS_STATUS_NOT_INITIALIZED;
    if (b2 == CUBLAS_STATUS_SUCCESS)
      b2 = cublasSetStream(c->blas_fast, c->fast);
    if (e2 != cudaSuccess || b2 != CUBLAS_STATUS_SUCCESS) {
      context_destroy(h, c);
      axb__cuda_handle_fini(h);
      return e2 != cudaSuccess ? axb__fail(h, AXB_ERR_DEVICE, "CUDA: %s",
                                           cudaGetErrorString(e2))
                               : fail_blas(h, b2, "cublasCreate (look-ahead)");
    }
  }
  std::lock_guard<std::mutex> g(contexts_lock);
  contexts.push_back(c);
  return AXB_SUCCESS;
}

extern "C" void axb__cuda_handle_fini(axb_handle h) {
  Context *c = nullptr;
  axb__sparse_cuda_release(h); /* while the handle's stream still exists */
  {
    std::lock_guard<std::mutex> g(contexts_lock);
    for (size_t i = 0; i < contexts.size(); ++i)
      if (contexts[i]->h == h) {
        c = contexts[i];
        contexts.erase(contexts.begin() + (long)i);
        break;
      }
  }
  if (c) context_destroy(h, c);
  if (h->own_stream) cudaStreamDestroy((cudaStream_t)h->own_stream);
  h->own_stream = NULL;
  h->stream = NULL;
}

static axb_backend_ops cuda_ops;
static std::once_flag cuda_ops_once;

extern "C" const axb_backend_ops *axb_cuda_ops(void) {
  std::call_once(cuda_ops_once, [] {
    cuda_ops.name = "cuda";
    fill_table(&cuda_ops);
    fill_study_table(&cuda_ops);
    fill_gj_table(&cuda_ops);
    fill_mixed_table(&cuda_ops);
  });
  return &cuda_ops;
}
