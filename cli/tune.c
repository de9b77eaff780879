/* axb tune: measure the CPU/GPU crossovers (dense LU, Cholesky, inverse;
   batched gesv, Cholesky, inverse on host arrays) and write the tuning file
   that AXB_BACKEND_AUTO reads (axb.h, "Benchmarking and tuning"). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
  OPT_HELP = 1,
  OPT_OUTPUT,
  OPT_MAX_N,
  OPT_REPS,
  OPT_DRY,
  OPT_DEVICE,
  OPT_NO_BATCHED
};

static const cli_opt tune_table[] = {
    {"help", 'h', 0, OPT_HELP},           {"output", 'o', 1, OPT_OUTPUT},
    {"max-n", 0, 1, OPT_MAX_N},           {"reps", 0, 1, OPT_REPS},
    {"dry-run", 0, 0, OPT_DRY},           {"device", 'd', 1, OPT_DEVICE},
    {"no-batched", 0, 0, OPT_NO_BATCHED}, {NULL, 0, 0, 0}};

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

/* ---- batched crossovers (host arrays, AXB_TUNE_BATCH problems) ---- */

/* One batched call of routine r on h (host arrays; W, X: the work copies). */
static axb_status batched_call(axb_handle h, axb_tune_routine r, int64_t n,
                               int64_t nb, double *W, double *X, int *info) {
  const int64_t nn = n * n;
  if (r == AXB_TUNE_BATCHED_GESV)
    return axb_dgesv_batched(h, n, 1, W, n, nn, NULL, n, X, n, n, info, nb);
  if (r == AXB_TUNE_BATCHED_CHOLESKY)
    return axb_dposv_batched(h, AXB_LOWER, n, 1, W, n, nn, X, n, n, info, nb);
  return axb_dinverse_batched(h, n, W, n, nn, info, nb);
}

/* Median wall seconds of `reps` batched calls after one warm-up, each on a
   fresh copy of A and B (copy not timed); -1 on a failure. */
static double time_batched(axb_handle h, axb_tune_routine r, int64_t n,
                           int64_t nb, const double *A, const double *B,
                           int reps, double *W, double *X, int *info) {
  double v[32];
  if (reps > 31) reps = 31;
  for (int k = 0; k <= reps; ++k) {
    memcpy(W, A, (size_t)(n * n * nb) * sizeof *W);
    memcpy(X, B, (size_t)(n * nb) * sizeof *X);
    double t0 = now();
    axb_status st = batched_call(h, r, n, nb, W, X, info);
    double t = now() - t0;
    if (st) return -1;
    for (int64_t i = 0; i < nb; ++i)
      if (info[i]) return -1;
    if (k) v[k - 1] = t;
  }
  for (int i = 1; i < reps; ++i)
    for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
      double x = v[j];
      v[j] = v[j - 1];
      v[j - 1] = x;
    }
  return v[reps / 2];
}

/* `nb` generated problems side by side (uniform, or SPD for Cholesky),
   b_k = ones. */
static int batched_input(axb_handle h, axb_tune_routine r, int64_t n,
                         int64_t nb, double *A, double *B) {
  for (int64_t k = 0; k < nb; ++k) {
    axb_gen_spec s = {r == AXB_TUNE_BATCHED_CHOLESKY ? AXB_GEN_SPD_SHIFT
                                                     : AXB_GEN_UNIFORM,
                      n, 0, -1, 42 + (uint64_t)k};
    axb_dense Ak = {0};
    if (axb_gen_dense(h, &s, AXB_F64, &Ak)) return 0;
    memcpy(A + k * n * n, Ak.data, (size_t)(n * n) * sizeof *A);
    axb_dense_destroy(&Ak);
    for (int64_t i = 0; i < n; ++i)
      B[k * n + i] = 1;
  }
  return 1;
}

/* Crossover of batched routine r: the CPU handle against an AUTO handle
   whose tuning sends every batched call to the GPU (the path AUTO takes:
   staging through device memory and back, timed).  n = 2, 4, ..., 64 are
   measured; the crossover is the smallest of them from which the GPU wins
   at every larger one, and AUTO applies it to every n in between.  (Known gap:
   if the staging fails, AUTO runs the CPU code and this compares the CPU
   with itself, undetected.) */
static int64_t measure_batched(axb_handle cpu, axb_handle gpu_auto,
                               axb_tune_routine r, int reps, char *log,
                               size_t loglen) {
  const int64_t nb = AXB_TUNE_BATCH;
  int64_t cross = AXB_TUNE_NEVER;
  size_t used = strlen(log);
  for (int64_t n = 2; n <= 64; n *= 2) {
    size_t nA = (size_t)(n * n * nb), nB = (size_t)(n * nb);
    double *A = malloc(nA * sizeof *A), *W = malloc(nA * sizeof *W);
    double *B = malloc(nB * sizeof *B), *X = malloc(nB * sizeof *X);
    int *info = malloc((size_t)nb * sizeof *info);
    double tc = -1, tg = -1;
    if (A && W && B && X && info && batched_input(cpu, r, n, nb, A, B)) {
      tc = time_batched(cpu, r, n, nb, A, B, reps, W, X, info);
      tg = time_batched(gpu_auto, r, n, nb, A, B, reps, W, X, info);
    }
    free(A), free(W), free(B), free(X), free(info);
    if (used < loglen)
      used += (size_t)snprintf(log + used, loglen - used,
                               "%s n=%lld: cpu %.4g s, cuda %.4g s\n",
                               axb_tune_routine_name(r), (long long)n, tc, tg);
    fprintf(stderr, "axb tune: %s n=%lld batch=%lld: cpu %.4g s, cuda %.4g s\n",
            axb_tune_routine_name(r), (long long)n, (long long)nb, tc, tg);
    if (tc >= 0 && tg >= 0 && tg < tc) {
      if (cross == AXB_TUNE_NEVER) cross = n;
    } else {
      cross = AXB_TUNE_NEVER;
    }
  }
  return cross;
}

