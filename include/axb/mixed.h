/*
 * <axb/mixed.h>: mixed precision with an FP64 certificate (issue 22).
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_MIXED_H
#define AXB_API_MIXED_H

#include <stdint.h>

#include <axb/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Mixed precision with an FP64 certificate (issue 22)                      */
/* ------------------------------------------------------------------------ */

/*
 * Solve A X = B for FP64 A and B with a factorization in lower precision and
 * refinement in FP64 (LAPACK's dsgesv/dsposv, generalised):
 *
 *   1. A is scaled by powers of two, As = R A C (rows, then columns, so that
 *      every row and column of As has its largest entry in [1/2, 1]; for
 *      Cholesky symmetrically, As = D A D with unit-order diagonal): exact,
 *      and nothing overflows when As is rounded down (Higham, Pranesh and
 *      Zounon, SIAM J. Sci. Comput. 41(4), 2019).  On the CPU, an LU whose
 *      first factor is FP32 keeps R = C = 1 when every row and column
 *      maximum of A lies within 2^-64 .. 2^64, and uses one power of two
 *      for all rows when the row maxima span at most 2^40: row scales
 *      change partial pivoting's choices, which slowed refinement on
 *      matrices whose rows are well scaled already (report: the scales).
 *   2. As is rounded to FP32 and factored (LU with partial pivoting, or
 *      Cholesky) in the requested factor precision: FP32 throughout, or FP32
 *      panels with the trailing updates on tensor cores with inputs rounded
 *      to TF32, FP16 or BF16 and FP32 accumulation (CUDA).  On the CPU the
 *      factorization is FP32; TF32/FP16/BF16 there round As to that format
 *      first (the same information loss, no speed-up: for tests).
 *   3. Refinement in FP64 on the caller's A: r = B - A X, X += (LU)^-1 r
 *      (classic iterative refinement), or GMRES-IR (Carson and Higham, SIAM
 *      J. Sci. Comput. 40(2), 2018): FP64 GMRES on (LU)^-1 A d = (LU)^-1 r.
 *      It stops when every column's normwise backward error ratio
 *      ||b - A x||_inf / (||A||_inf ||x||_inf n eps) is < 30 (the driver's
 *      certificate, DESIGN.md), and early on stagnation or divergence.
 *   4. Never a wrong answer: a factor precision whose refinement does not
 *      certify falls back to the next (TF32/FP16/BF16 -> FP32 -> FP64 LU or
 *      Cholesky, the last checked by the same certificate).
 *
 * A and B are not modified (unlike LAPACK's dsgesv, whose A receives the
 * FP64 factors after a fallback); X may be B itself (B is read whole
 * first), and is left untouched when the FP64 factorization fails.  iter
 * (LAPACK's convention): >= 0 the refinement steps of the precision that
 * certified without any fallback; < 0 a fallback happened: -2 rounding A down
 * overflowed, -3 the low precision factorization failed (singular / not SPD
 * there), -31 refinement did not certify within its budget. Returns AXB_SUCCESS
 * when X is certified; AXB_ERR_SINGULAR / AXB_ERR_NOT_SPD (info = column /
 * minor) when the FP64 factorization fails too; AXB_ERR_INACCURATE when even
 * the FP64 answer fails the certificate (X is returned anyway); -i for an
 * illegal argument i.
 */
typedef enum {
  AXB_FACTOR_AUTO = 0, /* CUDA: FP16 for Cholesky, FP32 for LU; CPU:
                          FP32                                         */
  AXB_FACTOR_FP32 = 1,
  AXB_FACTOR_TF32 = 2, /* FP32 panels, TF32 tensor-core updates        */
  AXB_FACTOR_FP16 = 3, /* FP32 panels, FP16 tensor-core updates        */
  AXB_FACTOR_BF16 = 4, /* FP32 panels, BF16 tensor-core updates        */
  AXB_FACTOR_FP64 = 5, /* no low precision: FP64 factor, certified     */
  AXB_FACTOR_COUNT
} axb_factor_precision;

