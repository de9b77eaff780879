/*
 * Internal declarations of the CPU (OpenMP + OpenBLAS) backend.
 *
 * Threading policy (docs/PERFORMANCE.md says the same, with measurements):
 *
 *   All parallelism of axb's CPU kernels comes from OpenMP; OpenBLAS is
 *   called single-threaded, from inside the OpenMP threads.  Each kernel
 *   that calls OpenBLAS brackets its work with axb_omp_blas_begin/_end,
 *   which set OpenBLAS's (process-global) thread count to 1 and restore the
 *   caller's value afterwards.  Why:
 *     - Debian's default OpenBLAS is the pthread build: its worker pool is
 *       separate from libgomp's, and a threaded BLAS call issued from inside
 *       an OpenMP region would start T more threads on T cores
 *       (oversubscription), while a threaded call issued between OpenMP
 *       regions leaves the OpenBLAS workers spinning while the next region
 *       starts.  With one BLAS thread a call runs entirely in the calling
 *       OpenMP thread (OpenBLAS 0.3.x is safe to call concurrently).
 *     - Determinism: every BLAS call is then a sequential computation on a
 *       fixed block, and the blocks depend only on (n, nb, threads), so the
 *       result is bitwise reproducible for a given thread count whichever
 *       OpenMP thread happens to run a block.
 *     - The look-ahead (panel k+1 factored while the trailing update of step
 *       k runs) needs the BLAS calls of the panel and of the update to run
 *       side by side in different threads, which a threaded BLAS cannot do.
 *
 *   Which OpenBLAS (issue 28, docs/notes/certificate.md): the build links
 *   OpenBLAS's OpenMP build when installed (CMake AXB_OPENBLAS_THREADING).
 *   Its threads are libgomp's, the same pool as our teams, so the hybrid
 *   path below leaves no second pool spinning (the pthread build's idle
 *   workers spin ~0.1 s after each threaded call, and on 16 threads the
 *   driver's next phases ran 10-30x slower beside them); inside a parallel
 *   region it runs serially by itself, so the bracket then does nothing.
 *   Which build is loaded is asked at run time (both are libopenblas.so.0,
 *   axb_omp_blas_model); with the pthread build the Cholesky keeps off the
 *   hybrid path below n = 4096 and the few-columns solve runs on one
 *   thread while that build's pool still spins (issue 28d).
 *
 *   Exception, the hybrid path of getrf and potrf (axb_omp_use_hybrid: by
 *   default from 8 threads and n >= 1024, and for n >= 8192 on fewer
 *   threads; getrf on >= 8 threads takes it only above n = 8192 and
 *   otherwise the tiled look-ahead path of omp_lu_t.h, all OpenMP with
 *   single-threaded BLAS): the recursion on the whole
 *   matrix runs in the calling thread, outside any OpenMP region, with
 *   OpenBLAS threaded (nt threads of its own pool) in each gemm, trsm,
 *   syrk and laswp.  On the 16-core device host the OpenMP look-ahead path
 *   was 0.4-0.9x OpenBLAS at n = 2048-8192 (per-thread pieces too narrow,
 *   serial panel), the hybrid 0.65-1.3x (both measured with OpenBLAS's
 *   Prescott kernels, see docs/PERFORMANCE.md).  OpenBLAS's level-3 threading
 *   partitions the output statically by the thread count and never splits
 *   the inner dimension, so this path is also bitwise reproducible for a
 *   given thread count (tests/test_omp.c checks it, forced on 2 and 3).
 *
 * Pragmas go through AXB_OMP(...) so that a build without OpenMP compiles
 * them away (-Wunknown-pragmas is part of -Wall, and -Werror is on).
 */
#ifndef AXB_OMP_H
#define AXB_OMP_H

#include "backend/backend.h"
#include "core/internal.h"

#include <limits.h>
#include <stdint.h>

#ifdef AXB_HAVE_OPENMP
#include <omp.h>
#define AXB_PRAGMA_(x) _Pragma(#x)
#define AXB_OMP(x) AXB_PRAGMA_(omp x)
#else
#define AXB_OMP(x)
#endif

