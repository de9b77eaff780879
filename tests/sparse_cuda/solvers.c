/* Part of test_sparse_cuda (tests/test_sparse_cuda.c includes it; not
   compiled alone): axb_sparse_solve on the CUDA handle
   against the CPU handle, every method and preconditioner. */

/* axb_sparse_solve on the CUDA handle against the CPU handle: the same
   status (see below), a true residual <= tol, iteration counts within 10%
   (+3; BiCGStab and GMRES 50%), and solutions that agree to about
   tol * cond. */
static void solve_pair(const char *name, const axb_csr *A, axb_sparse_method m,
                       axb_precond p, axb_trisolve tri) {
  const int dbl = A->dtype == AXB_F64;
  axb_dense B, X, Xc;
  axb_dense_create(&B, A->rows, 1, A->dtype);
  axb_dense_create(&X, A->rows, 1, A->dtype);
  axb_dense_create(&Xc, A->rows, 1, A->dtype);
  for (int64_t i = 0; i < A->rows; ++i) { /* b = A * ones */
    double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s += dbl ? ((const double *)A->values)[k] : ((const float *)A->values)[k];
    axb_dense_set(&B, i, 0, s);
  }
  axb_sparse_opts o = test_sparse_opts(m, p);
  o.trisolve = tri;
  o.tol = dbl ? 1e-8 : 1e-5;
  o.max_iter = 5000;
  axb_sparse_report rg, rc;
  memset(&rg, 0, sizeof rg);
  memset(&rc, 0, sizeof rc);
  axb_status sg = axb_sparse_solve(g, A, &B, &X, &o, &rg);
  axb_status sc = axb_sparse_solve(cpu, A, &B, &Xc, &o, &rc);
  const char *what = axb_sparse_method_name(m);
  const char *pre = axb_precond_name(p);
  /* The same verdict, except that a Krylov method the CPU could not take
     to tol (breakdown or max_iter: rounding decides those) may converge or
     stop on the GPU too; a preconditioner failure or a detected non-SPD
     matrix is deterministic and must match with its row. */
  const int cpu_stuck = sc == AXB_ERR_NO_CONVERGENCE && rc.info == 0;
  /* BiCGStab / GMRES: the GPU may likewise stop (breakdown) close to tol
     where the CPU's rounding got through. */
  /* In float a BiCGStab with approximate triangular solves may also
     diverge where the CPU converged (seen on the H200: convection,
     parilu/jacobi); that is reported as a breakdown, which is what the GPU
     must do then. */
  const int gpu_close = m != AXB_SPARSE_CG && m != AXB_SPARSE_CG1 &&
                        sg == AXB_ERR_NO_CONVERGENCE && rg.info == 0 &&
                        (rg.true_residual <= 100 * o.tol ||
                         (!dbl && rg.breakdown != AXB_BREAKDOWN_NONE));
  CHECK(sg == sc || (cpu_stuck && sg == AXB_SUCCESS) ||
            (sc == AXB_SUCCESS && gpu_close),
        "%s %s/%s%s %s: GPU %d (%s) CPU %d (%s)", name, what, pre,
        tri ? "/jacobi" : "", dbl ? "d" : "s", sg, axb_detail(g), sc,
        axb_detail(cpu));
  if (!cpu_stuck && !gpu_close)
    CHECK(rg.info == rc.info &&
              (sc == AXB_SUCCESS || rg.breakdown == rc.breakdown),
          "%s %s/%s: GPU info %lld breakdown %d, CPU info %lld breakdown %d",
          name, what, pre, (long long)rg.info, (int)rg.breakdown,
          (long long)rc.info, (int)rc.breakdown);
  if (sg == AXB_SUCCESS) {
    CHECK(rg.true_residual <= o.tol, "%s %s/%s: GPU true residual %g", name,
          what, pre, rg.true_residual);
    /* CG is smooth in rounding; BiCGStab and GMRES less so. */
    const int smooth = m == AXB_SPARSE_CG || m == AXB_SPARSE_CG1;
    const int64_t d = rg.iterations - rc.iterations;
    if (sc == AXB_SUCCESS)
      CHECK(llabs(d) <= 3 + rc.iterations / (smooth ? 10 : 2),
            "%s %s/%s%s %s: GPU %lld iterations, CPU %lld", name, what, pre,
            tri ? "/jacobi" : "", dbl ? "d" : "s", (long long)rg.iterations,
            (long long)rc.iterations);
    CHECK(rg.backend == AXB_BACKEND_CUDA, "%s: backend", name);
    double diff = 0, nx = 0;
    for (int64_t i = 0; i < A->rows; ++i) {
      const double a = axb_dense_get(&X, i, 0), c = axb_dense_get(&Xc, i, 0);
      diff = fmax(diff, fabs(a - c));
      nx = fmax(nx, fabs(c));
    }
    if (sc == AXB_SUCCESS)
      CHECK(diff <= (dbl ? 1e-4 : 1e-1) * nx, "%s %s/%s: |x_gpu - x_cpu| %g",
            name, what, pre, diff / nx);
  }
  axb_sparse_report_free(&rg);
  axb_sparse_report_free(&rc);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xc);
}

