/* OpenCL entry points when the OpenCL backend is not compiled in (issue
   29: AXB_OPENCL=OFF, or OpenCL/CLBlast not found at configure time). */
#include "core/internal.h"

int axb__opencl_compiled(void) { return 0; }

axb_status axb__opencl_device_count(int *count) {
  *count = 0;
  return AXB_SUCCESS;
}

axb_status axb__opencl_device_info(int dev, axb_opencl_device *info) {
  (void)info;
  return axb__fail(NULL, AXB_ERR_NOT_COMPILED,
                   "OpenCL device %d: this build of axb has no OpenCL backend",
                   dev);
}

axb_status axb__opencl_device_select(int device, int *ordinal) {
  *ordinal = device;
  return axb__fail(NULL, AXB_ERR_NOT_COMPILED,
                   "this build of axb has no OpenCL backend");
}

axb_status axb__opencl_handle_init(axb_handle h) {
  return axb__fail(h, AXB_ERR_NOT_COMPILED,
                   "this build of axb has no OpenCL backend (configure with "
                   "-DAXB_OPENCL=ON after scripts/setup.sh installed "
                   "ocl-icd-opencl-dev, opencl-c-headers and libclblast-dev)");
}

void axb__opencl_handle_fini(axb_handle h) { (void)h; }

const axb_backend_ops *axb_opencl_ops(void) { return NULL; }
