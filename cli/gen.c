/* axb gen: write a generated matrix as a Matrix Market file. */
#include "cli.h"

#include <string.h>

enum { OPT_HELP = 1, OPT_OUT, OPT_PRECISION, OPT_SPARSE, OPT_QUIET };

static const cli_opt gen_table[] = {
    {"help", 'h', 0, OPT_HELP},           {"output", 'o', 1, OPT_OUT},
    {"precision", 'p', 1, OPT_PRECISION}, {"sparse", 0, 0, OPT_SPARSE},
    {"quiet", 'q', 0, OPT_QUIET},         {NULL, 0, 0, 0}};

typedef struct {
  const char *text, *out;
  axb_gen_spec spec;
  axb_dtype dtype;
  int sparse, quiet;
} gen_args;

int cli_parse_gen(const char *cmd, const char *text, axb_gen_spec *spec) {
  axb_handle h = NULL;
  if (axb_handle_create(&h, AXB_BACKEND_REF, 0) != AXB_SUCCESS) h = NULL;
  memset(spec, 0, sizeof *spec);
  axb_status st = axb_gen_parse(h, text, spec);
  if (st == AXB_SUCCESS && axb_gen_order(spec) <= 0) st = AXB_ERR_INVALID;
  if (st != AXB_SUCCESS) {
    const char *detail = h ? axb_detail(h) : "";
    cli_usage_error(cmd, "bad generator spec '%s'%s%s (%s)", text,
                    *detail ? ": " : "", detail, axb_strerror(st));
  }
  axb_handle_destroy(h);
  return st == AXB_SUCCESS;
}

/* One scanned item; returns -1 to go on, else an exit code. */
static int apply(void *ctx, int id, const char *v) {
  gen_args *a = ctx;
  switch (id) {
  case OPT_HELP: cli_help_gen(stdout); return CLI_OK;
  case OPT_OUT: a->out = v; return -1;
  case OPT_PRECISION: return cli_parse_precision(v, &a->dtype) ? -1 : CLI_USAGE;
  case OPT_SPARSE: a->sparse = 1; return -1;
  case OPT_QUIET: a->quiet = 1; return -1;
  case CLI_SCAN_POSITIONAL:
    if (a->text) return cli_usage_error("gen", "unexpected argument '%s'", v);
    a->text = v;
    return -1;
  default: return CLI_USAGE;
  }
}

static int parse_args(int argc, char **argv, gen_args *a) {
  memset(a, 0, sizeof *a);
  a->dtype = AXB_F64;
  int code = cli_scan_apply(argc, argv, "gen", gen_table, apply, a);
  if (code >= 0) return code;
  if (!a->text) return cli_usage_error("gen", "missing generator SPEC");
  if (!a->out) return cli_usage_error("gen", "missing -o FILE");
  if (!cli_parse_gen("gen", a->text, &a->spec)) return CLI_USAGE;
  return -1;
}

static axb_status write_sparse(axb_handle h, const gen_args *a, int64_t *nnz) {
  axb_csr S;
  memset(&S, 0, sizeof S);
  axb_status st = axb_gen_csr(h, &a->spec, a->dtype, &S);
  if (st == AXB_SUCCESS) st = axb_write_csr(h, a->out, &S);
  *nnz = S.nnz;
  axb_csr_destroy(&S);
  return st;
}

static axb_status write_dense(axb_handle h, const gen_args *a) {
  axb_dense A;
  memset(&A, 0, sizeof A);
  axb_status st = axb_gen_dense(h, &a->spec, a->dtype, &A);
  if (st == AXB_SUCCESS) st = axb_write_dense(h, a->out, &A);
  axb_dense_destroy(&A);
  return st;
}

int cli_gen(int argc, char **argv) {
  gen_args a;
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  axb_handle h = NULL;
  axb_status st = cli_handle(&h, AXB_BACKEND_CPU, 0, -1, NULL, 0);
  if (st != AXB_SUCCESS) return cli_exit_code(st);
  int sparse = a.sparse || a.spec.kind == AXB_GEN_POISSON2D ||
               a.spec.kind == AXB_GEN_POISSON3D ||
               a.spec.kind == AXB_GEN_CONVDIFF3D;
  int64_t nnz = 0, n = axb_gen_order(&a.spec);
  code = CLI_OK;
  st = sparse ? write_sparse(h, &a, &nnz) : write_dense(h, &a);
  if (st != AXB_SUCCESS) {
    code = cli_fail(st, h, st == AXB_ERR_IO ? a.out : a.text);
  } else if (!a.quiet) {
    if (sparse)
      printf("wrote %s: %s, %lld x %lld, %lld nonzeros, %s, coordinate\n",
             a.out, a.text, (long long)n, (long long)n, (long long)nnz,
             axb_dtype_name(a.dtype));
    else
      printf("wrote %s: %s, %lld x %lld, %s, dense array\n", a.out, a.text,
             (long long)n, (long long)n, axb_dtype_name(a.dtype));
  }
  axb_handle_destroy(h);
  return code;
}
