/*
 * Generators: determinism (bit-identical repeats, hard-coded hashes that
 * catch any change of the random stream), float = double rounded, the
 * promised ranges and structure of every kind, cond's singular values,
 * Poisson's pattern, the spec parser, right-hand sides and size limits.
 */
#include "testing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The reference sums below must round like the library's (no FMA). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static axb_dense gen(const char *text, axb_dtype t) {
  axb_gen_spec s;
  axb_dense A;
  memset(&A, 0, sizeof A);
  axb_status st = axb_gen_parse(NULL, text, &s);
  CHECK(st == AXB_SUCCESS, "parse '%s': %s", text, axb_strerror(st));
  if (st != AXB_SUCCESS) return A;
  st = axb_gen_dense(NULL, &s, t, &A);
  CHECK(st == AXB_SUCCESS, "generate '%s': %s", text, axb_strerror(st));
  return A;
}

static double at(const axb_dense *A, int64_t i, int64_t j) {
  return axb_dense_get(A, i, j);
}

/* FNV-1a over the entries' 64-bit patterns (independent of byte order). */
static uint64_t hash(const axb_dense *A) {
  uint64_t h = 1469598103934665603ULL;
  for (int64_t j = 0; j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i) {
      double v = at(A, i, j);
      uint64_t b;
      memcpy(&b, &v, sizeof b);
      for (int k = 0; k < 8; ++k) {
        h ^= (b >> (8 * k)) & 0xff;
        h *= 1099511628211ULL;
      }
    }
  return h;
}

static const char *const all_kinds[] = {
    "uniform:23",  "uniform1000:23",    "positive1000:23",
    "integer:23",  "diagonal:23",       "upper:23",
    "spd:23",      "spd-gram:23",       "diagdom:23",
    "hilbert:23",  "cond:23,kappa=1e6", "poisson2d:5",
    "poisson3d:3", "singular:23,col=4"};
enum { NKINDS = sizeof all_kinds / sizeof *all_kinds };

/* Hashes of the double matrices above (seed 42).  A change here means the
   random stream or a kind's formula changed: every stored benchmark input
   changes with it. */
static const uint64_t expected_hash[NKINDS] = {
    0xf9565921f8dd5f39ULL, 0x858d09ce51bc781dULL, 0x1a13e77e7e30cfbeULL,
    0xfbb9a2c740abb7b3ULL, 0x4b410b921b2eb711ULL, 0xd38c2776edabf2d1ULL,
    0xb9a0cb3890934145ULL, 0x6753a247bf0689edULL, 0x9a0fa30c6e8f1a40ULL,
    0x99b15043a1a4519dULL, 0x1e6fc1b380fcb197ULL, 0xb6b865ce83b580b3ULL,
    0x91cc60a8d24f6f4bULL, 0x376dfa1d527ec591ULL};

static void test_determinism(void) {
  for (int k = 0; k < NKINDS; ++k) {
    axb_dense A = gen(all_kinds[k], AXB_F64), B = gen(all_kinds[k], AXB_F64);
    axb_dense F = gen(all_kinds[k], AXB_F32);
    int64_t n = A.rows;
    CHECK(n == B.rows && n == F.rows && A.ld == n, "%s: size", all_kinds[k]);
    CHECK(memcmp(A.data, B.data, (size_t)(n * n) * sizeof(double)) == 0,
          "%s: two calls differ", all_kinds[k]);
    uint64_t hsh = hash(&A);
    CHECK(hsh == expected_hash[k], "%s: hash 0x%016llxULL", all_kinds[k],
          (unsigned long long)hsh);
    int same = 1;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        same &= ((const float *)F.data)[i + j * n] == (float)at(&A, i, j);
    CHECK(same, "%s: float is not the rounded double", all_kinds[k]);
    axb_dense_destroy(&A);
    axb_dense_destroy(&B);
    axb_dense_destroy(&F);
  }
  /* A few values by hand: entries 0, 1 and 15 of uniform:4 (seed 42),
     checked against an independent Python xoshiro256** + splitmix64. */
  axb_dense U = gen("uniform:4", AXB_F64);
  CHECK(at(&U, 0, 0) == -0.8322740578802356 &&
            at(&U, 1, 0) == -0.24203949867466268 &&
            at(&U, 3, 3) == 0.7555344592426995,
        "uniform:4 values changed: %.17g %.17g %.17g", at(&U, 0, 0),
        at(&U, 1, 0), at(&U, 3, 3));
  axb_dense V = gen("uniform:4,seed=43", AXB_F64);
  CHECK(memcmp(U.data, V.data, 16 * sizeof(double)) != 0, "seed ignored");
  axb_dense_destroy(&U);
  axb_dense_destroy(&V);
}

