/*
 * OpenBLAS as a comparison anchor (benchmarks and tests run LAPACK beside
 * axb in the same process).  OpenBLAS from Debian uses 32-bit LAPACK
 * integers, so the anchors refuse sizes above INT32_MAX.
 */
#include "vendor/vendor.h"

#include <stdio.h>

char *openblas_get_config(void);

const char *axb_blas_info(void) {
  static char buf[256];
  snprintf(buf, sizeof buf, "OpenBLAS (%s)", openblas_get_config());
  return buf;
}
