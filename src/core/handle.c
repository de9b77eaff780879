/* Handles: backend choice, device, stream and thread count. */
#include "core/internal.h"

#include <stdlib.h>

const char *axb_backend_name(axb_backend b) {
  switch (b) {
  case AXB_BACKEND_AUTO: return "auto";
  case AXB_BACKEND_CPU: return "cpu";
  case AXB_BACKEND_CUDA: return "cuda";
  case AXB_BACKEND_REF: return "ref";
  case AXB_BACKEND_OPENCL: return "opencl";
  }
  return "unknown";
}

int axb_backend_compiled(axb_backend b) {
  if (b == AXB_BACKEND_OPENCL) return axb__opencl_compiled();
  return b == AXB_BACKEND_CUDA ? axb__cuda_compiled() : 1;
}

axb_status axb_opencl_device_count(int *count) {
  if (!count)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: count is NULL", __func__);
  return axb__opencl_device_count(count);
}

axb_status axb_opencl_device_info(int dev, axb_opencl_device *info) {
  if (!info)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: info is NULL", __func__);
  return axb__opencl_device_info(dev, info);
}

axb_status axb_opencl_device_select(int device, int *ordinal) {
  if (!ordinal)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: ordinal is NULL", __func__);
  return axb__opencl_device_select(device, ordinal);
}

axb_status axb_cuda_device_count(int *count) {
  if (!count)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: count is NULL", __func__);
  return axb__cuda_device_count(count);
}

axb_status axb_cuda_device_info(int dev, char *name, size_t name_len,
                                size_t *total_bytes) {
  return axb__cuda_device_info(dev, name, name_len, total_bytes);
}

/* AUTO resolves to the CPU backend; axb_solve and axb_invert move large
   problems to a CUDA sub-handle when a GPU exists (src/core/tune.c). */
static axb_backend resolve_auto(void) { return AXB_BACKEND_CPU; }

axb_status axb_handle_create(axb_handle *out, axb_backend backend, int device) {
  if (!out)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: the handle pointer (out) is NULL", __func__);
  *out = NULL;
  if (backend < AXB_BACKEND_AUTO || backend > AXB_BACKEND_OPENCL)
    return axb__fail(NULL, AXB_ERR_INVALID, "unknown backend %d", (int)backend);
  axb__clear(NULL);
  axb_handle h = axb__calloc(1, sizeof *h);
  if (!h)
    return axb__fail(NULL, AXB_ERR_OUT_OF_MEMORY, "no memory for a handle");
  h->backend = backend == AXB_BACKEND_AUTO ? resolve_auto() : backend;
  h->requested = backend;
  h->device = device;
  switch (h->backend) {
  case AXB_BACKEND_REF: h->ops = &axb_ref_ops; break;
  case AXB_BACKEND_CPU: h->ops = axb_cpu_ops(); break;
  case AXB_BACKEND_CUDA:
  case AXB_BACKEND_OPENCL: {
    /* A device backend: its context first; on failure keep the detail
       message (the handle goes) and return the status. */
    const int cuda = h->backend == AXB_BACKEND_CUDA;
    axb_status st =
        cuda ? axb__cuda_handle_init(h) : axb__opencl_handle_init(h);
    if (st != AXB_SUCCESS) {
      axb__keep_detail(h);
      free(h);
      return st;
    }
    h->ops = cuda ? axb_cuda_ops() : axb_opencl_ops();
    break;
  }
  default: break;
  }
  *out = h;
  return AXB_SUCCESS;
}

axb_status axb_handle_destroy(axb_handle h) {
  if (!h) return AXB_SUCCESS;
  if (h->backend == AXB_BACKEND_CUDA) axb__cuda_handle_fini(h);
  if (h->backend == AXB_BACKEND_OPENCL) axb__opencl_handle_fini(h);
  axb_handle_destroy(h->gpu);
  axb__free(h->work);
  free(h);
  return AXB_SUCCESS;
}

void *axb__handle_work(axb_handle h, int64_t bytes) {
  if (h->work && h->work_bytes >= bytes) return h->work;
  axb__free(h->work);
  h->work = axb__malloc_large(bytes, 1);
  h->work_bytes = h->work ? bytes : 0;
  return h->work;
}

axb_backend axb_handle_backend(axb_handle h) {
  return h ? h->backend : AXB_BACKEND_AUTO;
}

axb_status axb_set_threads(axb_handle h, int nthreads) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL", __func__);
  if (nthreads < 0)
    return axb__fail(h, AXB_ERR_INVALID, "thread count %d is negative",
                     nthreads);
  h->threads = nthreads;
  if (h->gpu) h->gpu->threads = nthreads;
  return AXB_SUCCESS;
}

int axb_get_threads(axb_handle h) { return h ? h->threads : 0; }

axb_status axb_set_stream(axb_handle h, void *stream) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL", __func__);
  if (h->backend != AXB_BACKEND_CUDA)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "a stream only applies to a CUDA handle");
  h->stream = stream ? stream : h->own_stream;
  return AXB_SUCCESS;
}

void *axb_get_stream(axb_handle h) { return h ? h->stream : NULL; }
