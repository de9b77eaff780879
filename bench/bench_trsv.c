/*
 * bench_trsv: triangular solves with few right-hand sides (issue 28), the
 * kind the certified driver runs (the solve with B and the condition
 * estimate's first block, then the estimate's two-column steps):
 *
 *   op(T) X = B,  T n x n triangular (the four solves of getrs/gecon and
 *   potrs/pocon: L unit lower, U upper, and their transposes), X n x t.
 *
 *   bench_trsv [--threads N] [--reps R] [--float] [--cols 1,2,3] N...
 *
 * Per call, median over R runs (after one warm-up), each run on a fresh
 * copy of B: axb's trsm (the CPU backend's, on N threads), OpenBLAS's
 * cblas_?trsm on N threads (its own threading) and on one thread, and for
 * t = 1 OpenBLAS's ?trsv on one thread.  "GB/s" is the triangle's bytes
 * over axb's time: the rate the factor is read at, since a solve with so
 * few columns does ~t flops per entry read.  Markdown on stdout.
 */
#include "axb.h"
#include "bench_time.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXREPS = 200 };

/* openblas_set_num_threads is OpenBLAS's own (cblas.h declares it). */

typedef struct {
  const char *name;
  axb_uplo uplo;
  axb_trans trans;
  axb_diag diag;
} op;

static const op ops[] = {{"L unit", AXB_LOWER, AXB_NO_TRANS, AXB_UNIT},
                         {"U", AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT},
                         {"U^T", AXB_UPPER, AXB_TRANS, AXB_NON_UNIT},
                         {"L^T unit", AXB_LOWER, AXB_TRANS, AXB_UNIT}};

static CBLAS_UPLO cb_uplo(axb_uplo u) {
  return u == AXB_LOWER ? CblasLower : CblasUpper;
}
static CBLAS_TRANSPOSE cb_tr(axb_trans t) {
  return t == AXB_TRANS ? CblasTrans : CblasNoTrans;
}
static CBLAS_DIAG cb_diag(axb_diag d) {
  return d == AXB_UNIT ? CblasUnit : CblasNonUnit;
}

typedef struct {
  axb_handle h;
  int fl; /* float */
  int64_t n, t;
  void *A, *B, *X; /* n x n factor, kept B, working X */
  int threads;
} prob;

/* impl: 0 axb trsm, 1 OpenBLAS trsm threaded, 2 OpenBLAS trsm 1 thread,
   3 OpenBLAS trsv 1 thread (t = 1). */
static double one(const prob *p, const op *o, int impl) {
  const int64_t n = p->n, t = p->t;
  const size_t es = p->fl ? sizeof(float) : sizeof(double);
  memcpy(p->X, p->B, (size_t)(n * t) * es);
  if (impl == 1) openblas_set_num_threads(p->threads);
  if (impl >= 2) openblas_set_num_threads(1);
  double t0 = bench_now();
  axb_status st = AXB_SUCCESS;
  if (impl == 0 && !p->fl)
    st = axb_dtrsm(p->h, AXB_LEFT, o->uplo, o->trans, o->diag, n, t, 1.0, p->A,
                   n, p->X, n);
  if (impl == 0 && p->fl)
    st = axb_strsm(p->h, AXB_LEFT, o->uplo, o->trans, o->diag, n, t, 1.0f, p->A,
                   n, p->X, n);
  if ((impl == 1 || impl == 2) && !p->fl)
    cblas_dtrsm(CblasColMajor, CblasLeft, cb_uplo(o->uplo), cb_tr(o->trans),
                cb_diag(o->diag), (int)n, (int)t, 1.0, p->A, (int)n, p->X,
                (int)n);
  if ((impl == 1 || impl == 2) && p->fl)
    cblas_strsm(CblasColMajor, CblasLeft, cb_uplo(o->uplo), cb_tr(o->trans),
                cb_diag(o->diag), (int)n, (int)t, 1.0f, p->A, (int)n, p->X,
                (int)n);
  if (impl == 3 && !p->fl)
    cblas_dtrsv(CblasColMajor, cb_uplo(o->uplo), cb_tr(o->trans),
                cb_diag(o->diag), (int)n, p->A, (int)n, p->X, 1);
  if (impl == 3 && p->fl)
    cblas_strsv(CblasColMajor, cb_uplo(o->uplo), cb_tr(o->trans),
                cb_diag(o->diag), (int)n, p->A, (int)n, p->X, 1);
  double dt = bench_now() - t0;
  return st ? NAN : dt;
}

