/*
 * The GPU incomplete factor as its two files see it (fac.cu: the factor
 * object and the sweeps; tri.cu: the triangular solves).
 */
#ifndef AXB_SPCUDA_FAC_DEV_CUH
#define AXB_SPCUDA_FAC_DEV_CUH

#include "spcuda_internal.cuh"

#include <vector>

namespace axb_spcuda {

struct FacDev {
  int device;
  axb_spf_kind kind;
  int64_t n, nnz;
  bool borrowed = false; /* rowptr, colind: the matrix's (f_from_mat) */
  int64_t *rowptr = nullptr, *diag = nullptr, *colptr = nullptr,
          *cscpos = nullptr, *tpos = nullptr;
  int32_t *colind = nullptr, *rowidx = nullptr, *csrrow = nullptr;
  /* values; the sweeps' second buffer (made when sweeps first run) */
  void *val = nullptr, *tmp = nullptr;
  std::vector<int64_t> lo_ptr, up_ptr; /* host: level boundaries (or empty) */
  int64_t *lo_rows = nullptr, *up_rows = nullptr;
  int width = 1; /* lanes per row of the Jacobi-sweep and level solves */
  /* Exact solves: the resolved algorithm, the flag solve's lanes per row
     and its width when none is given. */
  axb_sptri_gpu_alg alg = AXB_SPTRI_GPU_WARP;
  int sf_width = 1, auto_width = 1;
  bool auto_levels = false;
  int backoff = 0; /* the warp solve's __nanosleep after an idle round */
  /* Sync-free state: ready[i] = the generation of the solve that last
     published x_i; ticket = blocks handed out over all solves so far (the
     device's count), issued = the same count on the host at the start of
     the next solve (launches on one stream run in order, and each takes
     exactly its grid's tickets).  The tri_solve entry takes a const
     factor: these are the solve's bookkeeping, not the factor. */
  unsigned *ready = nullptr;
  unsigned long long *ticket = nullptr;
  mutable unsigned gen = 0;
  mutable unsigned long long issued = 0;
  ~FacDev() {
    if (!borrowed) { /* else the matrix's own (f_from_mat) */
      cudaFree(rowptr);
      cudaFree(colind);
    }
    cudaFree(diag);
    cudaFree(colptr);
    cudaFree(cscpos);
    cudaFree(tpos);
    cudaFree(rowidx);
    cudaFree(csrrow);
    cudaFree(val);
    cudaFree(tmp);
    cudaFree(lo_rows);
    cudaFree(up_rows);
    cudaFree(ready);
    cudaFree(ticket);
  }
};

inline FacDev *CF(axb_spfac *F) { return (FacDev *)F; }
inline const FacDev *CF(const axb_spfac *F) { return (const FacDev *)F; }

/* The generation of the next flag-synchronised launch (sync-free solve,
   device ILU(0)); when the counter wraps, the ready flags are cleared once
   on s first. */
inline cudaError_t next_gen(const FacDev *F, cudaStream_t s, unsigned *gen) {
  if (F->gen == ~0u) {
    cudaError_t e =
        cudaMemsetAsync(F->ready, 0, sizeof(unsigned) * (size_t)F->n, s);
    if (e != cudaSuccess) return e;
    F->gen = 0;
  }
  *gen = ++F->gen;
  return cudaSuccess;
}

/* Exact or approximate solve with the factor (tri.cu). */
template <typename T>
axb_status f_tri_solve(axb_handle h, const axb_spfac *Fo, axb_uplo uplo,
                       axb_sptri_mode mode, int sweeps, const T *b, T *x,
                       T *work);

} // namespace axb_spcuda

#endif
