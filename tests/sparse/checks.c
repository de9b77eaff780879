/*
 * test_sparse.c, CPU equals the reference bit for bit, edge sizes and several
 * right-hand sides, argument checks. #included by tests/test_sparse.c (its
 * helpers and statics), not compiled alone.
 */

/* ---- the CPU backend equals the reference bit for bit ----------------------
 */

static void test_reproducible(axb_handle h) {
  if (backend != AXB_BACKEND_CPU) return;
  axb_handle ref = test_handle(AXB_BACKEND_REF);
  axb_set_threads(h, 3);
  /* poisson3d:24 (n = 13824) is large enough for the parallel paths and the
     level-scheduled triangular solves. */
  axb_csr A = test_gen_csr(h, "poisson3d:24", AXB_F64);
  axb_precond ps[] = {AXB_PRECOND_ILU0, AXB_PRECOND_PARIC, AXB_PRECOND_JACOBI};
  axb_sparse_method ms[] = {AXB_SPARSE_CG1, AXB_SPARSE_CG, AXB_SPARSE_GMRES};
  for (int c = 0; c < 3; ++c) {
    axb_dense Xt, B, X1, X2;
    make_rhs(&A, 1, &Xt, &B);
    axb_dense_create(&X1, A.rows, 1, AXB_F64);
    axb_dense_create(&X2, A.rows, 1, AXB_F64);
    axb_sparse_opts o = krylov_opts(ms[c], ps[c]);
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
  axb_csr A1 = csr_rows(1, one, AXB_F64);
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
  axb_csr P = test_gen_csr(h, "poisson2d:11", AXB_F64);
  axb_dense Xt, B, X;
  make_rhs(&P, 3, &Xt, &B);
  for (int64_t i = 0; i < P.rows; ++i)
    axb_dense_set(&B, i, 1, 0);
  axb_dense_create(&X, P.rows, 3, AXB_F64);
  axb_sparse_opts o = krylov_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
  CHECK_STATUS(h, axb_sparse_solve(h, &P, &B, &X, &o, &r), AXB_SUCCESS);
  CHECK(csr_rel_residual(&P, &X, &B) <= 1.01e-8, "nrhs=3 residual %.3g",
        csr_rel_residual(&P, &X, &B));
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
  axb_csr A = test_gen_csr(h, "poisson2d:4", AXB_F64);
  axb_dense Xt, B, X, Xs;
  make_rhs(&A, 1, &Xt, &B);
  axb_dense_create(&X, A.rows, 1, AXB_F64);
  axb_dense_create(&Xs, A.rows, 1, AXB_F32);
  axb_sparse_opts o = krylov_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
  CHECK_STATUS(h, axb_sparse_solve(h, NULL, &B, &X, &o, NULL), -2);
  CHECK_STATUS(h, axb_sparse_solve(h, &A, NULL, &X, &o, NULL), -3);
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &Xs, &o, NULL), -4);
  o.tol = -1;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), -5);
  o = krylov_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
  o.precond = AXB_PRECOND_COUNT;
  CHECK_STATUS(h, axb_sparse_solve(h, &A, &B, &X, &o, NULL), -5);
  o = krylov_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
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
  axb_csr U = csr_rows(3, un, AXB_F64);
  axb_dense Xt3, B3, X3;
  make_rhs(&U, 1, &Xt3, &B3);
  axb_dense_create(&X3, 3, 1, AXB_F64);
  o.method = AXB_SPARSE_GMRES;
  o.precond = AXB_PRECOND_IC0;
  CHECK_STATUS(h, axb_sparse_solve(h, &U, &B3, &X3, &o, NULL), AXB_ERR_INVALID);
  o.precond = AXB_PRECOND_PARIC;
  CHECK_STATUS(h, axb_sparse_solve(h, &U, &B3, &X3, &o, NULL), AXB_ERR_INVALID);
  /* NaN in B. */
  o = krylov_opts(AXB_SPARSE_AUTO, AXB_PRECOND_AUTO);
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
