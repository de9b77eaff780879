/*
 * The source documents' GPU algorithms (SEEDS.md 1, 3, 4), built right, as
 * entries of the CUDA table:
 *
 *   getrf_fixedpoint  iterative (fixed-point) Crout LU by sections: B x B
 *                     thread blocks, shared-memory tiled dot products,
 *                     Jacobi sweeps, a change word per section copied to
 *                     pinned memory; the document's pair scheduler (two
 *                     streams) or the dependency-driven one (many streams).
 *   potrf_columns     column-oriented Cholesky: host loop over columns, one
 *   (potrf_crout)     thread per column element; one kernel (diagonal
 *                     recomputed per thread) or two (diagonal, then the rest);
 *                     in place or out of place.
 *   getri_gj(_unblocked)  per-pivot Gauss-Jordan on [A | I] (row-major on
 *                     the device): pivot search, swap + normalise, eliminate
 *                     (one block per row, strided columns), fix; partial
 *                     pivoting decided on the device; any n.
 *   gesv_rowcyclic    Gaussian elimination on [A | B] (row-major), rows
 *   (gesv_gauss)      cyclic over a shrinking number of blocks, pivot search
 *                     fused into the elimination (candidates per block), back
 *                     substitution in one block (tree reduction) or pipelined
 *                     over resident blocks with per-unknown flags.
 *
 * Each is a host-array entry that stages A through device memory (the
 * transfer clock feeds the report's t_transfer).
 */
#include "cuda_internal.h"
#include "cuda_study.h"

#include <math.h>
#include <string.h>
#include <vector>

namespace axb_cuda {

namespace {

/* ---- staging helpers ---------------------------------------------------- */

Context *study_context(axb_handle h) {
  Context *c = context(h);
  if (!c) axb__fail(h, AXB_ERR_INTERNAL, "CUDA handle without context");
  return c;
}

/* Device allocation freed at scope exit, stream-ordered. */
struct DevBuf {
  axb_handle h;
  void *p = nullptr;
  explicit DevBuf(axb_handle hh) : h(hh) {}
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  ~DevBuf() {
    if (p) cudaFreeAsync(p, stream(h));
  }
  axb_status alloc(size_t bytes) {
    AXB_CU(h, cudaMallocAsync(&p, bytes ? bytes : 1, stream(h)));
    return AXB_SUCCESS;
  }
};

/* Pinned host words, freed at scope exit. */
struct PinBuf {
  void *p = nullptr;
  ~PinBuf() {
    if (p) cudaFreeHost(p);
  }
};

inline unsigned blocks_for(int64_t work, int threads) {
  return (unsigned)((work + threads - 1) / threads);
}

template <typename T> __device__ inline T absv(T x) { return x < 0 ? -x : x; }

/* Block reductions over shared memory (blockDim.x a power of two; every
   thread calls them): part[0] := the sum of every thread's acc ... */
template <typename T> __device__ inline void block_sum(T *part, T acc) {
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
}
/* ... and (sv[0], si[0]) := the largest best, on ties the smallest row bi
   (LAPACK takes the first). */
template <typename T>
__device__ inline void block_best_tree(T *sv, int64_t *si, T best, int64_t bi) {
  sv[threadIdx.x] = best;
  si[threadIdx.x] = bi;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) {
      const T ov = sv[threadIdx.x + w];
      const int64_t oi = si[threadIdx.x + w];
      if (ov > sv[threadIdx.x] ||
          (ov == sv[threadIdx.x] && oi < si[threadIdx.x])) {
        sv[threadIdx.x] = ov;
        si[threadIdx.x] = oi;
      }
    }
    __syncthreads();
  }
}

/* Largest |a_ij| of the n x n host matrix (NaN skipped). */
template <typename T> double host_max_abs(int64_t n, const T *A, int64_t lda) {
  double big = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double a = fabs((double)A[i + j * lda]);
      if (a > big) big = a;
    }
  return big;
}

/* ======================================================================= */
/* Iterative (fixed-point) Crout LU                                        */
/* ======================================================================= */

/* Max of a non-negative double over the block, then one atomicMax per warp
   on its bit pattern (for x >= 0 the integer order is the numeric order;
   +inf stands for NaN). */
