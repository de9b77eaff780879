/* gnuplot plots: time / GFLOP/s / speedup against n per group (with
   device-time lines), and --plot-history's residual histories. */
#include "bench.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

static int have_gnuplot(void) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *s = strtok(buf, ":"); s; s = strtok(NULL, ":")) {
    char p[4200];
    snprintf(p, sizeof p, "%s/gnuplot", *s ? s : ".");
    if (access(p, X_OK) == 0) return 1;
  }
  return 0;
}

static void sanitize(char *s) {
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'))
      *s = '_';
}

/* Plot group of a result: files are plotted together vs n. */
static void group_of(const result *r, const config *c, char *buf, size_t len) {
  snprintf(buf, len, "%s_%s_%s", rt_names[r->rt], prec_name(r->dt),
           c->nfile ? "files" : r->matrix);
  sanitize(buf);
}

static int cmp_n(const void *a, const void *b) {
  const result *x = *(result *const *)a, *y = *(result *const *)b;
  return x->n < y->n ? -1 : x->n > y->n;
}

/* Data files and a gnuplot script; returns the number of groups plotted. */
static int write_plots(const char *dir, const config *c, FILE *gp) {
  int *done = calloc((size_t)bench_nresults + 1, sizeof *done);
  result **sel = malloc(((size_t)bench_nresults + 1) * sizeof *sel);
  if (!done || !sel) {
    free(done), free(sel);
    return 0;
  }
  int groups = 0;
  for (int i = 0; i < bench_nresults; ++i) {
    if (done[i]) continue;
    char g[256];
    group_of(&bench_results[i], c, g, sizeof g);
    /* Implementations of this group, and whether any has >= 2 sizes. */
    char dat[1400];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, g);
    FILE *f = fopen(dat, "w");
    if (!f) continue;
    char titles[64][48];
    int hasdev[64];
    int nt = 0, multi = 0, anyspeed = 0, anyflops = 0, anydev = 0;
    for (int j = i; j < bench_nresults; ++j) {
      char g2[256];
      group_of(&bench_results[j], c, g2, sizeof g2);
      if (done[j] || strcmp(g, g2) != 0) continue;
      /* one implementation: all its results in this group */
      int ns = 0;
      for (int k = j; k < bench_nresults; ++k) {
        char g3[256];
        group_of(&bench_results[k], c, g3, sizeof g3);
        if (done[k] || strcmp(g, g3) != 0 ||
            bench_results[k].be != bench_results[j].be ||
            bench_results[k].thr != bench_results[j].thr)
          continue;
        done[k] = 1;
        if (bench_results[k].runs && !bench_results[k].flagged)
          sel[ns++] = &bench_results[k];
      }
      if (ns == 0 || nt == 64) continue;
      qsort(sel, (size_t)ns, sizeof *sel, cmp_n);
      multi |= ns >= 2;
      impl_label(sel[0], titles[nt], sizeof titles[nt]);
      hasdev[nt] = 0;
      /* n, wall median, GFLOP/s (wall), speedup, device median, GFLOP/s
         (device) */
      fprintf(f, "# %s\n", titles[nt]);
      for (int k = 0; k < ns; ++k) {
        const result *q = sel[k];
        double gd = q->dev_med > 0 ? q->gflops * q->med / q->dev_med : NAN;
        fprintf(f, "%lld %.9g %.9g ", (long long)q->n, q->med, q->gflops);
        fputs(isnan(q->speedup) ? "NaN" : "", f);
        if (!isnan(q->speedup)) fprintf(f, "%.9g", q->speedup);
        anyspeed |= !isnan(q->speedup);
        anyflops |= !isnan(q->gflops);
        if (isnan(q->dev_med))
          fputs(" NaN NaN\n", f);
        else
          fprintf(f, " %.9g %.9g\n", q->dev_med, gd);
        hasdev[nt] |= !isnan(q->dev_med);
      }
      anydev |= hasdev[nt];
      fputs("\n\n", f);
      nt++;
    }
    fclose(f);
    if (!multi || nt == 0) {
      remove(dat);
      continue;
    }
    groups++;
    static const char *const term[2][2] = {
        {"svg",
         "set terminal svg size 900,560 dynamic noenhanced font 'sans,12'"},
        {"png",
         "set terminal pngcairo size 900,560 noenhanced font 'sans,11'"}};
    for (int t = 0; t < 2; ++t) {
      for (int kind = 0; kind < 3; ++kind) {
        if (kind == 2 && (!anyspeed || c->baseline < 0)) continue;
        if (kind == 1 && !anyflops) continue; /* sparse: no flop count */
        static const char *const suffix[3] = {"time", "gflops", "speedup"};
        fprintf(gp, "%s\nset output '%s_%s.%s'\n", term[t][1], g, suffix[kind],
                term[t][0]);
        fprintf(gp, "reset\nset grid\nset key outside right top\n"
                    "set xlabel 'n'\nset logscale x 2\nset format x '%%g'\n");
        if (kind == 0)
          fprintf(gp,
                  "set logscale y\nset format y '%%g'\nset ylabel 'median "
                  "time (s)%s'\n",
                  anydev ? "; dashed: GPU device time" : "");
        else if (kind == 1)
          fprintf(gp,
                  "set logscale y\nset format y '%%g'\nset ylabel 'GFLOP/s "
                  "(median)%s'\n",
                  anydev ? "; dashed: from GPU device time" : "");
        else
          fprintf(gp,
                  "set ylabel 'speedup over %s (median wall time)'\nset "
                  "yrange [0:*]\n",
                  bk_names[c->baseline]);
        fprintf(gp, "set title '%s: %s'\n", g,
                kind == 0 ? "time vs n"
                          : (kind == 1 ? "GFLOP/s vs n" : "speedup vs n"));
        fputs("plot ", gp);
        for (int k = 0; k < nt; ++k) {
          fprintf(gp,
                  "%s'%s.dat' index %d using 1:%d with linespoints lw 2 "
                  "lc %d pt %d title '%s'",
                  k ? ", " : "", g, k, kind + 2, k + 1, k % 12 + 1, titles[k]);
          /* GPU: the operation alone (CUDA events), dashed, same colour;
             the solid line is the wall clock with the transfers. */
          if (hasdev[k] && kind < 2)
            fprintf(gp,
                    ", '%s.dat' index %d using 1:%d with linespoints lw 2 "
                    "dt 2 lc %d pt %d title '%s (device)'",
                    g, k, kind == 0 ? 5 : 6, k + 1, k % 12 + 1, titles[k]);
        }
        fputs("\nunset output\n", gp);
      }
    }
  }
  free(done);
  free(sel);
  return groups;
}

