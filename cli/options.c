/* Argument scanning, strict number parsing, error messages, exit codes. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char cli_exit_codes_help[] =
    "Exit codes:\n"
    "  0  success (every answer certified: backward error < 30)\n"
    "  1  numerical failure: singular matrix, not symmetric positive "
    "definite,\n"
    "     zero/tiny pivot without pivoting, ill-conditioned (rcond < eps), or\n"
    "     a backward error >= 30 (the report is still printed when x "
    "exists)\n"
    "  2  usage error: unknown option or subcommand, missing or bad value,\n"
    "     bad generator spec\n"
    "  3  input error: file missing or unreadable, malformed file, invalid\n"
    "     values (NaN/Inf, non-square, empty, dimension mismatch), out of\n"
    "     memory, unsupported combination\n"
    "  4  device error: no usable GPU, CUDA error, or the CUDA backend is "
    "not\n"
    "     compiled into this build\n";

/* ---- messages ---- */

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fputs("axb: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (cmd)
    fprintf(stderr, "\nTry 'axb %s --help'.\n", cmd);
  else
    fputs("\nTry 'axb --help'.\n", stderr);
  return CLI_USAGE;
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  fputs("axb: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int cli_exit_code(axb_status st) {
  if (st == AXB_SUCCESS) return CLI_OK;
  if (st > 0) return CLI_NUMERICAL;
  switch (st) {
  case AXB_ERR_NO_DEVICE:
  case AXB_ERR_DEVICE:
  case AXB_ERR_NOT_COMPILED: return CLI_DEVICE;
  default: return CLI_INPUT;
  }
}

void cli_error_text(char *buf, size_t len, axb_status st, axb_handle h,
                    const char *what) {
  const char *detail = h ? axb_detail(h) : "";
  if (!detail) detail = "";
  int named = !what || !*what || strstr(detail, what);
  snprintf(buf, len, "%s%s%s%s%s", axb_strerror(st), named ? "" : ": ",
           named ? "" : what, *detail ? ": " : "", detail);
}

int cli_fail(axb_status st, axb_handle h, const char *what) {
  char buf[1024];
  cli_error_text(buf, sizeof buf, st, h, what);
  cli_error("%s", buf);
  return cli_exit_code(st);
}

axb_status cli_handle(axb_handle *h, axb_backend backend, int device,
                      int threads, char *err, size_t errlen) {
  char buf[512];
  axb_status st = AXB_SUCCESS;
  *h = NULL;
  if (!axb_backend_compiled(backend)) {
    st = AXB_ERR_NOT_COMPILED;
    snprintf(buf, sizeof buf,
             "%s: the %s backend is not compiled into this build of axb",
             axb_strerror(st), axb_backend_name(backend));
  } else if ((st = axb_handle_create(h, backend, device)) != AXB_SUCCESS) {
    *h = NULL;
    if (backend == AXB_BACKEND_CUDA)
      snprintf(buf, sizeof buf, "%s: cannot use CUDA device %d",
               axb_strerror(st), device);
    else if (backend == AXB_BACKEND_OPENCL)
      snprintf(buf, sizeof buf, "%s: cannot use OpenCL device %d: %s",
               axb_strerror(st), device, axb_detail(NULL));
    else
      snprintf(buf, sizeof buf, "%s: cannot create a %s handle",
               axb_strerror(st), axb_backend_name(backend));
  } else if (threads >= 0 &&
             (st = axb_set_threads(*h, threads)) != AXB_SUCCESS) {
    cli_error_text(buf, sizeof buf, st, *h, "--threads");
    axb_handle_destroy(*h);
    *h = NULL;
  }
  if (st == AXB_SUCCESS) return st;
  cli_error("%s", buf);
  if (err) snprintf(err, errlen, "%s", buf);
  return st;
}

/* ---- scanning ---- */

void cli_scan_init(cli_scan *s, int argc, char **argv, int first,
                   const char *cmd) {
  memset(s, 0, sizeof *s);
  s->argc = argc;
  s->argv = argv;
  s->i = first;
  s->cmd = cmd;
}

int cli_scan_apply(int argc, char **argv, const char *cmd, const cli_opt *table,
                   cli_apply_fn apply, void *ctx) {
  cli_scan s;
  cli_scan_init(&s, argc, argv, 2, cmd);
  for (;;) {
    int id = cli_next_opt(&s, table);
    if (id == CLI_SCAN_END) return -1;
    if (id == CLI_SCAN_ERROR) return CLI_USAGE;
    int code = apply(ctx, id, s.arg);
    if (code >= 0) return code;
  }
}

static const cli_opt *find_long(const cli_opt *t, const char *name,
                                size_t len) {
  for (; t->name; t++)
    if (strlen(t->name) == len && strncmp(t->name, name, len) == 0) return t;
  return NULL;
}

static const cli_opt *find_short(const cli_opt *t, char c) {
  for (; t->name; t++)
    if (t->short_name && t->short_name == c) return t;
  return NULL;
}

/* The value of an option that needs one: inline or the next word. */
static int take_value(cli_scan *s, const char *inl) {
  if (inl) {
    s->arg = inl;
    return 1;
  }
  if (s->i >= s->argc) {
    cli_usage_error(s->cmd, "option '%s' needs a value", s->text);
    return 0;
  }
  const char *v = s->argv[s->i];
  if (v[0] == '-' && v[1] == '-' && v[2] != '\0') {
    cli_usage_error(s->cmd, "option '%s' needs a value (got '%s')", s->text, v);
    return 0;
  }
  s->arg = v;
  s->i++;
  return 1;
}

static int scan_long(cli_scan *s, const cli_opt *table, const char *w) {
  const char *name = w + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const cli_opt *o = find_long(table, name, len);
  if (!o) {
    cli_usage_error(s->cmd, "unknown option '%.*s'", (int)(len + 2), w);
    return CLI_SCAN_ERROR;
  }
  if (!o->has_arg) {
    if (eq) {
      cli_usage_error(s->cmd, "option '--%s' takes no value", o->name);
      return CLI_SCAN_ERROR;
    }
    return o->id;
  }
  return take_value(s, eq ? eq + 1 : NULL) ? o->id : CLI_SCAN_ERROR;
}

static int scan_short(cli_scan *s, const cli_opt *table, const char *w) {
  const cli_opt *o = find_short(table, w[1]);
  if (!o || (!o->has_arg && w[2] != '\0')) {
    cli_usage_error(s->cmd, "unknown option '%s'", w);
    return CLI_SCAN_ERROR;
  }
  if (!o->has_arg) return o->id;
  return take_value(s, w[2] ? w + 2 : NULL) ? o->id : CLI_SCAN_ERROR;
}

int cli_next_opt(cli_scan *s, const cli_opt *table) {
  while (s->i < s->argc) {
    const char *w = s->argv[s->i++];
    s->arg = NULL;
    s->text = w;
    if (s->only_args || w[0] != '-' || w[1] == '\0') {
      s->arg = w;
      return CLI_SCAN_POSITIONAL;
    }
    if (strcmp(w, "--") == 0) {
      s->only_args = 1;
      continue;
    }
    return w[1] == '-' ? scan_long(s, table, w) : scan_short(s, table, w);
  }
  return CLI_SCAN_END;
}

/* ---- numbers ---- */

static int bad_number(const char *opt, const char *text, const char *what) {
  cli_error("%s: '%s' is not %s", opt, text, what);
  return 0;
}

int cli_parse_i64(const char *opt, const char *text, int64_t lo, int64_t hi,
                  int64_t *out) {
  char *end = NULL;
  if (!text || !*text || isspace((unsigned char)text[0]))
    return bad_number(opt, text ? text : "", "an integer");
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (*end != '\0') return bad_number(opt, text, "an integer");
  if (errno == ERANGE || v < lo || v > hi) {
    cli_error("%s: %s is out of range [%lld, %lld]", opt, text, (long long)lo,
              (long long)hi);
    return 0;
  }
  *out = (int64_t)v;
  return 1;
}

int cli_parse_int(const char *opt, const char *text, int lo, int hi, int *out) {
  int64_t v;
  if (!cli_parse_i64(opt, text, lo, hi, &v)) return 0;
  *out = (int)v;
  return 1;
}

int cli_parse_u64(const char *opt, const char *text, uint64_t *out) {
  char *end = NULL;
  if (!text || !isdigit((unsigned char)text[0]))
    return bad_number(opt, text ? text : "", "a non-negative integer");
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (*end != '\0') return bad_number(opt, text, "a non-negative integer");
  if (errno == ERANGE) {
    cli_error("%s: %s is out of range", opt, text);
    return 0;
  }
  *out = (uint64_t)v;
  return 1;
}

int cli_parse_backend(const char *text, axb_backend *out) {
  static const struct {
    const char *name;
    axb_backend b;
  } names[] = {{"auto", AXB_BACKEND_AUTO}, {"cpu", AXB_BACKEND_CPU},
               {"cuda", AXB_BACKEND_CUDA}, {"gpu", AXB_BACKEND_CUDA},
               {"ref", AXB_BACKEND_REF},   {"opencl", AXB_BACKEND_OPENCL}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(text, names[i].name) == 0) {
      *out = names[i].b;
      return 1;
    }
  cli_error("--backend: '%s' is not one of auto, cpu, cuda, ref, opencl", text);
  return 0;
}

int cli_parse_precision(const char *text, axb_dtype *out) {
  static const char *const f64[] = {"double", "f64", "fp64", "float64"};
  static const char *const f32[] = {"single", "float", "f32", "fp32",
                                    "float32"};
  for (size_t i = 0; i < sizeof f64 / sizeof f64[0]; i++)
    if (strcmp(text, f64[i]) == 0) {
      *out = AXB_F64;
      return 1;
    }
  for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; i++)
    if (strcmp(text, f32[i]) == 0) {
      *out = AXB_F32;
      return 1;
    }
  cli_error("--precision: '%s' is not one of double, single (float, f64, "
            "f32)",
            text);
  return 0;
}