__device__ inline void warp_max_to(unsigned long long v,
                                   unsigned long long *out) {
  for (int o = 16; o > 0; o >>= 1)
    v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0 && v != 0)
    atomicMax(out, v);
}

/*
 * One Jacobi sweep over the section rows [r0, r0+m) x columns [c0, c0+q):
 *   i >= j: w_ij = a_ij - sum_{k<j} z_ik z_kj
 *   i <  j: w_ij = (a_ij - sum_{k<i} z_ik z_kj) / z_ii  (z_ii not tiny)
 * Thread (tx, ty) of block (bx, by) owns element (r0 + bx B + tx,
 * c0 + by B + ty).  The dot products run over k-tiles of width B staged in
 * shared memory: Z[tile rows, k-tile] and Z[k-tile, tile columns]; each
 * thread uses the first min(i, j) - kk entries of a tile, subtracting in
 * increasing k as the reference does.  The largest |w_ij - z_ij| goes to
 * *change; W (ld m) receives the new values.
 */
template <typename T, int B>
__global__ void __launch_bounds__(B *B)
    fp_sweep_kernel(const T *__restrict__ A0, int64_t n, const T *Z,
                    int64_t ldz, T *W, int64_t r0, int64_t m, int64_t c0,
                    int64_t q, double tiny, unsigned long long *change) {
  __shared__ T sL[B][B + 1];
  __shared__ T sU[B][B + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t ib = r0 + (int64_t)blockIdx.x * B,
                jb = c0 + (int64_t)blockIdx.y * B;
  const int64_t i = ib + tx, j = jb + ty;
  const bool in = i < r0 + m && j < c0 + q;
  const int64_t lim = in ? (i < j ? i : j) : 0;
  T s = in ? A0[i + j * n] : T(0);
  const int64_t kend = (ib < jb ? ib : jb) + B - 1;
  for (int64_t kk = 0; kk < kend; kk += B) {
    sL[tx][ty] = i < n && kk + ty < n ? Z[i + (kk + ty) * ldz] : T(0);
    sU[tx][ty] = kk + tx < n && j < n ? Z[(kk + tx) + j * ldz] : T(0);
    __syncthreads();
    const int64_t cnt = lim - kk;
    if (cnt >= B) {
#pragma unroll
      for (int t = 0; t < B; ++t)
        s -= sL[tx][t] * sU[t][ty];
    } else {
      for (int t = 0; t < cnt; ++t)
        s -= sL[tx][t] * sU[t][ty];
    }
    __syncthreads();
  }
  unsigned long long bits = 0;
  if (in) {
    if (i < j) {
      const T d = Z[i + i * ldz];
      if ((double)absv(d) > tiny) s /= d;
    }
    double dz = fabs((double)s - (double)Z[i + j * ldz]);
    if (dz != dz) dz = INFINITY;
    bits = (unsigned long long)__double_as_longlong(dz);
    W[(i - r0) + (j - c0) * m] = s;
  }
  warp_max_to(bits, change);
}

/* *first := min over i in [r0, r0+m) with !(|z_ii| > tiny) of i + 1. */
template <typename T>
__global__ void fp_pivot_kernel(const T *Z, int64_t ldz, int64_t r0, int64_t m,
                                double tiny, unsigned long long *first) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= m) return;
  const int64_t i = r0 + t;
  if (!((double)absv(Z[i + i * ldz]) > tiny))
    atomicMin(first, (unsigned long long)(i + 1));
}

/* A section of the schedule being iterated. */
struct Active {
  int64_t I, J;
  int slot;
  int64_t sweeps;   /* sweeps whose change has been read */
  int64_t launched; /* sweeps queued (at most sweeps + 2) */
};

