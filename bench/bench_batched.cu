/*
 * bench_batched: axb's batched small-system API on device arrays against
 * cuBLAS (getrfBatched + getriBatched for the inverse, getrfBatched +
 * getrsBatched for the solve) and cuSOLVER (potrfBatched), same process,
 * same inputs, CUDA events, median of 10 after 2 warm-ups; plus the
 * device-to-device copy bandwidth and a user kernel calling the
 * device-callable functions of axb_device.cuh for the same inverse
 * (user/api: one thread per matrix staged through shared-memory tiles for
 * n <= 6, groups of lanes otherwise, as the API;
 * naive/api: one thread per matrix reading its strided matrix directly,
 * 0 where not run).
 *
 *     bench_batched [d|s] [-b BATCH] [-r R] [n ...]
 *         (default: d, n = 2 3 4 6 8 12 16 24 32 48 64; batch 100 000 for
 *         n <= 16 and 65 536 above, the sizes of issue 6's cuBLAS figures;
 *         -b sets one batch for every n, e.g. 1000000 for the tracker case
 *         of a million small matrices, where the launch matters less;
 *         -r R times R back-to-back calls per timing, every column alike
 *         (default 1: one call with its launch latency))
 *     bench_batched sweep [small]     (group shapes, see sweep() below;
 *                                      small: groups at n = 3..6)
 *     bench_batched floor [d|s]       (the per-thread inverse beside a
 *                                      same-bytes touch, see floor_one)
 *
 * Columns: GFLOP/s (inverse 2n^3, solve 2/3 n^3 + 2 n^2, Cholesky n^3/3 per
 * matrix), speed-up over the vendor, and achieved bandwidth (each matrix
 * read and written once, B too) as a fraction of the copy bandwidth.
 * "ceil" is the vendor's time over a same-bytes touch (touch_kernel: one
 * launch that reads and writes A, and B for the solve, once, after the
 * same reset): about the largest speed-up one call that moves those
 * bytes can show (an estimate, not a bound: touch_kernel is a plain
 * element-wise kernel; the driver's copy, see floor, measured 2-4 %
 * faster at n = 4 and slower at 2, 3, 6).
 * "tch/axb" is the touch's time over ours (1 = as fast as touching the
 * bytes).
 */
#include "axb.h"
#include "axb_device.cuh"
#include "bench_check.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

static cudaStream_t g_stream;
static cudaEvent_t g_e0, g_e1;
/* Calls of body() between the events of one timing (-r): 1 times one call
   with its launch latency; more time back-to-back calls, as a program
   that queues many batches sees them (the launches overlap the work).
   The inputs are reset before the first call only, so each later call
   works on the previous one's output in place: the inverse inverts back,
   the LU solves factor their own factors again (nonsingular; the values
   grow); the Cholesky columns are left out (0), since repeated in-place
   factorizations stop being positive definite and end early. */
static int g_calls = 1;

/* Median of reps timings (ms) of body() (per call), prep() untimed before
   each; AXB_BENCH_ONCE=1 runs each body once, unwarmed (for a profiler). */
