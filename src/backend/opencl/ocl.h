/*
 * The OpenCL backend's internal interface (issue 29): the per-handle
 * context (device, context, in-order queue, the program cache), error
 * helpers that turn OpenCL and CLBlast codes into statuses with a detail,
 * launches and host <-> device copies.  Only src/backend/opencl includes it.
 */
#ifndef AXB_OCL_H
#define AXB_OCL_H

#include "backend/backend.h"
#include "backend/opencl/ocl_prof.h"
#include "core/internal.h"

#include <CL/cl.h>
#include <clblast_c.h>

/* Our kernels, by index into a precision's kernel cache. */
enum {
  OCL_LU_PANEL,
  OCL_LASWP,
  OCL_CHOL_DIAG,
  OCL_SET_IDENTITY,
  OCL_ZERO_TRIANGLE,
  OCL_COL_DIAG, /* study.cl: the column Cholesky and Gauss-Jordan kernels */
  OCL_COL_OFFDIAG,
  OCL_COL_SINGLE,
  OCL_COL_SINGLE_DIAG,
  OCL_COL_LOWER_COPY,
  OCL_GJ_PIVOT,
  OCL_GJ_ELIMINATE,
  OCL_GJ_UNSWAP,
  OCL_TRTRI_LOWER,
  OCL_LU_LEAF_START, /* lu_gpu.cl: the GPU-device path's LU leaf (29d) */
  OCL_LU_STEP,
  OCL_LU_LEAF_PERSIST, /* lu_persist.cl: the leaf in one launch (GPUs) */
  OCL_GEMM_CPU,        /* gemm_cpu.cl: CPU devices' GEMM (ocl_gemm.c) */
  OCL_TRANSPOSE_CPU,
  OCL_TRSV_BLOCK, /* util.cl: trsm_left's few-right-hand-side blocks */
  OCL_KERNEL_COUNT
};

typedef struct axb_ocl {
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue q; /* in order: every step waits for the one before */
  /* The GPU-device path's second in-order queue (look-ahead: the next
     panel there while q runs the rest of the trailing update); the two
     are swapped while the panel is enqueued, so q is always the one that
     launches and CLBlast calls use.  NULL when the path is off. */
  cl_command_queue q2;
  int gpu_path; /* the GPU-device getrf/potrf (ocl_gpu_t.h)            */
  int gpu_nb;   /* its outer block (AXB_OPENCL_GPU_NB)                 */
  int gpu_leaf; /* its LU leaf width (AXB_OPENCL_GPU_LEAF, 16..64)      */
  /* its persistent leaf (AXB_OPENCL_GPU_LEAF_PERSIST): the most groups of
     lu_leaf_persist, all resident at once (<= compute units); 0: off */
  int gpu_persist;
  int rwg;      /* its reductions' work-group (power of two, <= 256)    */
  int gpu_prof; /* 1: phase profile, 2: totals (AXB_OPENCL_GPU_PROFILE,
                   ocl_prof.h) */
  axb_ocl_prof prof;
  int64_t enq; /* enqueues so far (kernels, CLBlast calls, copies, fills) */
  int ordinal; /* axb's device number                          */
  int fp64;
  int wg;     /* work-group size of the one-group kernels (power of two) */
  int max_wg; /* the device's largest work-group (power of two)           */
  int nb;     /* outer block of getrf/potrf/trsm (AXB_OCL_NB on a GPU)   */
  /* a CPU device: uploads' columns an odd number of 64-byte lines apart,
     the GEMM scratch and the matrix copy kept between calls (below) */
  int cpu_dev;
  /* GEMMs by our gemm_cpu kernel (a CPU device unless
     AXB_OPENCL_CPU_GEMM=clblast), else CLBlast's: axb__ocl_gemm */
  int own_gemm;
  /* CLBlast GEMM's scratch on a CPU device (axb__ocl_gemm_tmp): kept
     from call to call, grown on demand up to AXB_OCL_GEMM_TMP_MAX,
     released with the handle */
  cl_mem gemm_tmp;
  size_t gemm_tmp_bytes;
  /* a routine's released matrix copy kept for the next one on a CPU
     device (axb__ocl_upload_kept, axb__ocl_free_kept), up to
     AXB_OCL_KEPT_MAX */
  cl_mem kept;
  size_t kept_bytes;
  char name[272]; /* "device (platform)" */
  /* Program cache: [0] float, [1] double; built on first use. */
  cl_program prog[2];
  cl_kernel kern[2][OCL_KERNEL_COUNT];
  double transfer_seconds; /* since take_transfer_seconds last asked */
} axb_ocl;

static inline axb_ocl *axb__ocl(axb_handle h) { return (axb_ocl *)h->ocl; }

