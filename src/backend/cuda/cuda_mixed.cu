/*
 * The CUDA mixed-precision session (backend.h, axb_mixed_backend): the FP64
 * A stays in device memory (the caller's device array, or one upload of a
 * host array), its scaled copy As = R A C is rounded to FP32 on the device
 * and factored by this backend's own getrf/potrf with the trailing updates'
 * compute type set for the factor precision (f32_compute: TF32, FP16 or
 * BF16 tensor cores, FP32 accumulation), or in FP64 for the fallback.  The
 * driver (src/dense/mixed.c) sends n x k host vectors; products with A and
 * solves with the factors run here.
 */
#include "cuda_chol_mixed.h"
#include "cuda_internal.h"

#include "backend/mixed_scale.h"

#include <math.h>
#include <new>

namespace axb_cuda {

thread_local cublasComputeType_t f32_compute = CUBLAS_COMPUTE_32F;

namespace {

cublasComputeType_t compute_of(axb_factor_precision p) {
  switch (p) {
  case AXB_FACTOR_TF32: return CUBLAS_COMPUTE_32F_FAST_TF32;
  case AXB_FACTOR_FP16: return CUBLAS_COMPUTE_32F_FAST_16F;
  case AXB_FACTOR_BF16: return CUBLAS_COMPUTE_32F_FAST_16BF;
  default: return CUBLAS_COMPUTE_32F;
  }
}

/* Sets the FP32 GEMM compute type for one factorization. */
struct F32ComputeScope {
  cublasComputeType_t saved;
  explicit F32ComputeScope(axb_factor_precision p) : saved(f32_compute) {
    f32_compute = compute_of(p);
  }
  ~F32ComputeScope() { f32_compute = saved; }
};

/* Rows of the stored part of a symmetric A in column j: lower [j, n),
   upper [0, j]; all rows for a general A (chol 0). */
__device__ inline void stored_rows(int chol, int lower, int64_t n, int64_t j,
                                   int64_t *i0, int64_t *i1) {
  *i0 = chol && lower ? j : 0;
  *i1 = chol && !lower ? j + 1 : n;
}

constexpr int kRowThreads = 128;
constexpr int kColChunks = 16;

/* Row statistics over the stored entries, columns split into kColChunks:
   partial sums and maxima of |a_ij| per (chunk, row), and a flag for a
   non-finite entry.  For a symmetric A the entries a row owns through the
   other triangle are added by col_stats. */
__global__ void row_stats_kernel(int chol, int lower, int64_t n,
                                 const double *A, int64_t lda, double *psum,
                                 double *pmax, int *bad) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  int64_t c = blockIdx.y, j0 = n * c / kColChunks,
          j1 = n * (c + 1) / kColChunks;
  double s = 0, m = 0;
  int nf = 0;
  for (int64_t j = j0; j < j1; ++j) {
    int64_t r0, r1;
    stored_rows(chol, lower, n, j, &r0, &r1);
    if (i < r0 || i >= r1) continue;
    double v = fabs(A[i + j * lda]);
    if (!isfinite(v)) nf = 1;
    s += v;
    m = v > m ? v : m;
  }
  psum[c * n + i] = s;
  pmax[c * n + i] = m;
  if (nf) *bad = 1;
}

/* One block per column j: the stored entries' sum of |a_ij| strictly off
   the diagonal (symmetric A: what rows j owns in the other triangle) and
   their maximum, or (w != NULL, general A) max_i |a_ij| w_i. */
__global__ void col_stats_kernel(int chol, int lower, int64_t n,
                                 const double *A, int64_t lda, const double *w,
                                 double *csum, double *cmax) {
  __shared__ double ss[256], sm[256];
  int64_t j = blockIdx.x;
  int64_t r0, r1;
  stored_rows(chol, lower, n, j, &r0, &r1);
  double s = 0, m = 0;
  for (int64_t i = r0 + threadIdx.x; i < r1; i += blockDim.x) {
    double v = fabs(A[i + j * lda]);
    if (w) v *= w[i];
    if (i != j) s += v;
    m = v > m ? v : m;
  }
  ss[threadIdx.x] = s;
  sm[threadIdx.x] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if ((int)threadIdx.x < k) {
      ss[threadIdx.x] += ss[threadIdx.x + k];
      sm[threadIdx.x] = fmax(sm[threadIdx.x], sm[threadIdx.x + k]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    csum[j] = ss[0];
    cmax[j] = sm[0];
  }
}

/* d[i] := A[i, i], for one contiguous copy to the host instead of a
   strided 2-D copy of n 8-byte rows (the SPD scan at n = 32768 on the
   H100: 18.8-19.5 -> 12.7-14.1 ms; no change measured at 16384). */
__global__ void diag_kernel(int64_t n, const double *A, int64_t lda,
                            double *d) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) d[i] = A[i + i * lda];
}

