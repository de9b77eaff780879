/* axb bench's options: the table, comma lists, the defaults, and the two
   passes over the command line (--preset and --quick first, so that the
   other options override a preset). */
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

enum {
  OPT_HELP = 1,
  OPT_ROUTINES,
  OPT_BACKENDS,
  OPT_PRECISION,
  OPT_SIZES,
  OPT_MATRIX,
  OPT_FILES,
  OPT_THREADS,
  OPT_REPS,
  OPT_WARMUP,
  OPT_SEED,
  OPT_BASELINE,
  OPT_OUT,
  OPT_PRESET,
  OPT_QUICK,
  OPT_NO_PLOTS,
  OPT_STUDY_MAX,
  OPT_MAX_N,
  OPT_PAUSE,
  OPT_RHS,
  OPT_DEVICE,
  OPT_BATCH,
  OPT_PLOT_HISTORY
};

const cli_opt bench_table[] = {{"help", 'h', 0, OPT_HELP},
                               {"routines", 'r', 1, OPT_ROUTINES},
                               {"backends", 'b', 1, OPT_BACKENDS},
                               {"precision", 'p', 1, OPT_PRECISION},
                               {"sizes", 'n', 1, OPT_SIZES},
                               {"matrix", 'm', 1, OPT_MATRIX},
                               {"files", 0, 1, OPT_FILES},
                               {"threads", 't', 1, OPT_THREADS},
                               {"reps", 0, 1, OPT_REPS},
                               {"warmup", 0, 1, OPT_WARMUP},
                               {"seed", 0, 1, OPT_SEED},
                               {"baseline", 0, 1, OPT_BASELINE},
                               {"out", 'o', 1, OPT_OUT},
                               {"preset", 0, 1, OPT_PRESET},
                               {"quick", 0, 0, OPT_QUICK},
                               {"no-plots", 0, 0, OPT_NO_PLOTS},
                               {"study-max", 0, 1, OPT_STUDY_MAX},
                               {"max-n", 0, 1, OPT_MAX_N},
                               {"pause", 0, 1, OPT_PAUSE},
                               {"rhs", 0, 1, OPT_RHS},
                               {"device", 'd', 1, OPT_DEVICE},
                               {"batch", 0, 1, OPT_BATCH},
                               {"plot-history", 0, 1, OPT_PLOT_HISTORY},
                               {NULL, 0, 0, 0}};

/* Split a comma list into buf (modified in place); returns the count. */
int split(char *buf, char **items, int max) {
  int k = 0;
  for (char *s = strtok(buf, ","); s && k < max; s = strtok(NULL, ","))
    items[k++] = s;
  return k;
}

int find_name(const char *const *names, int count, const char *w) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], w) == 0) return i;
  return -1;
}

static char listbuf[16][4096]; /* option values kept for the whole run */
static int nlistbuf;

char *keep(const char *s) {
  if (nlistbuf == 16) return NULL;
  snprintf(listbuf[nlistbuf], sizeof listbuf[0], "%s", s);
  return listbuf[nlistbuf++];
}

/* v's comma-separated items into it[0..max), kept for the whole run;
   returns the count (0 when the keep buffers are used up). */
static int items(const char *v, char **it, int max) {
  char *b = keep(v);
  return b ? split(b, it, max) : 0;
}

int parse_routines(config *c, const char *v) {
  char *it[MAXL];
  int k = items(v, it, MAXL);
  c->nrt = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "all") == 0) { /* the batched ones are asked by name */
      c->nrt = 0;
      for (int r = 0; r < RT_COUNT; ++r)
        if (!rt_batched(r)) c->rt[c->nrt++] = r;
      continue;
    }
    int r = find_name(rt_names, RT_COUNT, it[i]);
    if (r < 0 || c->nrt == RT_COUNT)
      return cli_usage_error("bench", "unknown routine '%s'", it[i]), 0;
    c->rt[c->nrt++] = r;
  }
  return c->nrt > 0 ||
         (cli_usage_error("bench", "--routines needs a routine"), 0);
}

int parse_backends(config *c, const char *v) {
  char *it[MAXL];
  int k = items(v, it, MAXL);
  c->nbe = 0;
  for (int i = 0; i < k; ++i) {
    int e = find_name(bk_names, BK_COUNT, it[i]);
    if (strcmp(it[i], "omp") == 0) e = BK_CPU;
    if (strcmp(it[i], "all") == 0) {
      for (int j = 0; j < BK_COUNT; ++j)
        c->be[j] = j;
      c->nbe = BK_COUNT;
      continue;
    }
    if (e < 0 || c->nbe == BK_COUNT)
      return cli_usage_error(
                 "bench",
                 "unknown backend '%s' (ref, cpu, cuda, opencl, openblas, "
                 "cusolver, cublas, eigen)",
                 it[i]),
             0;
    c->be[c->nbe++] = e;
  }
  return c->nbe > 0 ||
         (cli_usage_error("bench", "--backends needs a backend"), 0);
}

