/*
 * The CPU anchor of issue 8: axb's sparse solvers against Eigen's, in the
 * same process, on the same matrices and right-hand side (b = A * ones),
 * to the same relative residual:
 *   SPD:          axb PCG + IC(0)        vs Eigen ConjugateGradient +
 *                                           IncompleteCholesky
 *   unsymmetric:  axb BiCGStab + ILU(0)  vs Eigen BiCGSTAB + IncompleteLUT
 * Time = set-up (factorisation) + solve, median of --reps runs, the two
 * libraries alternating; both single-threaded (Eigen is built without
 * OpenMP here; axb gets --threads 1).  The true residual of both answers is
 * recomputed here in double.  Built only when Eigen 3 is installed.
 *
 *   study_sparse_eigen [--dir DIR] [--tol T] [--maxit K] [--reps R]
 *                      [MATRIX.mtx | poisson2d:G | poisson3d:G ...]
 */
#include "axb.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

/* axb's CSR, viewed in place; Eigen's solvers get a column-major copy
   with int indices (what their preconditioners are written for). */
using CsrView =
    Eigen::Map<const Eigen::SparseMatrix<double, Eigen::RowMajor, int64_t>>;
using SpMat = Eigen::SparseMatrix<double>;
using Vec = Eigen::VectorXd;

static double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static double rel_res(const SpMat &A, const Vec &x, const Vec &b) {
  return (b - A * x).norm() / b.norm();
}

struct result {
  double t = 0, res = 0;
  long long its = 0;
  bool ok = false;
  std::string what;
};

static result run_axb(axb_handle h, const axb_csr *A, const Vec &b, bool spd,
                      double tol, long long maxit, int reps, const SpMat &M) {
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
  r.res = rel_res(M, x, b);
  return r;
}

template <class Solver>
static result run_eigen(const SpMat &A, const Vec &b, double tol,
                        long long maxit, int reps) {
  result r;
  Vec x;
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) {
    Solver s;
    s.setTolerance(tol);
    s.setMaxIterations((Eigen::Index)maxit);
    double t0 = now();
    s.compute(A);
    if (s.info() == Eigen::Success) x = s.solve(b);
    t.push_back(now() - t0);
    r.ok = s.info() == Eigen::Success;
    r.its = s.info() == Eigen::Success ? (long long)s.iterations() : 0;
    r.what = r.ok ? "" : "no convergence / failed";
  }
  r.t = median(t);
  r.res = x.size() ? rel_res(A, x, b) : NAN;
  return r;
}

static bool symmetric(const SpMat &A) {
  SpMat T = A.transpose();
  return (A - T).norm() == 0;
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
    CsrView Am(n, n, A.nnz, A.rowptr, A.colind, (const double *)A.values);
    SpMat M = Am.cast<double>();
    Vec b = M * Vec::Ones(n);
    bool spd = symmetric(M);
    result ra, re;
    /* Alternate: axb, Eigen, per repetition set. */
    ra = run_axb(h, &A, b, spd, tol, maxit, reps, M);
    if (spd)
      re = run_eigen<
          Eigen::ConjugateGradient<SpMat, Eigen::Lower | Eigen::Upper,
                                   Eigen::IncompleteCholesky<double>>>(
          M, b, tol, maxit, reps);
    else
      re = run_eigen<Eigen::BiCGSTAB<SpMat, Eigen::IncompleteLUT<double>>>(
          M, b, tol, maxit, reps);
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
