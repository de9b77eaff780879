/*
 * tests/device_emu: runs the device code of the batched solvers on the host
 * through cuda_emu.h and checks it (run.sh builds and runs this; no GPU,
 * not part of ctest).  Covered: the cooperative group functions of
 * axb_device.cuh for NMAX = 8, 12, 16, 24, 32 (groups of 2..32 lanes, one to
 * four rows per lane, shuffles and shared-memory slots) and 64 (Block), every
 * operation, singular and not-SPD matrices in the mix; thread_inverse; and
 * the per-thread kernels of the batched API (batched_thread.cuh) for
 * n = 1..8 in both precisions with padded and packed strides (packed also
 * one element off 16-byte alignment), both triangles, one and three
 * right-hand sides and batches of 1, 3, 129, 130, 131 and 150 (two tiles);
 * and the exact classes NMAX = 7, 9..11, 13..15 of the inverse and the
 * one-rhs solve.
 */
#include "cuda_emu.h"

#include "axb_device.cuh"
#include "batched_thread.cuh"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <thread>
#include <vector>

using axb_cuda::bat_thread_kernel;
using axb_cuda::BatArgs;
using axb_cuda::ThreadTile;

static int g_fail = 0, g_checks = 0, g_exact = 0;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    ++g_checks;                                                                \
    if (!(c)) {                                                                \
      ++g_fail;                                                                \
      if (g_fail < 30) {                                                       \
        printf("FAIL: ");                                                      \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

/* One OS thread per CUDA thread of one block. */
static void run_threads(int nthreads, const std::function<void(int)> &f) {
  emu_init(nthreads);
  std::vector<std::thread> th;
  for (int t = 0; t < nthreads; ++t)
    th.emplace_back([&, t] {
      threadIdx.x = (unsigned)t;
      f(t);
    });
  for (auto &x : th)
    x.join();
}
static std::mt19937_64 rng(7);

/* ---- cooperative functions ---------------------------------------------- */
using M = std::vector<double>;
static M
gen(int n,
    int kind) { // 0 general, 1 singular (row n/2 = row 0), 2 spd, 3 not spd
  M a(n * n);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto &x : a)
    x = u(rng);
  if (kind == 1)
    for (int i = 0; i < n; ++i)
      a[i + (n / 2) * n] = 0;
  if (kind >= 2) {
    M s(n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        s[i + j * n] = a[i + j * n] + a[j + i * n];
    for (int i = 0; i < n; ++i)
      s[i + i * n] += (kind == 2 ? 2 * n : (i == n / 2 ? -3.0 * n : 2 * n));
    a = s;
  }
  return a;
}
static double resid_solve(int n, const M &a, const M &x, const M &b, int nrhs) {
  double r = 0, s = 1e-300;
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i) {
      long double t = -b[i + c * n];
      for (int j = 0; j < n; ++j)
        t += (long double)a[i + j * n] * x[j + c * n];
      r = std::max(r, (double)fabsl(t));
      s = std::max(s, fabs(b[i + c * n]));
    }
  double an = 0, xn = 0;
  for (auto v : a)
    an = std::max(an, fabs(v));
  for (auto v : x)
    xn = std::max(xn, fabs(v));
  return r / (an * xn * n + s) / 1e-16;
}

// One warp (or a G-thread block for G > 32) of emulated threads, each in
// its group of G lanes (a Block, a WarpShared slot group or a Warp), running
// body(group, matrix index of the group).
template <int NMAX, int G, bool SLOT, typename Body>
static void on_groups(Body body) {
  using WS = axb_dev::WarpShared<(G > 32 ? 32 : G), double, NMAX>;
  static double slots[32][WS::kWords];
  static axb_dev::BlockWork<double, NMAX> bw;
  run_threads(G > 32 ? G : 32, [&](int t) {
    if constexpr (G > 32) {
      axb_dev::Block<G / 32, double, NMAX> g(&bw);
      body(g, 0);
    } else if constexpr (SLOT) {
      WS g(slots[t / G]);
      body(g, t / G);
    } else {
      axb_dev::Warp<(G > 32 ? 32 : G)> g;
      body(g, t / G);
    }
  });
}

/* max |A X - I| (long double products): X = inv(A) to rounding. */
static double inverse_resid(int n, const M &A, const M &X) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      long double t = 0;
      for (int k = 0; k < n; ++k)
        t += (long double)A[i + k * n] * X[k + j * n];
      r = std::max(r, (double)fabsl(t - (i == j)));
    }
  return r;
}

