/*
 * The CPU backend's own tests (issue 3), beyond the per-backend suites:
 * sizes that run the blocked look-ahead paths over several blocks (600,
 * 1000, 1537, 3001; panels of 128/192 columns), thread counts 1, 2 and 3,
 * leading dimensions above n, bitwise determinism of two runs with the
 * same thread count, a failure found in a late panel (not SPD, singular),
 * rectangular LU, the blocked Gauss-Jordan inverse, and the OpenMP study
 * variants (Cholesky-Crout with and without its sequential cutoff,
 * Gauss-Jordan with rows in parallel) at sizes where they fork.
 *
 * Large results are judged by the backward error of a solve with the
 * computed factors or inverse (O(n^2), DESIGN.md threshold 30); the full
 * O(n^3) checks run at 600.
 */
#include "testing.h"

#include "backend/omp/omp.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static axb_handle h;

static axb_dense gen(axb_gen_kind kind, int64_t n, axb_dtype t, int64_t col) {
  return test_gen(h, kind, n, t, 0, col, 42 + (uint64_t)n);
}

static int same_bits(const axb_dense *X, const axb_dense *Y) {
  const size_t es = axb_dtype_size(X->dtype);
  return !memcmp(X->data, Y->data, (size_t)(X->ld * X->cols) * es);
}

#define TYPED(t, dcall, scall) ((t) == AXB_F64 ? (dcall) : (scall))

static axb_status getrf(axb_dense *A, int64_t *ipiv, int64_t *info) {
  return TYPED(A->dtype,
               axb_dgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info),
               axb_sgetrf(h, A->rows, A->cols, A->data, A->ld, ipiv, info));
}

/* Backward error of x solving A x = b with F, by kind:
   'L' getrs, 'l'/'u' potrs lower/upper, 'I' x = F b (F an inverse). */
static double solve_ratio(const axb_dense *A, const axb_dense *F,
                          const int64_t *ipiv, char kind) {
  const int64_t n = A->rows;
  axb_dense Xt, B, X;
  if (axb_gen_rhs(h, A, 2, AXB_RHS_RANDOM, 3, &Xt, &B) != AXB_SUCCESS) exit(1);
  if (axb_dense_create(&X, n, 2, A->dtype) != AXB_SUCCESS) exit(1);
  axb_status st = AXB_SUCCESS;
  int64_t info = 0;
  if (kind == 'I') {
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t i = 0; i < n; ++i) {
        double s = 0;
        for (int64_t j = 0; j < n; ++j)
          s += axb_dense_get(F, i, j) * axb_dense_get(&B, j, c);
        axb_dense_set(&X, i, c, s);
      }
  } else {
    memcpy(X.data, B.data, (size_t)(2 * n) * axb_dtype_size(A->dtype));
    const axb_uplo u = kind == 'u' ? AXB_UPPER : AXB_LOWER;
    if (kind == 'L')
      st = TYPED(A->dtype,
                 axb_dgetrs(h, AXB_NO_TRANS, n, 2, F->data, F->ld, ipiv, X.data,
                            n, &info),
                 axb_sgetrs(h, AXB_NO_TRANS, n, 2, F->data, F->ld, ipiv, X.data,
                            n, &info));
    else
      st = TYPED(A->dtype,
                 axb_dpotrs(h, u, n, 2, F->data, F->ld, X.data, n, &info),
                 axb_spotrs(h, u, n, 2, F->data, F->ld, X.data, n, &info));
  }
  const double r = st == AXB_SUCCESS ? axb_check_solve(A, &X, &B) : 1e300;
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  return r;
}

/* ---- LU ------------------------------------------------------------------ */

