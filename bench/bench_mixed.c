/*
 * bench_mixed (issue 22): axb's mixed-precision solves (axb_dsxsv_ex on
 * device arrays: scaling, low-precision factor, FP64 refinement and the
 * certificate all inside the time) beside every cuSOLVER anchor, same
 * process, same matrices, same device arrays:
 *   DDgesv (FP64 LU + solve), the IRS solvers DSgesv, DHgesv, DBgesv,
 *   DXgesv (classic refinement) and IRSXgesv with GMRES refinement (DH, DX);
 *   SPD: cuSOLVER dpotrf + dpotrs beside axb's Cholesky form.
 *
 *   bench_mixed [--reps R] [--kinds uniform,cond6,spd] [--json FILE]
 *               [--precisions auto,fp32,...] [--no-irs] [--phases] N ...
 *                              --precisions: axb's factor precisions to
 *                              run (default all); --no-irs: DDgesv only;
 *                              --phases: axb's scan / factor / residual /
 *                              solve times of the last run
 *   bench_mixed --kappa N      the kappa study: iterations and fallbacks of
 *                              every factor precision for kappa = 1e2..1e14
 *                              and rows scaled by 1e+-100, at order N
 *
 * Times are wall-clock medians of R runs (default 3) after one warm-up, the
 * device idle before each; each run starts from a device copy of A (not
 * timed).  Every answer is judged by the bench itself: r = b - A x on the
 * device in FP64, ratio = ||r||inf / (||A||inf ||x||inf n eps) (< 30
 * certified); a cuSOLVER IRS run that fell back reports its iter < 0.
 */
#include "axb.h"
#include "bench_check.h"
#include "bench_time.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static axb_handle H;
static cusolverDnHandle_t CS;
static cublasHandle_t BL;
static int REPS = 3;
static FILE *JS;
static int NO_IRS;        /* --no-irs: skip cuSOLVER's IRS solvers */
static int PHASES;        /* --phases: axb's phase times (last run) */
static const char *PRECS; /* --precisions: a comma list, or NULL */

/* Whether --precisions lets axb's factor precision p run. */
static int want(axb_factor_precision p) {
  if (!PRECS) return 1;
  const char *name = axb_factor_precision_name(p), *s = PRECS;
  size_t len = strlen(name);
  for (;;) {
    if (!strncmp(s, name, len) && (s[len] == ',' || s[len] == '\0')) return 1;
    s = strchr(s, ',');
    if (!s) return 0;
    ++s;
  }
}

typedef struct {
  int64_t n;
  const char *kind;
  int spd;
  double anorm;
  axb_dense Ad; /* the generated A on the host */
  double *hA, *hb;
  double *dA0, *dA, *db, *dx, *dr;
  void *work;
  size_t lwork;
  int *dipiv, *dinfo;
} prob;

