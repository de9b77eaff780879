/*
 * gesv_batched_cert on device arrays (issue 26): X_b := A_b^-1 B_b with
 * each answer's backward error ratio, A and B only read, row- or
 * column-major operands, no host synchronisation.
 *
 *   n <= 8: one problem per thread, fused: the block's problems through
 *     shared memory in coalesced tiles, A_b into registers (its row sums
 *     on the way), LU and solve by axb_device.cuh's per-thread functions,
 *     the residual b - A x from the tile, X and berr written.  One kernel, the
 * caller's arrays read about twice: what a Python user's stack of small systems
 * needs (the stacks arrive row-major; a transposed copy alone would cost as
 * much as the solve). 9..64: a column-major copy of A and B in stream-ordered
 * scratch, gesv_batched's kernels on it, then one thread per problem for the
 *     residual and X.
 *
 * The ratio is check.c's: ||r||_inf / (||A||_inf ||x||_inf n eps) in
 * double, NaN when a norm is not finite, 0 / (1/eps) over a zero norm.
 */
#include "cuda_dense.h"

#include "axb_device.cuh"
#include "backend/batched_ops.h"

#include <math.h>

namespace axb_cuda {

namespace {

template <typename T> struct CertArgs {
  int rm, n, nrhs;
  const T *A;
  int64_t lda, sA;
  const T *B;
  int64_t ldb, sB;
  T *X;
  int64_t ldx, sX;
  int *info;
  T *berr;
  int64_t batch;
};

/* M(i, j) of a row- (rm) or column-major operand. */
template <typename T>
__device__ __forceinline__ T at(const T *M, int rm, int64_t ld, int i, int j) {
  return rm ? M[(int64_t)i * ld + j] : M[i + (int64_t)j * ld];
}
template <typename T>
__device__ __forceinline__ T &at(T *M, int rm, int64_t ld, int i, int j) {
  return rm ? M[(int64_t)i * ld + j] : M[i + (int64_t)j * ld];
}

/* max that keeps a NaN once it has seen one */
__device__ __forceinline__ double nanmax(double m, double v) {
  return isnan(m) ? m : (isnan(v) || v > m ? v : m);
}

template <typename T>
__device__ double cert_ratio(double rn, double an, double xn, int n) {
  const double eps = sizeof(T) == 8 ? 0x1p-53 : 0x1p-24;
  if (isnan(rn) || isnan(an) || isnan(xn) || isinf(an) || isinf(xn)) return NAN;
  if (an == 0 || xn == 0) return rn == 0 ? 0 : 1 / eps;
  return rn / an / xn / (n * eps);
}

/* ||A_b||_inf from the caller's A_b. */
template <typename T>
__device__ double norm_inf(const CertArgs<T> &a, const T *A, int n) {
  double an = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += fabs((double)at(A, a.rm, a.lda, i, j));
    an = nanmax(an, s);
  }
  return an;
}

/* Column c of problem m (9..64): the residual of x from the caller's A
   and B, and X's column (NaN when info).  Returns the ratio. */
template <typename T>
__device__ double finish_column(const CertArgs<T> &a, int64_t m, int c,
                                const T *x, double an, int info) {
  const int n = a.n;
  const T *A = a.A + m * a.sA, *B = a.B + m * a.sB;
  T *X = a.X + m * a.sX;
  if (info) {
    for (int i = 0; i < n; ++i)
      at(X, a.rm, a.ldx, i, c) = T(NAN);
    return INFINITY;
  }
  double rn = 0, xn = 0;
  for (int i = 0; i < n; ++i) {
    double r = (double)at(B, a.rm, a.ldb, i, c);
    for (int j = 0; j < n; ++j)
      r -= (double)at(A, a.rm, a.lda, i, j) * (double)x[j];
    rn = nanmax(rn, fabs(r));
    xn = nanmax(xn, fabs((double)x[i]));
    at(X, a.rm, a.ldx, i, c) = x[i];
  }
  return cert_ratio<T>(rn, an, xn, n);
}

/* n <= 8: one problem per thread, every loop at the exact order N; M
   problems per block move through shared memory in tiles (axb_device's
   tile_load / tile_store: consecutive threads on consecutive elements, so
   packed stacks are read and written coalesced; a thread's own loads
   would touch a cache line per lane).  A row-major A_b is the tile's
   transpose (RM: the index swap is free).  The residual reads A_b again
   from the tile, which the factorization leaves intact. */
template <int N> struct CertTile {
  static constexpr int M = N <= 4 ? 128 : 64;
};

template <int N, bool RM, typename T>
__global__ void __launch_bounds__(CertTile<N>::M)
    cert_tile_kernel(const CertArgs<T> a) {
  constexpr int M = CertTile<N>::M;
  constexpr int la = axb_dev::tile_ld<N, N>(), lb = axb_dev::tile_ld<N, 1>();
  static_assert(axb_dev::tile_ld<1, N>() == lb, "one right-hand-side tile");
  __shared__ T sA[M * la];
  __shared__ T sB[M * lb];
  const int t = (int)threadIdx.x;
  for (int64_t m0 = (int64_t)blockIdx.x * M; m0 < a.batch;
       m0 += (int64_t)gridDim.x * M) {
    const int cnt = a.batch - m0 < M ? (int)(a.batch - m0) : M;
    const bool me = t < cnt;
    axb_dev::tile_load<N, N>(sA, a.A + m0 * a.sA, a.lda, a.sA, cnt);
    __syncthreads();
    const T *S = sA + t * la; /* A_b(i, j) = S[RM ? j + i N : i + j N] */
    T lu[N * N];
    int piv[N];
    int info = 0;
    double an = 0;
    if (me) {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        double s = 0;
#pragma unroll
        for (int j = 0; j < N; ++j) {
          const T v = S[RM ? j + i * N : i + j * N];
          lu[i + j * N] = v;
          s += fabs((double)v);
        }
        an = nanmax(an, s);
      }
      info = axb_dev::thread_getrf<N>(N, lu, piv);
    }
    double worst = 0;
    for (int c = 0; c < a.nrhs; ++c) {
      __syncthreads(); /* the last column's store has read sB */
      if (RM)
        axb_dev::tile_load<1, N>(sB, a.B + m0 * a.sB + c, a.ldb, a.sB, cnt);
      else
        axb_dev::tile_load<N, 1>(sB, a.B + m0 * a.sB + (int64_t)c * a.ldb,
                                 a.ldb, a.sB, cnt);
      __syncthreads();
      if (me) {
        T x[N], b[N];
#pragma unroll
        for (int i = 0; i < N; ++i)
          x[i] = b[i] = sB[t * lb + i];
        if (!info) axb_dev::thread_getrs<N>(N, lu, piv, x);
        double rn = 0, xn = 0;
#pragma unroll
        for (int i = 0; i < N; ++i) {
          double r = (double)b[i];
#pragma unroll
          for (int j = 0; j < N; ++j)
            r -= (double)S[RM ? j + i * N : i + j * N] * (double)x[j];
          rn = nanmax(rn, fabs(r));
          xn = nanmax(xn, fabs((double)x[i]));
          sB[t * lb + i] = info ? T(NAN) : x[i];
        }
        worst = nanmax(worst, cert_ratio<T>(rn, an, xn, N));
      }
      __syncthreads();
      if (RM)
        axb_dev::tile_store<1, N>(a.X + m0 * a.sX + c, a.ldx, a.sX, sB, cnt);
      else
        axb_dev::tile_store<N, 1>(a.X + m0 * a.sX + (int64_t)c * a.ldx, a.ldx,
                                  a.sX, sB, cnt);
    }
    if (me) {
      a.info[m0 + t] = info;
      a.berr[m0 + t] = info ? T(INFINITY) : T(worst);
    }
    __syncthreads(); /* sA and sB free for the next tile */
  }
}

