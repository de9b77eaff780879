/* axb info: version, backends, devices, BLAS, threads. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_HELP = 1, OPT_JSON };

static const cli_opt info_table[] = {
    {"help", 'h', 0, OPT_HELP}, {"json", 0, 0, OPT_JSON}, {NULL, 0, 0, 0}};

#define MAX_DEVICES 64

typedef struct {
  int count;
  axb_status count_status;
  char name[MAX_DEVICES][256];
  size_t bytes[MAX_DEVICES];
  int ok[MAX_DEVICES];
  const char *omp_env; /* OMP_NUM_THREADS, or NULL */
  long cores;
  axb_backend auto_backend;
  int auto_ok;
  axb_tuning tuning;
  axb_status tuning_status;
  char tuning_err[256];
} info_data;

static const axb_backend all_backends[] = {
    AXB_BACKEND_CPU, AXB_BACKEND_REF, AXB_BACKEND_CUDA, AXB_BACKEND_OPENCL};
#define N_BACKENDS (sizeof all_backends / sizeof all_backends[0])

static void collect(info_data *d) {
  memset(d, 0, sizeof *d);
  d->count_status = axb_cuda_device_count(&d->count);
  if (d->count_status != AXB_SUCCESS || d->count < 0) d->count = 0;
  for (int i = 0; i < d->count && i < MAX_DEVICES; i++) {
    d->ok[i] = axb_cuda_device_info(i, d->name[i], sizeof d->name[i],
                                    &d->bytes[i]) == AXB_SUCCESS;
    d->name[i][sizeof d->name[i] - 1] = '\0';
  }
  d->omp_env = getenv("OMP_NUM_THREADS");
  d->cores = sysconf(_SC_NPROCESSORS_ONLN);
  axb_handle h = NULL;
  d->auto_ok = axb_handle_create(&h, AXB_BACKEND_AUTO, 0) == AXB_SUCCESS;
  d->auto_backend = d->auto_ok ? axb_handle_backend(h) : AXB_BACKEND_AUTO;
  axb_handle_destroy(h);
  d->tuning_status =
      axb_tuning_current(&d->tuning, d->tuning_err, sizeof d->tuning_err);
}

/* "lu 2048, cholesky 2048, inverse never" (routines [r0, r1)) */
static void crossovers(const info_data *d, int r0, int r1, char *buf,
                       size_t len) {
  size_t u = 0;
  buf[0] = '\0';
  for (int r = r0; r < r1 && u < len; ++r) {
    int64_t c = d->tuning.crossover[r];
    char v[32];
    if (c == AXB_TUNE_NEVER)
      snprintf(v, sizeof v, "never");
    else
      snprintf(v, sizeof v, "%lld", (long long)c);
    u += (size_t)snprintf(buf + u, len - u, "%s%s %s", r > r0 ? ", " : "",
                          axb_tune_routine_name((axb_tune_routine)r), v);
  }
}

static const char *tuning_source(const info_data *d) {
  if (d->tuning_status) return "malformed tuning file: built-in defaults";
  for (int r = 0; r < AXB_TUNE_COUNT; ++r)
    if (d->tuning.from_file[r]) return "tuning file";
  return "built-in defaults";
}

static long default_threads(const info_data *d) {
  if (d->omp_env) {
    char *end = NULL;
    long v = strtol(d->omp_env, &end, 10);
    if (end != d->omp_env && (*end == '\0' || *end == ',') && v > 0) return v;
  }
  return d->cores > 0 ? d->cores : 1;
}

