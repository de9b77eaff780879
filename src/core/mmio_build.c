/* Matrix Market I/O: parsed data -> axb_csr / axb_dense.  Coordinate entries
   are bucketed by row (symmetric storage mirrored), sorted by column, and
   checked for duplicates; array and plain values are expanded in place. */
#include "core/mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One entry of a row bucket; line < 0 marks the mirror of a stored entry. */
typedef struct {
  int64_t col;
  int64_t line;
  double v;
} slot;

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

static int slot_cmp(const void *a, const void *b) {
  const slot *x = a, *y = b;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  int64_t lx = abs64(x->line), ly = abs64(y->line);
  return (lx > ly) - (lx < ly);
}

static axb_status oom(const mm_lex *L, const char *what, int64_t count) {
  return mm_fail(L, AXB_ERR_OUT_OF_MEMORY, "cannot allocate %s (%" PRId64 ")",
                 what, count);
}

/* Entry a (earlier line) and b of row `row` land on the same position. */
static axb_status duplicate(const mm_lex *L, const mm_header *H, int64_t row,
                            const slot *a, const slot *b) {
  int64_t r = row + 1, c = b->col + 1;
  if (a->line > 0 && b->line > 0)
    return mm_fail_at(L, b->line, AXB_ERR_INVALID,
                      "duplicate entry (%" PRId64 ", %" PRId64
                      "), first given on line %" PRId64,
                      r, c, a->line);
  /* As written in the file: a mirrored slot was given transposed. */
  int64_t br = b->line > 0 ? r : c, bc = b->line > 0 ? c : r;
  int64_t ar = a->line > 0 ? r : c, ac = a->line > 0 ? c : r;
  return mm_fail_at(
      L, abs64(b->line), AXB_ERR_INVALID,
      "entry (%" PRId64 ", %" PRId64 ") duplicates (%" PRId64 ", %" PRId64
      ") on line %" PRId64 " in a %s matrix (give one triangle only)",
      br, bc, ar, ac, abs64(a->line), mm_symmetry_name(H->symmetry));
}

/* Sort each row's slots by column and reject duplicates. */
static axb_status sort_rows(const mm_lex *L, const mm_header *H,
                            const int64_t *ptr, slot *s) {
  for (int64_t i = 0; i < H->rows; ++i) {
    slot *r = s + ptr[i];
    int64_t n = ptr[i + 1] - ptr[i];
    int sorted = 1;
    for (int64_t k = 1; k < n && sorted; ++k)
      if (slot_cmp(&r[k - 1], &r[k]) > 0) sorted = 0;
    if (!sorted) qsort(r, (size_t)n, sizeof *r, slot_cmp);
    for (int64_t k = 1; k < n; ++k)
      if (r[k - 1].col == r[k].col) return duplicate(L, H, i, &r[k - 1], &r[k]);
  }
  return AXB_SUCCESS;
}

/* Stored entries once symmetric storage is mirrored. */
static int64_t expanded_count(const mm_header *H, const mm_entries *E) {
  int64_t n = E->n;
  if (H->symmetry != MM_GENERAL)
    for (int64_t k = 0; k < E->n; ++k)
      n += E->e[k].row != E->e[k].col;
  return n;
}

/* Row buckets from the entries: ptr (rows + 1, zero on entry; the result's
   own rowptr when building CSR) gets the row offsets, *s_out the nnz slots
   (drawn on the budget; the caller frees and gives them back). */
static axb_status bucket(const mm_lex *L, const mm_header *H,
                         const mm_entries *E, int64_t nnz, int64_t *ptr,
                         slot **s_out) {
  int sym = H->symmetry != MM_GENERAL;
  double sign = H->symmetry == MM_SKEW ? -1.0 : 1.0;
  axb_status st = mm_take(L, nnz, sizeof(slot), "row buckets");
  if (st != AXB_SUCCESS) return st;
  slot *s = axb__malloc(nnz, sizeof(slot));
  if (!s) {
    mm_budget_give(L->budget, nnz, sizeof(slot));
    return oom(L, "row buckets", nnz);
  }
  for (int64_t k = 0; k < E->n; ++k) {
    const mm_entry *e = &E->e[k];
    ++ptr[e->row];
    if (sym && e->row != e->col) ++ptr[e->col];
  }
  int64_t total = 0;
  for (int64_t i = 0; i <= H->rows; ++i) {
    int64_t c = ptr[i];
    ptr[i] = total;
    total += c;
  }
  for (int64_t k = 0; k < E->n; ++k) { /* ptr[i] runs to the end of row i */
    const mm_entry *e = &E->e[k];
    s[ptr[e->row]++] = (slot){e->col, e->line, e->v};
    if (sym && e->row != e->col)
      s[ptr[e->col]++] = (slot){e->row, -e->line, sign * e->v};
  }
  for (int64_t i = H->rows; i > 0; --i)
    ptr[i] = ptr[i - 1];
  ptr[0] = 0;
  *s_out = s;
  return AXB_SUCCESS;
}

/* A CSR result drawn on the budget. */
static axb_status new_csr(const mm_lex *L, int64_t rows, int64_t cols,
                          int64_t nnz, axb_dtype dtype, axb_csr *S) {
  char what[96];
  snprintf(what, sizeof what,
           "a CSR matrix of %" PRId64 " rows, %" PRId64 " entries", rows, nnz);
  /* rows + 1 row pointers, nnz column indices and values (rows < INT64_MAX
     and nnz <= rows * cols by the header checks). */
  axb_status st = mm_take(L, rows + 1, sizeof(int64_t), what);
  if (st == AXB_SUCCESS &&
      (st = mm_take(L, nnz, sizeof(int64_t) + axb_dtype_size(dtype), what)))
    mm_budget_give(L->budget, rows + 1, sizeof(int64_t));
  if (st != AXB_SUCCESS) return st;
  if (axb_csr_create(S, rows, cols, nnz, dtype) != AXB_SUCCESS)
    return oom(L, "a CSR matrix", nnz);
  return AXB_SUCCESS;
}

