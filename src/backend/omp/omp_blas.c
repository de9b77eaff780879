/*
 * Helpers of the CPU backend (thread count, OpenBLAS thread bracket, block
 * splits) and the BLAS entries of its table: gemm, trsm (wrapping OpenBLAS,
 * so that getrs/potrs, composed from laswp + trsm in src/dense, run at
 * BLAS-3 speed) and laswp.  See omp.h for the threading policy.
 */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT, RTLD_NOLOAD */
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"
#include "core/template.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef AXB_HAVE_LAPACK
#include <dlfcn.h>
#include <pthread.h>
#endif

/* With OpenBLAS's OpenMP build, a kernel's bracket (axb_omp_blas_begin)
   sets the calling thread's OpenMP thread count to 1, since that build
   takes its thread count from it; the caller's value is kept here for
   axb_omp_threads (depth: nested brackets of kernels that call kernels). */
#ifdef AXB_HAVE_OPENMP
static _Thread_local int blas_omp_depth;
static _Thread_local int blas_omp_saved;
static _Thread_local int blas_omp_global; /* see axb_omp_blas_begin */
#endif

int axb_omp_threads(axb_handle h) {
  int t = h ? h->threads : 0;
#ifdef AXB_HAVE_OPENMP
  if (t <= 0) t = blas_omp_depth > 0 ? blas_omp_saved : omp_get_max_threads();
#endif
  return t > 0 ? t : 1;
}

int axb_omp_thread_id(void) {
#ifdef AXB_HAVE_OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

int axb_omp_threads_in_team(void) {
#ifdef AXB_HAVE_OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

void axb_omp_barrier(axb_omp_bar *b, int *sense) {
#ifdef AXB_HAVE_OPENMP
  const int n = omp_get_num_threads();
  if (n <= 1) return;
  *sense = !*sense;
  /* Sense reversal: the last thread to arrive resets the count and flips
     the phase; the others wait for the phase to equal their sense. */
  if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == n) {
    __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&b->phase, *sense, __ATOMIC_RELEASE);
  } else {
    int spins = 0;
    while (__atomic_load_n(&b->phase, __ATOMIC_ACQUIRE) != *sense)
      if (++spins > 100) sched_yield();
  }
#else
  (void)b;
  (void)sense;
#endif
}

void axb_omp_wait_until(const int *p, int v) {
  int spins = 0;
  while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != v)
    if (++spins > 100) sched_yield();
}

int axb_omp_prof_on;
static axb_omp_prof prof_rec;
const char *const axb_omp_prof_names[AXB_OMP_PH_COUNT] = {
    "panel",  "swap",   "trsm",   "gemm",   "wait",    "tail",
    "r.leaf", "r.swap", "r.trsm", "r.gemm", "wait.j1", "wait.a"};

double axb_omp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double axb_omp_prof_begin(int nt, int path) {
  /* Atomic: calls from several user threads may store here at once. */
  const int on = axb_omp_env_int("AXB_OMP_PROFILE", 0) > 0;
  __atomic_store_n(&axb_omp_prof_on, on, __ATOMIC_RELAXED);
  if (!on) return 0;
  prof_rec.threads = nt;
  prof_rec.path = path;
  return axb_omp_now();
}

void axb_omp_prof_end(double t0) {
  if (!AXB_PROF_ON()) return;
  prof_rec.wall += axb_omp_now() - t0;
  prof_rec.calls++;
  __atomic_store_n(&axb_omp_prof_on, 0, __ATOMIC_RELAXED);
}

double axb_omp_prof_add(int tid, int phase, double t0) {
  const double t = axb_omp_now();
  if (tid >= 0 && tid < AXB_OMP_PROF_THREADS) prof_rec.t[tid][phase] += t - t0;
  return t;
}

const axb_omp_prof *axb_omp_prof_get(void) { return &prof_rec; }

void axb_omp_prof_reset(void) { memset(&prof_rec, 0, sizeof prof_rec); }

int64_t axb_omp_env_int(const char *name, int64_t dflt) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || *end) return dflt;
  return (int64_t)v;
}

/* The splitters' common start: nothing to split when c0 >= n (bounds =
   {n}, returns 0), else parts clamped to 1..AXB_OMP_MAX_PARTS and unit to
   >= 1 (returns 1). */