static void print_human(const info_data *d) {
  printf("axb %s\n", axb_version());
  printf("  %-14s", "backends");
  for (size_t i = 0; i < N_BACKENDS; i++)
    printf("%s%s (%s)", i ? ", " : "", axb_backend_name(all_backends[i]),
           axb_backend_compiled(all_backends[i]) ? "compiled in"
                                                 : "not compiled");
  printf("\n  %-14s%s\n", "auto backend",
         d->auto_ok ? axb_backend_name(d->auto_backend) : "unavailable");
  char cx[256];
  crossovers(d, 0, AXB_TUNE_BATCHED_GESV, cx, sizeof cx);
  printf("  %-14s%s (%s%s%s)\n", "crossovers", cx, tuning_source(d),
         d->tuning.path[0] ? ": " : "", d->tuning.path);
  crossovers(d, AXB_TUNE_BATCHED_GESV, AXB_TUNE_COUNT, cx, sizeof cx);
  printf("  %-14s%s (host arrays, batch >= %d, n <= 64)\n", "", cx,
         AXB_TUNE_BATCH);
  if (d->tuning_status)
    printf("  %-14s%s: %s\n", "", d->tuning.path, d->tuning_err);
  printf("  %-14s%s\n", "",
         d->count > 0 ? "GPU from n >= crossover, CPU below"
                      : "no GPU: auto uses the CPU");
  printf("  %-14s%d\n", "CUDA devices", d->count);
  for (int i = 0; i < d->count && i < MAX_DEVICES; i++) {
    if (d->ok[i])
      printf("    device %d: %s, %.1f GiB\n", i, d->name[i],
             (double)d->bytes[i] / (1024.0 * 1024.0 * 1024.0));
    else
      printf("    device %d: (no information)\n", i);
  }
  cli_info_opencl_human();
  printf("  %-14s%s\n", "BLAS", axb_blas_info());
  printf("  %-14s%ld (%s; %ld cores online)\n", "CPU threads",
         default_threads(d),
         d->omp_env ? "from OMP_NUM_THREADS" : "default: all cores", d->cores);
}

static void print_json(const info_data *d) {
  printf("{\"version\": ");
  cli_json_string(stdout, axb_version());
  printf(", \"backends\": {");
  for (size_t i = 0; i < N_BACKENDS; i++) {
    printf("%s", i ? ", " : "");
    cli_json_string(stdout, axb_backend_name(all_backends[i]));
    printf(": %s", axb_backend_compiled(all_backends[i]) ? "true" : "false");
  }
  printf("}, \"auto_backend\": ");
  cli_json_string(stdout,
                  d->auto_ok ? axb_backend_name(d->auto_backend) : NULL);
  printf(", \"auto_crossover\": {");
  for (int r = 0; r < AXB_TUNE_COUNT; ++r) {
    printf("%s\"%s\": ", r ? ", " : "",
           axb_tune_routine_name((axb_tune_routine)r));
    if (d->tuning.crossover[r] == AXB_TUNE_NEVER)
      printf("null");
    else
      printf("%lld", (long long)d->tuning.crossover[r]);
  }
  printf("}, \"tuning_source\": ");
  cli_json_string(stdout, tuning_source(d));
  printf(", \"tuning_file\": ");
  cli_json_string(stdout, d->tuning.path);
  printf(", \"cuda_device_count\": %d, \"cuda_devices\": [", d->count);
  for (int i = 0; i < d->count && i < MAX_DEVICES; i++) {
    printf("%s{\"index\": %d, \"name\": ", i ? ", " : "", i);
    cli_json_string(stdout, d->ok[i] ? d->name[i] : NULL);
    printf(", \"memory_bytes\": %llu}",
           d->ok[i] ? (unsigned long long)d->bytes[i] : 0ULL);
  }
  printf("]");
  cli_info_opencl_json();
  printf(", \"blas\": ");
  cli_json_string(stdout, axb_blas_info());
  printf(", \"threads_default\": %ld, \"cores_online\": %ld, "
         "\"omp_num_threads\": ",
         default_threads(d), d->cores);
  cli_json_string(stdout, d->omp_env);
  printf("}\n");
}

int cli_info(int argc, char **argv) {
  cli_scan s;
  int json = 0;
  cli_scan_init(&s, argc, argv, 2, "info");
  for (;;) {
    int id = cli_next_opt(&s, info_table);
    if (id == CLI_SCAN_END) break;
    if (id == CLI_SCAN_ERROR) return CLI_USAGE;
    if (id == CLI_SCAN_POSITIONAL)
      return cli_usage_error("info", "unexpected argument '%s'", s.arg);
    if (id == OPT_HELP) {
      cli_help_info(stdout);
      return CLI_OK;
    }
    if (id == OPT_JSON) json = 1;
  }
  static info_data d; /* device names: keep them off the stack */
  collect(&d);
  if (json)
    print_json(&d);
  else
    print_human(&d);
  return CLI_OK;
}
