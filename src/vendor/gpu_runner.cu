/*
 * GPU runs for benchmarks (axb.h, axb_gpu_run): host arrays in, one
 * operation of axb's CUDA backend, cuSOLVER (dense, and potrfBatched /
 * potrsBatched for batched Cholesky) or cuBLAS batched on the
 * handle's stream, results out; CUDA events split the time into the
 * operation alone and the copies.  Device buffers are kept and grow on
 * demand (cudaMalloc synchronises, so a timed run after a warm-up of the
 * same size allocates nothing).
 */
#include "cusolver_anchor.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <climits>
#include <cstdio>
#include <new>
#include <vector>

extern "C" {
#include "core/internal.h"
#include "vendor/vendor.h"
}

namespace {

/* One growing device allocation. */
struct DevBuf {
  void *p = nullptr;
  size_t bytes = 0;
  cudaError_t reserve(size_t want) {
    if (want <= bytes) return cudaSuccess;
    cudaFree(p);
    p = nullptr;
    bytes = 0;
    cudaError_t e = cudaMalloc(&p, want);
    if (e == cudaSuccess) bytes = want;
    return e;
  }
  ~DevBuf() { cudaFree(p); }
};

/* X := I (n x n, leading dimension n); columns strided over grid.y. */
template <typename T> __global__ void set_identity(T *X, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
    X[i + j * n] = i == j ? T(1) : T(0);
}

/* cuBLAS batched LU by precision. */
cublasStatus_t getrf_b(cublasHandle_t b, int n, double **A, int *p, int *info,
                       int nb) {
  return cublasDgetrfBatched(b, n, A, n, p, info, nb);
}
cublasStatus_t getrf_b(cublasHandle_t b, int n, float **A, int *p, int *info,
                       int nb) {
  return cublasSgetrfBatched(b, n, A, n, p, info, nb);
}
cublasStatus_t getrs_b(cublasHandle_t b, int n, double **A, const int *p,
                       double **B, int *hinfo, int nb) {
  return cublasDgetrsBatched(b, CUBLAS_OP_N, n, 1, A, n, p, B, n, hinfo, nb);
}
cublasStatus_t getrs_b(cublasHandle_t b, int n, float **A, const int *p,
                       float **B, int *hinfo, int nb) {
  return cublasSgetrsBatched(b, CUBLAS_OP_N, n, 1, A, n, p, B, n, hinfo, nb);
}
cublasStatus_t getri_b(cublasHandle_t b, int n, double **A, const int *p,
                       double **C, int *info, int nb) {
  return cublasDgetriBatched(b, n, A, n, p, C, n, info, nb);
}
cublasStatus_t getri_b(cublasHandle_t b, int n, float **A, const int *p,
                       float **C, int *info, int nb) {
  return cublasSgetriBatched(b, n, A, n, p, C, n, info, nb);
}

/* cuSOLVER batched Cholesky by precision (lower; potrs: one right-hand
   side, the only count cuSOLVER's potrsBatched takes). */
cusolverStatus_t potrf_b(cusolverDnHandle_t s, int n, double **A, int *info,
                         int nb) {
  return cusolverDnDpotrfBatched(s, CUBLAS_FILL_MODE_LOWER, n, A, n, info, nb);
}
cusolverStatus_t potrf_b(cusolverDnHandle_t s, int n, float **A, int *info,
                         int nb) {
  return cusolverDnSpotrfBatched(s, CUBLAS_FILL_MODE_LOWER, n, A, n, info, nb);
}
cusolverStatus_t potrs_b(cusolverDnHandle_t s, int n, double **A, double **B,
                         int *info, int nb) {
  return cusolverDnDpotrsBatched(s, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n,
                                 info, nb);
}
cusolverStatus_t potrs_b(cusolverDnHandle_t s, int n, float **A, float **B,
                         int *info, int nb) {
  return cusolverDnSpotrsBatched(s, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n,
                                 info, nb);
}

} // namespace