// ---- cooperative functions: 32/G matrices per warp, one warp -------------
template <int NMAX, int G, bool SLOT> static void coop(int n) {
  constexpr int per = G > 32 ? 1 : 32 / G;
  const int nrhs = 3;
  std::vector<M> A(per), A0(per), B(per), B0(per), S(per), S0(per), BS(per),
      BS0(per);
  std::vector<std::vector<int>> piv(per, std::vector<int>(n + 1));
  int kinds[per];
  for (int m = 0; m < per; ++m) {
    kinds[m] = (m % 3 == 1) ? 1 : 0;
    A0[m] = gen(n, kinds[m]);
    S0[m] = gen(n, m % 3 == 1 ? 3 : 2);
    B0[m].resize(n * nrhs);
    for (auto &x : B0[m])
      x = std::uniform_real_distribution<double>(-1, 1)(rng);
  }
  std::vector<int> info(per), info2(per);
  auto with_group = [&](auto body) { on_groups<NMAX, G, SLOT>(body); };
  // getrf + getrs
  A = A0;
  B = B0;
  with_group([&](auto &g, int m) {
    int st = axb_dev::group_getrf<NMAX>(g, n, A[m].data(), n, piv[m].data());
    if (g.lane == 0) info[m] = st;
    g.barrier();
    axb_dev::group_getrs<NMAX, 2>(g, n, nrhs, A[m].data(), n, piv[m].data(),
                                  B[m].data(), n);
  });
  for (int m = 0; m < per; ++m) {
    const bool sing = kinds[m] == 1;
    CHECK(sing ? info[m] > 0 : info[m] == 0,
          "getrf NMAX %d G %d slot %d n %d m %d info %d", NMAX, G, SLOT, n, m,
          info[m]);
    // P L U == A
    M LU = A[m], PA = A0[m];
    for (int k = 0; k < n; ++k) {
      int p = piv[m][k] - 1;
      CHECK(p >= k && p < n, "ipiv");
      for (int j = 0; j < n; ++j)
        std::swap(PA[k + j * n], PA[p + j * n]);
    }
    double r = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        long double t = 0;
        for (int k = 0; k <= std::min(i, j); ++k)
          t += (long double)(k == i ? 1.0 : LU[i + k * n]) * LU[k + j * n];
        r = std::max(r, (double)fabsl(t - PA[i + j * n]));
      }
    CHECK(r < 1e-12 * n * 10, "getrf resid %g NMAX %d G %d slot %d n %d", r,
          NMAX, G, SLOT, n);
    if (!sing)
      CHECK(resid_solve(n, A0[m], B[m], B0[m], nrhs) < 100,
            "getrs resid NMAX %d G %d slot %d n %d", NMAX, G, SLOT, n);
  }
  // gesv nrhs 1 (NR 1) and nrhs 3 (NR 2)
  for (int nr : {1, 3}) {
    A = A0;
    B = B0;
    with_group([&](auto &g, int m) {
      int st =
          nr == 1 ? axb_dev::group_gesv<NMAX, 1>(g, n, 1, A[m].data(), n,
                                                 nullptr, B[m].data(), n)
                  : axb_dev::group_gesv<NMAX, 2>(g, n, nr, A[m].data(), n,
                                                 piv[m].data(), B[m].data(), n);
      if (g.lane == 0) info[m] = st;
    });
    for (int m = 0; m < per; ++m) {
      const bool sing = kinds[m] == 1;
      CHECK(sing ? info[m] > 0 : info[m] == 0, "gesv info");
      if (!sing)
        CHECK(resid_solve(n, A0[m], B[m], B0[m], nr) < 100,
              "gesv resid NMAX %d G %d slot %d n %d nr %d", NMAX, G, SLOT, n,
              nr);
      else
        CHECK(B[m] == B0[m], "gesv B changed");
    }
  }
  // gesv1: one right-hand side carried through the factorization
  A = A0;
  B = B0;
  with_group([&](auto &g, int m) {
    int st = axb_dev::group_gesv1<NMAX>(g, n, A[m].data(), n, piv[m].data(),
                                        B[m].data());
    if (g.lane == 0) info[m] = st;
  });
  for (int m = 0; m < per; ++m) {
    const bool sing = kinds[m] == 1;
    CHECK(sing ? info[m] > 0 : info[m] == 0, "gesv1 info");
    for (int k = 0; k < n; ++k)
      CHECK(piv[m][k] - 1 >= k && piv[m][k] - 1 < n, "gesv1 ipiv");
    if (!sing)
      CHECK(resid_solve(n, A0[m], B[m], B0[m], 1) < 100,
            "gesv1 resid NMAX %d G %d slot %d n %d", NMAX, G, SLOT, n);
    /* the other columns of B are not touched */
    for (int i = n; i < n * nrhs; ++i)
      CHECK(B[m][i] == B0[m][i], "gesv1 wrote past b");
    if (sing) CHECK(B[m] == B0[m], "gesv1 B changed");
  }
  const std::vector<M> A1 = A, B1 = B;
  const std::vector<std::vector<int>> piv1 = piv;
  const std::vector<int> info1 = info;
  // inverse
  A = A0;
  with_group([&](auto &g, int m) {
    int st = axb_dev::group_inverse<NMAX>(g, n, A[m].data(), n);
    if (g.lane == 0) info[m] = st;
  });
  for (int m = 0; m < per; ++m) {
    const bool sing = kinds[m] == 1;
    CHECK(sing ? info[m] > 0 : info[m] == 0, "inverse info");
    if (sing) {
      CHECK(A[m] == A0[m], "inverse A changed");
      continue;
    }
    const double r = inverse_resid(n, A0[m], A[m]);
    CHECK(r < 1e-9, "inverse resid %g NMAX %d G %d slot %d n %d", r, NMAX, G,
          SLOT, n);
  }
  // the same inverse and gesv1 with the whole warp in step (WarpShared<...,
  // true> and Warp<G, true>, as the batched API runs them): bit for bit the
  // results above, singular matrices untouched; once with every group
  // active (a singular matrix beside regular ones in step) and once with
  // the last group inactive (it must touch nothing)
  if constexpr (SLOT && G <= 16) {
    using WF = axb_dev::WarpShared<G, double, NMAX, true>;
    static double fslots[32][WF::kWords];
    for (int idle = 0; idle < 2; ++idle) {
      const int live = idle ? per - 1 : per; /* groups with a matrix */
      std::vector<M> F = A0;
      std::vector<int> finfo(per, -7);
      run_threads(32, [&](int t) {
        WF g(fslots[t / G]);
        const int m = t / G;
        const int st =
            axb_dev::group_inverse<NMAX>(g, n, F[m].data(), n, m < live);
        if (g.lane == 0 && m < live) finfo[m] = st;
      });
      for (int m = 0; m < live; ++m)
        CHECK(finfo[m] == info[m] && F[m] == (info[m] ? A0[m] : A[m]),
              "full-warp inverse NMAX %d G %d n %d m %d idle %d", NMAX, G, n, m,
              idle);
      if (idle)
        CHECK(F[per - 1] == A0[per - 1] && finfo[per - 1] == -7,
              "full-warp inverse: inactive group wrote");
      for (int slot = 0; slot < 2; ++slot) {
        std::vector<M> FA = A0, FB = B0;
        std::vector<std::vector<int>> fp(per, std::vector<int>(n + 1, -7));
        auto body = [&](auto &g, int m) {
          const int st = axb_dev::group_gesv1<NMAX>(
              g, n, FA[m].data(), n, fp[m].data(), FB[m].data(), m < live);
          if (g.lane == 0 && m < live) finfo[m] = st;
        };
        finfo.assign(per, -7);
        run_threads(32, [&](int t) {
          if (slot) {
            WF g(fslots[t / G]);
            body(g, t / G);
          } else {
            axb_dev::Warp<G, true> g;
            body(g, t / G);
          }
        });
        for (int m = 0; m < live; ++m)
          CHECK(
              finfo[m] == info1[m] && FA[m] == A1[m] && FB[m] == B1[m] &&
                  std::equal(fp[m].begin(), fp[m].begin() + n, piv1[m].begin()),
              "full-warp gesv1 NMAX %d G %d slot %d n %d m %d idle %d", NMAX, G,
              slot, n, m, idle);
        if (idle)
          CHECK(FA[per - 1] == A0[per - 1] && FB[per - 1] == B0[per - 1] &&
                    finfo[per - 1] == -7 && fp[per - 1][0] == -7,
                "full-warp gesv1: inactive group wrote");
      }
    }
  }
  // potrf / potrs / posv, lower and upper
  for (int up = 0; up < 2; ++up) {
    S = S0;
    BS = B0;
    with_group([&](auto &g, int m) {
      int st = axb_dev::group_potrf<NMAX>(g, n, up, S[m].data(), n);
      if (g.lane == 0) info[m] = st;
      g.barrier();
      axb_dev::group_potrs<NMAX, 2>(g, n, nrhs, up, S[m].data(), n,
                                    BS[m].data(), n);
    });
    for (int m = 0; m < per; ++m) {
      const bool bad = m % 3 == 1;
      CHECK(bad ? info[m] > 0 : info[m] == 0,
            "potrf info %d NMAX %d G %d n %d m %d", info[m], NMAX, G, n, m);
      if (bad) continue;
      double r = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
          long double t = 0;
          for (int k = 0; k <= j; ++k) {
            double lik = up ? S[m][k + i * n] : S[m][i + k * n],
                   ljk = up ? S[m][k + j * n] : S[m][j + k * n];
            t += (long double)lik * ljk;
          }
          r = std::max(r, (double)fabsl(t - S0[m][i + j * n]));
          // other triangle untouched
          if (i != j)
            CHECK(up ? S[m][i + j * n] == S0[m][i + j * n]
                     : S[m][j + i * n] == S0[m][j + i * n],
                  "other triangle");
        }
      CHECK(r < 1e-12 * n * n * 10, "potrf resid %g", r);
      CHECK(resid_solve(n, S0[m], BS[m], B0[m], nrhs) < 100,
            "potrs resid NMAX %d G %d slot %d n %d up %d", NMAX, G, SLOT, n,
            up);
    }
    S = S0;
    BS = B0;
    with_group([&](auto &g, int m) {
      int st = axb_dev::group_posv<NMAX, 1>(g, n, 1, up, S[m].data(), n,
                                            BS[m].data(), n);
      if (g.lane == 0) info[m] = st;
    });
    for (int m = 0; m < per; ++m) {
      const bool bad = m % 3 == 1;
      CHECK(bad ? info[m] > 0 : info[m] == 0, "posv info");
      if (!bad)
        CHECK(resid_solve(n, S0[m], BS[m], B0[m], 1) < 100,
              "posv resid NMAX %d G %d slot %d n %d up %d", NMAX, G, SLOT, n,
              up);
      else
        CHECK(BS[m] == B0[m], "posv B changed");
    }
  }
}