static void lu_case(int64_t n, axb_dtype t, int threads, int full) {
  axb_set_threads(h, threads);
  axb_dense A = gen(AXB_GEN_UNIFORM, n, t, 0);
  axb_dense F = test_copy_ld(&A, n + 3), G = test_copy_ld(&A, n + 3);
  int64_t *p = calloc((size_t)n, sizeof *p), *q = calloc((size_t)n, sizeof *q);
  int64_t info = -1;
  axb_status st = getrf(&F, p, &info);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(info == 0, "getrf n=%lld info %lld", (long long)n, (long long)info);
  CHECK(test_padding_intact(&F), "getrf n=%lld wrote outside A", (long long)n);
  if (full)
    CHECK_RATIO(axb_check_lu(&A, &F, p), "getrf n=%lld %s threads=%d",
                (long long)n, axb_dtype_name(t), threads);
  CHECK_RATIO(solve_ratio(&A, &F, p, 'L'), "getrf+getrs n=%lld %s threads=%d",
              (long long)n, axb_dtype_name(t), threads);
  /* Determinism: the same thread count gives the same bits. */
  st = getrf(&G, q, &info);
  CHECK(st == AXB_SUCCESS && same_bits(&F, &G) &&
            !memcmp(p, q, (size_t)n * sizeof *p),
        "getrf n=%lld threads=%d: two runs differ", (long long)n, threads);
  free(p);
  free(q);
  axb_dense_destroy(&F);
  axb_dense_destroy(&G);
  axb_dense_destroy(&A);
}

/* Pivot search of the leaves (LAPACK's i?amax: first index of the largest
   |a_ic|, NaN never larger) across the 64-row chunks of the search, with a
   NaN in a chunk: column 0 ties at rows 70 and 150 (NaN at 10 and 200);
   column 1 (column 0 = 10 e_0, so it is not changed below row 0) ties at
   rows 80, 120 and 130 with a NaN at 100 in the chunk of rows 80 and 120
   (the scalar search) and 130 in the next (the bitwise one); a third case
   puts the NaN first, where it is taken.  ipiv[0..1] are then fixed. */
static void lu_pivot_search(axb_dtype t, int nan_first) {
  axb_set_threads(h, 1);
  const int64_t n = 300;
  axb_dense A = gen(AXB_GEN_UNIFORM, n, t, 0);
  for (int64_t i = 0; i < n; ++i) {
    axb_dense_set(&A, i, 0, i == 0 ? 10.0 : 0.0);
    if (!nan_first) {
      if (i == 80 || i == 120 || i == 130) axb_dense_set(&A, i, 1, -7.0);
      if (i == 100) axb_dense_set(&A, i, 1, NAN);
    }
  }
  if (nan_first) {
    for (int64_t i = 0; i < n; ++i)
      axb_dense_set(&A, i, 0, i == 0 ? NAN : (i == 70 || i == 150 ? 5 : 0.5));
    axb_dense_set(&A, 200, 0, NAN);
  }
  int64_t *p = calloc((size_t)n, sizeof *p), info = -1;
  axb_dense F = test_copy_ld(&A, n);
  const axb_status st = getrf(&F, p, &info);
  CHECK(st == AXB_SUCCESS || st == AXB_ERR_SINGULAR, "pivots: status %d", st);
  if (nan_first)
    CHECK(p[0] == 1, "NaN first: ipiv[0] %lld", (long long)p[0]);
  else
    CHECK(p[0] == 1 && p[1] == 81, "pivot ties: ipiv %lld %lld",
          (long long)p[0], (long long)p[1]);
  /* Column 0 with ties and NaN below a finite first entry. */
  axb_dense G = test_copy_ld(&A, n);
  for (int64_t i = 0; i < n; ++i)
    axb_dense_set(&G, i, 0,
                  i == 10 || i == 200 ? NAN : (i == 70 || i == 150 ? -5 : 0.5));
  getrf(&G, p, &info);
  CHECK(p[0] == 71, "column 0 ties: ipiv[0] %lld", (long long)p[0]);
  free(p);
  axb_dense_destroy(&G);
  axb_dense_destroy(&F);
  axb_dense_destroy(&A);
}

/* Rectangular m x n (both shapes) through the look-ahead path: P A = L U
   checked entry by entry on a sample, relative to max |a_ij|. */
