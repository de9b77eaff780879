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
 */
#include "sparse/sparse_direct.h"
#include "sparse/sparse_host.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>

static axb_backend backend;

/* ---- operands ---------------------------------------------------------- */

static axb_csr gen_csr(axb_handle h, const char *spec, axb_dtype t) {
  axb_gen_spec s;
  axb_csr A;
  memset(&A, 0, sizeof(A));
  if (axb_gen_parse(h, spec, &s) || axb_gen_csr(h, &s, t, &A)) {
    fprintf(stderr, "cannot generate %s: %s\n", spec, axb_detail(h));
    exit(1);
  }
  return A;
}

/* A CSR from dense row-major values (zeros dropped unless keep0[i*n+j]). */
static axb_csr csr_from_rows(int64_t n, const double *a, axb_dtype t) {
  int64_t nnz = 0;
  for (int64_t k = 0; k < n * n; ++k)
    nnz += a[k] != 0;
  axb_csr A;
  if (axb_csr_create(&A, n, n, nnz, t)) exit(1);
  int64_t k = 0;
  A.rowptr[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j)
      if (a[i * n + j] != 0) {
        A.colind[k] = j;
        if (t == AXB_F64)
          ((double *)A.values)[k] = a[i * n + j];
        else
          ((float *)A.values)[k] = (float)a[i * n + j];
        ++k;
      }
    A.rowptr[i + 1] = k;
  }
  return A;
}

static double val(const axb_csr *A, int64_t k) {
  return A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                             : ((const float *)A->values)[k];
}

/* x_true uniform-ish in [-1, 1] (deterministic), b = A x_true in double. */
static void make_rhs(const axb_csr *A, int64_t nrhs, axb_dense *Xt,
                     axb_dense *B) {
  int64_t n = A->rows;
  if (axb_dense_create(Xt, n, nrhs, A->dtype) ||
      axb_dense_create(B, n, nrhs, A->dtype))
    exit(1);
  for (int64_t j = 0; j < nrhs; ++j) {
    for (int64_t i = 0; i < n; ++i)
      axb_dense_set(Xt, i, j, sin(1.0 + 0.37 * (double)i + 1.3 * (double)j));
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
        s += val(A, k) * axb_dense_get(Xt, A->colind[k], j);
      axb_dense_set(B, i, j, s);
    }
  }
}

/* Worst column's ||b - A x||_2 / ||b||_2, in long double. */
static double rel_residual(const axb_csr *A, const axb_dense *X,
                           const axb_dense *B) {
  double worst = 0;
  for (int64_t j = 0; j < B->cols; ++j) {
    long double rr = 0, bb = 0;
    for (int64_t i = 0; i < A->rows; ++i) {
      long double s = axb_dense_get(B, i, j);
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
        s -= (long double)val(A, k) * axb_dense_get(X, A->colind[k], j);
      rr += s * s;
      bb += (long double)axb_dense_get(B, i, j) * axb_dense_get(B, i, j);
    }
    double r = bb > 0 ? (double)sqrtl(rr / bb) : (double)sqrtl(rr);
    if (!(r <= worst)) worst = r;
  }
  return worst;
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
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  o.method = m;
  o.precond = p;
  o.trisolve = ts;
  o.tol = tol;
  o.history = 1;
  o.max_iter = 20000;
  axb_sparse_report r;
  axb_status st = axb_sparse_solve(h, A, &B, &X, &o, &r);
  double ours = rel_residual(A, &X, &B);
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
      axb_csr A = gen_csr(h, specs[s], t);
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
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  o.method = m;
  o.precond = p;
  o.max_iter = max_iter;
  o.history = 1;
  o.tol = A->dtype == AXB_F64 ? 1e-8 : 1e-5;
  axb_status st = axb_sparse_solve(h, A, &B, &X, &o, r);
  if (ours) *ours = rel_residual(A, &X, &B);
  for (int64_t i = 0; i < A->rows; ++i)
    CHECK(isfinite(axb_dense_get(&X, i, 0)), "x[%lld] not finite after %s",
          (long long)i, axb_strerror(st));
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  return st;
}

/* ---- real matrices --------------------------------------------------------
 */

