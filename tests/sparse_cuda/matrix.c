/* Part of test_sparse_cuda, typed (T in {double, float}: typed.c includes
   it once per precision; not compiled alone): SpMV,
   true residual, Jacobi diagonal and the CG1 kernels. */

/* SpMV, true residual, Jacobi diagonal and the CG1 kernels on A. */
static void SFX(mat_case)(const char *name, const axb_csr *A) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t n = A->rows;
  axb_spmat *gA = NULL, *cA = NULL;
  CHECK_STATUS(g_h, G->mat_create(g_h, A, &gA), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->mat_create(cpu, A, &cA), AXB_SUCCESS);
  if (!gA || !cA) return;
  T *x = malloc(sizeof(T) * (size_t)(n + 1)),
    *y = malloc(sizeof(T) * (size_t)(n + 1));
  T *r = malloc(sizeof(T) * (size_t)(n + 1)),
    *s = malloc(sizeof(T) * (size_t)(n + 1));
  T *p = malloc(sizeof(T) * (size_t)(n + 1)),
    *t = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, x, 11);
  SFX(fill_random)(n, y, 12);
  SFX(fill_random)(n, r, 13);
  SFX(fill_random)(n, p, 14);
  SFX(fill_random)(n, t, 15);
  T *gx = SFX(up)(G, g_h, n, x), *gy = SFX(up)(G, g_h, n, y);
  T *gr = SFX(up)(G, g_h, n, r), *gp = SFX(up)(G, g_h, n, p);
  T *gt = SFX(up)(G, g_h, n, t), *gs = SFX(up)(G, g_h, n, y);
  const double tol = 256 * EPS;
  CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)2, gx, (T)-0.5, gy), AXB_SUCCESS);
  C->spmv(cpu, cA, (T)2, x, (T)-0.5, y);
  SFX(same)(name, G, gy, y, n, tol);
  /* beta == 0 must not read y: NaN there may not leak out. */
  CHECK_STATUS(g_h, G->fill(g_h, n, (T)NAN, gy), AXB_SUCCESS);
  CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)1, gx, 0, gy), AXB_SUCCESS);
  C->spmv(cpu, cA, (T)1, x, 0, y);
  SFX(same)(name, G, gy, y, n, tol);
  double rg, rc;
  CHECK_STATUS(g_h, G->resid_nrm2(g_h, gA, gx, gr, &rg), AXB_SUCCESS);
  C->resid_nrm2(cpu, cA, x, r, &rc);
  CHECK(fabs(rg - rc) <= 1e-10 * rc, "%s resid_nrm2 %.17g vs %.17g", name, rg,
        rc);
  int64_t ig = -1, ic = -1;
  axb_status sg = G->diag_inv(g_h, gA, gy, &ig);
  axb_status sc = C->diag_inv(cpu, cA, y, &ic);
  CHECK(sg == sc && ig == ic, "%s diag_inv: GPU %d row %lld, CPU %d row %lld",
        name, sg, (long long)ig, sc, (long long)ic);
  SFX(same)("diag_inv", G, gy, y, n, 4 * EPS);
  /* CG1: z = p (preconditioned form), then z = r (z == r). */
  double g3[3], c3[3];
  CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gp, gs, gr, g3), AXB_SUCCESS);
  C->cg1_spmv_dots(cpu, cA, p, s, r, c3);
  SFX(same)("cg1 s", G, gs, s, n, tol);
  for (int q = 0; q < 3; ++q)
    CHECK(fabs(g3[q] - c3[q]) <= 1e3 * EPS * (1 + fabs(c3[q])) * (double)n,
          "%s cg1 dot %d: %.17g vs %.17g", name, q, g3[q], c3[q]);
  CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gr, gs, gr, g3), AXB_SUCCESS);
  C->cg1_spmv_dots(cpu, cA, r, s, r, c3);
  CHECK(g3[0] == g3[2], "%s cg1 z == r: <r,z> %.17g <r,r> %.17g", name, g3[0],
        g3[2]);
  /* Every SpMV kernel behind the table's spmv (alpha, beta) and the CG1
     reduction; then back to AUTO. */
  const axb_spmv_kind kinds[] = {AXB_SPMV_STREAM, AXB_SPMV_MERGE,
                                 AXB_SPMV_VECTOR, AXB_SPMV_VECTOR};
  for (int kk = 0; kk < 4; ++kk) {
    axb_spcuda_mat_set_spmv((axb_spcuda_mat *)gA, kinds[kk], kk == 3 ? 32 : 0);
    T *yk = malloc(sizeof(T) * (size_t)(n + 1));
    SFX(fill_random)(n, yk, 30 + kk);
    T *gyk = SFX(up)(G, g_h, n, yk);
    CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)-1, gx, (T)0.75, gyk), AXB_SUCCESS);
    C->spmv(cpu, cA, (T)-1, x, (T)0.75, yk);
    char what[96];
    snprintf(what, sizeof what, "%s spmv kernel %d", name, (int)kinds[kk]);
    SFX(same)(what, G, gyk, yk, n, tol);
    CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gp, gs, gr, g3), AXB_SUCCESS);
    C->cg1_spmv_dots(cpu, cA, p, s, r, c3);
    SFX(same)(what, G, gs, s, n, tol);
    for (int q = 0; q < 3; ++q)
      CHECK(fabs(g3[q] - c3[q]) <= 1e3 * EPS * (1 + fabs(c3[q])) * (double)n,
            "%s cg1 dot %d: %.17g vs %.17g", what, q, g3[q], c3[q]);
    G->vec_free(g_h, gyk);
    free(yk);
  }
  axb_spcuda_mat_set_spmv((axb_spcuda_mat *)gA, AXB_SPMV_AUTO, 0);
  CHECK_STATUS(g_h,
               G->cg1_update(g_h, n, (T)0.3, (T)0.7, gr, gs, gp, gt, gx, gr),
               AXB_SUCCESS);
  C->cg1_update(cpu, n, (T)0.3, (T)0.7, r, s, p, t, x, r);
  SFX(same)("cg1_update p", G, gp, p, n, tol);
  SFX(same)("cg1_update t", G, gt, t, n, tol);
  SFX(same)("cg1_update x", G, gx, x, n, tol);
  SFX(same)("cg1_update r", G, gr, r, n, tol);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gy);
  G->vec_free(g_h, gr);
  G->vec_free(g_h, gp);
  G->vec_free(g_h, gt);
  G->vec_free(g_h, gs);
  G->mat_destroy(g_h, gA);
  C->mat_destroy(cpu, cA);
  free(x);
  free(y);
  free(r);
  free(s);
  free(p);
  free(t);
}
