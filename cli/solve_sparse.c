/* axb solve, sparse path: read or generate a CSR matrix (and b), run
   axb_sparse_solve, print the report (iterations, set-up and solve time,
   true residual), write x and the residual history. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_double(const char *opt, const char *v, double lo, double hi,
                        double *out) {
  char *end = NULL;
  errno = 0;
  double x = strtod(v, &end);
  if (errno || end == v || *end || !(x > lo) || !(x < hi)) {
    cli_error("%s: '%s' is not a number in (%g, %g)", opt, v, lo, hi);
    return 0;
  }
  *out = x;
  return 1;
}

int cli_sparse_option(cli_sparse_args *sp, const char *opt, const char *v) {
  axb_sparse_opts *o = &sp->opts;
  int64_t i64;
  sp->on = 1;
  if (!sp->why) sp->why = opt;
  if (strcmp(opt, "--precond") == 0) {
    if (axb_precond_parse(v, &o->precond) == AXB_SUCCESS) return 1;
    cli_error("--precond: '%s' is not one of auto, none, jacobi, ilu0, ic0, "
              "parilu, paric, ilut",
              v);
    return 0;
  }
  if (strcmp(opt, "--tol") == 0) return parse_double(opt, v, 0, 1, &o->tol);
  if (strcmp(opt, "--maxit") == 0) {
    if (!cli_parse_i64(opt, v, 1, INT64_MAX / 2, &i64)) return 0;
    o->max_iter = i64;
    return 1;
  }
  if (strcmp(opt, "--restart") == 0)
    return cli_parse_int(opt, v, 1, 10000, &o->restart);
  if (strcmp(opt, "--sweeps") == 0)
    return cli_parse_int(opt, v, 1, 1000, &o->sweeps);
  if (strcmp(opt, "--tri-sweeps") == 0)
    return cli_parse_int(opt, v, 1, 1000, &o->tri_sweeps);
  if (strcmp(opt, "--trisolve") == 0) {
    if (strcmp(v, "exact") == 0)
      o->trisolve = AXB_TRISOLVE_EXACT;
    else if (strcmp(v, "jacobi") == 0)
      o->trisolve = AXB_TRISOLVE_JACOBI;
    else {
      cli_error("--trisolve: '%s' is not one of exact, jacobi", v);
      return 0;
    }
    return 1;
  }
  if (strcmp(opt, "--direct") == 0) {
    static const char *const names[] = {"auto", "fallback", "never"};
    for (int i = 0; i < 3; ++i)
      if (strcmp(v, names[i]) == 0) {
        o->direct = i;
        return 1;
      }
    cli_error("--direct: '%s' is not one of auto, fallback, never", v);
    return 0;
  }
  if (strcmp(opt, "--history") == 0) {
    sp->history = v;
    o->history = 1;
    return 1;
  }
  return 1;
}

/* A coordinate file of order at least this, with at most
   CLI_SPARSE_DENSITY of its entries nonzero, is read as sparse by AUTO
   when the build has the direct solvers:
   the dense LU (2/3 n^3 flops) would spend nearly all its work on zeros:
   measured on the 2-core VM, `axb solve F --method lu` against --sparse:
   dw2048 0.56 / 0.07 s, cryg2500 0.91 / 0.03 s, pde2961 1.39 / 0.02 s,
   fidap036 1.53 / 0.12 s (whole commands; 4000 before issue 23's
   second session).  A file whose dense copy would not fit in
   CLI_SPARSE_DENSE_GIB is read as sparse whatever its density. */
#define CLI_SPARSE_MIN_N 2000
#define CLI_SPARSE_DENSITY 0.05
#define CLI_SPARSE_DENSE_GIB 8.0

