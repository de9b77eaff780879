/* Internal interface of axb bench (cli/bench/): the routines and backends,
   the configuration, the results store and the prototypes each file
   offers the others.  Not installed; the CLI's public side is cli.h. */
#ifndef AXB_CLI_BENCH_H
#define AXB_CLI_BENCH_H

#include "../cli.h"

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Batched routines run `batch` problems of order n <= BATCH_MAX_N. */
#define BATCH_MAX_N 128

typedef enum {
  BK_REF,
  BK_CPU,
  BK_CUDA,
  BK_OPENCL, /* issue 29: an axb host handle on the OpenCL backend */
  BK_OPENBLAS,
  BK_CUSOLVER,
  BK_CUBLAS,
  BK_EIGEN,
  BK_COUNT
} bk;

/* ---- configuration ---- */

#define MAXL 64 /* most items in one option's list */

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

/* ---- the sweep ---- */

typedef struct {
  int be, thr;
} impl;

typedef struct {
  double total, done, t0;
  int tty;
} progress;

/* ---- routines.c ---- */

extern const char *const rt_names[RT_COUNT];
int rt_spd(rtn r);
int rt_study(rtn r);
int rt_batched(rtn r);
int rt_sparse(rtn r);
rtn rt_anchor(rtn r);
double rt_flops(rtn r, double n);
double rt_cost(rtn r, double n);
extern const char *const bk_names[BK_COUNT];
int bk_anchor(int be);
int bk_gpu(int be);
int bk_threaded(int be);
axb_anchor bk_anchor_id(int be);
int anchor_has(int be, rtn r);

/* ---- clock.c ---- */

double bench_now(void);
void bench_sleep_ms(double ms);
long bench_cores(void);
void bench_rng_seed(uint64_t seed);
uint64_t bench_rng_next(void);

/* ---- interrupt.c ---- */

extern volatile sig_atomic_t bench_stop_flag;
/* SIGINT sets bench_stop_flag until released (the old action restored). */
void bench_catch_sigint(struct sigaction *old);
void bench_release_sigint(const struct sigaction *old);

/* ---- results.c ---- */

extern result *bench_results;
extern int bench_nresults;
result *new_result(void);
int add_run(result *r, double t, double res, double xf, double dev, int order);
void bench_derive(const config *c);
void bench_results_free(void);

/* ---- run_one.c ---- */

axb_status run_timed(bench *b, int be, rtn r, const axb_dense *A, work *w,
                     double *xfer, double *dev);

/* ---- judge.c ---- */

double judge_residual(bench *b, int be, rtn r, const axb_dense *A,
                      const axb_dense *B, work *w, void *xs);

/* ---- run_problem.c ---- */

int impls_for(const config *c, const bench *b, impl *im);
int threads_used(int thr);
void show_progress(progress *p, const char *what);
void set_threads(bench *b, const impl *im);
int run_problem(bench *b, rtn r, const axb_dense *A, const axb_dense *B,
                const char *label, progress *pg);
void run_batched(bench *b, rtn r, const char *kind, int64_t n, axb_dtype t,
                 progress *pg);

/* ---- run_sparse.c ---- */

void run_sparse(bench *b, rtn r, const char *kind, int64_t n0, axb_dtype t,
                progress *pg);

/* ---- problems_backends.c ---- */

void gen_spec_text(char *spec, size_t len, const char *kind, int64_t n,
                   uint64_t seed);
axb_status make_problem(bench *b, const char *kind, const char *file, int64_t n,
                        axb_dtype t, axb_dense *A, axb_dense *X, axb_dense *B,
                        char *err, size_t len);
int mkdir_p(const char *dir);
int open_backends(bench *b);
void close_backends(bench *b);

/* ---- table_json_csv.c ---- */

const char *prec_name(axb_dtype t);
void impl_label(const result *r, char *buf, size_t len);
void print_table(FILE *f, const config *c);
int write_csv(const char *dir);
int write_json(const char *dir, const config *c, int argc, char **argv,
               int interrupted);

/* ---- plots.c ---- */

void bench_plots(const char *dir, const config *c);
int plot_histories(const config *c);

/* ---- options.c ---- */

extern const cli_opt bench_table[];
int split(char *buf, char **items, int max);
int find_name(const char *const *names, int count, const char *w);
char *keep(const char *s);
int parse_routines(config *c, const char *v);
int parse_backends(config *c, const char *v);
int parse_sizes(config *c, const char *v);
int parse_matrix(config *c, const char *v);
int add_path(config *c, const char *p);
int parse_threads(config *c, const char *v);
const char *matrices_dir(void);
void bench_defaults(config *c);
int bench_options(config *c, int argc, char **argv);

/* ---- presets.c ---- */

int apply_preset(config *c, const char *name);

#endif
