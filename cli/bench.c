/*
 * axb bench: reproducible comparisons of routines x backends x precisions
 * x sizes x matrix types x thread counts (issue 5), with a table on
 * stdout, JSON + CSV (+ gnuplot SVG/PNG) in --out DIR.  Method: per
 * problem the input is generated (or read) once; every implementation gets
 * its warm-up runs, then all timed runs of all implementations run in one
 * seeded random order, each on a fresh copy of the input (copy not timed).
 * Every run is judged by the scaled residual ||b - Ax|| / (||A|| ||x|| n
 * eps) of x computed from its output; a run at or above 30 (or failing) is
 * flagged and its implementation is not ranked.  The sparse solvers (CG,
 * CG1, PCG on generated Poisson matrices) are judged by their status: the
 * true relative residual must reach the tolerance.  --plot-history plots
 * the residual histories of `axb solve --history` and measures nothing.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- routines and backends ---- */

typedef enum {
  RT_LU,
  RT_CHOL,
  RT_INV,
  RT_SOLVE,
  RT_LU_CROUT,
  RT_GAUSS,
  RT_CHOL_CROUT,
  RT_CHOL_BANA,
  RT_GJ,
  RT_GJ_UNB,
  RT_LU_FP,
  RT_LU_FP_DAG,
  RT_CHOL_COL1,
  RT_GESV,
  RT_BGESV,
  RT_BINV,
  RT_BPOSV,
  RT_SCG,
  RT_SCG1,
  RT_SPCG_J,
  RT_SPCG_IC,
  RT_COUNT
} rtn;

static const char *const rt_names[RT_COUNT] = {"lu",
                                               "cholesky",
                                               "inverse",
                                               "solve",
                                               "lu-crout",
                                               "gauss",
                                               "cholesky-crout",
                                               "cholesky-banachiewicz",
                                               "gauss-jordan",
                                               "gauss-jordan-unblocked",
                                               "lu-fixedpoint",
                                               "lu-fixedpoint-dag",
                                               "cholesky-columns1",
                                               "gesv",
                                               "batched-gesv",
                                               "batched-inverse",
                                               "batched-cholesky",
                                               "cg",
                                               "cg1",
                                               "pcg-jacobi",
                                               "pcg-ic0"};

static int rt_spd(rtn r) {
  return r == RT_CHOL || r == RT_CHOL_CROUT || r == RT_CHOL_BANA ||
         r == RT_CHOL_COL1 || r == RT_BPOSV;
}
/* Unblocked study variants: O(n^3) at memory speed, capped by --study-max. */
static int rt_study(rtn r) {
  return r == RT_LU_CROUT || r == RT_GAUSS || r == RT_CHOL_CROUT ||
         r == RT_CHOL_BANA || r == RT_GJ_UNB || r == RT_LU_FP ||
         r == RT_LU_FP_DAG || r == RT_CHOL_COL1;
}
/* `batch` small problems per run (--batch), n <= BATCH_MAX_N. */
static int rt_batched(rtn r) {
  return r == RT_BGESV || r == RT_BINV || r == RT_BPOSV;
}
#define BATCH_MAX_N 128
/* Sparse CG / PCG (axb_sparse_solve) on generated Poisson matrices: --sizes
   give the order n (grid edge round(n^(1/2)) or round(n^(1/3))). */
static int rt_sparse(rtn r) {
  return r == RT_SCG || r == RT_SCG1 || r == RT_SPCG_J || r == RT_SPCG_IC;
}

/* What a vendor anchor runs for r: the standard routine of its family, so
   that a study variant is compared with the vendor's best. */
static rtn rt_anchor(rtn r) {
  switch (r) {
  case RT_LU:
  case RT_LU_CROUT:
  case RT_LU_FP:
  case RT_LU_FP_DAG: return RT_LU;
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return RT_CHOL;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB: return RT_INV;
  case RT_SOLVE:
  case RT_GAUSS:
  case RT_GESV: return RT_GESV;
  default: return r; /* batched */
  }
}

/* Standard flop counts (leading terms, LAPACK working notes), per problem;
   a batched run does `batch` of them. */
static double rt_flops(rtn r, double n) {
  switch (r) {
  case RT_LU:
  case RT_LU_CROUT:
  case RT_LU_FP: /* the LU's count, not the sweeps' work: GFLOP/s compare */
  case RT_LU_FP_DAG: return 2.0 / 3 * n * n * n;
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return n * n * n / 3;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB:
  case RT_BINV: return 2 * n * n * n;
  case RT_BPOSV: return n * n * n / 3 + 2 * n * n;
  case RT_SCG:
  case RT_SCG1:
  case RT_SPCG_J:
  case RT_SPCG_IC: return NAN; /* iterations decide: no GFLOP/s */
  default: return 2.0 / 3 * n * n * n + 2 * n * n; /* solve, gauss, gesv */
  }
}

/* Work of one run for the progress line: the flop count, or for the
   sparse solvers ~20 n sqrt(n) (CG on Poisson: O(sqrt n) iterations of
   O(n) work). */
static double rt_cost(rtn r, double n) {
  double f = rt_flops(r, n);
  return isnan(f) ? 20 * n * sqrt(n) : f;
}

typedef enum {
  BK_REF,
  BK_CPU,
  BK_CUDA,
  BK_OPENBLAS,
  BK_CUSOLVER,
  BK_CUBLAS,
  BK_EIGEN,
  BK_COUNT
} bk;
static const char *const bk_names[BK_COUNT] = {
    "ref", "cpu", "cuda", "openblas", "cusolver", "cublas", "eigen"};

/* Vendor anchors (not axb's code). */
static int bk_anchor(int be) { return be >= BK_OPENBLAS; }
/* Runs on the GPU through axb_gpu_run (device time by CUDA events). */
static int bk_gpu(int be) {
  return be == BK_CUDA || be == BK_CUSOLVER || be == BK_CUBLAS;
}
/* Takes a thread count (--threads). */
static int bk_threaded(int be) {
  return be == BK_CPU || be == BK_OPENBLAS || be == BK_EIGEN;
}
static axb_anchor bk_anchor_id(int be) {
  switch (be) {
  case BK_OPENBLAS: return AXB_ANCHOR_OPENBLAS;
  case BK_EIGEN: return AXB_ANCHOR_EIGEN;
  case BK_CUSOLVER: return AXB_ANCHOR_CUSOLVER;
  case BK_CUBLAS: return AXB_ANCHOR_CUBLAS;
  default: return AXB_ANCHOR_AXB;
  }
}
/* Whether anchor `be` has routine r (through rt_anchor): cuBLAS the
   batched LU family, cuSOLVER the dense routines and batched Cholesky
   (potrfBatched), Eigen everything (batched: per problem, OpenMP over the
   batch), OpenBLAS the dense routines. */
static int anchor_has(int be, rtn r) {
  rtn k = rt_anchor(r);
  if (be == BK_CUBLAS) return rt_batched(k) && k != RT_BPOSV;
  if (be == BK_CUSOLVER) return !rt_batched(k) || k == RT_BPOSV;
  if (be == BK_EIGEN) return 1;
  return !rt_batched(k);
}

/* ---- configuration ---- */

#define MAXL 64

typedef struct {
  int rt[RT_COUNT], nrt;
  int be[BK_COUNT], nbe;
  axb_dtype dt[2];
  int ndt;
  int64_t n[MAXL];
  int nn;
  const char *mat[MAXL]; /* generator kinds, "auto" = spd for Cholesky */
  int nmat;
  char *file[512];
  int nfile;
  const char *hist[MAXL]; /* --plot-history files */
  int nhist;
  int thr[MAXL], nthr;
  int reps, warmup, quick, plots;
  uint64_t seed;
  int baseline; /* bk, or -1 */
  const char *out;
  int64_t study_max, max_n, batch;
  double pause_ms;
  axb_rhs_kind rhs;
  const char *preset;
  const char *source_note;
  int device;
} config;

/* ---- results ---- */

typedef struct {
  int rt, be, thr; /* thr: threads asked (0 = all) */
  axb_dtype dt;
  char matrix[96];
  int64_t n, batch;
  int runs, cap;
  double *t, *res, *xfer, *dev; /* per run: wall s, residual, transfer s,
                                   device s (CUDA events; NaN on the host) */
  int *order;                   /* position of the run in the random order */
  int flagged;
  char note[160]; /* skipped/failed: why */
  /* derived */
  double med, mean, se, min, gflops, speedup, eff, maxres, dev_med, xfer_med;
  int rank;
} result;

static result *results;
static int nresults, capresults;
static volatile sig_atomic_t stop_flag;

/* The first Ctrl-C stops after the current run (installed with
   SA_RESETHAND, so a second one ends the process at once). */
