/* Matrix Market I/O: the public writers.  Dense -> `array real general`,
   CSR -> `coordinate real general`, values with %.17g (double) or %.9g
   (float) so that they read back exactly.  A path ending in ".gz" is written
   gzip-compressed.  NaN/Inf cannot be written (the readers reject them). */
#include "core/csr.h"
#include "core/mmio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Buffered output to a FILE or a gzFile. */
typedef struct {
  axb_handle h;
  const char *path;
  FILE *f;
  gzFile gz;
  axb_status st;
  size_t n;
  char buf[1 << 16];
} sink;

static int ends_with_gz(const char *path) {
  size_t n = strlen(path);
  return n >= 3 && strcmp(path + n - 3, ".gz") == 0;
}

static axb_status sink_open(sink *o, axb_handle h, const char *path) {
  o->h = h;
  o->path = path;
  o->f = NULL;
  o->gz = NULL;
  o->st = AXB_SUCCESS;
  o->n = 0;
  errno = 0;
  if (ends_with_gz(path))
    o->gz = gzopen(path, "wb");
  else
    o->f = fopen(path, "w");
  if (!o->f && !o->gz)
    return axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                     errno ? strerror(errno) : "cannot open for writing");
  return AXB_SUCCESS;
}

static void sink_flush(sink *o) {
  if (o->st != AXB_SUCCESS || o->n == 0) {
    o->n = 0;
    return;
  }
  errno = 0;
  int ok = o->f ? fwrite(o->buf, 1, o->n, o->f) == o->n
                : gzwrite(o->gz, o->buf, (unsigned)o->n) == (int)o->n;
  if (!ok)
    o->st = axb__fail(o->h, AXB_ERR_IO, "%s: write failed: %s", o->path,
                      errno ? strerror(errno) : "unknown error");
  o->n = 0;
}

static void sink_printf(sink *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sink_printf(sink *o, const char *fmt, ...) {
  if (sizeof o->buf - o->n < 256) sink_flush(o);
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->buf + o->n, sizeof o->buf - o->n, fmt, ap);
  va_end(ap);
  if (k > 0 && (size_t)k < sizeof o->buf - o->n) o->n += (size_t)k;
}

static axb_status sink_close(sink *o) {
  sink_flush(o);
  errno = 0;
  int bad = o->f ? fclose(o->f) != 0 : gzclose_w(o->gz) != Z_OK;
  if (bad && o->st == AXB_SUCCESS)
    o->st = axb__fail(o->h, AXB_ERR_IO, "%s: closing failed: %s", o->path,
                      errno ? strerror(errno) : "unknown error");
  return o->st;
}

static void put_value(sink *o, axb_dtype t, double v) {
  sink_printf(o, t == AXB_F64 ? "%.17g" : "%.9g", v);
}

static axb_status write_with(axb_handle h, const char *path,
                             void (*body)(sink *, const void *),
                             const void *A) {
  sink *o = malloc(sizeof *o);
  if (!o) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for a buffer");
  mm_locale lc;
  mm_locale_enter(&lc);
  axb_status st = sink_open(o, h, path);
  if (st == AXB_SUCCESS) {
    body(o, A);
    st = sink_close(o);
  }
  mm_locale_leave(&lc);
  free(o);
  if (st == AXB_SUCCESS) axb__clear(h);
  return st;
}

/* ---- dense --------------------------------------------------------------- */

static void dense_body(sink *o, const void *p) {
  const axb_dense *A = p;
  sink_printf(o, "%%%%MatrixMarket matrix array real general\n");
  sink_printf(o, "%% written by axb %s (%s)\n", axb_version(),
              axb_dtype_name(A->dtype));
  sink_printf(o, "%" PRId64 " %" PRId64 "\n", A->rows, A->cols);
  for (int64_t j = 0; j < A->cols && o->st == AXB_SUCCESS; ++j)
    for (int64_t i = 0; i < A->rows; ++i) {
      put_value(o, A->dtype, axb_dense_get(A, i, j));
      sink_printf(o, "\n");
    }
}

axb_status axb_write_dense(axb_handle h, const char *path, const axb_dense *A) {
  axb__clear(h);
  if (!path || !A) return axb__fail(h, AXB_ERR_INVALID, "NULL path or matrix");
  if (A->dtype != AXB_F32 && A->dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_INVALID, "dtype %d is neither float nor double",
                     (int)A->dtype);
  if (A->mem != AXB_MEM_HOST)
    return axb__fail(h, AXB_ERR_INVALID, "matrix is not in host memory");
  if (A->rows < 0 || A->cols < 0 || A->ld < (A->rows > 0 ? A->rows : 1) ||
      (!A->data && A->rows > 0 && A->cols > 0))
    return axb__fail(h, AXB_ERR_INVALID,
                     "bad dense matrix: %" PRId64 " x %" PRId64 ", ld %" PRId64,
                     A->rows, A->cols, A->ld);
  int64_t bi = 0, bj = 0;
  if (!axb__dense_finite(A, &bi, &bj))
    return axb__fail(h, AXB_ERR_INVALID,
                     "%s: entry (%" PRId64 ", %" PRId64
                     ") is NaN or Inf, which Matrix Market cannot hold",
                     path, bi + 1, bj + 1);
  return write_with(h, path, dense_body, A);
}

/* ---- CSR ----------------------------------------------------------------- */

static double csr_value(const axb_csr *A, int64_t k) {
  return A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                             : (double)((const float *)A->values)[k];
}

static void csr_body(sink *o, const void *p) {
  const axb_csr *A = p;
  sink_printf(o, "%%%%MatrixMarket matrix coordinate real general\n");
  sink_printf(o, "%% written by axb %s (%s)\n", axb_version(),
              axb_dtype_name(A->dtype));
  sink_printf(o, "%" PRId64 " %" PRId64 " %" PRId64 "\n", A->rows, A->cols,
              A->nnz);
  for (int64_t i = 0; i < A->rows && o->st == AXB_SUCCESS; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      sink_printf(o, "%" PRId64 " %" PRId64 " ", i + 1, A->colind[k] + 1);
      put_value(o, A->dtype, csr_value(A, k));
      sink_printf(o, "\n");
    }
}

/* Structure (axb__csr_check: all of rowptr, then the columns), then the
   values, so that the file is valid Matrix Market. */
static axb_status check_csr(axb_handle h, const char *path, const axb_csr *A) {
  axb_status st = axb__csr_check(h, A);
  if (st != AXB_SUCCESS) return st;
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (!isfinite(csr_value(A, k)))
        return axb__fail(h, AXB_ERR_INVALID,
                         "%s: entry (%" PRId64 ", %" PRId64
                         ") is NaN or Inf, which Matrix Market cannot hold",
                         path, i + 1, A->colind[k] + 1);
  return AXB_SUCCESS;
}

axb_status axb_write_csr(axb_handle h, const char *path, const axb_csr *A) {
  axb__clear(h);
  if (!path || !A) return axb__fail(h, AXB_ERR_INVALID, "NULL path or matrix");
  axb_status st = check_csr(h, path, A);
  if (st != AXB_SUCCESS) return st;
  return write_with(h, path, csr_body, A);
}
