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
#include "spcuda_internal.cuh"

#include "backend/cuda/cuda_sync.cuh"

#include <math.h>
#include <new>
#include <stdlib.h>
#include <vector>

using namespace axb_spcuda;

namespace {

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

/* The generation of the next flag-synchronised launch (sync-free solve,
   device ILU(0)); when the counter wraps, the ready flags are cleared once
   on s first. */
cudaError_t next_gen(const FacDev *F, cudaStream_t s, unsigned *gen) {
  if (F->gen == ~0u) {
    cudaError_t e =
        cudaMemsetAsync(F->ready, 0, sizeof(unsigned) * (size_t)F->n, s);
    if (e != cudaSuccess) return e;
    F->gen = 0;
  }
  *gen = ++F->gen;
  return cudaSuccess;
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

/* ---- triangular solves ----------------------------------------------------
 */

/* Row i of the lower (lower = 1) or upper solve with W lanes:
   xn_i = (b_i - sum_{k in the strict triangle} v_k xo_{col k}) / d_i
   (d_i = 1 for a unit diagonal).  rows == NULL: row = index; else the
   index-th row of rows[] (a level).  xo may be xn (exact solve: the rows
   read belong to earlier levels).  B > 1 (W = 1, a Jacobi sweep: xo is
   not xn, so nothing read changes during the launch): the entries in
   batches of B with the factor's lines evicted first from L2, as SpMV
   (row_sum_batched; the factor is streamed once per sweep, x and b stay
   in L2). */
template <typename T, int W, int B = 1>
__global__ void __launch_bounds__(kBlock)
    tri_rows(int64_t count, const int64_t *rows, const int64_t *rowptr,
             const int32_t *col, const int64_t *diag, const T *v, int lower,
             int unit, const T *b, const T *xo, T *xn) {
  const int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t idx = g / W;
  if (idx >= count) return;
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  const int64_t i = rows ? rows[idx] : idx;
  const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
  const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
  T s = 0;
  if (B > 1)
    s = row_sum_batched<T, AXB_SPMV_HINT_L2EF, B>(k0, k1, col, v, xo,
                                                  l2_evict_first());
  else
    for (int64_t k = k0 + lane; k < k1; k += W)
      s += v[k] * xo[col[k]];
  for (int o = W / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(mask, s, o, W);
  if (lane == 0) {
    const T r = b[i] - s;
    xn[i] = unit ? r : r / v[diag[i]];
  }
}

/* x0 = D^-1 b (unit: b). */
template <typename T>
__global__ void tri_init(int64_t n, const int64_t *diag, const T *v, int unit,
                         const T *b, T *x) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    x[i] = unit ? b[i] : b[i] / v[diag[i]];
}

/* The sync-free solve, W lanes per row, kBlock / W rows per block.
   Block ordinal = its ticket - base (base: tickets of earlier solves);
   the idx-th row in dependency order is row idx (lower) or n-1-idx
   (upper).  Each lane waits for the rows of its entries (ready[j] == gen,
   acquire), reads x_j past L1 (__ldcg: another SM wrote it), the lanes'
   sums are added by shuffles, and lane 0 stores x_i, fences, and
   publishes ready[i] = gen (release).  Rows of one warp may wait for each
   other when W < 32; independent thread scheduling (sm_70+) lets the
   lanes that can proceed do so. */
template <typename T, int W>
__global__ void __launch_bounds__(kBlock)
    tri_syncfree(int64_t n, const int64_t *rowptr, const int32_t *col,
                 const int64_t *diag, const T *v, int lower, int unit,
                 const T *b, T *x, unsigned *ready, unsigned gen,
                 unsigned long long *ticket, unsigned long long base) {
  __shared__ unsigned long long blk;
  if (threadIdx.x == 0) blk = atomicAdd(ticket, 1ull) - base;
  __syncthreads();
  const int64_t idx = (int64_t)blk * (kBlock / W) + threadIdx.x / W;
  if (idx >= n) return;
  const int lane = threadIdx.x & (W - 1);
  const unsigned mask = group_mask<W>();
  const int64_t i = lower ? idx : n - 1 - idx;
  const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
  const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
  T s = 0;
  for (int64_t k = k0 + lane; k < k1; k += W) {
    const int64_t j = col[k];
    while (ld_acquire(ready + j) != gen) {
    }
    s += v[k] * __ldcg(x + j);
  }
  for (int o = W / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(mask, s, o, W);
  if (lane == 0) {
    const T r = b[i] - s;
    __stcg(x + i, unit ? r : r / v[diag[i]]);
    /* The release store is the fence: x_i is visible (at GPU scope) to
       whoever acquires ready[i] == gen.  A __threadfence() before it
       would be a second MEMBAR.GPU on every hop of the chain. */
    st_release(ready + i, gen);
  }
}

/* ---- the warp solve: values as flags, in-warp resolution ----------------
 */

/* x_j's bits while row j is unsolved: all ones, a NaN that GPU arithmetic
   never produces (a computed value with these bits would be replaced by
   the canonical NaN, so a failed solve still reads as NaN).  Loads and
   stores at GPU scope, relaxed: the value is its own flag, so there is no
   other data to order behind it, and an aligned 4- or 8-byte access is
   single-copy atomic (a reader sees the sentinel or the whole value). */
template <typename T> struct Flagged {
  typedef typename BitsOf<T>::U U;
  static constexpr U kNone = ~U(0);
  static constexpr U kNaN =
      sizeof(T) == 8 ? (U)0x7ff8000000000000ull : (U)0x7fc00000u;
  static __device__ __forceinline__ U load(const T *p) {
    U v;
    if constexpr (sizeof(T) == 8)
      asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p));
    else
      asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
  }
  static __device__ __forceinline__ void store(T *p, U v) {
    if constexpr (sizeof(T) == 8)
      asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v)
                   : "memory");
    else
      asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v)
                   : "memory");
  }
  static __device__ __forceinline__ T val(U u) { return from_bits<T>(u); }
  static __device__ __forceinline__ U bits(T v) { return to_bits<T>(v); }
};

