/*
 * The drop-in seen from a C program that calls LAPACK's Fortran names.
 * Built twice (tests/CMakeLists.txt): lapack_dropin_preload links only
 * OpenBLAS and runs with LD_PRELOAD=libaxb_lapack.so; lapack_dropin_linked
 * links libaxb_lapack before OpenBLAS.  Both check that:
 *   - dgesv_ & co. are the drop-in's (dladdr), and axb's own anchors still
 *     reach OpenBLAS (no call of the anchor shows in the drop-in's trace);
 *   - corner cases agree with OpenBLAS's LAPACK (taken from its handle):
 *     lda > n, m != n, singular INFO, lowercase characters, n = 0,
 *     nrhs = 0, the getri workspace query, dsgesv's fallback (A := FP64
 *     factors, ITER < 0), XERBLA's name and argument number;
 *   - threads calling the drop-in at once get correct answers.
 */
#define _GNU_SOURCE
#include <axb.h>

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int li;
void dgesv_(const li *, const li *, double *, const li *, li *, double *,
            const li *, li *);
void dgetrf_(const li *, const li *, double *, const li *, li *, li *);
void dgetri_(const li *, double *, const li *, const li *, double *, const li *,
             li *);
void dpotrf_(const char *, const li *, double *, const li *, li *, size_t);
void dposv_(const char *, const li *, const li *, double *, const li *,
            double *, const li *, li *, size_t);
void sgetrs_(const char *, const li *, const li *, const float *, const li *,
             const li *, float *, const li *, li *, size_t);
void sgetrf_(const li *, const li *, float *, const li *, li *, li *);
void dsgesv_(const li *, const li *, double *, const li *, li *, double *,
             const li *, double *, const li *, double *, float *, li *, li *);

