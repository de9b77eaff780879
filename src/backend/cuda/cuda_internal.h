/*
 * Internal interface of the CUDA backend (C++, .cu files only): the
 * per-handle context (cuBLAS handle, events, transfer clock), error
 * helpers, the kernel launchers of cuda_kernels.cu and the cuBLAS
 * overloads used by the blocked algorithms of cuda_dense.cu.
 */
#ifndef AXB_CUDA_INTERNAL_H
#define AXB_CUDA_INTERNAL_H

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdint.h>

extern "C" {
#include "core/internal.h"
}

namespace axb_cuda {

/* What a CUDA handle owns beside its stream (created by handle_init). */
struct Context {
  axb_handle h;
  cublasHandle_t blas;
  cudaEvent_t t0, t1;  /* transfer timing */
  double transfer_s;   /* seconds of host<->device copies not yet taken */
  int max_coop_blocks; /* co-resident blocks of the LU panel kernel, 0=?  */
  int sm_count;
  /* Look-ahead: the critical path (panels, next block column) runs on a
     high-priority stream of our own with its own cuBLAS handle, the bulk
     of each trailing update on the handle's stream; events order them. */
  cudaStream_t fast;
  cublasHandle_t blas_fast;
  cudaEvent_t ev_fast, ev_main;
  /* Pinned staging of host arrays (cuda_staging.cu): two halves of one
     pinned allocation, grown on demand up to stage_chunk bytes each and
     freed with the handle; stage_ev[i] marks the last copy through half i.
     stage_mode: 0 pageable copies, 1 pinned staging, 2 register the
     caller's array (AXB_CUDA_STAGING; read when the handle is made). */
  void *stage_buf;
  size_t stage_half; /* bytes of each half now allocated */
  size_t stage_chunk;
  int stage_mode;
  cudaEvent_t stage_ev[2];
  /* Stream-ordered scratch (dmalloc): a pool of the handle's own that keeps
     freed memory between calls (cuda_backend.cu says why); NULL: the
     device's default pool. */
  cudaMemPool_t pool;
};

/* The context of h (NULL when h is not a CUDA handle or has none). */
Context *context(axb_handle h);

inline cudaStream_t stream(axb_handle h) { return (cudaStream_t)h->stream; }

/* bytes of device memory on s, stream-ordered, from h's pool (free with
   cudaFreeAsync). */
cudaError_t dmalloc(axb_handle h, void **p, size_t bytes, cudaStream_t s);

/* Sets h's device for the scope and restores the caller's afterwards. */
struct DeviceScope {
  int previous = -1;
  explicit DeviceScope(int dev) {
    if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
    cudaSetDevice(dev);
  }
  ~DeviceScope() {
    if (previous >= 0) cudaSetDevice(previous);
  }
};

/* Turn a CUDA / cuBLAS error into a status with the detail message. */
axb_status fail_cuda(axb_handle h, cudaError_t e, const char *what);
axb_status fail_blas(axb_handle h, cublasStatus_t e, const char *what);
/* AXB_ERR_INVALID unless p (may be NULL) is device or managed memory: a
   CUDA handle's batched routines take device arrays (batched.cu). */
axb_status need_device(axb_handle h, const void *p, const char *what);

#define AXB_CU(h, call)                                                        \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) return axb_cuda::fail_cuda((h), e_, #call);         \
  } while (0)