static void on_sigint(int sig) {
  (void)sig;
  stop_flag = 1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_ms(double ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

static long cores(void) {
  const char *e = getenv("OMP_NUM_THREADS");
  if (e) {
    long v = strtol(e, NULL, 10);
    if (v > 0) return v;
  }
  long c = sysconf(_SC_NPROCESSORS_ONLN);
  return c > 0 ? c : 1;
}

static uint64_t rng_state;
static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static result *new_result(void) {
  if (nresults == capresults) {
    int c = capresults ? 2 * capresults : 64;
    result *r = realloc(results, (size_t)c * sizeof *r);
    if (!r) return NULL;
    results = r;
    capresults = c;
  }
  result *r = &results[nresults++];
  memset(r, 0, sizeof *r);
  return r;
}

static int grow(double **a, int c) {
  double *p = realloc(*a, (size_t)c * sizeof *p);
  if (!p) return 0;
  *a = p;
  return 1;
}

static int add_run(result *r, double t, double res, double xf, double dev,
                   int order) {
  if (r->runs == r->cap) {
    int c = r->cap ? 2 * r->cap : 16;
    if (!grow(&r->t, c) || !grow(&r->res, c) || !grow(&r->xfer, c) ||
        !grow(&r->dev, c))
      return 0;
    int *o = realloc(r->order, (size_t)c * sizeof *o);
    if (!o) return 0;
    r->order = o;
    r->cap = c;
  }
  r->t[r->runs] = t;
  r->res[r->runs] = res;
  r->xfer[r->runs] = xf;
  r->dev[r->runs] = dev;
  r->order[r->runs] = order;
  r->runs++;
  return 1;
}

/* ---- one run ---- */

typedef struct {
  const config *c;
  axb_handle h[BK_COUNT]; /* ref, cpu, cuda handles (NULL when absent) */
  int present[BK_COUNT];  /* backend measurable here */
  axb_handle hc;          /* CPU handle for the residual checks */
  axb_gpu_runner gpu;     /* on h[BK_CUDA]: cuda, cusolver, cublas runs */
} bench;

/* One run's arrays: copies of the input, factored or solved in place. */
typedef struct {
  void *W, *XB;      /* A (n x n*batch) and B (n x batch) copies */
  int64_t *ipiv;     /* n */
  int *ip32, *inf32; /* batched pivots (n*batch) and infos (batch) */
  int64_t batch;
} work;

static axb_gpu_op gpu_op(rtn k) {
  switch (k) {
  case RT_LU: return AXB_GPU_LU;
  case RT_CHOL: return AXB_GPU_CHOLESKY;
  case RT_INV: return AXB_GPU_INVERSE;
  case RT_BGESV: return AXB_GPU_BATCHED_GESV;
  case RT_BINV: return AXB_GPU_BATCHED_INVERSE;
  case RT_BPOSV: return AXB_GPU_BATCHED_POSV;
  default: return AXB_GPU_GESV;
  }
}

/* Runs through axb_gpu_run: every GPU anchor, and axb's CUDA backend for the
   routines the runner has (the others go through the host-array API). */
static int via_runner(int be, rtn r) {
  if (be == BK_CUDA)
    return r == RT_LU || r == RT_CHOL || r == RT_INV || r == RT_GESV ||
           rt_batched(r);
  return be == BK_CUSOLVER || be == BK_CUBLAS;
}

static axb_status run_host_anchor(int be, rtn k, int64_t n, axb_dtype t,
                                  work *w) {
  axb_anchor a = bk_anchor_id(be);
  int64_t info = 0;
  switch (k) {
  case RT_LU: return axb_anchor_getrf(a, t, n, w->W, n, w->ipiv, &info);
  case RT_CHOL: return axb_anchor_potrf(a, t, AXB_LOWER, n, w->W, n, &info);
  case RT_INV: return axb_anchor_inverse(a, t, n, w->W, n, &info);
  case RT_GESV:
    return axb_anchor_gesv(a, t, n, 1, w->W, n, w->ipiv, w->XB, n, &info);
  case RT_BGESV:
  case RT_BINV:
  case RT_BPOSV:
    return axb_anchor_batched(a, gpu_op(k), t, n, w->batch, w->W, w->XB, &info);
  default: return AXB_ERR_NOT_SUPPORTED;
  }
}

/* Batched routines on a host handle (ref, cpu): info per problem. */
static axb_status run_batched_host(axb_handle h, rtn r, int64_t n, int d,
                                   work *w) {
  int64_t nb = w->batch, nn = n * n;
  axb_status st;
  if (r == RT_BGESV)
    st = d ? axb_dgesv_batched(h, n, 1, w->W, n, nn, w->ip32, n, w->XB, n, n,
                               w->inf32, nb)
           : axb_sgesv_batched(h, n, 1, w->W, n, nn, w->ip32, n, w->XB, n, n,
                               w->inf32, nb);
  else if (r == RT_BPOSV)
    st = d ? axb_dposv_batched(h, AXB_LOWER, n, 1, w->W, n, nn, w->XB, n, n,
                               w->inf32, nb)
           : axb_sposv_batched(h, AXB_LOWER, n, 1, w->W, n, nn, w->XB, n, n,
                               w->inf32, nb);
  else
    st = d ? axb_dinverse_batched(h, n, w->W, n, nn, w->inf32, nb)
           : axb_sinverse_batched(h, n, w->W, n, nn, w->inf32, nb);
  for (int64_t k = 0; !st && k < nb; ++k)
    if (w->inf32[k]) st = r == RT_BPOSV ? AXB_ERR_NOT_SPD : AXB_ERR_SINGULAR;
  return st;
}

static axb_status run_timed(bench *b, int be, rtn r, const axb_dense *A,
                            work *w, double *xfer, double *dev) {
  int64_t n = A->rows, info = 0;
  axb_dtype t = A->dtype;
  int d = t == AXB_F64;
  void *W = w->W, *XB = w->XB;
  int64_t *ipiv = w->ipiv;
  *xfer = 0;
  *dev = NAN;
  if (bk_anchor(be) && !anchor_has(be, r)) return AXB_ERR_NOT_SUPPORTED;
  if (via_runner(be, r)) {
    axb_gpu_times tm = {0, 0};
    rtn k = be == BK_CUDA ? r : rt_anchor(r);
    axb_status st = axb_gpu_run(b->gpu, bk_anchor_id(be), gpu_op(k), t, n,
                                w->batch, W, XB, ipiv, &info, &tm);
    *xfer = tm.transfer_s;
    *dev = tm.device_s;
    return st;
  }
  if (bk_anchor(be)) return run_host_anchor(be, rt_anchor(r), n, t, w);
  axb_handle h = b->h[be];
  axb_status st;
  switch (r) {
  case RT_LU:
    return d ? axb_dgetrf(h, n, n, W, n, ipiv, &info)
             : axb_sgetrf(h, n, n, W, n, ipiv, &info);
  case RT_CHOL:
    return d ? axb_dpotrf(h, AXB_LOWER, n, W, n, &info)
             : axb_spotrf(h, AXB_LOWER, n, W, n, &info);
  case RT_INV:
    st = d ? axb_dgetrf(h, n, n, W, n, ipiv, &info)
           : axb_sgetrf(h, n, n, W, n, ipiv, &info);
    if (!st)
      st = d ? axb_dgetri(h, n, W, n, ipiv, &info)
             : axb_sgetri(h, n, W, n, ipiv, &info);
    return st;
  case RT_GESV:
    return d ? axb_dgesv(h, n, 1, W, n, ipiv, XB, n, &info)
             : axb_sgesv(h, n, 1, W, n, ipiv, XB, n, &info);
  case RT_SOLVE: {
    axb_solve_opts o;
    axb_solve_opts_default(&o);
    o.method = AXB_METHOD_LU;
    axb_dense X = axb_dense_wrap(n, 1, n, t, XB);
    axb_report rep;
    st = axb_solve(h, A, &X, &o, &rep);
    *xfer = rep.t_transfer;
    return st;
  }
  case RT_LU_CROUT:
    return d ? axb_dgetrf_crout(h, n, W, n, ipiv, &info)
             : axb_sgetrf_crout(h, n, W, n, ipiv, &info);
  case RT_GAUSS:
    return d ? axb_dgesv_gauss(h, n, 1, W, n, XB, n, 1, &info)
             : axb_sgesv_gauss(h, n, 1, W, n, XB, n, 1, &info);
  case RT_CHOL_CROUT:
    return d ? axb_dpotrf_crout(h, n, W, n, &info)
             : axb_spotrf_crout(h, n, W, n, &info);
  case RT_CHOL_BANA:
    return d ? axb_dpotrf_banachiewicz(h, n, W, n, &info)
             : axb_spotrf_banachiewicz(h, n, W, n, &info);
  case RT_GJ:
    return d ? axb_dgetri_gj(h, n, W, n, &info)
             : axb_sgetri_gj(h, n, W, n, &info);
  case RT_GJ_UNB:
    return d ? axb_dgetri_gj_unblocked(h, n, W, n, &info)
             : axb_sgetri_gj_unblocked(h, n, W, n, &info);
  case RT_LU_FP:
  case RT_LU_FP_DAG: {
    axb_fixedpoint_opts o;
    axb_fixedpoint_opts_default(&o);
    if (r == RT_LU_FP_DAG) o.scheduler = AXB_FP_SCHED_DAG;
    return d ? axb_dgetrf_fixedpoint(h, n, W, n, &o, NULL, &info)
             : axb_sgetrf_fixedpoint(h, n, W, n, &o, NULL, &info);
  }
  case RT_CHOL_COL1: {
    axb_potrf_columns_opts o;
    axb_potrf_columns_opts_default(&o);
    o.kernels = 1;
    return d ? axb_dpotrf_columns(h, n, W, n, &o, &info)
             : axb_spotrf_columns(h, n, W, n, &o, &info);
  }
  case RT_BGESV:
  case RT_BINV:
  case RT_BPOSV: return run_batched_host(h, r, n, d, w);
  default: return AXB_ERR_NOT_SUPPORTED;
  }
}

/* What a run leaves to judge: factors, an inverse, or x itself. */
typedef enum {
  OUT_LU,
  OUT_CROUT,
  OUT_CROUT_NOPIV,
  OUT_CHOL,
  OUT_INV,
  OUT_X
} outk;

static outk out_kind(int be, rtn r) {
  switch (bk_anchor(be) ? rt_anchor(r) : r) {
  case RT_LU: return OUT_LU;
  case RT_LU_CROUT: return OUT_CROUT;
  case RT_LU_FP:
  case RT_LU_FP_DAG: return OUT_CROUT_NOPIV; /* fixed point: never pivots */
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return OUT_CHOL;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB:
  case RT_BINV: return OUT_INV;
  default: return OUT_X; /* solve, gauss, gesv, batched-gesv */
  }
}

/* xs := inv(A) b from an explicit inverse W (n x n), accumulated in double. */
static int inverse_times(const void *W, const void *bv, void *xs, int64_t n,
                         int d) {
  double *acc = calloc((size_t)n, sizeof *acc);
  if (!acc) return 0;
  for (int64_t j = 0; j < n; ++j) {
    double bj = d ? ((const double *)bv)[j] : ((const float *)bv)[j];
    if (d) {
      const double *c = (const double *)W + j * n;
      for (int64_t i = 0; i < n; ++i)
        acc[i] += c[i] * bj;
    } else {
      const float *c = (const float *)W + j * n;
      for (int64_t i = 0; i < n; ++i)
        acc[i] += (double)c[i] * bj;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    if (d)
      ((double *)xs)[i] = acc[i];
    else
      ((float *)xs)[i] = (float)acc[i];
  free(acc);
  return 1;
}

/* x of one problem from the run's output (W: its factors or inverse; XB:
   its x), into xs unless the output is x itself; returns x or NULL. */
static void *solution(axb_handle h, outk o, int64_t n, axb_dtype t,
                      const void *W, void *XB, const int64_t *ipiv,
                      const void *bv, void *xs) {
  size_t es = axb_dtype_size(t);
  int d = t == AXB_F64;
  axb_status st = AXB_SUCCESS;
  if (o == OUT_X) return XB;
  if (o == OUT_INV) return inverse_times(W, bv, xs, n, d) ? xs : NULL;
  memcpy(xs, bv, (size_t)n * es);
  if (o == OUT_LU)
    st = d ? axb_dgetrs(h, AXB_NO_TRANS, n, 1, W, n, ipiv, xs, n, NULL)
           : axb_sgetrs(h, AXB_NO_TRANS, n, 1, W, n, ipiv, xs, n, NULL);
  else if (o == OUT_CHOL)
    st = d ? axb_dpotrs(h, AXB_LOWER, n, 1, W, n, xs, n, NULL)
           : axb_spotrs(h, AXB_LOWER, n, 1, W, n, xs, n, NULL);
  else { /* Crout: L non-unit, U unit; row interchanges first, in order */
    for (int64_t i = 0; i < n && o == OUT_CROUT; ++i) {
      int64_t p = ipiv[i] - 1;
      if (p != i && p >= 0 && p < n) {
        char tmp[8];
        memcpy(tmp, (char *)xs + i * es, es);
        memcpy((char *)xs + i * es, (char *)xs + p * es, es);
        memcpy((char *)xs + p * es, tmp, es);
      }
    }
    if (d) {
      st = axb_dtrsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 1,
                     1.0, W, n, xs, n);
      if (!st)
        st = axb_dtrsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 1,
                       1.0, W, n, xs, n);
    } else {
      st = axb_strsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 1,
                     1.0f, W, n, xs, n);
      if (!st)
        st = axb_strsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 1,
                       1.0f, W, n, xs, n);
    }
  }
  return st ? NULL : xs;
}

/* Largest scaled residual over the run's problems (untimed): ||b - Ax|| /
   (||A|| ||x|| n eps) of x from the output, except batched-inverse, judged
   by ||I - AX|| / (n ||A|| ||X|| eps) (O(n^3) per problem: cheap there). */
static double residual(bench *b, int be, rtn r, const axb_dense *A,
                       const axb_dense *B, work *w, void *xs) {
  int64_t n = A->rows, nb = rt_batched(r) ? w->batch : 1;
  axb_dtype t = A->dtype;
  size_t es = axb_dtype_size(t);
  outk o = out_kind(be, r);
  double worst = 0;
  for (int64_t k = 0; k < nb; ++k) {
    size_t offa = (size_t)(k * n * n) * es, offb = (size_t)(k * n) * es;
    if (r == RT_BINV) { /* small: the inverse's own check, ||I - AX|| */
      axb_dense Ak = axb_dense_wrap(n, n, n, t, (char *)A->data + offa);
      axb_dense Xk = axb_dense_wrap(n, n, n, t, (char *)w->W + offa);
      double v = axb_check_inverse(&Ak, &Xk);
      if (!(v <= worst)) worst = v;
      if (isnan(worst)) break;
      continue;
    }
    void *x =
        solution(b->hc, o, n, t, (char *)w->W + offa, (char *)w->XB + offb,
                 w->ipiv, (const char *)B->data + offb, xs);
    if (!x) return NAN;
    axb_dense Ak = axb_dense_wrap(n, n, n, t, (char *)A->data + offa);
    axb_dense Bk = axb_dense_wrap(n, 1, n, t, (char *)B->data + offb);
    axb_dense X = axb_dense_wrap(n, 1, n, t, x);
    double v = axb_check_solve(&Ak, &X, &Bk);
    if (!(v <= worst)) worst = v; /* NaN sticks */
    if (isnan(worst)) break;
  }
  return worst;
}

