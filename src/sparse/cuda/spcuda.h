/*
 * The sparse GPU layer's C interface (internal, never installed): a CSR
 * matrix uploaded to the device of a CUDA handle and the SpMV kernels that
 * use it.  Implemented by the .cu files beside it; without CUDA,
 * src/sparse/sparse_cuda_stub.c answers AXB_ERR_NOT_COMPILED.
 *
 * Device format: 64-bit row pointers; column indices stored in 32 bits when
 * cols < 2^31 (they always are on one GPU's memory for any matrix worth
 * solving there; else AXB_ERR_NOT_SUPPORTED), which moves 4 bytes less per
 * nonzero than the host's int64 indices — SpMV is bandwidth bound.
 *
 * Kernels (y = A x, arrays in device memory, on the handle's stream):
 *   VECTOR: W lanes per row (W = 1..32, a power of two), shuffle reduction.
 *   MERGE:  merge-path load balance (Merrill & Garland, SC'16): every block
 *           takes the same number of (row end + nonzero) merge items whatever
 *           the row lengths; tile start coordinates are computed once at
 *           upload; rows split between tiles are finished by a fix-up pass.
 *   STREAM: kBlock consecutive rows per block; their nonzeros are loaded
 *           coalesced into shared memory when they fit (short rows), then
 *           each thread adds its row (kept for comparison: never faster than
 *           VECTOR in the measurements, so AUTO does not pick it).
 *   AUTO:   MERGE when the rows are irregular (max > 16 mean and max > 256),
 *           else VECTOR with W from the mean row length, smaller when the
 *           rows alone fill the GPU (spmv.cu says why).
 */
#ifndef AXB_SPCUDA_H
#define AXB_SPCUDA_H

#include "axb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axb_spcuda_mat axb_spcuda_mat;

typedef enum {
  AXB_SPMV_AUTO = 0,
  AXB_SPMV_VECTOR = 1,
  AXB_SPMV_MERGE = 2,
  AXB_SPMV_STREAM = 3
} axb_spmv_kind;

/* Upload a valid host CSR matrix (dtype of A) to h's device (h a CUDA
   handle).  Synchronous: the host arrays may be freed on return. */
axb_status axb_spcuda_mat_create(axb_handle h, const axb_csr *A,
                                 axb_spcuda_mat **M);
void axb_spcuda_mat_destroy(axb_spcuda_mat *M); /* NULL is fine */

/* Choose the kernel (width: VECTOR's lanes per row, 0 = from the mean row
   length; ignored otherwise).  AXB_ERR_INVALID for a width that is not a
   power of two in [1, 32]. */
axb_status axb_spcuda_mat_set_spmv(axb_spcuda_mat *M, axb_spmv_kind kind,
                                   int width);
/* Cache hint of VECTOR's loads of the values and column indices (read
   once per SpMV; x is read many times and should stay in L2): NONE plain
   loads, CS ld.global.cs (__ldcs), L2EF ld.global.nc with an L2
   evict-first policy.  The defaults (per precision) are measured, see
   spcuda_internal.cuh. */
typedef enum {
  AXB_SPMV_HINT_NONE = 0,
  AXB_SPMV_HINT_CS = 1,
  AXB_SPMV_HINT_L2EF = 2
} axb_spmv_hint;
axb_status axb_spcuda_mat_set_spmv_hint(axb_spcuda_mat *M, axb_spmv_hint hint);
/* VECTOR with W = 1: a row's entries in batches of `batch` (1: the plain
   loop; 4 or 8: every load of a batch in flight at once; 0: the default
   per precision, spcuda_internal.cuh); AXB_ERR_INVALID otherwise. */
axb_status axb_spcuda_mat_set_spmv_batch(axb_spcuda_mat *M, int batch);

/* The kernel AUTO resolved to and its width (for reports and benchmarks). */
void axb_spcuda_mat_spmv_info(const axb_spcuda_mat *M, axb_spmv_kind *kind,
                              int *width);
/* Row-length statistics computed at upload. */
void axb_spcuda_mat_stats(const axb_spcuda_mat *M, double *mean_row,
                          int64_t *max_row);
/* Bytes an SpMV must move at least (matrix once, x once, y once). */
double axb_spcuda_mat_spmv_bytes(const axb_spcuda_mat *M);

/* y := A x; dx has cols entries, dy rows entries, of the matrix's dtype. */
axb_status axb_spcuda_spmv(axb_handle h, const axb_spcuda_mat *M,
                           const void *dx, void *dy);

/* The exact triangular solves of a GPU factor (fac.cu):
     SYNCFREE: one launch per solve; W lanes per row; every row waits on
               the ready flags of the rows it reads (rows handed out in
               dependency order through a global ticket, see fac.cu);
     LEVELS:   one launch per level of the pattern's level sets (only when
               the factor was created from a pattern that has them);
     WARP:     one launch per solve; one lane per row, 32 rows per warp;
               the unsolved x_j hold a sentinel, so rows poll the values
               they read; dependencies inside a warp are resolved in
               shared memory (fac.cu, tri_warp);
     AUTO:     WARP while every row is resident (n <= 2048 x SMs), LEVELS
               beyond when the factor has level sets (fac.cu,
               tri_auto_levels, says why).  SYNCFREE's width 0: the widest
               that keeps every row resident.
   For benchmarks and tests; the solvers always run AUTO.  Returns
   AXB_ERR_INVALID for a width that is not 0 (= AUTO's) or a power of two
   in [1, 32], AXB_ERR_NOT_SUPPORTED for LEVELS without level sets.  F is
   an axb_spfac made by the CUDA table. */
typedef enum {
  AXB_SPTRI_GPU_AUTO = 0,
  AXB_SPTRI_GPU_SYNCFREE = 1,
  AXB_SPTRI_GPU_LEVELS = 2,
  AXB_SPTRI_GPU_WARP = 3
} axb_sptri_gpu_alg;
struct axb_spfac_s;
axb_status axb_spcuda_fac_set_tri(struct axb_spfac_s *F, axb_sptri_gpu_alg alg,
                                  int width);
/* The resolved choice (SYNCFREE, LEVELS or WARP) and its lanes per row. */
void axb_spcuda_fac_tri_info(const struct axb_spfac_s *F,
                             axb_sptri_gpu_alg *alg, int *width);
/* WARP: __nanosleep(ns) after a polling round without progress (0: none,
   the default); AXB_ERR_INVALID outside [0, 1e6]. */
axb_status axb_spcuda_fac_set_backoff(struct axb_spfac_s *F, int ns);

/* Free the sparse scratch a CUDA handle acquired (reduction buffers, a few
   KB of device and pinned memory, kept from the first sparse operation on
   the handle); to be called when the handle goes.  Any handle is fine. */
void axb__sparse_cuda_release(axb_handle h);

#ifdef __cplusplus
}
#endif
#endif