/* Every entry satisfies lo <= a <= hi (closed) and, when nonzero != 0,
   a != 0; in both dtypes. */
static void check_range(const char *text, double lo, double hi, int nonzero,
                        int integral) {
  for (int t = 1; t <= 2; ++t) {
    axb_dense A = gen(text, (axb_dtype)t);
    int ok = 1;
    double mn = INFINITY, mx = -INFINITY;
    for (int64_t j = 0; j < A.cols; ++j)
      for (int64_t i = 0; i < A.rows; ++i) {
        double v = at(&A, i, j);
        ok &= v >= lo && v <= hi && (!nonzero || v != 0);
        ok &= !integral || v == floor(v);
        mn = fmin(mn, v);
        mx = fmax(mx, v);
      }
    CHECK(ok, "%s (%s): entry outside [%g, %g]%s (min %g max %g)", text,
          axb_dtype_name((axb_dtype)t), lo, hi, nonzero ? " or zero" : "", mn,
          mx);
    if (integral)
      CHECK(mn == lo && mx == hi, "%s: range [%g, %g] not covered", text, mn,
            mx);
    axb_dense_destroy(&A);
  }
}

static void test_ranges(void) {
  /* [-1, 1]: in float an entry within 2^-25 of +-1 rounds to +-1. */
  check_range("uniform:60", -1, 1, 1, 0);
  check_range("uniform1000:60", -1000, 1000, 1, 0);
  check_range("positive1000:60", 0, 1000, 1, 0);
  check_range("integer:100", -100, 100, 0, 1);
  check_range("singular:60", -1, 1, 0, 0);
}

/* Structure: zero outside the allowed pattern, diagonal in [1, 2]. */
static void test_triangular(void) {
  axb_dense D = gen("diagonal:50", AXB_F64), U = gen("upper:50", AXB_F64);
  int okd = 1, oku = 1;
  for (int64_t j = 0; j < 50; ++j)
    for (int64_t i = 0; i < 50; ++i) {
      double d = at(&D, i, j), u = at(&U, i, j);
      if (i == j) {
        okd &= d >= 1 && d <= 2;
        oku &= u >= 1 && u <= 2;
      } else {
        okd &= d == 0;
        oku &= i > j ? u == 0 : fabs(u) < 1 && u != 0;
      }
    }
  CHECK(okd, "diagonal structure");
  CHECK(oku, "upper structure");
  axb_dense_destroy(&D);
  axb_dense_destroy(&U);
}

/* Exactly symmetric with positive diagonal; a plain Cholesky succeeds. */
static void check_spd(const char *text) {
  axb_dense A = gen(text, AXB_F64);
  int64_t n = A.rows;
  int sym = 1, pos = 1;
  for (int64_t j = 0; j < n; ++j) {
    pos &= at(&A, j, j) > 0;
    for (int64_t i = 0; i < n; ++i)
      sym &= at(&A, i, j) == at(&A, j, i);
  }
  CHECK(sym && pos, "%s: symmetric %d positive diagonal %d", text, sym, pos);
  double *l = calloc((size_t)(n * n), sizeof *l);
  int spd = 1;
  for (int64_t j = 0; j < n && spd; ++j) {
    double d = at(&A, j, j);
    for (int64_t k = 0; k < j; ++k)
      d -= l[j + k * n] * l[j + k * n];
    spd = d > 0;
    if (!spd) break;
    l[j + j * n] = sqrt(d);
    for (int64_t i = j + 1; i < n; ++i) {
      double s = at(&A, i, j);
      for (int64_t k = 0; k < j; ++k)
        s -= l[i + k * n] * l[j + k * n];
      l[i + j * n] = s / l[j + j * n];
    }
  }
  CHECK(spd, "%s: Cholesky fails", text);
  free(l);
  axb_dense_destroy(&A);
}

