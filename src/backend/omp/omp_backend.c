/*
 * The CPU backend's table: the reference entries, overridden by the
 * OpenMP/OpenBLAS kernels (issue 3).  Without OpenBLAS (AXB_LAPACK=OFF) the
 * BLAS-based entries stay the reference ones; the OpenMP study variants are
 * always there.  Threading policy: see omp.h and docs/PERFORMANCE.md.
 */
#include "backend/backend.h"
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"

#include <pthread.h>

#ifdef AXB_HAVE_LAPACK
#define AXB_OMP_BLAS_ENTRIES(ops, p)                                           \
  do {                                                                         \
    (ops).getrf = axb_omp_##p##getrf;                                          \
    (ops).laswp = axb_omp_##p##laswp;                                          \
    (ops).trsm = axb_omp_##p##trsm;                                            \
    (ops).gemm = axb_omp_##p##gemm;                                            \
    (ops).potrf = axb_omp_##p##potrf;                                          \
    (ops).getri = axb_omp_##p##getri;                                          \
    (ops).getri_gj = axb_omp_##p##getri_gj_blocked;                            \
  } while (0)
#else
#define AXB_OMP_BLAS_ENTRIES(ops, p)                                           \
  do {                                                                         \
    (ops).laswp = axb_omp_##p##laswp;                                          \
  } while (0)
#endif

static axb_backend_ops cpu_ops;
static pthread_once_t cpu_ops_once = PTHREAD_ONCE_INIT;

static void cpu_ops_fill(void) {
  axb_backend_ops ops = axb_ref_ops;
  ops.name = "cpu";
  AXB_OMP_BLAS_ENTRIES(ops.d, d);
  AXB_OMP_BLAS_ENTRIES(ops.s, s);
  ops.d.potrf_crout = axb_omp_dpotrf_crout;
  ops.s.potrf_crout = axb_omp_spotrf_crout;
  /* getri_gj is the production (blocked) Gauss-Jordan; the one-pivot-at-
     a-time OpenMP study variant stays selectable as getri_gj_unblocked. */
  ops.d.getri_gj_unblocked = axb_omp_dgetri_gj;
  ops.s.getri_gj_unblocked = axb_omp_sgetri_gj;
  ops.mixed_host = axb_omp_mixed_kernels(); /* issue 22c */
  cpu_ops = ops;
}

/* Built once, by pthread_once: handles may be created from several threads
   at once (a plain "ready" flag was a data race: ThreadSanitizer, issue
   19). */
const axb_backend_ops *axb_cpu_ops(void) {
  pthread_once(&cpu_ops_once, cpu_ops_fill);
  return &cpu_ops;
}
