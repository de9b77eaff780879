/*
 * bench_sparse: axb's sparse GPU kernels and solvers against cuSPARSE, same
 * process, same matrices, same stream (docs/PERFORMANCE.md, "Sparse on the
 * GPU").
 *
 *     bench_sparse [--reps R] [--no-solve] [--maxit N] [--auto] MATRIX...
 *     (--auto: per matrix only the cuSPARSE anchor and AUTO, i.e.
 *     axb_sparse_solve with default options, on the CUDA and CPU handles;
 *     --maxit: the anchor's and the solvers' iteration cap, default 10000)
 *
 * MATRIX is a Matrix Market file or a generator spec ("poisson3d:100").
 * For each matrix:
 *   1. SpMV y = A x in double and float: every VECTOR width, MERGE, STREAM
 *      and AUTO against cusparseSpMV (CSR, 32-bit indices, ALG_DEFAULT,
 *      preprocessed).  Time = median over R batches of 20 launches (CUDA
 *      events), after 3 warm-up launches; bandwidth from the bytes an SpMV
 *      must move (matrix once with int64 row pointers and int32 columns,
 *      x and y once) and as a fraction of the measured device-to-device
 *      copy bandwidth (2 x bytes of a 1 GiB cudaMemcpyAsync, median of 10);
 *      each kernel's result is checked against a host SpMV.
 *   2. Time to solution (double, b = A * ones, x0 = 0, tol 1e-8 on
 *      ||r||/||b||): the cuSPARSE anchor — PCG + IC(0) for symmetric
 *      matrices with a positive diagonal, BiCGStab + ILU(0) otherwise —
 *      and axb's GPU solvers (axb_sparse_solve on the CUDA handle: CG/CG1
 *      with Jacobi, IC(0), ParIC; BiCGStab/GMRES with Jacobi, ILU(0),
 *      ParILU; triangular solves exact or by Jacobi sweeps); set-up and
 *      solve times, iterations, true residual, median of 3 runs (axb: after
 *      one untimed run), and axb's total as a fraction of the anchor's
 *      (GMRES at most 3000 iterations when n > 2e5).
 *   Between 1 and 2: the exact triangular solves alone (lower + upper of
 *   the exact IC(0)/ILU(0)), level-scheduled and sync-free at every width;
 *   after AUTO's SpMV, VECTOR with each load cache hint.
 */
#include "axb.h"

extern "C" {
#include "sparse/cuda/spcuda.h"
#include "sparse/sparse_host.h"
#include "sparse/sparse_ops.h"
#include "vendor/cusparse_anchor.h"
}

#include "bench_check.h"

#include <algorithm>
#include <chrono>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

/* An axb call that must succeed, with the handle's detail (bench_check.h's
   OK has no handle to ask). */
#define OKH(h, call)                                                           \
  do {                                                                         \
    axb_status e_ = (call);                                                    \
    if (e_ != AXB_SUCCESS) {                                                   \
      fprintf(stderr, "%s:%d %s: %s (%s)\n", __FILE__, __LINE__, #call,        \
              axb_strerror(e_), axb_detail(h));                                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static cudaStream_t g_stream;
static cudaEvent_t g_e0, g_e1;
static int g_reps = 21;

/* Median over g_reps batches of `batch` calls of body(), in ms per call. */
template <typename Body> static double time_ms(Body body, int batch = 20) {
  for (int w = 0; w < 3; ++w)
    body();
  std::vector<float> t;
  for (int r = 0; r < g_reps; ++r)
    t.push_back(bench_event_ms(g_stream, g_e0, g_e1, batch, body));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/* Device-to-device copy bandwidth (read + write bytes per second). */
static double copy_bandwidth(void) {
  const size_t bytes = (size_t)1 << 30;
  void *a = nullptr, *b = nullptr;
  CU(cudaMalloc(&a, bytes));
  CU(cudaMalloc(&b, bytes));
  CU(cudaMemset(a, 1, bytes));
  const int saved = g_reps;
  g_reps = 10;
  const double ms = time_ms(
      [&] {
        CU(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, g_stream));
      },
      1);
  g_reps = saved;
  CU(cudaFree(a));
  CU(cudaFree(b));
  return 2.0 * (double)bytes / (ms * 1e-3);
}

/* y = A x on the host in double (the check of every kernel). */
static void host_spmv(const axb_csr *A, const std::vector<double> &x,
                      std::vector<double> &y) {
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      const double v = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                                           : ((const float *)A->values)[k];
      s += v * x[(size_t)A->colind[k]];
    }
    y[(size_t)i] = s;
  }
}