template <typename Prep, typename Body>
static double time_ms(Prep prep, Body body, int warm = 2, int reps = 10) {
  const char *once = getenv("AXB_BENCH_ONCE");
  if (once && *once == '1') warm = 0, reps = 1;
  std::vector<float> t;
  for (int r = 0; r < warm + reps; ++r) {
    prep();
    const float ms = bench_event_ms(g_stream, g_e0, g_e1, g_calls, body);
    if (r >= warm) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/* Uniform(-1, 1) from a hash of (matrix, i, j); spd: symmetric + n I. */
template <typename T>
__global__ void fill_kernel(T *A, int n, long long count, int spd) {
  const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count * n * n) return;
  const long long m = e / ((long long)n * n);
  int i = (int)(e % n), j = (int)((e / n) % n);
  if (spd && i < j) {
    const int t = i;
    i = j;
    j = t;
  }
  unsigned long long x =
      (unsigned long long)(m * 4099 + i * 64 + j) * 0x9E3779B97F4A7C15ULL +
      0x632BE59BD9B4E019ULL;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 29;
  double v = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
  if (spd && i == j) v += n;
  A[e] = (T)v;
}

/* One size's inputs on the device: c matrices of order n, uniform (A0) and
   symmetric positive definite (S0), right-hand sides B0, and the working
   copies A, B and info that each timed repetition starts from again. */
template <typename T> struct Inputs {
  int n;
  long long c;
  size_t bytesA, bytesB;
  T *A0, *S0, *A, *B0, *B;
  int *info;
  Inputs(int n_, long long c_)
      : n(n_), c(c_), bytesA((size_t)c_ * n_ * n_ * sizeof(T)),
        bytesB((size_t)c_ * n_ * sizeof(T)) {
    CU(cudaMalloc(&A0, bytesA));
    CU(cudaMalloc(&S0, bytesA));
    CU(cudaMalloc(&A, bytesA));
    CU(cudaMalloc(&B0, bytesB));
    CU(cudaMalloc(&B, bytesB));
    CU(cudaMalloc(&info, c * sizeof(int)));
    const unsigned fb = (unsigned)((c * n * n + 255) / 256);
    fill_kernel<T><<<fb, 256, 0, g_stream>>>(A0, n, c, 0);
    fill_kernel<T><<<fb, 256, 0, g_stream>>>(S0, n, c, 1);
    fill_kernel<T><<<(unsigned)((c * n + 255) / 256), 256, 0, g_stream>>>(
        B0, 1, c * n, 0);
    CU(cudaGetLastError());
  }
  ~Inputs() {
    CU(cudaFree(A0));
    CU(cudaFree(S0));
    CU(cudaFree(A));
    CU(cudaFree(B0));
    CU(cudaFree(B));
    CU(cudaFree(info));
  }
  void resetA() const {
    CU(cudaMemcpyAsync(A, A0, bytesA, cudaMemcpyDeviceToDevice, g_stream));
  }
  void resetAB() const {
    resetA();
    CU(cudaMemcpyAsync(B, B0, bytesB, cudaMemcpyDeviceToDevice, g_stream));
  }
  void resetS() const {
    CU(cudaMemcpyAsync(A, S0, bytesA, cudaMemcpyDeviceToDevice, g_stream));
  }
};

/* The user kernels, as a user would write them with axb_device.cuh: one
   thread per matrix (thread_inverse<N>, N the exact order) with the block's
   matrices staged through shared memory by the tile helpers, or a group of
   NMAX lanes per matrix.  user_naive_inverse is the per-thread version that
   reads its strided matrix straight from global memory (for comparison). */
template <int N> __host__ __device__ constexpr int user_mats() {
  return N <= 8 ? 64 : 32;
}
template <int N, typename T, bool ARITH = true>
__global__ void __launch_bounds__(user_mats<N>())
    user_thread_inverse(T *A, long long count, int *info) {
  constexpr int M = user_mats<N>();
  __shared__ T S[M * axb_dev::tile_ld<N, N>()];
  const long long m0 = (long long)blockIdx.x * M;
  const int cnt = count - m0 < M ? (int)(count - m0) : M;
  T *G = A + m0 * N * N;
  axb_dev::tile_load<N, N>(S, G, N, N * N, cnt);
  __syncthreads();
  const int t = threadIdx.x;
  if (t < cnt) {
    T a[N * N];
    axb_dev::tile_get<N, N>(S, t, a);
    const int st = ARITH ? axb_dev::thread_inverse<N>(N, a) : 0;
    if (!st) axb_dev::tile_put<N, N>(S, t, a);
    info[m0 + t] = st;
  }
  __syncthreads();
  axb_dev::tile_store<N, N>(G, N, N * N, S, cnt);
}
template <int N, typename T>
__global__ void user_naive_inverse(T *A, long long count, int *info) {
  const long long m = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= count) return;
  T a[N * N];
  const T *src = A + m * N * N;
#pragma unroll
  for (int e = 0; e < N * N; ++e)
    a[e] = src[e];
  info[m] = axb_dev::thread_inverse<N>(N, a);
  T *dst = A + m * N * N;
#pragma unroll
  for (int e = 0; e < N * N; ++e)
    dst[e] = a[e];
}
/* G lanes per matrix (NMAX / G rows each) through a shared-memory slot per
   group, as the batched API does. */
template <int NMAX, int G, typename T>
__global__ void __launch_bounds__(128)
    user_group_inverse(T *A, int n, long long count, int *info) {
  using Grp = axb_dev::WarpShared<G, T, NMAX>;
  __shared__ __align__(16) T slots[128 / G][Grp::kWords];
  Grp g(slots[threadIdx.x / G]);
  const long long m = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / G;
  if (m >= count) return;
  const int st = axb_dev::group_inverse<NMAX>(g, n, A + m * n * n, n);
  if (g.lane == 0) info[m] = st;
}
template <typename T>
__global__ void user_block_inverse(T *A, int n, long long count, int *info) {
  __shared__ axb_dev::BlockWork<T, 64> w;
  axb_dev::Block<2, T, 64> g(&w);
  const long long m = blockIdx.x;
  if (m >= count) return;
  const int st = axb_dev::group_inverse<64>(g, n, A + m * n * n, n);
  if (g.lane == 0) info[m] = st;
}