/* ---- the sweep ---- */

typedef struct {
  int be, thr;
} impl;

static int impls_for(const config *c, const bench *b, impl *im) {
  int k = 0;
  for (int i = 0; i < c->nbe; ++i) {
    int be = c->be[i];
    if (!b->present[be]) continue;
    if (bk_threaded(be)) {
      for (int j = 0; j < c->nthr; ++j)
        im[k++] = (impl){be, c->thr[j]};
    } else {
      im[k++] = (impl){be, be == BK_REF ? 1 : 0};
    }
  }
  return k;
}

static int threads_used(int thr) { return thr > 0 ? thr : (int)cores(); }

typedef struct {
  double total, done, t0;
  int tty;
} progress;

static void show_progress(progress *p, const char *what) {
  if (!p->tty) return;
  double el = now() - p->t0;
  double eta = p->done > 0 ? el * (p->total - p->done) / p->done : 0;
  fprintf(stderr, "\r\033[K[%3.0f%%] %s  ETA %.0fs",
          p->total > 0 ? 100 * p->done / p->total : 0, what, eta);
  fflush(stderr);
}

static void set_threads(bench *b, const impl *im) {
  if (im->be == BK_OPENBLAS || im->be == BK_EIGEN)
    axb_anchor_set_threads(bk_anchor_id(im->be), threads_used(im->thr));
  else if (im->be == BK_CPU)
    axb_set_threads(b->h[BK_CPU], im->thr);
}

static void free_work(work *w) {
  free(w->W), free(w->XB), free(w->ipiv), free(w->ip32), free(w->inf32);
}

static int alloc_work(work *w, const axb_dense *A, const axb_dense *B) {
  size_t es = axb_dtype_size(A->dtype);
  memset(w, 0, sizeof *w);
  w->batch = A->cols / (A->rows > 0 ? A->rows : 1);
  w->W = malloc((size_t)(A->rows * A->cols) * es + 1);
  w->XB = malloc((size_t)(B->rows * B->cols) * es + 1);
  w->ipiv = malloc((size_t)A->rows * sizeof *w->ipiv + 1);
  w->ip32 = malloc((size_t)(A->rows * w->batch) * sizeof *w->ip32 + 1);
  w->inf32 = malloc((size_t)w->batch * sizeof *w->inf32 + 1);
  if (w->W && w->XB && w->ipiv && w->ip32 && w->inf32) return 1;
  free_work(w);
  return 0;
}

/* A fresh copy of the input for one run (not timed). */
static void restore(work *w, const axb_dense *A, const axb_dense *B) {
  size_t es = axb_dtype_size(A->dtype);
  memcpy(w->W, A->data, (size_t)(A->rows * A->cols) * es);
  memcpy(w->XB, B->data, (size_t)(B->rows * B->cols) * es);
}

/* All implementations on one problem: warm-up, then the runs in a seeded
   random order.  A batched problem is A = [A_1 .. A_batch] (n x n*batch)
   with B = [b_1 .. b_batch].  Returns 0 when stopped by SIGINT. */
static int run_problem(bench *b, rtn r, const axb_dense *A, const axb_dense *B,
                       const char *label, progress *pg) {
  const config *c = b->c;
  int64_t n = A->rows;
  impl im[BK_COUNT * MAXL];
  int ni = impls_for(c, b, im);
  result *res[BK_COUNT * MAXL];
  int first = nresults;
  work w;
  int have = alloc_work(&w, A, B);
  double flops = rt_cost(r, (double)n) * (double)(have ? w.batch : 1);
  for (int i = 0; i < ni; ++i) {
    result *x = new_result();
    if (!x) {
      if (have) free_work(&w);
      return 1;
    }
    x->rt = r;
    x->be = im[i].be;
    x->thr = bk_threaded(im[i].be) ? threads_used(im[i].thr) : im[i].thr;
    x->dt = A->dtype;
    snprintf(x->matrix, sizeof x->matrix, "%s", label);
    x->n = n;
    x->batch = rt_batched(r) ? w.batch : 1;
  }
  for (int i = 0; i < ni; ++i)
    res[i] = &results[first + i];
  void *xs = malloc((size_t)n * axb_dtype_size(A->dtype) + 1);
  int *seq = malloc((size_t)(ni * c->reps + 1) * sizeof *seq);
  if (!have || !xs || !seq) {
    for (int i = 0; i < ni; ++i)
      snprintf(res[i]->note, sizeof res[i]->note, "out of memory");
    if (have) free_work(&w);
    free(xs), free(seq);
    return 1;
  }
  char what[256];
  /* Warm-up, and whether the implementation can run this at all. */
  for (int i = 0; i < ni && !stop_flag; ++i) {
    int be = im[i].be;
    snprintf(what, sizeof what, "%s %s %s n=%lld %s", rt_names[r],
             axb_dtype_name(A->dtype), label, (long long)n, bk_names[be]);
    if (bk_anchor(be) && !anchor_has(be, r)) {
      snprintf(res[i]->note, sizeof res[i]->note, "no %s anchor for %s",
               bk_names[be], rt_names[r]);
      continue;
    }
    for (int k = 0; k < c->warmup && !stop_flag; ++k) {
      show_progress(pg, what);
      set_threads(b, &im[i]);
      restore(&w, A, B);
      double xf, dev;
      axb_status st = run_timed(b, be, r, A, &w, &xf, &dev);
      pg->done += flops;
      if (st < 0) {
        char e[160];
        axb_handle eh = bk_gpu(be) ? b->h[BK_CUDA] : b->h[be];
        cli_error_text(e, sizeof e, st,
                       bk_anchor(be) && !bk_gpu(be) ? NULL : eh, NULL);
        snprintf(res[i]->note, sizeof res[i]->note, "%s", e);
        break;
      }
    }
  }
  int ns = 0;
  for (int i = 0; i < ni; ++i)
    if (!res[i]->note[0])
      for (int k = 0; k < c->reps; ++k)
        seq[ns++] = i;
  for (int i = ns - 1; i > 0; --i) { /* Fisher-Yates, seeded */
    int j = (int)(rng_next() % (uint64_t)(i + 1));
    int t = seq[i];
    seq[i] = seq[j];
    seq[j] = t;
  }
  for (int s = 0; s < ns && !stop_flag; ++s) {
    int i = seq[s];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s/%d", rt_names[r],
             axb_dtype_name(A->dtype), label, (long long)n, bk_names[im[i].be],
             res[i]->thr);
    show_progress(pg, what);
    set_threads(b, &im[i]);
    restore(&w, A, B);
    sleep_ms(c->pause_ms);
    double xf = 0, dev = NAN, t0 = now();
    axb_status st = run_timed(b, im[i].be, r, A, &w, &xf, &dev);
    double t = now() - t0;
    double rr = st < 0 ? NAN : residual(b, im[i].be, r, A, B, &w, xs);
    if (st != AXB_SUCCESS) {
      res[i]->flagged = 1;
      if (!res[i]->note[0])
        snprintf(res[i]->note, sizeof res[i]->note, "%s", cli_status_name(st));
    }
    if (!(rr < CLI_BERR_LIMIT)) res[i]->flagged = 1;
    add_run(res[i], t, rr, xf, dev, s);
    pg->done += flops;
  }
  free_work(&w);
  free(xs), free(seq);
  return !stop_flag;
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int same_problem(const result *a, const result *b) {
  return a->rt == b->rt && a->dt == b->dt && a->n == b->n &&
         a->batch == b->batch && strcmp(a->matrix, b->matrix) == 0;
}

/* Median of v[0..k) (NaN when any is NaN: host runs have no device time). */
static double median_of(const double *v0, int k) {
  double *v = malloc((size_t)k * sizeof *v);
  if (!v || k == 0) return free(v), NAN;
  memcpy(v, v0, (size_t)k * sizeof *v);
  double m = NAN;
  int nan = 0;
  for (int j = 0; j < k; ++j)
    nan |= isnan(v[j]);
  if (!nan) {
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    m = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
  }
  free(v);
  return m;
}

static void derive(const config *c) {
  for (int i = 0; i < nresults; ++i) {
    result *r = &results[i];
    r->med = r->mean = r->se = r->min = r->gflops = NAN;
    r->speedup = r->eff = r->maxres = r->dev_med = r->xfer_med = NAN;
    r->rank = 0;
    if (r->runs == 0) continue;
    r->dev_med = median_of(r->dev, r->runs);
    r->xfer_med = median_of(r->xfer, r->runs);
    double *v = malloc((size_t)r->runs * sizeof *v);
    if (!v) continue;
    memcpy(v, r->t, (size_t)r->runs * sizeof *v);
    qsort(v, (size_t)r->runs, sizeof *v, cmp_double);
    int k = r->runs;
    r->med = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
    r->min = v[0];
    double s = 0, q = 0;
    for (int j = 0; j < k; ++j)
      s += v[j];
    r->mean = s / k;
    for (int j = 0; j < k; ++j)
      q += (v[j] - r->mean) * (v[j] - r->mean);
    r->se = k > 1 ? sqrt(q / (k - 1) / k) : 0;
    free(v);
    r->maxres = 0;
    for (int j = 0; j < k; ++j)
      r->maxres =
          isnan(r->res[j]) || r->res[j] > r->maxres ? r->res[j] : r->maxres;
    r->gflops = r->med > 0 ? rt_flops(r->rt, (double)r->n) * (double)r->batch /
                                 r->med * 1e-9
                           : NAN;
  }
  for (int i = 0; i < nresults; ++i) {
    result *r = &results[i];
    if (r->runs == 0) continue;
    /* The baseline row with r's thread count; for a row without one (GPU
       backends, or a count the baseline did not run) the baseline's row
       with the most threads, its best CPU time. */
    const result *same = NULL, *most = NULL, *one = NULL;
    for (int j = 0; j < nresults; ++j) {
      const result *o = &results[j];
      if (!same_problem(r, o) || o->runs == 0) continue;
      if (o->be == c->baseline && o->thr == r->thr) same = o;
      if (o->be == c->baseline && (!most || o->thr > most->thr)) most = o;
      if (o->be == r->be && o->thr == 1) one = o;
    }
    const result *base = same ? same : most;
    if (base && !r->flagged && !base->flagged) r->speedup = base->med / r->med;
    if (one && r->thr > 0 && bk_threaded(r->be) && !r->flagged && !one->flagged)
      r->eff = one->med / r->med / r->thr;
    if (!r->flagged) {
      r->rank = 1;
      for (int j = 0; j < nresults; ++j) {
        const result *o = &results[j];
        if (j != i && same_problem(r, o) && o->runs && !o->flagged &&
            o->med < r->med)
          r->rank++;
      }
    }
  }
}

/* ---- output ---- */

static const char *prec(axb_dtype t) {
  return t == AXB_F64 ? "double" : "single";
}

static void impl_label(const result *r, char *buf, size_t len) {
  if (bk_threaded(r->be))
    snprintf(buf, len, "%s/t%d", bk_names[r->be], r->thr);
  else
    snprintf(buf, len, "%s", bk_names[r->be]);
}

static void fmt_num(char *buf, size_t len, const char *f, double v) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, f, v);
}

