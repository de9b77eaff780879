/*
 * Incomplete factors on the GPU (sparse_ops.h): the factor object, the
 * Chow-Patel fixed-point sweeps of ParILU / ParIC (one thread per entry,
 * synchronous: sweep k+1 reads only sweep k's values, so the result does
 * not depend on scheduling and equals the CPU's up to rounding), and the
 * triangular solves — exact or approximate (Jacobi sweeps
 * x_{k+1} = D^-1 (b - N x_k)).
 *
 * Exact solves run "sync-free" (after Liu et al., Euro-Par 2016): one
 * launch per solve; every row, taken by a group of W lanes, waits for the
 * rows it reads through per-row ready flags in global memory and then
 * publishes its own x_i and flag.  Blocks take their rows from a global
 * ticket counter (atomicAdd), so a block's rows come after the rows of
 * every block that took a ticket before it, and those blocks are already
 * running: the row with the smallest unfinished index has all its
 * dependencies finished and proceeds, whatever order the hardware schedules
 * blocks in (forward progress without cooperative launch).  The flags hold
 * a generation number (one per solve), so nothing is cleared between
 * solves.  The warp solve (tri_warp) is its successor: one lane per row,
 * the values themselves as the flags, dependencies inside a warp resolved
 * in shared memory.  The level-scheduled form launches once per level of
 * the pattern's level sets.  AUTO takes the warp solve while every row is
 * resident and levels beyond (tri_auto_levels says why); the flag solve is
 * kept for comparison.
 * Status conventions as the CPU table (sparse_cpu_t.h): the smallest bad
 * row, 1-based, found by an integer atomicMin.
 */
#include "fac_dev.cuh"

#include "backend/cuda/cuda_sync.cuh"

#include <math.h>
#include <new>
#include <stdlib.h>
#include <vector>

using namespace axb_spcuda;

namespace {

/* ---- sweeps -----------------------------------------------------------------
 */

/* One ParILU entry per thread: e = (i, j), m = min(i, j),
   s = sum_{c<m} l_ic u_cj (row i against column j, both sorted);
   i > j: l_ij = (a_ij - s) / u_jj; i <= j: u_ij = a_ij - s. */
template <typename T>
__global__ void
ilu_sweep(int64_t nnz, const int64_t *rowptr, const int32_t *colind,
          const int32_t *rowidx, const int64_t *diag, const int64_t *colptr,
          const int32_t *csrrow, const int64_t *cscpos, const T *a, const T *v,
          T *w, unsigned long long *bad) {
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < nnz;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = rowidx[e], j = colind[e], m = i < j ? i : j;
    int64_t p = rowptr[i], pe = rowptr[i + 1];
    int64_t q = colptr[j], qe = colptr[j + 1];
    T s = 0;
    while (p < pe && q < qe) {
      const int64_t c = colind[p], r = csrrow[q];
      if (c >= m || r >= m) break;
      if (c == r)
        s += v[p++] * v[cscpos[q++]];
      else if (c < r)
        ++p;
      else
        ++q;
    }
    T x;
    int b = 0;
    if (i <= j) {
      x = a[e] - s;
    } else {
      const T u = v[diag[j]];
      if (u == T(0)) {
        b = 1;
        x = 0;
      } else {
        x = (a[e] - s) / u;
      }
    }
    if (b || !isfinite(x)) atomicMin(&bad[0], (unsigned long long)(i + 1));
    w[e] = x;
  }
}

/* One ParIC entry of the lower triangle per thread: e = (i, j), j <= i,
   s = sum_{c<j} l_ic l_jc (rows i and j merged); i > j: l_ij = (a_ij - s) /
   l_jj; i == j: l_ii = sqrt(a_ii - s) (not positive: bad[1]); mirrored to
   F(j, i) through tpos. */
