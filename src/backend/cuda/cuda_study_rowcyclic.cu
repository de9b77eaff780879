/*
 * The row-cyclic Gaussian elimination on [A | B] of SEEDS.md 2 (gesv_rowcyclic,
 * gesv_gauss).  A host-array entry of the CUDA table that stages A through
 * device memory; see cuda_study.cu for the whole set.
 */
#include "cuda_study_internal.cuh"

namespace axb_cuda {

namespace {

/* ======================================================================= */
/* Gaussian elimination on [A | B], row-cyclic across blocks (SEEDS.md 2)   */
/* ======================================================================= */

/* M := [A | B] row-major (ld w = n + nrhs). */
template <typename T>
__global__ void ge_build_kernel(int64_t n, int64_t nrhs, const T *A,
                                int64_t lda, const T *B, int64_t ldb, T *M) {
  const int64_t w = n + nrhs;
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * w) return;
  const int64_t i = t / w, j = t % w;
  M[t] = j < n ? A[i + j * lda] : B[i + (j - n) * ldb];
}

/* B := the right part of M (the solution after back substitution). */
template <typename T>
__global__ void ge_extract_kernel(int64_t n, int64_t nrhs, const T *M, T *B,
                                  int64_t ldb) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * nrhs) return;
  const int64_t i = t % n, r = t / n;
  B[i + r * ldb] = M[i * (n + nrhs) + n + r];
}

/* The pivot of column k from the candidates the previous elimination left
   (one per block: largest |m_ik| over its rows, first row on ties); step 0
   scans the column itself (ncand = 0).  With pivoting an exactly zero (or
   NaN) best is singular; without, p = k and |m_kk| <= tiny is a small
   pivot.  info = k + 1 and the status kind go to info[0], info[1]; every
   later kernel then does nothing. */
template <typename T>
__global__ void ge_pivot_kernel(int64_t n, int64_t w, const T *M, int64_t k,
                                const T *cval, const int64_t *cidx, int ncand,
                                int pivot, double tiny, int64_t *piv, T *pval,
                                int64_t *info) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *sv = (T *)smem;
  int64_t *si = (int64_t *)(sv + blockDim.x);
  if (info[0]) return;
  T best = -1;
  int64_t bi = n;
  if (pivot) {
    if (ncand > 0) {
      for (int c = threadIdx.x; c < ncand; c += blockDim.x)
        if (cval[c] > best || (cval[c] == best && cidx[c] < bi)) {
          best = cval[c];
          bi = cidx[c];
        }
    } else {
      for (int64_t i = k + threadIdx.x; i < n; i += blockDim.x) {
        const T v = absv(M[i * w + k]);
        if (v > best) {
          best = v;
          bi = i;
        }
      }
    }
  }
  block_best_tree(sv, si, best, bi);
  if (threadIdx.x != 0) return;
  if (pivot) {
    if (si[0] >= n || !(sv[0] > T(0))) {
      info[0] = k + 1;
      info[1] = AXB_ERR_SINGULAR;
      return;
    }
    *piv = si[0];
  } else {
    if (!((double)absv(M[k * w + k]) > tiny)) {
      info[0] = k + 1;
      info[1] = AXB_ERR_SMALL_PIVOT;
      return;
    }
    *piv = k;
  }
  *pval = M[*piv * w + k];
}

/* Swap rows k and p over columns k..w-1 and normalise the new row k:
   m_kj := m_pj / pivot (unit diagonal, the document's form). */
template <typename T>
__global__ void ge_normalise_kernel(int64_t w, T *M, int64_t k,
                                    const int64_t *piv, const T *pval,
                                    const int64_t *info) {
  if (info[0]) return;
  const int64_t j = k + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= w) return;
  const int64_t p = *piv;
  const T a = M[p * w + j];
  if (p != k) M[p * w + j] = M[k * w + j];
  M[k * w + j] = a / *pval;
}

/*
 * Elimination below pivot k, row-cyclic: block g of gridDim.x owns rows
 * k+1+g, k+1+g+G, ...; its threads stride over the columns k+1..w-1 of one
 * row at a time: m_ij -= m_ik m_kj.  Then (pivoting) each block leaves the
 * largest |m_i,k+1| of its rows as a candidate for the next pivot search,
 * so that search reads G values instead of a column.
 */
template <typename T>
__global__ void ge_eliminate_kernel(int64_t n, int64_t w, T *M, int64_t k,
                                    int pivot, T *cval, int64_t *cidx,
                                    const int64_t *info) {
  if (info[0]) return;
  const T *rk = M + k * w;
  T best = -1;
  int64_t bi = n;
  for (int64_t i = k + 1 + blockIdx.x; i < n; i += gridDim.x) {
    T *ri = M + i * w;
    const T f = ri[k];
    if (f != T(0))
      for (int64_t j = k + 1 + threadIdx.x; j < w; j += blockDim.x)
        ri[j] -= f * rk[j];
    /* Column k+1 of row i was written by thread 0 itself: it reads it
       back without a barrier. */
    if (pivot && threadIdx.x == 0 && k + 1 < n) {
      const T v = absv(ri[k + 1]);
      if (v > best) {
        best = v;
        bi = i;
      }
    }
  }
  if (pivot && threadIdx.x == 0) {
    cval[blockIdx.x] = best;
    cidx[blockIdx.x] = bi;
  }
}

