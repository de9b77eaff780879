/* The typed LAPACK-like layer: instantiates lapack_t.h for double and float. */
#include "core/internal.h"
#include "core/template.h"
#include "dense/condest.h"
#include "dense/resident.h"

#include <math.h>
#include <string.h>

#define AXB_STR_d "axb_d"
#define AXB_STR_s "axb_s"

static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

/* An ld x cols array whose byte extent (at 8 bytes an entry, the larger
   type) overflows int64: no such array exists, and the kernels' index
   arithmetic would wrap (issue 19: getrf with n = 3037000500 crashed). */
static int oversize(int64_t ld, int64_t cols) {
  return cols > 0 && ld > INT64_MAX / 8 / cols;
}

static void set_info(int64_t *info, int64_t v) {
  if (info) *info = v;
}

/* Illegal argument i (LAPACK numbering, the handle not counted). */
static axb_status arg_error(axb_handle h, const char *routine, int i,
                            const char *what, int64_t *info) {
  set_info(info, -i);
  return axb__fail(h, -i, "%s: argument %d is illegal (%s)", routine, i, what);
}

/* Every ipiv[i] of an input pivot array in 1..n (1-based, LAPACK's
   convention): an entry out of range would make laswp read and write
   outside B.  O(n), once per call (issue 19). */
static axb_status check_ipiv(axb_handle h, const char *routine, int argno,
                             int64_t n, const int64_t *ipiv, int64_t *info) {
  for (int64_t i = 0; i < n; ++i)
    if (ipiv[i] < 1 || ipiv[i] > n) {
      set_info(info, -argno);
      return axb__fail(h, -argno,
                       "%s: argument %d is illegal (ipiv[%lld] = %lld is "
                       "outside 1..n = %lld; pivots are 1-based)",
                       routine, argno, (long long)i, (long long)ipiv[i],
                       (long long)n);
    }
  return AXB_SUCCESS;
}

static axb_status not_supported(axb_handle h, const char *routine,
                                int64_t *info) {
  set_info(info, 0);
  return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "%s is not implemented on the %s backend", routine,
                   h->ops ? h->ops->name : axb_backend_name(h->backend));
}

/* The argument checks every solve shares: n, nrhs, A, lda, [ipiv,] B, ldb
   are arguments off+1, off+2, ... (ipiv only when has_ipiv). */
static axb_status check_system(axb_handle h, const char *r, int off, int64_t n,
                               int64_t nrhs, const void *A, int64_t lda,
                               const int64_t *ipiv, int has_ipiv, const void *B,
                               int64_t ldb, int64_t *info) {
  int i = off;
  if (n < 0) return arg_error(h, r, i + 1, "n < 0", info);
  if (nrhs < 0) return arg_error(h, r, i + 2, "nrhs < 0", info);
  if (!A && n > 0) return arg_error(h, r, i + 3, "A is NULL", info);
  if (lda < imax(1, n) || oversize(lda, n))
    return arg_error(h, r, i + 4, "lda < max(1, n), or lda * n overflows",
                     info);
  if (has_ipiv && !ipiv && n > 0)
    return arg_error(h, r, i + 5, "ipiv is NULL", info);
  i += has_ipiv;
  if (!B && n > 0 && nrhs > 0) return arg_error(h, r, i + 5, "B is NULL", info);
  if (ldb < imax(1, n) || oversize(ldb, nrhs))
    return arg_error(h, r, i + 6, "ldb < max(1, n), or ldb * nrhs overflows",
                     info);
  return AXB_SUCCESS;
}

/* The checks getrf and getrf_dev share (LAPACK numbering 1..5). */
static axb_status check_getrf(axb_handle h, const char *r, int64_t m, int64_t n,
                              const void *A, int64_t lda, const int64_t *ipiv,
                              int64_t *info) {
  if (m < 0) return arg_error(h, r, 1, "m < 0", info);
  if (n < 0) return arg_error(h, r, 2, "n < 0", info);
  if (!A && m > 0 && n > 0) return arg_error(h, r, 3, "A is NULL", info);
  if (lda < imax(1, m) || oversize(lda, n))
    return arg_error(h, r, 4, "lda < max(1, m), or lda * n overflows", info);
  if (!ipiv && m > 0 && n > 0) return arg_error(h, r, 5, "ipiv is NULL", info);
  return AXB_SUCCESS;
}

/* The checks potrf and potrf_dev share (LAPACK numbering 1..4). */
static axb_status check_potrf(axb_handle h, const char *r, axb_uplo uplo,
                              int64_t n, const void *A, int64_t lda,
                              int64_t *info) {
  if (uplo != AXB_LOWER && uplo != AXB_UPPER)
    return arg_error(h, r, 1, "uplo", info);
  if (n < 0) return arg_error(h, r, 2, "n < 0", info);
  if (!A && n > 0) return arg_error(h, r, 3, "A is NULL", info);
  if (lda < imax(1, n) || oversize(lda, n))
    return arg_error(h, r, 4, "lda < max(1, n), or lda * n overflows", info);
  return AXB_SUCCESS;
}