static void test_diagdom(void) {
  for (int t = 1; t <= 2; ++t) {
    axb_dense A = gen("diagdom:80", (axb_dtype)t);
    int ok = 1;
    for (int64_t i = 0; i < 80; ++i) {
      double s = 0;
      for (int64_t j = 0; j < 80; ++j)
        if (j != i) s += fabs(at(&A, i, j));
      ok &= fabs(at(&A, i, i)) > s;
    }
    CHECK(ok, "diagdom not strictly dominant (%s)",
          axb_dtype_name((axb_dtype)t));
    axb_dense_destroy(&A);
  }
}

static void test_hilbert(void) {
  axb_dense H = gen("hilbert:9", AXB_F64);
  int ok = 1;
  for (int64_t j = 0; j < 9; ++j)
    for (int64_t i = 0; i < 9; ++i)
      ok &= at(&H, i, j) == 1.0 / (i + j + 1);
  CHECK(ok, "hilbert entries");
  axb_dense_destroy(&H);
}

/* ||A||_F^2 = sum sigma_i^2 (U, V orthogonal), max |a_ij| <= sigma_0 = 1. */
static void check_cond(int64_t n, double kappa) {
  char text[64];
  snprintf(text, sizeof text, "cond:%lld,kappa=%g,seed=9", (long long)n, kappa);
  axb_dense A = gen(text, AXB_F64);
  double want = 0;
  for (int64_t i = 0; i < n; ++i) {
    double s = n > 1 ? pow(kappa, -(double)i / (double)(n - 1)) : 1;
    want += s * s;
  }
  double fro = axb_matrix_norm(&A, AXB_NORM_FRO);
  double mx = axb_matrix_norm(&A, AXB_NORM_MAX);
  CHECK(fabs(fro * fro - want) <= 1e-12 * want,
        "%s: ||A||_F^2 %.17g want %.17g", text, fro * fro, want);
  CHECK(mx <= 1 + 1e-14 && mx > 0, "%s: max entry %g", text, mx);
  axb_dense_destroy(&A);
}

/* kappa = 1: A = U D V^T is orthogonal, so A^T A = I. */
static void test_cond_orthogonal(void) {
  int64_t n = 60;
  axb_dense A = gen("cond:60,kappa=1", AXB_F64);
  double worst = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k)
        s += at(&A, k, i) * at(&A, k, j);
      worst = fmax(worst, fabs(s - (i == j)));
    }
  CHECK(worst < 1e-13, "cond kappa=1: |A^T A - I| = %g", worst);
  axb_dense_destroy(&A);
}

static void test_singular(void) {
  axb_dense S = gen("singular:30,col=7", AXB_F64),
            U = gen("uniform:30", AXB_F64);
  axb_dense D = gen("singular:31", AXB_F64); /* default col = 15 */
  int ok = 1;
  for (int64_t j = 0; j < 30; ++j)
    for (int64_t i = 0; i < 30; ++i)
      ok &= at(&S, i, j) == (j == 7 ? 0 : at(&U, i, j));
  CHECK(ok, "singular = uniform with column 7 zeroed");
  CHECK(at(&D, 0, 15) == 0 && at(&D, 30, 15) == 0 && at(&D, 0, 14) != 0,
        "default column n/2");
  axb_dense_destroy(&S);
  axb_dense_destroy(&U);
  axb_dense_destroy(&D);
}

static void check_poisson(const char *text, int dim, int64_t g) {
  axb_gen_spec s;
  axb_gen_parse(NULL, text, &s);
  int64_t n = axb_gen_order(&s);
  CHECK(n == (dim == 2 ? g * g : g * g * g), "%s: order %lld", text,
        (long long)n);
  for (int t = 1; t <= 2; ++t) {
    axb_csr S;
    axb_status st = axb_gen_csr(NULL, &s, (axb_dtype)t, &S);
    CHECK_STATUS(NULL, st, AXB_SUCCESS);
    if (st != AXB_SUCCESS) continue;
    int64_t want = dim == 2 ? 5 * g * g - 4 * g : 7 * g * g * g - 6 * g * g;
    CHECK(S.nnz == want && S.rowptr[n] == want, "%s: nnz %lld want %lld", text,
          (long long)S.nnz, (long long)want);
    axb_dense D, G = gen(text, (axb_dtype)t);
    st = axb_csr_to_dense(NULL, &S, &D);
    CHECK_STATUS(NULL, st, AXB_SUCCESS);
    int sorted = 1, sym = 1, diag = 1;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = S.rowptr[i]; k < S.rowptr[i + 1]; ++k) {
        if (k > S.rowptr[i]) sorted &= S.colind[k] > S.colind[k - 1];
        if (S.colind[k] == i) diag &= at(&D, i, i) == 2.0 * dim;
      }
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        sym &= at(&D, i, j) == at(&D, j, i);
    size_t bytes = (size_t)(n * n) * axb_dtype_size((axb_dtype)t);
    CHECK(sorted && sym && diag, "%s: sorted %d symmetric %d diagonal %d", text,
          sorted, sym, diag);
    CHECK(n == 0 || memcmp(D.data, G.data, bytes) == 0,
          "%s: dense != csr_to_dense(csr)", text);
    axb_dense_destroy(&D);
    axb_dense_destroy(&G);
    axb_csr_destroy(&S);
  }
}