/* The few loops of our own that carry real flops (the LU and Cholesky
   leaves) are compiled for AVX-512 and AVX2 beside the baseline ISA, the
   best one picked at load time (GCC function multi-versioning, ifunc), so
   that they keep up with OpenBLAS's kernels on the small sizes. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&         \
    defined(__linux__)
#define AXB_OMP_CLONES                                                         \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define AXB_OMP_CLONES
#endif
/* Helpers of such loops: inlined into each clone, so that they are
   compiled for its ISA (a call would run the baseline code). */
#if defined(__GNUC__)
#define AXB_OMP_INLINE static inline __attribute__((always_inline))
#else
#define AXB_OMP_INLINE static inline
#endif

/* Threads a kernel may use: h->threads, or all cores (OpenMP's default team
   size, which honours OMP_NUM_THREADS) when it is 0. */
int axb_omp_threads(axb_handle h);
/* Index of the calling thread in the current team (0 without OpenMP). */
int axb_omp_thread_id(void);
/* Size of the current team (1 outside a parallel region or without
   OpenMP). */
int axb_omp_threads_in_team(void);

/* OpenBLAS thread count set to 1 for the duration of a kernel; returns the
   value to hand back to axb_omp_blas_end. */
int axb_omp_blas_begin(void);
void axb_omp_blas_end(int saved);

/* The hybrid path of getrf/potrf (many threads, see omp_lu_t.h): OpenBLAS
   itself threaded with nt threads of its own pool, called from the calling
   thread outside any OpenMP region (so never nt OpenMP threads beside nt
   OpenBLAS ones).  begin returns the value to hand back to end. */
int axb_omp_blas_begin_threaded(int nt);
void axb_omp_blas_end_threaded(int saved, int nt);
/* 1 when the OpenBLAS loaded is its OpenMP build (one thread pool,
   libgomp's, for OpenBLAS and our kernels; docs/notes/certificate.md,
   "Threading between phases"), 0 for the pthread build or no OpenBLAS. */
int axb_omp_blas_openmp(void);
/* The loaded BLAS's threading model: openblas_get_parallel(), resolved by
   name at run time (both OpenBLAS builds are libopenblas.so.0, so the
   dynamic linker picks one), or -1 for a BLAS without it. */
enum {
  AXB_OMP_BLAS_UNKNOWN = -1,
  AXB_OMP_BLAS_SEQUENTIAL = 0,
  AXB_OMP_BLAS_PTHREAD = 1,
  AXB_OMP_BLAS_OPENMP = 2
};
int axb_omp_blas_model(void);
/* The pthread build's idle workers spin for OPENBLAS_THREAD_TIMEOUT
   (2^28 cycles, ~0.1 s) after each threaded call, one per core beside our
   team: 1 when the last threaded call of the hybrid path ended less than
   AXB_CPU_SPIN_WINDOW_MS (default OMP_SPIN_MS) ago with that build
   loaded.  axb_omp_spin_window is the rule (model, seconds since that
   call, window in seconds), apart for the tests. */
#define OMP_SPIN_MS 130
int axb_omp_pool_spinning(void);
int axb_omp_spin_window(int model, double since_s, double window_s);
/* 1 when getrf (chol = 0) or potrf (chol = 1) of order n on nt threads
   takes the hybrid path: nt >= AXB_CPU_HYBRID_THREADS (default
   OMP_HYBRID_THREADS) and n within [AXB_CPU_HYBRID_MIN, AXB_CPU_HYBRID_MAX]
   (defaults OMP_HYBRID_MIN, OMP_HYBRID_MAX), or fewer threads (but > 1)
   and n >= AXB_CPU_HYBRID_LARGE (default OMP_HYBRID_LARGE);
   AXB_CPU_HYBRID=0/1 forces it off/on (n above the small-matrix cutoff
   only). */
int axb_omp_use_hybrid(int nt, int64_t n, int chol);
/* The same decision for a given threading model (axb_omp_blas_model):
   besides the rules above, no hybrid without OpenBLAS's threaded builds,
   and with the pthread build the Cholesky (chol = 1) takes it only from
   n = AXB_CPU_HYBRID_PTHREAD_MIN (default OMP_HYBRID_PTHREAD_MIN, in
   omp_blas.c): below it no pool of OpenBLAS's spins beside the phases
   that follow the factorization.  AXB_CPU_HYBRID=0/1 still wins. */
