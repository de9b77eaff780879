/* The results store (one entry per problem x implementation, its runs)
   and the statistics derived from the runs: medians, standard error,
   GFLOP/s, speedups, ranks. */
#include "bench.h"

result *bench_results;
int bench_nresults;
static int capresults;

result *new_result(void) {
  if (bench_nresults == capresults) {
    int c = capresults ? 2 * capresults : 64;
    result *r = realloc(bench_results, (size_t)c * sizeof *r);
    if (!r) return NULL;
    bench_results = r;
    capresults = c;
  }
  result *r = &bench_results[bench_nresults++];
  memset(r, 0, sizeof *r);
  return r;
}

static int grow(double **a, int c) {
  double *p = realloc(*a, (size_t)c * sizeof *p);
  if (!p) return 0;
  *a = p;
  return 1;
}

int add_run(result *r, double t, double res, double xf, double dev, int order) {
  if (r->runs == r->cap) {
    int c = r->cap ? 2 * r->cap : 16;
    if (!grow(&r->t, c) || !grow(&r->res, c) || !grow(&r->xfer, c) ||
        !grow(&r->dev, c))
      return 0;
    int *o = realloc(r->order, (size_t)c * sizeof *o);
    if (!o) return 0;
    r->order = o;
    r->cap = c;
  }
  r->t[r->runs] = t;
  r->res[r->runs] = res;
  r->xfer[r->runs] = xf;
  r->dev[r->runs] = dev;
  r->order[r->runs] = order;
  r->runs++;
  return 1;
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int same_problem(const result *a, const result *b) {
  return a->rt == b->rt && a->dt == b->dt && a->n == b->n &&
         a->batch == b->batch && strcmp(a->matrix, b->matrix) == 0;
}

/* Median of v[0..k) (NaN when any is NaN: host runs have no device time). */
static double median_of(const double *v0, int k) {
  double *v = malloc((size_t)k * sizeof *v);
  if (!v || k == 0) return free(v), NAN;
  memcpy(v, v0, (size_t)k * sizeof *v);
  double m = NAN;
  int nan = 0;
  for (int j = 0; j < k; ++j)
    nan |= isnan(v[j]);
  if (!nan) {
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    m = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
  }
  free(v);
  return m;
}

void bench_derive(const config *c) {
  for (int i = 0; i < bench_nresults; ++i) {
    result *r = &bench_results[i];
    r->med = r->mean = r->se = r->min = r->gflops = NAN;
    r->speedup = r->eff = r->maxres = r->dev_med = r->xfer_med = NAN;
    r->rank = 0;
    if (r->runs == 0) continue;
    r->dev_med = median_of(r->dev, r->runs);
    r->xfer_med = median_of(r->xfer, r->runs);
    double *v = malloc((size_t)r->runs * sizeof *v);
    if (!v) continue;
    memcpy(v, r->t, (size_t)r->runs * sizeof *v);
    qsort(v, (size_t)r->runs, sizeof *v, cmp_double);
    int k = r->runs;
    r->med = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
    r->min = v[0];
    double s = 0, q = 0;
    for (int j = 0; j < k; ++j)
      s += v[j];
    r->mean = s / k;
    for (int j = 0; j < k; ++j)
      q += (v[j] - r->mean) * (v[j] - r->mean);
    r->se = k > 1 ? sqrt(q / (k - 1) / k) : 0;
    free(v);
    r->maxres = 0;
    for (int j = 0; j < k; ++j)
      r->maxres =
          isnan(r->res[j]) || r->res[j] > r->maxres ? r->res[j] : r->maxres;
    r->gflops = r->med > 0 ? rt_flops(r->rt, (double)r->n) * (double)r->batch /
                                 r->med * 1e-9
                           : NAN;
  }
  for (int i = 0; i < bench_nresults; ++i) {
    result *r = &bench_results[i];
    if (r->runs == 0) continue;
    /* The baseline row with r's thread count; for a row without one (GPU
       backends, or a count the baseline did not run) the baseline's row
       with the most threads, its best CPU time. */
    const result *same = NULL, *most = NULL, *one = NULL;
    for (int j = 0; j < bench_nresults; ++j) {
      const result *o = &bench_results[j];
      if (!same_problem(r, o) || o->runs == 0) continue;
      if (o->be == c->baseline && o->thr == r->thr) same = o;
      if (o->be == c->baseline && (!most || o->thr > most->thr)) most = o;
      if (o->be == r->be && o->thr == 1) one = o;
    }
    const result *base = same ? same : most;
    if (base && !r->flagged && !base->flagged) r->speedup = base->med / r->med;
    if (one && r->thr > 0 && bk_threaded(r->be) && !r->flagged && !one->flagged)
      r->eff = one->med / r->med / r->thr;
    if (!r->flagged) {
      r->rank = 1;
      for (int j = 0; j < bench_nresults; ++j) {
        const result *o = &bench_results[j];
        if (j != i && same_problem(r, o) && o->runs && !o->flagged &&
            o->med < r->med)
          r->rank++;
      }
    }
  }
}

void bench_results_free(void) {
  for (int i = 0; i < bench_nresults; ++i) {
    free(bench_results[i].t), free(bench_results[i].res);
    free(bench_results[i].xfer), free(bench_results[i].dev);
    free(bench_results[i].order);
  }
  free(bench_results);
  bench_results = NULL;
  bench_nresults = capresults = 0;
}
