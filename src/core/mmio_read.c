/* Matrix Market I/O: the public readers.  A file is read whole into memory
   through zlib (gzread reads uncompressed files transparently), then parsed
   by the buffer reader.  Each read call has one memory budget (mmio.h) that
   the file buffer, the parser's buffers and the result all draw on; input
   that outgrows it (a gzip bomb, /dev/zero) ends in AXB_ERR_OUT_OF_MEMORY. */
#include "core/mmio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* Refuse before parsing what the header asks for and the budget cannot
   hold: the least the read will have to hold at once, beyond the input. */
static axb_status check_sizes(const mm_lex *L, const mm_header *H,
                              axb_dtype dtype, int want_dense) {
  int64_t es = (int64_t)axb_dtype_size(dtype);
  int64_t cells = H->rows * H->cols; /* fits: header check */
  /* rows + 1 row pointers; rows may be INT64_MAX (with one column). */
  int64_t ptrs = sat_mul(sat_add(H->rows, 1), (int64_t)sizeof(int64_t));
  int64_t left = mm_budget_left(L->budget);
  if (want_dense) {
    /* The result, and the array values or the coordinate row offsets. */
    int64_t dense = sat_mul(cells, es);
    int64_t aux = H->format == MM_ARRAY ? sat_mul(H->count, 8) : ptrs;
    if (sat_add(dense, aux) > left)
      return mm_dense_too_big(L, H->rows, H->cols, dtype, sat_add(dense, aux));
    return AXB_SUCCESS;
  }
  if (H->format == MM_ARRAY) {
    /* Values, a dense double scratch, then the CSR's row pointers. */
    int64_t need =
        sat_add(sat_add(sat_mul(H->count, 8), sat_mul(cells, 8)), ptrs);
    if (need > left)
      return mm_dense_too_big(L, H->rows, H->cols, AXB_F64, need);
    return AXB_SUCCESS;
  }
  if (ptrs > left) {
    char what[96];
    snprintf(what, sizeof what, "a CSR matrix with %" PRId64 " rows", H->rows);
    return mm_over_budget(L, what, ptrs);
  }
  return AXB_SUCCESS;
}

/* Dense result (F64 scratch when the caller wants CSR) of an array or plain
   input; the caller converts. */
static axb_status read_dense_like(mm_lex *L, const mm_header *H,
                                  axb_dtype dtype, axb_dense *D) {
  mm_values V;
  axb_status st;
  if (H->format == MM_ARRAY) {
    st = mm_parse_array(L, H, dtype, &V);
    if (st == AXB_SUCCESS) st = mm_build_array(L, H, &V, D->dtype, D);
  } else {
    int64_t rows = 0, cols = 0;
    st = mm_parse_plain(L, dtype, &V, &rows, &cols);
    if (st == AXB_SUCCESS) st = mm_build_plain(L, &V, rows, cols, D->dtype, D);
  }
  mm_values_free(L, &V);
  return st;
}

static axb_status parse(mm_lex *L, axb_dtype dtype, axb_dense *D, axb_csr *S) {
  mm_header H;
  axb_status st = mm_read_header(L, &H);
  if (st != AXB_SUCCESS) return st;
  if (H.format != MM_PLAIN && (st = check_sizes(L, &H, dtype, D != NULL)))
    return st;
  if (H.format == MM_COORDINATE) {
    mm_entries E;
    st = mm_parse_coordinate(L, &H, dtype, &E);
    if (st == AXB_SUCCESS) st = mm_build_coordinate(L, &H, &E, dtype, S, D);
    mm_entries_free(L, &E);
    return st;
  }
  if (D) {
    D->dtype = dtype;
    return read_dense_like(L, &H, dtype, D);
  }
  axb_dense T = {0};
  T.dtype = AXB_F64;
  st = read_dense_like(L, &H, dtype, &T);
  if (st == AXB_SUCCESS) st = mm_dense_to_csr(L, &T, dtype, S);
  axb_dense_destroy(&T);
  return st;
}

