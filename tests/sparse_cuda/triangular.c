/* Part of test_sparse_cuda, typed (T in {double, float}: typed.c includes
   it once per precision; not compiled alone): the
   exact triangular solves on hand-made patterns. */

/* Hand-made patterns for the exact triangular solves (values used as the
   factor F directly, kind LU: unit lower, upper with its diagonal):
     0 lower bidiagonal: the lower solve is one chain of length n, the
       upper solve n independent rows;
     1 diagonal: every row independent in both solves;
     2 tridiagonal: chains of length n in both solves;
     3 random: up to 40 entries per row anywhere (rows of every length,
       dependencies near and far).
   Off-diagonals are small against the diagonal 2, so the solves are
   well conditioned and GPU == CPU up to rounding. */
static void SFX(tri_matrix)(int kind, int64_t n, axb_csr *A) {
  uint64_t seed = 1234567 + (uint64_t)n;
  int64_t cap = kind == 3 ? 41 * n : 3 * n;
  int64_t *cols = malloc(sizeof(int64_t) * (size_t)(cap + 1));
  double *vals = malloc(sizeof(double) * (size_t)(cap + 1));
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(n + 1));
  char *mark = calloc((size_t)n + 1, 1);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    rp[i] = k;
    int64_t len = 0, c[41];
    if ((kind == 0 || kind == 2) && i > 0) c[len++] = i - 1;
    if (kind == 2 && i + 1 < n) c[len++] = i + 1;
    if (kind == 3) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int64_t want = (int64_t)((seed >> 33) % 41);
      for (int64_t t = 0; t < want; ++t) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int64_t j = (int64_t)((seed >> 20) % (uint64_t)n);
        if (j != i && !mark[j]) {
          mark[j] = 1;
          c[len++] = j;
        }
      }
      for (int64_t t = 0; t < len; ++t)
        mark[c[t]] = 0;
    }
    c[len++] = i;
    /* insertion sort: short rows */
    for (int64_t a = 1; a < len; ++a)
      for (int64_t b = a; b > 0 && c[b - 1] > c[b]; --b) {
        int64_t t = c[b];
        c[b] = c[b - 1];
        c[b - 1] = t;
      }
    for (int64_t t = 0; t < len; ++t, ++k) {
      cols[k] = c[t];
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      double r = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
      vals[k] = c[t] == i ? 2 + 0.5 * r
                          : (kind == 3 ? r / (double)len : -0.5 + 0.2 * r);
    }
  }
  rp[n] = k;
  if (axb_csr_create(A, n, n, k, DT) != AXB_SUCCESS) exit(1);
  memcpy(A->rowptr, rp, sizeof(int64_t) * (size_t)(n + 1));
  if (k) memcpy(A->colind, cols, sizeof(int64_t) * (size_t)k);
  for (int64_t q = 0; q < k; ++q)
    ((T *)A->values)[q] = (T)vals[q];
  free(cols);
  free(vals);
  free(rp);
  free(mark);
}

/* Exact triangular solves of the hand-made patterns: the sync-free solve
   at several widths (AUTO, 1, 2, 8, 32) and the level-scheduled one
   against the CPU table's substitution, each solve repeated (the ready
   flags' generations), and a factor made without level sets (what the
   solvers make) refusing LEVELS but solving sync-free. */