/* An AUTO handle on `device` that sends every batched call to the GPU:
   its tuning is read from a temporary file on first use (AXB_TUNE_FILE set
   for that moment only).  NULL when that cannot be arranged. */
static axb_handle gpu_auto_handle(int device) {
  char path[] = "/tmp/axb-tune-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  const char text[] = "lu never\ncholesky never\ninverse never\n"
                      "batched-gesv 1\nbatched-cholesky 1\n"
                      "batched-inverse 1\n";
  int ok = write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1);
  close(fd);
  axb_handle h = NULL;
  const char *old = getenv("AXB_TUNE_FILE");
  char *keep = old ? strdup(old) : NULL;
  if (ok && setenv("AXB_TUNE_FILE", path, 1) == 0 &&
      axb_handle_create(&h, AXB_BACKEND_AUTO, device) == AXB_SUCCESS) {
    /* The first batched call probes the GPU and reads the file. */
    double a = 2, b = 2;
    int info = 0;
    axb_tuning t;
    if (axb_tuning_current(&t, NULL, 0) ||
        t.crossover[AXB_TUNE_BATCHED_GESV] != 1 ||
        axb_dgesv_batched(h, 1, 1, &a, 1, 1, NULL, 1, &b, 1, 1, &info, 1)) {
      axb_handle_destroy(h);
      h = NULL;
    }
  }
  if (keep)
    setenv("AXB_TUNE_FILE", keep, 1);
  else
    unsetenv("AXB_TUNE_FILE");
  free(keep);
  remove(path);
  return h;
}

int cli_tune(int argc, char **argv) {
  cli_scan s;
  const char *out = NULL;
  int64_t max_n = 8192;
  int reps = 3, dry = 0, device = 0, ok = 1, batched = 1;
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
    case OPT_NO_BATCHED: batched = 0; break;
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
  /* Why a crossover was not measured (NULL: measured), for the summary. */
  const char *why[AXB_TUNE_COUNT];
  int count = 0;
  for (int r = 0; r < AXB_TUNE_COUNT; ++r)
    why[r] = "no GPU: built-in default";
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
    for (int r = 0; r < AXB_TUNE_BATCHED_GESV; ++r) {
      t.crossover[r] =
          measure(cpu, gpu, (axb_tune_routine)r, max_n, reps, log, sizeof log);
      why[r] = NULL;
    }
    for (int r = AXB_TUNE_BATCHED_GESV; r < AXB_TUNE_COUNT; ++r)
      why[r] = "not measured (--no-batched): built-in default";
    axb_handle_destroy(gpu);
    if (batched) {
      axb_handle ga = gpu_auto_handle(device);
      l = strlen(log);
      snprintf(log + l, sizeof log - l,
               "batched: batch %d, host arrays (AUTO's staging timed), n "
               "2..64%s\n",
               AXB_TUNE_BATCH, ga ? "" : ": no AUTO GPU handle, not measured");
      for (int r = AXB_TUNE_BATCHED_GESV; r < AXB_TUNE_COUNT; ++r) {
        why[r] = "not measured (no AUTO GPU handle): built-in default";
        if (!ga) continue;
        t.crossover[r] = measure_batched(cpu, ga, (axb_tune_routine)r, reps,
                                         log, sizeof log);
        why[r] = NULL;
      }
      axb_handle_destroy(ga);
    }
    axb_handle_destroy(cpu);
  }
  if (log[strlen(log) - 1] == '\n') log[strlen(log) - 1] = '\0';
  for (int r = 0; r < AXB_TUNE_COUNT; ++r) {
    const char *name = axb_tune_routine_name(r);
    if (why[r] && t.crossover[r] == AXB_TUNE_NEVER)
      printf("%-16s never (%s)\n", name, why[r]);
    else if (why[r])
      printf("%-16s %lld (%s)\n", name, (long long)t.crossover[r], why[r]);
    else if (t.crossover[r] == AXB_TUNE_NEVER)
      printf("%-16s never (the GPU did not win up to n = %lld)\n", name,
             (long long)(r >= AXB_TUNE_BATCHED_GESV ? 64 : max_n));
    else
      printf("%-16s %lld\n", name, (long long)t.crossover[r]);
  }
  if (dry) return CLI_OK;
  axb_status st = axb_tuning_write(path, &t, log);
  if (st) return cli_fail(st, NULL, path);
  printf("written: %s\n", path);
  return CLI_OK;
}
