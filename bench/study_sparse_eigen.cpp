/*
 * The CPU anchor of issue 8: axb's sparse solvers against Eigen's, in the
 * same process, on the same matrices and right-hand side (b = A * ones),
 * to the same relative residual:
 *   SPD:          axb PCG + IC(0)        vs Eigen ConjugateGradient +
 *                                           IncompleteCholesky
 *   unsymmetric:  axb BiCGStab + ILU(0)  vs Eigen BiCGSTAB + IncompleteLUT
 * Eigen runs through axb's Eigen shim (src/vendor/eigen_shim.h, the one
 * place axb calls Eigen's sparse solvers).  Time = set-up (factorisation)
 * + solve, median of --reps runs, the two libraries alternating; both
 * single-threaded (axb gets --threads 1, the shim's Eigen 1 thread).  The
 * true residual of both answers is recomputed here in double.  Built only
 * when axb is built with Eigen 3.
 *
 *   study_sparse_eigen [--dir DIR] [--tol T] [--maxit K] [--reps R]
 *                      [MATRIX.mtx | poisson2d:G | poisson3d:G ...]
 */
#include "axb.h"
#include "vendor/eigen_shim.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using Vec = std::vector<double>;

static double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static const double *vals(const axb_csr *A) {
  return (const double *)A->values;
}

/* y = A x in double, each row summed in column order. */
static Vec spmv(const axb_csr *A, const Vec &x) {
  Vec y((size_t)A->rows, 0.0);
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s += vals(A)[k] * x[(size_t)A->colind[k]];
    y[(size_t)i] = s;
  }
  return y;
}

static double nrm2(const Vec &v) {
  double s = 0;
  for (double e : v)
    s += e * e;
  return std::sqrt(s);
}

/* ||b - A x||_2 / ||b||_2. */
static double rel_res(const axb_csr *A, const Vec &x, const Vec &b) {
  Vec r = spmv(A, x);
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = b[i] - r[i];
  return nrm2(r) / nrm2(b);
}

/* a_ij as stored (0 when (i, j) is not stored; colind sorted per row). */
static double entry(const axb_csr *A, int64_t i, int64_t j) {
  const int64_t *lo = A->colind + A->rowptr[i];
  const int64_t *hi = A->colind + A->rowptr[i + 1];
  const int64_t *p = std::lower_bound(lo, hi, j);
  return p != hi && *p == j ? vals(A)[p - A->colind] : 0.0;
}

/* A == A^T by value (an explicitly stored zero equals a missing entry). */
static bool symmetric(const axb_csr *A) {
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (vals(A)[k] != entry(A, A->colind[k], i)) return false;
  return true;
}

struct result {
  double t = 0, res = 0;
  long long its = 0;
  bool ok = false;
  std::string what;
};

static result run_axb(axb_handle h, const axb_csr *A, const Vec &b, bool spd,
                      double tol, long long maxit, int reps) {
  result r;
  int64_t n = A->rows;
  Vec x(n);
  axb_dense B =
      axb_dense_wrap(n, 1, n, AXB_F64, const_cast<double *>(b.data()));
  axb_dense X = axb_dense_wrap(n, 1, n, AXB_F64, x.data());
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = spd ? AXB_SPARSE_CG : AXB_SPARSE_BICGSTAB;
  o.precond = spd ? AXB_PRECOND_IC0 : AXB_PRECOND_ILU0;
  o.tol = tol;
  o.max_iter = maxit;
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) {
    axb_sparse_report rep;
    double t0 = now();
    axb_status st = axb_sparse_solve(h, A, &B, &X, &o, &rep);
    t.push_back(now() - t0);
    r.its = rep.iterations;
    r.ok = st == AXB_SUCCESS;
    r.what = r.ok ? "" : axb_strerror(st);
    axb_sparse_report_free(&rep);
  }
  r.t = median(t);
  r.res = rel_res(A, x, b);
  return r;
}

/* Eigen through the shim from x = 0: CG + IncompleteCholesky (spd) or
   BiCGSTAB + IncompleteLUT with Eigen's default drop tolerance and fill
   factor; time = the shim's factorisation + iteration times. */
