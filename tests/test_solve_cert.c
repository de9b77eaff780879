/* The certified driver on a device backend (resident factors: A uploaded
   once, the condition estimate's solves on the device copy) must certify
   exactly as the CPU driver does: same status, method, fallback and
   failing pivot, rcond within the estimator's rounding (the two backends'
   factors differ by rounding only), backward errors both below the
   threshold, the same X within the conditioning.  Sizes 1, 31, 257, 1000,
   both precisions; well-conditioned LU, SPD (Cholesky), symmetric but not
   SPD (AUTO's fallback to LU), singular and ill-conditioned matrices, A
   with a leading dimension > n, and the inverse.
   Usage: test_solve_cert [backend]: the backend judged against cpu
   (default cuda; exits 77 without a GPU; ref runs the same comparison on
   the host).  "emu" judges the driver's resident path itself without a
   GPU: a CPU handle whose table gains res_ entries that keep the factors
   in host memory (the typed layer and driver code of the device path,
   under the sanitizers too). */
#include "testing.h"

#include "core/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static axb_handle hd, hc; /* the backend judged, the CPU reference */
static axb_trans g_trans; /* every solve's opts.trans (the trans sweep) */

typedef struct {
  axb_status st;
  axb_report r;
  axb_dense X; /* the answer (B on entry) */
} outcome;

static void solve_on(axb_handle h, const axb_dense *A, const axb_dense *B,
                     axb_method m, outcome *o) {
  memset(o, 0, sizeof *o);
  if (axb_dense_create(&o->X, B->rows, B->cols, B->dtype)) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (int64_t j = 0; j < B->cols; ++j)
    for (int64_t i = 0; i < B->rows; ++i)
      axb_dense_set(&o->X, i, j, axb_dense_get(B, i, j));
  axb_solve_opts opts;
  axb_solve_opts_default(&opts);
  opts.method = m;
  opts.trans = g_trans;
  o->st = axb_solve(h, A, &o->X, &opts, &o->r);
}

/* rcond agreement: in double the estimates agree to rounding; in float the
   estimator may walk to another column on a near tie (the factors differ
   in the last bits), which keeps it within its own factor of 3. */
static int rcond_close(double a, double b, axb_dtype t) {
  if (a < 0 || b < 0) return a == b;
  if (a == 0 || b == 0) return a == b;
  double q = a / b;
  return t == AXB_F64 ? fabs(q - 1) <= 1e-6 : (q <= 3 && q >= 1.0 / 3);
}

/* A numerical failure verdict: singular, rcond < eps, or inaccurate. */
static int is_bad_verdict(axb_status st) {
  return st == AXB_ERR_SINGULAR || st == AXB_ERR_ILL_CONDITIONED ||
         st == AXB_ERR_INACCURATE;
}

