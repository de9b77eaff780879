/*
 * The CUDA backend's dense table (cuda_dense.cu has the device-array
 * algorithms): the host-array entries, which stage through device memory,
 * the resident factors of the certified driver, and the table itself.
 */
#include "cuda_dense.h"

#include <new>

namespace axb_cuda {

/* ---- host arrays: staging through device memory ------------------------ */

namespace {

template <typename T>
axb_status upload(axb_handle h, Context *ctx, T *d, const T *host, int64_t rows,
                  int64_t cols, int64_t ld) {
  return copy_2d<T>(h, ctx, d, rows, host, ld, rows, cols,
                    cudaMemcpyHostToDevice);
}
template <typename T>
axb_status download(axb_handle h, Context *ctx, T *host, int64_t ld, const T *d,
                    int64_t rows, int64_t cols) {
  return copy_2d<T>(h, ctx, host, ld, d, rows, rows, cols,
                    cudaMemcpyDeviceToHost);
}

/* Device room for the listed element counts (bytes each), carved in order. */
struct Stage {
  Scratch scr;
  explicit Stage(axb_handle h) : scr(h) {}
  template <size_t N>
  axb_status alloc(const size_t (&bytes)[N], void *(&out)[N]) {
    size_t total = 0;
    for (size_t i = 0; i < N; ++i)
      total += align_up(bytes[i]);
    axb_status st = scr.alloc(total);
    if (st) return st;
    char *p = (char *)scr.p;
    for (size_t i = 0; i < N; ++i) {
      out[i] = p;
      p += align_up(bytes[i]);
    }
    return AXB_SUCCESS;
  }
};

/* The start of a host-array entry: the handle's context (none: an internal
   error), its device selected for the call, and a Stage for the device
   copies, in that order. */
#define HOST_CALL(h)                                                           \
  Context *ctx = need_context(h);                                              \
  if (!ctx) return AXB_ERR_INTERNAL;                                           \
  DeviceScope scope((h)->device);                                              \
  Stage stg(h)

axb_status finish_sync(axb_handle h) {
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_getrf(axb_handle h, int64_t m, int64_t n, T *A, int64_t lda,
                      int64_t *ipiv, int64_t *info) {
  HOST_CALL(h);
  const int64_t k = m < n ? m : n;
  void *p[3];
  const size_t b[3] = {(size_t)m * n * sizeof(T), (size_t)k * sizeof(int64_t),
                       sizeof(int64_t)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0];
  int64_t *dipiv = (int64_t *)p[1], *dinfo = (int64_t *)p[2];
  if (!(st = upload<T>(h, ctx, dA, A, m, n, lda)) &&
      !(st = getrf_dev<T>(h, m, n, dA, m, dipiv, dinfo)) &&
      !(st = download<T>(h, ctx, A, lda, dA, m, n)) &&
      !(st = download<int64_t>(h, ctx, ipiv, k, dipiv, k, 1)))
    st = download<int64_t>(h, ctx, info, 1, dinfo, 1, 1);
  if (!st) st = finish_sync(h);
  if (st) return st;
  return *info > 0 ? AXB_ERR_SINGULAR : AXB_SUCCESS;
}

template <typename T>
axb_status host_getrs(axb_handle h, axb_trans trans, int64_t n, int64_t nrhs,
                      const T *A, int64_t lda, const int64_t *ipiv, T *B,
                      int64_t ldb) {
  HOST_CALL(h);
  void *p[3];
  const size_t b[3] = {(size_t)n * n * sizeof(T), (size_t)n * sizeof(int64_t),
                       (size_t)n * nrhs * sizeof(T)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0], *dB = (T *)p[2];
  int64_t *dipiv = (int64_t *)p[1];
  if (!(st = upload<T>(h, ctx, dA, A, n, n, lda)) &&
      !(st = upload<int64_t>(h, ctx, dipiv, ipiv, n, 1, n)) &&
      !(st = upload<T>(h, ctx, dB, B, n, nrhs, ldb)) &&
      !(st = getrs_dev<T>(h, trans, n, nrhs, dA, n, dipiv, dB, n)))
    st = download<T>(h, ctx, B, ldb, dB, n, nrhs);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status host_potrf(axb_handle h, axb_uplo uplo, int64_t n, T *A, int64_t lda,
                      int64_t *info) {
  HOST_CALL(h);
  void *p[2];
  const size_t b[2] = {(size_t)n * n * sizeof(T), sizeof(int64_t)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0];
  int64_t *dinfo = (int64_t *)p[1];
  if (!(st = upload<T>(h, ctx, dA, A, n, n, lda)) &&
      !(st = potrf_dev<T>(h, uplo, n, dA, n, dinfo)) &&
      !(st = download<T>(h, ctx, A, lda, dA, n, n)))
    st = download<int64_t>(h, ctx, info, 1, dinfo, 1, 1);
  if (!st) st = finish_sync(h);
  if (st) return st;
  return *info > 0 ? AXB_ERR_NOT_SPD : AXB_SUCCESS;
}

template <typename T>
axb_status host_potrs(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                      const T *A, int64_t lda, T *B, int64_t ldb) {
  HOST_CALL(h);
  void *p[2];
  const size_t b[2] = {(size_t)n * n * sizeof(T), (size_t)n * nrhs * sizeof(T)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0], *dB = (T *)p[1];
  if (!(st = upload<T>(h, ctx, dA, A, n, n, lda)) &&
      !(st = upload<T>(h, ctx, dB, B, n, nrhs, ldb)) &&
      !(st = potrs_dev<T>(h, uplo, n, nrhs, dA, n, dB, n)))
    st = download<T>(h, ctx, B, ldb, dB, n, nrhs);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status host_getri(axb_handle h, int64_t n, T *A, int64_t lda,
                      const int64_t *ipiv, int64_t *info) {
  HOST_CALL(h);
  void *p[3];
  const size_t b[3] = {(size_t)n * n * sizeof(T), (size_t)n * sizeof(int64_t),
                       sizeof(int64_t)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0];
  int64_t *dipiv = (int64_t *)p[1], *dinfo = (int64_t *)p[2];
  if (!(st = upload<T>(h, ctx, dA, A, n, n, lda)) &&
      !(st = upload<int64_t>(h, ctx, dipiv, ipiv, n, 1, n)) &&
      !(st = getri_dev<T>(h, n, dA, n, dipiv, dinfo)) &&
      !(st = download<int64_t>(h, ctx, info, 1, dinfo, 1, 1)))
    st = finish_sync(h);
  if (st) return st;
  if (*info > 0) return AXB_ERR_SINGULAR; /* A keeps the factors */
  st = download<T>(h, ctx, A, lda, dA, n, n);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status host_trsm(axb_handle h, axb_side side, axb_uplo uplo,
                     axb_trans trans, axb_diag diag, int64_t m, int64_t n,
                     T alpha, const T *A, int64_t lda, T *B, int64_t ldb) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  if (alpha == T(0)) { /* B := 0 without reading B or A (LAPACK) */
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        B[i + j * ldb] = 0;
    return AXB_SUCCESS;
  }
  DeviceScope scope(h->device);
  const int64_t k = side == AXB_LEFT ? m : n;
  Stage stg(h);
  void *p[2];
  const size_t b[2] = {(size_t)k * k * sizeof(T), (size_t)m * n * sizeof(T)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0], *dB = (T *)p[1];
  if ((st = upload<T>(h, ctx, dA, A, k, k, lda)) ||
      (st = upload<T>(h, ctx, dB, B, m, n, ldb)))
    return st;
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  AXB_BLAS(h, trsm(ctx->blas,
                   side == AXB_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                   fill(uplo), op(trans),
                   diag == AXB_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                   m, n, &alpha, dA, k, dB, m));
  st = download<T>(h, ctx, B, ldb, dB, m, n);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status host_gemm(axb_handle h, axb_trans ta, axb_trans tb, int64_t m,
                     int64_t n, int64_t k, T alpha, const T *A, int64_t lda,
                     const T *B, int64_t ldb, T beta, T *C, int64_t ldc) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  if (m == 0 || n == 0) return AXB_SUCCESS;
  DeviceScope scope(h->device);
  const int64_t ar = ta == AXB_NO_TRANS ? m : k,
                ac = ta == AXB_NO_TRANS ? k : m;
  const int64_t br = tb == AXB_NO_TRANS ? k : n,
                bc = tb == AXB_NO_TRANS ? n : k;
  Stage stg(h);
  void *p[3];
  const size_t b[3] = {(size_t)ar * ac * sizeof(T), (size_t)br * bc * sizeof(T),
                       (size_t)m * n * sizeof(T)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dA = (T *)p[0], *dB = (T *)p[1], *dC = (T *)p[2];
  if ((st = upload<T>(h, ctx, dA, A, ar, ac, lda)) ||
      (st = upload<T>(h, ctx, dB, B, br, bc, ldb)))
    return st;
  if (beta != T(0)) {
    if ((st = upload<T>(h, ctx, dC, C, m, n, ldc))) return st;
  } else {
    AXB_CU(h, cudaMemsetAsync(dC, 0, b[2], stream(h)));
  }
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  AXB_BLAS(h, gemm(ctx->blas, op(ta), op(tb), m, n, k, &alpha, dA,
                   ar > 0 ? ar : 1, dB, br > 0 ? br : 1, &beta, dC, m));
  st = download<T>(h, ctx, C, ldc, dC, m, n);
  if (!st) st = finish_sync(h);
  return st;
}

/* Row interchanges on host arrays: O(n k) work on data already on the
   host, so it stays there (moving it would cost more than the swaps). */
template <typename T>
axb_status host_laswp(axb_handle h, int64_t n, T *A, int64_t lda, int64_t k1,
                      int64_t k2, const int64_t *ipiv, int forward) {
  (void)h;
  for (int64_t s = 0; s < k2 - k1; ++s) {
    const int64_t i = forward ? k1 + s : k2 - 1 - s;
    const int64_t p = ipiv[i] - 1;
    if (p == i) continue;
    for (int64_t j = 0; j < n; ++j) {
      T t = A[i + j * lda];
      A[i + j * lda] = A[p + j * lda];
      A[p + j * lda] = t;
    }
  }
  return AXB_SUCCESS;
}

/* ---- resident factors: the certified driver's device path ----------------
 * One device allocation holds the factor (n x n, ld n), the pivots, info
 * and one n-vector; A crosses the bus once, and the condition estimate's
 * triangular solves move only that vector.
 */

struct Resident {
  int chol;
  int64_t n;
  void *base; /* the allocation (stream-ordered)       */
  void *a;    /* n x n factors, ld n                   */
  int64_t *ipiv, *info;
  void *x; /* n entries: one vector of the estimate */
};

inline cublasStatus_t trsv(cublasHandle_t b, cublasFillMode_t u,
                           cublasOperation_t t, cublasDiagType_t d, int64_t n,
                           const double *A, int64_t lda, double *x) {
  return cublasDtrsv_64(b, u, t, d, n, A, lda, x, 1);
}
inline cublasStatus_t trsv(cublasHandle_t b, cublasFillMode_t u,
                           cublasOperation_t t, cublasDiagType_t d, int64_t n,
                           const float *A, int64_t lda, float *x) {
  return cublasStrsv_64(b, u, t, d, n, A, lda, x, 1);
}

void res_free(axb_handle h, void *res) {
  Resident *r = (Resident *)res;
  if (!r) return;
  if (r->base) {
    DeviceScope scope(h->device);
    cudaFreeAsync(r->base, stream(h));
  }
  delete r;
}

template <typename T>
axb_status res_factor(axb_handle h, int chol, int64_t n, const T *A,
                      int64_t lda, void **res, int64_t *info) {
  *res = nullptr;
  *info = 0;
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  Resident *r = new (std::nothrow) Resident();
  if (!r)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for the factors");
  r->chol = chol;
  r->n = n;
  const size_t fa = align_up((size_t)n * (size_t)n * sizeof(T)),
               fp = align_up((size_t)n * sizeof(int64_t)),
               fi = align_up(sizeof(int64_t)),
               fx = align_up((size_t)n * sizeof(T));
  cudaError_t e = dmalloc(h, &r->base, fa + fp + fi + fx, stream(h));
  if (e != cudaSuccess) {
    r->base = nullptr;
    delete r;
    return fail_cuda(h, e, "device memory for the resident factors");
  }
  *res = r;
  char *p = (char *)r->base;
  r->a = p;
  r->ipiv = (int64_t *)(p + fa);
  r->info = (int64_t *)(p + fa + fp);
  r->x = p + fa + fp + fi;
  T *dA = (T *)r->a;
  axb_status st = upload<T>(h, ctx, dA, A, n, n, lda);
  if (!st)
    st = chol ? potrf_dev<T>(h, AXB_LOWER, n, dA, n, r->info)
              : getrf_dev<T>(h, n, n, dA, n, r->ipiv, r->info);
  if (!st) st = download<int64_t>(h, ctx, info, 1, r->info, 1, 1);
  if (!st) st = finish_sync(h);
  if (st) return st;
  if (*info > 0) return chol ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
  return AXB_SUCCESS;
}

template <typename T>
axb_status res_solve(axb_handle h, void *res, axb_trans trans, int64_t nrhs,
                     T *B, int64_t ldb) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  Resident *r = (Resident *)res;
  const int64_t n = r->n;
  DeviceScope scope(h->device);
  Stage stg(h);
  void *p[1];
  const size_t b[1] = {(size_t)n * nrhs * sizeof(T)};
  axb_status st = stg.alloc(b, p);
  if (st) return st;
  T *dB = (T *)p[0];
  const T *dA = (const T *)r->a;
  if (!(st = upload<T>(h, ctx, dB, B, n, nrhs, ldb)) &&
      !(st = r->chol ? potrs_dev<T>(h, AXB_LOWER, n, nrhs, dA, n, dB, n)
                     : getrs_dev<T>(h, trans, n, nrhs, dA, n, r->ipiv, dB, n)))
    st = download<T>(h, ctx, B, ldb, dB, n, nrhs);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status res_trsv(axb_handle h, void *res, axb_uplo uplo, axb_trans trans,
                    axb_diag diag, T *x) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  Resident *r = (Resident *)res;
  const int64_t n = r->n;
  DeviceScope scope(h->device);
  T *dx = (T *)r->x;
  axb_status st = upload<T>(h, ctx, dx, x, n, 1, n);
  if (st) return st;
  AXB_BLAS(h, cublasSetStream(ctx->blas, stream(h)));
  AXB_BLAS(h, trsv(ctx->blas, fill(uplo), op(trans),
                   diag == AXB_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                   n, (const T *)r->a, n, dx));
  st = download<T>(h, ctx, x, n, dx, n, 1);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T> axb_status res_diag(axb_handle h, void *res, T *d) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  Resident *r = (Resident *)res;
  DeviceScope scope(h->device);
  /* the diagonal as a 1 x n block with leading dimension n + 1 */
  axb_status st = copy_2d<T>(h, ctx, d, 1, (const T *)r->a, r->n + 1, 1, r->n,
                             cudaMemcpyDeviceToHost);
  if (!st) st = finish_sync(h);
  return st;
}

template <typename T>
axb_status res_getri(axb_handle h, void *res, int64_t *info) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  Resident *r = (Resident *)res;
  DeviceScope scope(h->device);
  *info = 0;
  axb_status st = getri_dev<T>(h, r->n, (T *)r->a, r->n, r->ipiv, r->info);
  if (!st) st = download<int64_t>(h, ctx, info, 1, r->info, 1, 1);
  if (!st) st = finish_sync(h);
  if (st) return st;
  return *info > 0 ? AXB_ERR_SINGULAR : AXB_SUCCESS;
}

template <typename T>
axb_status res_get(axb_handle h, void *res, T *X, int64_t ldx) {
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  Resident *r = (Resident *)res;
  DeviceScope scope(h->device);
  axb_status st = download<T>(h, ctx, X, ldx, (const T *)r->a, r->n, r->n);
  if (!st) st = finish_sync(h);
  return st;
}

double take_transfer_seconds(axb_handle h) {
  Context *c = context(h);
  if (!c) return 0;
  double t = c->transfer_s;
  c->transfer_s = 0;
  return t;
}

template <typename T, typename Ops> void fill_typed(Ops *o) {
  o->getrf = host_getrf<T>;
  o->laswp = host_laswp<T>;
  o->trsm = host_trsm<T>;
  o->gemm = host_gemm<T>;
  o->potrf = host_potrf<T>;
  o->getri = host_getri<T>;
  o->getrs = host_getrs<T>;
  o->potrs = host_potrs<T>;
  o->getrf_dev = getrf_dev<T>;
  o->getrs_dev = getrs_dev<T>;
  o->laswp_dev = laswp_dev<T>;
  o->potrf_dev = potrf_dev<T>;
  o->potrs_dev = potrs_dev<T>;
  o->getri_dev = getri_dev<T>;
  o->res_factor = res_factor<T>;
  o->res_solve = res_solve<T>;
  o->res_trsv = res_trsv<T>;
  o->res_diag = res_diag<T>;
  o->res_getri = res_getri<T>;
  o->res_get = res_get<T>;
}

} // namespace

void fill_table(axb_backend_ops *ops) {
  fill_typed<double>(&ops->d);
  fill_typed<float>(&ops->s);
  ops->host = axb_cpu_ops();
  ops->take_transfer_seconds = take_transfer_seconds;
  ops->res_free = res_free;
}

} // namespace axb_cuda
