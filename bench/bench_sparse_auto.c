/*
 * bench_sparse_auto (issue 23): `axb_sparse_solve` with method AUTO (what
 * `axb solve A.mtx --sparse` runs) against SuiteSparse's UMFPACK and, for
 * a symmetric matrix with a positive diagonal, CHOLMOD, called directly,
 * in one process on the same matrices and right-hand side (b = A * ones).
 *
 * Times are wall clock around the whole solve: AUTO's analysis, choice,
 * factorisation or Krylov iteration, condition estimate, refinement and
 * certificate; the anchors' symbolic + numeric factorisation + one solve
 * (their default controls; UMFPACK's own 2 refinement steps included).
 * One warm-up, then `reps` runs of each, alternating which goes first;
 * medians.  The
 * anchors' relative residuals ||b - A x||_2 / ||b||_2 are computed here.
 *
 * Usage: bench_sparse_auto [--reps K] [--threads T] [--csv] FILE.mtx...
 * Prints a Markdown table (or CSV) on stdout.
 */
#include "axb.h"

#include <cholmod.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <umfpack.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double rel_resid(const axb_csr *A, const double *b, const double *x) {
  const double *v = A->values;
  long double rr = 0, bb = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    long double r = b[i];
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      r -= (long double)v[k] * x[A->colind[k]];
    rr += r * r;
    bb += (long double)b[i] * b[i];
  }
  return (double)sqrtl(rr / bb);
}

/* 1 when A equals its transpose (pattern and values) and its diagonal is
   positive: CHOLMOD's candidate. */
static int spd_candidate(const axb_csr *A) {
  const double *v = A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    int diag = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      int64_t j = A->colind[k], q = A->rowptr[j];
      if (j == i) diag = v[k] > 0;
      while (q < A->rowptr[j + 1] && A->colind[q] < i)
        ++q;
      if (q == A->rowptr[j + 1] || A->colind[q] != i || v[q] != v[k]) return 0;
    }
    if (!diag) return 0;
  }
  return 1;
}

/* UMFPACK on A: CSR(A) is CSC(A^T), so A x = b is its transposed system. */
static int umfpack_run(const axb_csr *A, const double *b, double *x) {
  const SuiteSparse_long *p = (const SuiteSparse_long *)A->rowptr;
  const SuiteSparse_long *i = (const SuiteSparse_long *)A->colind;
  const double *v = A->values;
  void *sym = NULL, *num = NULL;
  double ctl[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_dl_defaults(ctl);
  int s = umfpack_dl_symbolic(A->rows, A->rows, p, i, v, &sym, ctl, info);
  if (s == UMFPACK_OK) s = umfpack_dl_numeric(p, i, v, sym, &num, ctl, info);
  if (s == UMFPACK_OK)
    s = umfpack_dl_solve(UMFPACK_At, p, i, v, x, b, num, ctl, info);
  umfpack_dl_free_symbolic(&sym);
  umfpack_dl_free_numeric(&num);
  return s == UMFPACK_OK;
}

/* CHOLMOD on the upper triangle of CSC(A) = CSR(A) (A symmetric). */
static int cholmod_run(const axb_csr *A, const double *b, double *x) {
  cholmod_common c;
  cholmod_l_start(&c);
  c.print = 0;
  cholmod_sparse S;
  memset(&S, 0, sizeof S);
  S.nrow = S.ncol = (size_t)A->rows;
  S.nzmax = (size_t)A->nnz;
  S.p = A->rowptr;
  S.i = A->colind;
  S.x = A->values;
  S.stype = 1;
  S.itype = CHOLMOD_LONG;
  S.xtype = CHOLMOD_REAL;
  S.dtype = CHOLMOD_DOUBLE;
  S.sorted = S.packed = 1;
  cholmod_dense B;
  memset(&B, 0, sizeof B);
  B.nrow = B.nzmax = B.d = (size_t)A->rows;
  B.ncol = 1;
  B.x = (void *)b;
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  cholmod_factor *L = cholmod_l_analyze(&S, &c);
  int ok = L && cholmod_l_factorize(&S, L, &c) && c.status == CHOLMOD_OK;
  cholmod_dense *X = ok ? cholmod_l_solve(CHOLMOD_A, L, &B, &c) : NULL;
  if (X) memcpy(x, X->x, (size_t)A->rows * sizeof(double));
  ok = X != NULL;
  cholmod_l_free_dense(&X, &c);
  cholmod_l_free_factor(&L, &c);
  cholmod_l_finish(&c);
  return ok;
}

typedef struct {
  double t_auto, t_umf, t_chol, res_auto, res_umf, res_chol;
  axb_sparse_report rep;
  axb_status st;
  int spd, umf_ok, chol_ok;
} row;

static void bench_one(axb_handle h, const axb_csr *A, int reps, row *out) {
  int64_t n = A->rows;
  axb_dense B, X;
  axb_dense_create(&B, n, 1, AXB_F64);
  axb_dense_create(&X, n, 1, AXB_F64);
  double *b = B.data, *x = X.data;
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s += ((const double *)A->values)[k];
    b[i] = s;
  }
  double *xa = malloc((size_t)n * sizeof(double));
  double ta[64], tu[64], tc[64];
  out->spd = spd_candidate(A);
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  for (int r = -1; r < reps; ++r) { /* r = -1: warm-up */
    /* Who goes first alternates: the second runs on the allocator's and
       caches' warm state the first left behind. */
    double t_a = 0, t_u = 0, t_c = 0;
    for (int k = 0; k < 2; ++k) {
      if ((k == 0) == (r % 2 == 0)) { /* AUTO */
        double t0 = now();
        axb_sparse_report_free(&out->rep);
        out->st = axb_sparse_solve(h, A, &B, &X, &o, &out->rep);
        t_a = now() - t0;
        continue;
      }
      double t1 = now();
      out->umf_ok = umfpack_run(A, b, xa);
      t_u = now() - t1;
      if (r == reps - 1) out->res_umf = rel_resid(A, b, xa);
      if (out->spd) {
        double t2 = now();
        out->chol_ok = cholmod_run(A, b, xa);
        t_c = now() - t2;
        if (r == reps - 1) out->res_chol = rel_resid(A, b, xa);
      }
    }
    if (r >= 0) {
      ta[r] = t_a;
      tu[r] = t_u;
      tc[r] = t_c;
    }
  }
  out->res_auto = rel_resid(A, b, x);
  out->t_auto = median(ta, reps);
  out->t_umf = median(tu, reps);
  out->t_chol = out->spd ? median(tc, reps) : NAN;
  free(xa);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
}