// ---- exact ties in the pivot columns ----------------------------------------
/* Direct sum of Sylvester-Hadamard blocks of order <= 16 (+-1; their LU with
   partial pivoting is exact), rows and columns permuted and row signs
   flipped at random: every pivot column has several entries of exactly the
   largest magnitude, spread over lanes (and warps).  LAPACK takes the first
   in the current row order; so must the group's pivot search (one maximum
   of pivot keys in warp groups, argmax in Block). */
static M gen_ties(int n) {
  M a(n * n, 0.0);
  int off = 0;
  while (off < n) {
    int m = 16;
    while (m > n - off)
      m /= 2;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        a[off + i + (off + j) * n] = __builtin_popcount(i & j) & 1 ? -1 : 1;
    off += m;
  }
  std::vector<int> pr(n), pc(n);
  for (int i = 0; i < n; ++i)
    pr[i] = pc[i] = i;
  std::shuffle(pr.begin(), pr.end(), rng);
  std::shuffle(pc.begin(), pc.end(), rng);
  M b(n * n);
  for (int i = 0; i < n; ++i) {
    const double s = rng() & 1 ? -1 : 1;
    for (int j = 0; j < n; ++j)
      b[i + j * n] = s * a[pr[i] + pc[j] * n];
  }
  return b;
}
/* LAPACK's pivots (1-based) by plain GEPP, first largest magnitude; empty
   when a factor entry is not a multiple of 2^-20 below 2^20 (an operation
   rounded, and a rounding may break a tie either way). */
