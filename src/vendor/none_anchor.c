/* Build without a BLAS/LAPACK anchor. */
#include "vendor/vendor.h"

const char *axb_blas_info(void) { return "none"; }
