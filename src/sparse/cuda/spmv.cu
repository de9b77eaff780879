/*
 * CSR on the GPU: upload (axb_spcuda_mat) and the SpMV kernels of spcuda.h:
 * VECTOR (W lanes per row), STREAM (short rows staged in shared memory) and
 * MERGE (merge-path load balance), with AUTO's choice.
 */
#include "spcuda_internal.cuh"

extern "C" {
#include "core/csr.h"
}

#include <stdlib.h>
#include <string.h>

using namespace axb_spcuda;

namespace {

/* ---- vector-per-row ------------------------------------------------------ */

/* y[r] = sum_k val[k] x[col[k]] over row r, W lanes per row.  A row's lanes
   read consecutive nonzeros, so short rows of neighbouring groups share
   cache lines; the W partial sums meet through shuffles.  H: the load
   hint of val and col (above). */
/* B > 1 (W = 1 only): row_sum_batched (spcuda_internal.cuh). */
template <typename T, int W, int H = AXB_SPMV_HINT_NONE, int B = 1>
__global__ void __launch_bounds__(kBlock)
    spmv_vector(int64_t rows, const int64_t *__restrict__ rowptr,
                const int32_t *__restrict__ col, const T *__restrict__ val,
                const T *__restrict__ x, T alpha, T beta, T *__restrict__ y) {
  const int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t row = g / W;
  if (row >= rows) return; /* whole groups leave together */
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  const int64_t end = rowptr[row + 1];
  const uint64_t pol = H == AXB_SPMV_HINT_L2EF ? l2_evict_first() : 0;
  T sum = 0;
  if (B > 1) {
    sum = row_sum_batched<T, H, B>(rowptr[row], end, col, val, x, pol);
  } else {
    for (int64_t k = rowptr[row] + lane; k < end; k += W)
      sum += ld_stream<H>(val + k, pol) * __ldg(&x[ld_stream<H>(col + k, pol)]);
  }
  for (int o = W / 2; o > 0; o >>= 1)
    sum += __shfl_down_sync(mask, sum, o, W);
  if (lane == 0)
    y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
}

template <typename T, int H>
cudaError_t launch_vector_h(const axb_spcuda_mat *M, int W, T alpha, const T *x,
                            T beta, T *y, cudaStream_t s) {
  const unsigned grid = grid_for(M->rows * W, kBlock);
  const T *v = (const T *)M->val;
  if (W == 1 && M->batch > 1) {
    if (M->batch == 4)
      spmv_vector<T, 1, H, 4><<<grid, kBlock, 0, s>>>(
          M->rows, M->rowptr, M->colind, v, x, alpha, beta, y);
    else
      spmv_vector<T, 1, H, 8><<<grid, kBlock, 0, s>>>(
          M->rows, M->rowptr, M->colind, v, x, alpha, beta, y);
    return cudaGetLastError();
  }
#define VEC_CASE(WW)                                                           \
  case WW:                                                                     \
    spmv_vector<T, WW, H><<<grid, kBlock, 0, s>>>(                             \
        M->rows, M->rowptr, M->colind, v, x, alpha, beta, y);                  \
    break;
  switch (W) {
    VEC_CASE(1)
    VEC_CASE(2)
    VEC_CASE(4)
    VEC_CASE(8)
    VEC_CASE(16)
  default: VEC_CASE(32)
  }
#undef VEC_CASE
  return cudaGetLastError();
}

template <typename T>
cudaError_t launch_vector(const axb_spcuda_mat *M, int W, T alpha, const T *x,
                          T beta, T *y, cudaStream_t s) {
  switch (M->hint) {
  case AXB_SPMV_HINT_CS:
    return launch_vector_h<T, AXB_SPMV_HINT_CS>(M, W, alpha, x, beta, y, s);
  case AXB_SPMV_HINT_L2EF:
    return launch_vector_h<T, AXB_SPMV_HINT_L2EF>(M, W, alpha, x, beta, y, s);
  default:
    return launch_vector_h<T, AXB_SPMV_HINT_NONE>(M, W, alpha, x, beta, y, s);
  }
}

/* ---- stream (short rows) ---------------------------------------------- */

/* kBlock consecutive rows per block and pass: when their nonzeros fit in
   shared memory, the block loads them coalesced (products val * x), then
   each thread adds its row from shared memory; otherwise each thread reads
   its row from global memory.  With DOTS (single-reduction CG: x = z,
   y = s), the block also accumulates <r,z>, <z,s>, <r,r> and writes its
   partial sums (grid <= kRedBlocks). */
template <typename T, bool DOTS>
__global__ void __launch_bounds__(kBlock)
    spmv_stream(int64_t rows, const int64_t *__restrict__ rowptr,
                const int32_t *__restrict__ col, const T *__restrict__ val,
                const T *x, T alpha, T beta, T *y, const T *r,
                double *partial) {
  __shared__ T s_prod[kStreamCap];
  double g = 0, w = 0, q = 0;
  for (int64_t r0 = (int64_t)blockIdx.x * kBlock; r0 < rows;
       r0 += (int64_t)gridDim.x * kBlock) {
    const int64_t r1 = r0 + kBlock < rows ? r0 + kBlock : rows;
    const int64_t a = rowptr[r0], b = rowptr[r1];
    const int64_t row = r0 + threadIdx.x;
    T sum = 0;
    if (b - a <= kStreamCap) { /* the same branch for the whole block */
      for (int64_t k = a + threadIdx.x; k < b; k += kBlock)
        s_prod[k - a] = val[k] * __ldg(&x[col[k]]);
      __syncthreads();
      if (row < r1)
        for (int64_t k = rowptr[row] - a; k < rowptr[row + 1] - a; ++k)
          sum += s_prod[k];
      __syncthreads(); /* s_prod is refilled by the next pass */
    } else if (row < r1) {
      for (int64_t k = rowptr[row]; k < rowptr[row + 1]; ++k)
        sum += val[k] * __ldg(&x[col[k]]);
    }
    if (row < r1) {
      const T yi = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
      y[row] = yi;
      if (DOTS) {
        const double ri = r[row], zi = x[row];
        g += ri * zi;
        w += zi * (double)yi;
        q += ri * ri;
      }
    }
  }
  if (DOTS) {
    __shared__ double scratch[32];
    block_partials3(g, w, q, scratch, partial);
  }
}

/* ---- merge path ---------------------------------------------------------- */

/* The merge of the row ends a[0..a_len) with the nonzero indices
   b0, b0+1, ... (b_len of them): a row end a[i] is taken before nonzero j
   when a[i] <= j.  Returns the number of row ends among the first d merge
   items (the nonzeros taken are d minus that). */
__device__ inline int64_t merge_search(int64_t d, const int64_t *a,
                                       int64_t a_len, int64_t b0,
                                       int64_t b_len) {
  int64_t lo = d > b_len ? d - b_len : 0;
  int64_t hi = d < a_len ? d : a_len;
  while (lo < hi) {
    const int64_t mid = (lo + hi) >> 1;
    if (a[mid] <= b0 + (d - mid - 1))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* c32[k] := c64[k] (columns checked below 2^31 by the caller). */
__global__ void narrow_cols(int64_t nnz, const int64_t *c64, int32_t *c32) {
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nnz;
       k += (int64_t)gridDim.x * blockDim.x)
    c32[k] = (int32_t)c64[k];
}

/* Start coordinates of every tile (ntiles + 1 of them, the last one the end
   of the merge). */
__global__ void merge_plan(int64_t rows, int64_t nnz, const int64_t *rowptr,
                           int64_t ntiles, int64_t *tile_row,
                           int64_t *tile_nz) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t > ntiles) return;
  int64_t d = t * kMergeTile;
  if (d > rows + nnz) d = rows + nnz;
  const int64_t i = merge_search(d, rowptr + 1, rows, 0, nnz);
  tile_row[t] = i;
  tile_nz[t] = d - i;
}

