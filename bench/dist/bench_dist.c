/*
 * bench_dist (issue 24): axb's distributed getrf/potrf (look-ahead on and
 * off) beside ScaLAPACK's pdgetrf/pdpotrf, on the same ranks, the same
 * grid, the same matrix in the same layout (axb's local arrays are
 * ScaLAPACK's: handed over with a descriptor), the same threads.
 *   mpirun -np P*Q bench_dist --grid PxQ --n N [--nb NB] [--reps R]
 *          [--threads T] [--out FILE.csv] [--pivot-demo 1]
 * Time of one call = the largest over ranks (MPI_Wtime after a barrier);
 * reported: the median over R repetitions after one warm-up.  Rank 0 prints
 * a table and appends CSV rows (routine,impl,n,nb,P,Q,threads,seconds,
 * gflops,check) to FILE; check is axb's certified backward error of the
 * factors (solve of one rhs), or -1 for ScaLAPACK.
 *
 * --pivot-demo 1 (P >= 2): the thesis's local pivoting against partial
 * pivoting on a matrix built against it (uniform, with a_ij scaled by 1e-8
 * where row i and the block of column j both lie on process row 0: the
 * candidates local pivoting may take are tiny), both certified backward
 * errors printed (and appended as rows pivot-demo,local|partial).
 *
 * --rcond-cost 1: the certified driver axb_dist_solve (LU on uniform, then
 * Cholesky on spd), its phases' times (the largest over ranks, medians of
 * R after a warm-up) with the condition estimate on: rows
 * driver-getrf|driver-potrf, impl factor|solve|rcond|check, check = the
 * rcond estimate; the cost of the estimate is rcond / factor.
 */
#include "axb_dist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ScaLAPACK and BLACS (libscalapack-openmpi). */
int Csys2blacs_handle(MPI_Comm comm);
void Cblacs_gridinit(int *ctxt, const char *order, int np, int nq);
void Cblacs_gridexit(int ctxt);
void descinit_(int *desc, const int *m, const int *n, const int *mb,
               const int *nb, const int *rsrc, const int *csrc, const int *ctxt,
               const int *lld, int *info);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia,
              const int *ja, const int *desc, int *ipiv, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia,
              const int *ja, const int *desc, int *info, size_t uplo_len);

static int rank_;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  int64_t n, nb;
  int P, Q, reps, threads;
  const char *out;
  int demo, rcond_cost;
} opts;

/* One timed call: 0 axb LU, 1 ScaLAPACK LU, 2 axb Cholesky, 3 ScaLAPACK
   Cholesky; A is restored from A0 first (not timed). */
static double run_once(axb_handle h, int impl, axb_dist_matrix *A,
                       const double *A0, int ctxt, int *ok) {
  size_t cnt = (size_t)(A->lld * (A->nloc > 0 ? A->nloc : 1));
  memcpy(A->data, A0, cnt * sizeof(double));
  int64_t *ipiv = malloc((size_t)A->n * sizeof *ipiv), info = 0;
  int *ip = malloc((size_t)(A->mloc + A->nb) * sizeof *ip), inf = 0;
  int n = (int)A->n, nb = (int)A->nb, zero = 0, one = 1, lld = (int)A->lld,
      desc[9];
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &inf);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  axb_status st = AXB_SUCCESS;
  if (impl == 0) st = axb_dist_dgetrf(h, A, ipiv, &info);
  if (impl == 1) pdgetrf_(&n, &n, A->data, &one, &one, desc, ip, &inf);
  if (impl == 2) st = axb_dist_dpotrf(h, AXB_LOWER, A, &info);
  if (impl == 3) pdpotrf_("L", &n, A->data, &one, &one, desc, &inf, 1);
  double t = MPI_Wtime() - t0, tmax;
  MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *ok = st == AXB_SUCCESS && info == 0 && inf == 0;
  free(ipiv);
  free(ip);
  return tmax;
}

static double median_time(axb_handle h, int impl, axb_dist_matrix *A,
                          const double *A0, int ctxt, int reps, int *ok) {
  double *t = malloc((size_t)reps * sizeof *t);
  run_once(h, impl, A, A0, ctxt, ok); /* warm-up */
  for (int r = 0; r < reps; ++r)
    t[r] = run_once(h, impl, A, A0, ctxt, ok);
  qsort(t, (size_t)reps, sizeof *t, cmp);
  double m = t[reps / 2];
  free(t);
  return m;
}

/* axb's certified solve on the matrix (its backward error, or -1). */
static double certify(axb_handle h, axb_dist_matrix *A, int chol) {
  int64_t n = A->n;
  double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
  for (int64_t i = 0; i < n; ++i)
    b[i] = 1.0 / (double)(1 + i % 13);
  axb_dist_report r;
  axb_status st = axb_dist_solve(h, A, chol, 1, b, n, x, n, &r);
  free(b);
  free(x);
  /* INACCURATE: computed, but not certified; its error is the point. */
  return st == AXB_SUCCESS || st == AXB_ERR_INACCURATE ? r.backward_error : -1;
}

