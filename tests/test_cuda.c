/* The CUDA backend's glue on a real GPU: device discovery, handle, stream,
   a first dense routine, and the honest "not implemented" of the study
   variants.  Exits 77
   (skipped) where the backend is not compiled or no GPU is present. */
#include "testing.h"

#include <string.h>

int main(void) {
  if (!axb_backend_compiled(AXB_BACKEND_CUDA)) {
    return test_skip("CUDA backend not compiled");
  }
  int count = 0;
  CHECK(axb_cuda_device_count(&count) == AXB_SUCCESS, "device count");
  if (count == 0) {
    axb_handle g = NULL;
    CHECK(axb_handle_create(&g, AXB_BACKEND_CUDA, 0) == AXB_ERR_NO_DEVICE,
          "a CUDA handle without a GPU must fail with NO_DEVICE");
    CHECK(g == NULL, "no handle");
    if (test_failures) return test_finish("test_cuda");
    return test_skip("no CUDA device");
  }
  char name[128] = "";
  size_t mem = 0;
  CHECK(axb_cuda_device_info(0, name, sizeof name, &mem) == AXB_SUCCESS,
        "device info");
  printf("device 0: %s, %.1f GiB\n", name, (double)mem / (1 << 30));
  CHECK(strlen(name) > 0 && mem > 0, "name and memory");
  CHECK(axb_cuda_device_info(count, name, sizeof name, &mem) ==
            AXB_ERR_NO_DEVICE,
        "out-of-range device");
  axb_handle h = NULL;
  CHECK(axb_handle_create(&h, AXB_BACKEND_CUDA, count) == AXB_ERR_NO_DEVICE,
        "out-of-range ordinal");
  CHECK(strstr(axb_detail(NULL), "does not exist") != NULL,
        "the failed creation's detail: '%s'", axb_detail(NULL));
  CHECK_STATUS(h, axb_handle_create(&h, AXB_BACKEND_CUDA, 0), AXB_SUCCESS);
  CHECK(axb_handle_backend(h) == AXB_BACKEND_CUDA, "backend");
  CHECK(axb_get_stream(h) != NULL, "the handle owns a stream");
  /* The dense kernels run: a 2 x 2 LU, and the study variants that have
     no CUDA kernel answer an honest NOT_SUPPORTED naming the backend. */
  double a[4] = {2, 0, 0, 2};
  int64_t ipiv[2], info;
  CHECK_STATUS(h, axb_dgetrf(h, 2, 2, a, 2, ipiv, &info), AXB_SUCCESS);
  CHECK(a[0] == 2 && a[3] == 2 && ipiv[0] == 1 && ipiv[1] == 2, "2x2 LU");
  CHECK_STATUS(h, axb_dpotrf_banachiewicz(h, 2, a, 2, &info),
               AXB_ERR_NOT_SUPPORTED);
  CHECK(strstr(axb_detail(h), "cuda") != NULL, "detail: %s", axb_detail(h));
  axb_handle_destroy(h);
  return test_finish("test_cuda");
}