template <int N, typename T>
static void launch_thread(T *A, long long count, int *info, bool naive) {
  if (naive) {
    user_naive_inverse<N, T>
        <<<(unsigned)((count + 127) / 128), 128, 0, g_stream>>>(A, count, info);
  } else {
    constexpr int M = user_mats<N>();
    user_thread_inverse<N, T>
        <<<(unsigned)((count + M - 1) / M), M, 0, g_stream>>>(A, count, info);
  }
}

/* The per-thread user kernel's tile traffic alone (no arithmetic). */
template <int N, typename T>
static void launch_tile_only(T *A, long long count, int *info) {
  constexpr int M = user_mats<N>();
  user_thread_inverse<N, T, false>
      <<<(unsigned)((count + M - 1) / M), M, 0, g_stream>>>(A, count, info);
}

/* user_group_inverse on groups of G lanes, 128 threads a block. */
template <int NMAX, int G, typename T>
static void launch_group(T *A, int n, long long count, int *info) {
  const unsigned grid = (unsigned)((count * G + 127) / 128);
  user_group_inverse<NMAX, G, T><<<grid, 128, 0, g_stream>>>(A, n, count, info);
}

/* Per thread at n = 2..6 (the API: n <= 6); groups above, as the API.
   Returns false when there is no per-thread kernel for n (naive). */
template <typename T>
static bool launch_user(int n, T *A, long long count, int *info, bool naive) {
  switch (n) {
  case 2: launch_thread<2>(A, count, info, naive); return true;
  case 3: launch_thread<3>(A, count, info, naive); return true;
  case 4: launch_thread<4>(A, count, info, naive); return true;
  case 5: launch_thread<5>(A, count, info, naive); return true;
  case 6: launch_thread<6>(A, count, info, naive); return true;
  case 8: /* per thread only as the naive comparison: the API (and so the
             user, like for like) runs n = 7, 8 on groups of 8 lanes */
    if (naive) {
      launch_thread<8>(A, count, info, true);
      return true;
    }
    break;
  default: break;
  }
  if (naive) return false;
  switch (n) { /* the API's exact classes of the inverse (InStepExact in
                  batched.cu) */
  case 7: launch_group<7, 8>(A, n, count, info); return true;
  case 9: launch_group<9, 16>(A, n, count, info); return true;
  case 10: launch_group<10, 16>(A, n, count, info); return true;
  case 11: launch_group<11, 16>(A, n, count, info); return true;
  case 13: launch_group<13, 16>(A, n, count, info); return true;
  case 14: launch_group<14, 16>(A, n, count, info); return true;
  case 15: launch_group<15, 16>(A, n, count, info); return true;
  default: break;
  }
  if (n <= 8) /* the API's size classes, as a user would choose */
    launch_group<8, 8>(A, n, count, info);
  else if (n <= 12)
    launch_group<12, 16>(A, n, count, info);
  else if (n <= 16)
    launch_group<16, 16>(A, n, count, info);
  else if (n <= 24)
    launch_group<24, 8>(A, n, count, info);
  else if (n <= 32)
    launch_group<32, 32>(A, n, count, info);
  else
    user_block_inverse<T>
        <<<(unsigned)count, 64, 0, g_stream>>>(A, n, count, info);
  return true;
}

/* ---- precision dispatch of the vendor calls --------------------------------
 */