static std::vector<int> gepp_pivots(int n, M a) {
  std::vector<int> piv(n);
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i + k * n]) > fabs(a[p + k * n])) p = i;
    piv[k] = p + 1;
    for (int j = 0; j < n; ++j)
      std::swap(a[k + j * n], a[p + j * n]);
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i + k * n] / a[k + k * n];
      for (int j = k + 1; j < n; ++j)
        a[i + j * n] -= l * a[k + j * n];
      a[i + k * n] = l;
    }
  }
  for (double x : a)
    if (!(fabs(x) < 1048576.0) || x * 1048576.0 != floor(x * 1048576.0))
      return {};
  return piv;
}
template <int NMAX, int G, bool SLOT> static void ties(int n) {
  constexpr int per = G > 32 ? 1 : 32 / G;
  std::vector<M> A(per), A0(per), V(per), S(per), X(per);
  std::vector<std::vector<int>> piv(per, std::vector<int>(n + 1)),
      piv1(per, std::vector<int>(n + 1));
  std::vector<int> info(per), info2(per), info3(per);
  for (int m = 0; m < per; ++m) {
    S[m] = V[m] = A[m] = A0[m] = gen_ties(n);
    X[m].resize(n);
    for (int i = 0; i < n; ++i)
      X[m][i] = (double)(i % 5) - 2.0;
  }
  const std::vector<M> X0 = X;
  on_groups<NMAX, G, SLOT>([&](auto &g, int m) {
    int st = axb_dev::group_getrf<NMAX>(g, n, A[m].data(), n, piv[m].data());
    if (g.lane == 0) info[m] = st;
    g.barrier();
    st = axb_dev::group_inverse<NMAX>(g, n, V[m].data(), n);
    if (g.lane == 0) info2[m] = st;
    st = axb_dev::group_gesv1<NMAX>(g, n, S[m].data(), n, piv1[m].data(),
                                    X[m].data());
    if (g.lane == 0) info3[m] = st;
  });
  for (int m = 0; m < per; ++m) {
    CHECK(info[m] == 0 && info2[m] == 0, "ties info NMAX %d G %d n %d", NMAX, G,
          n);
    const std::vector<int> ref = gepp_pivots(n, A0[m]);
    int differ = -1;
    for (int k = n - 1; k >= 0 && !ref.empty(); --k)
      if (piv[m][k] != ref[k]) differ = k;
    g_exact += !ref.empty();
    CHECK(differ < 0, "ties NMAX %d G %d slot %d n %d: pivot %d is %d, ref %d",
          NMAX, G, SLOT, n, differ, differ < 0 ? 0 : piv[m][differ],
          differ < 0 ? 0 : ref[differ]);
    const double r = inverse_resid(n, A0[m], V[m]);
    CHECK(r < 1e-12, "ties inverse resid %g NMAX %d G %d n %d", r, NMAX, G, n);
    /* the carried solve pivots as getrf and solves */
    CHECK(info3[m] == 0 && piv1[m] == piv[m] && S[m] == A[m],
          "ties gesv1 factors NMAX %d G %d slot %d n %d", NMAX, G, SLOT, n);
    CHECK(resid_solve(n, A0[m], X[m], X0[m], 1) < 100,
          "ties gesv1 resid NMAX %d G %d n %d", NMAX, G, n);
  }
}