/* One tile per block.  The tile's products val*x and row ends are staged in
   shared memory (coalesced loads); each thread then walks kMergeIpt merge
   items, adding its partial row sums into the tile's shared row results.
   Rows completed in the tile are stored; the tile's last, unfinished row
   leaves its partial sum as the tile's carry for merge_fixup. */
template <typename T>
__global__ void __launch_bounds__(kMergeThreads)
    spmv_merge(int64_t rows, const int64_t *__restrict__ rowptr,
               const int32_t *__restrict__ col, const T *__restrict__ val,
               const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
               const int64_t *__restrict__ tile_row,
               const int64_t *__restrict__ tile_nz, int64_t *carry_row,
               T *carry_val) {
  __shared__ int64_t s_end[kMergeTile + 1];
  __shared__ T s_prod[kMergeTile];
  __shared__ T s_y[kMergeTile + 1];
  const int64_t t = blockIdx.x;
  const int64_t i0 = tile_row[t], j0 = tile_nz[t];
  const int64_t nr = tile_row[t + 1] - i0, nz = tile_nz[t + 1] - j0;
  for (int64_t k = threadIdx.x; k <= nr; k += blockDim.x) {
    s_end[k] = i0 + k < rows ? rowptr[i0 + k + 1] : INT64_MAX;
    s_y[k] = 0;
  }
  for (int64_t k = threadIdx.x; k < nz; k += blockDim.x)
    s_prod[k] = val[j0 + k] * __ldg(&x[col[j0 + k]]);
  __syncthreads();
  const int64_t d0 = (int64_t)threadIdx.x * kMergeIpt;
  if (d0 < nr + nz) {
    int64_t i = merge_search(d0, s_end, nr, j0, nz);
    int64_t j = d0 - i;
    const int64_t d1 = d0 + kMergeIpt < nr + nz ? d0 + kMergeIpt : nr + nz;
    T sum = 0;
    for (int64_t d = d0; d < d1; ++d) {
      if (j < nz && j0 + j < s_end[i]) {
        sum += s_prod[j++];
      } else {
        atomicAdd(&s_y[i++], sum);
        sum = 0;
      }
    }
    if (sum != T(0)) atomicAdd(&s_y[i], sum);
  }
  __syncthreads();
  /* Only this tile stores the rows it finishes, so y may be read here. */
  for (int64_t k = threadIdx.x; k < nr; k += blockDim.x)
    y[i0 + k] =
        beta == T(0) ? alpha * s_y[k] : alpha * s_y[k] + beta * y[i0 + k];
  if (threadIdx.x == 0) {
    carry_row[t] = i0 + nr;
    carry_val[t] = alpha * s_y[nr];
  }
}

