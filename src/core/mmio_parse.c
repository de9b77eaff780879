/* Matrix Market I/O: the data sections (coordinate entries, array values,
   plain-text rows).  Buffers start no larger than the rest of the input can
   hold and grow geometrically, so a lying header costs nothing. */
#include "core/mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mm_entries_free(const mm_lex *L, mm_entries *E) {
  mm_budget_give(L->budget, E->cap, sizeof(mm_entry));
  free(E->e);
  memset(E, 0, sizeof *E);
}

void mm_values_free(const mm_lex *L, mm_values *V) {
  mm_budget_give(L->budget, V->cap, sizeof(double));
  free(V->v);
  memset(V, 0, sizeof *V);
}

/* Grow *p (cap elements of size bytes) to at least need, at most max; the
   added capacity is drawn on L's budget first. */
static int grow(const mm_lex *L, void **p, int64_t *cap, int64_t need,
                int64_t max, size_t size) {
  if (need <= *cap) return 1;
  int64_t c = *cap < 16 ? 16 : *cap;
  while (c < need)
    c = c > INT64_MAX / 2 ? INT64_MAX : 2 * c;
  if (c > max) c = max;
  if (c < need) return 0;
  /* Near the end of the budget, grow only as far as it allows. */
  int64_t room = mm_budget_left(L->budget) / (int64_t)size;
  if (c - *cap > room && need - *cap <= room) c = *cap + room;
  if (!mm_budget_take(L->budget, c - *cap, size)) return 0;
  void *q = axb__realloc(*p, c, size);
  if (!q) {
    mm_budget_give(L->budget, c - *cap, size);
    return 0;
  }
  *p = q;
  *cap = c;
  return 1;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* A buffer of n elements of size bytes could not be had. */
static axb_status no_room(const mm_lex *L, const char *what, int64_t n,
                          size_t size) {
  char w[96];
  snprintf(w, sizeof w, "%" PRId64 " %s", n, what);
  if (n > INT64_MAX / (int64_t)size) return mm_over_budget(L, w, INT64_MAX);
  return mm_over_budget(L, w, n * (int64_t)size);
}

/* grow() to room for `need` elements, or the over-budget failure naming
   them. */
static axb_status reserve(const mm_lex *L, void **p, int64_t *cap, int64_t need,
                          int64_t max, size_t size, const char *what) {
  if (grow(L, p, cap, need, max, size)) return AXB_SUCCESS;
  return no_room(L, what, need, size);
}

/* The first buffer of a section of `count` elements: no more than the rest
   of the input can hold at `shortest` bytes an element (plus one). */
static axb_status reserve_first(const mm_lex *L, void **p, int64_t *cap,
                                int64_t count, int64_t shortest, size_t size,
                                const char *what) {
  int64_t first = min64(count, (int64_t)(mm_remaining(L) / shortest) + 1);
  return reserve(L, p, cap, first, count, size, what);
}

/* ---- coordinate ---------------------------------------------------------- */

static axb_status check_index(const mm_lex *L, int64_t k, int64_t n,
                              const char *what) {
  if (k < 1 || k > n)
    return mm_fail(L, AXB_ERR_INVALID,
                   "%s index %" PRId64 " is out of range 1..%" PRId64, what, k,
                   n);
  return AXB_SUCCESS;
}

/* One "ROW COL [VALUE]" line into *e. */
static axb_status parse_entry(mm_lex *L, const mm_header *H, axb_dtype dtype,
                              mm_entry *e) {
  const char *tb[4];
  size_t tn[4];
  int n = 0, want = H->field == MM_PATTERN ? 2 : 3;
  char show[48];
  while (n < 4 && mm_token(L, &tb[n], &tn[n]))
    ++n;
  if (n > want)
    return mm_fail(L, AXB_ERR_PARSE, "unexpected '%s' after the entry",
                   mm_show(tb[want], tn[want], show));
  if (n < want)
    return mm_fail(L, AXB_ERR_PARSE, "entry needs %s",
                   want == 2 ? "ROW COL" : "ROW COL VALUE");
  int64_t i, j;
  axb_status st;
  if ((st = mm_parse_int(L, tb[0], tn[0], "row index", &i)) ||
      (st = mm_parse_int(L, tb[1], tn[1], "column index", &j)) ||
      (st = check_index(L, i, H->rows, "row")) ||
      (st = check_index(L, j, H->cols, "column")))
    return st;
  double v = 1.0;
  if (H->field != MM_PATTERN &&
      (st = mm_parse_value(L, tb[2], tn[2], H->field == MM_INTEGER, dtype, &v)))
    return st;
  if (H->symmetry == MM_SKEW && i == j && v != 0)
    return mm_fail(L, AXB_ERR_INVALID,
                   "diagonal entry (%" PRId64 ", %" PRId64
                   ") of a skew-symmetric matrix must be zero",
                   i, j);
  e->row = i - 1;
  e->col = j - 1;
  e->line = L->line;
  e->v = v;
  return AXB_SUCCESS;
}

axb_status mm_parse_coordinate(mm_lex *L, const mm_header *H, axb_dtype dtype,
                               mm_entries *E) {
  memset(E, 0, sizeof *E);
  /* Shortest entry: "1 1\n" (4 bytes; the last line may lack its newline). */
  axb_status st = reserve_first(L, (void **)&E->e, &E->cap, H->count, 3,
                                sizeof(mm_entry), "entries");
  if (st) return st;
  while (E->n < H->count) {
    if (!mm_next_data_line(L))
      return mm_fail(L, AXB_ERR_PARSE,
                     "truncated: %" PRId64 " entries announced on line %" PRId64
                     ", %" PRId64 " found",
                     H->count, H->size_line, E->n);
    if (E->n == E->cap && (st = reserve(L, (void **)&E->e, &E->cap, E->n + 1,
                                        H->count, sizeof(mm_entry), "entries")))
      return st;
    st = parse_entry(L, H, dtype, &E->e[E->n]);
    if (st != AXB_SUCCESS) return st;
    ++E->n;
  }
  if (mm_next_data_line(L))
    return mm_fail(L, AXB_ERR_PARSE,
                   "extra entries: more than the %" PRId64
                   " announced on line %" PRId64,
                   H->count, H->size_line);
  return AXB_SUCCESS;
}

/* ---- array --------------------------------------------------------------- */

axb_status mm_parse_array(mm_lex *L, const mm_header *H, axb_dtype dtype,
                          mm_values *V) {
  memset(V, 0, sizeof *V);
  const char *tb;
  size_t tn;
  /* Shortest value: "1\n" (2 bytes). */
  axb_status st = reserve_first(L, (void **)&V->v, &V->cap, H->count, 2,
                                sizeof(double), "values");
  if (st) return st;
  while (V->n < H->count) {
    if (!mm_token(L, &tb, &tn)) {
      if (!mm_next_data_line(L))
        return mm_fail(L, AXB_ERR_PARSE,
                       "truncated: %" PRId64 " values due after line %" PRId64
                       ", %" PRId64 " found",
                       H->count, H->size_line, V->n);
      continue;
    }
    if (V->n == V->cap && (st = reserve(L, (void **)&V->v, &V->cap, V->n + 1,
                                        H->count, sizeof(double), "values")))
      return st;
    st = mm_parse_value(L, tb, tn, H->field == MM_INTEGER, dtype, &V->v[V->n]);
    if (st != AXB_SUCCESS) return st;
    ++V->n;
  }
  if (mm_token(L, &tb, &tn) || mm_next_data_line(L))
    return mm_fail(L, AXB_ERR_PARSE,
                   "extra values: more than the %" PRId64
                   " due after line %" PRId64,
                   H->count, H->size_line);
  return AXB_SUCCESS;
}

/* ---- plain text ---------------------------------------------------------- */

axb_status mm_parse_plain(mm_lex *L, axb_dtype dtype, mm_values *V,
                          int64_t *rows, int64_t *cols) {
  memset(V, 0, sizeof *V);
  int64_t nrows = 0, ncols = 0, gap = 0, first_row = 0;
  int64_t max = (int64_t)(mm_remaining(L) / 2) + 1;
  const char *tb;
  size_t tn;
  while (mm_next_line(L)) {
    if (mm_line_blank(L)) {
      if (nrows > 0 && gap == 0) gap = L->line;
      continue;
    }
    if (mm_line_comment(L)) {
      if (mm_token(L, &tb, &tn) && mm_token_is(tb, tn, "%%MatrixMarket"))
        return mm_fail(L, AXB_ERR_PARSE,
                       "the %%%%MatrixMarket banner must be the first line");
      continue;
    }
    if (gap)
      return mm_fail(L, AXB_ERR_PARSE,
                     "blank line %" PRId64 " inside the matrix: rows must be "
                     "contiguous",
                     gap);
    int64_t k = 0;
    while (mm_token(L, &tb, &tn)) {
      axb_status st = AXB_SUCCESS;
      if (V->n == V->cap)
        st = reserve(L, (void **)&V->v, &V->cap, V->n + 1, max, sizeof(double),
                     "values");
      if (!st) st = mm_parse_value(L, tb, tn, 0, dtype, &V->v[V->n]);
      if (st != AXB_SUCCESS) return st;
      ++V->n;
      ++k;
    }
    if (nrows == 0) {
      ncols = k;
      first_row = L->line;
    } else if (k != ncols)
      return mm_fail(L, AXB_ERR_PARSE,
                     "row %" PRId64 " has %" PRId64
                     " numbers, row 1 (line %" PRId64 ") has %" PRId64,
                     nrows + 1, k, first_row, ncols);
    ++nrows;
  }
  if (nrows == 0)
    return mm_fail(L, AXB_ERR_INVALID,
                   "empty matrix: no %%%%MatrixMarket banner and no numbers");
  *rows = nrows;
  *cols = ncols;
  return AXB_SUCCESS;
}
