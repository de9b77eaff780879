/*
 * The OpenCL backend's own behaviour (issue 29), beside the per-backend
 * programs that judge its routines: device listing and selection
 * (AXB_OPENCL_DEVICE), a kernel build error reported with the compiler's
 * log in the detail, routines without OpenCL kernels answering
 * NOT_SUPPORTED, the GPU-device path's pivots (issue 29d) and its
 * persistent leaf against the per-column one, and the backend's GEMM
 * (our gemm_cpu kernel on a CPU device) against a host sum.  Exits 77 when the
 * backend is not compiled or no OpenCL device exists.
 */
#include "testing.h"

#include "backend/backend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void listing(int n) {
  for (int i = 0; i < n; ++i) {
    axb_opencl_device d;
    CHECK_STATUS(NULL, axb_opencl_device_info(i, &d), AXB_SUCCESS);
    CHECK(d.name[0] != '\0' && d.platform[0] != '\0', "device %d unnamed", i);
    CHECK(d.global_bytes > 0 && d.compute_units > 0, "device %d empty", i);
  }
  axb_opencl_device d;
  CHECK_STATUS(NULL, axb_opencl_device_info(n, &d), AXB_ERR_NO_DEVICE);
  CHECK_STATUS(NULL, axb_opencl_device_info(0, NULL), AXB_ERR_INVALID);
  int ord = -1;
  CHECK_STATUS(NULL, axb_opencl_device_select(0, &ord), AXB_SUCCESS);
  CHECK(ord == 0, "default ordinal %d", ord);
  /* GPUs first: device 0 is a GPU whenever any device is. */
  int any_gpu = 0;
  for (int i = 0; i < n; ++i)
    if (axb_opencl_device_info(i, &d) == AXB_SUCCESS) any_gpu |= d.is_gpu;
  axb_opencl_device_info(0, &d);
  CHECK(d.is_gpu == any_gpu, "device 0 is not the first GPU");
}

/* AXB_OPENCL_DEVICE: by "P:D", by ordinal, by name; bad values fail with
   a detail that names the variable. */
static void selection(int n) {
  axb_opencl_device d;
  axb_opencl_device_info(0, &d);
  char spec[32];
  snprintf(spec, sizeof spec, "%d:%d", d.platform_index, d.device_index);
  const char *good[] = {spec, "0", d.name};
  for (int i = 0; i < 3; ++i) {
    setenv("AXB_OPENCL_DEVICE", good[i], 1);
    int ord = -1;
    CHECK_STATUS(NULL, axb_opencl_device_select(0, &ord), AXB_SUCCESS);
    CHECK(ord == 0, "AXB_OPENCL_DEVICE=%s: ordinal %d", good[i], ord);
  }
  char big[16];
  snprintf(big, sizeof big, "%d", n);
  const char *bad[] = {"99:0", big, "no-such-device-name-xyz"};
  for (int i = 0; i < 3; ++i) {
    setenv("AXB_OPENCL_DEVICE", bad[i], 1);
    axb_handle h = NULL;
    CHECK_STATUS(NULL, axb_handle_create(&h, AXB_BACKEND_OPENCL, 0),
                 AXB_ERR_NO_DEVICE);
    CHECK(h == NULL && strstr(axb_detail(NULL), "AXB_OPENCL_DEVICE"),
          "bad AXB_OPENCL_DEVICE=%s: detail '%s'", bad[i], axb_detail(NULL));
  }
  unsetenv("AXB_OPENCL_DEVICE");
}

/* A kernel build error: AXB_ERR_DEVICE, the log in the detail; the next
   handle builds fine. */
