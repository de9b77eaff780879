/* issue28k scratch: the driver against our plain routine in CPU time
   (axb__now interposed: the report's phases become process CPU time), one
   process per library, round robin; min and median over R reps. */
#define _POSIX_C_SOURCE 200809L
#include "axb.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
double axb__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double med(double *v, int k) {
  double s[64];
  memcpy(s, v, k * sizeof *s);
  qsort(s, k, sizeof *s, cmp);
  return s[k / 2];
}
static double mn(double *v, int k) {
  double m = v[0];
  for (int i = 1; i < k; ++i)
    m = v[i] < m ? v[i] : m;
  return m;
}
int main(int argc, char **argv) {
  int64_t n = atoi(argv[1]);
  int R = atoi(argv[2]), th = atoi(argv[3]), chol = !strcmp(argv[4], "chol");
  axb_handle h;
  axb_handle_create(&h, AXB_BACKEND_CPU, 0);
  axb_set_threads(h, th);
  char text[64];
  snprintf(text, sizeof text, "%s:%lld,seed=42", chol ? "spd" : "uniform",
           (long long)n);
  axb_gen_spec spec;
  axb_dense A = {0};
  if (axb_gen_parse(h, text, &spec) || axb_gen_dense(h, &spec, AXB_F64, &A))
    return 1;
  double *W = malloc(n * n * 8), *X = malloc(n * 8), *B = calloc(n, 8);
  int64_t *ip = malloc(n * 8);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      B[i] += ((double *)A.data)[i + j * n];
  double t[2][64], ph[7][64];
  for (int r = -1; r < R; ++r)
    for (int k = 0; k < 2; ++k) {
      memcpy(W, A.data, n * n * 8);
      memcpy(X, B, n * 8);
      int64_t info;
      axb_report rep;
      axb_solve_opts o;
      axb_solve_opts_default(&o);
      o.method = chol ? AXB_METHOD_CHOLESKY : AXB_METHOD_LU;
      axb_dense Xd = axb_dense_wrap(n, 1, n, AXB_F64, X);
      double t0 = axb__now();
      int st = k == 0 ? (chol ? axb_dposv(h, AXB_LOWER, n, 1, W, n, X, n, &info)
                              : axb_dgesv(h, n, 1, W, n, ip, X, n, &info))
                      : axb_solve(h, &A, &Xd, &o, &rep);
      double dt = axb__now() - t0;
      if (st) return printf("status %d\n", st), 1;
      if (r < 0) continue;
      t[k][r] = dt;
      if (k == 1) {
        double v[7] = {rep.t_copy,     rep.t_factor, rep.t_solve, rep.t_rcond,
                       rep.t_backward, rep.t_check,  rep.t_total};
        for (int q = 0; q < 7; ++q)
          ph[q][r] = v[q];
      }
    }
  printf("%s n=%lld th=%d CPU ms  plain med %.3f min %.3f | driver med %.3f "
         "min %.3f | ratio med %.3f min %.3f\n  phases med: copy %.3f factor "
         "%.3f solve %.3f rcond %.3f backward %.3f\n  phases min: copy %.3f "
         "factor %.3f solve %.3f rcond %.3f backward %.3f\n",
         argv[4], (long long)n, th, 1e3 * med(t[0], R), 1e3 * mn(t[0], R),
         1e3 * med(t[1], R), 1e3 * mn(t[1], R), med(t[1], R) / med(t[0], R),
         mn(t[1], R) / mn(t[0], R), 1e3 * med(ph[0], R), 1e3 * med(ph[1], R),
         1e3 * med(ph[2], R), 1e3 * med(ph[3], R), 1e3 * med(ph[4], R),
         1e3 * mn(ph[0], R), 1e3 * mn(ph[1], R), 1e3 * mn(ph[2], R),
         1e3 * mn(ph[3], R), 1e3 * mn(ph[4], R));
  return 0;
}
