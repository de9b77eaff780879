/* Matrix Market and plain-text I/O: every field/symmetry combination from
   inline buffers, round trips through files (plain and gzip), and every
   malformed-input case with its status and line number. */
#include "testing.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* ---- underflow ----------------------------------------------------------- */

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

/* ---- CSR validation (writer and axb_csr_to_dense share it) --------------- */

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

/* ---- memory budget ------------------------------------------------------- */

/* Peak resident set of this process, bytes. */
static double peak_rss(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss * 1024.0;
}

/* MemAvailable in bytes, or -1. */
static double mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
  fclose(f);
  return kb < 0 ? -1 : (double)kb * 1024.0;
}

static void write_text(const char *path, const char *s, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL, "cannot write %s", path);
  if (!f) return;
  CHECK(fwrite(s, 1, n, f) == n, "write %s", path);
  fclose(f);
}

static void check_oom_budget(const char *what, axb_status st) {
  CHECK(st == AXB_ERR_OUT_OF_MEMORY, "%s: status %d (%s); detail: %s", what, st,
        axb_strerror(st), axb_detail(h));
  CHECK(strstr(axb_detail(h), "memory budget") != NULL,
        "%s: detail '%s' does not name the memory budget", what, axb_detail(h));
}

/* Run first: the peak-RSS checks measure from a small process. */
static void test_memory_budget(void) {
  axb_csr S;
  axb_dense D;
  char path[512];
  /* 1. The reviewer's 60-byte file: 10^8 empty rows read as CSR.  The row
     pointers are the result itself (0.8 GB, lazily zeroed); the read must
     not need them twice (it held 1.57 GB) nor anything else of that size.
     On a machine whose budget cannot hold them: OUT_OF_MEMORY. */
  static const char big_rows[] = MMC "real general\n100000000 1 0\n";
  path_in_tmp(path, sizeof path, "rows_1e8.mtx");
  write_text(path, big_rows, sizeof big_rows - 1);
  double rss0 = peak_rss();
  axb_status st = axb_read_csr(h, path, AXB_F64, &S);
  double grew = peak_rss() - rss0;
  if (st == AXB_SUCCESS) {
    CHECK(S.rows == 100000000 && S.cols == 1 && S.nnz == 0 &&
              S.rowptr[0] == 0 && S.rowptr[54321] == 0 && S.rowptr[S.rows] == 0,
          "1e8-row CSR");
    CHECK(grew < 1.2e9, "1e8-row CSR: peak RSS grew by %.3g GB (need 0.8)",
          grew / 1e9);
  } else {
    check_oom_budget("1e8-row CSR", st);
  }
  axb_csr_destroy(&S);
  /* 2. Sizes no memory holds fail before any allocation. */
  rss0 = peak_rss();
  const char *huge = MMC "real general\n2305843009213693952 1 0\n"; /* 2^61 */
  check_oom_budget("2^61 rows CSR", rd_csr(huge, AXB_F64, &S));
  CHECK(strstr(axb_detail(h), "inline:2:") == axb_detail(h), "detail: %s",
        axb_detail(h));
  check_oom_budget("2^61 rows dense", rd_dense(huge, AXB_F32, &D));
  const char *huge_arr = MMA "real general\n2305843009213693952 1\n1\n";
  check_oom_budget("2^61 rows array CSR", rd_csr(huge_arr, AXB_F64, &S));
  check_oom_budget(
      "INT64_MAX rows CSR",
      rd_csr(MMC "real general\n9223372036854775807 1 0\n", AXB_F64, &S));
  /* Row pointers of twice the available memory (the old per-allocation
     cap let two such arrays through and got the process killed). */
  double avail = mem_available();
  if (avail > 0) {
    char text[160];
    snprintf(text, sizeof text, "%s%.0f 1 0\n", MMC "real general\n",
             avail / 4);
    check_oom_budget("rows = 2 x MemAvailable / 8", rd_csr(text, AXB_F64, &S));
    check_oom_budget("rows = 2 x MemAvailable / 8 (dense)",
                     rd_dense(text, AXB_F64, &D));
  }
  CHECK(peak_rss() - rss0 < 64e6, "refused reads grew the peak RSS by %.3g MB",
        (peak_rss() - rss0) / 1e6);

  /* The environment lowers the budget: 256 MiB.  Reads expected to fit in
     it are judged only where memory is not scarce anyway. */
  int roomy = avail < 0 || avail > 1e9;
  setenv("AXB_MMIO_MAX_BYTES", "268435456", 1);
  /* 3. Cumulative: 2e7 x 1 dense (160 MB) plus its 2e7 row offsets
     (160 MB) each fit in 256 MiB, together they do not. */
  const char *two = MMC "real general\n20000000 1 1\n1 1 1\n";
  check_oom_budget("dense + row offsets", rd_dense(two, AXB_F64, &D));
  CHECK(strstr(axb_detail(h), "dense 20000000 x 1 double needs") != NULL,
        "detail: %s", axb_detail(h));
  st = rd_csr(two, AXB_F64, &S); /* 160 MB: fits */
  if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_csr_destroy(&S);
  /* An array file read as CSR: values + double scratch + row pointers. */
  const char *arr = MMA "real general\n12000000 1\n";
  check_oom_budget("array as CSR", rd_csr(arr, AXB_F64, &S));

  /* 4. Cumulative while parsing: 200000 entries in 8 MiB.  The header's
     row pointers (1.6 MB) fit; entries (6.4 MB), row buckets (4.8 MB) and
     the result (4.8 MB) do not all fit, so the read fails part way. */
  int64_t n = 200000;
  size_t cap = (size_t)n * 24 + 128, len = 0;
  char *text = malloc(cap);
  CHECK(text != NULL, "malloc");
  if (text) {
    len += (size_t)snprintf(text, cap, "%s%lld 1 %lld\n", MMC "real general\n",
                            (long long)n, (long long)n);
    for (int64_t i = n; i >= 1; --i)
      len += (size_t)snprintf(text + len, cap - len, "%lld 1 %lld\n",
                              (long long)i, (long long)i);
    setenv("AXB_MMIO_MAX_BYTES", "8388608", 1);
    check_oom_budget("200000 entries in 8 MiB",
                     axb_read_csr_mem(h, "inline", text, len, AXB_F64, &S));
    setenv("AXB_MMIO_MAX_BYTES", "67108864", 1);
    st = axb_read_csr_mem(h, "inline", text, len, AXB_F64, &S);
    if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st == AXB_SUCCESS)
      CHECK(S.nnz == n && S.rowptr[n] == n && S.colind[n - 1] == 0 &&
                ((double *)S.values)[n - 1] == (double)n,
            "200000 entries");
    axb_csr_destroy(&S);
    /* 5. A file larger than the budget is refused unread; a gzip stream
       is refused once its decompressed size passes it. */
    setenv("AXB_MMIO_MAX_BYTES", "1048576", 1);
    path_in_tmp(path, sizeof path, "entries.mtx");
    write_text(path, text, len); /* ~2.6 MB */
    CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_OUT_OF_MEMORY);
    CHECK(strstr(axb_detail(h), "input larger than the memory budget of "
                                "0.000977 GiB") != NULL,
          "detail: %s", axb_detail(h));
    path_in_tmp(path, sizeof path, "entries.mtx.gz");
    gz_write_file(path, text, len);
    CHECK_STATUS(h, axb_read_dense(h, path, AXB_F64, &D),
                 AXB_ERR_OUT_OF_MEMORY);
    CHECK(strstr(axb_detail(h), "input larger than the memory budget") != NULL,
          "detail: %s", axb_detail(h));
    free(text);
  }
  /* 6. /dev/zero never ends: refused after its first 64 KiB as binary
     data (issue 19: it was read up to the budget). */
  setenv("AXB_MMIO_MAX_BYTES", "16777216", 1);
  if (access("/dev/zero", R_OK) == 0) {
    CHECK_STATUS(h, axb_read_csr(h, "/dev/zero", AXB_F64, &S), AXB_ERR_PARSE);
    CHECK(strstr(axb_detail(h), "/dev/zero: binary data") != NULL, "detail: %s",
          axb_detail(h));
  }
  unsetenv("AXB_MMIO_MAX_BYTES");
  /* 7. Text that goes on far past what its header announces (an endless
     stream of comments) is refused at a bound set by the header. */
  {
    size_t big = (size_t)20 << 20;
    char *text = malloc(big);
    if (text) {
      const char *head = "%%MatrixMarket matrix coordinate real general\n"
                         "3 3 1\n1 1 1.0\n";
      size_t hl = strlen(head);
      memcpy(text, head, hl);
      for (size_t i = hl; i < big; i += 10)
        memcpy(text + i, i + 10 <= big ? "% comment\n" : "\n\n\n\n\n\n\n\n\n\n",
               i + 10 <= big ? 10 : big - i);
      path_in_tmp(path, sizeof path, "endless.mtx");
      write_text(path, text, big);
      CHECK_STATUS(h, axb_read_csr(h, path, AXB_F64, &S), AXB_ERR_PARSE);
      CHECK(strstr(axb_detail(h), "goes on past") != NULL, "detail: %s",
            axb_detail(h));
      remove(path);
      free(text);
    }
  }
  /* A budget the environment cannot raise, nor garble. */
  setenv("AXB_MMIO_MAX_BYTES", "not a number", 1);
  st = rd_csr(two, AXB_F64, &S);
  if (roomy) CHECK_STATUS(h, st, AXB_SUCCESS);
  axb_csr_destroy(&S);
  unsetenv("AXB_MMIO_MAX_BYTES");
}