template <typename T> struct FixedPoint {
  axb_handle h;
  const axb_fixedpoint_opts *o;
  axb_fixedpoint_stats *st;
  int64_t n, s, ns;
  double tiny;
  T *dA0 = nullptr, *dZ = nullptr, *dW = nullptr;
  /* Change words: two per slot (sweeps alternate), pivot word: one. */
  unsigned long long *dchg = nullptr, *dpiv = nullptr;
  unsigned long long *hchg = nullptr, *hpiv = nullptr; /* pinned */
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> done; /* per slot and parity: change copied */
  std::vector<char> state;       /* 0 waiting, 1 active, 2 converged */

  int64_t rows(int64_t I) const { return n - I * s < s ? n - I * s : s; }
  char &at(int64_t I, int64_t J) { return state[(size_t)(I * ns + J)]; }

  /* Section (I, J) reads (I, K), (K, J) for K < min(I, J) and, off the
     diagonal, the diagonal section (min, min). */
  bool inputs_ready(int64_t I, int64_t J) {
    const int64_t mn = I < J ? I : J;
    for (int64_t K = 0; K < mn; ++K)
      if (at(I, K) != 2 || at(K, J) != 2) return false;
    return I == J || at(mn, mn) == 2;
  }

  /* Queue sweep number a.launched of section a: the sweep kernel into W,
     W copied into Z, the change word copied to pinned memory, an event. */
  axb_status launch_sweep(Active &a) {
    cudaStream_t sm = streams[(size_t)a.slot];
    const int64_t m = rows(a.I), q = rows(a.J);
    T *W = dW + (size_t)a.slot * (size_t)(s * s);
    const int w = 2 * a.slot + (int)(a.launched % 2);
    ++a.launched;
    AXB_CU(h, cudaMemsetAsync(dchg + w, 0, sizeof(unsigned long long), sm));
    const int B = o->block;
    dim3 grid((unsigned)((m + B - 1) / B), (unsigned)((q + B - 1) / B));
    dim3 blk(B, B);
    const int64_t r0 = a.I * s, c0 = a.J * s;
    if (B == 8)
      fp_sweep_kernel<T, 8><<<grid, blk, 0, sm>>>(dA0, n, dZ, n, W, r0, m, c0,
                                                  q, tiny, dchg + w);
    else if (B == 16)
      fp_sweep_kernel<T, 16><<<grid, blk, 0, sm>>>(dA0, n, dZ, n, W, r0, m, c0,
                                                   q, tiny, dchg + w);
    else
      fp_sweep_kernel<T, 32><<<grid, blk, 0, sm>>>(dA0, n, dZ, n, W, r0, m, c0,
                                                   q, tiny, dchg + w);
    AXB_CU(h, cudaGetLastError());
    AXB_CU(h, cudaMemcpy2DAsync(dZ + r0 + c0 * n, (size_t)n * sizeof(T), W,
                                (size_t)m * sizeof(T), (size_t)m * sizeof(T),
                                (size_t)q, cudaMemcpyDeviceToDevice, sm));
    AXB_CU(h, cudaMemcpyAsync(hchg + w, dchg + w, sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, sm));
    AXB_CU(h, cudaEventRecord(done[(size_t)w], sm));
    return AXB_SUCCESS;
  }

  /* First tiny pivot of diagonal section k (1-based column), or 0. */
  axb_status pivots(int64_t k, int slot, int64_t *info) {
    cudaStream_t sm = streams[(size_t)slot];
    const int64_t m = rows(k);
    AXB_CU(h,
           cudaMemsetAsync(dpiv + slot, 0xff, sizeof(unsigned long long), sm));
    fp_pivot_kernel<T><<<blocks_for(m, 256), 256, 0, sm>>>(dZ, n, k * s, m,
                                                           tiny, dpiv + slot);
    AXB_CU(h, cudaGetLastError());
    AXB_CU(h,
           cudaMemcpyAsync(hpiv + slot, dpiv + slot, sizeof(unsigned long long),
                           cudaMemcpyDeviceToHost, sm));
    AXB_CU(h, cudaStreamSynchronize(sm));
    *info = hpiv[slot] == ~0ull ? 0 : (int64_t)hpiv[slot];
    return AXB_SUCCESS;
  }

  /* Candidates to start now: the pairs scheduler walks the document's
     phases (diagonal k; then pair (k, j), (j, k) for each j > k), one
     phase at a time; the DAG scheduler takes any section whose inputs have
     converged, diagonal sections and lower min(I, J) first. */
  void candidates(std::vector<std::pair<int64_t, int64_t>> &out) {
    out.clear();
    if (o->scheduler == AXB_FP_SCHED_PAIRS) {
      for (int64_t k = 0; k < ns; ++k) {
        if (at(k, k) != 2) {
          if (at(k, k) == 0) out.push_back({k, k});
          return;
        }
        for (int64_t j = k + 1; j < ns; ++j) {
          if (at(k, j) == 2 && at(j, k) == 2) continue;
          if (at(k, j) == 0) out.push_back({k, j});
          if (at(j, k) == 0) out.push_back({j, k});
          return;
        }
      }
      return;
    }
    for (int64_t d = 0; d < ns; ++d) {
      if (at(d, d) == 0 && inputs_ready(d, d)) out.push_back({d, d});
      for (int64_t j = d + 1; j < ns; ++j) {
        if (at(d, j) == 0 && inputs_ready(d, j)) out.push_back({d, j});
        if (at(j, d) == 0 && inputs_ready(j, d)) out.push_back({j, d});
      }
    }
  }

  void record(const Active &a, double change) {
    st->sweeps += a.sweeps;
    st->sections += 1;
    if (a.sweeps > st->max_section_sweeps) st->max_section_sweeps = a.sweeps;
    if (st->section_sweeps) st->section_sweeps[a.I * ns + a.J] = a.sweeps;
    st->last_change = change;
  }

  axb_status run(int64_t *info) {
    const int slots = (int)streams.size();
    std::vector<Active> active;
    std::vector<int> free_slots;
    for (int i = slots - 1; i >= 0; --i)
      free_slots.push_back(i);
    std::vector<std::pair<int64_t, int64_t>> cand;
    for (;;) {
      candidates(cand);
      for (auto &c : cand) {
        if (free_slots.empty()) break;
        Active a = {c.first, c.second, free_slots.back(), 0, 0};
        free_slots.pop_back();
        at(a.I, a.J) = 1;
        active.push_back(a);
      }
      if (active.empty()) return AXB_SUCCESS;
      /* Keep two sweeps of every section queued: the host reads the
         change of one while the GPU runs the next, so the per-sweep
         round trip is hidden.  A sweep queued after the converged one
         recomputes the same values (Z is a fixed point); it is waited for
         and not counted. */
      for (auto &a : active)
        while (a.launched < a.sweeps + 2 && a.launched < o->max_sweeps) {
          axb_status e = launch_sweep(a);
          if (e) return e;
        }
      std::vector<Active> still;
      for (auto &a : active) {
        const int w = 2 * a.slot + (int)(a.sweeps % 2);
        AXB_CU(h, cudaEventSynchronize(done[(size_t)w]));
        ++a.sweeps;
        const double change = bits_to_double(hchg[w]);
        if (change <= o->tol) {
          AXB_CU(h, cudaStreamSynchronize(streams[(size_t)a.slot]));
          record(a, change);
          at(a.I, a.J) = 2;
          free_slots.push_back(a.slot);
          if (a.I == a.J) {
            axb_status e = pivots(a.I, a.slot, info);
            if (e) return e;
            if (*info) {
              const int64_t c = *info - 1;
              T d = 0;
              AXB_CU(h, cudaMemcpy(&d, dZ + c + c * n, sizeof(T),
                                   cudaMemcpyDeviceToHost));
              return axb__fail(h, AXB_ERR_SMALL_PIVOT,
                               "getrf_fixedpoint: converged pivot %g in "
                               "column %lld is not above n*eps*max|A| = %g "
                               "(no pivoting)",
                               (double)d, (long long)*info, tiny);
            }
          }
        } else if (a.sweeps >= o->max_sweeps) {
          record(a, change);
          return axb__fail(h, AXB_ERR_NO_CONVERGENCE,
                           "getrf_fixedpoint: section (%lld,%lld) still "
                           "changed by %g after %lld sweeps (cap)",
                           (long long)a.I, (long long)a.J, change,
                           (long long)a.sweeps);
        } else {
          still.push_back(a);
        }
      }
      active.swap(still);
    }
  }

  static double bits_to_double(unsigned long long b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
  }
};

