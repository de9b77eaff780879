/*
 * Tuning file and AUTO dispatch (issue 5).  The file is text, one
 * "ROUTINE N" per line (see axb.h); the dispatch is a pure comparison
 * (axb_tuning_choose) so that a test can check it without a GPU.
 */
#include "core/tune.h"
#include "backend/batched_ops.h" /* AXB_BATCHED_MAX_N */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const routine_names[AXB_TUNE_COUNT] = {
    "lu",           "cholesky",         "inverse",
    "batched-gesv", "batched-cholesky", "batched-inverse"};

static int batched_routine(axb_tune_routine r) {
  return r >= AXB_TUNE_BATCHED_GESV && r < AXB_TUNE_COUNT;
}

const char *axb_tune_routine_name(axb_tune_routine r) {
  return r >= 0 && r < AXB_TUNE_COUNT ? routine_names[r] : "unknown";
}

void axb_tuning_defaults(axb_tuning *t) {
  if (!t) return;
  memset(t, 0, sizeof *t);
  /* Batched: no default crossover; the GPU pays its transfers and launch
     on every call, so only a measurement can say it wins. */
  for (int i = 0; i < AXB_TUNE_COUNT; ++i)
    t->crossover[i] = batched_routine((axb_tune_routine)i)
                          ? AXB_TUNE_NEVER
                          : AXB_TUNE_DEFAULT_CROSSOVER;
}

axb_status axb_tuning_path(char *buf, size_t len) {
  if (!buf || len == 0)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (!buf || len == 0)", __func__);
  buf[0] = '\0';
  const char *e = getenv("AXB_TUNE_FILE");
  int n;
  if (e && *e)
    n = snprintf(buf, len, "%s", e);
  else if ((e = getenv("XDG_CONFIG_HOME")) && *e)
    n = snprintf(buf, len, "%s/axb/tune.txt", e);
  else if ((e = getenv("HOME")) && *e)
    n = snprintf(buf, len, "%s/.config/axb/tune.txt", e);
  else
    return axb__fail(NULL, AXB_ERR_NOT_SUPPORTED,
                     "axb_tuning_path: none of AXB_TUNE_FILE, "
                     "XDG_CONFIG_HOME, HOME is set");
  if (n < 0 || (size_t)n >= len) {
    buf[0] = '\0';
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_tuning_path: the path does not fit in %zu bytes",
                     len);
  }
  return AXB_SUCCESS;
}

static axb_status parse_error(axb_tuning *t, char *err, size_t errlen, int line,
                              const char *what, const char *tok) {
  if (err && errlen)
    snprintf(err, errlen, "line %d: %s%s%.40s%s", line, what, tok ? " '" : "",
             tok ? tok : "", tok ? "'" : "");
  char path[sizeof t->path];
  memcpy(path, t->path, sizeof path);
  axb_tuning_defaults(t);
  memcpy(t->path, path, sizeof path);
  return axb__fail(NULL, AXB_ERR_PARSE, "tuning file %s: line %d: %s%s%.40s%s",
                   path[0] ? path : "(text)", line, what, tok ? " '" : "",
                   tok ? tok : "", tok ? "'" : "");
}

/* Next whitespace-separated token of [*p, end of line) into tok. */
static int token(const char **p, char *tok, size_t len) {
  const char *s = *p;
  while (*s == ' ' || *s == '\t' || *s == '\r')
    s++;
  if (!*s || *s == '\n' || *s == '#') {
    *p = s;
    return 0;
  }
  size_t k = 0;
  while (*s && !isspace((unsigned char)*s) && *s != '#') {
    if (k + 1 < len) tok[k++] = *s;
    s++;
  }
  tok[k] = '\0';
  *p = s;
  return 1;
}