/* A dense result drawn on the budget. */
static axb_status new_dense(const mm_lex *L, int64_t rows, int64_t cols,
                            axb_dtype dtype, axb_dense *D) {
  size_t es = axb_dtype_size(dtype);
  if (!mm_budget_take(L->budget, rows * cols, es))
    return mm_dense_too_big(L, rows, cols, dtype,
                            rows * cols > INT64_MAX / (int64_t)es
                                ? INT64_MAX
                                : rows * cols * (int64_t)es);
  if (axb_dense_create(D, rows, cols, dtype) != AXB_SUCCESS)
    return oom(L, "a dense matrix", rows * cols);
  return AXB_SUCCESS;
}

axb_status mm_build_coordinate(const mm_lex *L, const mm_header *H,
                               const mm_entries *E, axb_dtype dtype, axb_csr *S,
                               axb_dense *D) {
  int64_t nnz = expanded_count(H, E);
  int64_t *ptr = NULL; /* row offsets: S->rowptr, or this for a dense result */
  slot *s = NULL;
  axb_status st;
  if (S) {
    /* The buckets' row offsets are built in the result's rowptr, so a
       matrix with many rows needs its row pointers once, not twice. */
    st = new_csr(L, H->rows, H->cols, nnz, dtype, S);
    if (st == AXB_SUCCESS) ptr = S->rowptr;
  } else {
    st = new_dense(L, H->rows, H->cols, dtype, D);
    if (st == AXB_SUCCESS)
      st = mm_take(L, H->rows + 1, sizeof(int64_t), "row offsets");
    if (st == AXB_SUCCESS &&
        !(ptr = axb__calloc(H->rows + 1, sizeof(int64_t)))) {
      mm_budget_give(L->budget, H->rows + 1, sizeof(int64_t));
      st = oom(L, "row offsets", H->rows + 1);
    }
  }
  if (st == AXB_SUCCESS) st = bucket(L, H, E, nnz, ptr, &s);
  if (st == AXB_SUCCESS) st = sort_rows(L, H, ptr, s);
  if (st == AXB_SUCCESS && S) {
    for (int64_t k = 0; k < nnz; ++k) {
      S->colind[k] = s[k].col;
      if (dtype == AXB_F64)
        ((double *)S->values)[k] = s[k].v;
      else
        ((float *)S->values)[k] = (float)s[k].v;
    }
  } else if (st == AXB_SUCCESS) {
    for (int64_t i = 0; i < H->rows; ++i)
      for (int64_t k = ptr[i]; k < ptr[i + 1]; ++k)
        axb_dense_set(D, i, s[k].col, s[k].v);
  }
  if (s) {
    axb__free(s);
    mm_budget_give(L->budget, nnz, sizeof(slot));
  }
  if (!S && ptr) {
    axb__free(ptr);
    mm_budget_give(L->budget, H->rows + 1, sizeof(int64_t));
  }
  return st;
}

axb_status mm_build_array(const mm_lex *L, const mm_header *H,
                          const mm_values *V, axb_dtype dtype, axb_dense *D) {
  axb_status st = new_dense(L, H->rows, H->cols, dtype, D);
  if (st != AXB_SUCCESS) return st;
  const double *v = V->v;
  int64_t k = 0, n = H->rows;
  switch (H->symmetry) {
  case MM_GENERAL:
    for (int64_t j = 0; j < H->cols; ++j)
      for (int64_t i = 0; i < H->rows; ++i)
        axb_dense_set(D, i, j, v[k++]);
    break;
  case MM_SYMMETRIC:
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j; i < n; ++i, ++k) {
        axb_dense_set(D, i, j, v[k]);
        axb_dense_set(D, j, i, v[k]);
      }
    break;
  case MM_SKEW:
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = j + 1; i < n; ++i, ++k) {
        axb_dense_set(D, i, j, v[k]);
        axb_dense_set(D, j, i, -v[k]);
      }
    break;
  }
  return AXB_SUCCESS;
}

axb_status mm_build_plain(const mm_lex *L, const mm_values *V, int64_t rows,
                          int64_t cols, axb_dtype dtype, axb_dense *D) {
  axb_status st = new_dense(L, rows, cols, dtype, D);
  if (st != AXB_SUCCESS) return st;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      axb_dense_set(D, i, j, V->v[i * cols + j]);
  return AXB_SUCCESS;
}

axb_status mm_dense_to_csr(const mm_lex *L, const axb_dense *D, axb_dtype dtype,
                           axb_csr *S) {
  int64_t nnz = 0;
  for (int64_t j = 0; j < D->cols; ++j)
    for (int64_t i = 0; i < D->rows; ++i)
      nnz += axb_dense_get(D, i, j) != 0;
  axb_status st = new_csr(L, D->rows, D->cols, nnz, dtype, S);
  if (st != AXB_SUCCESS) return st;
  int64_t k = 0;
  for (int64_t i = 0; i < D->rows; ++i) {
    for (int64_t j = 0; j < D->cols; ++j) {
      double v = axb_dense_get(D, i, j);
      if (v == 0) continue;
      S->colind[k] = j;
      if (dtype == AXB_F64)
        ((double *)S->values)[k] = v;
      else
        ((float *)S->values)[k] = (float)v;
      ++k;
    }
    S->rowptr[i + 1] = k;
  }
  return AXB_SUCCESS;
}
