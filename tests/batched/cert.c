/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): gesv_batched_cert, float and double, row- and
   column-major operands with lda > n and gaps between problems (NaN that
   must stay NaN), one singular problem in the batch, n = 0 … 33 (the
   per-thread kernels up to 8, the general path above), nrhs 0, 1, 3;
   each answer judged by the library's own check (axb_check_solve on a
   column-major copy), its berr against that, A and B left as given;
   illegal arguments. */

/* One problem's m x c operand of a row- (rm) or column-major batch. */
static double cert_get(const char *buf, axb_dtype t, int rm, int64_t ld,
                       int64_t i, int64_t j) {
  const int64_t e = rm ? i * ld + j : i + j * ld;
  return t == AXB_F64 ? ((const double *)buf)[e] : ((const float *)buf)[e];
}

/* A batch buffer of count elements of t, NaN everywhere, then filled. */
static char *cert_nan(axb_dtype t, int64_t count) {
  const size_t es = t == AXB_F64 ? 8 : 4;
  char *p = (char *)malloc((size_t)(count > 0 ? count : 1) * es);
  for (int64_t e = 0; e < count; ++e) {
    if (t == AXB_F64)
      ((double *)p)[e] = NAN;
    else
      ((float *)p)[e] = NAN;
  }
  return p;
}
static void cert_set(char *buf, axb_dtype t, int rm, int64_t ld, int64_t i,
                     int64_t j, double v) {
  const int64_t e = rm ? i * ld + j : i + j * ld;
  if (t == AXB_F64)
    ((double *)buf)[e] = v;
  else
    ((float *)buf)[e] = (float)v;
}

static axb_status cert_call(axb_dtype t, int rm, int64_t n, int64_t k,
                            const void *A, int64_t lda, int64_t sA,
                            const void *B, int64_t ldb, int64_t sB, void *X,
                            int64_t ldx, int64_t sX, int *info, void *berr,
                            int64_t batch) {
  if (t == AXB_F64)
    return axb_dgesv_batched_cert(h, rm, n, k, (const double *)A, lda, sA,
                                  (const double *)B, ldb, sB, (double *)X, ldx,
                                  sX, info, (double *)berr, batch);
  return axb_sgesv_batched_cert(h, rm, n, k, (const float *)A, lda, sA,
                                (const float *)B, ldb, sB, (float *)X, ldx, sX,
                                info, (float *)berr, batch);
}

/* The library's backward error ratio of problem b's answer (X's column
   c), from column-major copies. */
static double cert_check_one(axb_dtype t, int rm, int64_t n, int64_t k,
                             const char *A, int64_t lda, const char *B,
                             int64_t ldb, const char *X, int64_t ldx) {
  axb_dense Ac, Bc, Xc;
  if (axb_dense_create(&Ac, n, n, AXB_F64) ||
      axb_dense_create(&Bc, n, k, AXB_F64) || axb_dense_create(&Xc, n, k, t)) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  double *a = (double *)Ac.data, *bb = (double *)Bc.data;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      a[i + j * Ac.ld] = cert_get(A, t, rm, lda, i, j);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) {
      bb[i + j * Bc.ld] = cert_get(B, t, rm, ldb, i, j);
      const double x = cert_get(X, t, rm, ldx, i, j);
      if (t == AXB_F64)
        ((double *)Xc.data)[i + j * Xc.ld] = x;
      else
        ((float *)Xc.data)[i + j * Xc.ld] = (float)x;
    }
  const double r = axb_check_solve(&Ac, &Xc, &Bc);
  axb_dense_destroy(&Ac);
  axb_dense_destroy(&Bc);
  axb_dense_destroy(&Xc);
  return r;
}