static result run_eigen(const axb_csr *A, const Vec &b, bool spd, double tol,
                        long long maxit, int reps) {
  result r;
  int64_t n = A->rows;
  Vec x;
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) {
    axb_eigen_iter_result e;
    Vec xk((size_t)n, 0.0);
    int st = spd ? axb_eigen_cg_ic(n, A->rowptr, A->colind, vals(A), b.data(),
                                   xk.data(), tol, maxit, &e)
                 : axb_eigen_bicgstab_ilut(n, A->rowptr, A->colind, vals(A),
                                           b.data(), xk.data(), tol, maxit,
                                           1e-12, 10, &e);
    t.push_back(e.setup_seconds + e.solve_seconds);
    /* A failed factorisation leaves no answer (the shim solved nothing). */
    bool solved = st == 0 || st == AXB_ERR_NO_CONVERGENCE;
    if (solved) x = xk;
    r.ok = st == 0;
    r.its = r.ok ? (long long)e.iterations : 0;
    r.what = r.ok ? "" : "no convergence / failed";
  }
  r.t = median(t);
  r.res = x.size() ? rel_res(A, x, b) : NAN;
  return r;
}

static void cell(char *buf, size_t len, const result &r, double tol) {
  if (r.ok && r.res <= 1.01 * tol)
    snprintf(buf, len, "%lld | %.3g ms", r.its, r.t * 1e3);
  else
    snprintf(buf, len, "fails (%s, res %.1e) | %.3g ms",
             r.what.empty() ? "true residual above tol" : r.what.c_str(), r.res,
             r.t * 1e3);
}

int main(int argc, char **argv) {
  const char *dir = getenv("AXB_MATRICES");
  if (!dir) dir = "../shared/matrices";
  double tol = 1e-8;
  long long maxit = 5000;
  int reps = 3;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--dir") && i + 1 < argc)
      dir = argv[++i];
    else if (!strcmp(argv[i], "--tol") && i + 1 < argc)
      tol = atof(argv[++i]);
    else if (!strcmp(argv[i], "--maxit") && i + 1 < argc)
      maxit = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::max(1, atoi(argv[++i]));
    else
      names.push_back(argv[i]);
  }
  if (names.empty())
    names = {"poisson2d:300", "poisson3d:40", "bcsstk16.mtx",
             "gr_30_30.mtx",  "494_bus.mtx",  "cage10.mtx",
             "pde2961.mtx",   "sherman3.mtx", "orsreg_1.mtx"};
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0)) return 4;
  axb_set_threads(h, 1);
  axb_eigen_set_threads(1);
  printf("tol %.0e, max %lld iterations, 1 thread each, median of %d "
         "(set-up + solve)\n\n",
         tol, maxit, reps);
  printf("| matrix | n | nnz | axb method | axb its | axb time | Eigen method "
         "| Eigen its | Eigen time | axb / Eigen time |\n");
  printf("|---|---:|---:|---|---:|---:|---|---:|---:|---:|\n");
  for (const std::string &name : names) {
    axb_csr A;
    axb_status st;
    if (name.find(':') != std::string::npos) {
      axb_gen_spec spec;
      st = axb_gen_parse(h, name.c_str(), &spec);
      if (!st) st = axb_gen_csr(h, &spec, AXB_F64, &A);
    } else {
      std::string path = std::string(dir) + "/" + name;
      st = axb_read_csr(h, path.c_str(), AXB_F64, &A);
    }
    if (st) {
      fprintf(stderr, "skip %s: %s\n", name.c_str(), axb_detail(h));
      continue;
    }
    int64_t n = A.rows;
    Vec b = spmv(&A, Vec((size_t)n, 1.0));
    bool spd = symmetric(&A);
    /* Alternate: axb, Eigen, per repetition set. */
    result ra = run_axb(h, &A, b, spd, tol, maxit, reps);
    result re = run_eigen(&A, b, spd, tol, maxit, reps);
    char ca[160], ce[160];
    cell(ca, sizeof ca, ra, tol);
    cell(ce, sizeof ce, re, tol);
    printf("| %s | %lld | %lld | %s | %s | %s | %s | %.2f |\n", name.c_str(),
           (long long)n, (long long)A.nnz,
           spd ? "PCG + IC(0)" : "BiCGStab + ILU(0)", ca,
           spd ? "CG + IncompleteCholesky" : "BiCGSTAB + IncompleteLUT", ce,
           ra.t / re.t);
    fflush(stdout);
    axb_csr_destroy(&A);
  }
  axb_handle_destroy(h);
  return 0;
}
