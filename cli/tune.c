/* axb tune: measure the CPU/GPU crossovers and write the tuning file that
   AXB_BACKEND_AUTO reads (axb.h, "Benchmarking and tuning"). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { OPT_HELP = 1, OPT_OUTPUT, OPT_MAX_N, OPT_REPS, OPT_DRY, OPT_DEVICE };

static const cli_opt tune_table[] = {{"help", 'h', 0, OPT_HELP},
                                     {"output", 'o', 1, OPT_OUTPUT},
                                     {"max-n", 0, 1, OPT_MAX_N},
                                     {"reps", 0, 1, OPT_REPS},
                                     {"dry-run", 0, 0, OPT_DRY},
                                     {"device", 'd', 1, OPT_DEVICE},
                                     {NULL, 0, 0, 0}};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Median seconds of `reps` runs of routine r (host arrays: on a CUDA handle
   the transfers are included, as AUTO pays them), after one warm-up. */
static double time_routine(axb_handle h, axb_tune_routine r, const double *A,
                           int64_t n, int reps, double *W, int64_t *ipiv) {
  double best[32];
  if (reps > 31) reps = 31;
  for (int k = 0; k <= reps; ++k) {
    memcpy(W, A, (size_t)(n * n) * sizeof *W);
    double t0 = now();
    axb_status st;
    if (r == AXB_TUNE_CHOLESKY)
      st = axb_dpotrf(h, AXB_LOWER, n, W, n, NULL);
    else {
      st = axb_dgetrf(h, n, n, W, n, ipiv, NULL);
      if (!st && r == AXB_TUNE_INVERSE) st = axb_dgetri(h, n, W, n, ipiv, NULL);
    }
    double t = now() - t0;
    if (st) return -1;
    if (k) best[k - 1] = t;
  }
  for (int i = 1; i < reps; ++i) /* insertion sort */
    for (int j = i; j > 0 && best[j] < best[j - 1]; --j) {
      double x = best[j];
      best[j] = best[j - 1];
      best[j - 1] = x;
    }
  return best[reps / 2];
}

/* Crossover of routine r: the smallest measured n from which CUDA is
   faster at that n and every larger n measured. */
static int64_t measure(axb_handle cpu, axb_handle gpu, axb_tune_routine r,
                       int64_t max_n, int reps, char *log, size_t loglen) {
  int64_t cross = AXB_TUNE_NEVER;
  size_t used = strlen(log);
  int wins = 0;
  for (int64_t n = 64; n <= max_n; n *= 2) {
    axb_gen_spec s = {r == AXB_TUNE_CHOLESKY ? AXB_GEN_SPD_SHIFT
                                             : AXB_GEN_UNIFORM,
                      n, 0, -1, 42};
    axb_dense A = {0};
    double *W = malloc((size_t)(n * n) * sizeof *W);
    int64_t *ipiv = malloc((size_t)n * sizeof *ipiv);
    if (!W || !ipiv || axb_gen_dense(cpu, &s, AXB_F64, &A)) {
      free(W), free(ipiv);
      axb_dense_destroy(&A);
      break;
    }
    double tc = time_routine(cpu, r, A.data, n, reps, W, ipiv);
    double tg = time_routine(gpu, r, A.data, n, reps, W, ipiv);
    free(W), free(ipiv);
    axb_dense_destroy(&A);
    if (used < loglen)
      used += (size_t)snprintf(log + used, loglen - used,
                               "%s n=%lld: cpu %.4g s, cuda %.4g s\n",
                               axb_tune_routine_name(r), (long long)n, tc, tg);
    fprintf(stderr, "axb tune: %s n=%lld: cpu %.4g s, cuda %.4g s\n",
            axb_tune_routine_name(r), (long long)n, tc, tg);
    if (tc < 0 || tg < 0) continue;
    if (tg < tc) {
      if (cross == AXB_TUNE_NEVER) cross = n;
      if (++wins >= 2) break; /* won twice in a row: it stays ahead */
    } else {
      cross = AXB_TUNE_NEVER;
      wins = 0;
    }
  }
  return cross;
}

