/* Matrix Market I/O: line/token cursor, number parsing, error messages,
   the memory budget and the C-locale guard. */
#include "core/mmio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- cursor -------------------------------------------------------------- */

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void mm_lex_init(mm_lex *L, axb_handle h, const char *name, const char *buf,
                 size_t len, mm_budget *budget) {
  L->h = h;
  L->budget = budget;
  L->name = name ? name : "<memory>";
  L->p = buf ? buf : "";
  L->end = L->p + (buf ? len : 0);
  L->line = 0;
  L->lb = L->le = L->tp = L->p;
}

int mm_next_line(mm_lex *L) {
  if (L->p >= L->end) {
    L->lb = L->le = L->tp = L->end;
    return 0;
  }
  const char *nl = memchr(L->p, '\n', (size_t)(L->end - L->p));
  /* A lone CR also ends a line (old Mac files; issue 19): the first CR
     before the LF that is not the CR of a CRLF.  A CRLF's CR stays in the
     line, where it is blank. */
  const char *stop = nl ? nl : L->end;
  const char *cr = memchr(L->p, '\r', (size_t)(stop - L->p));
  if (cr && cr + 1 != nl) nl = cr;
  L->lb = L->tp = L->p;
  L->le = nl ? nl : L->end;
  L->p = nl ? nl + 1 : L->end;
  ++L->line;
  return 1;
}

static const char *first_nonblank(const mm_lex *L) {
  const char *s = L->lb;
  while (s < L->le && is_blank(*s))
    ++s;
  return s;
}

int mm_line_blank(const mm_lex *L) { return first_nonblank(L) == L->le; }

int mm_line_comment(const mm_lex *L) {
  const char *s = first_nonblank(L);
  return s < L->le && *s == '%';
}

int mm_next_data_line(mm_lex *L) {
  while (mm_next_line(L))
    if (!mm_line_blank(L) && !mm_line_comment(L)) return 1;
  return 0;
}

int mm_token(mm_lex *L, const char **tb, size_t *tn) {
  const char *s = L->tp;
  while (s < L->le && is_blank(*s))
    ++s;
  if (s == L->le) {
    L->tp = s;
    return 0;
  }
  const char *b = s;
  while (s < L->le && !is_blank(*s))
    ++s;
  *tb = b;
  *tn = (size_t)(s - b);
  L->tp = s;
  return 1;
}

size_t mm_remaining(const mm_lex *L) { return (size_t)(L->end - L->p); }

int mm_token_is(const char *tb, size_t tn, const char *word) {
  size_t n = strlen(word);
  if (tn != n) return 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char a = (unsigned char)tb[i], b = (unsigned char)word[i];
    if (a >= 'A' && a <= 'Z') a = (unsigned char)(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = (unsigned char)(b - 'A' + 'a');
    if (a != b) return 0;
  }
  return 1;
}

const char *mm_show(const char *tb, size_t tn, char out[48]) {
  size_t n = tn > 32 ? 32 : tn, k = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)tb[i];
    out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (tn > n) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k] = '\0';
  return out;
}

/* ---- errors -------------------------------------------------------------- */

static axb_status fail_v(const mm_lex *L, int64_t line, axb_status st,
                         const char *fmt, va_list ap) {
  char msg[768];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return axb__fail(L->h, st, "%s:%" PRId64 ": %s", L->name, line > 0 ? line : 1,
                   msg);
}

axb_status mm_fail(const mm_lex *L, axb_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  axb_status r = fail_v(L, L->line, st, fmt, ap);
  va_end(ap);
  return r;
}

axb_status mm_fail_at(const mm_lex *L, int64_t line, axb_status st,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  axb_status r = fail_v(L, line, st, fmt, ap);
  va_end(ap);
  return r;
}

/* ---- numbers ------------------------------------------------------------- */

/* NUL-terminated copy of a token: the input buffer need not be terminated. */
static int copy_token(const char *tb, size_t tn, char buf[MM_TOKEN_MAX + 1]) {
  if (tn == 0 || tn > MM_TOKEN_MAX) return 0;
  memcpy(buf, tb, tn);
  buf[tn] = '\0';
  return 1;
}

axb_status mm_parse_int(const mm_lex *L, const char *tb, size_t tn,
                        const char *what, int64_t *out) {
  char buf[MM_TOKEN_MAX + 1], show[48];
  if (!copy_token(tb, tn, buf))
    return mm_fail(L, AXB_ERR_PARSE, "%s '%s' is not an integer", what,
                   mm_show(tb, tn, show));
  char *end = NULL;
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  if (end != buf + tn)
    return mm_fail(L, AXB_ERR_PARSE, "%s '%s' is not an integer", what,
                   mm_show(tb, tn, show));
  if (errno == ERANGE)
    return mm_fail(L, AXB_ERR_INVALID, "%s '%s' is out of range", what,
                   mm_show(tb, tn, show));
  *out = (int64_t)v;
  return AXB_SUCCESS;
}