static void compare(const char *what, const axb_dense *A, const axb_dense *B,
                    axb_method m, int ill) {
  outcome d, c;
  solve_on(hd, A, B, m, &d);
  solve_on(hc, A, B, m, &c);
  const char *t = axb_dtype_name(A->dtype);
  long long n = (long long)A->rows;
  if (ill) {
    /* Far beyond 1/eps: both must refuse to certify (which refusal may
       differ: an exact zero pivot on one side, rcond on the other). */
    CHECK(is_bad_verdict(d.st) && is_bad_verdict(c.st),
          "%s n=%lld %s: statuses %s / %s", what, n, t, axb_strerror(d.st),
          axb_strerror(c.st));
    if (d.st == AXB_ERR_ILL_CONDITIONED)
      CHECK(d.r.rcond < axb_eps(A->dtype), "%s n=%lld %s: rcond %.3g", what, n,
            t, d.r.rcond);
  } else {
    CHECK(d.st == c.st, "%s n=%lld %s: status %d (%s) vs cpu %d (%s); %s", what,
          n, t, d.st, axb_strerror(d.st), c.st, axb_strerror(c.st),
          axb_detail(hd));
    CHECK(d.r.status == d.st, "%s: report status", what);
    CHECK(d.r.method == c.r.method &&
              d.r.cholesky_fell_back == c.r.cholesky_fell_back,
          "%s n=%lld %s: method %s fell_back %d vs cpu %s %d", what, n, t,
          axb_method_name(d.r.method), d.r.cholesky_fell_back,
          axb_method_name(c.r.method), c.r.cholesky_fell_back);
    CHECK(d.r.info == c.r.info, "%s n=%lld %s: info %lld vs cpu %lld", what, n,
          t, (long long)d.r.info, (long long)c.r.info);
    CHECK(rcond_close(d.r.rcond, c.r.rcond, A->dtype),
          "%s n=%lld %s: rcond %.6g vs cpu %.6g", what, n, t, d.r.rcond,
          c.r.rcond);
    if (d.st == AXB_SUCCESS && g_trans == AXB_TRANS) {
      /* Independently: X solves A^T X = B (the explicit transpose). */
      axb_dense At = test_transpose(A);
      CHECK_RATIO(axb_check_solve(&At, &d.X, B), "%s n=%lld %s: A^T X = B",
                  what, n, t);
      axb_dense_destroy(&At);
    }
    if (d.st == AXB_SUCCESS && c.st == AXB_SUCCESS) {
      CHECK_RATIO(d.r.backward_error, "%s n=%lld %s", what, n, t);
      CHECK_RATIO(c.r.backward_error, "%s n=%lld %s (cpu)", what, n, t);
      /* Both answers are backward stable: they differ by at most about
         kappa * eps, kappa ~ 1/rcond. */
      double diff = axb_forward_error(&d.X, &c.X);
      double bound = 100.0 * (double)A->rows * axb_eps(A->dtype) / c.r.rcond;
      CHECK(diff <= bound, "%s n=%lld %s: X differs by %.3g > %.3g", what, n, t,
            diff, bound);
    }
    if (d.st == AXB_SUCCESS) {
      /* Times: the parts are disjoint pieces of the total. */
      axb_report *p = &d.r;
      CHECK(p->t_factor >= 0 && p->t_solve >= 0 && p->t_transfer >= 0 &&
                p->t_certify >= 0,
            "%s: negative time", what);
      CHECK(p->t_factor + p->t_solve + p->t_transfer + p->t_certify <=
                p->t_total * 1.05 + 1e-4,
            "%s n=%lld %s: parts %.3g+%.3g+%.3g+%.3g ms > total %.3g ms", what,
            n, t, 1e3 * p->t_factor, 1e3 * p->t_solve, 1e3 * p->t_transfer,
            1e3 * p->t_certify, 1e3 * p->t_total);
      if (axb_handle_backend(hd) == AXB_BACKEND_CUDA)
        CHECK(p->backend == AXB_BACKEND_CUDA && p->t_transfer > 0,
              "%s: cuda report backend %d transfer %.3g", what, p->backend,
              p->t_transfer);
    }
  }
  axb_dense_destroy(&d.X);
  axb_dense_destroy(&c.X);
}

/* B = A x_true for a spec'd A; 0 when the generator failed. */
static int make(const char *spec, axb_dtype t, int64_t nrhs, axb_dense *A,
                axb_dense *B) {
  axb_dense X;
  axb_status st = test_gen_spec(hc, spec, t, A);
  if (!st) st = axb_gen_rhs(hc, A, nrhs, AXB_RHS_RANDOM, 7, &X, B);
  CHECK_STATUS(hc, st, AXB_SUCCESS);
  if (st) return 0;
  axb_dense_destroy(&X);
  return 1;
}

/* make() of the generator spec "kind:n". */
static int make_n(const char *kind, int64_t n, axb_dtype t, int64_t nrhs,
                  axb_dense *A, axb_dense *B) {
  char spec[64];
  snprintf(spec, sizeof spec, "%s:%lld", kind, (long long)n);
  return make(spec, t, nrhs, A, B);
}

static void case_spec(const char *what, const char *spec, axb_dtype t,
                      int64_t nrhs, axb_method m, int ill) {
  axb_dense A, B;
  if (!make(spec, t, nrhs, &A, &B)) return;
  compare(what, &A, &B, m, ill);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}

/* Symmetric, positive diagonal, not SPD: AUTO tries Cholesky, falls back. */
static void case_fallback(int64_t n, axb_dtype t) {
  axb_dense A, B;
  if (!make_n("spd", n, t, 1, &A, &B)) return;
  axb_dense_set(&A, 0, 1, 10.0 * (double)n);
  axb_dense_set(&A, 1, 0, 10.0 * (double)n);
  compare("not-spd fallback", &A, &B, AXB_METHOD_AUTO, 0);
  /* Forcing Cholesky: NOT_SPD with the same minor on both. */
  compare("not-spd cholesky", &A, &B, AXB_METHOD_CHOLESKY, 0);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}