/* External entries a lane polls per round (their loads are in flight
   together: one L2 round trip for the row's dependencies, not one each). */
constexpr int kPollBatch = 4;

/* The warp solve: one lane per row, a warp owns 32 consecutive rows in
   dependency order (block ordinals from the ticket, as tri_syncfree).
   x holds the sentinel (memset before the launch) until x_j is solved, so
   a row polls the values it reads directly.  A lane's strict-triangle
   entries split into external ones (rows of earlier warps) and internal
   ones (rows of its own warp).  Each round: every unsolved lane issues the
   loads of its next kPollBatch external x_j at once and adds the solved
   prefix (in entry order); then the warp resolves internal dependencies
   without global memory: solved values go to shared memory, a ballot says
   which rows are solved, and a lane whose internal rows are all solved
   adds them (entry order) and solves its own, until a pass solves no new
   row.  A row therefore waits only for its own dependencies: a chain
   inside a warp (x-lines of a grid) costs shared-memory steps, not
   global-memory hops.  Sum order per row: external entries, then internal
   ones, each in entry order (deterministic).  backoff > 0: __nanosleep
   that many ns after a round without progress (less polling traffic in
   L2 while the window waits).  At most 32 registers: every thread slot
   of the SM can hold a row (the window of rows in flight). */