static int split_args(int64_t c0, int64_t n, int64_t *unit, int *parts,
                      int64_t *bounds) {
  if (c0 >= n) {
    bounds[0] = n;
    return 0;
  }
  if (*parts < 1) *parts = 1;
  if (*parts > AXB_OMP_MAX_PARTS) *parts = AXB_OMP_MAX_PARTS;
  if (*unit < 1) *unit = 1;
  return 1;
}

int axb_omp_split(int64_t c0, int64_t n, int64_t unit, int parts,
                  int64_t *bounds) {
  const int64_t len = n - c0;
  if (!split_args(c0, n, &unit, &parts, bounds)) return 0;
  /* Width rounded up to the unit, so that every piece but the last is a
     whole number of units. */
  int64_t w = (len + parts - 1) / parts;
  w = (w + unit - 1) / unit * unit;
  int count = 0;
  for (int64_t c = c0; c < n; c += w)
    bounds[count++] = c;
  bounds[count] = n;
  return count;
}

int axb_omp_split_guided(int64_t c0, int64_t n, int64_t unit, int parts,
                         int64_t *bounds) {
  if (!split_args(c0, n, &unit, &parts, bounds)) return 0;
  /* Piece q gets (parts - q) / (parts (parts + 1) / 2) of the columns,
     rounded to the unit: big pieces first (little repacking), small ones
     last (a short tail when the threads finish at different times). */
  const double len = (double)(n - c0);
  const double total = 0.5 * parts * (parts + 1.0);
  int count = 0;
  double acc = 0;
  int64_t c = c0;
  for (int q = 0; q < parts && c < n; ++q) {
    bounds[count++] = c;
    acc += (double)(parts - q) / total * len;
    int64_t e = c0 + (int64_t)(acc / (double)unit + 0.5) * unit;
    if (e <= c) e = c + unit;
    if (e > n || q == parts - 1) e = n;
    c = e;
  }
  bounds[count] = n;
  return count;
}

int axb_omp_split_tri(int64_t c0, int64_t n, int64_t unit, int parts,
                      int64_t *bounds) {
  if (!split_args(c0, n, &unit, &parts, bounds)) return 0;
  /* Piece [a, b) costs sum_{x=a}^{b-1} (n - x); cut at the multiples of
     unit nearest above each q/parts of the total. */
  const double len = (double)(n - c0);
  const double total = 0.5 * len * (len + 1);
  int count = 0;
  bounds[count++] = c0;
  double acc = 0;
  int64_t c = c0;
  for (int q = 1; q < parts; ++q) {
    const double target = total * q / parts;
    while (c < n && acc < target) {
      const int64_t e = c + unit < n ? c + unit : n;
      acc += (double)(e - c) * (double)n -
             0.5 * ((double)(e - 1) * e - (double)(c - 1) * c);
      c = e;
    }
    if (c >= n) break;
    if (c > bounds[count - 1]) bounds[count++] = c;
  }
  bounds[count] = n;
  return count;
}

#ifdef AXB_HAVE_LAPACK
void cblas_dgemm(int, int, int, int, int, int, double, const double *, int,
                 const double *, int, double, double *, int);

/* OpenBLAS's thread control (openblas_set_num_threads, _get_num_threads,
   _get_parallel), resolved by name at run time in the library that holds
   the BLAS the build links (found from cblas_dgemm's address, so that a
   libaxb loaded with RTLD_LOCAL, as ctypes does, finds it too; then the
   global scope): another BLAS, or an OpenBLAS without one of them, still
   links and runs, with no thread control (the bracket does nothing) and
   no hybrid path.  model: openblas_get_parallel() (0 sequential, 1
   pthreads, 2 OpenMP) or -1 (unknown).  wrapped: cblas_dgemm lives in
   another file than the engine, as when Debian's libblas.so.3 alternative
   is the pthread build's thin wrapper over an OpenMP libopenblas.so.0
   that a program (ScaLAPACK's link order) loaded first: the wrapper's
   interface code decides its thread count from OpenBLAS's global count,
   not from the calling thread's OpenMP count, so a call from inside one
   of our teams went threaded, nested its own team into ours (which runs
   it on one thread) and waited for partners that never came: a hang
   (bench_dist, 2 threads per rank, the thirteenth session). */