static void test_real(axb_handle h) {
  const char *dir = test_matrices_dir();
  if (!dir) {
    printf("AXB_MATRICES absent: real-matrix cases skipped\n");
    return;
  }
  /* IC(0) of bcsstk14 (SPD) meets a non-positive pivot: since issue 23 it
     is computed again on A + alpha diag(A) (report.precond_shift), asked
     for by name or by AUTO, and PCG converges with it. */
  {
    char path[2048];
    snprintf(path, sizeof(path), "%s/bcsstk14.mtx", dir);
    axb_csr A;
    axb_status st = axb_read_csr(h, path, AXB_F64, &A);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (!st) {
      axb_sparse_report r;
      double ours;
      st = quick_solve(h, &A, AXB_SPARSE_CG, AXB_PRECOND_IC0, 0, &r, &ours);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      CHECK(r.precond == AXB_PRECOND_IC0 && r.precond_shift > 0 &&
                ours <= 1.01e-8,
            "bcsstk14 ic0: shift %.3g residual %.3g", r.precond_shift, ours);
      axb_sparse_report_free(&r);
      st = quick_solve(h, &A, AXB_SPARSE_AUTO, AXB_PRECOND_AUTO, 0, &r, &ours);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      CHECK(r.method == AXB_SPARSE_CG && !r.precond_fell_back &&
                r.precond == AXB_PRECOND_IC0 && ours <= 1.01e-8,
            "bcsstk14 AUTO: %s %s fell back %d residual %.3g",
            axb_sparse_method_name(r.method), axb_precond_name(r.precond),
            r.precond_fell_back, ours);
      axb_sparse_report_free(&r);
      axb_csr_destroy(&A);
    }
  }
  /* BiCGStab + Jacobi diverges on sherman2: stopped at ||r|| > 1e8 ||b||
     with finite x, reported as DIVERGED. */
  {
    char path[2048];
    snprintf(path, sizeof(path), "%s/sherman2.mtx", dir);
    axb_csr A;
    axb_status st = axb_read_csr(h, path, AXB_F64, &A);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (!st) {
      axb_sparse_report r;
      st = quick_solve(h, &A, AXB_SPARSE_BICGSTAB, AXB_PRECOND_JACOBI, 0, &r,
                       NULL);
      CHECK_STATUS(h, st, AXB_ERR_NO_CONVERGENCE);
      CHECK(r.breakdown == AXB_BREAKDOWN_DIVERGED && r.residual > 1e8,
            "sherman2 bicgstab+jacobi: breakdown %s residual %.3g",
            axb_sparse_breakdown_name(r.breakdown), r.residual);
      axb_sparse_report_free(&r);
      axb_csr_destroy(&A);
    }
  }
  /* (file, spd, method, precond): CG/PCG on SPD, GMRES/BiCGStab on the
     unsymmetric ones, each with a preconditioner that makes it converge. */
  struct {
    const char *file;
    axb_sparse_method m;
    axb_precond p;
  } cases[] = {
      {"mesh1e1.mtx", AXB_SPARSE_CG, AXB_PRECOND_NONE},
      {"gr_30_30.mtx", AXB_SPARSE_CG, AXB_PRECOND_JACOBI},
      {"gr_30_30.mtx", AXB_SPARSE_CG1, AXB_PRECOND_IC0},
      {"nos4.mtx", AXB_SPARSE_CG, AXB_PRECOND_IC0},
      {"494_bus.mtx", AXB_SPARSE_CG, AXB_PRECOND_IC0},
      {"bcsstk14.mtx", AXB_SPARSE_CG, AXB_PRECOND_JACOBI},
      {"nos4.mtx", AXB_SPARSE_CG, AXB_PRECOND_PARIC},
      {"gr_30_30.mtx", AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARIC},
      {"Trefethen_500.mtx", AXB_SPARSE_CG1, AXB_PRECOND_JACOBI},
      {"cage5.mtx", AXB_SPARSE_GMRES, AXB_PRECOND_NONE},
      {"cage10.mtx", AXB_SPARSE_BICGSTAB, AXB_PRECOND_ILU0},
      {"pde2961.mtx", AXB_SPARSE_GMRES, AXB_PRECOND_ILU0},
      {"pde2961.mtx", AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU},
      {"orsreg_1.mtx", AXB_SPARSE_GMRES, AXB_PRECOND_ILU0},
      {"orsirr_1.mtx", AXB_SPARSE_GMRES, AXB_PRECOND_ILU0},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c)
    for (int d = 0; d < 2; ++d) {
      char path[2048];
      snprintf(path, sizeof(path), "%s/%s", dir, cases[c].file);
      axb_dtype t = d ? AXB_F32 : AXB_F64;
      axb_csr A;
      axb_status st = axb_read_csr(h, path, t, &A);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      if (st) continue;
      solve_and_check(h, cases[c].file, &A, cases[c].m, cases[c].p,
                      AXB_TRISOLVE_EXACT, t == AXB_F64 ? 1e-8 : 1e-4, 0);
      axb_csr_destroy(&A);
    }
}