int cli_sparse_auto(const char *path, cli_sparse_args *sp) {
  axb_mm_info in;
  if (!path || axb_read_info(NULL, path, &in) != AXB_SUCCESS ||
      !in.coordinate || in.rows != in.cols || in.rows <= 0)
    return 0;
  double n = (double)in.rows;
  double nnz = (double)in.entries * (in.symmetric ? 2 : 1);
  double gib = n * n * 8 / 1073741824.0, dens = nnz / (n * n);
  /* Without the direct solvers the sparse path is Krylov only, which can
     fail where the dense LU would not: then only size decides. */
  if (axb_sparse_direct_available() && n >= CLI_SPARSE_MIN_N &&
      dens <= CLI_SPARSE_DENSITY)
    snprintf(sp->auto_read, sizeof sp->auto_read,
             "read as sparse (AUTO): coordinate file, n = %lld >= %d with "
             "%.3g%% nonzeros (a dense copy: %.3g GiB)",
             (long long)in.rows, CLI_SPARSE_MIN_N, 100 * dens, gib);
  else if (gib > CLI_SPARSE_DENSE_GIB)
    snprintf(sp->auto_read, sizeof sp->auto_read,
             "read as sparse (AUTO): coordinate file whose dense copy "
             "would take %.3g GiB",
             gib);
  else
    return 0;
  sp->on = 1;
  sp->why = "AUTO's sparse reading";
  return 1;
}

/* b = A x_true for x_true = ones or seeded uniform(-1, 1) (splitmix64),
   computed in double. */
static axb_status make_rhs(const axb_csr *A, const cli_sparse_job *j,
                           axb_dense *Xt, axb_dense *B) {
  axb_status st = axb_dense_create(Xt, A->rows, j->nrhs, A->dtype);
  if (!st) st = axb_dense_create(B, A->rows, j->nrhs, A->dtype);
  if (st) return st;
  uint64_t s = j->seed;
  for (int64_t c = 0; c < j->nrhs; ++c)
    for (int64_t i = 0; i < A->rows; ++i) {
      double x = 1;
      if (j->rhs == AXB_RHS_RANDOM) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        x = (double)(z >> 11) * 0x1.0p-53 * 2 - 1;
      }
      axb_dense_set(Xt, i, c, x);
    }
  for (int64_t c = 0; c < j->nrhs; ++c)
    for (int64_t i = 0; i < A->rows; ++i) {
      double sum = 0;
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
        double a = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                                       : ((const float *)A->values)[k];
        sum += a * axb_dense_get(Xt, A->colind[k], c);
      }
      axb_dense_set(B, i, c, sum);
    }
  return AXB_SUCCESS;
}

static int write_history(const char *path, const axb_sparse_report *r) {
  FILE *f = fopen(path, "w");
  if (!f) {
    cli_error("cannot write the history to %s: %s", path, strerror(errno));
    return 0;
  }
  fprintf(f, "iteration,relative_residual\n");
  for (int64_t k = 0; k < r->history_len; ++k)
    fprintf(f, "%lld,%.6e\n", (long long)k, r->history[k]);
  int ok = fclose(f) == 0;
  if (!ok) cli_error("cannot write the history to %s", path);
  return ok;
}

static const char *verdict(axb_status st) {
  switch (st) {
  case AXB_SUCCESS: return "converged";
  case AXB_ERR_NO_CONVERGENCE: return "did not converge";
  case AXB_ERR_NOT_SPD: return "not positive definite";
  case AXB_ERR_SMALL_PIVOT: return "preconditioner failed (zero pivot)";
  case AXB_ERR_ILL_CONDITIONED: return "solved, but ill-conditioned";
  case AXB_ERR_INACCURATE: return "solved, but not certified";
  default: return axb_strerror(st);
  }
}