template <typename T>
axb_status host_getrf_fixedpoint(axb_handle h, int64_t n, T *A, int64_t lda,
                                 const axb_fixedpoint_opts *o,
                                 axb_fixedpoint_stats *st, int64_t *info) {
  *info = 0;
  Context *ctx = study_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  FixedPoint<T> fp;
  fp.h = h;
  fp.o = o;
  fp.st = st;
  fp.n = n;
  fp.s = o->section;
  fp.ns = (n + fp.s - 1) / fp.s;
  fp.tiny = (double)n * (sizeof(T) == 8 ? 0x1p-53 : 0x1p-24) *
            host_max_abs<T>(n, A, lda);
  fp.state.assign((size_t)(fp.ns * fp.ns), 0);
  const int slots = o->scheduler == AXB_FP_SCHED_PAIRS ? 2 : o->streams;
  const size_t nn = (size_t)n * (size_t)n, ss = (size_t)(fp.s * fp.s);
  DevBuf buf(h);
  axb_status rc =
      buf.alloc((2 * nn + (size_t)slots * ss) * sizeof(T) +
                3 * (size_t)slots * sizeof(unsigned long long) + 256);
  if (rc) return rc;
  fp.dA0 = (T *)buf.p;
  fp.dZ = fp.dA0 + nn;
  fp.dW = fp.dZ + nn;
  fp.dchg =
      (unsigned long long *)(((uintptr_t)(fp.dW + (size_t)slots * ss) + 255) &
                             ~(uintptr_t)255);
  fp.dpiv = fp.dchg + 2 * slots;
  PinBuf pin;
  AXB_CU(h, cudaMallocHost(&pin.p, 3 * (size_t)slots * sizeof(long long)));
  fp.hchg = (unsigned long long *)pin.p;
  fp.hpiv = fp.hchg + 2 * slots;
  if ((rc =
           copy_2d<T>(h, ctx, fp.dA0, n, A, lda, n, n, cudaMemcpyHostToDevice)))
    return rc;
  AXB_CU(h, cudaMemcpyAsync(fp.dZ, fp.dA0, nn * sizeof(T),
                            cudaMemcpyDeviceToDevice, stream(h)));
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  /* Streams of the sections in flight (destroyed on every path). */
  fp.streams.assign((size_t)slots, nullptr);
  fp.done.assign(2 * (size_t)slots, nullptr);
  for (int i = 0; i < slots && !rc; ++i)
    if (cudaStreamCreateWithFlags(&fp.streams[(size_t)i],
                                  cudaStreamNonBlocking) != cudaSuccess)
      rc = fail_cuda(h, cudaGetLastError(), "cudaStreamCreate");
  for (int i = 0; i < 2 * slots && !rc; ++i)
    if (cudaEventCreateWithFlags(&fp.done[(size_t)i], cudaEventDisableTiming) !=
        cudaSuccess)
      rc = fail_cuda(h, cudaGetLastError(), "cudaEventCreate");
  if (!rc) rc = fp.run(info);
  for (cudaStream_t sm : fp.streams)
    if (sm) {
      cudaStreamSynchronize(sm);
      cudaStreamDestroy(sm);
    }
  for (cudaEvent_t ev : fp.done)
    if (ev) cudaEventDestroy(ev);
  if (rc) return rc;
  return copy_2d<T>(h, ctx, A, lda, fp.dZ, n, n, n, cudaMemcpyDeviceToHost);
}

