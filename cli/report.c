/* The solve report: an aligned human table or one JSON object. */
#include "cli.h"

#include <math.h>
#include <string.h>

#define LABEL "  %-16s"

const char *cli_status_name(axb_status st) {
  if (st < 0 && st > -100) return "illegal_argument";
  switch (st) {
  case AXB_SUCCESS: return "success";
  case AXB_ERR_SINGULAR: return "singular";
  case AXB_ERR_NOT_SPD: return "not_spd";
  case AXB_ERR_SMALL_PIVOT: return "small_pivot";
  case AXB_ERR_NO_CONVERGENCE: return "no_convergence";
  case AXB_ERR_ILL_CONDITIONED: return "ill_conditioned";
  case AXB_ERR_INACCURATE: return "inaccurate";
  case AXB_ERR_INVALID: return "invalid";
  case AXB_ERR_OUT_OF_MEMORY: return "out_of_memory";
  case AXB_ERR_IO: return "io";
  case AXB_ERR_PARSE: return "parse";
  case AXB_ERR_NOT_SUPPORTED: return "not_supported";
  case AXB_ERR_NOT_COMPILED: return "not_compiled";
  case AXB_ERR_NO_DEVICE: return "no_device";
  case AXB_ERR_DEVICE: return "device";
  case AXB_ERR_INTERNAL: return "internal";
  default: return "unknown";
  }
}

static int berr_ok(double berr) {
  return isfinite(berr) && berr < CLI_BERR_LIMIT;
}

int cli_certified(const cli_result *r) {
  return r->solved && r->x_exists && berr_ok(r->rep.backward_error);
}

int cli_result_exit(const cli_result *r) {
  if (r->status != AXB_SUCCESS) return cli_exit_code(r->status);
  if (r->x_exists && !cli_certified(r)) return CLI_NUMERICAL;
  return CLI_OK;
}

static int is_mixed(axb_method m) {
  return m == AXB_METHOD_LU_MIXED || m == AXB_METHOD_CHOLESKY_MIXED;
}

static double kappa1(double rcond) {
  if (rcond < 0 || isnan(rcond)) return NAN;
  return rcond > 0 ? 1.0 / rcond : INFINITY;
}

static const char *threads_text(int threads, char *buf, size_t len) {
  if (threads > 0)
    snprintf(buf, len, "%d thread%s", threads, threads == 1 ? "" : "s");
  else
    snprintf(buf, len, "threads: all cores");
  return buf;
}

/* ---- human form ---- */

static void print_method(FILE *f, const cli_result *r) {
  const axb_report *p = &r->rep;
  fprintf(f, LABEL "%s", "method", axb_method_name(p->method));
  if (p->cholesky_fell_back)
    fputs("  (Cholesky not SPD \xe2\x86\x92 fell back to LU)", f);
  else if (r->method_asked && strcmp(r->method_asked, "auto") == 0)
    fputs("  (auto)", f);
  fputc('\n', f);
}

static void print_times(FILE *f, const axb_report *p) {
  fprintf(f,
          LABEL "factor %.4g  solve %.4g  transfer %.4g  certify %.4g  "
                "total %.4g\n",
          "time (ms)", 1e3 * p->t_factor, 1e3 * p->t_solve, 1e3 * p->t_transfer,
          1e3 * p->t_certify, 1e3 * p->t_total);
  fprintf(f,
          LABEL "check %.4g  symmetry %.4g  copy %.4g  rcond %.4g  "
                "backward error %.4g\n",
          "phases (ms)", 1e3 * p->t_check, 1e3 * p->t_symmetry, 1e3 * p->t_copy,
          1e3 * p->t_rcond, 1e3 * p->t_backward);
  if (p->gflops > 0 && isfinite(p->gflops))
    fprintf(f, LABEL "%.3g\n", "GFLOP/s", p->gflops);
  else
    fprintf(f, LABEL "n/a\n", "GFLOP/s");
}