/* max_i |y_i - ref_i| / (|A| |x|)_i: the SpMV's relative error per row. */
template <typename T>
static double spmv_error(const axb_csr *A, const std::vector<double> &x,
                         const std::vector<double> &ref, const T *dy) {
  std::vector<T> y((size_t)A->rows);
  CU(cudaMemcpy(y.data(), dy, y.size() * sizeof(T), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    double scale = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      const double v = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                                           : ((const float *)A->values)[k];
      scale += fabs(v * x[(size_t)A->colind[k]]);
    }
    const double e = fabs((double)y[(size_t)i] - ref[(size_t)i]);
    const double r = scale > 0 ? e / scale : e;
    if (!(r <= worst)) worst = r;
  }
  return worst;
}

static axb_status load(axb_handle h, const char *what, axb_dtype t,
                       axb_csr *A) {
  if (strchr(what, ':') && !strstr(what, ".mtx")) {
    axb_gen_spec spec;
    axb_status st = axb_gen_parse(h, what, &spec);
    if (st != AXB_SUCCESS) return st;
    return axb_gen_csr(h, &spec, t, A);
  }
  return axb_read_csr(h, what, t, A);
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

template <typename T>
static void bench_spmv(axb_handle h, const char *name, const axb_csr *A,
                       double copy_bw) {
  axb_spcuda_mat *M = nullptr;
  OKH(h, axb_spcuda_mat_create(h, A, &M));
  std::vector<double> hx((size_t)A->cols), ref((size_t)A->rows);
  for (int64_t j = 0; j < A->cols; ++j)
    hx[(size_t)j] = 1.0 + 0.5 * sin(0.37 * (double)j);
  host_spmv(A, hx, ref);
  std::vector<T> hxt(hx.begin(), hx.end());
  T *dx = nullptr, *dy = nullptr;
  CU(cudaMalloc(&dx, hxt.size() * sizeof(T)));
  CU(cudaMalloc(&dy, ref.size() * sizeof(T) + sizeof(T)));
  CU(cudaMemcpy(dx, hxt.data(), hxt.size() * sizeof(T),
                cudaMemcpyHostToDevice));
  /* The pageable copy may return before its DMA lands; g_stream does not
     wait for the legacy stream. */
  CU(cudaStreamSynchronize(0));
  axb_cusparse_spmv *P = nullptr;
  axb_status st = axb_cusparse_spmv_create(&P, A, g_stream);
  if (st != AXB_SUCCESS) {
    fprintf(stderr, "cuSPARSE SpMV set-up failed: %s\n", axb_strerror(st));
    exit(1);
  }
  const double bytes = axb_spcuda_mat_spmv_bytes(M);
  const double t_vendor = time_ms([&] { axb_cusparse_spmv_run(P, dx, dy); });
  const double e_vendor = spmv_error(A, hx, ref, dy);
  const char *prec = sizeof(T) == 8 ? "d" : "s";
  const double tol = sizeof(T) == 8 ? 1e-14 : 1e-5;
  auto row = [&](const char *kernel, int width, double ms, double err) {
    const double bw = bytes / (ms * 1e-3);
    printf("spmv %-22s %s %-8s %2d %9.2f %7.1f %5.1f%% %6.2fx %8.1e %s\n", name,
           prec, kernel, width, ms * 1e3, bw * 1e-9, 100.0 * bw / copy_bw,
           t_vendor / ms, err, err <= tol ? "ok" : "WRONG");
  };
  row("cusparse", 0, t_vendor, e_vendor);
  for (int w = 1; w <= 32; w *= 2) {
    OKH(h, axb_spcuda_mat_set_spmv(M, AXB_SPMV_VECTOR, w));
    CU(cudaMemsetAsync(dy, 0xff, ref.size() * sizeof(T), g_stream));
    const double ms = time_ms([&] { axb_spcuda_spmv(h, M, dx, dy); });
    row("vector", w, ms, spmv_error(A, hx, ref, dy));
  }
  OKH(h, axb_spcuda_mat_set_spmv(M, AXB_SPMV_MERGE, 0));
  CU(cudaMemsetAsync(dy, 0xff, ref.size() * sizeof(T), g_stream));
  double ms = time_ms([&] { axb_spcuda_spmv(h, M, dx, dy); });
  row("merge", 0, ms, spmv_error(A, hx, ref, dy));
  OKH(h, axb_spcuda_mat_set_spmv(M, AXB_SPMV_STREAM, 0));
  CU(cudaMemsetAsync(dy, 0xff, ref.size() * sizeof(T), g_stream));
  ms = time_ms([&] { axb_spcuda_spmv(h, M, dx, dy); });
  row("stream", 0, ms, spmv_error(A, hx, ref, dy));
  OKH(h, axb_spcuda_mat_set_spmv(M, AXB_SPMV_AUTO, 0));
  axb_spmv_kind kind;
  int width;
  axb_spcuda_mat_spmv_info(M, &kind, &width);
  /* The load hints on AUTO's VECTOR width (the default hint last). */
  if (kind == AXB_SPMV_VECTOR) {
    /* W = 1: each hint with batches of 1, 4 and 8 entries ("b4-l2ef"). */
    const char *hname[] = {"plain", "ldcs", "l2ef"};
    const int batches[] = {1, 4, 8};
    for (int bb = 0; bb < (width == 1 ? 3 : 1); ++bb)
      for (int hh = 0; hh < 3; ++hh) {
        OKH(h, axb_spcuda_mat_set_spmv_hint(M, (axb_spmv_hint)hh));
        OKH(h, axb_spcuda_mat_set_spmv_batch(M, batches[bb]));
        CU(cudaMemsetAsync(dy, 0xff, ref.size() * sizeof(T), g_stream));
        ms = time_ms([&] { axb_spcuda_spmv(h, M, dx, dy); });
        char label[16];
        snprintf(label, sizeof label, "b%d-%s", batches[bb], hname[hh]);
        row(label, width, ms, spmv_error(A, hx, ref, dy));
      }
    axb_spcuda_mat_destroy(M); /* fresh: the default hint */
    M = nullptr;
    OKH(h, axb_spcuda_mat_create(h, A, &M));
  }
  CU(cudaMemsetAsync(dy, 0xff, ref.size() * sizeof(T), g_stream));
  ms = time_ms([&] { axb_spcuda_spmv(h, M, dx, dy); });
  row(kind == AXB_SPMV_MERGE    ? "AUTO=m"
      : kind == AXB_SPMV_STREAM ? "AUTO=s"
                                : "AUTO=v",
      width, ms, spmv_error(A, hx, ref, dy));
  axb_cusparse_spmv_destroy(P);
  axb_spcuda_mat_destroy(M);
  CU(cudaFree(dx));
  CU(cudaFree(dy));
}

/* Exact triangular solves of the exact incomplete factor (IC(0) when spd,
   else ILU(0)), lower then upper, in double on the CUDA table: the
   level-scheduled solve and the sync-free one at every width; us per pair
   (median), levels, and the error against the CPU table's substitution. */
static void bench_trisolve(axb_handle h, const char *name, const axb_csr *A,
                           int spd) {
  const axb_sparse_ops_d *G = &axb__sparse_cuda_ops()->d;
  const axb_sparse_ops_d *C = &axb__sparse_cpu_ops()->d;
  const axb_spf_kind kind = spd ? AXB_SPF_IC : AXB_SPF_LU;
  axb_spf_pattern_owned P;
  int64_t info = 0;
  if (axb__spf_pattern_build(A, kind, &P, &info) != AXB_SUCCESS) {
    printf("trisv %-22s pattern failed\n", name);
    return;
  }
  const int64_t n = A->rows;
  std::vector<double> f((size_t)A->nnz + 1);
  const double *a = (const double *)A->values;
  axb_status st = spd ? axb__spf_ic0_d(&P.p, a, f.data(), &info)
                      : axb__spf_ilu0_d(&P.p, a, f.data(), &info);
  if (st != AXB_SUCCESS) {
    printf("trisv %-22s %s(0) fails at row %lld\n", name, spd ? "IC" : "ILU",
           (long long)info);
    axb__spf_pattern_free(&P);
    return;
  }
  axb_handle c = nullptr;
  OKH(c, axb_handle_create(&c, AXB_BACKEND_CPU, 0));
  axb_spfac *gF = nullptr, *cF = nullptr;
  OKH(h, G->fac_create(h, &P.p, f.data(), &gF));
  OKH(c, C->fac_create(c, &P.p, f.data(), &cF));
  std::vector<double> b((size_t)n), t((size_t)n), x((size_t)n), gx((size_t)n);
  for (int64_t i = 0; i < n; ++i)
    b[(size_t)i] = 1.0 + 0.5 * sin(0.37 * (double)i);
  C->tri_solve(c, cF, AXB_LOWER, AXB_SPTRI_EXACT, 1, b.data(), t.data(),
               nullptr);
  C->tri_solve(c, cF, AXB_UPPER, AXB_SPTRI_EXACT, 1, t.data(), x.data(),
               nullptr);
  double *db = nullptr, *dt = nullptr, *dx = nullptr;
  OKH(h, G->vec_alloc(h, n, &db));
  OKH(h, G->vec_alloc(h, n, &dt));
  OKH(h, G->vec_alloc(h, n, &dx));
  OKH(h, G->vec_upload(h, n, b.data(), db));
  const int saved = g_reps;
  g_reps = 7;
  /* -1: levels; -2, -3, -4: the warp solve with a back-off of 0, 100 and
     400 ns; 0: AUTO (back-off 0); else sync-free with w lanes. */
  const int cfg[] = {-1, -2, -3, -4, 0, 1, 2, 4, 8, 16, 32};
  for (int w : cfg) {
    if (w > 1 && n > 200000) continue; /* wide flag solves: seconds, known */
    if (axb_spcuda_fac_set_tri(gF,
                               w == -1  ? AXB_SPTRI_GPU_LEVELS
                               : w < 0  ? AXB_SPTRI_GPU_WARP
                               : w == 0 ? AXB_SPTRI_GPU_AUTO
                                        : AXB_SPTRI_GPU_SYNCFREE,
                               w < 0 ? 0 : w) != AXB_SUCCESS)
      continue;
    const int backoff = w == -3 ? 100 : w == -4 ? 400 : 0;
    OKH(h, axb_spcuda_fac_set_backoff(gF, backoff));
    axb_sptri_gpu_alg alg;
    int width = 0;
    axb_spcuda_fac_tri_info(gF, &alg, &width);
    const double ms = time_ms(
        [&] {
          G->tri_solve(h, gF, AXB_LOWER, AXB_SPTRI_EXACT, 1, db, dt, nullptr);
          G->tri_solve(h, gF, AXB_UPPER, AXB_SPTRI_EXACT, 1, dt, dx, nullptr);
        },
        5);
    OKH(h, G->vec_download(h, n, dx, gx.data()));
    double err = 0, m = 1e-300;
    for (int64_t i = 0; i < n; ++i) {
      err = std::max(err, fabs(gx[(size_t)i] - x[(size_t)i]));
      m = std::max(m, fabs(x[(size_t)i]));
    }
    char label[32];
    if (w < -1)
      snprintf(label, sizeof label, "warp-b%d", backoff);
    else
      snprintf(label, sizeof label, "%s",
               w < 0                         ? "levels"
               : w > 0                       ? "syncfree"
               : alg == AXB_SPTRI_GPU_LEVELS ? "AUTO=lev"
               : alg == AXB_SPTRI_GPU_WARP   ? "AUTO=warp"
                                             : "AUTO=sf");
    printf("trisv %-22s %-9s W=%2d %10.1f us  levels %lld+%lld  err %.1e %s\n",
           name, label, width, ms * 1e3, (long long)P.p.lo_nlev,
           (long long)P.p.up_nlev, err / m, err / m <= 1e-10 ? "ok" : "WRONG");
  }
  g_reps = saved;
  G->vec_free(h, db);
  G->vec_free(h, dt);
  G->vec_free(h, dx);
  G->fac_destroy(h, gF);
  C->fac_destroy(c, cF);
  axb_handle_destroy(c);
  axb__spf_pattern_free(&P);
}

/* 1 when A is numerically symmetric with a positive diagonal. */
static int spd_candidate(const axb_csr *A) {
  if (A->rows != A->cols) return 0;
  const double *v = (const double *)A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    int diag = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      const int64_t j = A->colind[k];
      if (j == i) diag = v[k] > 0;
      /* find (j, i) */
      const int64_t *c = A->colind + A->rowptr[j];
      const int64_t len = A->rowptr[j + 1] - A->rowptr[j];
      const int64_t *f = std::lower_bound(c, c + len, i);
      if (f == c + len || *f != i || v[A->rowptr[j] + (f - c)] != v[k])
        return 0;
    }
    if (!diag) return 0;
  }
  return 1;
}

