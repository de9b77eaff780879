/*
 * test_sparse.c, the failure modes' statuses and indices, BiCGStab's breakdown.
 * #included by tests/test_sparse.c (its helpers and statics), not
 * compiled alone.
 */

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
    axb_csr S = csr_rows(5, ind, t);
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
    axb_csr Z = csr_rows(3, zp, t);
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
    axb_csr ZU = csr_rows(3, zu, t);
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
    axb_csr D = csr_rows(3, zd, t);
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
    axb_csr P = test_gen_csr(h, "poisson2d:30", t);
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
  axb_csr A = csr_rows(2, a, AXB_F64);
  axb_dense B, X;
  axb_dense_create(&B, 2, 1, AXB_F64);
  axb_dense_create(&X, 2, 1, AXB_F64);
  axb_dense_set(&B, 0, 0, 1);
  axb_sparse_opts o = krylov_opts(AXB_SPARSE_BICGSTAB, AXB_PRECOND_NONE);
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