/* F := R A C over the stored entries (ld n), in FP32 or FP64. */
template <typename F>
__global__ void scale_round_kernel(int chol, int lower, int64_t n,
                                   const double *A, int64_t lda,
                                   const double *r, const double *c, F *Fm) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
    if (chol && (lower ? i < j : i > j)) continue;
    Fm[i + j * n] = (F)(A[i + j * lda] * r[i] * c[j]);
  }
}

template <typename From, typename To>
__global__ void convert_kernel(int64_t count, const From *x, To *y) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
       i += (int64_t)gridDim.x * blockDim.x)
    y[i] = (To)x[i];
}

struct Session {
  int chol, lower;
  axb_uplo uplo;
  int64_t n, lda;
  const double *A; /* device */
  double *Aown;    /* the uploaded copy of a host A, or NULL */
  double *dr, *dc; /* scales, device */
  float *F32;
  double *F64;
  int64_t *ipiv, *dinfo;
  int64_t *hipiv; /* host copy of the pivots (LU) for one-vector solves */
  double *dV;     /* 2 n kcap doubles: X and Y of matmul, V of solve */
  float *dW;      /* n kcap floats */
  int64_t kcap;
  axb_factor_precision p;
};

void free_session(Session *s) {
  free(s->hipiv);
  cudaFree(s->Aown);
  cudaFree(s->dr);
  cudaFree(s->F32);
  cudaFree(s->F64);
  cudaFree(s->ipiv);
  cudaFree(s->dV);
  cudaFree(s->dW);
  delete s;
}

axb_status dmalloc(axb_handle h, void **p, size_t bytes, const char *what) {
  cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "mixed: %zu bytes of device memory for %s", bytes, what);
  }
  AXB_CU(h, e);
  return AXB_SUCCESS;
}

/* Vectors for k columns. */
axb_status need_vectors(axb_handle h, Session *s, int64_t k) {
  if (k <= s->kcap) return AXB_SUCCESS;
  cudaFree(s->dV);
  cudaFree(s->dW);
  s->dV = nullptr;
  s->dW = nullptr;
  s->kcap = 0;
  const size_t n = (size_t)s->n;
  if (axb_status st =
          dmalloc(h, (void **)&s->dV, 2 * n * k * sizeof(double), "vectors"))
    return st;
  if (axb_status st =
          dmalloc(h, (void **)&s->dW, n * k * sizeof(float), "vectors"))
    return st;
  s->kcap = k;
  return AXB_SUCCESS;
}

