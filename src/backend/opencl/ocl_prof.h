/*
 * The GPU-device path's opt-in phase profile (issue 29,
 * AXB_OPENCL_GPU_PROFILE=1 with AXB_OPENCL_GPU_PATH=1): each phase of
 * getrf and potrf (ocl_gpu_t.h) is bracketed by clFinish of both queues,
 * its host wall time, calls and enqueues (kernels, CLBlast calls, copies
 * and fills) summed per category.  The brackets serialize the two queues,
 * so look-ahead overlap is gone while it is on; unset, no finish is added.
 * AXB_OPENCL_GPU_PROFILE=2: the whole call's device time only (total_s,
 * drained at its start and end, no phase brackets: the overlap stays).
 * Free of OpenCL types: bench/bench_opencl.c reads it.
 */
#ifndef AXB_OCL_PROF_H
#define AXB_OCL_PROF_H

#include "axb.h"

#include <stdint.h>

enum {
  AXB_OCL_PROF_LU_LEAF, /* getrf: lu_leaf_start + one lu_step per column,
                           or one lu_leaf_persist (GPU default) */
  AXB_OCL_PROF_LU_PANEL_SWAP,
  AXB_OCL_PROF_LU_PANEL_INV, /* tri_inv inside the recursive panel */
  AXB_OCL_PROF_LU_PANEL_GEMM,
  AXB_OCL_PROF_LU_SWAP_LEFT, /* the block's interchanges */
  AXB_OCL_PROF_LU_SWAP_RIGHT,
  AXB_OCL_PROF_LU_U12_INV, /* inv(L11) of the outer block */
  AXB_OCL_PROF_LU_U12_GEMM,
  AXB_OCL_PROF_LU_TRAIL_NEXT, /* trailing GEMM on the next panel's columns */
  AXB_OCL_PROF_LU_TRAIL,      /* ... on the rest */
  AXB_OCL_PROF_CH_DIAG_CHOL,  /* potrf: chol_diag kernels (64 x 64) */
  AXB_OCL_PROF_CH_DIAG_INV,   /* inside the recursive diagonal block */
  AXB_OCL_PROF_CH_DIAG_GEMM,
  AXB_OCL_PROF_CH_DIAG_SYRK,
  AXB_OCL_PROF_CH_INV, /* the outer block column's inverse and GEMM */
  AXB_OCL_PROF_CH_COL_GEMM,
  AXB_OCL_PROF_CH_SYRK, /* trailing SYRKs; GEMM of the next block column */
  AXB_OCL_PROF_CH_GEMM,
  AXB_OCL_PROF_CH_INFO,   /* info read back once per outer block */
  AXB_OCL_PROF_COPY,      /* copies of the block row / column (both) */
  AXB_OCL_PROF_LOOKAHEAD, /* markers, waits, flushes */
  AXB_OCL_PROF_SETUP,     /* scratch allocation and release */
  AXB_OCL_PROF_COUNT
};

typedef struct {
  double total_s; /* whole GPU-path getrf/potrf calls (no host copies) */
  int64_t total_calls;
  double s[AXB_OCL_PROF_COUNT];
  int64_t calls[AXB_OCL_PROF_COUNT], launches[AXB_OCL_PROF_COUNT];
} axb_ocl_prof;

/* A category's name for printing. */
const char *axb__ocl_prof_name(int cat);
/* *out := h's profile since its last reset (zeros for a handle that is
   not OpenCL's); reset: zeroed afterwards. */
void axb__ocl_prof_take(axb_handle h, axb_ocl_prof *out, int reset);

#endif