/* ---- failure modes ----------------------------------------------------------
 */

static void test_failure_modes(axb_handle h) {
  axb_sparse_report r;
  double ours;
  for (int d = 0; d < 2; ++d) {
    axb_dtype t = d ? AXB_F32 : AXB_F64;
    /* Symmetric indefinite (diagonal 2, -1, 2, ...  with couplings): CG
       meets p^T A p <= 0 and says NOT_SPD; GMRES solves it. */
    double ind[5 * 5] = {0};
    for (int i = 0; i < 5; ++i) {
      ind[i * 5 + i] = i % 2 ? -1.0 : 2.0;
      if (i + 1 < 5) ind[i * 5 + i + 1] = ind[(i + 1) * 5 + i] = 0.5;
    }
    axb_csr S = csr_from_rows(5, ind, t);
    axb_status st =
        quick_solve(h, &S, AXB_SPARSE_CG, AXB_PRECOND_NONE, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
    CHECK(r.breakdown == AXB_BREAKDOWN_NOT_SPD, "breakdown %d", r.breakdown);
    axb_sparse_report_free(&r);
    st = quick_solve(h, &S, AXB_SPARSE_CG1, AXB_PRECOND_NONE, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
    axb_sparse_report_free(&r);
    st = quick_solve(h, &S, AXB_SPARSE_AUTO, AXB_PRECOND_AUTO, 100, &r, &ours);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    CHECK(r.method == AXB_SPARSE_GMRES, "AUTO on indefinite chose %s",
          axb_sparse_method_name(r.method));
    axb_sparse_report_free(&r);
    /* IC(0) of an indefinite matrix: NOT_SPD at row 2. */
    st = quick_solve(h, &S, AXB_SPARSE_CG, AXB_PRECOND_IC0, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_NOT_SPD);
    CHECK(r.info == 2, "IC0 failing row %lld, want 2", (long long)r.info);
    axb_sparse_report_free(&r);
    axb_csr_destroy(&S);

    /* ILU(0) meets a zero pivot at row 2 although no diagonal entry is
       zero: named -> SMALL_PIVOT, info 2; AUTO -> Jacobi fallback. */
    double zp[9] = {1, 1, 0, 1, 1, 1, 0, 1, 1};
    axb_csr Z = csr_from_rows(3, zp, t);
    st = quick_solve(h, &Z, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
    CHECK(r.info == 2, "ILU0 failing row %lld, want 2", (long long)r.info);
    axb_sparse_report_free(&r);
    st = quick_solve(h, &Z, AXB_SPARSE_GMRES, AXB_PRECOND_AUTO, 100, &r, &ours);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    /* (issue 23: ILUT comes before Jacobi in AUTO's fallbacks) */
    CHECK(r.precond_fell_back && r.precond == AXB_PRECOND_ILUT &&
              r.precond_status == AXB_ERR_SMALL_PIVOT && r.precond_info == 2,
          "AUTO fallback: fell_back %d precond %s status %d info %lld",
          r.precond_fell_back, axb_precond_name(r.precond), r.precond_status,
          (long long)r.precond_info);
    CHECK(ours <= 1.01 * (t == AXB_F64 ? 1e-8 : 1e-5),
          "fallback solve residual %.3g", ours);
    axb_sparse_report_free(&r);
    /* AUTO on Z (symmetric, positive diagonal): CG, IC(0) meets the pivot
       0 at row 2 and is computed again with a diagonal shift (issue 23):
       IC(0) runs, with report.precond_shift > 0. */
    st = quick_solve(h, &Z, AXB_SPARSE_AUTO, AXB_PRECOND_AUTO, 100, &r, NULL);
    CHECK(r.method == AXB_SPARSE_CG && !r.precond_fell_back &&
              r.precond == AXB_PRECOND_IC0 && r.precond_shift > 0,
          "AUTO on Z: %s, ran %s (shift %.3g, fell back %d)",
          axb_sparse_method_name(r.method), axb_precond_name(r.precond),
          r.precond_shift, r.precond_fell_back);
    axb_sparse_report_free(&r);
    /* CG asked for by name on an unsymmetric Z: AUTO tries ILU(0), not
       IC(0), and the report says ILU(0) failed. */
    double zu[9] = {1, 1, 0, 1, 1, 2, 0, 1, 1};
    axb_csr ZU = csr_from_rows(3, zu, t);
    st = quick_solve(h, &ZU, AXB_SPARSE_CG, AXB_PRECOND_AUTO, 100, &r, NULL);
    CHECK(st >= 0 && r.precond_fell_back &&
              r.precond_requested == AXB_PRECOND_ILU0 &&
              r.precond_status == AXB_ERR_SMALL_PIVOT && r.precond_info == 2,
          "CG + AUTO on unsymmetric: status %d, tried %s (status %d row "
          "%lld)",
          st, axb_precond_name(r.precond_requested), r.precond_status,
          (long long)r.precond_info);
    axb_sparse_report_free(&r);
    axb_csr_destroy(&ZU);
    /* ParILU on the same matrix: its sweeps meet the zero pivot too. */
    st =
        quick_solve(h, &Z, AXB_SPARSE_GMRES, AXB_PRECOND_PARILU, 100, &r, NULL);
    CHECK(st == AXB_ERR_SMALL_PIVOT && r.info >= 1,
          "ParILU on zero-pivot matrix: status %d info %lld", st,
          (long long)r.info);
    axb_sparse_report_free(&r);
    axb_csr_destroy(&Z);

    /* A structurally zero diagonal (west0067-like): ILU0 and Jacobi named
       fail at the row.  AUTO (issue 23): the rows are permuted by a
       maximum-product matching and ILU(0) runs. */
    double zd[9] = {0, 2, 1, 3, 1, 0, 1, 0, 4};
    axb_csr D = csr_from_rows(3, zd, t);
    st = quick_solve(h, &D, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
    CHECK(r.info == 1, "ILU0 zero diagonal row %lld, want 1",
          (long long)r.info);
    axb_sparse_report_free(&r);
    st =
        quick_solve(h, &D, AXB_SPARSE_GMRES, AXB_PRECOND_JACOBI, 100, &r, NULL);
    CHECK_STATUS(h, st, AXB_ERR_SMALL_PIVOT);
    axb_sparse_report_free(&r);
    st = quick_solve(h, &D, AXB_SPARSE_GMRES, AXB_PRECOND_AUTO, 100, &r, &ours);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    CHECK(!r.precond_fell_back && r.precond == AXB_PRECOND_ILU0 &&
              strstr(r.path, "maximum-product matching") != NULL,
          "zero diagonal AUTO tried %s, ran %s",
          axb_precond_name(r.precond_requested), axb_precond_name(r.precond));
    axb_sparse_report_free(&r);
    axb_csr_destroy(&D);

    /* Max iterations: NO_CONVERGENCE with the residual reached. */
    axb_csr P = gen_csr(h, "poisson2d:30", t);
    for (int m = AXB_SPARSE_CG; m <= AXB_SPARSE_GMRES; ++m) {
      st = quick_solve(h, &P, (axb_sparse_method)m, AXB_PRECOND_NONE, 5, &r,
                       &ours);
      CHECK_STATUS(h, st, AXB_ERR_NO_CONVERGENCE);
      CHECK(r.iterations == 5 && r.breakdown == AXB_BREAKDOWN_MAX_ITER,
            "%s: iterations %lld breakdown %d",
            axb_sparse_method_name((axb_sparse_method)m),
            (long long)r.iterations, r.breakdown);
      CHECK(r.true_residual > 1e-8 && r.true_residual < 1 &&
                fabs(r.true_residual - ours) <= 1e-3 * ours,
            "%s: residual reached %.3g (ours %.3g)",
            axb_sparse_method_name((axb_sparse_method)m), r.true_residual,
            ours);
      CHECK(r.history_len >= 6, "history length %lld",
            (long long)r.history_len);
      axb_sparse_report_free(&r);
    }
    axb_csr_destroy(&P);
  }
}

/* BiCGStab breakdown <r^, v> = 0: A = [[0, 1], [1, 0]], b = (1, 0):
   r^ = r = (1,0), v = A r = (0,1), <r^, v> = 0. */
static void test_bicgstab_breakdown(axb_handle h) {
  double a[4] = {0, 1, 1, 0};
  axb_csr A = csr_from_rows(2, a, AXB_F64);
  axb_dense B, X;
  axb_dense_create(&B, 2, 1, AXB_F64);
  axb_dense_create(&X, 2, 1, AXB_F64);
  axb_dense_set(&B, 0, 0, 1);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  o.method = AXB_SPARSE_BICGSTAB;
  o.precond = AXB_PRECOND_NONE;
  axb_sparse_report r;
  axb_status st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
  CHECK_STATUS(h, st, AXB_ERR_NO_CONVERGENCE);
  CHECK(r.breakdown == AXB_BREAKDOWN_RV, "breakdown %s",
        axb_sparse_breakdown_name(r.breakdown));
  CHECK(isfinite(axb_dense_get(&X, 0, 0)) && isfinite(axb_dense_get(&X, 1, 0)),
        "x not finite");
  /* GMRES solves it (x = (0, 1)). */
  o.method = AXB_SPARSE_GMRES;
  st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(fabs(axb_dense_get(&X, 1, 0) - 1) < 1e-12, "gmres x1 %.17g",
        axb_dense_get(&X, 1, 0));
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&A);
}

/* ---- ParILU / ParIC converge to ILU(0) / IC(0) -------------------------- */

static void test_fixed_point(axb_handle h) {
  const axb_sparse_ops *ops = axb__sparse_cpu_ops();
  axb_csr A = gen_csr(h, "poisson2d:9", AXB_F64);
  for (int ic = 0; ic < 2; ++ic) {
    axb_spf_pattern_owned pat;
    int64_t info;
    axb_status st =
        axb__spf_pattern_build(&A, ic ? AXB_SPF_IC : AXB_SPF_LU, &pat, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    int64_t nnz = A.nnz;
    double *exact = malloc((size_t)nnz * sizeof(double));
    double *f = malloc((size_t)nnz * sizeof(double));
    if (ic)
      st = axb__spf_ic0_d(&pat.p, A.values, exact, &info);
    else
      st = axb__spf_ilu0_d(&pat.p, A.values, exact, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    st = axb__spf_init_d(&pat.p, A.values, f, &info);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    axb_spmat *M;
    axb_spfac *F;
    CHECK_STATUS(h, ops->d.mat_create(h, &A, &M), AXB_SUCCESS);
    CHECK_STATUS(h, ops->d.fac_create(h, &pat.p, f, &F), AXB_SUCCESS);
    /* The synchronous sweeps reach the exact factor in finitely many
       steps (the dependencies are triangular): 2 (2g - 1) suffice here. */
    double prev = INFINITY;
    for (int sweeps = 1; sweeps <= 40; ++sweeps) {
      CHECK_STATUS(h, ops->d.fac_sweeps(h, M, F, 1, &info), AXB_SUCCESS);
      ops->d.fac_download(h, F, f);
      double diff = 0;
      for (int64_t k = 0; k < nnz; ++k)
        diff = fmax(diff, fabs(f[k] - exact[k]) / (1 + fabs(exact[k])));
      if (sweeps == 1 || sweeps == 3)
        CHECK(diff > 1e-6, "%s after %d sweeps already exact (%.3g)?",
              ic ? "ParIC" : "ParILU", sweeps, diff);
      CHECK(diff <= prev * 1.0000001 || diff < 1e-14,
            "%s sweep %d: distance to the exact factor grew %.3g -> %.3g",
            ic ? "ParIC" : "ParILU", sweeps, prev, diff);
      prev = diff;
    }
    CHECK(prev < 1e-13, "%s after 40 sweeps: distance %.3g",
          ic ? "ParIC" : "ParILU", prev);
    /* Triangular solves: exact and many-Jacobi-sweep agree. */
    double *b = malloc((size_t)A.rows * sizeof(double));
    double *x1 = malloc((size_t)A.rows * sizeof(double));
    double *x2 = malloc((size_t)A.rows * sizeof(double));
    double *w = malloc((size_t)A.rows * sizeof(double));
    for (int64_t i = 0; i < A.rows; ++i)
      b[i] = cos((double)i);
    for (int up = 0; up < 2; ++up) {
      axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
      ops->d.tri_solve(h, F, u, AXB_SPTRI_EXACT, 0, b, x1, w);
      ops->d.tri_solve(h, F, u, AXB_SPTRI_JACOBI, 200, b, x2, w);
      double diff = 0;
      for (int64_t i = 0; i < A.rows; ++i)
        diff = fmax(diff, fabs(x1[i] - x2[i]));
      CHECK(diff < 1e-10, "tri_solve %s exact vs jacobi differ by %.3g",
            up ? "upper" : "lower", diff);
    }
    free(b);
    free(x1);
    free(x2);
    free(w);
    ops->d.fac_destroy(h, F);
    ops->d.mat_destroy(h, M);
    axb__spf_pattern_free(&pat);
    free(exact);
    free(f);
  }
  axb_csr_destroy(&A);
}

/* axb__csr_symmetric_once: computes the answer when *known < 0 and keeps
   it; a known answer is returned as it is (the solve asks several times,
   the matrix is read once). */
static void test_symmetry_once(axb_handle h) {
  axb_csr P = gen_csr(h, "poisson2d:7", AXB_F64);
  double un[9] = {4, 1, 0, 0, 4, 1, 1, 0, 4};
  axb_csr U = csr_from_rows(3, un, AXB_F64);
  int known = -1;
  CHECK(axb__csr_symmetric_once(&P, &known) == 1 && known == 1,
        "poisson2d symmetric: %d", known);
  known = 0; /* a remembered answer wins over the matrix */
  CHECK(axb__csr_symmetric_once(&P, &known) == 0, "remembered 0 not kept");
  known = -1;
  CHECK(axb__csr_symmetric_once(&U, &known) == 0 && known == 0,
        "unsymmetric: %d", known);
  known = 1;
  CHECK(axb__csr_symmetric_once(&U, &known) == 1, "remembered 1 not kept");
  axb_csr_destroy(&P);
  axb_csr_destroy(&U);
}

/* ILU(0) on an unsymmetric pattern: (L U)_ij = a_ij on every stored (i,j)
   (the defining property), and ParILU's sweeps converge to it (the CSC view
   of the sweeps is exercised only by an unsymmetric pattern). */
static void test_ilu0_unsymmetric(axb_handle h) {
  const axb_sparse_ops *ops = axb__sparse_cpu_ops();
  int64_t n = 57;
  double *d = calloc((size_t)(n * n), sizeof(double));
  uint64_t s = 7;
  for (int64_t i = 0; i < n; ++i) {
    double rowsum = 0;
    for (int64_t j = 0; j < n; ++j) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      if (j != i && (s >> 58) < 4) { /* about 1 in 16, unsymmetric */
        d[i * n + j] = (double)(s >> 40 & 0xffff) / 65536.0 - 0.5;
        rowsum += fabs(d[i * n + j]);
      }
    }
    d[i * n + i] = rowsum + 0.5;
  }
  axb_csr A = csr_from_rows(n, d, AXB_F64);
  CHECK(!axb__csr_is_symmetric(&A, 0), "pattern should be unsymmetric");
  axb_spf_pattern_owned pat;
  int64_t info;
  CHECK_STATUS(h, axb__spf_pattern_build(&A, AXB_SPF_LU, &pat, &info),
               AXB_SUCCESS);
  double *f = malloc((size_t)A.nnz * sizeof(double));
  double *g = malloc((size_t)A.nnz * sizeof(double));
  CHECK_STATUS(h, axb__spf_ilu0_d(&pat.p, A.values, f, &info), AXB_SUCCESS);
  /* Dense L (unit) and U from f, then (L U)_ij against a_ij. */
  double *L = calloc((size_t)(n * n), sizeof(double));
  double *U = calloc((size_t)(n * n), sizeof(double));
  for (int64_t i = 0; i < n; ++i) {
    L[i * n + i] = 1;
    for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) {
      int64_t j = A.colind[k];
      if (j < i)
        L[i * n + j] = f[k];
      else
        U[i * n + j] = f[k];
    }
  }
  double worst = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k) {
      int64_t j = A.colind[k];
      double lu = 0;
      for (int64_t q = 0; q < n; ++q)
        lu += L[i * n + q] * U[q * n + j];
      worst = fmax(worst, fabs(lu - ((double *)A.values)[k]));
    }
  CHECK(worst < 1e-13, "ILU(0): max |(LU)_ij - a_ij| on the pattern %.3g",
        worst);
  /* ParILU from the initial guess converges to the same factor. */
  axb_spmat *M;
  axb_spfac *F;
  CHECK_STATUS(h, axb__spf_init_d(&pat.p, A.values, g, &info), AXB_SUCCESS);
  CHECK_STATUS(h, ops->d.mat_create(h, &A, &M), AXB_SUCCESS);
  CHECK_STATUS(h, ops->d.fac_create(h, &pat.p, g, &F), AXB_SUCCESS);
  CHECK_STATUS(h, ops->d.fac_sweeps(h, M, F, 2 * (int)n, &info), AXB_SUCCESS);
  ops->d.fac_download(h, F, g);
  double diff = 0;
  for (int64_t k = 0; k < A.nnz; ++k)
    diff = fmax(diff, fabs(g[k] - f[k]));
  CHECK(diff < 1e-13, "ParILU(2n sweeps) vs ILU(0) on unsymmetric: %.3g", diff);
  ops->d.fac_destroy(h, F);
  ops->d.mat_destroy(h, M);
  axb__spf_pattern_free(&pat);
  free(d);
  free(f);
  free(g);
  free(L);
  free(U);
  axb_csr_destroy(&A);
}

/* ---- the CPU backend equals the reference bit for bit ----------------------
 */

static void test_reproducible(axb_handle h) {
  if (backend != AXB_BACKEND_CPU) return;
  axb_handle ref = test_handle(AXB_BACKEND_REF);
  axb_set_threads(h, 3);
  /* poisson3d:24 (n = 13824) is large enough for the parallel paths and the
     level-scheduled triangular solves. */
  axb_csr A = gen_csr(h, "poisson3d:24", AXB_F64);
  axb_precond ps[] = {AXB_PRECOND_ILU0, AXB_PRECOND_PARIC, AXB_PRECOND_JACOBI};
  axb_sparse_method ms[] = {AXB_SPARSE_CG1, AXB_SPARSE_CG, AXB_SPARSE_GMRES};
  for (int c = 0; c < 3; ++c) {
    axb_dense Xt, B, X1, X2;
    make_rhs(&A, 1, &Xt, &B);
    axb_dense_create(&X1, A.rows, 1, AXB_F64);
    axb_dense_create(&X2, A.rows, 1, AXB_F64);
    axb_sparse_opts o;
    axb_sparse_opts_default(&o);
    o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
    o.method = ms[c];
    o.precond = ps[c];
    axb_sparse_report r1, r2;
    CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X1, &o, &r1), AXB_SUCCESS);
    CHECK_STATUS(ref, axb_sparse_solve(ref, &A, &B, &X2, &o, &r2), AXB_SUCCESS);
    CHECK(r1.iterations == r2.iterations &&
              memcmp(X1.data, X2.data, (size_t)A.rows * sizeof(double)) == 0,
          "%s/%s: cpu (3 threads, %lld it) and ref (%lld it) differ",
          axb_sparse_method_name(ms[c]), axb_precond_name(ps[c]),
          (long long)r1.iterations, (long long)r2.iterations);
    axb_dense_destroy(&Xt);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X1);
    axb_dense_destroy(&X2);
  }
  axb_csr_destroy(&A);
  axb_set_threads(h, 0);
  axb_handle_destroy(ref);
}