static void build_error(void) {
  setenv("AXB_OPENCL_BUILD_OPTIONS", "-DAXB_TEST_BUILD_ERROR", 1);
  axb_handle h = test_handle(AXB_BACKEND_OPENCL);
  float a[4] = {2, 1, 1, 2};
  int64_t ipiv[2], info = -1;
  axb_status st = axb_sgetrf(h, 2, 2, a, 2, ipiv, &info);
  CHECK_STATUS(h, st, AXB_ERR_DEVICE);
  CHECK(strstr(axb_detail(h), "build error requested") != NULL,
        "the compiler's log is not in the detail: '%s'", axb_detail(h));
  axb_handle_destroy(h);
  unsetenv("AXB_OPENCL_BUILD_OPTIONS");
  h = test_handle(AXB_BACKEND_OPENCL);
  CHECK_STATUS(h, axb_sgetrf(h, 2, 2, a, 2, ipiv, &info), AXB_SUCCESS);
  axb_handle_destroy(h);
}

/* A device without double precision: every double entry says so, float
   works (AXB_OPENCL_NO_FP64 makes PoCL's device look like one). */
static void no_fp64(void) {
  setenv("AXB_OPENCL_NO_FP64", "1", 1);
  axb_handle h = test_handle(AXB_BACKEND_OPENCL);
  double a[4] = {4, 1, 1, 3};
  float f[4] = {4, 1, 1, 3};
  int64_t ipiv[2], info = -1;
  CHECK_STATUS(h, axb_dgetrf(h, 2, 2, a, 2, ipiv, &info),
               AXB_ERR_NOT_SUPPORTED);
  CHECK(strstr(axb_detail(h), "cl_khr_fp64") != NULL, "detail '%s'",
        axb_detail(h));
  CHECK_STATUS(h, axb_dpotrf(h, AXB_LOWER, 2, a, 2, &info),
               AXB_ERR_NOT_SUPPORTED);
  CHECK(a[0] == 4 && a[3] == 3, "a refused call changed A");
  CHECK_STATUS(h, axb_spotrf(h, AXB_LOWER, 2, f, 2, &info), AXB_SUCCESS);
  CHECK(f[0] == 2, "spotrf gave %g", f[0]);
  axb_handle_destroy(h);
  unsetenv("AXB_OPENCL_NO_FP64");
}

/* Routines without an OpenCL kernel say so. */
static void absent(void) {
  axb_handle h = test_handle(AXB_BACKEND_OPENCL);
  double a[4] = {4, 1, 1, 3}, b[2] = {1, 2};
  int64_t ipiv[2], info = -1;
  CHECK_STATUS(h, axb_dgetrf_crout(h, 2, a, 2, ipiv, &info),
               AXB_ERR_NOT_SUPPORTED);
  CHECK_STATUS(h, axb_dgesv_gauss(h, 2, 1, a, 2, b, 2, 1, &info),
               AXB_ERR_NOT_SUPPORTED);
  CHECK(strstr(axb_detail(h), "opencl") != NULL, "detail '%s'", axb_detail(h));
  axb_handle_destroy(h);
}

/* A sparse entry in {-1, 0, 1} from the generator state *r (about one in
   sixteen nonzero). */
static int sparse_unit(unsigned *r) {
  *r = *r * 1103515245u + 12345u;
  const unsigned x = (*r >> 16) & 31u;
  return x == 0 ? -1 : x == 1 ? 1 : 0;
}

/*
 * The GPU-device path (AXB_OPENCL_GPU_PATH=1, issue 29d) picks the same
 * pivots as the reference, ties included.  Rows in pairs, shuffled: for
 * even j, u = e_j + x (x sparse in {-1, 0, 1} on columns j + 2 and
 * beyond) and v = -e_j + e_{j+1}.  Column j's candidates are u and v
 * alone, tied at magnitude 1, and LAPACK's first maximum (the earlier row
 * after the swaps so far) decides; either way the other one becomes
 * e_{j+1} + x, column j + 1's only candidate.  Every value stays in
 * {-1, 0, 1}: exact in any order of operations, so the pivots must agree
 * exactly.  Small outer blocks and leaves: the pivots cross both.
 */