template <typename T>
__global__ void ic_sweep(int64_t nnz, const int64_t *rowptr,
                         const int32_t *colind, const int32_t *rowidx,
                         const int64_t *diag, const int64_t *tpos, const T *a,
                         const T *v, T *w, unsigned long long *bad) {
  for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < nnz;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t i = rowidx[e], j = colind[e];
    if (j > i) continue;
    int64_t p = rowptr[i], pe = rowptr[i + 1];
    int64_t q = rowptr[j], qe = rowptr[j + 1];
    T s = 0;
    while (p < pe && q < qe) {
      const int64_t c = colind[p], d = colind[q];
      if (c >= j || d >= j) break;
      if (c == d)
        s += v[p++] * v[q++];
      else if (c < d)
        ++p;
      else
        ++q;
    }
    T x;
    int b = 0;
    if (i == j) {
      const T d = a[e] - s;
      if (!(d > T(0))) {
        b = 2;
        x = 0;
      } else {
        x = sqrt(d);
      }
    } else {
      const T l = v[diag[j]];
      if (l == T(0)) {
        b = 1;
        x = 0;
      } else {
        x = (a[e] - s) / l;
      }
    }
    if (b == 2) atomicMin(&bad[1], (unsigned long long)(i + 1));
    if (b == 1 || !isfinite(x)) atomicMin(&bad[0], (unsigned long long)(i + 1));
    w[e] = x;
    if (j < i) w[tpos[e]] = x;
  }
}

/* rowidx[k] = the row of entry k (the sweeps' thread-per-entry map). */
__global__ void fill_rowidx(int64_t n, const int64_t *rowptr, int32_t *rowidx) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; ++k)
      rowidx[k] = (int32_t)i;
}

/* ld_acquire / st_release (backend/cuda/cuda_sync.cuh): a row that sees
   ready[j] == gen also sees the x_j published before the flag. */
using axb_cuda::ld_acquire;
using axb_cuda::st_release;

/* Exact ILU(0) on the device, one thread per row, rows in order through
   the ticket (as tri_syncfree): row i eliminates with every earlier row c
   of its lower part, in increasing c (IKJ, as axb__spf_ilu0 on the host):
   l_ic = w_ic / u_cc, then w_ij -= l_ic u_cj for the j > c stored in both
   rows (a merge of the two sorted rows).  Row c is read only after
   ready[c] == gen (acquire); its values past L1 (__ldcg: another SM wrote
   them).  Row i's values are written by its thread alone; the release
   store of ready[i] publishes them.  The same operations in the same order
   as the host; in double the factor equals the host's up to rounding
   (FMA).  In float the host eliminates in double and rounds once at the
   end, this kernel works in float: the factors differ by float rounding,
   and a float matrix whose elimination cancels badly may get a different
   pivot verdict here than on the CPU (both are checked afterwards). */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    ilu0_rows(int64_t n, const int64_t *rowptr, const int32_t *col,
              const int64_t *diag, T *w, unsigned *ready, unsigned gen,
              unsigned long long *ticket, unsigned long long base,
              unsigned long long *bad) {
  __shared__ unsigned long long blk;
  if (threadIdx.x == 0) blk = atomicAdd(ticket, 1ull) - base;
  __syncthreads();
  const int64_t i = (int64_t)blk * kBlock + threadIdx.x;
  if (i >= n) return;
  const int64_t di = diag[i], re = rowptr[i + 1];
  for (int64_t k = rowptr[i]; k < di; ++k) {
    const int64_t c = col[k];
    while (ld_acquire(ready + c) != gen) {
    }
    const T l = w[k] / __ldcg(w + diag[c]);
    w[k] = l;
    int64_t q = k + 1;
    const int64_t ce = rowptr[c + 1];
    for (int64_t kk = diag[c] + 1; kk < ce && q < re; ++kk) {
      const int64_t j = col[kk];
      while (q < re && col[q] < j)
        ++q;
      if (q < re && col[q] == j) w[q] -= l * __ldcg(w + kk);
    }
  }
  const T piv = w[di];
  if (piv == T(0) || !isfinite(piv))
    atomicMin(&bad[0], (unsigned long long)(i + 1));
  st_release(ready + i, gen);
}

/* After the sweeps: pivots nonzero (IC: positive), every value finite. */
template <typename T>
__global__ void fac_check_rows(int64_t n, int ic, const int64_t *rowptr,
                               const int64_t *diag, const T *v,
                               unsigned long long *bad) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    const T d = v[diag[i]];
    if (ic && !(d > T(0)) && isfinite(d))
      atomicMin(&bad[1], (unsigned long long)(i + 1));
    bool piv = d == T(0);
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; ++k)
      if (!isfinite(v[k])) piv = true;
    if (piv) atomicMin(&bad[0], (unsigned long long)(i + 1));
  }
}

/* The flag launches' state: ready flags and the block ticket, zeroed on s
   (every launch that reads them runs on s after this). */