/* AUTO's CG on the CUDA handle (issue 23): Jacobi first by default, its
   answer certified; with a budget of 3 iterations (AXB_SPARSE_JACOBI_FIRST)
   CG + IC(0) goes on from Jacobi's iterate and certifies too. */
static void jacobi_first_tests(void) {
  axb_gen_spec s = {AXB_GEN_POISSON3D, quick ? 6 : 16, 0, -1, 42};
  axb_csr A;
  axb_dense B, X;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  axb_dense_create(&B, A.rows, 1, AXB_F64);
  axb_dense_create(&X, A.rows, 1, AXB_F64);
  for (int64_t i = 0; i < A.rows; ++i)
    axb_dense_set(&B, i, 0, 1.0 + (double)(i % 7));
  axb_sparse_opts o = test_sparse_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
  o.direct = AXB_DIRECT_NEVER;
  o.tol = 1e-8;
  for (int esc = 0; esc < 2; ++esc) {
    if (esc) setenv("AXB_SPARSE_JACOBI_FIRST", "3", 1);
    axb_sparse_report r;
    memset(&r, 0, sizeof r);
    axb_status st = axb_sparse_solve(g, &A, &B, &X, &o, &r);
    const axb_precond want = esc ? AXB_PRECOND_IC0 : AXB_PRECOND_JACOBI;
    CHECK(st == AXB_SUCCESS && r.precond == want && r.true_residual <= o.tol &&
              strstr(r.path, esc ? "from that iterate" : "jacobi first"),
          "AUTO CG on CUDA, budget %s: status %d, %s, residual %.3g, path "
          "'%s'",
          esc ? "3" : "default", st, axb_precond_name(r.precond),
          r.true_residual, r.path);
    axb_sparse_report_free(&r);
  }
  unsetenv("AXB_SPARSE_JACOBI_FIRST");
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_csr_destroy(&A);
}