typedef struct {
  void (*set)(int);
  int (*get)(void);
  int model, wrapped;
} blas_api;

static void *blas_sym(void *lib, const char *name) {
  void *p = lib ? dlsym(lib, name) : NULL;
  return p ? p : dlsym(RTLD_DEFAULT, name);
}

/* The file that holds address p (NULL: not known). */
static const char *file_of(void *p) {
  Dl_info di;
  return p && dladdr(p, &di) && di.dli_fname ? di.dli_fname : NULL;
}

static blas_api blas_resolve(void) {
  blas_api a = {NULL, NULL, -1, 0};
  void *lib = NULL, *f = NULL, *p;
  Dl_info di;
  void (*gemm)(int, int, int, int, int, int, double, const double *, int,
               const double *, int, double, double *, int) = cblas_dgemm;
  memcpy(&f, &gemm, sizeof f);
  if (dladdr(f, &di) && di.dli_fname)
    lib = dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD); /* kept: in use */
  if ((p = blas_sym(lib, "openblas_set_num_threads")))
    memcpy(&a.set, &p, sizeof p);
  if ((p = blas_sym(lib, "openblas_get_num_threads")))
    memcpy(&a.get, &p, sizeof p);
  if ((p = blas_sym(lib, "openblas_get_parallel"))) {
    int (*par)(void);
    memcpy(&par, &p, sizeof p);
    a.model = par();
    if (a.model < 0 || a.model > 2) a.model = -1;
    const char *fg = file_of(f), *fp = file_of(p);
    a.wrapped = fg && fp && strcmp(fg, fp) != 0;
  }
  if (!a.set || !a.get) a.set = NULL, a.get = NULL;
  return a;
}

/* Resolved once, whichever user thread asks first. */
static blas_api blas_api_v;
static pthread_once_t blas_api_once = PTHREAD_ONCE_INIT;
static void blas_api_init(void) { blas_api_v = blas_resolve(); }
static const blas_api *blas_api_get(void) {
  pthread_once(&blas_api_once, blas_api_init);
  return &blas_api_v;
}

int axb_omp_blas_model(void) { return blas_api_get()->model; }

static int ob_get_threads(void) {
  const blas_api *a = blas_api_get();
  return a->get ? a->get() : 1;
}

static void ob_set_threads(int n) {
  const blas_api *a = blas_api_get();
  if (a->set) a->set(n);
}

/* 1 when the loaded OpenBLAS is its OpenMP build (openblas_get_parallel()
   == 2; 1 is the pthread build): its threads are then libgomp's, the same
   pool as our kernels' teams, and a call made inside a parallel region
   runs serially by itself (OpenBLAS checks omp_in_parallel), while outside
   one it takes as many threads as the calling thread's OpenMP thread count
   (omp_get_max_threads).  Which build is loaded is decided by the dynamic
   linker (both are libopenblas.so.0), so it is asked, once. */
static int blas_is_openmp(void) {
  return axb_omp_blas_model() == AXB_OMP_BLAS_OPENMP;
}

/* When the last threaded call of the pthread build (the hybrid path)
   ended, in ns of CLOCK_MONOTONIC (0: none yet); see axb_omp_pool_spinning. */
static int64_t pool_last_ns;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int axb_omp_spin_window(int model, double since_s, double window_s) {
  return model == AXB_OMP_BLAS_PTHREAD && since_s >= 0 && since_s < window_s;
}

int axb_omp_pool_spinning(void) {
  if (axb_omp_blas_model() != AXB_OMP_BLAS_PTHREAD) return 0;
  const int64_t last = __atomic_load_n(&pool_last_ns, __ATOMIC_RELAXED);
  if (!last) return 0;
  const double w =
      1e-3 * (double)axb_omp_env_int("AXB_CPU_SPIN_WINDOW_MS", OMP_SPIN_MS);
  return axb_omp_spin_window(AXB_OMP_BLAS_PTHREAD,
                             1e-9 * (double)(now_ns() - last), w);
}