/* A: both triangles of a well-conditioned matrix (diagonal 1 + |u|, off
   the diagonal u / n, u uniform(-1, 1)); B uniform. */
static void fill(prob *p) {
  const int64_t n = p->n;
  uint64_t s = 42;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      double u = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
      double v = i == j ? 1 + fabs(u) : u / (double)n;
      if (p->fl)
        ((float *)p->A)[i + j * n] = (float)v;
      else
        ((double *)p->A)[i + j * n] = v;
    }
  for (int64_t i = 0; i < n * p->t; ++i) {
    double v = sin((double)i);
    if (p->fl)
      ((float *)p->B)[i] = (float)v;
    else
      ((double *)p->B)[i] = v;
  }
}

int main(int argc, char **argv) {
  int threads = 2, reps = 15, fl = 0, a = 1;
  int64_t cols[8] = {1, 2, 3};
  int ncols = 3;
  for (; a < argc && argv[a][0] == '-'; ++a) {
    if (!strcmp(argv[a], "--threads") && a + 1 < argc)
      threads = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc)
      reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--float"))
      fl = 1;
    else if (!strcmp(argv[a], "--cols") && a + 1 < argc) {
      ncols = 0;
      for (char *c = strtok(argv[++a], ","); c && ncols < 8;
           c = strtok(NULL, ","))
        cols[ncols++] = atoll(c);
    } else {
      fprintf(stderr, "bench_trsv: unknown option %s\n", argv[a]);
      return 2;
    }
  }
  if (reps < 1 || reps > MAXREPS || threads < 1 || a >= argc) {
    fprintf(stderr, "usage: bench_trsv [--threads N] [--reps R] [--float] "
                    "[--cols 1,2,3] N...\n");
    return 2;
  }
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0) || axb_set_threads(h, threads))
    return fprintf(stderr, "bench_trsv: no CPU handle\n"), 1;
  printf("| n | t | solve | axb ms | OpenBLAS trsm %d thr ms | OpenBLAS trsm "
         "1 thr ms | OpenBLAS trsv 1 thr ms | axb GB/s |\n",
         threads);
  printf("|---|---|---|---|---|---|---|---|\n");
  for (; a < argc; ++a) {
    const int64_t n = atoll(argv[a]);
    for (int c = 0; c < ncols; ++c) {
      const size_t es = fl ? sizeof(float) : sizeof(double);
      prob p = {h,
                fl,
                n,
                cols[c],
                malloc((size_t)(n * n) * es),
                malloc((size_t)(n * cols[c]) * es),
                malloc((size_t)(n * cols[c]) * es),
                threads};
      if (!p.A || !p.B || !p.X) return fprintf(stderr, "no memory\n"), 1;
      fill(&p);
      for (size_t q = 0; q < sizeof ops / sizeof *ops; ++q) {
        double med[4];
        for (int impl = 0; impl < 4; ++impl) {
          if (impl == 3 && p.t != 1) {
            med[impl] = NAN;
            continue;
          }
          double v[MAXREPS];
          one(&p, &ops[q], impl);
          for (int r = 0; r < reps; ++r)
            v[r] = one(&p, &ops[q], impl);
          med[impl] = bench_median(v, reps) * 1e3;
        }
        const double gb = (double)n * (double)(n + 1) / 2 * (double)es / 1e9;
        printf("| %lld | %lld | %s | %.3f | %.3f | %.3f | %.3f | %.1f |\n",
               (long long)n, (long long)p.t, ops[q].name, med[0], med[1],
               med[2], med[3], gb / (med[0] * 1e-3));
      }
      free(p.A);
      free(p.B);
      free(p.X);
    }
  }
  axb_handle_destroy(h);
  return 0;
}
