/*
 * <axb/solve.h>: the descriptor-level driver (axb_solve) and its report.
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_SOLVE_H
#define AXB_API_SOLVE_H

#include <stdint.h>

#include <axb/core.h>
#include <axb/matrix.h>
#include <axb/mixed.h>
#include <axb/study.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Descriptor-level driver                                                  */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_METHOD_AUTO = 0,              /* Cholesky when symmetric with positive
                                       diagonal (LU if not SPD), else LU       */
  AXB_METHOD_LU,                    /* getrf + getrs                          */
  AXB_METHOD_CHOLESKY,              /* potrf + potrs                          */
  AXB_METHOD_GAUSS_JORDAN,          /* Gauss-Jordan inverse, x = inv(A) b     */
  AXB_METHOD_LU_CROUT,              /* study variant                          */
  AXB_METHOD_GAUSS,                 /* study variant: elimination on [A|b]    */
  AXB_METHOD_CHOLESKY_CROUT,        /* study variant: column-wise             */
  AXB_METHOD_CHOLESKY_BANACHIEWICZ, /* study variant: row-wise           */
  AXB_METHOD_LU_FIXEDPOINT,         /* study variant: iterative Crout,
                                       no pivoting (getrf_fixedpoint)    */
  AXB_METHOD_LU_MIXED,              /* low-precision LU + FP64 refinement,
                                       double A only (axb_dsxsv_ex)      */
  AXB_METHOD_CHOLESKY_MIXED,        /* the same with Cholesky            */
  AXB_METHOD_COUNT
} axb_method;

const char *axb_method_name(axb_method m);
/* "auto", "lu", "cholesky", "gauss-jordan", "lu-crout", "gauss",
   "cholesky-crout", "cholesky-banachiewicz", "lu-fixedpoint", "lu-mixed",
   "cholesky-mixed"; returns AXB_ERR_INVALID. */
axb_status axb_method_parse(const char *name, axb_method *m);

typedef struct {
  axb_method method;  /* default AUTO                                      */
  int pivot;          /* 1 (default); 0 = no pivoting where the method
                         allows it (gauss, lu-crout)                        */
  int estimate_rcond; /* 1 (default): rcond in the report and the
                         AXB_ERR_ILL_CONDITIONED verdict                   */
  axb_fixedpoint_opts fixedpoint; /* lu-fixedpoint only (never pivots)   */
  axb_mixed_opts mixed; /* lu-mixed and cholesky-mixed only              */
  /* AXB_NO_TRANS (default): solve A X = B.  AXB_TRANS: solve A^T X = B
     with the descriptor's A, read as it is (a row-major A is A^T to a
     column-major reader: no transposing copy is needed).  The report is
     then that of op(A) = A^T, the system actually solved: backward_error
     is ||B - A^T X||_inf / (||A^T||_inf ||X||_inf n eps) and rcond the
     1-norm reciprocal condition of A^T (= A's in the inf-norm).
     lu, gauss-jordan, lu-crout and lu-fixedpoint solve with A^T; the
     Cholesky methods (and AUTO when it takes Cholesky) need a symmetric A,
     for which A^T = A; gauss and lu-mixed return AXB_ERR_NOT_SUPPORTED. */
  axb_trans trans;
} axb_solve_opts;

void axb_solve_opts_default(axb_solve_opts *opts);

typedef struct {
  axb_status status;
  axb_method method;   /* the method that produced the answer           */
  axb_backend backend; /* the backend that ran it                        */
  axb_dtype dtype;
  int64_t n, nrhs;
  int64_t info;           /* index of the failing pivot/minor, else 0      */
  int cholesky_fell_back; /* AUTO tried Cholesky, matrix was not SPD     */
  double t_factor, t_solve, t_transfer, t_total; /* seconds              */
  double gflops;         /* (factor + solve flops) / (t_factor + t_solve) */
  double backward_error; /* axb_check_solve ratio of the returned X      */
  double rcond;          /* 1-norm reciprocal condition estimate of op(A),
                            or -1                                        */
  int64_t sweeps;        /* lu-fixedpoint: sweeps over all sections, else 0 */
  int64_t sections;      /* lu-fixedpoint: sections iterated, else 0       */
  /* Seconds certifying X: the rcond estimate and the backward error
     (host<->device copies among them are in t_transfer).  t_total covers
     factor, solve, transfer, certify and the input checks and copies. */
  double t_certify;
  /* lu-mixed / cholesky-mixed: the factor precision that produced X, the
     refinement steps and GMRES iterations, the precisions abandoned, and
     LAPACK's ITER (axb_mixed_info); t_solve is the refinement's time. */
  axb_factor_precision factor_precision;
  int64_t refine_steps, gmres_iters, mixed_iter;
  int mixed_fallbacks;
  /* The driver's phases in seconds (0 where a phase did not run), for
     finding where the time goes: t_check the input checks (finiteness of
     A and B, ||A||_1) where they are not fused with the copy of A;
     t_symmetry the symmetry test (Cholesky methods, AUTO); t_copy the
     working copies of A and B (with the finiteness check, ||A||_1 and the
     symmetry test fused into A's copy) and X back into B; t_rcond and
     t_backward the condition estimate and the backward error, which
     together make t_certify (LU and Cholesky solve the estimate's first
     block beside B: that part is in t_solve). */
  double t_check, t_symmetry, t_copy, t_rcond, t_backward;
} axb_report;

/*
 * Solve op(A) X = B, op(A) = A or A^T (opts->trans).  A is n x n and
 * left unchanged; B (n x nrhs, same dtype,
 * host memory) is overwritten with X.  A and B are checked for NaN/Inf
 * first (AXB_ERR_INVALID).  report may be NULL.  Returns AXB_SUCCESS,
 * a numerical status (the report says which pivot/minor),
 * AXB_ERR_ILL_CONDITIONED when X was computed but rcond < eps, or
 * AXB_ERR_INACCURATE when X was computed but its backward error ratio is
 * >= 30 (both: B holds X anyway, so that the caller can inspect it).
 * A failed factorization leaves B unchanged.
 */
axb_status axb_solve(axb_handle h, const axb_dense *A, axb_dense *B,
                     const axb_solve_opts *opts, axb_report *report);

/* Inverse of A into X (allocated by the caller, n x n, same dtype) with
   AXB_METHOD_LU (getrf + getri) or AXB_METHOD_GAUSS_JORDAN.  A singular A
   returns AXB_ERR_SINGULAR (the detail names the pivot); X then holds no
   inverse (its contents are unspecified, as after a NaN or Inf in A, which
   is found while A is copied into X). */
axb_status axb_invert(axb_handle h, const axb_dense *A, axb_dense *X,
                      axb_method method);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_SOLVE_H */
