/*
 * The per-pivot Gauss-Jordan inverse of SEEDS.md 4 (getri_gj,
 * getri_gj_unblocked).  A host-array entry of the CUDA table that stages A
 * through device memory; see cuda_study.cu for the whole set.
 */
#include "cuda_study_internal.cuh"

namespace axb_cuda {

namespace {

/* ======================================================================= */
/* Per-pivot Gauss-Jordan on [A | I] (SEEDS.md 4)                          */
/* ======================================================================= */

constexpr int kGjThreads = 256;

/* M := [A | I] row-major (ld 2n) from column-major A (ld lda). */
template <typename T>
__global__ void gj_build_kernel(int64_t n, const T *A, int64_t lda, T *M) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * n * n) return;
  const int64_t i = t / (2 * n), j = t % (2 * n);
  M[t] = j < n ? A[i + j * lda] : (j - n == i ? T(1) : T(0));
}

/* A := right half of M (column-major, ld lda). */
template <typename T>
__global__ void gj_extract_kernel(int64_t n, const T *M, T *A, int64_t lda) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const int64_t i = t % n, j = t / n;
  A[i + j * lda] = M[i * 2 * n + n + j];
}

/* Pivot of column k over rows k..n-1, decided on the device: the largest
   |m_ik| (first on ties, NaN never wins); a zero column sets *info = k + 1
   (first one only) and the later kernels do nothing. */
template <typename T>
__global__ void __launch_bounds__(kGjThreads)
    gj_pivot_kernel(int64_t n, const T *M, int64_t k, int64_t *piv, T *pval,
                    int64_t *info) {
  __shared__ T sv[kGjThreads];
  __shared__ int64_t si[kGjThreads];
  if (*info) return;
  T best = -1;
  int64_t bi = n;
  for (int64_t i = k + threadIdx.x; i < n; i += blockDim.x) {
    const T v = absv(M[i * 2 * n + k]);
    if (v > best) {
      best = v;
      bi = i;
    }
  }
  block_best_tree(sv, si, best, bi);
  if (threadIdx.x == 0) {
    if (si[0] >= n || !(sv[0] > T(0))) {
      *info = k + 1;
    } else {
      *piv = si[0];
      *pval = M[si[0] * 2 * n + k];
    }
  }
}

/* Swap rows k and p (columns k..2n-1: to the left both rows hold zeros)
   and divide the new row k by the pivot value saved by gj_pivot_kernel. */
template <typename T>
__global__ void gj_normalise_kernel(int64_t n, T *M, int64_t k,
                                    const int64_t *piv, const T *pval,
                                    const int64_t *info) {
  if (*info) return;
  const int64_t j = k + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= 2 * n) return;
  const int64_t p = *piv;
  const T pv = *pval;
  const T a = M[p * 2 * n + j];
  if (p != k) M[p * 2 * n + j] = M[k * 2 * n + j];
  M[k * 2 * n + j] = a / pv;
}

/* Row i != k (one block per row, threads strided over the columns
   k+1..2n-1): m_ij -= m_ik m_kj.  Column k itself is left to the fix
   kernel, so m_ik stays readable for the whole block. */
template <typename T>
__global__ void __launch_bounds__(kGjThreads)
    gj_eliminate_kernel(int64_t n, T *M, int64_t k, const int64_t *info) {
  if (*info) return;
  const int64_t i = blockIdx.x;
  if (i == k) return;
  const T f = M[i * 2 * n + k];
  if (f == T(0)) return;
  const T *rk = M + k * 2 * n;
  T *ri = M + i * 2 * n;
  for (int64_t j = k + 1 + threadIdx.x; j < 2 * n; j += blockDim.x)
    ri[j] -= f * rk[j];
}

/* Column k := e_k. */
template <typename T>
__global__ void gj_fix_kernel(int64_t n, T *M, int64_t k, const int64_t *info) {
  if (*info) return;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) M[i * 2 * n + k] = i == k ? T(1) : T(0);
}

template <typename T>
axb_status getri_gj_dev(axb_handle h, int64_t n, T *dA, int64_t ldda, T *M,
                        int64_t *dpiv, T *dpval, int64_t *dinfo) {
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, sizeof(int64_t), s));
  gj_build_kernel<T><<<blocks_for(2 * n * n, 256), 256, 0, s>>>(n, dA, ldda, M);
  AXB_CU(h, cudaGetLastError());
  for (int64_t k = 0; k < n; ++k) {
    gj_pivot_kernel<T><<<1, kGjThreads, 0, s>>>(n, M, k, dpiv, dpval, dinfo);
    gj_normalise_kernel<T><<<blocks_for(2 * n - k, 256), 256, 0, s>>>(
        n, M, k, dpiv, dpval, dinfo);
    gj_eliminate_kernel<T><<<(unsigned)n, kGjThreads, 0, s>>>(n, M, k, dinfo);
    gj_fix_kernel<T><<<blocks_for(n, 256), 256, 0, s>>>(n, M, k, dinfo);
    AXB_CU(h, cudaGetLastError());
  }
  gj_extract_kernel<T><<<blocks_for(n * n, 256), 256, 0, s>>>(n, M, dA, ldda);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_getri_gj(axb_handle h, int64_t n, T *A, int64_t lda,
                         int64_t *info) {
  *info = 0;
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  const size_t nn = (size_t)n * (size_t)n;
  Scratch buf(h);
  axb_status rc =
      buf.alloc(3 * nn * sizeof(T) + 512 + 2 * sizeof(int64_t) + sizeof(T));
  if (rc) return rc;
  T *dA = (T *)buf.p, *M = dA + nn;
  char *tail = (char *)(((uintptr_t)(M + 2 * nn) + 255) & ~(uintptr_t)255);
  int64_t *dinfo = (int64_t *)tail, *dpiv = dinfo + 1;
  T *dpval = (T *)(tail + 256);
  if ((rc = copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice)))
    return rc;
  if ((rc = getri_gj_dev<T>(h, n, dA, n, M, dpiv, dpval, dinfo))) return rc;
  AXB_CU(h, cudaMemcpyAsync(info, dinfo, sizeof(int64_t),
                            cudaMemcpyDeviceToHost, stream(h)));
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  if (*info) return AXB_ERR_SINGULAR; /* A is left as it was */
  return copy_2d<T>(h, ctx, A, lda, dA, n, n, n, cudaMemcpyDeviceToHost);
}

} // namespace

void fill_study_gj(axb_backend_ops *ops) {
  ops->d.getri_gj = ops->d.getri_gj_unblocked = host_getri_gj<double>;
  ops->s.getri_gj = ops->s.getri_gj_unblocked = host_getri_gj<float>;
}

} // namespace axb_cuda