/* Exactly one of D, S non-NULL.  B: the read's budget (NULL: a new one). */
static axb_status read_buffer(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *D,
                              axb_csr *S, mm_budget *B) {
  axb__clear(h);
  if (D) memset(D, 0, sizeof *D);
  if (S) memset(S, 0, sizeof *S);
  if (!D && !S) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  if (!buf && len > 0) return axb__fail(h, AXB_ERR_INVALID, "NULL buffer");
  if (dtype != AXB_F32 && dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_INVALID, "dtype %d is neither float nor double",
                     (int)dtype);
  mm_budget own;
  if (!B) {
    mm_budget_init(&own);
    B = &own;
  }
  mm_lex L;
  mm_lex_init(&L, h, name, buf, len, B);
  mm_locale lc;
  mm_locale_enter(&lc);
  axb_status st = parse(&L, dtype, D, S);
  mm_locale_leave(&lc);
  if (st != AXB_SUCCESS) {
    if (D) axb_dense_destroy(D);
    if (S) axb_csr_destroy(S);
    return st;
  }
  axb__clear(h);
  return AXB_SUCCESS;
}

static axb_status too_large(axb_handle h, const char *path,
                            const mm_budget *B) {
  return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "%s: input larger than the memory budget of %.3g GiB "
                   "(after decompression)",
                   path, mm_gib(B->limit));
}

/* Text per announced entry, and slack for the header and trailing
   comments, that a file may take before the reader calls it endless. */
#define MM_BYTES_PER_ENTRY 512
#define MM_SLACK_BYTES ((int64_t)16 << 20)
#define MM_PROBE_BYTES ((int64_t)64 << 10)

/* Looked at once the first MM_PROBE_BYTES of a file are in (issue 19:
   /dev/zero was read up to the memory budget): a NUL byte is binary data,
   not text; a Matrix Market header bounds what the rest may hold (*most,
   INT64_MAX when there is no header or it is not in the probe yet). */
static axb_status probe(axb_handle h, const char *path, const char *p,
                        int64_t n, int64_t *most) {
  *most = INT64_MAX;
  const char *nul = memchr(p, '\0', (size_t)n);
  if (nul)
    return axb__fail(h, AXB_ERR_PARSE,
                     "%s: binary data (a NUL byte at offset %lld): not a "
                     "Matrix Market or text file",
                     path, (long long)(nul - p));
  mm_budget B = {INT64_MAX, 0};
  mm_lex L;
  mm_lex_init(&L, h, path, p, (size_t)n, &B);
  mm_header H;
  axb_status st = mm_read_header(&L, &H);
  axb__clear(h); /* a header cut by the probe is not an error */
  if (st == AXB_SUCCESS && H.format != MM_PLAIN) {
    int64_t head = (int64_t)(L.p - p);
    *most = sat_add(sat_add(head, MM_SLACK_BYTES),
                    sat_mul(H.count, MM_BYTES_PER_ENTRY));
  }
  return AXB_SUCCESS;
}

/* The whole (decompressed) file into *buf (malloc'd; its capacity is drawn
   on B and stays drawn while the buffer is parsed), refused once it
   outgrows the budget. */
