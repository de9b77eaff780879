/* CUDA entry points when the CUDA backend is not compiled in. */
#include "core/internal.h"

int axb__cuda_compiled(void) { return 0; }

axb_status axb__cuda_device_count(int *count) {
  *count = 0;
  return AXB_SUCCESS;
}

axb_status axb__cuda_device_info(int dev, char *name, size_t name_len,
                                 size_t *total_bytes) {
  (void)dev;
  (void)name;
  (void)name_len;
  (void)total_bytes;
  return AXB_ERR_NOT_COMPILED;
}

axb_status axb__cuda_handle_init(axb_handle h) {
  return axb__fail(h, AXB_ERR_NOT_COMPILED,
                   "this build of axb has no CUDA backend (configure with "
                   "-DAXB_CUDA=ON on a machine with nvcc)");
}

void axb__cuda_handle_fini(axb_handle h) { (void)h; }

const axb_backend_ops *axb_cuda_ops(void) { return NULL; }
