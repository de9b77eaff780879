/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone): valid
   inputs: every field/symmetry combination, header forms, dense arrays,
   plain text, float reads, symmetric expansion and underflow. */

static void test_coordinate(void) {
  const double gen[] = {1, 0, 2, 0, 3, 0, 4, 0, -5.5};
  check_text("coordinate real general",
             MMC "real general\n3 3 5\n3 3 -5.5\n1 1 1\n3 1 4\n2 2 3\n"
                 "1 3 2\n",
             3, 3, 5, gen);
  const double rect[] = {0, 7, 0, 0, 0, 0, 0, 8};
  check_text("coordinate rectangular", MMC "real general\n2 4 2\n1 2 7\n2 4 8",
             2, 4, 2, rect);
  const double sym[] = {4, -1, 0, -1, 4, 2.5, 0, 2.5, 4};
  check_text("coordinate real symmetric",
             MMC "real symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 2.5\n"
                 "3 3 4\n",
             3, 3, 7, sym);
  check_text("coordinate symmetric, upper entry mirrored",
             MMC "real symmetric\n3 3 5\n1 1 4\n1 2 -1\n2 2 4\n2 3 2.5\n"
                 "3 3 4\n",
             3, 3, 7, sym);
  const double skew[] = {0, -2, 3, 2, 0, 0, -3, 0, 0};
  check_text("coordinate real skew-symmetric",
             MMC "real skew-symmetric\n3 3 2\n2 1 2\n1 3 3\n", 3, 3, 4, skew);
  check_text("skew explicit zero diagonal kept",
             MMC "real skew-symmetric\n3 3 3\n2 1 2\n1 3 3\n2 2 0\n", 3, 3, 5,
             skew);
  const double pat[] = {1, 1, 0, 0, 0, 1};
  check_text("coordinate pattern general",
             MMC "pattern general\n2 3 3\n1 1\n2 3\n1 2\n", 2, 3, 3, pat);
  const double psym[] = {1, 1, 1, 0};
  check_text("coordinate pattern symmetric",
             MMC "pattern symmetric\n2 2 2\n1 1\n2 1\n", 2, 2, 3, psym);
  const double pskew[] = {0, -1, 1, 0};
  check_text("coordinate pattern skew-symmetric",
             MMC "pattern skew-symmetric\n2 2 1\n2 1\n", 2, 2, 2, pskew);
  const double igen[] = {-7, 0, 0, 123456789};
  check_text("coordinate integer general",
             MMC "integer general\n2 2 2\n1 1 -7\n2 2 +123456789\n", 2, 2, 2,
             igen);
  const double isym[] = {2, 5, 5, 0};
  check_text("coordinate integer symmetric",
             MMC "integer symmetric\n2 2 2\n1 1 2\n2 1 5\n", 2, 2, 3, isym);
  const double iskew[] = {0, 9, -9, 0};
  check_text("coordinate integer skew-symmetric",
             MMC "integer skew-symmetric\n2 2 1\n1 2 9\n", 2, 2, 2, iskew);
  const double zero[] = {0, 0, 0, 0};
  check_text("coordinate with no entries", MMC "real general\n2 2 0\n", 2, 2, 0,
             zero);
  const double ez[] = {0, 1, 0, 0};
  check_text("explicit zero kept", MMC "real general\n2 2 2\n1 1 0\n1 2 1\n", 2,
             2, 2, ez);
  const double fmt[] = {1000, -0.25, 0.5, 1e-30};
  check_text("number formats",
             MMC "real general\n2 2 4\n1 1 1e3\n1 2 -2.5E-1\n2 1 +.5\n"
                 "2 2 1e-30\n",
             2, 2, 4, fmt);
}

static void test_header_forms(void) {
  const double gen[] = {1, 0, 0, 2};
  check_text("case-insensitive banner",
             "%%matrixmarket MATRIX Coordinate REAL General\n2 2 2\n1 1 1\n"
             "2 2 2\n",
             2, 2, 2, gen);
  check_text("comments and blank lines everywhere",
             MMC "real general\n% a comment\n\n   \n%another\n2 2 2\n\n% mid\n"
                 "1 1 1\n\n2 2 2\n\n% end\n\n",
             2, 2, 2, gen);
  check_text("CRLF, tabs and extra spaces",
             MMC "real  general\r\n\t2   2 2 \r\n 1\t1 1\r\n2 2   2\r\n", 2, 2,
             2, gen);
  check_text("CR-only line ends (issue 19)",
             MMC "real general\r% c\r2 2 2\r1 1 1\r2 2 2\r", 2, 2, 2, gen);
  check_text("no final newline", MMC "real general\n2 2 2\n1 1 1\n2 2 2", 2, 2,
             2, gen);
  check_text("UTF-8 byte-order mark",
             "\xEF\xBB\xBF" MMC "real general\n2 2 2\n1 1 1\n2 2 2\n", 2, 2, 2,
             gen);
  /* A very long comment line is fine. */
  char *s = text_with_run(MMC "real general\n%", 'x', 200000,
                          "\n2 2 2\n1 1 1\n2 2 2\n");
  check_text("200k-character comment", s, 2, 2, 2, gen);
  free(s);
}