int cli_tune(int argc, char **argv) {
  cli_scan s;
  const char *out = NULL;
  int64_t max_n = 8192;
  int reps = 3, dry = 0, device = 0, ok = 1;
  cli_scan_init(&s, argc, argv, 2, "tune");
  for (int id; ok && (id = cli_next_opt(&s, tune_table)) != CLI_SCAN_END;) {
    switch (id) {
    case CLI_SCAN_ERROR: return CLI_USAGE;
    case CLI_SCAN_POSITIONAL:
      return cli_usage_error("tune", "unexpected argument '%s'", s.arg);
    case OPT_HELP: cli_help_tune(stdout); return CLI_OK;
    case OPT_OUTPUT: out = s.arg; break;
    case OPT_MAX_N:
      ok = cli_parse_i64("--max-n", s.arg, 64, 1 << 17, &max_n);
      break;
    case OPT_REPS: ok = cli_parse_int("--reps", s.arg, 1, 31, &reps); break;
    case OPT_DRY: dry = 1; break;
    case OPT_DEVICE:
      ok = cli_parse_int("--device", s.arg, 0, 1 << 20, &device);
      break;
    default: break;
    }
  }
  if (!ok) return CLI_USAGE;
  char path[1024];
  if (out)
    snprintf(path, sizeof path, "%s", out);
  else if (axb_tuning_path(path, sizeof path) != AXB_SUCCESS && !dry) {
    cli_error("no place for the tuning file: set AXB_TUNE_FILE or HOME, or "
              "use --output");
    return CLI_USAGE;
  }
  axb_tuning t;
  axb_tuning_defaults(&t);
  static char log[8192];
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  snprintf(log, sizeof log, "host %s, axb %s\n", host, axb_version());
  int count = 0;
  if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
      axb_cuda_device_count(&count) != AXB_SUCCESS || count <= device) {
    strncat(log,
            axb_backend_compiled(AXB_BACKEND_CUDA)
                ? "no GPU found: built-in defaults (AUTO uses the CPU)\n"
                : "CUDA not compiled in: built-in defaults (AUTO uses the "
                  "CPU)\n",
            sizeof log - strlen(log) - 1);
    fprintf(stderr, "axb tune: no GPU: writing the built-in defaults\n");
  } else {
    axb_handle cpu = NULL, gpu = NULL;
    if (cli_handle(&cpu, AXB_BACKEND_CPU, 0, 0, NULL, 0) ||
        cli_handle(&gpu, AXB_BACKEND_CUDA, device, -1, NULL, 0)) {
      axb_handle_destroy(cpu);
      return CLI_DEVICE;
    }
    char name[256] = "";
    axb_cuda_device_info(device, name, sizeof name, NULL);
    size_t l = strlen(log);
    snprintf(log + l, sizeof log - l,
             "GPU %d: %s; double precision, host arrays (transfers timed), "
             "median of %d\n",
             device, name, reps);
    for (int r = 0; r < AXB_TUNE_COUNT; ++r)
      t.crossover[r] =
          measure(cpu, gpu, (axb_tune_routine)r, max_n, reps, log, sizeof log);
    axb_handle_destroy(cpu);
    axb_handle_destroy(gpu);
  }
  if (log[strlen(log) - 1] == '\n') log[strlen(log) - 1] = '\0';
  for (int r = 0; r < AXB_TUNE_COUNT; ++r) {
    if (t.crossover[r] == AXB_TUNE_NEVER)
      printf("%-9s never (the GPU did not win up to n = %lld)\n",
             axb_tune_routine_name(r), (long long)max_n);
    else
      printf("%-9s %lld\n", axb_tune_routine_name(r),
             (long long)t.crossover[r]);
  }
  if (dry) return CLI_OK;
  axb_status st = axb_tuning_write(path, &t, log);
  if (st) return cli_fail(st, NULL, path);
  printf("written: %s\n", path);
  return CLI_OK;
}