cudaError_t alloc_flags(FacDev *F, cudaStream_t s) {
  const size_t n1 = (size_t)(F->n > 0 ? F->n : 1);
  cudaError_t e = cudaMalloc((void **)&F->ready, sizeof(unsigned) * n1);
  if (e == cudaSuccess)
    e = cudaMalloc((void **)&F->ticket, sizeof(unsigned long long));
  if (e == cudaSuccess)
    e = cudaMemsetAsync(F->ready, 0, sizeof(unsigned) * n1, s);
  if (e == cudaSuccess)
    e = cudaMemsetAsync(F->ticket, 0, sizeof(unsigned long long), s);
  return e;
}

/* The CPU table's verdict on (smallest bad pivot row, smallest not-SPD
   row): NOT_SPD wins a tie. */
axb_status verdict(unsigned long long piv, unsigned long long spd,
                   int64_t *info) {
  *info = 0;
  if (piv == ~0ull && spd == ~0ull) return AXB_SUCCESS;
  if (spd <= piv) {
    *info = (int64_t)spd;
    return AXB_ERR_NOT_SPD;
  }
  *info = (int64_t)piv;
  return AXB_ERR_SMALL_PIVOT;
}

/* diag[i] := the position of a_ii in row i (columns sorted: a binary
   search); a row without it: bad[0] := min(bad[0], i + 1). */
__global__ void find_diag(int64_t n, const int64_t *rowptr, const int32_t *col,
                          int64_t *diag, unsigned long long *bad) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x) {
    int64_t lo = rowptr[i], hi = rowptr[i + 1];
    while (lo < hi) { /* first position with col >= i */
      const int64_t mid = lo + (hi - lo) / 2;
      if (col[mid] < i)
        lo = mid + 1;
      else
        hi = mid;
    }
    const bool ok = lo < rowptr[i + 1] && col[lo] == i;
    diag[i] = ok ? lo : -1;
    if (!ok) atomicMin(&bad[0], (unsigned long long)(i + 1));
  }
}

/* Read the two flags (waits for the stream) and give their verdict. */
axb_status flags_verdict(axb_handle h, Scratch *S, int64_t *info) {
  axb_status st =
      copy_wait(h, S->hflag, S->flag, 2 * sizeof(unsigned long long),
                cudaMemcpyDeviceToHost);
  if (st != AXB_SUCCESS) return st;
  return verdict(S->hflag[0], S->hflag[1], info);
}