axb_status m_open(axb_handle h, int chol, axb_uplo uplo, int dev, int64_t n,
                  const double *A, int64_t lda, int scale, double *r, double *c,
                  axb_mixed_scan *scan, void **out) {
  Context *ctx = context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  Session *s = new (std::nothrow) Session();
  if (!s) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: session");
  s->chol = chol;
  s->uplo = uplo;
  s->lower = uplo == AXB_LOWER;
  s->n = n;
  s->A = A;
  s->lda = lda;
  cudaStream_t st = stream(h);
  axb_status e = AXB_SUCCESS;
  double *work = nullptr; /* 2 kColChunks n + 4 n doubles, and a flag */
  auto bail = [&](axb_status x) {
    cudaFree(work);
    free_session(s);
    return x;
  };
  if (!dev) {
    e = dmalloc(h, (void **)&s->Aown, (size_t)n * n * sizeof(double), "A");
    if (!e)
      e = copy_2d<double>(h, ctx, s->Aown, n, A, lda, n, n,
                          cudaMemcpyHostToDevice);
    if (e) return bail(e);
    s->A = s->Aown;
    s->lda = n;
  }
  if ((e = dmalloc(h, (void **)&s->dr, 2 * (size_t)n * sizeof(double),
                   "scales")))
    return bail(e);
  s->dc = s->dr + n;
  const size_t nw = (2 * kColChunks + 4) * (size_t)n;
  if ((e = dmalloc(h, (void **)&work, nw * sizeof(double) + 64, "scan")))
    return bail(e);
  double *psum = work, *pmax = psum + kColChunks * n,
         *csum = pmax + kColChunks * n;
  double *cmax = csum + n;
  int *bad = (int *)(work + nw);
  if (cudaMemsetAsync(bad, 0, sizeof(int), st) != cudaSuccess)
    return bail(fail_cuda(h, cudaGetLastError(), "memset"));
  dim3 grid((unsigned)((n + kRowThreads - 1) / kRowThreads), kColChunks);
  row_stats_kernel<<<grid, kRowThreads, 0, st>>>(chol, s->lower, n, s->A,
                                                 s->lda, psum, pmax, bad);
  if (chol)
    col_stats_kernel<<<(unsigned)n, 256, 0, st>>>(chol, s->lower, n, s->A,
                                                  s->lda, nullptr, csum, cmax);
  if (cudaError_t ce = cudaGetLastError())
    return bail(fail_cuda(h, ce, "mixed: scan kernels"));
  /* host: combine the chunks (n x kColChunks doubles, twice) */
  double *hp = (double *)malloc(
      (2 * kColChunks + 2) * (size_t)n * sizeof(double) + sizeof(int));
  if (!hp) return bail(axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: scan"));
  int hbad = 0;
  cudaError_t ce =
      cudaMemcpyAsync(hp, work, (2 * kColChunks + 2) * n * sizeof(double),
                      cudaMemcpyDeviceToHost, st);
  if (!ce)
    ce = cudaMemcpyAsync(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost, st);
  if (!ce) ce = cudaStreamSynchronize(st);
  if (ce) {
    free(hp);
    return bail(fail_cuda(h, ce, "mixed: scan copies"));
  }
  double anorm = 0, amax = 0, *rowsum = r, *rowmax = c;
  for (int64_t i = 0; i < n; ++i) {
    double su = chol ? hp[2 * kColChunks * n + i] : 0, m = 0;
    for (int k = 0; k < kColChunks; ++k) {
      su += hp[k * n + i];
      double v = hp[(kColChunks + k) * n + i];
      m = v > m ? v : m;
    }
    if (chol) m = fmax(m, hp[(2 * kColChunks + 1) * n + i]);
    rowsum[i] = su;
    rowmax[i] = m;
    anorm = su > anorm ? su : anorm;
    amax = m > amax ? m : amax;
  }
  free(hp);
  scan->finite = !hbad;
  scan->anorm = anorm;
  if (chol) {
    /* d_i from the diagonal: one strided read of n entries */
    for (int64_t i = 0; i < n; ++i)
      r[i] = 1;
    if (scale) {
      double *diag = (double *)malloc((size_t)n * sizeof(double));
      if (!diag)
        return bail(axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: diagonal"));
      double *ddiag = cmax + n; /* spare: nw holds 2 more n */
      diag_kernel<<<(unsigned)((n + 255) / 256), 256, 0, st>>>(n, s->A, s->lda,
                                                               ddiag);
      ce = cudaGetLastError();
      if (!ce)
        ce = cudaMemcpyAsync(diag, ddiag, (size_t)n * sizeof(double),
                             cudaMemcpyDeviceToHost, st);
      if (!ce) ce = cudaStreamSynchronize(st);
      if (ce) {
        free(diag);
        return bail(fail_cuda(h, ce, "mixed: diagonal"));
      }
      for (int64_t i = 0; i < n; ++i)
        r[i] = axb__mixed_sym_scale(diag[i]);
      free(diag);
    }
    double dmax = 0;
    for (int64_t i = 0; i < n; ++i)
      dmax = r[i] > dmax ? r[i] : dmax;
    /* |d_i a_ij d_j| <= rowmax_i d_i dmax: a bound, enough for the range */
    double bound = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = rowmax[i] * r[i] * dmax;
      bound = v > bound ? v : bound;
    }
    scan->amax = scale ? bound : amax;
    for (int64_t i = 0; i < n; ++i)
      c[i] = r[i];
  } else {
    /* one scale for all rows when the FP32 factor comes first and the
       rows' maxima allow it (mixed_scale.h: per-row scales change the
       pivots and slowed refinement) */
    axb__mixed_row_scales(scan->first == AXB_FACTOR_FP32, n, rowmax, scale, r);
    ce = cudaMemcpyAsync(s->dr, r, (size_t)n * sizeof(double),
                         cudaMemcpyHostToDevice, st);
    if (ce) return bail(fail_cuda(h, ce, "mixed: scales"));
    col_stats_kernel<<<(unsigned)n, 256, 0, st>>>(0, 0, n, s->A, s->lda, s->dr,
                                                  csum, cmax);
    ce = cudaGetLastError();
    if (!ce)
      ce = cudaMemcpyAsync(c, cmax, (size_t)n * sizeof(double),
                           cudaMemcpyDeviceToHost, st);
    if (!ce) ce = cudaStreamSynchronize(st);
    if (ce) return bail(fail_cuda(h, ce, "mixed: column scales"));
    amax = 0;
    for (int64_t j = 0; j < n; ++j) {
      double cm = c[j];
      c[j] = scale ? axb__mixed_pow2_scale(cm) : 1;
      amax = cm * c[j] > amax ? cm * c[j] : amax;
    }
    scan->amax = amax;
  }
  ce = cudaMemcpyAsync(s->dr, r, (size_t)n * sizeof(double),
                       cudaMemcpyHostToDevice, st);
  if (!ce)
    ce = cudaMemcpyAsync(s->dc, c, (size_t)n * sizeof(double),
                         cudaMemcpyHostToDevice, st);
  if (!ce) ce = cudaStreamSynchronize(st);
  if (ce) return bail(fail_cuda(h, ce, "mixed: scales"));
  cudaFree(work);
  *out = s;
  return AXB_SUCCESS;
}

/* The low-precision Cholesky factor by chol_tc (the panels on tensor
   cores too) from n = 24576: measured on the H100, FP16 factor, 1.59x ->
   1.81-1.89x cuSOLVER dpotrf+dpotrs at n = 32768 (two runs), but 0.94x ->
   0.79x at 16384, where the backend's potrf_dev (look-ahead, fewer
   launches) is faster, also after syrk_tc (0.99x against 1.07-1.21x);
   never for the FP32 factor, whose products run on CUDA cores either way
   (at 32768: 360 ms with chol_tc, 340 ms with potrf_dev's default block
   of 2048 columns, 201 ms with AXB_CUDA_POTRF_NB=1024).
   AXB_MIXED_CHOL_TC=0 never, =1 always (tensor-core precisions). */
bool use_chol_tc(int64_t n) {
  static const int mode = [] {
    const char *e = getenv("AXB_MIXED_CHOL_TC");
    return e && (e[0] == '0' || e[0] == '1') ? e[0] - '0' : -1;
  }();
  return mode < 0 ? n >= 24576 : mode == 1;
}

axb_status m_factor(axb_handle h, void *vs, axb_factor_precision p,
                    int64_t *info) {
  Session *s = (Session *)vs;
  DeviceScope scope(h->device);
  cudaStream_t st = stream(h);
  const int64_t n = s->n;
  *info = 0;
  s->p = p;
  if (!s->ipiv) {
    if (axb_status e = dmalloc(h, (void **)&s->ipiv,
                               (size_t)(n + 1) * sizeof(int64_t), "pivots"))
      return e;
    s->dinfo = s->ipiv + n;
  }
  const axb_backend_ops *ops = h->ops;
  dim3 grid((unsigned)((n + 255) / 256), (unsigned)(n < 65535 ? n : 65535));
  axb_status e;
  if (p == AXB_FACTOR_FP64) {
    cudaFree(s->F32);
    s->F32 = nullptr;
    if (!s->F64 && (e = dmalloc(h, (void **)&s->F64,
                                (size_t)n * n * sizeof(double), "FP64 factor")))
      return e;
    scale_round_kernel<double><<<grid, 256, 0, st>>>(
        s->chol, s->lower, n, s->A, s->lda, s->dr, s->dc, s->F64);
    AXB_CU(h, cudaGetLastError());
    e = s->chol ? ops->d.potrf_dev(h, s->uplo, n, s->F64, n, s->dinfo)
                : ops->d.getrf_dev(h, n, n, s->F64, n, s->ipiv, s->dinfo);
  } else {
    if (!s->F32 && (e = dmalloc(h, (void **)&s->F32,
                                (size_t)n * n * sizeof(float), "FP32 factor")))
      return e;
    scale_round_kernel<float><<<grid, 256, 0, st>>>(
        s->chol, s->lower, n, s->A, s->lda, s->dr, s->dc, s->F32);
    AXB_CU(h, cudaGetLastError());
    F32ComputeScope scope32(p);
    if (s->chol && p != AXB_FACTOR_FP32 && use_chol_tc(n))
      e = chol_tc(h, s->uplo, n, s->F32, n, s->dinfo);
    else
      e = s->chol ? ops->s.potrf_dev(h, s->uplo, n, s->F32, n, s->dinfo)
                  : ops->s.getrf_dev(h, n, n, s->F32, n, s->ipiv, s->dinfo);
  }
  if (e) return e;
  AXB_CU(h, cudaMemcpyAsync(info, s->dinfo, sizeof(int64_t),
                            cudaMemcpyDeviceToHost, st));
  if (!s->chol) { /* the pivots, for one-vector solves (m_solve) */
    if (!s->hipiv) s->hipiv = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!s->hipiv)
      return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: host pivots");
    AXB_CU(h, cudaMemcpyAsync(s->hipiv, s->ipiv, (size_t)n * sizeof(int64_t),
                              cudaMemcpyDeviceToHost, st));
  }
  AXB_CU(h, cudaStreamSynchronize(st));
  if (*info > 0) return s->chol ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
  return AXB_SUCCESS;
}