/* 9..64, before gesv_batched: W_b := A_b and Y_b := B_b column-major. */
template <typename T>
__global__ void cert_gather_kernel(const CertArgs<T> a, T *W, T *Y) {
  const int n = a.n, k = a.nrhs;
  const int64_t per = (int64_t)n * (n + k);
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
       e < a.batch * per; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t m = e / per;
    const int64_t r = e % per;
    const int i = (int)(r % n), j = (int)(r / n); /* column j of [A | B] */
    if (j < n)
      W[m * n * n + i + (int64_t)j * n] = at(a.A + m * a.sA, a.rm, a.lda, i, j);
    else
      Y[m * n * k + i + (int64_t)(j - n) * n] =
          at(a.B + m * a.sB, a.rm, a.ldb, i, j - n);
  }
}

/* 9..64, after gesv_batched: residuals, X and berr from Y (the answers). */
template <typename T>
__global__ void cert_finish_kernel(const CertArgs<T> a, const T *Y) {
  for (int64_t m = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; m < a.batch;
       m += (int64_t)gridDim.x * blockDim.x) {
    const int info = a.info[m];
    const double an = norm_inf(a, a.A + m * a.sA, a.n);
    double worst = 0;
    for (int c = 0; c < a.nrhs; ++c) {
      const T *y = Y + m * a.n * a.nrhs + (int64_t)c * a.n;
      worst = nanmax(worst, finish_column(a, m, c, y, an, info));
    }
    a.berr[m] = info ? T(INFINITY) : T(worst);
  }
}

unsigned grid_of(int64_t items, int threads) {
  const int64_t b = (items + threads - 1) / threads;
  return (unsigned)(b < 65536 ? (b < 1 ? 1 : b) : 65536);
}

