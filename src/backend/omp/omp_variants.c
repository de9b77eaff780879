/* OpenMP study variants, float and double (omp_variants_t.h). */
#include "backend/omp/omp.h"
#include "backend/verdict.h"
#include "core/template.h"

#include <math.h>

/* Last columns of Cholesky-Crout run sequentially (AXB_CHOL_CUTOFF). */
#define OMP_CROUT_CUTOFF 64
/* Orders up to which the study variants do not open a parallel region. */
#define OMP_CROUT_SMALL 128
#define OMP_GJ_STUDY_SMALL 64
/* Rows per iteration of Cholesky-Crout's parallel row loop. */
#define OMP_CROUT_ROWS 64

#define AXB_TEMPLATE "backend/omp/omp_variants_t.h"
#include "core/instantiate.h"
