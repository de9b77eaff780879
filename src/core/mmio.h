/*
 * Matrix Market and plain-text I/O: the pieces shared by src/core/mmio_*.c.
 *
 *   mmio_lex.c     line/token cursor over a buffer, number parsing, errors,
 *                  the memory budget, C-locale guard
 *   mmio_header.c  banner and size line (or detection of plain text)
 *   mmio_parse.c   data sections: coordinate entries, array values, plain rows
 *   mmio_build.c   parsed data -> axb_csr / axb_dense (sorting, symmetric
 *                  expansion, duplicate detection)
 *   mmio_read.c    the public readers (buffer and file, gzip through zlib)
 *   mmio_write.c   the public writers
 *
 * Decisions:
 *   - Symmetric / skew-symmetric coordinate files may give an off-diagonal
 *     entry in either triangle; it is mirrored.  Giving both (i,j) and (j,i)
 *     is a duplicate entry (AXB_ERR_INVALID).  A skew-symmetric diagonal
 *     entry must be zero (it is kept as an explicit zero).
 *   - pattern entries are 1 (and -1 for the mirror in a skew-symmetric file).
 *   - array and plain-text input read as CSR keeps only the nonzeros;
 *     coordinate input keeps explicit zeros.
 *   - Memory budget.  Each read call (file or buffer) gets one budget,
 *     fixed when the call starts, and every allocation of that read draws
 *     on it: the file buffer (after decompression), entry and value
 *     buffers, row buckets, dense scratch, and the result itself.  Freed
 *     buffers are given back, so the budget bounds what the read holds at
 *     once, whatever the mix (two allocations that each fit but not
 *     together are refused).  The caller's buffer of the _mem readers is
 *     not counted (it exists already; MemAvailable shows it).
 *     The budget is 3/4 of the memory available when the read starts:
 *     MemAvailable of /proc/meminfo (the physical memory when that cannot
 *     be read), lowered to the room under the memory limit of the
 *     process's cgroups and their ancestors (containers: v2 memory.max or
 *     v1 memory.limit_in_bytes, less the cgroup's anonymous memory, since
 *     page cache can be reclaimed).  The fuzz build fixes it with
 *     AXB_MMIO_MAX_BYTES at compile time; the environment variable
 *     AXB_MMIO_MAX_BYTES (a byte count) can lower it, never raise it.
 *     Going over is AXB_ERR_OUT_OF_MEMORY, "NAME:LINE: WHAT needs N GiB,
 *     more than the M GiB left of the memory budget of B GiB", before the
 *     allocation is made; a header's sizes are checked against the budget
 *     before any entry is read.  Buffers are counted by capacity (reserved,
 *     not touched); axb__calloc is calloc, whose zero pages cost nothing
 *     until written.
 *   - A header may legitimately ask for a lot: a coordinate file
 *     "100000000 1 0" read as CSR needs its 10^8 + 1 row pointers (0.8 GB)
 *     whatever nnz is.  That is allowed when the budget holds it (the row
 *     pointers are built in place in the result, so the read needs them
 *     once, not twice); beyond the budget it is OUT_OF_MEMORY.  A size such
 *     as 2^61 rows fails that check without allocating anything.
 *   - Entry buffers start no larger than the input can hold and grow
 *     geometrically, so a lying entry count costs nothing.
 *   - Files are read whole through zlib (plain files pass through).  Input
 *     that outgrows the budget (a gzip bomb, a huge file) is
 *     AXB_ERR_OUT_OF_MEMORY, "PATH: input larger than the memory budget of
 *     N GiB"; an uncompressed regular file larger than the budget is refused
 *     before it is read.  Once the first 64 KiB (after decompression) are
 *     in, they are probed (issue 19): a NUL byte is binary data, refused
 *     at once as AXB_ERR_PARSE (/dev/zero); a Matrix Market header found
 *     there bounds the rest to 512 bytes per announced entry plus 16 MiB,
 *     and a stream that goes on past that is AXB_ERR_PARSE ("goes on past
 *     N bytes"), however large the budget.  A corrupt or truncated gzip
 *     stream is AXB_ERR_IO, "PATH: the compressed data is truncated or
 *     corrupt".
 *   - Line ends: LF, CRLF, and a lone CR (old Mac files) all end a line.
 *     Writers compress when the path ends in ".gz".
 *   - A nonzero value that rounds to 0 in the requested precision (1e-50 as
 *     float, 1e-400 as double) is AXB_ERR_INVALID, "value 1e-50 underflows
 *     to 0 in single precision": an entry is never dropped silently.
 *     Nonzero subnormal results are kept.
 *   - The CSR writer validates its input with axb__csr_check (core/csr.h)
 *     before reading any column: all of rowptr, then the columns, then
 *     (here) the values' finiteness.
 *   - A number token longer than MM_TOKEN_MAX characters is a parse error.
 *   - Plain text: blank lines are allowed before and after the rows, not
 *     between them; % lines are comments anywhere.
 */