/* ---- edge sizes, several right-hand sides, initial guess, b = 0 ------------
 */

static void test_edges(axb_handle h) {
  axb_sparse_report r;
  /* n = 1 */
  double one[1] = {4};
  axb_csr A1 = csr_from_rows(1, one, AXB_F64);
  for (int m = AXB_SPARSE_AUTO; m < AXB_SPARSE_METHOD_COUNT; ++m) {
    double ours;
    axb_status st = quick_solve(h, &A1, (axb_sparse_method)m, AXB_PRECOND_AUTO,
                                0, &r, &ours);
    if (m == AXB_SPARSE_DIRECT && !axb__direct_available()) {
      CHECK_STATUS(h, st, AXB_ERR_NOT_SUPPORTED); /* no SuiteSparse */
      axb_sparse_report_free(&r);
      continue;
    }
    CHECK_STATUS(h, st, AXB_SUCCESS);
    CHECK(ours < 1e-15, "n=1 residual %.3g", ours);
    axb_sparse_report_free(&r);
  }
  axb_csr_destroy(&A1);
  /* n = 0 */
  axb_csr A0;
  axb_csr_create(&A0, 0, 0, 0, AXB_F64);
  axb_dense B0 = axb_dense_wrap(0, 1, 1, AXB_F64, NULL);
  axb_dense X0 = axb_dense_wrap(0, 1, 1, AXB_F64, NULL);
  CHECK_STATUS(h, axb_sparse_solve(h, &A0, &B0, &X0, NULL, NULL), AXB_SUCCESS);
  axb_csr_destroy(&A0);
  /* several columns, one of them zero; then the solution as x0: 0 its. */
  axb_csr P = gen_csr(h, "poisson2d:11", AXB_F64);
  axb_dense Xt, B, X;
  make_rhs(&P, 3, &Xt, &B);
  for (int64_t i = 0; i < P.rows; ++i)
    axb_dense_set(&B, i, 1, 0);
  axb_dense_create(&X, P.rows, 3, AXB_F64);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  CHECK_STATUS(h, axb_sparse_solve(h, &P, &B, &X, &o, &r), AXB_SUCCESS);
  CHECK(rel_residual(&P, &X, &B) <= 1.01e-8, "nrhs=3 residual %.3g",
        rel_residual(&P, &X, &B));
  for (int64_t i = 0; i < P.rows; ++i)
    CHECK(axb_dense_get(&X, i, 1) == 0, "b = 0 gave x[%lld] != 0",
          (long long)i);
  CHECK(r.method == AXB_SPARSE_CG && r.precond == AXB_PRECOND_IC0,
        "AUTO on Poisson: %s + %s", axb_sparse_method_name(r.method),
        axb_precond_name(r.precond));
  o.use_x0 = 1;
  CHECK_STATUS(h, axb_sparse_solve(h, &P, &B, &X, &o, &r), AXB_SUCCESS);
  CHECK(r.iterations == 0, "x0 = solution still took %lld iterations",
        (long long)r.iterations);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&P);
}

