/* axb solve: read or generate A (and b), solve, report, write x. */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
  OPT_HELP = 1,
  OPT_GEN,
  OPT_OUT,
  OPT_RHS,
  OPT_NRHS,
  OPT_SEED,
  OPT_METHOD,
  OPT_BACKEND,
  OPT_DEVICE,
  OPT_PRECISION,
  OPT_THREADS,
  OPT_NO_PIVOT,
  OPT_JSON,
  OPT_QUIET,
  OPT_FP_TOL,
  OPT_FP_SWEEPS,
  OPT_FP_SECTION,
  OPT_FP_BLOCK,
  OPT_FP_SCHED,
  OPT_FP_STREAMS,
  /* sparse path (cli/solve_sparse.c) */
  OPT_SPARSE,
  OPT_PRECOND,
  OPT_TOL,
  OPT_MAXIT,
  OPT_RESTART,
  OPT_SWEEPS,
  OPT_TRISOLVE,
  OPT_TRI_SWEEPS,
  OPT_HISTORY,
  OPT_DIRECT, /* issue 23 */
  OPT_FACTOR_PRECISION,
  OPT_REFINE,
  OPT_NO_FALLBACK,
  OPT_TRANS /* issue 26: A^T x = b */
};

static const cli_opt solve_table[] = {
    {"help", 'h', 0, OPT_HELP},
    {"gen", 0, 1, OPT_GEN},
    {"output", 'o', 1, OPT_OUT},
    {"rhs", 0, 1, OPT_RHS},
    {"nrhs", 0, 1, OPT_NRHS},
    {"seed", 0, 1, OPT_SEED},
    {"method", 'm', 1, OPT_METHOD},
    {"backend", 0, 1, OPT_BACKEND},
    {"device", 'd', 1, OPT_DEVICE},
    {"precision", 'p', 1, OPT_PRECISION},
    {"threads", 't', 1, OPT_THREADS},
    {"no-pivot", 0, 0, OPT_NO_PIVOT},
    {"json", 0, 0, OPT_JSON},
    {"quiet", 'q', 0, OPT_QUIET},
    {"fp-tol", 0, 1, OPT_FP_TOL},
    {"fp-max-sweeps", 0, 1, OPT_FP_SWEEPS},
    {"fp-section", 0, 1, OPT_FP_SECTION},
    {"fp-block", 0, 1, OPT_FP_BLOCK},
    {"fp-scheduler", 0, 1, OPT_FP_SCHED},
    {"fp-streams", 0, 1, OPT_FP_STREAMS},
    {"sparse", 0, 0, OPT_SPARSE},
    {"precond", 0, 1, OPT_PRECOND},
    {"tol", 0, 1, OPT_TOL},
    {"maxit", 0, 1, OPT_MAXIT},
    {"restart", 0, 1, OPT_RESTART},
    {"sweeps", 0, 1, OPT_SWEEPS},
    {"trisolve", 0, 1, OPT_TRISOLVE},
    {"tri-sweeps", 0, 1, OPT_TRI_SWEEPS},
    {"history", 0, 1, OPT_HISTORY},
    {"direct", 0, 1, OPT_DIRECT},
    {"factor-precision", 0, 1, OPT_FACTOR_PRECISION},
    {"refine", 0, 1, OPT_REFINE},
    {"no-fallback", 0, 0, OPT_NO_FALLBACK},
    {"trans", 0, 0, OPT_TRANS},
    {"transpose", 0, 0, OPT_TRANS},
    {NULL, 0, 0, 0}};

typedef struct {
  const char *a_path, *b_path, *gen, *out, *method_name;
  axb_method method;
  axb_gen_spec spec;
  axb_backend backend;
  axb_dtype dtype;
  int device, threads, no_pivot, json, quiet;
  int trans; /* --trans: solve A^T x = b */
  axb_rhs_kind rhs;
  int64_t nrhs;
  uint64_t seed;
  const char *rhs_opt; /* an option that only applies to a generated b */
  axb_fixedpoint_opts fp;
  const char *fp_opt; /* an option that only applies to lu-fixedpoint */
  axb_mixed_opts mx;
  const char *mx_opt; /* an option that only applies to the mixed methods */
  cli_sparse_args sp; /* the sparse path: sp.on when selected */
} solve_args;

