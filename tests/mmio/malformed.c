/* Part of test_mmio (tests/test_mmio.c includes it; not compiled alone):
   malformed inputs: each with its status and the line number in the detail,
   memory limits on the declared sizes, and illegal arguments. */

static void test_bad_header(void) {
  check_fail("banner without symmetry", MMC "real\n2 2 0\n", AXB_ERR_PARSE, 1);
  check_fail("banner without anything", "%%MatrixMarket\n2 2 0\n",
             AXB_ERR_PARSE, 1);
  check_fail("banner with extra word", MMC "real general extra\n2 2 0\n",
             AXB_ERR_PARSE, 1);
  check_fail("banner glued", "%%MatrixMarketmatrix coordinate real general\n",
             AXB_ERR_PARSE, 1);
  check_fail("unknown object",
             "%%MatrixMarket matrx coordinate real general\n2 2 0\n",
             AXB_ERR_PARSE, 1);
  check_fail("unknown format",
             "%%MatrixMarket matrix sparse real general\n2 2 0\n",
             AXB_ERR_PARSE, 1);
  check_fail("unknown field", MMC "float general\n2 2 0\n", AXB_ERR_PARSE, 1);
  check_fail("unknown symmetry", MMC "real symmetrical\n2 2 0\n", AXB_ERR_PARSE,
             1);
  check_fail("array pattern", MMA "pattern general\n2 2\n", AXB_ERR_PARSE, 1);
  check_fail("complex", MMC "complex general\n1 1 1\n1 1 1 0\n",
             AXB_ERR_NOT_SUPPORTED, 1);
  check_fail("hermitian", MMC "real hermitian\n1 1 1\n1 1 1\n",
             AXB_ERR_NOT_SUPPORTED, 1);
  check_fail("complex hermitian array", MMA "complex hermitian\n1 1\n1 0\n",
             AXB_ERR_NOT_SUPPORTED, 1);
  check_fail("vector object", "%%MatrixMarket vector coordinate real general\n",
             AXB_ERR_NOT_SUPPORTED, 1);
  check_fail("banner not on line 1", "% c\n" MMC "real general\n1 1 0\n",
             AXB_ERR_PARSE, 2);
  check_fail("missing size line", MMC "real general\n% only comments\n\n",
             AXB_ERR_PARSE, 3);
  check_fail("size line short", MMC "real general\n2 2\n", AXB_ERR_PARSE, 2);
  check_fail("size line long", MMC "real general\n2 2 1 1\n1 1 1\n",
             AXB_ERR_PARSE, 2);
  check_fail("array size line long", MMA "real general\n1 1 1\n1\n",
             AXB_ERR_PARSE, 2);
  check_fail("size line not numbers", MMC "real general\n% c\nn m k\n",
             AXB_ERR_PARSE, 3);
  check_fail("size line fraction", MMC "real general\n2.0 2 1\n1 1 1\n",
             AXB_ERR_PARSE, 2);
  check_fail("negative size", MMC "real general\n-2 2 1\n1 1 1\n",
             AXB_ERR_PARSE, 2);
  check_fail("negative count", MMC "real general\n2 2 -1\n", AXB_ERR_PARSE, 2);
  check_fail("zero rows", MMC "real general\n0 2 0\n", AXB_ERR_INVALID, 2);
  check_fail("zero cols array", MMA "real general\n2 0\n", AXB_ERR_INVALID, 2);
  check_fail("size out of int64",
             MMC "real general\n99999999999999999999 1 1\n", AXB_ERR_INVALID,
             2);
  check_fail("size product overflows",
             MMC "real general\n4000000000 4000000000 1\n1 1 1\n",
             AXB_ERR_INVALID, 2);
  check_fail("more entries than places", MMC "real general\n2 2 5\n",
             AXB_ERR_INVALID, 2);
  check_fail("more entries than a symmetric matrix has",
             MMC "real symmetric\n2 2 4\n", AXB_ERR_INVALID, 2);
  check_fail("symmetric not square", MMC "real symmetric\n2 3 1\n1 1 1\n",
             AXB_ERR_PARSE, 2);
  check_fail("skew array not square", MMA "real skew-symmetric\n3 2\n1\n",
             AXB_ERR_PARSE, 2);
}

