/*
 * Issue 21 prototype: an LU leaf of 32 columns by tournament pivoting
 * (TSLU, the panel of CALU: Grigori, Demmel & Xiang, SIAM J. Matrix Anal.
 * Appl. 32, 2011), timed beside cuSOLVER's getrf on the same m x 32 panel.
 *
 * Why: axb's partial-pivoting leaf needs one grid- or cluster-wide step per
 * column (~4 us each on an H100, docs/notes/dense-gpu.md).  Here no step
 * spans more than one warp:
 *   levels: every warp factors a group of 64 candidate rows (two per lane,
 *           in registers) by partial pivoting and keeps the 32 rows it
 *           chose; groups of the winners meet again, level by level, until
 *           32 rows remain (the pivot rows, in pivot order);
 *   final:  one warp factors those 32 rows without pivoting (L11, U11),
 *           turns the choice into LAPACK's ipiv and the interchange plan;
 *   apply:  every other row i gets l_i = a_i U11^-1 (its original values),
 *           so [L11; L21] U11 = P A.
 * The selection loop is rolled: each row is shifted left by one entry per
 * column, so the current column is always entry 0 and the code is the same
 * for every column (no instruction-cache pressure).
 *
 * Standalone:  nvcc -O3 -arch=sm_90a bench/proto_tslu.cu -lcusolver -o tslu
 *              ./tslu [m ...]
 * These levels are the second variant measured (redux.sync argmax, pivot
 * row through shared memory); the first (shuffle argmax and broadcast,
 * bench/results/dense-h100/tslu-proto.txt) is in git history, 32581ba.
 */
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                        \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int W = 32;
constexpr int64_t kNo = INT64_MAX;

/* A 32-bit key whose unsigned order is |x|'s (the magnitude's top
   bits: exponent and 15 / 17 mantissa bits) then the smaller slot: one
   redux.sync instead of five shuffle rounds.  0 = no row; NaN = 1. */
template <typename T>
__device__ __forceinline__ unsigned key_of(T x, int slot) {
  unsigned hi;
  if (sizeof(T) == 8) {
    const unsigned long long b =
        (unsigned long long)__double_as_longlong((double)x) &
        0x7fffffffffffffffull;
    hi = (unsigned)(b >> 37); /* 26 bits */
  } else {
    hi = (__float_as_uint((float)x) & 0x7fffffffu) >> 5; /* 26 bits */
  }
  if (x != x) hi = 0;
  return (hi << 6 | (unsigned)(63 - slot)) + 1u;
}

template <typename T, int NR>
__global__ void __launch_bounds__(256)
    level_kernel(const T *A, int64_t lda, int64_t c, int w, const int64_t *in,
                 int64_t nin, int64_t *out) {
  __shared__ T s_p[8][2][W];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const int64_t g = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t base = g * NR * 32;
  if (base >= nin) return;
  int64_t gi[NR];
  bool act[NR];
  T r[NR][W];
#pragma unroll
  for (int q = 0; q < NR; ++q) {
    const int64_t pos = base + q * 32 + lane;
    gi[q] = pos < nin ? (in ? in[pos] : c + pos) : kNo;
    act[q] = gi[q] != kNo;
#pragma unroll
    for (int k = 0; k < W; ++k)
      r[q][k] = act[q] && k < w ? A[gi[q] + (c + k) * lda] : T(0);
  }
  int64_t *o = out + g * W;
#pragma unroll 1
  for (int jj = 0; jj < w; ++jj) {
    unsigned key = 0;
#pragma unroll
    for (int q = 0; q < NR; ++q)
      if (act[q]) key = max(key, key_of(r[q][0], q * 32 + lane));
    key = __reduce_max_sync(0xffffffffu, key);
    if (key == 0) {
      for (int t = jj + lane; t < w; t += 32)
        o[t] = kNo;
      break;
    }
    const int bs = 63 - (int)((key - 1u) & 63u);
    const int owner = bs & 31, qo = bs >> 5;
    T *p = s_p[wid][jj & 1];
    if (lane == owner) {
#pragma unroll
      for (int q = 0; q < NR; ++q)
        if (q == qo) {
          act[q] = false;
#pragma unroll
          for (int k = 0; k < W; ++k)
            p[k] = r[q][k];
          o[jj] = gi[q];
        }
    }
    __syncwarp();
    const T p0 = p[0];
    const T inv = p0 != T(0) ? T(1) / p0 : T(0);
#pragma unroll
    for (int q = 0; q < NR; ++q) {
      const T l = act[q] ? r[q][0] * inv : T(0);
#pragma unroll
      for (int k = 1; k < W; ++k)
        r[q][k - 1] = r[q][k] - l * p[k];
      r[q][W - 1] = T(0);
    }
  }
}