static void print_accuracy(FILE *f, const cli_result *r) {
  const axb_report *p = &r->rep;
  if (r->x_exists)
    fprintf(f, LABEL "%.3g  %s   ||b-Ax||inf/(||A||inf ||x||inf n eps)\n",
            "backward error", p->backward_error,
            berr_ok(p->backward_error) ? "ok (< 30)" : "LARGE");
  else
    fprintf(f, LABEL "n/a (no solution computed)\n", "backward error");
  if (p->rcond >= 0)
    fprintf(f, LABEL "%.3g  (kappa_1 ~ %.3g)\n", "rcond", p->rcond,
            kappa1(p->rcond));
  else
    fprintf(f, LABEL "not estimated\n", "rcond");
  if (r->x_exists && r->fwd_error >= 0)
    fprintf(f, LABEL "%.3g   ||x-x_true||inf/||x_true||inf\n", "forward error",
            r->fwd_error);
}

static void print_status(FILE *f, const cli_result *r) {
  const axb_report *p = &r->rep;
  if (r->status == AXB_SUCCESS && cli_certified(r))
    fprintf(f, LABEL "ok\n", "status");
  else if (r->status == AXB_SUCCESS)
    fprintf(f, LABEL "LARGE backward error: answer not certified\n", "status");
  else if (p->info > 0)
    fprintf(f, LABEL "%s (%s %lld)\n", "status", axb_strerror(r->status),
            r->status == AXB_ERR_NOT_SPD ? "leading minor of order" : "pivot",
            (long long)p->info);
  else
    fprintf(f, LABEL "%s\n", "status", axb_strerror(r->status));
}

void cli_print_report(FILE *f, const cli_result *r) {
  const axb_report *p = &r->rep;
  char buf[64];
  fprintf(f, LABEL "%s  (n = %lld, nrhs = %lld, %s)\n", "problem",
          r->problem ? r->problem : "?", (long long)p->n, (long long)p->nrhs,
          axb_dtype_name(p->dtype));
  print_method(f, r);
  fprintf(f, LABEL "%s  (%s)\n", "backend", axb_backend_name(p->backend),
          threads_text(r->threads, buf, sizeof buf));
  print_times(f, p);
  if (p->method == AXB_METHOD_LU_FIXEDPOINT && p->sections > 0)
    fprintf(f, LABEL "%lld over %lld sections\n", "sweeps",
            (long long)p->sweeps, (long long)p->sections);
  if (is_mixed(p->method) && r->solved)
    fprintf(f,
            LABEL "factor %s, %lld refinement steps, %lld GMRES iterations%s\n",
            "refinement", axb_factor_precision_name(p->factor_precision),
            (long long)p->refine_steps, (long long)p->gmres_iters,
            p->mixed_fallbacks ? "  (fell back from a lower precision)" : "");
  print_accuracy(f, r);
  print_status(f, r);
}

/* ---- JSON ---- */

void cli_json_string(FILE *f, const char *s) {
  if (!s) {
    fputs("null", f);
    return;
  }
  fputc('"', f);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    switch (*c) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    default:
      if (*c < 0x20)
        fprintf(f, "\\u%04x", *c);
      else
        fputc(*c, f);
    }
  }
  fputc('"', f);
}

/* Nine significant digits, as the CSV: enough that a number derived from
   two printed ones (GFLOP/s from a time) agrees with the printed value to
   ~1e-8, which consumers and tests rely on. */
void cli_json_number(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, "%.9g", v);
  else
    fputs("null", f);
}

static void key(FILE *f, const char *k, int *first) {
  fputs(*first ? "{" : ", ", f);
  *first = 0;
  cli_json_string(f, k);
  fputs(": ", f);
}

static void kv_str(FILE *f, const char *k, const char *v, int *first) {
  key(f, k, first);
  cli_json_string(f, v);
}

static void kv_num(FILE *f, const char *k, double v, int *first) {
  key(f, k, first);
  cli_json_number(f, v);
}

static void kv_int(FILE *f, const char *k, long long v, int *first) {
  key(f, k, first);
  fprintf(f, "%lld", v);
}

/* A size: exact integer, null when unknown (0). */
static void kv_count(FILE *f, const char *k, int64_t v, int *first) {
  key(f, k, first);
  if (v > 0)
    fprintf(f, "%lld", (long long)v);
  else
    fputs("null", f);
}

