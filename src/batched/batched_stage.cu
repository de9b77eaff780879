/*
 * Batched calls of an AUTO handle on HOST arrays that its tuning sends to
 * the GPU (axb.h, "AUTO dispatch"; src/core/tune.c decides): the arrays'
 * spans are copied to device memory with the same leading dimensions and
 * strides, the device kernels of src/backend/cuda/batched.cu run on the CUDA
 * sub-handle's stream, the results come back and the stream is waited for.
 * Device memory comes from the stream-ordered allocator (dmalloc):
 * no device-wide synchronisation, and the pool keeps it for the next call.
 */
#include "backend/cuda/cuda_internal.h"
#include "batched/batched.h"

namespace {

/* Elements spanned by `batch` strided blocks of `one` elements each. */
size_t span(int64_t batch, int64_t stride, int64_t one) {
  return (size_t)((batch - 1) * stride + one);
}

struct Staged {
  cudaStream_t s;
  void *p[4] = {nullptr, nullptr, nullptr, nullptr};
  explicit Staged(cudaStream_t st) : s(st) {}
  ~Staged() {
    for (void *q : p)
      if (q) cudaFreeAsync(q, s);
  }
};

template <typename T>
axb_status stage(axb_handle g, int op, int up, int64_t n, int64_t nrhs, T *A,
                 int64_t lda, int64_t sA, int *ipiv, int64_t sP, T *B,
                 int64_t ldb, int64_t sB, int *info, int64_t batch,
                 int *touched) {
  using namespace axb_cuda;
  *touched = 0;
  DeviceScope scope(g->device);
  cudaStream_t s = stream(g);
  const size_t nA = span(batch, sA, lda * n);
  const size_t nB = B ? span(batch, sB, ldb * nrhs) : 0;
  const size_t nP = ipiv ? span(batch, sP, n) : 0;
  Staged m(s);
  AXB_CU(g, dmalloc(g, &m.p[0], nA * sizeof(T), s));
  if (nB) AXB_CU(g, dmalloc(g, &m.p[1], nB * sizeof(T), s));
  if (nP) AXB_CU(g, dmalloc(g, &m.p[2], nP * sizeof(int), s));
  AXB_CU(g, dmalloc(g, &m.p[3], (size_t)batch * sizeof(int), s));
  T *dA = (T *)m.p[0], *dB = (T *)m.p[1];
  int *dP = (int *)m.p[2], *dI = (int *)m.p[3];
  AXB_CU(g, cudaMemcpyAsync(dA, A, nA * sizeof(T), cudaMemcpyHostToDevice, s));
  if (nB)
    AXB_CU(g,
           cudaMemcpyAsync(dB, B, nB * sizeof(T), cudaMemcpyHostToDevice, s));
  axb_status st;
  if constexpr (sizeof(T) == 8)
    st = axb__cuda_dbatched(g, op, up, n, nrhs, dA, lda, sA, dP, sP, dB, ldb,
                            sB, dI, batch);
  else
    st = axb__cuda_sbatched(g, op, up, n, nrhs, dA, lda, sA, dP, sP, dB, ldb,
                            sB, dI, batch);
  if (st) return st;
  /* Everything queued so far only read the host arrays: wait for it, so
     that a failure up to here leaves them as they were. */
  AXB_CU(g, cudaStreamSynchronize(s));
  *touched = 1;
  AXB_CU(g, cudaMemcpyAsync(A, dA, nA * sizeof(T), cudaMemcpyDeviceToHost, s));
  if (nB)
    AXB_CU(g,
           cudaMemcpyAsync(B, dB, nB * sizeof(T), cudaMemcpyDeviceToHost, s));
  if (nP)
    AXB_CU(g, cudaMemcpyAsync(ipiv, dP, nP * sizeof(int),
                              cudaMemcpyDeviceToHost, s));
  AXB_CU(g, cudaMemcpyAsync(info, dI, (size_t)batch * sizeof(int),
                            cudaMemcpyDeviceToHost, s));
  AXB_CU(g, cudaStreamSynchronize(s));
  return AXB_SUCCESS;
}

} // namespace

/* The C entry points of batched.h, one per precision. */
#define AXB_STAGE_ENTRY(name, T)                                               \
  extern "C" axb_status name(                                                  \
      axb_handle g, int op, int up, int64_t n, int64_t nrhs, T *A,             \
      int64_t lda, int64_t sA, int *ipiv, int64_t sP, T *B, int64_t ldb,       \
      int64_t sB, int *info, int64_t batch, int *touched) {                    \
    return stage(g, op, up, n, nrhs, A, lda, sA, ipiv, sP, B, ldb, sB, info,   \
                 batch, touched);                                              \
  }
AXB_STAGE_ENTRY(axb__cuda_dbatched_host, double)
AXB_STAGE_ENTRY(axb__cuda_sbatched_host, float)
