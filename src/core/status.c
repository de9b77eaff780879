/* Status strings, detail messages, version and small utilities. */
/* madvise's MADV_HUGEPAGE (axb__malloc_large) is outside strict POSIX. */
#define _DEFAULT_SOURCE
#include "core/internal.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *axb_strerror(axb_status st) {
  if (st < 0 && st > -100)
    return "illegal argument (the detail message names it)";
  switch (st) {
  case AXB_SUCCESS: return "success";
  case AXB_ERR_SINGULAR: return "matrix is singular (exact zero pivot)";
  case AXB_ERR_NOT_SPD: return "matrix is not symmetric positive definite";
  case AXB_ERR_SMALL_PIVOT: return "zero or tiny pivot without pivoting";
  case AXB_ERR_NO_CONVERGENCE: return "iteration did not converge";
  case AXB_ERR_ILL_CONDITIONED:
    return "matrix is singular to working precision (rcond < eps)";
  case AXB_ERR_INACCURATE: return "solution failed its backward error check";
  case AXB_ERR_INVALID: return "invalid input";
  case AXB_ERR_OUT_OF_MEMORY: return "out of memory";
  case AXB_ERR_IO: return "I/O error";
  case AXB_ERR_PARSE: return "malformed input";
  case AXB_ERR_NOT_SUPPORTED: return "not supported";
  case AXB_ERR_NOT_COMPILED: return "backend not compiled in";
  case AXB_ERR_NO_DEVICE: return "no usable GPU";
  case AXB_ERR_DEVICE: return "device error";
  case AXB_ERR_INTERNAL: return "internal error";
  default: return "unknown status";
  }
}

const char *axb_version(void) { return "0.1.0"; }

void axb_version_numbers(int *major, int *minor, int *patch) {
  if (major) *major = AXB_VERSION_MAJOR;
  if (minor) *minor = AXB_VERSION_MINOR;
  if (patch) *patch = AXB_VERSION_PATCH;
}

/* Failures without a handle (handle creation, I/O called with h = NULL)
   keep their detail here, one per thread: axb_detail(NULL) reads it. */
static _Thread_local char detail_without_handle[AXB_DETAIL_LEN];

axb_status axb__fail(axb_handle h, axb_status st, const char *fmt, ...) {
  char *buf = h ? h->detail : detail_without_handle;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, AXB_DETAIL_LEN, fmt, ap);
  va_end(ap);
  return st;
}

void axb__clear(axb_handle h) {
  (h ? h->detail : detail_without_handle)[0] = '\0';
}

void axb__keep_detail(axb_handle h) {
  if (h) snprintf(detail_without_handle, AXB_DETAIL_LEN, "%s", h->detail);
}

const char *axb_detail(axb_handle h) {
  return h ? h->detail : detail_without_handle;
}

static int mul_overflows(int64_t count, size_t size) {
  return count < 0 || (size && (uint64_t)count > (uint64_t)INT64_MAX / size);
}

/* Allocation-failure injection (tests/test_alloc_fail.c): armed with
   axb__alloc_fail_at(k), the k-th axb__malloc / axb__calloc from then on
   returns NULL (once), so that a test can make every allocation of a call
   fail in turn.  Compiled in always; unarmed it costs one relaxed load. */
static int64_t alloc_armed, alloc_seen, alloc_fail_k;

void axb__alloc_fail_at(int64_t k) {
  __atomic_store_n(&alloc_seen, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&alloc_fail_k, k, __ATOMIC_RELAXED);
  __atomic_store_n(&alloc_armed, k > 0, __ATOMIC_RELEASE);
}

int64_t axb__alloc_seen(void) {
  return __atomic_load_n(&alloc_seen, __ATOMIC_RELAXED);
}

static int injected_failure(void) {
  if (!__atomic_load_n(&alloc_armed, __ATOMIC_ACQUIRE)) return 0;
  int64_t i = __atomic_add_fetch(&alloc_seen, 1, __ATOMIC_RELAXED);
  return i == __atomic_load_n(&alloc_fail_k, __ATOMIC_RELAXED);
}

void *axb__malloc(int64_t count, size_t size) {
  if (mul_overflows(count, size) || injected_failure()) return NULL;
  size_t bytes = (size_t)count * size;
  /* aligned_alloc needs a multiple of the alignment. */
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded == 0) rounded = 64;
  return aligned_alloc(64, rounded);
}

/* glibc hands blocks above 32 MiB (its largest mmap threshold) out as fresh
   mappings, so every call of the driver at n >= 2048 paid a page fault per
   4 KiB of its copy of A: 21 ms of the 134 ms of axb_solve at n = 2048 on
   the 2-core VM (docs/notes/certificate.md).  With huge pages advised the
   faults are 512 times fewer. */
void *axb__malloc_large(int64_t count, size_t size) {
  enum { HUGE = 2 << 20 };
  if (mul_overflows(count, size)) return NULL;
  size_t bytes = (size_t)count * size;
  if (bytes < 2 * (size_t)HUGE) return axb__malloc(count, size);
  if (injected_failure()) return NULL;
  size_t rounded = (bytes + HUGE - 1) / HUGE * HUGE;
  void *p = aligned_alloc(HUGE, rounded);
#ifdef MADV_HUGEPAGE
  if (p) (void)madvise(p, rounded, MADV_HUGEPAGE); /* advice only */
#endif
  return p;
}

/* calloc, not aligned_alloc + memset: the kernel hands out zero pages
   lazily, so a large zero-filled block costs no memory until it is written
   (a CSR with many empty rows, a dense result filled sparsely).  calloc only
   guarantees malloc's alignment (16 bytes on x86-64 glibc), which every
   caller accepts; axb__malloc stays 64-byte aligned.  Both come from the C
   allocator, so axb__free frees either with free(). */
void *axb__calloc(int64_t count, size_t size) {
  if (mul_overflows(count, size) || injected_failure()) return NULL;
  /* A zero-byte request still returns a pointer (never NULL on success). */
  if (count == 0 || size == 0) return calloc(1, 1);
  return calloc((size_t)count, size);
}

void *axb__realloc(void *p, int64_t count, size_t size) {
  if (mul_overflows(count, size) || injected_failure()) return NULL;
  size_t bytes = (size_t)count * size;
  return realloc(p, bytes ? bytes : 1);
}

void axb__free(void *p) { free(p); }

double axb__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