/* ======================================================================= */
/* Column-oriented Cholesky (SEEDS.md 3)                                   */
/* ======================================================================= */

/* The diagonal of column j: d = a_jj - sum_{k<j} l_jk^2 by one block
   (strided partial sums, tree in shared memory); l_jj = sqrt(d), or *info
   = j + 1 when d is not positive (NaN included). */
template <typename T>
__global__ void chol_diag_kernel(const T *A, int64_t lda, T *L, int64_t ldl,
                                 int64_t j, int64_t *info) {
  extern __shared__ __align__(16) unsigned char smem[];
  T *part = (T *)smem;
  if (*info) return;
  T acc = 0;
  for (int64_t k = threadIdx.x; k < j; k += blockDim.x) {
    const T v = L[j + k * ldl];
    acc += v * v;
  }
  block_sum(part, acc);
  if (threadIdx.x == 0) {
    const T d = A[j + j * lda] - part[0];
    if (d > T(0))
      L[j + j * ldl] = sqrt(d);
    else
      *info = j + 1;
  }
}

/* Off-diagonal of column j, one thread per row i > j (two-kernel form):
   l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj.  Consecutive threads read
   consecutive rows of each column k of L: coalesced. */
template <typename T>
__global__ void chol_offdiag_kernel(int64_t n, const T *A, int64_t lda, T *L,
                                    int64_t ldl, int64_t j,
                                    const int64_t *info) {
  if (*info) return;
  const int64_t i = j + 1 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T s = A[i + j * lda];
  for (int64_t k = 0; k < j; ++k)
    s -= L[i + k * ldl] * L[j + k * ldl];
  L[i + j * ldl] = s / L[j + j * ldl];
}

