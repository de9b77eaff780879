/*
 * Flags between thread blocks of one launch (device code): an acquire load
 * and a release store at GPU scope.  A block that sees a flag set also
 * sees everything its writer stored before setting it.  Used by the tiled
 * Cholesky (cuda_chol_tiles.cu) and the sparse triangular solves and
 * factorisations (src/sparse/cuda/fac.cu).
 */
#ifndef AXB_CUDA_SYNC_CUH
#define AXB_CUDA_SYNC_CUH

namespace axb_cuda {

__device__ __forceinline__ unsigned ld_acquire(const unsigned *p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
               : "=r"(v)
               : "l"(p)
               : "memory");
  return v;
}
__device__ __forceinline__ void st_release(unsigned *p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v)
               : "memory");
}

} // namespace axb_cuda

#endif
