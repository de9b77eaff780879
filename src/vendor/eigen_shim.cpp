/* Eigen 3 comparison anchor (see eigen_shim.h): dense PartialPivLU / LLT /
   inverse() in place, and sparse CG+IncompleteCholesky and
   BiCGSTAB+IncompleteLUT on CSR arrays. */
#include "eigen_shim.h"

#include <Eigen/Dense>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>

#ifdef AXB_HAVE_OPENMP
#include <omp.h>
#endif

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

namespace {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T> using View = Eigen::Map<Mat<T>, 0, Eigen::OuterStride<>>;

bool dense_args(int64_t n, const void *A, int64_t lda) {
  return n >= 0 && lda >= (n > 1 ? n : 1) && (A || n == 0);
}

bool fits_int(int64_t n, int64_t lda) { return n <= INT_MAX && lda <= INT_MAX; }

/* First exactly zero diagonal entry of U (1-based), or 0. */
template <typename Derived>
int zero_pivot(const Eigen::MatrixBase<Derived> &lu) {
  for (Eigen::Index i = 0; i < lu.rows(); ++i)
    if (lu(i, i) == 0) return (int)i + 1;
  return 0;
}

/* Eigen's P (P A = L U; row i of A is row indices(i) of P A) as LAPACK's
   sequential interchanges: at step i, swap row i with the row now holding
   the original row that P A wants at position i.  pos[] tracks where each
   original row sits, cur[] which original row sits at each position. */
void perm_to_ipiv(const Eigen::VectorXi &indices, int64_t *ipiv) {
  const int64_t n = indices.size();
  std::vector<int64_t> want(n), cur(n), pos(n);
  for (int64_t i = 0; i < n; ++i) {
    want[indices(i)] = i; /* want[r]: the original row at row r of P A */
    cur[i] = pos[i] = i;
  }
  for (int64_t r = 0; r < n; ++r) {
    const int64_t j = pos[want[r]]; /* j >= r: positions < r are final */
    ipiv[r] = j + 1;
    const int64_t a = cur[r], b = cur[j];
    cur[r] = b, cur[j] = a;
    pos[b] = r, pos[a] = j;
  }
}

template <typename T> int getrf(int64_t n, T *A, int64_t lda, int64_t *ipiv) {
  View<T> m(A, n, n, Eigen::OuterStride<>(lda));
  Eigen::Ref<Mat<T>> r(m);
  Eigen::PartialPivLU<Eigen::Ref<Mat<T>>> lu(r); /* in place: r := L\U */
  perm_to_ipiv(lu.permutationP().indices(), ipiv);
  return zero_pivot(r);
}

template <typename T>
int gesv(int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv, T *B,
         int64_t ldb) {
  View<T> m(A, n, n, Eigen::OuterStride<>(lda));
  View<T> b(B, n, nrhs, Eigen::OuterStride<>(ldb));
  Eigen::Ref<Mat<T>> r(m);
  Eigen::PartialPivLU<Eigen::Ref<Mat<T>>> lu(r);
  perm_to_ipiv(lu.permutationP().indices(), ipiv);
  int z = zero_pivot(r);
  if (z) return z;
  b = lu.solve(b).eval();
  return 0;
}

template <typename T> int potrf(int64_t n, T *A, int64_t lda) {
  View<T> m(A, n, n, Eigen::OuterStride<>(lda));
  Eigen::Ref<Mat<T>> r(m);
  Eigen::LLT<Eigen::Ref<Mat<T>>, Eigen::Lower> llt(r);
  return llt.info() == Eigen::Success ? 0 : 1;
}

template <typename T> int inverse(int64_t n, T *A, int64_t lda) {
  View<T> m(A, n, n, Eigen::OuterStride<>(lda));
  Eigen::PartialPivLU<Mat<T>> lu(m);
  int z = zero_pivot(lu.matrixLU());
  if (z) return z; /* A unchanged, as LAPACK's getri on a singular U */
  m = lu.inverse();
  return 0;
}

/* Batched small problems (eigen_shim.h): OpenMP over the batch, one
   decomposition object per thread whose storage compute() reuses, so a
   problem costs Eigen's factorization and no allocation.  gesv and posv
   factor the object's copy (A is left as given); inverse writes A^-1. */
template <typename T>
int batched(int op, int64_t n, int64_t nb, T *A, T *B, int nthreads,
            int *info) {
  int failed = 0; /* an exception in some thread: AXB_ERR_* */
#ifdef AXB_HAVE_OPENMP
  const int nt = nthreads > 0 ? nthreads : omp_get_max_threads();
#pragma omp parallel num_threads(nt)
#else
  (void)nthreads;
#endif
  {
    try {
      Eigen::PartialPivLU<Mat<T>> lu((Eigen::Index)n);
      Eigen::LLT<Mat<T>, Eigen::Lower> llt((Eigen::Index)n);
#ifdef AXB_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
      for (int64_t k = 0; k < nb; ++k) {
        Eigen::Map<Mat<T>> a(A + k * n * n, n, n);
        int bad = 0;
        if (op == 1) {
          Eigen::Map<Mat<T>> b(B + k * n, n, 1);
          llt.compute(a);
          bad = llt.info() != Eigen::Success;
          if (!bad) b = llt.solve(b).eval();
        } else {
          lu.compute(a);
          bad = zero_pivot(lu.matrixLU());
          if (!bad && op == 0) {
            Eigen::Map<Mat<T>> b(B + k * n, n, 1);
            b = lu.solve(b).eval();
          } else if (!bad) {
            a = lu.inverse();
          }
        }
        info[k] = bad;
      }
    } catch (const std::bad_alloc &) {
#ifdef AXB_HAVE_OPENMP
#pragma omp atomic write
#endif
      failed = AXB_ERR_OUT_OF_MEMORY;
    } catch (...) {
#ifdef AXB_HAVE_OPENMP
#pragma omp atomic write
#endif
      failed = AXB_ERR_INTERNAL;
    }
  }
  return failed;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

using SpMat = Eigen::SparseMatrix<double>; /* column-major, int indices */

/* CSR (64-bit) -> Eigen's compressed column-major matrix; -i on a bad
   argument i, AXB_ERR_NOT_SUPPORTED beyond int, 0 on success. */
int csr_to_eigen(int64_t n, const int64_t *rowptr, const int64_t *colind,
                 const double *val, SpMat &out) {
  if (n < 0) return -1;
  if (!rowptr) return -2;
  if (n > INT_MAX) return AXB_ERR_NOT_SUPPORTED;
  const int64_t nnz = rowptr[n] - rowptr[0];
  if (rowptr[0] != 0 || nnz < 0) return -2;
  if (nnz > INT_MAX) return AXB_ERR_NOT_SUPPORTED;
  if (nnz > 0 && !colind) return -3;
  if (nnz > 0 && !val) return -4;
  std::vector<Eigen::Triplet<double>> t;
  t.reserve((size_t)nnz);
  for (int64_t i = 0; i < n; ++i) {
    if (rowptr[i + 1] < rowptr[i]) return -2;
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; ++k) {
      if (colind[k] < 0 || colind[k] >= n) return -3;
      t.emplace_back((int)i, (int)colind[k], val[k]);
    }
  }
  out.resize((Eigen::Index)n, (Eigen::Index)n);
  out.setFromTriplets(t.begin(), t.end());
  return 0;
}

int iter_args(int64_t n, const double *b, double *x, double tol,
              int64_t maxit) {
  if (n > 0 && !b) return -5;
  if (n > 0 && !x) return -6;
  if (!(tol > 0) || !std::isfinite(tol)) return -7;
  if (maxit < 0 || maxit > INT_MAX) return -8;
  return 0;
}

/* Shared tail: solve with the guess in x, fill res, map Eigen's verdict. */
template <typename Solver>
int iterate(Solver &s, const SpMat &A, int64_t n, const double *b, double *x,
            double tol, int64_t maxit, axb_eigen_iter_result *res,
            int precond_failure) {
  Eigen::Map<const Eigen::VectorXd> bv(b, (Eigen::Index)n);
  Eigen::Map<Eigen::VectorXd> xv(x, (Eigen::Index)n);
  s.setTolerance(tol);
  s.setMaxIterations((Eigen::Index)maxit);
  auto t0 = std::chrono::steady_clock::now();
  s.compute(A);
  res->setup_seconds = seconds_since(t0);
  if (s.info() != Eigen::Success) return precond_failure;
  t0 = std::chrono::steady_clock::now();
  Eigen::VectorXd sol = s.solveWithGuess(bv, Eigen::VectorXd(xv));
  res->solve_seconds = seconds_since(t0);
  xv = sol;
  res->iterations = (int64_t)s.iterations();
  res->estimated = (double)s.error();
  const double nb = bv.norm();
  res->true_relres = (bv - A * xv).norm() / (nb > 0 ? nb : 1.0);
  if (!std::isfinite(res->true_relres)) return AXB_ERR_NO_CONVERGENCE;
  return s.info() == Eigen::Success ? 0 : AXB_ERR_NO_CONVERGENCE;
}

} // namespace