/* gnuplot SCRIPT in DIR (its errors to DIR/gnuplot.log); 0 on success. */
static int run_gnuplot(const char *dir, const char *script) {
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(127);
    FILE *lg = freopen("gnuplot.log", "w", stderr);
    (void)lg;
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  return pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
         WEXITSTATUS(status) != 0;
}

/* The data and script are written in any case (a machine without gnuplot
   still leaves what another renders with `gnuplot plots.gp` in DIR). */
void bench_plots(const char *dir, const config *c) {
  if (!c->plots) return;
  char p[1200];
  snprintf(p, sizeof p, "%s/plots.gp", dir);
  FILE *gp = fopen(p, "w");
  if (!gp) return;
  int groups = write_plots(dir, c, gp);
  fclose(gp);
  if (groups == 0) {
    remove(p);
    fprintf(stderr, "axb bench: no series with two or more sizes: no plots\n");
    return;
  }
  if (!have_gnuplot()) {
    fprintf(stderr,
            "axb bench: gnuplot is not installed: plots not rendered (run "
            "'gnuplot plots.gp' in %s)\n",
            dir);
    return;
  }
  if (run_gnuplot(dir, "plots.gp"))
    fprintf(stderr, "axb bench: gnuplot failed (see %s/gnuplot.log)\n", dir);
  else
    fprintf(stderr, "axb bench: %d plot group(s) in %s (SVG and PNG)\n", groups,
            dir);
}