/* err != CL_SUCCESS: fail h with AXB_ERR_DEVICE (out of memory for the
   allocation codes), naming the call and the device. */
axb_status axb__ocl_check(axb_handle h, cl_int err, const char *what);
/* The same for a CLBlast status (its codes extend OpenCL's). */
axb_status axb__ocl_blast(axb_handle h, CLBlastStatusCode err,
                          const char *what);
/* Kernel `which` of precision dbl (0 float, 1 double), the program built
   first when needed; double on a device without fp64: NOT_SUPPORTED. */
axb_status axb__ocl_kernel(axb_handle h, int dbl, int which, cl_kernel *k);
/* Kernel `which`'s arguments set and the kernel enqueued (gy = 0: 1-D);
   n (size, address) pairs, a NULL address for a local-memory argument. */
axb_status axb__ocl_run(axb_handle h, int dbl, int which, size_t gx, size_t gy,
                        size_t lx, size_t ly, int n, const size_t *sz,
                        const void *const *val);
/* Set the kernel's arguments: pairs of (size, pointer), n of them. */
axb_status axb__ocl_args(axb_handle h, cl_kernel k, int n, const size_t *sz,
                         const void *const *val);
/* Enqueue k on a 1-D (gy = 0) or 2-D range, rounded up to the local size. */
axb_status axb__ocl_launch(axb_handle h, cl_kernel k, size_t gx, size_t gy,
                           size_t lx, size_t ly);

/* Device copies of host column-major blocks (rows x cols, ld lda) into a
   new buffer with leading dimension *ldd (rows rounded up to 16); extra
   elements, when asked for, allocate a larger buffer (dst may be NULL to
   allocate only). */
axb_status axb__ocl_upload(axb_handle h, const void *src, int64_t lda,
                           int64_t rows, int64_t cols, size_t es, cl_mem *dst,
                           int64_t *ldd);
axb_status axb__ocl_alloc(axb_handle h, size_t bytes, cl_mem *dst);
/* axb__ocl_upload into the handle's kept buffer when it is large enough;
   axb__ocl_free_kept releases such a copy, keeping it on a CPU device up
   to AXB_OCL_KEPT_MAX (ocl_context.c says why). */
axb_status axb__ocl_upload_kept(axb_handle h, const void *src, int64_t lda,
                                int64_t rows, int64_t cols, size_t es,
                                cl_mem *dst, int64_t *ldd);
void axb__ocl_free_kept(axb_handle h, cl_mem m);
#define AXB_OCL_KEPT_MAX ((size_t)64 << 20)
/* Device block at offset 0 (ld ldd) := host block (rows x cols, ld lda). */
axb_status axb__ocl_write(axb_handle h, cl_mem dst, int64_t ldd, int64_t rows,
                          int64_t cols, size_t es, const void *src,
                          int64_t lda);
/* Host block (rows x cols, ld ldh) := device block (ld ldd), blocking. */
axb_status axb__ocl_download(axb_handle h, cl_mem src, int64_t ldd,
                             int64_t rows, int64_t cols, size_t es, void *dst,
                             int64_t ldh);
/* The same from the device block at row i0, column j0. */
axb_status axb__ocl_download_at(axb_handle h, cl_mem src, int64_t i0,
                                int64_t j0, int64_t ldd, int64_t rows,
                                int64_t cols, size_t es, void *dst,
                                int64_t ldh);
axb_status axb__ocl_finish(axb_handle h);
/* *tmp := a CLBlast GEMM scratch of at least `bytes`, or NULL on a GPU
   (CLBlast allocates its own there): the handle's, or above
   AXB_OCL_GEMM_TMP_MAX one of its own, *own set, which the caller
   releases once the GEMM is queued; CL error code. */
cl_int axb__ocl_gemm_tmp(axb_handle h, size_t bytes, cl_mem *tmp, int *own);
#define AXB_OCL_GEMM_TMP_MAX ((size_t)64 << 20)
/* dst block (rows x cols, ld ldd at element offset dO) := src block (ld
   lds at offset so), on the queue; element size es. */
axb_status axb__ocl_copy_block(axb_handle h, size_t es, cl_mem src, size_t so,
                               size_t lds, cl_mem dst, size_t dO, size_t ldd,
                               size_t rows, size_t cols);
/* C (ld ldc, at c0) := alpha op(A) op(B) + beta C, m x n, inner size k,
   offsets in elements, precision dbl: on a CPU device our kernel
   (gemm_cpu.cl says why), elsewhere (or with AXB_OPENCL_CPU_GEMM=clblast)
   CLBlast's GEMM with the handle's scratch; `what` names the call in a
   failure's detail.  ocl_gemm.c. */
