/* Shared declarations of the axb command-line tool.  The CLI is a client of
   the public header axb.h only. */
#ifndef AXB_CLI_H
#define AXB_CLI_H

#include "axb.h"

#include <stdint.h>
#include <stdio.h>

/* Exit codes (documented in every --help). */
enum {
  CLI_OK = 0,        /* success                                          */
  CLI_NUMERICAL = 1, /* numerical failure or uncertified answer          */
  CLI_USAGE = 2,     /* bad command line                                 */
  CLI_INPUT = 3,     /* bad or unreadable input, out of memory, ...      */
  CLI_DEVICE = 4     /* no GPU, device error, CUDA backend not compiled  */
};

/* The backward-error ratio under which an answer is certified. */
#define CLI_BERR_LIMIT 30.0

/* Text appended to every --help. */
extern const char cli_exit_codes_help[];

/* ---- options.c: argument scanning and strict number parsing ---- */

typedef struct {
  const char *name; /* long name without "--" (NULL ends a table) */
  char short_name;  /* 0: none */
  int has_arg;      /* 1: takes a value */
  int id;           /* returned by cli_next_opt */
} cli_opt;

typedef struct {
  int argc;
  char **argv;
  int i;            /* next argv index to look at */
  int only_args;    /* after "--" */
  const char *cmd;  /* subcommand name, for messages */
  const char *arg;  /* value of the option just returned */
  const char *text; /* the option as written, for messages */
} cli_scan;

enum { CLI_SCAN_END = -1, CLI_SCAN_ERROR = -2, CLI_SCAN_POSITIONAL = -3 };

void cli_scan_init(cli_scan *s, int argc, char **argv, int first,
                   const char *cmd);
/* Next option id, CLI_SCAN_POSITIONAL (s->arg is the word), CLI_SCAN_END,
   or CLI_SCAN_ERROR (message printed). */
int cli_next_opt(cli_scan *s, const cli_opt *table);
/* One option (id, its value or the positional word) into a command's
   arguments ctx: -1 to go on, else the exit code to stop with. */
typedef int (*cli_apply_fn)(void *ctx, int id, const char *arg);
/* Scans argv[2..] with table, handing every option and positional word to
   apply until it returns an exit code; returns that code, CLI_USAGE on a
   scan error (message printed), -1 once every word is taken. */
int cli_scan_apply(int argc, char **argv, const char *cmd, const cli_opt *table,
                   cli_apply_fn apply, void *ctx);

/* Strict parsers: print a usage message and return 0 on a bad value. */
int cli_parse_i64(const char *opt, const char *text, int64_t lo, int64_t hi,
                  int64_t *out);
int cli_parse_int(const char *opt, const char *text, int lo, int hi, int *out);
int cli_parse_u64(const char *opt, const char *text, uint64_t *out);
int cli_parse_backend(const char *text, axb_backend *out);
int cli_parse_precision(const char *text, axb_dtype *out);

/* Messages on stderr. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* "axb: error: <strerror>: <detail>", with `what` (a path or spec) added
   when the detail does not already name it.  Returns the exit code. */
int cli_fail(axb_status st, axb_handle h, const char *what);
/* The same message without the "axb: error: " prefix, into buf. */
void cli_error_text(char *buf, size_t len, axb_status st, axb_handle h,
                    const char *what);
/* Exit code of a library status. */
int cli_exit_code(axb_status st);

/* Create a handle and set its thread count (threads < 0: default).  On
   failure prints a message (also copied into err when err != NULL) and
   returns the status. */
axb_status cli_handle(axb_handle *h, axb_backend backend, int device,
                      int threads, char *err, size_t errlen);

/* ---- gen.c ---- */
/* Parse a generator spec given on the command line; prints a usage error
   and returns 0 when it is bad. */
int cli_parse_gen(const char *cmd, const char *text, axb_gen_spec *spec);

/* ---- solve.c ---- */
struct cli_result_s;
/* Solve A X = B (B becomes X) and fill r (status, report, forward error
   against X_true when X_true != NULL).  Returns r->status. */
axb_status cli_run_solve(axb_handle h, const axb_dense *A, axb_dense *B,
                         const axb_dense *X_true, const axb_solve_opts *opts,
                         struct cli_result_s *r);

/* ---- report.c ---- */

typedef struct cli_result_s {
  const char *problem;      /* file name or generator spec */
  const char *method_asked; /* --method as given */
  axb_report rep;
  axb_status status;
  int solved;       /* axb_solve was called and filled rep */
  int x_exists;     /* X was computed */
  double fwd_error; /* < 0: unknown */
  int threads;
  char error[768]; /* error message, "" when none */
} cli_result;

/* 1 when X exists and its backward error is certified. */
int cli_certified(const cli_result *r);
/* Exit code of a finished (or failed) solve. */
int cli_result_exit(const cli_result *r);
/* Short machine name of a status ("success", "singular", ...). */
const char *cli_status_name(axb_status st);
void cli_print_report(FILE *f, const cli_result *r);
void cli_print_json(FILE *f, const cli_result *r);

/* JSON helpers. */
void cli_json_string(FILE *f, const char *s);
void cli_json_number(FILE *f, double v);

/* ---- the subcommands ---- */
int cli_solve(int argc, char **argv);

/* The sparse path of `axb solve` (cli/solve_sparse.c): chosen by a sparse
   --method (cg, cg1, bicgstab, gmres), --sparse, or any sparse option. */
typedef struct {
  int on;          /* the sparse path is selected                 */
  const char *why; /* the option that selected it (for messages)  */
  axb_sparse_opts opts;
  const char *history; /* --history FILE.csv, or NULL              */
  char auto_read[200]; /* issue 23: why AUTO read the file as sparse */
} cli_sparse_args;
/* AUTO's reading (issue 23): select the sparse path for a coordinate file
   that is large or sparse enough for the dense path to be wasteful (the
   reason goes to sp->auto_read); 1 when selected. */
int cli_sparse_auto(const char *path, cli_sparse_args *sp);
/* Parse one sparse option's value into sp (and select the sparse path);
   1 when good, else 0 with the message printed. */
int cli_sparse_option(cli_sparse_args *sp, const char *opt, const char *v);
/* Everything else `axb solve` parsed. */
typedef struct {
  const char *a_path, *b_path, *gen;
  const axb_gen_spec *spec;
  const char *out;
  axb_backend backend;
  int device, threads;
  axb_dtype dtype;
  int json, quiet;
  axb_rhs_kind rhs;
  int64_t nrhs;
  uint64_t seed;
} cli_sparse_job;
int cli_solve_sparse(const cli_sparse_job *j, const cli_sparse_args *sp);
int cli_demo(int argc, char **argv);
int cli_gen(int argc, char **argv);
int cli_info(int argc, char **argv);
/* axb info's OpenCL platforms and devices (cli/info_opencl.c). */
void cli_info_opencl_human(void);
void cli_info_opencl_json(void);
int cli_bench(int argc, char **argv);
int cli_tune(int argc, char **argv);

/* ---- help texts ---- */
void cli_help_main(FILE *f);
void cli_help_solve(FILE *f);
void cli_help_demo(FILE *f);
void cli_help_gen(FILE *f);
void cli_help_info(FILE *f);
void cli_help_bench(FILE *f);
void cli_help_tune(FILE *f);

/* Distributed solve (issue 24, cli/solve_dist.c): `axb solve ... --grid
   PxQ` under mpirun; says so and returns CLI_DEVICE when built without MPI. */
int cli_has_grid(int argc, char **argv);
int cli_solve_dist(int argc, char **argv);

#endif /* AXB_CLI_H */