/* A stored with ld = n + 3 (NaN padding that must not be read). */
static void case_ld(int64_t n, axb_dtype t) {
  axb_dense A, B;
  if (!make_n("uniform", n, t, 2, &A, &B)) return;
  axb_dense P = test_copy_ld(&A, n + 3);
  compare("uniform ld+3", &P, &B, AXB_METHOD_LU, 0);
  CHECK(test_padding_intact(&P), "padding written");
  axb_dense_destroy(&P);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}

static void case_inverse(int64_t n, axb_dtype t, const char *spec,
                         axb_status want) {
  axb_dense A, Xd, Xc;
  if (test_gen_spec(hc, spec, t, &A)) {
    CHECK(0, "generator %s", spec);
    return;
  }
  if (axb_dense_create(&Xd, n, n, t) || axb_dense_create(&Xc, n, n, t)) exit(1);
  axb_status sd = axb_invert(hd, &A, &Xd, AXB_METHOD_LU);
  axb_status sc = axb_invert(hc, &A, &Xc, AXB_METHOD_LU);
  CHECK(sd == want && sc == want, "inverse %s %s: %s / cpu %s (want %s); %s",
        spec, axb_dtype_name(t), axb_strerror(sd), axb_strerror(sc),
        axb_strerror(want), axb_detail(hd));
  if (sd == AXB_SUCCESS)
    CHECK_RATIO(axb_check_inverse(&A, &Xd), "inverse %s %s", spec,
                axb_dtype_name(t));
  if (sd == AXB_ERR_SINGULAR)
    CHECK(strstr(axb_detail(hd), "singular") != NULL, "detail %s",
          axb_detail(hd));
  axb_dense_destroy(&A);
  axb_dense_destroy(&Xd);
  axb_dense_destroy(&Xc);
}

static void sweep(axb_dtype t) {
  const int64_t sizes[] = {1, 31, 257, 1000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    int64_t n = sizes[i];
    char spec[96];
    snprintf(spec, sizeof spec, "uniform:%lld", (long long)n);
    case_spec("uniform lu", spec, t, 3, AXB_METHOD_LU, 0);
    case_spec("uniform auto", spec, t, 1, AXB_METHOD_AUTO, 0);
    snprintf(spec, sizeof spec, "spd:%lld", (long long)n);
    case_spec("spd auto", spec, t, 2, AXB_METHOD_AUTO, 0);
    case_spec("spd cholesky", spec, t, 1, AXB_METHOD_CHOLESKY, 0);
    case_ld(n, t);
    snprintf(spec, sizeof spec, "uniform:%lld", (long long)n);
    case_inverse(n, t, spec, AXB_SUCCESS);
    if (n < 2) continue;
    case_fallback(n, t);
    /* An exact zero column: the same zero pivot on both. */
    snprintf(spec, sizeof spec, "singular:%lld,col=%lld", (long long)n,
             (long long)(n / 2 + 1));
    case_spec("singular", spec, t, 1, AXB_METHOD_LU, 0);
    case_spec("singular auto", spec, t, 1, AXB_METHOD_AUTO, 0);
    case_inverse(n, t, spec, AXB_ERR_SINGULAR);
    /* Moderately conditioned: certified, rcond about 1/kappa on both. */
    snprintf(spec, sizeof spec, "cond:%lld,kappa=%s", (long long)n,
             t == AXB_F64 ? "1e8" : "1e3");
    case_spec("cond", spec, t, 1, AXB_METHOD_LU, 0);
    /* Far beyond 1/eps: no certificate on either. */
    snprintf(spec, sizeof spec, "cond:%lld,kappa=%s", (long long)n,
             t == AXB_F64 ? "1e20" : "1e10");
    case_spec("ill", spec, t, 1, AXB_METHOD_LU, 1);
  }
}

/* ---- "emu": resident factors emulated in host memory -------------------- */

typedef struct {
  int chol;
  int64_t n;
  void *a; /* n x n factors, ld n */
  int64_t *ipiv;
} emu_res;

static void emu_free(axb_handle h, void *res) {
  (void)h;
  emu_res *r = res;
  if (!r) return;
  free(r->a);
  free(r->ipiv);
  free(r);
}

/* The res_ entries for T / P, by the public typed routines on the CPU
   kernels of the handle's (copied) table. */
