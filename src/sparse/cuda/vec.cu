/*
 * Vector operations of the CUDA sparse table (sparse_ops.h) and the
 * deterministic two-pass reductions every scalar result goes through:
 * pass 1, red_blocks(n) blocks each write their partial sums (in double);
 * pass 2, one block adds them in a fixed order; one copy to pinned host
 * memory, one wait.  No floating-point atomics, so a result depends only on
 * n and the data.
 */
#include "spcuda_internal.cuh"

#include <math.h>
#include <mutex>
#include <new>
#include <vector>

using namespace axb_spcuda;

/* ---- per-handle scratch ---------------------------------------------------
 */

namespace {

struct Entry {
  axb_handle h;
  int device;
  Scratch s;
};
std::mutex lock;
/* Entries live on the heap: a pointer handed out stays valid while other
   handles come and go. */
std::vector<Entry *> entries;

void free_scratch(Scratch &s) {
  cudaFree(s.partial);
  cudaFree(s.result);
  cudaFree(s.flag);
  cudaFreeHost(s.host);
  cudaFreeHost(s.hflag);
  s = Scratch{};
}

} // namespace

Scratch *axb_spcuda::scratch(axb_handle h, axb_status *st) {
  std::lock_guard<std::mutex> g(lock);
  for (Entry *e : entries)
    if (e->h == h && e->device == h->device) return &e->s;
  Entry *e = new (std::nothrow) Entry{h, h->device, Scratch{}};
  if (!e) {
    *st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "sparse scratch");
    return nullptr;
  }
  Scratch &s = e->s;
  cudaError_t c = cudaMalloc(&s.partial, sizeof(double) * kRedMax * kRedBlocks);
  if (c == cudaSuccess) c = cudaMalloc(&s.result, sizeof(double) * kRedMax);
  if (c == cudaSuccess) c = cudaMalloc(&s.flag, sizeof(unsigned long long) * 2);
  if (c == cudaSuccess) c = cudaMallocHost(&s.host, sizeof(double) * kRedMax);
  if (c == cudaSuccess)
    c = cudaMallocHost(&s.hflag, sizeof(unsigned long long) * 2);
  if (c != cudaSuccess) {
    free_scratch(s);
    delete e;
    *st = axb_cuda::fail_cuda(h, c, "sparse scratch");
    return nullptr;
  }
  entries.push_back(e);
  return &e->s;
}

extern "C" void axb__sparse_cuda_release(axb_handle h) {
  std::lock_guard<std::mutex> g(lock);
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i]->h == h) {
      axb_cuda::DeviceScope scope(entries[i]->device);
      cudaStreamSynchronize(axb_cuda::stream(h));
      free_scratch(entries[i]->s);
      delete entries[i];
      entries.erase(entries.begin() + (long)i);
      return;
    }
}

/* ---- reductions ------------------------------------------------------------
 */

namespace {

/* out[q] = sum of the `blocks` partial sums of value q (one block). */
__global__ void red_final(const double *partial, int blocks, int k,
                          double *out) {
  __shared__ double scratch[32];
  for (int q = 0; q < k; ++q) {
    double v = 0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x)
      v += partial[q * kRedBlocks + b];
    v = block_sum(v, scratch);
    if (threadIdx.x == 0) out[q] = v;
  }
}

} // namespace

axb_status axb_spcuda::red_finish(axb_handle h, Scratch *S, int k, int blocks,
                                  double *out) {
  cudaStream_t s = axb_cuda::stream(h);
  red_final<<<1, kBlock, 0, s>>>(S->partial, blocks, k, S->result);
  AXB_CU(h, cudaGetLastError());
  AXB_CU(h, cudaMemcpyAsync(S->host, S->result, sizeof(double) * k,
                            cudaMemcpyDeviceToHost, s));
  AXB_CU(h, cudaStreamSynchronize(s));
  for (int q = 0; q < k; ++q)
    out[q] = S->host[q];
  return AXB_SUCCESS;
}

