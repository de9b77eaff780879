/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone): the
   CSR validation the writer and axb_csr_to_dense share, and
   axb_csr_create's limits. */

/* A CSR whose arrays are malloc'd to their exact sizes, so that a read past
   them is a sanitizer error. */
static axb_csr csr_exact(int64_t rows, int64_t cols, int64_t nnz,
                         const int64_t *rowptr, const int64_t *colind,
                         const double *values) {
  axb_csr A = {rows, cols, nnz, AXB_F64, NULL, NULL, NULL};
  A.rowptr = malloc((size_t)(rows + 1) * sizeof(int64_t));
  A.colind = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int64_t));
  A.values = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(double));
  if (!A.rowptr || !A.colind || !A.values) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  memcpy(A.rowptr, rowptr, (size_t)(rows + 1) * sizeof(int64_t));
  if (nnz > 0) {
    memcpy(A.colind, colind, (size_t)nnz * sizeof(int64_t));
    memcpy(A.values, values, (size_t)nnz * sizeof(double));
  }
  return A;
}

static void csr_exact_free(axb_csr *A) {
  free(A->rowptr);
  free(A->colind);
  free(A->values);
}

/* The writer and axb_csr_to_dense both refuse A with AXB_ERR_INVALID, a
   detail containing `what`, no file written and D cleared. */
static void check_bad_csr(const char *name, axb_csr A, const char *what) {
  char path[512];
  path_in_tmp(path, sizeof path, "bad_csr.mtx");
  unlink(path);
  CHECK_STATUS(h, axb_write_csr(h, path, &A), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), what) != NULL,
        "%s [write]: detail '%s' lacks '%s'", name, axb_detail(h), what);
  CHECK(access(path, F_OK) != 0, "%s: file written", name);
  axb_dense D;
  memset(&D, 0x5a, sizeof D);
  CHECK_STATUS(h, axb_csr_to_dense(h, &A, &D), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), what) != NULL,
        "%s [to_dense]: detail '%s' lacks '%s'", name, axb_detail(h), what);
  CHECK(D.data == NULL && D.rows == 0, "%s: dense not cleared", name);
  csr_exact_free(&A);
}

static void test_csr_validation(void) {
  const double v3[] = {1, 2, 3};
  /* rowptr past nnz before any column is read (was a heap overflow). */
  const int64_t rp_far[] = {0, 3, 1}, c1[] = {0};
  check_bad_csr("rowptr beyond nnz", csr_exact(2, 2, 1, rp_far, c1, v3),
                "rowptr[1] = 3");
  const int64_t rp_dec[] = {0, 1, 0, 1};
  check_bad_csr("rowptr decreasing", csr_exact(3, 2, 1, rp_dec, c1, v3),
                "rowptr[2] = 0");
  const int64_t rp_neg[] = {0, -1, 1};
  check_bad_csr("rowptr negative", csr_exact(2, 2, 1, rp_neg, c1, v3),
                "rowptr[1] = -1");
  const int64_t rp_start[] = {1, 1, 1};
  check_bad_csr("rowptr[0] not 0", csr_exact(2, 2, 1, rp_start, c1, v3),
                "rowptr[0] = 1");
  const int64_t rp_short[] = {0, 1, 1};
  check_bad_csr("rowptr[rows] below nnz",
                csr_exact(2, 2, 2, rp_short, (const int64_t[]){0, 1}, v3),
                "rowptr[rows] = 1");
  /* Columns: range (was a heap overflow write in csr_to_dense), order,
     duplicates. */
  const int64_t rp1[] = {0, 1, 1}, c5[] = {5};
  check_bad_csr("column out of range", csr_exact(2, 2, 1, rp1, c5, v3),
                "column 5 out of range 0..1");
  const int64_t cneg[] = {-1};
  check_bad_csr("negative column", csr_exact(2, 2, 1, rp1, cneg, v3),
                "column -1 out of range");
  const int64_t rp2[] = {0, 2, 2}, c10[] = {1, 0}, c00[] = {0, 0};
  check_bad_csr("unsorted columns", csr_exact(2, 2, 2, rp2, c10, v3),
                "column 0 comes after column 1");
  check_bad_csr("duplicate columns", csr_exact(2, 2, 2, rp2, c00, v3),
                "column 0 repeats");
  /* Bad descriptors. */
  axb_csr A = csr_exact(2, 2, 1, rp1, c1, v3);
  A.dtype = (axb_dtype)9;
  check_bad_csr("bad dtype", A, "neither float nor double");
  A = csr_exact(2, 2, 1, rp1, c1, v3);
  free(A.colind);
  A.colind = NULL;
  check_bad_csr("NULL colind", A, "colind or values NULL");
  /* A valid matrix: written, read back, expanded. */
  const int64_t rp_ok[] = {0, 2, 3}, c_ok[] = {0, 1, 1};
  A = csr_exact(2, 2, 3, rp_ok, c_ok, v3);
  char path[512];
  path_in_tmp(path, sizeof path, "ok_csr.mtx");
  CHECK_STATUS(h, axb_write_csr(h, path, &A), AXB_SUCCESS);
  axb_dense D;
  CHECK_STATUS(h, axb_csr_to_dense(h, &A, &D), AXB_SUCCESS);
  const double want[] = {1, 2, 0, 3};
  check_dense_eq("csr_to_dense", &D, 2, 2, want);
  axb_dense_destroy(&D);
  /* Values are the writer's concern only: NaN expands, is not written. */
  ((double *)A.values)[1] = NAN;
  CHECK_STATUS(h, axb_write_csr(h, path, &A), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h), "entry (1, 2) is NaN or Inf") != NULL,
        "detail: %s", axb_detail(h));
  CHECK_STATUS(h, axb_csr_to_dense(h, &A, &D), AXB_SUCCESS);
  if (D.data) CHECK(isnan(axb_dense_get(&D, 0, 1)), "NaN expanded");
  axb_dense_destroy(&D);
  csr_exact_free(&A);
  /* Empty matrices are valid. */
  const int64_t rp0[] = {0};
  A = csr_exact(0, 0, 0, rp0, NULL, NULL);
  CHECK_STATUS(h, axb_csr_to_dense(h, &A, &D), AXB_SUCCESS);
  axb_dense_destroy(&D);
  csr_exact_free(&A);
}

/* axb_csr_create: rows + 1 must not overflow (was signed overflow). */
static void test_csr_create_limits(void) {
  axb_csr A;
  memset(&A, 0x5a, sizeof A);
  CHECK(axb_csr_create(&A, INT64_MAX, 1, 0, AXB_F64) == AXB_ERR_OUT_OF_MEMORY,
        "rows = INT64_MAX");
  CHECK(A.rowptr == NULL && A.rows == 0, "not cleared");
  CHECK(axb_csr_create(&A, INT64_MAX - 1, 1, 0, AXB_F64) ==
            AXB_ERR_OUT_OF_MEMORY,
        "rows = INT64_MAX - 1");
  CHECK(axb_csr_create(&A, 1, 1, INT64_MAX, AXB_F32) == AXB_ERR_OUT_OF_MEMORY,
        "nnz = INT64_MAX");
  CHECK(axb_csr_create(&A, -1, 1, 0, AXB_F64) == AXB_ERR_INVALID, "rows < 0");
  CHECK(axb_csr_create(&A, 0, 0, 0, AXB_F64) == AXB_SUCCESS && A.rowptr &&
            A.rowptr[0] == 0,
        "empty");
  axb_csr_destroy(&A);
}