/* Add each tile's partial sum of its unfinished row (stored by the tile
   that finished the row with '=' in spmv_merge, which has completed). */
template <typename T>
__global__ void merge_fixup(int64_t rows, int64_t ntiles,
                            const int64_t *carry_row, const T *carry_val,
                            T *y) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntiles) return;
  const int64_t r = carry_row[t];
  const T v = carry_val[t];
  if (r < rows && v != T(0)) atomicAdd(&y[r], v);
}

template <typename T>
cudaError_t launch_merge(const axb_spcuda_mat *M, T alpha, const T *x, T beta,
                         T *y, cudaStream_t s) {
  spmv_merge<T><<<(unsigned)M->ntiles, kMergeThreads, 0, s>>>(
      M->rows, M->rowptr, M->colind, (const T *)M->val, x, alpha, beta, y,
      M->tile_row, M->tile_nz, M->carry_row, (T *)M->carry_val);
  merge_fixup<T><<<grid_for(M->ntiles, kBlock), kBlock, 0, s>>>(
      M->rows, M->ntiles, M->carry_row, (const T *)M->carry_val, y);
  return cudaGetLastError();
}

} // namespace

/* y = alpha A x + beta y with the matrix's kernel (rows > 0, nnz > 0). */
template <typename T>
cudaError_t axb_spcuda::spmv_launch(const axb_spcuda_mat *M, T alpha,
                                    const T *x, T beta, T *y, cudaStream_t s) {
  if (M->kind == AXB_SPMV_STREAM) {
    spmv_stream<T, false><<<grid_for(M->rows, kBlock), kBlock, 0, s>>>(
        M->rows, M->rowptr, M->colind, (const T *)M->val, x, alpha, beta, y,
        nullptr, nullptr);
    return cudaGetLastError();
  }
  return M->kind == AXB_SPMV_MERGE
             ? launch_merge(M, alpha, x, beta, y, s)
             : launch_vector(M, M->width, alpha, x, beta, y, s);
}