int axb_omp_hybrid_pick(int model, int nt, int64_t n, int chol);
/* Row interchanges ipiv[k1..k2-1] (1-based, relative to A's first row) on
   n columns of A through OpenBLAS's ?laswp (threaded by OpenBLAS on the
   hybrid path); ibuf: int workspace of at least k2 entries. */
void axb_omp_dlaswp_ob(int64_t n, double *A, int64_t lda, int64_t k1,
                       int64_t k2, const int64_t *ipiv, int *ibuf);
void axb_omp_slaswp_ob(int64_t n, float *A, int64_t lda, int64_t k1, int64_t k2,
                       const int64_t *ipiv, int *ibuf);

/* 1 when every size fits OpenBLAS's 32-bit integers. */
static inline int axb_omp_fits_int(int64_t a, int64_t b) {
  return a >= 0 && b >= 0 && a <= INT_MAX && b <= INT_MAX;
}

/* Block boundaries for the trailing updates: the columns [c0, n) are cut
   into at most `parts` pieces whose width is a multiple of `unit` (the
   last piece takes the rest).  Returns the number of pieces and writes
   their starts to bounds[0..count] (bounds[count] = n).  The cut depends
   only on (c0, n, unit, parts), never on timing: results stay bitwise
   reproducible for a given thread count. */
int axb_omp_split(int64_t c0, int64_t n, int64_t unit, int parts,
                  int64_t *bounds);
#define AXB_OMP_MAX_PARTS 256
/* The same with decreasing widths (piece q about (parts - q) shares): for
   dynamic schedules, so that the last pieces, which decide how long the
   other threads wait, are the small ones. */
int axb_omp_split_guided(int64_t c0, int64_t n, int64_t unit, int parts,
                         int64_t *bounds);
/* The same for work that shrinks linearly across [c0, n) (a triangle):
   piece [a, b) costs sum_{x=a}^{b-1} (n - x); pieces get equal cost. */
int axb_omp_split_tri(int64_t c0, int64_t n, int64_t unit, int parts,
                      int64_t *bounds);

/* A barrier for the threads of one parallel region that never sleeps:
   waiting threads spin, yielding the core (sched_yield) after a few rounds.
   libgomp's own barriers spin for a while and then sleep on a futex; in a
   virtual machine whose idle vCPUs are descheduled by the host, each such
   wake-up was measured at up to milliseconds (dpotrf n=512 on 2 threads:
   1.2 ms with OMP_WAIT_POLICY=active, 7-20 ms by default).  The kernels
   therefore end their worksharing loops with `nowait` and meet here.
   Zero-initialise one per region (in the enclosing function); every
   thread of the team calls axb_omp_barrier with its own `sense` (start 0).
   The atomics order all memory accesses before the barrier before those
   after it in every thread. */
typedef struct {
  int count;
  int phase;
} axb_omp_bar;
void axb_omp_barrier(axb_omp_bar *b, int *sense);

/* Spin (yielding the core after a few rounds) until the atomic *p equals
   v; acquire ordering. */
void axb_omp_wait_until(const int *p, int v);

/* Environment integer (library code never prints; a malformed value is
   ignored and `dflt` returned). */
int64_t axb_omp_env_int(const char *name, int64_t dflt);
/* The host mixed-precision session's kernels (omp_mixed.c); NULL without
   OpenBLAS. */
const axb_mixed_host_kernels *axb_omp_mixed_kernels(void);

/* Per-phase profile of the many-thread getrf/potrf paths (tiled LU,
   hybrid LU and Cholesky), for the benchmark (docs/PERFORMANCE.md): off
   unless the environment has AXB_OMP_PROFILE=1 when the factorization
   starts; then each thread adds the seconds it spends in each phase to its
   row of one process-wide record (the library never prints it; bench_cpu
   reads it through axb_omp_prof_get).  Concurrent profiled calls from
   several user threads would mix their rows: a measuring aid only. */