static void test_array(void) {
  const double gen[] = {1, 3, 5, 2, 4, 6};
  check_text("array real general", MMA "real general\n2 3\n1\n2\n3\n4\n5\n6\n",
             2, 3, 6, gen);
  check_text("array values several per line",
             MMA "real general\n2 3\n1 2\n3 4\n\n% c\n5 6", 2, 3, 6, gen);
  const double sym[] = {1, 2, 3, 2, 4, 5, 3, 5, 6};
  check_text("array real symmetric (lower, by column)",
             MMA "real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n", 3, 3, 9, sym);
  const double skew[] = {0, -1, -2, 1, 0, -3, 2, 3, 0};
  check_text("array real skew-symmetric (strict lower, by column)",
             MMA "real skew-symmetric\n3 3\n1\n2\n3\n", 3, 3, 6, skew);
  const double igen[] = {1, 0, -2, 7};
  check_text("array integer general (zeros dropped in CSR)",
             MMA "integer general\n2 2\n1\n-2\n0\n7\n", 2, 2, 3, igen);
  const double isym[] = {1, 2, 2, 3};
  check_text("array integer symmetric", MMA "integer symmetric\n2 2\n1\n2\n3\n",
             2, 2, 4, isym);
  const double iskew[] = {0, -5, 5, 0};
  check_text("array integer skew-symmetric",
             MMA "integer skew-symmetric\n2 2\n5\n", 2, 2, 2, iskew);
  const double one[] = {0};
  check_text("array 1x1 skew has no values", MMA "real skew-symmetric\n1 1\n",
             1, 1, 0, one);
}

static void test_plain(void) {
  const double m[] = {1, 2, 3, 4.5, -5, 6e2};
  check_text("plain text", "1 2 3\n4.5 -5 6e2\n", 2, 3, 6, m);
  check_text("plain text, trailing blank lines and no final newline",
             "1 2 3\n4.5\t-5  6e2   \n\n  \n", 2, 3, 6, m);
  check_text("plain text, comments and leading blank line",
             "% header\n\n1 2 3\n% mid\n4.5 -5 6e2", 2, 3, 6, m);
  const double z[] = {0, 1, 0, 0};
  check_text("plain text zeros dropped in CSR", "0 1\n0 0\n", 2, 2, 1, z);
  const double col[] = {1, 2, 3};
  check_text("plain column vector", "1\n2\n3\n", 3, 1, 3, col);
}

static void test_float_reads(void) {
  /* 1e-45 is a float subnormal (nonzero): kept. */
  const char *s = MMC "real general\n1 3 3\n1 1 0.1\n1 2 3.4e38\n1 3 1e-45\n";
  axb_dense A;
  CHECK_STATUS(h, rd_dense(s, AXB_F32, &A), AXB_SUCCESS);
  if (A.data) {
    const float *f = A.data;
    CHECK(f[0] == 0.1f && f[1] == 3.4e38f && f[2] == 1e-45f && f[2] > 0,
          "float values %.9g %.9g %.9g", f[0], f[1], f[2]);
  }
  axb_dense_destroy(&A);
  axb_csr S;
  CHECK_STATUS(h, rd_csr(s, AXB_F32, &S), AXB_SUCCESS);
  if (S.values)
    CHECK(((float *)S.values)[0] == 0.1f, "csr float %.9g",
          ((float *)S.values)[0]);
  axb_csr_destroy(&S);
  /* 1e39 overflows float but not double. */
  const char *big = MMC "real general\n1 1 1\n1 1 1e39\n";
  check_fail_dt("float overflow", big, strlen(big), AXB_ERR_INVALID, 3, 1);
  CHECK_STATUS(h, rd_dense(big, AXB_F64, &A), AXB_SUCCESS);
  axb_dense_destroy(&A);
  /* Just above FLT_MAX but rounding to it is fine; 3.5e38 is not. */
  const char *edge = "3.40282356e38 -3.4028235e38\n";
  CHECK_STATUS(h, rd_dense(edge, AXB_F32, &A), AXB_SUCCESS);
  if (A.data)
    CHECK(((float *)A.data)[0] == FLT_MAX && ((float *)A.data)[1] == -FLT_MAX,
          "FLT_MAX edge");
  axb_dense_destroy(&A);
  check_fail_dt("float overflow edge", "3.5e38\n", 7, AXB_ERR_INVALID, 1, 1);
  const char *pbig = "1 -1e39\n";
  check_fail_dt("plain float overflow", pbig, strlen(pbig), AXB_ERR_INVALID, 1,
                1);
}

