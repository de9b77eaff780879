/*
 * <axb/sparse.h>: sparse solvers (issues 8, 23).
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_SPARSE_H
#define AXB_API_SPARSE_H

#include <stdint.h>

#include <axb/core.h>
#include <axb/matrix.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Sparse iterative solvers (issue 8)                                       */
/* ------------------------------------------------------------------------ */

/*
 * Krylov solvers for A x = b with A a square host CSR matrix (axb_csr),
 * float or double.  Every method stops when the relative residual of its
 * recurrence ||r_k||_2 / ||b||_2 <= tol, or after max_iter iterations; then
 * the TRUE residual ||b - A x||_2 / ||b||_2 is recomputed (in double).  When
 * the recurrence says "converged" but the true residual is above tol, the
 * method restarts from x with the true residual (at most 3 times, within
 * max_iter).  AXB_SUCCESS means the true relative residual is <= tol.
 *
 * Methods: CG (with a preconditioner: PCG), CG1 (the single-reduction CG of
 * SEEDS.md: one SpMV fused with its dot products, one reduction per
 * iteration; preconditioned in Chronopoulos-Gear form), BiCGStab (right
 * preconditioned), GMRES(m) (restarted, modified Gram-Schmidt, right
 * preconditioned; an iteration is one inner step).  AUTO: CG when A is
 * symmetric (exactly) with a positive diagonal, GMRES otherwise.
 *
 * Preconditioners: Jacobi (diagonal), ILU(0) / IC(0) (exact, computed on the
 * host), ParILU / ParIC (Chow-Patel fixed-point sweeps over A's pattern,
 * `sweeps` of them, on the handle's backend), with the triangular solves of
 * the incomplete factors exact (level-scheduled) or approximate (`tri_sweeps`
 * Jacobi sweeps).  ILUT (issue 23): threshold ILU(p = 10, tau = 1e-4)
 * computed on the host with its own pattern, a zero pivot replaced by
 * tau ||a_i||_2.  AUTO: IC(0) for CG/CG1 on a symmetric matrix, ILU(0)
 * otherwise; if it fails (zero or non-finite pivot, not positive) AUTO falls
 * back (ILU(0) to ILUT first) to Jacobi, then to none, and the report says
 * so.  A preconditioner
 * asked for by name that fails returns its status (AXB_ERR_SMALL_PIVOT or
 * AXB_ERR_NOT_SPD, report.info = the row, 1-based).
 *
 * Outcomes: AXB_SUCCESS; AXB_ERR_NO_CONVERGENCE (max_iter reached, or a
 * breakdown: report.breakdown says which; X holds the last iterate and the
 * report the residuals reached); AXB_ERR_NOT_SPD (CG/CG1: p^T A p <= 0, or
 * a preconditioner that is not positive definite; report.breakdown);
 * AXB_ERR_SMALL_PIVOT (a named preconditioner failed); AXB_ERR_INVALID /
 * -i for bad input (CSR structure, NaN/Inf, sizes, dtypes);
 * AXB_ERR_NOT_SUPPORTED (CUDA handle without the sparse CUDA table).
 *
 * Backends: REF runs the CPU kernels on one thread, CPU on the handle's
 * threads (results bitwise reproducible for a given thread count), CUDA on
 * the GPU.  An AUTO handle solves on the CPU.
 *
 * Direct (issue 23; SuiteSparse in the build, else AXB_ERR_NOT_SUPPORTED):
 * CHOLMOD when A is symmetric with a positive diagonal (UMFPACK if the
 * Cholesky meets a non-positive pivot), UMFPACK otherwise, on the CPU in
 * double (float values are widened), with iterative refinement and a
 * 1-norm condition estimate of the row-equilibrated matrix (report.rcond:
 * a row scaling leaves x unchanged, so kappa(R A) bounds x's error as
 * kappa(A) does, without blaming a badly scaled row).  AXB_SUCCESS: certified
 * (true residual + its rounding bound <= tol); AXB_ERR_ILL_CONDITIONED:
 * solved but rcond < eps (X returned, not trustworthy);
 * AXB_ERR_INACCURATE: the certificate failed; AXB_ERR_SINGULAR.
 *
 * AUTO method (issue 23): with the direct solvers in the build, A is
 * analysed for them first (an ordering: cheap); when the factorisation
 * is estimated at most 1e9 flops or 5000 flops per nonzero of A, and fits
 * in half the available memory (and no preconditioner is named), the
 * direct path runs, else the Krylov method
 * above; when that fails (no convergence, breakdown) the direct path is tried
 * as a fallback if its memory fits.  A CUDA handle runs the Krylov method on
 * the GPU first and falls back to the CPU direct path.  With the AUTO
 * preconditioner, the Krylov path preprocesses a matrix with zero diagonal
 * entries on which ILU(0) fails: its rows are permuted by a maximum-
 * product matching (MC64-like; no residual norm changes).  IC(0) that breaks
 * down (AUTO's or named) is computed again on A + alpha diag(A) (Manteuffel's
 * shift, alpha growing; report.precond_shift).  The direct path's
 * equilibration and ordering are UMFPACK's and CHOLMOD's own (row scaling,
 * AMD / COLAMD).
 * report.path says what was chosen and why and every fallback step.
 */
