/*
 * Sparse iterative solvers (issue 8) on the host backends (AUTO's direct
 * path of issue 23 is switched off: opts.direct = NEVER; see
 * test_sparse_direct.c).
 * AXB_TEST_PER_BACKEND: runs as `test_sparse ref` and `test_sparse cpu`.
 *
 * Every solve is judged by the test's own relative residual
 * ||b - A x||_2 / ||b||_2 (computed here in long double from the CSR), which
 * must be <= tol (1.01 tol for rounding of the check), against b = A x_true;
 * and for well-conditioned problems by the forward error.  Statuses of the
 * failure modes (non-SPD to CG, zero pivot in ILU(0), max iterations) are
 * checked with their indices.  The CPU backend's results must equal the
 * reference backend's bit for bit (the reductions use fixed chunks).
 *
 * This file holds the helpers and the Poisson sweep; the other groups of
 * checks are in tests/sparse/ (#included below), the CSR helpers shared
 * with test_sparse_direct.c in sparse_testing.h.
 */
#include "sparse/sparse_direct.h"
#include "sparse/sparse_host.h"
#include "sparse_testing.h"

#include <stdlib.h>
#include <string.h>

static axb_backend backend;

/* ---- operands ---------------------------------------------------------- */

/* x_true uniform-ish in [-1, 1] (deterministic), b = A x_true in double. */
static double xtrue(int64_t i, int64_t j) {
  return sin(1.0 + 0.37 * (double)i + 1.3 * (double)j);
}

static void make_rhs(const axb_csr *A, int64_t nrhs, axb_dense *Xt,
                     axb_dense *B) {
  csr_make_rhs(A, nrhs, Xt, B, xtrue);
}

/* Default options on the Krylov path (AUTO's direct path, issue 23, off)
   with method m and preconditioner p. */
static axb_sparse_opts krylov_opts(axb_sparse_method m, axb_precond p) {
  axb_sparse_opts o = test_sparse_opts(m, p);
  o.direct = AXB_DIRECT_NEVER;
  return o;
}

/* Solve A x = b with (m, p, trisolve) and judge: success, report's true
   residual = ours (within a factor 2 or 1e-3 tol), ours <= 1.01 tol,
   forward error <= ferr (if > 0), iterations <= maxit_expected (if > 0). */
static void solve_and_check(axb_handle h, const char *name, const axb_csr *A,
                            axb_sparse_method m, axb_precond p, axb_trisolve ts,
                            double tol, double ferr) {
  axb_dense Xt, B, X;
  make_rhs(A, 1, &Xt, &B);
  if (axb_dense_create(&X, A->rows, 1, A->dtype)) exit(1);
  axb_sparse_opts o = krylov_opts(m, p);
  o.trisolve = ts;
  o.tol = tol;
  o.history = 1;
  o.max_iter = 20000;
  axb_sparse_report r;
  axb_status st = axb_sparse_solve(h, A, &B, &X, &o, &r);
  double ours = csr_rel_residual(A, &X, &B);
  double fe = axb_forward_error(&X, &Xt);
  const char *what = axb_sparse_method_name(m);
  const char *pw = axb_precond_name(p);
  const char *tw = ts == AXB_TRISOLVE_JACOBI ? "jacobi-tri" : "exact-tri";
  const char *dt = axb_dtype_name(A->dtype);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(ours <= 1.01 * tol,
        "%s %s %s %s %s: residual %.3g > tol %.3g (%lld it)", name, what, pw,
        tw, dt, ours, tol, (long long)r.iterations);
  CHECK(fabs(r.true_residual - ours) <= 0.5 * ours + 1e-3 * tol,
        "%s %s %s %s: reported true residual %.3g, ours %.3g", name, what, pw,
        dt, r.true_residual, ours);
  CHECK(ferr <= 0 || fe <= ferr, "%s %s %s %s: forward error %.3g > %.3g", name,
        what, pw, dt, fe, ferr);
  CHECK(r.method == m && r.precond == p && !r.precond_fell_back,
        "%s: report says method %s precond %s", name,
        axb_sparse_method_name(r.method), axb_precond_name(r.precond));
  CHECK(r.history && r.history_len >= 2 && r.history[0] > 0 &&
            r.history[r.history_len - 1] <= tol,
        "%s %s %s %s: history (len %lld) does not end below tol", name, what,
        pw, dt, (long long)r.history_len);
  CHECK(r.t_setup >= 0 && r.t_solve >= 0, "times");
  axb_sparse_report_free(&r);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
}

/* ---- every method x preconditioner on Poisson ---------------------------- */

static void test_poisson(axb_handle h) {
  const char *specs[] = {"poisson2d:17", "poisson3d:7"};
  for (int s = 0; s < 2; ++s)
    for (int d = 0; d < 2; ++d) {
      axb_dtype t = d ? AXB_F32 : AXB_F64;
      axb_csr A = test_gen_csr(h, specs[s], t);
      double tol = t == AXB_F64 ? 1e-9 : 1e-5;
      /* kappa(Poisson 17^2) ~ 130: forward error <= kappa tol. */
      double ferr = t == AXB_F64 ? 1e-6 : 1e-2;
      for (int m = AXB_SPARSE_CG; m <= AXB_SPARSE_GMRES; ++m)
        for (int p = AXB_PRECOND_NONE; p < AXB_PRECOND_COUNT; ++p)
          for (int ts = 0; ts < 2; ++ts) {
            if (ts && p < AXB_PRECOND_ILU0) continue;
            solve_and_check(h, specs[s], &A, (axb_sparse_method)m,
                            (axb_precond)p, (axb_trisolve)ts, tol, ferr);
          }
      axb_csr_destroy(&A);
    }
}

static axb_status quick_solve(axb_handle h, const axb_csr *A,
                              axb_sparse_method m, axb_precond p,
                              int64_t max_iter, axb_sparse_report *r,
                              double *ours) {
  axb_dense Xt, B, X;
  make_rhs(A, 1, &Xt, &B);
  if (axb_dense_create(&X, A->rows, 1, A->dtype)) exit(1);
  axb_sparse_opts o = krylov_opts(m, p);
  o.max_iter = max_iter;
  o.history = 1;
  o.tol = A->dtype == AXB_F64 ? 1e-8 : 1e-5;
  axb_status st = axb_sparse_solve(h, A, &B, &X, &o, r);
  if (ours) *ours = csr_rel_residual(A, &X, &B);
  for (int64_t i = 0; i < A->rows; ++i)
    CHECK(isfinite(axb_dense_get(&X, i, 0)), "x[%lld] not finite after %s",
          (long long)i, axb_strerror(st));
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return st;
}

/* The groups of checks (tests/sparse/), sharing the helpers above. */
#include "sparse/checks.c"
#include "sparse/factors.c"
#include "sparse/failures.c"
#include "sparse/real.c"

int main(int argc, char **argv) {
  backend = test_backend_arg(argc, argv);
  axb_handle h = test_handle(backend);
  test_invalid(h);
  test_edges(h);
  test_failure_modes(h);
  test_bicgstab_breakdown(h);
  test_fixed_point(h);
  test_symmetry_once(h);
  test_ilu0_unsymmetric(h);
  test_jacobi_first(h);
  test_poisson(h);
  test_real(h);
  test_reproducible(h);
  axb_handle_destroy(h);
  return test_finish(backend == AXB_BACKEND_CPU    ? "test_sparse cpu"
                     : backend == AXB_BACKEND_CUDA ? "test_sparse cuda"
                                                   : "test_sparse ref");
}