// ---- per-thread functions -------------------------------------------------
template <int N> static void per_thread() {
  for (int kind = 0; kind < 2; ++kind) {
    M a0 = gen(N, kind);
    double a[N * N];
    for (int e = 0; e < N * N; ++e)
      a[e] = a0[e];
    int info = axb_dev::thread_inverse<N>(N, a);
    CHECK(kind ? info > 0 : info == 0, "thread_inverse info N %d", N);
    if (kind) continue;
    const double r = inverse_resid(N, a0, M(a, a + N * N));
    CHECK(r < 1e-10, "thread_inverse resid %g N %d", r, N);
  }
}

/* ---- per-thread kernels of the batched API ------------------------------ */
static double U() { return std::uniform_real_distribution<double>(-1, 1)(rng); }

/* off: the batch starts that many elements into v (1: not 16-byte
   aligned, so the packed tiles take the element-wise path). */
template <typename T> struct Buf {
  int rows, cols;
  int64_t ld, stride;
  int64_t batch, off;
  std::vector<T> v;
  Buf(int r, int c, int64_t ld_, int64_t pad, int64_t b, int64_t off_ = 0)
      : rows(r), cols(c), ld(ld_), stride(ld_ * c + pad), batch(b), off(off_),
        v(stride * b + 1 + off_, NAN) {}
  T *p() { return v.data() + off; }
  T &at(int64_t m, int i, int j) { return v[off + m * stride + i + j * ld]; }
  bool padding_nan() const {
    for (int64_t e = 0; e < off; ++e)
      if (!std::isnan(v[e])) return false;
    for (int64_t m = 0; m < batch; ++m)
      for (int64_t e = 0; e < stride; ++e) {
        int j = e / ld, i = e % ld;
        bool inside = j < cols && i < rows;
        if (!inside && !std::isnan(v[off + m * stride + e])) return false;
      }
    return std::isnan(v.back());
  }
};

