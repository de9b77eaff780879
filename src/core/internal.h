/* Internal declarations shared by the library's parts (never installed). */
#ifndef AXB_INTERNAL_H
#define AXB_INTERNAL_H

#include "axb.h"
#include "backend/backend.h"

#include <stdarg.h>

#define AXB_DETAIL_LEN 1024

struct axb_handle_s {
  axb_backend backend;         /* resolved: CPU, CUDA, REF or OPENCL     */
  int device;                  /* CUDA ordinal                           */
  int threads;                 /* 0 = all cores                          */
  void *stream;                /* cudaStream_t in use                    */
  void *own_stream;            /* stream created by the handle, or NULL  */
  const axb_backend_ops *ops;  /* kernel table of the backend            */
  char detail[AXB_DETAIL_LEN]; /* last failure, "" after success         */
  /* AUTO dispatch (src/core/tune.c): an AUTO handle is a CPU handle that
     hands large problems to a CUDA handle created on first use. */
  axb_backend requested;    /* as asked at creation (AUTO kept)          */
  int gpu_state;            /* AUTO: 0 not yet probed, 1 GPU, -1 none    */
  axb_tuning tuning;        /* AUTO with a GPU: the crossovers in use    */
  struct axb_handle_s *gpu; /* AUTO: the CUDA sub-handle, or NULL       */
  void *ocl; /* OpenCL: context, queue, programs (src/backend/opencl) */
  /* The certified driver's working copy of A, kept between calls up to
     AXB_KEEP_WORK_MAX bytes (axb__handle_work), freed with the handle. */
  void *work;
  int64_t work_bytes;
};

/* Largest working copy a handle keeps between calls (256 MiB: n = 5792 in
   double).  Beyond it the O(n^2) first touch of a fresh copy is small
   beside the O(n^3) factorization, and holding it would surprise. */
#define AXB_KEEP_WORK_MAX ((int64_t)256 << 20)
/* h's kept buffer of at least `bytes` (<= AXB_KEEP_WORK_MAX): the one from
   an earlier call when it is large enough (its pages already touched:
   no page faults, no zeroing by the kernel), else a new one
   (axb__malloc_large) that replaces it.  NULL when out of memory.  Owned
   by h: never freed by the caller. */
void *axb__handle_work(axb_handle h, int64_t bytes);

/* Record a failure on h (h may be NULL) and return st, so that error paths
   read `return axb__fail(h, AXB_ERR_X, "what %d", v);`. */
axb_status axb__fail(axb_handle h, axb_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void axb__clear(axb_handle h);
/* Copy h's detail to the per-thread one (before h is freed on failure). */
void axb__keep_detail(axb_handle h);

/* Allocation with overflow checks; NULL when count * size overflows or
   malloc fails.  axb__malloc is 64-byte aligned; axb__calloc is calloc's
   (16-byte aligned, lazily zeroed pages).  Both are freed by axb__free. */
void *axb__malloc(int64_t count, size_t size);
void *axb__calloc(int64_t count, size_t size);
/* axb__malloc for large working arrays that are written at once (the
   driver's copy of A): from 4 MiB on, 2 MiB aligned and advised to use
   transparent huge pages (Linux madvise; where the system allows them), so
   that the first touch costs a fault per 2 MiB rather than per 4 KiB.
   Freed by axb__free. */
void *axb__malloc_large(int64_t count, size_t size);
/* realloc with the same checks (and the test hook below); p may be NULL. */
void *axb__realloc(void *p, int64_t count, size_t size);
void axb__free(void *p);
/* Test hook: the k-th axb__malloc/axb__calloc from now on fails (k <= 0:
   none); axb__alloc_seen() counts the allocations since the call. */
void axb__alloc_fail_at(int64_t k);
int64_t axb__alloc_seen(void);

/* Bytes this process can still allocate and touch: MemAvailable of
   /proc/meminfo, lowered by the room under any cgroup memory limit;
   physical memory when /proc is unreadable (src/core/sysmem.c). */
int64_t axb__memory_available(void);
/* Whether a working set of `need` bytes exceeds what is available (*have
   := the figure compared, for the message).  Below 16 MiB nothing is read
   unless AXB_MEMORY_LIMIT is set: the figure costs five file opens (~50 us,
   ten times a certified 4 x 4 solve) and malloc's own failure still shows. */
int axb__memory_short(double need, double *have);

/* axb_check_solve that tells a failed allocation (*oom = 1, NaN) from a
   NaN ratio (oom may be NULL). */
double axb__check_solve(const axb_dense *A, const axb_dense *X,
                        const axb_dense *B, int *oom);
/* num / (d1 d2 s) under check.c's conventions (NaN for a NaN or infinite
   factor; over a zero factor 0 when num = 0, else 1/eps): the scaled
   residuals' last step, s = n eps. */
double axb__check_ratio(double num, double d1, double d2, double s, double eps);
/* The same ratio, bit for bit, from one pass over A (residual and row sums
   together), rows shared among `threads` threads (0: OpenMP's default). */
double axb__backward_error(const axb_dense *A, const axb_dense *X,
                           const axb_dense *B, int threads, int *oom);
/* The same for op(A) X = B (trans AXB_TRANS: A^T, whose inf-norm is
   ||A||_1 and whose rows are A's columns). */
double axb__backward_error_op(const axb_dense *A, axb_trans trans,
                              const axb_dense *X, const axb_dense *B,
                              int threads, int *oom);

/* The same ratio for a symmetric A (tested exactly equal to A^T by the
   caller) from its lower triangle only, with ||A||_inf = anorm given (for
   a symmetric A, ||A||_1 bit for bit); `threads` column ranges (0:
   OpenMP's default).  Not bit for bit axb_check_solve's (another order of
   the residual's sums). */
double axb__backward_error_sym(const axb_dense *A, const axb_dense *X,
                               const axb_dense *B, double anorm, int threads,
                               int *oom);

/* Wall-clock seconds (monotonic). */
double axb__now(void);

/* 1 when every entry of the rows x cols block is finite; else 0 and the
   first offending (i, j) in *bad_i, *bad_j. */
int axb__dense_finite(const axb_dense *A, int64_t *bad_i, int64_t *bad_j);

#endif