struct axb_gpu_runner_s {
  axb_handle h = nullptr;
  int device = 0;
  cudaStream_t s = nullptr;
  axb_cusolver *sol = nullptr;
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t dn = nullptr; /* the batched Cholesky anchor */
  cudaEvent_t ev[4] = {nullptr, nullptr, nullptr, nullptr};
  DevBuf A, B, X, piv64, piv32, info64, info32, ptrA, ptrX;
  std::vector<void *> hptr;
  std::vector<int> hinfo;
};

namespace {

struct DeviceScope {
  int previous = -1;
  explicit DeviceScope(int dev) {
    if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
    cudaSetDevice(dev);
  }
  ~DeviceScope() {
    if (previous >= 0) cudaSetDevice(previous);
  }
};

axb_status cu_fail(axb_handle h, cudaError_t e, const char *what) {
  return axb__fail(h, AXB_ERR_DEVICE, "gpu runner: %s: %s", what,
                   cudaGetErrorString(e));
}

#define RUN_CU(call, what)                                                     \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) return cu_fail(r->h, e_, what);                     \
  } while (0)
#define RUN_LIB(ok, what)                                                      \
  do {                                                                         \
    if (!(ok))                                                                 \
      return axb__fail(r->h, AXB_ERR_DEVICE, "gpu runner: %s failed", what);   \
  } while (0)
#define RUN_AXB(call)                                                          \
  do {                                                                         \
    axb_status s_ = (call);                                                    \
    if (s_) return s_;                                                         \
  } while (0)

int batched(axb_gpu_op op) {
  return op == AXB_GPU_BATCHED_GESV || op == AXB_GPU_BATCHED_INVERSE ||
         op == AXB_GPU_BATCHED_POSV;
}

int supports(axb_anchor impl, axb_gpu_op op) {
  switch (impl) {
  case AXB_ANCHOR_AXB: return 1;
  case AXB_ANCHOR_CUSOLVER: return !batched(op) || op == AXB_GPU_BATCHED_POSV;
  case AXB_ANCHOR_CUBLAS: return batched(op) && op != AXB_GPU_BATCHED_POSV;
  default: return 0;
  }
}

/* The anchor takes arrays of pointers to the problems (uploaded with the
   data). */
int pointer_arrays(axb_anchor impl, axb_gpu_op op) {
  return impl == AXB_ANCHOR_CUBLAS ||
         (impl == AXB_ANCHOR_CUSOLVER && op == AXB_GPU_BATCHED_POSV);
}

