/* Cholesky for the CPU backend, float and double (omp_chol_t.h).  Without
   OpenBLAS the reference potrf stays in the table. */
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"
#include "core/template.h"

#include <math.h>

#ifdef AXB_HAVE_LAPACK

/* Leaf width of the recursive diagonal-block factorization. */
#define OMP_CHOL_LEAF 16
/* Order of the factor below which the recursion's triangular solve calls
   trsm rather than splitting further into gemm. */
#define OMP_CHOL_TRSM_LEAF 32
/* Up to this order: the recursion on the whole matrix, no OpenMP region. */
#define OMP_CHOL_SMALL 512
/* Up to this order the unblocked loop factors the whole matrix
   (AXB_CHOL_DIRECT). */
#define OMP_CHOL_DIRECT 128
/* Block width of the look-ahead path (AXB_CHOL_NB overrides it). */
#define OMP_CHOL_NB(n, nt) ((n) <= 2048 ? 128 : 192)
/* Trailing pieces per step (cut to equal work). */
#define OMP_CHOL_PARTS(nt) (3 * (nt))
/* Hybrid path: rows below which the recursion's triangular solve is one
   (threaded) trsm call rather than split into gemm (AXB_HYB_TRSM_LEAF). */
#define OMP_HYB_TRSM_LEAF 512

#define AXB_TEMPLATE "backend/omp/omp_chol_t.h"
#include "core/instantiate.h"

#endif
