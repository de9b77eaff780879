/*
 * What the dense files of the CUDA backend share (cuda_dense.cu: the
 * device-array algorithms; cuda_dense_host.cu: the host-array entries, the
 * resident factors and the table; cuda_gj.cu and the study files
 * cuda_study_*.cu): stream-ordered scratch and small conversions.
 */
#ifndef AXB_CUDA_DENSE_H
#define AXB_CUDA_DENSE_H

#include "cuda_internal.h"

namespace axb_cuda {

/* Stream-ordered device scratch, freed on the handle's stream at scope
   exit (declare after the DeviceScope so that it is freed first). */
struct Scratch {
  axb_handle h;
  void *p = nullptr;
  explicit Scratch(axb_handle hh) : h(hh) {}
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch() {
    if (p) cudaFreeAsync(p, stream(h));
  }
  axb_status alloc(size_t bytes) {
    if (bytes == 0) bytes = 1;
    AXB_CU(h, dmalloc(h, &p, bytes, stream(h)));
    return AXB_SUCCESS;
  }
};

inline size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

inline cublasFillMode_t fill(axb_uplo u) {
  return u == AXB_LOWER ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}
inline cublasOperation_t op(axb_trans t) {
  return t == AXB_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
}

inline Context *need_context(axb_handle h) {
  Context *c = context(h);
  if (!c) axb__fail(h, AXB_ERR_INTERNAL, "CUDA handle without context");
  return c;
}

} // namespace axb_cuda

#endif
