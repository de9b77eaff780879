/*
 * libaxb_lapack.so: LAPACK's Fortran ABI for the routines axb implements
 * ({s,d}getrf getrs gesv getri potrf potrs posv, dsgesv, dsposv), so that
 * existing programs get axb by LD_PRELOAD or by linking it before
 * -llapack.  Every other BLAS/LAPACK symbol stays with the system library.
 *
 * This file holds what is not per routine: the configuration read once
 * from the environment, the per-thread handles, the per-call dispatch
 * between the CPU and CUDA backends, the trace, and the way back to the
 * system library.  The routines: lapack_t.h (s, d) and lapack_mixed.c.
 *
 * Recursion: libaxb's solvers never call LAPACK (their kernels are axb's
 * own, with OpenBLAS's BLAS for gemm/trsm, symbols this library does not
 * define); only its comparison anchors do, and those resolve their LAPACK
 * entry points inside OpenBLAS itself (src/vendor/lapack_anchor.c), so a
 * benchmark run under LD_PRELOAD still measures OpenBLAS, not axb twice.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "axb_lapack.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Solves from factors the caller already holds (getrs, potrs) move to the
   GPU only with at least this many right-hand sides: the factor's n^2
   words cross the bus for 2 n^2 nrhs flops, which a multicore CPU does in
   less time than the copy below a few hundred columns. */
#define AXL_SOLVE_NRHS 256

enum { MODE_AUTO = 0, MODE_CPU = 1, MODE_CUDA = 2 };

static struct {
  int mode;
  int verbose;
  int check;        /* AXB_LAPACK_CHECK */
  int64_t cross[3]; /* smallest n for the GPU, per axl_kind */
  int gpus;         /* CUDA devices (probed once, when first needed) */
  pthread_key_t key;
  int key_ok;
} cfg;

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_once_t gpu_once = PTHREAD_ONCE_INIT;

static void thread_free(void *p) {
  axl_thread *t = p;
  if (!t) return;
  axb_handle_destroy(t->cpu);
  axb_handle_destroy(t->cuda);
  free(t->piv);
  free(t);
}

/* dlclose of the drop-in (a program that dlopens it): the key's destructor
   would point into unmapped code at the next thread exit, so the key goes
   first.  The states of live threads are leaked, not freed under them. */
__attribute__((destructor)) static void unload(void) {
  if (cfg.key_ok) {
    cfg.key_ok = 0;
    pthread_key_delete(cfg.key);
  }
}

static const char *mode_name(int m) {
  return m == MODE_CPU ? "cpu" : m == MODE_CUDA ? "cuda" : "auto";
}

/* Read once: a program that changes the environment while it runs does
   not change the dispatch (getenv is not safe beside setenv in threads). */
static void cfg_init(void) {
  const char *v = getenv("AXB_LAPACK_VERBOSE");
  cfg.verbose = v && *v && strcmp(v, "0") != 0;
  v = getenv("AXB_LAPACK_CHECK");
  cfg.check = v && *v && strcmp(v, "0") != 0;
  cfg.mode = MODE_AUTO;
  v = getenv("AXB_LAPACK_BACKEND");
  if (v && strcmp(v, "cpu") == 0) cfg.mode = MODE_CPU;
  if (v && strcmp(v, "cuda") == 0) cfg.mode = MODE_CUDA;
  if (v && *v && strcmp(v, "auto") && strcmp(v, "cpu") && strcmp(v, "cuda") &&
      cfg.verbose)
    fprintf(stderr, "axb_lapack: AXB_LAPACK_BACKEND=%s unknown, using auto\n",
            v);
  /* The crossovers of `axb tune` (its file, else axb's defaults). */
  axb_tuning tu;
  char err[256];
  axb_tuning_current(&tu, err, sizeof err);
  cfg.cross[AXL_LU] = tu.crossover[AXB_TUNE_LU];
  cfg.cross[AXL_CHOL] = tu.crossover[AXB_TUNE_CHOLESKY];
  cfg.cross[AXL_INV] = tu.crossover[AXB_TUNE_INVERSE];
  const int from_file = tu.from_file[AXB_TUNE_LU] ||
                        tu.from_file[AXB_TUNE_CHOLESKY] ||
                        tu.from_file[AXB_TUNE_INVERSE];
  v = getenv("AXB_LAPACK_THRESHOLD");
  if (v && *v) {
    char *end = NULL;
    long long t = strtoll(v, &end, 10);
    if (end && *end == '\0' && t >= 1)
      cfg.cross[0] = cfg.cross[1] = cfg.cross[2] = t;
    else if (cfg.verbose)
      fprintf(stderr, "axb_lapack: AXB_LAPACK_THRESHOLD=%s ignored\n", v);
  }
  cfg.key_ok = pthread_key_create(&cfg.key, thread_free) == 0;
  if (cfg.verbose)
    fprintf(stderr,
            "axb_lapack: axb %s, backend %s, GPU from n >= %lld (LU), "
            "%lld (Cholesky), %lld (inverse)%s%s\n",
            axb_version(), mode_name(cfg.mode), (long long)cfg.cross[AXL_LU],
            (long long)cfg.cross[AXL_CHOL], (long long)cfg.cross[AXL_INV],
            from_file ? ", crossovers from " : "", from_file ? tu.path : "");
}