/* The operation itself, queued on r->s (no synchronisation). */
template <typename T>
axb_status compute(axb_gpu_runner r, axb_anchor impl, axb_gpu_op op, int64_t n,
                   int64_t nb) {
  T *dA = (T *)r->A.p, *dB = (T *)r->B.p, *dX = (T *)r->X.p;
  int64_t *p64 = (int64_t *)r->piv64.p, *i64 = (int64_t *)r->info64.p;
  int *p32 = (int *)r->piv32.p, *i32 = (int *)r->info32.p;
  const axb_dtype t = sizeof(T) == 8 ? AXB_F64 : AXB_F32;
  const int d = t == AXB_F64;
  axb_handle h = r->h;
  if (impl == AXB_ANCHOR_AXB) {
    switch (op) {
    case AXB_GPU_LU:
      return d ? axb_dgetrf_dev(h, n, n, (double *)dA, n, p64, i64)
               : axb_sgetrf_dev(h, n, n, (float *)dA, n, p64, i64);
    case AXB_GPU_CHOLESKY:
      return d ? axb_dpotrf_dev(h, AXB_LOWER, n, (double *)dA, n, i64)
               : axb_spotrf_dev(h, AXB_LOWER, n, (float *)dA, n, i64);
    case AXB_GPU_INVERSE:
      RUN_AXB(d ? axb_dgetrf_dev(h, n, n, (double *)dA, n, p64, i64)
                : axb_sgetrf_dev(h, n, n, (float *)dA, n, p64, i64));
      return d ? axb_dgetri_dev(h, n, (double *)dA, n, p64, i64 + 1)
               : axb_sgetri_dev(h, n, (float *)dA, n, p64, i64 + 1);
    case AXB_GPU_GESV:
      RUN_AXB(d ? axb_dgetrf_dev(h, n, n, (double *)dA, n, p64, i64)
                : axb_sgetrf_dev(h, n, n, (float *)dA, n, p64, i64));
      return d ? axb_dgetrs_dev(h, AXB_NO_TRANS, n, 1, (double *)dA, n, p64,
                                (double *)dB, n)
               : axb_sgetrs_dev(h, AXB_NO_TRANS, n, 1, (float *)dA, n, p64,
                                (float *)dB, n);
    case AXB_GPU_BATCHED_GESV:
      return d ? axb_dgesv_batched(h, n, 1, (double *)dA, n, n * n, p32, n,
                                   (double *)dB, n, n, i32, nb)
               : axb_sgesv_batched(h, n, 1, (float *)dA, n, n * n, p32, n,
                                   (float *)dB, n, n, i32, nb);
    case AXB_GPU_BATCHED_INVERSE:
      return d ? axb_dinverse_batched(h, n, (double *)dA, n, n * n, i32, nb)
               : axb_sinverse_batched(h, n, (float *)dA, n, n * n, i32, nb);
    case AXB_GPU_BATCHED_POSV:
      return d ? axb_dposv_batched(h, AXB_LOWER, n, 1, (double *)dA, n, n * n,
                                   (double *)dB, n, n, i32, nb)
               : axb_sposv_batched(h, AXB_LOWER, n, 1, (float *)dA, n, n * n,
                                   (float *)dB, n, n, i32, nb);
    }
    return AXB_ERR_INVALID;
  }
  if (impl == AXB_ANCHOR_CUSOLVER) {
    axb_cusolver *s = r->sol;
    switch (op) {
    case AXB_GPU_LU:
      RUN_LIB(!axb_cusolver_getrf(s, t, n, dA, n, p64, i32), "cusolver getrf");
      return AXB_SUCCESS;
    case AXB_GPU_CHOLESKY:
      RUN_LIB(!axb_cusolver_potrf(s, t, AXB_LOWER, n, dA, n, i32),
              "cusolver potrf");
      return AXB_SUCCESS;
    case AXB_GPU_INVERSE: { /* getrf, then X := A^-1 I by getrs */
      RUN_LIB(!axb_cusolver_getrf(s, t, n, dA, n, p64, i32), "cusolver getrf");
      dim3 grid((unsigned)((n + 255) / 256), (unsigned)(n < 65535 ? n : 65535));
      set_identity<T><<<grid, 256, 0, r->s>>>(dX, n);
      RUN_CU(cudaGetLastError(), "identity kernel");
      RUN_LIB(!axb_cusolver_getrs(s, t, n, n, dA, n, p64, dX, n, i32 + 1),
              "cusolver getrs");
      return AXB_SUCCESS;
    }
    case AXB_GPU_GESV:
      RUN_LIB(!axb_cusolver_getrf(s, t, n, dA, n, p64, i32), "cusolver getrf");
      RUN_LIB(!axb_cusolver_getrs(s, t, n, 1, dA, n, p64, dB, n, i32 + 1),
              "cusolver getrs");
      return AXB_SUCCESS;
    case AXB_GPU_BATCHED_POSV: { /* info per problem; potrs: one more */
      T **pa = (T **)r->ptrA.p, **pb = (T **)r->ptrX.p;
      RUN_LIB(cusolverDnSetStream(r->dn, r->s) == CUSOLVER_STATUS_SUCCESS,
              "cusolverDnSetStream");
      RUN_LIB(potrf_b(r->dn, (int)n, pa, i32, (int)nb) ==
                  CUSOLVER_STATUS_SUCCESS,
              "cusolver potrfBatched");
      RUN_LIB(potrs_b(r->dn, (int)n, pa, pb, i32 + nb, (int)nb) ==
                  CUSOLVER_STATUS_SUCCESS,
              "cusolver potrsBatched");
      return AXB_SUCCESS;
    }
    default: return AXB_ERR_NOT_SUPPORTED;
    }
  }
  /* cuBLAS batched: pointer arrays were uploaded with the data. */
  T **pa = (T **)r->ptrA.p, **px = (T **)r->ptrX.p;
  int hinfo = 0;
  RUN_LIB(cublasSetStream(r->blas, r->s) == CUBLAS_STATUS_SUCCESS,
          "cublasSetStream");
  RUN_LIB(getrf_b(r->blas, (int)n, pa, p32, i32, (int)nb) ==
              CUBLAS_STATUS_SUCCESS,
          "cublas getrfBatched");
  if (op == AXB_GPU_BATCHED_GESV)
    RUN_LIB(getrs_b(r->blas, (int)n, pa, p32, px, &hinfo, (int)nb) ==
                    CUBLAS_STATUS_SUCCESS &&
                hinfo == 0,
            "cublas getrsBatched");
  else
    RUN_LIB(getri_b(r->blas, (int)n, pa, p32, px, i32, (int)nb) ==
                CUBLAS_STATUS_SUCCESS,
            "cublas getriBatched");
  return AXB_SUCCESS;
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms : 0.0f;
}

