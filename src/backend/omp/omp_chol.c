/* Cholesky for the CPU backend, float and double (omp_chol_t.h).  Without
   OpenBLAS the reference potrf stays in the table. */
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"
#include "backend/verdict.h"
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
   (AXB_CHOL_DIRECT): the recursion's small trsm/syrk calls cost more than
   they save there (one thread, 2-core VM: 1.4x faster at n = 48-96, 1.2x
   at 128, slower from 160; device host: dpotrf n = 64 / 128 from 0.87 /
   0.96 to 1.8 / 1.09 of OpenBLAS). */
#define OMP_CHOL_DIRECT 128
/* Block width of the look-ahead path (AXB_CHOL_NB overrides it). */
#define OMP_CHOL_NB(n, nt) ((n) <= 2048 ? 128 : 192)
/* Trailing pieces per step (cut to equal work). */
#define OMP_CHOL_PARTS(nt) (3 * (nt))
/* Hybrid path: rows below which the recursion's triangular solve is one
   (threaded) trsm call rather than split into gemm (AXB_HYB_TRSM_LEAF).
   The per-phase profile on the 16-core device host put 61-67 % of a
   hybrid potrf (n = 2048-16384) in OpenBLAS's threaded trsm, against
   33-37 % in syrk for the same flops; split from 512 rows, two device
   runs gave 0.94 -> 1.02, 0.84-0.92 -> 0.98-0.99 and 0.76-0.88 ->
   0.89-0.98 of OpenBLAS at n = 2048 / 4096 / 8192 (docs/PERFORMANCE.md);
   whole-trsm (INT64_MAX) was the default before. */
#define OMP_HYB_TRSM_LEAF 512

#define AXB_TEMPLATE "backend/omp/omp_chol_t.h"
#include "core/instantiate.h"

#endif