/* A dense method name, or a sparse one (cg, cg1, bicgstab, gmres,
   direct), which selects the sparse path. */
static int parse_method(solve_args *a, const char *text) {
  if (axb_method_parse(text, &a->method) == AXB_SUCCESS) return 1;
  if (axb_sparse_method_parse(text, &a->sp.opts.method) == AXB_SUCCESS) {
    a->sp.on = 1;
    return 1;
  }
  cli_error("--method: '%s' is not one of auto, lu, cholesky, gauss-jordan, "
            "lu-crout, gauss, cholesky-crout, cholesky-banachiewicz, "
            "lu-fixedpoint, lu-mixed, cholesky-mixed (dense) or cg, cg1, "
            "bicgstab, gmres, direct (sparse)",
            text);
  return 0;
}

static int parse_rhs(const char *text, axb_rhs_kind *k) {
  if (strcmp(text, "ones") == 0) {
    *k = AXB_RHS_ONES;
  } else if (strcmp(text, "random") == 0) {
    *k = AXB_RHS_RANDOM;
  } else {
    cli_error("--rhs: '%s' is not one of ones, random", text);
    return 0;
  }
  return 1;
}

/* --fp-tol: a finite number >= 0. */
static int parse_tol(const char *text, double *out) {
  char *end = NULL;
  double v = strtod(text, &end);
  if (end == text || *end || !(v >= 0) || !isfinite(v)) {
    cli_error("--fp-tol: '%s' is not a finite number >= 0", text);
    return 0;
  }
  *out = v;
  return 1;
}

/* The lu-fixedpoint options (see axb_fixedpoint_opts). */
static int apply_fp(solve_args *a, int id, const char *v) {
  int b = 0;
  switch (id) {
  case OPT_FP_TOL: a->fp_opt = "--fp-tol"; return parse_tol(v, &a->fp.tol);
  case OPT_FP_SWEEPS:
    a->fp_opt = "--fp-max-sweeps";
    return cli_parse_i64("--fp-max-sweeps", v, 1, INT64_MAX / 4,
                         &a->fp.max_sweeps);
  case OPT_FP_SECTION:
    a->fp_opt = "--fp-section";
    return cli_parse_i64("--fp-section", v, 1, INT64_MAX / 4, &a->fp.section);
  case OPT_FP_BLOCK:
    a->fp_opt = "--fp-block";
    if (!cli_parse_int("--fp-block", v, 8, 32, &b)) return 0;
    if (b != 8 && b != 16 && b != 32) {
      cli_error("--fp-block: %d is not one of 8, 16, 32", b);
      return 0;
    }
    a->fp.block = b;
    return 1;
  case OPT_FP_SCHED:
    a->fp_opt = "--fp-scheduler";
    if (strcmp(v, "pairs") == 0 || strcmp(v, "dag") == 0) {
      a->fp.scheduler = v[0] == 'p' ? AXB_FP_SCHED_PAIRS : AXB_FP_SCHED_DAG;
      return 1;
    }
    cli_error("--fp-scheduler: '%s' is not one of pairs, dag", v);
    return 0;
  case OPT_FP_STREAMS:
    a->fp_opt = "--fp-streams";
    return cli_parse_int("--fp-streams", v, 1, 64, &a->fp.streams);
  default: return 1;
  }
}

/* --refine: auto, ir or gmres. */
static int parse_refine(const char *text, axb_refine *r) {
  static const char *const names[] = {"auto", "ir", "gmres"};
  for (int i = 0; i < 3; ++i)
    if (strcmp(text, names[i]) == 0) {
      *r = (axb_refine)i;
      return 1;
    }
  cli_error("--refine: '%s' is not one of auto, ir, gmres", text);
  return 0;
}

