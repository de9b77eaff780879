/*
 * Matrix operations of the CUDA sparse table (sparse_ops.h): SpMV with
 * alpha/beta, the true residual, the Jacobi diagonal, and the fused kernels
 * of the single-reduction CG (SEEDS.md, the 2007 thesis; Chronopoulos and
 * Gear): s = A z with <r,z>, <z,s>, <r,r> in the same pass over the rows,
 * one reduction, one host read; and one elementwise update of p, t, x, r.
 */
#include "spcuda_internal.cuh"

#include <math.h>

using namespace axb_spcuda;

namespace {

inline const axb_spcuda_mat *CM(const axb_spmat *M) {
  return (const axb_spcuda_mat *)M;
}

/* Lanes per row for the row-wise kernels below (as SpMV's VECTOR). */
int lanes(const axb_spcuda_mat *M) {
  int w = 1;
  while (w < 32 && w < M->mean_row)
    w *= 2;
  return w;
}

/* Row r's sum over W lanes, reduced into lane 0 of the group, in A (the
   accumulation type: T for SpMV, double for the true residual). */
template <typename A, typename T, int W>
__device__ inline A row_sum(int64_t r, int lane, unsigned mask,
                            const int64_t *rowptr, const int32_t *col,
                            const T *val, const T *x) {
  A s = 0;
  const int64_t end = rowptr[r + 1];
  for (int64_t k = rowptr[r] + lane; k < end; k += W)
    s += (A)val[k] * (A)__ldg(&x[col[k]]);
  for (int o = W / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(mask, s, o, W);
  return s;
}

/* CG1: s = A z; partial sums of <r,z>, <z,s>, <r,r> (grid-stride over row
   groups, a fixed grid: red_blocks of the thread count). */
template <typename T, int W>
__global__ void __launch_bounds__(kBlock)
    cg1_fused(int64_t rows, const int64_t *__restrict__ rowptr,
              const int32_t *__restrict__ col, const T *__restrict__ val,
              const T *z, T *s, const T *r, double *partial) {
  __shared__ double scratch[32];
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  double g = 0, w = 0, q = 0;
  const int64_t groups = (int64_t)gridDim.x * blockDim.x / W;
  for (int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / W;
       row < rows; row += groups) {
    const T si = row_sum<T, T, W>(row, lane, mask, rowptr, col, val, z);
    if (lane == 0) {
      s[row] = si;
      const double ri = r[row], zi = z[row];
      g += ri * zi;
      w += zi * (double)si;
      q += ri * ri;
    }
  }
  block_partials3(g, w, q, scratch, partial);
}

/* The three dot products alone (after a MERGE SpMV). */
template <typename T>
__global__ void cg1_dots(int64_t n, const T *z, const T *s, const T *r,
                         double *partial) {
  __shared__ double scratch[32];
  double g = 0, w = 0, q = 0;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    const double ri = r[i], zi = z[i];
    g += ri * zi;
    w += zi * (double)s[i];
    q += ri * ri;
  }
  block_partials3(g, w, q, scratch, partial);
}

/* ||b - A x||^2 partial sums, each row's sum and the square in double. */
template <typename T, int W>
__global__ void __launch_bounds__(kBlock)
    resid_rows(int64_t rows, const int64_t *__restrict__ rowptr,
               const int32_t *__restrict__ col, const T *__restrict__ val,
               const T *x, const T *b, double *partial) {
  __shared__ double scratch[32];
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  double acc = 0;
  const int64_t groups = (int64_t)gridDim.x * blockDim.x / W;
  for (int64_t row = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / W;
       row < rows; row += groups) {
    const double ax =
        row_sum<double, T, W>(row, lane, mask, rowptr, col, val, x);
    if (lane == 0) {
      const double d = (double)b[row] - ax;
      acc += d * d;
    }
  }
  acc = block_sum(acc, scratch);
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

/* dinv[i] = 1 / A(i,i); the smallest bad row + 1 into *bad (atomicMin on
   an integer: the result does not depend on the order). */
template <typename T>
__global__ void diag_inv_rows(int64_t rows, const int64_t *rowptr,
                              const int32_t *col, const T *val, T *dinv,
                              unsigned long long *bad) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < rows;
       i += (int64_t)gridDim.x * blockDim.x) {
    int64_t lo = rowptr[i], hi = rowptr[i + 1];
    while (lo < hi) { /* first column >= i */
      const int64_t mid = (lo + hi) >> 1;
      if (col[mid] < i)
        lo = mid + 1;
      else
        hi = mid;
    }
    const T d = lo < rowptr[i + 1] && col[lo] == i ? val[lo] : T(0);
    T r = d != T(0) ? T(1) / d : T(0);
    if (d == T(0) || !isfinite(r)) {
      atomicMin(bad, (unsigned long long)(i + 1));
      r = 0;
    }
    dinv[i] = r;
  }
}

/* p = z + beta p; t = s + beta t; x += alpha p; r -= alpha t (z may be r:
   z[i] is read before r[i] is written). */
template <typename T>
__global__ void cg1_update_k(int64_t n, T alpha, T beta, const T *z, const T *s,
                             T *p, T *t, T *x, T *r) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    const T pi = z[i] + beta * p[i];
    const T ti = s[i] + beta * t[i];
    p[i] = pi;
    t[i] = ti;
    x[i] += alpha * pi;
    r[i] -= alpha * ti;
  }
}