template <typename T>
axb_status run(axb_gpu_runner r, axb_anchor impl, axb_gpu_op op, int64_t n,
               int64_t nb, T *A, T *B, int64_t *ipiv, int64_t *info,
               axb_gpu_times *tm) {
  const size_t es = sizeof(T), nn = (size_t)n * (size_t)n;
  const int inv_out =
      (impl == AXB_ANCHOR_CUSOLVER && op == AXB_GPU_INVERSE) ||
      (impl == AXB_ANCHOR_CUBLAS && op == AXB_GPU_BATCHED_INVERSE);
  const int has_b = op == AXB_GPU_GESV || op == AXB_GPU_BATCHED_GESV ||
                    op == AXB_GPU_BATCHED_POSV;
  const int ptrs = pointer_arrays(impl, op);
  const int info32 = batched(op) || impl == AXB_ANCHOR_CUSOLVER;
  RUN_CU(r->A.reserve(nb * nn * es), "cudaMalloc");
  RUN_CU(r->B.reserve(has_b ? nb * (size_t)n * es : 1), "cudaMalloc");
  RUN_CU(r->X.reserve(inv_out ? nb * nn * es : 1), "cudaMalloc");
  RUN_CU(r->piv64.reserve((size_t)n * 8 + 8), "cudaMalloc");
  RUN_CU(r->piv32.reserve(nb * (size_t)n * 4 + 4), "cudaMalloc");
  RUN_CU(r->info64.reserve(2 * 8), "cudaMalloc");
  RUN_CU(r->info32.reserve((nb + 2) * 4), "cudaMalloc");
  cudaStream_t s = r->s;
  RUN_CU(cudaMemsetAsync(r->info64.p, 0, 16, s), "memset");
  RUN_CU(cudaMemsetAsync(r->info32.p, 0, (nb + 2) * 4, s), "memset");
  if (ptrs) {
    RUN_CU(r->ptrA.reserve(nb * sizeof(void *)), "cudaMalloc");
    RUN_CU(r->ptrX.reserve(nb * sizeof(void *)), "cudaMalloc");
  }
  /* Copies in. */
  RUN_CU(cudaEventRecord(r->ev[0], s), "event");
  RUN_CU(cudaMemcpyAsync(r->A.p, A, nb * nn * es, cudaMemcpyHostToDevice, s),
         "upload");
  if (has_b)
    RUN_CU(cudaMemcpyAsync(r->B.p, B, nb * (size_t)n * es,
                           cudaMemcpyHostToDevice, s),
           "upload");
  if (ptrs) {
    r->hptr.resize(2 * (size_t)nb);
    for (int64_t k = 0; k < nb; ++k) {
      r->hptr[k] = (T *)r->A.p + k * nn;
      r->hptr[nb + k] = has_b ? (void *)((T *)r->B.p + k * n)
                              : (void *)((T *)r->X.p + k * nn);
    }
    RUN_CU(cudaMemcpyAsync(r->ptrA.p, r->hptr.data(), nb * sizeof(void *),
                           cudaMemcpyHostToDevice, s),
           "upload");
    RUN_CU(cudaMemcpyAsync(r->ptrX.p, r->hptr.data() + nb, nb * sizeof(void *),
                           cudaMemcpyHostToDevice, s),
           "upload");
  }
  RUN_CU(cudaEventRecord(r->ev[1], s), "event");
  RUN_AXB(compute<T>(r, impl, op, n, nb));
  RUN_CU(cudaEventRecord(r->ev[2], s), "event");
  /* Copies out. */
  RUN_CU(cudaMemcpyAsync(A, inv_out ? r->X.p : r->A.p, nb * nn * es,
                         cudaMemcpyDeviceToHost, s),
         "download");
  if (has_b)
    RUN_CU(cudaMemcpyAsync(B, r->B.p, nb * (size_t)n * es,
                           cudaMemcpyDeviceToHost, s),
           "download");
  if (ipiv && (op == AXB_GPU_LU || op == AXB_GPU_GESV))
    RUN_CU(cudaMemcpyAsync(ipiv, r->piv64.p, (size_t)n * 8,
                           cudaMemcpyDeviceToHost, s),
           "download");
  /* Batched: one info per problem, and cuSOLVER potrsBatched's own. */
  const int64_t ni = info32 ? (nb > 2 ? nb : 2) + (batched(op) ? 1 : 0) : 2;
  r->hinfo.resize((size_t)ni * 2);
  int64_t i64[2] = {0, 0};
  if (info32)
    RUN_CU(cudaMemcpyAsync(r->hinfo.data(), r->info32.p, (size_t)ni * 4,
                           cudaMemcpyDeviceToHost, s),
           "download");
  else
    RUN_CU(cudaMemcpyAsync(i64, r->info64.p, 16, cudaMemcpyDeviceToHost, s),
           "download");
  RUN_CU(cudaEventRecord(r->ev[3], s), "event");
  RUN_CU(cudaEventSynchronize(r->ev[3]), "synchronize");
  tm->device_s = 1e-3 * elapsed_ms(r->ev[1], r->ev[2]);
  tm->transfer_s =
      1e-3 * (elapsed_ms(r->ev[0], r->ev[1]) + elapsed_ms(r->ev[2], r->ev[3]));
  /* The numerical verdict. */
  if (batched(op)) {
    const int spd = op == AXB_GPU_BATCHED_POSV;
    for (int64_t k = 0; k < nb; ++k)
      if (r->hinfo[k]) {
        *info = k + 1;
        return axb__fail(r->h, spd ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR,
                         "problem %lld of the batch is %s", (long long)(k + 1),
                         spd ? "not positive definite" : "singular");
      }
    if (spd && impl == AXB_ANCHOR_CUSOLVER && r->hinfo[nb])
      return axb__fail(r->h, AXB_ERR_DEVICE,
                       "gpu runner: cusolver potrsBatched info %d",
                       r->hinfo[nb]);
    return AXB_SUCCESS;
  }
  const int64_t f = info32 ? r->hinfo[0] : i64[0];
  const int64_t g = info32 ? r->hinfo[1] : i64[1];
  *info = f > 0 ? f : (g > 0 ? g : 0);
  if (f < 0 || g < 0)
    return axb__fail(r->h, AXB_ERR_DEVICE, "gpu runner: info %lld",
                     (long long)(f < 0 ? f : g));
  if (*info > 0)
    return op == AXB_GPU_CHOLESKY ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
  return AXB_SUCCESS;
}

} // namespace