/* convdiff3d: Poisson 3-D's pattern; entries -1 - 2 pe before the
   diagonal, 6 + 6 pe on it, -1 after it; CSR == dense; unsymmetric with
   zero row sums in the interior (a consistent discretisation: constants
   are in the kernel of the operator away from the boundary). */
static void check_convdiff(const char *text, int64_t g, double pe) {
  axb_gen_spec s;
  CHECK_STATUS(NULL, axb_gen_parse(NULL, text, &s), AXB_SUCCESS);
  CHECK(s.kind == AXB_GEN_CONVDIFF3D && s.kappa == pe, "%s: kind %d pe %g",
        text, (int)s.kind, s.kappa);
  int64_t n = axb_gen_order(&s);
  CHECK(n == g * g * g, "%s: order %lld", text, (long long)n);
  axb_csr S;
  axb_status st = axb_gen_csr(NULL, &s, AXB_F64, &S);
  CHECK_STATUS(NULL, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  CHECK(S.nnz == 7 * n - 6 * g * g, "%s: nnz %lld", text, (long long)S.nnz);
  const double *v = (const double *)S.values;
  int values = 1, interior_zero = 1, unsym = 0;
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int64_t k = S.rowptr[i]; k < S.rowptr[i + 1]; ++k) {
      int64_t j = S.colind[k];
      double want = j < i ? -1 - 2 * pe : j > i ? -1 : 6 + 6 * pe;
      values &= v[k] == want;
      sum += v[k];
      if (j != i) unsym |= v[k] != -1;
    }
    if (S.rowptr[i + 1] - S.rowptr[i] == 7) interior_zero &= sum == 0;
  }
  CHECK(values && interior_zero && (unsym || n <= 1),
        "%s: values %d interior row sums %d unsymmetric %d", text, values,
        interior_zero, unsym);
  axb_dense D, G = gen(text, AXB_F64);
  axb_csr_to_dense(NULL, &S, &D);
  CHECK(n == 0 || memcmp(D.data, G.data, (size_t)(n * n) * sizeof(double)) == 0,
        "%s: dense != csr_to_dense(csr)", text);
  axb_dense_destroy(&D);
  axb_dense_destroy(&G);
  axb_csr_destroy(&S);
}