template <typename T>
__global__ void __launch_bounds__(kBlock, 2048 / kBlock)
    tri_warp(int64_t n, const int64_t *rowptr, const int32_t *col,
             const int64_t *diag, const T *v, int lower, int unit, const T *b,
             T *x, unsigned long long *ticket, unsigned long long base,
             int backoff) {
  typedef Flagged<T> F;
  typedef typename F::U U;
  __shared__ unsigned long long blk;
  __shared__ T xs[kBlock];
  if (threadIdx.x == 0) blk = atomicAdd(ticket, 1ull) - base;
  __syncthreads();
  const int lane = threadIdx.x & 31, w0 = threadIdx.x & ~31;
  const int64_t d0 = (int64_t)blk * kBlock + w0; /* the warp's first index */
  if (d0 >= n) return;                           /* the whole warp */
  const int64_t idx = d0 + lane;
  const bool valid = idx < n;
  const int64_t i = valid ? (lower ? idx : n - 1 - idx) : 0;
  /* External entries [ke, ke1), internal ones [ki, ki1). */
  int64_t ke = 0, ke1 = 0, ki = 0, ki1 = 0;
  T s = 0, bi = 0, di = 1;
  if (valid) {
    const int64_t k0 = lower ? rowptr[i] : diag[i] + 1;
    const int64_t k1 = lower ? diag[i] : rowptr[i + 1];
    int64_t split;
    if (lower) { /* internal: columns >= d0, the tail */
      split = k1;
      while (split > k0 && col[split - 1] >= d0)
        --split;
      ke = k0, ke1 = split, ki = split, ki1 = k1;
    } else { /* internal: columns <= n - 1 - d0, the head */
      split = k0;
      while (split < k1 && col[split] <= n - 1 - d0)
        ++split;
      ki = k0, ki1 = split, ke = split, ke1 = k1;
    }
    bi = b[i];
    if (!unit) di = v[diag[i]];
  }
  bool done = !valid;
  unsigned solved = __ballot_sync(0xffffffffu, done);
  while (solved != 0xffffffffu) {
    const unsigned before = solved;
    bool moved = false;
    if (!done && ke < ke1) {
      U u[kPollBatch];
#pragma unroll
      for (int q = 0; q < kPollBatch; ++q)
        u[q] = ke + q < ke1 ? F::load(x + col[ke + q]) : F::kNone;
      bool go = true;
#pragma unroll
      for (int q = 0; q < kPollBatch; ++q) {
        go = go && u[q] != F::kNone;
        if (go) {
          s += v[ke] * F::val(u[q]);
          ++ke;
          moved = true;
        }
      }
    }
    for (;;) { /* resolve inside the warp */
      if (!done && ke == ke1) {
        for (; ki < ki1; ++ki) {
          const int64_t j = col[ki];
          const int t = (int)(lower ? j - d0 : n - 1 - j - d0);
          if (!((solved >> t) & 1u)) break;
          s += v[ki] * xs[w0 + t];
        }
        if (ki == ki1) {
          const T r = bi - s;
          U xb = F::bits(unit ? r : r / di);
          if (xb == F::kNone) xb = F::kNaN;
          xs[threadIdx.x] = F::val(xb);
          F::store(x + i, xb);
          done = true;
        }
      }
      __syncwarp(); /* xs written above is read after the ballot */
      const unsigned now = __ballot_sync(0xffffffffu, done);
      if (now == solved) break;
      solved = now;
    }
    if (backoff > 0 && solved == before && !__any_sync(0xffffffffu, moved))
      __nanosleep((unsigned)backoff);
  }
}

} // namespace

/* The flag solve's default lanes per row: a sync-free row waits in
   place, so only resident rows make progress; the widest W <= 32 with
   n * W within the resident threads, at least 1. */
int axb_spcuda::sf_width_for(int64_t n, int device) {
  const double resident = resident_threads(device);
  for (int w = 32; w >= 2; w /= 2)
    if ((double)n * w <= resident) return w;
  return 1;
}

/* AUTO's exact solve, from docs/PERFORMANCE.md "Round 3" (H200, lower +
   upper pair): with every row resident (n <= 2048 threads x SMs) the warp
   solve beat the best flag solve and the level-scheduled one (sherman3
   101 us against 221 and 347; cage10 155 against 246 and 369; bcsstk16
   2.58 ms against 3.01 and 5.04); at n = 10^6 (Poisson, convdiff3d 100^3)
   the level-scheduled solve won (3.43-3.54 ms against 4.76-4.79 for the
   warp solve, 3.59 with its best back-off): rows beyond the resident
   window wait for blocks to retire, and polling warps crowd the memory
   system. */
bool axb_spcuda::tri_auto_levels(int64_t n, int device) {
  return (double)n > resident_threads(device);
}