static int add_size(config *c, int64_t n) {
  if (c->nn == MAXL)
    return cli_usage_error("bench", "more than %d sizes", MAXL), 0;
  c->n[c->nn++] = n;
  return 1;
}

/* N, A:B (doubling from A up to B) or A:B:S (step S). */
int parse_sizes(config *c, const char *v) {
  char *it[MAXL];
  int k = items(v, it, MAXL);
  c->nn = 0;
  for (int i = 0; i < k; ++i) {
    char *p[3];
    int np = 0;
    for (char *s = strtok(it[i], ":"); s && np < 3; s = strtok(NULL, ":"))
      p[np++] = s;
    int64_t a, z = 0, st = 0;
    if (np < 1 || !cli_parse_i64("--sizes", p[0], 1, 1 << 20, &a)) return 0;
    if (np >= 2 && !cli_parse_i64("--sizes", p[1], a, 1 << 20, &z)) return 0;
    if (np == 3 && !cli_parse_i64("--sizes", p[2], 1, 1 << 20, &st)) return 0;
    if (np == 1) {
      if (!add_size(c, a)) return 0;
    } else {
      for (int64_t n = a; n <= z; n = st ? n + st : 2 * n)
        if (!add_size(c, n)) return 0;
    }
  }
  return c->nn > 0 || (cli_usage_error("bench", "--sizes needs a size"), 0);
}

int parse_matrix(config *c, const char *v) {
  char *it[MAXL];
  int k = items(v, it, MAXL);
  c->nmat = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "auto") != 0) {
      char spec[160];
      axb_gen_spec s;
      snprintf(spec, sizeof spec, "%s:4", it[i]);
      if (strchr(it[i], ':') || axb_gen_parse(NULL, spec, &s) != AXB_SUCCESS)
        return cli_usage_error("bench",
                               "unknown matrix kind '%s' (generator kinds, "
                               "see 'axb solve --help', or auto)",
                               it[i]),
               0;
    }
    c->mat[c->nmat++] = it[i];
  }
  return c->nmat > 0 || (cli_usage_error("bench", "--matrix needs a kind"), 0);
}