axb_status axb__ocl_gemm(axb_handle h, const char *what, int dbl, int ta,
                         int tb, size_t m, size_t n, size_t k, double alpha,
                         cl_mem A, size_t a0, size_t lda, cl_mem B, size_t b0,
                         size_t ldb, double beta, cl_mem C, size_t c0,
                         size_t ldc);
/* clReleaseMemObject on a possibly NULL buffer. */
void axb__ocl_free(cl_mem m);

/* W (ld ldw) := inv(L) of the nb x nb lower block at a0 of A (unit: its
   diagonal taken as ones), or with upper = 1 inv(U^T) = inv(U)^T of the
   upper block (kernel trtri_lower, util.cl); _at: W from offset w0. */
axb_status axb__ocl_trtri_at(axb_handle h, int dbl, cl_mem A, int64_t a0,
                             int64_t lda, int64_t nb, int unit, int upper,
                             cl_mem W, int64_t w0, int64_t ldw);
axb_status axb__ocl_trtri(axb_handle h, int dbl, cl_mem A, int64_t a0,
                          int64_t lda, int64_t nb, int unit, int upper,
                          cl_mem W, int64_t ldw);

/* Launchers shared by ocl_dense.c and ocl_gpu.c (util.cl, lu.cl,
   potrf.cl): row interchanges k1..k2-1 (forward or backward) on ncols
   columns at a0; the one-group Cholesky of the nb x nb block at a0. */
axb_status axb__ocl_laswp(axb_handle h, int dbl, cl_mem A, int64_t a0,
                          int64_t lda, int64_t ncols, cl_mem piv, int64_t k1,
                          int64_t k2, int forward);
axb_status axb__ocl_chol_diag(axb_handle h, int dbl, cl_mem A, int64_t a0,
                              int64_t lda, int64_t nb, int64_t k0, int upper,
                              cl_mem info);
axb_status axb__ocl_zero_triangle(axb_handle h, int dbl, cl_mem A, int64_t ld,
                                  int64_t n, int upper);

/* The GPU-device path (ocl_gpu.c, issue 29d): getrf and potrf with wide
   outer blocks (o->gpu_nb), a recursive LU panel whose leaf spreads over
   many work-groups, CLBlast TRSM/GEMM/SYRK updates and look-ahead on q2,
   on the device copy dA (ld ldd) that the entries of ocl_dense_t.h
   upload and download when o->gpu_path is set.  getrf: pivots (0-based
   ints) into dpiv, the first zero pivot into dinfo (zero on entry).
   potrf: dA's other triangle zero (CLBlast reads whole diagonal blocks);
   *hinfo := the first minor that is not positive (0: none), read back
   once per outer block, stopping there. */
axb_status axb__ocl_gpu_dgetrf(axb_handle h, int64_t m, int64_t n, cl_mem dA,
                               int64_t ldd, cl_mem dpiv, cl_mem dinfo);
axb_status axb__ocl_gpu_sgetrf(axb_handle h, int64_t m, int64_t n, cl_mem dA,
                               int64_t ldd, cl_mem dpiv, cl_mem dinfo);
axb_status axb__ocl_gpu_dpotrf(axb_handle h, axb_uplo uplo, int64_t n,
                               cl_mem dA, int64_t ldd, cl_mem dinfo,
                               int *hinfo);
axb_status axb__ocl_gpu_spotrf(axb_handle h, axb_uplo uplo, int64_t n,
                               cl_mem dA, int64_t ldd, cl_mem dinfo,
                               int *hinfo);

/* The study variants' entries (ocl_study.c), set on the table. */
void axb__ocl_study_entries(axb_backend_ops *ops);
/* The blocked Gauss-Jordan inverse (ocl_gj.c). */
void axb__ocl_gj_entries(axb_backend_ops *ops);

/* Block sizes: the LU panel width and the Cholesky diagonal block (the
   one-group kernels' block, inner), and the outer block of the blocked
   getrf/potrf and of the triangular solves on a CPU device (o->nb; a GPU
   keeps AXB_OCL_NB): on PoCL every CLBlast GEMM whose C is a sub-block
   copies C to a padded buffer and back, so a rank-64 update costs as much
   memory traffic as a rank-256 one, and each launch is a queue round trip
   (docs/notes/opencl.md).  AXB_OPENCL_NB (a multiple of 64, 64..1024)
   overrides either. */
#define AXB_OCL_NB 64
/* trsm_left on a CPU device solves at most this many right-hand sides
   by substitution (trsv_block), more through the blocks' inverses. */
#define AXB_OCL_TRSV_MAX 8
#define AXB_OCL_NB_CPU 256

#endif