/* One warp: the w chosen rows sel[0..w) factored without pivoting into lu
   (row-major W x W), the original top rows c..c+w into stash, ipiv, info
   and the plan (dst receives the row that was at src). */
template <typename T>
__global__ void final_kernel(const T *A, int64_t lda, int64_t m, int64_t c,
                             int w, const int64_t *sel, T *lu, T *stash,
                             int64_t *ipiv, int64_t *info, int64_t *pdst,
                             int64_t *psrc, int *pcnt) {
  const int lane = threadIdx.x;
  const int64_t s = lane < w ? sel[lane] : kNo;
  T r[W];
#pragma unroll
  for (int k = 0; k < W; ++k)
    r[k] = s != kNo && k < w ? A[s + (c + k) * lda] : T(0);
  for (int i = 0; i < w; ++i)
    if (lane < w && c + i < m)
      stash[i * W + lane] = A[(c + i) + (c + lane) * lda];
#pragma unroll 1
  for (int jj = 0; jj < w; ++jj) {
    T p[W];
#pragma unroll
    for (int k = 0; k < W; ++k)
      p[k] = __shfl_sync(0xffffffffu, r[k], jj);
    if (lane == jj) {
#pragma unroll
      for (int t = 0; t < W; ++t)
        if (jj + t < W) lu[jj * W + jj + t] = r[t];
    } else if (lane > jj) {
      const T l = p[0] != T(0) ? r[0] / p[0] : r[0];
      lu[lane * W + jj] = l;
#pragma unroll
      for (int k = 1; k < W; ++k)
        r[k - 1] = r[k] - l * p[k];
      r[W - 1] = T(0);
    }
  }
  __syncwarp();
  if (lane != 0) return;
  int64_t content[W], where[W];
  for (int t = 0; t < w; ++t)
    content[t] = where[t] = c + t;
  int64_t zero = 0;
  for (int j = 0; j < w; ++j) {
    const int64_t x = sel[j];
    const int64_t P = x < c + w ? where[x - c] : x;
    ipiv[c + j] = P + 1;
    const int64_t y = content[j];
    content[j] = x;
    if (x < c + w) where[x - c] = c + j;
    if (P != c + j) {
      if (P < c + w) content[P - c] = y;
      where[y - c] = P;
    }
    if (zero == 0 && lu[j * W + j] == T(0)) zero = c + j + 1;
  }
  if (zero && *info == 0) *info = zero;
  int cnt = 0;
  for (int t = 0; t < w; ++t) {
    pdst[cnt] = c + t;
    psrc[cnt++] = content[t];
  }
  for (int t = 0; t < w; ++t)
    if (where[t] >= c + w) {
      pdst[cnt] = where[t];
      psrc[cnt++] = c + t;
    }
  *pcnt = cnt;
}

/* Every row position d in [c, m): the top w get their LU rows; the others
   l = a U11^-1 from the original row that lands there. */
template <typename T>
__global__ void apply_kernel(T *A, int64_t lda, int64_t m, int64_t c, int w,
                             const T *lu, const T *stash, const int64_t *pdst,
                             const int64_t *psrc, const int *pcnt) {
  __shared__ T U[W][W + 1];
  __shared__ T dinv[W];
  __shared__ int64_t odst[W], osrc[W];
  __shared__ int ocnt;
  const int tid = threadIdx.x;
  for (int e = tid; e < W * W; e += blockDim.x) {
    const int i = e / W, k = e % W;
    U[i][k] = i < w && k < w && k >= i ? lu[i * W + k] : T(0);
  }
  if (tid < W) {
    const T d = tid < w ? lu[tid * W + tid] : T(1);
    dinv[tid] = d != T(0) ? T(1) / d : T(1);
  }
  if (tid == 0) ocnt = *pcnt - w;
  __syncthreads();
  if (tid < ocnt) {
    odst[tid] = pdst[w + tid];
    osrc[tid] = psrc[w + tid];
  }
  __syncthreads();
  /* one row per thread: no loop for the compiler to hoist U's 528 reads
     out of (it did, and spilled them) */
  const int64_t d = c + (int64_t)blockIdx.x * blockDim.x + tid;
  if (d >= m) return;
  {
    if (d < c + w) {
      for (int k = 0; k < w; ++k)
        A[d + (c + k) * lda] = lu[(d - c) * W + k];
      return;
    }
    int64_t s = d;
    for (int t = 0; t < ocnt; ++t)
      if (odst[t] == d) s = osrc[t];
    const bool top = s < c + w;
    const T *src = top ? stash + (s - c) * W : A + s;
    const int64_t step = top ? 1 : lda;
    T x[W];
#pragma unroll
    for (int k = 0; k < W; ++k)
      x[k] = k < w ? src[k * step + (top ? 0 : c * lda)] : T(0);
      /* l U = x, column by column: x[k] is final once scaled */
#pragma unroll
    for (int k = 0; k < W; ++k) {
      x[k] *= dinv[k];
#pragma unroll
      for (int j = k + 1; j < W; ++j)
        x[j] -= x[k] * U[k][j];
    }
#pragma unroll
    for (int k = 0; k < W; ++k)
      if (k < w) A[d + (c + k) * lda] = x[k];
  }
}