/* Dense kinds through axb_gen_csr: the dense matrix without its zeros. */
static void check_csr_of_dense(const char *text, int64_t want_nnz) {
  axb_gen_spec s;
  axb_gen_parse(NULL, text, &s);
  axb_csr S;
  axb_status st = axb_gen_csr(NULL, &s, AXB_F32, &S);
  CHECK_STATUS(NULL, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  CHECK(want_nnz < 0 || S.nnz == want_nnz, "%s: nnz %lld want %lld", text,
        (long long)S.nnz, (long long)want_nnz);
  axb_dense D, G = gen(text, AXB_F32);
  axb_csr_to_dense(NULL, &S, &D);
  int64_t n = G.rows;
  CHECK(memcmp(D.data, G.data, (size_t)(n * n) * sizeof(float)) == 0,
        "%s: csr differs from dense", text);
  int nz = 1;
  for (int64_t k = 0; k < S.nnz; ++k)
    nz &= ((float *)S.values)[k] != 0;
  CHECK(nz, "%s: explicit zero kept", text);
  axb_dense_destroy(&D);
  axb_dense_destroy(&G);
  axb_csr_destroy(&S);
}

static void parse_ok(const char *text, axb_gen_kind kind, int64_t n,
                     double kappa, int64_t col, uint64_t seed) {
  axb_gen_spec s;
  axb_status st = axb_gen_parse(NULL, text, &s);
  CHECK(st == AXB_SUCCESS && s.kind == kind && s.n == n && s.kappa == kappa &&
            s.col == col && s.seed == seed,
        "parse '%s': st %d kind %d n %lld kappa %g col %lld seed %llu", text,
        st, (int)s.kind, (long long)s.n, s.kappa, (long long)s.col,
        (unsigned long long)s.seed);
}

/* A bad spec: AXB_ERR_INVALID, spec untouched, the detail names `token`. */
static void parse_bad(axb_handle h, const char *text, const char *token,
                      int lists_kinds) {
  axb_gen_spec s = {AXB_GEN_HILBERT, 3, 1, 1, 1};
  axb_status st = axb_gen_parse(h, text, &s);
  CHECK_STATUS(h, st, AXB_ERR_INVALID);
  CHECK(s.kind == AXB_GEN_HILBERT && s.n == 3, "'%s': spec changed", text);
  const char *d = axb_detail(h);
  CHECK(strstr(d, token) != NULL, "'%s': detail '%s' lacks '%s'", text, d,
        token);
  if (lists_kinds)
    CHECK(strstr(d, "uniform1000") && strstr(d, "poisson3d"),
          "'%s': detail '%s' lists no kinds", text, d);
}

static void test_parse(void) {
  parse_ok("spd:2000", AXB_GEN_SPD_SHIFT, 2000, 1e3, 1000, 42);
  parse_ok("spd-shift:3", AXB_GEN_SPD_SHIFT, 3, 1e3, 1, 42);
  parse_ok("cond:500,kappa=1e8", AXB_GEN_COND, 500, 1e8, 250, 42);
  parse_ok("poisson2d:64", AXB_GEN_POISSON2D, 64, 1e3, 32, 42);
  parse_ok("uniform:1000,seed=7", AXB_GEN_UNIFORM, 1000, 1e3, 500, 7);
  parse_ok("singular:10,col=3,seed=0x10", AXB_GEN_SINGULAR, 10, 1e3, 3, 16);
  parse_ok("hilbert:0", AXB_GEN_HILBERT, 0, 1e3, 0, 42);
  parse_ok("convdiff3d:50", AXB_GEN_CONVDIFF3D, 50, 1, 25, 42);
  parse_ok("convdiff3d:8,peclet=0.25", AXB_GEN_CONVDIFF3D, 8, 0.25, 4, 42);
  for (int k = 0; k < AXB_GEN_COUNT; ++k) {
    char text[64];
    snprintf(text, sizeof text, "%s:5", axb_gen_kind_name((axb_gen_kind)k));
    axb_gen_spec s;
    CHECK(axb_gen_parse(NULL, text, &s) == AXB_SUCCESS && (int)s.kind == k,
          "kind name '%s' does not parse back", text);
  }
  CHECK(strcmp(axb_gen_kind_name(AXB_GEN_COUNT), "unknown") == 0, "name");

  axb_handle h = test_handle(AXB_BACKEND_REF);
  parse_bad(h, "foo:10", "'foo'", 1);
  parse_bad(h, "uniform", "uniform", 1);
  parse_bad(h, "", "KIND:N", 1);
  parse_bad(h, "Uniform:3", "'Uniform'", 1);
  parse_bad(h, "uniform:-5", "'-5'", 0);
  parse_bad(h, "uniform:abc", "'abc'", 0);
  parse_bad(h, "uniform:", "''", 0);
  parse_bad(h, "uniform:12x", "'12x'", 0);
  parse_bad(h, "uniform:99999999999999999999", "99999999999999999999", 0);
  parse_bad(h, "uniform:10,bogus=1", "'bogus'", 0);
  parse_bad(h, "uniform:10,seed", "'seed'", 0);
  parse_bad(h, "uniform:10,seed=-1", "'-1'", 0);
  parse_bad(h, "uniform:10,seed=1,seed=2", "seed", 0);
  parse_bad(h, "uniform:10,", "''", 0);
  parse_bad(h, "uniform:10,kappa=5", "kappa", 0);
  parse_bad(h, "cond:10,kappa=0.5", "'0.5'", 0);
  parse_bad(h, "cond:10,kappa=inf", "'inf'", 0);
  parse_bad(h, "cond:10,kappa=nan", "'nan'", 0);
  parse_bad(h, "singular:10,col=10", "'10'", 0);
  parse_bad(h, "convdiff3d:10,peclet=0", "'0'", 0);
  parse_bad(h, "convdiff3d:10,peclet=inf", "'inf'", 0);
  parse_bad(h, "poisson3d:10,peclet=1", "peclet", 0);
  CHECK_STATUS(h, axb_gen_parse(h, NULL, NULL), AXB_ERR_INVALID);
  axb_gen_spec s;
  CHECK_STATUS(h, axb_gen_parse(h, "uniform:3", &s), AXB_SUCCESS);
  CHECK(axb_detail(h)[0] == '\0', "detail not cleared after success");
  axb_handle_destroy(h);
}

/* B = A X_true summed in double over j ascending, then rounded. */
static void check_rhs(const char *text, axb_dtype t, axb_rhs_kind kind) {
  axb_dense A = gen(text, t), X, B;
  axb_status st = axb_gen_rhs(NULL, &A, 3, kind, 5, &X, &B);
  CHECK_STATUS(NULL, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  int64_t n = A.rows;
  CHECK(X.rows == n && X.cols == 3 && B.rows == n && B.cols == 3 &&
            X.dtype == t && B.dtype == t,
        "rhs shapes");
  int ok = 1, xr = 1;
  for (int64_t c = 0; c < 3; ++c)
    for (int64_t i = 0; i < n; ++i) {
      double s = 0, x = at(&X, i, c);
      for (int64_t j = 0; j < n; ++j)
        s += at(&A, i, j) * at(&X, j, c);
      ok &= at(&B, i, c) == (t == AXB_F32 ? (double)(float)s : s);
      xr &= kind == AXB_RHS_ONES ? x == 1 : (x > -1 && x < 1 && x != 0);
    }
  CHECK(ok, "%s: B != A X_true", text);
  CHECK(xr, "%s: X_true values", text);
  CHECK(axb_check_solve(&A, &X, &B) < 1, "%s: check_solve %g", text,
        axb_check_solve(&A, &X, &B));
  axb_dense X2, B2;
  axb_gen_rhs(NULL, &A, 3, kind, 5, &X2, &B2);
  size_t sz = axb_dtype_size(t) * (size_t)(3 * n);
  CHECK(memcmp(X.data, X2.data, sz) == 0 && memcmp(B.data, B2.data, sz) == 0,
        "rhs not deterministic");
  axb_dense_destroy(&A);
  axb_dense_destroy(&X);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X2);
  axb_dense_destroy(&B2);
}

static void test_sizes(void) {
  axb_handle h = test_handle(AXB_BACKEND_REF);
  axb_gen_spec s = {AXB_GEN_UNIFORM, 0, 0, -1, 1};
  axb_dense A;
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_SUCCESS);
  CHECK(A.rows == 0 && A.cols == 0 && A.ld == 1, "n = 0: %lld x %lld ld %lld",
        (long long)A.rows, (long long)A.cols, (long long)A.ld);
  axb_dense_destroy(&A);
  for (int k = 0; k < AXB_GEN_COUNT; ++k) {
    s.kind = (axb_gen_kind)k;
    axb_csr S;
    CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F32, &A), AXB_SUCCESS);
    CHECK_STATUS(h, axb_gen_csr(h, &s, AXB_F64, &S), AXB_SUCCESS);
    CHECK(S.rows == 0 && S.nnz == 0, "n = 0 csr");
    axb_dense_destroy(&A);
    axb_csr_destroy(&S);
  }
  s.kind = AXB_GEN_UNIFORM;
  s.n = -1;
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_INVALID);
  CHECK(A.data == NULL, "failed call leaves A empty");
  s.n = 10000000; /* 800 TB */
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_OUT_OF_MEMORY);
  CHECK(strstr(axb_detail(h), "available memory") != NULL, "detail: %s",
        axb_detail(h));
  s.n = 3000000000LL; /* n^2 overflows */
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F32, &A), AXB_ERR_OUT_OF_MEMORY);
  s.kind = AXB_GEN_POISSON3D;
  s.n = 3000000;
  CHECK(axb_gen_order(&s) == -1, "g^3 overflow order");
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_OUT_OF_MEMORY);
  axb_csr S;
  CHECK_STATUS(h, axb_gen_csr(h, &s, AXB_F64, &S), AXB_ERR_OUT_OF_MEMORY);
  s.n = 1000000; /* g^3 = 1e18 fits, CSR does not */
  CHECK_STATUS(h, axb_gen_csr(h, &s, AXB_F64, &S), AXB_ERR_OUT_OF_MEMORY);
  s.kind = AXB_GEN_COND;
  s.n = 4;
  s.kappa = 0.5;
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_INVALID);
  s.kind = AXB_GEN_SINGULAR;
  s.col = 4;
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_INVALID);
  s.kind = AXB_GEN_COUNT;
  CHECK_STATUS(h, axb_gen_dense(h, &s, AXB_F64, &A), AXB_ERR_INVALID);
  CHECK(axb_gen_order(&s) == -1, "bad kind order");
  s.kind = AXB_GEN_UNIFORM;
  CHECK_STATUS(h, axb_gen_dense(h, &s, (axb_dtype)3, &A), AXB_ERR_INVALID);
  /* Hand-built spec: kappa 0 and col < 0 are the defaults. */
  axb_gen_spec c0 = {AXB_GEN_COND, 5, 0, 0, 42}, c1;
  axb_gen_parse(NULL, "cond:5", &c1);
  axb_dense C0, C1;
  axb_gen_dense(NULL, &c0, AXB_F64, &C0);
  axb_gen_dense(NULL, &c1, AXB_F64, &C1);
  CHECK(memcmp(C0.data, C1.data, 25 * sizeof(double)) == 0, "kappa default");
  axb_dense_destroy(&C0);
  axb_dense_destroy(&C1);
  axb_dense_destroy(&A);

  axb_dense X, B;
  CHECK_STATUS(h, axb_gen_rhs(h, NULL, 1, AXB_RHS_ONES, 1, &X, &B),
               AXB_ERR_INVALID);
  axb_dense P = gen("poisson2d:1", AXB_F64);
  CHECK(P.rows == 1 && at(&P, 0, 0) == 4, "poisson2d:1");
  CHECK_STATUS(h, axb_gen_rhs(h, &P, -1, AXB_RHS_ONES, 1, &X, &B),
               AXB_ERR_INVALID);
  CHECK_STATUS(h, axb_gen_rhs(h, &P, 0, AXB_RHS_ONES, 1, &X, &B), AXB_SUCCESS);
  CHECK(X.cols == 0 && B.cols == 0 && B.rows == 1, "nrhs = 0");
  axb_dense_destroy(&X);
  axb_dense_destroy(&B);
  axb_dense_destroy(&P);
  axb_handle_destroy(h);
}

