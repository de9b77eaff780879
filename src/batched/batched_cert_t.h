/* axb_Xgesv_batched_cert (axb/batched.h), written once in T/P (PREFIX_STR
   is "axb_d" or "axb_s"): argument checks, the device kernels on a CUDA
   handle, else the host loop below (the same LU and solve as gesv_batched,
   on a per-thread copy; the residual from the caller's A). */

/* Element (i, j) of a row- or column-major operand. */
static inline T AXB_FN(cert_, at)(const T *M, int rm, int64_t ld, int64_t i,
                                  int64_t j) {
  return rm ? M[i * ld + j] : M[i + j * ld];
}

/* ||A||_inf of one problem, in double (a NaN sum stays). */
static double AXB_FN(cert_, anorm)(int rm, int64_t n, const T *A, int64_t lda) {
  double an = 0;
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j)
      s += fabs((double)AXB_FN(cert_, at)(A, rm, lda, i, j));
    an = isnan(s) || s > an ? s : an;
  }
  return an;
}

/* berr of one answer x of A x = b, in double, by check.c's ratio. */
static double AXB_FN(cert_, ratio)(int rm, int64_t n, const T *A, int64_t lda,
                                   double an, const T *b, int64_t sb,
                                   const T *x, int64_t sx) {
  double rn = 0, xn = 0;
  for (int64_t i = 0; i < n; ++i) {
    double r = (double)b[i * sb];
    for (int64_t j = 0; j < n; ++j)
      r -= (double)AXB_FN(cert_, at)(A, rm, lda, i, j) * (double)x[j * sx];
    rn = isnan(r) || fabs(r) > rn ? fabs(r) : rn;
    const double xi = fabs((double)x[i * sx]);
    xn = isnan(xi) || xi > xn ? xi : xn;
  }
  return axb__check_ratio(rn, an, xn, (double)n * AXB_EPS(T), AXB_EPS(T));
}

/* Problem b on the host: LU of a copy (work, ld n), then column by column
   x := A^-1 b (xw), its ratio, and X's column. */
static int AXB_FN(cert_, one)(int rm, int64_t n, int64_t nrhs, const T *A,
                              int64_t lda, const T *B, int64_t ldb, T *X,
                              int64_t ldx, T *work, int *piv, T *xw,
                              double *berr) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      work[i + j * n] = AXB_FN(cert_, at)(A, rm, lda, i, j);
  const int st = AXB_FN(bat_, getrf1)(n, work, n, piv);
  /* element steps of column c: row-major (rows ld apart, columns 1) */
  const int64_t sbr = rm ? ldb : 1, sbc = rm ? 1 : ldb;
  const int64_t sxr = rm ? ldx : 1, sxc = rm ? 1 : ldx;
  const double an = st ? 0 : AXB_FN(cert_, anorm)(rm, n, A, lda);
  double worst = 0;
  for (int64_t c = 0; c < nrhs; ++c) {
    const T *b = B + c * sbc;
    T *x = X + c * sxc;
    for (int64_t i = 0; i < n; ++i)
      xw[i] = b[i * sbr];
    if (st) {
      for (int64_t i = 0; i < n; ++i)
        x[i * sxr] = (T)NAN;
      continue;
    }
    AXB_FN(bat_, getrs1)(n, 1, work, n, piv, xw, n);
    for (int64_t i = 0; i < n; ++i)
      x[i * sxr] = xw[i];
    const double r = AXB_FN(cert_, ratio)(rm, n, A, lda, an, b, sbr, x, sxr);
    if (isnan(r) || r > worst) worst = r;
  }
  *berr = st ? INFINITY : worst;
  return st;
}

static axb_status AXB_FN(cert_, host)(axb_handle h, int rm, int64_t n,
                                      int64_t nrhs, const T *A, int64_t lda,
                                      int64_t sA, const T *B, int64_t ldb,
                                      int64_t sB, T *X, int64_t ldx, int64_t sX,
                                      int *info, T *berr, int64_t batch) {
  const int nt = bat_threads(h, batch);
  (void)nt; /* unused without OpenMP */
  int oom = 0;
#ifdef AXB_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(| : oom)
#endif
  {
    T *work = (T *)axb__malloc(n * n + n + 1, sizeof(T));
    int *piv = (int *)axb__malloc(n + 1, sizeof(int));
    if (!work || !piv) oom = 1;
#ifdef AXB_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
    for (int64_t b = 0; b < batch; ++b) {
      if (oom) continue;
      double r = 0;
      info[b] =
          AXB_FN(cert_, one)(rm, n, nrhs, A + b * sA, lda, B + b * sB, ldb,
                             X + b * sX, ldx, work, piv, work + n * n, &r);
      berr[b] = (T)r;
    }
    axb__free(work);
    axb__free(piv);
  }
  if (oom)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "gesv_batched_cert: no memory for the per-thread "
                     "workspace");
  return AXB_SUCCESS;
}

axb_status AXB_FN(axb_, gesv_batched_cert)(
    axb_handle h, int rowmajor, int64_t n, int64_t nrhs, const T *A,
    int64_t lda, int64_t strideA, const T *B, int64_t ldb, int64_t strideB,
    T *X, int64_t ldx, int64_t strideX, int *info, T *berr, int64_t batch) {
  if (!h) return AXB_ERR_INVALID;
  axb__clear(h);
  const char *name = PREFIX_STR "gesv_batched_cert";
  const int rm = rowmajor != 0;
  const cert_dims d = {rm,  n,       nrhs, lda,     strideA,
                       ldb, strideB, ldx,  strideX, batch};
  axb_status st = cert_check(h, name, &d, A, B, X, info, berr, sizeof(T));
  if (st || batch == 0) return st;
  BAT_CUDA_OR(h, AXB_FN(axb__cuda_, gesv_cert)(h, rm, n, nrhs, A, lda, strideA,
                                               B, ldb, strideB, X, ldx, strideX,
                                               info, berr, batch))
  return AXB_FN(cert_, host)(h, rm, n, nrhs, A, lda, strideA, B, ldb, strideB,
                             X, ldx, strideX, info, berr, batch);
}