/* Time to solution of the cuSPARSE anchor (median of 3 by total time). */
static double bench_anchor(const char *name, const axb_csr *A, int spd,
                           const std::vector<double> &b, double tol,
                           int64_t maxit) {
  std::vector<double> x(b.size());
  std::vector<axb_cusparse_report> reps;
  axb_status st = AXB_SUCCESS;
  for (int r = 0; r < 3; ++r) {
    axb_cusparse_report rep;
    st = spd ? axb_cusparse_pcg_ic0(A, b.data(), x.data(), tol, maxit, &rep)
             : axb_cusparse_bicgstab_ilu0(A, b.data(), x.data(), tol, maxit,
                                          &rep);
    reps.push_back(rep);
    if (st == AXB_ERR_SINGULAR || st < 0) break;
  }
  std::sort(reps.begin(), reps.end(),
            [](const axb_cusparse_report &a, const axb_cusparse_report &c) {
              return a.setup_s + a.solve_s < c.setup_s + c.solve_s;
            });
  const axb_cusparse_report &m = reps[reps.size() / 2];
  printf("solve %-22s %-22s %6lld %9.3f %9.3f %9.3f %8.1e %s%s%s\n", name,
         spd ? "cusparse-pcg-ic0" : "cusparse-bicgstab-ilu0",
         (long long)m.iterations, m.setup_s * 1e3, m.solve_s * 1e3,
         (m.setup_s + m.solve_s) * 1e3, m.relres,
         st == AXB_SUCCESS ? "converged" : axb_strerror(st),
         m.message[0] ? ": " : "", m.message);
  return st == AXB_SUCCESS ? m.setup_s + m.solve_s : 0;
}