static void print_text(const cli_sparse_job *j, const cli_sparse_args *sp,
                       const axb_sparse_report *r, int threads, axb_status st,
                       double fwd) {
  printf("problem        %s (n = %lld, nnz = %lld, %s, nrhs = %lld)\n",
         j->gen ? j->gen : j->a_path, (long long)r->n, (long long)r->nnz,
         axb_dtype_name(r->dtype), (long long)r->nrhs);
  if (sp->auto_read[0]) printf("input          %s\n", sp->auto_read);
  printf("backend        %s", axb_backend_name(r->backend));
  if (r->backend == AXB_BACKEND_REF)
    printf(" (1 thread)");
  else if (r->backend != AXB_BACKEND_CUDA && threads > 0)
    printf(" (%d thread%s)", threads, threads == 1 ? "" : "s");
  else if (r->backend != AXB_BACKEND_CUDA)
    printf(" (all cores)");
  if (r->method == AXB_SPARSE_DIRECT)
    printf("\nmethod         direct (%s)", r->solver[0] ? r->solver : "none");
  else
    printf("\nmethod         %s + %s", axb_sparse_method_name(r->method),
           axb_precond_name(r->precond));
  if (r->precond_fell_back) /* AUTO: what it tried, why, what then ran */
    printf(" (fallback: %s failed, %s at row %lld%s; fell back to %s)",
           axb_precond_name(r->precond_requested),
           axb_strerror(r->precond_status), (long long)r->precond_info,
           r->precond == AXB_PRECOND_NONE ? "; jacobi failed too" : "",
           axb_precond_name(r->precond));
  if (r->precond_shift > 0)
    printf(" (IC(0) broke down: computed on A + %.3g diag(A))",
           r->precond_shift);
  printf("\niterations     %lld", (long long)r->iterations);
  if (r->restarts) printf(" (%d restarts)", r->restarts);
  printf("\nsetup          %.6f s\nsolve          %.6f s\n", r->t_setup,
         r->t_solve);
  printf("times          check %.4f, symmetry %.4f, analysis %.4f, memory "
         "%.4f, upload %.4f, precond %.4f (host %.4f), certify %.4f s\n",
         r->t_check, r->t_symmetry, r->t_analysis, r->t_memory, r->t_upload,
         r->t_precond, r->t_precond_host, r->t_certify);
  if (r->method == AXB_SPARSE_DIRECT)
    printf("residual       true ||b-Ax||/||b|| = %.3e\n", r->true_residual);
  else
    printf("residual       %.3e (recurrence), true ||b-Ax||/||b|| = %.3e\n",
           r->residual, r->true_residual);
  if (fwd >= 0) printf("forward error  %.3e\n", fwd);
  if (r->method == AXB_SPARSE_DIRECT && r->rcond > 0)
    printf("rcond          %.3e (1-norm estimate, rows equilibrated)\n",
           r->rcond);
  if (r->path[0]) printf("path           %s\n", r->path);
  printf("status         %s", verdict(st));
  if (r->breakdown != AXB_BREAKDOWN_NONE)
    printf(" (%s)", axb_sparse_breakdown_name(r->breakdown));
  printf("\n");
}

static void print_json(const cli_sparse_job *j, const cli_sparse_args *sp,
                       const axb_sparse_report *r, int threads, axb_status st,
                       double fwd) {
  printf("{\"problem\": ");
  cli_json_string(stdout, j->gen ? j->gen : j->a_path);
  printf(", \"n\": %lld, \"nnz\": %lld, \"dtype\": \"%s\", \"nrhs\": %lld, "
         "\"backend\": \"%s\", \"threads\": %d, \"method\": \"%s\", "
         "\"precond\": \"%s\", \"precond_requested\": \"%s\", "
         "\"precond_fell_back\": %s, \"iterations\": "
         "%lld, \"restarts\": %d, \"t_setup\": ",
         (long long)r->n, (long long)r->nnz, axb_dtype_name(r->dtype),
         (long long)r->nrhs, axb_backend_name(r->backend), threads,
         axb_sparse_method_name(r->method), axb_precond_name(r->precond),
         axb_precond_name(r->precond_requested),
         r->precond_fell_back ? "true" : "false", (long long)r->iterations,
         r->restarts);
  cli_json_number(stdout, r->t_setup);
  printf(", \"t_solve\": ");
  cli_json_number(stdout, r->t_solve);
  const double tt[8] = {r->t_check,        r->t_symmetry, r->t_analysis,
                        r->t_memory,       r->t_upload,   r->t_precond,
                        r->t_precond_host, r->t_certify};
  static const char *const tn[8] = {"check",        "symmetry", "analysis",
                                    "memory",       "upload",   "precond",
                                    "precond_host", "certify"};
  printf(", \"times\": {");
  for (int i = 0; i < 8; ++i) {
    printf("%s\"%s\": ", i ? ", " : "", tn[i]);
    cli_json_number(stdout, tt[i]);
  }
  printf("}, \"residual\": ");
  cli_json_number(stdout, r->residual);
  printf(", \"true_residual\": ");
  cli_json_number(stdout, r->true_residual);
  printf(", \"forward_error\": ");
  cli_json_number(stdout, fwd >= 0 ? fwd : NAN);
  printf(", \"solver\": ");
  cli_json_string(stdout, r->solver);
  printf(", \"precond_shift\": ");
  cli_json_number(stdout, r->precond_shift);
  printf(", \"rcond\": ");
  cli_json_number(stdout, r->rcond > 0 ? r->rcond : NAN);
  printf(", \"path\": ");
  cli_json_string(stdout, r->path);
  printf(", \"input\": ");
  cli_json_string(stdout, sp->auto_read);
  printf(", \"breakdown\": ");
  cli_json_string(stdout, axb_sparse_breakdown_name(r->breakdown));
  printf(", \"status\": ");
  cli_json_string(stdout, cli_status_name(st));
  printf("}\n");
}

