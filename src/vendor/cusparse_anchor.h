/*
 * cuSPARSE as comparison anchor for the sparse solvers (never used by
 * them); compiled only with CUDA (src/vendor/cusparse_anchor.cu).
 *
 * - SpMV: cusparseSpMV (generic API, CSR, 32-bit indices — cuSPARSE's
 *   fastest layout —, CUSPARSE_SPMV_ALG_DEFAULT, buffer and preprocess done
 *   at creation) on device vectors, for bench/bench_sparse.
 * - Solvers, the way NVIDIA's samples do it: PCG with IC(0) and BiCGStab
 *   (right-preconditioned) with ILU(0), the factor from the legacy
 *   csric02 / csrilu02 (deprecated in CUDA 12-13 but still present in
 *   cuSPARSE 12.6) and the triangular solves with cusparseSpSV (generic
 *   API), vector operations with cuBLAS in host pointer mode.  Double only.
 *   Host CSR and b in, host x out (x0 = 0).  set-up = upload of A and b,
 *   analysis and factorisation; solve = the iterations and the true
 *   residual ||b - A x||_2 / ||b||_2 recomputed at the end (rep->relres).
 *   Stopping rule: recurrence residual ||r||_2 / ||b||_2 <= tol.
 * Return: AXB_SUCCESS; AXB_ERR_NO_CONVERGENCE (max iterations or a
 * breakdown: rep->breakdown says which); AXB_ERR_SINGULAR (zero pivot of
 * the factorisation, rep->info = 1-based row); AXB_ERR_NOT_SUPPORTED
 * (float, or more than 2^31 - 1 rows or nonzeros); AXB_ERR_DEVICE,
 * AXB_ERR_OUT_OF_MEMORY.
 */
#ifndef AXB_CUSPARSE_ANCHOR_H
#define AXB_CUSPARSE_ANCHOR_H

#include "axb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cuSPARSE version as major*1000 + minor*100 + patch. */
int axb_cusparse_version(void);

typedef struct axb_cusparse_spmv axb_cusparse_spmv;
/* On the current device; stream a cudaStream_t (NULL: default stream). */
axb_status axb_cusparse_spmv_create(axb_cusparse_spmv **P, const axb_csr *A,
                                    void *stream);
/* dy := A dx (device arrays of A's dtype). */
axb_status axb_cusparse_spmv_run(axb_cusparse_spmv *P, const void *dx,
                                 void *dy);
void axb_cusparse_spmv_destroy(axb_cusparse_spmv *P);

typedef struct {
  int64_t iterations;
  double setup_s, solve_s;
  double relres;     /* true residual at the end                   */
  int64_t info;      /* zero pivot row (1-based), else 0           */
  int breakdown;     /* 1: a Krylov breakdown stopped the iteration */
  char message[128]; /* what failed, "" on success                 */
} axb_cusparse_report;

axb_status axb_cusparse_pcg_ic0(const axb_csr *A, const double *b, double *x,
                                double tol, int64_t maxit,
                                axb_cusparse_report *rep);
axb_status axb_cusparse_bicgstab_ilu0(const axb_csr *A, const double *b,
                                      double *x, double tol, int64_t maxit,
                                      axb_cusparse_report *rep);

#ifdef __cplusplus
}
#endif
#endif
