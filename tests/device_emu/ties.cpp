/* Part of tests/device_emu (device_emu.cpp includes it; not compiled
   alone): exact ties in the pivot columns: the
   group's pivot search takes LAPACK's pivot. */

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
