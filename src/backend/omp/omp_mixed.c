/*
 * The CPU table's kernels for the host mixed-precision session
 * (backend.h, axb_mixed_host_kernels; src/dense/mixed_host.c uses them):
 * OpenBLAS's own sgetrf, dgemv, dsymv and strsv (below 4 threads), each on the
 * handle's threads.  Why (bench/results/mixed-2core-vm, docs/notes/mixed.md,
 * "The CPU path on the 2-core VM"):
 *   - a refinement step is one product y = A x with the FP64 A and two
 *     triangular solves with the FP32 factor, one vector each: they run at
 *     the speed the matrix is read.  OpenBLAS's threaded dgemv read A at
 *     ~3x the speed of the session's own row-blocked loop (4.8 against
 *     14.7 ms at n = 4096 on 2 threads); its strsv pair took 4.7 ms where
 *     the table's getrs (interchanges + our few-columns trsm) took 6.5.
 *   - OpenBLAS's sgetrf was 1.1-1.2x the table's getrf on 2 threads at
 *     4096 on a quiet VM (300 against 361 ms), but beside other processes
 *     its threads wait for each other by spinning and it took 2-5x the
 *     table's LU (1.5-3.8 s against 0.7 s, load ~4 on 2 cores), where the
 *     table's waits sleep; so it is opt-in: AXB_MIXED_SGETRF=1 (below
 *     MIXED_SGETRF_MAX_THREADS threads; on 16 threads the table's tiled
 *     look-ahead LU is the faster one, docs/PERFORMANCE.md),
 *     AXB_MIXED_SGETRF=2 at any thread count.
 * Every kernel declines (AXB_ERR_NOT_SUPPORTED, no detail) when a size
 * does not fit OpenBLAS's 32-bit integers; the session then takes the
 * typed entries.
 */
#include "backend/omp/omp.h"
#include "backend/verdict.h"

#include <stdlib.h>

#ifdef AXB_HAVE_LAPACK

/* Threads from which the table's own getrf (the tiled look-ahead LU of
   omp_lu_t.h, taken from 8 threads) is used for the FP32 factor. */
#define MIXED_SGETRF_MAX_THREADS 8

#include "backend/omp/omp_cblas.h"

/* LAPACK's sgetrf (the FP32 factor on request). */
void sgetrf_(const int *m, const int *n, float *A, const int *lda, int *ipiv,
             int *info);

static axb_status mx_sgetrf(axb_handle h, int64_t n, float *A, int64_t lda,
                            int64_t *ipiv, int64_t *info) {
  const int nt = axb_omp_threads(h);
  const int64_t want = axb_omp_env_int("AXB_MIXED_SGETRF", 0);
  if (want <= 0 || (want == 1 && nt >= MIXED_SGETRF_MAX_THREADS))
    return AXB_ERR_NOT_SUPPORTED;
  if (!axb_omp_fits_int(n, lda) || n < 1) return AXB_ERR_NOT_SUPPORTED;
  int *ip = malloc((size_t)n * sizeof *ip);
  if (!ip) return AXB_ERR_NOT_SUPPORTED; /* the typed getrf needs none */
  int ni = (int)n, ldi = (int)lda, inf = 0;
  const int sv = axb_omp_blas_begin_threaded(nt);
  sgetrf_(&ni, &ni, A, &ldi, ip, &inf);
  axb_omp_blas_end_threaded(sv, nt);
  for (int64_t i = 0; i < n; ++i)
    ipiv[i] = ip[i];
  free(ip);
  /* inf < 0 (an illegal argument) cannot happen with the sizes above */
  return axb__zero_pivot(h, info, inf > 0 ? inf : 0, "sgetrf", "U");
}

static axb_status mx_dgemv(axb_handle h, int64_t n, const double *A,
                           int64_t lda, const double *x, double *y) {
  if (!axb_omp_fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  const int nt = axb_omp_threads(h);
  const int sv = axb_omp_blas_begin_threaded(nt);
  cblas_dgemv(AXB_CB_COL, AXB_CB_N, (int)n, (int)n, 1.0, A, (int)lda, x, 1, 0.0,
              y, 1);
  axb_omp_blas_end_threaded(sv, nt);
  return AXB_SUCCESS;
}

static axb_status mx_dsymv(axb_handle h, axb_uplo uplo, int64_t n,
                           const double *A, int64_t lda, const double *x,
                           double *y) {
  if (!axb_omp_fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  const int nt = axb_omp_threads(h);
  const int sv = axb_omp_blas_begin_threaded(nt);
  cblas_dsymv(AXB_CB_COL, CB_UPLO(uplo), (int)n, 1.0, A, (int)lda, x, 1, 0.0, y,
              1);
  axb_omp_blas_end_threaded(sv, nt);
  return AXB_SUCCESS;
}

/* Threads from which the session's solves take the table's getrs (our
   threaded few-column TRSM) instead of OpenBLAS's strsv, which reads the
   factor on one thread: on 16 threads of the x2 device host, n = 4096,
   the refinement's solves took 17.6 ms with strsv against 3.6 with the
   table's getrs (bench/results/mixed-h100/s9/mixed-cpu16-h100x2host.txt,
   axb-dsgesv against axb-dsgesv-base); on 2 threads strsv was the faster
   (4.7 against 6.5 ms a pair, omp_mixed.c's header). */
#define MIXED_STRSV_MAX_THREADS 3

static axb_status mx_strsv(axb_handle h, axb_uplo uplo, axb_trans trans,
                           axb_diag diag, int64_t n, const float *A,
                           int64_t lda, float *x) {
  if (!axb_omp_fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  const int nt = axb_omp_threads(h);
  if (nt > MIXED_STRSV_MAX_THREADS) return AXB_ERR_NOT_SUPPORTED;
  const int sv = axb_omp_blas_begin_threaded(nt);
  cblas_strsv(AXB_CB_COL, CB_UPLO(uplo), CB_TR(trans), CB_DIAG(diag), (int)n, A,
              (int)lda, x, 1);
  axb_omp_blas_end_threaded(sv, nt);
  return AXB_SUCCESS;
}

static const axb_mixed_host_kernels mixed_kernels = {mx_sgetrf, mx_dgemv,
                                                     mx_dsymv, mx_strsv};

const axb_mixed_host_kernels *axb_omp_mixed_kernels(void) {
  return &mixed_kernels;
}

#else

const axb_mixed_host_kernels *axb_omp_mixed_kernels(void) { return NULL; }

#endif