static void print_table(FILE *f, const config *c) {
  int short_rows = 0;
  fprintf(f,
          "%-22s %-6s %-14s %6s %-12s %10s %10s %9s %10s %10s %8s %7s %5s "
          "%9s %4s  %s\n",
          "routine", "prec", "matrix", "n", "impl", "median_ms", "mean_ms",
          "stderr_ms", "min_ms", "device_ms", "GFLOP/s", "speedup", "eff",
          "residual", "rank", "note");
  for (int i = 0; i < nresults; ++i) {
    const result *r = &results[i];
    char lab[48], a[7][32];
    impl_label(r, lab, sizeof lab);
    fmt_num(a[0], 32, "%.3f", r->med * 1e3);
    fmt_num(a[1], 32, "%.3f", r->mean * 1e3);
    fmt_num(a[2], 32, "%.3f", r->se * 1e3);
    fmt_num(a[3], 32, "%.3f", r->min * 1e3);
    fmt_num(a[4], 32, "%.2f", r->gflops);
    fmt_num(a[5], 32, "%.2f", r->speedup);
    fmt_num(a[6], 32, "%.3f", r->dev_med * 1e3);
    char e[16], res[16], rk[16];
    fmt_num(e, sizeof e, "%.2f", r->eff);
    fmt_num(res, sizeof res, "%.3g", r->maxres);
    snprintf(rk, sizeof rk, r->rank ? "%d" : "-", r->rank);
    if (r->runs > 0 && r->runs < c->reps) { /* cut short by Ctrl-C */
      strcat(rk, "*");
      short_rows++;
    }
    const char *note = r->flagged
                           ? (r->note[0] ? r->note : "FLAGGED: residual >= 30")
                           : r->note;
    char nb[200];
    if (r->flagged && r->note[0])
      snprintf(nb, sizeof nb, "FLAGGED: %s", note);
    else
      snprintf(nb, sizeof nb, "%s", note);
    fprintf(f,
            "%-22s %-6s %-14.14s %6lld %-12s %10s %10s %9s %10s %10s %8s "
            "%7s %5s %9s %4s  %s\n",
            rt_names[r->rt], prec(r->dt), r->matrix, (long long)r->n, lab, a[0],
            a[1], a[2], a[3], a[6], a[4], a[5], e, res, rk, nb);
  }
  if (short_rows)
    fprintf(f,
            "*: cut short by Ctrl-C, fewer than %d runs (see runs in "
            "results.csv): its statistics and rank are less certain\n",
            c->reps);
  int most = 0; /* the baseline's largest thread count */
  for (int i = 0; i < nresults; ++i)
    if (results[i].be == c->baseline && results[i].runs &&
        results[i].thr > most)
      most = results[i].thr;
  char other[64] = "";
  if (c->baseline >= 0 && bk_threaded(c->baseline) && most > 0)
    snprintf(other, sizeof other, "; other rows: %s/t%d", bk_names[c->baseline],
             most);
  if (c->baseline >= 0)
    fprintf(f,
            "speedup: median time of %s (same threads where measured%s) / "
            "median time; device_ms: median GPU time of the operation alone "
            "(CUDA events; the other times are wall clock, transfers "
            "included); eff: speedup over 1 thread / threads; "
            "residual: max over runs of ||b-Ax||/(||A|| ||x|| n eps), "
            "flagged at >= 30\n",
            bk_names[c->baseline], other);
}

static void csv_num(FILE *f, double v) {
  if (isnan(v) || isinf(v))
    fputs(",", f);
  else
    fprintf(f, ",%.9g", v);
}

static int write_csv(const char *dir) {
  char p[1200];
  snprintf(p, sizeof p, "%s/results.csv", dir);
  FILE *f = fopen(p, "w");
  if (!f) return 0;
  fputs("routine,precision,matrix,n,batch,backend,threads,runs,median_s,"
        "mean_s,stderr_s,min_s,device_median_s,transfer_median_s,gflops,"
        "speedup,efficiency,max_residual,flagged,rank,note\n",
        f);
  for (int i = 0; i < nresults; ++i) {
    const result *r = &results[i];
    fprintf(f, "%s,%s,%s,%lld,%lld,%s,%d,%d", rt_names[r->rt], prec(r->dt),
            r->matrix, (long long)r->n, (long long)r->batch, bk_names[r->be],
            r->thr, r->runs);
    csv_num(f, r->med);
    csv_num(f, r->mean);
    csv_num(f, r->se);
    csv_num(f, r->min);
    csv_num(f, r->dev_med);
    csv_num(f, r->xfer_med);
    csv_num(f, r->gflops);
    csv_num(f, r->speedup);
    csv_num(f, r->eff);
    csv_num(f, r->maxres);
    fprintf(f, ",%d,%d,\"", r->flagged, r->rank);
    for (const char *s = r->note; *s; ++s)
      fputc(*s == '"' ? '\'' : *s, f);
    fputs("\"\n", f);
  }
  int ok = !ferror(f);
  ok &= fclose(f) == 0;
  snprintf(p, sizeof p, "%s/runs.csv", dir);
  if (!(f = fopen(p, "w"))) return 0;
  fputs("routine,precision,matrix,n,batch,backend,threads,run,order,seconds,"
        "transfer_s,device_s,residual\n",
        f);
  for (int i = 0; i < nresults; ++i) {
    const result *r = &results[i];
    for (int j = 0; j < r->runs; ++j) {
      fprintf(f, "%s,%s,%s,%lld,%lld,%s,%d,%d,%d,%.9g,%.9g", rt_names[r->rt],
              prec(r->dt), r->matrix, (long long)r->n, (long long)r->batch,
              bk_names[r->be], r->thr, j, r->order[j], r->t[j], r->xfer[j]);
      csv_num(f, r->dev[j]);
      csv_num(f, r->res[j]);
      fputc('\n', f);
    }
  }
  ok &= !ferror(f);
  ok &= fclose(f) == 0;
  return ok;
}

static void json_arr(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; ++i) {
    if (i) fputs(", ", f);
    cli_json_number(f, v[i]);
  }
  fputc(']', f);
}

static int write_json(const char *dir, const config *c, int argc, char **argv,
                      int interrupted) {
  char p[1200];
  snprintf(p, sizeof p, "%s/results.json", dir);
  FILE *f = fopen(p, "w");
  if (!f) return 0;
  fputs("{\"tool\": \"axb bench\", \"version\": ", f);
  cli_json_string(f, axb_version());
  fputs(", \"command\": [", f);
  for (int i = 0; i < argc; ++i) {
    if (i) fputs(", ", f);
    cli_json_string(f, argv[i]);
  }
  fprintf(f, "], \"preset\": ");
  cli_json_string(f, c->preset);
  fprintf(f, ", \"seed\": %llu, \"reps\": %d, \"warmup\": %d, \"baseline\": ",
          (unsigned long long)c->seed, c->reps, c->warmup);
  cli_json_string(f, c->baseline >= 0 ? bk_names[c->baseline] : NULL);
  fprintf(f, ", \"interrupted\": %s, \"cores\": %ld, \"blas\": ",
          interrupted ? "true" : "false", cores());
  cli_json_string(f, axb_blas_info());
  fputs(", \"anchors\": {", f);
  for (int be = BK_OPENBLAS, k = 0; be < BK_COUNT; ++be)
    if (axb_anchor_available(bk_anchor_id(be))) {
      fprintf(f, "%s\"%s\": ", k++ ? ", " : "", bk_names[be]);
      cli_json_string(f, axb_anchor_version(bk_anchor_id(be)));
    }
  fputs("}", f);
  fputs(", \"source_reported\": ", f);
  cli_json_string(f, c->source_note);
  fputs(", \"results\": [", f);
  for (int i = 0; i < nresults; ++i) {
    const result *r = &results[i];
    fputs(i ? ",\n  {" : "\n  {", f);
    fputs("\"routine\": ", f);
    cli_json_string(f, rt_names[r->rt]);
    fprintf(f, ", \"precision\": \"%s\", \"matrix\": ", prec(r->dt));
    cli_json_string(f, r->matrix);
    fprintf(f,
            ", \"n\": %lld, \"batch\": %lld, \"backend\": \"%s\", "
            "\"threads\": %d, \"runs\": %d",
            (long long)r->n, (long long)r->batch, bk_names[r->be], r->thr,
            r->runs);
    const char *k[] = {"median_s",    "mean_s",          "stderr_s",
                       "min_s",       "device_median_s", "transfer_median_s",
                       "gflops",      "speedup",         "efficiency",
                       "max_residual"};
    double v[] = {r->med,      r->mean,   r->se,      r->min, r->dev_med,
                  r->xfer_med, r->gflops, r->speedup, r->eff, r->maxres};
    for (int j = 0; j < 10; ++j) {
      fprintf(f, ", \"%s\": ", k[j]);
      cli_json_number(f, v[j]);
    }
    fprintf(f, ", \"flagged\": %s, \"rank\": %d, \"note\": ",
            r->flagged ? "true" : "false", r->rank);
    cli_json_string(f, r->note);
    fputs(", \"times_s\": ", f);
    json_arr(f, r->t, r->runs);
    fputs(", \"transfer_s\": ", f);
    json_arr(f, r->xfer, r->runs);
    fputs(", \"device_s\": ", f);
    json_arr(f, r->dev, r->runs);
    fputs(", \"residuals\": ", f);
    json_arr(f, r->res, r->runs);
    fputc('}', f);
  }
  fputs("\n]}\n", f);
  int ok = !ferror(f);
  return (fclose(f) == 0) && ok;
}

/* ---- plots (gnuplot) ---- */

static int have_gnuplot(void) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *s = strtok(buf, ":"); s; s = strtok(NULL, ":")) {
    char p[4200];
    snprintf(p, sizeof p, "%s/gnuplot", *s ? s : ".");
    if (access(p, X_OK) == 0) return 1;
  }
  return 0;
}

static void sanitize(char *s) {
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
      *s = '_';
}

/* Plot group of a result: files are plotted together vs n. */
static void group_of(const result *r, const config *c, char *buf, size_t len) {
  snprintf(buf, len, "%s_%s_%s", rt_names[r->rt], prec(r->dt),
           c->nfile ? "files" : r->matrix);
  sanitize(buf);
}

static int cmp_n(const void *a, const void *b) {
  const result *x = *(result *const *)a, *y = *(result *const *)b;
  return x->n < y->n ? -1 : x->n > y->n;
}

