/*
 * Eigen 3 as a comparison anchor (benchmarks only; never used by the
 * solvers).  A C interface over a small C++ file (eigen_shim.cpp), compiled
 * only when CMake finds Eigen3; otherwise eigen_none.c answers
 * AXB_ERR_NOT_COMPILED from every entry.
 *
 * Dense (column-major, leading dimension lda, in place like LAPACK):
 *  - getrf: Eigen::PartialPivLU on the caller's array (Eigen::Ref, no
 *    copy); Eigen keeps a permutation, converted here to LAPACK's
 *    sequential row interchanges (ipiv, 1-based), so that LAPACK's getrs
 *    applies to the factors.  Returns 0, or i > 0 when U(i,i) is exactly 0.
 *  - potrf: Eigen::LLT in place (lower triangle); returns 0, or 1 when
 *    Eigen reports the matrix not positive definite (Eigen does not say
 *    at which minor).
 *  - inverse: A := A.inverse() (PartialPivLU underneath); returns as getrf.
 *  - gesv: getrf in place, then B := lu.solve(B); returns as getrf (B is
 *    left unchanged when U is singular).
 * Threads: Eigen's OpenMP parallel GEMM (process-global, as OpenBLAS's).
 *
 * Sparse (CSR with 64-bit row pointers and column indices, double): the
 * Krylov solvers a later merge compares axb's own against.
 *  - cg_ic: ConjugateGradient (A symmetric positive definite, both
 *    triangles stored) preconditioned by IncompleteCholesky.
 *  - bicgstab_ilut: BiCGSTAB preconditioned by IncompleteLUT(droptol,
 *    fill_factor).
 * x is the initial guess on entry and the solution on return.  Eigen's
 * stopping rule: ||r||_2 <= tol ||b||_2 (on its recursively updated
 * residual); the shim then recomputes the true relative residual.
 * Returns 0 when converged, AXB_ERR_NO_CONVERGENCE when not (x holds the
 * last iterate), AXB_ERR_NOT_SPD / AXB_ERR_SINGULAR when the
 * preconditioner fails, -i for an illegal argument i, AXB_ERR_NOT_SUPPORTED
 * above 2^31 - 1 rows or entries (Eigen's int indices).
 */
#ifndef AXB_EIGEN_SHIM_H
#define AXB_EIGEN_SHIM_H

#include "axb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when Eigen is compiled in. */
int axb_eigen_available(void);
/* "3.4.0", or "none". */
const char *axb_eigen_version(void);
/* Threads Eigen's parallel kernels use (0: all); no-op without OpenMP. */
void axb_eigen_set_threads(int nthreads);

int axb_eigen_getrf(axb_dtype t, int64_t n, void *A, int64_t lda,
                    int64_t *ipiv);
int axb_eigen_potrf(axb_dtype t, int64_t n, void *A, int64_t lda);
int axb_eigen_inverse(axb_dtype t, int64_t n, void *A, int64_t lda);
/* getrf in place, then B := A^-1 B (n x nrhs, ldb) with Eigen's solve. */
int axb_eigen_gesv(axb_dtype t, int64_t n, int64_t nrhs, void *A, int64_t lda,
                   int64_t *ipiv, void *B, int64_t ldb);

/* `batch` small problems back to back (A_k at A + k n^2, lda = n; b_k at
   B + k n), OpenMP over the batch with nthreads threads (0: all) like
   axb's CPU batched path, each problem one Eigen call on a dynamic-size
   decomposition kept per thread: op 0 gesv (PartialPivLU, b_k := A_k^-1
   b_k), 1 posv (LLT lower, b_k := A_k^-1 b_k), 2 inverse (A_k := A_k^-1
   from PartialPivLU; B unused).  gesv/posv leave A as given.  info[k]: 0,
   or nonzero when problem k failed (exactly zero pivot: its index; not
   SPD: 1), its output then unchanged.  Returns 0 or an axb error. */
int axb_eigen_batched(int op, axb_dtype t, int64_t n, int64_t batch, void *A,
                      void *B, int nthreads, int *info);

typedef struct {
  int64_t iterations;   /* Krylov iterations done                     */
  double estimated;     /* Eigen's own residual estimate (relative)   */
  double true_relres;   /* ||b - A x||_2 / ||b||_2, recomputed        */
  double setup_seconds; /* preconditioner (factorization) wall time   */
  double solve_seconds; /* Krylov iterations wall time                */
} axb_eigen_iter_result;

int axb_eigen_cg_ic(int64_t n, const int64_t *rowptr, const int64_t *colind,
                    const double *val, const double *b, double *x, double tol,
                    int64_t maxit, axb_eigen_iter_result *res);
int axb_eigen_bicgstab_ilut(int64_t n, const int64_t *rowptr,
                            const int64_t *colind, const double *val,
                            const double *b, double *x, double tol,
                            int64_t maxit, double droptol, int fill_factor,
                            axb_eigen_iter_result *res);

#ifdef __cplusplus
}
#endif
#endif