/* Single-kernel form: every thread of column j (rows i >= j) recomputes
   d = a_jj - sum_{k<j} l_jk^2 itself, then its own l_ij = s / sqrt(d); a
   non-positive d is recorded by row j's thread and nobody divides by it.
   The kernel writes only the strictly lower part of column j: in place
   (L == A) a write of l_jj would race with the other threads' reads of
   a_jj.  No later column reads a diagonal entry of L, so the diagonal is
   written once at the end by chol_single_diag_kernel, with the same
   arithmetic (hence the same bits). */
template <typename T>
__global__ void chol_single_kernel(int64_t n, const T *A, int64_t lda, T *L,
                                   int64_t ldl, int64_t j, int64_t *info) {
  if (*info) return;
  const int64_t i = j + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T d = A[j + j * lda], s = A[i + j * lda];
  for (int64_t k = 0; k < j; ++k) {
    const T ljk = L[j + k * ldl];
    d -= ljk * ljk;
    s -= L[i + k * ldl] * ljk;
  }
  if (!(d > T(0))) {
    if (i == j) *info = j + 1;
    return;
  }
  if (i > j) L[i + j * ldl] = s / sqrt(d);
}

/* l_jj = sqrt(a_jj - sum_{k<j} l_jk^2) for the columns the loop factored:
   all n, or the info - 1 before a non-positive pivot. */
template <typename T>
__global__ void chol_single_diag_kernel(int64_t n, const T *A, int64_t lda,
                                        T *L, int64_t ldl,
                                        const int64_t *info) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= (*info ? *info - 1 : n)) return;
  T d = A[j + j * lda];
  for (int64_t k = 0; k < j; ++k) {
    const T ljk = L[j + k * ldl];
    d -= ljk * ljk;
  }
  L[j + j * ldl] = sqrt(d);
}

/* dA's lower triangle := dL's (both ld n). */
template <typename T>
__global__ void chol_lower_copy_kernel(int64_t n, const T *L, T *A) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const int64_t i = t % n, j = t / n;
  if (i >= j) A[t] = L[t];
}

template <typename T>
axb_status potrf_columns_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,
                             T *dL, int64_t lddl, int kernels, int threads,
                             int64_t *dinfo) {
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, sizeof(int64_t), s));
  for (int64_t j = 0; j < n; ++j) {
    if (kernels == 1) {
      chol_single_kernel<T><<<blocks_for(n - j, threads), threads, 0, s>>>(
          n, dA, ldda, dL, lddl, j, dinfo);
    } else {
      chol_diag_kernel<T><<<1, threads, threads * sizeof(T), s>>>(
          dA, ldda, dL, lddl, j, dinfo);
      if (j + 1 < n)
        chol_offdiag_kernel<T>
            <<<blocks_for(n - j - 1, threads), threads, 0, s>>>(n, dA, ldda, dL,
                                                                lddl, j, dinfo);
    }
    AXB_CU(h, cudaGetLastError());
  }
  if (kernels == 1 && n > 0) {
    chol_single_diag_kernel<T><<<blocks_for(n, threads), threads, 0, s>>>(
        n, dA, ldda, dL, lddl, dinfo);
    AXB_CU(h, cudaGetLastError());
  }
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_potrf_columns(axb_handle h, int64_t n, T *A, int64_t lda,
                              const axb_potrf_columns_opts *o, int64_t *info) {
  *info = 0;
  Context *ctx = study_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  const size_t nn = (size_t)n * (size_t)n;
  const int out_of_place = !o->in_place;
  DevBuf buf(h);
  axb_status rc = buf.alloc((out_of_place ? 2 : 1) * nn * sizeof(T) + 256 +
                            sizeof(int64_t));
  if (rc) return rc;
  T *dA = (T *)buf.p;
  T *dL = out_of_place ? dA + nn : dA;
  int64_t *dinfo =
      (int64_t *)(((uintptr_t)(dA + (out_of_place ? 2 : 1) * nn) + 255) &
                  ~(uintptr_t)255);
  if ((rc = copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice)))
    return rc;
  if (out_of_place)
    AXB_CU(h, cudaMemsetAsync(dL, 0, nn * sizeof(T), stream(h)));
  if ((rc = potrf_columns_dev<T>(h, n, dA, n, dL, n, o->kernels, o->threads,
                                 dinfo)))
    return rc;
  AXB_CU(h, cudaMemcpyAsync(info, dinfo, sizeof(int64_t),
                            cudaMemcpyDeviceToHost, stream(h)));
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  /* Only the lower triangle is the result; dA's upper triangle is still
     the caller's (bit for bit), so one download of dA restores it. */
  if (out_of_place) {
    chol_lower_copy_kernel<T>
        <<<blocks_for((int64_t)nn, 256), 256, 0, stream(h)>>>(n, dL, dA);
    AXB_CU(h, cudaGetLastError());
  }
  if ((rc = copy_2d<T>(h, ctx, A, lda, dA, n, n, n, cudaMemcpyDeviceToHost)))
    return rc;
  return *info ? AXB_ERR_NOT_SPD : AXB_SUCCESS;
}