template <typename T>
axb_status f_sweeps(axb_handle h, const axb_spmat *Ao, axb_spfac *Fo,
                    int sweeps, int64_t *info) {
  FacDev *F = CF(Fo);
  const axb_spcuda_mat *A = (const axb_spcuda_mat *)Ao;
  *info = 0;
  if (F->n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  cudaStream_t s = axb_cuda::stream(h);
  const T *a = (const T *)A->val;
  const unsigned grid = grid_for(F->nnz, kBlock);
  if (sweeps > 0 && F->kind == AXB_SPF_LU && !F->cscpos)
    return axb__fail(h, AXB_ERR_INTERNAL,
                     "ParILU sweeps on a factor made without its CSC view");
  if (sweeps > 0 && !F->tmp) /* first sweeps: the second value buffer */
    AXB_CU(h,
           cudaMalloc(&F->tmp, sizeof(T) * (size_t)(F->nnz > 0 ? F->nnz : 1)));
  if (sweeps > 0 && !F->rowidx) { /* first sweeps: the row of every entry */
    AXB_CU(h, cudaMalloc((void **)&F->rowidx,
                         sizeof(int32_t) * (size_t)(F->nnz > 0 ? F->nnz : 1)));
    fill_rowidx<<<grid_for(F->n, kBlock), kBlock, 0, s>>>(F->n, F->rowptr,
                                                          F->rowidx);
    AXB_CU(h, cudaGetLastError());
  }
  for (int sw = 0; sw < sweeps; ++sw) {
    AXB_CU(h,
           cudaMemsetAsync(S->flag, 0xff, 2 * sizeof(unsigned long long), s));
    const T *v = (const T *)F->val;
    T *w = (T *)F->tmp;
    if (F->kind == AXB_SPF_IC)
      ic_sweep<T><<<grid, kBlock, 0, s>>>(F->nnz, F->rowptr, F->colind,
                                          F->rowidx, F->diag, F->tpos, a, v, w,
                                          S->flag);
    else
      ilu_sweep<T><<<grid, kBlock, 0, s>>>(
          F->nnz, F->rowptr, F->colind, F->rowidx, F->diag, F->colptr,
          F->csrrow, F->cscpos, a, v, w, S->flag);
    AXB_CU(h, cudaGetLastError());
    F->val = w;
    F->tmp = (void *)v;
    st = flags_verdict(h, S, info);
    if (st != AXB_SUCCESS) return st;
  }
  AXB_CU(h, cudaMemsetAsync(S->flag, 0xff, 2 * sizeof(unsigned long long), s));
  fac_check_rows<T><<<red_blocks(F->n), kBlock, 0, s>>>(
      F->n, F->kind == AXB_SPF_IC, F->rowptr, F->diag, (const T *)F->val,
      S->flag);
  AXB_CU(h, cudaGetLastError());
  return flags_verdict(h, S, info);
}

/* fac_ilu0 (sparse_ops.h): F's values := A's, then the exact ILU(0) on the
   device (ilu0_rows), then the check of every pivot and value. */
template <typename T>
axb_status f_ilu0(axb_handle h, const axb_spmat *Ao, axb_spfac *Fo,
                  int64_t *info) {
  FacDev *F = CF(Fo);
  const axb_spcuda_mat *A = (const axb_spcuda_mat *)Ao;
  *info = 0;
  if (F->kind != AXB_SPF_LU)
    return axb__fail(h, AXB_ERR_INTERNAL, "device ILU(0) of an IC factor");
  if (F->n != A->rows || F->nnz != A->nnz)
    return axb__fail(h, AXB_ERR_INTERNAL,
                     "device ILU(0): the factor's pattern is not A's");
  if (F->n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  cudaStream_t s = axb_cuda::stream(h);
  AXB_CU(h, cudaMemcpyAsync(F->val, A->val, sizeof(T) * (size_t)F->nnz,
                            cudaMemcpyDeviceToDevice, s));
  AXB_CU(h, cudaMemsetAsync(S->flag, 0xff, 2 * sizeof(unsigned long long), s));
  unsigned gen;
  AXB_CU(h, next_gen(F, s, &gen));
  const unsigned grid = grid_for(F->n, kBlock);
  ilu0_rows<T><<<grid, kBlock, 0, s>>>(F->n, F->rowptr, F->colind, F->diag,
                                       (T *)F->val, F->ready, gen, F->ticket,
                                       F->issued, S->flag);
  AXB_CU(h, cudaGetLastError());
  F->issued += grid;
  fac_check_rows<T><<<red_blocks(F->n), kBlock, 0, s>>>(
      F->n, 0, F->rowptr, F->diag, (const T *)F->val, S->flag);
  AXB_CU(h, cudaGetLastError());
  return flags_verdict(h, S, info);
}

} // namespace

namespace {

/* ---- the factor object ------------------------------------------------------
 */

template <typename S> cudaError_t put(S **d, const S *h, int64_t count) {
  cudaError_t e =
      cudaMalloc((void **)d, sizeof(S) * (size_t)(count > 0 ? count : 1));
  if (e == cudaSuccess && count > 0)
    e = cudaMemcpy(*d, h, sizeof(S) * (size_t)count, cudaMemcpyHostToDevice);
  /* cudaMemcpy from pageable memory may return before its DMA lands, and
     the handle's stream is non-blocking: wait for the legacy stream. */
  if (e == cudaSuccess && count > 0) e = cudaStreamSynchronize(0);
  return e;
}

cudaError_t put32(int32_t **d, const int64_t *h, int64_t count) {
  int32_t *t = new (std::nothrow) int32_t[(size_t)(count > 0 ? count : 1)];
  if (!t) return cudaErrorMemoryAllocation;
  for (int64_t k = 0; k < count; ++k)
    t[k] = (int32_t)h[k];
  cudaError_t e = put(d, t, count);
  delete[] t;
  return e;
}

/* AUTO (tri_auto_levels): levels when n is beyond the resident rows and
   the pattern brought level sets, else the warp solve. */
void resolve_tri_auto(FacDev *F) {
  const bool lev = F->auto_levels && !F->lo_ptr.empty() && !F->up_ptr.empty();
  F->alg = lev ? AXB_SPTRI_GPU_LEVELS : AXB_SPTRI_GPU_WARP;
  F->sf_width = F->auto_width; /* the in-place fallback's (flag solve) */
}

/* The triangular solves' shape: lanes per row of the Jacobi sweeps and
   level solves, AUTO's exact solve (tri_auto_levels). */
void shape_solves(FacDev *F, int device) {
  /* Lanes per row: a strict triangle holds about half of a row. */
  const double half = F->n > 0 ? 0.5 * (double)F->nnz / (double)F->n : 0;
  while (F->width < 32 && F->width < half)
    F->width *= 2;
  /* As SpMV's VECTOR: no idle lanes once the rows fill the GPU. */
  const double resident = resident_threads(device);
  while (F->width > 1 && (double)F->n * F->width > 4.0 * resident)
    F->width /= 2;
  F->auto_width = sf_width_for(F->n, device);
  F->sf_width = F->auto_width;
  F->auto_levels = tri_auto_levels(F->n, device);
  resolve_tri_auto(F);
}

template <typename T>
axb_status f_create(axb_handle h, const axb_spf_pattern *P, const T *values,
                    axb_spfac **out) {
  *out = nullptr;
  if (P->n > INT32_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "sparse GPU factor: more than 2^31 - 1 rows");
  axb_cuda::DeviceScope scope(h->device);
  FacDev *F = new (std::nothrow) FacDev();
  if (!F) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "sparse GPU factor");
  F->device = h->device;
  F->kind = P->kind;
  F->n = P->n;
  F->nnz = P->nnz;
  /* Only the parts the pattern brings (sparse_ops.h): the CSC view for
     ParILU, level sets for the level-scheduled solve; the sweeps' row of
     every entry is made on the device when sweeps first run. */
  cudaError_t e = put(&F->rowptr, P->rowptr, P->n + 1);
  if (e == cudaSuccess) e = put32(&F->colind, P->colind, P->nnz);
  if (e == cudaSuccess) e = put(&F->diag, P->diag, P->n);
  if (e == cudaSuccess && P->cscpos) {
    e = put(&F->colptr, P->colptr, P->n + 1);
    if (e == cudaSuccess) e = put32(&F->csrrow, P->csrrow, P->nnz);
    if (e == cudaSuccess) e = put(&F->cscpos, P->cscpos, P->nnz);
  }
  if (e == cudaSuccess && P->tpos) e = put(&F->tpos, P->tpos, P->nnz);
  if (e == cudaSuccess && P->lo_rows) e = put(&F->lo_rows, P->lo_rows, P->n);
  if (e == cudaSuccess && P->up_rows) e = put(&F->up_rows, P->up_rows, P->n);
  if (e == cudaSuccess) /* NULL values: fac_ilu0 fills them */
    e = values ? put((T **)&F->val, values, P->nnz)
               : cudaMalloc(&F->val,
                            sizeof(T) * (size_t)(P->nnz > 0 ? P->nnz : 1));
  if (e == cudaSuccess) e = alloc_flags(F, axb_cuda::stream(h));
  if (e == cudaSuccess) e = cudaStreamSynchronize(0); /* as put() */
  if (e != cudaSuccess) {
    delete F;
    return axb_cuda::fail_cuda(h, e, "sparse GPU factor");
  }
  if (P->lo_ptr && P->up_ptr) {
    F->lo_ptr.assign(P->lo_ptr, P->lo_ptr + P->lo_nlev + 1);
    F->up_ptr.assign(P->up_ptr, P->up_ptr + P->up_nlev + 1);
  }
  shape_solves(F, h->device);
  *out = (axb_spfac *)F;
  return AXB_SUCCESS;
}

/* fac_from_mat (sparse_ops.h): an LU factor on A's own device pattern —
   rowptr and colind borrowed from A, the diagonal positions found on the
   device — so the set-up neither builds a host pattern nor uploads A's
   pattern a second time.  No CSC view, no level sets, no sweep buffer:
   for fac_ilu0 with Jacobi or warp triangular solves. */
template <typename T>
axb_status f_from_mat(axb_handle h, const axb_spmat *Ao, axb_spfac **out,
                      int64_t *info) {
  const axb_spcuda_mat *A = (const axb_spcuda_mat *)Ao;
  *out = nullptr;
  *info = 0;
  if (A->rows > INT32_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "sparse GPU factor: more than 2^31 - 1 rows");
  axb_cuda::DeviceScope scope(h->device);
  axb_status st = AXB_SUCCESS;
  Scratch *S = scratch(h, &st);
  if (!S) return st;
  FacDev *F = new (std::nothrow) FacDev();
  if (!F) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "sparse GPU factor");
  F->device = h->device;
  F->kind = AXB_SPF_LU;
  F->n = A->rows;
  F->nnz = A->nnz;
  F->borrowed = true;
  F->rowptr = A->rowptr;
  F->colind = A->colind;
  const size_t n1 = (size_t)(F->n > 0 ? F->n : 1);
  cudaStream_t s = axb_cuda::stream(h);
  cudaError_t e = cudaMalloc((void **)&F->diag, sizeof(int64_t) * n1);
  if (e == cudaSuccess)
    e = cudaMalloc(&F->val, sizeof(T) * (size_t)(F->nnz > 0 ? F->nnz : 1));
  if (e == cudaSuccess) e = alloc_flags(F, s);
  if (e == cudaSuccess)
    e = cudaMemsetAsync(S->flag, 0xff, 2 * sizeof(unsigned long long), s);
  if (e == cudaSuccess && F->n > 0) {
    find_diag<<<red_blocks(F->n), kBlock, 0, s>>>(F->n, F->rowptr, F->colind,
                                                  F->diag, S->flag);
    e = cudaGetLastError();
  }
  if (e != cudaSuccess) {
    delete F;
    return axb_cuda::fail_cuda(h, e, "sparse GPU factor");
  }
  st = flags_verdict(h, S, info); /* waits for the stream */
  if (st != AXB_SUCCESS) {
    delete F;
    return st;
  }
  shape_solves(F, h->device);
  *out = (axb_spfac *)F;
  return AXB_SUCCESS;
}