static void lu_rect(int64_t m, int64_t n) {
  axb_set_threads(h, 2);
  axb_dense A;
  if (axb_dense_create(&A, m, n, AXB_F64) != AXB_SUCCESS) exit(1);
  uint64_t s = 12345;
  double *a = A.data;
  for (int64_t i = 0; i < m * n; ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    a[i] = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
  }
  axb_dense F = test_copy_ld(&A, m);
  const int64_t mn = m < n ? m : n;
  int64_t *p = calloc((size_t)mn, sizeof *p), info = -1;
  CHECK_STATUS(h, getrf(&F, p, &info), AXB_SUCCESS);
  /* Row r of P A: apply the interchanges to the row indices. */
  int64_t *row = malloc((size_t)m * sizeof *row);
  for (int64_t i = 0; i < m; ++i)
    row[i] = i;
  for (int64_t k = 0; k < mn; ++k) {
    const int64_t t = row[k];
    row[k] = row[p[k] - 1];
    row[p[k] - 1] = t;
  }
  double worst = 0;
  const double *f = F.data;
  for (int64_t c = 0; c < 400; ++c) {
    const int64_t i = (c * 7919) % m, j = (c * 104729) % n;
    const int64_t kmax = (i < j ? i : j) + 1;
    double v = 0;
    for (int64_t k = 0; k < kmax && k < mn; ++k)
      v += (k == i ? 1.0 : f[i + k * m]) * f[k + j * m];
    const double d = fabs(v - a[row[i] + j * m]);
    if (d > worst) worst = d;
  }
  CHECK(worst < 30 * (double)mn * 1.2e-16 * 10, "rect %lldx%lld: |PA-LU| %g",
        (long long)m, (long long)n, worst);
  free(row);
  free(p);
  axb_dense_destroy(&F);
  axb_dense_destroy(&A);
}

/* A zero column in a late block: SINGULAR, info in 1..col+1, and the
   factorization completed (the solve-free check: residual of P A = L U is
   not judged here beyond the status). */
static void lu_singular(void) {
  axb_set_threads(h, 2);
  const int64_t n = 1000, col = 700;
  axb_dense A = gen(AXB_GEN_SINGULAR, n, AXB_F64, col);
  int64_t *p = calloc((size_t)n, sizeof *p), info = -1;
  axb_status st = getrf(&A, p, &info);
  CHECK_STATUS(h, st, AXB_ERR_SINGULAR);
  CHECK(info >= 1 && info <= col + 1, "singular: info %lld", (long long)info);
  free(p);
  axb_dense_destroy(&A);
}

/* ---- Cholesky ------------------------------------------------------------ */

static axb_status potrf(axb_uplo u, axb_dense *A, int64_t *info) {
  return TYPED(A->dtype, axb_dpotrf(h, u, A->rows, A->data, A->ld, info),
               axb_spotrf(h, u, A->rows, A->data, A->ld, info));
}

static void chol_case(int64_t n, axb_dtype t, axb_uplo u, int threads,
                      int full) {
  axb_set_threads(h, threads);
  axb_dense A = gen(AXB_GEN_SPD_SHIFT, n, t, 0);
  axb_dense F = test_copy_ld(&A, n + 1), G = test_copy_ld(&A, n + 1);
  int64_t info = -1;
  CHECK_STATUS(h, potrf(u, &F, &info), AXB_SUCCESS);
  CHECK(test_padding_intact(&F), "potrf n=%lld wrote outside A", (long long)n);
  if (full)
    CHECK_RATIO(axb_check_cholesky(&A, &F, u), "potrf n=%lld uplo=%d",
                (long long)n, u);
  CHECK_RATIO(solve_ratio(&A, &F, NULL, u == AXB_UPPER ? 'u' : 'l'),
              "potrf+potrs n=%lld %s uplo=%d threads=%d", (long long)n,
              axb_dtype_name(t), u, threads);
  potrf(u, &G, &info);
  CHECK(same_bits(&F, &G), "potrf n=%lld threads=%d: two runs differ",
        (long long)n, threads);
  axb_dense_destroy(&F);
  axb_dense_destroy(&G);
  axb_dense_destroy(&A);
}

/* A negative diagonal entry at `bad` (0-based) makes the leading minor of
   order bad + 1 the first that is not positive. */
static void chol_not_spd(axb_uplo u, int64_t n, int64_t bad, int crout) {
  axb_set_threads(h, 2);
  axb_dense A = gen(AXB_GEN_SPD_SHIFT, n, AXB_F64, 0);
  axb_dense_set(&A, bad, bad, -1e6);
  int64_t info = -1;
  axb_status st =
      crout ? axb_dpotrf_crout(h, n, A.data, A.ld, &info) : potrf(u, &A, &info);
  CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
  CHECK(info == bad + 1, "not SPD at %lld: info %lld (crout=%d uplo=%d)",
        (long long)bad, (long long)info, crout, u);
  axb_dense_destroy(&A);
}