/* ---- argument checks -------------------------------------------------------
 */

static void test_invalid(axb_handle h) {
  axb_csr A = gen_csr(h, "poisson2d:4", AXB_F64);
  axb_dense Xt, B, X, Xs;
  make_rhs(&A, 1, &Xt, &B);
  axb_dense_create(&X, A.rows, 1, AXB_F64);
  axb_dense_create(&Xs, A.rows, 1, AXB_F32);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  CHECK_STATUS(h, axb_sparse_solve(h, NULL, &B, &X, &o, NULL), -2);
  CHECK_STATUS(h, axb_sparse_solve(h, &A, NULL, &X, &o, NULL), -3);
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &Xs, &o, NULL), -4);
  o.tol = -1;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), -5);
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  o.precond = AXB_PRECOND_COUNT;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), -5);
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  /* NaN in A, unsorted columns, non-square. */
  ((double *)A.values)[3] = NAN;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), AXB_ERR_INVALID);
  ((double *)A.values)[3] = -1;
  int64_t c0 = A.colind[0];
  A.colind[0] = A.colind[1];
  A.colind[1] = c0;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), AXB_ERR_INVALID);
  A.colind[1] = A.colind[0];
  A.colind[0] = c0;
  A.cols = A.rows + 1;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), -2);
  A.cols = A.rows;
  /* IC(0) asked for by name on an unsymmetric matrix. */
  double un[9] = {4, 1, 0, 0, 4, 1, 1, 0, 4};
  axb_csr U = csr_from_rows(3, un, AXB_F64);
  axb_dense Xt3, B3, X3;
  make_rhs(&U, 1, &Xt3, &B3);
  axb_dense_create(&X3, 3, 1, AXB_F64);
  o.method = AXB_SPARSE_GMRES;
  o.precond = AXB_PRECOND_IC0;
  CHECK_STATUS(h, axb_sparse_solve(h, &U, &B3, &X3, &o, NULL), AXB_ERR_INVALID);
  o.precond = AXB_PRECOND_PARIC;
  CHECK_STATUS(h, axb_sparse_solve(h, &U, &B3, &X3, &o, NULL), AXB_ERR_INVALID);
  /* NaN in B. */
  axb_sparse_opts_default(&o);
  o.direct = AXB_DIRECT_NEVER; /* the Krylov path (issue 23) */
  axb_dense_set(&B3, 1, 0, NAN);
  CHECK_STATUS(h, axb_sparse_solve(h, &U, &B3, &X3, &o, NULL), -3);
  CHECK(axb_sparse_method_parse("cg1", &o.method) == AXB_SUCCESS &&
            o.method == AXB_SPARSE_CG1 &&
            axb_precond_parse("parilu", &o.precond) == AXB_SUCCESS &&
            o.precond == AXB_PRECOND_PARILU &&
            axb_precond_parse("lu", &o.precond) == AXB_ERR_INVALID &&
            axb_precond_parse(NULL, &o.precond) == AXB_ERR_INVALID &&
            axb_precond_parse("ic0", NULL) == AXB_ERR_INVALID &&
            axb_sparse_method_parse("gmres", NULL) == AXB_ERR_INVALID &&
            axb_sparse_method_parse(NULL, &o.method) == AXB_ERR_INVALID,
        "name parsing");
  axb_dense_destroy(&Xt3);
  axb_dense_destroy(&B3);
  axb_dense_destroy(&X3);
  axb_csr_destroy(&U);
  axb_dense_destroy(&Xt);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xs);
  axb_csr_destroy(&A);
}

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
  test_poisson(h);
  test_real(h);
  test_reproducible(h);
  axb_handle_destroy(h);
  return test_finish(backend == AXB_BACKEND_CPU    ? "test_sparse cpu"
                     : backend == AXB_BACKEND_CUDA ? "test_sparse cuda"
                                                   : "test_sparse ref");
}