static cublasStatus_t getrfB(cublasHandle_t b, int n, double **A, int lda,
                             int *p, int *info, int cnt) {
  return cublasDgetrfBatched(b, n, A, lda, p, info, cnt);
}
static cublasStatus_t getrfB(cublasHandle_t b, int n, float **A, int lda,
                             int *p, int *info, int cnt) {
  return cublasSgetrfBatched(b, n, A, lda, p, info, cnt);
}
static cublasStatus_t getriB(cublasHandle_t b, int n, double **A, int lda,
                             int *p, double **C, int ldc, int *info, int cnt) {
  return cublasDgetriBatched(b, n, A, lda, p, C, ldc, info, cnt);
}
static cublasStatus_t getriB(cublasHandle_t b, int n, float **A, int lda,
                             int *p, float **C, int ldc, int *info, int cnt) {
  return cublasSgetriBatched(b, n, A, lda, p, C, ldc, info, cnt);
}
static cublasStatus_t getrsB(cublasHandle_t b, int n, double **A, int lda,
                             int *p, double **B, int ldb, int *info, int cnt) {
  return cublasDgetrsBatched(b, CUBLAS_OP_N, n, 1, A, lda, p, B, ldb, info,
                             cnt);
}
static cublasStatus_t getrsB(cublasHandle_t b, int n, float **A, int lda,
                             int *p, float **B, int ldb, int *info, int cnt) {
  return cublasSgetrsBatched(b, CUBLAS_OP_N, n, 1, A, lda, p, B, ldb, info,
                             cnt);
}
static cusolverStatus_t potrfB(cusolverDnHandle_t s, int n, double **A, int lda,
                               int *info, int cnt) {
  return cusolverDnDpotrfBatched(s, CUBLAS_FILL_MODE_LOWER, n, A, lda, info,
                                 cnt);
}
static cusolverStatus_t potrfB(cusolverDnHandle_t s, int n, float **A, int lda,
                               int *info, int cnt) {
  return cusolverDnSpotrfBatched(s, CUBLAS_FILL_MODE_LOWER, n, A, lda, info,
                                 cnt);
}

static axb_status ours_inverse(axb_handle h, int n, double *A, int *info,
                               long long c) {
  return axb_dinverse_batched(h, n, A, n, (int64_t)n * n, info, c);
}
static axb_status ours_inverse(axb_handle h, int n, float *A, int *info,
                               long long c) {
  return axb_sinverse_batched(h, n, A, n, (int64_t)n * n, info, c);
}
static axb_status ours_gesv(axb_handle h, int n, double *A, double *B,
                            int *info, long long c) {
  return axb_dgesv_batched(h, n, 1, A, n, (int64_t)n * n, NULL, 0, B, n, n,
                           info, c);
}
static axb_status ours_gesv(axb_handle h, int n, float *A, float *B, int *info,
                            long long c) {
  return axb_sgesv_batched(h, n, 1, A, n, (int64_t)n * n, NULL, 0, B, n, n,
                           info, c);
}
static axb_status ours_potrf(axb_handle h, int n, double *A, int *info,
                             long long c) {
  return axb_dpotrf_batched(h, AXB_LOWER, n, A, n, (int64_t)n * n, info, c);
}
static axb_status ours_potrf(axb_handle h, int n, float *A, int *info,
                             long long c) {
  return axb_spotrf_batched(h, AXB_LOWER, n, A, n, (int64_t)n * n, info, c);
}

/* The floor under any timed call: a launch and the event pair around it. */
__global__ void empty_kernel() {}

/* The floor under any one call that reads and writes the same bytes once,
   with the same inputs in the same place (after the same reset, so as much
   of them in L2 as for the kernels compared): x <- s x over the na
   elements of a then the nb of b (s = 1, unknown to the compiler, so the
   stores stay), info[0..ni) <- 0, in one launch; each thread issues its K
   coalesced loads before any store. */
template <typename T>
__global__ void __launch_bounds__(256)
    touch_kernel(T *a, long long na, T *b, long long nb, int *info,
                 long long ni, T s) {
  constexpr int K = 32 / sizeof(T);
  const long long step = (long long)blockDim.x;
  const long long e0 = (long long)blockIdx.x * step * K + threadIdx.x;
  T v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const long long e = e0 + k * step;
    if (e < na + nb) v[k] = e < na ? a[e] : b[e - na];
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const long long e = e0 + k * step;
    if (e < na)
      a[e] = s * v[k];
    else if (e < na + nb)
      b[e - na] = s * v[k];
  }
  for (long long i = (long long)blockIdx.x * step + threadIdx.x; i < ni;
       i += (long long)gridDim.x * step)
    info[i] = 0;
}
template <typename T>
static void touch(T *a, long long na, T *b, long long nb, int *info,
                  long long ni) {
  constexpr long long per_block = 256 * (32 / sizeof(T));
  const unsigned grid = (unsigned)((na + nb + per_block - 1) / per_block);
  touch_kernel<T><<<grid, 256, 0, g_stream>>>(a, na, b, nb, info, ni, T(1));
  CU(cudaGetLastError());
}

__global__ void pointers_kernel(void **p, char *base, size_t bytes,
                                long long c) {
  const long long m = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (m < c) p[m] = base + m * bytes;
}

/* cuBLAS's side of one size's inputs: pointer arrays to A, to C (getri
   writes the inverse out of place) and to B, and the pivots. */