/* Data files and a gnuplot script; returns the number of groups plotted. */
static int write_plots(const char *dir, const config *c, FILE *gp) {
  int *done = calloc((size_t)nresults + 1, sizeof *done);
  result **sel = malloc(((size_t)nresults + 1) * sizeof *sel);
  if (!done || !sel) {
    free(done), free(sel);
    return 0;
  }
  int groups = 0;
  for (int i = 0; i < nresults; ++i) {
    if (done[i]) continue;
    char g[256];
    group_of(&results[i], c, g, sizeof g);
    /* Implementations of this group, and whether any has >= 2 sizes. */
    char dat[1400];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, g);
    FILE *f = fopen(dat, "w");
    if (!f) continue;
    char titles[64][48];
    int hasdev[64];
    int nt = 0, multi = 0, anyspeed = 0, anyflops = 0, anydev = 0;
    for (int j = i; j < nresults; ++j) {
      char g2[256];
      group_of(&results[j], c, g2, sizeof g2);
      if (done[j] || strcmp(g, g2) != 0) continue;
      /* one implementation: all its results in this group */
      int ns = 0;
      for (int k = j; k < nresults; ++k) {
        char g3[256];
        group_of(&results[k], c, g3, sizeof g3);
        if (done[k] || strcmp(g, g3) != 0 || results[k].be != results[j].be ||
            results[k].thr != results[j].thr)
          continue;
        done[k] = 1;
        if (results[k].runs && !results[k].flagged) sel[ns++] = &results[k];
      }
      if (ns == 0 || nt == 64) continue;
      qsort(sel, (size_t)ns, sizeof *sel, cmp_n);
      multi |= ns >= 2;
      impl_label(sel[0], titles[nt], sizeof titles[nt]);
      hasdev[nt] = 0;
      /* n, wall median, GFLOP/s (wall), speedup, device median, GFLOP/s
         (device) */
      fprintf(f, "# %s\n", titles[nt]);
      for (int k = 0; k < ns; ++k) {
        const result *q = sel[k];
        double gd = q->dev_med > 0 ? q->gflops * q->med / q->dev_med : NAN;
        fprintf(f, "%lld %.9g %.9g ", (long long)q->n, q->med, q->gflops);
        fputs(isnan(q->speedup) ? "NaN" : "", f);
        if (!isnan(q->speedup)) fprintf(f, "%.9g", q->speedup);
        anyspeed |= !isnan(q->speedup);
        anyflops |= !isnan(q->gflops);
        if (isnan(q->dev_med))
          fputs(" NaN NaN\n", f);
        else
          fprintf(f, " %.9g %.9g\n", q->dev_med, gd);
        hasdev[nt] |= !isnan(q->dev_med);
      }
      anydev |= hasdev[nt];
      fputs("\n\n", f);
      nt++;
    }
    fclose(f);
    if (!multi || nt == 0) {
      remove(dat);
      continue;
    }
    groups++;
    static const char *const term[2][2] = {
        {"svg",
         "set terminal svg size 900,560 dynamic noenhanced font 'sans,12'"},
        {"png",
         "set terminal pngcairo size 900,560 noenhanced font 'sans,11'"}};
    for (int t = 0; t < 2; ++t) {
      for (int kind = 0; kind < 3; ++kind) {
        if (kind == 2 && (!anyspeed || c->baseline < 0)) continue;
        if (kind == 1 && !anyflops) continue; /* sparse: no flop count */
        static const char *const suffix[3] = {"time", "gflops", "speedup"};
        fprintf(gp, "%s\nset output '%s_%s.%s'\n", term[t][1], g, suffix[kind],
                term[t][0]);
        fprintf(gp, "reset\nset grid\nset key outside right top\n"
                    "set xlabel 'n'\nset logscale x 2\nset format x '%%g'\n");
        if (kind == 0)
          fprintf(gp,
                  "set logscale y\nset format y '%%g'\nset ylabel 'median "
                  "time (s)%s'\n",
                  anydev ? "; dashed: GPU device time" : "");
        else if (kind == 1)
          fprintf(gp,
                  "set logscale y\nset format y '%%g'\nset ylabel 'GFLOP/s "
                  "(median)%s'\n",
                  anydev ? "; dashed: from GPU device time" : "");
        else
          fprintf(gp,
                  "set ylabel 'speedup over %s (median wall time)'\nset "
                  "yrange [0:*]\n",
                  bk_names[c->baseline]);
        fprintf(gp, "set title '%s: %s'\n", g,
                kind == 0 ? "time vs n"
                          : (kind == 1 ? "GFLOP/s vs n" : "speedup vs n"));
        fputs("plot ", gp);
        for (int k = 0; k < nt; ++k) {
          fprintf(gp,
                  "%s'%s.dat' index %d using 1:%d with linespoints lw 2 "
                  "lc %d pt %d title '%s'",
                  k ? ", " : "", g, k, kind + 2, k + 1, k % 12 + 1, titles[k]);
          /* GPU: the operation alone (CUDA events), dashed, same colour;
             the solid line is the wall clock with the transfers. */
          if (hasdev[k] && kind < 2)
            fprintf(gp,
                    ", '%s.dat' index %d using 1:%d with linespoints lw 2 "
                    "dt 2 lc %d pt %d title '%s (device)'",
                    g, k, kind == 0 ? 5 : 6, k + 1, k % 12 + 1, titles[k]);
        }
        fputs("\nunset output\n", gp);
      }
    }
  }
  free(done);
  free(sel);
  return groups;
}

/* gnuplot SCRIPT in DIR (its errors to DIR/gnuplot.log); 0 on success. */
static int run_gnuplot(const char *dir, const char *script) {
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(127);
    FILE *lg = freopen("gnuplot.log", "w", stderr);
    (void)lg;
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  return pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
         WEXITSTATUS(status) != 0;
}

/* The data and script are written in any case (a machine without gnuplot
   still leaves what another renders with `gnuplot plots.gp` in DIR). */
static void plots(const char *dir, const config *c) {
  if (!c->plots) return;
  char p[1200];
  snprintf(p, sizeof p, "%s/plots.gp", dir);
  FILE *gp = fopen(p, "w");
  if (!gp) return;
  int groups = write_plots(dir, c, gp);
  fclose(gp);
  if (groups == 0) {
    remove(p);
    fprintf(stderr, "axb bench: no series with two or more sizes: no plots\n");
    return;
  }
  if (!have_gnuplot()) {
    fprintf(stderr,
            "axb bench: gnuplot is not installed: plots not rendered (run "
            "'gnuplot plots.gp' in %s)\n",
            dir);
    return;
  }
  if (run_gnuplot(dir, "plots.gp"))
    fprintf(stderr, "axb bench: gnuplot failed (see %s/gnuplot.log)\n", dir);
  else
    fprintf(stderr, "axb bench: %d plot group(s) in %s (SVG and PNG)\n", groups,
            dir);
}

/* ---- options and presets ---- */

enum {
  OPT_HELP = 1,
  OPT_ROUTINES,
  OPT_BACKENDS,
  OPT_PRECISION,
  OPT_SIZES,
  OPT_MATRIX,
  OPT_FILES,
  OPT_THREADS,
  OPT_REPS,
  OPT_WARMUP,
  OPT_SEED,
  OPT_BASELINE,
  OPT_OUT,
  OPT_PRESET,
  OPT_QUICK,
  OPT_NO_PLOTS,
  OPT_STUDY_MAX,
  OPT_MAX_N,
  OPT_PAUSE,
  OPT_RHS,
  OPT_DEVICE,
  OPT_BATCH,
  OPT_PLOT_HISTORY
};

static const cli_opt bench_table[] = {{"help", 'h', 0, OPT_HELP},
                                      {"routines", 'r', 1, OPT_ROUTINES},
                                      {"backends", 'b', 1, OPT_BACKENDS},
                                      {"precision", 'p', 1, OPT_PRECISION},
                                      {"sizes", 'n', 1, OPT_SIZES},
                                      {"matrix", 'm', 1, OPT_MATRIX},
                                      {"files", 0, 1, OPT_FILES},
                                      {"threads", 't', 1, OPT_THREADS},
                                      {"reps", 0, 1, OPT_REPS},
                                      {"warmup", 0, 1, OPT_WARMUP},
                                      {"seed", 0, 1, OPT_SEED},
                                      {"baseline", 0, 1, OPT_BASELINE},
                                      {"out", 'o', 1, OPT_OUT},
                                      {"preset", 0, 1, OPT_PRESET},
                                      {"quick", 0, 0, OPT_QUICK},
                                      {"no-plots", 0, 0, OPT_NO_PLOTS},
                                      {"study-max", 0, 1, OPT_STUDY_MAX},
                                      {"max-n", 0, 1, OPT_MAX_N},
                                      {"pause", 0, 1, OPT_PAUSE},
                                      {"rhs", 0, 1, OPT_RHS},
                                      {"device", 'd', 1, OPT_DEVICE},
                                      {"batch", 0, 1, OPT_BATCH},
                                      {"plot-history", 0, 1, OPT_PLOT_HISTORY},
                                      {NULL, 0, 0, 0}};

/* Split a comma list into buf (modified in place); returns the count. */
static int split(char *buf, char **items, int max) {
  int k = 0;
  for (char *s = strtok(buf, ","); s && k < max; s = strtok(NULL, ","))
    items[k++] = s;
  return k;
}

static int find_name(const char *const *names, int count, const char *w) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], w) == 0) return i;
  return -1;
}

static char listbuf[16][4096]; /* option values kept for the whole run */
static int nlistbuf;

static char *keep(const char *s) {
  if (nlistbuf == 16) return NULL;
  snprintf(listbuf[nlistbuf], sizeof listbuf[0], "%s", s);
  return listbuf[nlistbuf++];
}

static int parse_routines(config *c, const char *v) {
  char *it[MAXL], *b = keep(v);
  int k = b ? split(b, it, MAXL) : 0;
  c->nrt = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "all") == 0) { /* the batched ones are asked by name */
      c->nrt = 0;
      for (int r = 0; r < RT_COUNT; ++r)
        if (!rt_batched(r)) c->rt[c->nrt++] = r;
      continue;
    }
    int r = find_name(rt_names, RT_COUNT, it[i]);
    if (r < 0 || c->nrt == RT_COUNT)
      return cli_usage_error("bench", "unknown routine '%s'", it[i]), 0;
    c->rt[c->nrt++] = r;
  }
  return c->nrt > 0 ||
         (cli_usage_error("bench", "--routines needs a routine"), 0);
}

static int parse_backends(config *c, const char *v) {
  char *it[MAXL], *b = keep(v);
  int k = b ? split(b, it, MAXL) : 0;
  c->nbe = 0;
  for (int i = 0; i < k; ++i) {
    int e = find_name(bk_names, BK_COUNT, it[i]);
    if (strcmp(it[i], "omp") == 0) e = BK_CPU;
    if (strcmp(it[i], "all") == 0) {
      for (int j = 0; j < BK_COUNT; ++j)
        c->be[j] = j;
      c->nbe = BK_COUNT;
      continue;
    }
    if (e < 0 || c->nbe == BK_COUNT)
      return cli_usage_error("bench",
                             "unknown backend '%s' (ref, cpu, cuda, openblas, "
                             "cusolver, cublas, eigen)",
                             it[i]),
             0;
    c->be[c->nbe++] = e;
  }
  return c->nbe > 0 ||
         (cli_usage_error("bench", "--backends needs a backend"), 0);
}

static int add_size(config *c, int64_t n) {
  if (c->nn == MAXL)
    return cli_usage_error("bench", "more than %d sizes", MAXL), 0;
  c->n[c->nn++] = n;
  return 1;
}

/* N, A:B (doubling from A up to B) or A:B:S (step S). */
static int parse_sizes(config *c, const char *v) {
  char *it[MAXL], *b = keep(v);
  int k = b ? split(b, it, MAXL) : 0;
  c->nn = 0;
  for (int i = 0; i < k; ++i) {
    char *p[3];
    int np = 0;
    for (char *s = strtok(it[i], ":"); s && np < 3; s = strtok(NULL, ":"))
      p[np++] = s;
    int64_t a, z = 0, st = 0;
    if (np < 1 || !cli_parse_i64("--sizes", p[0], 1, 1 << 20, &a)) return 0;
    if (np >= 2 && !cli_parse_i64("--sizes", p[1], a, 1 << 20, &z)) return 0;
    if (np == 3 && !cli_parse_i64("--sizes", p[2], 1, 1 << 20, &st)) return 0;
    if (np == 1) {
      if (!add_size(c, a)) return 0;
    } else {
      for (int64_t n = a; n <= z; n = st ? n + st : 2 * n)
        if (!add_size(c, n)) return 0;
    }
  }
  return c->nn > 0 || (cli_usage_error("bench", "--sizes needs a size"), 0);
}

static int parse_matrix(config *c, const char *v) {
  char *it[MAXL], *b = keep(v);
  int k = b ? split(b, it, MAXL) : 0;
  c->nmat = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "auto") != 0) {
      char spec[160];
      axb_gen_spec s;
      snprintf(spec, sizeof spec, "%s:4", it[i]);
      if (strchr(it[i], ':') || axb_gen_parse(NULL, spec, &s) != AXB_SUCCESS)
        return cli_usage_error("bench",
                               "unknown matrix kind '%s' (generator kinds, "
                               "see 'axb solve --help', or auto)",
                               it[i]),
               0;
    }
    c->mat[c->nmat++] = it[i];
  }
  return c->nmat > 0 || (cli_usage_error("bench", "--matrix needs a kind"), 0);
}