/* Symmetric expansion at a size where sorting matters. */
static void test_bigger_symmetric(void) {
  int n = 300;
  size_t cap = 64 + (size_t)n * n * 24;
  char *s = malloc(cap);
  size_t k = (size_t)snprintf(s, cap,
                              "%%%%MatrixMarket matrix coordinate real "
                              "symmetric\n%d %d %d\n",
                              n, n, n * (n + 1) / 2);
  /* Upper triangle given by rows (allowed: mirrored), reverse order. */
  for (int i = n; i >= 1; --i)
    for (int j = n; j >= i; --j)
      k += (size_t)snprintf(s + k, cap - k, "%d %d %d\n", i, j, i * 1000 + j);
  axb_csr S;
  CHECK_STATUS(h, rd_csr(s, AXB_F64, &S), AXB_SUCCESS);
  CHECK(S.nnz == (int64_t)n * n, "nnz %lld", (long long)S.nnz);
  int ok = S.rowptr != NULL;
  for (int64_t i = 0; ok && i < n; ++i)
    for (int64_t q = S.rowptr[i]; q < S.rowptr[i + 1]; ++q) {
      int64_t j = S.colind[q], a = i < j ? i : j, b = i < j ? j : i;
      if (j != q - S.rowptr[i] || csr_val(&S, q) != (a + 1) * 1000 + b + 1)
        ok = 0;
    }
  CHECK(ok, "300x300 symmetric expansion");
  axb_csr_destroy(&S);
  free(s);
}

/* A nonzero value that rounds to 0 in the requested precision is refused
   (it would drop an entry silently); nonzero subnormals and zeros are not. */
static void test_underflow(void) {
  const char *tiny = MMC "real general\n1 1 1\n1 1 1e-50\n";
  check_fail_dt("float underflow", tiny, strlen(tiny), AXB_ERR_INVALID, 3, 1);
  axb_csr S;
  CHECK_STATUS(h, rd_csr(tiny, AXB_F32, &S), AXB_ERR_INVALID);
  CHECK(strcmp(axb_detail(h),
               "inline:3: value 1e-50 underflows to 0 in single precision") ==
            0,
        "detail: %s", axb_detail(h));
  /* Fine in double. */
  axb_dense A;
  CHECK_STATUS(h, rd_dense(tiny, AXB_F64, &A), AXB_SUCCESS);
  if (A.data)
    CHECK(axb_dense_get(&A, 0, 0) == 1e-50, "1e-50 as double: %g",
          axb_dense_get(&A, 0, 0));
  axb_dense_destroy(&A);
  /* Array and plain text, negative values, the float edge: 2^-150 (half the
     smallest subnormal) rounds to 0, 7.1e-46 rounds up to 2^-149. */
  const char *arr = MMA "real general\n2 1\n1\n-1e-46\n";
  check_fail_dt("array float underflow", arr, strlen(arr), AXB_ERR_INVALID, 4,
                1);
  check_fail_dt("plain float underflow", "1 2\n3 7e-46\n", 12, AXB_ERR_INVALID,
                2, 1);
  CHECK(strstr(axb_detail(h), "value 7e-46 underflows to 0 in single") != NULL,
        "detail: %s", axb_detail(h));
  CHECK_STATUS(h, rd_dense("7.1e-46 -2.9e-45\n", AXB_F32, &A), AXB_SUCCESS);
  if (A.data)
    CHECK(((float *)A.data)[0] == 0x1p-149f &&
              ((float *)A.data)[1] == -0x1p-148f,
          "float subnormals %g %g", (double)((float *)A.data)[0],
          (double)((float *)A.data)[1]);
  axb_dense_destroy(&A);
  /* Double underflow: 1e-400 and 2e-324 (below half the smallest double
     subnormal) are 0; 4.9e-324 is the smallest subnormal. */
  const char *dtiny = MMC "real general\n1 2 2\n1 1 4.9e-324\n1 2 1e-400\n";
  check_fail_dt("double underflow", dtiny, strlen(dtiny), AXB_ERR_INVALID, 4,
                2);
  check_fail_dt("double subnormal as float", dtiny, strlen(dtiny),
                AXB_ERR_INVALID, 3, 1);
  CHECK_STATUS(h, rd_csr(dtiny, AXB_F64, &S), AXB_ERR_INVALID);
  CHECK(strstr(axb_detail(h),
               "value 1e-400 underflows to 0 in double precision") != NULL,
        "detail: %s", axb_detail(h));
  check_fail_dt("double underflow edge", "2e-324\n", 7, AXB_ERR_INVALID, 1, 2);
  CHECK_STATUS(h, rd_dense("4.9e-324\n", AXB_F64, &A), AXB_SUCCESS);
  if (A.data) CHECK(axb_dense_get(&A, 0, 0) > 0, "smallest double subnormal");
  axb_dense_destroy(&A);
  /* Zeros in every spelling stay zeros, in both precisions. */
  const double z[] = {0, 0, 0, 0, 0, 0};
  check_text("zeros are not underflow", "0 -0 0.0\n0e-5000 -0.000e+9 0x0p-3\n",
             2, 3, 0, z);
  /* Integer fields cannot underflow. */
  const double one[] = {1};
  check_text("integer field", MMC "integer general\n1 1 1\n1 1 1\n", 1, 1, 1,
             one);
}