/* STREAM SpMV s = A z fused with the CG1 partial sums (grid: the number
   of partial sums written, <= kRedBlocks). */
template <typename T>
cudaError_t axb_spcuda::stream_dots_launch(const axb_spcuda_mat *M, const T *z,
                                           T *s, const T *r, double *partial,
                                           int *blocks, cudaStream_t q) {
  *blocks = (int)grid_for(M->rows, kBlock);
  if (*blocks > kRedBlocks) *blocks = kRedBlocks;
  spmv_stream<T, true><<<*blocks, kBlock, 0, q>>>(M->rows, M->rowptr, M->colind,
                                                  (const T *)M->val, z, T(1),
                                                  T(0), s, r, partial);
  return cudaGetLastError();
}
template cudaError_t
axb_spcuda::stream_dots_launch<double>(const axb_spcuda_mat *, const double *,
                                       double *, const double *, double *,
                                       int *, cudaStream_t);
template cudaError_t
axb_spcuda::stream_dots_launch<float>(const axb_spcuda_mat *, const float *,
                                      float *, const float *, double *, int *,
                                      cudaStream_t);
template cudaError_t axb_spcuda::spmv_launch<double>(const axb_spcuda_mat *,
                                                     double, const double *,
                                                     double, double *,
                                                     cudaStream_t);
template cudaError_t axb_spcuda::spmv_launch<float>(const axb_spcuda_mat *,
                                                    float, const float *, float,
                                                    float *, cudaStream_t);

namespace {

int width_for(double mean) {
  int w = 1;
  while (w < 32 && w < mean)
    w *= 2;
  return w;
}

void free_mat(axb_spcuda_mat *M) {
  if (!M) return;
  cudaFree(M->rowptr);
  cudaFree(M->colind);
  cudaFree(M->val);
  cudaFree(M->tile_row);
  cudaFree(M->tile_nz);
  cudaFree(M->carry_row);
  cudaFree(M->carry_val);
  free(M);
}

axb_status upload(axb_handle h, const axb_csr *A, axb_spcuda_mat *M) {
  const size_t ts = A->dtype == AXB_F64 ? sizeof(double) : sizeof(float);
  const int64_t nnz1 = A->nnz > 0 ? A->nnz : 1;
  AXB_CU(h, cudaMalloc(&M->rowptr, (size_t)(A->rows + 1) * sizeof(int64_t)));
  AXB_CU(h, cudaMalloc(&M->colind, (size_t)nnz1 * sizeof(int32_t)));
  AXB_CU(h, cudaMalloc(&M->val, (size_t)nnz1 * ts));
  /* Through the handle's pinned staging (cuda_staging.cu: 40-49 GB/s
     against 7-9 GB/s pageable on the H200); the 64-bit columns go up as
     they are and are narrowed on the device, which spares a host pass and
     a host buffer. */
  axb_cuda::Context *ctx = axb_cuda::context(h);
  const size_t rp = (size_t)(A->rows + 1) * sizeof(int64_t),
               cb = (size_t)A->nnz * sizeof(int64_t), vb = (size_t)A->nnz * ts;
  axb_status st = axb_cuda::copy_2d_bytes(h, ctx, M->rowptr, rp, A->rowptr, rp,
                                          rp, 1, cudaMemcpyHostToDevice);
  if (st == AXB_SUCCESS)
    st = axb_cuda::copy_2d_bytes(h, ctx, M->val, vb, A->values, vb, vb, 1,
                                 cudaMemcpyHostToDevice);
  if (st != AXB_SUCCESS) return st;
  int64_t *c64 = nullptr;
  if (A->nnz > 0 && cudaMalloc(&c64, cb) != cudaSuccess) {
    /* No room for the 64-bit copy (8 more bytes per nonzero at the peak):
       narrow on the host instead. */
    cudaGetLastError(); /* clear the allocation failure */
    int32_t *c32 = (int32_t *)malloc((size_t)A->nnz * sizeof(int32_t));
    if (!c32) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "sparse upload");
    for (int64_t k = 0; k < A->nnz; ++k)
      c32[k] = (int32_t)A->colind[k];
    const size_t c4 = (size_t)A->nnz * sizeof(int32_t);
    st = axb_cuda::copy_2d_bytes(h, ctx, M->colind, c4, c32, c4, c4, 1,
                                 cudaMemcpyHostToDevice);
    free(c32);
    if (st != AXB_SUCCESS) return st;
  } else if (A->nnz > 0) {
    st = axb_cuda::copy_2d_bytes(h, ctx, c64, cb, A->colind, cb, cb, 1,
                                 cudaMemcpyHostToDevice);
    if (st == AXB_SUCCESS) {
      narrow_cols<<<red_blocks(A->nnz), kBlock, 0, axb_cuda::stream(h)>>>(
          A->nnz, c64, M->colind);
      cudaError_t e = cudaGetLastError();
      if (e == cudaSuccess) e = cudaStreamSynchronize(axb_cuda::stream(h));
      if (e != cudaSuccess) st = axb_cuda::fail_cuda(h, e, "sparse upload");
    }
    cudaFree(c64);
    if (st != AXB_SUCCESS) return st;
  }
  /* The merge plan (cheap: one binary search per tile). */
  M->ntiles = (A->rows + A->nnz + kMergeTile - 1) / kMergeTile;
  const size_t tiles1 = (size_t)M->ntiles + 1;
  AXB_CU(h, cudaMalloc(&M->tile_row, tiles1 * sizeof(int64_t)));
  AXB_CU(h, cudaMalloc(&M->tile_nz, tiles1 * sizeof(int64_t)));
  AXB_CU(h, cudaMalloc(&M->carry_row, tiles1 * sizeof(int64_t)));
  AXB_CU(h, cudaMalloc(&M->carry_val, tiles1 * ts));
  merge_plan<<<grid_for(M->ntiles + 1, kBlock), kBlock, 0,
               axb_cuda::stream(h)>>>(A->rows, A->nnz, M->rowptr, M->ntiles,
                                      M->tile_row, M->tile_nz);
  AXB_CU(h, cudaGetLastError());
  AXB_CU(h, cudaStreamSynchronize(axb_cuda::stream(h)));
  return AXB_SUCCESS;
}

