/* The sweep's inner loops for dense and batched problems: every
   implementation on one problem, warm-up, then the runs in one seeded
   random order, each on a fresh copy of the input. */
#include "bench.h"

int impls_for(const config *c, const bench *b, impl *im) {
  int k = 0;
  for (int i = 0; i < c->nbe; ++i) {
    int be = c->be[i];
    if (!b->present[be]) continue;
    if (bk_threaded(be)) {
      for (int j = 0; j < c->nthr; ++j)
        im[k++] = (impl){be, c->thr[j]};
    } else {
      im[k++] = (impl){be, be == BK_REF ? 1 : 0};
    }
  }
  return k;
}

int threads_used(int thr) { return thr > 0 ? thr : (int)bench_cores(); }

void show_progress(progress *p, const char *what) {
  if (!p->tty) return;
  double el = bench_now() - p->t0;
  double eta = p->done > 0 ? el * (p->total - p->done) / p->done : 0;
  fprintf(stderr, "\r\033[K[%3.0f%%] %s  ETA %.0fs",
          p->total > 0 ? 100 * p->done / p->total : 0, what, eta);
  fflush(stderr);
}

void set_threads(bench *b, const impl *im) {
  if (im->be == BK_OPENBLAS || im->be == BK_EIGEN)
    axb_anchor_set_threads(bk_anchor_id(im->be), threads_used(im->thr));
  else if (im->be == BK_CPU)
    axb_set_threads(b->h[BK_CPU], im->thr);
}

static void free_work(work *w) {
  free(w->W), free(w->XB), free(w->ipiv), free(w->ip32), free(w->inf32);
}

static int alloc_work(work *w, const axb_dense *A, const axb_dense *B) {
  size_t es = axb_dtype_size(A->dtype);
  memset(w, 0, sizeof *w);
  w->batch = A->cols / (A->rows > 0 ? A->rows : 1);
  w->W = malloc((size_t)(A->rows * A->cols) * es + 1);
  w->XB = malloc((size_t)(B->rows * B->cols) * es + 1);
  w->ipiv = malloc((size_t)A->rows * sizeof *w->ipiv + 1);
  w->ip32 = malloc((size_t)(A->rows * w->batch) * sizeof *w->ip32 + 1);
  w->inf32 = malloc((size_t)w->batch * sizeof *w->inf32 + 1);
  if (w->W && w->XB && w->ipiv && w->ip32 && w->inf32) return 1;
  free_work(w);
  return 0;
}

/* A fresh copy of the input for one run (not timed). */
static void restore(work *w, const axb_dense *A, const axb_dense *B) {
  size_t es = axb_dtype_size(A->dtype);
  memcpy(w->W, A->data, (size_t)(A->rows * A->cols) * es);
  memcpy(w->XB, B->data, (size_t)(B->rows * B->cols) * es);
}

/* All implementations on one problem: warm-up, then the runs in a seeded
   random order.  A batched problem is A = [A_1 .. A_batch] (n x n*batch)
   with B = [b_1 .. b_batch].  Returns 0 when stopped by SIGINT. */
