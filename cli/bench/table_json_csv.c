/* The outputs: the table on stdout, results.json, results.csv and
   runs.csv. */
#include "bench.h"

const char *prec_name(axb_dtype t) {
  return t == AXB_F64 ? "double" : "single";
}

void impl_label(const result *r, char *buf, size_t len) {
  if (bk_threaded(r->be))
    snprintf(buf, len, "%s/t%d", bk_names[r->be], r->thr);
  else
    snprintf(buf, len, "%s", bk_names[r->be]);
}

static void fmt_num(char *buf, size_t len, const char *f, double v) {
  if (isnan(v))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, f, v);
}

void print_table(FILE *f, const config *c) {
  int short_rows = 0;
  fprintf(f,
          "%-22s %-6s %-14s %6s %-12s %10s %10s %9s %10s %10s %8s %7s %5s "
          "%9s %4s  %s\n",
          "routine", "prec", "matrix", "n", "impl", "median_ms", "mean_ms",
          "stderr_ms", "min_ms", "device_ms", "GFLOP/s", "speedup", "eff",
          "residual", "rank", "note");
  for (int i = 0; i < bench_nresults; ++i) {
    const result *r = &bench_results[i];
    char lab[48], a[7][32];
    impl_label(r, lab, sizeof lab);
    fmt_num(a[0], 32, "%.3f", r->med * 1e3);
    fmt_num(a[1], 32, "%.3f", r->mean * 1e3);
    fmt_num(a[2], 32, "%.3f", r->se * 1e3);
    fmt_num(a[3], 32, "%.3f", r->min * 1e3);
    fmt_num(a[4], 32, "%.2f", r->gflops);
    fmt_num(a[5], 32, "%.2f", r->speedup);
    fmt_num(a[6], 32, "%.3f", r->dev_med * 1e3);
    char e[16], res[16], rk[16];
    fmt_num(e, sizeof e, "%.2f", r->eff);
    fmt_num(res, sizeof res, "%.3g", r->maxres);
    snprintf(rk, sizeof rk, r->rank ? "%d" : "-", r->rank);
    if (r->runs > 0 && r->runs < c->reps) { /* cut short by Ctrl-C */
      strcat(rk, "*");
      short_rows++;
    }
    const char *note = r->flagged
                           ? (r->note[0] ? r->note : "FLAGGED: residual >= 30")
                           : r->note;
    char nb[200];
    if (r->flagged && r->note[0])
      snprintf(nb, sizeof nb, "FLAGGED: %s", note);
    else
      snprintf(nb, sizeof nb, "%s", note);
    fprintf(f,
            "%-22s %-6s %-14.14s %6lld %-12s %10s %10s %9s %10s %10s %8s "
            "%7s %5s %9s %4s  %s\n",
            rt_names[r->rt], prec_name(r->dt), r->matrix, (long long)r->n, lab,
            a[0], a[1], a[2], a[3], a[6], a[4], a[5], e, res, rk, nb);
  }
  if (short_rows)
    fprintf(f,
            "*: cut short by Ctrl-C, fewer than %d runs (see runs in "
            "results.csv): its statistics and rank are less certain\n",
            c->reps);
  int most = 0; /* the baseline's largest thread count */
  for (int i = 0; i < bench_nresults; ++i)
    if (bench_results[i].be == c->baseline && bench_results[i].runs &&
        bench_results[i].thr > most)
      most = bench_results[i].thr;
  char other[64] = "";
  if (c->baseline >= 0 && bk_threaded(c->baseline) && most > 0)
    snprintf(other, sizeof other, "; other rows: %s/t%d", bk_names[c->baseline],
             most);
  if (c->baseline >= 0)
    fprintf(f,
            "speedup: median time of %s (same threads where measured%s) / "
            "median time; device_ms: median GPU time of the operation alone "
            "(CUDA events; the other times are wall clock, transfers "
            "included); eff: speedup over 1 thread / threads; "
            "residual: max over runs of ||b-Ax||/(||A|| ||x|| n eps), "
            "flagged at >= 30\n",
            bk_names[c->baseline], other);
}

static void csv_num(FILE *f, double v) {
  if (isnan(v) || isinf(v))
    fputs(",", f);
  else
    fprintf(f, ",%.9g", v);
}