/* axb's GPU solvers (axb_sparse_solve on the CUDA handle) on the same
   system: median of 3 runs by total time, after one untimed run. */
static double bench_ours(axb_handle h, const char *name, const axb_csr *A,
                         axb_sparse_method m, axb_precond p, axb_trisolve tri,
                         const std::vector<double> &b, double tol,
                         int64_t maxit, double anchor_total,
                         int tri_sweeps = 0) {
  axb_dense B = axb_dense_wrap(A->rows, 1, A->rows, AXB_F64, (void *)b.data());
  std::vector<double> x(b.size());
  axb_dense X = axb_dense_wrap(A->rows, 1, A->rows, AXB_F64, x.data());
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = m;
  o.precond = p;
  o.trisolve = tri;
  o.tri_sweeps = tri_sweeps; /* 0: the library's default */
  o.tol = tol;
  o.max_iter = maxit;
  std::vector<axb_sparse_report> reps;
  axb_status st = AXB_SUCCESS;
  for (int r = 0; r < 4; ++r) {
    axb_sparse_report rep;
    memset(&rep, 0, sizeof rep);
    st = axb_sparse_solve(h, A, &B, &X, &o, &rep);
    if (r > 0) reps.push_back(rep);
    if (st != AXB_SUCCESS && st != AXB_ERR_NO_CONVERGENCE) break;
  }
  char label[64];
  char jac[16] = "";
  if (tri == AXB_TRISOLVE_JACOBI && p >= AXB_PRECOND_ILU0)
    snprintf(jac, sizeof jac, tri_sweeps ? "-jac%d" : "-jac", tri_sweeps);
  snprintf(label, sizeof label, "axb-%s-%s%s", axb_sparse_method_name(m),
           axb_precond_name(p), jac);
  if (reps.empty()) {
    printf("solve %-22s %-22s failed: %s (%s)\n", name, label, axb_strerror(st),
           axb_detail(h));
    return 0;
  }
  std::sort(reps.begin(), reps.end(),
            [](const axb_sparse_report &a, const axb_sparse_report &c) {
              return a.t_setup + a.t_solve < c.t_setup + c.t_solve;
            });
  const axb_sparse_report &q = reps[reps.size() / 2];
  const double total = q.t_setup + q.t_solve;
  printf(
      "solve %-22s %-22s %6lld %9.3f %9.3f %9.3f %8.1e %s %5.2fx of anchor\n",
      name, label, (long long)q.iterations, q.t_setup * 1e3, q.t_solve * 1e3,
      total * 1e3, q.true_residual,
      st == AXB_SUCCESS ? "converged" : axb_strerror(st),
      anchor_total > 0 ? total / anchor_total : 0.0);
  return st == AXB_SUCCESS ? total : 0;
}