/* Probing CUDA starts the driver (tens of milliseconds): only done when a
   call is large enough to move. */
static void gpu_init(void) {
  int n = 0;
  if (axb_backend_compiled(AXB_BACKEND_CUDA) &&
      axb_cuda_device_count(&n) != AXB_SUCCESS)
    n = 0;
  cfg.gpus = n;
}

static axl_thread *thread_state(void) {
  pthread_once(&cfg_once, cfg_init);
  if (!cfg.key_ok) return NULL;
  axl_thread *t = pthread_getspecific(cfg.key);
  if (t) return t;
  t = calloc(1, sizeof *t);
  if (!t) return NULL;
  if (pthread_setspecific(cfg.key, t) != 0) {
    free(t);
    return NULL;
  }
  return t;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int want_gpu(axl_kind kind, int64_t n, int64_t nrhs, int solve_only) {
  if (cfg.mode == MODE_CPU) return 0;
  if (cfg.mode == MODE_AUTO) {
    if (n < cfg.cross[kind]) return 0;
    if (solve_only && nrhs < AXL_SOLVE_NRHS) return 0;
  }
  if (!axb_backend_compiled(AXB_BACKEND_CUDA)) return 0;
  pthread_once(&gpu_once, gpu_init);
  return cfg.gpus > 0;
}

static int cpu_handle(axl_thread *t) {
  if (!t->cpu && axb_handle_create(&t->cpu, AXB_BACKEND_CPU, 0) != AXB_SUCCESS)
    t->cpu = NULL;
  return t->cpu ? 0 : -1;
}

int axl_begin(axl_call *c, const char *name, axl_kind kind, int64_t n,
              int64_t nrhs, int solve_only) {
  memset(c, 0, sizeof *c);
  c->name = name;
  c->t = thread_state();
  if (!c->t) return -1;
  if (cfg.verbose) c->t0 = now();
  axl_thread *t = c->t;
  if (want_gpu(kind, n, nrhs, solve_only) && !t->cuda_failed) {
    if (!t->cuda &&
        axb_handle_create(&t->cuda, AXB_BACKEND_CUDA, 0) != AXB_SUCCESS) {
      t->cuda = NULL;
      t->cuda_failed = 1;
      if (cfg.verbose)
        fprintf(stderr, "axb_lapack: no CUDA handle (%s), CPU from now on\n",
                axb_detail(NULL));
    }
    if (t->cuda) {
      c->h = t->cuda;
      c->on_gpu = 1;
      return 0;
    }
  } else if (cfg.mode == MODE_CUDA && cfg.verbose && !t->cuda_failed &&
             !t->cuda) {
    fprintf(stderr, "axb_lapack: AXB_LAPACK_BACKEND=cuda but no GPU\n");
    t->cuda_failed = 1;
  }
  if (cpu_handle(t)) return -1;
  c->h = t->cpu;
  return 0;
}

int axl_retry_cpu(axl_call *c, axb_status st) {
  if (!c->on_gpu || cpu_handle(c->t)) return -1;
  if (cfg.verbose)
    fprintf(stderr, "axb_lapack: %s on the GPU failed (%s: %s), CPU retry\n",
            c->name, axb_strerror(st), axb_detail(c->h));
  c->h = c->t->cpu;
  c->on_gpu = 0;
  return 0;
}

void axl_end(axl_call *c, axb_status st, lapack_int info) {
  if (!cfg.verbose) return;
  if (st == AXB_SUCCESS || st == AXB_ERR_SINGULAR || st == AXB_ERR_NOT_SPD)
    fprintf(stderr, "axb_lapack: %s -> %s, %.3g s, info %d\n", c->name,
            c->on_gpu ? "cuda" : "cpu", now() - c->t0, info);
  else
    fprintf(stderr, "axb_lapack: %s -> system LAPACK (axb: %s: %s)\n", c->name,
            axb_strerror(st), c->h ? axb_detail(c->h) : "no handle");
}

int64_t *axl_piv(axl_call *c, int64_t n) {
  axl_thread *t = c->t;
  size_t need = n > 0 ? (size_t)n : 1;
  if (t->piv_cap < need) {
    int64_t *p = realloc(t->piv, need * sizeof *p);
    if (!p) return NULL;
    t->piv = p;
    t->piv_cap = need;
  }
  return t->piv;
}

int axl_check_on(void) {
  pthread_once(&cfg_once, cfg_init);
  return cfg.check;
}

/* The warning goes to stderr, never stdout (the host program's), and INFO
   stays LAPACK's: a positive INFO means a singular pivot to every LAPACK
   caller, so a new meaning there would be misread. */
void axl_certify(const char *name, axb_dtype t, int64_t n, int64_t nrhs,
                 const void *A, const void *B, const void *X, int64_t ldx) {
  axb_dense Ad = axb_dense_wrap(n, n, n, t, (void *)A);
  axb_dense Bd = axb_dense_wrap(n, nrhs, n, t, (void *)B);
  axb_dense Xd = axb_dense_wrap(n, nrhs, ldx, t, (void *)X);
  double r = axb_check_solve(&Ad, &Xd, &Bd);
  if (!(r < 30))
    fprintf(stderr,
            "axb_lapack: %s n=%lld: backward error ratio %.3g >= 30, the "
            "answer is not certified (AXB_LAPACK_CHECK)\n",
            name, (long long)n, r);
  else if (cfg.verbose)
    fprintf(stderr,
            "axb_lapack: %s n=%lld: certified, backward error "
            "ratio %.3g\n",
            name, (long long)n, r);
}

void *axl_next(const char *sym) {
  void *f = dlsym(RTLD_NEXT, sym);
  if (!f && cfg.verbose)
    fprintf(stderr, "axb_lapack: no system %s to fall back on\n", sym);
  return f;
}

int axl_lsame(const char *a, char b) {
  char x = *a;
  if (x >= 'a' && x <= 'z') x = (char)(x - 'a' + 'A');
  return x == b;
}

lapack_int axl_first_bad(int pairs, ...) {
  va_list ap;
  lapack_int e = 0;
  va_start(ap, pairs);
  for (int k = 0; k < pairs; ++k) {
    const int bad = va_arg(ap, int), at = va_arg(ap, int);
    if (bad && e == 0) e = at;
  }
  va_end(ap);
  return e;
}

int axl_arg_error(lapack_int *info, const char *name, lapack_int e) {
  *info = -e;
  if (e) xerbla_(name, &e, strlen(name));
  return e != 0;
}

/* ---- the routines, per precision ------------------------------------- */

#define T double
#define P d
#define PNAME "D"
#include "lapack_t.h"
#undef T
#undef P
#undef PNAME
#define T float
#define P s
#define PNAME "S"
#include "lapack_t.h"
