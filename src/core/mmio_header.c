/* Matrix Market I/O: the %%MatrixMarket banner and the size line. */
#include "core/mmio.h"

#include <string.h>

const char *mm_symmetry_name(mm_symmetry s) {
  return s == MM_SYMMETRIC ? "symmetric"
         : s == MM_SKEW    ? "skew-symmetric"
                           : "general";
}

/* 1 when the token starts with "%%MatrixMarket" (any case). */
static int looks_like_banner(const char *tb, size_t tn) {
  static const char word[] = "%%MatrixMarket";
  size_t n = sizeof word - 1;
  return tn >= n && mm_token_is(tb, n, word);
}

typedef struct {
  const char *tb;
  size_t tn;
} token;

/* Index of the word (any case) that token t is among words[0 .. count);
   none: -1 and *st := AXB_ERR_PARSE naming the banner's `what` and the
   words wanted. */
static int banner_word(const mm_lex *L, const token *t,
                       const char *const *words, int count, const char *what,
                       const char *want, axb_status *st) {
  for (int i = 0; i < count; ++i)
    if (mm_token_is(t->tb, t->tn, words[i])) return i;
  char show[48];
  *st = mm_fail(L, AXB_ERR_PARSE, "malformed banner: unknown %s '%s' (want %s)",
                what, mm_show(t->tb, t->tn, show), want);
  return -1;
}

/* "matrix FORMAT FIELD SYMMETRY" after the %%MatrixMarket word. */
static axb_status parse_banner(mm_lex *L, mm_header *H) {
  token t[4];
  char show[48];
  int n = 0;
  const char *tb;
  size_t tn;
  while (mm_token(L, &tb, &tn)) {
    if (n == 4)
      return mm_fail(L, AXB_ERR_PARSE,
                     "malformed banner: unexpected '%s' after the symmetry",
                     mm_show(tb, tn, show));
    t[n].tb = tb;
    t[n++].tn = tn;
  }
  if (n < 4)
    return mm_fail(L, AXB_ERR_PARSE,
                   "malformed banner: want '%%%%MatrixMarket matrix FORMAT "
                   "FIELD SYMMETRY'");
  if (mm_token_is(t[0].tb, t[0].tn, "vector"))
    return mm_fail(L, AXB_ERR_NOT_SUPPORTED,
                   "Matrix Market vector objects are not supported");
  if (!mm_token_is(t[0].tb, t[0].tn, "matrix"))
    return mm_fail(L, AXB_ERR_PARSE, "malformed banner: unknown object '%s'",
                   mm_show(t[0].tb, t[0].tn, show));

  static const char *const formats[] = {"coordinate", "array"};
  static const char *const fields[] = {"real", "integer", "pattern", "complex"};
  static const char *const symmetries[] = {"general", "symmetric",
                                           "skew-symmetric", "hermitian"};
  axb_status st = AXB_SUCCESS;
  int format =
      banner_word(L, &t[1], formats, 2, "format", "coordinate or array", &st);
  if (format < 0) return st;
  H->format = format == 0 ? MM_COORDINATE : MM_ARRAY;
  int field = banner_word(L, &t[2], fields, 4, "field",
                          "real, integer, pattern or complex", &st);
  if (field < 0) return st;
  int complex = field == 3;
  if (!complex) H->field = (mm_field)field; /* the order of mm_field */
  int symmetry =
      banner_word(L, &t[3], symmetries, 4, "symmetry",
                  "general, symmetric, skew-symmetric or hermitian", &st);
  if (symmetry < 0) return st;
  int hermitian = symmetry == 3;
  if (!hermitian) H->symmetry = (mm_symmetry)symmetry; /* mm_symmetry's order */

  if (complex)
    return mm_fail(L, AXB_ERR_NOT_SUPPORTED,
                   "complex matrices are not supported (real, integer and "
                   "pattern only)");
  if (hermitian)
    return mm_fail(L, AXB_ERR_NOT_SUPPORTED,
                   "hermitian symmetry is not supported (complex values)");
  if (H->format == MM_ARRAY && H->field == MM_PATTERN)
    return mm_fail(L, AXB_ERR_PARSE,
                   "malformed banner: 'array pattern' is not a Matrix Market "
                   "type (pattern needs coordinate)");
  return AXB_SUCCESS;
}