static void test_bad_entries(void) {
  check_fail("truncated", MMC "real general\n3 3 3\n1 1 1\n2 2 2\n",
             AXB_ERR_PARSE, 4);
  check_fail("truncated, trailing comments",
             MMC "real general\n3 3 3\n1 1 1\n2 2 2\n% c\n\n", AXB_ERR_PARSE,
             6);
  check_fail("truncated mid-entry", MMC "real general\n3 3 2\n1 1 1\n2 2",
             AXB_ERR_PARSE, 4);
  check_fail("extra entries", MMC "real general\n3 3 1\n1 1 1\n2 2 2\n",
             AXB_ERR_PARSE, 4);
  check_fail("extra token", MMC "real general\n3 3 1\n1 1 1 1\n", AXB_ERR_PARSE,
             3);
  check_fail("pattern with value", MMC "pattern general\n3 3 1\n1 1 1\n",
             AXB_ERR_PARSE, 3);
  check_fail("missing value", MMC "real general\n3 3 2\n1 1 1\n2 2\n",
             AXB_ERR_PARSE, 4);
  check_fail("row 0", MMC "real general\n3 3 2\n1 1 1\n0 2 1\n",
             AXB_ERR_INVALID, 4);
  check_fail("row too large", MMC "real general\n3 3 1\n4 1 1\n",
             AXB_ERR_INVALID, 3);
  check_fail("column too large", MMC "real general\n3 4 1\n1 5 1\n",
             AXB_ERR_INVALID, 3);
  check_fail("negative column", MMC "real general\n3 3 1\n1 -1 1\n",
             AXB_ERR_INVALID, 3);
  check_fail("index out of int64",
             MMC "real general\n3 3 1\n1 99999999999999999999 1\n",
             AXB_ERR_INVALID, 3);
  check_fail("fractional index", MMC "real general\n3 3 1\n1.5 1 1\n",
             AXB_ERR_PARSE, 3);
  check_fail("duplicate entry",
             MMC "real general\n3 3 3\n1 1 1\n2 1 2\n% c\n1 1 3\n",
             AXB_ERR_INVALID, 6);
  check_fail("duplicate by symmetric expansion",
             MMC "real symmetric\n3 3 3\n1 1 1\n2 1 2\n1 2 2\n",
             AXB_ERR_INVALID, 5);
  check_fail("duplicate by skew expansion",
             MMC "real skew-symmetric\n3 3 2\n3 1 2\n1 3 -2\n", AXB_ERR_INVALID,
             4);
  check_fail("duplicate diagonal in symmetric",
             MMC "real symmetric\n3 3 2\n2 2 1\n2 2 1\n", AXB_ERR_INVALID, 4);
  check_fail("skew nonzero diagonal",
             MMC "real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n", AXB_ERR_INVALID,
             4);
  check_fail("pattern skew diagonal",
             MMC "pattern skew-symmetric\n3 3 1\n2 2\n", AXB_ERR_INVALID, 3);
  check_fail("non-numeric value", MMC "real general\n3 3 1\n1 1 abc\n",
             AXB_ERR_PARSE, 3);
  check_fail("number with junk", MMC "real general\n3 3 1\n1 1 1.5x\n",
             AXB_ERR_PARSE, 3);
  check_fail("two dots", MMC "real general\n3 3 1\n1 1 1..5\n", AXB_ERR_PARSE,
             3);
  check_fail("integer field with fraction",
             MMC "integer general\n3 3 1\n1 1 2.5\n", AXB_ERR_PARSE, 3);
  check_fail("integer value out of range",
             MMC "integer general\n3 3 1\n1 1 99999999999999999999\n",
             AXB_ERR_INVALID, 3);
  check_fail("NaN", MMC "real general\n3 3 2\n1 1 1\n2 2 nan\n",
             AXB_ERR_INVALID, 4);
  check_fail("Inf", MMC "real general\n3 3 1\n\n1 1 -Inf\n", AXB_ERR_INVALID,
             4);
  check_fail("overflow to Inf", MMC "real general\n3 3 1\n1 1 1e999\n",
             AXB_ERR_INVALID, 3);
  check_fail("array truncated", MMA "real general\n2 2\n1\n2\n3\n",
             AXB_ERR_PARSE, 5);
  check_fail("array extra value", MMA "real general\n2 2\n1\n2\n3\n4\n5\n",
             AXB_ERR_PARSE, 7);
  check_fail("array extra value on a line", MMA "real general\n1 2\n1 2 3\n",
             AXB_ERR_PARSE, 3);
  check_fail("array symmetric too many",
             MMA "real symmetric\n2 2\n1\n2\n3\n4\n", AXB_ERR_PARSE, 6);
  check_fail("array NaN", MMA "real general\n1 2\n1\nNaN\n", AXB_ERR_INVALID,
             4);
  check_fail("array bad token", MMA "real general\n1 2\n1\n--2\n",
             AXB_ERR_PARSE, 4);
  /* Long token: no fixed buffer overflows, a clean parse error. */
  char *s = text_with_run(MMC "real general\n1 1 1\n1 1 ", '1', 100000, "\n");
  check_fail("100k-digit number", s, AXB_ERR_PARSE, 3);
  free(s);
  /* A lying header: a billion entries announced, one given. */
  check_fail("lying entry count", MMC "real general\n50000 2 100000\n1 1 1\n",
             AXB_ERR_PARSE, 3);
  check_fail("lying array size", MMA "real general\n10000 10000\n1\n2\n",
             AXB_ERR_PARSE, 4);
}