static const char *path_of(const row *w, char *buf, size_t len) {
  if (w->rep.method == AXB_SPARSE_DIRECT)
    snprintf(buf, len, "direct (%s)%s", w->rep.solver,
             strstr(w->rep.path, "fell back") ? " after Krylov" : "");
  else
    snprintf(buf, len, "%s + %s", axb_sparse_method_name(w->rep.method),
             axb_precond_name(w->rep.precond));
  return buf;
}

static const char *status_of(axb_status st) {
  return st == AXB_SUCCESS               ? "certified"
         : st == AXB_ERR_ILL_CONDITIONED ? "ill-conditioned"
                                         : axb_strerror(st);
}

int main(int argc, char **argv) {
  int reps = 5, threads = 0, csv = 0, first = 1;
  for (; first < argc && argv[first][0] == '-'; ++first) {
    if (strcmp(argv[first], "--reps") == 0 && first + 1 < argc)
      reps = atoi(argv[++first]);
    else if (strcmp(argv[first], "--threads") == 0 && first + 1 < argc)
      threads = atoi(argv[++first]);
    else if (strcmp(argv[first], "--csv") == 0)
      csv = 1;
    else {
      fprintf(stderr, "usage: %s [--reps K] [--threads T] [--csv] FILE...\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 1 || reps > 64) reps = 5;
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 1;
  if (threads > 0) axb_set_threads(h, threads);
  if (csv)
    printf("matrix,n,nnz,path,iterations,t_auto,res_auto,status,t_umfpack,"
           "res_umfpack,t_cholmod,res_cholmod,auto_over_best\n");
  else
    printf("| matrix | n | nnz | AUTO's path | it. | AUTO ms | residual | "
           "status | UMFPACK ms | CHOLMOD ms | AUTO / best |\n"
           "|---|---:|---:|---|---:|---:|---:|---|---:|---:|---:|\n");
  for (int f = first; f < argc; ++f) {
    axb_csr A;
    if (axb_read_csr(h, argv[f], AXB_F64, &A)) {
      fprintf(stderr, "%s: %s\n", argv[f], axb_detail(h));
      continue;
    }
    const char *name = strrchr(argv[f], '/');
    name = name ? name + 1 : argv[f];
    row w;
    memset(&w, 0, sizeof w);
    bench_one(h, &A, reps, &w);
    double best = w.umf_ok ? w.t_umf : INFINITY;
    if (w.spd && w.chol_ok && w.t_chol < best) best = w.t_chol;
    char p[64];
    path_of(&w, p, sizeof p);
    if (csv)
      printf("%s,%lld,%lld,%s,%lld,%.6g,%.3g,%s,%.6g,%.3g,%.6g,%.3g,%.3g\n",
             name, (long long)A.rows, (long long)A.nnz, p,
             (long long)w.rep.iterations, w.t_auto, w.res_auto, status_of(w.st),
             w.t_umf, w.res_umf, w.t_chol, w.res_chol, w.t_auto / best);
    else {
      printf("| %s | %lld | %lld | %s | %lld | %.3f | %.1e | %s | %.3f | ",
             name, (long long)A.rows, (long long)A.nnz, p,
             (long long)w.rep.iterations, 1e3 * w.t_auto, w.res_auto,
             status_of(w.st), 1e3 * w.t_umf);
      if (w.spd)
        printf("%.3f", 1e3 * w.t_chol);
      else
        printf("–");
      printf(" | %.2f |\n", w.t_auto / best);
    }
    fflush(stdout);
    axb_sparse_report_free(&w.rep);
    axb_csr_destroy(&A);
  }
  axb_handle_destroy(h);
  return 0;
}