/* AUTO's choice (measured on an H200, docs/PERFORMANCE.md "Sparse on the
   GPU"):
   - MERGE for irregular rows (max > 16 mean and max > 256): a few long rows
     would hold VECTOR's blocks back;
   - else VECTOR with W = the smallest power of two >= the mean row length,
     halved while rows * W exceeds 4x the resident threads: a saturated GPU
     gains nothing from idle lanes (3-D Poisson 100^3: W = 1, 36.8 us
     against 60 us with W = 8), a small matrix needs the parallelism
     (bcsstk16, mean 59: W = 32).
   STREAM is never chosen: on every matrix measured VECTOR with this W was
   as fast or faster (Poisson float: 24.6 us against 31.0 us). */
void resolve_auto(axb_spcuda_mat *M) {
  const double resident = resident_threads(M->device);
  const bool irregular = M->max_row > 16.0 * M->mean_row && M->max_row > 256;
  M->width = width_for(M->mean_row);
  while (M->width > 1 && (double)M->rows * M->width > 4.0 * resident)
    M->width /= 2;
  M->kind = irregular ? AXB_SPMV_MERGE : AXB_SPMV_VECTOR;
}

} // namespace

extern "C" axb_status axb_spcuda_mat_create(axb_handle h, const axb_csr *A,
                                            axb_spcuda_mat **out) {
  *out = nullptr;
  if (!h || h->backend != AXB_BACKEND_CUDA)
    return axb__fail(h, AXB_ERR_INVALID,
                     "sparse GPU matrix: not a CUDA handle");
  axb_status st = axb__csr_check(h, A);
  if (st != AXB_SUCCESS) return st;
  if (A->cols > INT32_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "sparse GPU matrix: %lld columns (at most 2^31 - 1)",
                     (long long)A->cols);
  axb_cuda::DeviceScope scope(h->device);
  axb_spcuda_mat *M = (axb_spcuda_mat *)calloc(1, sizeof(*M));
  if (!M) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "sparse GPU matrix");
  M->device = h->device;
  M->dtype = A->dtype;
  M->rows = A->rows;
  M->cols = A->cols;
  M->nnz = A->nnz;
  M->mean_row = A->rows > 0 ? (double)A->nnz / (double)A->rows : 0.0;
  for (int64_t i = 0; i < A->rows; ++i) {
    const int64_t len = A->rowptr[i + 1] - A->rowptr[i];
    if (len > M->max_row) M->max_row = len;
  }
  st = upload(h, A, M);
  if (st != AXB_SUCCESS) {
    free_mat(M);
    return st;
  }
  resolve_auto(M);
  M->hint = A->dtype == AXB_F32 ? kDefaultHintF32 : kDefaultHintF64;
  M->batch = A->dtype == AXB_F32 ? kDefaultBatchF32 : kDefaultBatchF64;
  *out = M;
  return AXB_SUCCESS;
}