/* Back substitution in one block, unit upper triangle, no division:
   x_i = c_i - sum_{j>i} u_ij x_j, the dot product strided over the threads
   and reduced as a tree in shared memory; x overwrites column n + r. */
template <typename T>
__global__ void ge_back_tree_kernel(int64_t n, int64_t w, T *M,
                                    const int64_t *info) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *part = (T *)smem;
  if (info[0]) return;
  for (int64_t r = n; r < w; ++r)
    for (int64_t i = n - 1; i >= 0; --i) {
      const T *ri = M + i * w;
      T acc = 0;
      for (int64_t j = i + 1 + threadIdx.x; j < n; j += blockDim.x)
        acc += ri[j] * M[j * w + r];
      block_sum(part, acc);
      if (threadIdx.x == 0) M[i * w + r] -= part[0];
      __syncthreads();
    }
}

/*
 * Pipelined back substitution for right-hand side column r: rows are
 * cyclic over the blocks, bottom up (block g owns rows n-1-g, n-1-g-G, ...),
 * and x_j is published with a per-unknown flag.  A thread needing x_j waits
 * for flag[j] (acquire: volatile poll, then a fence), the producer writes
 * x_i, fences and sets flag[i] (release).  Every block must be resident
 * for the waits to end: the launch is cooperative and the grid no larger
 * than the occupancy allows (the original had neither fences nor that
 * guarantee).
 */
template <typename T>
__global__ void ge_back_flags_kernel(int64_t n, int64_t w, T *M, int64_t r,
                                     int *flag, const int64_t *info) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *part = (T *)smem;
  if (info[0]) return;
  for (int64_t i = n - 1 - blockIdx.x; i >= 0; i -= gridDim.x) {
    const T *ri = M + i * w;
    T acc = 0;
    for (int64_t j = i + 1 + threadIdx.x; j < n; j += blockDim.x) {
      while (((volatile int *)flag)[j] == 0) {
      }
      __threadfence();
      acc += ri[j] * ((volatile T *)M)[j * w + r];
    }
    block_sum(part, acc);
    if (threadIdx.x == 0) {
      ((volatile T *)M)[i * w + r] = M[i * w + r] - part[0];
      __threadfence();
      atomicExch(flag + i, 1);
    }
    __syncthreads();
  }
}

/* Blocks of pass-based schedules: G0 for the first pass, then halve (after
   each of log2(G0) + 1 equal passes) or decrement (after each of G0 equal
   passes); never more than the rows left below the pivot. */
inline int64_t rc_blocks(int schedule, int64_t g0, int64_t n, int64_t k) {
  int64_t g;
  if (schedule == AXB_RC_HALVE) {
    int64_t passes = 1;
    while ((int64_t)1 << (passes - 1) < g0)
      ++passes;
    const int64_t len = (n + passes - 1) / passes;
    g = g0 >> (k / len);
  } else {
    const int64_t len = (n + g0 - 1) / g0;
    g = g0 - k / len;
  }
  const int64_t left = n - k - 1;
  if (g > left) g = left;
  return g < 1 ? 1 : g;
}