template <typename T> void f_destroy(axb_handle h, axb_spfac *F) {
  if (!F) return;
  axb_cuda::DeviceScope scope(h->device);
  cudaStreamSynchronize(axb_cuda::stream(h)); /* queued work may use it */
  delete CF(F);
}

template <typename T>
axb_status f_download(axb_handle h, const axb_spfac *Fo, T *values) {
  const FacDev *F = CF(Fo);
  if (F->nnz == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  return copy_wait(h, values, F->val, sizeof(T) * (size_t)F->nnz,
                   cudaMemcpyDeviceToHost);
}

} // namespace

extern "C" axb_status axb_spcuda_fac_set_tri(struct axb_spfac_s *Fo,
                                             axb_sptri_gpu_alg alg, int width) {
  FacDev *F = CF(Fo);
  if (width < 0 || width > 32 || (width & (width - 1)) != 0)
    return AXB_ERR_INVALID;
  if (alg == AXB_SPTRI_GPU_LEVELS) {
    if (F->lo_ptr.empty() || F->up_ptr.empty()) return AXB_ERR_NOT_SUPPORTED;
    F->alg = alg;
    return AXB_SUCCESS;
  }
  if (alg == AXB_SPTRI_GPU_AUTO) {
    resolve_tri_auto(F);
    return AXB_SUCCESS;
  }
  if (alg == AXB_SPTRI_GPU_WARP) {
    F->alg = alg;
    return AXB_SUCCESS;
  }
  if (alg != AXB_SPTRI_GPU_SYNCFREE) return AXB_ERR_INVALID;
  F->alg = AXB_SPTRI_GPU_SYNCFREE;
  F->sf_width = width ? width : F->auto_width;
  return AXB_SUCCESS;
}