extern "C" void axb_spcuda_mat_destroy(axb_spcuda_mat *M) {
  if (!M) return;
  axb_cuda::DeviceScope scope(M->device);
  free_mat(M);
}

extern "C" axb_status axb_spcuda_mat_set_spmv(axb_spcuda_mat *M,
                                              axb_spmv_kind kind, int width) {
  if (width < 0 || width > 32 || (width & (width - 1)) != 0)
    return AXB_ERR_INVALID;
  if (kind == AXB_SPMV_AUTO) {
    resolve_auto(M);
    return AXB_SUCCESS;
  }
  M->kind = kind;
  M->width = width ? width : width_for(M->mean_row);
  return AXB_SUCCESS;
}

extern "C" axb_status axb_spcuda_mat_set_spmv_hint(axb_spcuda_mat *M,
                                                   axb_spmv_hint hint) {
  if (hint != AXB_SPMV_HINT_NONE && hint != AXB_SPMV_HINT_CS &&
      hint != AXB_SPMV_HINT_L2EF)
    return AXB_ERR_INVALID;
  M->hint = hint;
  return AXB_SUCCESS;
}

extern "C" axb_status axb_spcuda_mat_set_spmv_batch(axb_spcuda_mat *M,
                                                    int batch) {
  if (batch != 0 && batch != 1 && batch != 4 && batch != 8)
    return AXB_ERR_INVALID;
  M->batch = batch                 ? batch
             : M->dtype == AXB_F32 ? kDefaultBatchF32
                                   : kDefaultBatchF64;
  return AXB_SUCCESS;
}

extern "C" void axb_spcuda_mat_spmv_info(const axb_spcuda_mat *M,
                                         axb_spmv_kind *kind, int *width) {
  *kind = M->kind;
  *width = M->width;
}

extern "C" void axb_spcuda_mat_stats(const axb_spcuda_mat *M, double *mean_row,
                                     int64_t *max_row) {
  *mean_row = M->mean_row;
  *max_row = M->max_row;
}

extern "C" double axb_spcuda_mat_spmv_bytes(const axb_spcuda_mat *M) {
  const double ts = M->dtype == AXB_F64 ? 8.0 : 4.0;
  return (double)M->nnz * (ts + 4.0) + (double)(M->rows + 1) * 8.0 +
         (double)M->cols * ts + (double)M->rows * ts;
}

extern "C" axb_status axb_spcuda_spmv(axb_handle h, const axb_spcuda_mat *M,
                                      const void *dx, void *dy) {
  if (M->rows == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(M->device);
  cudaStream_t s = axb_cuda::stream(h);
  const size_t ts = M->dtype == AXB_F64 ? sizeof(double) : sizeof(float);
  if (M->nnz == 0) {
    AXB_CU(h, cudaMemsetAsync(dy, 0, (size_t)M->rows * ts, s));
    return AXB_SUCCESS;
  }
  cudaError_t e;
  if (M->dtype == AXB_F64)
    e = spmv_launch<double>(M, 1, (const double *)dx, 0, (double *)dy, s);
  else
    e = spmv_launch<float>(M, 1, (const float *)dx, 0, (float *)dy, s);
  AXB_CU(h, e);
  return AXB_SUCCESS;
}
