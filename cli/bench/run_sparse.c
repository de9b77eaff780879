/* Sparse CG / PCG on generated Poisson matrices: every implementation on
   one problem, judged by its status (the true relative residual must reach
   the tolerance). */
#include "bench.h"

/* One axb_sparse_solve of routine r on h: CG or single-reduction CG1 with
   no preconditioner, CG with Jacobi or with IC(0); tol 1e-8, at most 20000
   iterations. */
static axb_status sparse_run(axb_handle h, rtn r, const axb_csr *A,
                             const axb_dense *B, axb_dense *X,
                             axb_sparse_report *rep) {
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = r == RT_SCG1 ? AXB_SPARSE_CG1 : AXB_SPARSE_CG;
  o.precond = r == RT_SCG || r == RT_SCG1 ? AXB_PRECOND_NONE
              : r == RT_SPCG_J            ? AXB_PRECOND_JACOBI
                                          : AXB_PRECOND_IC0;
  o.tol = 1e-8;
  o.max_iter = 20000;
  memset(X->data, 0, (size_t)X->rows * axb_dtype_size(X->dtype));
  axb_status st = axb_sparse_solve(h, A, B, X, &o, rep);
  axb_sparse_report_free(rep);
  return st;
}

/* Poisson matrix of order about n (2-D: edge round(sqrt n), 3-D: round(cbrt
   n)) and b = A * ones.  kind: poisson2d or poisson3d. */
static axb_status sparse_problem(bench *b, const char *kind, int64_t n,
                                 axb_dtype t, axb_csr *A, axb_dense *B) {
  int three = strcmp(kind, "poisson3d") == 0;
  int64_t g = (int64_t)llround(three ? cbrt((double)n) : sqrt((double)n));
  char spec[96];
  snprintf(spec, sizeof spec, "%s:%lld", kind, (long long)(g > 1 ? g : 2));
  axb_gen_spec gs;
  axb_status st = axb_gen_parse(b->hc, spec, &gs);
  if (!st) st = axb_gen_csr(b->hc, &gs, t, A);
  if (!st) st = axb_dense_create(B, A->rows, 1, t);
  for (int64_t i = 0; !st && i < A->rows; ++i) {
    double sum = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      sum += t == AXB_F64 ? ((const double *)A->values)[k]
                          : ((const float *)A->values)[k];
    axb_dense_set(B, i, 0, sum);
  }
  return st;
}

/* Every implementation (host backends with their thread counts, cuda) on
   one sparse problem: warm-up, then the runs in a seeded random order.
   residual: the true relative residual ||b - Ax||/||b|| of the run; a run
   that does not reach tol (status != success) is flagged.  The note keeps
   the iteration count. */
void run_sparse(bench *b, rtn r, const char *kind, int64_t n0, axb_dtype t,
                progress *pg) {
  const config *c = b->c;
  axb_csr A = {0};
  axb_dense B = {0}, X = {0};
  axb_status st = sparse_problem(b, kind, n0, t, &A, &B);
  if (!st) st = axb_dense_create(&X, A.rows, 1, t);
  if (st) {
    char err[256];
    cli_error_text(err, sizeof err, st, b->hc, kind);
    fprintf(stderr, "axb bench: %s %s: %s (skipped)\n", rt_names[r], kind, err);
    axb_csr_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&X);
    return;
  }
  impl im[BK_COUNT * MAXL], all[BK_COUNT * MAXL];
  int na = impls_for(c, b, all), ni = 0;
  for (int i = 0; i < na; ++i) /* axb's backends only: no sparse anchors */
    if (!bk_anchor(all[i].be)) im[ni++] = all[i];
  int first = bench_nresults;
  for (int i = 0; i < ni; ++i) {
    result *x = new_result();
    if (!x) break;
    x->rt = r;
    x->be = im[i].be;
    x->thr = bk_threaded(im[i].be) ? threads_used(im[i].thr) : im[i].thr;
    x->dt = t;
    snprintf(x->matrix, sizeof x->matrix, "%s", kind);
    x->n = A.rows;
    x->batch = 1;
  }
  ni = bench_nresults - first;
  double cost = rt_cost(r, (double)A.rows);
  char what[256];
  int *seq = malloc((size_t)(ni * c->reps + 1) * sizeof *seq);
  axb_sparse_report rep;
  memset(&rep, 0, sizeof rep);
  for (int i = 0; i < ni && !bench_stop_flag && seq; ++i) {
    result *x = &bench_results[first + i];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s", rt_names[r],
             axb_dtype_name(t), kind, (long long)A.rows, bk_names[x->be]);
    for (int k = 0; k < c->warmup && !bench_stop_flag; ++k) {
      show_progress(pg, what);
      set_threads(b, &im[i]);
      st = sparse_run(b->h[x->be], r, &A, &B, &X, &rep);
      pg->done += cost;
      if (st < 0) {
        cli_error_text(x->note, sizeof x->note, st, b->h[x->be], NULL);
        break;
      }
    }
  }
  int ns = 0;
  for (int i = 0; i < ni && seq; ++i)
    if (!bench_results[first + i].note[0])
      for (int k = 0; k < c->reps; ++k)
        seq[ns++] = i;
  for (int i = ns - 1; i > 0; --i) {
    int j = (int)(bench_rng_next() % (uint64_t)(i + 1));
    int tmp = seq[i];
    seq[i] = seq[j];
    seq[j] = tmp;
  }
  for (int s = 0; s < ns && !bench_stop_flag; ++s) {
    result *x = &bench_results[first + seq[s]];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s/%d", rt_names[r],
             axb_dtype_name(t), kind, (long long)A.rows, bk_names[x->be],
             x->thr);
    show_progress(pg, what);
    set_threads(b, &im[seq[s]]);
    bench_sleep_ms(c->pause_ms);
    double t0 = bench_now();
    st = sparse_run(b->h[x->be], r, &A, &B, &X, &rep);
    double el = bench_now() - t0;
    if (st != AXB_SUCCESS) {
      x->flagged = 1;
      snprintf(x->note, sizeof x->note, "%s after %lld iterations",
               cli_status_name(st), (long long)rep.iterations);
    } else if (!x->flagged) {
      snprintf(x->note, sizeof x->note, "%lld iterations",
               (long long)rep.iterations);
    }
    add_run(x, el, st < 0 ? NAN : rep.true_residual, 0, NAN, s);
    pg->done += cost;
  }
  free(seq);
  axb_csr_destroy(&A), axb_dense_destroy(&B), axb_dense_destroy(&X);
}