/* --factor-precision. */
static int parse_factor_precision(const char *text, axb_factor_precision *p) {
  if (axb_factor_precision_parse(text, p) == AXB_SUCCESS) return 1;
  cli_error("--factor-precision: '%s' is not one of auto, fp32, tf32, fp16, "
            "bf16, fp64",
            text);
  return 0;
}

/* Options that take a value; returns 1 when the value is good. */
static int apply_value(solve_args *a, int id, const char *v) {
  switch (id) {
  case OPT_GEN: a->gen = v; return 1;
  case OPT_OUT: a->out = v; return 1;
  case OPT_RHS: a->rhs_opt = "--rhs"; return parse_rhs(v, &a->rhs);
  case OPT_NRHS:
    a->rhs_opt = "--nrhs";
    return cli_parse_i64("--nrhs", v, 1, 1000000, &a->nrhs);
  case OPT_SEED:
    a->rhs_opt = "--seed";
    return cli_parse_u64("--seed", v, &a->seed);
  case OPT_METHOD: a->method_name = v; return parse_method(a, v);
  case OPT_BACKEND: return cli_parse_backend(v, &a->backend);
  case OPT_DEVICE: return cli_parse_int("--device", v, 0, 1 << 20, &a->device);
  case OPT_PRECISION: return cli_parse_precision(v, &a->dtype);
  case OPT_THREADS:
    return cli_parse_int("--threads", v, 0, 1 << 16, &a->threads);
  case OPT_PRECOND: return cli_sparse_option(&a->sp, "--precond", v);
  case OPT_TOL: return cli_sparse_option(&a->sp, "--tol", v);
  case OPT_MAXIT: return cli_sparse_option(&a->sp, "--maxit", v);
  case OPT_RESTART: return cli_sparse_option(&a->sp, "--restart", v);
  case OPT_SWEEPS: return cli_sparse_option(&a->sp, "--sweeps", v);
  case OPT_TRISOLVE: return cli_sparse_option(&a->sp, "--trisolve", v);
  case OPT_TRI_SWEEPS: return cli_sparse_option(&a->sp, "--tri-sweeps", v);
  case OPT_HISTORY: return cli_sparse_option(&a->sp, "--history", v);
  case OPT_DIRECT: return cli_sparse_option(&a->sp, "--direct", v);
  case OPT_FACTOR_PRECISION:
    a->mx_opt = "--factor-precision";
    return parse_factor_precision(v, &a->mx.precision);
  case OPT_REFINE:
    a->mx_opt = "--refine";
    return parse_refine(v, &a->mx.refine);
  default: return apply_fp(a, id, v);
  }
}

/* One scanned item; returns -1 to go on, else an exit code. */
static int apply(void *ctx, int id, const char *v) {
  solve_args *a = ctx;
  switch (id) {
  case OPT_HELP: cli_help_solve(stdout); return CLI_OK;
  case OPT_NO_PIVOT: a->no_pivot = 1; return -1;
  case OPT_TRANS: a->trans = 1; return -1;
  case OPT_JSON: a->json = 1; return -1;
  case OPT_QUIET: a->quiet = 1; return -1;
  case OPT_NO_FALLBACK:
    a->mx_opt = "--no-fallback";
    a->mx.fallback = 0;
    return -1;
  case OPT_SPARSE:
    a->sp.on = 1;
    a->sp.why = "--sparse";
    return -1;
  case CLI_SCAN_POSITIONAL:
    if (!a->a_path)
      a->a_path = v;
    else if (!a->b_path)
      a->b_path = v;
    else
      return cli_usage_error("solve", "unexpected argument '%s'", v);
    return -1;
  default: return apply_value(a, id, v) ? -1 : CLI_USAGE;
  }
}

