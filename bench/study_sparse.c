/*
 * The convergence study the 2022 thesis was asked for (issue 8): for every
 * matrix of a directory (../shared/matrices), iterations and time to a
 * relative residual tol with the preconditioners none / Jacobi / ILU(0) /
 * ParILU with 1, 2, 3, 5 sweeps (and IC(0) / ParIC-1/2/3/5 on symmetric
 * matrices with a positive diagonal): CG (PCG) for those, GMRES(30) and
 * BiCGStab otherwise.  Where a run does not converge or fails, the cell
 * says why.  Public API only, so it runs on any backend.
 *
 *   study_sparse [--dir DIR] [--backend cpu|ref|cuda] [--threads N]
 *                [--tol T] [--maxit K] [--reps R] [--csv FILE]
 *
 * Prints a Markdown table per method family (what docs/PERFORMANCE.md
 * quotes) and writes one CSV row per run (matrix, n, nnz, method, precond,
 * sweeps, status, iterations, t_setup, t_solve, true residual).
 * Times are the median of R runs (default 3) of set-up + solve.
 */
#include "axb.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  axb_precond p;
  int sweeps;
  const char *label;
} pc_case;

static const pc_case pcs[] = {
    {AXB_PRECOND_NONE, 0, "none"},       {AXB_PRECOND_JACOBI, 0, "Jacobi"},
    {AXB_PRECOND_ILU0, 0, "ILU0"},       {AXB_PRECOND_PARILU, 1, "ParILU-1"},
    {AXB_PRECOND_PARILU, 2, "ParILU-2"}, {AXB_PRECOND_PARILU, 3, "ParILU-3"},
    {AXB_PRECOND_PARILU, 5, "ParILU-5"}, {AXB_PRECOND_IC0, 0, "IC0"},
    {AXB_PRECOND_PARIC, 1, "ParIC-1"},   {AXB_PRECOND_PARIC, 2, "ParIC-2"},
    {AXB_PRECOND_PARIC, 3, "ParIC-3"},   {AXB_PRECOND_PARIC, 5, "ParIC-5"}};
#define NPC (sizeof(pcs) / sizeof(pcs[0]))
#define NPC_UNSYM 7 /* the IC columns only for CG */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double csr_get(const axb_csr *A, int64_t k) {
  return ((const double *)A->values)[k];
}

/* 1 when A == A^T exactly and every diagonal entry is stored and > 0. */
static int spd_like(const axb_csr *A) {
  for (int64_t i = 0; i < A->rows; ++i) {
    int diag = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      int64_t j = A->colind[k];
      if (j == i) {
        if (!(csr_get(A, k) > 0)) return 0;
        diag = 1;
        continue;
      }
      int found = 0;
      for (int64_t q = A->rowptr[j]; q < A->rowptr[j + 1]; ++q)
        if (A->colind[q] == i) {
          found = csr_get(A, q) == csr_get(A, k);
          break;
        }
      if (!found) return 0;
    }
    if (!diag) return 0;
  }
  return 1;
}

typedef struct {
  axb_status st;
  int64_t iters, info;
  double t, res;
  axb_sparse_breakdown bd;
} outcome;

static outcome run_case(axb_handle h, const axb_csr *A, const axb_dense *B,
                        axb_sparse_method m, const pc_case *pc, double tol,
                        int64_t maxit, int reps) {
  axb_dense X;
  outcome o;
  memset(&o, 0, sizeof o);
  if (axb_dense_create(&X, A->rows, 1, AXB_F64)) {
    o.st = AXB_ERR_OUT_OF_MEMORY;
    return o;
  }
  axb_sparse_opts opts;
  axb_sparse_opts_default(&opts);
  opts.method = m;
  opts.precond = pc->p;
  opts.sweeps = pc->sweeps > 0 ? pc->sweeps : 3;
  opts.tol = tol;
  opts.max_iter = maxit;
  double t[16];
  if (reps > 16) reps = 16;
  for (int r = 0; r < reps; ++r) {
    axb_sparse_report rep;
    o.st = axb_sparse_solve(h, A, B, &X, &opts, &rep);
    t[r] = rep.t_setup + rep.t_solve;
    o.iters = rep.iterations;
    o.res = rep.true_residual;
    o.bd = rep.breakdown;
    o.info = rep.info;
    axb_sparse_report_free(&rep);
    if (o.st != AXB_SUCCESS) { /* failures: one run says it */
      reps = r + 1;
      break;
    }
  }
  qsort(t, (size_t)reps, sizeof(double), cmp_dbl);
  o.t = t[reps / 2];
  axb_dense_destroy(&X);
  return o;
}

