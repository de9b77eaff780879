/*
 * The CUDA study kernels' entry into the table (cuda_study.cu): iterative
 * Crout (getrf_fixedpoint), column Cholesky (potrf_columns, potrf_crout),
 * per-pivot Gauss-Jordan (getri_gj, getri_gj_unblocked).
 */
#ifndef AXB_CUDA_STUDY_H
#define AXB_CUDA_STUDY_H

#include "cuda_internal.h"

namespace axb_cuda {
/* Override the study entries of the CUDA table (after fill_table). */
void fill_study_table(axb_backend_ops *ops);
} // namespace axb_cuda

#endif
