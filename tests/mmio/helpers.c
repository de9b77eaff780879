/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone): the
   readers on inline buffers, the comparisons of what they return, the
   expected failures, and a .gz writer independent of axb's. */

/* The file `name` in this run's temporary directory. */
static void path_in_tmp(char *out, size_t n, const char *name) {
  snprintf(out, n, "%s/%s", tmpdir, name);
}

/* head, then n copies of c, then tail, in a malloc'd string (exits 1 when
   out of memory: the case cannot be built). */
static char *text_with_run(const char *head, char c, size_t n,
                           const char *tail) {
  const size_t k = strlen(head);
  char *s = malloc(k + n + strlen(tail) + 1);
  if (!s) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  memcpy(s, head, k);
  memset(s + k, c, n);
  strcpy(s + k + n, tail);
  return s;
}

/* Write a .gz with zlib itself, independently of axb's writer. */
static void gz_write_file(const char *path, const void *data, size_t n) {
  gzFile f = gzopen(path, "wb");
  CHECK(f != NULL, "gzopen %s", path);
  if (!f) return;
  CHECK(gzwrite(f, data, (unsigned)n) == (int)n, "gzwrite %s", path);
  CHECK(gzclose(f) == Z_OK, "gzclose %s", path);
}

static axb_status rd_dense(const char *s, axb_dtype t, axb_dense *A) {
  return axb_read_dense_mem(h, "inline", s, strlen(s), t, A);
}

static axb_status rd_csr(const char *s, axb_dtype t, axb_csr *A) {
  return axb_read_csr_mem(h, "inline", s, strlen(s), t, A);
}

static double csr_val(const axb_csr *S, int64_t k) {
  return S->dtype == AXB_F64 ? ((const double *)S->values)[k]
                             : (double)((const float *)S->values)[k];
}

/* `want` is row-major rows x cols. */
static void check_dense_eq(const char *what, const axb_dense *A, int64_t rows,
                           int64_t cols, const double *want) {
  CHECK(A->rows == rows && A->cols == cols && A->ld == rows,
        "%s: %lld x %lld ld %lld, want %lld x %lld", what, (long long)A->rows,
        (long long)A->cols, (long long)A->ld, (long long)rows, (long long)cols);
  if (A->rows != rows || A->cols != cols) return;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double w = want[i * cols + j];
      if (A->dtype == AXB_F32) w = (double)(float)w;
      CHECK(axb_dense_get(A, i, j) == w, "%s: (%lld,%lld) = %.17g want %.17g",
            what, (long long)i, (long long)j, axb_dense_get(A, i, j), w);
    }
}

/* CSR must equal the row-major dense `want`, with exactly `nnz` stored
   entries (explicit zeros included) and sorted columns. */
static void check_csr_eq(const char *what, const axb_csr *S, int64_t rows,
                         int64_t cols, int64_t nnz, const double *want) {
  CHECK(S->rows == rows && S->cols == cols && S->nnz == nnz,
        "%s: %lld x %lld nnz %lld, want %lld x %lld nnz %lld", what,
        (long long)S->rows, (long long)S->cols, (long long)S->nnz,
        (long long)rows, (long long)cols, (long long)nnz);
  if (S->rows != rows || S->cols != cols || !S->rowptr) return;
  CHECK(S->rowptr[0] == 0 && S->rowptr[rows] == S->nnz, "%s: rowptr ends",
        what);
  int64_t seen = 0;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k) {
      int64_t j = S->colind[k];
      CHECK(j >= 0 && j < cols, "%s: column %lld out of range", what,
            (long long)j);
      if (j < 0 || j >= cols) return;
      if (k > S->rowptr[i])
        CHECK(S->colind[k - 1] < j, "%s: row %lld columns not increasing", what,
              (long long)i);
      double w = want[i * cols + j];
      if (S->dtype == AXB_F32) w = (double)(float)w;
      CHECK(csr_val(S, k) == w, "%s: (%lld,%lld) = %.17g want %.17g", what,
            (long long)i, (long long)j, csr_val(S, k), w);
      ++seen;
    }
  /* Every nonzero of want must be stored. */
  int64_t want_nz = 0;
  for (int64_t k = 0; k < rows * cols; ++k)
    want_nz += want[k] != 0;
  CHECK(seen >= want_nz, "%s: %lld stored, want at least %lld nonzeros", what,
        (long long)seen, (long long)want_nz);
}

/* Read `s` both ways in both precisions and compare. */
static void check_text(const char *what, const char *s, int64_t rows,
                       int64_t cols, int64_t nnz, const double *want) {
  for (int t = 1; t <= 2; ++t) {
    axb_dtype dt = (axb_dtype)t;
    char name[160];
    snprintf(name, sizeof name, "%s [%s]", what, axb_dtype_name(dt));
    axb_dense A;
    axb_status st = rd_dense(s, dt, &A);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st == AXB_SUCCESS) {
      CHECK(A.dtype == dt, "%s: dense dtype", name);
      check_dense_eq(name, &A, rows, cols, want);
    }
    axb_dense_destroy(&A);
    axb_csr S;
    st = rd_csr(s, dt, &S);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st == AXB_SUCCESS) {
      CHECK(S.dtype == dt, "%s: csr dtype", name);
      check_csr_eq(name, &S, rows, cols, nnz, want);
    }
    axb_csr_destroy(&S);
  }
}

/* Every reader (dense/CSR, float/double) fails with `want` and a detail that
   names "inline:LINE:". */
static void check_fail_dt(const char *what, const char *s, size_t len,
                          axb_status want, long line, int dt_mask) {
  char tag[64];
  snprintf(tag, sizeof tag, "inline:%ld:", line);
  for (int t = 1; t <= 2; ++t) {
    if (!(dt_mask & t)) continue;
    axb_dtype dt = (axb_dtype)t;
    axb_dense A;
    axb_status st = axb_read_dense_mem(h, "inline", s, len, dt, &A);
    CHECK(st == want, "%s [dense %s]: status %d (%s) want %d; detail: %s", what,
          axb_dtype_name(dt), st, axb_strerror(st), want, axb_detail(h));
    CHECK(strstr(axb_detail(h), tag) == axb_detail(h),
          "%s [dense %s]: detail '%s' does not start with '%s'", what,
          axb_dtype_name(dt), axb_detail(h), tag);
    CHECK(A.data == NULL && A.rows == 0, "%s: dense not cleared", what);
    axb_dense_destroy(&A);
    axb_csr S;
    st = axb_read_csr_mem(h, "inline", s, len, dt, &S);
    CHECK(st == want, "%s [csr %s]: status %d (%s) want %d; detail: %s", what,
          axb_dtype_name(dt), st, axb_strerror(st), want, axb_detail(h));
    CHECK(strstr(axb_detail(h), tag) == axb_detail(h),
          "%s [csr %s]: detail '%s' does not start with '%s'", what,
          axb_dtype_name(dt), axb_detail(h), tag);
    CHECK(S.rowptr == NULL && S.values == NULL, "%s: csr not cleared", what);
    axb_csr_destroy(&S);
  }
}

static void check_fail(const char *what, const char *s, axb_status want,
                       long line) {
  check_fail_dt(what, s, strlen(s), want, line, 3);
}

#define MMC "%%MatrixMarket matrix coordinate "
#define MMA "%%MatrixMarket matrix array "