/* The Markdown cell of one outcome. */
static void cell(char *buf, size_t len, const outcome *o) {
  switch (o->st) {
  case AXB_SUCCESS:
    snprintf(buf, len, "%lld (%.3g ms)", (long long)o->iters, o->t * 1e3);
    break;
  case AXB_ERR_NO_CONVERGENCE:
    if (o->bd == AXB_BREAKDOWN_MAX_ITER || o->bd == AXB_BREAKDOWN_NONE)
      snprintf(buf, len, "no conv. (%.1e)", o->res);
    else
      snprintf(buf, len, "breakdown: %s", axb_sparse_breakdown_name(o->bd));
    break;
  case AXB_ERR_NOT_SPD:
    snprintf(buf, len,
             o->info ? "fails: pivot <= 0, row %lld" : "not SPD (CG breakdown)",
             (long long)o->info);
    break;
  case AXB_ERR_SMALL_PIVOT:
    snprintf(buf, len, "fails: zero pivot, row %lld", (long long)o->info);
    break;
  default: snprintf(buf, len, "error: %s", axb_strerror(o->st)); break;
  }
  /* A '|' (in "||b||") would end the Markdown cell: escape it. */
  char tmp[256];
  size_t k = 0;
  for (const char *c = buf; *c && k + 2 < sizeof tmp; ++c) {
    if (*c == '|') tmp[k++] = '\\';
    tmp[k++] = *c;
  }
  tmp[k] = 0;
  snprintf(buf, len, "%s", tmp);
}

static const char *status_word(axb_status st) {
  switch (st) {
  case AXB_SUCCESS: return "converged";
  case AXB_ERR_NO_CONVERGENCE: return "no_convergence";
  case AXB_ERR_NOT_SPD: return "not_spd";
  case AXB_ERR_SMALL_PIVOT: return "zero_pivot";
  default: return "error";
  }
}

typedef struct {
  const char *dir, *csv;
  axb_backend backend;
  int threads, reps;
  double tol;
  int64_t maxit;
} study_args;

static int parse(int argc, char **argv, study_args *a) {
  a->dir = getenv("AXB_MATRICES");
  if (!a->dir) a->dir = "../shared/matrices";
  a->csv = NULL;
  a->backend = AXB_BACKEND_CPU;
  a->threads = 1;
  a->reps = 3;
  a->tol = 1e-8;
  a->maxit = 5000;
  for (int i = 1; i < argc; ++i) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) goto usage;
    ++i;
    if (!strcmp(o, "--dir"))
      a->dir = v;
    else if (!strcmp(o, "--csv"))
      a->csv = v;
    else if (!strcmp(o, "--threads"))
      a->threads = atoi(v);
    else if (!strcmp(o, "--reps"))
      a->reps = atoi(v) > 0 ? atoi(v) : 1;
    else if (!strcmp(o, "--tol"))
      a->tol = atof(v);
    else if (!strcmp(o, "--maxit"))
      a->maxit = atoll(v);
    else if (!strcmp(o, "--backend"))
      a->backend = !strcmp(v, "cuda")  ? AXB_BACKEND_CUDA
                   : !strcmp(v, "ref") ? AXB_BACKEND_REF
                                       : AXB_BACKEND_CPU;
    else
      goto usage;
  }
  return 1;
usage:
  fprintf(stderr,
          "usage: study_sparse [--dir DIR] [--backend cpu|ref|cuda] "
          "[--threads N] [--tol T] [--maxit K] [--reps R] [--csv FILE]\n");
  return 0;
}