/* AUTO (axb_sparse_solve with default options, `axb solve A.mtx --sparse`)
   on a handle, wall time of the whole call: median of 3 after one untimed
   run, beside the cuSPARSE anchor of the same run (issue 23's target). */
static void bench_auto(axb_handle h, const char *name, const axb_csr *A,
                       const std::vector<double> &b, double anchor_total) {
  axb_dense B = axb_dense_wrap(A->rows, 1, A->rows, AXB_F64, (void *)b.data());
  std::vector<double> x(b.size());
  axb_dense X = axb_dense_wrap(A->rows, 1, A->rows, AXB_F64, x.data());
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  std::vector<double> ts;
  axb_sparse_report rep;
  axb_status st = AXB_SUCCESS;
  for (int r = 0; r < 4; ++r) {
    memset(&rep, 0, sizeof rep);
    const auto t0 = std::chrono::steady_clock::now();
    st = axb_sparse_solve(h, A, &B, &X, &o, &rep);
    const auto t1 = std::chrono::steady_clock::now();
    if (r > 0) ts.push_back(std::chrono::duration<double>(t1 - t0).count());
    if (st != AXB_SUCCESS) break;
  }
  const char *be = axb_backend_name(axb_handle_backend(h));
  if (st != AXB_SUCCESS) {
    printf("auto  %-22s %-5s failed: %s (%s)\n", name, be, axb_strerror(st),
           axb_detail(h));
    return;
  }
  std::sort(ts.begin(), ts.end());
  const double t = ts[ts.size() / 2];
  printf("auto  %-22s %-5s %9.3f ms %8.1e %5.2fx of anchor  %s%s%s\n", name, be,
         t * 1e3, rep.true_residual, anchor_total > 0 ? t / anchor_total : 0.0,
         rep.solver, rep.solver[0] ? "; " : "", rep.path);
  /* Where the last run's time went (axb_sparse_report's split, ms). */
  printf("split %-22s %-5s check %.2f symmetry %.2f analysis %.2f memory "
         "%.2f upload %.2f precond %.2f (host %.2f) setup %.2f solve %.2f "
         "(certify %.2f) it. %lld\n",
         name, be, rep.t_check * 1e3, rep.t_symmetry * 1e3,
         rep.t_analysis * 1e3, rep.t_memory * 1e3, rep.t_upload * 1e3,
         rep.t_precond * 1e3, rep.t_precond_host * 1e3, rep.t_setup * 1e3,
         rep.t_solve * 1e3, rep.t_certify * 1e3, (long long)rep.iterations);
}

