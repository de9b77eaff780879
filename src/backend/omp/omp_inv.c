/* Inverses for the CPU backend, float and double (omp_inv_t.h): getri from
   getrf's factors and the blocked Gauss-Jordan inverse.  Without OpenBLAS
   the reference getri stays in the table and the blocked Gauss-Jordan entry
   point runs the reference Gauss-Jordan kernel. */
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"
#include "backend/verdict.h"
#include "core/template.h"

#ifdef AXB_HAVE_LAPACK

/* Block width of getri (triangular inverse and the X L = inv(U) solve). */
#define OMP_GETRI_NB 128
/* Block width of the blocked Gauss-Jordan inverse, and the leaf width of
   its recursive panel. */
#define OMP_GJ_NB 128
#define OMP_GJ_LEAF 16
/* Up to this order getri and Gauss-Jordan run in the calling thread. */
#define OMP_INV_SMALL 512

#define AXB_TEMPLATE "backend/omp/omp_inv_t.h"
#include "core/instantiate.h"

#else

axb_status axb_omp_dgetri_gj_blocked(axb_handle h, int64_t n, double *A,
                                     int64_t lda, int64_t *info) {
  return axb_ref_dgetri_gj(h, n, A, lda, info);
}
axb_status axb_omp_sgetri_gj_blocked(axb_handle h, int64_t n, float *A,
                                     int64_t lda, int64_t *info) {
  return axb_ref_sgetri_gj(h, n, A, lda, info);
}

#endif
