/* Part of tests/device_emu (device_emu.cpp includes it; not compiled
   alone): the cooperative group functions of
   axb_device.cuh on random, singular and not-SPD matrices, and
   thread_inverse. */

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

// P A: the rows of the n x n A interchanged as LAPACK's 1-based
// ipiv[0..n) says, each pivot checked to lie in k..n-1.
static void apply_pivots(M &A, int n, const int *ipiv) {
  for (int k = 0; k < n; ++k) {
    int p = ipiv[k] - 1;
    CHECK(p >= k && p < n, "ipiv");
    for (int j = 0; j < n; ++j)
      std::swap(A[k + j * n], A[p + j * n]);
  }
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
    apply_pivots(PA, n, piv[m].data());
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