enum {
  AXB_OMP_PH_PANEL, /* tiled LU: the look-ahead panel (thread 0) */
  AXB_OMP_PH_SWAP,  /* tiled LU: interchanges of the trailing columns */
  AXB_OMP_PH_TRSM,  /* tiled LU: U12 := L11^-1 U12 */
  AXB_OMP_PH_GEMM,  /* tiled LU: trailing gemm tiles (J1 and the rest) */
  AXB_OMP_PH_WAIT,  /* tiled LU: spinning at the end-of-step barrier */
  AXB_OMP_PH_TAIL,  /* tiled LU: the final left interchanges */
  AXB_OMP_PH_LEAF,  /* recursion: unblocked leaves (getf2 / potf2) */
  AXB_OMP_PH_RSWAP, /* recursion: interchanges */
  AXB_OMP_PH_RTRSM, /* recursion: triangular solves */
  AXB_OMP_PH_RGEMM, /* recursion: gemm and syrk */
  AXB_OMP_PH_WAITJ, /* tiled LU: waiting for the next block column (J1):
                       its swap+trsm (others) or its gemm tiles (thread 0) */
  AXB_OMP_PH_WAITA, /* tiled LU: waiting for the trailing swap+trsm pieces */
  AXB_OMP_PH_COUNT
};
#define AXB_OMP_PROF_THREADS 64
typedef struct {
  double t[AXB_OMP_PROF_THREADS][AXB_OMP_PH_COUNT]; /* seconds */
  double wall; /* seconds inside the profiled calls */
  int calls;   /* profiled calls since the last reset */
  int threads; /* thread count of the last one */
  int path;    /* 1 tiled LU, 2 hybrid LU, 3 hybrid Cholesky, 4 other */
} axb_omp_prof;
extern int axb_omp_prof_on; /* read through AXB_PROF_ON() */
#define AXB_PROF_ON() __atomic_load_n(&axb_omp_prof_on, __ATOMIC_RELAXED)
double axb_omp_now(void);
/* Start of a profiled call: reads AXB_OMP_PROFILE, returns the start time
   (0 when off); end adds the call's wall time. */
double axb_omp_prof_begin(int nt, int path);
void axb_omp_prof_end(double t0);
/* rec[thread][phase] += now - t0; returns now (for chaining). */
double axb_omp_prof_add(int tid, int phase, double t0);
const axb_omp_prof *axb_omp_prof_get(void);
void axb_omp_prof_reset(void);
extern const char *const axb_omp_prof_names[AXB_OMP_PH_COUNT];
/* Phase bracket for code that may run in any thread; ADD_ is an
   expression that returns the new start time. */
#define AXB_PROF_ADD_(tid, ph, t0)                                             \
  (AXB_PROF_ON() ? axb_omp_prof_add((tid), (ph), (t0)) : 0.0)
#define AXB_PROF_T0() (AXB_PROF_ON() ? axb_omp_now() : 0.0)
#define AXB_PROF_ADD(tid, ph, t0)                                              \
  do {                                                                         \
    if (AXB_PROF_ON()) axb_omp_prof_add((tid), (ph), (t0));                    \
  } while (0)

/* Triangular solves with few right-hand sides (omp_trsv_t.h): the job the
   threads share, and the per-block flags they meet at (block s, in solve
   order, is ready once published; wait spins, then sleeps). */
typedef struct {
  int64_t m, t, lda, ldx;
  int64_t nb, block; /* blocks of `block` rows */
  int down;          /* op(A) lower: blocks solved downwards */
  int cols;          /* op(A) = A (not transposed): A used by columns */
  int unit;          /* unit diagonal */
  int64_t zero;      /* leading blocks (solve order) of zero rows: skipped */
  int *flags;        /* nb flags, a cache line apart */
  void *room;        /* per thread: its copy of a block of X (T entries) */
  int64_t room_each; /* entries of room per thread */
  int64_t ldb;       /* leading dimension of that copy */
} axb_omp_trsv_job;
/* Returns non-zero when the flags cannot be allocated. */
int axb_omp_trsv_job_init(axb_omp_trsv_job *j, axb_uplo uplo, axb_trans trans,
                          axb_diag diag, int64_t m, int64_t t, int64_t lda,
                          int64_t ldx, size_t es, int nt);
