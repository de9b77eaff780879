/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone): files:
   round trips through the writers (plain and gzip), .gz files written by
   zlib itself, and I/O errors. */

static void test_roundtrip_dense(axb_dtype dt) {
  axb_dense A, B;
  CHECK_STATUS(h, axb_dense_create(&A, 7, 5, dt), AXB_SUCCESS);
  uint64_t x = 88172645463325252ull;
  for (int64_t j = 0; j < 5; ++j)
    for (int64_t i = 0; i < 7; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      double v = ((double)(x >> 11) / 9007199254740992.0 - 0.5) *
                 pow(10.0, (double)((int64_t)(x % 41) - 20));
      axb_dense_set(&A, i, j, v);
    }
  axb_dense_set(&A, 0, 0, 1.0 / 3.0);
  axb_dense_set(&A, 1, 0, dt == AXB_F64 ? DBL_MIN : FLT_MIN);
  axb_dense_set(&A, 2, 0, dt == AXB_F64 ? -DBL_MAX : -FLT_MAX);
  axb_dense_set(&A, 3, 0, dt == AXB_F64 ? 4.9e-324 : 1.4e-45);
  axb_dense_set(&A, 4, 0, 0.0);
  char path[512];
  path_in_tmp(path, sizeof path, dt == AXB_F64 ? "d.mtx" : "s.mtx");
  CHECK_STATUS(h, axb_write_dense(h, path, &A), AXB_SUCCESS);
  CHECK_STATUS(h, axb_read_dense(h, path, dt, &B), AXB_SUCCESS);
  if (B.data) {
    CHECK(B.rows == 7 && B.cols == 5, "round trip shape");
    for (int64_t j = 0; j < 5; ++j)
      for (int64_t i = 0; i < 7; ++i)
        CHECK(axb_dense_get(&A, i, j) == axb_dense_get(&B, i, j),
              "dense %s round trip (%lld,%lld): %.17g vs %.17g",
              axb_dtype_name(dt), (long long)i, (long long)j,
              axb_dense_get(&A, i, j), axb_dense_get(&B, i, j));
  }
  axb_dense_destroy(&B);
  /* Through gzip as well (writer picks it from the name). */
  path_in_tmp(path, sizeof path, dt == AXB_F64 ? "d.mtx.gz" : "s.mtx.gz");
  CHECK_STATUS(h, axb_write_dense(h, path, &A), AXB_SUCCESS);
  CHECK_STATUS(h, axb_read_dense(h, path, dt, &B), AXB_SUCCESS);
  if (B.data)
    CHECK(memcmp(A.data, B.data, 35 * axb_dtype_size(dt)) == 0,
          "gz dense round trip");
  axb_dense_destroy(&B);
  /* A view with ld > rows writes only its rows x cols block. */
  axb_dense V = axb_dense_wrap(3, 2, A.ld, dt, A.data);
  path_in_tmp(path, sizeof path, "view.mtx");
  CHECK_STATUS(h, axb_write_dense(h, path, &V), AXB_SUCCESS);
  CHECK_STATUS(h, axb_read_dense(h, path, dt, &B), AXB_SUCCESS);
  if (B.data)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t i = 0; i < 3; ++i)
        CHECK(axb_dense_get(&V, i, j) == axb_dense_get(&B, i, j), "view");
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

static void test_roundtrip_csr(axb_dtype dt) {
  const char *s = MMC "real general\n4 5 6\n1 1 0.1\n1 5 -3e-200\n2 3 0\n"
                      "4 1 1e300\n4 2 7\n4 5 0.3333333333333333\n";
  if (dt == AXB_F32)
    s = MMC "real general\n4 5 6\n1 1 0.1\n1 5 -3e-20\n2 3 0\n"
            "4 1 1e30\n4 2 7\n4 5 0.3333333333333333\n";
  axb_csr A, B;
  CHECK_STATUS(h, rd_csr(s, dt, &A), AXB_SUCCESS);
  char path[512];
  path_in_tmp(path, sizeof path, dt == AXB_F64 ? "d_csr.mtx" : "s_csr.mtx");
  CHECK_STATUS(h, axb_write_csr(h, path, &A), AXB_SUCCESS);
  CHECK_STATUS(h, axb_read_csr(h, path, dt, &B), AXB_SUCCESS);
  if (A.rowptr && B.rowptr) {
    CHECK(A.rows == B.rows && A.cols == B.cols && A.nnz == B.nnz && A.nnz == 6,
          "csr round trip shape");
    if (A.nnz == B.nnz) {
      CHECK(memcmp(A.rowptr, B.rowptr, 5 * sizeof(int64_t)) == 0, "rowptr");
      CHECK(memcmp(A.colind, B.colind, 6 * sizeof(int64_t)) == 0, "colind");
      for (int64_t k = 0; k < 6; ++k)
        CHECK(csr_val(&A, k) == csr_val(&B, k), "csr round trip value %lld",
              (long long)k);
    }
  }
  axb_csr_destroy(&B);
  path_in_tmp(path, sizeof path, "csr.mtx.gz");
  CHECK_STATUS(h, axb_write_csr(h, path, &A), AXB_SUCCESS);
  CHECK_STATUS(h, axb_read_csr(h, path, dt, &B), AXB_SUCCESS);
  CHECK(B.nnz == 6, "gz csr nnz");
  axb_csr_destroy(&B);
  axb_csr_destroy(&A);
}