static void SFX(tri_case)(int kind, int64_t n) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  axb_csr A;
  SFX(tri_matrix)(kind, n, &A);
  axb_spf_pattern_owned P, Q;
  int64_t info = 0;
  CHECK_STATUS(NULL, axb__spf_pattern_build(&A, AXB_SPF_LU, &P, &info),
               AXB_SUCCESS);
  CHECK_STATUS(NULL, axb__spf_pattern_build_some(&A, AXB_SPF_LU, 0, &Q, &info),
               AXB_SUCCESS);
  CHECK(Q.p.lo_ptr == NULL && Q.p.cscpos == NULL, "pattern parts not asked");
  const T *f = (const T *)A.values;
  axb_spfac *gF = NULL, *gQ = NULL, *cF = NULL;
  CHECK_STATUS(g_h, G->fac_create(g_h, &P.p, f, &gF), AXB_SUCCESS);
  CHECK_STATUS(g_h, G->fac_create(g_h, &Q.p, f, &gQ), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->fac_create(cpu, &P.p, f, &cF), AXB_SUCCESS);
  if (!gF || !gQ || !cF) return;
  T *b = malloc(sizeof(T) * (size_t)(n + 1));
  T *x = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, b, 77);
  T *gb = SFX(up)(G, g_h, n, b), *gx = NULL;
  G->vec_alloc(g_h, n, &gx);
  /* -1: levels, -2: the warp solve, -3: the warp solve with back-off */
  const int widths[] = {0, 1, 2, 8, 32, -1, -2, -3};
  for (int up = 0; up < 2; ++up) {
    const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
    C->tri_solve(cpu, cF, u, AXB_SPTRI_EXACT, 1, b, x, NULL);
    for (int w = 0; w < 8; ++w) {
      if (widths[w] == -1 && n > 100000 && kind != 1) continue; /* n launches */
      CHECK_STATUS(g_h,
                   axb_spcuda_fac_set_tri(gF,
                                          widths[w] == -1 ? AXB_SPTRI_GPU_LEVELS
                                          : widths[w] < 0
                                              ? AXB_SPTRI_GPU_WARP
                                              : AXB_SPTRI_GPU_SYNCFREE,
                                          widths[w] < 0 ? 0 : widths[w]),
                   AXB_SUCCESS);
      CHECK_STATUS(g_h,
                   axb_spcuda_fac_set_backoff(gF, widths[w] == -3 ? 200 : 0),
                   AXB_SUCCESS);
      for (int rep = 0; rep < 2; ++rep) {
        CHECK_STATUS(g_h, G->fill(g_h, n, (T)NAN, gx), AXB_SUCCESS);
        CHECK_STATUS(g_h,
                     G->tri_solve(g_h, gF, u, AXB_SPTRI_EXACT, 1, gb, gx, NULL),
                     AXB_SUCCESS);
        char what[128];
        snprintf(what, sizeof what, "tri pattern %d %s width %d rep %d", kind,
                 up ? "upper" : "lower", widths[w], rep);
        SFX(same)(what, G, gx, x, n, 64 * EPS);
      }
    }
    CHECK_STATUS(g_h,
                 G->tri_solve(g_h, gQ, u, AXB_SPTRI_EXACT, 1, gb, gx, NULL),
                 AXB_SUCCESS);
    SFX(same)("tri without level sets", G, gx, x, n, 64 * EPS);
    /* In place (x = b): the warp solve's sentinel would erase b, so the
       flag solve runs instead. */
    CHECK_STATUS(g_h, axb_spcuda_fac_set_tri(gF, AXB_SPTRI_GPU_WARP, 0),
                 AXB_SUCCESS);
    CHECK_STATUS(g_h, G->copy(g_h, n, gb, gx), AXB_SUCCESS);
    CHECK_STATUS(g_h,
                 G->tri_solve(g_h, gF, u, AXB_SPTRI_EXACT, 1, gx, gx, NULL),
                 AXB_SUCCESS);
    SFX(same)("tri warp in place", G, gx, x, n, 64 * EPS);
  }
  axb_sptri_gpu_alg alg;
  int width = -1;
  CHECK(axb_spcuda_fac_set_tri(gQ, AXB_SPTRI_GPU_LEVELS, 0) ==
            AXB_ERR_NOT_SUPPORTED,
        "LEVELS without level sets accepted");
  CHECK(axb_spcuda_fac_set_tri(gQ, AXB_SPTRI_GPU_SYNCFREE, 3) ==
            AXB_ERR_INVALID,
        "width 3 accepted");
  axb_spcuda_fac_tri_info(gQ, &alg, &width);
  /* gQ has no level sets: AUTO's warp solve at every n. */
  CHECK(alg == AXB_SPTRI_GPU_WARP && width == 1, "tri info %d %d", (int)alg,
        width);
  CHECK(axb_spcuda_fac_set_backoff(gQ, -1) == AXB_ERR_INVALID,
        "negative back-off accepted");
  /* ParILU sweeps need the CSC view: a library error, not a crash. */
  if (n > 0) {
    axb_spmat *gA = NULL, *cA = NULL;
    int64_t ig = 0, ic = 0;
    G->mat_create(g_h, &A, &gA);
    C->mat_create(cpu, &A, &cA);
    axb_spfac *cQ = NULL;
    C->fac_create(cpu, &Q.p, f, &cQ);
    CHECK(G->fac_sweeps(g_h, gA, gQ, 1, &ig) == AXB_ERR_INTERNAL &&
              C->fac_sweeps(cpu, cA, cQ, 1, &ic) == AXB_ERR_INTERNAL,
          "ParILU sweeps without CSC view");
    C->fac_destroy(cpu, cQ);
    G->mat_destroy(g_h, gA);
    C->mat_destroy(cpu, cA);
  }
  G->fac_destroy(g_h, gF);
  G->fac_destroy(g_h, gQ);
  C->fac_destroy(cpu, cF);
  G->vec_free(g_h, gb);
  G->vec_free(g_h, gx);
  axb__spf_pattern_free(&P);
  axb__spf_pattern_free(&Q);
  axb_csr_destroy(&A);
  free(b);
  free(x);
}

static void SFX(tri_tests)(void) {
  const int64_t sizes[] = {0, 1, 2, 37, 3001, 200001};
  for (int kind = 0; kind < 4; ++kind)
    for (int s = 0; s < 6; ++s) {
      if (quick && sizes[s] > 5000) continue;
      if (race && sizes[s] > 40) continue;        /* 37 rows: two warps */
      if (kind == 2 && sizes[s] > 5000) continue; /* chain: as kind 0 */
      SFX(tri_case)(kind, sizes[s]);
    }
}
