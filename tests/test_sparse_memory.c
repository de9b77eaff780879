/*
 * Issue 23: the memory check before the sparse solvers' allocations
 * (src/sparse/sparse_mem.h), each path refused cleanly under a low
 * AXB_MEMORY_LIMIT (which lowers the figure the library believes is
 * available: the guards are tested without allocating gigabytes):
 *   - the Krylov path (CG + IC(0), GMRES + ILU(0)) and ILUT's fill (a limit
 *     that admits GMRES + ILU(0) refuses GMRES + ILUT), and the same solve
 *     succeeding at that limit;
 *   - the direct path: its analysis (a limit of a few kB), and its numeric
 *     factorisation, CHOLMOD and UMFPACK (a limit that admits the analysis
 *     but not the factor);
 *   - AUTO under a limit that refuses the factor but admits IC(0)-CG: it
 *     takes the iterative path and certifies, the report says why;
 *   - the weighted-matching row permutation (a matrix whose diagonal is
 *     zero): refused with its own message when P A and P B do not fit on
 *     top of the Krylov solve, the solve then reporting its failure.
 * Every refusal: AXB_ERR_OUT_OF_MEMORY with a detail naming what and n.
 */
#include "sparse/sparse_direct.h"
#include "testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void limit(double bytes) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.0f", bytes);
  setenv("AXB_MEMORY_LIMIT", buf, 1);
}

typedef struct {
  axb_status st;
  axb_sparse_report r;
} outcome;

/* b = A 1; the report is kept (freed by the caller's done()). */
static outcome solve(axb_handle h, const axb_csr *A, axb_sparse_method m,
                     axb_precond pc, int direct) {
  outcome out;
  axb_dense B, X;
  if (axb_dense_create(&B, A->rows, 1, AXB_F64) ||
      axb_dense_create(&X, A->rows, 1, AXB_F64))
    exit(1);
  double *b = (double *)B.data;
  const double *v = (const double *)A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    b[i] = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      b[i] += v[k];
  }
  axb_sparse_opts o = test_sparse_opts(m, pc);
  o.direct = direct;
  o.tol = 1e-8;
  out.st = axb_sparse_solve(h, A, &B, &X, &o, &out.r);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return out;
}

static void refused(axb_handle h, outcome *o, const char *want,
                    const char *what) {
  CHECK(o->st == AXB_ERR_OUT_OF_MEMORY && strstr(axb_detail(h), want) &&
            strstr(axb_detail(h), "n = "),
        "%s: status %d, detail '%s' (want '%s')", what, o->st, axb_detail(h),
        want);
  axb_sparse_report_free(&o->r);
}

/* The smallest limit (to 1 %) at which axb_sparse_check_memory admits
   method m with preconditioner pc on A. */
