/*
 * Internals shared by the sparse GPU files (C++, .cu only): the device CSR
 * matrix behind axb_spcuda_mat, launch helpers and the block reduction used
 * by every fused kernel.
 */
#ifndef AXB_SPCUDA_INTERNAL_CUH
#define AXB_SPCUDA_INTERNAL_CUH

#include "backend/cuda/cuda_internal.h"

extern "C" {
#include "sparse/cuda/spcuda.h"
#include "sparse/sparse_ops.h"
}

#include <stdint.h>
#include <string.h>
#include <type_traits>

namespace axb_spcuda {

/* Merge-path tile: THREADS threads, each walking IPT merge items. */
constexpr int kMergeThreads = 128;
constexpr int kMergeIpt = 8;
constexpr int kMergeTile = kMergeThreads * kMergeIpt;
/* Threads of the vector kernel's blocks and of the vector-op kernels. */
constexpr int kBlock = 256;
/* STREAM: nonzeros of kBlock rows staged in shared memory (16 KB double). */
constexpr int kStreamCap = 2048;
/* Most blocks of a reduction's first pass (its partial sums per block). */
constexpr int kRedBlocks = 1024;
/* Most values one reduction returns. */
constexpr int kRedMax = 4;
/* VECTOR's load hint and, at W = 1, its batch of entries per row unless
   set (spcuda.h), measured on an H200 (docs/PERFORMANCE.md, "Round 3",
   Poisson 3-D 100^3): with batches of 8 and the L2 evict-first policy,
   double 25.96 us (97.4 % of copy bandwidth) against 37.58 us unbatched
   and plain, float 17.51 us (96.3 %) against 19.61 us unbatched (the
   previous default).  The hint helps only once the batch puts 8 loads in
   flight (double, batch 1: 39.9 us with it, 37.6 us without). */
constexpr axb_spmv_hint kDefaultHintF32 = AXB_SPMV_HINT_L2EF;
constexpr axb_spmv_hint kDefaultHintF64 = AXB_SPMV_HINT_L2EF;
constexpr int kDefaultBatchF32 = 8;
constexpr int kDefaultBatchF64 = 8;

} // namespace axb_spcuda

/* The uploaded matrix (device arrays on device `device`). */
struct axb_spcuda_mat {
  int device;
  axb_dtype dtype;
  int64_t rows, cols, nnz;
  int64_t *rowptr; /* rows + 1 */
  int32_t *colind; /* nnz */
  void *val;       /* nnz of dtype */
  double mean_row;
  int64_t max_row;
  axb_spmv_kind kind; /* resolved: VECTOR or MERGE */
  int width;          /* VECTOR: lanes per row    */
  axb_spmv_hint hint; /* VECTOR: load cache hint  */
  int batch;          /* VECTOR W = 1: entries per batch (1, 4, 8) */
  /* MERGE plan: tile t starts at row tile_row[t], nonzero tile_nz[t]
     (ntiles + 1 entries); carries of the rows split between tiles. */
  int64_t ntiles;
  int64_t *tile_row, *tile_nz;
  int64_t *carry_row;
  void *carry_val;
};