/* A .gz written by zlib directly, and a .gz file that is truncated. */
static void test_gzip(void) {
  char path[512];
  path_in_tmp(path, sizeof path, "sym.mtx.gz");
  const char *s = MMC "real symmetric\n% gz\n3 3 4\n1 1 2\n2 1 -1\n2 2 2\n"
                      "3 3 5\n";
  gz_write_file(path, s, strlen(s));
  const double want[] = {2, -1, 0, -1, 2, 0, 0, 0, 5};
  axb_csr S;
  CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_SUCCESS);
  if (S.rowptr) check_csr_eq("gz csr", &S, 3, 3, 5, want);
  axb_csr_destroy(&S);
  axb_dense D;
  CHECK_STATUS(h, axb_read_dense(h, path, AXB_F32, &D), AXB_SUCCESS);
  if (D.data) check_dense_eq("gz dense", &D, 3, 3, want);
  axb_dense_destroy(&D);
  /* Errors in a .gz name the file and the line. */
  path_in_tmp(path, sizeof path, "bad.mtx.gz");
  const char *bad = MMC "real general\n2 2 2\n1 1 1\n3 1 1\n";
  gz_write_file(path, bad, strlen(bad));
  CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_INVALID);
  char tag[600];
  snprintf(tag, sizeof tag, "%s:4:", path);
  CHECK(strstr(axb_detail(h), tag) != NULL, "detail '%s' lacks '%s'",
        axb_detail(h), tag);
  /* A truncated gzip stream is an I/O error. */
  char big[4096];
  for (size_t k = 0; k < sizeof big; ++k)
    big[k] = (char)('0' + k * 7 % 10);
  path_in_tmp(path, sizeof path, "trunc.mtx.gz");
  gz_write_file(path, big, sizeof big);
  FILE *fp = fopen(path, "rb");
  char raw[8192];
  size_t n = fp ? fread(raw, 1, sizeof raw, fp) : 0;
  if (fp) fclose(fp);
  fp = fopen(path, "wb");
  if (fp) {
    fwrite(raw, 1, n / 2, fp);
    fclose(fp);
  }
  CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_IO);
  /* ... and says so, with the file name (issue 19: "error closing"). */
  CHECK(strstr(axb_detail(h), "truncated") && strstr(axb_detail(h), path),
        "detail: %s", axb_detail(h));
}

static void test_io_errors(void) {
  axb_dense D;
  axb_csr S;
  char path[512];
  path_in_tmp(path, sizeof path, "does-not-exist.mtx");
  CHECK_STATUS(h, axb_read_dense(h, path, AXB_F64, &D), AXB_ERR_IO);
  CHECK(strstr(axb_detail(h), path) && strstr(axb_detail(h), "No such file"),
        "detail: %s", axb_detail(h));
  CHECK_STATUS(h, axb_read_csr(h, tmpdir, AXB_F64, &S), AXB_ERR_IO);
  CHECK(strstr(axb_detail(h), tmpdir) != NULL, "detail: %s", axb_detail(h));
  CHECK_STATUS(h, axb_read_csr(h, NULL, AXB_F64, &S), AXB_ERR_INVALID);
  /* Writers. */
  axb_dense A;
  axb_dense_create(&A, 2, 2, AXB_F64);
  path_in_tmp(path, sizeof path, "no/such/dir/x.mtx");
  CHECK_STATUS(h, axb_write_dense(h, path, &A), AXB_ERR_IO);
  CHECK(strstr(axb_detail(h), path) && strstr(axb_detail(h), "No such file"),
        "detail: %s", axb_detail(h));
  if (access("/dev/full", W_OK) == 0) {
    CHECK_STATUS(h, axb_write_dense(h, "/dev/full", &A), AXB_ERR_IO);
    CHECK(strstr(axb_detail(h), "/dev/full") != NULL, "detail: %s",
          axb_detail(h));
  }
  axb_dense_set(&A, 1, 0, NAN);
  path_in_tmp(path, sizeof path, "nan.mtx");
  CHECK_STATUS(h, axb_write_dense(h, path, &A), AXB_ERR_INVALID);
  axb_dense_destroy(&A);
  axb_csr C;
  axb_csr_create(&C, 2, 2, 1, AXB_F64);
  C.rowptr[1] = 1;
  C.rowptr[2] = 1;
  C.colind[0] = 5;
  CHECK_STATUS(h, axb_write_csr(h, path, &C), AXB_ERR_INVALID);
  C.colind[0] = 1;
  ((double *)C.values)[0] = INFINITY;
  CHECK_STATUS(h, axb_write_csr(h, path, &C), AXB_ERR_INVALID);
  axb_csr_destroy(&C);
  CHECK_STATUS(h, axb_write_csr(h, path, NULL), AXB_ERR_INVALID);
}