template <int N, typename T>
bool thread_order(axb_handle h, const CertArgs<T> &a, axb_status *st) {
  if (a.n != N) return false;
  constexpr int M = CertTile<N>::M;
  const unsigned g = grid_of(a.batch, M);
  if (a.rm)
    cert_tile_kernel<N, true, T><<<g, M, 0, stream(h)>>>(a);
  else
    cert_tile_kernel<N, false, T><<<g, M, 0, stream(h)>>>(a);
  cudaError_t e = cudaGetLastError();
  *st = e == cudaSuccess ? AXB_SUCCESS
                         : fail_cuda(h, e, "gesv_batched_cert kernel");
  return true;
}

axb_status run_batched_gesv(axb_handle h, int64_t n, int64_t k, double *W,
                            double *Y, int *info, int64_t batch) {
  return axb__cuda_dbatched(h, BAT_GESV, 0, n, k, W, n, n * n, nullptr, 0, Y, n,
                            n * k, info, batch);
}
axb_status run_batched_gesv(axb_handle h, int64_t n, int64_t k, float *W,
                            float *Y, int *info, int64_t batch) {
  return axb__cuda_sbatched(h, BAT_GESV, 0, n, k, W, n, n * n, nullptr, 0, Y, n,
                            n * k, info, batch);
}

template <typename T> axb_status cert_general(axb_handle h, CertArgs<T> a) {
  const int64_t per = (int64_t)a.n * (a.n + a.nrhs);
  Scratch scr(h);
  axb_status st = scr.alloc((size_t)(a.batch * per) * sizeof(T));
  if (st) return st;
  /* no right-hand sides: Y is NULL (a pointer one past the scratch would
     not pass gesv_batched's device-memory check) */
  T *W = (T *)scr.p, *Y = a.nrhs ? W + a.batch * a.n * a.n : nullptr;
  cert_gather_kernel<T>
      <<<grid_of(a.batch * per, 256), 256, 0, stream(h)>>>(a, W, Y);
  AXB_CU(h, cudaGetLastError());
  st = run_batched_gesv(h, a.n, a.nrhs, W, Y, a.info, a.batch);
  if (st) return st;
  cert_finish_kernel<T><<<grid_of(a.batch, 128), 128, 0, stream(h)>>>(a, Y);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

template <typename T>
axb_status gesv_cert(axb_handle h, int rm, int64_t n, int64_t nrhs, const T *A,
                     int64_t lda, int64_t sA, const T *B, int64_t ldb,
                     int64_t sB, T *X, int64_t ldx, int64_t sX, int *info,
                     T *berr, int64_t batch) {
  DeviceScope scope(h->device);
  axb_status st = need_device(h, A, "A");
  if (!st && nrhs > 0) st = need_device(h, B, "B");
  if (!st && nrhs > 0) st = need_device(h, X, "X");
  if (!st) st = need_device(h, info, "info");
  if (!st) st = need_device(h, berr, "berr");
  if (st) return st;
  CertArgs<T> a{rm, (int)n, (int)nrhs, A,  lda,  sA,   B,    ldb,
                sB, X,      ldx,       sX, info, berr, batch};
  if (n == 0) { /* nothing to solve (with nrhs = 0 the LU still runs) */
    AXB_CU(h, cudaMemsetAsync(info, 0, (size_t)batch * sizeof(int), stream(h)));
    AXB_CU(h, cudaMemsetAsync(berr, 0, (size_t)batch * sizeof(T), stream(h)));
    return AXB_SUCCESS;
  }
  if (thread_order<1>(h, a, &st) || thread_order<2>(h, a, &st) ||
      thread_order<3>(h, a, &st) || thread_order<4>(h, a, &st) ||
      thread_order<5>(h, a, &st) || thread_order<6>(h, a, &st) ||
      thread_order<7>(h, a, &st) || thread_order<8>(h, a, &st))
    return st;
  return cert_general<T>(h, a);
}

} // namespace

} // namespace axb_cuda

#define AXB_CERT_ENTRY(name, T)                                                \
  extern "C" axb_status name(axb_handle h, int rm, int64_t n, int64_t nrhs,    \
                             const T *A, int64_t lda, int64_t sA, const T *B,  \
                             int64_t ldb, int64_t sB, T *X, int64_t ldx,       \
                             int64_t sX, int *info, T *berr, int64_t batch) {  \
    return axb_cuda::gesv_cert<T>(h, rm, n, nrhs, A, lda, sA, B, ldb, sB, X,   \
                                  ldx, sX, info, berr, batch);                 \
  }
AXB_CERT_ENTRY(axb__cuda_dgesv_cert, double)
AXB_CERT_ENTRY(axb__cuda_sgesv_cert, float)
