/* axb demo: the embedded default problems, no files and no GPU needed. */
#include "cli.h"

#include <string.h>

enum {
  OPT_HELP = 1,
  OPT_N,
  OPT_BACKEND,
  OPT_DEVICE,
  OPT_PRECISION,
  OPT_THREADS,
  OPT_JSON,
  OPT_QUIET
};

static const cli_opt demo_table[] = {{"help", 'h', 0, OPT_HELP},
                                     {"n", 'n', 1, OPT_N},
                                     {"backend", 0, 1, OPT_BACKEND},
                                     {"device", 'd', 1, OPT_DEVICE},
                                     {"precision", 'p', 1, OPT_PRECISION},
                                     {"threads", 't', 1, OPT_THREADS},
                                     {"json", 0, 0, OPT_JSON},
                                     {"quiet", 'q', 0, OPT_QUIET},
                                     {NULL, 0, 0, 0}};

#define DEMO_PROBLEMS 3
/* SPD (auto -> Cholesky), unsymmetric (auto -> LU), and an ill-conditioned
   one whose forward error shows what the backward error does not. */
static const char *const demo_specs[DEMO_PROBLEMS] = {
    "spd:%lld", "uniform:%lld", "cond:%lld,kappa=%s"};

/* kappa_2 of the ill-conditioned problem: well above 1, well below 1/eps. */
static const char *demo_kappa(axb_dtype t) {
  return t == AXB_F32 ? "1e4" : "1e10";
}

typedef struct {
  int64_t n;
  axb_backend backend;
  axb_dtype dtype;
  int device, threads, json, quiet;
} demo_args;

/* One scanned item; returns -1 to go on, else an exit code. */
static int apply(void *ctx, int id, const char *v) {
  demo_args *a = ctx;
  int ok = 1;
  switch (id) {
  case OPT_HELP: cli_help_demo(stdout); return CLI_OK;
  case OPT_N: ok = cli_parse_i64("--n", v, 1, 100000, &a->n); break;
  case OPT_BACKEND: ok = cli_parse_backend(v, &a->backend); break;
  case OPT_DEVICE:
    ok = cli_parse_int("--device", v, 0, 1 << 20, &a->device);
    break;
  case OPT_PRECISION: ok = cli_parse_precision(v, &a->dtype); break;
  case OPT_THREADS:
    ok = cli_parse_int("--threads", v, 0, 1 << 16, &a->threads);
    break;
  case OPT_JSON: a->json = 1; break;
  case OPT_QUIET: a->quiet = 1; break;
  case CLI_SCAN_POSITIONAL:
    return cli_usage_error("demo", "unexpected argument '%s'", v);
  default: break;
  }
  return ok ? -1 : CLI_USAGE;
}

static int parse_args(int argc, char **argv, demo_args *a) {
  memset(a, 0, sizeof *a);
  a->n = 1000;
  a->backend = AXB_BACKEND_AUTO;
  a->dtype = AXB_F64;
  a->threads = -1;
  return cli_scan_apply(argc, argv, "demo", demo_table, apply, a);
}

/* Generate KIND:n, b = A*1, solve with method auto. */
static void demo_one(axb_handle h, const demo_args *a, const char *spec_text,
                     cli_result *r) {
  axb_dense A, B, Xt;
  axb_gen_spec spec;
  axb_solve_opts o;
  memset(&A, 0, sizeof A);
  memset(&B, 0, sizeof B);
  memset(&Xt, 0, sizeof Xt);
  memset(&o, 0, sizeof o);
  axb_solve_opts_default(&o);
  o.method = AXB_METHOD_AUTO;
  o.pivot = 1;
  r->problem = spec_text;
  r->method_asked = "auto";
  r->rep.n = a->n;
  r->rep.nrhs = 1;
  r->rep.dtype = a->dtype;
  r->rep.backend = axb_handle_backend(h);
  r->fwd_error = -1;
  axb_status st = axb_gen_parse(h, spec_text, &spec);
  if (st == AXB_SUCCESS) st = axb_gen_dense(h, &spec, a->dtype, &A);
  if (st == AXB_SUCCESS) st = axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 42, &Xt, &B);
  if (st == AXB_SUCCESS)
    st = cli_run_solve(h, &A, &B, &Xt, &o, r);
  else
    r->status = st;
  if (st != AXB_SUCCESS)
    cli_error_text(r->error, sizeof r->error, st, h, spec_text);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&Xt);
}

static void print_human(const cli_result *r, int count, int64_t n) {
  printf("axb demo: %d generated systems of order %lld, b = A*1 "
         "(x_true = ones), method auto\n",
         count, (long long)n);
  for (int i = 0; i < count; i++) {
    printf("\n[%d/%d] %s\n", i + 1, count, r[i].problem);
    if (r[i].solved)
      cli_print_report(stdout, &r[i]);
    else
      printf("  %-16s%s\n", "error", r[i].error);
  }
}

static void print_summary(int certified, axb_dtype t) {
  if (!certified) {
    printf("\ndemo: NOT certified (see the status lines above)\n");
    return;
  }
  printf("\ndemo: every answer certified (backward error < 30).\n"
         "The backward error certifies the solver.  The forward error of the\n"
         "ill-conditioned problem (kappa_2 = %s) is larger: it is bounded\n"
         "by about kappa_1 * n * eps * backward error, a property of the\n"
         "problem, not of the solver.\n",
         demo_kappa(t));
}

static void print_json(const cli_result *r, int count, int certified,
                       int code) {
  printf("{\"demo\": [");
  for (int i = 0; i < count; i++) {
    if (i) printf(", ");
    cli_print_json(stdout, &r[i]);
  }
  printf("], \"certified\": %s, \"exit_code\": %d}\n",
         certified ? "true" : "false", code);
}

int cli_demo(int argc, char **argv) {
  demo_args a;
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  axb_handle h = NULL;
  axb_status st = cli_handle(&h, a.backend, a.device, a.threads, NULL, 0);
  if (st != AXB_SUCCESS) return cli_exit_code(st);
  static cli_result r[DEMO_PROBLEMS];
  static char specs[DEMO_PROBLEMS][64];
  int certified = 1;
  code = CLI_OK;
  for (int i = 0; i < DEMO_PROBLEMS; i++) {
    memset(&r[i], 0, sizeof r[i]);
    snprintf(specs[i], sizeof specs[i], demo_specs[i], (long long)a.n,
             demo_kappa(a.dtype));
    demo_one(h, &a, specs[i], &r[i]);
    certified = certified && cli_certified(&r[i]);
    if (code == CLI_OK) code = cli_result_exit(&r[i]);
    if (r[i].error[0]) cli_error("%s", r[i].error);
  }
  if (!a.quiet && a.json)
    print_json(r, DEMO_PROBLEMS, certified, code);
  else if (!a.quiet)
    print_human(r, DEMO_PROBLEMS, a.n);
  if (!a.quiet && !a.json) print_summary(certified, a.dtype);
  axb_handle_destroy(h);
  return code;
}