/* The bracket makes OpenBLAS single-threaded for a kernel's calls.  The
   pthread build: openblas_set_num_threads(1) (process-wide), restored
   after.  The OpenMP build: inside a parallel region nothing is needed;
   outside one (serial paths, thread 0 before a region) the calling
   thread's OpenMP count is set to 1 and restored by the outermost end, the
   caller's value kept for axb_omp_threads (BLAS_OMP_PUSHED tells end).
   Behind a wrapper (blas_api.wrapped) the OpenMP build's global count is
   also set to 1 (openblas_set_num_threads, which sets the calling
   thread's OpenMP count too) and restored by the outermost end: the
   wrapper's calls from our team's threads then run serially.  That count
   is process-wide, as the pthread build's is: two user threads in axb at
   once behind a wrapper can still meet a restored count (not covered). */
enum { BLAS_OMP_PUSHED = -2 };

int axb_omp_blas_begin(void) {
#ifdef AXB_HAVE_OPENMP
  if (blas_is_openmp()) {
    if (omp_in_parallel()) return 1;
    if (blas_omp_depth++ == 0) {
      blas_omp_saved = omp_get_max_threads();
      blas_omp_global = blas_api_get()->wrapped ? ob_get_threads() : 1;
      if (blas_omp_global != 1)
        ob_set_threads(1);
      else if (blas_omp_saved != 1)
        omp_set_num_threads(1);
    }
    return BLAS_OMP_PUSHED;
  }
#endif
  const int saved = ob_get_threads();
  if (saved != 1) ob_set_threads(1);
  return saved;
}

void axb_omp_blas_end(int saved) {
#ifdef AXB_HAVE_OPENMP
  if (saved == BLAS_OMP_PUSHED) {
    if (--blas_omp_depth != 0) return;
    if (blas_omp_global > 1) ob_set_threads(blas_omp_global);
    if (blas_omp_global > 1 || blas_omp_saved != 1)
      omp_set_num_threads(blas_omp_saved);
    return;
  }
#endif
  if (saved != 1 && saved > 0) ob_set_threads(saved);
}

/* The OpenMP build follows the calling thread's OpenMP thread count: set it
   to nt for the hybrid path and give the caller's value back (its
   openblas_set_num_threads would also call omp_set_num_threads, so it is
   not used).  Returns the value to restore. */
int axb_omp_blas_begin_threaded(int nt) {
#ifdef AXB_HAVE_OPENMP
  if (blas_is_openmp()) {
    const int saved = omp_get_max_threads();
    if (saved != nt) omp_set_num_threads(nt);
    return saved;
  }
#endif
  const int saved = ob_get_threads();
  if (saved != nt) ob_set_threads(nt);
  return saved;
}

void axb_omp_blas_end_threaded(int saved, int nt) {
#ifdef AXB_HAVE_OPENMP
  if (blas_is_openmp()) {
    if (saved != nt && saved > 0) omp_set_num_threads(saved);
    return;
  }
#endif
  /* The pthread build's workers now spin (~0.1 s, OPENBLAS_THREAD_TIMEOUT
     read at its start) beside whatever runs next: noted for
     axb_omp_pool_spinning. */
  if (axb_omp_blas_model() == AXB_OMP_BLAS_PTHREAD)
    __atomic_store_n(&pool_last_ns, now_ns(), __ATOMIC_RELAXED);
  if (saved != nt && saved > 0) ob_set_threads(saved);
}

int axb_omp_blas_openmp(void) { return blas_is_openmp(); }

/* Fortran ?laswp of the 32-bit-integer OpenBLAS the build links. */
void dlaswp_(const int *n, double *a, const int *lda, const int *k1,
             const int *k2, const int *ipiv, const int *incx);
void slaswp_(const int *n, float *a, const int *lda, const int *k1,
             const int *k2, const int *ipiv, const int *incx);

#define AXB_OMP_LASWP_OB(T, p)                                                 \
  void axb_omp_##p##laswp_ob(int64_t n, T *A, int64_t lda, int64_t k1,         \
                             int64_t k2, const int64_t *ipiv, int *ibuf) {     \
    if (n <= 0 || k2 <= k1) return;                                            \
    for (int64_t k = k1; k < k2; ++k)                                          \
      ibuf[k] = (int)ipiv[k];                                                  \
    const int n_ = (int)n, lda_ = (int)lda, k1_ = (int)k1 + 1, k2_ = (int)k2,  \
              one = 1;                                                         \
    p##laswp_(&n_, A, &lda_, &k1_, &k2_, ibuf, &one);                          \
  }