extern "C" void axb_spcuda_fac_tri_info(const struct axb_spfac_s *Fo,
                                        axb_sptri_gpu_alg *alg, int *width) {
  const FacDev *F = CF(Fo);
  *alg = F->alg;
  *width = F->alg == AXB_SPTRI_GPU_LEVELS ? F->width
           : F->alg == AXB_SPTRI_GPU_WARP ? 1
                                          : F->sf_width;
}

extern "C" axb_status axb_spcuda_fac_set_backoff(struct axb_spfac_s *Fo,
                                                 int ns) {
  if (ns < 0 || ns > 1000000) return AXB_ERR_INVALID;
  CF(Fo)->backoff = ns;
  return AXB_SUCCESS;
}

template <typename T>
void axb_spcuda::fill_fac_ops(typename OpsOf<T>::type *o) {
  o->fac_create = f_create<T>;
  o->fac_destroy = f_destroy<T>;
  o->fac_download = f_download<T>;
  o->fac_sweeps = f_sweeps<T>;
  o->fac_ilu0 = f_ilu0<T>;
  o->fac_from_mat = f_from_mat<T>;
  o->tri_solve = f_tri_solve<T>;
}
template void axb_spcuda::fill_fac_ops<double>(axb_sparse_ops_d *);
template void axb_spcuda::fill_fac_ops<float>(axb_sparse_ops_s *);
