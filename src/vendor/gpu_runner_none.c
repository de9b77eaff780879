/* Build without CUDA: the GPU runner and the device anchors say so. */
#include "vendor/vendor.h"

int axb_vendor_gpu_compiled(void) { return 0; }

const char *axb_vendor_gpu_version(axb_anchor a) {
  (void)a;
  return "none";
}

axb_status axb_gpu_runner_create(axb_gpu_runner *r, axb_handle h) {
  (void)h;
  if (r) *r = NULL;
  return AXB_ERR_NOT_COMPILED;
}

void axb_gpu_runner_destroy(axb_gpu_runner r) { (void)r; }

axb_status axb_gpu_run(axb_gpu_runner r, axb_anchor impl, axb_gpu_op op,
                       axb_dtype t, int64_t n, int64_t batch, void *A, void *B,
                       int64_t *ipiv, int64_t *info, axb_gpu_times *tm) {
  (void)r, (void)impl, (void)op, (void)t, (void)n, (void)batch, (void)A;
  (void)B, (void)ipiv, (void)info, (void)tm;
  return AXB_ERR_NOT_COMPILED;
}
