/*
 * <axb/bench.h>: benchmarking and tuning (issue 5).
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_BENCH_H
#define AXB_API_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <axb/core.h>
#include <axb/matrix.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Benchmarking and tuning (issue 5)                                        */
/* ------------------------------------------------------------------------ */

/*
 * AUTO dispatch.  A handle created with AXB_BACKEND_AUTO is a CPU handle
 * (axb_handle_backend says CPU); when CUDA is compiled in and a GPU exists,
 * axb_solve and axb_invert hand a problem of order n >= the routine's
 * crossover to a CUDA handle the AUTO handle creates on first use (the
 * report's `backend` says which one ran).  Only methods the CUDA backend
 * implements move (LU, Cholesky, AUTO's choice of them, the LU inverse);
 * study variants stay on the CPU.  Without a GPU, AUTO is the CPU backend.
 *
 * Batched host arrays: an AUTO handle runs gesv_batched, posv_batched and
 * inverse_batched on HOST arrays (as a CPU handle) and hands a call to its
 * CUDA sub-handle, staging the arrays through device memory and waiting
 * for the result, when n >= the routine's batched crossover, n <= 64 (the
 * device kernels) and batch >= AXB_TUNE_BATCH (the batch the crossover was
 * measured at: a GPU that wins at that batch wins at larger ones, a smaller
 * batch stays on the CPU), and only for packed arrays (lda = n, stride
 * n*n; ldb = n, stride n*nrhs, nrhs >= 1; ipiv stride n): the staging copies
 * whole spans back, so padded or interleaved layouts stay on the CPU.  The
 * other batched routines (getrf/getrs,
 * potrf/potrs: factors reused on the host) stay on the CPU.
 *
 * Crossovers come from a tuning file written by `axb tune`: the file named
 * by $AXB_TUNE_FILE, else $XDG_CONFIG_HOME/axb/tune.txt, else
 * $HOME/.config/axb/tune.txt.  Format: one "ROUTINE N" per line (ROUTINE
 * lu, cholesky, inverse, batched-gesv, batched-cholesky or batched-inverse;
 * N a positive integer or "never"), '#' starts a comment.  A routine the
 * file leaves out, a missing file or a malformed file (AXB_ERR_PARSE from
 * axb_tuning_read) means the built-in default (AXB_TUNE_DEFAULT_CROSSOVER
 * for the dense routines, never for the batched ones).
 */
typedef enum {
  AXB_TUNE_LU = 0,           /* LU solves (also AUTO's LU)                    */
  AXB_TUNE_CHOLESKY = 1,     /* Cholesky solves (also AUTO's Cholesky)        */
  AXB_TUNE_INVERSE = 2,      /* axb_invert with AXB_METHOD_LU                 */
  AXB_TUNE_BATCHED_GESV = 3, /* gesv_batched on host arrays           */
  AXB_TUNE_BATCHED_CHOLESKY = 4, /* posv_batched on host arrays           */
  AXB_TUNE_BATCHED_INVERSE = 5,  /* inverse_batched on host arrays        */
  AXB_TUNE_COUNT
} axb_tune_routine;

#define AXB_TUNE_NEVER INT64_MAX        /* the GPU never wins        */
#define AXB_TUNE_DEFAULT_CROSSOVER 2048 /* built-in: CPU below 2048  */
/* Batch size at which `axb tune` measures the batched crossovers, and the
   smallest batch AUTO moves to the GPU. */
#define AXB_TUNE_BATCH 10000

typedef struct {
  int64_t crossover[AXB_TUNE_COUNT]; /* smallest n where CUDA is used    */
  int from_file[AXB_TUNE_COUNT];     /* 1: this entry came from the file */
  char path[1024];                   /* the file consulted, or ""        */
} axb_tuning;

/* "lu", "cholesky", "inverse", "batched-gesv", "batched-cholesky",
   "batched-inverse". */
const char *axb_tune_routine_name(axb_tune_routine r);
/* Built-in crossovers, path "". */
void axb_tuning_defaults(axb_tuning *t);
/* The tuning file's location (see above); AXB_ERR_NOT_SUPPORTED when no
   environment variable names one. */
axb_status axb_tuning_path(char *buf, size_t len);
/* Parse the text of a tuning file into t (defaults first).  On a malformed
   line: AXB_ERR_PARSE, "line N: what" in err, and t holds the defaults. */