axb_status mm_parse_value(const mm_lex *L, const char *tb, size_t tn,
                          int integer_field, axb_dtype dtype, double *out) {
  char buf[MM_TOKEN_MAX + 1], show[48];
  double v;
  if (integer_field) {
    int64_t k;
    axb_status st = mm_parse_int(L, tb, tn, "value", &k);
    if (st != AXB_SUCCESS) return st;
    v = (double)k;
  } else {
    if (!copy_token(tb, tn, buf))
      return mm_fail(L, AXB_ERR_PARSE, "value '%s' is not a number",
                     mm_show(tb, tn, show));
    char *end = NULL;
    errno = 0;
    v = strtod(buf, &end);
    if (end != buf + tn)
      return mm_fail(L, AXB_ERR_PARSE, "value '%s' is not a number",
                     mm_show(tb, tn, show));
    if (!isfinite(v))
      return mm_fail(L, AXB_ERR_INVALID,
                     "value '%s' is not finite (NaN, Inf or overflow)",
                     mm_show(tb, tn, show));
    /* A nonzero number that rounds to 0 would silently drop an entry's
       value: strtod says so with ERANGE and 0 (a nonzero subnormal result
       is kept); for float, a nonzero double whose rounding is 0, i.e.
       |v| <= 2^-150 (half the smallest subnormal, ties to even). */
    if ((v == 0 && errno == ERANGE) ||
        (dtype == AXB_F32 && v != 0 && (float)v == 0))
      return mm_fail(
          L, AXB_ERR_INVALID, "value %s underflows to 0 in %s precision",
          mm_show(tb, tn, show), dtype == AXB_F32 ? "single" : "double");
  }
  /* Overflows float: rounds to Inf, i.e. |v| >= FLT_MAX + ulp/2. */
  if (dtype == AXB_F32 && fabs(v) >= 0x1.ffffffp+127)
    return mm_fail(L, AXB_ERR_INVALID, "value '%s' overflows float",
                   mm_show(tb, tn, show));
  *out = v;
  return AXB_SUCCESS;
}

/* ---- memory budget ------------------------------------------------------ */

static int64_t budget_limit(void) {
  int64_t limit;
#if defined(AXB_MMIO_MAX_BYTES) && AXB_MMIO_MAX_BYTES > 0
  limit = (int64_t)(AXB_MMIO_MAX_BYTES);
#else
  limit = axb__memory_available() / 4 * 3;
#endif
  /* The environment may lower the budget, never raise it. */
  const char *env = getenv("AXB_MMIO_MAX_BYTES");
  if (env && *env) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(env, &end, 10);
    if (errno == 0 && end && *end == '\0' && v > 0 && v < limit)
      limit = (int64_t)v;
  }
  return limit;
}

void mm_budget_init(mm_budget *B) {
  B->limit = budget_limit();
  B->used = 0;
}

/* count * size in bytes, or INT64_MAX when it overflows. */
static int64_t bytes_of(int64_t count, size_t size) {
  if (count <= 0 || size == 0) return 0;
  if ((uint64_t)count > (uint64_t)INT64_MAX / size) return INT64_MAX;
  return count * (int64_t)size;
}

int64_t mm_budget_left(const mm_budget *B) {
  return B->limit > B->used ? B->limit - B->used : 0;
}

int mm_budget_take(mm_budget *B, int64_t count, size_t size) {
  int64_t n = bytes_of(count, size);
  if (n > mm_budget_left(B)) return 0;
  B->used += n;
  return 1;
}

void mm_budget_give(mm_budget *B, int64_t count, size_t size) {
  int64_t n = bytes_of(count, size);
  B->used = n < B->used ? B->used - n : 0;
}

double mm_gib(int64_t bytes) { return (double)bytes / 1073741824.0; }

axb_status mm_over_budget(const mm_lex *L, const char *what, int64_t bytes) {
  return mm_fail(L, AXB_ERR_OUT_OF_MEMORY,
                 "%s needs %.3g GiB, more than the %.3g GiB left of the "
                 "memory budget of %.3g GiB",
                 what, mm_gib(bytes), mm_gib(mm_budget_left(L->budget)),
                 mm_gib(L->budget->limit));
}

axb_status mm_take(const mm_lex *L, int64_t count, size_t size,
                   const char *what) {
  if (mm_budget_take(L->budget, count, size)) return AXB_SUCCESS;
  return mm_over_budget(L, what, bytes_of(count, size));
}

axb_status mm_dense_too_big(const mm_lex *L, int64_t rows, int64_t cols,
                            axb_dtype dtype, int64_t bytes) {
  int64_t es = (int64_t)axb_dtype_size(dtype);
  int more = rows * cols <= INT64_MAX / es && bytes > rows * cols * es;
  return mm_fail(L, AXB_ERR_OUT_OF_MEMORY,
                 "dense %" PRId64 " x %" PRId64
                 " %s needs %.3g GiB%s, more than the %.3g GiB left of the "
                 "memory budget of %.3g GiB",
                 rows, cols, axb_dtype_name(dtype), mm_gib(bytes),
                 more ? " with the reader's buffers" : "",
                 mm_gib(mm_budget_left(L->budget)), mm_gib(L->budget->limit));
}

/* ---- locale -------------------------------------------------------------- */

void mm_locale_enter(mm_locale *lc) {
  lc->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  lc->saved = lc->c ? uselocale(lc->c) : (locale_t)0;
}

void mm_locale_leave(mm_locale *lc) {
  if (!lc->c) return;
  uselocale(lc->saved);
  freelocale(lc->c);
  lc->c = lc->saved = (locale_t)0;
}