static int check_args(solve_args *a) {
  if (a->gen && a->a_path && a->b_path)
    return cli_usage_error("solve", "unexpected argument '%s'", a->b_path);
  if (a->gen && a->a_path) { /* --gen SPEC b.mtx */
    a->b_path = a->a_path;
    a->a_path = NULL;
  }
  if (!a->gen && !a->a_path)
    return cli_usage_error("solve", "give a matrix file A.mtx or --gen SPEC");
  if (a->b_path && a->rhs_opt)
    return cli_usage_error("solve",
                           "%s only applies when b is generated "
                           "(no b file given)",
                           a->rhs_opt);
  if (a->sp.on && (a->method != AXB_METHOD_AUTO || a->no_pivot || a->trans))
    return cli_usage_error("solve",
                           "%s is a dense option but %s selects the sparse "
                           "solvers",
                           a->no_pivot ? "--no-pivot"
                           : a->trans  ? "--trans"
                                       : a->method_name,
                           a->sp.why ? a->sp.why : "--method/--sparse");
  if (a->no_pivot && a->method != AXB_METHOD_GAUSS &&
      a->method != AXB_METHOD_LU_CROUT && a->method != AXB_METHOD_LU_FIXEDPOINT)
    return cli_usage_error("solve",
                           "--no-pivot only applies to --method gauss, "
                           "lu-crout and lu-fixedpoint (not %s)",
                           a->method_name);
  if (a->fp_opt && a->method != AXB_METHOD_LU_FIXEDPOINT)
    return cli_usage_error("solve",
                           "%s only applies to --method lu-fixedpoint (not %s)",
                           a->fp_opt, a->method_name);
  if (a->mx_opt && a->method != AXB_METHOD_LU_MIXED &&
      a->method != AXB_METHOD_CHOLESKY_MIXED)
    return cli_usage_error("solve",
                           "%s only applies to --method lu-mixed and "
                           "cholesky-mixed (not %s)",
                           a->mx_opt, a->method_name);
  if (a->gen && !cli_parse_gen("solve", a->gen, &a->spec)) return CLI_USAGE;
  return -1;
}

static int parse_args(int argc, char **argv, solve_args *a) {
  memset(a, 0, sizeof *a);
  a->method = AXB_METHOD_AUTO;
  a->method_name = "auto";
  axb_mixed_opts_default(&a->mx);
  a->backend = AXB_BACKEND_AUTO;
  a->dtype = AXB_F64;
  a->threads = -1;
  a->rhs = AXB_RHS_ONES;
  a->nrhs = 1;
  a->seed = 42;
  axb_fixedpoint_opts_default(&a->fp);
  axb_sparse_opts_default(&a->sp.opts);
  int code = cli_scan_apply(argc, argv, "solve", solve_table, apply, a);
  if (code >= 0) return code;
  return check_args(a);
}

/* ---- running ---- */

static void set_error(cli_result *r, axb_status st, axb_handle h,
                      const char *what) {
  cli_error_text(r->error, sizeof r->error, st, h, what);
  cli_error("%s", r->error);
  r->status = st;
}

axb_status cli_run_solve(axb_handle h, const axb_dense *A, axb_dense *B,
                         const axb_dense *X_true, const axb_solve_opts *opts,
                         cli_result *r) {
  axb_report *p = &r->rep;
  memset(p, 0, sizeof *p);
  p->rcond = -1;
  p->backward_error = NAN;
  axb_status st = axb_solve(h, A, B, opts, p);
  r->status = st;
  r->solved = st >= 0;
  /* X is handed back on success and with the two "computed but not
     trustworthy" verdicts. */
  r->x_exists = st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED ||
                st == AXB_ERR_INACCURATE;
  r->threads = axb_get_threads(h);
  p->n = A->rows;
  p->nrhs = B->cols;
  p->dtype = A->dtype;
  if (!r->solved) {
    p->backend = axb_handle_backend(h);
    p->method = opts->method;
  }
  r->fwd_error = -1;
  if (r->x_exists && X_true) r->fwd_error = axb_forward_error(B, X_true);
  return st;
}