int main(void) {
  test_determinism();
  test_ranges();
  test_triangular();
  check_spd("spd:70");
  check_spd("spd-gram:70");
  check_spd("spd:1");
  test_diagdom();
  test_hilbert();
  check_cond(1, 10);
  check_cond(2, 1e4);
  check_cond(90, 1e3);
  check_cond(131, 1e12);
  test_cond_orthogonal();
  test_singular();
  check_poisson("poisson2d:7", 2, 7);
  check_poisson("poisson3d:4", 3, 4);
  check_poisson("poisson2d:1", 2, 1);
  check_poisson("poisson3d:0", 3, 0);
  check_convdiff("convdiff3d:5", 5, 1);
  check_convdiff("convdiff3d:4,peclet=3", 4, 3);
  check_convdiff("convdiff3d:1", 1, 1);
  check_csr_of_dense("diagonal:40", 40);
  check_csr_of_dense("singular:20,col=0", 20 * 19);
  check_csr_of_dense("integer:30", -1);
  check_csr_of_dense("upper:25", 25 * 26 / 2);
  test_parse();
  check_rhs("integer:40", AXB_F64, AXB_RHS_ONES);
  check_rhs("uniform:37", AXB_F32, AXB_RHS_ONES);
  check_rhs("spd-gram:33", AXB_F64, AXB_RHS_RANDOM);
  check_rhs("cond:20", AXB_F32, AXB_RHS_RANDOM);
  test_sizes();
  return test_finish("test_gen");
}
