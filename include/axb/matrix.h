/*
 * <axb/matrix.h>: dense and sparse matrix descriptors, Matrix Market and text
 * I/O. One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_MATRIX_H
#define AXB_API_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include <axb/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Dense and sparse matrices                                                */
/* ------------------------------------------------------------------------ */

typedef enum { AXB_F32 = 1, AXB_F64 = 2 } axb_dtype;
typedef enum { AXB_MEM_HOST = 0, AXB_MEM_DEVICE = 1 } axb_memory;

const char *axb_dtype_name(axb_dtype t);
size_t axb_dtype_size(axb_dtype t);

/* A dense column-major matrix.  The struct is plain data: wrap your own
   array with axb_dense_wrap, or let axb_dense_create allocate one. */
typedef struct {
  int64_t rows, cols, ld;
  axb_dtype dtype;
  axb_memory mem;
  void *data;
  int owns; /* 1: axb_dense_destroy frees data */
} axb_dense;

axb_dense axb_dense_wrap(int64_t rows, int64_t cols, int64_t ld,
                         axb_dtype dtype, void *data);
/* Host allocation, zero-filled, ld = rows (>= 1). */
axb_status axb_dense_create(axb_dense *A, int64_t rows, int64_t cols,
                            axb_dtype dtype);
void axb_dense_destroy(axb_dense *A);
/* Element access by value (as double), for tools and tests. */
double axb_dense_get(const axb_dense *A, int64_t i, int64_t j);
void axb_dense_set(axb_dense *A, int64_t i, int64_t j, double v);

/* Compressed sparse row, 0-based, 64-bit offsets and column indices;
   columns sorted within each row, no duplicates. */
typedef struct {
  int64_t rows, cols, nnz;
  axb_dtype dtype;
  int64_t *rowptr; /* rows + 1 */
  int64_t *colind; /* nnz */
  void *values;    /* nnz of dtype */
} axb_csr;

axb_status axb_csr_create(axb_csr *A, int64_t rows, int64_t cols, int64_t nnz,
                          axb_dtype dtype);
void axb_csr_destroy(axb_csr *A);
/* Expand to a dense matrix (allocated by the call). */
axb_status axb_csr_to_dense(axb_handle h, const axb_csr *S, axb_dense *D);

/* ------------------------------------------------------------------------ */
/* Matrix Market and plain text I/O                                         */
/* ------------------------------------------------------------------------ */

/*
 * Readers accept Matrix Market `coordinate` (real, integer, pattern;
 * general, symmetric, skew-symmetric) and `array` (real, integer; general,
 * symmetric, skew-symmetric), optionally gzip-compressed (.gz), and the
 * plain dense text format (one row per line, whitespace separated) when
 * the file has no %%MatrixMarket banner.  Symmetric storage is expanded
 * (either triangle may be given; an entry given in both is a duplicate).
 * CSR keeps the explicit zeros of `coordinate` files and drops the zeros of
 * `array` and plain-text input.
 * Errors: AXB_ERR_IO (cannot open), AXB_ERR_PARSE (malformed, truncated,
 * count mismatch), AXB_ERR_INVALID (index out of range, duplicate entry,
 * NaN/Inf value, a nonzero value that underflows to 0 in the requested
 * dtype — read such files in double —, empty matrix),
 * AXB_ERR_OUT_OF_MEMORY (a read draws on one budget, 3/4 of available
 * memory, which the environment variable AXB_MMIO_MAX_BYTES can lower); the
 * handle's detail
 * holds "file:line: what".  h may be NULL (no detail then).
 */
axb_status axb_read_dense(axb_handle h, const char *path, axb_dtype dtype,
                          axb_dense *A);
axb_status axb_read_csr(axb_handle h, const char *path, axb_dtype dtype,
                        axb_csr *A);
/* Same, from a buffer in memory (name is used in messages). */
axb_status axb_read_dense_mem(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *A);
axb_status axb_read_csr_mem(axb_handle h, const char *name, const char *buf,
                            size_t len, axb_dtype dtype, axb_csr *A);
/* Writers: dense as `array real general`, sparse as `coordinate real
   general`; values printed with enough digits to round-trip; a path ending
   in .gz is written compressed; NaN/Inf values are refused (INVALID). */
axb_status axb_write_dense(axb_handle h, const char *path, const axb_dense *A);
axb_status axb_write_csr(axb_handle h, const char *path, const axb_csr *A);
/* What a Matrix Market file holds, from its banner and size line only
   (issue 23: the CLI's AUTO reads a large or very sparse coordinate file
   as CSR).  A file without a banner (plain text), or whose header is not
   in its first MiB, reads as coordinate = 0 with zero sizes.  Errors:
   AXB_ERR_IO, AXB_ERR_PARSE (malformed banner or size line). */
typedef struct {
  int coordinate; /* 1: `coordinate` format (sparse entries)           */
  int symmetric;  /* symmetric or skew-symmetric storage              */
  int64_t rows, cols;
  int64_t entries; /* coordinate: entries stored (one triangle when
                      symmetric); array: values stored                  */
} axb_mm_info;
axb_status axb_read_info(axb_handle h, const char *path, axb_mm_info *info);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_MATRIX_H */