static void prob_make(prob *p, int64_t n, const char *kind) {
  memset(p, 0, sizeof *p);
  p->n = n;
  p->kind = kind;
  p->spd = !strcmp(kind, "spd");
  char spec[128];
  if (!strcmp(kind, "uniform"))
    snprintf(spec, sizeof spec, "uniform:%lld", (long long)n);
  else if (p->spd)
    snprintf(spec, sizeof spec, "spd:%lld", (long long)n);
  else if (!strncmp(kind, "cond", 4))
    snprintf(spec, sizeof spec, "cond:%lld,kappa=1e%s", (long long)n, kind + 4);
  else if (!strncmp(kind, "rows", 4)) /* uniform, rows scaled 1e+-100 */
    snprintf(spec, sizeof spec, "uniform:%lld", (long long)n);
  axb_gen_spec gs;
  OK(axb_gen_parse(NULL, spec, &gs));
  OK(axb_gen_dense(NULL, &gs, AXB_F64, &p->Ad));
  p->hA = p->Ad.data;
  if (!strncmp(kind, "rows", 4)) {
    uint64_t s = 7;
    for (int64_t i = 0; i < n; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      double e = floor(-100 + 200 * (double)(s >> 11) / 9007199254740992.0);
      for (int64_t j = 0; j < n; ++j)
        p->hA[i + j * n] *= pow(10.0, e);
    }
  }
  p->hb = malloc(sizeof(double) * (size_t)n);
  uint64_t s = 99;
  for (int64_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p->hb[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
  }
  p->anorm = 0;
  for (int64_t i = 0; i < n; ++i) {
    double r = 0;
    for (int64_t j = 0; j < n; ++j)
      r += fabs(p->hA[i + j * n]);
    if (r > p->anorm) p->anorm = r;
  }
  size_t nn = (size_t)n * (size_t)n;
  CU(cudaMalloc((void **)&p->dA0, nn * sizeof(double)));
  CU(cudaMalloc((void **)&p->dA, nn * sizeof(double)));
  CU(cudaMalloc((void **)&p->db, (size_t)n * sizeof(double)));
  CU(cudaMalloc((void **)&p->dx, (size_t)n * sizeof(double)));
  CU(cudaMalloc((void **)&p->dr, (size_t)n * sizeof(double)));
  CU(cudaMalloc((void **)&p->dipiv, (size_t)n * sizeof(int)));
  CU(cudaMalloc((void **)&p->dinfo, sizeof(int)));
  CU(cudaMemcpy(p->dA0, p->hA, nn * sizeof(double), cudaMemcpyHostToDevice));
  CU(cudaMemcpy(p->db, p->hb, (size_t)n * sizeof(double),
                cudaMemcpyHostToDevice));
}

static void prob_free(prob *p) {
  axb_dense_destroy(&p->Ad);
  free(p->hb);
  cudaFree(p->dA0);
  cudaFree(p->dA);
  cudaFree(p->db);
  cudaFree(p->dx);
  cudaFree(p->dr);
  cudaFree(p->dipiv);
  cudaFree(p->dinfo);
  cudaFree(p->work);
}

static void need_work(prob *p, size_t bytes) {
  if (bytes <= p->lwork) return;
  cudaFree(p->work);
  CU(cudaMalloc(&p->work, bytes ? bytes : 1));
  p->lwork = bytes;
}

static void reset(prob *p) {
  size_t nn = (size_t)p->n * (size_t)p->n;
  CU(cudaMemcpy(p->dA, p->dA0, nn * sizeof(double), cudaMemcpyDeviceToDevice));
  CU(cudaMemset(p->dx, 0, (size_t)p->n * sizeof(double)));
  CU(cudaDeviceSynchronize());
}

/* The bench's own certificate of dx against the original A. */
static double ratio(prob *p) {
  int64_t n = p->n;
  const double one = 1, minus = -1;
  CU(cudaMemcpy(p->dr, p->db, (size_t)n * sizeof(double),
                cudaMemcpyDeviceToDevice));
  OK(cublasDgemv_64(BL, CUBLAS_OP_N, n, n, &minus, p->dA0, n, p->dx, 1, &one,
                    p->dr, 1));
  double *r = malloc(2 * sizeof(double) * (size_t)n), *x = r + n;
  CU(cudaMemcpy(r, p->dr, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  CU(cudaMemcpy(x, p->dx, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  double rn = 0, xn = 0;
  for (int64_t i = 0; i < n; ++i) {
    rn = fmax(rn, fabs(r[i]));
    xn = fmax(xn, fabs(x[i]));
  }
  free(r);
  if (isnan(rn) || isnan(xn)) return INFINITY;
  return xn == 0 ? (rn == 0 ? 0 : INFINITY)
                 : rn / p->anorm / xn / (double)n / 1.1102230246251565e-16;
}

typedef struct {
  double ms, ratio;
  long long iter, gmres;
  const char *prec; /* the factor precision that produced the answer */
  const char *req;  /* axb: the precision asked for */
} res;

/* ---- axb ---------------------------------------------------------------- */

static res run_axb(prob *p, axb_factor_precision fp, axb_refine ref) {
  double t[64];
  res r = {0};
  axb_mixed_opts o;
  axb_mixed_opts_default(&o);
  o.precision = fp;
  o.refine = ref;
  axb_mixed_info inf;
  int64_t info;
  for (int k = 0; k <= REPS; ++k) {
    reset(p);
    double t0 = bench_now();
    axb_status st = axb_dsxsv_ex(H, p->spd, AXB_LOWER, 1, p->n, 1, p->dA, p->n,
                                 p->db, p->n, p->dx, p->n, &o, &inf, &info);
    double t1 = bench_now();
    if (st) fprintf(stderr, "axb: %s: %s\n", axb_strerror(st), axb_detail(H));
    if (k) t[k - 1] = 1e3 * (t1 - t0);
  }
  r.ms = bench_median(t, REPS);
  r.ratio = ratio(p);
  r.iter = inf.iter;
  r.gmres = inf.gmres_iters;
  r.prec = axb_factor_precision_name(inf.precision);
  r.req = axb_factor_precision_name(fp);
  if (PHASES)
    printf("# phases (ms, last run, %s asked): scan %.2f factor %.2f "
           "residual %.2f solve %.2f total %.2f\n",
           r.req, 1e3 * inf.t_scan, 1e3 * inf.t_factor, 1e3 * inf.t_residual,
           1e3 * inf.t_solve, 1e3 * inf.t_total);
  return r;
}

/* ---- cuSOLVER ----------------------------------------------------------- */

typedef enum {
  V_DD,
  V_DS,
  V_DH,
  V_DB,
  V_DX,
  V_DH_GMRES,
  V_DX_GMRES,
  V_CHOL
} variant;
static const char *vname[] = {"DDgesv",       "DSgesv",       "DHgesv",
                              "DBgesv",       "DXgesv",       "DHgesv-gmres",
                              "DXgesv-gmres", "dpotrf+dpotrs"};

#define IRS_CLASSIC(fn)                                                        \
  do {                                                                         \
    size_t lw = 0;                                                             \
    OK(fn##_bufferSize(CS, n, 1, p->dA, n, p->dipiv, p->db, n, p->dx, n, NULL, \
                       &lw));                                                  \
    need_work(p, lw);                                                          \
    reset(p);                                                                  \
    t0 = bench_now();                                                          \
    OK(fn(CS, n, 1, p->dA, n, p->dipiv, p->db, n, p->dx, n, p->work, lw,       \
          &iter, p->dinfo));                                                   \
    CU(cudaDeviceSynchronize());                                               \
  } while (0)

static res run_cus(prob *p, variant v) {
  double t[64], t0 = 0;
  res r = {0};
  int n = (int)p->n, iter = 0;
  for (int k = 0; k <= REPS; ++k) {
    switch (v) {
    case V_DD: IRS_CLASSIC(cusolverDnDDgesv); break;
    case V_DS: IRS_CLASSIC(cusolverDnDSgesv); break;
    case V_DH: IRS_CLASSIC(cusolverDnDHgesv); break;
    case V_DB: IRS_CLASSIC(cusolverDnDBgesv); break;
    case V_DX: IRS_CLASSIC(cusolverDnDXgesv); break;
    case V_DH_GMRES:
    case V_DX_GMRES: {
      cusolverDnIRSParams_t prm;
      cusolverDnIRSInfos_t inf;
      OK(cusolverDnIRSParamsCreate(&prm));
      OK(cusolverDnIRSInfosCreate(&inf));
      OK(cusolverDnIRSParamsSetSolverPrecisions(
          prm, CUSOLVER_R_64F,
          v == V_DH_GMRES ? CUSOLVER_R_16F : CUSOLVER_R_TF32));
      OK(cusolverDnIRSParamsSetRefinementSolver(prm,
                                                CUSOLVER_IRS_REFINE_GMRES));
      size_t lw = 0;
      OK(cusolverDnIRSXgesv_bufferSize(CS, prm, n, 1, &lw));
      need_work(p, lw);
      reset(p);
      t0 = bench_now();
      OK(cusolverDnIRSXgesv(CS, prm, inf, n, 1, p->dA, n, p->db, n, p->dx, n,
                            p->work, lw, &iter, p->dinfo));
      CU(cudaDeviceSynchronize());
      cusolverDnIRSInfosDestroy(inf);
      cusolverDnIRSParamsDestroy(prm);
      break;
    }
    case V_CHOL: {
      int lw = 0;
      OK(cusolverDnDpotrf_bufferSize(CS, CUBLAS_FILL_MODE_LOWER, n, p->dA, n,
                                     &lw));
      need_work(p, (size_t)lw * sizeof(double));
      reset(p);
      CU(cudaMemcpy(p->dx, p->db, (size_t)n * sizeof(double),
                    cudaMemcpyDeviceToDevice));
      CU(cudaDeviceSynchronize());
      t0 = bench_now();
      OK(cusolverDnDpotrf(CS, CUBLAS_FILL_MODE_LOWER, n, p->dA, n,
                          (double *)p->work, lw, p->dinfo));
      OK(cusolverDnDpotrs(CS, CUBLAS_FILL_MODE_LOWER, n, 1, p->dA, n, p->dx, n,
                          p->dinfo));
      CU(cudaDeviceSynchronize());
      break;
    }
    }
    double t1 = bench_now();
    if (k) t[k - 1] = 1e3 * (t1 - t0);
  }
  r.ms = bench_median(t, REPS);
  r.ratio = ratio(p);
  r.iter = iter;
  r.prec = vname[v];
  return r;
}

static void emit(const prob *p, const char *who, const res *r, double base) {
  printf("%-8s %6lld %-14s %-6s %10.2f %7.2fx %9.2g %6lld %6lld\n", p->kind,
         (long long)p->n, who, r->prec ? r->prec : "", r->ms, base / r->ms,
         r->ratio, r->iter, r->gmres);
  if (JS)
    fprintf(JS,
            "{\"kind\": \"%s\", \"n\": %lld, \"solver\": \"%s\", \"factor\": "
            "\"%s\", \"requested\": \"%s\", \"ms\": %.4f, "
            "\"speedup_vs_anchor\": %.4f, \"ratio\": %.4g, \"iter\": %lld, "
            "\"gmres\": %lld}\n",
            p->kind, (long long)p->n, who, r->prec ? r->prec : "",
            r->req ? r->req : "", r->ms, base / r->ms, r->ratio, r->iter,
            r->gmres);
  fflush(stdout);
}

static void bench_size(int64_t n, const char *kind) {
  prob p;
  prob_make(&p, n, kind);
  printf("%-8s %6s %-14s %-6s %10s %8s %9s %6s %6s\n", "kind", "n", "solver",
         "factor", "ms", "speedup", "ratio", "iter", "gmres");
  if (p.spd) {
    res a = run_cus(&p, V_CHOL);
    emit(&p, "cusolver", &a, a.ms);
    const axb_factor_precision ps[] = {AXB_FACTOR_AUTO, AXB_FACTOR_FP16,
                                       AXB_FACTOR_FP32, AXB_FACTOR_FP64};
    for (int i = 0; i < 4; ++i) {
      if (!want(ps[i])) continue;
      res r = run_axb(&p, ps[i], AXB_REFINE_AUTO);
      emit(&p, "axb", &r, a.ms);
    }
  } else {
    res a = run_cus(&p, V_DD);
    emit(&p, "cusolver", &a, a.ms);
    for (int v = V_DS; v <= V_DX_GMRES && !NO_IRS; ++v) {
      res r = run_cus(&p, (variant)v);
      emit(&p, "cusolver", &r, a.ms);
    }
    const axb_factor_precision ps[] = {AXB_FACTOR_AUTO, AXB_FACTOR_TF32,
                                       AXB_FACTOR_FP16, AXB_FACTOR_BF16,
                                       AXB_FACTOR_FP32, AXB_FACTOR_FP64};
    for (int i = 0; i < 6; ++i) {
      if (!want(ps[i])) continue;
      res r = run_axb(&p, ps[i], AXB_REFINE_AUTO);
      emit(&p, "axb", &r, a.ms);
    }
  }
  prob_free(&p);
}

/* kappa study: every factor precision, iterations and fallbacks. */
static void kappa_study(int64_t n) {
  const char *kinds[] = {"cond2",  "cond4",  "cond6",  "cond8",
                         "cond10", "cond12", "cond14", "rows100"};
  const axb_factor_precision ps[] = {AXB_FACTOR_TF32, AXB_FACTOR_FP16,
                                     AXB_FACTOR_BF16, AXB_FACTOR_FP32};
  int saved = REPS;
  REPS = 1;
  printf("%-8s %6s %-14s %-6s %10s %8s %9s %6s %6s\n", "kind", "n", "solver",
         "factor", "ms", "speedup", "ratio", "iter", "gmres");
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
    prob p;
    prob_make(&p, n, kinds[k]);
    res a = run_cus(&p, V_DD);
    emit(&p, "cusolver", &a, a.ms);
    for (int i = 0; i < 4; ++i) {
      char who[32];
      snprintf(who, sizeof who, "axb-%s", axb_factor_precision_name(ps[i]));
      res r = run_axb(&p, ps[i], AXB_REFINE_AUTO);
      emit(&p, who, &r, a.ms);
    }
    prob_free(&p);
  }
  REPS = saved;
}

int main(int argc, char **argv) {
  int count = 0;
  if (axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    printf("bench_mixed: no GPU\n");
    return 77;
  }
  OK(axb_handle_create(&H, AXB_BACKEND_CUDA, 0));
  OK(cusolverDnCreate(&CS));
  OK(cublasCreate(&BL));
  const char *kinds = "uniform,cond6,spd";
  int64_t kappa_n = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      REPS = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--kinds") && i + 1 < argc)
      kinds = argv[++i];
    else if (!strcmp(argv[i], "--json") && i + 1 < argc)
      JS = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--kappa") && i + 1 < argc)
      kappa_n = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--precisions") && i + 1 < argc)
      PRECS = argv[++i];
    else if (!strcmp(argv[i], "--phases"))
      PHASES = 1;
    else if (!strcmp(argv[i], "--no-irs"))
      NO_IRS = 1;
  }
  if (REPS < 1 || REPS > 60) REPS = 3;
  char dev[256];
  size_t mem = 0;
  axb_cuda_device_info(0, dev, sizeof dev, &mem);
  int cv = 0;
  cusolverGetProperty(MAJOR_VERSION, &cv);
  printf("# bench_mixed on %s, cuSOLVER major %d, medians of %d\n", dev, cv,
         REPS);
  if (kappa_n > 0) kappa_study(kappa_n);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--reps") || !strcmp(argv[i], "--kinds") ||
        !strcmp(argv[i], "--json") || !strcmp(argv[i], "--kappa") ||
        !strcmp(argv[i], "--precisions")) {
      ++i;
      continue;
    }
    int64_t n = atoll(argv[i]);
    if (n <= 0) continue;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", kinds);
    for (char *k = strtok(buf, ","); k; k = strtok(NULL, ","))
      bench_size(n, k);
  }
  if (JS) fclose(JS);
  cublasDestroy(BL);
  cusolverDnDestroy(CS);
  axb_handle_destroy(H);
  return 0;
}
