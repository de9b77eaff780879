/*
 * The iterative (fixed-point) Crout LU of SEEDS.md 1 (getrf_fixedpoint).  A
 * host-array entry of the CUDA table that stages A through device memory; see
 * cuda_study.cu for the whole set.
 */
#include "cuda_study_internal.cuh"

namespace axb_cuda {

namespace {

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
  Context *ctx = need_context(h);
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
  Scratch buf(h);
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

} // namespace

void fill_study_fixedpoint(axb_backend_ops *ops) {
  ops->d.getrf_fixedpoint = host_getrf_fixedpoint<double>;
  ops->s.getrf_fixedpoint = host_getrf_fixedpoint<float>;
}

} // namespace axb_cuda