axb_status axb_tuning_parse(const char *text, axb_tuning *t, char *err,
                            size_t errlen) {
  if (!t)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: invalid argument (!t)",
                     __func__);
  char path[sizeof t->path];
  memcpy(path, t->path, sizeof path);
  axb_tuning_defaults(t);
  memcpy(t->path, path, sizeof path);
  if (err && errlen) err[0] = '\0';
  if (!text)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: invalid argument (!text)",
                     __func__);
  const char *p = text;
  for (int line = 1; *p; ++line) {
    char key[64], val[64], extra[64];
    if (token(&p, key, sizeof key)) {
      int r = -1;
      for (int i = 0; i < AXB_TUNE_COUNT; ++i)
        if (strcmp(key, routine_names[i]) == 0) r = i;
      if (r < 0)
        return parse_error(t, err, errlen, line, "unknown routine", key);
      if (t->from_file[r])
        return parse_error(t, err, errlen, line, "routine given twice", key);
      if (!token(&p, val, sizeof val))
        return parse_error(t, err, errlen, line, "missing crossover after",
                           key);
      int64_t v;
      if (strcmp(val, "never") == 0) {
        v = AXB_TUNE_NEVER;
      } else {
        char *end = NULL;
        errno = 0;
        long long x = strtoll(val, &end, 10);
        if (!isdigit((unsigned char)val[0]) || *end || errno || x < 1)
          return parse_error(
              t, err, errlen, line,
              "crossover is not a positive integer or 'never':", val);
        v = (int64_t)x;
      }
      if (token(&p, extra, sizeof extra))
        return parse_error(t, err, errlen, line, "unexpected text", extra);
      t->crossover[r] = v;
      t->from_file[r] = 1;
    }
    while (*p && *p != '\n')
      p++; /* a comment */
    if (*p == '\n') p++;
  }
  return AXB_SUCCESS;
}

axb_status axb_tuning_read(const char *path, axb_tuning *t, char *err,
                           size_t errlen) {
  if (!t || !path)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (!t || !path)", __func__);
  axb_tuning_defaults(t);
  snprintf(t->path, sizeof t->path, "%s", path);
  if (err && errlen) err[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen)
      snprintf(err, errlen, "cannot open: %s", strerror(errno));
    return axb__fail(NULL, AXB_ERR_IO, "%s: %s", path, strerror(errno));
  }
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  int big = !feof(f) && n == sizeof buf - 1;
  fclose(f);
  if (big) {
    if (err && errlen) snprintf(err, errlen, "larger than %zu bytes", n);
    return axb__fail(NULL, AXB_ERR_PARSE, "%s: larger than %zu bytes", path, n);
  }
  buf[n] = '\0';
  if (memchr(buf, '\0', n))
    return parse_error(t, err, errlen, 1, "not a text file", NULL);
  return axb_tuning_parse(buf, t, err, errlen);
}

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path) {
  char d[1024];
  if (snprintf(d, sizeof d, "%s", path) >= (int)sizeof d) return -1;
  char *slash = strrchr(d, '/');
  if (!slash || slash == d) return 0;
  *slash = '\0';
  for (char *q = d + 1; *q; ++q)
    if (*q == '/') {
      *q = '\0';
      if (mkdir(d, 0755) && errno != EEXIST) return -1;
      *q = '/';
    }
  if (mkdir(d, 0755) && errno != EEXIST) return -1;
  return 0;
}

axb_status axb_tuning_write(const char *path, const axb_tuning *t,
                            const char *comment) {
  if (!path || !*path || !t)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "%s: invalid argument (!path || !*path || !t)", __func__);
  if (make_parents(path))
    return axb__fail(NULL, AXB_ERR_IO, "%s: cannot create its directory: %s",
                     path, strerror(errno));
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return axb__fail(NULL, AXB_ERR_IO, "%s: %s", tmp, strerror(errno));
  fputs("# axb tuning file: the order n at which AXB_BACKEND_AUTO moves a\n"
        "# problem from the CPU to the GPU (CPU below n, CUDA at or above).\n"
        "# Format: ROUTINE N, ROUTINE one of lu, cholesky, inverse,\n"
        "# batched-gesv, batched-cholesky, batched-inverse (host arrays,\n"
        "# measured at batch = 10000, used for batch >= 10000 and n <= 64),\n"
        "# N a positive integer or 'never'.  Written by 'axb tune'.\n",
        f);
  if (comment && *comment) {
    const char *c = comment;
    while (*c) {
      const char *e = strchr(c, '\n');
      size_t len = e ? (size_t)(e - c) : strlen(c);
      fprintf(f, "# %.*s\n", (int)len, c);
      c += len + (e ? 1 : 0);
    }
  }
  for (int i = 0; i < AXB_TUNE_COUNT; ++i) {
    if (t->crossover[i] == AXB_TUNE_NEVER)
      fprintf(f, "%s never\n", routine_names[i]);
    else
      fprintf(f, "%s %lld\n", routine_names[i], (long long)t->crossover[i]);
  }
  int bad = ferror(f);
  if (fclose(f) || bad || rename(tmp, path)) {
    int e = errno;
    remove(tmp);
    return axb__fail(NULL, AXB_ERR_IO, "%s: cannot write: %s", path,
                     strerror(e));
  }
  return AXB_SUCCESS;
}