/* ---- convergence histories (axb solve --history FILE.csv) ---- */

/* Plot ||r_k||/||b|| vs k (log y) of every history file into
   DIR/history.{dat,gp,svg,png}. */
int plot_histories(const config *c) {
  const char *dir = c->out ? c->out : ".";
  if (c->out && !mkdir_p(dir)) {
    cli_error("%s: cannot create: %s", dir, strerror(errno));
    return CLI_INPUT;
  }
  char p[1200];
  snprintf(p, sizeof p, "%s/history.dat", dir);
  FILE *f = fopen(p, "w");
  if (!f) return cli_error("%s: %s", p, strerror(errno)), CLI_INPUT;
  char titles[MAXL][64];
  for (int i = 0; i < c->nhist; ++i) {
    FILE *h = fopen(c->hist[i], "r");
    if (!h) {
      fclose(f);
      return cli_error("%s: %s", c->hist[i], strerror(errno)), CLI_INPUT;
    }
    char line[256];
    int64_t rows = 0, lineno = 0;
    fprintf(f, "# %s\n", c->hist[i]);
    while (fgets(line, sizeof line, h)) {
      long long k;
      double v;
      char tail;
      lineno++;
      if (lineno == 1 && strncmp(line, "iteration,", 10) == 0) continue;
      if (sscanf(line, "%lld,%lf %c", &k, &v, &tail) != 2) {
        fclose(h), fclose(f);
        return cli_error("%s:%lld: not 'iteration,relative_residual'",
                         c->hist[i], (long long)lineno),
               CLI_INPUT;
      }
      fprintf(f, "%lld %.9g\n", k, v > 0 ? v : NAN);
      rows++;
    }
    fclose(h);
    fputs("\n\n", f);
    if (rows == 0) {
      fclose(f);
      return cli_error("%s: no history rows", c->hist[i]), CLI_INPUT;
    }
    const char *base = strrchr(c->hist[i], '/');
    snprintf(titles[i], sizeof titles[i], "%s", base ? base + 1 : c->hist[i]);
    for (char *q = titles[i]; *q; ++q)
      if (*q == '\'' || *q == '\\') *q = '_';
  }
  fclose(f);
  snprintf(p, sizeof p, "%s/history.gp", dir);
  FILE *gp = fopen(p, "w");
  if (!gp) return cli_error("%s: %s", p, strerror(errno)), CLI_INPUT;
  static const char *const term[2][2] = {
      {"svg", "set terminal svg size 900,560 dynamic noenhanced font "
              "'sans,12'"},
      {"png", "set terminal pngcairo size 900,560 noenhanced font 'sans,11'"}};
  for (int t = 0; t < 2; ++t) {
    fprintf(gp, "%s\nset output 'history.%s'\n", term[t][1], term[t][0]);
    fputs("reset\nset grid\nset key outside right top\nset logscale y\n"
          "set format y '%.0e'\nset xlabel 'iteration'\n"
          "set ylabel '||r_k|| / ||b|| (recurrence)'\n"
          "set title 'convergence history'\nplot ",
          gp);
    for (int i = 0; i < c->nhist; ++i)
      fprintf(gp,
              "%s'history.dat' index %d using 1:2 with lines lw 2 dt %d "
              "title '%s'",
              i ? ", " : "", i, i % 5 + 1, titles[i]);
    fputs("\nunset output\n", gp);
  }
  fclose(gp);
  if (!have_gnuplot()) {
    fprintf(stderr,
            "axb bench: gnuplot is not installed: history.gp not rendered "
            "(run 'gnuplot history.gp' in %s)\n",
            dir);
    return CLI_OK;
  }
  if (run_gnuplot(dir, "history.gp")) {
    fprintf(stderr, "axb bench: gnuplot failed (see %s/gnuplot.log)\n", dir);
    return CLI_INPUT;
  }
  fprintf(stderr, "axb bench: %s/history.svg and history.png\n", dir);
  return CLI_OK;
}