template <typename T> struct Vendor {
  int n;
  long long c;
  T *C;
  int *piv;
  void **pa, **pc, **pb;
  explicit Vendor(const Inputs<T> &in) : n(in.n), c(in.c) {
    CU(cudaMalloc(&C, in.bytesA));
    CU(cudaMalloc(&piv, c * n * sizeof(int)));
    CU(cudaMalloc(&pa, c * sizeof(void *)));
    CU(cudaMalloc(&pc, c * sizeof(void *)));
    CU(cudaMalloc(&pb, c * sizeof(void *)));
    const unsigned g = (unsigned)((c + 255) / 256);
    const size_t mat = (size_t)n * n * sizeof(T);
    pointers_kernel<<<g, 256, 0, g_stream>>>(pa, (char *)in.A, mat, c);
    pointers_kernel<<<g, 256, 0, g_stream>>>(pc, (char *)C, mat, c);
    pointers_kernel<<<g, 256, 0, g_stream>>>(pb, (char *)in.B, n * sizeof(T),
                                             c);
    CU(cudaGetLastError());
  }
  ~Vendor() {
    CU(cudaFree(C));
    CU(cudaFree(piv));
    CU(cudaFree(pa));
    CU(cudaFree(pc));
    CU(cudaFree(pb));
  }
  /* getrfBatched + getriBatched on A (into C) */
  void inverse(cublasHandle_t blas, int *info) const {
    OK(getrfB(blas, n, (T **)pa, n, piv, info, (int)c));
    OK(getriB(blas, n, (T **)pa, n, piv, (T **)pc, n, info, (int)c));
  }
  /* getrfBatched + getrsBatched on A and B */
  void solve(cublasHandle_t blas, int *info) const {
    int hinfo = 0;
    OK(getrfB(blas, n, (T **)pa, n, piv, info, (int)c));
    OK(getrsB(blas, n, (T **)pa, n, piv, (T **)pb, n, &hinfo, (int)c));
  }
};