static double least_limit(axb_handle h, const axb_csr *A, axb_sparse_method m,
                          axb_precond pc) {
  axb_sparse_opts o = test_sparse_opts(m, pc);
  double lo = 1, hi = 1e12;
  while (hi > 1.01 * lo) {
    double mid = 0.5 * (lo + hi);
    limit(mid);
    if (axb_sparse_check_memory(h, A, 1, &o, 0) == AXB_SUCCESS)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

static void krylov(axb_handle h) {
  axb_csr P = test_gen_csr(h, "poisson3d:20", AXB_F64),
          C = test_gen_csr(h, "convdiff3d:20", AXB_F64);
  limit(4096);
  outcome o = solve(h, &P, AXB_SPARSE_CG, AXB_PRECOND_IC0, AXB_DIRECT_NEVER);
  refused(h, &o, "cg solve", "cg + ic0 at 4 kB");
  o = solve(h, &C, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, AXB_DIRECT_NEVER);
  refused(h, &o, "gmres solve", "gmres + ilu0 at 4 kB");
  /* ILUT's fill is counted: the least limit of ILU(0) refuses ILUT, and
     the ILU(0) solve runs under it. */
  double l0 = least_limit(h, &C, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0);
  limit(l0);
  o = solve(h, &C, AXB_SPARSE_GMRES, AXB_PRECOND_ILUT, AXB_DIRECT_NEVER);
  refused(h, &o, "gmres solve", "gmres + ilut at ILU(0)'s least limit");
  o = solve(h, &C, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, AXB_DIRECT_NEVER);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  axb_sparse_report_free(&o.r);
  unsetenv("AXB_MEMORY_LIMIT");
  axb_csr_destroy(&P);
  axb_csr_destroy(&C);
}

static void direct(axb_handle h) {
  axb_csr P = test_gen_csr(h, "poisson3d:30", AXB_F64),
          C = test_gen_csr(h, "convdiff3d:30", AXB_F64);
  limit(4096);
  outcome o = solve(h, &P, AXB_SPARSE_DIRECT, AXB_PRECOND_AUTO, 0);
  refused(h, &o, "direct analysis", "direct analysis at 4 kB");
  /* The analysis needs about 12 nnz + 40 n doubles (27 MB here); the
     factors of these 3-D problems several times that. */
  limit(40e6);
  o = solve(h, &P, AXB_SPARSE_DIRECT, AXB_PRECOND_AUTO, 0);
  refused(h, &o, "cholmod factorisation", "CHOLMOD at 40 MB");
  o = solve(h, &C, AXB_SPARSE_DIRECT, AXB_PRECOND_AUTO, 0);
  refused(h, &o, "umfpack factorisation", "UMFPACK at 40 MB");
  /* AUTO: the factor does not fit, IC(0)-CG does. */
  o = solve(h, &P, AXB_SPARSE_AUTO, AXB_PRECOND_AUTO, AXB_DIRECT_AUTO);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  CHECK(o.r.method == AXB_SPARSE_CG && strstr(o.r.path, "iterative: the"),
        "AUTO at 40 MB: method %d path '%s'", (int)o.r.method, o.r.path);
  axb_sparse_report_free(&o.r);
  unsetenv("AXB_MEMORY_LIMIT");
  o = solve(h, &P, AXB_SPARSE_DIRECT, AXB_PRECOND_AUTO, 0);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  axb_sparse_report_free(&o.r);
  axb_csr_destroy(&P);
  axb_csr_destroy(&C);
}

/* Row i of A is row (i + n/2) mod n of the tridiagonal (4, -1, -1): every
   diagonal entry of A is zero, the matching restores T. */
static axb_csr shifted_tridiag(int64_t n) {
  axb_csr A;
  if (axb_csr_create(&A, n, n, 3 * n - 2, AXB_F64)) exit(1);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = (i + n / 2) % n;
    A.rowptr[i] = k;
    for (int64_t j = r - 1; j <= r + 1; ++j)
      if (j >= 0 && j < n) {
        A.colind[k] = j;
        ((double *)A.values)[k++] = j == r ? 4.0 : -1.0;
      }
  }
  A.rowptr[n] = k;
  return A;
}

static void matching(axb_handle h) {
  axb_csr A = shifted_tridiag(2001);
  outcome o =
      solve(h, &A, AXB_SPARSE_GMRES, AXB_PRECOND_AUTO, AXB_DIRECT_NEVER);
  CHECK_STATUS(h, o.st, AXB_SUCCESS);
  CHECK(strstr(o.r.path, "maximum-product matching") != NULL, "path '%s'",
        o.r.path);
  axb_sparse_report_free(&o.r);
  /* Admits the Krylov solve alone, not P A and P B on top of it. */
  double l0 = least_limit(h, &A, AXB_SPARSE_GMRES, AXB_PRECOND_AUTO);
  limit(l0);
  o = solve(h, &A, AXB_SPARSE_GMRES, AXB_PRECOND_AUTO, AXB_DIRECT_NEVER);
  CHECK(o.st != AXB_SUCCESS &&
            strstr(o.r.path, "weighted matching refused (the sparse "
                             "weighted matching") != NULL,
        "matching at the Krylov solve's least limit: status %d path '%s'", o.st,
        o.r.path);
  axb_sparse_report_free(&o.r);
  unsetenv("AXB_MEMORY_LIMIT");
  axb_csr_destroy(&A);
}

int main(void) {
  axb_handle h = test_handle(AXB_BACKEND_CPU);
  krylov(h);
  if (axb__direct_available()) {
    direct(h);
    matching(h);
  }
  axb_handle_destroy(h);
  return test_finish("test_sparse_memory");
}
