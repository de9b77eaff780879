/* The source documents' OpenCL variants (SEEDS.md): none yet (issue 29's
   later slice); their table entries stay NULL (NOT_SUPPORTED). */
#include "backend/opencl/ocl.h"

void axb__ocl_study_entries(axb_backend_ops *ops) { (void)ops; }
