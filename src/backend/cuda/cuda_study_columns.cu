/*
 * The column-oriented Cholesky kernels of SEEDS.md 3 (potrf_columns,
 * potrf_crout).  A host-array entry of the CUDA table that stages A through
 * device memory; see cuda_study.cu for the whole set.
 */
#include "cuda_study_internal.cuh"

namespace axb_cuda {

namespace {

/* ======================================================================= */
/* Column-oriented Cholesky (SEEDS.md 3)                                   */
/* ======================================================================= */

/* The diagonal of column j: d = a_jj - sum_{k<j} l_jk^2 by one block
   (strided partial sums, tree in shared memory); l_jj = sqrt(d), or *info
   = j + 1 when d is not positive (NaN included). */
template <typename T>
__global__ void chol_diag_kernel(const T *A, int64_t lda, T *L, int64_t ldl,
                                 int64_t j, int64_t *info) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *part = (T *)smem;
  if (*info) return;
  T acc = 0;
  for (int64_t k = threadIdx.x; k < j; k += blockDim.x) {
    const T v = L[j + k * ldl];
    acc += v * v;
  }
  block_sum(part, acc);
  if (threadIdx.x == 0) {
    const T d = A[j + j * lda] - part[0];
    if (d > T(0))
      L[j + j * ldl] = sqrt(d);
    else
      *info = j + 1;
  }
}

/* Off-diagonal of column j, one thread per row i > j (two-kernel form):
   l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj.  Consecutive threads read
   consecutive rows of each column k of L: coalesced. */
template <typename T>
__global__ void chol_offdiag_kernel(int64_t n, const T *A, int64_t lda, T *L,
                                    int64_t ldl, int64_t j,
                                    const int64_t *info) {
  if (*info) return;
  const int64_t i = j + 1 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T s = A[i + j * lda];
  for (int64_t k = 0; k < j; ++k)
    s -= L[i + k * ldl] * L[j + k * ldl];
  L[i + j * ldl] = s / L[j + j * ldl];
}

/* Single-kernel form: every thread of column j (rows i >= j) recomputes
   d = a_jj - sum_{k<j} l_jk^2 itself, then its own l_ij = s / sqrt(d); a
   non-positive d is recorded by row j's thread and nobody divides by it.
   The kernel writes only the strictly lower part of column j: in place
   (L == A) a write of l_jj would race with the other threads' reads of
   a_jj.  No later column reads a diagonal entry of L, so the diagonal is
   written once at the end by chol_single_diag_kernel, with the same
   arithmetic (hence the same bits). */
template <typename T>
__global__ void chol_single_kernel(int64_t n, const T *A, int64_t lda, T *L,
                                   int64_t ldl, int64_t j, int64_t *info) {
  if (*info) return;
  const int64_t i = j + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T d = A[j + j * lda], s = A[i + j * lda];
  for (int64_t k = 0; k < j; ++k) {
    const T ljk = L[j + k * ldl];
    d -= ljk * ljk;
    s -= L[i + k * ldl] * ljk;
  }
  if (!(d > T(0))) {
    if (i == j) *info = j + 1;
    return;
  }
  if (i > j) L[i + j * ldl] = s / sqrt(d);
}

/* l_jj = sqrt(a_jj - sum_{k<j} l_jk^2) for the columns the loop factored:
   all n, or the info - 1 before a non-positive pivot. */
template <typename T>
__global__ void chol_single_diag_kernel(int64_t n, const T *A, int64_t lda,
                                        T *L, int64_t ldl,
                                        const int64_t *info) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= (*info ? *info - 1 : n)) return;
  T d = A[j + j * lda];
  for (int64_t k = 0; k < j; ++k) {
    const T ljk = L[j + k * ldl];
    d -= ljk * ljk;
  }
  L[j + j * ldl] = sqrt(d);
}