/* Every group, or only those named on the command line. */
int main(int argc, char **argv) {
  h = test_handle(AXB_BACKEND_REF);
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/axb_mmio_XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
#define RUN(name, call)                                                        \
  do {                                                                         \
    int run_ = argc < 2;                                                       \
    for (int a_ = 1; a_ < argc; ++a_)                                          \
      run_ |= strcmp(argv[a_], name) == 0;                                     \
    if (run_) call;                                                            \
  } while (0)
  RUN("memory_budget", test_memory_budget()); /* first: measures peak RSS */
  RUN("coordinate", test_coordinate());
  RUN("header_forms", test_header_forms());
  RUN("array", test_array());
  RUN("plain", test_plain());
  RUN("float_reads", test_float_reads());
  RUN("underflow", test_underflow());
  RUN("bad_header", test_bad_header());
  RUN("bad_entries", test_bad_entries());
  RUN("bad_plain", test_bad_plain());
  RUN("memory_limits", test_memory_limits());
  RUN("arguments", test_arguments());
  RUN("roundtrip",
      (test_roundtrip_dense(AXB_F64), test_roundtrip_dense(AXB_F32),
       test_roundtrip_csr(AXB_F64), test_roundtrip_csr(AXB_F32)));
  RUN("gzip", test_gzip());
  RUN("io_errors", test_io_errors());
  RUN("csr_validation", test_csr_validation());
  RUN("csr_create_limits", test_csr_create_limits());
  RUN("bigger_symmetric", test_bigger_symmetric());
#undef RUN
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  axb_handle_destroy(h);
  return test_finish("test_mmio");
}