namespace {

template <typename T>
cudaError_t launch_syncfree(const FacDev *F, int lower, int unit, const T *b,
                            T *x, cudaStream_t s) {
  unsigned gen;
  cudaError_t e = next_gen(F, s, &gen);
  if (e != cudaSuccess) return e;
  const unsigned grid = grid_for(F->n, kBlock / F->sf_width);
  const T *v = (const T *)F->val;
#define SF_CASE(W)                                                             \
  case W:                                                                      \
    tri_syncfree<T, W><<<grid, kBlock, 0, s>>>(                                \
        F->n, F->rowptr, F->colind, F->diag, v, lower, unit, b, x, F->ready,   \
        gen, F->ticket, F->issued);                                            \
    break;
  switch (F->sf_width) {
    SF_CASE(1)
    SF_CASE(2)
    SF_CASE(4)
    SF_CASE(8)
    SF_CASE(16)
  default: SF_CASE(32)
  }
#undef SF_CASE
  e = cudaGetLastError();
  if (e == cudaSuccess) F->issued += grid;
  return e;
}

/* The warp solve: x := the sentinel (all-ones bytes), then one launch.
   x must not be b (the sentinel would overwrite it): the caller takes the
   flag solve then. */
template <typename T>
cudaError_t launch_warp(const FacDev *F, int lower, int unit, const T *b, T *x,
                        cudaStream_t s) {
  cudaError_t e = cudaMemsetAsync(x, 0xff, sizeof(T) * (size_t)F->n, s);
  if (e != cudaSuccess) return e;
  const unsigned grid = grid_for(F->n, kBlock);
  tri_warp<T><<<grid, kBlock, 0, s>>>(F->n, F->rowptr, F->colind, F->diag,
                                      (const T *)F->val, lower, unit, b, x,
                                      F->ticket, F->issued, F->backoff);
  e = cudaGetLastError();
  if (e == cudaSuccess) F->issued += grid;
  return e;
}

template <typename T>
cudaError_t launch_rows(const FacDev *F, int64_t count, const int64_t *rows,
                        int lower, int unit, const T *b, const T *xo, T *xn,
                        cudaStream_t s) {
  const unsigned grid = grid_for(count * F->width, kBlock);
  const T *v = (const T *)F->val;
  if (F->width == 1 && xo != xn) { /* a Jacobi sweep of one lane per row */
    tri_rows<T, 1, 8><<<grid, kBlock, 0, s>>>(
        count, rows, F->rowptr, F->colind, F->diag, v, lower, unit, b, xo, xn);
    return cudaGetLastError();
  }
#define TRI_CASE(W)                                                            \
  case W:                                                                      \
    tri_rows<T, W><<<grid, kBlock, 0, s>>>(count, rows, F->rowptr, F->colind,  \
                                           F->diag, v, lower, unit, b, xo,     \
                                           xn);                                \
    break;
  switch (F->width) {
    TRI_CASE(1)
    TRI_CASE(2)
    TRI_CASE(4)
    TRI_CASE(8)
    TRI_CASE(16)
  default: TRI_CASE(32)
  }
#undef TRI_CASE
  return cudaGetLastError();
}

template <typename T>
axb_status f_tri_solve(axb_handle h, const axb_spfac *Fo, axb_uplo uplo,
                       axb_sptri_mode mode, int sweeps, const T *b, T *x,
                       T *work) {
  const FacDev *F = CF(Fo);
  if (F->n == 0) return AXB_SUCCESS;
  axb_cuda::DeviceScope scope(h->device);
  cudaStream_t s = axb_cuda::stream(h);
  const int lower = uplo == AXB_LOWER;
  const int unit = lower && F->kind == AXB_SPF_LU;
  if (mode == AXB_SPTRI_JACOBI) {
    /* Ping-pong between x and work so that the last sweep lands in x. */
    T *cur = sweeps % 2 == 1 ? work : x;
    tri_init<T><<<red_blocks(F->n), kBlock, 0, s>>>(
        F->n, F->diag, (const T *)F->val, unit, b, cur);
    AXB_CU(h, cudaGetLastError());
    for (int sw = 0; sw < sweeps; ++sw) {
      T *nxt = cur == x ? work : x;
      AXB_CU(h, launch_rows<T>(F, F->n, nullptr, lower, unit, b, cur, nxt, s));
      cur = nxt;
    }
    return AXB_SUCCESS;
  }
  if (F->alg == AXB_SPTRI_GPU_WARP && (const void *)b != (const void *)x) {
    AXB_CU(h, launch_warp<T>(F, lower, unit, b, x, s));
    return AXB_SUCCESS;
  }
  if (F->alg != AXB_SPTRI_GPU_LEVELS) {
    AXB_CU(h, launch_syncfree<T>(F, lower, unit, b, x, s));
    return AXB_SUCCESS;
  }
  const std::vector<int64_t> &lp = lower ? F->lo_ptr : F->up_ptr;
  const int64_t *lr = lower ? F->lo_rows : F->up_rows;
  for (size_t l = 0; l + 1 < lp.size(); ++l)
    AXB_CU(h, launch_rows<T>(F, lp[l + 1] - lp[l], lr + lp[l], lower, unit, b,
                             x, x, s));
  return AXB_SUCCESS;
}

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