static void bench_solvers(axb_handle h, const char *name, const axb_csr *A,
                          int spd, const std::vector<double> &b, double tol,
                          int64_t maxit, double anchor_total) {
  const axb_trisolve E = AXB_TRISOLVE_EXACT, J = AXB_TRISOLVE_JACOBI;
  /* The SPD set (CG, CG1), then the first of the general one (BiCGStab),
     in the order the tables list them. */
  const struct {
    axb_sparse_method m;
    axb_precond p;
    axb_trisolve t;
  } spd_set[] = {{AXB_SPARSE_CG, AXB_PRECOND_JACOBI, E},
                 {AXB_SPARSE_CG1, AXB_PRECOND_JACOBI, E},
                 {AXB_SPARSE_CG1, AXB_PRECOND_NONE, E},
                 {AXB_SPARSE_CG, AXB_PRECOND_IC0, E},
                 {AXB_SPARSE_CG1, AXB_PRECOND_IC0, E},
                 {AXB_SPARSE_CG1, AXB_PRECOND_PARIC, J},
                 {AXB_SPARSE_CG1, AXB_PRECOND_PARIC, E},
                 {AXB_SPARSE_CG, AXB_PRECOND_PARIC, E}},
    general_set[] = {{AXB_SPARSE_BICGSTAB, AXB_PRECOND_JACOBI, E},
                     {AXB_SPARSE_BICGSTAB, AXB_PRECOND_ILU0, E},
                     {AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU, J}};
  if (spd) {
    for (const auto &c : spd_set)
      bench_ours(h, name, A, c.m, c.p, c.t, b, tol, maxit, anchor_total);
  } else {
    for (const auto &c : general_set)
      bench_ours(h, name, A, c.m, c.p, c.t, b, tol, maxit, anchor_total);
    /* The exact ILU(0) factor with approximate triangular solves: on
       convdiff3d 100^3 Pe 1 the CPU needs 61 / 44 iterations with 5 / 10
       sweeps (the default 3 diverges), exact solves 41. */
    for (int ts : {5, 7, 10})
      bench_ours(h, name, A, AXB_SPARSE_BICGSTAB, AXB_PRECOND_ILU0, J, b, tol,
                 maxit, anchor_total, ts);
    bench_ours(h, name, A, AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU, E, b, tol,
               maxit, anchor_total);
    /* GMRES(m) on 2e5+ unknowns: at most 3000 iterations (a stalled run
       would take minutes). */
    const int64_t gm =
        A->rows > 200000 ? std::min<int64_t>(maxit, 3000) : maxit;
    bench_ours(h, name, A, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0, E, b, tol, gm,
               anchor_total);
    bench_ours(h, name, A, AXB_SPARSE_GMRES, AXB_PRECOND_PARILU, J, b, tol, gm,
               anchor_total);
  }
}

