/*
 * bench_lapack (issue 25): LAPACK's dgesv_/dposv_/dgetri_ through the
 * drop-in (libaxb_lapack.so, dispatch as AXB_LAPACK_BACKEND says) beside
 * OpenBLAS's own routines and beside axb's typed routine called directly
 * on a CPU handle, in one process on the same inputs, interleaved (one
 * call of each per repetition, in every order in turn), medians.
 *
 *   bench_lapack [--dropin PATH] [--routines gesv,posv,getri] [--reps R]
 *                [--min-time S] [--nrhs K] [--ways openblas,dropin,direct]
 *                N...
 *
 * Columns: seconds per call (median), then openblas/dropin (> 1: the
 * drop-in is faster) and dropin/direct (the dispatch's own cost: 1.00 is
 * none).  --ways runs some of the three only: on a machine with few cores
 * OpenBLAS's thread pool and axb's OpenMP team slow each other down when
 * they alternate, so a fair OpenBLAS column comes from its own process.
 * getri times the inversion from factors (getrf not timed); the
 * others time the whole driver.  The drop-in and OpenBLAS are reached by
 * dlopen, so the process holds both under their own names.
 */
#define _GNU_SOURCE
#include "bench_time.h"

#include <axb.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int li;
typedef void (*gesv_fn)(const li *, const li *, double *, const li *, li *,
                        double *, const li *, li *);
typedef void (*posv_fn)(const char *, const li *, const li *, double *,
                        const li *, double *, const li *, li *, size_t);
typedef void (*getrf_fn)(const li *, const li *, double *, const li *, li *,
                         li *);
typedef void (*getri_fn)(const li *, double *, const li *, const li *, double *,
                         const li *, li *);

typedef struct {
  gesv_fn gesv;
  posv_fn posv;
  getrf_fn getrf;
  getri_fn getri;
} lapack;

static int load(void *lib, lapack *l) {
  l->gesv = (gesv_fn)dlsym(lib, "dgesv_");
  l->posv = (posv_fn)dlsym(lib, "dposv_");
  l->getrf = (getrf_fn)dlsym(lib, "dgetrf_");
  l->getri = (getri_fn)dlsym(lib, "dgetri_");
  return l->gesv && l->posv && l->getrf && l->getri ? 0 : -1;
}

static void fill(double *A, size_t n, int spd, unsigned long long seed) {
  for (size_t j = 0; j < n; ++j)
    for (size_t i = 0; i < n; ++i) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      A[j * n + i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
    }
  if (spd)
    for (size_t j = 0; j < n; ++j) {
      for (size_t i = 0; i < j; ++i)
        A[j * n + i] = A[i * n + j];
      A[j * n + j] += (double)n;
    }
}

enum { OB = 0, DROPIN = 1, DIRECT = 2, NWAYS = 3 };