static axb_status load(const cli_sparse_job *j, const axb_sparse_opts *opts,
                       axb_handle h, axb_csr *A, axb_dense *B, axb_dense *Xt,
                       int *have_xt) {
  axb_status st = j->gen ? axb_gen_csr(h, j->spec, j->dtype, A)
                         : axb_read_csr(h, j->a_path, j->dtype, A);
  if (st) return cli_fail(st, h, j->gen ? j->gen : j->a_path), st;
  /* An absurd n (a header's claim) is refused before B, X and x_true
     exist (issue 19): they alone would take 3 n nrhs values. */
  st = axb_sparse_check_memory(h, A, j->nrhs, opts, 3);
  if (st) return cli_fail(st, h, j->gen ? j->gen : j->a_path), st;
  if (j->b_path) {
    st = axb_read_dense(h, j->b_path, j->dtype, B);
    if (st) return cli_fail(st, h, j->b_path), st;
    return AXB_SUCCESS;
  }
  st = make_rhs(A, j, Xt, B);
  if (st) return cli_fail(st, h, "right-hand side"), st;
  *have_xt = 1;
  return AXB_SUCCESS;
}

int cli_solve_sparse(const cli_sparse_job *j, const cli_sparse_args *sp) {
  axb_handle h = NULL;
  axb_csr A;
  axb_dense B, X, Xt;
  memset(&A, 0, sizeof A);
  memset(&B, 0, sizeof B);
  memset(&X, 0, sizeof X);
  memset(&Xt, 0, sizeof Xt);
  axb_sparse_report r;
  memset(&r, 0, sizeof r);
  int have_xt = 0, code;
  axb_status st = cli_handle(&h, j->backend, j->device, j->threads, NULL, 0);
  if (st) return cli_exit_code(st);
  if ((st = load(j, &sp->opts, h, &A, &B, &Xt, &have_xt))) {
    code = cli_exit_code(st);
    goto done;
  }
  if ((st = axb_dense_create(&X, B.rows, B.cols, B.dtype))) {
    code = cli_fail(st, h, "x");
    goto done;
  }
  st = axb_sparse_solve(h, &A, &B, &X, &sp->opts, &r);
  code = cli_exit_code(st);
  double fwd = -1;
  if (have_xt && st >= 0) fwd = axb_forward_error(&X, &Xt);
  if (st < 0) {
    char msg[1024];
    cli_error_text(msg, sizeof msg, st, h, NULL);
    cli_error("%s", msg);
    goto done;
  }
  if (!j->quiet) {
    if (j->json)
      print_json(j, sp, &r, axb_get_threads(h), st, fwd);
    else
      print_text(j, sp, &r, axb_get_threads(h), st, fwd);
  }
  if (st > 0) cli_error("%s", axb_detail(h));
  if (sp->history && !write_history(sp->history, &r)) code = CLI_INPUT;
  /* x is written whenever it was computed (also without convergence: the
     report says which residual it reached). */
  if (j->out && st >= 0 && st != AXB_ERR_SMALL_PIVOT) {
    axb_status ws = axb_write_dense(h, j->out, &X);
    if (ws) code = cli_fail(ws, h, j->out);
  }
done:
  axb_sparse_report_free(&r);
  axb_csr_destroy(&A);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xt);
  axb_handle_destroy(h);
  return code;
}