/* One right-hand side: the interchanges on the host vector (O(n)), then
   two cuBLAS TRSVs on the device copy (TRSM with one column and the
   batched interchange plans cost several times more: measured on the
   H100, issue 22).  AXB_MIXED_TRSV=0 takes getrs_dev/potrs_dev instead. */
bool use_trsv() {
  static const bool on = [] {
    const char *e = getenv("AXB_MIXED_TRSV");
    return !(e && e[0] == '0');
  }();
  return on;
}

template <typename T>
cublasStatus_t trsv(cublasHandle_t b, cublasFillMode_t u, cublasOperation_t t,
                    cublasDiagType_t d, int64_t n, const T *A, int64_t lda,
                    T *x);
template <>
cublasStatus_t trsv<float>(cublasHandle_t b, cublasFillMode_t u,
                           cublasOperation_t t, cublasDiagType_t d, int64_t n,
                           const float *A, int64_t lda, float *x) {
  return cublasStrsv_64(b, u, t, d, n, A, lda, x, 1);
}
template <>
cublasStatus_t trsv<double>(cublasHandle_t b, cublasFillMode_t u,
                            cublasOperation_t t, cublasDiagType_t d, int64_t n,
                            const double *A, int64_t lda, double *x) {
  return cublasDtrsv_64(b, u, t, d, n, A, lda, x, 1);
}

