/* axb info's OpenCL part (issue 29): platforms and devices in axb's order
   (the ordinal --device and AXB_OPENCL_DEVICE take), with the device that
   a default OpenCL handle uses. */
#include "cli.h"

static int selected(void) {
  int ord = -1;
  return axb_opencl_device_select(0, &ord) == AXB_SUCCESS ? ord : -1;
}

void cli_info_opencl_human(void) {
  int n = 0;
  axb_opencl_device_count(&n);
  const int sel = selected();
  printf("  %-14s%d%s\n", "OpenCL devs", n,
         axb_backend_compiled(AXB_BACKEND_OPENCL) ? ""
                                                  : " (backend not compiled)");
  for (int i = 0; i < n; ++i) {
    axb_opencl_device d;
    if (axb_opencl_device_info(i, &d) != AXB_SUCCESS) continue;
    printf("    device %d (%d:%d): %s [%s], %s, %d compute units, %.1f GiB, "
           "%s%s\n",
           i, d.platform_index, d.device_index, d.name, d.platform,
           d.is_gpu ? "GPU" : "not a GPU", d.compute_units,
           (double)d.global_bytes / (1024.0 * 1024.0 * 1024.0),
           d.fp64 ? "float and double" : "float only (no cl_khr_fp64)",
           i == sel ? "  <- --backend opencl" : "");
  }
}

void cli_info_opencl_json(void) {
  int n = 0;
  axb_opencl_device_count(&n);
  printf(", \"opencl_selected\": %d, \"opencl_devices\": [", selected());
  for (int i = 0, k = 0; i < n; ++i) {
    axb_opencl_device d;
    if (axb_opencl_device_info(i, &d) != AXB_SUCCESS) continue;
    printf("%s{\"index\": %d, \"platform_index\": %d, \"device_index\": %d, "
           "\"name\": ",
           k++ ? ", " : "", i, d.platform_index, d.device_index);
    cli_json_string(stdout, d.name);
    printf(", \"platform\": ");
    cli_json_string(stdout, d.platform);
    printf(", \"version\": ");
    cli_json_string(stdout, d.version);
    printf(", \"gpu\": %s, \"fp64\": %s, \"compute_units\": %d, "
           "\"memory_bytes\": %llu}",
           d.is_gpu ? "true" : "false", d.fp64 ? "true" : "false",
           d.compute_units, (unsigned long long)d.global_bytes);
  }
  printf("]");
}