static void test_cert_case(axb_dtype t, int rm, int64_t n, int64_t k,
                           int64_t batch) {
  const size_t es = t == AXB_F64 ? 8 : 4;
  const int64_t lda = n + 2, sA = lda * n + 3;
  const int64_t ldb = (rm ? k : n) + 1, sB = ldb * (rm ? n : k) + 2;
  const int64_t ldx = (rm ? k : n) + 2, sX = ldx * (rm ? n : k) + 1;
  char *A = cert_nan(t, sA * batch), *B = cert_nan(t, sB * batch);
  char *X = cert_nan(t, sX * batch);
  uint64_t seed = (uint64_t)(1000 * n + 10 * k + rm + 7 * batch);
  const int64_t bad = batch > 2 ? 2 : -1; /* a singular problem */
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
        if (b == bad && (i == n / 2 || j == n / 2)) v = 0;
        cert_set(A + b * sA * es, t, rm, lda, i, j, v);
      }
      for (int64_t c = 0; c < k; ++c)
        cert_set(B + b * sB * es, t, rm, ldb, i, c, (double)(i + c + 1) / n);
    }
  }
  char *A0 = (char *)malloc((size_t)(sA * batch + 1) * es);
  char *B0 = (char *)malloc((size_t)(sB * batch + 1) * es);
  memcpy(A0, A, (size_t)(sA * batch) * es);
  memcpy(B0, B, (size_t)(sB * batch) * es);
  void *dA = side_alloc((size_t)(sA * batch) * es);
  void *dB = side_alloc((size_t)(sB * batch) * es);
  void *dX = side_alloc((size_t)(sX * batch) * es);
  void *dberr = side_alloc((size_t)batch * es);
  int *dinfo = (int *)side_alloc((size_t)batch * sizeof(int));
  side_copy(dA, A, (size_t)(sA * batch) * es, 1);
  side_copy(dB, B, (size_t)(sB * batch) * es, 1);
  side_copy(dX, X, (size_t)(sX * batch) * es, 1);
  axb_status st = cert_call(t, rm, n, k, dA, lda, sA, dB, ldb, sB, dX, ldx, sX,
                            dinfo, dberr, batch);
  CHECK(st == AXB_SUCCESS, "cert %s rm=%d n=%lld k=%lld batch %lld: %s",
        axb_dtype_name(t), rm, (long long)n, (long long)k, (long long)batch,
        axb_detail(h));
  int *info = (int *)malloc((size_t)(batch + 1) * sizeof(int));
  char *berr = (char *)malloc((size_t)(batch + 1) * es);
  side_copy(X, dX, (size_t)(sX * batch) * es, 0);
  side_copy(A, dA, (size_t)(sA * batch) * es, 0);
  side_copy(B, dB, (size_t)(sB * batch) * es, 0);
  side_copy(info, dinfo, (size_t)batch * sizeof(int), 0);
  side_copy(berr, dberr, (size_t)batch * es, 0);
  CHECK(!memcmp(A, A0, (size_t)(sA * batch) * es) &&
            !memcmp(B, B0, (size_t)(sB * batch) * es),
        "cert %s rm=%d n=%lld k=%lld: A or B changed", axb_dtype_name(t), rm,
        (long long)n, (long long)k);
  for (int64_t b = 0; b < batch && !st; ++b) {
    const double be =
        t == AXB_F64 ? ((double *)berr)[b] : (double)((float *)berr)[b];
    const char *Xb = X + b * sX * es;
    if (b == bad && n > 0) {
      CHECK(info[b] >= 1 && isinf(be),
            "cert n=%lld: singular problem info %d "
            "berr %g",
            (long long)n, info[b], be);
      for (int64_t c = 0; c < k; ++c)
        CHECK(isnan(cert_get(Xb, t, rm, ldx, 0, c)), "singular: X not NaN");
      continue;
    }
    const double r = k ? cert_check_one(t, rm, n, k, A + b * sA * es, lda,
                                        B + b * sB * es, ldb, Xb, ldx)
                       : 0;
    CHECK(info[b] == 0, "cert %s rm=%d n=%lld: info %d", axb_dtype_name(t), rm,
          (long long)n, info[b]);
    CHECK_RATIO(r, "cert %s rm=%d n=%lld k=%lld problem %lld: check_solve",
                axb_dtype_name(t), rm, (long long)n, (long long)k,
                (long long)b);
    /* one column: the same quantity as check_solve's, up to the rounding
       of the residual itself (FMA or not: up to ~1 in units of the ratio on the
       GPU, n = 1) */
    CHECK(be >= 0 && be < 30 && (k != 1 || fabs(be - r) <= 0.3 * r + 1.0),
          "cert %s rm=%d n=%lld k=%lld: berr %g vs check_solve %g",
          axb_dtype_name(t), rm, (long long)n, (long long)k, be, r);
    /* the gap after X's problem stays NaN */
    if (b + 1 < batch) {
      const double g = t == AXB_F64 ? ((double *)X)[(b + 1) * sX - 1]
                                    : (double)((float *)X)[(b + 1) * sX - 1];
      CHECK(isnan(g), "cert: X's gap written");
    }
  }
  side_free(dA);
  side_free(dB);
  side_free(dX);
  side_free(dberr);
  side_free(dinfo);
  free(A);
  free(B);
  free(X);
  free(A0);
  free(B0);
  free(info);
  free(berr);
}