template <typename T> static int run(axb_handle h, int argc, char **argv) {
  std::vector<int> ns = {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
  long long batch = 0; /* 0: by n */
  while (argc > 1 && (!strcmp(argv[0], "-b") || !strcmp(argv[0], "-r"))) {
    const bool calls = argv[0][1] == 'r';
    const long long v = atoll(argv[1]);
    if (v <= 0 || (calls && v > 1000)) {
      fprintf(stderr, "bench_batched: %s needs a positive count%s\n", argv[0],
              calls ? " up to 1000" : "");
      return 2;
    }
    if (calls)
      g_calls = (int)v;
    else
      batch = v;
    argc -= 2;
    argv += 2;
  }
  if (argc > 0) {
    ns.clear();
    for (int i = 0; i < argc; ++i)
      ns.push_back(atoi(argv[i]));
  }
  cublasHandle_t blas;
  cusolverDnHandle_t sol;
  OK(cublasCreate(&blas));
  OK(cusolverDnCreate(&sol));
  OK(cublasSetStream(blas, g_stream));
  OK(cusolverDnSetStream(sol, g_stream));
  /* copy bandwidth: 1 GiB device to device, read + write counted */
  double copy_gbs;
  {
    const size_t bytes = (size_t)1 << 30;
    void *a, *b;
    CU(cudaMalloc(&a, bytes));
    CU(cudaMalloc(&b, bytes));
    CU(cudaMemset(a, 1, bytes));
    const double ms = time_ms(
        [] {},
        [&] {
          CU(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, g_stream));
        });
    copy_gbs = 2.0 * bytes / (ms * 1e6);
    CU(cudaFree(a));
    CU(cudaFree(b));
  }
  const double floor_us =
      1e3 * time_ms([] {}, [] { empty_kernel<<<1, 32, 0, g_stream>>>(); });
  const char *tn = sizeof(T) == 8 ? "double" : "float";
  printf("# bench_batched %s; device-to-device copy: %.0f GB/s (read+write); "
         "empty kernel between events: %.2f us (per call); %d call%s per "
         "timing\n",
         tn, copy_gbs, floor_us, g_calls, g_calls > 1 ? "s back to back" : "");
  printf("#  n   batch | inverse: axb GF/s  cuBLAS GF/s  ratio  BW%%copy  "
         "ceil  tch/axb  user/api naive/api | solve: axb GF/s  cuBLAS GF/s  "
         "ratio  BW%%copy  ceil  tch/axb | cholesky: axb GF/s  cuSOLVER GF/s  "
         "ratio\n");
  for (int n : ns) {
    const long long c = batch ? batch : n <= 16 ? 100000 : 65536;
    const size_t mat = (size_t)n * n;
    Inputs<T> in(n, c);
    const Vendor<T> v(in);
    T *A = in.A, *B = in.B;
    int *info = in.info;
    auto resetA = [&] { in.resetA(); };
    auto resetAB = [&] { in.resetAB(); };
    auto resetS = [&] { in.resetS(); };
    const double t_inv =
        time_ms(resetA, [&] { OK(ours_inverse(h, n, A, info, c)); });
    const double t_user = time_ms(resetA, [&] {
      launch_user<T>(n, A, c, info, false);
      CU(cudaGetLastError());
    });
    bool has_naive = true;
    const double t_naive = time_ms(resetA, [&] {
      has_naive = launch_user<T>(n, A, c, info, true);
      CU(cudaGetLastError());
    });
    const double t_vinv = time_ms(resetA, [&] { v.inverse(blas, info); });
    const double t_tinv = time_ms(
        resetA, [&] { touch<T>(A, (long long)mat * c, B, 0, info, c); });
    const double t_sv =
        time_ms(resetAB, [&] { OK(ours_gesv(h, n, A, B, info, c)); });
    const double t_vsv = time_ms(resetAB, [&] { v.solve(blas, info); });
    const double t_tsv = time_ms(resetAB, [&] {
      touch<T>(A, (long long)mat * c, B, (long long)n * c, info, c);
    });
    const bool chol = g_calls == 1;
    const double t_ch =
        chol ? time_ms(resetS, [&] { OK(ours_potrf(h, n, A, info, c)); }) : 0;
    const double t_vch =
        chol ? time_ms(resetS,
                       [&] { OK(potrfB(sol, n, (T **)v.pa, n, info, (int)c)); })
             : 0;
    const double fi = 2.0 * n * n * n * c,
                 fs = (2.0 / 3 * n * n * n + 2.0 * n * n) * c,
                 fc = (1.0 / 3 * n * n * n) * c;
    const double bi = 2.0 * in.bytesA + c * 4.0,
                 bs = 2.0 * (in.bytesA + in.bytesB) + c * 4.0;
    auto gf = [](double f, double ms) { return ms > 0 ? f / (ms * 1e6) : 0; };
    printf("%4d %7lld | %17.1f %12.1f %6.2f %7.0f%% %5.2f %8.2f %9.2f %9.2f | "
           "%15.1f %12.1f %6.2f %7.0f%% %5.2f %8.2f | %18.1f %14.1f %6.2f\n",
           n, c, gf(fi, t_inv), gf(fi, t_vinv), t_vinv / t_inv,
           100 * bi / (t_inv * 1e6) / copy_gbs, t_vinv / t_tinv, t_tinv / t_inv,
           t_user / t_inv, has_naive ? t_naive / t_inv : 0.0, gf(fs, t_sv),
           gf(fs, t_vsv), t_vsv / t_sv, 100 * bs / (t_sv * 1e6) / copy_gbs,
           t_vsv / t_tsv, t_tsv / t_sv, gf(fc, t_ch), gf(fc, t_vch),
           chol ? t_vch / t_ch : 0.0);
    fflush(stdout);
  }
  cublasDestroy(blas);
  cusolverDnDestroy(sol);
  return 0;
}

/* ---- floor: where the one-thread-per-matrix inverse's time goes ----------
 * bench_batched floor [d|s]: at n = 2, 3, 4, 6 and batch 100 000, and n = 4
 * at 1 000 000 (one call per timing), the microseconds of an empty kernel,
 * the same-bytes touch, the driver's device-to-device copy of A (out of
 * place, as getri writes), the per-thread user kernel's tiles without
 * arithmetic, the user kernel, the API's inverse and cuBLAS getrf + getri. */