template <typename T> struct Scr {
  int64_t *b0, *b1, *pdst, *psrc, *ipiv, *info;
  int *pcnt;
  T *lu, *stash;
};

template <typename T> constexpr int rows_per_lane() { return 2; }

/* The leaf A[c:m, c:c+w] by tournament pivoting on stream st. */
template <typename T>
void tslu_leaf(T *A, int64_t lda, int64_t m, int64_t c, int w, Scr<T> &s,
               cudaStream_t st, int stop_after = 3) {
  constexpr int NR = rows_per_lane<T>();
  const int64_t *in = nullptr;
  int64_t nin = m - c;
  int64_t *outb = s.b0, *other = s.b1;
  do {
    const int64_t groups = (nin + NR * 32 - 1) / (NR * 32);
    const int64_t threads = groups * 32;
    level_kernel<T, NR><<<(unsigned)((threads + 255) / 256), 256, 0, st>>>(
        A, lda, c, w, in, nin, outb);
    nin = groups * W;
    in = outb;
    std::swap(outb, other);
  } while (nin > W);
  if (stop_after < 2) return;
  final_kernel<T><<<1, 32, 0, st>>>(A, lda, m, c, w, in, s.lu, s.stash, s.ipiv,
                                    s.info, s.pdst, s.psrc, s.pcnt);
  if (stop_after < 3) return;
  const int64_t rows = m - c;
  apply_kernel<T><<<(unsigned)((rows + 127) / 128), 128, 0, st>>>(
      A, lda, m, c, w, s.lu, s.stash, s.pdst, s.psrc, s.pcnt);
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

template <typename T> double eps() {
  return sizeof(T) == 8 ? 1.11e-16 : 5.96e-8;
}

/* ||P A - L U||_1 / (||A||_1 w eps) and max |L|, from the host copies. */
template <typename T>
void check(const std::vector<T> &A0, const std::vector<T> &F,
           const std::vector<int64_t> &ipiv, int64_t m, int w, double &res,
           double &lmax) {
  std::vector<T> P(A0);
  for (int j = 0; j < w; ++j) {
    const int64_t p = ipiv[j] - 1;
    if (p != j)
      for (int k = 0; k < w; ++k)
        std::swap(P[j + k * m], P[p + k * m]);
  }
  double an = 0, rn = 0;
  lmax = 0;
  for (int k = 0; k < w; ++k) {
    double ca = 0, cr = 0;
    for (int64_t i = 0; i < m; ++i) {
      double lu = 0;
      for (int t = 0; t <= std::min<int64_t>(k, i); ++t) {
        const double l = t == i ? 1.0 : (double)F[i + t * m];
        if (t > i) break;
        lu += l * (double)F[t + k * m];
      }
      ca += fabs((double)A0[i + k * m]);
      cr += fabs((double)P[i + k * m] - lu);
      if (k < std::min<int64_t>(i, w))
        lmax = std::max(lmax, fabs((double)F[i + k * m]));
    }
    an = std::max(an, ca);
    rn = std::max(rn, cr);
  }
  res = rn / (an * w * eps<T>());
}

template <typename T> static float med(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename T>
void run(int64_t m, cusolverDnHandle_t sol, cudaStream_t st) {
  const int w = W;
  const int64_t lda = m;
  std::vector<T> A0((size_t)m * w);
  for (size_t i = 0; i < A0.size(); ++i)
    A0[i] =
        (T)((double)(mix(i + 12345 * m) >> 11) / 9007199254740992.0 * 2 - 1);
  T *dA, *dW;
  CK(cudaMalloc(&dA, A0.size() * sizeof(T)));
  Scr<T> s;
  const int64_t cap = (m + 63) / 64 * 32 + 64;
  CK(cudaMalloc(&s.b0, cap * 8));
  CK(cudaMalloc(&s.b1, cap * 8));
  CK(cudaMalloc(&s.pdst, 2 * W * 8));
  CK(cudaMalloc(&s.psrc, 2 * W * 8));
  CK(cudaMalloc(&s.ipiv, m * 8));
  CK(cudaMalloc(&s.info, 8));
  CK(cudaMalloc(&s.pcnt, 4));
  CK(cudaMalloc(&s.lu, W * W * sizeof(T)));
  CK(cudaMalloc(&s.stash, W * W * sizeof(T)));
  CK(cudaMemset(s.info, 0, 8));
  CK(cudaMemcpy(dA, A0.data(), A0.size() * sizeof(T), cudaMemcpyHostToDevice));
  tslu_leaf<T>(dA, lda, m, 0, w, s, st);
  CK(cudaStreamSynchronize(st));
  CK(cudaGetLastError());
  std::vector<T> F(A0.size());
  std::vector<int64_t> ip(w);
  int64_t info;
  CK(cudaMemcpy(F.data(), dA, F.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ip.data(), s.ipiv, w * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&info, s.info, 8, cudaMemcpyDeviceToHost));
  double res, lmax;
  check<T>(A0, F, ip, m, w, res, lmax);

  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timeit = [&](auto &&f) {
    std::vector<float> t;
    for (int r = 0; r < 21; ++r) {
      CK(cudaMemcpyAsync(dA, A0.data(), A0.size() * sizeof(T),
                         cudaMemcpyHostToDevice, st));
      CK(cudaEventRecord(e0, st));
      f();
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r) t.push_back(ms * 1000);
    }
    return med<T>(t);
  };
  const float t_lv = timeit([&] { tslu_leaf<T>(dA, lda, m, 0, w, s, st, 1); });
  const float t_fi = timeit([&] { tslu_leaf<T>(dA, lda, m, 0, w, s, st, 2); });
  const float t_all = timeit([&] { tslu_leaf<T>(dA, lda, m, 0, w, s, st, 3); });

  /* cuSOLVER's getrf on the same panel */
  int lw = 0, *dip, *dinfo;
  CK(cudaMalloc(&dip, w * sizeof(int)));
  CK(cudaMalloc(&dinfo, sizeof(int)));
  if (sizeof(T) == 8)
    cusolverDnDgetrf_bufferSize(sol, (int)m, w, (double *)dA, (int)lda, &lw);
  else
    cusolverDnSgetrf_bufferSize(sol, (int)m, w, (float *)dA, (int)lda, &lw);
  CK(cudaMalloc(&dW, (size_t)lw * sizeof(T)));
  auto cus = [&] {
    if (sizeof(T) == 8)
      cusolverDnDgetrf(sol, (int)m, w, (double *)dA, (int)lda, (double *)dW,
                       dip, dinfo);
    else
      cusolverDnSgetrf(sol, (int)m, w, (float *)dA, (int)lda, (float *)dW, dip,
                       dinfo);
  };
  const float t_cus = timeit(cus);
  std::vector<int> ipc(w);
  std::vector<int64_t> ipc64(w);
  CK(cudaMemcpy(F.data(), dA, F.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ipc.data(), dip, w * sizeof(int), cudaMemcpyDeviceToHost));
  for (int j = 0; j < w; ++j)
    ipc64[j] = ipc[j];
  double res_c, lmax_c;
  check<T>(A0, F, ipc64, m, w, res_c, lmax_c);
  int same = 0;
  for (int j = 0; j < w; ++j)
    same += ipc64[j] == ip[j];
  printf("%s m=%6lld  tslu %7.1f us (levels %6.1f, +final %6.1f)  cusolver "
         "%7.1f us  ratio %.2f | res %.3f (cus %.3f) max|L| %.2f (cus %.2f) "
         "same ipiv %d/%d info %lld\n",
         sizeof(T) == 8 ? "d" : "s", (long long)m, t_all, t_lv, t_fi, t_cus,
         t_cus / t_all, res, res_c, lmax, lmax_c, same, w, (long long)info);
  cudaFree(dA);
  cudaFree(dW);
  cudaFree(dip);
  cudaFree(dinfo);
  cudaFree(s.b0);
  cudaFree(s.b1);
  cudaFree(s.pdst);
  cudaFree(s.psrc);
  cudaFree(s.ipiv);
  cudaFree(s.info);
  cudaFree(s.pcnt);
  cudaFree(s.lu);
  cudaFree(s.stash);
}

int main(int argc, char **argv) {
  std::vector<int64_t> ms;
  for (int i = 1; i < argc; ++i)
    ms.push_back(atoll(argv[i]));
  if (ms.empty()) ms = {33, 100, 1024, 2048, 4096, 8192, 16384, 32768};
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  cusolverDnHandle_t sol;
  cusolverDnCreate(&sol);
  cusolverDnSetStream(sol, st);
  for (int64_t m : ms)
    run<double>(m, sol, st);
  for (int64_t m : ms)
    run<float>(m, sol, st);
  cusolverDnDestroy(sol);
  return 0;
}