static void kv_bool(FILE *f, const char *k, int v, int *first) {
  key(f, k, first);
  fputs(v ? "true" : "false", f);
}

static void json_solution(FILE *f, const cli_result *r, int *first) {
  const axb_report *p = &r->rep;
  int have = r->solved;
  kv_str(f, "method", have ? axb_method_name(p->method) : NULL, first);
  kv_bool(f, "cholesky_fell_back", have && p->cholesky_fell_back, first);
  kv_str(f, "backend", have ? axb_backend_name(p->backend) : NULL, first);
  kv_int(f, "threads", r->threads, first);
  kv_num(f, "t_factor_ms", have ? 1e3 * p->t_factor : NAN, first);
  kv_num(f, "t_solve_ms", have ? 1e3 * p->t_solve : NAN, first);
  kv_num(f, "t_transfer_ms", have ? 1e3 * p->t_transfer : NAN, first);
  kv_num(f, "t_certify_ms", have ? 1e3 * p->t_certify : NAN, first);
  kv_num(f, "t_total_ms", have ? 1e3 * p->t_total : NAN, first);
  /* The driver's phases (axb_report): where the time outside the factor
     and the solve goes. */
  kv_num(f, "t_check_ms", have ? 1e3 * p->t_check : NAN, first);
  kv_num(f, "t_symmetry_ms", have ? 1e3 * p->t_symmetry : NAN, first);
  kv_num(f, "t_copy_ms", have ? 1e3 * p->t_copy : NAN, first);
  kv_num(f, "t_rcond_ms", have ? 1e3 * p->t_rcond : NAN, first);
  kv_num(f, "t_backward_ms", have ? 1e3 * p->t_backward : NAN, first);
  kv_num(f, "gflops", have && p->gflops > 0 ? p->gflops : NAN, first);
  kv_num(f, "backward_error", r->x_exists ? p->backward_error : NAN, first);
  kv_bool(f, "backward_error_ok", cli_certified(r), first);
  kv_num(f, "rcond", have && p->rcond >= 0 ? p->rcond : NAN, first);
  kv_num(f, "kappa1", have ? kappa1(p->rcond) : NAN, first);
  kv_num(f, "forward_error",
         r->x_exists && r->fwd_error >= 0 ? r->fwd_error : NAN, first);
  if (have && is_mixed(p->method)) {
    kv_str(f, "factor_precision",
           axb_factor_precision_name(p->factor_precision), first);
    kv_int(f, "refine_steps", (long long)p->refine_steps, first);
    kv_int(f, "gmres_iters", (long long)p->gmres_iters, first);
    kv_int(f, "iter", (long long)p->mixed_iter, first);
    kv_int(f, "fallbacks", p->mixed_fallbacks, first);
  }
  if (have && p->method == AXB_METHOD_LU_FIXEDPOINT) {
    kv_int(f, "sweeps", (long long)p->sweeps, first);
    kv_int(f, "sections", (long long)p->sections, first);
  }
}

void cli_print_json(FILE *f, const cli_result *r) {
  const axb_report *p = &r->rep;
  int first = 1;
  kv_str(f, "problem", r->problem, &first);
  kv_count(f, "n", p->n, &first);
  kv_count(f, "nrhs", p->nrhs, &first);
  kv_str(f, "dtype", axb_dtype_name(p->dtype), &first);
  kv_str(f, "method_requested", r->method_asked, &first);
  json_solution(f, r, &first);
  kv_bool(f, "x_computed", r->x_exists, &first);
  kv_str(f, "status", cli_status_name(r->status), &first);
  kv_int(f, "status_code", r->status, &first);
  kv_str(f, "status_message", axb_strerror(r->status), &first);
  kv_int(f, "info", r->solved ? (long long)p->info : 0, &first);
  kv_bool(f, "certified", cli_certified(r), &first);
  kv_int(f, "exit_code", cli_result_exit(r), &first);
  kv_str(f, "error", r->error[0] ? r->error : NULL, &first);
  fputs("}", f);
}