/* ---- inverses ------------------------------------------------------------ */

typedef enum { INV_GETRI, INV_GJ_BLOCKED, INV_GJ_STUDY } inv_kind;

static axb_status invert(inv_kind k, axb_dense *X, int64_t *info) {
  const int64_t n = X->rows;
  if (k == INV_GJ_BLOCKED)
    return TYPED(X->dtype,
                 axb_omp_dgetri_gj_blocked(h, n, X->data, X->ld, info),
                 axb_omp_sgetri_gj_blocked(h, n, X->data, X->ld, info));
  if (k == INV_GJ_STUDY)
    return TYPED(X->dtype, axb_dgetri_gj(h, n, X->data, X->ld, info),
                 axb_sgetri_gj(h, n, X->data, X->ld, info));
  int64_t *p = calloc((size_t)n, sizeof *p);
  axb_status st = getrf(X, p, info);
  if (st == AXB_SUCCESS)
    st = TYPED(X->dtype, axb_dgetri(h, n, X->data, X->ld, p, info),
               axb_sgetri(h, n, X->data, X->ld, p, info));
  free(p);
  return st;
}

static void inv_case(inv_kind k, int64_t n, axb_dtype t, int threads,
                     int full) {
  axb_set_threads(h, threads);
  axb_dense A = gen(AXB_GEN_UNIFORM, n, t, 0);
  axb_dense X = test_copy_ld(&A, n + 2), Y = test_copy_ld(&A, n + 2);
  int64_t info = -1;
  CHECK_STATUS(h, invert(k, &X, &info), AXB_SUCCESS);
  CHECK(test_padding_intact(&X), "inverse %d n=%lld wrote outside A", k,
        (long long)n);
  if (full)
    CHECK_RATIO(axb_check_inverse(&A, &X), "inverse %d n=%lld %s threads=%d", k,
                (long long)n, axb_dtype_name(t), threads);
  CHECK_RATIO(solve_ratio(&A, &X, NULL, 'I'), "inverse %d n=%lld %s threads=%d",
              k, (long long)n, axb_dtype_name(t), threads);
  invert(k, &Y, &info);
  CHECK(same_bits(&X, &Y), "inverse %d n=%lld threads=%d: two runs differ", k,
        (long long)n, threads);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Y);
  axb_dense_destroy(&A);
}

static void inv_singular(inv_kind k) {
  axb_set_threads(h, 2);
  const int64_t n = 600, col = 450;
  axb_dense A = gen(AXB_GEN_SINGULAR, n, AXB_F64, col);
  int64_t info = -1;
  CHECK_STATUS(h, invert(k, &A, &info), AXB_ERR_SINGULAR);
  CHECK(info >= 1 && info <= col + 1, "inverse %d singular: info %lld", k,
        (long long)info);
  axb_dense_destroy(&A);
}

/* ---- study variant: Cholesky-Crout ----------------------------------------
 */

static void crout_case(int64_t n, axb_dtype t, int threads, const char *cut) {
  axb_set_threads(h, threads);
  if (cut)
    setenv("AXB_CHOL_CUTOFF", cut, 1);
  else
    unsetenv("AXB_CHOL_CUTOFF");
  axb_dense A = gen(AXB_GEN_SPD_SHIFT, n, t, 0);
  axb_dense F = test_copy_ld(&A, n + 1), G = test_copy_ld(&A, n + 1);
  int64_t info = -1;
  axb_status st = TYPED(t, axb_dpotrf_crout(h, n, F.data, F.ld, &info),
                        axb_spotrf_crout(h, n, F.data, F.ld, &info));
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK_RATIO(axb_check_cholesky(&A, &F, AXB_LOWER),
              "crout n=%lld %s threads=%d cutoff=%s", (long long)n,
              axb_dtype_name(t), threads, cut ? cut : "default");
  CHECK(test_padding_intact(&F), "crout wrote outside A");
  TYPED(t, axb_dpotrf_crout(h, n, G.data, G.ld, &info),
        axb_spotrf_crout(h, n, G.data, G.ld, &info));
  CHECK(same_bits(&F, &G), "crout n=%lld: two runs differ", (long long)n);
  unsetenv("AXB_CHOL_CUTOFF");
  axb_dense_destroy(&F);
  axb_dense_destroy(&G);
  axb_dense_destroy(&A);
}