template <typename T>
axb_status host_potrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,
                            int64_t *info) {
  axb_potrf_columns_opts o;
  axb_potrf_columns_opts_default(&o);
  o.kernels = 2;
  o.in_place = 1;
  o.threads = 256;
  return host_potrf_columns<T>(h, n, A, lda, &o, info);
}

/* ======================================================================= */
/* Per-pivot Gauss-Jordan on [A | I] (SEEDS.md 4)                          */
/* ======================================================================= */

constexpr int kGjThreads = 256;

/* M := [A | I] row-major (ld 2n) from column-major A (ld lda). */
template <typename T>
__global__ void gj_build_kernel(int64_t n, const T *A, int64_t lda, T *M) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * n * n) return;
  const int64_t i = t / (2 * n), j = t % (2 * n);
  M[t] = j < n ? A[i + j * lda] : (j - n == i ? T(1) : T(0));
}

/* A := right half of M (column-major, ld lda). */
template <typename T>
__global__ void gj_extract_kernel(int64_t n, const T *M, T *A, int64_t lda) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  const int64_t i = t % n, j = t / n;
  A[i + j * lda] = M[i * 2 * n + n + j];
}

/* Pivot of column k over rows k..n-1, decided on the device: the largest
   |m_ik| (first on ties, NaN never wins); a zero column sets *info = k + 1
   (first one only) and the later kernels do nothing. */
template <typename T>
__global__ void __launch_bounds__(kGjThreads)
    gj_pivot_kernel(int64_t n, const T *M, int64_t k, int64_t *piv, T *pval,
                    int64_t *info) {
  __shared__ T sv[kGjThreads];
  __shared__ int64_t si[kGjThreads];
  if (*info) return;
  T best = -1;
  int64_t bi = n;
  for (int64_t i = k + threadIdx.x; i < n; i += blockDim.x) {
    const T v = absv(M[i * 2 * n + k]);
    if (v > best) {
      best = v;
      bi = i;
    }
  }
  block_best_tree(sv, si, best, bi);
  if (threadIdx.x == 0) {
    if (si[0] >= n || !(sv[0] > T(0))) {
      *info = k + 1;
    } else {
      *piv = si[0];
      *pval = M[si[0] * 2 * n + k];
    }
  }
}

/* Swap rows k and p (columns k..2n-1: to the left both rows hold zeros)
   and divide the new row k by the pivot value saved by gj_pivot_kernel. */
template <typename T>
__global__ void gj_normalise_kernel(int64_t n, T *M, int64_t k,
                                    const int64_t *piv, const T *pval,
                                    const int64_t *info) {
  if (*info) return;
  const int64_t j = k + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= 2 * n) return;
  const int64_t p = *piv;
  const T pv = *pval;
  const T a = M[p * 2 * n + j];
  if (p != k) M[p * 2 * n + j] = M[k * 2 * n + j];
  M[k * 2 * n + j] = a / pv;
}

/* Row i != k (one block per row, threads strided over the columns
   k+1..2n-1): m_ij -= m_ik m_kj.  Column k itself is left to the fix
   kernel, so m_ik stays readable for the whole block. */
