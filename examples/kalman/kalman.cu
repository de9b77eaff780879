/*
 * Kalman-filter measurement update, one track per thread, with the 6 x 6
 * innovation covariance inverted inside the kernel by axb's device-callable
 * solver (include/axb_device.cuh) — what track fitting needs and neither
 * cuBLAS nor Eigen offers from device code.
 *
 * Per track (state x, covariance P, measurement z of the full state with
 * noise R, all 6-dimensional):
 *     S = P + R,  K = P S^-1,  x := x + K (z - x),  P := (I - K) P
 * A track whose S is singular keeps x and P and is flagged (status 1).
 *
 * Two kernels do the same work: one thread per track (thread_inverse<6>),
 * and a group of 8 lanes per track (Warp<8> + group_inverse<8>, S staged in
 * shared memory).  The program checks both against a host computation in
 * double and prints their times.  Exit 0 (pass), 1 (fail), 77 (no GPU).
 *
 *     build/gpu/example_kalman [tracks]
 */
#include "axb_device.cuh"

#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

constexpr int D = 6;          /* state dimension */
constexpr int kCov = D * D;   /* column-major 6 x 6 */
constexpr int kThreads = 128; /* per block */

struct Tracks {
  double *x, *P, *z, *R;
  int *status;
  long n;
};

/* The update once S^-1 is known (Si column-major, ld = lds). */
__device__ void kalman_apply(const double *S_inv, int lds, double *x, double *P,
                             const double *z) {
  double K[kCov], y[D], Pn[kCov];
  /* K = P S^-1 */
  for (int j = 0; j < D; ++j)
    for (int i = 0; i < D; ++i) {
      double s = 0;
      for (int k = 0; k < D; ++k)
        s += P[i + k * D] * S_inv[k + j * lds];
      K[i + j * D] = s;
    }
  for (int i = 0; i < D; ++i)
    y[i] = z[i] - x[i];
  for (int i = 0; i < D; ++i) {
    double s = 0;
    for (int k = 0; k < D; ++k)
      s += K[i + k * D] * y[k];
    x[i] += s;
  }
  /* P := P - K P */
  for (int j = 0; j < D; ++j)
    for (int i = 0; i < D; ++i) {
      double s = P[i + j * D];
      for (int k = 0; k < D; ++k)
        s -= K[i + k * D] * P[k + j * D];
      Pn[i + j * D] = s;
    }
  for (int e = 0; e < kCov; ++e)
    P[e] = Pn[e];
}

/* One thread per track: S in registers, thread_inverse. */
__global__ void kalman_thread(Tracks t) {
  const long trk = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (trk >= t.n) return;
  double S[kCov], P[kCov], x[D], z[D];
  for (int e = 0; e < kCov; ++e) {
    P[e] = t.P[trk * kCov + e];
    S[e] = P[e] + t.R[trk * kCov + e];
  }
  for (int i = 0; i < D; ++i) {
    x[i] = t.x[trk * D + i];
    z[i] = t.z[trk * D + i];
  }
  const int info = axb_dev::thread_inverse<D>(D, S);
  t.status[trk] = info ? 1 : 0;
  if (info) return;
  kalman_apply(S, D, x, P, z);
  for (int e = 0; e < kCov; ++e)
    t.P[trk * kCov + e] = P[e];
  for (int i = 0; i < D; ++i)
    t.x[trk * D + i] = x[i];
}

/* Eight lanes per track: S in shared memory, group_inverse; lane 0 then
   applies the update. */