/* libgomp reads OMP_WAIT_POLICY once, when it is loaded.  Its default
   (spin, then sleep) makes every barrier wait for a descheduled thread
   when the machine is oversubscribed (ctest -j, 3 threads on 2 cores), and
   this test's many small parallel regions then take ten times longer.  The
   results do not depend on the policy, so the test re-executes itself
   once with the passive policy unless the caller chose one. */
static void passive_wait_policy(char **argv) {
  if (getenv("OMP_WAIT_POLICY")) return;
  setenv("OMP_WAIT_POLICY", "passive", 1);
  execv("/proc/self/exe", argv); /* returns only on failure: go on */
}

/* Issue 28: the hybrid path gives the calling thread's OpenMP thread count
   back.  With OpenBLAS's OpenMP build (the default when installed) it sets
   that count to the handle's for the factorization, since that build takes
   its thread count from it; a caller's setting must survive. */
static void hybrid_keeps_omp_threads(void) {
#ifdef AXB_HAVE_OPENMP
  const int before = omp_get_max_threads();
  omp_set_num_threads(3);
  lu_case(1000, AXB_F64, 2, 0);
  chol_case(1000, AXB_F64, AXB_LOWER, 2, 0);
  CHECK(omp_get_max_threads() == 3,
        "hybrid path changed the caller's OpenMP thread count (3 -> %d; "
        "OpenBLAS OpenMP build: %d)",
        omp_get_max_threads(), axb_omp_blas_openmp());
  /* A kernel's bracket: OpenBLAS single-threaded outside regions (with
     the OpenMP build, through the thread's OpenMP count), the handle's
     "all cores" unchanged inside it, everything given back after. */
  axb_handle h0;
  CHECK(axb_handle_create(&h0, AXB_BACKEND_CPU, 0) == AXB_SUCCESS, "handle");
  const int all = axb_omp_threads(h0);
  const int s1 = axb_omp_blas_begin();
  const int s2 = axb_omp_blas_begin(); /* nested (a kernel calling one) */
  CHECK(axb_omp_threads(h0) == all, "threads inside the bracket: %d, not %d",
        axb_omp_threads(h0), all);
  if (axb_omp_blas_openmp())
    CHECK(omp_get_max_threads() == 1,
          "OpenMP OpenBLAS outside a region "
          "would use %d threads",
          omp_get_max_threads());
  axb_omp_blas_end(s2);
  CHECK(axb_omp_threads(h0) == all, "threads after the inner end");
  axb_omp_blas_end(s1);
  CHECK(omp_get_max_threads() == 3, "bracket left the OpenMP count at %d",
        omp_get_max_threads());
  axb_handle_destroy(h0);
  omp_set_num_threads(before);
#endif
}

/* Issue 28d: which OpenBLAS is loaded decides the Cholesky's path.  With
   the pthread build (model 1) the hybrid path (OpenBLAS threaded) would
   leave one spinning worker per core beside the phases that follow, so
   below AXB_CPU_HYBRID_PTHREAD_MIN (4096) the Cholesky takes our OpenMP
   path; the OpenMP build (2) keeps the hybrid from 1024 on 8+ threads; a
   sequential or unknown BLAS never takes it (it cannot run threaded);
   AXB_CPU_HYBRID forces either way.  And the few-columns solve runs on one
   thread only within the window after the pthread pool's last call. */