/* As thread_launch does: one tile per block (the factorizations and the
   inverse; one emulated block per tile, block0 = its index) or one block
   whose grid-stride loop covers the batch (the solves). */
template <int OP, int N, typename T> static void launch(BatArgs<T> a) {
  constexpr int M = ThreadTile<N>::kMats;
  const int64_t tiles = (a.batch + M - 1) / M;
  const int64_t calls = axb_cuda::ThreadOneTile<OP>::value ? tiles : 1;
  for (int64_t b = 0; b < calls; ++b)
    run_threads(M, [&](int) { bat_thread_kernel<OP, N, T>(a, b); });
}

/* packed: A and S with lda = n and stride n^2 (tile_load's batched path
   from N = 5), B with ldb = n (three columns, so its column tiles are
   strided); otherwise every stride padded.  shift: the
   arrays start one element off 16-byte alignment (the packed tiles'
   element-wise path instead of 16-byte pieces). */
template <int N, typename T>
static void test(int64_t batch, bool packed, int shift = 0) {
  const double tol = sizeof(T) == 8 ? 1e-10 : 2e-3;
  const int n = N, pa = packed ? 0 : 1;
  // general matrices, every 4th singular (column n/2 zero)
  Buf<T> A(n, n, n + pa, 3 * pa, batch, shift),
      B(n, 3, n + 2 * pa, pa, batch, shift);
  std::vector<int> kind(batch);
  for (int64_t m = 0; m < batch; ++m) {
    kind[m] = m % 4 == 1;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        A.at(m, i, j) = (kind[m] && j == n / 2) ? 0 : U() + (i == j ? 0.5 : 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 3; ++j)
        B.at(m, i, j) = U();
  }
  auto solve_res = [&](int64_t m, Buf<T> &A0, Buf<T> &X, Buf<T> &B0, int nrhs) {
    double r = 0;
    for (int c = 0; c < nrhs; ++c)
      for (int i = 0; i < n; ++i) {
        double t = -B0.at(m, i, c);
        for (int j = 0; j < n; ++j)
          t += (double)A0.at(m, i, j) * X.at(m, j, c);
        r = std::max(r, fabs(t));
      }
    return r;
  };
  const int64_t sP = n + 2;
  std::vector<int> ipiv(sP * batch + 1, -7), info(batch + 1, -9);
  // getrf + getrs (3 rhs)
  {
    Buf<T> F = A, X = B;
    BatArgs<T> a{0,  n,       3, F.p(), F.ld,        F.stride, ipiv.data(),
                 sP, nullptr, 1, 0,     info.data(), batch};
    launch<BAT_GETRF, N>(a);
    BatArgs<T> s{0,  n,     3,    F.p(),    F.ld,    F.stride, ipiv.data(),
                 sP, X.p(), X.ld, X.stride, nullptr, batch};
    launch<BAT_GETRS, N>(s);
    CHECK(F.padding_nan() && X.padding_nan(), "getrf padding N %d", N);
    for (int64_t m = 0; m < batch; ++m) {
      CHECK(kind[m] ? info[m] == n / 2 + 1 : info[m] == 0,
            "getrf info %d N %d m %ld", info[m], N, (long)m);
      // P L U = A
      std::vector<double> PA(n * n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          PA[i + j * n] = A.at(m, i, j);
      for (int k = 0; k < n; ++k) {
        int p = ipiv[m * sP + k] - 1;
        CHECK(p >= k && p < n, "ipiv");
        for (int j = 0; j < n; ++j)
          std::swap(PA[k + j * n], PA[p + j * n]);
      }
      double r = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double t = 0;
          for (int k = 0; k <= std::min(i, j); ++k)
            t += (k == i ? 1.0 : (double)F.at(m, i, k)) * F.at(m, k, j);
          r = std::max(r, fabs(t - PA[i + j * n]));
        }
      CHECK(r < tol * 10, "getrf resid %g N %d", r, N);
      if (!kind[m])
        CHECK(solve_res(m, A, X, B, 3) < tol * 1000, "getrs resid %g N %d",
              solve_res(m, A, X, B, 3), N);
    }
  }
  // gesv, 1 rhs, no ipiv
  {
    Buf<T> F = A, X = B;
    BatArgs<T> a{0, n,     1,    F.p(),    F.ld,        F.stride, nullptr,
                 0, X.p(), X.ld, X.stride, info.data(), batch};
    launch<BAT_GESV, N>(a);
    CHECK(F.padding_nan() && X.padding_nan(), "gesv padding N %d", N);
    for (int64_t m = 0; m < batch; ++m) {
      CHECK(kind[m] ? info[m] == n / 2 + 1 : info[m] == 0, "gesv info");
      if (!kind[m])
        CHECK(solve_res(m, A, X, B, 1) < tol * 1000, "gesv resid N %d", N);
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c)
          if (kind[m] || c > 0)
            CHECK(X.at(m, i, c) == B.at(m, i, c), "gesv B changed");
    }
  }
  // inverse
  {
    Buf<T> V = A;
    BatArgs<T> a{0, n,       0, V.p(), V.ld,        V.stride, nullptr,
                 0, nullptr, 1, 0,     info.data(), batch};
    launch<BAT_INVERSE, N>(a);
    CHECK(V.padding_nan(), "inverse padding N %d", N);
    for (int64_t m = 0; m < batch; ++m) {
      CHECK(kind[m] ? info[m] == n / 2 + 1 : info[m] == 0,
            "inverse info %d N %d", info[m], N);
      double r = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          if (kind[m]) {
            CHECK(V.at(m, i, j) == A.at(m, i, j), "inverse changed");
            continue;
          }
          double t = 0;
          for (int k = 0; k < n; ++k)
            t += (double)A.at(m, i, k) * V.at(m, k, j);
          r = std::max(r, fabs(t - (i == j)));
        }
      CHECK(r < tol * 1000, "inverse resid %g N %d", r, N);
    }
  }
  // Cholesky: SPD = G G^T + n I, every 3rd not SPD (a negative diagonal at n/2)
  for (int up = 0; up < 2; ++up) {
    Buf<T> S(n, n, n + 2 * pa, pa, batch, shift);
    std::vector<int> bad(batch);
    for (int64_t m = 0; m < batch; ++m) {
      bad[m] = m % 3 == 2;
      std::vector<double> g(n * n);
      for (auto &x : g)
        x = U();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double t = 0;
          for (int k = 0; k < n; ++k)
            t += g[i + k * n] * g[j + k * n];
          S.at(m, i, j) = t + (i == j ? n : 0) -
                          (bad[m] && i == j && i == n / 2 ? 100.0 * n : 0);
        }
    }
    Buf<T> F = S, X = B;
    BatArgs<T> a{up, n,       3, F.p(), F.ld,        F.stride, nullptr,
                 0,  nullptr, 1, 0,     info.data(), batch};
    launch<BAT_POTRF, N>(a);
    BatArgs<T> s{up, n,     3,    F.p(),    F.ld,    F.stride, nullptr,
                 0,  X.p(), X.ld, X.stride, nullptr, batch};
    launch<BAT_POTRS, N>(s);
    CHECK(F.padding_nan() && X.padding_nan(), "potrf padding");
    for (int64_t m = 0; m < batch; ++m) {
      CHECK(bad[m] ? info[m] == n / 2 + 1 : info[m] == 0,
            "potrf info %d N %d up %d", info[m], N, up);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (up ? i > j : i < j)
            CHECK(F.at(m, i, j) == S.at(m, i, j), "potrf other triangle");
      if (bad[m]) continue;
      double r = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
          double t = 0;
          for (int k = 0; k <= j; ++k)
            t += (double)(up ? F.at(m, k, i) : F.at(m, i, k)) *
                 (up ? F.at(m, k, j) : F.at(m, j, k));
          r = std::max(r, fabs(t - S.at(m, i, j)));
        }
      CHECK(r < tol * 10 * n, "potrf resid %g N %d up %d", r, N, up);
      CHECK(solve_res(m, S, X, B, 3) < tol * 100, "potrs resid N %d", N);
    }
    Buf<T> G = S, Y = B;
    BatArgs<T> p{up, n,     1,    G.p(),    G.ld,        G.stride, nullptr,
                 0,  Y.p(), Y.ld, Y.stride, info.data(), batch};
    launch<BAT_POSV, N>(p);
    CHECK(G.padding_nan() && Y.padding_nan(), "posv padding");
    for (int64_t m = 0; m < batch; ++m) {
      CHECK(bad[m] ? info[m] == n / 2 + 1 : info[m] == 0, "posv info");
      if (!bad[m])
        CHECK(solve_res(m, S, Y, B, 1) < tol * 100, "posv resid N %d", N);
      else
        for (int i = 0; i < n; ++i)
          CHECK(Y.at(m, i, 0) == B.at(m, i, 0), "posv B changed");
    }
  }
}
template <int N> static void both() {
  for (int64_t b : {1, 3, 150}) {
    test<N, double>(b, false);
    test<N, float>(b, false);
  }
  test<N, double>(150, true);
  test<N, float>(131, true);
  test<N, double>(129, true, 1);
  test<N, float>(130, true, 1);
}
template <int N> static void exact_class() {
  constexpr int G = N <= 8 ? 8 : 16; /* the API's GroupLanes there */
  coop<N, G, true>(N);
  coop<N, G, false>(N);
}
template <int... N> static void exact_classes() { (exact_class<N>(), ...); }
static void all_ties() {
  for (int n : {2, 5, 7, 8}) {
    ties<8, 8, true>(n);
    ties<8, 8, false>(n);
    ties<8, 2, true>(n);
  }
  for (int n : {9, 16}) {
    ties<16, 16, true>(n);
    ties<16, 16, false>(n);
    ties<16, 8, true>(n);
    ties<16, 4, false>(n);
  }
  for (int n : {11, 12}) {
    ties<12, 16, true>(n);
    ties<12, 4, false>(n);
  }
  for (int n : {23, 24}) {
    ties<24, 32, true>(n);
    ties<24, 8, false>(n);
  }
  for (int n : {17, 24, 31, 32}) {
    ties<32, 32, true>(n);
    ties<32, 32, false>(n);
    ties<32, 16, true>(n);
    ties<32, 8, false>(n);
  }
  for (int n : {33, 48, 63, 64})
    ties<64, 64, false>(n);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "ties")) { /* the tie cases alone */
    all_ties();
    printf("ties: %d exact factorizations (pivots compared)\n", g_exact);
    CHECK(g_exact > 0, "ties: no exact factorization, no pivot compared");
    printf("device_emu ties: %d checks, %d failed\n", g_checks, g_fail);
    return g_fail != 0;
  }
  per_thread<1>();
  per_thread<2>();
  per_thread<3>();
  per_thread<4>();
  per_thread<5>();
  per_thread<6>();
  per_thread<7>();
  per_thread<8>();
  both<1>();
  both<2>();
  both<3>();
  both<4>();
  both<5>();
  both<6>();
  both<7>();
  both<8>();
  printf("per thread: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n = 1; n <= 8; ++n) {
    coop<8, 8, true>(n);
    coop<8, 8, false>(n);
    coop<8, 4, true>(n);
    coop<8, 2, true>(n);
    coop<8, 2, false>(n);
  }
  printf("NMAX 8: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n = 1; n <= 16; ++n) {
    coop<16, 16, true>(n);
    coop<16, 16, false>(n);
    coop<16, 8, true>(n);
    coop<16, 8, false>(n);
    coop<16, 4, true>(n);
    coop<16, 4, false>(n);
  }
  for (int n : {1, 7, 9, 11, 12}) { /* the API's size class 12 */
    coop<12, 16, true>(n);
    coop<12, 16, false>(n);
    coop<12, 4, false>(n);
  }
  /* the API's exact classes of the inverse and the one-rhs solve (slot
     and shuffles at n = NMAX, and one smaller n at the ends) */
  exact_classes<7, 9, 10, 11, 13, 14, 15>();
  coop<7, 8, true>(4);
  coop<15, 16, true>(8);
  printf("NMAX 16: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n : {1, 2, 5, 16, 17, 23, 24, 31, 32}) {
    coop<32, 32, false>(n);
    coop<32, 32, true>(n);
    coop<32, 16, true>(n);
    coop<32, 16, false>(n);
    coop<32, 8, false>(n);
  }
  for (int n : {1, 13, 17, 23, 24}) { /* the API's size class 24 */
    coop<24, 32, true>(n);
    coop<24, 32, false>(n);
    coop<24, 8, false>(n);
  }
  printf("NMAX 32: %d checks, %d failed\n", g_checks, g_fail);
  fflush(stdout);
  for (int n : {1, 33, 47, 64})
    coop<64, 64, false>(n);
  all_ties();
  printf("ties: %d exact factorizations (pivots compared)\n", g_exact);
  CHECK(g_exact > 0, "ties: no exact factorization, no pivot compared");
  printf("device_emu: %d checks, %d failed\n", g_checks, g_fail);
  return g_fail != 0;
}