__global__ void kalman_group(Tracks t) {
  constexpr int G = 8, per_block = kThreads / G;
  __shared__ double s_S[per_block][G * G];
  axb_dev::Warp<G> g;
  const int slot = threadIdx.x / G;
  const long trk = (long)blockIdx.x * per_block + slot;
  if (trk >= t.n) return; /* whole groups leave together */
  double *S = s_S[slot];
  for (int e = g.lane; e < kCov; e += G) {
    const int i = e % D, j = e / D;
    S[i + j * G] = t.P[trk * kCov + e] + t.R[trk * kCov + e];
  }
  g.barrier();
  const int info = axb_dev::group_inverse<G>(g, D, S, G);
  g.barrier();
  if (g.lane == 0) {
    t.status[trk] = info ? 1 : 0;
    if (!info) {
      double P[kCov], x[D], z[D];
      for (int e = 0; e < kCov; ++e)
        P[e] = t.P[trk * kCov + e];
      for (int i = 0; i < D; ++i) {
        x[i] = t.x[trk * D + i];
        z[i] = t.z[trk * D + i];
      }
      kalman_apply(S, G, x, P, z);
      for (int e = 0; e < kCov; ++e)
        t.P[trk * kCov + e] = P[e];
      for (int i = 0; i < D; ++i)
        t.x[trk * D + i] = x[i];
    }
  }
}

/* Host reference: the same update with Gauss-Jordan in long double. */
static int host_update(const double *P0, const double *R, const double *x0,
                       const double *z, double *P, double *x) {
  long double S[kCov], I[kCov];
  for (int e = 0; e < kCov; ++e) {
    S[e] = (long double)P0[e] + R[e];
    I[e] = (e % (D + 1)) == 0;
  }
  for (int k = 0; k < D; ++k) {
    int p = k;
    for (int i = k + 1; i < D; ++i)
      if (fabsl(S[i + k * D]) > fabsl(S[p + k * D])) p = i;
    if (S[p + k * D] == 0) return 1;
    for (int j = 0; j < D; ++j) {
      long double a = S[k + j * D];
      S[k + j * D] = S[p + j * D];
      S[p + j * D] = a;
      a = I[k + j * D];
      I[k + j * D] = I[p + j * D];
      I[p + j * D] = a;
    }
    const long double d = S[k + k * D];
    for (int j = 0; j < D; ++j) {
      S[k + j * D] /= d;
      I[k + j * D] /= d;
    }
    for (int i = 0; i < D; ++i) {
      if (i == k) continue;
      const long double f = S[i + k * D];
      for (int j = 0; j < D; ++j) {
        S[i + j * D] -= f * S[k + j * D];
        I[i + j * D] -= f * I[k + j * D];
      }
    }
  }
  long double K[kCov];
  for (int j = 0; j < D; ++j)
    for (int i = 0; i < D; ++i) {
      long double s = 0;
      for (int k = 0; k < D; ++k)
        s += P0[i + k * D] * I[k + j * D];
      K[i + j * D] = s;
    }
  for (int i = 0; i < D; ++i) {
    long double s = x0[i];
    for (int k = 0; k < D; ++k)
      s += K[i + k * D] * (z[k] - x0[k]);
    x[i] = (double)s;
  }
  for (int j = 0; j < D; ++j)
    for (int i = 0; i < D; ++i) {
      long double s = P0[i + j * D];
      for (int k = 0; k < D; ++k)
        s -= K[i + k * D] * P0[k + j * D];
      P[i + j * D] = (double)s;
    }
  return 0;
}