namespace axb_spcuda {

inline unsigned grid_for(int64_t items, int per_block) {
  int64_t g = (items + per_block - 1) / per_block;
  return (unsigned)(g < 1 ? 1 : g);
}

/* The unsigned integer of T's size; T's bits as one and back. */
template <typename T> struct BitsOf {
  typedef typename std::conditional<sizeof(T) == 8, unsigned long long,
                                    unsigned>::type U;
};
template <typename T>
__device__ __forceinline__ typename BitsOf<T>::U to_bits(T v) {
  typename BitsOf<T>::U u;
  memcpy(&u, &v, sizeof v);
  return u;
}
template <typename T>
__device__ __forceinline__ T from_bits(typename BitsOf<T>::U u) {
  T v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* The shuffle mask of this thread's group of W lanes (W a power of two
   <= 32, groups aligned inside the warp). */
template <int W> __device__ __forceinline__ unsigned group_mask() {
  return W == 32
             ? 0xffffffffu
             : ((1u << W) - 1u) << ((threadIdx.x & 31) & ~(unsigned)(W - 1));
}

/* Loads of the matrix's values and columns (read once per SpMV, or per
   Jacobi sweep of a triangular solve) with a
   cache hint (spcuda.h, AXB_SPMV_HINT_*): NONE: plain loads; CS: ld.cs
   (__ldcs, streaming: evict-first in L1 and L2); L2EF: ld.global.nc with
   an L2 evict-first access policy (L1 as usual, so the lines short rows
   share still hit there; in L2 the matrix's lines go first and x, read
   many times, stays). */
__device__ __forceinline__ uint64_t l2_evict_first() {
  uint64_t p;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
template <typename S>
__device__ __forceinline__ S ld_hint(const S *a, uint64_t p) {
  typename BitsOf<S>::U u;
  if constexpr (sizeof(S) == 8)
    asm("ld.global.nc.L2::cache_hint.b64 %0, [%1], %2;"
        : "=l"(u)
        : "l"(a), "l"(p));
  else
    asm("ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;"
        : "=r"(u)
        : "l"(a), "l"(p));
  return from_bits<S>(u);
}
template <int H, typename S>
__device__ __forceinline__ S ld_stream(const S *a, uint64_t pol) {
  if (H == AXB_SPMV_HINT_CS) return __ldcs(a);
  if (H == AXB_SPMV_HINT_L2EF) return ld_hint(a, pol);
  return *a;
}

/* sum_{k in [k, end)} val[k] x[col[k]] by one thread, in batches of B
   entries: every load of a batch is issued before the first product
   (columns and values, then the B x_j), three dependent memory round trips
   per batch instead of the compiler's remainder loop of one round trip
   per entry, so a thread keeps more bytes in flight.  Sums in entry order
   (the plain loop's result, bit for bit).  x is read through the
   non-coherent path: it must not change while the kernel runs. */
template <typename T, int H, int B>
__device__ __forceinline__ T row_sum_batched(int64_t k, int64_t end,
                                             const int32_t *__restrict__ col,
                                             const T *__restrict__ val,
                                             const T *__restrict__ x,
                                             uint64_t pol) {
  T sum = 0;
  for (; k < end; k += B) {
    int32_t c[B];
    T a[B], xv[B];
#pragma unroll
    for (int q = 0; q < B; ++q) {
      c[q] = k + q < end ? ld_stream<H>(col + k + q, pol) : 0;
      a[q] = k + q < end ? ld_stream<H>(val + k + q, pol) : T(0);
    }
#pragma unroll
    for (int q = 0; q < B; ++q)
      xv[q] = k + q < end ? __ldg(&x[c[q]]) : T(0);
#pragma unroll
    for (int q = 0; q < B; ++q)
      if (k + q < end) sum += a[q] * xv[q];
  }
  return sum;
}

/* Sum of v over the block (blockDim.x a multiple of 32, <= 1024); the
   result is valid in thread 0.  Uses the 32-entry shared scratch. */
__device__ inline double block_sum(double v, double *scratch) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  __syncthreads(); /* scratch may still be read by a previous call */
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int nw = blockDim.x >> 5;
  v = threadIdx.x < nw ? scratch[threadIdx.x] : 0.0;
  if (warp == 0)
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/* The block's sums of g, w, q (the single-reduction CG's <r,z>, <z,s>,
   <r,r>) into partial[k * kRedBlocks + blockIdx.x], k = 0, 1, 2. */
__device__ inline void block_partials3(double g, double w, double q,
                                       double *scratch, double *partial) {
  const double v[3] = {g, w, q};
  for (int k = 0; k < 3; ++k) {
    const double t = block_sum(v[k], scratch);
    if (threadIdx.x == 0) partial[k * kRedBlocks + blockIdx.x] = t;
  }
}

/* Scratch of the sparse operations of one handle: the partial sums of the
   reductions, the status flags of the factor kernels, and pinned host
   slots the results are read through.  Created on first use, kept until
   axb__sparse_cuda_release(h) (or the end of the process). */
struct Scratch {
  double *partial;           /* device: kRedMax * kRedBlocks          */
  double *result;            /* device: kRedMax                        */
  unsigned long long *flag;  /* device: 2 (min rows, ULLONG_MAX = none) */
  double *host;              /* pinned: kRedMax                        */
  unsigned long long *hflag; /* pinned: 2                          */
};
/* h's scratch (on h's device), or NULL with the failure recorded on h. */
Scratch *scratch(axb_handle h, axb_status *st);

/* The table type of a precision. */
template <typename T> struct OpsOf;
template <> struct OpsOf<double> { typedef axb_sparse_ops_d type; };
template <> struct OpsOf<float> { typedef axb_sparse_ops_s type; };

/* Blocks of a reduction over n items (a function of n and nothing else, so
   the order of the partial sums is fixed for a given n). */
inline int red_blocks(int64_t n) {
  int64_t b = (n + kBlock - 1) / kBlock;
  return (int)(b < 1 ? 1 : b > kRedBlocks ? kRedBlocks : b);
}
/* A copy on h's stream, waited for (host arrays may be reused at once). */
inline axb_status copy_wait(axb_handle h, void *dst, const void *src,
                            size_t bytes, cudaMemcpyKind kind) {
  cudaStream_t s = axb_cuda::stream(h);
  AXB_CU(h, cudaMemcpyAsync(dst, src, bytes, kind, s));
  AXB_CU(h, cudaStreamSynchronize(s));
  return AXB_SUCCESS;
}

/* Second pass of a reduction of k values over `blocks` partial sums, then
   the copy of the k results to the host (waits for the stream). */
axb_status red_finish(axb_handle h, Scratch *S, int k, int blocks, double *out);

/* Threads resident on `device` at once (2048 per SM): the window the
   flag and warp solves make progress in, and the saturation point of the
   one-lane-per-row kernels. */
inline double resident_threads(int device) {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return 2048.0 * (sms > 0 ? sms : 1);
}

/* Lanes per row of the sync-free (flag) triangular solve of n rows on
   `device` when no width is given: the widest that keeps every row
   resident, at least 1 (fac.cu). */
int sf_width_for(int64_t n, int device);
/* AUTO's exact triangular solve of n rows on `device` is level-scheduled
   (true: the set-up builds level sets) or the warp solve (fac.cu says
   why). */
bool tri_auto_levels(int64_t n, int device);

/* Fill parts of the tables (vec.cu, mat.cu, fac.cu). */
template <typename T> void fill_vec_ops(typename OpsOf<T>::type *o);
template <typename T> void fill_mat_ops(typename OpsOf<T>::type *o);
template <typename T> void fill_fac_ops(typename OpsOf<T>::type *o);

/* VECTOR SpMV launch with y = alpha A x + beta y (spmv.cu). */
template <typename T>
cudaError_t spmv_launch(const axb_spcuda_mat *M, T alpha, const T *x, T beta,
                        T *y, cudaStream_t s);

/* STREAM SpMV s = A z fused with the CG1 partial sums <r,z>, <z,s>,
   <r,r> (spmv.cu); *blocks = the number of partial sums. */
template <typename T>
cudaError_t stream_dots_launch(const axb_spcuda_mat *M, const T *z, T *s,
                               const T *r, double *partial, int *blocks,
                               cudaStream_t q);

} // namespace axb_spcuda

#endif