template <typename T>
axb_status solve_one(axb_handle h, Session *s, const T *F, T *x) {
  Context *ctx = context(h);
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  const int64_t n = s->n;
  if (s->chol) {
    cublasFillMode_t u =
        s->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    /* A = L L^T (lower) or U^T U (upper) */
    AXB_BLAS(h, trsv<T>(ctx->blas, u, s->lower ? CUBLAS_OP_N : CUBLAS_OP_T,
                        CUBLAS_DIAG_NON_UNIT, n, F, n, x));
    AXB_BLAS(h, trsv<T>(ctx->blas, u, s->lower ? CUBLAS_OP_T : CUBLAS_OP_N,
                        CUBLAS_DIAG_NON_UNIT, n, F, n, x));
    return AXB_SUCCESS;
  }
  AXB_BLAS(h, trsv<T>(ctx->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                      CUBLAS_DIAG_UNIT, n, F, n, x));
  AXB_BLAS(h, trsv<T>(ctx->blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                      CUBLAS_DIAG_NON_UNIT, n, F, n, x));
  return AXB_SUCCESS;
}

axb_status m_matmul(axb_handle h, void *vs, int64_t k, const double *X,
                    double *Y) {
  Session *s = (Session *)vs;
  Context *ctx = context(h);
  DeviceScope scope(h->device);
  const int64_t n = s->n;
  if (axb_status e = need_vectors(h, s, k)) return e;
  double *dX = s->dV, *dY = s->dV + n * k;
  cudaStream_t st = stream(h);
  AXB_CU(h, cudaMemcpyAsync(dX, X, (size_t)(n * k) * sizeof(double),
                            cudaMemcpyHostToDevice, st));
  AXB_BLAS(h, cublasSetStream(ctx->blas, st));
  const double one = 1, zero = 0;
  if (s->chol && k == 1) /* SYMV: DSYMM with one column ran at ~1.3 TB/s */
    AXB_BLAS(h, cublasDsymv_64(ctx->blas,
                               s->lower ? CUBLAS_FILL_MODE_LOWER
                                        : CUBLAS_FILL_MODE_UPPER,
                               n, &one, s->A, s->lda, dX, 1, &zero, dY, 1));
  else if (s->chol)
    AXB_BLAS(h, cublasDsymm_64(ctx->blas, CUBLAS_SIDE_LEFT,
                               s->lower ? CUBLAS_FILL_MODE_LOWER
                                        : CUBLAS_FILL_MODE_UPPER,
                               n, k, &one, s->A, s->lda, dX, n, &zero, dY, n));
  else if (k == 1)
    AXB_BLAS(h, cublasDgemv_64(ctx->blas, CUBLAS_OP_N, n, n, &one, s->A, s->lda,
                               dX, 1, &zero, dY, 1));
  else
    AXB_BLAS(h, gemm(ctx->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, k, n, &one, s->A,
                     s->lda, dX, n, &zero, dY, n));
  AXB_CU(h, cudaMemcpyAsync(Y, dY, (size_t)(n * k) * sizeof(double),
                            cudaMemcpyDeviceToHost, st));
  AXB_CU(h, cudaStreamSynchronize(st));
  return AXB_SUCCESS;
}