static int fails;
#define CHECK(c, ...)                                                          \
  do {                                                                         \
    if (!(c)) {                                                                \
      fails++;                                                                 \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                              \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

/* The tester's XERBLA: LAPACK's testers define their own the same way. */
static char xname[16];
static li xinfo, xcalls;
void xerbla_(const char *name, const li *info, size_t len) {
  size_t k = len < sizeof xname - 1 ? len : sizeof xname - 1;
  memcpy(xname, name, k);
  while (k > 0 && xname[k - 1] == ' ')
    --k;
  xname[k] = '\0';
  xinfo = *info;
  xcalls++;
}
static void expect_xerbla(const char *name, li arg, const char *what) {
  CHECK(xcalls == 1 && strcmp(xname, name) == 0 && xinfo == arg,
        "%s: XERBLA calls %d, name '%s' arg %d (want '%s' %d)", what,
        (int)xcalls, xname, (int)xinfo, name, (int)arg);
  xcalls = 0;
  xname[0] = '\0';
}

static const char *lib_of(void *f) {
  Dl_info di;
  return dladdr(f, &di) && di.dli_fname ? di.dli_fname : "?";
}

static void fill(double *A, li n, li lda, unsigned seed) {
  for (li j = 0; j < n; ++j)
    for (li i = 0; i < lda; ++i)
      A[(size_t)j * lda + i] =
          (double)((seed * 2654435761u + (unsigned)(i * 31 + j * 17)) % 1000) /
              500.0 -
          1.0 + (i == j ? n : 0);
}

/* ||b - A x||_inf / (||A||_inf ||x||_inf n eps) */
static double ratio(li n, const double *A, li lda, const double *x,
                    const double *b) {
  double rn = 0, an = 0, xn = 0;
  for (li i = 0; i < n; ++i) {
    double r = b[i], s = 0;
    for (li j = 0; j < n; ++j) {
      r -= A[(size_t)j * lda + i] * x[j];
      s += fabs(A[(size_t)j * lda + i]);
    }
    rn = fmax(rn, fabs(r));
    an = fmax(an, s);
    xn = fmax(xn, fabs(x[i]));
  }
  return rn / (an * xn * n * 1.1e-16);
}

/* max |(P A0 - L U)(i,j)| / max |A0| for getrf's factors of A0 (n x n). */
static double lu_resid(li n, const double *LU, li ld, const li *ip,
                       const double *A0) {
  double *PA = malloc(sizeof *PA * (size_t)n * n), d = 0, am = 0;
  for (li j = 0; j < n; ++j)
    for (li i = 0; i < n; ++i)
      PA[(size_t)j * n + i] = A0[(size_t)j * ld + i];
  for (li k = 0; k < n; ++k) /* the interchanges, in order */
    for (li j = 0; j < n; ++j) {
      double t = PA[(size_t)j * n + k];
      PA[(size_t)j * n + k] = PA[(size_t)j * n + ip[k] - 1];
      PA[(size_t)j * n + ip[k] - 1] = t;
    }
  for (li j = 0; j < n; ++j)
    for (li i = 0; i < n; ++i) {
      double s = 0;
      for (li k = 0; k <= (i < j ? i : j); ++k)
        s += (k == i ? 1 : LU[(size_t)k * ld + i]) * LU[(size_t)j * ld + k];
      d = fmax(d, fabs(PA[(size_t)j * n + i] - s));
      am = fmax(am, fabs(PA[(size_t)j * n + i]));
    }
  free(PA);
  return d / am;
}

static void *th_solve(void *arg) {
  li n = (li)(intptr_t)arg, one = 1, info = -7, lda = n + 3;
  double *A = malloc(sizeof *A * (size_t)lda * n),
         *A0 = malloc(sizeof *A * (size_t)lda * n);
  double *b = malloc(sizeof *b * n), *x = malloc(sizeof *x * n);
  li *ip = malloc(sizeof *ip * n);
  int bad = 0;
  for (int rep = 0; rep < 20; ++rep) {
    fill(A, n, lda, (unsigned)(n + rep));
    memcpy(A0, A, sizeof *A * (size_t)lda * n);
    for (li i = 0; i < n; ++i)
      b[i] = x[i] = i % 7 - 3;
    dgesv_(&n, &one, A, &lda, ip, x, &n, &info);
    if (info != 0 || !(ratio(n, A0, lda, x, b) < 30)) bad++;
  }
  free(A), free(A0), free(b), free(x), free(ip);
  return (void *)(intptr_t)bad;
}

int main(void) {
  /* The drop-in is bound, and OpenBLAS's own routines for comparison. */
  CHECK(strstr(lib_of((void *)dgesv_), "libaxb_lapack"),
        "dgesv_ comes from %s, not the drop-in", lib_of((void *)dgesv_));
  void *ob = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  __typeof__(&dgetrf_) ob_dgetrf = ob ? dlsym(ob, "dgetrf_") : NULL;
  __typeof__(&dgetri_) ob_dgetri = ob ? dlsym(ob, "dgetri_") : NULL;
  CHECK(ob_dgetrf && ob_dgetri && ob_dgetrf != dgetrf_,
        "OpenBLAS's dgetrf_ not found beside the drop-in");

  /* The drop-in's trace to a file; axb's anchor must not appear in it. */
  char tpath[] = "/tmp/axb-dropin-XXXXXX";
  int fd = mkstemp(tpath);
  CHECK(fd >= 0 && freopen(tpath, "w", stderr), "trace file");
  setenv("AXB_LAPACK_VERBOSE", "1", 1);
  setenv("AXB_LAPACK_BACKEND", "cpu", 1);
  setenv("AXB_LAPACK_CHECK", "1", 1);
  li n = 5, lda = 8, info = -9, ip[64];
  double A[8 * 64], B[64 * 8];
  int64_t ip64[8], i64 = 0;
  fill(A, n, lda, 1);
  axb_anchor_getrf(AXB_ANCHOR_OPENBLAS, AXB_F64, n, A, lda, ip64, &i64);
  fill(A, n, lda, 1);
  dgetrf_(&n, &n, A, &lda, ip, &info);
  fflush(stderr);
  FILE *tf = fopen(tpath, "r");
  char line[512];
  int ntrace = 0;
  while (tf && fgets(line, sizeof line, tf))
    ntrace += strstr(line, "DGETRF ->") != NULL;
  if (tf) fclose(tf);
  CHECK(ntrace == 1,
        "%d DGETRF lines in the trace (want 1: the anchor "
        "must reach OpenBLAS, not the drop-in)",
        ntrace);

  /* m != n, lda > m, singular: factors, pivots and INFO as OpenBLAS's. */
  li m = 7, nn = 4, lda2 = 9, info2 = -9, ip2[8];
  double C[9 * 8], D[9 * 8];
  fill(C, nn, lda2, 3);
  for (li i = 0; i < lda2; ++i)
    C[2 * lda2 + i] = 0; /* column 3 zero: INFO = 3 */
  memcpy(D, C, sizeof C);
  dgetrf_(&m, &nn, C, &lda2, ip, &info);
  if (ob_dgetrf) ob_dgetrf(&m, &nn, D, &lda2, ip2, &info2);
  CHECK(info == 3 && info2 == 3, "singular getrf INFO %d (OpenBLAS %d)",
        (int)info, (int)info2);
  double dmax = 0;
  for (li j = 0; j < nn; ++j)
    for (li i = 0; i < m; ++i)
      dmax = fmax(dmax, fabs(C[j * lda2 + i] - D[j * lda2 + i]));
  CHECK(dmax < 1e-12 && memcmp(ip, ip2, sizeof(li) * 4) == 0,
        "getrf 7x4 differs from OpenBLAS by %.3g", dmax);

  /* getri: the workspace query, a singular U, then an inverse. */
  double w[64], q = 0;
  li lw = -1;
  fill(A, n, lda, 2);
  dgetri_(&n, A, &lda, ip, &q, &lw, &info);
  CHECK(info == 0 && q >= n, "getri query: INFO %d, WORK(1) %g", (int)info, q);
  fill(A, n, lda, 2);
  A[2 * lda + 2] = 0;
  double A2 = A[0];
  for (li i = 0; i < n; ++i)
    ip[i] = i + 1;
  lw = 64;
  dgetri_(&n, A, &lda, ip, w, &lw, &info);
  CHECK(info == 3 && A[0] == A2, "getri singular U: INFO %d", (int)info);
  fill(A, n, lda, 2);
  memcpy(C, A, sizeof(double) * lda * n);
  dgetrf_(&n, &n, A, &lda, ip, &info);
  dgetri_(&n, A, &lda, ip, w, &lw, &info);
  ob_dgetrf(&n, &n, C, &lda, ip2, &info2);
  ob_dgetri(&n, C, &lda, ip2, w, &lw, &info2);
  dmax = 0;
  for (li j = 0; j < n; ++j)
    for (li i = 0; i < n; ++i)
      dmax = fmax(dmax, fabs(A[j * lda + i] - C[j * lda + i]));
  CHECK(info == 0 && dmax < 1e-13, "getri differs by %.3g", dmax);

  /* Quick returns and XERBLA (name, argument number; INFO = -arg). */
  li zero = 0, one = 1, neg = -1, two = 2;
  info = 5;
  dgesv_(&zero, &one, A, &one, ip, B, &one, &info);
  CHECK(info == 0 && xcalls == 0, "n = 0: INFO %d", (int)info);
  fill(A, n, lda, 4);
  A[0] = 0, A[1] = 0, A[2] = 0, A[3] = 0, A[4] = 0; /* column 1 zero */
  dgesv_(&n, &zero, A, &lda, ip, B, &lda, &info);
  CHECK(info == 1, "nrhs = 0 still factors: INFO %d (want 1)", (int)info);
  dgesv_(&two, &one, A, &one, ip, B, &two, &info);
  expect_xerbla("DGESV", 4, "dgesv lda");
  CHECK(info == -4, "INFO %d", (int)info);
  dpotrf_("x", &n, A, &lda, &info, 1);
  expect_xerbla("DPOTRF", 1, "dpotrf uplo");
  sgetrs_("q", &n, &one, NULL, &lda, ip, NULL, &lda, &info, 1);
  expect_xerbla("SGETRS", 1, "sgetrs trans");
  sgetrs_("t", &n, &neg, NULL, &lda, ip, NULL, &lda, &info, 1);
  expect_xerbla("SGETRS", 3, "sgetrs nrhs");
  lw = 1;
  dgetri_(&two, A, &two, ip, w, &lw, &info);
  expect_xerbla("DGETRI", 6, "dgetri lwork");
  double X[8];
  li iter = 99;
  dsgesv_(&two, &one, A, &two, ip, B, &two, X, &one, w, NULL, &iter, &info);
  expect_xerbla("DSGESV", 9, "dsgesv ldx");

  /* Lowercase uplo and the upper triangle: dposv_ solves. */
  fill(A, n, lda, 5);
  for (li j = 0; j < n; ++j)
    for (li i = 0; i < j; ++i)
      A[j * lda + i] = A[i * lda + j] = 0.1 * (A[j * lda + i] + A[i * lda + j]);
  memcpy(C, A, sizeof(double) * lda * n);
  double b[8], x[8];
  for (li i = 0; i < n; ++i)
    b[i] = x[i] = i + 1;
  dposv_("u", &n, &one, A, &lda, x, &n, &info, 1);
  CHECK(info == 0 && ratio(n, C, lda, x, b) < 30, "dposv 'u': INFO %d",
        (int)info);

  /* dsgesv: a well-conditioned A converges (ITER >= 0, A untouched); a
     Hilbert matrix of order 12 (kappa ~ 1e16) falls back: ITER < 0 and A
     holds the FP64 factors, as in LAPACK. */
  li h = 12, ldh = 12;
  double H[144], H0[144], bh[12], xh[12];
  fill(H, h, ldh, 6);
  memcpy(H0, H, sizeof H);
  for (li i = 0; i < h; ++i)
    bh[i] = 1;
  dsgesv_(&h, &one, H, &ldh, ip, bh, &h, xh, &h, w, NULL, &iter, &info);
  CHECK(info == 0 && iter >= 0 && memcmp(H, H0, sizeof H) == 0 &&
            ratio(h, H0, ldh, xh, bh) < 30,
        "dsgesv converging: INFO %d ITER %d", (int)info, (int)iter);
  for (li j = 0; j < h; ++j)
    for (li i = 0; i < h; ++i)
      H[j * h + i] = H0[j * h + i] = 1.0 / (i + j + 1);
  dsgesv_(&h, &one, H, &ldh, ip, bh, &h, xh, &h, w, NULL, &iter, &info);
  dmax = lu_resid(h, H, ldh, ip, H0);
  CHECK(
      info == 0 && iter < 0 && dmax < 1e-14,
      "dsgesv fallback: INFO %d ITER %d, A holds an LU of A with residual %.3g",
      (int)info, (int)iter, dmax);

  /* AXB_LAPACK_CHECK: Wilkinson's matrix (1 on the diagonal, -1 below, 1
     in the last column) grows 2^(n-1) under partial pivoting: the answer
     of n = 60 is not backward stable, and the check must say so on
     stderr (the dposv above was certified). */
  {
    li w = 60;
    double *W = calloc((size_t)w * w, sizeof *W), bw[60];
    for (li j = 0; j < w; ++j)
      for (li i = 0; i < w; ++i)
        W[(size_t)j * w + i] = i == j || j == w - 1 ? 1 : i > j ? -1 : 0;
    for (li i = 0; i < w; ++i)
      bw[i] = (i * 7919 % 13) - 6.5;
    li wp[60];
    dgesv_(&w, &one, W, &w, wp, bw, &w, &info);
    free(W);
    fflush(stderr);
    int cert = 0, uncert = 0;
    tf = fopen(tpath, "r");
    while (tf && fgets(line, sizeof line, tf)) {
      cert += strstr(line, "DPOSV n=5: certified") != NULL;
      uncert += strstr(line, "DGESV n=60: backward error ratio") != NULL;
    }
    if (tf) fclose(tf);
    CHECK(info == 0 && cert == 1 && uncert == 1,
          "AXB_LAPACK_CHECK: %d certified dposv, %d warnings for Wilkinson's "
          "matrix (want 1 and 1)",
          cert, uncert);
  }
  remove(tpath);

  /* Threads: each its own sizes, at once. */
  pthread_t th[4];
  for (int t = 0; t < 4; ++t)
    pthread_create(&th[t], NULL, th_solve, (void *)(intptr_t)(30 + 37 * t));
  for (int t = 0; t < 4; ++t) {
    void *r;
    pthread_join(th[t], &r);
    CHECK(r == NULL, "thread %d: %d bad solves", t, (int)(intptr_t)r);
  }
  (void)sgetrf_;
  if (fd >= 0) close(fd);
  printf("%s: %d failures\n", fails ? "FAIL" : "ok", fails);
  return fails != 0;
}