axb_status axb_tuning_current(axb_tuning *t, char *err, size_t errlen) {
  if (!t)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: invalid argument (!t)",
                     __func__);
  axb_tuning_defaults(t);
  if (err && errlen) err[0] = '\0';
  char path[sizeof t->path];
  if (axb_tuning_path(path, sizeof path)) return AXB_SUCCESS;
  axb_status st = axb_tuning_read(path, t, err, errlen);
  if (st == AXB_ERR_IO) {
    /* No file: the defaults, with the path that would be read. */
    axb_tuning_defaults(t);
    snprintf(t->path, sizeof t->path, "%s", path);
    if (err && errlen) err[0] = '\0';
    return AXB_SUCCESS;
  }
  return st;
}

axb_backend axb_tuning_choose(const axb_tuning *t, axb_tune_routine r,
                              int64_t n, int gpu) {
  if (!t || !gpu || r < 0 || r >= AXB_TUNE_COUNT) return AXB_BACKEND_CPU;
  if (batched_routine(r))
    return axb_tuning_choose_batched(t, r, n, AXB_TUNE_BATCH, gpu);
  return n >= t->crossover[r] ? AXB_BACKEND_CUDA : AXB_BACKEND_CPU;
}

axb_backend axb_tuning_choose_batched(const axb_tuning *t, axb_tune_routine r,
                                      int64_t n, int64_t batch, int gpu) {
  if (!t || !gpu || !batched_routine(r)) return AXB_BACKEND_CPU;
  return n >= t->crossover[r] && n <= AXB_BATCHED_MAX_N &&
                 batch >= AXB_TUNE_BATCH
             ? AXB_BACKEND_CUDA
             : AXB_BACKEND_CPU;
}

/* Whether the AUTO handle h has a GPU: probed once (CUDA compiled, the
   device present), reading the tuning file then. */
static int auto_has_gpu(axb_handle h) {
  if (h->gpu_state == 0) {
    int count = 0;
    h->gpu_state = axb_backend_compiled(AXB_BACKEND_CUDA) &&
                           axb_cuda_device_count(&count) == 0 &&
                           count > h->device && h->device >= 0
                       ? 1
                       : -1;
    if (h->gpu_state > 0) axb_tuning_current(&h->tuning, NULL, 0);
  }
  return h->gpu_state > 0;
}

/* The CUDA sub-handle, created on first use; h itself when it cannot be
   (the GPU is then marked unusable and never asked again). */
static axb_handle auto_gpu(axb_handle h) {
  if (!h->gpu) {
    axb_handle g = NULL;
    if (axb_handle_create(&g, AXB_BACKEND_CUDA, h->device) != AXB_SUCCESS) {
      h->gpu_state = -1; /* the GPU is there but unusable: stay on the CPU */
      return h;
    }
    g->threads = h->threads;
    h->gpu = g;
  }
  return h->gpu;
}

axb_handle axb__auto_pick(axb_handle h, axb_tune_routine r, int64_t n) {
  if (!h || h->requested != AXB_BACKEND_AUTO || batched_routine(r) ||
      !auto_has_gpu(h) ||
      axb_tuning_choose(&h->tuning, r, n, 1) != AXB_BACKEND_CUDA)
    return h;
  return auto_gpu(h);
}

axb_handle axb__auto_pick_batched(axb_handle h, axb_tune_routine r, int64_t n,
                                  int64_t batch) {
  if (!h || h->requested != AXB_BACKEND_AUTO || !batched_routine(r) ||
      !auto_has_gpu(h) ||
      axb_tuning_choose_batched(&h->tuning, r, n, batch, 1) != AXB_BACKEND_CUDA)
    return h;
  return auto_gpu(h);
}