axb_status m_solve(axb_handle h, void *vs, int64_t k, double *V) {
  Session *s = (Session *)vs;
  DeviceScope scope(h->device);
  const int64_t n = s->n, nk = n * k;
  if (axb_status e = need_vectors(h, s, k)) return e;
  cudaStream_t st = stream(h);
  const axb_backend_ops *ops = h->ops;
  const bool one = k == 1 && use_trsv();
  if (one && !s->chol) /* P V: LAPACK's interchanges, in order */
    for (int64_t i = 0; i < n; ++i) {
      int64_t p = s->hipiv[i] - 1;
      double t = V[i];
      V[i] = V[p];
      V[p] = t;
    }
  AXB_CU(h, cudaMemcpyAsync(s->dV, V, (size_t)nk * sizeof(double),
                            cudaMemcpyHostToDevice, st));
  axb_status e;
  if (one) {
    const unsigned blocks =
        (unsigned)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    if (s->p == AXB_FACTOR_FP64) {
      e = solve_one<double>(h, s, s->F64, s->dV);
    } else {
      convert_kernel<double, float><<<blocks, 256, 0, st>>>(n, s->dV, s->dW);
      AXB_CU(h, cudaGetLastError());
      e = solve_one<float>(h, s, s->F32, s->dW);
      convert_kernel<float, double><<<blocks, 256, 0, st>>>(n, s->dW, s->dV);
      AXB_CU(h, cudaGetLastError());
    }
    if (e) return e;
  } else if (s->p == AXB_FACTOR_FP64) {
    e = s->chol ? ops->d.potrs_dev(h, s->uplo, n, k, s->F64, n, s->dV, n)
                : ops->d.getrs_dev(h, AXB_NO_TRANS, n, k, s->F64, n, s->ipiv,
                                   s->dV, n);
    if (e) return e;
  } else {
    const unsigned blocks =
        (unsigned)((nk + 255) / 256 < 4096 ? (nk + 255) / 256 : 4096);
    convert_kernel<double, float><<<blocks, 256, 0, st>>>(nk, s->dV, s->dW);
    AXB_CU(h, cudaGetLastError());
    e = s->chol ? ops->s.potrs_dev(h, s->uplo, n, k, s->F32, n, s->dW, n)
                : ops->s.getrs_dev(h, AXB_NO_TRANS, n, k, s->F32, n, s->ipiv,
                                   s->dW, n);
    if (e) return e;
    convert_kernel<float, double><<<blocks, 256, 0, st>>>(nk, s->dW, s->dV);
    AXB_CU(h, cudaGetLastError());
  }
  AXB_CU(h, cudaMemcpyAsync(V, s->dV, (size_t)nk * sizeof(double),
                            cudaMemcpyDeviceToHost, st));
  AXB_CU(h, cudaStreamSynchronize(st));
  return AXB_SUCCESS;
}

void m_close(axb_handle h, void *vs) {
  DeviceScope scope(h->device);
  cudaStreamSynchronize(stream(h));
  free_session((Session *)vs);
}

axb_status m_copy(axb_handle h, double *dst, int64_t ldd, const double *src,
                  int64_t lds, int64_t rows, int64_t cols, int to_device) {
  Context *ctx = context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  /* the caller's device arrays may have work queued on the stream */
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  return copy_2d<double>(h, ctx, dst, ldd, src, lds, rows, cols,
                         to_device ? cudaMemcpyHostToDevice
                                   : cudaMemcpyDeviceToHost);
}

const axb_mixed_backend mixed_ops = {m_open,  m_factor, m_matmul,
                                     m_solve, m_close,  m_copy};

} // namespace

void fill_mixed_table(axb_backend_ops *ops) { ops->mixed = &mixed_ops; }

} // namespace axb_cuda