template <typename T>
axb_status host_gesv_rowcyclic(axb_handle h, int64_t n, int64_t nrhs, T *A,
                               int64_t lda, T *B, int64_t ldb,
                               const axb_rowcyclic_opts *o, int64_t *info) {
  *info = 0;
  Context *ctx = need_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  cudaStream_t s = stream(h);
  const int64_t w = n + nrhs;
  const int threads = o->threads;
  const int64_t g0 = o->blocks > 0 ? o->blocks : 4 * (int64_t)ctx->sm_count;
  const double tiny = o->pivot
                          ? 0
                          : (double)n * (sizeof(T) == 8 ? 0x1p-53 : 0x1p-24) *
                                host_max_abs<T>(n, A, lda);
  const size_t nA = (size_t)n * (size_t)n, nM = (size_t)n * (size_t)w;
  const size_t nB = (size_t)n * (size_t)(nrhs > 0 ? nrhs : 1);
  Scratch buf(h);
  axb_status rc =
      buf.alloc((nA + nB + nM + (size_t)g0) * sizeof(T) +
                (size_t)g0 * sizeof(int64_t) + (size_t)n * 4 + 2048);
  if (rc) return rc;
  T *dA = (T *)buf.p, *dB = dA + nA, *M = dB + nB, *cval = M + nM;
  char *tail = (char *)(((uintptr_t)(cval + g0) + 255) & ~(uintptr_t)255);
  int64_t *cidx = (int64_t *)tail;
  char *t2 = (char *)(((uintptr_t)(cidx + g0) + 255) & ~(uintptr_t)255);
  int64_t *dinfo = (int64_t *)t2, *dpiv = dinfo + 2;
  T *dpval = (T *)(t2 + 256);
  int *flag = (int *)(t2 + 512);
  if ((rc = copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice)) ||
      (rc = copy_2d<T>(h, ctx, dB, n, B, ldb, n, nrhs, cudaMemcpyHostToDevice)))
    return rc;
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, 2 * sizeof(int64_t), s));
  ge_build_kernel<T>
      <<<blocks_for((int64_t)nM, 256), 256, 0, s>>>(n, nrhs, dA, n, dB, n, M);
  AXB_CU(h, cudaGetLastError());
  const size_t red = (size_t)threads * (sizeof(T) + sizeof(int64_t));
  int ncand = 0;
  for (int64_t k = 0; k < n; ++k) {
    ge_pivot_kernel<T><<<1, threads, red, s>>>(
        n, w, M, k, cval, cidx, ncand, o->pivot, tiny, dpiv, dpval, dinfo);
    ge_normalise_kernel<T>
        <<<blocks_for(w - k, 256), 256, 0, s>>>(w, M, k, dpiv, dpval, dinfo);
    if (k + 1 < n) {
      const int64_t g = rc_blocks(o->schedule, g0, n, k);
      ge_eliminate_kernel<T><<<(unsigned)g, threads, 0, s>>>(
          n, w, M, k, o->pivot, cval, cidx, dinfo);
      ncand = (int)g;
    }
    AXB_CU(h, cudaGetLastError());
  }
  if (nrhs > 0 && !o->pipelined) {
    ge_back_tree_kernel<T>
        <<<1, threads, threads * sizeof(T), s>>>(n, w, M, dinfo);
    AXB_CU(h, cudaGetLastError());
  } else if (nrhs > 0) {
    /* Residency: no more blocks than can be co-resident, launched
       cooperatively (the launch fails rather than deadlock). */
    int per_sm = 0;
    AXB_CU(h,
           cudaOccupancyMaxActiveBlocksPerMultiprocessor(
               &per_sm, ge_back_flags_kernel<T>, threads, threads * sizeof(T)));
    int64_t grid = (int64_t)per_sm * ctx->sm_count;
    if (grid > n) grid = n;
    if (grid < 1) grid = 1;
    for (int64_t r = n; r < w; ++r) {
      AXB_CU(h, cudaMemsetAsync(flag, 0, (size_t)n * sizeof(int), s));
      int64_t nn = n, ww = w, rr = r;
      void *args[] = {&nn, &ww, &M, &rr, &flag, &dinfo};
      AXB_CU(h, cudaLaunchCooperativeKernel((void *)ge_back_flags_kernel<T>,
                                            dim3((unsigned)grid), dim3(threads),
                                            args, threads * sizeof(T), s));
    }
  }
  int64_t hinfo[2] = {0, 0};
  AXB_CU(h, cudaMemcpyAsync(hinfo, dinfo, sizeof hinfo, cudaMemcpyDeviceToHost,
                            s));
  AXB_CU(h, cudaStreamSynchronize(s));
  if (hinfo[0]) {
    *info = hinfo[0];
    if (hinfo[1] == AXB_ERR_SMALL_PIVOT)
      return axb__fail(h, AXB_ERR_SMALL_PIVOT,
                       "gesv_gauss: pivot in column %lld is not above "
                       "n*eps*max|A| = %g (no pivoting)",
                       (long long)hinfo[0], tiny);
    return axb__fail(h, AXB_ERR_SINGULAR,
                     "gesv_gauss: zero pivot in column %lld (1-based)",
                     (long long)hinfo[0]);
  }
  if (nrhs > 0) {
    ge_extract_kernel<T>
        <<<blocks_for(n * nrhs, 256), 256, 0, s>>>(n, nrhs, M, dB, n);
    AXB_CU(h, cudaGetLastError());
    return copy_2d<T>(h, ctx, B, ldb, dB, n, n, nrhs, cudaMemcpyDeviceToHost);
  }
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_gesv_gauss(axb_handle h, int64_t n, int64_t nrhs, T *A,
                           int64_t lda, T *B, int64_t ldb, int pivot,
                           int64_t *info) {
  axb_rowcyclic_opts o;
  axb_rowcyclic_opts_default(&o);
  o.pivot = pivot;
  return host_gesv_rowcyclic<T>(h, n, nrhs, A, lda, B, ldb, &o, info);
}

} // namespace

void fill_study_rowcyclic(axb_backend_ops *ops) {
  ops->d.gesv_rowcyclic = host_gesv_rowcyclic<double>;
  ops->d.gesv_gauss = host_gesv_gauss<double>;
  ops->s.gesv_rowcyclic = host_gesv_rowcyclic<float>;
  ops->s.gesv_gauss = host_gesv_gauss<float>;
}

} // namespace axb_cuda