static axb_status load_file(axb_handle h, const char *path, mm_budget *B,
                            char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  if (!path) return axb__fail(h, AXB_ERR_INVALID, "NULL path");
  struct stat sb;
  if (stat(path, &sb) != 0)
    return axb__fail(h, AXB_ERR_IO, "%s: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode))
    return axb__fail(h, AXB_ERR_IO, "%s: %s", path, strerror(EISDIR));
  errno = 0;
  gzFile f = gzopen(path, "rb");
  if (!f)
    return axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                     errno ? strerror(errno) : "cannot open");
  gzbuffer(f, 1u << 17);
  int64_t left = mm_budget_left(B);
  /* An uncompressed regular file bigger than the budget: refuse unread. */
  if (S_ISREG(sb.st_mode) && (int64_t)sb.st_size >= left && gzdirect(f)) {
    gzclose_r(f);
    return too_large(h, path, B);
  }
  int64_t cap = sb.st_size > 0 ? (int64_t)sb.st_size + 1 : 1 << 16;
  if (cap > left) cap = left;
  char *p = NULL;
  int64_t n = 0, most = INT64_MAX;
  int probed = 0;
  axb_status st = AXB_SUCCESS;
  if (cap <= 0)
    st = too_large(h, path, B);
  else if (!(p = axb__realloc(NULL, cap, 1)))
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "%s: cannot allocate %" PRId64 " bytes", path, cap);
  else
    mm_budget_take(B, cap, 1);
  while (st == AXB_SUCCESS) {
    if (n == cap) {
      left = mm_budget_left(B);
      if (left == 0) {
        st = too_large(h, path, B);
        break;
      }
      int64_t grow = cap < left ? cap : left;
      char *q = axb__realloc(p, cap + grow, 1);
      if (!q) {
        st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                       "%s: cannot allocate %" PRId64 " bytes", path,
                       cap + grow);
        break;
      }
      mm_budget_take(B, grow, 1);
      p = q;
      cap += grow;
    }
    int64_t want = cap - n > (1 << 30) ? (1 << 30) : cap - n;
    int r = gzread(f, p + n, (unsigned)want);
    if (r < 0) {
      int zerr = 0;
      const char *msg = gzerror(f, &zerr);
      st = axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                     zerr == Z_ERRNO ? strerror(errno) : msg);
    } else if (r == 0) {
      /* The end, or a gzip stream cut short (zlib says Z_BUF_ERROR). */
      int zerr = Z_OK;
      const char *msg = gzerror(f, &zerr);
      if (zerr != Z_OK)
        st = axb__fail(h, AXB_ERR_IO,
                       "%s: the compressed data is truncated or corrupt "
                       "(zlib: %s)",
                       path,
                       zerr == Z_BUF_ERROR ? "unexpected end of file" : msg);
      break;
    } else {
      n += r;
      if (!probed && n >= MM_PROBE_BYTES) {
        probed = 1;
        st = probe(h, path, p, n, &most);
      }
      if (st == AXB_SUCCESS && n > most)
        st = axb__fail(h, AXB_ERR_PARSE,
                       "%s: the input goes on past %lld bytes, more than "
                       "the header's announced entries can take (an endless "
                       "stream?)",
                       path, (long long)most);
    }
  }
  int zc = gzclose_r(f);
  if (zc != Z_OK && st == AXB_SUCCESS)
    st = axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                   zc == Z_BUF_ERROR
                       ? "the compressed data is truncated (it ends before "
                         "the end of its gzip stream)"
                   : zc == Z_ERRNO ? strerror(errno)
                                   : "the compressed data is corrupt");
  if (st != AXB_SUCCESS) {
    if (p) mm_budget_give(B, cap, 1);
    free(p);
    return st;
  }
  *buf = p;
  *len = (size_t)n;
  return AXB_SUCCESS;
}

static axb_status read_file(axb_handle h, const char *path, axb_dtype dtype,
                            axb_dense *D, axb_csr *S) {
  if (D) memset(D, 0, sizeof *D);
  if (S) memset(S, 0, sizeof *S);
  mm_budget B;
  mm_budget_init(&B);
  char *buf;
  size_t len;
  axb_status st = load_file(h, path, &B, &buf, &len);
  if (st != AXB_SUCCESS) return st;
  st = read_buffer(h, path, buf, len, dtype, D, S, &B);
  free(buf);
  return st;
}

axb_status axb_read_dense(axb_handle h, const char *path, axb_dtype dtype,
                          axb_dense *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  return read_file(h, path, dtype, A, NULL);
}

axb_status axb_read_csr(axb_handle h, const char *path, axb_dtype dtype,
                        axb_csr *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  return read_file(h, path, dtype, NULL, A);
}

axb_status axb_read_dense_mem(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  return read_buffer(h, name, buf, len, dtype, A, NULL, NULL);
}

axb_status axb_read_csr_mem(axb_handle h, const char *name, const char *buf,
                            size_t len, axb_dtype dtype, axb_csr *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  return read_buffer(h, name, buf, len, dtype, NULL, A, NULL);
}