int main(int argc, char **argv) {
  const char *dropin = NULL, *routines = "gesv,posv,getri";
  int reps = 0, use[3] = {1, 1, 1};
  double min_time = 0.3;
  li nrhs = 1;
  int nsz = 0;
  long sizes[64];
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--dropin") && a + 1 < argc)
      dropin = argv[++a];
    else if (!strcmp(argv[a], "--routines") && a + 1 < argc)
      routines = argv[++a];
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc)
      reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--min-time") && a + 1 < argc)
      min_time = atof(argv[++a]);
    else if (!strcmp(argv[a], "--nrhs") && a + 1 < argc)
      nrhs = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--ways") && a + 1 < argc) {
      use[OB] = strstr(argv[a + 1], "openblas") != NULL;
      use[DROPIN] = strstr(argv[a + 1], "dropin") != NULL;
      use[DIRECT] = strstr(argv[++a], "direct") != NULL;
    } else if (argv[a][0] != '-' && nsz < 64)
      sizes[nsz++] = atol(argv[a]);
    else {
      fprintf(stderr,
              "usage: %s [--dropin PATH] [--routines gesv,posv,getri]"
              " [--reps R] [--min-time S] [--nrhs K] [--ways W] "
              "N...\n",
              argv[0]);
      return 2;
    }
  }
  if (!nsz) {
    long d[] = {16, 32, 64, 128, 256};
    for (nsz = 0; nsz < 5; ++nsz)
      sizes[nsz] = d[nsz];
  }
  /* The drop-in beside this program unless named. */
  char path[4096];
  if (!dropin) {
    snprintf(path, sizeof path, "%s", argv[0]);
    char *s = strrchr(path, '/');
    snprintf(s ? s + 1 : path, sizeof path - (size_t)(s ? s + 1 - path : 0),
             "../lapack/libaxb_lapack.so");
    dropin = path;
  }
  lapack L[2];
  void *ob = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  void *dl = dlopen(dropin, RTLD_NOW | RTLD_LOCAL);
  if (!ob || !dl || load(ob, &L[OB]) || load(dl, &L[DROPIN])) {
    fprintf(stderr, "bench_lapack: cannot load OpenBLAS or %s: %s\n", dropin,
            dlerror());
    return 1;
  }
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 1;
  const char *be = getenv("AXB_LAPACK_BACKEND");
  printf("# bench_lapack: drop-in %s (AXB_LAPACK_BACKEND=%s), %s, nrhs %d\n",
         dropin, be ? be : "auto", axb_blas_info(), (int)nrhs);
  printf("%-6s %6s %12s %12s %12s %9s %9s %5s\n", "op", "n", "openblas_s",
         "dropin_s", "direct_s", "ob/drop", "drop/dir", "reps");
  int status = 0;
  for (int z = 0; z < nsz; ++z) {
    const li n = (li)sizes[z];
    const size_t nn = (size_t)n * (size_t)n;
    double *A0 = malloc(nn * sizeof *A0), *S0 = malloc(nn * sizeof *S0);
    double *A = malloc(nn * sizeof *A), *F = malloc(nn * sizeof *F);
    double *B0 = malloc((size_t)n * (size_t)nrhs * sizeof *B0);
    double *B = malloc((size_t)n * (size_t)nrhs * sizeof *B);
    li *ip = malloc((size_t)n * sizeof *ip), info = 0, lw = n * 64;
    int64_t *ip64 = malloc((size_t)n * sizeof *ip64);
    double *work = malloc((size_t)lw * sizeof *work);
    if (!A0 || !S0 || !A || !F || !B0 || !B || !ip || !ip64 || !work) return 1;
    fill(A0, (size_t)n, 0, 1 + (unsigned long long)n);
    fill(S0, (size_t)n, 1, 7 + (unsigned long long)n);
    for (size_t i = 0; i < (size_t)n * (size_t)nrhs; ++i)
      B0[i] = (double)(i % 17) - 8;
    /* Factors for getri, and their pivots in both widths. */
    memcpy(F, A0, nn * sizeof *F);
    L[OB].getrf(&n, &n, F, &n, ip, &info);
    for (li i = 0; i < n; ++i)
      ip64[i] = ip[i];
    for (const char *r = routines; *r;) {
      size_t len = strcspn(r, ",");
      int op = !strncmp(r, "gesv", len)    ? 0
               : !strncmp(r, "posv", len)  ? 1
               : !strncmp(r, "getri", len) ? 2
                                           : -1;
      r += len + (r[len] == ',');
      if (op < 0) continue;
      const char *name[] = {"dgesv", "dposv", "dgetri"};
      int R = reps, cap = 100000;
      double *t[NWAYS];
      for (int w = 0; w < NWAYS; ++w)
        t[w] = malloc((size_t)cap * sizeof(double));
      double t_start = bench_now();
      int k;
      for (k = -1; k < cap; ++k) { /* k = -1: warm-up, not kept */
        if (R > 0 ? k >= R : (k >= 5 && bench_now() - t_start > min_time))
          break;
        /* The order goes through all six permutations: on a small machine
           the library that ran last leaves its threads spinning, which
           slows whichever runs next; so each follows each as often. */
        static const int perm[6][NWAYS] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                           {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int q = 0; q < NWAYS; ++q) {
          const int w = perm[(k + 1) % 6][q];
          if (!use[w]) continue;
          memcpy(A, op == 0 ? A0 : op == 1 ? S0 : F, nn * sizeof *A);
          memcpy(B, B0, (size_t)n * (size_t)nrhs * sizeof *B);
          axb_status st = 0;
          info = 0;
          double t0 = bench_now();
          if (op == 0 && w < DIRECT)
            L[w].gesv(&n, &nrhs, A, &n, ip, B, &n, &info);
          else if (op == 0)
            st = axb_dgesv(h, n, nrhs, A, n, ip64, B, n, NULL);
          else if (op == 1 && w < DIRECT)
            L[w].posv("L", &n, &nrhs, A, &n, B, &n, &info, 1);
          else if (op == 1)
            st = axb_dposv(h, AXB_LOWER, n, nrhs, A, n, B, n, NULL);
          else if (w < DIRECT)
            L[w].getri(&n, A, &n, ip, work, &lw, &info);
          else
            st = axb_dgetri(h, n, A, n, ip64, NULL);
          double dt = bench_now() - t0;
          if (info || st) {
            fprintf(stderr, "bench_lapack: %s n=%d way %d: info %d st %d\n",
                    name[op], (int)n, w, (int)info, st);
            status = 1;
          }
          if (k >= 0) t[w][k] = dt;
        }
        if (op == 0) { /* restore getri's inputs: gesv overwrote ip */
          memcpy(A, A0, nn * sizeof *A);
          L[OB].getrf(&n, &n, A, &n, ip, &info);
          for (li i = 0; i < n; ++i)
            ip64[i] = ip[i];
        }
      }
      double m[NWAYS] = {0, 0, 0};
      for (int w = 0; w < NWAYS; ++w)
        if (use[w]) m[w] = bench_median(t[w], k);
      /* A way not run prints 0 s and its ratios as 0. */
      printf("%-6s %6d %12.4e %12.4e %12.4e %9.3f %9.3f %5d\n", name[op],
             (int)n, m[OB], m[DROPIN], m[DIRECT],
             m[OB] > 0 && m[DROPIN] > 0 ? m[OB] / m[DROPIN] : 0.0,
             m[DROPIN] > 0 && m[DIRECT] > 0 ? m[DROPIN] / m[DIRECT] : 0.0, k);
      fflush(stdout);
      for (int w = 0; w < NWAYS; ++w)
        free(t[w]);
    }
    free(A0), free(S0), free(A), free(F), free(B0), free(B), free(ip);
    free(ip64), free(work);
  }
  axb_handle_destroy(h);
  return status;
}