/* Matrix Market files of dir, sorted; *count set; NULL on error. */
static char **list_matrices(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".mtx")) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **nn = realloc(names, (size_t)cap * sizeof(char *));
      if (!nn) break;
      names = nn;
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(char *), cmp_str);
  *count = n;
  return names;
}

int main(int argc, char **argv) {
  study_args a;
  if (!parse(argc, argv, &a)) return 2;
  int count = 0;
  char **names = list_matrices(a.dir, &count);
  if (!names) {
    fprintf(stderr, "study_sparse: cannot list %s\n", a.dir);
    return 3;
  }
  axb_handle h;
  if (axb_handle_create(&h, a.backend, 0)) {
    fprintf(stderr, "study_sparse: no %s handle: %s\n",
            axb_backend_name(a.backend), axb_detail(NULL));
    return 4;
  }
  axb_set_threads(h, a.threads);
  FILE *csv = a.csv ? fopen(a.csv, "w") : NULL;
  if (csv)
    fprintf(csv, "matrix,n,nnz,method,precond,sweeps,status,iterations,"
                 "t_setup_plus_solve,true_residual\n");
  axb_sparse_method fam[3] = {AXB_SPARSE_CG, AXB_SPARSE_GMRES,
                              AXB_SPARSE_BICGSTAB};
  for (int f = 0; f < 3; ++f) {
    int npc = f == 0 ? (int)NPC : NPC_UNSYM;
    printf("\n%s (%s), tol %.0e, max %lld iterations, %s backend, %d "
           "thread(s); cell: iterations (set-up + solve time, median of "
           "%d)\n\n| matrix | n | nnz |",
           f == 0   ? "PCG"
           : f == 1 ? "GMRES(30), right preconditioned"
                    : "BiCGStab, right preconditioned",
           f == 0 ? "symmetric matrices with a positive diagonal"
                  : "all other matrices",
           a.tol, (long long)a.maxit, axb_backend_name(a.backend), a.threads,
           a.reps);
    for (int p = 0; p < npc; ++p)
      printf(" %s |", pcs[p].label);
    printf("\n|---|---:|---:|");
    for (int p = 0; p < npc; ++p)
      printf("---|");
    printf("\n");
    for (int i = 0; i < count; ++i) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", a.dir, names[i]);
      axb_csr A;
      if (axb_read_csr(h, path, AXB_F64, &A)) {
        fprintf(stderr, "skip %s: %s\n", names[i], axb_detail(h));
        continue;
      }
      int spd = A.rows == A.cols && spd_like(&A);
      if (A.rows != A.cols || (f == 0) != spd) {
        axb_csr_destroy(&A);
        continue;
      }
      /* b = A * ones: x_true = 1. */
      axb_dense B;
      axb_dense_create(&B, A.rows, 1, AXB_F64);
      for (int64_t r = 0; r < A.rows; ++r) {
        double s = 0;
        for (int64_t k = A.rowptr[r]; k < A.rowptr[r + 1]; ++k)
          s += csr_get(&A, k);
        axb_dense_set(&B, r, 0, s);
      }
      printf("| %s | %lld | %lld |", names[i], (long long)A.rows,
             (long long)A.nnz);
      for (int p = 0; p < npc; ++p) {
        outcome o =
            run_case(h, &A, &B, fam[f], &pcs[p], a.tol, a.maxit, a.reps);
        char c[256];
        cell(c, sizeof c, &o);
        printf(" %s |", c);
        fflush(stdout);
        if (csv)
          fprintf(csv, "%s,%lld,%lld,%s,%s,%d,%s,%lld,%.6e,%.3e\n", names[i],
                  (long long)A.rows, (long long)A.nnz,
                  axb_sparse_method_name(fam[f]), axb_precond_name(pcs[p].p),
                  pcs[p].sweeps, status_word(o.st), (long long)o.iters, o.t,
                  o.res);
      }
      printf("\n");
      axb_dense_destroy(&B);
      axb_csr_destroy(&A);
    }
  }
  if (csv) fclose(csv);
  for (int i = 0; i < count; ++i)
    free(names[i]);
  free(names);
  axb_handle_destroy(h);
  return 0;
}