static int add_file(config *c, const char *path) {
  if (c->nfile == 512) return 0;
  c->file[c->nfile] = strdup(path);
  return c->file[c->nfile] ? (c->nfile++, 1) : 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every *.mtx of a directory. */
static int add_path(config *c, const char *p) {
  struct stat sb;
  if (stat(p, &sb) != 0) {
    cli_error("%s: %s", p, strerror(errno));
    return 0;
  }
  if (!S_ISDIR(sb.st_mode)) return add_file(c, p);
  DIR *d = opendir(p);
  if (!d) return cli_error("%s: %s", p, strerror(errno)), 0;
  int first = c->nfile;
  for (struct dirent *e; (e = readdir(d));) {
    size_t l = strlen(e->d_name);
    if (l > 4 && strcmp(e->d_name + l - 4, ".mtx") == 0) {
      char full[2048];
      snprintf(full, sizeof full, "%s/%s", p, e->d_name);
      add_file(c, full);
    }
  }
  closedir(d);
  qsort(c->file + first, (size_t)(c->nfile - first), sizeof *c->file, cmp_str);
  return 1;
}

static int parse_threads(config *c, const char *v) {
  char *it[MAXL], *b = keep(v);
  int k = b ? split(b, it, MAXL) : 0;
  c->nthr = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "all") == 0) {
      c->thr[c->nthr++] = 0;
      continue;
    }
    if (!cli_parse_int("--threads", it[i], 0, 4096, &c->thr[c->nthr++]))
      return 0;
  }
  return c->nthr > 0 ||
         (cli_usage_error("bench", "--threads needs a count"), 0);
}

static const char *matrices_dir(void) {
  const char *e = getenv("AXB_MATRICES");
  return e && *e ? e : "../shared/matrices";
}

static int apply_preset(config *c, const char *name) {
  c->preset = name;
  if (strcmp(name, "lu-dense") == 0) {
    parse_routines(c, "lu,gesv,solve");
    parse_sizes(c, c->quick ? "64,128" : "128:4096");
    parse_matrix(c, "uniform");
    c->source_note =
        "Oslo 2007: LU with partial pivoting on the GPU vs ATLAS, random A, "
        "b = row sums, n = 128..4096: the GPU lost below n ~ 2048 and won "
        "2.17x at 4096";
  } else if (strcmp(name, "lu-dense-900") == 0) {
    parse_routines(c, "lu,gauss,solve");
    parse_sizes(c, c->quick ? "90,180" : "900:4500:900");
    parse_matrix(c, "uniform");
    c->source_note = "TU Wien 2017: Gaussian elimination on [A|b] on the GPU, "
                     "double, n = 900..4500, 5 repetitions, mean (no "
                     "pivoting, transfers not timed)";
  } else if (strcmp(name, "cholesky") == 0) {
    parse_routines(c, "cholesky,cholesky-crout,cholesky-banachiewicz");
    parse_sizes(c, c->quick ? "50,100" : "250,500,1000,2500,5000,7500");
    parse_matrix(c, "spd");
    parse_threads(c, "1,all");
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    if (!c->quick) c->reps = 15;
    c->source_note =
        "UFRGS 2016: Cholesky-Crout/Banachiewicz (single), OpenMP/OpenCL/CUDA "
        "vs LAPACK spotrf and cuSOLVER potrf, n = 250..7500, 15 randomized "
        "repetitions: below n ~ 1000 the CPU wins; the vendor libraries win "
        "at scale";
  } else if (strcmp(name, "inverse") == 0) {
    parse_routines(c, "inverse,gauss-jordan,gauss-jordan-unblocked");
    parse_sizes(c, c->quick ? "2:64" : "2:8192");
    parse_matrix(c, "uniform,integer,diagonal,upper");
    /* The source compared float and double against Eigen's inverse(). */
    parse_backends(c, "cpu,openblas,eigen,cuda,cusolver");
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->source_note =
        "Hamburg 2022: Gauss-Jordan inverse (no pivoting) sequential/OpenMP/"
        "CUDA vs Eigen inverse() and cuBLAS getrf/getriBatched, float and "
        "double, n = 2..8192 (powers of two), uniform/integer/diagonal/upper; "
        "double ~2x slower than float; wrong results above n = 1024";
  } else if (strcmp(name, "batched") == 0) {
    parse_routines(c, "batched-gesv,batched-cholesky,batched-inverse");
    parse_sizes(c, c->quick ? "4,8" : "4:64");
    parse_matrix(c, "auto"); /* uniform; SPD for batched-cholesky */
    /* axb on the CPU and the GPU, the GPU anchors (cuBLAS getrf/getrs/
       getriBatched, cuSOLVER potrf/potrsBatched) and Eigen per problem on
       the CPU; absent ones are skipped. */
    parse_backends(c, "cpu,eigen,cuda,cublas,cusolver");
    c->baseline = BK_CPU;
    c->batch = c->quick ? 64 : 10000;
    c->source_note =
        "Hamburg 2022 compared its Gauss-Jordan kernels with cuBLAS "
        "getrfBatched/getriBatched; axb's batched kernels (issue 6) against "
        "cuBLAS batched, cuSOLVER potrfBatched and Eigen per problem, b = row "
        "sums per problem";
  } else if (strcmp(name, "cg-poisson") == 0) {
    parse_routines(c, "cg,cg1,pcg-jacobi,pcg-ic0");
    parse_sizes(c, c->quick ? "1000,4000" : "16384,65536,262144,1048576");
    parse_matrix(c, "poisson2d,poisson3d");
    parse_backends(c, "cpu,cuda");
    c->baseline = BK_CPU;
    c->source_note =
        "Oslo 2007: single-reduction CG (one SpMV fused with both dot "
        "products, one reduction per iteration), no preconditioner, no "
        "results published; axb's CG, CG1 and PCG (Jacobi, IC(0)) to "
        "||b - Ax||/||b|| <= 1e-8, b = A * ones";
  } else if (strcmp(name, "real-lu") == 0) {
    parse_routines(c, "lu");
    if (!add_path(c, matrices_dir())) return 0;
    if (c->quick) c->max_n = 500;
    c->dt[0] = AXB_F32; /* the thesis ran float and double */
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->source_note =
        "Thesis on ICM/ParILU (A100): 63 matrices, mostly SuiteSparse, float "
        "and double, metric max|A - LU|; dense double only 1.5-2.4x over a "
        "single-threaded CPU loop";
  } else if (strcmp(name, "study-gpu") == 0) {
    /* The source documents' GPU algorithms beside the production paths,
       on a strongly regular matrix (the fixed point never pivots). */
    parse_routines(c, "lu,lu-fixedpoint,lu-fixedpoint-dag,solve,gauss,"
                      "cholesky,cholesky-crout,cholesky-columns1,inverse,"
                      "gauss-jordan-unblocked");
    /* cuSOLVER runs its standard routine for each family (rt_anchor). */
    parse_backends(c, "cuda,cusolver");
    parse_sizes(c, c->quick ? "64,200" : "1024,2048,4096");
    parse_matrix(c, "auto"); /* diagdom for LU and inverse, spd for
                                Cholesky */
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->study_max = 4096;
    c->source_note =
        "CTU 2022 (A100): iterative Crout fast on banded matrices, dense "
        "double only 1.5-2.4x over one CPU thread; UFRGS 2016: cuSOLVER "
        "potrf wins at scale; Hamburg 2022: GJ kernels wrong above n = 1024";
  } else {
    return cli_usage_error("bench",
                           "unknown preset '%s' (lu-dense, lu-dense-900, "
                           "cholesky, inverse, real-lu, study-gpu, batched, "
                           "cg-poisson)",
                           name),
           0;
  }
  return 1;
}

static void defaults(config *c) {
  memset(c, 0, sizeof *c);
  c->rt[0] = RT_LU;
  c->nrt = 1;
  c->dt[0] = AXB_F64;
  c->ndt = 1;
  c->n[0] = 256;
  c->n[1] = 512;
  c->n[2] = 1024;
  c->nn = 3;
  c->mat[0] = "auto";
  c->nmat = 1;
  c->thr[0] = 0;
  c->nthr = 1;
  c->reps = 5;
  c->warmup = 1;
  c->seed = 42;
  c->baseline = -2; /* not given */
  c->plots = 1;
  c->study_max = 2048;
  c->max_n = 6000;
  c->batch = 1000;
  c->pause_ms = 50;
  c->rhs = AXB_RHS_ONES;
  /* The CPU against OpenBLAS here; on a machine with a GPU the same
     command adds axb's CUDA backend and cuSOLVER (absent ones are skipped
     with a note). */
  c->be[0] = BK_CPU;
  c->be[1] = BK_OPENBLAS;
  c->be[2] = BK_CUDA;
  c->be[3] = BK_CUSOLVER;
  c->nbe = 4;
}

/* Grid generators take the grid edge g, not the order: 2 for poisson2d
   (order g^2), 3 for poisson3d and convdiff3d (g^3), 0 for the others. */
static int grid_dim(const char *kind) {
  if (strcmp(kind, "poisson2d") == 0) return 2;
  if (strcmp(kind, "poisson3d") == 0 || strcmp(kind, "convdiff3d") == 0)
    return 3;
  return 0;
}

/* The generator spec of a matrix of order about n: --sizes are orders for
   every kind, so a grid kind gets the edge round(sqrt n) or round(cbrt n)
   (at least 1); the actual order is the generated matrix's. */
static void gen_spec_text(char *spec, size_t len, const char *kind, int64_t n,
                          uint64_t seed) {
  int d = grid_dim(kind);
  int64_t g = d == 2   ? (int64_t)llround(sqrt((double)n))
              : d == 3 ? (int64_t)llround(cbrt((double)n))
                       : n;
  snprintf(spec, len, "%s:%lld,seed=%llu", kind, (long long)(g > 1 ? g : 1),
           (unsigned long long)seed);
}

/* Generate (or read) the matrix of one problem and its right-hand side. */
static axb_status make_problem(bench *b, const char *kind, const char *file,
                               int64_t n, axb_dtype t, axb_dense *A,
                               axb_dense *X, axb_dense *B, char *err,
                               size_t len) {
  axb_status st;
  if (file) {
    st = axb_read_dense(b->hc, file, t, A);
  } else {
    char spec[160];
    axb_gen_spec s;
    gen_spec_text(spec, sizeof spec, kind, n, b->c->seed);
    st = axb_gen_parse(b->hc, spec, &s);
    if (!st) st = axb_gen_dense(b->hc, &s, t, A);
  }
  if (!st && A->rows != A->cols)
    st = AXB_ERR_INVALID, snprintf(err, len, "not square");
  else if (st)
    cli_error_text(err, len, st, b->hc, file);
  if (!st) st = axb_gen_rhs(b->hc, A, 1, b->c->rhs, b->c->seed, X, B);
  return st;
}

/* mkdir -p: the directory and its missing parents. */
static int mkdir_p(const char *dir) {
  char p[1024];
  snprintf(p, sizeof p, "%s", dir);
  for (char *s = p + 1; *s; ++s)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(p, 0755) && errno != EEXIST) return 0;
      *s = '/';
    }
  return !(mkdir(p, 0755) && errno != EEXIST);
}

/* Handles, the GPU runner and availability of every backend asked for;
   returns how many can be measured.  A missing one is said once. */
static int open_backends(bench *b) {
  const config *c = b->c;
  int any = 0, count = 0, want_gpu = 0;
  for (int i = 0; i < c->nbe; ++i)
    want_gpu |= bk_gpu(c->be[i]);
  if (want_gpu) {
    if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
        axb_cuda_device_count(&count) || count <= c->device)
      fprintf(stderr, "axb bench: no CUDA backend or device here: cuda, "
                      "cusolver and cublas skipped\n");
    else if (axb_handle_create(&b->h[BK_CUDA], AXB_BACKEND_CUDA, c->device) ||
             axb_gpu_runner_create(&b->gpu, b->h[BK_CUDA]))
      fprintf(stderr, "axb bench: cannot use CUDA device %d: %s\n", c->device,
              axb_detail(b->h[BK_CUDA]));
  }
  for (int i = 0; i < c->nbe; ++i) {
    int be = c->be[i];
    if (b->present[be]) continue;
    if (bk_gpu(be)) {
      b->present[be] = b->gpu != NULL;
    } else if (bk_anchor(be)) {
      b->present[be] = axb_anchor_available(bk_anchor_id(be));
      if (!b->present[be])
        fprintf(stderr,
                "axb bench: the %s anchor is not compiled in: "
                "skipped\n",
                bk_names[be]);
    } else {
      axb_backend kind = be == BK_REF ? AXB_BACKEND_REF : AXB_BACKEND_CPU;
      b->present[be] = axb_handle_create(&b->h[be], kind, 0) == AXB_SUCCESS;
    }
    any |= b->present[be];
  }
  return any;
}