typedef enum {
  AXB_SPARSE_AUTO = 0,
  AXB_SPARSE_CG = 1,
  AXB_SPARSE_CG1 = 2, /* single-reduction CG */
  AXB_SPARSE_BICGSTAB = 3,
  AXB_SPARSE_GMRES = 4,
  AXB_SPARSE_DIRECT = 5, /* sparse LU / Cholesky (SuiteSparse; issue 23) */
  AXB_SPARSE_METHOD_COUNT
} axb_sparse_method;

typedef enum {
  AXB_PRECOND_AUTO = 0,
  AXB_PRECOND_NONE = 1,
  AXB_PRECOND_JACOBI = 2,
  AXB_PRECOND_ILU0 = 3,
  AXB_PRECOND_IC0 = 4,
  AXB_PRECOND_PARILU = 5,
  AXB_PRECOND_PARIC = 6,
  AXB_PRECOND_ILUT = 7, /* ILUT(10, 1e-4), on the host (issue 23) */
  AXB_PRECOND_COUNT
} axb_precond;

typedef enum {
  AXB_TRISOLVE_EXACT = 0, /* level-scheduled substitution          */
  AXB_TRISOLVE_JACOBI = 1 /* tri_sweeps Jacobi sweeps (approximate) */
} axb_trisolve;

/* Why an iteration stopped short (report.breakdown). */
typedef enum {
  AXB_BREAKDOWN_NONE = 0,
  AXB_BREAKDOWN_NOT_SPD = 1,    /* CG/CG1: p^T A p <= 0 (or <r,z> <= 0)     */
  AXB_BREAKDOWN_RHO = 2,        /* BiCGStab: <r^, r> = 0                   */
  AXB_BREAKDOWN_RV = 3,         /* BiCGStab: <r^, v> = 0                   */
  AXB_BREAKDOWN_OMEGA = 4,      /* BiCGStab: omega = 0 (<t, t> or <t, s>) */
  AXB_BREAKDOWN_GMRES = 5,      /* GMRES: singular Hessenberg matrix       */
  AXB_BREAKDOWN_NON_FINITE = 6, /* a non-finite scalar in the recurrence  */
  AXB_BREAKDOWN_MAX_ITER = 7,   /* max_iter reached (not a breakdown)      */
  AXB_BREAKDOWN_DIVERGED = 8 /* ||r|| / ||b|| > 1e8: stopped before overflow  */
} axb_sparse_breakdown;

const char *axb_sparse_method_name(axb_sparse_method m); /* "cg", ... */
const char *axb_precond_name(axb_precond p);             /* "ilu0", ... */
const char *axb_sparse_breakdown_name(axb_sparse_breakdown b);
/* "auto", "cg", "cg1", "bicgstab", "gmres", "direct"; AXB_ERR_INVALID
   otherwise. */
axb_status axb_sparse_method_parse(const char *name, axb_sparse_method *m);
/* "auto", "none", "jacobi", "ilu0", "ic0", "parilu", "paric", "ilut". */
axb_status axb_precond_parse(const char *name, axb_precond *p);

typedef struct {
  axb_sparse_method method; /* default AUTO                                */
  axb_precond precond;      /* default AUTO                                */
  double tol;               /* relative residual; default 1e-8            */
  int64_t max_iter;         /* default 10000                               */
  int restart;              /* GMRES(m): m, default 30                     */
  int sweeps;               /* ParILU/ParIC fixed-point sweeps, default 3  */
  axb_trisolve trisolve;    /* default EXACT                               */
  int tri_sweeps;           /* Jacobi sweeps per triangular solve, def. 3 */
  int use_x0;               /* 1: X holds the initial guess; 0 (default): 0 */
  int history;              /* 1: record the residual history (default 0)  */
  /* AUTO method only (issue 23): AXB_DIRECT_AUTO (0, default) lets AUTO
     pick the direct path first when cheap; AXB_DIRECT_FALLBACK keeps it
     as the fallback of a failed Krylov solve only; AXB_DIRECT_NEVER: no
     direct path. */
  int direct;
} axb_sparse_opts;
enum { AXB_DIRECT_AUTO = 0, AXB_DIRECT_FALLBACK = 1, AXB_DIRECT_NEVER = 2 };

