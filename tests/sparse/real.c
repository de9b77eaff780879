/*
 * test_sparse.c, real matrices (../shared/matrices; skipped when absent).
 * #included by tests/test_sparse.c (its helpers and statics), not
 * compiled alone.
 */

/* ---- real matrices --------------------------------------------------------
 */

/* Reads dir/file as t into A. */
static axb_status read_named(axb_handle h, const char *dir, const char *file,
                             axb_dtype t, axb_csr *A) {
  char path[2048];
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  return axb_read_csr(h, path, t, A);
}

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
    axb_csr A;
    axb_status st = read_named(h, dir, "bcsstk14.mtx", AXB_F64, &A);
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
  /* AUTO with default options on matrices where GMRES + ILU(0) fails
     (dw2048, gemat12) or where CHOLMOD beats CG + IC(0) (bcsstk16): the
     direct path on every backend, chosen, not fallen back to (a CUDA
     handle took 5 s of failing GPU iterations on dw2048 before falling
     back, until issue 23's change), certified. */
  if (axb_sparse_direct_available()) {
    const char *hard[] = {"dw2048.mtx", "gemat12.mtx", "bcsstk16.mtx"};
    for (int k = 0; k < 3; ++k) {
      axb_csr A;
      axb_status st = read_named(h, dir, hard[k], AXB_F64, &A);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      if (st) continue;
      axb_dense Xt, B, X;
      make_rhs(&A, 1, &Xt, &B);
      if (axb_dense_create(&X, A.rows, 1, A.dtype)) exit(1);
      axb_sparse_opts o;
      axb_sparse_opts_default(&o);
      axb_sparse_report r;
      st = axb_sparse_solve(h, &A, &B, &X, &o, &r);
      const double res = csr_rel_residual(&A, &X, &B);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      CHECK(r.solver[0] != '\0' && !strstr(r.path, "fell back") && res <= 1e-10,
            "%s AUTO: solver '%s' residual %.3g; path: %s", hard[k], r.solver,
            res, r.path);
      axb_sparse_report_free(&r);
      axb_dense_destroy(&Xt);
      axb_dense_destroy(&B);
      axb_dense_destroy(&X);
      axb_csr_destroy(&A);
    }
  }
  /* BiCGStab + Jacobi diverges on sherman2: stopped at ||r|| > 1e8 ||b||
     with finite x, reported as DIVERGED. */
  {
    axb_csr A;
    axb_status st = read_named(h, dir, "sherman2.mtx", AXB_F64, &A);
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
      axb_dtype t = d ? AXB_F32 : AXB_F64;
      axb_csr A;
      axb_status st = read_named(h, dir, cases[c].file, t, &A);
      CHECK_STATUS(h, st, AXB_SUCCESS);
      if (st) continue;
      solve_and_check(h, cases[c].file, &A, cases[c].m, cases[c].p,
                      AXB_TRISOLVE_EXACT, t == AXB_F64 ? 1e-8 : 1e-4, 0);
      axb_csr_destroy(&A);
    }
}
