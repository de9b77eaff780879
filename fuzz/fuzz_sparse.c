/* libFuzzer harness: axb_sparse_solve on fuzzed CSR values.  The bytes
   give n (1..12), the method, the preconditioner, the triangular-solve
   mode, then the pattern and values of A and b, each value a mantissa
   times 2^e with e in [-1100, 1100] (zeros, subnormals, Inf and the
   extremes of double all come up).  Contract: a documented status; on
   success x is finite and ||b - A x||_2 / ||b||_2 computed here in long
   double is within 10 tol (the driver's promise, issue 19); on failure a
   detail message.  Found inputs: tests/data/fuzz_sparse/. */
#include "axb.h"
#include "fuzz_common.h"

#include <math.h>
#include <string.h>

typedef struct {
  const uint8_t *p;
  size_t left;
} bytes;

static unsigned take(bytes *b) {
  if (!b->left) return 0;
  b->left--;
  return *b->p++;
}

static double value(bytes *b) {
  int m = (int)(take(b) | take(b) << 8) - 32768; /* mantissa */
  int e = (int)(take(b) % 221) * 10 - 1100;      /* exponent */
  return ldexp((double)m / 32768.0, e);
}

static int documented(axb_status st) {
  return st == AXB_SUCCESS || st == AXB_ERR_NOT_SPD ||
         st == AXB_ERR_SMALL_PIVOT || st == AXB_ERR_NO_CONVERGENCE ||
         st == AXB_ERR_INACCURATE || st == AXB_ERR_INVALID ||
         st == AXB_ERR_NOT_SUPPORTED || st == AXB_ERR_OUT_OF_MEMORY ||
         /* the direct path (issue 23) */
         st == AXB_ERR_SINGULAR || st == AXB_ERR_ILL_CONDITIONED ||
         (st < 0 && st > -100);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static axb_handle h;
  if (!h && axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 0;
  axb_set_threads(h, 1);
  bytes b = {data, size};
  int n = 1 + (int)(take(&b) % 12);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = (axb_sparse_method)(take(&b) % AXB_SPARSE_METHOD_COUNT);
  o.precond = (axb_precond)(take(&b) % AXB_PRECOND_COUNT);
  o.trisolve = take(&b) % 2 ? AXB_TRISOLVE_JACOBI : AXB_TRISOLVE_EXACT;
  o.max_iter = 200;
  o.tol = 1e-8;
  int sym = take(&b) % 2;
  double a[12][12];
  memset(a, 0, sizeof a);
  for (int i = 0; i < n; ++i)
    for (int j = sym ? i : 0; j < n; ++j)
      if (i == j || take(&b) % 3 == 0) a[i][j] = value(&b);
  if (sym)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        a[i][j] = a[j][i];
  int nnz = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      nnz += a[i][j] != 0;
  axb_csr A;
  axb_dense B, X;
  if (axb_csr_create(&A, n, n, nnz, AXB_F64)) return 0;
  axb_dense_create(&B, n, 1, AXB_F64);
  axb_dense_create(&X, n, 1, AXB_F64);
  int q = 0;
  for (int i = 0; i < n; ++i) {
    A.rowptr[i] = q;
    for (int j = 0; j < n; ++j)
      if (a[i][j] != 0) {
        A.colind[q] = j;
        ((double *)A.values)[q++] = a[i][j];
      }
  }
  A.rowptr[n] = q;
  double *bv = B.data, *x = X.data;
  for (int i = 0; i < n; ++i)
    bv[i] = value(&b);
  axb_sparse_report r;
  axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
  REQUIRE(documented(st));
  if (st == AXB_SUCCESS) {
    long double rr = 0, bb = 0;
    for (int i = 0; i < n; ++i) {
      REQUIRE(isfinite(x[i]));
      long double ri = bv[i];
      for (int j = 0; j < n; ++j)
        ri -= (long double)a[i][j] * x[j];
      rr += ri * ri;
      bb += (long double)bv[i] * bv[i];
    }
    REQUIRE(bb == 0 ? rr == 0 : sqrtl(rr) <= 10 * o.tol * sqrtl(bb));
  } else {
    REQUIRE(axb_detail(h)[0] != '\0');
  }
  axb_sparse_report_free(&r);
  axb_csr_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return 0;
}
