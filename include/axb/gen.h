/*
 * <axb/gen.h>: seeded generators and the accuracy checks.
 * One piece of axb's public API: include <axb.h>, which includes every
 * piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_GEN_H
#define AXB_API_GEN_H

#include <stdint.h>

#include <axb/core.h>
#include <axb/matrix.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Generators: seeded, identical on every backend and platform              */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_GEN_UNIFORM = 0,   /* uniform(-1, 1)                                */
  AXB_GEN_UNIFORM1000,   /* uniform in [-1000, 1000], no zeros            */
  AXB_GEN_POSITIVE1000,  /* uniform in (0, 1000]                          */
  AXB_GEN_INTEGER,       /* integers in [-100, 100]                       */
  AXB_GEN_DIAGONAL,      /* diagonal, entries uniform in [1, 2]           */
  AXB_GEN_UPPER,         /* upper triangular, diag in [1,2], rest
                            uniform(-1,1)/sqrt(n) (kappa ~ n/5)          */
  AXB_GEN_SPD_SHIFT,     /* (R + R^T)/2 + n I, R uniform(-1, 1)           */
  AXB_GEN_SPD_GRAM,      /* R R^T + n I                                   */
  AXB_GEN_DIAG_DOMINANT, /* uniform(-1,1), |a_ii| > sum_j!=i |a_ij|       */
  AXB_GEN_HILBERT,       /* 1 / (i + j + 1), 0-based                      */
  AXB_GEN_COND,          /* U diag(sigma) V^T, sigma geometric 1..1/kappa */
  AXB_GEN_POISSON2D,     /* 5-point, grid g x g, n = g^2 (sparse)         */
  AXB_GEN_POISSON3D,     /* 7-point, grid g^3, n = g^3 (sparse)           */
  AXB_GEN_SINGULAR,      /* uniform(-1,1) with column `col` zeroed        */
  AXB_GEN_CONVDIFF3D,    /* 7-point convection-diffusion, grid g^3, first-
                            order upwind, unsymmetric M-matrix (sparse):
                            diag 6 + 6 Pe, lower neighbours -1 - 2 Pe,
                            upper -1; Pe (cell Peclet number, > 0) in
                            `kappa`, default 1                            */
  AXB_GEN_COUNT
} axb_gen_kind;

typedef struct {
  axb_gen_kind kind;
  int64_t n;     /* matrix order (for Poisson: the grid edge g)          */
  double kappa;  /* AXB_GEN_COND: 2-norm condition number (default 1e3);
                    AXB_GEN_CONVDIFF3D: cell Peclet number (default 1) */
  int64_t col;   /* AXB_GEN_SINGULAR: 0-based zero column (default n/2) */
  uint64_t seed; /* default 42                                          */
} axb_gen_spec;
/* Filled by hand: kappa == 0 means 1e3 (convdiff3d: 1), col < 0 means n/2. */

/* Parse "KIND:N[,key=value...]", e.g. "spd:2000", "cond:500,kappa=1e8",
   "poisson2d:64", "uniform:1000,seed=7", "convdiff3d:100,peclet=2".
   Kinds: uniform, uniform1000, positive1000, integer, diagonal, upper, spd
   (= spd-shift), spd-gram, diagdom, hilbert, cond, poisson2d, poisson3d,
   singular, convdiff3d. */
axb_status axb_gen_parse(axb_handle h, const char *text, axb_gen_spec *spec);
const char *axb_gen_kind_name(axb_gen_kind k);
/* Order of the generated matrix (g^2, g^3 for Poisson and convdiff3d). */
int64_t axb_gen_order(const axb_gen_spec *spec);
/* Dense n x n matrix (allocated by the call); every kind, Poisson too. */
axb_status axb_gen_dense(axb_handle h, const axb_gen_spec *spec,
                         axb_dtype dtype, axb_dense *A);
/* Sparse: Poisson and convdiff3d natively; dense kinds are converted. */
axb_status axb_gen_csr(axb_handle h, const axb_gen_spec *spec, axb_dtype dtype,
                       axb_csr *A);

typedef enum {
  AXB_RHS_ONES = 0,  /* x_true = (1,...,1), b = A x_true (row sums)    */
  AXB_RHS_RANDOM = 1 /* x_true uniform(-1, 1) from seed, b = A x_true   */
} axb_rhs_kind;
/* Allocates X_true and B (n x nrhs, dtype of A); b is computed in double. */
axb_status axb_gen_rhs(axb_handle h, const axb_dense *A, int64_t nrhs,
                       axb_rhs_kind kind, uint64_t seed, axb_dense *X_true,
                       axb_dense *B);

/* ------------------------------------------------------------------------ */
/* Accuracy checks (scaled residuals; pass when < 30, DESIGN.md)            */
/* ------------------------------------------------------------------------ */

/* eps used by the checks: unit roundoff, 2^-53 (double) / 2^-24 (float). */
double axb_eps(axb_dtype t);
/* Matrix norm of A (any dtype, host), computed in double. */
double axb_matrix_norm(const axb_dense *A, axb_norm norm);
/* ||P A - L U||_1 / (n ||A||_1 eps); LU and ipiv from getrf (m = n). */
double axb_check_lu(const axb_dense *A, const axb_dense *LU,
                    const int64_t *ipiv);
/* ||A - L L^T||_1 / (n ||A||_1 eps) (lower) or A - U^T U (upper). */
double axb_check_cholesky(const axb_dense *A, const axb_dense *F,
                          axb_uplo uplo);
/* max over columns ||b - A x||_inf / (||A||_inf ||x||_inf n eps). */
double axb_check_solve(const axb_dense *A, const axb_dense *X,
                       const axb_dense *B);
/* ||I - A X||_1 / (n ||A||_1 ||X||_1 eps). */
double axb_check_inverse(const axb_dense *A, const axb_dense *X);
/* max over columns ||x - x_true||_inf / ||x_true||_inf. */
double axb_forward_error(const axb_dense *X, const axb_dense *X_true);
/* The source documents' metrics: max |P A - L U| (ipiv may be NULL for
   an unpivoted factor) and max |A - Y| (Y = inv(inv(A)) computed by the
   caller). */
double axb_max_lu_diff(const axb_dense *A, const axb_dense *LU,
                       const int64_t *ipiv);
double axb_max_abs_diff(const axb_dense *A, const axb_dense *Y);

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_GEN_H */