extern "C" int axb_vendor_gpu_compiled(void) { return 1; }

extern "C" const char *axb_vendor_gpu_version(axb_anchor a) {
  static thread_local char buf[64];
  int v = 0;
  if (a == AXB_ANCHOR_CUSOLVER) {
    v = axb_cusolver_version();
    std::snprintf(buf, sizeof buf, "cuSOLVER %d.%d.%d", v / 1000,
                  v % 1000 / 100, v % 100);
    return buf;
  }
  if (a == AXB_ANCHOR_CUBLAS) {
    cublasGetProperty(MAJOR_VERSION, &v);
    int mi = 0, pa = 0;
    cublasGetProperty(MINOR_VERSION, &mi);
    cublasGetProperty(PATCH_LEVEL, &pa);
    std::snprintf(buf, sizeof buf, "cuBLAS %d.%d.%d", v, mi, pa);
    return buf;
  }
  return "unknown";
}

extern "C" axb_status axb_gpu_runner_create(axb_gpu_runner *out, axb_handle h) {
  if (!out) return -1;
  *out = nullptr;
  if (!h || axb_handle_backend(h) != AXB_BACKEND_CUDA) return -2;
  axb_gpu_runner r = new (std::nothrow) axb_gpu_runner_s();
  if (!r) return AXB_ERR_OUT_OF_MEMORY;
  r->h = h;
  r->device = h->device;
  r->s = (cudaStream_t)axb_get_stream(h);
  DeviceScope scope(r->device);
  int bad = axb_cusolver_create(&r->sol, r->s) != 0 ||
            cublasCreate(&r->blas) != CUBLAS_STATUS_SUCCESS ||
            cusolverDnCreate(&r->dn) != CUSOLVER_STATUS_SUCCESS;
  for (int i = 0; i < 4 && !bad; ++i)
    bad = cudaEventCreate(&r->ev[i]) != cudaSuccess;
  if (bad) {
    axb_gpu_runner_destroy(r);
    return axb__fail(h, AXB_ERR_DEVICE,
                     "gpu runner: cannot create cuSOLVER/cuBLAS/events");
  }
  *out = r;
  return AXB_SUCCESS;
}