static void test_cert_arguments(void) {
  double a[4] = {1, 2, 3, 4}, x[4];
  void *dA = side_alloc(sizeof a), *dX = side_alloc(sizeof x);
  void *dberr = side_alloc(2 * sizeof(double));
  int *dinfo = (int *)side_alloc(2 * sizeof(int));
  side_copy(dA, a, sizeof a, 1);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 0, -1, 1, dA, 2, 4, dA, 2, 2, dX, 2, 2,
                                      dinfo, dberr, 1),
               -2);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 0, 2, 1, dA, 1, 4, dA, 2, 2, dX, 2, 2,
                                      dinfo, dberr, 1),
               -5);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 1, 2, 2, dA, 2, 4, dA, 1, 4, dX, 2, 4,
                                      dinfo, dberr, 1),
               -8);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 0, 2, 1, dA, 2, 4, dA, 2, 2, dA, 2, 2,
                                      dinfo, dberr, 1),
               -10);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 0, 2, 1, dA, 2, 4, dA, 2, 2, dX, 2, 2,
                                      NULL, dberr, 1),
               -13);
  CHECK_STATUS(h,
               axb_dgesv_batched_cert(h, 0, 2, 1, dA, 2, 4, dA, 2, 2, dX, 2, 2,
                                      dinfo, dberr, -1),
               -15);
  CHECK_STATUS(h,
               axb_sgesv_batched_cert(h, 0, 2, 1, NULL, 2, 4, NULL, 2, 2, NULL,
                                      2, 2, NULL, NULL, 0),
               AXB_SUCCESS);
  if (on_device)
    CHECK_STATUS(h,
                 axb_dgesv_batched_cert(h, 0, 65, 1, dA, 65, 65 * 65, dA, 65,
                                        65, dX, 65, 65, dinfo, dberr, 1),
                 AXB_ERR_NOT_SUPPORTED);
  side_free(dA);
  side_free(dX);
  side_free(dberr);
  side_free(dinfo);
}

static void test_cert(void) {
  test_cert_arguments();
  const axb_dtype types[2] = {AXB_F64, AXB_F32};
  const int64_t ns[] = {0, 1, 2, 3, 5, 8, 9, 13, 33};
  const int64_t ks[] = {0, 1, 3};
  for (int ti = 0; ti < 2; ++ti)
    for (int rm = 0; rm < 2; ++rm)
      for (int ni = 0; ni < 9; ++ni)
        for (int ki = 0; ki < 3; ++ki)
          test_cert_case(types[ti], rm, ns[ni], ks[ki], ki == 2 ? 1 : 7);
  test_cert_case(AXB_F64, 1, 8, 1, 0); /* batch 0 */
  test_cert_case(AXB_F64, 1, 8, 1, 1001);
}