static void blas_model_policy(void) {
  unsetenv("AXB_CPU_HYBRID");
  const int m = axb_omp_blas_model();
#ifdef AXB_HAVE_LAPACK
  CHECK(m >= 0 && m <= 2, "OpenBLAS threading model not found (%d)", m);
  CHECK(axb_omp_blas_openmp() == (m == AXB_OMP_BLAS_OPENMP),
        "openmp flag %d against model %d", axb_omp_blas_openmp(), m);
#endif
  const int P = AXB_OMP_BLAS_PTHREAD, O = AXB_OMP_BLAS_OPENMP;
  CHECK(!axb_omp_hybrid_pick(P, 16, 1024, 1), "pthread: Cholesky 1024 hybrid");
  CHECK(!axb_omp_hybrid_pick(P, 16, 2048, 1), "pthread: Cholesky 2048 hybrid");
  CHECK(axb_omp_hybrid_pick(P, 16, 4096, 1), "pthread: Cholesky 4096 not");
  CHECK(axb_omp_hybrid_pick(O, 16, 1024, 1), "openmp: Cholesky 1024 not");
  CHECK(axb_omp_hybrid_pick(P, 16, 1024, 0) ==
            axb_omp_hybrid_pick(O, 16, 1024, 0),
        "pthread changed the LU's choice");
  CHECK(axb_omp_hybrid_pick(P, 2, 8192, 0), "pthread: LU 8192 on 2 threads");
  CHECK(!axb_omp_hybrid_pick(AXB_OMP_BLAS_SEQUENTIAL, 16, 4096, 1) &&
            !axb_omp_hybrid_pick(AXB_OMP_BLAS_UNKNOWN, 16, 4096, 1),
        "hybrid without a threaded OpenBLAS");
  CHECK(!axb_omp_hybrid_pick(O, 1, 8192, 1), "hybrid on one thread");
  setenv("AXB_CPU_HYBRID_PTHREAD_MIN", "1024", 1);
  CHECK(axb_omp_hybrid_pick(P, 16, 1024, 1), "AXB_CPU_HYBRID_PTHREAD_MIN");
  unsetenv("AXB_CPU_HYBRID_PTHREAD_MIN");
  setenv("AXB_CPU_HYBRID", "1", 1);
  CHECK(axb_omp_hybrid_pick(P, 2, 1024, 1), "AXB_CPU_HYBRID=1 not forced");
  setenv("AXB_CPU_HYBRID", "0", 1);
  CHECK(!axb_omp_hybrid_pick(O, 16, 4096, 1), "AXB_CPU_HYBRID=0 not forced");
  unsetenv("AXB_CPU_HYBRID");
  CHECK(axb_omp_spin_window(P, 0.01, 0.13) &&
            !axb_omp_spin_window(P, 0.2, 0.13),
        "pthread spin window");
  CHECK(!axb_omp_spin_window(O, 0.01, 0.13) &&
            !axb_omp_spin_window(P, -1, 0.13),
        "spin window outside the pthread build");
  /* The loaded build's decision, and the one the test was told to expect
     (ctest runs it once with the pthread build on the library path). */
  CHECK(axb_omp_use_hybrid(16, 1024, 1) == (m == O),
        "Cholesky 1024 on 16 threads with model %d: hybrid %d", m,
        axb_omp_use_hybrid(16, 1024, 1));
  const char *want = getenv("AXB_TEST_BLAS_MODEL");
  CHECK(!want || atoi(want) == m, "OpenBLAS model %d loaded, %s expected", m,
        want);
  /* The loaded build: only the pthread one may report a spinning pool. */
  CHECK(m == P || !axb_omp_pool_spinning(), "pool spinning with model %d", m);
}

