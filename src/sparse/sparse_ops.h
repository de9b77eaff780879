/*
 * The sparse backend table: the operations under the Krylov solvers, so that
 * CG, CG1, BiCGStab and GMRES (src/sparse/sparse_krylov_t.h) are written
 * once and run on the CPU (src/sparse/sparse_cpu*.c, OpenMP; the REF handle
 * runs the same table on one thread) and on CUDA (src/sparse/cuda/, the table
 * returned by axb__sparse_cuda_ops()).
 *
 * Memory.  Vectors are plain typed pointers in the backend's memory (host
 * memory for cpu/ref, device memory for cuda), allocated by vec_alloc.  A
 * pointer may point inside a block (GMRES keeps its m+1 basis vectors in one
 * block of n*(m+1) and passes V + j*n).  Matrices and triangular factors are
 * opaque objects created from host arrays; a backend keeps whatever format
 * it likes (64-bit row pointers are kept; columns may be 32-bit inside).
 * All entries run in order on the handle (CUDA: its stream); an entry that
 * returns a scalar to the host (dot, nrm2, the fused CG1 reduction, the
 * sweeps' info) waits for the work before it.  finish() waits for all
 * queued work (used around timings).
 *
 * Sizes: every vector entry takes n >= 0 and must accept n == 0.
 * Aliasing: y and x of an entry may not alias unless the entry says so.
 * Status: AXB_SUCCESS, a library error (out of memory, device error), or a
 * numerical status with *info = 1-based row where the entry says so.  A
 * breakdown is a status and an index, never a NaN in a vector.
 *
 * Reductions return double and accumulate in double for float too.  The CPU
 * table reduces fixed chunks in a fixed order, so results are bitwise
 * reproducible for a given thread count.  The CUDA table's reductions and
 * its VECTOR SpMV are reproducible for a given launch configuration; its
 * MERGE SpMV (AUTO picks it only for irregular row lengths) adds partial
 * row sums with floating-point atomics and is not bitwise reproducible.
 */
#ifndef AXB_SPARSE_OPS_H
#define AXB_SPARSE_OPS_H

#include "axb.h"

#include <stdint.h>

/* Opaque backend objects, defined by each backend (cast to its own
   struct).  A matrix / factor made by the double table is used only with
   the double table, and likewise for float. */
typedef struct axb_spmat_s axb_spmat; /* a CSR matrix (values of T)      */
typedef struct axb_spfac_s axb_spfac; /* an incomplete factor, see below */

/* Kind of an incomplete factor F (pattern of A, one value per entry of A):
     AXB_SPF_LU: F = L + U - I: L unit lower (its strict lower part is F's
                 strict lower part), U upper with diagonal (F's upper part
                 including the diagonal); M = L U.
     AXB_SPF_IC: F's lower part including the diagonal is L (non-unit), its
                 strict upper part holds L^T (F(j,i) = F(i,j), the pattern
                 is symmetric); M = L L^T.
   The lower solve uses F's lower part (unit diagonal for AXB_SPF_LU), the
   upper solve F's upper part including the diagonal. */
typedef enum { AXB_SPF_LU = 0, AXB_SPF_IC = 1 } axb_spf_kind;

/* The host-side description of a factor's pattern, computed once by
   axb__spf_pattern_build (src/sparse/sparse_pattern.c) and handed to
   fac_create, which copies what it needs (the struct and its arrays may be
   freed after the call).  All arrays are 0-based int64_t. */
typedef struct axb_spf_pattern {
  axb_spf_kind kind;
  int64_t n, nnz;
  const int64_t *rowptr; /* n + 1, = A's                                   */
  const int64_t *colind; /* nnz, = A's (sorted within rows)                */
  const int64_t *diag;   /* n: position in colind of (i, i); present       */
  /* CSC view of the same pattern (for the ParILU sweeps, which read U by
     columns): column j holds CSR positions cscpos[colptr[j]..colptr[j+1])
     in increasing row order; csrrow[q] is the row of cscpos[q].  NULL
     unless asked for (AXB_SPF_NEED_CSC: only ParILU's sweeps read it). */
  const int64_t *colptr; /* n + 1 */
  const int64_t *csrrow; /* nnz   */
  const int64_t *cscpos; /* nnz   */
  /* tpos[k]: position of the transposed entry of entry k (AXB_SPF_IC
     only, where the pattern is symmetric; NULL for AXB_SPF_LU). */
  const int64_t *tpos; /* nnz or NULL */
  /* Level sets for the exact triangular solves: the rows of level l of
     the lower solve are lo_rows[lo_ptr[l]..lo_ptr[l+1]), every row depends
     only on rows of earlier levels; rows inside a level are increasing.
     Likewise up_* for the upper solve (levels counted from the last row).
     NULL (nlev 0) unless asked for (AXB_SPF_NEED_LEVELS: built only when
     exact solves will run and the table's tri_levels says it reads them). */
  int64_t lo_nlev, up_nlev;
  const int64_t *lo_ptr, *lo_rows; /* lo_nlev + 1, n */
  const int64_t *up_ptr, *up_rows; /* up_nlev + 1, n */
} axb_spf_pattern;

