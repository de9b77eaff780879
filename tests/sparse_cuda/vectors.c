/* Part of test_sparse_cuda, typed (T in {double, float}: typed.c includes
   it once per precision; not compiled alone): device
   vectors and their comparisons, and every vector entry of the table. */

/* Device or CPU-table vector of n entries holding host[0..n). */
static T *SFX(up)(const OPS_T *o, axb_handle h, int64_t n, const T *host) {
  T *v = NULL;
  CHECK_STATUS(h, o->vec_alloc(h, n, &v), AXB_SUCCESS);
  if (v && n) CHECK_STATUS(h, o->vec_upload(h, n, host, v), AXB_SUCCESS);
  return v;
}

/* max_i |a_i - b_i| / max(max_i |b_i|, tiny): 0 when equal, NaN-safe. */
static double SFX(maxrel)(int64_t n, const T *a, const T *b) {
  double d = 0, m = 1e-300;
  for (int64_t i = 0; i < n; ++i) {
    const double e = fabs((double)a[i] - (double)b[i]);
    if (!(e <= d)) d = e;
    if (fabs((double)b[i]) > m) m = fabs((double)b[i]);
  }
  return d / m;
}

/* The GPU vector g (n entries) against the CPU-table vector c. */
static void SFX(same)(const char *what, const OPS_T *G, const T *gv, const T *c,
                      int64_t n, double tol) {
  T *hg = malloc(sizeof(T) * (size_t)(n + 1));
  if (n) CHECK_STATUS(g_h, G->vec_download(g_h, n, gv, hg), AXB_SUCCESS);
  const double r = SFX(maxrel)(n, hg, c);
  CHECK(r <= tol, "%s (%s, n %lld): GPU vs CPU %.3g > %.3g", what,
        DT == AXB_F64 ? "d" : "s", (long long)n, r, tol);
  free(hg);
}

static void SFX(fill_random)(int64_t n, T *x, uint64_t seed) {
  for (int64_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (T)((double)(seed >> 11) / 9007199254740992.0 * 2 - 1);
  }
}

static void SFX(scalar_same)(const char *what, double g, double c,
                             double scale) {
  /* Both sum in double; the CPU may round each product to T first. */
  CHECK(fabs(g - c) <= (1e-12 + 2 * EPS) * scale,
        "%s (%s): GPU %.17g CPU %.17g", what, DT == AXB_F64 ? "d" : "s", g, c);
}

/* Every vector entry on n entries against the CPU table. */
static void SFX(vec_case)(int64_t n) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t k = 40; /* GMRES basis columns: more than one chunk of 32 */
  T *x = malloc(sizeof(T) * (size_t)(n + 1));
  T *y = malloc(sizeof(T) * (size_t)(n + 1));
  T *V = malloc(sizeof(T) * (size_t)(n * k + 1));
  SFX(fill_random)(n, x, 1);
  SFX(fill_random)(n, y, 2);
  SFX(fill_random)(n * k, V, 3);
  T *gx = SFX(up)(G, g_h, n, x), *gy = SFX(up)(G, g_h, n, y);
  T *gV = SFX(up)(G, g_h, n * k, V);
  /* The CPU table works on host arrays in place. */
  const double tol = 8 * EPS;
  CHECK_STATUS(g_h, G->axpy(g_h, n, (T)0.5, gx, gy), AXB_SUCCESS);
  C->axpy(cpu, n, (T)0.5, x, y);
  SFX(same)("axpy", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->axpby(g_h, n, (T)2, gx, (T)-1, gy), AXB_SUCCESS);
  C->axpby(cpu, n, (T)2, x, (T)-1, y);
  SFX(same)("axpby", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->axpby(g_h, n, (T)0.25, gy, 0, gy), AXB_SUCCESS);
  C->axpby(cpu, n, (T)0.25, y, 0, y);
  SFX(same)("axpby in place", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->vmul(g_h, n, gx, gy, gy), AXB_SUCCESS);
  C->vmul(cpu, n, x, y, y);
  SFX(same)("vmul", G, gy, y, n, tol);
  double yv[41];
  for (int j = 0; j < 41; ++j)
    yv[j] = 0.1 * (j % 7) - 0.3;
  CHECK_STATUS(g_h, G->lincomb(g_h, n, k, gV, n, yv, gx), AXB_SUCCESS);
  C->lincomb(cpu, n, k, V, n, yv, x);
  SFX(same)("lincomb", G, gx, x, n, 64 * EPS);
  double scale = 1;
  for (int64_t i = 0; i < n; ++i)
    scale += fabs((double)x[i] * (double)y[i]) + (double)y[i] * (double)y[i];
  double dg, dc, d2g[2], d2c[2];
  CHECK_STATUS(g_h, G->dot(g_h, n, gx, gy, &dg), AXB_SUCCESS);
  C->dot(cpu, n, x, y, &dc);
  SFX(scalar_same)("dot", dg, dc, scale);
  CHECK_STATUS(g_h, G->dot2(g_h, n, gx, gy, gy, gy, d2g), AXB_SUCCESS);
  C->dot2(cpu, n, x, y, y, y, d2c);
  SFX(scalar_same)("dot2[0]", d2g[0], d2c[0], scale);
  SFX(scalar_same)("dot2[1]", d2g[1], d2c[1], scale);
  CHECK_STATUS(g_h, G->nrm2(g_h, n, gy, &dg), AXB_SUCCESS);
  C->nrm2(cpu, n, y, &dc);
  SFX(scalar_same)("nrm2", dg, dc, sqrt(scale));
  CHECK_STATUS(g_h, G->copy(g_h, n, gy, gx), AXB_SUCCESS);
  SFX(same)("copy", G, gx, y, n, 0);
  CHECK_STATUS(g_h, G->fill(g_h, n, (T)3, gx), AXB_SUCCESS);
  for (int64_t i = 0; i < n; ++i)
    x[i] = 3;
  SFX(same)("fill", G, gx, x, n, 0);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gy);
  G->vec_free(g_h, gV);
  free(x);
  free(y);
  free(V);
}
