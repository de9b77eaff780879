/* Matrix Market and plain-text I/O: every field/symmetry combination from
   inline buffers, round trips through files (plain and gzip), and every
   malformed-input case with its status and line number. */
#include "testing.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static axb_handle h;
static char tmpdir[256];

/* ---- helpers ------------------------------------------------------------- */

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

/* ---- valid inputs -------------------------------------------------------- */

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
  const double fmt[] = {1000, -0.25, 0.5, 1e-300};
  check_text("number formats",
             MMC "real general\n2 2 4\n1 1 1e3\n1 2 -2.5E-1\n2 1 +.5\n"
                 "2 2 1e-300\n",
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
  check_text("no final newline", MMC "real general\n2 2 2\n1 1 1\n2 2 2", 2, 2,
             2, gen);
  check_text("UTF-8 byte-order mark",
             "\xEF\xBB\xBF" MMC "real general\n2 2 2\n1 1 1\n2 2 2\n", 2, 2, 2,
             gen);
  /* A very long comment line is fine. */
  size_t n = 200000;
  char *s = malloc(n + 200);
  strcpy(s, MMC "real general\n%");
  size_t k = strlen(s);
  memset(s + k, 'x', n);
  strcpy(s + k + n, "\n2 2 2\n1 1 1\n2 2 2\n");
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
  const char *s = MMC "real general\n1 3 3\n1 1 0.1\n1 2 3.4e38\n1 3 1e-50\n";
  axb_dense A;
  CHECK_STATUS(h, rd_dense(s, AXB_F32, &A), AXB_SUCCESS);
  if (A.data) {
    const float *f = A.data;
    CHECK(f[0] == 0.1f && f[1] == 3.4e38f && f[2] == 0.0f,
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

/* ---- malformed inputs ---------------------------------------------------- */

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
  size_t n = 100000;
  char *s = malloc(n + 100);
  strcpy(s, MMC "real general\n1 1 1\n1 1 ");
  size_t k = strlen(s);
  memset(s + k, '1', n);
  strcpy(s + k + n, "\n");
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

/* ---- files --------------------------------------------------------------- */

static void path_in_tmp(char *out, size_t n, const char *name) {
  snprintf(out, n, "%s/%s", tmpdir, name);
}

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

int main(void) {
  h = test_handle(AXB_BACKEND_REF);
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/axb_mmio_XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  test_coordinate();
  test_header_forms();
  test_array();
  test_plain();
  test_float_reads();
  test_bad_header();
  test_bad_entries();
  test_bad_plain();
  test_memory_limits();
  test_arguments();
  test_roundtrip_dense(AXB_F64);
  test_roundtrip_dense(AXB_F32);
  test_roundtrip_csr(AXB_F64);
  test_roundtrip_csr(AXB_F32);
  test_gzip();
  test_io_errors();
  test_bigger_symmetric();
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  axb_handle_destroy(h);
  return test_finish("test_mmio");
}
