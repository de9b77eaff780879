/*
 * axb_read_info (issue 23): what a Matrix Market file holds, from its
 * banner and size line alone, so that a caller (the CLI's AUTO) can choose
 * between the dense and the sparse reader before reading the entries.
 * Reads at most the first MM_INFO_BYTES (decompressed) of the file.
 */
#include "core/mmio.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

/* A header (banner, comments, size line) longer than this is not looked
   for: the file is then reported as not a coordinate file. */
#define MM_INFO_BYTES ((int64_t)1 << 20)

axb_status axb_read_info(axb_handle h, const char *path, axb_mm_info *info) {
  if (!info) return axb__fail(h, AXB_ERR_INVALID, "NULL info");
  memset(info, 0, sizeof *info);
  if (!path) return axb__fail(h, AXB_ERR_INVALID, "NULL path");
  errno = 0;
  gzFile f = gzopen(path, "rb");
  if (!f)
    return axb__fail(h, AXB_ERR_IO, "%s: %s", path,
                     errno ? strerror(errno) : "cannot open");
  char *buf = axb__malloc(MM_INFO_BYTES, 1);
  if (!buf) {
    gzclose_r(f);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory to read a header");
  }
  int got = gzread(f, buf, (unsigned)MM_INFO_BYTES);
  gzclose_r(f);
  if (got < 0) {
    axb__free(buf);
    return axb__fail(h, AXB_ERR_IO, "%s: cannot read", path);
  }
  mm_budget B = {INT64_MAX, 0};
  mm_lex L;
  mm_lex_init(&L, h, path, buf, (size_t)got, &B);
  mm_header H;
  mm_locale lc;
  mm_locale_enter(&lc);
  axb_status st = mm_read_header(&L, &H);
  mm_locale_leave(&lc);
  axb__free(buf);
  if (st) { /* a header cut at MM_INFO_BYTES is not an error */
    if (got < MM_INFO_BYTES) return st;
    axb__clear(h);
    return AXB_SUCCESS;
  }
  info->coordinate = H.format == MM_COORDINATE;
  info->symmetric = H.symmetry != MM_GENERAL;
  info->rows = H.rows;
  info->cols = H.cols;
  info->entries = H.count;
  return AXB_SUCCESS;
}