extern "C" int axb_eigen_available(void) { return 1; }

extern "C" const char *axb_eigen_version(void) {
  static char buf[32];
  std::snprintf(buf, sizeof buf, "%d.%d.%d", EIGEN_WORLD_VERSION,
                EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
  return buf;
}

extern "C" void axb_eigen_set_threads(int nthreads) {
  Eigen::setNbThreads(nthreads > 0 ? nthreads : 0);
}

/* Dense entries: exceptions (bad_alloc inside Eigen) never cross into C. */
#define AXB_EIGEN_DENSE(call)                                                  \
  try {                                                                        \
    return call;                                                               \
  } catch (const std::bad_alloc &) {                                           \
    return AXB_ERR_OUT_OF_MEMORY;                                              \
  } catch (...) {                                                              \
    return AXB_ERR_INTERNAL;                                                   \
  }

extern "C" int axb_eigen_getrf(axb_dtype t, int64_t n, void *A, int64_t lda,
                               int64_t *ipiv) {
  if (!dense_args(n, A, lda) || (n > 0 && !ipiv)) return AXB_ERR_INVALID;
  if (!fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) return 0;
  if (t == AXB_F64) AXB_EIGEN_DENSE(getrf<double>(n, (double *)A, lda, ipiv))
  if (t == AXB_F32) AXB_EIGEN_DENSE(getrf<float>(n, (float *)A, lda, ipiv))
  return AXB_ERR_INVALID;
}

extern "C" int axb_eigen_potrf(axb_dtype t, int64_t n, void *A, int64_t lda) {
  if (!dense_args(n, A, lda)) return AXB_ERR_INVALID;
  if (!fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) return 0;
  if (t == AXB_F64) AXB_EIGEN_DENSE(potrf<double>(n, (double *)A, lda))
  if (t == AXB_F32) AXB_EIGEN_DENSE(potrf<float>(n, (float *)A, lda))
  return AXB_ERR_INVALID;
}

extern "C" int axb_eigen_inverse(axb_dtype t, int64_t n, void *A, int64_t lda) {
  if (!dense_args(n, A, lda)) return AXB_ERR_INVALID;
  if (!fits_int(n, lda)) return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) return 0;
  if (t == AXB_F64) AXB_EIGEN_DENSE(inverse<double>(n, (double *)A, lda))
  if (t == AXB_F32) AXB_EIGEN_DENSE(inverse<float>(n, (float *)A, lda))
  return AXB_ERR_INVALID;
}