static int add_file(config *c, const char *path) {
  if (c->nfile == 512) return 0;
  c->file[c->nfile] = strdup(path);
  return c->file[c->nfile] ? (c->nfile++, 1) : 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every *.mtx of a directory. */
int add_path(config *c, const char *p) {
  struct stat sb;
  if (stat(p, &sb) != 0) {
    cli_error("%s: %s", p, strerror(errno));
    return 0;
  }
  if (!S_ISDIR(sb.st_mode)) return add_file(c, p);
  DIR *d = opendir(p);
  if (!d) return cli_error("%s: %s", p, strerror(errno)), 0;
  int first = c->nfile;
  for (struct dirent *e; (e = readdir(d));) {
    size_t l = strlen(e->d_name);
    if (l > 4 && strcmp(e->d_name + l - 4, ".mtx") == 0) {
      char full[2048];
      snprintf(full, sizeof full, "%s/%s", p, e->d_name);
      add_file(c, full);
    }
  }
  closedir(d);
  qsort(c->file + first, (size_t)(c->nfile - first), sizeof *c->file, cmp_str);
  return 1;
}

int parse_threads(config *c, const char *v) {
  char *it[MAXL];
  int k = items(v, it, MAXL);
  c->nthr = 0;
  for (int i = 0; i < k; ++i) {
    if (strcmp(it[i], "all") == 0) {
      c->thr[c->nthr++] = 0;
      continue;
    }
    if (!cli_parse_int("--threads", it[i], 0, 4096, &c->thr[c->nthr++]))
      return 0;
  }
  return c->nthr > 0 ||
         (cli_usage_error("bench", "--threads needs a count"), 0);
}

const char *matrices_dir(void) {
  const char *e = getenv("AXB_MATRICES");
  return e && *e ? e : "../shared/matrices";
}

void bench_defaults(config *c) {
  memset(c, 0, sizeof *c);
  c->rt[0] = RT_LU;
  c->nrt = 1;
  c->dt[0] = AXB_F64;
  c->ndt = 1;
  c->n[0] = 256;
  c->n[1] = 512;
  c->n[2] = 1024;
  c->nn = 3;
  c->mat[0] = "auto";
  c->nmat = 1;
  c->thr[0] = 0;
  c->nthr = 1;
  c->reps = 5;
  c->warmup = 1;
  c->seed = 42;
  c->baseline = -2; /* not given */
  c->plots = 1;
  c->study_max = 2048;
  c->max_n = 6000;
  c->batch = 1000;
  c->pause_ms = 50;
  c->rhs = AXB_RHS_ONES;
  /* The CPU against OpenBLAS here; on a machine with a GPU the same
     command adds axb's CUDA backend and cuSOLVER (absent ones are skipped
     with a note). */
  c->be[0] = BK_CPU;
  c->be[1] = BK_OPENBLAS;
  c->be[2] = BK_CUDA;
  c->be[3] = BK_CUSOLVER;
  c->nbe = 4;
}

/* Grid generators take the grid edge g, not the order: 2 for poisson2d
   (order g^2), 3 for poisson3d and convdiff3d (g^3), 0 for the others. */

/* Defaults, then the command line into *c: pass 1 takes --preset and
   --quick (so that the other options override a preset), pass 2 the rest.
   Returns -1 to go on, or the exit code (--help, usage and input errors). */
int bench_options(config *c, int argc, char **argv) {
  bench_defaults(c);
  cli_scan s;
  /* Pass 1: --preset and --quick (the other options override a preset). */
  const char *preset = NULL;
  cli_scan_init(&s, argc, argv, 2, "bench");
  for (;;) {
    int id = cli_next_opt(&s, bench_table);
    if (id == CLI_SCAN_END) break;
    if (id == CLI_SCAN_ERROR) return CLI_USAGE;
    if (id == OPT_HELP) return cli_help_bench(stdout), CLI_OK;
    if (id == OPT_PRESET) preset = s.arg;
    if (id == OPT_QUICK) c->quick = 1;
  }
  if (c->quick) c->reps = 3;
  if (preset && !apply_preset(c, preset)) return CLI_USAGE;
  int ok = 1;
  cli_scan_init(&s, argc, argv, 2, "bench");
  for (int id; ok && (id = cli_next_opt(&s, bench_table)) != CLI_SCAN_END;) {
    int64_t v;
    switch (id) {
    case CLI_SCAN_ERROR: return CLI_USAGE;
    case CLI_SCAN_POSITIONAL: ok = add_path(c, s.arg); break;
    case OPT_ROUTINES: ok = parse_routines(c, s.arg); break;
    case OPT_BACKENDS: ok = parse_backends(c, s.arg); break;
    case OPT_PRECISION: {
      char *it[4];
      int k = items(s.arg, it, 4);
      c->ndt = 0;
      for (int i = 0; i < k && ok && c->ndt < 2; ++i)
        ok = cli_parse_precision(it[i], &c->dt[c->ndt++]);
      if (!ok) return cli_usage_error("bench", "bad precision '%s'", s.arg);
      break;
    }
    case OPT_SIZES: ok = parse_sizes(c, s.arg); break;
    case OPT_MATRIX: ok = parse_matrix(c, s.arg); break;
    case OPT_FILES: {
      char *it[MAXL];
      int k = items(s.arg, it, MAXL);
      for (int i = 0; i < k && ok; ++i)
        ok = add_path(c, it[i]);
      if (!ok) return CLI_INPUT;
      break;
    }
    case OPT_THREADS: ok = parse_threads(c, s.arg); break;
    case OPT_REPS:
      ok = cli_parse_int("--reps", s.arg, 1, 100000, &c->reps);
      break;
    case OPT_WARMUP:
      ok = cli_parse_int("--warmup", s.arg, 0, 1000, &c->warmup);
      break;
    case OPT_SEED: ok = cli_parse_u64("--seed", s.arg, &c->seed); break;
    case OPT_BASELINE:
      c->baseline = find_name(bk_names, BK_COUNT, s.arg);
      if (strcmp(s.arg, "none") == 0)
        c->baseline = -1;
      else if (c->baseline < 0)
        return cli_usage_error("bench", "unknown baseline '%s'", s.arg);
      break;
    case OPT_OUT: c->out = s.arg; break;
    case OPT_NO_PLOTS: c->plots = 0; break;
    case OPT_STUDY_MAX:
      ok = cli_parse_i64("--study-max", s.arg, 1, INT64_MAX, &c->study_max);
      break;
    case OPT_MAX_N:
      ok = cli_parse_i64("--max-n", s.arg, 1, INT64_MAX, &c->max_n);
      break;
    case OPT_PAUSE:
      ok = cli_parse_i64("--pause", s.arg, 0, 100000, &v);
      c->pause_ms = (double)v;
      break;
    case OPT_RHS:
      if (strcmp(s.arg, "ones") == 0)
        c->rhs = AXB_RHS_ONES;
      else if (strcmp(s.arg, "random") == 0)
        c->rhs = AXB_RHS_RANDOM;
      else
        return cli_usage_error("bench", "--rhs is ones or random");
      break;
    case OPT_DEVICE:
      ok = cli_parse_int("--device", s.arg, 0, 1 << 20, &c->device);
      break;
    case OPT_BATCH:
      ok = cli_parse_i64("--batch", s.arg, 1, 1 << 24, &c->batch);
      break;
    case OPT_PLOT_HISTORY: {
      char *it[MAXL];
      int k = items(s.arg, it, MAXL);
      for (int i = 0; i < k; ++i) {
        if (c->nhist == MAXL)
          return cli_usage_error("bench", "more than %d histories", MAXL);
        c->hist[c->nhist++] = it[i];
      }
      break;
    }
    default: break;
    }
  }
  if (!ok) return c->nfile || !preset ? CLI_USAGE : CLI_INPUT;
  return -1;
}
