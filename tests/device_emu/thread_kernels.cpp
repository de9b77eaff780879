/* Part of tests/device_emu (device_emu.cpp includes it; not compiled
   alone): the per-thread kernels of the batched
   API (batched_thread.cuh) and the exact classes of the inverse and the
   one-rhs solve. */

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
      apply_pivots(PA, n, &ipiv[m * sP]);
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