/* Launch KERNEL<T, W> for the runtime width w (1..32). */
#define BY_WIDTH(w, KERNEL, T, grid, stream, ...)                              \
  switch (w) {                                                                 \
  case 1: KERNEL<T, 1><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;       \
  case 2: KERNEL<T, 2><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;       \
  case 4: KERNEL<T, 4><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;       \
  case 8: KERNEL<T, 8><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;       \
  case 16: KERNEL<T, 16><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;     \
  default: KERNEL<T, 32><<<grid, kBlock, 0, stream>>>(__VA_ARGS__); break;     \
  }

template <typename T>
axb_status m_create(axb_handle h, const axb_csr *A, axb_spmat **M) {
  return axb_spcuda_mat_create(h, A, (axb_spcuda_mat **)M);
}
template <typename T> void m_destroy(axb_handle h, axb_spmat *M) {
  (void)h;
  axb_spcuda_mat_destroy((axb_spcuda_mat *)M);
}

template <typename T>
axb_status m_spmv(axb_handle h, const axb_spmat *Mo, T alpha, const T *x,
                  T beta, T *y) {
  const axb_spcuda_mat *M = CM(Mo);
  if (M->rows == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  cudaStream_t s = axb_cuda::stream(h);
  AXB_CU(h, spmv_launch<T>(M, alpha, x, beta, y, s));
  return AXB_SUCCESS;
}

template <typename T>
axb_status m_resid(axb_handle h, const axb_spmat *Mo, const T *x, const T *b,
                   double *r) {
  const axb_spcuda_mat *M = CM(Mo);
  *r = 0;
  if (M->rows == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  const int w = lanes(M), blocks = red_blocks(M->rows * w);
  BY_WIDTH(w, resid_rows, T, blocks, axb_cuda::stream(h), M->rows, M->rowptr,
           M->colind, (const T *)M->val, x, b, S->partial);
  AXB_CU(h, cudaGetLastError());
  st = red_finish(h, S, 1, blocks, r);
  *r = sqrt(*r);
  return st;
}

template <typename T>
axb_status m_diag_inv(axb_handle h, const axb_spmat *Mo, T *dinv,
                      int64_t *info) {
  const axb_spcuda_mat *M = CM(Mo);
  *info = 0;
  if (M->rows == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  cudaStream_t s = axb_cuda::stream(h);
  AXB_CU(h, cudaMemsetAsync(S->flag, 0xff, sizeof(unsigned long long), s));
  diag_inv_rows<T><<<red_blocks(M->rows), kBlock, 0, s>>>(
      M->rows, M->rowptr, M->colind, (const T *)M->val, dinv, S->flag);
  AXB_CU(h, cudaGetLastError());
  AXB_CU(h, cudaMemcpyAsync(S->hflag, S->flag, sizeof(unsigned long long),
                            cudaMemcpyDeviceToHost, s));
  AXB_CU(h, cudaStreamSynchronize(s));
  if (S->hflag[0] == ~0ull) return AXB_SUCCESS;
  *info = (int64_t)S->hflag[0];
  return AXB_ERR_SMALL_PIVOT;
}

template <typename T>
axb_status m_cg1_spmv_dots(axb_handle h, const axb_spmat *Mo, const T *z, T *s,
                           const T *r, double r3[3]) {
  const axb_spcuda_mat *M = CM(Mo);
  r3[0] = r3[1] = r3[2] = 0;
  if (M->rows == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  cudaStream_t q = axb_cuda::stream(h);
  int blocks;
  if (M->kind == AXB_SPMV_STREAM) {
    AXB_CU(h, stream_dots_launch<T>(M, z, s, r, S->partial, &blocks, q));
  } else if (M->kind == AXB_SPMV_VECTOR) {
    /* One pass: SpMV and the three dots together. */
    blocks = red_blocks(M->rows * M->width);
    BY_WIDTH(M->width, cg1_fused, T, blocks, q, M->rows, M->rowptr, M->colind,
             (const T *)M->val, z, s, r, S->partial);
  } else {
    AXB_CU(h, spmv_launch<T>(M, T(1), z, T(0), s, q));
    blocks = red_blocks(M->rows);
    cg1_dots<T><<<blocks, kBlock, 0, q>>>(M->rows, z, s, r, S->partial);
  }
  AXB_CU(h, cudaGetLastError());
  return red_finish(h, S, 3, blocks, r3);
}

template <typename T>
axb_status m_cg1_update(axb_handle h, int64_t n, T alpha, T beta, const T *z,
                        const T *s, T *p, T *t, T *x, T *r) {
  if (n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  cg1_update_k<T><<<grid_for(n, kBlock), kBlock, 0, axb_cuda::stream(h)>>>(
      n, alpha, beta, z, s, p, t, x, r);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

} // namespace

template <typename T>
void axb_spcuda::fill_mat_ops(typename OpsOf<T>::type *o) {
  o->mat_create = m_create<T>;
  o->mat_destroy = m_destroy<T>;
  o->spmv = m_spmv<T>;
  o->resid_nrm2 = m_resid<T>;
  o->diag_inv = m_diag_inv<T>;
  o->cg1_spmv_dots = m_cg1_spmv_dots<T>;
  o->cg1_update = m_cg1_update<T>;
}
template void axb_spcuda::fill_mat_ops<double>(axb_sparse_ops_d *);
template void axb_spcuda::fill_mat_ops<float>(axb_sparse_ops_s *);