AXB_OMP_LASWP_OB(double, d)
AXB_OMP_LASWP_OB(float, s)
#else
int axb_omp_blas_begin(void) { return 1; }
void axb_omp_blas_end(int saved) { (void)saved; }
int axb_omp_blas_begin_threaded(int nt) { return nt; }
void axb_omp_blas_end_threaded(int saved, int nt) {
  (void)saved;
  (void)nt;
}
int axb_omp_blas_openmp(void) { return 0; }
int axb_omp_blas_model(void) { return -1; }
int axb_omp_spin_window(int model, double since_s, double window_s) {
  (void)model;
  (void)since_s;
  (void)window_s;
  return 0;
}
int axb_omp_pool_spinning(void) { return 0; }
#endif

/* Defaults of the hybrid switch (measured on the 16-core device host,
   docs/PERFORMANCE.md). */
#define OMP_HYBRID_THREADS 8
#define OMP_HYBRID_MIN 1024
#define OMP_HYBRID_MAX INT64_MAX
/* Below OMP_HYBRID_THREADS threads the hybrid still pays from this order
   (2 threads here: 0.99-1.04x OpenBLAS at n = 8192 against 0.90-0.95x for
   the look-ahead path). */
#define OMP_HYBRID_LARGE 8192

/* With the pthread build the Cholesky takes the hybrid path only from this
   order (AXB_CPU_HYBRID_PTHREAD_MIN): below it our OpenMP look-ahead path,
   which never calls OpenBLAS threaded, so that no pool spins beside the
   phases that follow (the driver's solve and estimate, potrs).  Device
   host, 16 threads, pthread build (docs/notes/certificate.md, "Which
   OpenBLAS is loaded"): the look-ahead factor 5.6 / 23.5 / 129-133 /
   555 ms at n = 1024 / 2048 / 4096 / 8192 against the hybrid's 10 / 22 /
   71-81 / 570 inside the driver, which after the hybrid spent 50-250 ms
   in the phases that follow it; at 4096 the hybrid factor wins by 50 ms,
   and the one-thread solves while the pool spins (axb_omp_pool_spinning)
   cost less than that. */
#define OMP_HYBRID_PTHREAD_MIN 4096

int axb_omp_hybrid_pick(int model, int nt, int64_t n, int chol) {
  if (nt <= 1) return 0;
  const int64_t force = axb_omp_env_int("AXB_CPU_HYBRID", -1);
  if (force == 0) return 0;
  if (force > 0) return 1;
  /* Without OpenBLAS's thread control (another BLAS, model unknown) or with
     its sequential build, OpenBLAS cannot run the path threaded. */
  if (model != AXB_OMP_BLAS_PTHREAD && model != AXB_OMP_BLAS_OPENMP) return 0;
  if (chol && model == AXB_OMP_BLAS_PTHREAD &&
      n < axb_omp_env_int("AXB_CPU_HYBRID_PTHREAD_MIN", OMP_HYBRID_PTHREAD_MIN))
    return 0;
  if (nt < axb_omp_env_int("AXB_CPU_HYBRID_THREADS", OMP_HYBRID_THREADS))
    return n >= axb_omp_env_int("AXB_CPU_HYBRID_LARGE", OMP_HYBRID_LARGE);
  return n >= axb_omp_env_int("AXB_CPU_HYBRID_MIN", OMP_HYBRID_MIN) &&
         n <= axb_omp_env_int("AXB_CPU_HYBRID_MAX", OMP_HYBRID_MAX);
}

int axb_omp_use_hybrid(int nt, int64_t n, int chol) {
#ifndef AXB_HAVE_LAPACK
  (void)nt;
  (void)n;
  (void)chol;
  return 0;
#else
  return axb_omp_hybrid_pick(axb_omp_blas_model(), nt, n, chol);
#endif
}

#ifdef AXB_HAVE_LAPACK
#include "backend/omp/omp_cblas.h"
#endif

#define AXB_TEMPLATE "backend/omp/omp_blas_t.h"
#include "core/instantiate.h"
