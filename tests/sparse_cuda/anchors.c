/* Part of test_sparse_cuda (tests/test_sparse_cuda.c includes it; not
   compiled alone): the cuSPARSE anchors (PCG + IC(0),
   BiCGStab + ILU(0)) converge and report a zero pivot. */

/* b = A ones; the anchor's true residual must be <= tol (plus slack for
   the final recomputation) and its x close to ones. */
static void anchor_case(const char *name, const axb_csr *A, int spd,
                        axb_status want) {
  double *b = calloc((size_t)A->rows, sizeof(double));
  double *x = calloc((size_t)A->rows, sizeof(double));
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      b[i] += ((const double *)A->values)[k];
  axb_cusparse_report rep;
  const double tol = 1e-8;
  axb_status st = spd ? axb_cusparse_pcg_ic0(A, b, x, tol, 5000, &rep)
                      : axb_cusparse_bicgstab_ilu0(A, b, x, tol, 5000, &rep);
  /* want -1: converged, or stopped by a reported breakdown. */
  const int ok = want == -1
                     ? st == AXB_SUCCESS || (st == AXB_ERR_NO_CONVERGENCE &&
                                             rep.breakdown && rep.message[0])
                     : st == want;
  CHECK(ok, "%s: anchor status %d (%s) want %d: %s", name, st, axb_strerror(st),
        want, rep.message);
  if (want == -1 && st == AXB_SUCCESS) want = AXB_SUCCESS;
  if (want == AXB_SUCCESS && st == AXB_SUCCESS) {
    CHECK(rep.relres <= 10 * tol, "%s: true residual %g", name, rep.relres);
    CHECK(rep.iterations > 0 && rep.setup_s >= 0 && rep.solve_s >= 0,
          "%s: report", name);
  }
  if (want == AXB_ERR_SINGULAR) CHECK(rep.info > 0, "%s: pivot row", name);
  free(b);
  free(x);
}

/* Poisson 2-D with the upper off-diagonals scaled: unsymmetric M-matrix. */
static axb_csr convection(int64_t grid) {
  axb_gen_spec s = {AXB_GEN_POISSON2D, grid, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  for (int64_t i = 0; i < A.rows; ++i)
    for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
      if (A.colind[k] > i) ((double *)A.values)[k] *= 1.5;
  return A;
}

/* 3 x 3 double CSR without the diagonal entry of row 2 (1-based):
   [2 1 0; 1 0 0; 1 0 3]. */
static axb_csr missing_diagonal(void) {
  axb_csr Z;
  if (axb_csr_create(&Z, 3, 3, 5, AXB_F64) != AXB_SUCCESS) exit(1);
  const int64_t rp[] = {0, 2, 3, 5}, ci[] = {0, 1, 0, 0, 2};
  const double v[] = {2, 1, 1, 1, 3};
  memcpy(Z.rowptr, rp, sizeof rp);
  memcpy(Z.colind, ci, sizeof ci);
  memcpy(Z.values, v, sizeof v);
  return Z;
}
static void anchors(void) {
  axb_gen_spec s = {AXB_GEN_POISSON2D, quick ? 12 : 60, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  anchor_case("poisson2d pcg-ic0", &A, 1, AXB_SUCCESS);
  anchor_case("poisson2d bicgstab-ilu0", &A, 0, AXB_SUCCESS);
  axb_csr_destroy(&A);
  A = convection(quick ? 11 : 50);
  /* cuSPARSE's BiCGStab + ILU(0) meets <r^, r> = 0 on the 50 x 50 grid (seen
     on the H200): a breakdown must be reported as such. */
  anchor_case("convection bicgstab-ilu0", &A, 0, -1);
  /* A structurally zero diagonal entry (row 1): ILU(0) must report it. */
  axb_csr Z = missing_diagonal();
  anchor_case("zero diagonal ilu0", &Z, 0, AXB_ERR_SINGULAR);
  axb_csr_destroy(&Z);
  axb_csr_destroy(&A);
  /* Not converging in 3 iterations is reported as such. */
  axb_gen_spec s3 = {AXB_GEN_POISSON3D, quick ? 8 : 20, 0, -1, 42};
  if (axb_gen_csr(g, &s3, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  double *b = calloc((size_t)A.rows, sizeof(double));
  double *x = calloc((size_t)A.rows, sizeof(double));
  for (int64_t i = 0; i < A.rows; ++i)
    b[i] = 1;
  axb_cusparse_report rep;
  CHECK(axb_cusparse_pcg_ic0(&A, b, x, 1e-12, 3, &rep) ==
                AXB_ERR_NO_CONVERGENCE &&
            rep.iterations == 3 && rep.relres > 1e-12,
        "max iterations reported (%lld its, relres %g)",
        (long long)rep.iterations, rep.relres);
  free(b);
  free(x);
  axb_csr_destroy(&A);
}
