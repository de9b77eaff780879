/* Part of test_sparse_cuda, typed (T in {double, float}: typed.c includes
   it once per precision; not compiled alone): the
   factors (exact and fixed-point) and their triangular solves. */

/* A factor on both tables: exact (ILU(0)/IC(0) from the host) and
   fixed-point (ParILU/ParIC, 1 then 2 more sweeps), the four triangular
   solves exact and by Jacobi sweeps; a zero pivot (and, for IC, a
   not-positive diagonal) reported with the CPU's status and row. */
static void SFX(fac_case)(const char *name, const axb_csr *A,
                          axb_spf_kind kind) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t n = A->rows, nnz = A->nnz;
  axb_spf_pattern_owned pat;
  int64_t info = 0;
  if (axb__spf_pattern_build(A, kind, &pat, &info) != AXB_SUCCESS) {
    CHECK(0, "%s: pattern", name);
    return;
  }
  const T *a = (const T *)A->values;
  T *f = malloc(sizeof(T) * (size_t)(nnz + 1));
  T *fg = malloc(sizeof(T) * (size_t)(nnz + 1));
  axb_status st = kind == AXB_SPF_LU ? SFX(axb__spf_ilu0)(&pat.p, a, f, &info)
                                     : SFX(axb__spf_ic0)(&pat.p, a, f, &info);
  CHECK(st == AXB_SUCCESS, "%s: exact factor %d", name, st);
  axb_spmat *gA = NULL, *cA = NULL;
  axb_spfac *gF = NULL, *cF = NULL;
  G->mat_create(g_h, A, &gA);
  C->mat_create(cpu, A, &cA);
  CHECK_STATUS(g_h, G->fac_create(g_h, &pat.p, f, &gF), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->fac_create(cpu, &pat.p, f, &cF), AXB_SUCCESS);
  T *b = malloc(sizeof(T) * (size_t)(n + 1)),
    *x = malloc(sizeof(T) * (size_t)(n + 1));
  T *w = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, b, 21);
  T *gb = SFX(up)(G, g_h, n, b), *gx = NULL, *gw = NULL;
  G->vec_alloc(g_h, n, &gx);
  G->vec_alloc(g_h, n, &gw);
  for (int up = 0; up < 2; ++up)
    for (int mode = 0; mode < 2; ++mode)
      for (int sw = 1; sw <= 4; ++sw) {
        /* Exact: sw = 1 AUTO, 2 sync-free W = 1, 3 levels, 4 warp. */
        const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
        const axb_sptri_mode m = mode ? AXB_SPTRI_JACOBI : AXB_SPTRI_EXACT;
        if (!mode)
          CHECK_STATUS(g_h,
                       axb_spcuda_fac_set_tri(gF,
                                              sw == 4   ? AXB_SPTRI_GPU_WARP
                                              : sw == 3 ? AXB_SPTRI_GPU_LEVELS
                                              : sw == 2 ? AXB_SPTRI_GPU_SYNCFREE
                                                        : AXB_SPTRI_GPU_AUTO,
                                              sw == 2 ? 1 : 0),
                       AXB_SUCCESS);
        CHECK_STATUS(g_h, G->tri_solve(g_h, gF, u, m, sw, gb, gx, gw),
                     AXB_SUCCESS);
        C->tri_solve(cpu, cF, u, m, sw, b, x, w);
        char what[128];
        snprintf(what, sizeof what, "%s tri_solve %s %s sweeps/alg %d", name,
                 up ? "upper" : "lower", mode ? "jacobi" : "exact", sw);
        SFX(same)(what, G, gx, x, n, 1024 * EPS);
      }
  G->fac_destroy(g_h, gF);
  C->fac_destroy(cpu, cF);
  /* The exact ILU(0) computed on the device (what the solvers' set-up
     runs) against the host's factor f, twice (the ready flags'
     generations); an IC factor refused. */
  if (kind == AXB_SPF_LU) {
    CHECK_STATUS(g_h, G->fac_create(g_h, &pat.p, NULL, &gF), AXB_SUCCESS);
    for (int rep = 0; rep < 2 && gF; ++rep) {
      int64_t id = -1;
      CHECK_STATUS(g_h, G->fac_ilu0(g_h, gA, gF, &id), AXB_SUCCESS);
      CHECK(id == 0, "%s device ILU(0) info %lld", name, (long long)id);
      CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
      const double r = SFX(maxrel)(nnz, fg, f);
      CHECK(r <= 1024 * EPS, "%s device ILU(0) rep %d vs host %.3g", name, rep,
            r);
    }
    G->fac_destroy(g_h, gF);
    /* The same on A's own device pattern (fac_from_mat, what the set-up
       takes when no level sets are needed), and its Jacobi sweeps against
       the CPU's on the host factor. */
    int64_t id = -1;
    gF = NULL;
    CHECK_STATUS(g_h, G->fac_from_mat(g_h, gA, &gF, &id), AXB_SUCCESS);
    if (gF) {
      CHECK_STATUS(g_h, G->fac_ilu0(g_h, gA, gF, &id), AXB_SUCCESS);
      CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
      const double r = SFX(maxrel)(nnz, fg, f);
      CHECK(r <= 1024 * EPS, "%s ILU(0) on A's pattern vs host %.3g", name, r);
      CHECK_STATUS(cpu, C->fac_create(cpu, &pat.p, f, &cF), AXB_SUCCESS);
      for (int up = 0; up < 2; ++up) {
        const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
        CHECK_STATUS(g_h,
                     G->tri_solve(g_h, gF, u, AXB_SPTRI_JACOBI, 5, gb, gx, gw),
                     AXB_SUCCESS);
        C->tri_solve(cpu, cF, u, AXB_SPTRI_JACOBI, 5, b, x, w);
        char what[128];
        snprintf(what, sizeof what, "%s from_mat jacobi %s", name,
                 up ? "upper" : "lower");
        SFX(same)(what, G, gx, x, n, 1024 * EPS);
      }
      C->fac_destroy(cpu, cF);
      G->fac_destroy(g_h, gF);
    }
  } else {
    int64_t id = 0;
    CHECK_STATUS(g_h, G->fac_create(g_h, &pat.p, f, &gF), AXB_SUCCESS);
    CHECK(G->fac_ilu0(g_h, gA, gF, &id) == AXB_ERR_INTERNAL,
          "%s device ILU(0) of an IC factor", name);
    G->fac_destroy(g_h, gF);
  }
  /* Fixed-point sweeps from the Chow-Patel initial guess. */
  st = SFX(axb__spf_init)(&pat.p, a, f, &info);
  CHECK(st == AXB_SUCCESS, "%s: initial guess %d", name, st);
  G->fac_create(g_h, &pat.p, f, &gF);
  C->fac_create(cpu, &pat.p, f, &cF);
  for (int round = 0; round < 2; ++round) {
    int64_t ig = -1, ic = -1;
    axb_status sg = G->fac_sweeps(g_h, gA, gF, round ? 2 : 1, &ig);
    axb_status sc = C->fac_sweeps(cpu, cA, cF, round ? 2 : 1, &ic);
    CHECK(sg == sc && ig == ic, "%s sweeps: GPU %d row %lld, CPU %d row %lld",
          name, sg, (long long)ig, sc, (long long)ic);
    CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
    C->fac_download(cpu, cF, f);
    const double r = SFX(maxrel)(nnz, fg, f);
    CHECK(r <= 1024 * EPS, "%s sweeps round %d: GPU vs CPU %.3g", name, round,
          r);
  }
  G->fac_destroy(g_h, gF);
  C->fac_destroy(cpu, cF);
  /* A zero pivot in the initial values: row diag 5 -> the rows below. */
  if (n > 8) {
    SFX(axb__spf_init)(&pat.p, a, f, &info);
    f[pat.p.diag[5]] = 0;
    if (kind == AXB_SPF_IC) f[pat.p.diag[2]] = -1;
    G->fac_create(g_h, &pat.p, f, &gF);
    C->fac_create(cpu, &pat.p, f, &cF);
    int64_t ig = -1, ic = -1;
    axb_status sg = G->fac_sweeps(g_h, gA, gF, 1, &ig);
    axb_status sc = C->fac_sweeps(cpu, cA, cF, 1, &ic);
    CHECK(sg == sc && ig == ic && sg != AXB_SUCCESS,
          "%s bad pivot: GPU %d row %lld, CPU %d row %lld", name, sg,
          (long long)ig, sc, (long long)ic);
    sg = G->fac_sweeps(g_h, gA, gF, 0, &ig); /* the check alone */
    sc = C->fac_sweeps(cpu, cA, cF, 0, &ic);
    CHECK(sg == sc && ig == ic, "%s check: GPU %d row %lld, CPU %d row %lld",
          name, sg, (long long)ig, sc, (long long)ic);
    G->fac_destroy(g_h, gF);
    C->fac_destroy(cpu, cF);
  }
  G->vec_free(g_h, gb);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gw);
  G->mat_destroy(g_h, gA);
  C->mat_destroy(cpu, cA);
  axb__spf_pattern_free(&pat);
  free(f);
  free(fg);
  free(b);
  free(x);
  free(w);
}