void axb_omp_trsv_job_free(axb_omp_trsv_job *j);
int axb_omp_trsv_ready(const axb_omp_trsv_job *j, int64_t s);
void axb_omp_trsv_wait(const axb_omp_trsv_job *j, int64_t s);
void axb_omp_trsv_publish(const axb_omp_trsv_job *j, int64_t s);

#define AXB_DECLARE_OMP(T, p)                                                  \
  /* BLAS wrappers: column-major, sizes checked by the caller to fit int. */   \
  void axb_omp_##p##gemm_(axb_trans ta, axb_trans tb, int64_t m, int64_t n,    \
                          int64_t k, T alpha, const T *A, int64_t lda,         \
                          const T *B, int64_t ldb, T beta, T *C, int64_t ldc); \
  void axb_omp_##p##trsm_(axb_side side, axb_uplo uplo, axb_trans trans,       \
                          axb_diag diag, int64_t m, int64_t n, T alpha,        \
                          const T *A, int64_t lda, T *B, int64_t ldb);         \
  void axb_omp_##p##trmm_(axb_side side, axb_uplo uplo, axb_trans trans,       \
                          axb_diag diag, int64_t m, int64_t n, T alpha,        \
                          const T *A, int64_t lda, T *B, int64_t ldb);         \
  void axb_omp_##p##syrk_(axb_uplo uplo, axb_trans trans, int64_t n,           \
                          int64_t k, T alpha, const T *A, int64_t lda, T beta, \
                          T *C, int64_t ldc);                                  \
  /* op(A) X = X (LEFT, alpha = 1), X m x t with t small, on nt threads        \
     (omp_trsv_t.h); returns non-zero, having done nothing, when its flags     \
     cannot be allocated. */                                                   \
  int axb_omp_##p##trsv_few(axb_uplo uplo, axb_trans trans, axb_diag diag,     \
                            int64_t m, int64_t t, const T *A, int64_t lda,     \
                            T *X, int64_t ldx, int nt);                        \
  /* Table entries. */                                                         \
  axb_status axb_omp_##p##gemm(axb_handle h, axb_trans ta, axb_trans tb,       \
                               int64_t m, int64_t n, int64_t k, T alpha,       \
                               const T *A, int64_t lda, const T *B,            \
                               int64_t ldb, T beta, T *C, int64_t ldc);        \
  axb_status axb_omp_##p##trsm(axb_handle h, axb_side side, axb_uplo uplo,     \
                               axb_trans trans, axb_diag diag, int64_t m,      \
                               int64_t n, T alpha, const T *A, int64_t lda,    \
                               T *B, int64_t ldb);                             \
  axb_status axb_omp_##p##laswp(axb_handle h, int64_t n, T *A, int64_t lda,    \
                                int64_t k1, int64_t k2, const int64_t *ipiv,   \
                                int forward);                                  \
  axb_status axb_omp_##p##getrf(axb_handle h, int64_t m, int64_t n, T *A,      \
                                int64_t lda, int64_t *ipiv, int64_t *info);    \
  axb_status axb_omp_##p##potrf(axb_handle h, axb_uplo uplo, int64_t n, T *A,  \
                                int64_t lda, int64_t *info);                   \
  axb_status axb_omp_##p##getri(axb_handle h, int64_t n, T *A, int64_t lda,    \
                                const int64_t *ipiv, int64_t *info);           \
  /* Blocked Gauss-Jordan inverse with partial pivoting (production path:      \
     the table's getri_gj; the study variant is getri_gj_unblocked). */        \
  axb_status axb_omp_##p##getri_gj_blocked(axb_handle h, int64_t n, T *A,      \
                                           int64_t lda, int64_t *info);        \
  /* Study variants (SEEDS.md 3 and 4). */                                     \
  axb_status axb_omp_##p##potrf_crout(axb_handle h, int64_t n, T *A,           \
                                      int64_t lda, int64_t *info);             \
  axb_status axb_omp_##p##getri_gj(axb_handle h, int64_t n, T *A, int64_t lda, \
                                   int64_t *info);

AXB_DECLARE_OMP(double, d)
AXB_DECLARE_OMP(float, s)

#endif