int main(int argc, char **argv) {
  passive_wait_policy(argv);
  blas_model_policy();
  if (argc > 1 && !strcmp(argv[1], "--policy")) return test_finish("test_omp");
  h = test_handle(AXB_BACKEND_CPU);
  const int threads[] = {1, 2, 3};
  for (int ti = 0; ti < 3; ++ti) {
    const int nt = threads[ti];
    lu_case(600, AXB_F64, nt, 1);
    lu_case(1537, AXB_F64, nt, 0);
    lu_case(1000, AXB_F32, nt, 0);
    chol_case(600, AXB_F64, AXB_LOWER, nt, 1);
    chol_case(600, AXB_F64, AXB_UPPER, nt, 1);
    chol_case(1537, AXB_F64, AXB_LOWER, nt, 0);
    chol_case(1537, AXB_F32, AXB_UPPER, nt, 0);
    inv_case(INV_GETRI, 1000, AXB_F64, nt, 0);
    inv_case(INV_GJ_BLOCKED, 1000, AXB_F64, nt, 0);
    inv_case(INV_GJ_STUDY, 300, AXB_F64, nt, 1);
    crout_case(300, AXB_F64, nt, NULL);
  }
  /* Several blocks and a late look-ahead: 3001 = 15 panels of 192 + 121. */
  lu_case(3001, AXB_F64, 2, 0);
  chol_case(3001, AXB_F64, AXB_LOWER, 2, 0);
  inv_case(INV_GETRI, 1537, AXB_F32, 2, 0);
  inv_case(INV_GJ_BLOCKED, 1537, AXB_F32, 2, 0);
  inv_case(INV_GJ_BLOCKED, 600, AXB_F64, 2, 1);
  inv_case(INV_GETRI, 600, AXB_F64, 2, 1);
  inv_case(INV_GJ_STUDY, 400, AXB_F32, 2, 1);
  lu_rect(1200, 700);
  lu_rect(700, 1200);
  lu_singular();
  lu_pivot_search(AXB_F64, 0);
  lu_pivot_search(AXB_F32, 0);
  lu_pivot_search(AXB_F64, 1);
  inv_singular(INV_GETRI);
  inv_singular(INV_GJ_BLOCKED);
  inv_singular(INV_GJ_STUDY);
  chol_not_spd(AXB_LOWER, 1000, 700, 0);
  chol_not_spd(AXB_UPPER, 1000, 700, 0);
  chol_not_spd(AXB_LOWER, 1000, 100, 0);
  /* Orders up to OMP_CHOL_DIRECT (128): the unblocked loop on the whole
     matrix; 129 the recursion just above it. */
  const int64_t direct_n[] = {1, 2, 17, 64, 127, 128, 129};
  for (int i = 0; i < 7; ++i) {
    chol_case(direct_n[i], AXB_F64, AXB_LOWER, 1, 1);
    chol_case(direct_n[i], AXB_F64, AXB_UPPER, 1, 1);
    chol_case(direct_n[i], AXB_F32, AXB_LOWER, 1, 1);
    chol_case(direct_n[i], AXB_F32, AXB_UPPER, 2, 1);
  }
  chol_not_spd(AXB_LOWER, 100, 60, 0);
  chol_not_spd(AXB_UPPER, 100, 60, 0);
  chol_not_spd(AXB_UPPER, 128, 0, 0);
  chol_not_spd(AXB_LOWER, 500, 450, 1);
  chol_not_spd(AXB_LOWER, 500, 100, 1);
  crout_case(400, AXB_F32, 2, "0");
  crout_case(400, AXB_F64, 3, "1000");
  crout_case(400, AXB_F64, 2, "37");
  /* The hybrid path (OpenBLAS threaded, taken by default from 8 threads)
     forced at 2 and 3 threads: same checks, bitwise determinism, failures
     in a late column, rectangular shapes. */
  setenv("AXB_CPU_HYBRID", "1", 1);
  for (int nt = 2; nt <= 3; ++nt) {
    lu_case(1537, AXB_F64, nt, 1);
    lu_case(1000, AXB_F32, nt, 0);
    chol_case(1537, AXB_F64, AXB_LOWER, nt, 1);
    chol_case(1000, AXB_F64, AXB_UPPER, nt, 1);
    chol_case(1537, AXB_F32, AXB_UPPER, nt, 0);
    inv_case(INV_GETRI, 1000, AXB_F64, nt, 0);
  }
  hybrid_keeps_omp_threads();
  lu_case(3001, AXB_F64, 2, 0);
  lu_rect(1200, 700);
  lu_rect(700, 1200);
  lu_singular();
  chol_not_spd(AXB_LOWER, 1000, 700, 0);
  chol_not_spd(AXB_UPPER, 1000, 700, 0);
  /* The tiled look-ahead path (taken instead of the hybrid with
     AXB_LU_TILED=1) on 2-4 threads, with narrow blocks so that 1537 and
     3001 run 25 and 47 steps (the last one partial) and the tile grid has
     several rows and columns: same checks, bitwise determinism. */
  setenv("AXB_LU_TILED", "1", 1);
  setenv("AXB_LU_NB", "64", 1);
  for (int nt = 2; nt <= 4; ++nt) {
    lu_case(1537, AXB_F64, nt, 1);
    lu_case(1000, AXB_F32, nt, 0);
    inv_case(INV_GETRI, 1000, AXB_F64, nt, 0);
  }
  lu_case(3001, AXB_F64, 3, 0);
  lu_case(600, AXB_F32, 2, 1);
  unsetenv("AXB_LU_NB");
  lu_case(3001, AXB_F32, 2, 0);
  lu_rect(1200, 700);
  lu_rect(700, 1200);
  lu_singular();
  unsetenv("AXB_LU_TILED");
  unsetenv("AXB_CPU_HYBRID");
  /* The default LU path from 8 threads (the tiled one), here
     oversubscribed. */
  lu_case(1537, AXB_F64, 8, 0);
  lu_case(1100, AXB_F32, 9, 0);
  /* The per-phase profile (AXB_OMP_PROFILE=1): results unchanged (the
     same checks), and the record filled for the tiled LU and the hybrid
     Cholesky. */
  setenv("AXB_OMP_PROFILE", "1", 1);
  axb_omp_prof_reset();
  lu_case(1100, AXB_F64, 16, 1);
  const axb_omp_prof *pr = axb_omp_prof_get();
  CHECK(pr->calls == 2 && pr->path == 1 && pr->threads == 16 &&
            pr->t[0][AXB_OMP_PH_PANEL] > 0 && pr->t[1][AXB_OMP_PH_GEMM] > 0 &&
            pr->wall > 0,
        "profile of the tiled LU: calls %d path %d", pr->calls, pr->path);
  axb_omp_prof_reset();
  /* (With OpenBLAS's pthread build the hybrid Cholesky starts at 4096.) */
  setenv("AXB_CPU_HYBRID_PTHREAD_MIN", "0", 1);
  chol_case(1100, AXB_F64, AXB_LOWER, 16, 1);
  unsetenv("AXB_CPU_HYBRID_PTHREAD_MIN");
  CHECK(pr->calls == 2 && pr->path == 3 && pr->t[0][AXB_OMP_PH_RTRSM] > 0,
        "profile of the hybrid Cholesky: calls %d path %d", pr->calls,
        pr->path);
  unsetenv("AXB_OMP_PROFILE");
  axb_omp_prof_reset();
  lu_case(1100, AXB_F32, 16, 0);
  CHECK(pr->calls == 0, "profile recorded with AXB_OMP_PROFILE unset");
  /* The tiled path (the default from 8 threads up to 8192) with 16
     threads forced through the handle, at sizes of one to several dozen
     steps of 128 (the last partial), float and double: the checks and
     bitwise determinism (pieces and tiles go to whichever thread claims
     them first).  Then the step orders the knobs select (AXB_LU_J1FIRST,
     AXB_LU_RTRSM, AXB_LU_J1SPLIT on) and rectangular and singular inputs on
     the tiled path. */
  lu_case(1000, AXB_F64, 16, 1);
  lu_case(1000, AXB_F32, 16, 1);
  lu_case(1537, AXB_F32, 16, 1);
  lu_case(2048, AXB_F64, 16, 0);
  lu_case(3001, AXB_F32, 16, 0);
  setenv("AXB_LU_J1FIRST", "1", 1);
  lu_case(1537, AXB_F64, 16, 1);
  setenv("AXB_LU_RTRSM", "1", 1);
  setenv("AXB_LU_J1SPLIT", "1", 1);
  lu_case(1100, AXB_F32, 16, 1);
  unsetenv("AXB_LU_J1FIRST");
  lu_case(1000, AXB_F64, 16, 1);
  unsetenv("AXB_LU_RTRSM");
  lu_case(1000, AXB_F32, 16, 1);
  unsetenv("AXB_LU_J1SPLIT");
  setenv("AXB_LU_TILED", "1", 1);
  setenv("AXB_CPU_HYBRID", "1", 1);
  setenv("AXB_LU_NB", "64", 1);
  lu_rect(1200, 700);
  lu_rect(700, 1200);
  lu_singular();
  unsetenv("AXB_LU_NB");
  unsetenv("AXB_CPU_HYBRID");
  unsetenv("AXB_LU_TILED");
  axb_handle_destroy(h);
  return test_finish("test_omp");
}