/* n (n + 1) / 2 without overflow when n * n fits in int64. */
static int64_t half_square(int64_t n) {
  return n % 2 == 0 ? (n / 2) * (n + 1) : ((n + 1) / 2) * n;
}

static axb_status parse_size_line(mm_lex *L, mm_header *H) {
  if (!mm_next_data_line(L))
    return mm_fail(L, AXB_ERR_PARSE, "missing size line after the banner");
  H->size_line = L->line;
  int want = H->format == MM_COORDINATE ? 3 : 2, n = 0;
  int64_t v[3] = {0, 0, 0};
  const char *tb;
  size_t tn;
  char show[48];
  while (mm_token(L, &tb, &tn)) {
    if (n == want)
      return mm_fail(L, AXB_ERR_PARSE, "size line: unexpected '%s' (want %s)",
                     mm_show(tb, tn, show),
                     want == 3 ? "ROWS COLS ENTRIES" : "ROWS COLS");
    axb_status st = mm_parse_int(L, tb, tn, "size", &v[n++]);
    if (st != AXB_SUCCESS) return st;
  }
  if (n < want)
    return mm_fail(L, AXB_ERR_PARSE, "size line: want %s",
                   want == 3 ? "ROWS COLS ENTRIES" : "ROWS COLS");
  for (int k = 0; k < n; ++k)
    if (v[k] < 0)
      return mm_fail(L, AXB_ERR_PARSE, "size line: negative size %" PRId64,
                     v[k]);
  H->rows = v[0];
  H->cols = v[1];
  if (H->rows == 0 || H->cols == 0)
    return mm_fail(L, AXB_ERR_INVALID,
                   "empty matrix (%" PRId64 " x %" PRId64 ")", H->rows,
                   H->cols);
  if (H->rows > INT64_MAX / H->cols)
    return mm_fail(L, AXB_ERR_INVALID,
                   "absurd size %" PRId64 " x %" PRId64
                   " (the element count overflows int64)",
                   H->rows, H->cols);
  if (H->symmetry != MM_GENERAL && H->rows != H->cols)
    return mm_fail(L, AXB_ERR_PARSE,
                   "a %s matrix must be square, not %" PRId64 " x %" PRId64,
                   mm_symmetry_name(H->symmetry), H->rows, H->cols);
  int64_t n_ = H->rows;
  if (H->format == MM_COORDINATE) {
    int64_t places =
        H->symmetry == MM_GENERAL ? H->rows * H->cols : half_square(n_);
    H->count = v[2];
    if (H->count > places)
      return mm_fail(L, AXB_ERR_INVALID,
                     "%" PRId64 " entries cannot fit in a %s %" PRId64
                     " x %" PRId64 " matrix (at most %" PRId64 ")",
                     H->count, mm_symmetry_name(H->symmetry), H->rows, H->cols,
                     places);
  } else {
    H->count = H->symmetry == MM_GENERAL     ? H->rows * H->cols
               : H->symmetry == MM_SYMMETRIC ? half_square(n_)
                                             : half_square(n_) - n_;
  }
  return AXB_SUCCESS;
}

axb_status mm_read_header(mm_lex *L, mm_header *H) {
  memset(H, 0, sizeof *H);
  H->format = MM_PLAIN;
  /* A UTF-8 byte-order mark is not part of the text. */
  if (mm_remaining(L) >= 3 && memcmp(L->p, "\xEF\xBB\xBF", 3) == 0) L->p += 3;
  mm_lex start = *L;
  if (!mm_next_line(L)) {
    *L = start;
    return AXB_SUCCESS;
  }
  const char *tb;
  size_t tn;
  if (!mm_token(L, &tb, &tn) || !looks_like_banner(tb, tn) || L->lb != tb) {
    /* No banner on the first line: plain text (from the beginning). */
    *L = start;
    return AXB_SUCCESS;
  }
  if (!mm_token_is(tb, tn, "%%MatrixMarket")) {
    char show[48];
    return mm_fail(L, AXB_ERR_PARSE, "malformed banner '%s'",
                   mm_show(tb, tn, show));
  }
  axb_status st = parse_banner(L, H);
  if (st != AXB_SUCCESS) return st;
  return parse_size_line(L, H);
}