namespace {

/* Pass 1 of <a,b> (and <c,d> when c != NULL), accumulated in double. */
template <typename T>
__global__ void dots_pass1(int64_t n, const T *a, const T *b, const T *c,
                           const T *d, double *partial) {
  __shared__ double scratch[32];
  double s0 = 0, s1 = 0;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    s0 += (double)a[i] * (double)b[i];
    if (c) s1 += (double)c[i] * (double)d[i];
  }
  s0 = block_sum(s0, scratch);
  if (threadIdx.x == 0) partial[blockIdx.x] = s0;
  if (c) {
    s1 = block_sum(s1, scratch);
    if (threadIdx.x == 0) partial[kRedBlocks + blockIdx.x] = s1;
  }
}

template <typename T>
axb_status dots(axb_handle h, int64_t n, const T *a, const T *b, const T *c,
                const T *d, double *out) {
  const int k = c ? 2 : 1;
  if (n == 0) {
    for (int q = 0; q < k; ++q)
      out[q] = 0;
    return AXB_SUCCESS;
  }
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  const int blocks = red_blocks(n);
  dots_pass1<T>
      <<<blocks, kBlock, 0, axb_cuda::stream(h)>>>(n, a, b, c, d, S->partial);
  AXB_CU(h, cudaGetLastError());
  return red_finish(h, S, k, blocks, out);
}

template <typename T>
axb_status v_dot(axb_handle h, int64_t n, const T *x, const T *y, double *r) {
  return dots<T>(h, n, x, y, nullptr, nullptr, r);
}
template <typename T>
axb_status v_dot2(axb_handle h, int64_t n, const T *a, const T *b, const T *c,
                  const T *d, double r[2]) {
  return dots<T>(h, n, a, b, c, d, r);
}
template <typename T>
axb_status v_nrm2(axb_handle h, int64_t n, const T *x, double *r) {
  axb_status st = dots<T>(h, n, x, x, nullptr, nullptr, r);
  if (st == AXB_SUCCESS) *r = sqrt(*r);
  return st;
}

/* ---- elementwise ------------------------------------------------------------
 */

inline unsigned ew_grid(int64_t n) {
  int64_t g = (n + kBlock - 1) / kBlock;
  return (unsigned)(g < 1 ? 1 : g > 65535 * 4 ? 65535 * 4 : g);
}
#define EW_LOOP(i, n)                                                          \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);    \
       i += (int64_t)gridDim.x * blockDim.x)

template <typename T> __global__ void k_fill(int64_t n, T a, T *x) {
  EW_LOOP(i, n) x[i] = a;
}
template <typename T>
__global__ void k_axpy(int64_t n, T a, const T *__restrict__ x,
                       T *__restrict__ y) {
  EW_LOOP(i, n) y[i] += a * x[i];
}
/* x may be y: each element is read before it is written. */
template <typename T>
__global__ void k_axpby(int64_t n, T a, const T *x, T b, T *y) {
  EW_LOOP(i, n) y[i] = b == T(0) ? a * x[i] : a * x[i] + b * y[i];
}
template <typename T>
__global__ void k_vmul(int64_t n, const T *x, const T *y, T *z) {
  EW_LOOP(i, n) z[i] = x[i] * y[i];
}
/* x += sum_j c_j V(:, j) for up to 32 columns per launch. */
struct Coef {
  double c[32];
};
template <typename T>
__global__ void k_lincomb(int64_t n, int k, const T *V, int64_t ldv, Coef c,
                          T *x) {
  EW_LOOP(i, n) {
    T s = x[i];
    for (int j = 0; j < k; ++j)
      s += (T)c.c[j] * V[i + j * ldv];
    x[i] = s;
  }
}