/* Triangular solve modes. */
typedef enum {
  AXB_SPTRI_EXACT = 0, /* substitution in a dependency order (CPU: level
                          sets; CUDA: one sync-free launch, or one launch
                          per level for large n)                          */
  AXB_SPTRI_JACOBI = 1 /* `sweeps` Jacobi sweeps of the triangular system:
                          x0 = D^-1 b, x_{k+1} = D^-1 (b - N x_k), N the
                          strict triangle, D the diagonal (I if unit)     */
} axb_sptri_mode;

#define AXB_DECLARE_SPARSE_OPS(T, NAME)                                        \
  typedef struct NAME {                                                        \
    /* ---- vectors ------------------------------------------------------ */  \
    axb_status (*vec_alloc)(axb_handle h, int64_t n, T **x);                   \
    void (*vec_free)(axb_handle h, T *x); /* NULL is fine */                   \
    /* host -> backend, backend -> host, backend -> backend (n entries) */     \
    axb_status (*vec_upload)(axb_handle h, int64_t n, const T *host, T *x);    \
    axb_status (*vec_download)(axb_handle h, int64_t n, const T *x, T *host);  \
    axb_status (*copy)(axb_handle h, int64_t n, const T *x, T *y);             \
    axb_status (*fill)(axb_handle h, int64_t n, T alpha, T *x);                \
    /* y := y + alpha x */                                                     \
    axb_status (*axpy)(axb_handle h, int64_t n, T alpha, const T *x, T *y);    \
    /* y := alpha x + beta y (beta == 0: y is not read); x may be y */         \
    axb_status (*axpby)(axb_handle h, int64_t n, T alpha, const T *x, T beta,  \
                        T *y);                                                 \
    /* z := x .* y (elementwise; z may alias x or y) */                        \
    axb_status (*vmul)(axb_handle h, int64_t n, const T *x, const T *y, T *z); \
    /* *r := <x, y>, accumulated in double */                                  \
    axb_status (*dot)(axb_handle h, int64_t n, const T *x, const T *y,         \
                      double *r);                                              \
    /* r[0] := <a, b>, r[1] := <c, d> in one reduction (BiCGStab) */           \
    axb_status (*dot2)(axb_handle h, int64_t n, const T *a, const T *b,        \
                       const T *c, const T *d, double r[2]);                   \
    axb_status (*nrm2)(axb_handle h, int64_t n, const T *x, double *r);        \
    /* x := x + sum_{j<k} y[j] V(:, j), V column-major n x k with leading      \
       dimension ldv (GMRES's update; y on the host, in double) */             \
    axb_status (*lincomb)(axb_handle h, int64_t n, int64_t k, const T *V,      \
                          int64_t ldv, const double *y, T *x);                 \
    /* ---- matrices ----------------------------------------------------- */  \
    /* A host CSR of dtype T, validated by the caller (square or not). */      \
    axb_status (*mat_create)(axb_handle h, const axb_csr *A, axb_spmat **M);   \
    void (*mat_destroy)(axb_handle h, axb_spmat *M); /* NULL is fine */        \
    /* y := alpha A x + beta y (beta == 0: y is not read); x, y distinct */    \
    axb_status (*spmv)(axb_handle h, const axb_spmat *A, T alpha, const T *x,  \
                       T beta, T *y);                                          \
    /* *r := || b - A x ||_2 with each row's sum and the norm in double (the   \
       true residual reported at the end of a solve) */                        \
    axb_status (*resid_nrm2)(axb_handle h, const axb_spmat *A, const T *x,     \
                             const T *b, double *r);                           \
    /* dinv[i] := 1 / A(i,i).  A zero, missing or non-finite diagonal entry:   \
       AXB_ERR_SMALL_PIVOT, *info = first such row (1-based). */               \
    axb_status (*diag_inv)(axb_handle h, const axb_spmat *A, T *dinv,          \
                           int64_t *info);                                     \
    /* ---- single-reduction CG (SEEDS.md, 2007 thesis; Chronopoulos-Gear) --  \
       One SpMV fused with three dot products, one reduction, one host read:   \
         s := A z;  r3[0] := <r, z>;  r3[1] := <z, s>;  r3[2] := <r, r>        \
       (unpreconditioned: z == r, and r3[0] == r3[2]).  s distinct from z, r.  \
     */                                                                        \
    axb_status (*cg1_spmv_dots)(axb_handle h, const axb_spmat *A, const T *z,  \
                                T *s, const T *r, double r3[3]);               \
    /* One fused update (z may be r):  p := z + beta p;  t := s + beta t;      \
                          x := x + alpha p; r := r - alpha t. */               \
    axb_status (*cg1_update)(axb_handle h, int64_t n, T alpha, T beta,         \
                             const T *z, const T *s, T *p, T *t, T *x, T *r);  \
    /* ---- incomplete factors ------------------------------------------- */  \
    /* Pattern (copied) and values (nnz host values, copied; NULL: left        \
       unset for fac_ilu0, on a table that has it). */                         \
    axb_status (*fac_create)(axb_handle h, const axb_spf_pattern *P,           \
                             const T *values, axb_spfac **F);                  \
    void (*fac_destroy)(axb_handle h, axb_spfac *F); /* NULL is fine */        \
    /* Copy the factor's nnz values to the host (tests, the study). */         \
    axb_status (*fac_download)(axb_handle h, const axb_spfac *F, T *values);   \
    /* Chow-Patel fixed-point sweeps over the pattern, starting from F's       \
       current values; A has F's pattern (same rowptr/colind).  Synchronous    \
       (Jacobi-style): every entry of sweep k+1 is computed from the values    \
       of sweep k, so results do not depend on scheduling.                     \
       AXB_SPF_LU, entry (i,j), m = min(i,j):                                  \
         s = sum_{k<m} l_ik u_kj;  i > j: l_ij = (a_ij - s) / u_jj;            \
                                   i <= j: u_ij = a_ij - s.                    \
       AXB_SPF_IC, entry (i,j), i >= j:                                        \
         s = sum_{k<j} l_ik l_jk;  i > j: l_ij = (a_ij - s) / l_jj;            \
                                   i == j: l_ii = sqrt(a_ii - s);              \
         then F(j,i) := F(i,j) through tpos.                                   \
       After the last sweep: a zero or non-finite pivot (u_ii, l_ii) or any    \
       non-finite value: AXB_ERR_SMALL_PIVOT; IC with a_ii - s <= 0:           \
       AXB_ERR_NOT_SPD; *info = smallest such row, 1-based (0 on success).     \
       sweeps == 0 leaves F unchanged but still checks it. */                  \
    axb_status (*fac_sweeps)(axb_handle h, const axb_spmat *A, axb_spfac *F,   \
                             int sweeps, int64_t *info);                       \
    /* Optional (NULL: the set-up factors on the host): F (AXB_SPF_LU, A's     \
       pattern) := the exact ILU(0) of A computed by the backend, the same     \
       elimination as axb__spf_ilu0 (in T: float rounds every step, the host   \
       once); a zero or non-finite pivot or value:                             \
       AXB_ERR_SMALL_PIVOT with *info = its smallest row, 1-based. */          \
    axb_status (*fac_ilu0)(axb_handle h, const axb_spmat *A, axb_spfac *F,     \
                           int64_t *info);                                     \
    /* Optional (NULL: fac_create from a host pattern): an AXB_SPF_LU factor   \
       on A's own pattern, values unset (for fac_ilu0), without a CSC view     \
       or level sets; it may share A's arrays, so it goes before A.  A row     \
       without its diagonal entry: AXB_ERR_SMALL_PIVOT, *info = its smallest   \
       row, 1-based (as axb__spf_pattern_build). */                            \
    axb_status (*fac_from_mat)(axb_handle h, const axb_spmat *A,               \
                               axb_spfac **F, int64_t *info);                  \
    /* x := L^-1 b (uplo AXB_LOWER) or U^-1 b (AXB_UPPER) with F's triangle,   \
       exactly or by `sweeps` Jacobi sweeps (>= 1); b and x                    \
       distinct; work: n entries (used by AXB_SPTRI_JACOBI). */                \
    axb_status (*tri_solve)(axb_handle h, const axb_spfac *F, axb_uplo uplo,   \
                            axb_sptri_mode mode, int sweeps, const T *b, T *x, \
                            T *work);                                          \
  } NAME;

