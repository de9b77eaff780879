/* Matrix Market I/O: the public readers.  A file is read whole into memory
   through zlib (gzread reads uncompressed files transparently), bounded by
   mm_mem_limit() after decompression (a gzip bomb ends in
   AXB_ERR_OUT_OF_MEMORY), then parsed by the buffer reader. */
#include "core/mmio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Refuse before parsing what the header asks for and memory cannot hold. */
static axb_status check_sizes(const mm_lex *L, const mm_header *H,
                              axb_dtype dtype, int want_dense) {
  if (want_dense && !mm_fits(H->rows * H->cols, axb_dtype_size(dtype)))
    return mm_dense_too_big(L, H->rows, H->cols, dtype);
  if (H->format == MM_ARRAY && !mm_fits(H->rows * H->cols, sizeof(double)))
    return mm_dense_too_big(L, H->rows, H->cols, AXB_F64);
  /* rows + 1 row pointers; rows may be INT64_MAX (with one column). */
  if (!want_dense && (H->rows > mm_mem_limit() / (int64_t)sizeof(int64_t) ||
                      !mm_fits(H->rows + 1, sizeof(int64_t))))
    return mm_fail(L, AXB_ERR_OUT_OF_MEMORY,
                   "CSR row pointers for %" PRId64
                   " rows need %.3g GiB, more than the %.3g GiB allowed "
                   "(physical memory)",
                   H->rows, ((double)H->rows + 1.0) * 8.0 / 1073741824.0,
                   (double)mm_mem_limit() / 1073741824.0);
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
  mm_values_free(&V);
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
    mm_entries_free(&E);
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

/* Exactly one of D, S non-NULL. */
static axb_status read_buffer(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *D,
                              axb_csr *S) {
  axb__clear(h);
  if (D) memset(D, 0, sizeof *D);
  if (S) memset(S, 0, sizeof *S);
  if (!D && !S) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  if (!buf && len > 0) return axb__fail(h, AXB_ERR_INVALID, "NULL buffer");
  if (dtype != AXB_F32 && dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_INVALID, "dtype %d is neither float nor double",
                     (int)dtype);
  mm_lex L;
  mm_lex_init(&L, h, name, buf, len);
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

/* The whole (decompressed) file into *buf (malloc'd), at most the limit. */
static axb_status load_file(axb_handle h, const char *path, char **buf,
                            size_t *len) {
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
  int64_t limit = mm_mem_limit();
  int64_t cap = sb.st_size > 0 ? (int64_t)sb.st_size + 1 : 1 << 16;
  if (cap > limit) cap = limit;
  char *p = malloc((size_t)cap);
  int64_t n = 0;
  axb_status st =
      p ? AXB_SUCCESS
        : axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                    "%s: cannot allocate %" PRId64 " bytes", path, cap);
  while (st == AXB_SUCCESS) {
    if (n == cap) {
      if (cap >= limit) {
        st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                       "%s: more than %.3g GiB of (decompressed) input, the "
                       "physical memory",
                       path, (double)limit / 1073741824.0);
        break;
      }
      int64_t c = cap > limit / 2 ? limit : 2 * cap;
      char *q = realloc(p, (size_t)c);
      if (!q) {
        st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                       "%s: cannot allocate %" PRId64 " bytes", path, c);
        break;
      }
      p = q;
      cap = c;
    }
    int64_t want = cap - n > (1 << 30) ? (1 << 30) : cap - n;
    int r = gzread(f, p + n, (unsigned)want);
    if (r < 0) {
      int zerr = 0;
      const char *msg = gzerror(f, &zerr);
      st = axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                     zerr == Z_ERRNO ? strerror(errno) : msg);
    } else if (r == 0) {
      break;
    } else {
      n += r;
    }
  }
  if (gzclose_r(f) != Z_OK && st == AXB_SUCCESS)
    st = axb__fail(h, AXB_ERR_IO, "%s: error closing the file", path);
  if (st != AXB_SUCCESS) {
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
  char *buf;
  size_t len;
  axb_status st = load_file(h, path, &buf, &len);
  if (st != AXB_SUCCESS) return st;
  st = read_buffer(h, path, buf, len, dtype, D, S);
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
  return read_buffer(h, name, buf, len, dtype, A, NULL);
}

axb_status axb_read_csr_mem(axb_handle h, const char *name, const char *buf,
                            size_t len, axb_dtype dtype, axb_csr *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "NULL result matrix");
  return read_buffer(h, name, buf, len, dtype, NULL, A);
}
