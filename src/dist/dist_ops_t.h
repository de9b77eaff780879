/* The CPU table of rank-local operations (template: T, P; dist_ops.c). */

#define OPS_T AXB_CAT3(axb_dist_ops_, P, )

static axb_status AXB_FN(cpu_, gemm)(axb_handle h, axb_trans ta, axb_trans tb,
                                     int64_t m, int64_t n, int64_t k, T alpha,
                                     const T *A, int64_t lda, const T *B,
                                     int64_t ldb, T beta, T *C, int64_t ldc) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  if (k <= 0) { /* C := beta C */
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        C[i + j * ldc] = beta == (T)0 ? (T)0 : beta * C[i + j * ldc];
    return AXB_SUCCESS;
  }
  return h->ops->P.gemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                        ldc);
}

static axb_status AXB_FN(cpu_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                                     axb_trans trans, axb_diag diag, int64_t m,
                                     int64_t n, T alpha, const T *A,
                                     int64_t lda, T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  return h->ops->P.trsm(h, side, uplo, trans, diag, m, n, alpha, A, lda, B,
                        ldb);
}

static axb_status AXB_FN(cpu_, potrf)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t *info) {
  *info = 0;
  if (n <= 0) return AXB_SUCCESS;
  axb_status st = h->ops->P.potrf(h, AXB_LOWER, n, A, lda, info);
  return st > 0 ? AXB_SUCCESS : st; /* not SPD: *info says it */
}

static axb_status AXB_FN(cpu_, laswp)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t k1, int64_t k2,
                                      const int64_t *ipiv) {
  if (n <= 0 || k2 <= k1) return AXB_SUCCESS;
  return h->ops->P.laswp(h, n, A, lda, k1, k2, ipiv, 1);
}

static void AXB_FN(cpu_, iamax)(int64_t m, const T *x, int64_t *idx,
                                double *val) {
  int64_t best = -1;
  double bv = -1;
  for (int64_t i = 0; i < m; ++i) {
    double v = fabs((double)x[i]);
    if (v != v) { /* NaN: the pivot, so that it surfaces */
      *idx = i;
      *val = v;
      return;
    }
    if (v > bv) {
      bv = v;
      best = i;
    }
  }
  *idx = best;
  *val = bv;
}

static void AXB_FN(cpu_, panel_step)(int64_t m, int64_t w, T piv, T *x,
                                     const T *u, T *C, int64_t ldc) {
  if (piv == (T)0 || m <= 0) return;
  if (fabs((double)piv) >= AXB_SAFMIN(T)) {
    T r = (T)1 / piv;
    for (int64_t i = 0; i < m; ++i)
      x[i] *= r;
  } else {
    for (int64_t i = 0; i < m; ++i)
      x[i] /= piv;
  }
  for (int64_t c = 0; c < w; ++c) {
    T uc = u[c];
    if (uc == (T)0) continue;
    T *cc = C + c * ldc;
    for (int64_t i = 0; i < m; ++i)
      cc[i] -= x[i] * uc;
  }
}

static void AXB_FN(cpu_, swap_rows)(int64_t n, T *A, int64_t lda, int64_t r1,
                                    int64_t r2) {
  if (r1 == r2) return;
  for (int64_t c = 0; c < n; ++c) {
    T t = A[r1 + c * lda];
    A[r1 + c * lda] = A[r2 + c * lda];
    A[r2 + c * lda] = t;
  }
}

/* Column by column: each column's rows are read (written) together. */
static void AXB_FN(cpu_, pack_rows)(int64_t m, const int64_t *rows, int64_t n,
                                    const T *A, int64_t lda, T *buf) {
  for (int64_t c = 0; c < n; ++c)
    for (int64_t i = 0; i < m; ++i)
      buf[i + c * m] = A[rows[i] + c * lda];
}

static void AXB_FN(cpu_, unpack_rows)(int64_t m, const int64_t *rows, int64_t n,
                                      const T *buf, T *A, int64_t lda) {
  for (int64_t c = 0; c < n; ++c)
    for (int64_t i = 0; i < m; ++i)
      A[rows[i] + c * lda] = buf[i + c * m];
}

static void AXB_FN(cpu_, pack)(int64_t m, int64_t n, const T *A, int64_t lda,
                               T *buf) {
  if (m <= 0) return;
  for (int64_t c = 0; c < n; ++c)
    memcpy(buf + c * m, A + c * lda, (size_t)m * sizeof(T));
}

static void AXB_FN(cpu_, unpack)(int64_t m, int64_t n, const T *buf, T *A,
                                 int64_t lda) {
  if (m <= 0) return;
  for (int64_t c = 0; c < n; ++c)
    memcpy(A + c * lda, buf + c * m, (size_t)m * sizeof(T));
}

static void AXB_FN(cpu_, copy)(int64_t m, int64_t n, const T *A, int64_t lda,
                               T *B, int64_t ldb) {
  if (m <= 0) return;
  for (int64_t c = 0; c < n; ++c)
    memcpy(B + c * ldb, A + c * lda, (size_t)m * sizeof(T));
}

static int AXB_FN(cpu_, panel_on_host)(const T *a) {
  (void)a;
  return 0;
}

static const T *AXB_FN(cpu_, mirror)(int slot, const T *x, int64_t count) {
  (void)slot;
  (void)count;
  return x;
}

const OPS_T AXB_FN(axb__dist_cpu_, ) = {
    .gemm = AXB_FN(cpu_, gemm),
    .trsm = AXB_FN(cpu_, trsm),
    .potrf = AXB_FN(cpu_, potrf),
    .iamax = AXB_FN(cpu_, iamax),
    .panel_step = AXB_FN(cpu_, panel_step),
    .laswp = AXB_FN(cpu_, laswp),
    .swap_rows = AXB_FN(cpu_, swap_rows),
    .pack_rows = AXB_FN(cpu_, pack_rows),
    .unpack_rows = AXB_FN(cpu_, unpack_rows),
    .pack = AXB_FN(cpu_, pack),
    .unpack = AXB_FN(cpu_, unpack),
    .panel_on_host = AXB_FN(cpu_, panel_on_host),
    .mirror = AXB_FN(cpu_, mirror),
    .syrk = NULL,
    .panel_lu = NULL,
    .bcast = NULL,
    .bcast_wait = NULL,
    .dbuf = NULL,
    .copy = AXB_FN(cpu_, copy),
    .dwork = NULL,
    .gatherv = NULL,
    .lane = NULL,
    .fence = NULL,
    .sync = NULL};

#undef OPS_T