AXB_DECLARE_SPARSE_OPS(double, axb_sparse_ops_d)
AXB_DECLARE_SPARSE_OPS(float, axb_sparse_ops_s)

typedef struct axb_sparse_ops {
  const char *name;
  axb_sparse_ops_d d;
  axb_sparse_ops_s s;
  /* Wait for all work queued on h (NULL: nothing is ever queued). */
  axb_status (*finish)(axb_handle h);
  /* 1 when the exact triangular solves of an n x n factor on h read the
     pattern's level sets (CPU: always; without them it substitutes row by
     row.  CUDA: only when n is too large for its sync-free solve, see
     src/sparse/cuda/fac.cu); 0 lets the set-up skip building them.  NULL:
     always built, the safe default. */
  int (*tri_levels)(axb_handle h, int64_t n);
} axb_sparse_ops;

/* The CPU table (src/sparse/sparse_cpu.c): OpenMP, axb_omp_threads(h)
   threads; a REF handle gets the same table and runs it on one thread. */
const axb_sparse_ops *axb__sparse_cpu_ops(void);
/* The CUDA table (src/sparse/cuda/, S2).  Returns NULL when CUDA is not
   compiled (src/sparse/cuda/sparse_cuda_stub.c, excluded by CMake from
   CUDA builds). */
const axb_sparse_ops *axb__sparse_cuda_ops(void);

#endif
