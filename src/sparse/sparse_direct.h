/*
 * The sparse direct solvers behind `--method direct` and AUTO's direct
 * choice (issue 23): SuiteSparse's CHOLMOD (A symmetric with a positive
 * diagonal: tried first) and UMFPACK (every other square matrix, and a
 * Cholesky that meets a non-positive pivot), on the CPU, in double.
 * direct_ss.c implements it with SuiteSparse; direct_none.c, built when
 * SuiteSparse is missing, answers AXB_ERR_NOT_SUPPORTED.
 *
 * The life of a factor: analyze (ordering and symbolic factorisation:
 * cheap, and it yields the flop count and memory of the numeric step,
 * which AUTO weighs) -> factor -> solve (any number of times, A x = b or
 * A^T x = b) -> free.  The library never prints: SuiteSparse's own
 * printing is switched off.
 */
#ifndef AXB_SPARSE_DIRECT_H
#define AXB_SPARSE_DIRECT_H

#include "core/internal.h"

typedef struct axb_direct axb_direct;

typedef enum {
  AXB_DIRECT_CHOLMOD = 1, /* sparse Cholesky (supernodal or simplicial) */
  AXB_DIRECT_UMFPACK = 2  /* multifrontal LU with partial pivoting      */
} axb_direct_kind;

/* 1 when this build has the direct solvers. */
int axb__direct_available(void);

/* Ordering and symbolic analysis of the square CSR matrix A (values of
   either dtype, read as double; A must outlive F).  try_chol: analyse
   for CHOLMOD (A symmetric with a positive diagonal), else for UMFPACK.
   AXB_ERR_NOT_SUPPORTED without SuiteSparse; AXB_ERR_OUT_OF_MEMORY. */
axb_status axb__direct_analyze(axb_handle h, const axb_csr *A, int try_chol,
                               axb_direct **F);
/* AUTO's pre-estimate, before any analysis (issue 23): the flops of an LU
   factorisation of A without pivoting, rows and columns in the order AMD
   finds for the pattern of A + A^T (AMD's own count: Info[AMD_NDIV] +
   2 Info[AMD_NMULTSUBS_LU]).  It costs AMD's ordering only, about half of
   UMFPACK's analysis (which runs AMD itself for its symmetric strategy).
   AXB_ERR_NOT_SUPPORTED without SuiteSparse; AXB_ERR_OUT_OF_MEMORY. */
axb_status axb__direct_preestimate(axb_handle h, const axb_csr *A,
                                   double *flops);
/* What the numeric factorisation will cost, from the analysis: flops and
   the peak bytes it allocates. */
void axb__direct_estimate(const axb_direct *F, double *flops, double *bytes);
/* The memory available (bytes) when F was analysed: the figure its
   checks use (read once per solve; reading it costs about 0.1 ms). */
double axb__direct_memory(const axb_direct *F);
/* Numeric factorisation.  When CHOLMOD meets a non-positive pivot the
   factor is analysed and computed again by UMFPACK (axb__direct_switched
   says so).  The memory of the numeric step is checked against the
   available memory first (AXB_ERR_OUT_OF_MEMORY with the sizes).
   AXB_ERR_SINGULAR when UMFPACK finds A singular (*info: 0, the detail
   says so). */
axb_status axb__direct_factor(axb_handle h, axb_direct *F);
/* x := A^-1 b (trans = 0) or A^-T b (trans = 1), both of length n, in
   double (x and b distinct). */
axb_status axb__direct_solve(axb_handle h, axb_direct *F, int trans,
                             const double *b, double *x);
/* X := A^-1 B for two right-hand sides at once (B, X: n x 2, column
   major, distinct): one pass over a CHOLMOD factor for both. */
axb_status axb__direct_solve2(axb_handle h, axb_direct *F, const double *b,
                              double *x);
axb_direct_kind axb__direct_kind(const axb_direct *F);
/* The preprocessing the factorisation applied (after axb__direct_factor):
   equilibration, ordering, strategy, e.g. "rows scaled by their sums,
   columns ordered by COLAMD, unsymmetric strategy, ... (UMFPACK)". */
void axb__direct_describe(const axb_direct *F, char *buf, size_t len);
const char *axb__direct_name(const axb_direct *F); /* "cholmod", "umfpack" */
int axb__direct_switched(const axb_direct *F);     /* 1: CHOLMOD gave way */
void axb__direct_free(axb_direct *F);              /* NULL is fine */

/* Reciprocal 1-norm condition number estimate of the row-equilibrated
   matrix, 1 / (||R A||_1 ||(R A)^-1||_1) with R = diag(1 / max_j |a_ij|)
   (direct_condest.c says why R A certifies x as well as A), by Hager's method
   with Higham's extra vector (LAPACK's xLACON idea), from at most 5 + 1 solves
   with A and 5 with A^T through F.  A's values are read as double.  *rcond = 0
   when a solve gives a non-finite value. */
axb_status axb__direct_rcond(axb_handle h, const axb_csr *A, axb_direct *F,
                             double *rcond);

#endif