typedef struct {
  axb_handle h;
  axb_dense A, B, Xt;
  int have_xt;
} solve_data;

static void free_data(solve_data *d) {
  axb_dense_destroy(&d->A);
  axb_dense_destroy(&d->B);
  axb_dense_destroy(&d->Xt);
  axb_handle_destroy(d->h);
}

/* An input the solve cannot take: r->error := "<AXB_ERR_INVALID's text>:
   <the message>", printed, status AXB_ERR_INVALID.  Returns 0 (the load
   failed). */
__attribute__((format(printf, 2, 3))) static int
invalid_input(cli_result *r, const char *fmt, ...) {
  char msg[sizeof r->error - 64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(r->error, sizeof r->error, "%s: %s", axb_strerror(AXB_ERR_INVALID),
           msg);
  cli_error("%s", r->error);
  r->status = AXB_ERR_INVALID;
  return 0;
}

static int load_a(const solve_args *a, solve_data *d, cli_result *r) {
  axb_status st;
  if (a->gen)
    st = axb_gen_dense(d->h, &a->spec, a->dtype, &d->A);
  else
    st = axb_read_dense(d->h, a->a_path, a->dtype, &d->A);
  if (st != AXB_SUCCESS) {
    set_error(r, st, d->h, r->problem);
    return 0;
  }
  r->rep.n = d->A.rows;
  if (d->A.rows == d->A.cols && d->A.rows > 0) return 1;
  if (d->A.rows == 0 || d->A.cols == 0)
    return invalid_input(r, "%s: matrix is empty (%lld x %lld)", r->problem,
                         (long long)d->A.rows, (long long)d->A.cols);
  return invalid_input(r,
                       "%s: matrix is %lld x %lld, a square matrix is needed",
                       r->problem, (long long)d->A.rows, (long long)d->A.cols);
}

/* *At := A^T (a new matrix), for --trans's generated b = A^T x_true. */
static axb_status transposed(const axb_dense *A, axb_dense *At) {
  axb_status st = axb_dense_create(At, A->cols, A->rows, A->dtype);
  for (int64_t j = 0; !st && j < A->cols; ++j)
    for (int64_t i = 0; i < A->rows; ++i)
      axb_dense_set(At, j, i, axb_dense_get(A, i, j));
  return st;
}

/* A generated b: A x_true, or A^T x_true with --trans. */
static axb_status gen_b(const solve_args *a, solve_data *d) {
  if (!a->trans)
    return axb_gen_rhs(d->h, &d->A, a->nrhs, a->rhs, a->seed, &d->Xt, &d->B);
  axb_dense At = {0};
  axb_status st = transposed(&d->A, &At);
  if (!st) st = axb_gen_rhs(d->h, &At, a->nrhs, a->rhs, a->seed, &d->Xt, &d->B);
  axb_dense_destroy(&At);
  return st;
}

static int load_b(const solve_args *a, solve_data *d, cli_result *r) {
  axb_status st;
  if (!a->b_path) {
    st = gen_b(a, d);
    d->have_xt = st == AXB_SUCCESS;
    if (st != AXB_SUCCESS) set_error(r, st, d->h, "right-hand side");
    return st == AXB_SUCCESS;
  }
  st = axb_read_dense(d->h, a->b_path, d->A.dtype, &d->B);
  if (st != AXB_SUCCESS) {
    set_error(r, st, d->h, a->b_path);
    return 0;
  }
  r->rep.nrhs = d->B.cols;
  if (d->B.rows == d->A.rows && d->B.cols > 0) return 1;
  return invalid_input(
      r, "%s: b is %lld x %lld but A is %lld x %lld: b needs %lld rows",
      a->b_path, (long long)d->B.rows, (long long)d->B.cols,
      (long long)d->A.rows, (long long)d->A.cols, (long long)d->A.rows);
}

static void solve_problem(const solve_args *a, solve_data *d, cli_result *r) {
  axb_solve_opts o;
  memset(&o, 0, sizeof o);
  axb_solve_opts_default(&o);
  o.method = a->method;
  o.pivot = a->no_pivot ? 0 : 1;
  o.trans = a->trans ? AXB_TRANS : AXB_NO_TRANS;
  o.fixedpoint = a->fp;
  o.mixed = a->mx;
  axb_status st =
      cli_run_solve(d->h, &d->A, &d->B, d->have_xt ? &d->Xt : NULL, &o, r);
  if (st != AXB_SUCCESS) {
    cli_error_text(r->error, sizeof r->error, st, d->h, NULL);
    if (r->rep.info > 0 && !strstr(r->error, "pivot") &&
        !strstr(r->error, "minor"))
      snprintf(r->error + strlen(r->error), sizeof r->error - strlen(r->error),
               " (index %lld)", (long long)r->rep.info);
  } else if (!cli_certified(r)) {
    snprintf(r->error, sizeof r->error,
             "backward error %.3g >= 30: the answer is not certified",
             r->rep.backward_error);
  }
}

static int write_x(const solve_args *a, solve_data *d, cli_result *r) {
  if (!a->out) return CLI_OK;
  if (!r->x_exists) {
    cli_error("no solution computed: %s not written", a->out);
    return CLI_OK;
  }
  axb_status st = axb_write_dense(d->h, a->out, &d->B);
  if (st == AXB_SUCCESS) return CLI_OK;
  return cli_fail(st, d->h, a->out);
}

static void report(const solve_args *a, const cli_result *r) {
  if (a->quiet) return;
  if (a->json) {
    cli_print_json(stdout, r);
    fputc('\n', stdout);
  } else if (r->solved) {
    cli_print_report(stdout, r);
  }
  fflush(stdout);
}

static int run(const solve_args *a, solve_data *d, cli_result *r) {
  axb_status st = cli_handle(&d->h, a->backend, a->device, a->threads, r->error,
                             sizeof r->error);
  if (st != AXB_SUCCESS) {
    r->status = st;
    return cli_exit_code(st);
  }
  if (!load_a(a, d, r) || !load_b(a, d, r)) return cli_exit_code(r->status);
  solve_problem(a, d, r);
  if (r->solved) report(a, r);
  if (r->error[0]) cli_error("%s", r->error);
  int wcode = write_x(a, d, r);
  return wcode != CLI_OK ? wcode : cli_result_exit(r);
}

int cli_solve(int argc, char **argv) {
  if (cli_has_grid(argc, argv)) return cli_solve_dist(argc, argv);
  solve_args a;
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  if (!a.sp.on && !a.gen && a.method == AXB_METHOD_AUTO && !a.no_pivot &&
      !a.trans && !a.fp_opt &&
      !a.mx_opt) /* issue 23: AUTO reads large sparse files */
    cli_sparse_auto(a.a_path, &a.sp);
  if (a.sp.on) {
    cli_sparse_job j = {a.a_path,  a.b_path, a.gen,     &a.spec, a.out,
                        a.backend, a.device, a.threads, a.dtype, a.json,
                        a.quiet,   a.rhs,    a.nrhs,    a.seed};
    return cli_solve_sparse(&j, &a.sp);
  }
  solve_data d;
  memset(&d, 0, sizeof d);
  static cli_result r; /* large error buffer: keep it off the stack */
  memset(&r, 0, sizeof r);
  r.problem = a.gen ? a.gen : a.a_path;
  r.method_asked = a.method_name;
  r.rep.dtype = a.dtype;
  r.rep.nrhs = a.b_path ? 0 : a.nrhs;
  r.rep.backend = a.backend;
  r.fwd_error = -1;
  r.threads = a.threads > 0 ? a.threads : 0;
  code = run(&a, &d, &r);
  if (!r.solved) report(&a, &r);
  free_data(&d);
  return code;
}