/* The distributed uniform (or SPD) n x n test matrix of the options. */
static axb_status gen_matrix(axb_handle h, axb_dist_grid *g, const opts *o,
                             int chol, axb_dist_matrix *A) {
  axb_gen_spec spec;
  char text[64];
  snprintf(text, sizeof text, "%s:%lld", chol ? "spd" : "uniform",
           (long long)o->n);
  axb_gen_parse(h, text, &spec);
  return axb_dist_gen(h, g, &spec, AXB_F64, o->nb, A);
}

static void bench_routine(axb_handle h, axb_dist_grid *g, const opts *o,
                          int chol, int ctxt, FILE *csv) {
  axb_dist_matrix A;
  if (gen_matrix(h, g, o, chol, &A) != AXB_SUCCESS) {
    if (rank_ == 0) fprintf(stderr, "bench_dist: %s\n", axb_detail(h));
    return;
  }
  size_t cnt = (size_t)(A.lld * (A.nloc > 0 ? A.nloc : 1));
  double *A0 = malloc(cnt * sizeof *A0);
  memcpy(A0, A.data, cnt * sizeof *A0);
  double check = certify(h, &A, chol);
  double n = (double)o->n, flops = (chol ? 1.0 : 2.0) * n * n * n / 3;
  const char *names[3] = {"axb", "axb-nolookahead", "scalapack"};
  for (int k = 0; k < 3; ++k) {
    axb_dist_set_lookahead(g, k == 0);
    int ok = 0;
    double t = median_time(h, (k == 2) + 2 * chol, &A, A0, ctxt, o->reps, &ok);
    if (rank_ != 0) continue;
    const char *r = chol ? "potrf" : "getrf";
    printf("%-6s %-16s n %6lld nb %4lld grid %dx%d threads %d: %8.3f s %8.2f "
           "GFLOP/s%s\n",
           r, names[k], (long long)o->n, (long long)o->nb, o->P, o->Q,
           o->threads, t, flops / t / 1e9, ok ? "" : " (FAILED)");
    if (csv)
      fprintf(csv, "%s,%s,%lld,%lld,%d,%d,%d,%.6f,%.3f,%.3g\n", r, names[k],
              (long long)o->n, (long long)o->nb, o->P, o->Q, o->threads, t,
              flops / t / 1e9, k == 2 ? -1.0 : check);
  }
  axb_dist_set_lookahead(g, 1);
  free(A0);
  axb_dist_matrix_destroy(&A);
}

static double median_of(double *t, int reps) {
  qsort(t, (size_t)reps, sizeof *t, cmp);
  return t[reps / 2];
}