#define LAUNCH_EW(h, n, kernel, ...)                                           \
  do {                                                                         \
    if ((n) == 0) return AXB_SUCCESS;                                          \
    axb_cuda::DeviceScope scope_((h)->device);                                 \
    kernel<<<ew_grid(n), kBlock, 0, axb_cuda::stream(h)>>>((n), __VA_ARGS__);  \
    AXB_CU((h), cudaGetLastError());                                           \
    return AXB_SUCCESS;                                                        \
  } while (0)

template <typename T> axb_status v_alloc(axb_handle h, int64_t n, T **x) {
  axb_cuda::DeviceScope scope(h->device);
  *x = nullptr;
  AXB_CU(h, cudaMalloc((void **)x, sizeof(T) * (size_t)(n > 0 ? n : 1)));
  return AXB_SUCCESS;
}
template <typename T> void v_free(axb_handle h, T *x) {
  if (!x) return;
  axb_cuda::DeviceScope scope(h->device);
  cudaFree(x);
}
template <typename T>
axb_status v_upload(axb_handle h, int64_t n, const T *host, T *x) {
  if (n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  return copy_wait(h, x, host, sizeof(T) * (size_t)n, cudaMemcpyHostToDevice);
}
template <typename T>
axb_status v_download(axb_handle h, int64_t n, const T *x, T *host) {
  if (n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  return copy_wait(h, host, x, sizeof(T) * (size_t)n, cudaMemcpyDeviceToHost);
}
template <typename T>
axb_status v_copy(axb_handle h, int64_t n, const T *x, T *y) {
  if (n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  AXB_CU(h, cudaMemcpyAsync(y, x, sizeof(T) * (size_t)n,
                            cudaMemcpyDeviceToDevice, axb_cuda::stream(h)));
  return AXB_SUCCESS;
}
template <typename T> axb_status v_fill(axb_handle h, int64_t n, T a, T *x) {
  LAUNCH_EW(h, n, k_fill<T>, a, x);
}
template <typename T>
axb_status v_axpy(axb_handle h, int64_t n, T a, const T *x, T *y) {
  LAUNCH_EW(h, n, k_axpy<T>, a, x, y);
}
template <typename T>
axb_status v_axpby(axb_handle h, int64_t n, T a, const T *x, T b, T *y) {
  LAUNCH_EW(h, n, k_axpby<T>, a, x, b, y);
}
template <typename T>
axb_status v_vmul(axb_handle h, int64_t n, const T *x, const T *y, T *z) {
  LAUNCH_EW(h, n, k_vmul<T>, x, y, z);
}
template <typename T>
axb_status v_lincomb(axb_handle h, int64_t n, int64_t k, const T *V,
                     int64_t ldv, const double *y, T *x) {
  if (n == 0 || k == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  for (int64_t j0 = 0; j0 < k; j0 += 32) {
    const int kk = (int)(k - j0 < 32 ? k - j0 : 32);
    Coef c;
    for (int j = 0; j < kk; ++j)
      c.c[j] = y[j0 + j];
    k_lincomb<T><<<ew_grid(n), kBlock, 0, axb_cuda::stream(h)>>>(
        n, kk, V + j0 * ldv, ldv, c, x);
    AXB_CU(h, cudaGetLastError());
  }
  return AXB_SUCCESS;
}

} // namespace

template <typename T>
void axb_spcuda::fill_vec_ops(typename OpsOf<T>::type *o) {
  o->vec_alloc = v_alloc<T>;
  o->vec_free = v_free<T>;
  o->vec_upload = v_upload<T>;
  o->vec_download = v_download<T>;
  o->copy = v_copy<T>;
  o->fill = v_fill<T>;
  o->axpy = v_axpy<T>;
  o->axpby = v_axpby<T>;
  o->vmul = v_vmul<T>;
  o->dot = v_dot<T>;
  o->dot2 = v_dot2<T>;
  o->nrm2 = v_nrm2<T>;
  o->lincomb = v_lincomb<T>;
}
template void axb_spcuda::fill_vec_ops<double>(axb_sparse_ops_d *);
template void axb_spcuda::fill_vec_ops<float>(axb_sparse_ops_s *);
