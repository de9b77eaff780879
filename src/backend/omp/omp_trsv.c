/*
 * Triangular solves with few right-hand sides on the CPU backend's threads
 * (issue 28): the block flags the threads meet at, and the float and
 * double instances of omp_trsv_t.h (the method is described there).
 */
#define _DEFAULT_SOURCE /* syscall (futex) under -std=c11 */
#include "backend/omp/omp.h"
#include "core/template.h"

#include <sched.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Largest block. */
enum { TRSV_MAXB = 256 };
/* Columns ahead that the row-oriented tile update prefetches, and rows of
   X the column-oriented one keeps in registers. */
enum { TRSV_AHEAD = 4, TRSV_STRIP = 32 };

/* Flags one cache line apart: a flag written by one thread does not evict
   the ones the others poll. */
enum { FLAG_STRIDE = 64 / sizeof(int) };
/* How long a waiter spins before it sleeps: long enough to cover a block's
   update on a quiet machine (microseconds), short enough that a waiter
   whose partner was descheduled gives its core back soon. */
#define TRSV_SPIN_SECONDS 20e-6

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Flag values: 0 not ready, 1 ready, 2 not ready and someone sleeps on
   it. */
static int *flag_of(const axb_omp_trsv_job *j, int64_t s) {
  return j->flags + s * FLAG_STRIDE;
}

int axb_omp_trsv_ready(const axb_omp_trsv_job *j, int64_t s) {
  return __atomic_load_n(flag_of(j, s), __ATOMIC_ACQUIRE) == 1;
}

void axb_omp_trsv_wait(const axb_omp_trsv_job *j, int64_t s) {
  int *f = flag_of(j, s);
  double t0 = 0;
  for (int64_t spins = 0;; ++spins) {
    if (__atomic_load_n(f, __ATOMIC_ACQUIRE) == 1) return;
    if (spins < 256 || spins % 64) {
      cpu_relax();
      continue;
    }
    if (t0 == 0) t0 = now_s();
    if (now_s() - t0 < TRSV_SPIN_SECONDS) continue;
#ifdef __linux__
    int zero = 0;
    /* Say that a waiter sleeps (0 -> 2), then sleep while the flag is 2;
       the publisher wakes the sleepers when it replaces a 2. */
    __atomic_compare_exchange_n(f, &zero, 2, 0, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
    if (__atomic_load_n(f, __ATOMIC_ACQUIRE) == 2)
      syscall(SYS_futex, f, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
    sched_yield();
#endif
  }
}

void axb_omp_trsv_publish(const axb_omp_trsv_job *j, int64_t s) {
  int *f = flag_of(j, s);
  const int old = __atomic_exchange_n(f, 1, __ATOMIC_ACQ_REL);
#ifdef __linux__
  if (old == 2)
    syscall(SYS_futex, f, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
  (void)old;
#endif
}

/* Rows per block: the diagonal blocks' solves are the critical path (a
   chain of nb of them), the tiles between them the bulk of the reads. */
static int64_t block_rows(int64_t m, size_t es) {
  const int64_t env = axb_omp_env_int("AXB_CPU_TRSV_BLOCK", 0);
  if (env >= 8 && env <= TRSV_MAXB) return env;
  (void)es;
  (void)m;
  return 64;
}

int axb_omp_trsv_job_init(axb_omp_trsv_job *j, axb_uplo uplo, axb_trans trans,
                          axb_diag diag, int64_t m, int64_t t, int64_t lda,
                          int64_t ldx, size_t es, int nt) {
  memset(j, 0, sizeof *j);
  j->m = m;
  j->t = t;
  j->lda = lda;
  j->ldx = ldx;
  j->block = block_rows(m, es);
  j->nb = (m + j->block - 1) / j->block;
  j->down = (uplo == AXB_LOWER) == (trans == AXB_NO_TRANS);
  j->cols = trans == AXB_NO_TRANS;
  j->unit = diag == AXB_UNIT;
  j->flags = axb__calloc(j->nb * FLAG_STRIDE, sizeof(int));
  /* Each thread's copy of its block: ld block + 8 (not a multiple of a
     page, so that its columns do not alias each other), t columns, and a
     page of room to place it half a page away from A's columns. */
  j->ldb = j->block + 8;
  j->room_each = j->ldb * t + (int64_t)(4096 / es);
  j->room = axb__malloc(j->room_each * (nt > 0 ? nt : 1), es);
  if (!j->flags || !j->room) {
    axb_omp_trsv_job_free(j);
    return 1;
  }
  return 0;
}

void axb_omp_trsv_job_free(axb_omp_trsv_job *j) {
  axb__free(j->flags);
  axb__free(j->room);
  j->flags = NULL;
  j->room = NULL;
}

/* Whether the column-oriented update may take three columns of X at once
   (omp_trsv_t.h, trsv_strip3_): its 3 x TRSV_STRIP values fit the 32
   vector registers of the AVX-512 clone, not the 16 of AVX2 or SSE2, where
   the pair-and-single sweeps are kept (the three-column strips were
   measured with AVX-512 only: the 2-core VM). */
static int trsv_three_cols(void) {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&         \
    defined(__linux__)
  static int known = -1; /* -1 not asked yet, else the answer */
  int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (v < 0) {
    v = __builtin_cpu_supports("avx512f") ? 1 : 0;
    __atomic_store_n(&known, v, __ATOMIC_RELAXED);
  }
  return v;
#else
  return 0;
#endif
}

#define AXB_TEMPLATE "backend/omp/omp_trsv_t.h"
#include "core/instantiate.h"