extern "C" void axb_gpu_runner_destroy(axb_gpu_runner r) {
  if (!r) return;
  DeviceScope scope(r->device);
  if (r->s) cudaStreamSynchronize(r->s);
  for (int i = 0; i < 4; ++i)
    if (r->ev[i]) cudaEventDestroy(r->ev[i]);
  if (r->blas) cublasDestroy(r->blas);
  if (r->dn) cusolverDnDestroy(r->dn);
  axb_cusolver_destroy(r->sol);
  delete r; /* DevBufs free their memory */
}

extern "C" axb_status axb_gpu_run(axb_gpu_runner r, axb_anchor impl,
                                  axb_gpu_op op, axb_dtype t, int64_t n,
                                  int64_t batch, void *A, void *B,
                                  int64_t *ipiv, int64_t *info,
                                  axb_gpu_times *tm) {
  if (!r) return -1;
  if (impl < AXB_ANCHOR_AXB || impl > AXB_ANCHOR_CUBLAS) return -2;
  if (op < AXB_GPU_LU || op > AXB_GPU_BATCHED_POSV) return -3;
  if (t != AXB_F64 && t != AXB_F32) return -4;
  if (n < 0) return -5;
  const int64_t nb = batched(op) ? batch : 1;
  if (nb < 1) return -6;
  if (!A && n > 0) return -7;
  if (!B && n > 0 &&
      (op == AXB_GPU_GESV || op == AXB_GPU_BATCHED_GESV ||
       op == AXB_GPU_BATCHED_POSV))
    return -8;
  if (!ipiv && n > 0 && (op == AXB_GPU_LU || op == AXB_GPU_GESV)) return -9;
  if (!info) return -10;
  if (!tm) return -11;
  *info = 0;
  tm->device_s = tm->transfer_s = 0;
  if (!supports(impl, op))
    return axb__fail(r->h, AXB_ERR_NOT_SUPPORTED,
                     "%s has no such operation in the gpu runner",
                     axb_anchor_name(impl));
  if (pointer_arrays(impl, op) && (n > INT_MAX || nb > INT_MAX))
    return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) return AXB_SUCCESS;
  DeviceScope scope(r->device);
  return t == AXB_F64 ? run<double>(r, impl, op, n, nb, (double *)A,
                                    (double *)B, ipiv, info, tm)
                      : run<float>(r, impl, op, n, nb, (float *)A, (float *)B,
                                   ipiv, info, tm);
}