static void gpu_path_pivots(void) {
  enum { N = 200 };
  double *A = calloc(N * N, sizeof *A), *F = malloc(N * N * sizeof *F);
  int64_t perm[N], ipiv[3][N], info = -1;
  unsigned r = 12345;
  for (int i = 0; i < N; ++i)
    perm[i] = i;
  for (int i = N - 1; i > 0; --i) { /* a fixed shuffle */
    r = r * 1103515245u + 12345u;
    const int k = (int)((r >> 8) % (unsigned)(i + 1));
    const int64_t t = perm[i];
    perm[i] = perm[k];
    perm[k] = t;
  }
  for (int j = 0; j < N; j += 2) { /* rows j (u) and j + 1 (v) */
    double *u = A + perm[j], *v = A + perm[j + 1];
    u[j * N] = 1;
    for (int c = j + 2; c < N; ++c)
      u[c * N] = sparse_unit(&r);
    v[j * N] = -1;
    v[(j + 1) * N] = 1;
  }
  setenv("AXB_OPENCL_GPU_NB", "64", 1);
  setenv("AXB_OPENCL_GPU_LEAF", "16", 1);
  for (int v = 0; v < 3; ++v) {
    if (v) setenv("AXB_OPENCL_GPU_PATH", v == 2 ? "1" : "0", 1);
    axb_handle h = test_handle(v ? AXB_BACKEND_OPENCL : AXB_BACKEND_REF);
    memcpy(F, A, N * N * sizeof *F);
    CHECK_STATUS(h, axb_dgetrf(h, N, N, F, N, ipiv[v], &info), AXB_SUCCESS);
    int unit = 1;
    for (int i = 0; i < N; ++i)
      unit &= F[i + (int64_t)i * N] == 1 || F[i + (int64_t)i * N] == -1;
    CHECK(v || unit, "the reference's pivots are not all +-1: inexact");
    for (int i = 0; v && i < N; ++i)
      if (ipiv[v][i] != ipiv[0][i]) {
        CHECK(0, "path %d: ipiv[%d] = %lld, the reference's %lld", v - 1, i,
              (long long)ipiv[v][i], (long long)ipiv[0][i]);
        break;
      }
    axb_handle_destroy(h);
  }
  unsetenv("AXB_OPENCL_GPU_PATH");
  unsetenv("AXB_OPENCL_GPU_NB");
  unsetenv("AXB_OPENCL_GPU_LEAF");
  free(A);
  free(F);
}

/* Matrix kind k (m x n, ld m) from the generator state *r: 0 uniform in
   [-1, 1); 1 the same with column 3 zero (a zero pivot: info); 2 with
   NaNs (one entry, and all of column 5); 3 entries in {-1, 0, 1} (ties
   at every column). */
static void persist_matrix(double *A, int m, int n, int k, unsigned *r) {
  for (int64_t i = 0; i < (int64_t)m * n; ++i) {
    *r = *r * 1103515245u + 12345u;
    const double u = (double)((*r >> 8) & 0xffffu) / 32768.0 - 1;
    A[i] = k == 3 ? (double)((int)((*r >> 16) % 3u) - 1) : u;
  }
  for (int i = 0; k == 1 && n > 3 && i < m; ++i)
    A[i + 3 * (int64_t)m] = 0;
  if (k == 2 && m > 2 && n > 1) A[2 + (int64_t)m] = NAN;
  for (int i = 0; k == 2 && n > 5 && i < m; ++i)
    A[i + 5 * (int64_t)m] = NAN;
}

/*
 * The persistent leaf (AXB_OPENCL_GPU_LEAF_PERSIST=1: G = 1 group on a
 * CPU device, up to the compute units on a GPU; =2: up to the compute
 * units anywhere, the global barrier between threads on PoCL) gives the
 * per-column leaf's factors, pivots, info and status bit for bit: the
 * same operations on the same operands, the pivot a total order on
 * (|x|, row).  Odd and rectangular sizes, leaves of 16 and 64 columns
 * (the pivots cross leaves and outer blocks), double and float; 1100
 * rows: several groups of 256 on a GPU too.
 */