/* Turn a kernel's (status, index) into the routine's result and detail. */
static axb_status finish(axb_handle h, const char *routine, axb_status st,
                         int64_t i, int64_t *info) {
  switch (st) {
  case AXB_SUCCESS: set_info(info, 0); return st;
  case AXB_ERR_SINGULAR:
    set_info(info, i);
    return axb__fail(h, st,
                     "%s: pivot %lld is exactly zero: the matrix is singular",
                     routine, (long long)i);
  case AXB_ERR_NOT_SPD:
    set_info(info, i);
    return axb__fail(h, st,
                     "%s: the leading minor of order %lld is not positive "
                     "definite",
                     routine, (long long)i);
  case AXB_ERR_SMALL_PIVOT:
    set_info(info, i);
    if (h->detail[0]) return st; /* the kernel's message names the value */
    return axb__fail(h, st,
                     "%s: pivot %lld is zero or tiny and pivoting is off",
                     routine, (long long)i);
  default:
    set_info(info, 0);
    if (h->detail[0] == '\0')
      axb__fail(h, st, "%s: %s", routine, axb_strerror(st));
    return st;
  }
}

void axb_fixedpoint_opts_default(axb_fixedpoint_opts *opts) {
  if (!opts) return;
  opts->tol = 0;
  opts->max_sweeps = 0;
  opts->section = 0;
  opts->block = 0;
  opts->scheduler = AXB_FP_SCHED_PAIRS;
  opts->streams = 0;
}

void axb_potrf_columns_opts_default(axb_potrf_columns_opts *opts) {
  if (!opts) return;
  opts->kernels = 2;
  opts->in_place = 1;
  opts->threads = 256;
}

/* The study kernels' threads per block: 0 means 256 (*t is set to it);
   else a power of two in 32..1024. */
static int block_threads_ok(int *t) {
  if (*t == 0) *t = 256;
  return *t >= 32 && *t <= 1024 && (*t & (*t - 1)) == 0;
}

/* Check the column-Cholesky options (argument 4); threads 0 means 256. */
static axb_status resolve_columns(axb_handle h, const char *r,
                                  const axb_potrf_columns_opts *in,
                                  axb_potrf_columns_opts *o, int64_t *info) {
  axb_potrf_columns_opts_default(o);
  if (in) *o = *in;
  if ((o->kernels != 1 && o->kernels != 2) ||
      (o->in_place != 0 && o->in_place != 1) || !block_threads_ok(&o->threads))
    return arg_error(h, r, 4,
                     "opts: kernels 1 or 2, in_place 0 or 1, threads a power "
                     "of two 32..1024",
                     info);
  return AXB_SUCCESS;
}

void axb_rowcyclic_opts_default(axb_rowcyclic_opts *opts) {
  if (!opts) return;
  opts->pivot = 1;
  opts->schedule = AXB_RC_DECREMENT;
  opts->blocks = 0;
  opts->threads = 256;
  opts->pipelined = 0;
}

/* Check the row-cyclic options (argument 7); threads 0 means 256. */
static axb_status resolve_rowcyclic(axb_handle h, const char *r,
                                    const axb_rowcyclic_opts *in,
                                    axb_rowcyclic_opts *o, int64_t *info) {
  axb_rowcyclic_opts_default(o);
  if (in) *o = *in;
  if ((o->pivot != 0 && o->pivot != 1) ||
      (o->schedule != AXB_RC_HALVE && o->schedule != AXB_RC_DECREMENT) ||
      o->blocks < 0 || !block_threads_ok(&o->threads) ||
      (o->pipelined != 0 && o->pipelined != 1))
    return arg_error(h, r, 7,
                     "opts: pivot 0/1, schedule HALVE/DECREMENT, blocks >= 0, "
                     "threads a power of two 32..1024, pipelined 0/1",
                     info);
  return AXB_SUCCESS;
}

/* Check the fixed-point options (argument 4) and resolve the defaults:
   block 16; section clamp(n/10, 256, 1024) rounded up to a multiple of
   block, n when that reaches n; cap 2 s + 8 sweeps per section (a section
   of edge s is exact after at most 2 s sweeps in exact arithmetic, one
   more confirms it); 8 streams. */
static axb_status resolve_fixedpoint(axb_handle h, const char *r, int64_t n,
                                     const axb_fixedpoint_opts *in,
                                     axb_fixedpoint_opts *o,
                                     axb_fixedpoint_stats *st, int64_t *info) {
  axb_fixedpoint_opts_default(o);
  if (in) *o = *in;
  if (!(o->tol >= 0) || o->max_sweeps < 0 || o->section < 0 ||
      (o->block != 0 && o->block != 8 && o->block != 16 && o->block != 32) ||
      (o->scheduler != AXB_FP_SCHED_PAIRS &&
       o->scheduler != AXB_FP_SCHED_DAG) ||
      o->streams < 0 || o->streams > 64)
    return arg_error(h, r, 4,
                     "opts: tol >= 0, max_sweeps >= 0, section >= 0, block "
                     "0/8/16/32, scheduler PAIRS/DAG, streams 0..64",
                     info);
  if (o->block == 0) o->block = 16;
  if (o->streams == 0) o->streams = 8;
  int64_t s = o->section;
  if (s == 0) s = n / 10 < 256 ? 256 : n / 10 > 1024 ? 1024 : n / 10;
  s = (s + o->block - 1) / o->block * o->block;
  if (s >= n) s = n;
  o->section = s;
  if (o->max_sweeps == 0) o->max_sweeps = 2 * s + 8;
  if (st) {
    int64_t *ss = st->section_sweeps, len = st->section_sweeps_len;
    memset(st, 0, sizeof *st);
    st->section = s;
    st->nsec = s > 0 ? (n + s - 1) / s : 0;
    if (ss && len >= st->nsec * st->nsec) {
      st->section_sweeps = ss;
      st->section_sweeps_len = len;
      for (int64_t i = 0; i < st->nsec * st->nsec; ++i)
        ss[i] = 0;
    }
  }
  return AXB_SUCCESS;
}

#define AXB_TEMPLATE "dense/lapack_t.h"
#include "core/instantiate.h"