static void solver_tests(void) {
  jacobi_first_tests();
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int t = 0; t < 2; ++t) {
    axb_gen_spec s = {AXB_GEN_POISSON3D, quick ? 6 : 16, 0, -1, 42};
    axb_csr A;
    if (axb_gen_csr(g, &s, types[t], &A) != AXB_SUCCESS) exit(1);
    const axb_precond spd[] = {AXB_PRECOND_NONE, AXB_PRECOND_JACOBI,
                               AXB_PRECOND_IC0,  AXB_PRECOND_PARIC,
                               AXB_PRECOND_ILU0, AXB_PRECOND_PARILU};
    for (int i = 0; i < 6; ++i) {
      solve_pair("poisson3d", &A, AXB_SPARSE_CG, spd[i], AXB_TRISOLVE_EXACT);
      solve_pair("poisson3d", &A, AXB_SPARSE_CG1, spd[i], AXB_TRISOLVE_EXACT);
      if (i >= 2)
        solve_pair("poisson3d", &A, AXB_SPARSE_CG1, spd[i],
                   AXB_TRISOLVE_JACOBI);
    }
    axb_csr_destroy(&A);
    s.kind = AXB_GEN_POISSON2D;
    s.n = quick ? 9 : 32;
    if (axb_gen_csr(g, &s, types[t], &A) != AXB_SUCCESS) exit(1);
    for (int64_t i = 0; i < A.rows; ++i) /* unsymmetric */
      for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
        if (A.colind[k] > i) {
          if (types[t] == AXB_F64)
            ((double *)A.values)[k] *= 1.5;
          else
            ((float *)A.values)[k] *= 1.5f;
        }
    const axb_precond uns[] = {AXB_PRECOND_NONE, AXB_PRECOND_JACOBI,
                               AXB_PRECOND_ILU0, AXB_PRECOND_PARILU};
    for (int i = 0; i < 4; ++i) {
      solve_pair("convection", &A, AXB_SPARSE_BICGSTAB, uns[i],
                 AXB_TRISOLVE_EXACT);
      solve_pair("convection", &A, AXB_SPARSE_GMRES, uns[i],
                 AXB_TRISOLVE_EXACT);
      if (i >= 2)
        solve_pair("convection", &A, AXB_SPARSE_BICGSTAB, uns[i],
                   AXB_TRISOLVE_JACOBI);
    }
    axb_csr_destroy(&A);
  }
  /* Real matrices (double): SPD with IC(0), unsymmetric with ILU(0). */
  const char *dir = test_matrices_dir();
  if (!dir || quick) return;
  const struct {
    const char *name;
    axb_sparse_method m;
    axb_precond p;
  } real[] = {{"bcsstk14", AXB_SPARSE_CG, AXB_PRECOND_IC0},
              {"nos7", AXB_SPARSE_CG1, AXB_PRECOND_JACOBI},
              {"sherman3", AXB_SPARSE_BICGSTAB, AXB_PRECOND_ILU0},
              {"orsirr_1", AXB_SPARSE_GMRES, AXB_PRECOND_ILU0},
              {"cage10", AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU}};
  for (size_t i = 0; i < sizeof real / sizeof *real; ++i) {
    axb_csr A;
    if (read_real(dir, real[i].name, AXB_F64, &A) != AXB_SUCCESS) continue;
    solve_pair(real[i].name, &A, real[i].m, real[i].p, AXB_TRISOLVE_EXACT);
    axb_csr_destroy(&A);
  }
  /* Failure modes on the GPU: CG on a negative definite matrix, ILU(0)
     on a zero diagonal entry, max_iter reached. */
  axb_gen_spec s = {AXB_GEN_POISSON2D, 10, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  for (int64_t k = 0; k < A.nnz; ++k)
    ((double *)A.values)[k] *= -1;
  solve_pair("negative definite", &A, AXB_SPARSE_CG, AXB_PRECOND_NONE,
             AXB_TRISOLVE_EXACT);
  solve_pair("negative definite", &A, AXB_SPARSE_CG1, AXB_PRECOND_NONE,
             AXB_TRISOLVE_EXACT);
  for (int64_t k = A.rowptr[7]; k < A.rowptr[8]; ++k)
    if (A.colind[k] == 7) ((double *)A.values)[k] = 0;
  solve_pair("zero diagonal", &A, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_EXACT);
  axb_csr_destroy(&A);
  /* No diagonal entry at all in row 2 (1-based): the GPU finds it on the
     device (fac_from_mat), the CPU in its host pattern; same status, row. */
  axb_csr Z = missing_diagonal();
  solve_pair("missing diagonal", &Z, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_JACOBI);
  { /* and the status and row themselves, not only agreement */
    axb_dense B, X;
    axb_dense_create(&B, 3, 1, AXB_F64);
    axb_dense_create(&X, 3, 1, AXB_F64);
    for (int i = 0; i < 3; ++i)
      axb_dense_set(&B, i, 0, 1.0);
    axb_sparse_opts o = test_sparse_opts(AXB_SPARSE_GMRES, AXB_PRECOND_ILU0);
    o.trisolve = AXB_TRISOLVE_JACOBI;
    axb_sparse_report r;
    memset(&r, 0, sizeof r);
    const axb_status st = axb_sparse_solve(g, &Z, &B, &X, &o, &r);
    CHECK(st == AXB_ERR_SMALL_PIVOT && r.info == 2,
          "missing diagonal: status %d row %lld (want %d, 2)", st,
          (long long)r.info, AXB_ERR_SMALL_PIVOT);
    axb_sparse_report_free(&r);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
  }
  solve_pair("missing diagonal", &Z, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_EXACT);
  axb_csr_destroy(&Z);
}