template <typename T>
__global__ void __launch_bounds__(kGjThreads)
    gj_eliminate_kernel(int64_t n, T *M, int64_t k, const int64_t *info) {
  if (*info) return;
  const int64_t i = blockIdx.x;
  if (i == k) return;
  const T f = M[i * 2 * n + k];
  if (f == T(0)) return;
  const T *rk = M + k * 2 * n;
  T *ri = M + i * 2 * n;
  for (int64_t j = k + 1 + threadIdx.x; j < 2 * n; j += blockDim.x)
    ri[j] -= f * rk[j];
}

/* Column k := e_k. */
template <typename T>
__global__ void gj_fix_kernel(int64_t n, T *M, int64_t k, const int64_t *info) {
  if (*info) return;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) M[i * 2 * n + k] = i == k ? T(1) : T(0);
}

template <typename T>
axb_status getri_gj_dev(axb_handle h, int64_t n, T *dA, int64_t ldda, T *M,
                        int64_t *dpiv, T *dpval, int64_t *dinfo) {
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaMemsetAsync(dinfo, 0, sizeof(int64_t), s));
  gj_build_kernel<T><<<blocks_for(2 * n * n, 256), 256, 0, s>>>(n, dA, ldda, M);
  AXB_CU(h, cudaGetLastError());
  for (int64_t k = 0; k < n; ++k) {
    gj_pivot_kernel<T><<<1, kGjThreads, 0, s>>>(n, M, k, dpiv, dpval, dinfo);
    gj_normalise_kernel<T><<<blocks_for(2 * n - k, 256), 256, 0, s>>>(
        n, M, k, dpiv, dpval, dinfo);
    gj_eliminate_kernel<T><<<(unsigned)n, kGjThreads, 0, s>>>(n, M, k, dinfo);
    gj_fix_kernel<T><<<blocks_for(n, 256), 256, 0, s>>>(n, M, k, dinfo);
    AXB_CU(h, cudaGetLastError());
  }
  gj_extract_kernel<T><<<blocks_for(n * n, 256), 256, 0, s>>>(n, M, dA, ldda);
  AXB_CU(h, cudaGetLastError());
  return AXB_SUCCESS;
}

template <typename T>
axb_status host_getri_gj(axb_handle h, int64_t n, T *A, int64_t lda,
                         int64_t *info) {
  *info = 0;
  Context *ctx = study_context(h);
  if (!ctx) return AXB_ERR_INTERNAL;
  DeviceScope scope(h->device);
  const size_t nn = (size_t)n * (size_t)n;
  DevBuf buf(h);
  axb_status rc =
      buf.alloc(3 * nn * sizeof(T) + 512 + 2 * sizeof(int64_t) + sizeof(T));
  if (rc) return rc;
  T *dA = (T *)buf.p, *M = dA + nn;
  char *tail = (char *)(((uintptr_t)(M + 2 * nn) + 255) & ~(uintptr_t)255);
  int64_t *dinfo = (int64_t *)tail, *dpiv = dinfo + 1;
  T *dpval = (T *)(tail + 256);
  if ((rc = copy_2d<T>(h, ctx, dA, n, A, lda, n, n, cudaMemcpyHostToDevice)))
    return rc;
  if ((rc = getri_gj_dev<T>(h, n, dA, n, M, dpiv, dpval, dinfo))) return rc;
  AXB_CU(h, cudaMemcpyAsync(info, dinfo, sizeof(int64_t),
                            cudaMemcpyDeviceToHost, stream(h)));
  AXB_CU(h, cudaStreamSynchronize(stream(h)));
  if (*info) return AXB_ERR_SINGULAR; /* A is left as it was */
  return copy_2d<T>(h, ctx, A, lda, dA, n, n, n, cudaMemcpyDeviceToHost);
}

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
  Context *ctx = study_context(h);
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
  DevBuf buf(h);
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

template <typename T, typename Ops> void fill_study_typed(Ops *o) {
  o->getrf_fixedpoint = host_getrf_fixedpoint<T>;
  o->potrf_columns = host_potrf_columns<T>;
  o->potrf_crout = host_potrf_crout<T>;
  o->getri_gj = host_getri_gj<T>;
  o->getri_gj_unblocked = host_getri_gj<T>;
  o->gesv_rowcyclic = host_gesv_rowcyclic<T>;
  o->gesv_gauss = host_gesv_gauss<T>;
}

} // namespace

void fill_study_table(axb_backend_ops *ops) {
  fill_study_typed<double>(&ops->d);
  fill_study_typed<float>(&ops->s);
}

} // namespace axb_cuda