typedef enum {
  AXB_REFINE_AUTO = 0, /* IR; GMRES-IR with the same factors when IR
                          stagnates, before falling back               */
  AXB_REFINE_IR = 1,   /* classic iterative refinement only           */
  AXB_REFINE_GMRES = 2 /* GMRES-IR from the start                     */
} axb_refine;

/* "auto", "fp32", "tf32", "fp16", "bf16", "fp64". */
const char *axb_factor_precision_name(axb_factor_precision p);
axb_status axb_factor_precision_parse(const char *name,
                                      axb_factor_precision *p);

typedef struct {
  axb_factor_precision precision; /* default AUTO                          */
  axb_refine refine;              /* default AUTO                          */
  int max_iter;    /* IR steps per factor precision; 0: 30 (LAPACK's)    */
  int gmres_inner; /* most GMRES iterations per refinement step; 0: 30  */
  int fallback;    /* 1 (default): fall back on failure; 0: report
                      AXB_ERR_NO_CONVERGENCE instead                     */
  int scale;       /* 1 (default): scale A before rounding it down; 0:
                      round A as it is (studies, tests of the overflow
                      path)                                              */
} axb_mixed_opts;

void axb_mixed_opts_default(axb_mixed_opts *opts);

typedef struct {
  axb_factor_precision precision; /* the factor precision that certified
                                     (or the last one tried)              */
  axb_factor_precision requested; /* as resolved from AUTO                */
  axb_backend backend;            /* the backend that ran it (an AUTO
                                     handle: CPU or its GPU)              */
  int64_t iter;        /* LAPACK's ITER (see above)                      */
  int64_t ir_steps;    /* refinement steps, all precisions together      */
  int64_t gmres_iters; /* GMRES iterations, all steps together           */
  int fallbacks;       /* factor precisions abandoned                    */
  int gmres_used;      /* GMRES-IR produced the answer                   */
  double row_scale_min, row_scale_max; /* the powers of two of R (or D)  */
  double col_scale_min, col_scale_max; /* ... of C (1 for Cholesky)      */
  double backward_error; /* the certificate: max over columns of the ratio
                            above (< 30 when certified)                   */
  double t_factor, t_refine, t_total; /* seconds                          */
  /* Where the time went (seconds; parts of the three above): the scan of
     A (finiteness, norms, scales; on the CPU also the rounded copy when
     FP32 comes first), every residual B - A X (products and the
     certificate's norms), every correction through the factors
     (triangular solves and the scalings around them). */
  double t_scan, t_residual, t_solve;
} axb_mixed_info;

/* X (n x nrhs, ldx) := A^-1 B; A (lda), B (ldb) host arrays. */
axb_status axb_dsgesv(axb_handle h, int64_t n, int64_t nrhs, const double *A,
                      int64_t lda, const double *B, int64_t ldb, double *X,
                      int64_t ldx, int64_t *iter, int64_t *info);
/* A symmetric positive definite; only the uplo triangle is read. */
axb_status axb_dsposv(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                      const double *A, int64_t lda, const double *B,
                      int64_t ldb, double *X, int64_t ldx, int64_t *iter,
                      int64_t *info);
/* The same with options (NULL: defaults) and a report (NULL ok); chol = 1
   for the Cholesky form (uplo as above).  dev = 1: A, B and X are in device
   memory of the handle's GPU (a CUDA handle; the call waits for the
   handle's stream and returns when X is final); dev = 0: host arrays. */
axb_status axb_dsxsv_ex(axb_handle h, int chol, axb_uplo uplo, int dev,
                        int64_t n, int64_t nrhs, const double *A, int64_t lda,
                        const double *B, int64_t ldb, double *X, int64_t ldx,
                        const axb_mixed_opts *opts, axb_mixed_info *info_out,
                        int64_t *info);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_MIXED_H */