axb_status axb_tuning_parse(const char *text, axb_tuning *t, char *err,
                            size_t errlen);
/* The same from a file: AXB_ERR_IO (t = defaults) when it cannot be read. */
axb_status axb_tuning_read(const char *path, axb_tuning *t, char *err,
                           size_t errlen);
/* Write t (with comment lines, may be NULL) to path, creating the parent
   directories; the file is replaced atomically. */
axb_status axb_tuning_write(const char *path, const axb_tuning *t,
                            const char *comment);
/* The tuning AUTO uses now: the file if it exists and parses, else the
   defaults.  Returns AXB_SUCCESS (also for no file), or AXB_ERR_PARSE when
   the file is malformed (err says where; t = defaults). */
axb_status axb_tuning_current(axb_tuning *t, char *err, size_t errlen);
/* The decision AUTO makes for a problem of order n: AXB_BACKEND_CUDA when
   gpu != 0 and n >= the crossover, else AXB_BACKEND_CPU.  For a batched
   routine this is the decision at batch = AXB_TUNE_BATCH (see below). */
axb_backend axb_tuning_choose(const axb_tuning *t, axb_tune_routine r,
                              int64_t n, int gpu);
/* AUTO's decision for a batched call (r one of the AXB_TUNE_BATCHED_*):
   AXB_BACKEND_CUDA when gpu != 0, crossover <= n <= 64 and
   batch >= AXB_TUNE_BATCH, else AXB_BACKEND_CPU. */
axb_backend axb_tuning_choose_batched(const axb_tuning *t, axb_tune_routine r,
                                      int64_t n, int64_t batch, int gpu);

/*
 * Vendor anchors for comparisons (benchmarks; never used by the solvers),
 * run in the same process as axb on the same inputs.  Host-array anchors:
 * OpenBLAS's LAPACK and Eigen 3 (PartialPivLU, LLT, inverse(); a C++ shim
 * compiled when Eigen3 was found).  Device anchors (CUDA builds): cuSOLVER
 * dense and cuBLAS batched, reached through axb_gpu_run below.  A missing
 * anchor answers AXB_ERR_NOT_COMPILED; sizes above INT32_MAX
 * AXB_ERR_NOT_SUPPORTED.  *info as LAPACK's (positive: singular pivot,
 * minor not positive definite; the status says the same as in the typed
 * layer).  getri inverts from getrf's factors (OpenBLAS only); inverse
 * does both steps (OpenBLAS getrf+getri, Eigen inverse()).  Eigen's getrf
 * returns LAPACK-style ipiv (converted from its permutation), so getrs
 * applies; Eigen's potrf reports a failure as info = 1 (Eigen does not say
 * at which minor).  Threads: process-global per anchor.
 */
typedef enum {
  AXB_ANCHOR_AXB = 0,      /* axb itself (axb_gpu_run), not an anchor */
  AXB_ANCHOR_OPENBLAS = 1, /* LAPACK from OpenBLAS, host arrays   */
  AXB_ANCHOR_EIGEN = 2,    /* Eigen 3, host arrays                */
  AXB_ANCHOR_CUSOLVER = 3, /* cuSOLVER dense, through axb_gpu_run */
  AXB_ANCHOR_CUBLAS = 4    /* cuBLAS batched, through axb_gpu_run */
} axb_anchor;

/* "axb", "openblas", "eigen", "cusolver", "cublas". */
const char *axb_anchor_name(axb_anchor a);
/* 1 when compiled in (for the device anchors: CUDA compiled; whether a GPU
   exists is axb_cuda_device_count's question). */
int axb_anchor_available(axb_anchor a);
/* Library version text ("OpenBLAS (...)", "Eigen 3.4.0", "cuSOLVER 11.7.1"). */
const char *axb_anchor_version(axb_anchor a);
axb_status axb_anchor_set_threads(axb_anchor a, int nthreads);
axb_status axb_anchor_getrf(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, int64_t *ipiv, int64_t *info);
axb_status axb_anchor_potrf(axb_anchor a, axb_dtype t, axb_uplo uplo, int64_t n,
                            void *A, int64_t lda, int64_t *info);
axb_status axb_anchor_getri(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, const int64_t *ipiv, int64_t *info);
axb_status axb_anchor_inverse(axb_anchor a, axb_dtype t, int64_t n, void *A,
                              int64_t lda, int64_t *info);