template <int N, typename T>
static void floor_one(axb_handle h, cublasHandle_t blas, long long c) {
  Inputs<T> in(N, c);
  const Vendor<T> v(in);
  auto rA = [&] { in.resetA(); };
  const double us = 1e3;
  const double te =
      us * time_ms(rA, [] { empty_kernel<<<1, 32, 0, g_stream>>>(); });
  const double tt = us * time_ms(rA, [&] {
                      touch<T>(in.A, (long long)N * N * c, in.B, 0, in.info, c);
                    });
  const double tm = us * time_ms(rA, [&] {
                      CU(cudaMemcpyAsync(v.C, in.A, in.bytesA,
                                         cudaMemcpyDeviceToDevice, g_stream));
                    });
  const double tl =
      us * time_ms(rA, [&] { launch_tile_only<N, T>(in.A, c, in.info); });
  const double tu =
      us * time_ms(rA, [&] { launch_thread<N, T>(in.A, c, in.info, false); });
  const double ta =
      us * time_ms(rA, [&] { OK(ours_inverse(h, N, in.A, in.info, c)); });
  const double tv = us * time_ms(rA, [&] { v.inverse(blas, in.info); });
  CU(cudaGetLastError());
  printf("floor n %d batch %lld: empty %6.2f  touch %6.2f  memcpy %6.2f  "
         "tiles only %6.2f  user %6.2f  api %6.2f  cuBLAS %7.2f us  "
         "(cuBLAS/touch %.2f, cuBLAS/memcpy %.2f, cuBLAS/api %.2f)\n",
         N, c, te, tt, tm, tl, tu, ta, tv, tv / tt, tv / tm, tv / ta);
  fflush(stdout);
}
template <typename T> static int floor_run(axb_handle h) {
  cublasHandle_t blas;
  OK(cublasCreate(&blas));
  OK(cublasSetStream(blas, g_stream));
  printf("# floor (%s): one call per timing, median of 10, microseconds\n",
         sizeof(T) == 8 ? "double" : "float");
  floor_one<2, T>(h, blas, 100000);
  floor_one<3, T>(h, blas, 100000);
  floor_one<4, T>(h, blas, 100000);
  floor_one<6, T>(h, blas, 100000);
  floor_one<4, T>(h, blas, 1000000);
  cublasDestroy(blas);
  return 0;
}

/* ---- sweep: group shapes of the cooperative functions ---------------------
 * bench_batched sweep: times group_inverse, group_gesv1 (one right-hand
 * side, carried) and group_gesv with one right-hand side (two-pass, the
 * API's solve before the fifth round) through a shared-memory slot
 * (WarpShared; the first two with whole warps in step) and group_potrf
 * by shuffles (Warp), as the batched API runs them, in double at n = 7, 8, 12,
 * 16, 24, 32, for groups of G lanes (NMAX / G rows per lane): the tuning behind
 * GroupLanes in src/backend/cuda/batched.cu. */
template <int OP, int NMAX, int G, int MINB, typename T>
__global__ void __launch_bounds__(128, MINB)
    sweep_kernel(T *A, T *B, int n, long long count, int *info) {
  const long long m = ((long long)blockIdx.x * 128 + threadIdx.x) / G;
  /* the inverse and the one-rhs solve run whole warps in step, as the
     API's kernels do (groups past the end inactive) */
  constexpr bool full = OP == 0 || OP == 1;
  const bool act = m < count;
  if (!full && !act) return;
  T *a = A + m * n * n, *b = B + m * n;
  int st = 0;
  if constexpr (OP == 2) {
    axb_dev::Warp<G> g;
    st = axb_dev::group_potrf<NMAX>(g, n, false, a, n);
    if (g.lane == 0) info[m] = st;
  } else {
    using WS = axb_dev::WarpShared<G, T, NMAX, full>;
    __shared__ __align__(16) T slots[128 / G][WS::kWords];
    WS g(slots[threadIdx.x / G]);
    if constexpr (OP == 0)
      st = axb_dev::group_inverse<NMAX>(g, n, a, n, act);
    else if constexpr (OP == 1)
      st = axb_dev::group_gesv1<NMAX>(g, n, a, n, nullptr, b, act);
    else
      st = axb_dev::group_gesv<NMAX, 1>(g, n, 1, a, n, nullptr, b, n);
    if (g.lane == 0 && act) info[m] = st;
  }
}

/* MINB > 0: at least MINB blocks of 128 threads per SM (ptxas caps the
   registers to fit; 0 = the plain __launch_bounds__(128) of the API's
   kernels).  MINB = 1 is not "no bound": it lets ptxas take more
   registers (run B of the seventh round: the solve at n = 16 on 98
   instead of 72, 155 -> 207 us). */