int write_csv(const char *dir) {
  char p[1200];
  snprintf(p, sizeof p, "%s/results.csv", dir);
  FILE *f = fopen(p, "w");
  if (!f) return 0;
  fputs("routine,precision,matrix,n,batch,backend,threads,runs,median_s,"
        "mean_s,stderr_s,min_s,device_median_s,transfer_median_s,gflops,"
        "speedup,efficiency,max_residual,flagged,rank,note\n",
        f);
  for (int i = 0; i < bench_nresults; ++i) {
    const result *r = &bench_results[i];
    fprintf(f, "%s,%s,%s,%lld,%lld,%s,%d,%d", rt_names[r->rt], prec_name(r->dt),
            r->matrix, (long long)r->n, (long long)r->batch, bk_names[r->be],
            r->thr, r->runs);
    csv_num(f, r->med);
    csv_num(f, r->mean);
    csv_num(f, r->se);
    csv_num(f, r->min);
    csv_num(f, r->dev_med);
    csv_num(f, r->xfer_med);
    csv_num(f, r->gflops);
    csv_num(f, r->speedup);
    csv_num(f, r->eff);
    csv_num(f, r->maxres);
    fprintf(f, ",%d,%d,\"", r->flagged, r->rank);
    for (const char *s = r->note; *s; ++s)
      fputc(*s == '"' ? '\'' : *s, f);
    fputs("\"\n", f);
  }
  int ok = !ferror(f);
  ok &= fclose(f) == 0;
  snprintf(p, sizeof p, "%s/runs.csv", dir);
  if (!(f = fopen(p, "w"))) return 0;
  fputs("routine,precision,matrix,n,batch,backend,threads,run,order,seconds,"
        "transfer_s,device_s,residual\n",
        f);
  for (int i = 0; i < bench_nresults; ++i) {
    const result *r = &bench_results[i];
    for (int j = 0; j < r->runs; ++j) {
      fprintf(f, "%s,%s,%s,%lld,%lld,%s,%d,%d,%d,%.9g,%.9g", rt_names[r->rt],
              prec_name(r->dt), r->matrix, (long long)r->n, (long long)r->batch,
              bk_names[r->be], r->thr, j, r->order[j], r->t[j], r->xfer[j]);
      csv_num(f, r->dev[j]);
      csv_num(f, r->res[j]);
      fputc('\n', f);
    }
  }
  ok &= !ferror(f);
  ok &= fclose(f) == 0;
  return ok;
}

static void json_arr(FILE *f, const double *v, int n) {
  fputc('[', f);
  for (int i = 0; i < n; ++i) {
    if (i) fputs(", ", f);
    cli_json_number(f, v[i]);
  }
  fputc(']', f);
}

int write_json(const char *dir, const config *c, int argc, char **argv,
               int interrupted) {
  char p[1200];
  snprintf(p, sizeof p, "%s/results.json", dir);
  FILE *f = fopen(p, "w");
  if (!f) return 0;
  fputs("{\"tool\": \"axb bench\", \"version\": ", f);
  cli_json_string(f, axb_version());
  fputs(", \"command\": [", f);
  for (int i = 0; i < argc; ++i) {
    if (i) fputs(", ", f);
    cli_json_string(f, argv[i]);
  }
  fprintf(f, "], \"preset\": ");
  cli_json_string(f, c->preset);
  fprintf(f, ", \"seed\": %llu, \"reps\": %d, \"warmup\": %d, \"baseline\": ",
          (unsigned long long)c->seed, c->reps, c->warmup);
  cli_json_string(f, c->baseline >= 0 ? bk_names[c->baseline] : NULL);
  fprintf(f, ", \"interrupted\": %s, \"cores\": %ld, \"blas\": ",
          interrupted ? "true" : "false", bench_cores());
  cli_json_string(f, axb_blas_info());
  fputs(", \"anchors\": {", f);
  for (int be = BK_OPENBLAS, k = 0; be < BK_COUNT; ++be)
    if (axb_anchor_available(bk_anchor_id(be))) {
      fprintf(f, "%s\"%s\": ", k++ ? ", " : "", bk_names[be]);
      cli_json_string(f, axb_anchor_version(bk_anchor_id(be)));
    }
  fputs("}", f);
  fputs(", \"source_reported\": ", f);
  cli_json_string(f, c->source_note);
  fputs(", \"results\": [", f);
  for (int i = 0; i < bench_nresults; ++i) {
    const result *r = &bench_results[i];
    fputs(i ? ",\n  {" : "\n  {", f);
    fputs("\"routine\": ", f);
    cli_json_string(f, rt_names[r->rt]);
    fprintf(f, ", \"precision\": \"%s\", \"matrix\": ", prec_name(r->dt));
    cli_json_string(f, r->matrix);
    fprintf(f,
            ", \"n\": %lld, \"batch\": %lld, \"backend\": \"%s\", "
            "\"threads\": %d, \"runs\": %d",
            (long long)r->n, (long long)r->batch, bk_names[r->be], r->thr,
            r->runs);
    const char *k[] = {"median_s",    "mean_s",          "stderr_s",
                       "min_s",       "device_median_s", "transfer_median_s",
                       "gflops",      "speedup",         "efficiency",
                       "max_residual"};
    double v[] = {r->med,      r->mean,   r->se,      r->min, r->dev_med,
                  r->xfer_med, r->gflops, r->speedup, r->eff, r->maxres};
    for (int j = 0; j < 10; ++j) {
      fprintf(f, ", \"%s\": ", k[j]);
      cli_json_number(f, v[j]);
    }
    fprintf(f, ", \"flagged\": %s, \"rank\": %d, \"note\": ",
            r->flagged ? "true" : "false", r->rank);
    cli_json_string(f, r->note);
    fputs(", \"times_s\": ", f);
    json_arr(f, r->t, r->runs);
    fputs(", \"transfer_s\": ", f);
    json_arr(f, r->xfer, r->runs);
    fputs(", \"device_s\": ", f);
    json_arr(f, r->dev, r->runs);
    fputs(", \"residuals\": ", f);
    json_arr(f, r->res, r->runs);
    fputc('}', f);
  }
  fputs("\n]}\n", f);
  int ok = !ferror(f);
  return (fclose(f) == 0) && ok;
}