int run_problem(bench *b, rtn r, const axb_dense *A, const axb_dense *B,
                const char *label, progress *pg) {
  const config *c = b->c;
  int64_t n = A->rows;
  impl im[BK_COUNT * MAXL];
  int ni = impls_for(c, b, im);
  result *res[BK_COUNT * MAXL];
  int first = bench_nresults;
  work w;
  int have = alloc_work(&w, A, B);
  double flops = rt_cost(r, (double)n) * (double)(have ? w.batch : 1);
  for (int i = 0; i < ni; ++i) {
    result *x = new_result();
    if (!x) {
      if (have) free_work(&w);
      return 1;
    }
    x->rt = r;
    x->be = im[i].be;
    x->thr = bk_threaded(im[i].be) ? threads_used(im[i].thr) : im[i].thr;
    x->dt = A->dtype;
    snprintf(x->matrix, sizeof x->matrix, "%s", label);
    x->n = n;
    x->batch = rt_batched(r) ? w.batch : 1;
  }
  for (int i = 0; i < ni; ++i)
    res[i] = &bench_results[first + i];
  void *xs = malloc((size_t)n * axb_dtype_size(A->dtype) + 1);
  int *seq = malloc((size_t)(ni * c->reps + 1) * sizeof *seq);
  if (!have || !xs || !seq) {
    for (int i = 0; i < ni; ++i)
      snprintf(res[i]->note, sizeof res[i]->note, "out of memory");
    if (have) free_work(&w);
    free(xs), free(seq);
    return 1;
  }
  char what[256];
  /* Warm-up, and whether the implementation can run this at all. */
  for (int i = 0; i < ni && !bench_stop_flag; ++i) {
    int be = im[i].be;
    snprintf(what, sizeof what, "%s %s %s n=%lld %s", rt_names[r],
             axb_dtype_name(A->dtype), label, (long long)n, bk_names[be]);
    if (bk_anchor(be) && !anchor_has(be, r)) {
      snprintf(res[i]->note, sizeof res[i]->note, "no %s anchor for %s",
               bk_names[be], rt_names[r]);
      continue;
    }
    for (int k = 0; k < c->warmup && !bench_stop_flag; ++k) {
      show_progress(pg, what);
      set_threads(b, &im[i]);
      restore(&w, A, B);
      double xf, dev;
      axb_status st = run_timed(b, be, r, A, &w, &xf, &dev);
      pg->done += flops;
      if (st < 0) {
        char e[160];
        axb_handle eh = bk_gpu(be) ? b->h[BK_CUDA] : b->h[be];
        cli_error_text(e, sizeof e, st,
                       bk_anchor(be) && !bk_gpu(be) ? NULL : eh, NULL);
        snprintf(res[i]->note, sizeof res[i]->note, "%s", e);
        break;
      }
    }
  }
  int ns = 0;
  for (int i = 0; i < ni; ++i)
    if (!res[i]->note[0])
      for (int k = 0; k < c->reps; ++k)
        seq[ns++] = i;
  for (int i = ns - 1; i > 0; --i) { /* Fisher-Yates, seeded */
    int j = (int)(bench_rng_next() % (uint64_t)(i + 1));
    int t = seq[i];
    seq[i] = seq[j];
    seq[j] = t;
  }
  for (int s = 0; s < ns && !bench_stop_flag; ++s) {
    int i = seq[s];
    snprintf(what, sizeof what, "%s %s %s n=%lld %s/%d", rt_names[r],
             axb_dtype_name(A->dtype), label, (long long)n, bk_names[im[i].be],
             res[i]->thr);
    show_progress(pg, what);
    set_threads(b, &im[i]);
    restore(&w, A, B);
    bench_sleep_ms(c->pause_ms);
    double xf = 0, dev = NAN, t0 = bench_now();
    axb_status st = run_timed(b, im[i].be, r, A, &w, &xf, &dev);
    double t = bench_now() - t0;
    double rr = st < 0 ? NAN : judge_residual(b, im[i].be, r, A, B, &w, xs);
    if (st != AXB_SUCCESS) {
      res[i]->flagged = 1;
      if (!res[i]->note[0])
        snprintf(res[i]->note, sizeof res[i]->note, "%s", cli_status_name(st));
    }
    if (!(rr < CLI_BERR_LIMIT)) res[i]->flagged = 1;
    add_run(res[i], t, rr, xf, dev, s);
    pg->done += flops;
  }
  free_work(&w);
  free(xs), free(seq);
  return !bench_stop_flag;
}

/* A batched problem: `batch` matrices of generator `kind` (seeds seed,
   seed+1, ...) side by side, b_k = A_k * ones (row sums), then the run. */
void run_batched(bench *b, rtn r, const char *kind, int64_t n, axb_dtype t,
                 progress *pg) {
  const config *c = b->c;
  static int said;
  if (n > BATCH_MAX_N) {
    if (!said++)
      fprintf(stderr, "axb bench: batched routines run n <= %d only\n",
              BATCH_MAX_N);
    return;
  }
  int64_t nb = c->batch;
  size_t es = axb_dtype_size(t);
  axb_dense A = {0}, B = {0}, Ak = {0};
  axb_status st = axb_dense_create(&A, n, n * nb, t);
  if (!st) st = axb_dense_create(&B, n, nb, t);
  for (int64_t k = 0; k < nb && !st; ++k) {
    char spec[160];
    axb_gen_spec g;
    /* n is the order of the problem made by make_problem: for a grid
       kind, the same edge and so the same order again. */
    gen_spec_text(spec, sizeof spec, kind, n, c->seed + (uint64_t)k);
    st = axb_gen_parse(b->hc, spec, &g);
    if (!st) st = axb_gen_dense(b->hc, &g, t, &Ak);
    if (!st && (Ak.rows != n || Ak.cols != n)) st = AXB_ERR_INVALID;
    if (st) break;
    memcpy((char *)A.data + (size_t)(k * n * n) * es, Ak.data,
           (size_t)(n * n) * es);
    for (int64_t i = 0; i < n; ++i) {
      double sum = 0;
      for (int64_t j = 0; j < n; ++j)
        sum += axb_dense_get(&Ak, i, j);
      axb_dense_set(&B, i, k, sum);
    }
    axb_dense_destroy(&Ak);
  }
  if (st) {
    char err[256];
    cli_error_text(err, sizeof err, st, b->hc, kind);
    fprintf(stderr, "axb bench: batched %s: %s (skipped)\n", kind, err);
  } else {
    char label[96];
    snprintf(label, sizeof label, "%s*%lld", kind, (long long)nb);
    run_problem(b, r, &A, &B, label, pg);
  }
  axb_dense_destroy(&Ak);
  axb_dense_destroy(&A);
  axb_dense_destroy(&B);
}
