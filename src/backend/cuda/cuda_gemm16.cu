/*
 * FP32 products on tensor cores (declared in cuda_internal.h), for the
 * mixed-precision factorizations.  gemm_16bit: C := alpha op(A) op(B) + beta C
 * with A and B rounded to FP16 or BF16 in stream-ordered scratch, FP32
 * accumulation and output.  cuBLAS runs CUBLAS_COMPUTE_32F_FAST_16F/16BF on
 * FP32 inputs with its TF32 kernels (ncu on the H100), so the 16-bit factor
 * precisions convert explicitly.  The operands are not scaled: the
 * factors' entries are bounded (|L| <= 1 with partial pivoting and for the
 * Cholesky factor of the diagonally scaled A), and an entry beyond FP16's
 * 65504 (a large U) becomes Inf, which the driver's checks turn into a
 * fallback to the next precision.
 * syrk_tc: the symmetric update C := alpha op(A) op(A)^T + beta C of a
 * Cholesky factor's trailing matrix with every multiply-add on tensor
 * cores (TF32, FP16 or BF16).  op(A) is rounded to 16 bits once, not once
 * per product (ncu, FP16 Cholesky at n = 32768 on the H100: 18 ms per
 * solve went to the per-product conversions), and each diagonal block is
 * a full square GEMM into scratch whose triangle is added to C (twice its
 * multiply-adds, on tensor cores) instead of cuBLAS's FP32 SYRK on CUDA
 * cores (27 ms per solve at 32768, 1024-column blocks).
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

/* The uplo triangle, diagonal included, of the w x w C := beta C + S
   (S w x w, ld w); beta 0 does not read C (BLAS semantics). */
__global__ void tri_add_kernel(int lower, int64_t w, const float *S, float beta,
                               float *C, int64_t ldc) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= w) return;
  for (int64_t j = blockIdx.y; j < w; j += gridDim.y)
    if (lower ? i >= j : i <= j) {
      float *c = C + i + j * ldc;
      *c = (beta == 0 ? 0 : beta * *c) + S[i + j * w];
    }
}

/* Column block of syrk_tc's update: its diagonal block in scratch. */
constexpr int64_t kSyrkTile = 1024;

} // namespace

cublasStatus_t syrk_tc(cublasHandle_t b, cublasFillMode_t u,
                       cublasOperation_t t, int64_t n, int64_t k,
                       const float *alpha, const float *A, int64_t lda,
                       const float *beta, float *C, int64_t ldc,
                       cublasComputeType_t mode) {
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (k <= 0) /* C := beta C: nothing to multiply */
    return cublasSsyrk_64(b, u, t, n, k, alpha, A, lda, beta, C, ldc);
  cudaStream_t st;
  cublasStatus_t e = cublasGetStream(b, &st);
  if (e != CUBLAS_STATUS_SUCCESS) return e;
  const bool notr = t == CUBLAS_OP_N, lower = u == CUBLAS_FILL_MODE_LOWER;
  const bool h16 = mode == CUBLAS_COMPUTE_32F_FAST_16F ||
                   mode == CUBLAS_COMPUTE_32F_FAST_16BF;
  const bool half = mode == CUBLAS_COMPUTE_32F_FAST_16F;
  const int64_t rows = notr ? n : k, cols = notr ? k : n; /* A as stored */
  const int64_t w0 = n < kSyrkTile ? n : kSyrkTile;
  const size_t sbytes = ((size_t)(w0 * w0) * sizeof(float) + 255) / 256 * 256;
  const size_t hbytes = h16 ? (size_t)(rows * cols) * 2 : 0;
  void *buf = nullptr;
  if (cudaMallocAsync(&buf, sbytes + hbytes, st) != cudaSuccess) {
    cudaGetLastError();
    return CUBLAS_STATUS_ALLOC_FAILED;
  }
  float *S = (float *)buf;
  const void *Ah = A;
  int64_t la = lda;
  size_t es = sizeof(float);
  cudaDataType_t dt = CUDA_R_32F;
  cublasComputeType_t ct = mode; /* TF32: cuBLAS rounds the FP32 inputs */
  cudaError_t ce = cudaSuccess;
  if (h16) {
    void *H = (char *)buf + sbytes;
    ce = half ? to16<__half>(st, rows, cols, A, lda, (__half *)H)
              : to16<__nv_bfloat16>(st, rows, cols, A, lda, (__nv_bfloat16 *)H);
    Ah = H, la = rows, es = 2;
    dt = half ? CUDA_R_16F : CUDA_R_16BF;
    ct = CUBLAS_COMPUTE_32F;
  }
  /* rows i.. of op(A) */
  auto at = [&](int64_t i) {
    return (const void *)((const char *)Ah + (size_t)(notr ? i : i * la) * es);
  };
  const cublasOperation_t oa = notr ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t ob = notr ? CUBLAS_OP_T : CUBLAS_OP_N;
  const float zero = 0;
  for (int64_t j = 0; j < n && !ce && e == CUBLAS_STATUS_SUCCESS; j += w0) {
    const int64_t w = n - j < w0 ? n - j : w0, rest = n - j - w;
    e = cublasGemmEx_64(b, oa, ob, w, w, k, alpha, at(j), dt, la, at(j), dt, la,
                        &zero, S, CUDA_R_32F, w, ct, CUBLAS_GEMM_DEFAULT);
    if (e != CUBLAS_STATUS_SUCCESS) break;
    dim3 grid((unsigned)((w + 255) / 256), (unsigned)w);
    tri_add_kernel<<<grid, 256, 0, st>>>(lower, w, S, *beta, C + j + j * ldc,
                                         ldc);
    ce = cudaGetLastError();
    if (ce || rest == 0) continue;
    if (lower) /* C[j+w:, j:j+w] := alpha op(A)_r op(A)_j^T + beta C */
      e = cublasGemmEx_64(b, oa, ob, rest, w, k, alpha, at(j + w), dt, la,
                          at(j), dt, la, beta, C + (j + w) + j * ldc,
                          CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT);
    else /* C[j:j+w, j+w:] := alpha op(A)_j op(A)_r^T + beta C */
      e = cublasGemmEx_64(b, oa, ob, w, rest, k, alpha, at(j), dt, la,
                          at(j + w), dt, la, beta, C + j + (j + w) * ldc,
                          CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT);
  }
  cudaFreeAsync(buf, st);
  if (ce) return CUBLAS_STATUS_EXECUTION_FAILED;
  return e;
}

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