static void close_backends(bench *b) {
  axb_gpu_runner_destroy(b->gpu);
  for (int i = 0; i < BK_COUNT; ++i)
    axb_handle_destroy(b->h[i]);
  axb_handle_destroy(b->hc);
}

/* A batched problem: `batch` matrices of generator `kind` (seeds seed,
   seed+1, ...) side by side, b_k = A_k * ones (row sums), then the run. */
static void run_batched(bench *b, rtn r, const char *kind, int64_t n,
                        axb_dtype t, progress *pg) {
  const config *c = b->c;
  static int said;
  if (n > BATCH_MAX_N) {
    if (!said++)
      fprintf(stderr, "axb bench: batched routines run n <= %d only\n",
              BATCH_MAX_N);
    return;
  }
  int64_t nb = c->batch;
  size_t es = axb_dtype_size(t);
  axb_dense A = {0}, B = {0}, Ak = {0};
  axb_status st = axb_dense_create(&A, n, n * nb, t);
  if (!st) st = axb_dense_create(&B, n, nb, t);
  for (int64_t k = 0; k < nb && !st; ++k) {
    char spec[160];
    axb_gen_spec g;
    /* n is the order of the problem made by make_problem: for a grid
       kind, the same edge and so the same order again. */
    gen_spec_text(spec, sizeof spec, kind, n, c->seed + (uint64_t)k);
    st = axb_gen_parse(b->hc, spec, &g);
    if (!st) st = axb_gen_dense(b->hc, &g, t, &Ak);
    if (!st && (Ak.rows != n || Ak.cols != n)) st = AXB_ERR_INVALID;
    if (st) break;
    memcpy((char *)A.data + (size_t)(k * n * n) * es, Ak.data,
           (size_t)(n * n) * es);
    for (int64_t i = 0; i < n; ++i) {
      double sum = 0;
      for (int64_t j = 0; j < n; ++j)
        sum += axb_dense_get(&Ak, i, j);
      axb_dense_set(&B, i, k, sum);
    }
    axb_dense_destroy(&Ak);
  }
  if (st) {
    char err[256];
    cli_error_text(err, sizeof err, st, b->hc, kind);
    fprintf(stderr, "axb bench: batched %s: %s (skipped)\n", kind, err);
  } else {
    char label[96];
    snprintf(label, sizeof label, "%s*%lld", kind, (long long)nb);
    run_problem(b, r, &A, &B, label, pg);
  }
  axb_dense_destroy(&Ak);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}

/* ---- sparse CG / PCG on Poisson matrices ---- */

/* One axb_sparse_solve of routine r on h: CG or single-reduction CG1 with
   no preconditioner, CG with Jacobi or with IC(0); tol 1e-8, at most 20000
   iterations. */
static axb_status sparse_run(axb_handle h, rtn r, const axb_csr *A,
                             const axb_dense *B, axb_dense *X,
                             axb_sparse_report *rep) {
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = r == RT_SCG1 ? AXB_SPARSE_CG1 : AXB_SPARSE_CG;
  o.precond = r == RT_SCG || r == RT_SCG1 ? AXB_PRECOND_NONE
              : r == RT_SPCG_J            ? AXB_PRECOND_JACOBI
                                          : AXB_PRECOND_IC0;
  o.tol = 1e-8;
  o.max_iter = 20000;
  memset(X->data, 0, (size_t)X->rows * axb_dtype_size(X->dtype));
  axb_status st = axb_sparse_solve(h, A, B, X, &o, rep);
  axb_sparse_report_free(rep);
  return st;
}

/* Poisson matrix of order about n (2-D: edge round(sqrt n), 3-D: round(cbrt
   n)) and b = A * ones.  kind: poisson2d or poisson3d. */
static axb_status sparse_problem(bench *b, const char *kind, int64_t n,
                                 axb_dtype t, axb_csr *A, axb_dense *B) {
  int three = strcmp(kind, "poisson3d") == 0;
  int64_t g = (int64_t)llround(three ? cbrt((double)n) : sqrt((double)n));
  char spec[96];
  snprintf(spec, sizeof spec, "%s:%lld", kind, (long long)(g > 1 ? g : 2));
  axb_gen_spec gs;
  axb_status st = axb_gen_parse(b->hc, spec, &gs);
  if (!st) st = axb_gen_csr(b->hc, &gs, t, A);
  if (!st) st = axb_dense_create(B, A->rows, 1, t);
  for (int64_t i = 0; !st && i < A->rows; ++i) {
    double sum = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      sum += t == AXB_F64 ? ((const double *)A->values)[k]
                          : ((const float *)A->values)[k];
    axb_dense_set(B, i, 0, sum);
  }
  return st;
}

/* Every implementation (host backends with their thread counts, cuda) on
   one sparse problem: warm-up, then the runs in a seeded random order.
   residual: the true relative residual ||b - Ax||/||b|| of the run; a run
   that does not reach tol (status != success) is flagged.  The note keeps
   the iteration count. */
static void run_sparse(bench *b, rtn r, const char *kind, int64_t n0,
                       axb_dtype t, progress *pg) {
  const config *c = b->c;
  axb_csr A = {0};
  axb_dense B = {0}, X = {0};
  axb_status st = sparse_problem(b, kind, n0, t, &A, &B);
  if (!st) st = axb_dense_create(&X, A.rows, 1, t);
  if (st) {
    char err[256];
    cli_error_text(err, sizeof err, st, b->hc, kind);
    fprintf(stderr, "axb bench: %s %s: %s (skipped)\n", rt_names[r], kind, err);
    axb_csr_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&X);
    return;
  }
  impl im[BK_COUNT * MAXL], all[BK_COUNT * MAXL];
  int na = impls_for(c, b, all), ni = 0;
  for (int i = 0; i < na; ++i) /* axb's backends only: no sparse anchors */
    if (!bk_anchor(all[i].be)) im[ni++] = all[i];
  int first = nresults;
  for (int i = 0; i < ni; ++i) {
    result *x = new_result();
    if (!x) break;
    x->rt = r;
    x->be = im[i].be;
    x->thr = bk_threaded(im[i].be) ? threads_used(im[i].thr) : im[i].thr;
    x->dt = t;
    snprintf(x->matrix, sizeof x->matrix, "%s", kind);
    x->n = A.rows;
    x->batch = 1;
  }
  ni = nresults - first;
  double cost = rt_cost(r, (double)A.rows);
  char what[256];
  int *seq = malloc((size_t)(ni * c->reps + 1) * sizeof *seq);
  axb_sparse_report rep;
  memset(&rep, 0, sizeof rep);
  for (int i = 0; i < ni && !stop_flag && seq; ++i) {
    result *x = &results[first + i];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s", rt_names[r],
             axb_dtype_name(t), kind, (long long)A.rows, bk_names[x->be]);
    for (int k = 0; k < c->warmup && !stop_flag; ++k) {
      show_progress(pg, what);
      set_threads(b, &im[i]);
      st = sparse_run(b->h[x->be], r, &A, &B, &X, &rep);
      pg->done += cost;
      if (st < 0) {
        cli_error_text(x->note, sizeof x->note, st, b->h[x->be], NULL);
        break;
      }
    }
  }
  int ns = 0;
  for (int i = 0; i < ni && seq; ++i)
    if (!results[first + i].note[0])
      for (int k = 0; k < c->reps; ++k)
        seq[ns++] = i;
  for (int i = ns - 1; i > 0; --i) {
    int j = (int)(rng_next() % (uint64_t)(i + 1));
    int tmp = seq[i];
    seq[i] = seq[j];
    seq[j] = tmp;
  }
  for (int s = 0; s < ns && !stop_flag; ++s) {
    result *x = &results[first + seq[s]];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s/%d", rt_names[r],
             axb_dtype_name(t), kind, (long long)A.rows, bk_names[x->be],
             x->thr);
    show_progress(pg, what);
    set_threads(b, &im[seq[s]]);
    sleep_ms(c->pause_ms);
    double t0 = now();
    st = sparse_run(b->h[x->be], r, &A, &B, &X, &rep);
    double el = now() - t0;
    if (st != AXB_SUCCESS) {
      x->flagged = 1;
      snprintf(x->note, sizeof x->note, "%s after %lld iterations",
               cli_status_name(st), (long long)rep.iterations);
    } else if (!x->flagged) {
      snprintf(x->note, sizeof x->note, "%lld iterations",
               (long long)rep.iterations);
    }
    add_run(x, el, st < 0 ? NAN : rep.true_residual, 0, NAN, s);
    pg->done += cost;
  }
  free(seq);
  axb_csr_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&X);
}

/* ---- convergence histories (axb solve --history FILE.csv) ---- */

/* Plot ||r_k||/||b|| vs k (log y) of every history file into
   DIR/history.{dat,gp,svg,png}. */
static int plot_histories(const config *c) {
  const char *dir = c->out ? c->out : ".";
  if (c->out && !mkdir_p(dir)) {
    cli_error("%s: cannot create: %s", dir, strerror(errno));
    return CLI_INPUT;
  }
  char p[1200];
  snprintf(p, sizeof p, "%s/history.dat", dir);
  FILE *f = fopen(p, "w");
  if (!f) return cli_error("%s: %s", p, strerror(errno)), CLI_INPUT;
  char titles[MAXL][64];
  for (int i = 0; i < c->nhist; ++i) {
    FILE *h = fopen(c->hist[i], "r");
    if (!h) {
      fclose(f);
      return cli_error("%s: %s", c->hist[i], strerror(errno)), CLI_INPUT;
    }
    char line[256];
    int64_t rows = 0, lineno = 0;
    fprintf(f, "# %s\n", c->hist[i]);
    while (fgets(line, sizeof line, h)) {
      long long k;
      double v;
      char tail;
      lineno++;
      if (lineno == 1 && strncmp(line, "iteration,", 10) == 0) continue;
      if (sscanf(line, "%lld,%lf %c", &k, &v, &tail) != 2) {
        fclose(h), fclose(f);
        return cli_error("%s:%lld: not 'iteration,relative_residual'",
                         c->hist[i], (long long)lineno),
               CLI_INPUT;
      }
      fprintf(f, "%lld %.9g\n", k, v > 0 ? v : NAN);
      rows++;
    }
    fclose(h);
    fputs("\n\n", f);
    if (rows == 0) {
      fclose(f);
      return cli_error("%s: no history rows", c->hist[i]), CLI_INPUT;
    }
    const char *base = strrchr(c->hist[i], '/');
    snprintf(titles[i], sizeof titles[i], "%s", base ? base + 1 : c->hist[i]);
    for (char *q = titles[i]; *q; ++q)
      if (*q == '\'' || *q == '\\') *q = '_';
  }
  fclose(f);
  snprintf(p, sizeof p, "%s/history.gp", dir);
  FILE *gp = fopen(p, "w");
  if (!gp) return cli_error("%s: %s", p, strerror(errno)), CLI_INPUT;
  static const char *const term[2][2] = {
      {"svg", "set terminal svg size 900,560 dynamic noenhanced font "
              "'sans,12'"},
      {"png", "set terminal pngcairo size 900,560 noenhanced font 'sans,11'"}};
  for (int t = 0; t < 2; ++t) {
    fprintf(gp, "%s\nset output 'history.%s'\n", term[t][1], term[t][0]);
    fputs("reset\nset grid\nset key outside right top\nset logscale y\n"
          "set format y '%.0e'\nset xlabel 'iteration'\n"
          "set ylabel '||r_k|| / ||b|| (recurrence)'\n"
          "set title 'convergence history'\nplot ",
          gp);
    for (int i = 0; i < c->nhist; ++i)
      fprintf(gp,
              "%s'history.dat' index %d using 1:2 with lines lw 2 dt %d "
              "title '%s'",
              i ? ", " : "", i, i % 5 + 1, titles[i]);
    fputs("\nunset output\n", gp);
  }
  fclose(gp);
  if (!have_gnuplot()) {
    fprintf(stderr,
            "axb bench: gnuplot is not installed: history.gp not rendered "
            "(run 'gnuplot history.gp' in %s)\n",
            dir);
    return CLI_OK;
  }
  if (run_gnuplot(dir, "history.gp")) {
    fprintf(stderr, "axb bench: gnuplot failed (see %s/gnuplot.log)\n", dir);
    return CLI_INPUT;
  }
  fprintf(stderr, "axb bench: %s/history.svg and history.png\n", dir);
  return CLI_OK;
}