/* dA's lower triangle := dL's (both ld n). */
template <typename T>
__global__ void chol_lower_copy_kernel(int64_t n, const T *L, T *A) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const int64_t i = t % n, j = t / n;
  if (i >= j) A[t] = L[t];
}

template <typename T>
axb_status potrf_columns_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,
                             T *dL, int64_t lddl, int kernels, int threads,
                             int64_t *dinfo) {
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, sizeof(int64_t), s));
  for (int64_t j = 0; j < n; ++j) {
    if (kernels == 1) {
      chol_single_kernel<T><<<blocks_for(n - j, threads), threads, 0, s>>>(
          n, dA, ldda, dL, lddl, j, dinfo);
    } else {
      chol_diag_kernel<T><<<1, threads, threads * sizeof(T), s>>>(
          dA, ldda, dL, lddl, j, dinfo);
      if (j + 1 < n)
        chol_offdiag_kernel<T>
            <<<blocks_for(n - j - 1, threads), threads, 0, s>>>(n, dA, ldda, dL,
                                                                lddl, j, dinfo);
    }
    AXB_CU(h, cudaGetLastError());
  }
  if (kernels == 1 && n > 0) {
    chol_single_diag_kernel<T><<<blocks_for(n, threads), threads, 0, s>>>(
        n, dA, ldda, dL, lddl, dinfo);
    AXB_CU(h, cudaGetLastError());
  }
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_potrf_columns(axb_handle h, int64_t n, T *A, int64_t lda,
                              const axb_potrf_columns_opts *o, int64_t *info) {
  *info = 0;
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  const size_t nn = (size_t)n * (size_t)n;
  const int out_of_place = !o->in_place;
  Scratch buf(h);
  axb_status rc = buf.alloc((out_of_place ? 2 : 1) * nn * sizeof(T) + 256 +
                            sizeof(int64_t));
  if (rc) return rc;
  T *dA = (T *)buf.p;
  T *dL = out_of_place ? dA + nn : dA;
  int64_t *dinfo =
      (int64_t *)(((uintptr_t)(dA + (out_of_place ? 2 : 1) * nn) + 255) &
                  ~(uintptr_t)255);
  if ((rc = copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice)))
    return rc;
  if (out_of_place)
    AXB_CU(h, cudaMemsetAsync(dL, 0, nn * sizeof(T), stream(h)));
  if ((rc = potrf_columns_dev<T>(h, n, dA, n, dL, n, o->kernels, o->threads,
                                 dinfo)))
    return rc;
  AXB_CU(h, cudaMemcpyAsync(info, dinfo, sizeof(int64_t),
                            cudaMemcpyDeviceToHost, stream(h)));
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  /* Only the lower triangle is the result; dA's upper triangle is still
     the caller's (bit for bit), so one download of dA restores it. */
  if (out_of_place) {
    chol_lower_copy_kernel<T>
        <<<blocks_for((int64_t)nn, 256), 256, 0, stream(h)>>>(n, dL, dA);
    AXB_CU(h, cudaGetLastError());
  }
  if ((rc = copy_2d<T>(h, ctx, A, lda, dA, n, n, n, cudaMemcpyDeviceToHost)))
    return rc;
  return *info ? AXB_ERR_NOT_SPD : AXB_SUCCESS;
}

template <typename T>
axb_status host_potrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,
                            int64_t *info) {
  axb_potrf_columns_opts o;
  axb_potrf_columns_opts_default(&o);
  o.kernels = 2;
  o.in_place = 1;
  o.threads = 256;
  return host_potrf_columns<T>(h, n, A, lda, &o, info);
}

} // namespace

void fill_study_columns(axb_backend_ops *ops) {
  ops->d.potrf_columns = host_potrf_columns<double>;
  ops->s.potrf_columns = host_potrf_columns<float>;
  ops->d.potrf_crout = host_potrf_crout<double>;
  ops->s.potrf_crout = host_potrf_crout<float>;
}

} // namespace axb_cuda
