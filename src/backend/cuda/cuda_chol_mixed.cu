/*
 * Cholesky for the mixed-precision solve with (nearly) every multiply-add
 * on tensor cores (cuda_chol_mixed.h).
 *
 * potrf_dev factors a block column's panel (diagonal block and the rows
 * below it) with the FP32 tile kernel, on CUDA cores: n^2 NB / 2 of the
 * n^3 / 3 multiply-adds, which bounded the mixed Cholesky (1.6x cuSOLVER's
 * FP64 at n = 32768 where the tensor cores alone would give ~5x; measured
 * on the H100, docs/notes/mixed.md).  Here, per block of nb columns (lower;
 * upper is the mirror image, U = L^T; nb = 2048, the best of 512, 1024 and
 * 2048 at n = 32768):
 *     L11 L11^T = A11                  potrf_dev on nb x nb (CUDA cores)
 *     W = L11^-1                       TRSM on the identity (nb^3 / 3)
 *     L21 = A21 W^T                    GEMM, TF32 tensor cores
 *     A22 -= L21 L21^T                 syrk(), f32_compute tensor cores
 * The explicit inverse costs accuracy only through kappa(L11), which the
 * diagonal scaling keeps small, and the answer is certified in FP64 by the
 * driver anyway.  The panel GEMM stays TF32 even for the 16-bit factor
 * precisions: it is a small share of the work, and W's entries are not
 * bounded by FP16's range.
 */
#include "cuda_chol_mixed.h"

#include <stdlib.h>

namespace axb_cuda {

namespace {

/* W := I (w x w, ld w). */
__global__ void identity_kernel(int64_t w, float *W) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= w) return;
  for (int64_t j = blockIdx.y; j < w; j += gridDim.y)
    W[i + j * w] = i == j ? 1.0f : 0.0f;
}

int64_t block_width() {
  static const int64_t nb = [] {
    const char *e = getenv("AXB_MIXED_CHOL_NB");
    long v = e ? atol(e) : 0;
    return (int64_t)(v >= 64 && v <= 4096 ? v : 2048);
  }();
  return nb;
}

/* C := op(A) op(B) (beta 0) on TF32 tensor cores, or FP32 when the
   factorization runs in FP32 (f32_compute). */
cublasStatus_t gemm_tf32(cublasHandle_t b, cublasOperation_t ta,
                         cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                         const float *A, int64_t lda, const float *B,
                         int64_t ldb, float *C, int64_t ldc) {
  const float one = 1, zero = 0;
  if (f32_compute == CUBLAS_COMPUTE_32F)
    return cublasSgemm_64(b, ta, tb, m, n, k, &one, A, lda, B, ldb, &zero, C,
                          ldc);
  return cublasGemmEx_64(b, ta, tb, m, n, k, &one, A, CUDA_R_32F, lda, B,
                         CUDA_R_32F, ldb, &zero, C, CUDA_R_32F, ldc,
                         CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
}

} // namespace

axb_status chol_tc(axb_handle h, axb_uplo uplo, int64_t n, float *F, int64_t ld,
                   int64_t *dinfo) {
  Context *ctx = context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  cudaStream_t st = stream(h);
  const bool lower = uplo == AXB_LOWER;
  const int64_t nb = n < block_width() ? n : block_width();
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, sizeof(int64_t), st));
  /* scratch: W (nb x nb), T (n x nb), the block's info */
  float *W = nullptr;
  const size_t bytes = ((size_t)nb * nb + (size_t)n * nb) * sizeof(float);
  if (dmalloc(h, (void **)&W, bytes + sizeof(int64_t), st) != cudaSuccess) {
    cudaGetLastError();
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "mixed Cholesky: %zu bytes of device scratch", bytes);
  }
  float *T = W + nb * nb;
  int64_t *binfo = (int64_t *)((char *)W + bytes);
  axb_status e = AXB_SUCCESS;
  const float one = 1, minus = -1;
  for (int64_t k = 0; k < n && !e; k += nb) {
    const int64_t w = n - k < nb ? n - k : nb, r = n - k - w;
    float *Akk = F + k + k * ld;
    e = h->ops->s.potrf_dev(h, uplo, w, Akk, ld, binfo);
    int64_t bi = 0;
    if (!e) {
      cudaError_t ce =
          cudaMemcpyAsync(&bi, binfo, sizeof bi, cudaMemcpyDeviceToHost, st);
      if (!ce) ce = cudaStreamSynchronize(st);
      if (ce) e = fail_cuda(h, ce, "mixed Cholesky: block info");
    }
    if (!e && bi > 0) { /* not positive definite: the global minor */
      int64_t minor = k + bi;
      cudaError_t ce = cudaMemcpyAsync(dinfo, &minor, sizeof minor,
                                       cudaMemcpyHostToDevice, st);
      if (!ce) ce = cudaStreamSynchronize(st);
      if (ce) e = fail_cuda(h, ce, "mixed Cholesky: info");
      break;
    }
    if (e || r == 0) break;
    dim3 grid((unsigned)((w + 255) / 256), (unsigned)w);
    identity_kernel<<<grid, 256, 0, st>>>(w, W);
    cudaError_t ce = cudaGetLastError();
    if (ce) {
      e = fail_cuda(h, ce, "mixed Cholesky: identity");
      break;
    }
    cublasStatus_t be = cublasSetStream(ctx->blas, st);
    /* W := L11^-1 (lower) or U11^-1 (upper) */
    if (!be)
      be = cublasStrsm_64(
          ctx->blas, CUBLAS_SIDE_LEFT,
          lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
          CUBLAS_DIAG_NON_UNIT, w, w, &one, Akk, ld, W, w);
    float *P = lower ? Akk + w : Akk + w * ld; /* A21 (r x w) or A12 */
    float *A22 = Akk + w + w * ld;
    if (!be && lower) /* T := A21 W^T, then A22 -= L21 L21^T */
      be = gemm_tf32(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_T, r, w, w, P, ld, W, w,
                     T, r);
    else if (!be) /* T := W^T A12, then A22 -= U12^T U12 */
      be = gemm_tf32(ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, w, r, w, W, w, P, ld,
                     T, w);
    if (be) {
      e = fail_blas(h, be, "mixed Cholesky: panel");
      break;
    }
    ce = lower ? cudaMemcpy2DAsync(P, ld * sizeof(float), T, r * sizeof(float),
                                   r * sizeof(float), w,
                                   cudaMemcpyDeviceToDevice, st)
               : cudaMemcpy2DAsync(P, ld * sizeof(float), T, w * sizeof(float),
                                   w * sizeof(float), r,
                                   cudaMemcpyDeviceToDevice, st);
    if (ce) {
      e = fail_cuda(h, ce, "mixed Cholesky: panel copy");
      break;
    }
    be = syrk(
        ctx->blas, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
        lower ? CUBLAS_OP_N : CUBLAS_OP_T, r, w, &minus, P, ld, &one, A22, ld);
    if (be) e = fail_blas(h, be, "mixed Cholesky: update");
  }
  cudaFreeAsync(W, st);
  return e;
}

} // namespace axb_cuda