#ifndef AXB_MMIO_H
#define AXB_MMIO_H

#include "core/internal.h"

#include <inttypes.h>
#include <locale.h>
#include <stddef.h>

#define MM_TOKEN_MAX 256

/* ---- lexer (mmio_lex.c) -------------------------------------------------- */

/* The memory budget of one read call (see the decisions above). */
typedef struct {
  int64_t limit; /* bytes the read may hold at once   */
  int64_t used;  /* bytes it holds now (capacities)    */
} mm_budget;

typedef struct {
  axb_handle h;
  mm_budget *budget;   /* of the read call this lexer belongs to      */
  const char *name;    /* for messages: "name:line: what"              */
  const char *p, *end; /* unread input                                  */
  int64_t line;        /* 1-based number of the current line (0: none)  */
  const char *lb, *le; /* current line, without its newline             */
  const char *tp;      /* token cursor inside the current line          */
} mm_lex;

void mm_lex_init(mm_lex *L, axb_handle h, const char *name, const char *buf,
                 size_t len, mm_budget *budget);
/* Advance to the next line; 0 at end of input. */
int mm_next_line(mm_lex *L);
/* Advance to the next line that is neither blank nor a % comment. */
int mm_next_data_line(mm_lex *L);
/* 1 when the current line is blank (only whitespace). */
int mm_line_blank(const mm_lex *L);
/* 1 when the current line's first non-blank character is '%'. */
int mm_line_comment(const mm_lex *L);
/* Next whitespace-separated token of the current line; 0 when none left. */
int mm_token(mm_lex *L, const char **tb, size_t *tn);
/* Bytes of input not read yet (the rest of the current line excluded). */
size_t mm_remaining(const mm_lex *L);

/* Case-insensitive comparison of a token with a NUL-terminated word. */
int mm_token_is(const char *tb, size_t tn, const char *word);
/* Printable, shortened copy of a token for messages (out: 48 bytes). */
const char *mm_show(const char *tb, size_t tn, char out[48]);

