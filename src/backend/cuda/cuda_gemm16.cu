/*
 * FP32 products on 16-bit tensor cores (declared in cuda_internal.h), for
 * the mixed-precision factorizations: C := alpha op(A) op(B) + beta C with
 * A and B rounded to FP16 or BF16 in stream-ordered scratch, FP32
 * accumulation and output.  cuBLAS runs CUBLAS_COMPUTE_32F_FAST_16F/16BF on
 * FP32 inputs with its TF32 kernels (ncu on the H100), so the 16-bit factor
 * precisions convert explicitly.  The operands are not scaled: the
 * factors' entries are bounded (|L| <= 1 with partial pivoting and for the
 * Cholesky factor of the diagonally scaled A), and an entry beyond FP16's
 * 65504 (a large U) becomes Inf, which the driver's checks turn into a
 * fallback to the next precision.
 */
#include "cuda_internal.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace axb_cuda {

namespace {

/* Y (rows x cols, ld rows) := X (ld ldx) rounded to 16 bits. */
template <typename H>
__global__ void to16_kernel(int64_t rows, int64_t cols, const float *X,
                            int64_t ldx, H *Y) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  for (int64_t j = blockIdx.y; j < cols; j += gridDim.y)
    Y[i + j * rows] = (H)X[i + j * ldx];
}

template <typename H>
cudaError_t to16(cudaStream_t st, int64_t rows, int64_t cols, const float *X,
                 int64_t ldx, H *Y) {
  dim3 grid((unsigned)((rows + 255) / 256),
            (unsigned)(cols < 65535 ? cols : 65535));
  to16_kernel<H><<<grid, 256, 0, st>>>(rows, cols, X, ldx, Y);
  return cudaGetLastError();
}

} // namespace

cublasStatus_t gemm_16bit(cublasHandle_t b, cublasOperation_t ta,
                          cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                          const float *alpha, const float *A, int64_t lda,
                          const float *B, int64_t ldb, const float *beta,
                          float *C, int64_t ldc, cublasComputeType_t mode) {
  if (m <= 0 || n <= 0) return CUBLAS_STATUS_SUCCESS;
  cudaStream_t st;
  cublasStatus_t e = cublasGetStream(b, &st);
  if (e != CUBLAS_STATUS_SUCCESS) return e;
  /* A is stored ra x ca, B rb x cb (as the operands are, before op) */
  const int64_t ra = ta == CUBLAS_OP_N ? m : k, ca = ta == CUBLAS_OP_N ? k : m;
  const int64_t rb = tb == CUBLAS_OP_N ? k : n, cb = tb == CUBLAS_OP_N ? n : k;
  const bool half = mode == CUBLAS_COMPUTE_32F_FAST_16F;
  const size_t es = 2, na = (size_t)(ra * ca), nb = (size_t)(rb * cb);
  void *buf = nullptr;
  if (k > 0 && cudaMallocAsync(&buf, (na + nb) * es + 256, st) != cudaSuccess)
    return CUBLAS_STATUS_ALLOC_FAILED;
  void *Ah = buf, *Bh = (char *)buf + ((na * es + 255) / 256) * 256;
  cudaError_t ce = cudaSuccess;
  if (k > 0 && half) {
    ce = to16<__half>(st, ra, ca, A, lda, (__half *)Ah);
    if (!ce) ce = to16<__half>(st, rb, cb, B, ldb, (__half *)Bh);
  } else if (k > 0) {
    ce = to16<__nv_bfloat16>(st, ra, ca, A, lda, (__nv_bfloat16 *)Ah);
    if (!ce) ce = to16<__nv_bfloat16>(st, rb, cb, B, ldb, (__nv_bfloat16 *)Bh);
  }
  const cudaDataType_t t = half ? CUDA_R_16F : CUDA_R_16BF;
  if (ce == cudaSuccess)
    e = cublasGemmEx_64(b, ta, tb, m, n, k, alpha, Ah, t, ra > 0 ? ra : 1, Bh,
                        t, rb > 0 ? rb : 1, beta, C, CUDA_R_32F, ldc,
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  else
    e = CUBLAS_STATUS_EXECUTION_FAILED;
  if (buf) cudaFreeAsync(buf, st);
  return e;
}

} // namespace axb_cuda