template <int NMAX, int G, int MINB = 0>
static void sweep_one(const Inputs<double> &in) {
  const int n = in.n;
  const long long c = in.c;
  const unsigned grid = (unsigned)((c * G + 127) / 128);
  auto rA = [&] { in.resetAB(); };
  auto rS = [&] { in.resetS(); };
  const double ti = time_ms(rA, [&] {
    sweep_kernel<0, NMAX, G, MINB, double>
        <<<grid, 128, 0, g_stream>>>(in.A, in.B, n, c, in.info);
  });
  const double ts = time_ms(rA, [&] {
    sweep_kernel<1, NMAX, G, MINB, double>
        <<<grid, 128, 0, g_stream>>>(in.A, in.B, n, c, in.info);
  });
  const double t2 = time_ms(rA, [&] {
    sweep_kernel<3, NMAX, G, MINB, double>
        <<<grid, 128, 0, g_stream>>>(in.A, in.B, n, c, in.info);
  });
  const double tc = time_ms(rS, [&] {
    sweep_kernel<2, NMAX, G, MINB, double>
        <<<grid, 128, 0, g_stream>>>(in.A, in.B, n, c, in.info);
  });
  CU(cudaGetLastError());
  printf("sweep n %2d NMAX %2d G %2d (%d rows/lane) minb %d  inverse %8.1f us  "
         "gesv %8.1f us  gesv two-pass %8.1f us  potrf %8.1f us\n",
         n, NMAX, G, (NMAX + G - 1) / G, MINB, ti * 1e3, ts * 1e3, t2 * 1e3,
         tc * 1e3);
  fflush(stdout);
}

/* sweep small: groups at the per-thread orders n = 3..6 (the API runs
   them one matrix per thread; compare with `bench_batched d 3 4 5 6`). */
static int sweep_small() {
  printf("# sweep small (double): groups at n = 3..6, kernel times\n");
  for (int n : {3, 4, 5, 6}) {
    const Inputs<double> in(n, 100000);
    if (n <= 4) {
      sweep_one<4, 4>(in);
      sweep_one<4, 8>(in);
    } else {
      sweep_one<6, 8>(in);
      sweep_one<8, 8>(in);
    }
  }
  return 0;
}

static int sweep() {
  printf("# sweep (double): group shapes, kernel times (median of 10)\n");
  for (int n : {7, 8, 12, 16, 24, 32}) {
    const Inputs<double> in(n, n <= 16 ? 100000 : 65536);
    if (n <= 8) {
      sweep_one<8, 8>(in);
      sweep_one<8, 4>(in);
      sweep_one<8, 2>(in);
    } else if (n <= 16) {
      sweep_one<16, 16>(in);
      if (n == 16) {
        sweep_one<16, 16, 8>(in);
        sweep_one<16, 16, 9>(in);
      }
      sweep_one<16, 8>(in);
      sweep_one<16, 8, 4>(in);
      sweep_one<16, 4>(in);
      if (n <= 12) { /* a size class of 12: no idle lanes at R = 3 */
        sweep_one<12, 16>(in);
        sweep_one<12, 16, 9>(in);
        sweep_one<12, 16, 10>(in);
        sweep_one<12, 4>(in);
        sweep_one<12, 4, 4>(in);
      }
    } else {
      sweep_one<32, 32>(in);
      if (n == 32) sweep_one<32, 32, 6>(in);
      sweep_one<32, 16>(in);
      if (n <= 24) { /* a size class of 24 */
        sweep_one<24, 32>(in);
        sweep_one<24, 32, 6>(in);
        sweep_one<24, 8>(in);
        sweep_one<24, 8, 4>(in);
      }
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int count = 0;
  if (axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    printf("bench_batched: no GPU\n");
    return 77;
  }
  axb_handle h;
  OK(axb_handle_create(&h, AXB_BACKEND_CUDA, 0));
  g_stream = (cudaStream_t)axb_get_stream(h);
  CU(cudaEventCreate(&g_e0));
  CU(cudaEventCreate(&g_e1));
  char name[256] = "";
  size_t mem = 0;
  axb_cuda_device_info(0, name, sizeof name, &mem);
  int rt = 0;
  cudaRuntimeGetVersion(&rt);
  printf("# %s, CUDA runtime %d.%d\n", name, rt / 1000, (rt % 1000) / 10);
  if (argc > 1 && !strcmp(argv[1], "sweep")) {
    const int r =
        argc > 2 && !strcmp(argv[2], "small") ? sweep_small() : sweep();
    axb_handle_destroy(h);
    return r;
  }
  if (argc > 1 && !strcmp(argv[1], "floor")) {
    const bool sp = argc > 2 && !strcmp(argv[2], "s");
    const int r = sp ? floor_run<float>(h) : floor_run<double>(h);
    axb_handle_destroy(h);
    return r;
  }
  const bool single = argc > 1 && !strcmp(argv[1], "s");
  const bool named =
      argc > 1 && (!strcmp(argv[1], "s") || !strcmp(argv[1], "d"));
  const int r = single ? run<float>(h, argc - 1 - named, argv + 1 + named)
                       : run<double>(h, argc - 1 - named, argv + 1 + named);
  axb_handle_destroy(h);
  return r;
}