#define AXB_BLAS(h, call)                                                      \
  do {                                                                         \
    cublasStatus_t e_ = (call);                                                \
    if (e_ != CUBLAS_STATUS_SUCCESS)                                           \
      return axb_cuda::fail_blas((h), e_, #call);                              \
  } while (0)

/* Reads the staging knobs (AXB_CUDA_STAGING, AXB_CUDA_STAGE_CHUNK) into c
   and creates its events; releases what staging holds (cuda_staging.cu). */
cudaError_t staging_init(Context *c);
void staging_release(Context *c);

/* Copy rows x cols bytes-wide blocks between host (ld in bytes) and device
   (cudaMemcpyHostToDevice or DeviceToHost), or device to device: host data
   moves through the context's pinned staging in chunks, double buffered
   (the host copy of chunk k+1 overlaps the DMA of chunk k); the elapsed
   time, host copies included, goes to the context's transfer clock.
   Returns when the copy is complete. */
axb_status copy_2d_bytes(axb_handle h, Context *ctx, void *dst, size_t ldd,
                         const void *src, size_t lds, size_t row_bytes,
                         size_t cols, cudaMemcpyKind kind);

/* Copy a rows x cols host block (ld) to/from a device block (ldd), timed
   into the context's transfer clock (copy_2d_bytes). */
template <typename T>
inline axb_status copy_2d(axb_handle h, Context *ctx, T *dst, int64_t ldd,
                          const T *src, int64_t lds, int64_t rows, int64_t cols,
                          cudaMemcpyKind kind) {
  if (rows <= 0 || cols <= 0) return AXB_SUCCESS;
  return copy_2d_bytes(h, ctx, dst, (size_t)ldd * sizeof(T), src,
                       (size_t)lds * sizeof(T), (size_t)rows * sizeof(T),
                       (size_t)cols, kind);
}

/* ---- cuBLAS overloads (64-bit sizes) ---------------------------------- */

inline cublasStatus_t trsm(cublasHandle_t b, cublasSideMode_t s,
                           cublasFillMode_t u, cublasOperation_t t,
                           cublasDiagType_t d, int64_t m, int64_t n,
                           const double *alpha, const double *A, int64_t lda,
                           double *B, int64_t ldb) {
  return cublasDtrsm_64(b, s, u, t, d, m, n, alpha, A, lda, B, ldb);
}
inline cublasStatus_t trsm(cublasHandle_t b, cublasSideMode_t s,
                           cublasFillMode_t u, cublasOperation_t t,
                           cublasDiagType_t d, int64_t m, int64_t n,
                           const float *alpha, const float *A, int64_t lda,
                           float *B, int64_t ldb) {
  return cublasStrsm_64(b, s, u, t, d, m, n, alpha, A, lda, B, ldb);
}
inline cublasStatus_t gemm(cublasHandle_t b, cublasOperation_t ta,
                           cublasOperation_t tb, int64_t m, int64_t n,
                           int64_t k, const double *alpha, const double *A,
                           int64_t lda, const double *B, int64_t ldb,
                           const double *beta, double *C, int64_t ldc) {
  return cublasDgemm_64(b, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                        ldc);
}
/* The compute type of the FP32 GEMMs and SYRKs this thread queues: FP32,
   or the tensor-core types of the mixed-precision factorizations
   (CUBLAS_COMPUTE_32F_FAST_TF32 / _FAST_16F / _FAST_16BF: the inputs
   rounded to TF32, FP16 or BF16 inside cuBLAS, FP32 accumulation and
   output).  Set only for the duration of one factorization by
   F32ComputeScope (cuda_mixed.cu); a handle is used by one thread at a
   time, so a thread-local setting cannot leak into another handle's work. */
extern thread_local cublasComputeType_t f32_compute;
/* C := alpha op(A) op(B) + beta C with A and B rounded to FP16 or BF16
   (copies in stream-ordered scratch on b's stream) and FP32 accumulation:
   cuBLAS runs CUBLAS_COMPUTE_32F_FAST_16F/16BF on FP32 inputs with its TF32
   kernels (ncu on the H100: cutlass tensorop_s1688gemm for all three), so
   the 16-bit factor precisions convert explicitly (cuda_mixed.cu). */
cublasStatus_t gemm_16bit(cublasHandle_t b, cublasOperation_t ta,
                          cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                          const float *alpha, const float *A, int64_t lda,
                          const float *B, int64_t ldb, const float *beta,
                          float *C, int64_t ldc, cublasComputeType_t mode);

inline cublasStatus_t gemm(cublasHandle_t b, cublasOperation_t ta,
                           cublasOperation_t tb, int64_t m, int64_t n,
                           int64_t k, const float *alpha, const float *A,
                           int64_t lda, const float *B, int64_t ldb,
                           const float *beta, float *C, int64_t ldc) {
  if (f32_compute == CUBLAS_COMPUTE_32F_FAST_16F ||
      f32_compute == CUBLAS_COMPUTE_32F_FAST_16BF)
    return gemm_16bit(b, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                      f32_compute);
  if (f32_compute != CUBLAS_COMPUTE_32F)
    return cublasGemmEx_64(b, ta, tb, m, n, k, alpha, A, CUDA_R_32F, lda, B,
                           CUDA_R_32F, ldb, beta, C, CUDA_R_32F, ldc,
                           f32_compute, CUBLAS_GEMM_DEFAULT);
  return cublasSgemm_64(b, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                        ldc);
}
inline cublasStatus_t syrk(cublasHandle_t b, cublasFillMode_t u,
                           cublasOperation_t t, int64_t n, int64_t k,
                           const double *alpha, const double *A, int64_t lda,
                           const double *beta, double *C, int64_t ldc) {
  return cublasDsyrk_64(b, u, t, n, k, alpha, A, lda, beta, C, ldc);
}
/* C := alpha op(A) op(A)^T + beta C (the uplo triangle of the n x n C;
   op(A) n x k) with every multiply-add on tensor cores (cuda_gemm16.cu):
   under f32_compute's tensor-core types, for the mixed-precision
   factorizations. */
cublasStatus_t syrk_tc(cublasHandle_t b, cublasFillMode_t u,
                       cublasOperation_t t, int64_t n, int64_t k,
                       const float *alpha, const float *A, int64_t lda,
                       const float *beta, float *C, int64_t ldc,
                       cublasComputeType_t mode);
/* FP32 SYRK: cuBLAS's (CUDA cores), or syrk_tc under a tensor-core
   compute type (f32_compute). */
inline cublasStatus_t syrk(cublasHandle_t b, cublasFillMode_t u,
                           cublasOperation_t t, int64_t n, int64_t k,
                           const float *alpha, const float *A, int64_t lda,
                           const float *beta, float *C, int64_t ldc) {
  if (f32_compute == CUBLAS_COMPUTE_32F)
    return cublasSsyrk_64(b, u, t, n, k, alpha, A, lda, beta, C, ldc);
  return syrk_tc(b, u, t, n, k, alpha, A, lda, beta, C, ldc, f32_compute);
}

/* ---- kernels (cuda_kernels.cu) ----------------------------------------- */

/* Width of the LU leaf panel (columns factored by one cooperative launch). */
constexpr int kLeafWidth = 32;
/* Most interchanges one laswp plan holds. */
constexpr int kSwapBatch = 256;

/* A plan of row moves: A[dst[e], :] := A(before)[src[e], :], e < count. */
struct SwapPlan {
  int64_t *count; /* device: 1 entry */
  int64_t *dst;   /* device: 2 * kSwapBatch */
  int64_t *src;   /* device: 2 * kSwapBatch */
};

/* Scratch of the LU leaf kernel (device memory, allocated per getrf). */
template <typename T> struct LeafScratch {
  T *cval;       /* 2 * max_blocks candidate magnitudes  */
  int64_t *cidx; /* 2 * max_blocks candidate rows        */
  T *crow;       /* 2 * max_blocks * kLeafWidth rows     */
  T *jrow;       /* 2 * kLeafWidth                       */
  int max_blocks;
};

/* Factor the m - c by w block A[c:m, c:c+w] (w <= kLeafWidth) with partial
   pivoting in one launch on st: ipiv[c..c+w) (1-based, global rows),
   *info (first zero pivot, if *info was 0) and the plan of the leaf's
   interchanges for the other columns. */
template <typename T>
axb_status lu_leaf(axb_handle h, Context *ctx, cudaStream_t st, int64_t m,
                   int64_t c, int w, T *A, int64_t lda, int64_t *ipiv,
                   int64_t *info, const LeafScratch<T> &s, SwapPlan plan);
/* The leaf width lu_panel should use for a leaf of `rows` rows: 16 where
   only the 16-column cluster leaf holds them, else kLeafWidth. */
template <typename T> int lu_leaf_width(axb_handle h, int64_t rows);
/* Blocks of the leaf kernel that can be co-resident (for LeafScratch). */
template <typename T> int lu_leaf_max_blocks(axb_handle h, Context *ctx);

/* Plan of the interchanges ipiv[k1..k2) (k2 - k1 <= kSwapBatch), applied in
   increasing (forward) or decreasing order. */
template <typename T>
axb_status swap_plan(axb_handle h, cudaStream_t st, int64_t k1, int64_t k2,
                     const int64_t *ipiv, int forward, SwapPlan plan);
/* Apply a plan to columns [0, c_skip) and [c_skip + n_skip, ncols) of A. */
template <typename T>
axb_status swap_apply(axb_handle h, cudaStream_t st, SwapPlan plan, T *A,
                      int64_t lda, int64_t ncols, int64_t c_skip,
                      int64_t n_skip);
/* A leaf's plan (w <= kLeafWidth interchanges at rows c..c+w) on the same
   columns as swap_apply, and on those with index >= solve_from also
   rows c..c+w := L^-1 (rows c..c+w), L the unit lower w x w block at L. */
template <typename T>
axb_status swap_trsm(axb_handle h, cudaStream_t st, SwapPlan plan, T *A,
                     int64_t lda, int64_t ncols, int64_t c_skip, int64_t n_skip,
                     int64_t c, int w, const T *L, int64_t solve_from);

/* X := I (n x n, ld ldx). */
template <typename T>
axb_status set_identity(axb_handle h, int64_t n, T *X, int64_t ldx);
/* *info := first i with U(i,i) == 0 (1-based), or 0. */
template <typename T>
axb_status diag_zero_info(axb_handle h, int64_t n, const T *A, int64_t lda,
                          int64_t *info);

/* ---- algorithms on device arrays (cuda_dense.cu) ---------------------- */

template <typename T>
axb_status getrf_dev(axb_handle h, int64_t m, int64_t n, T *dA, int64_t ldda,
                     int64_t *dipiv, int64_t *dinfo);
template <typename T>
axb_status getrs_dev(axb_handle h, axb_trans trans, int64_t n, int64_t nrhs,
                     const T *dA, int64_t ldda, const int64_t *dipiv, T *dB,
                     int64_t lddb);
template <typename T>
axb_status laswp_dev(axb_handle h, int64_t n, T *dA, int64_t ldda, int64_t k1,
                     int64_t k2, const int64_t *dipiv, int64_t incx);
template <typename T>
axb_status potrf_dev(axb_handle h, axb_uplo uplo, int64_t n, T *dA,
                     int64_t ldda, int64_t *dinfo);
template <typename T>
axb_status potrs_dev(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                     const T *dA, int64_t ldda, T *dB, int64_t lddb);
template <typename T>
axb_status getri_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,
                     const int64_t *dipiv, int64_t *dinfo);

/* Blocked Gauss-Jordan inverse in place (cuda_gj.cu). */
template <typename T>
axb_status getri_gj_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,
                        int64_t *dinfo);

/* Fill the CUDA table's entries (cuda_dense_host.cu; getri_gj: cuda_gj.cu,
   after the study table, whose per-pivot getri_gj stays as getri_gj_unblocked).
 */
void fill_table(axb_backend_ops *ops);
void fill_gj_table(axb_backend_ops *ops);
/* The mixed-precision session (cuda_mixed.cu). */
void fill_mixed_table(axb_backend_ops *ops);

} // namespace axb_cuda

#endif