/* Record "name:line: what" on the handle and return st. */
axb_status mm_fail(const mm_lex *L, axb_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
axb_status mm_fail_at(const mm_lex *L, int64_t line, axb_status st,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Integer token: PARSE when not an integer, INVALID when out of range. */
axb_status mm_parse_int(const mm_lex *L, const char *tb, size_t tn,
                        const char *what, int64_t *out);
/* Value token of a real (integer_field = 0) or integer field: PARSE when not
   a number, INVALID when NaN/Inf/overflowing, beyond FLT_MAX for F32, or
   nonzero but rounding to 0 in dtype (underflow). */
axb_status mm_parse_value(const mm_lex *L, const char *tb, size_t tn,
                          int integer_field, axb_dtype dtype, double *out);

/* The budget of a new read call: limit from the memory available now. */
void mm_budget_init(mm_budget *B);
/* Bytes not yet drawn. */
int64_t mm_budget_left(const mm_budget *B);
/* Draw count * size bytes: 1 when they fit in what is left (and are now
   counted), 0 when not (nothing counted; overflow counts as not fitting). */
int mm_budget_take(mm_budget *B, int64_t count, size_t size);
/* Give back what a take drew, when its buffer is freed. */
void mm_budget_give(mm_budget *B, int64_t count, size_t size);
double mm_gib(int64_t bytes);
/* AXB_ERR_OUT_OF_MEMORY, "name:line: WHAT needs N GiB, more than the M GiB
   left of the memory budget of B GiB". */
axb_status mm_over_budget(const mm_lex *L, const char *what, int64_t bytes);
/* mm_budget_take on L's budget, or mm_over_budget naming what. */
axb_status mm_take(const mm_lex *L, int64_t count, size_t size,
                   const char *what);
/* mm_over_budget for "dense R x C T" needing bytes (the result alone, or
   with the reader's buffers when bytes is more). */
axb_status mm_dense_too_big(const mm_lex *L, int64_t rows, int64_t cols,
                            axb_dtype dtype, int64_t bytes);

/* Run the parser under the "C" numeric locale (strtod, printf). */
typedef struct {
  locale_t saved, c;
} mm_locale;
void mm_locale_enter(mm_locale *lc);
void mm_locale_leave(mm_locale *lc);

/* ---- header (mmio_header.c) ---------------------------------------------- */

typedef enum { MM_COORDINATE, MM_ARRAY, MM_PLAIN } mm_format;
typedef enum { MM_REAL, MM_INTEGER, MM_PATTERN } mm_field;
typedef enum { MM_GENERAL, MM_SYMMETRIC, MM_SKEW } mm_symmetry;

typedef struct {
  mm_format format;
  mm_field field;
  mm_symmetry symmetry;
  int64_t rows, cols; /* > 0, rows * cols fits in int64 */
  int64_t count;      /* coordinate: entries announced; array: values due */
  int64_t size_line;  /* line of the size line */
} mm_header;

/* Banner and size line.  For a file without a %%MatrixMarket banner the
   header says MM_PLAIN and the lexer is left at the start of the input. */
axb_status mm_read_header(mm_lex *L, mm_header *H);
const char *mm_symmetry_name(mm_symmetry s);

/* ---- data sections (mmio_parse.c) ---------------------------------------- */

typedef struct {
  int64_t row, col; /* 0-based */
  int64_t line;
  double v;
} mm_entry;

typedef struct {
  mm_entry *e;
  int64_t n, cap;
} mm_entries;

typedef struct {
  double *v;
  int64_t n, cap;
} mm_values;

/* Free a buffer and give its capacity back to L's budget. */
void mm_entries_free(const mm_lex *L, mm_entries *E);
void mm_values_free(const mm_lex *L, mm_values *V);

/* Exactly H->count coordinate entries, then only comments/blank lines. */
axb_status mm_parse_coordinate(mm_lex *L, const mm_header *H, axb_dtype dtype,
                               mm_entries *E);
/* Exactly H->count array values (column-major; the lower triangle for
   symmetric, the strict lower triangle for skew-symmetric). */
axb_status mm_parse_array(mm_lex *L, const mm_header *H, axb_dtype dtype,
                          mm_values *V);
/* Plain text: row-major values, *rows x *cols. */
axb_status mm_parse_plain(mm_lex *L, axb_dtype dtype, mm_values *V,
                          int64_t *rows, int64_t *cols);

/* ---- building the result (mmio_build.c) ---------------------------------- */

/* Coordinate entries -> CSR (S) or dense (D), exactly one non-NULL. */
axb_status mm_build_coordinate(const mm_lex *L, const mm_header *H,
                               const mm_entries *E, axb_dtype dtype, axb_csr *S,
                               axb_dense *D);
/* Array values -> dense. */
axb_status mm_build_array(const mm_lex *L, const mm_header *H,
                          const mm_values *V, axb_dtype dtype, axb_dense *D);
/* Plain row-major values -> dense. */
axb_status mm_build_plain(const mm_lex *L, const mm_values *V, int64_t rows,
                          int64_t cols, axb_dtype dtype, axb_dense *D);
/* Dense -> CSR of its nonzeros. */
axb_status mm_dense_to_csr(const mm_lex *L, const axb_dense *D, axb_dtype dtype,
                           axb_csr *S);

#endif