static void test_bad_plain(void) {
  check_fail("empty buffer", "", AXB_ERR_INVALID, 1);
  check_fail("only blank lines", "\n  \n\n", AXB_ERR_INVALID, 3);
  check_fail("only comments", "% a\n% b\n", AXB_ERR_INVALID, 2);
  check_fail("ragged rows", "1 2 3\n4 5\n", AXB_ERR_PARSE, 2);
  check_fail("ragged later row", "1 2\n3 4\n% c\n5 6 7\n", AXB_ERR_PARSE, 4);
  check_fail("blank line inside", "1 2\n\n3 4\n", AXB_ERR_PARSE, 3);
  check_fail("non-numeric", "1 2\n3 x\n", AXB_ERR_PARSE, 2);
  check_fail("plain NaN", "1 2\n3 NAN\n", AXB_ERR_INVALID, 2);
  check_fail("plain Inf", "inf\n", AXB_ERR_INVALID, 1);
  check_fail("comma separated", "1,2\n3,4\n", AXB_ERR_PARSE, 1);
  check_fail("banner after a line", "\n" MMC "real general\n1 1 0\n",
             AXB_ERR_PARSE, 2);
  static const char nul[] = "1 2\n3 4\0 5\n";
  check_fail_dt("embedded NUL", nul, sizeof nul - 1, AXB_ERR_PARSE, 2, 3);
  static const char nul2[] = MMC "real general\n1 1 1\n1 1 1\0\n";
  check_fail_dt("embedded NUL in entry", nul2, sizeof nul2 - 1, AXB_ERR_PARSE,
                3, 3);
}

static void test_memory_limits(void) {
  /* A coordinate matrix whose dense form cannot exist. */
  const char *s = MMC "real general\n1000000 100000000 1\n1 1 1\n";
  axb_dense A;
  axb_status st = rd_dense(s, AXB_F64, &A);
  CHECK_STATUS(h, st, AXB_ERR_OUT_OF_MEMORY);
  CHECK(strstr(axb_detail(h), "inline:2:") &&
            strstr(axb_detail(h), "dense 1000000 x 100000000 double needs"),
        "detail: %s", axb_detail(h));
  st = rd_dense(s, AXB_F32, &A);
  CHECK(strstr(axb_detail(h), "float needs") != NULL, "detail: %s",
        axb_detail(h));
  axb_csr S;
  st = rd_csr(s, AXB_F64, &S);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(S.nnz == 1 && S.rows == 1000000, "huge sparse csr");
  axb_csr_destroy(&S);
  /* Row pointers that cannot exist. */
  st = rd_csr(MMC "real general\n4000000000000000000 2 0\n", AXB_F64, &S);
  CHECK_STATUS(h, st, AXB_ERR_OUT_OF_MEMORY);
  CHECK(strstr(axb_detail(h), "inline:2:") != NULL, "detail: %s",
        axb_detail(h));
  st = rd_dense(MMA "real general\n100000000 100000000\n1\n", AXB_F64, &A);
  CHECK_STATUS(h, st, AXB_ERR_OUT_OF_MEMORY);
}

static void test_arguments(void) {
  axb_dense A;
  axb_csr S;
  const char *s = MMC "real general\n1 1 1\n1 1 1\n";
  CHECK_STATUS(h, axb_read_dense_mem(h, "x", s, strlen(s), (axb_dtype)7, &A),
               AXB_ERR_INVALID);
  CHECK_STATUS(h, axb_read_csr_mem(h, "x", NULL, 5, AXB_F64, &S),
               AXB_ERR_INVALID);
  CHECK_STATUS(h, axb_read_csr_mem(h, "x", s, strlen(s), AXB_F64, NULL),
               AXB_ERR_INVALID);
  /* NULL handle and NULL name are fine. */
  CHECK(axb_read_dense_mem(NULL, NULL, s, strlen(s), AXB_F64, &A) ==
            AXB_SUCCESS,
        "NULL handle");
  axb_dense_destroy(&A);
  CHECK(axb_read_csr_mem(NULL, NULL, "x", 1, AXB_F64, &S) == AXB_ERR_PARSE,
        "NULL handle, failure");
  /* The detail is cleared by a success. */
  CHECK(rd_csr("x", AXB_F64, &S) == AXB_ERR_PARSE, "fails");
  CHECK(rd_csr(s, AXB_F64, &S) == AXB_SUCCESS && axb_detail(h)[0] == '\0',
        "detail after success: '%s'", axb_detail(h));
  axb_csr_destroy(&S);
}