int cli_bench(int argc, char **argv) {
  config c;
  defaults(&c);
  cli_scan s;
  /* Pass 1: --preset and --quick (the other options override a preset). */
  const char *preset = NULL;
  cli_scan_init(&s, argc, argv, 2, "bench");
  for (;;) {
    int id = cli_next_opt(&s, bench_table);
    if (id == CLI_SCAN_END) break;
    if (id == CLI_SCAN_ERROR) return CLI_USAGE;
    if (id == OPT_HELP) return cli_help_bench(stdout), CLI_OK;
    if (id == OPT_PRESET) preset = s.arg;
    if (id == OPT_QUICK) c.quick = 1;
  }
  if (c.quick) c.reps = 3;
  if (preset && !apply_preset(&c, preset)) return CLI_USAGE;
  int ok = 1;
  cli_scan_init(&s, argc, argv, 2, "bench");
  for (int id; ok && (id = cli_next_opt(&s, bench_table)) != CLI_SCAN_END;) {
    int64_t v;
    switch (id) {
    case CLI_SCAN_ERROR: return CLI_USAGE;
    case CLI_SCAN_POSITIONAL: ok = add_path(&c, s.arg); break;
    case OPT_ROUTINES: ok = parse_routines(&c, s.arg); break;
    case OPT_BACKENDS: ok = parse_backends(&c, s.arg); break;
    case OPT_PRECISION: {
      char *it[4], *b = keep(s.arg);
      int k = b ? split(b, it, 4) : 0;
      c.ndt = 0;
      for (int i = 0; i < k && ok && c.ndt < 2; ++i)
        ok = cli_parse_precision(it[i], &c.dt[c.ndt++]);
      if (!ok) return cli_usage_error("bench", "bad precision '%s'", s.arg);
      break;
    }
    case OPT_SIZES: ok = parse_sizes(&c, s.arg); break;
    case OPT_MATRIX: ok = parse_matrix(&c, s.arg); break;
    case OPT_FILES: {
      char *it[MAXL], *b = keep(s.arg);
      int k = b ? split(b, it, MAXL) : 0;
      for (int i = 0; i < k && ok; ++i)
        ok = add_path(&c, it[i]);
      if (!ok) return CLI_INPUT;
      break;
    }
    case OPT_THREADS: ok = parse_threads(&c, s.arg); break;
    case OPT_REPS:
      ok = cli_parse_int("--reps", s.arg, 1, 100000, &c.reps);
      break;
    case OPT_WARMUP:
      ok = cli_parse_int("--warmup", s.arg, 0, 1000, &c.warmup);
      break;
    case OPT_SEED: ok = cli_parse_u64("--seed", s.arg, &c.seed); break;
    case OPT_BASELINE:
      c.baseline = find_name(bk_names, BK_COUNT, s.arg);
      if (strcmp(s.arg, "none") == 0)
        c.baseline = -1;
      else if (c.baseline < 0)
        return cli_usage_error("bench", "unknown baseline '%s'", s.arg);
      break;
    case OPT_OUT: c.out = s.arg; break;
    case OPT_NO_PLOTS: c.plots = 0; break;
    case OPT_STUDY_MAX:
      ok = cli_parse_i64("--study-max", s.arg, 1, INT64_MAX, &c.study_max);
      break;
    case OPT_MAX_N:
      ok = cli_parse_i64("--max-n", s.arg, 1, INT64_MAX, &c.max_n);
      break;
    case OPT_PAUSE:
      ok = cli_parse_i64("--pause", s.arg, 0, 100000, &v);
      c.pause_ms = (double)v;
      break;
    case OPT_RHS:
      if (strcmp(s.arg, "ones") == 0)
        c.rhs = AXB_RHS_ONES;
      else if (strcmp(s.arg, "random") == 0)
        c.rhs = AXB_RHS_RANDOM;
      else
        return cli_usage_error("bench", "--rhs is ones or random");
      break;
    case OPT_DEVICE:
      ok = cli_parse_int("--device", s.arg, 0, 1 << 20, &c.device);
      break;
    case OPT_BATCH:
      ok = cli_parse_i64("--batch", s.arg, 1, 1 << 24, &c.batch);
      break;
    case OPT_PLOT_HISTORY: {
      char *it[MAXL], *b = keep(s.arg);
      int k = b ? split(b, it, MAXL) : 0;
      for (int i = 0; i < k; ++i) {
        if (c.nhist == MAXL)
          return cli_usage_error("bench", "more than %d histories", MAXL);
        c.hist[c.nhist++] = it[i];
      }
      break;
    }
    default: break;
    }
  }
  if (!ok) return c.nfile || !preset ? CLI_USAGE : CLI_INPUT;
  if (c.nhist) { /* plot histories, measure nothing */
    for (int i = 0; i < c.nfile; ++i)
      free(c.file[i]);
    return plot_histories(&c);
  }

  /* Handles of the backends asked for; absent ones are dropped. */
  bench b;
  memset(&b, 0, sizeof b);
  b.c = &c;
  if (cli_handle(&b.hc, AXB_BACKEND_CPU, 0, 0, NULL, 0)) return CLI_INPUT;
  int any = open_backends(&b);
  if (!any) {
    close_backends(&b);
    cli_error("no backend to measure");
    return CLI_DEVICE;
  }
  if (c.baseline == -2) { /* openblas when measured, else the first present */
    c.baseline = -1;
    for (int i = 0; i < c.nbe; ++i)
      if (b.present[c.be[i]] && (c.baseline < 0 || c.be[i] == BK_OPENBLAS))
        c.baseline = c.be[i];
  }
  if (c.out && !mkdir_p(c.out)) {
    cli_error("%s: cannot create: %s", c.out, strerror(errno));
    close_backends(&b);
    return CLI_INPUT;
  }
  rng_state = c.seed;
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C aborts */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);

  /* Work estimate for the progress line. */
  progress pg = {0, 0, now(), isatty(2)};
  impl im[BK_COUNT * MAXL];
  int ni = impls_for(&c, &b, im);
  int nsrc = c.nfile ? c.nfile : c.nmat;
  for (int d = 0; d < c.ndt; ++d)
    for (int m = 0; m < nsrc; ++m)
      for (int k = 0; k < (c.nfile ? 1 : c.nn); ++k)
        for (int r = 0; r < c.nrt; ++r)
          pg.total += rt_cost(c.rt[r], c.nfile ? 1000.0 : (double)c.n[k]) *
                      (rt_batched(c.rt[r]) ? (double)c.batch : 1.0) * ni *
                      (c.reps + c.warmup);

  int rc = CLI_OK;
  for (int d = 0; d < c.ndt && !stop_flag; ++d)
    for (int m = 0; m < nsrc && !stop_flag; ++m)
      for (int k = 0; k < (c.nfile ? 1 : c.nn) && !stop_flag; ++k) {
        for (int pass = 0; pass < 2 && !stop_flag; ++pass) {
          /* pass 0: routines on a general matrix, 1: on an SPD one
             (matrix "auto"); an explicit kind serves both. */
          int want_spd = pass == 1,
              auto_kind = !c.nfile && strcmp(c.mat[m], "auto") == 0;
          int any_rt = 0;
          for (int r = 0; r < c.nrt; ++r)
            any_rt |= rt_spd(c.rt[r]) == want_spd;
          if (auto_kind ? !any_rt : pass == 1) continue;
          /* The fixed point never pivots: with it in the list, "auto"
             gives every general routine a diagonally dominant matrix. */
          int no_pivot_rt = 0;
          for (int r = 0; r < c.nrt; ++r)
            no_pivot_rt |= c.rt[r] == RT_LU_FP || c.rt[r] == RT_LU_FP_DAG;
          const char *kind = auto_kind ? (want_spd      ? "spd"
                                          : no_pivot_rt ? "diagdom"
                                                        : "uniform")
                                       : (c.nfile ? NULL : c.mat[m]);
          /* Sparse solvers first (their matrices are Poisson CSR); then
             the dense routines, if any, on a dense problem. */
          int dense_rt = 0;
          for (int r = 0; r < c.nrt && !stop_flag; ++r) {
            rtn rt = c.rt[r];
            if (!rt_sparse(rt)) {
              dense_rt |= !auto_kind || rt_spd(rt) == want_spd;
              continue;
            }
            if (pass == 1 || c.nfile) continue;
            const char *sk = auto_kind ? "poisson2d" : c.mat[m];
            if (strcmp(sk, "poisson2d") == 0 || strcmp(sk, "poisson3d") == 0)
              run_sparse(&b, rt, sk, c.n[k], c.dt[d], &pg);
          }
          if (!dense_rt) continue;
          axb_dense A = {0}, X = {0}, B = {0};
          char err[512] = "";
          axb_status st = make_problem(&b, kind, c.nfile ? c.file[m] : NULL,
                                       c.nfile ? 0 : c.n[k], c.dt[d], &A, &X,
                                       &B, err, sizeof err);
          const char *label = kind;
          if (c.nfile) {
            label = strrchr(c.file[m], '/');
            label = label ? label + 1 : c.file[m];
          }
          if (st) {
            fprintf(stderr, "axb bench: %s: %s (skipped)\n",
                    c.nfile ? c.file[m] : kind, err);
          } else if (c.nfile && A.rows > c.max_n) { /* --max-n: files only */
            fprintf(stderr,
                    "axb bench: %s: n = %lld > --max-n %lld (skipped)\n",
                    c.file[m], (long long)A.rows, (long long)c.max_n);
          } else {
            for (int r = 0; r < c.nrt && !stop_flag; ++r) {
              rtn rt = c.rt[r];
              if (rt_sparse(rt)) continue;
              if (auto_kind && rt_spd(rt) != want_spd) continue;
              if (rt_study(rt) && A.rows > c.study_max) continue;
              if (rt_batched(rt))
                run_batched(&b, rt, kind, A.rows, c.dt[d], &pg);
              else
                run_problem(&b, rt, &A, &B, label, &pg);
            }
          }
          axb_dense_destroy(&A);
          axb_dense_destroy(&X);
          axb_dense_destroy(&B);
        }
      }
  if (pg.tty) fputs("\r\033[K", stderr);
  sigaction(SIGINT, &old, NULL);
  int interrupted = stop_flag != 0;
  derive(&c);
  if (c.source_note)
    printf("preset %s; the source reported: %s\n", c.preset, c.source_note);
  if (c.out) {
    if (!write_json(c.out, &c, argc, argv, interrupted) || !write_csv(c.out)) {
      cli_error("%s: cannot write the results: %s", c.out, strerror(errno));
      rc = CLI_INPUT;
    } else {
      fprintf(stderr, "axb bench: results.json, results.csv, runs.csv in %s\n",
              c.out);
      plots(c.out, &c);
    }
  }
  print_table(stdout, &c);
  fflush(stdout);
  if (interrupted) {
    fprintf(stderr, "axb bench: interrupted; kept what was measured\n");
    rc = 130;
  }
  for (int i = 0; i < nresults; ++i) {
    free(results[i].t), free(results[i].res), free(results[i].xfer);
    free(results[i].dev), free(results[i].order);
  }
  free(results);
  results = NULL;
  nresults = capresults = 0;
  for (int i = 0; i < c.nfile; ++i)
    free(c.file[i]);
  close_backends(&b);
  return rc;
}