static void persist_leaf(void) {
  static const int sizes[][2] = {{1, 1},    {7, 7},    {33, 33},   {70, 70},
                                 {101, 45}, {45, 101}, {150, 150}, {1100, 40}};
  static const char *const cfg[][2] = {{"64", "16"}, {"128", "64"}};
  setenv("AXB_OPENCL_GPU_PATH", "1", 1);
  for (int c = 0; c < 2; ++c) {
    setenv("AXB_OPENCL_GPU_NB", cfg[c][0], 1);
    setenv("AXB_OPENCL_GPU_LEAF", cfg[c][1], 1);
    axb_handle h[3];
    for (int v = 0; v < 3; ++v) {
      const char val[2] = {(char)('0' + v), 0};
      setenv("AXB_OPENCL_GPU_LEAF_PERSIST", val, 1);
      h[v] = test_handle(AXB_BACKEND_OPENCL);
    }
    unsigned r = 777;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      for (int k = 0; k < 4; ++k)
        for (int dbl = 0; dbl < 2; ++dbl) {
          const int m = sizes[s][0], n = sizes[s][1], mn = m < n ? m : n;
          const size_t es = dbl ? sizeof(double) : sizeof(float);
          double *A = malloc((size_t)m * n * sizeof *A);
          char *F[3];
          int64_t *piv[3], info[3];
          axb_status st[3];
          persist_matrix(A, m, n, k, &r);
          for (int v = 0; v < 3; ++v) {
            F[v] = malloc((size_t)m * n * es);
            piv[v] = malloc((size_t)mn * sizeof(int64_t));
            for (int64_t i = 0; i < (int64_t)m * n; ++i)
              if (dbl)
                ((double *)F[v])[i] = A[i];
              else
                ((float *)F[v])[i] = (float)A[i];
            st[v] = dbl ? axb_dgetrf(h[v], m, n, (double *)F[v], m, piv[v],
                                     &info[v])
                        : axb_sgetrf(h[v], m, n, (float *)F[v], m, piv[v],
                                     &info[v]);
          }
          for (int v = 1; v < 3; ++v) {
            CHECK(st[v] == st[0] && info[v] == info[0] &&
                      !memcmp(piv[v], piv[0], (size_t)mn * sizeof(int64_t)) &&
                      !memcmp(F[v], F[0], (size_t)m * n * es),
                  "persistent leaf %d (leaf %s) %dx%d kind %d %s: status "
                  "%d/%d info %lld/%lld, pivots or factors differ",
                  v, cfg[c][1], m, n, k, dbl ? "double" : "float", st[v], st[0],
                  (long long)info[v], (long long)info[0]);
          }
          for (int v = 0; v < 3; ++v) {
            free(F[v]);
            free(piv[v]);
          }
          free(A);
        }
    for (int v = 0; v < 3; ++v)
      axb_handle_destroy(h[v]);
  }
  unsetenv("AXB_OPENCL_GPU_LEAF_PERSIST");
  unsetenv("AXB_OPENCL_GPU_PATH");
  unsetenv("AXB_OPENCL_GPU_NB");
  unsetenv("AXB_OPENCL_GPU_LEAF");
}

/* The backend's GEMM (gemm_cpu.cl on a CPU device, CLBlast on a GPU)
   entry by entry against a host sum in double: every op(A) op(B), sizes
   below, at and past the kernel's tiles (16 / 32 rows, 8 columns), k = 0,
   beta = 0 over NaN (C not read), in float and double.  Each entry within
   c (k + 2) eps of the magnitudes summed. */