extern "C" int axb_eigen_gesv(axb_dtype t, int64_t n, int64_t nrhs, void *A,
                              int64_t lda, int64_t *ipiv, void *B,
                              int64_t ldb) {
  if (!dense_args(n, A, lda) || (n > 0 && !ipiv) || nrhs < 0 ||
      ldb < (n > 1 ? n : 1) || (!B && n > 0 && nrhs > 0))
    return AXB_ERR_INVALID;
  if (!fits_int(n, lda) || !fits_int(nrhs, ldb)) return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) return 0;
  if (t == AXB_F64)
    AXB_EIGEN_DENSE(
        gesv<double>(n, nrhs, (double *)A, lda, ipiv, (double *)B, ldb))
  if (t == AXB_F32)
    AXB_EIGEN_DENSE(
        gesv<float>(n, nrhs, (float *)A, lda, ipiv, (float *)B, ldb))
  return AXB_ERR_INVALID;
}

extern "C" int axb_eigen_batched(int op, axb_dtype t, int64_t n, int64_t batch,
                                 void *A, void *B, int nthreads, int *info) {
  if (op < 0 || op > 2 || n < 0 || batch < 0 || (n > 0 && batch > 0 && !A) ||
      (op != 2 && n > 0 && batch > 0 && !B) || (batch > 0 && !info))
    return AXB_ERR_INVALID;
  if (!fits_int(n, n)) return AXB_ERR_NOT_SUPPORTED;
  if (n == 0) {
    for (int64_t k = 0; k < batch; ++k)
      info[k] = 0;
    return 0;
  }
  if (t == AXB_F64)
    return batched<double>(op, n, batch, (double *)A, (double *)B, nthreads,
                           info);
  if (t == AXB_F32)
    return batched<float>(op, n, batch, (float *)A, (float *)B, nthreads, info);
  return AXB_ERR_INVALID;
}