#define EMU_TYPED(T, P)                                                        \
  static axb_status emu_##P##factor(axb_handle h, int chol, int64_t n,         \
                                    const T *A, int64_t lda, void **res,       \
                                    int64_t *info) {                           \
    emu_res *r = calloc(1, sizeof *r);                                         \
    if (!r) return AXB_ERR_OUT_OF_MEMORY;                                      \
    *res = r;                                                                  \
    r->chol = chol;                                                            \
    r->n = n;                                                                  \
    r->a = malloc((size_t)(n * n) * sizeof(T));                                \
    r->ipiv = malloc((size_t)n * sizeof(int64_t));                             \
    if (!r->a || !r->ipiv) return AXB_ERR_OUT_OF_MEMORY;                       \
    T *a = r->a;                                                               \
    for (int64_t j = 0; j < n; ++j)                                            \
      for (int64_t i = 0; i < n; ++i)                                          \
        a[i + j * n] = A[i + j * lda];                                         \
    return chol ? axb_##P##potrf(h, AXB_LOWER, n, a, n, info)                  \
                : axb_##P##getrf(h, n, n, a, n, r->ipiv, info);                \
  }                                                                            \
  static axb_status emu_##P##solve(axb_handle h, void *res, axb_trans trans,   \
                                   int64_t nrhs, T *B, int64_t ldb) {          \
    emu_res *r = res;                                                          \
    if (r->chol && trans != AXB_NO_TRANS) return AXB_ERR_INTERNAL;             \
    return r->chol ? axb_##P##potrs(h, AXB_LOWER, r->n, nrhs, r->a, r->n, B,   \
                                    ldb, NULL)                                 \
                   : axb_##P##getrs(h, trans, r->n, nrhs, r->a, r->n, r->ipiv, \
                                    B, ldb, NULL);                             \
  }                                                                            \
  static axb_status emu_##P##trsv(axb_handle h, void *res, axb_uplo uplo,      \
                                  axb_trans trans, axb_diag diag, T *x) {      \
    emu_res *r = res;                                                          \
    return axb_##P##trsm(h, AXB_LEFT, uplo, trans, diag, r->n, 1, 1, r->a,     \
                         r->n, x, r->n);                                       \
  }                                                                            \
  static axb_status emu_##P##diag(axb_handle h, void *res, T *d) {             \
    (void)h;                                                                   \
    emu_res *r = res;                                                          \
    const T *a = r->a;                                                         \
    for (int64_t i = 0; i < r->n; ++i)                                         \
      d[i] = a[i + i * r->n];                                                  \
    return AXB_SUCCESS;                                                        \
  }                                                                            \
  static axb_status emu_##P##getri(axb_handle h, void *res, int64_t *info) {   \
    emu_res *r = res;                                                          \
    return axb_##P##getri(h, r->n, r->a, r->n, r->ipiv, info);                 \
  }                                                                            \
  static axb_status emu_##P##get(axb_handle h, void *res, T *X, int64_t ldx) { \
    (void)h;                                                                   \
    emu_res *r = res;                                                          \
    const T *a = r->a;                                                         \
    for (int64_t j = 0; j < r->n; ++j)                                         \
      for (int64_t i = 0; i < r->n; ++i)                                       \
        X[i + j * ldx] = a[i + j * r->n];                                      \
    return AXB_SUCCESS;                                                        \
  }
EMU_TYPED(double, d)
EMU_TYPED(float, s)

static axb_backend_ops emu_ops;

#define EMU_FILL(P)                                                            \
  do {                                                                         \
    emu_ops.P.res_factor = emu_##P##factor;                                    \
    emu_ops.P.res_solve = emu_##P##solve;                                      \
    emu_ops.P.res_trsv = emu_##P##trsv;                                        \
    emu_ops.P.res_diag = emu_##P##diag;                                        \
    emu_ops.P.res_getri = emu_##P##getri;                                      \
    emu_ops.P.res_get = emu_##P##get;                                          \
  } while (0)

static axb_handle emu_handle(void) {
  axb_handle h = test_handle(AXB_BACKEND_CPU);
  emu_ops = *h->ops;
  EMU_FILL(d);
  EMU_FILL(s);
  emu_ops.res_free = emu_free;
  h->ops = &emu_ops;
  return h;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "emu") == 0)
    hd = emu_handle();
  else
    hd =
        test_handle(argc > 1 ? test_backend_arg(argc, argv) : AXB_BACKEND_CUDA);
  hc = test_handle(AXB_BACKEND_CPU);
  sweep(AXB_F64);
  sweep(AXB_F32);
  /* opts.trans: A^T X = B through the same paths (resident getrs with
     TRANS, the estimate in the inf-norm), judged against cpu and the
     explicit transpose. */
  g_trans = AXB_TRANS;
  sweep(AXB_F64);
  sweep(AXB_F32);
  axb_handle_destroy(hd);
  axb_handle_destroy(hc);
  return test_finish("test_solve_cert");
}