#define GEMM_CASE(T, OPS, EPS)                                                 \
  static void gemm_case_##T(axb_handle h, int ta, int tb, int m, int n, int k, \
                            double al, double be, unsigned *r) {               \
    const int ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k,               \
              cb = tb ? k : n;                                                 \
    T *A = malloc(sizeof(T) * (size_t)(ra * ca + 1)),                          \
      *B = malloc(sizeof(T) * (size_t)(rb * cb + 1)),                          \
      *C = malloc(sizeof(T) * (size_t)(m * n + 1));                            \
    double *C0 = malloc(sizeof(double) * (size_t)(m * n + 1));                 \
    for (int i = 0; i < ra * ca; ++i)                                          \
      A[i] = (T)(sparse_unit(r) + 0.25);                                       \
    for (int i = 0; i < rb * cb; ++i)                                          \
      B[i] = (T)(sparse_unit(r) - 0.5);                                        \
    for (int i = 0; i < m * n; ++i) {                                          \
      C[i] = be == 0 ? (T)NAN : (T)sparse_unit(r);                             \
      C0[i] = C[i];                                                            \
    }                                                                          \
    CHECK_STATUS(h,                                                            \
                 axb_opencl_ops()->OPS.gemm(h, ta ? AXB_TRANS : AXB_NO_TRANS,  \
                                            tb ? AXB_TRANS : AXB_NO_TRANS, m,  \
                                            n, k, (T)al, A, ra > 0 ? ra : 1,   \
                                            B, rb > 0 ? rb : 1, (T)be, C,      \
                                            m > 0 ? m : 1),                    \
                 AXB_SUCCESS);                                                 \
    int bad = 0;                                                               \
    for (int j = 0; j < n && !bad; ++j)                                        \
      for (int i = 0; i < m && !bad; ++i) {                                    \
        double s = 0, mag = 0;                                                 \
        for (int p = 0; p < k; ++p) {                                          \
          const double a = ta ? A[p + i * ra] : A[i + p * ra],                 \
                       b = tb ? B[j + p * rb] : B[p + j * rb];                 \
          s += a * b;                                                          \
          mag += fabs(a * b);                                                  \
        }                                                                      \
        const double c0 = C0[i + j * m],                                       \
                     want = be == 0 ? al * s : al * s + be * c0,               \
                     tol = 4.0 * (k + 2) * EPS *                               \
                           (fabs(al) * mag + (be == 0 ? 0 : fabs(be * c0))),   \
                     got = C[i + j * m];                                       \
        if (!(fabs(got - want) <= tol)) {                                      \
          CHECK(0, #T " gemm %c%c %dx%dx%d: C(%d,%d) = %g, want %g",           \
                ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, i, j, got, want);     \
          bad = 1;                                                             \
        }                                                                      \
      }                                                                        \
    free(A);                                                                   \
    free(B);                                                                   \
    free(C);                                                                   \
    free(C0);                                                                  \
  }
GEMM_CASE(double, d, 1.1102230246251565e-16)
GEMM_CASE(float, s, 5.9604644775390625e-08)

static void gemm_products(void) {
  static const int sz[][3] = {{1, 1, 1},    {16, 8, 3},   {17, 9, 5},
                              {33, 17, 40}, {32, 16, 7},  {50, 23, 0},
                              {70, 3, 9},   {64, 64, 64}, {5, 40, 2}};
  static const double ab[][2] = {{1, 0}, {-0.5, 1}, {2, 2.5}};
  unsigned r = 777;
  /* one handle: each builds the program, and CLBlast's program cache
     keeps every context it saw (NVIDIA ran out of memory after ~200) */
  axb_handle h = test_handle(AXB_BACKEND_OPENCL);
  for (int t = 0; t < 4; ++t)
    for (size_t c = 0; c < sizeof sz / sizeof *sz; ++c)
      for (int v = 0; v < 3; ++v) {
        gemm_case_double(h, t & 1, t >> 1, sz[c][0], sz[c][1], sz[c][2],
                         ab[v][0], ab[v][1], &r);
        gemm_case_float(h, t & 1, t >> 1, sz[c][0], sz[c][1], sz[c][2],
                        ab[v][0], ab[v][1], &r);
      }
  axb_handle_destroy(h);
}

int main(void) {
  if (!axb_backend_compiled(AXB_BACKEND_OPENCL)) {
    axb_handle h = NULL;
    CHECK_STATUS(NULL, axb_handle_create(&h, AXB_BACKEND_OPENCL, 0),
                 AXB_ERR_NOT_COMPILED);
    printf("SKIP: OpenCL backend not compiled\n");
    return test_failures ? 1 : 77;
  }
  int n = 0;
  CHECK_STATUS(NULL, axb_opencl_device_count(&n), AXB_SUCCESS);
  if (n == 0) {
    return test_skip("no OpenCL device");
  }
  listing(n);
  selection(n);
  build_error();
  no_fp64();
  absent();
  gpu_path_pivots();
  persist_leaf();
  gemm_products();
  return test_finish("test_opencl");
}