extern "C" int axb_eigen_cg_ic(int64_t n, const int64_t *rowptr,
                               const int64_t *colind, const double *val,
                               const double *b, double *x, double tol,
                               int64_t maxit, axb_eigen_iter_result *res) {
  int st = iter_args(n, b, x, tol, maxit);
  if (st) return st;
  if (!res) return -9;
  *res = axb_eigen_iter_result{0, 0, 0, 0, 0};
  try {
    SpMat A;
    if ((st = csr_to_eigen(n, rowptr, colind, val, A))) return st;
    if (n == 0) return 0;
    Eigen::ConjugateGradient<SpMat, Eigen::Lower | Eigen::Upper,
                             Eigen::IncompleteCholesky<double>>
        cg;
    return iterate(cg, A, n, b, x, tol, maxit, res, AXB_ERR_NOT_SPD);
  } catch (const std::bad_alloc &) {
    return AXB_ERR_OUT_OF_MEMORY;
  } catch (...) {
    return AXB_ERR_INTERNAL;
  }
}

extern "C" int axb_eigen_bicgstab_ilut(int64_t n, const int64_t *rowptr,
                                       const int64_t *colind, const double *val,
                                       const double *b, double *x, double tol,
                                       int64_t maxit, double droptol,
                                       int fill_factor,
                                       axb_eigen_iter_result *res) {
  int st = iter_args(n, b, x, tol, maxit);
  if (st) return st;
  if (!(droptol >= 0) || !std::isfinite(droptol)) return -9;
  if (fill_factor < 1) return -10;
  if (!res) return -11;
  *res = axb_eigen_iter_result{0, 0, 0, 0, 0};
  try {
    SpMat A;
    if ((st = csr_to_eigen(n, rowptr, colind, val, A))) return st;
    if (n == 0) return 0;
    Eigen::BiCGSTAB<SpMat, Eigen::IncompleteLUT<double>> bicg;
    bicg.preconditioner().setDroptol(droptol);
    bicg.preconditioner().setFillfactor(fill_factor);
    return iterate(bicg, A, n, b, x, tol, maxit, res, AXB_ERR_SINGULAR);
  } catch (const std::bad_alloc &) {
    return AXB_ERR_OUT_OF_MEMORY;
  } catch (...) {
    return AXB_ERR_INTERNAL;
  }
}