void axb_sparse_opts_default(axb_sparse_opts *opts);

typedef struct {
  axb_status status;
  axb_sparse_method method; /* the method that ran                         */
  axb_precond precond;      /* the preconditioner that ran                */
  /* opts.precond, or AUTO's choice once made (IC(0) or ILU(0)): the one
     set up first, which failed when precond_fell_back is 1 */
  axb_precond precond_requested;
  int precond_fell_back;     /* 1: the requested one failed, `precond` ran */
  axb_status precond_status; /* why it failed (else AXB_SUCCESS)          */
  int64_t precond_info;      /* the row where it failed (1-based)         */
  axb_sparse_breakdown breakdown;
  axb_backend backend;
  axb_dtype dtype;
  int64_t n, nnz, nrhs;
  int64_t info;         /* failing row of a named preconditioner, else 0 */
  int64_t iterations;   /* largest over the right-hand sides            */
  int restarts;         /* true-residual restarts (and GMRES cycles)    */
  double t_setup;       /* seconds: upload, analysis, preconditioner    */
  double t_solve;       /* seconds: the iterations and the true residual */
  double residual;      /* last recurrence ||r|| / ||b|| (worst column) */
  double true_residual; /* ||b - A x|| / ||b|| in double (worst column)  */
  /* With opts.history: ||r_k|| / ||b|| of the recurrence for k = 0 ..
     history_len - 1 (the last right-hand side; restarts included), owned
     by the report: axb_sparse_report_free releases it. */
  double *history;
  int64_t history_len;
  /* Issue 23: the direct path and AUTO's choices. */
  double rcond; /* direct: 1-norm reciprocal condition estimate of R A,
                   R = diag(1 / max_j |a_ij|) (rows equilibrated), else 0 */
  /* IC(0) that broke down and was computed on A + alpha diag(A): alpha
     (Manteuffel's shift), else 0 */
  double precond_shift;
  char solver[16]; /* direct: "cholmod" or "umfpack"; else ""            */
  /* What AUTO chose and why, the preprocessing applied, and every
     fallback step taken, as "; "-separated clauses (never printed by the
     library; the CLI shows it). */
  char path[768];
  /* Where the time went (seconds; never printed by the library).  Before
     t_setup: t_check (A's structure and finite values, B and X) and
     t_symmetry (the positive-diagonal and symmetry tests, done once per
     solve).  Inside t_setup: t_analysis (AUTO's fill pre-estimate and the
     direct path's ordering / symbolic analysis), t_memory (the memory
     checks), t_upload (the scaled copy of A and A to the backend) and
     t_precond (the preconditioner, of which t_precond_host on the host:
     pattern, level sets, factor).  Inside t_solve: t_certify (the
     extended-precision residual of the answer). */
  double t_check, t_symmetry, t_analysis, t_memory, t_upload, t_precond,
      t_precond_host, t_certify;
} axb_sparse_report;

void axb_sparse_report_free(axb_sparse_report *report); /* NULL is fine */

/*
 * Solve A X = B: A n x n CSR (host), B and X n x nrhs dense (host), all of
 * one dtype; B is left unchanged; X gets the solutions (its input is the
 * initial guess when opts->use_x0).  Each column is solved in turn.  opts
 * may be NULL (defaults); a zero field of opts takes its default, so a
 * zeroed struct means all defaults.  report may be NULL; the call
 * overwrites *report (free an earlier report's history first with
 * axb_sparse_report_free, or it leaks).
 */
axb_status axb_sparse_solve(axb_handle h, const axb_csr *A, const axb_dense *B,
                            axb_dense *X, const axb_sparse_opts *opts,
                            axb_sparse_report *report);
/* 1 when this build has the sparse direct solvers (SuiteSparse's UMFPACK
   and CHOLMOD; issue 23), else 0 (AXB_SPARSE_DIRECT then answers
   AXB_ERR_NOT_SUPPORTED). */
int axb_sparse_direct_available(void);
/* The memory check axb_sparse_solve makes before it allocates anything
   (issue 19): its working memory for A, nrhs and opts (NULL: defaults),
   plus `caller_arrays` n x nrhs arrays of A's dtype that the caller has yet
   to allocate (B, X, ...), against the memory available.
   AXB_ERR_OUT_OF_MEMORY, with the sizes in the detail, when it does not
   fit.  Lets a caller refuse an absurd n before creating its vectors. */
axb_status axb_sparse_check_memory(axb_handle h, const axb_csr *A, int64_t nrhs,
                                   const axb_sparse_opts *opts,
                                   int caller_arrays);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_SPARSE_H */