/* A := L\U (ipiv as getrf's) and B := A^-1 B (n x nrhs, ldb). */
axb_status axb_anchor_gesv(axb_anchor a, axb_dtype t, int64_t n, int64_t nrhs,
                           void *A, int64_t lda, int64_t *ipiv, void *B,
                           int64_t ldb, int64_t *info);

/*
 * GPU runs for benchmarks.  A runner belongs to a CUDA handle (its device
 * and stream) and keeps device buffers that grow on demand, so that a
 * timed call after a warm-up allocates nothing.  axb_gpu_run copies the
 * host arrays in, runs one operation of one implementation (impl:
 * AXB_ANCHOR_AXB = axb's CUDA backend through the _dev and batched API,
 * AXB_ANCHOR_CUSOLVER, AXB_ANCHOR_CUBLAS), copies the results back and
 * synchronises.  CUDA events on the stream measure the operation alone
 * (device_s) and the copies (transfer_s); a wall clock around the call
 * sees both.  Operations (column-major, lda = n; batched: `batch` problems
 * back to back, A_k at A + k n^2, b_k at B + k n):
 *   LU        A := L\U, ipiv (host, 1-based)   axb, cusolver (getrf)
 *   CHOLESKY  A := L (lower)                    axb, cusolver (potrf)
 *   INVERSE   A := A^-1                         axb (getrf+getri),
 *                                               cusolver (getrf+getrs(I))
 *   GESV      b := A^-1 b, A := L\U, ipiv      axb, cusolver (getrf+getrs)
 *   BATCHED_GESV     b_k := A_k^-1 b_k          axb, cublas (getrfBatched
 *                                               + getrsBatched)
 *   BATCHED_INVERSE  A_k := A_k^-1              axb, cublas (getrfBatched
 *                                               + getriBatched)
 *   BATCHED_POSV     b_k := A_k^-1 b_k, A_k SPD axb (posv_batched, lower),
 *                    A_k := L_k                 cusolver (potrfBatched
 *                                               + potrsBatched)
 * batch is ignored (1) by the single-problem operations; ipiv may be NULL
 * for the batched ones and INVERSE.  Returns AXB_SUCCESS; AXB_ERR_SINGULAR
 * / AXB_ERR_NOT_SPD with *info = LAPACK's info (batched: *info = 1-based
 * index of the first failing problem; AXB_ERR_NOT_SPD for BATCHED_POSV);
 * AXB_ERR_NOT_SUPPORTED for an implementation without that operation (e.g.
 * axb's batched kernels beyond n = 64); AXB_ERR_NOT_COMPILED without CUDA.
 */
typedef enum {
  AXB_GPU_LU = 0,
  AXB_GPU_CHOLESKY,
  AXB_GPU_INVERSE,
  AXB_GPU_GESV,
  AXB_GPU_BATCHED_GESV,
  AXB_GPU_BATCHED_INVERSE,
  AXB_GPU_BATCHED_POSV
} axb_gpu_op;

typedef struct axb_gpu_runner_s *axb_gpu_runner;

typedef struct {
  double device_s;   /* events around the operation alone          */
  double transfer_s; /* events around the host<->device copies     */
} axb_gpu_times;

axb_status axb_gpu_runner_create(axb_gpu_runner *r, axb_handle h);
void axb_gpu_runner_destroy(axb_gpu_runner r); /* NULL is fine */
axb_status axb_gpu_run(axb_gpu_runner r, axb_anchor impl, axb_gpu_op op,
                       axb_dtype t, int64_t n, int64_t batch, void *A, void *B,
                       int64_t *ipiv, int64_t *info, axb_gpu_times *tm);

/* Batched small systems on a HOST anchor (AXB_ANCHOR_EIGEN: PartialPivLU,
   LLT, inverse() per problem, OpenMP over the batch with the threads of
   axb_anchor_set_threads, as axb's CPU batched path).  op:
   AXB_GPU_BATCHED_GESV, _POSV (lower) or _INVERSE; layout as axb_gpu_run's
   batched operations (gesv/posv leave A as given).  AXB_ERR_SINGULAR /
   AXB_ERR_NOT_SPD with *info = 1-based index of the first failing problem;
   AXB_ERR_NOT_SUPPORTED for OpenBLAS (no batched LAPACK). */
axb_status axb_anchor_batched(axb_anchor a, axb_gpu_op op, axb_dtype t,
                              int64_t n, int64_t batch, void *A, void *B,
                              int64_t *info);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_BENCH_H */