int main(int argc, char **argv) {
  int solve = 1, autos = 0;
  int64_t maxit = 10000;
  std::vector<const char *> mats;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      g_reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-solve"))
      solve = 0;
    else if (!strcmp(argv[i], "--auto"))
      autos = 1;
    else if (!strcmp(argv[i], "--maxit") && i + 1 < argc)
      maxit = atoll(argv[++i]);
    else
      mats.push_back(argv[i]);
  }
  if (mats.empty()) mats.push_back("poisson3d:100");
  int ndev = 0;
  if (axb_cuda_device_count(&ndev) != AXB_SUCCESS || ndev == 0) {
    fprintf(stderr, "bench_sparse: no GPU\n");
    return 77;
  }
  axb_handle h = nullptr;
  OKH(h, axb_handle_create(&h, AXB_BACKEND_CUDA, 0));
  axb_handle hcpu = nullptr;
  OKH(hcpu, axb_handle_create(&hcpu, AXB_BACKEND_CPU, 0));
  g_stream = (cudaStream_t)axb_get_stream(h);
  CU(cudaEventCreate(&g_e0));
  CU(cudaEventCreate(&g_e1));
  char dev[256];
  size_t mem = 0;
  axb_cuda_device_info(0, dev, sizeof dev, &mem);
  const double bw = copy_bandwidth();
  printf("# device %s, cuSPARSE %d, copy bandwidth %.1f GB/s (D2D, read + "
         "write)\n",
         dev, axb_cusparse_version(), bw * 1e-9);
  printf("# spmv matrix prec kernel width us GB/s %%copy vs-cusparse err\n");
  for (const char *what : mats) {
    axb_csr A;
    OKH(h, load(h, what, AXB_F64, &A));
    const char *name = base_name(what);
    if (autos && A.rows == A.cols) { /* the anchor and AUTO only */
      std::vector<double> ones((size_t)A.cols, 1.0), b((size_t)A.rows);
      host_spmv(&A, ones, b);
      const double anchor =
          bench_anchor(name, &A, spd_candidate(&A), b, 1e-8, maxit);
      bench_auto(h, name, &A, b, anchor);
      bench_auto(hcpu, name, &A, b, anchor);
      fflush(stdout);
      axb_csr_destroy(&A);
      continue;
    }
    int64_t maxrow = 0;
    for (int64_t i = 0; i < A.rows; ++i)
      maxrow = std::max(maxrow, A.rowptr[i + 1] - A.rowptr[i]);
    printf("# %s: n %lld, nnz %lld, mean row %.1f, max row %lld\n", name,
           (long long)A.rows, (long long)A.nnz,
           A.rows ? (double)A.nnz / (double)A.rows : 0.0, (long long)maxrow);
    bench_spmv<double>(h, name, &A, bw);
    axb_csr Af;
    OKH(h, load(h, what, AXB_F32, &Af));
    bench_spmv<float>(h, name, &Af, bw);
    axb_csr_destroy(&Af);
    if (solve && A.rows == A.cols) {
      std::vector<double> ones((size_t)A.cols, 1.0), b((size_t)A.rows);
      host_spmv(&A, ones, b);
      const int spd = spd_candidate(&A);
      printf("# solve matrix method iters setup_ms solve_ms total_ms relres\n");
      bench_trisolve(h, name, &A, spd);
      const double anchor = bench_anchor(name, &A, spd, b, 1e-8, maxit);
      bench_solvers(h, name, &A, spd, b, 1e-8, maxit, anchor);
    }
    fflush(stdout);
    axb_csr_destroy(&A);
  }
  axb_handle_destroy(h);
  axb_handle_destroy(hcpu);
  return 0;
}