#define CU(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("example_kalman: no GPU\n");
    return 77;
  }
  const long n = argc > 1 ? atol(argv[1]) : 1L << 20;
  if (n < 1) return 1;
  /* Tracks: P = M M^T + 0.1 I (SPD), R diagonal; every 1000th track has
     P + R = 0 (a degenerate track: status 1, left unchanged). */
  std::vector<double> x(n * D), z(n * D), P(n * kCov), R(n * kCov, 0.0);
  unsigned long long s = 12345;
  auto rnd = [&s]() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
  };
  for (long t = 0; t < n; ++t) {
    double M[kCov];
    for (int e = 0; e < kCov; ++e)
      M[e] = rnd();
    for (int j = 0; j < D; ++j)
      for (int i = 0; i < D; ++i) {
        double a = i == j ? 0.1 : 0;
        for (int k = 0; k < D; ++k)
          a += M[i + k * D] * M[j + k * D];
        P[t * kCov + i + j * D] = a;
      }
    for (int i = 0; i < D; ++i) {
      R[t * kCov + i * (D + 1)] = 0.01 + 0.01 * (rnd() + 1);
      x[t * D + i] = rnd();
      z[t * D + i] = x[t * D + i] + 0.1 * rnd();
    }
    if (t % 1000 == 999)
      for (int e = 0; e < kCov; ++e)
        P[t * kCov + e] = -R[t * kCov + e];
  }
  Tracks d{};
  d.n = n;
  CU(cudaMalloc(&d.x, n * D * sizeof(double)));
  CU(cudaMalloc(&d.z, n * D * sizeof(double)));
  CU(cudaMalloc(&d.P, n * kCov * sizeof(double)));
  CU(cudaMalloc(&d.R, n * kCov * sizeof(double)));
  CU(cudaMalloc(&d.status, n * sizeof(int)));
  CU(cudaMemcpy(d.z, z.data(), n * D * sizeof(double), cudaMemcpyHostToDevice));
  CU(cudaMemcpy(d.R, R.data(), n * kCov * sizeof(double),
                cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  CU(cudaEventCreate(&e0));
  CU(cudaEventCreate(&e1));
  int failures = 0;
  const long checked = n < 4096 ? n : 4096;
  for (int variant = 0; variant < 2; ++variant) {
    float best = 1e30f;
    std::vector<double> xo(n * D), Po(n * kCov);
    std::vector<int> st(n);
    for (int rep = 0; rep < 5; ++rep) {
      CU(cudaMemcpy(d.x, x.data(), n * D * sizeof(double),
                    cudaMemcpyHostToDevice));
      CU(cudaMemcpy(d.P, P.data(), n * kCov * sizeof(double),
                    cudaMemcpyHostToDevice));
      CU(cudaEventRecord(e0));
      if (variant == 0)
        kalman_thread<<<(unsigned)((n + kThreads - 1) / kThreads), kThreads>>>(
            d);
      else
        kalman_group<<<(unsigned)((n + kThreads / 8 - 1) / (kThreads / 8)),
                       kThreads>>>(d);
      CU(cudaGetLastError());
      CU(cudaEventRecord(e1));
      CU(cudaEventSynchronize(e1));
      float ms = 0;
      CU(cudaEventElapsedTime(&ms, e0, e1));
      if (ms < best) best = ms;
    }
    CU(cudaMemcpy(xo.data(), d.x, n * D * sizeof(double),
                  cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(Po.data(), d.P, n * kCov * sizeof(double),
                  cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(st.data(), d.status, n * sizeof(int),
                  cudaMemcpyDeviceToHost));
    double worst = 0;
    long bad = 0;
    for (long t = 0; t < n; ++t) {
      const bool degenerate = t % 1000 == 999;
      if (st[t] != (degenerate ? 1 : 0)) ++bad;
      if (t >= checked && !degenerate) continue;
      if (degenerate) {
        for (int e = 0; e < kCov; ++e)
          if (Po[t * kCov + e] != P[t * kCov + e]) ++bad;
        continue;
      }
      double Pr[kCov], xr[D];
      host_update(&P[t * kCov], &R[t * kCov], &x[t * D], &z[t * D], Pr, xr);
      double pn = 0;
      for (int e = 0; e < kCov; ++e)
        pn = fmax(pn, fabs(Pr[e]));
      for (int e = 0; e < kCov; ++e)
        worst = fmax(worst, fabs(Po[t * kCov + e] - Pr[e]) / pn);
      for (int i = 0; i < D; ++i)
        worst = fmax(worst, fabs(xo[t * D + i] - xr[i]));
    }
    /* The update is well conditioned here (P, R SPD, cond(S) moderate). */
    const bool ok = bad == 0 && worst < 1e-8;
    if (!ok) ++failures;
    printf("example_kalman %-26s %ld tracks: %.3f ms (%.1f M tracks/s), "
           "max rel diff %.2e, wrong status/unchanged %ld: %s\n",
           variant == 0 ? "thread_inverse<6>" : "Warp<8> group_inverse<8>", n,
           best, n / (best * 1e3), worst, bad, ok ? "ok" : "FAIL");
  }
  cudaFree(d.x);
  cudaFree(d.z);
  cudaFree(d.P);
  cudaFree(d.R);
  cudaFree(d.status);
  return failures ? 1 : 0;
}