/* The certified driver's phases (see the top comment): t[phase][rep]. */
static void rcond_cost(axb_handle h, axb_dist_grid *g, const opts *o, int chol,
                       FILE *csv) {
  axb_dist_matrix A;
  if (gen_matrix(h, g, o, chol, &A) != AXB_SUCCESS) return;
  int64_t n = o->n;
  double *b = malloc((size_t)n * sizeof *b), *x = malloc((size_t)n * sizeof *x);
  double *t = malloc((size_t)(4 * o->reps) * sizeof *t), rcond = -1;
  for (int64_t i = 0; i < n; ++i)
    b[i] = 1.0 / (double)(1 + i % 13);
  for (int r = -1; r < o->reps; ++r) { /* r = -1: warm-up */
    axb_dist_report rep;
    MPI_Barrier(MPI_COMM_WORLD);
    axb_status st = axb_dist_solve(h, &A, chol, 1, b, n, x, n, &rep);
    double ph[4] = {rep.times.factor, rep.times.solve, rep.times.rcond,
                    rep.times.check};
    MPI_Allreduce(MPI_IN_PLACE, ph, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    rcond = st == AXB_SUCCESS ? rep.rcond : -1;
    for (int k = 0; r >= 0 && k < 4; ++k)
      t[k * o->reps + r] = ph[k];
  }
  const char *names[4] = {"factor", "solve", "rcond", "check"};
  double med[4];
  for (int k = 0; k < 4; ++k)
    med[k] = median_of(t + k * o->reps, o->reps);
  if (rank_ == 0) {
    printf("driver %s n %lld nb %lld grid %dx%d threads %d: factor %.3f s, "
           "solve %.3f s, rcond %.3f s (%.1f%% of the factorization), check "
           "%.3f s; rcond %.3g\n",
           chol ? "potrf" : "getrf", (long long)n, (long long)o->nb, o->P, o->Q,
           o->threads, med[0], med[1], med[2], 100 * med[2] / med[0], med[3],
           rcond);
    for (int k = 0; csv && k < 4; ++k)
      fprintf(csv, "driver-%s,%s,%lld,%lld,%d,%d,%d,%.6f,0,%.3g\n",
              chol ? "potrf" : "getrf", names[k], (long long)n,
              (long long)o->nb, o->P, o->Q, o->threads, med[k], rcond);
  }
  free(b);
  free(x);
  free(t);
  axb_dist_matrix_destroy(&A);
}

/* Both pivoting modes on the adversarial matrix (see the top comment). */
static void pivot_demo(axb_handle h, axb_dist_grid *g, const opts *o,
                       FILE *csv) {
  int prow, pcol;
  axb_dist_grid_shape(g, NULL, NULL, &prow, &pcol);
  for (int mode = 0; mode < 2; ++mode) {
    axb_dist_matrix A;
    if (gen_matrix(h, g, o, 0, &A) != AXB_SUCCESS) return;
    for (int64_t lj = 0; prow == 0 && lj < A.nloc; ++lj) {
      int64_t j = ((lj / o->nb) * o->Q + pcol) * o->nb + lj % o->nb;
      if ((j / o->nb) % o->P != 0) continue;
      for (int64_t li = 0; li < A.mloc; ++li)
        ((double *)A.data)[li + lj * A.lld] *= 1e-8;
    }
    axb_dist_set_pivot(g, mode ? AXB_DIST_PIVOT_LOCAL : AXB_DIST_PIVOT_PARTIAL);
    double be = certify(h, &A, 0);
    if (rank_ == 0) {
      printf("pivot-demo n %lld nb %lld grid %dx%d: %s pivoting, backward "
             "error %.3g%s\n",
             (long long)o->n, (long long)o->nb, o->P, o->Q,
             mode ? "local" : "partial", be < 0 ? INFINITY : be,
             be < 0 || be >= 30 ? " (not certified)" : "");
      if (csv)
        fprintf(csv, "pivot-demo,%s,%lld,%lld,%d,%d,%d,0,0,%.3g\n",
                mode ? "local" : "partial", (long long)o->n, (long long)o->nb,
                o->P, o->Q, o->threads, be);
    }
    axb_dist_matrix_destroy(&A);
  }
  axb_dist_set_pivot(g, AXB_DIST_PIVOT_PARTIAL);
}

static int parse(int argc, char **argv, opts *o) {
  o->n = 2000;
  o->nb = 128;
  o->P = o->Q = 1;
  o->reps = 3;
  o->threads = 1;
  o->out = NULL;
  o->demo = 0;
  o->rcond_cost = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *k = argv[i], *v = argv[i + 1];
    if (strcmp(k, "--grid") == 0 && sscanf(v, "%dx%d", &o->P, &o->Q) == 2) {
    } else if (strcmp(k, "--n") == 0) {
      o->n = atoll(v);
    } else if (strcmp(k, "--nb") == 0) {
      o->nb = atoll(v);
    } else if (strcmp(k, "--reps") == 0) {
      o->reps = atoi(v);
    } else if (strcmp(k, "--threads") == 0) {
      o->threads = atoi(v);
    } else if (strcmp(k, "--pivot-demo") == 0) {
      o->demo = atoi(v);
    } else if (strcmp(k, "--rcond-cost") == 0) {
      o->rcond_cost = atoi(v);
    } else if (strcmp(k, "--out") == 0) {
      o->out = v;
    } else {
      return 0;
    }
  }
  return o->n > 0 && o->nb > 0 && o->reps > 0 && o->threads >= 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  opts o;
  if (!parse(argc, argv, &o)) {
    if (rank_ == 0)
      fprintf(stderr, "usage: bench_dist --grid PxQ --n N [--nb NB] [--reps "
                      "R] [--threads T] [--out FILE]\n");
    MPI_Finalize();
    return 2;
  }
  axb_handle h;
  axb_handle_create(&h, AXB_BACKEND_CPU, 0);
  axb_set_threads(h, o.threads);
  axb_dist_grid *g;
  if (axb_dist_grid_create(h, MPI_COMM_WORLD, o.P, o.Q, &g) != AXB_SUCCESS) {
    if (rank_ == 0) fprintf(stderr, "bench_dist: %s\n", axb_detail(h));
    MPI_Finalize();
    return 2;
  }
  int ctxt = Csys2blacs_handle(MPI_COMM_WORLD);
  Cblacs_gridinit(&ctxt, "Row", o.P, o.Q);
  FILE *csv = rank_ == 0 && o.out ? fopen(o.out, "a") : NULL;
  if (o.demo) {
    pivot_demo(h, g, &o, csv);
  } else if (o.rcond_cost) {
    rcond_cost(h, g, &o, 0, csv);
    rcond_cost(h, g, &o, 1, csv);
  } else {
    bench_routine(h, g, &o, 0, ctxt, csv);
    bench_routine(h, g, &o, 1, ctxt, csv);
  }
  if (csv) fclose(csv);
  Cblacs_gridexit(ctxt);
  axb_dist_grid_destroy(g);
  axb_handle_destroy(h);
  MPI_Finalize();
  return 0;
}
