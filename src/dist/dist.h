/*
 * The distributed layer's internal interface (issue 24): the process grid,
 * index maps of the 2-D block-cyclic layout, the collective agreement on a
 * status, and the table of rank-local operations the algorithms call.
 *
 * The algorithms (dist_lu_t.h, dist_chol_t.h, dist_solve_t.h) touch a
 * rank's blocks only through the local-operation table (dist_ops): GEMM,
 * TRSM, the diagonal block's Cholesky, the pivot search and rank-1 step of
 * one panel column, row interchanges, and the packing of sub-blocks into
 * contiguous host buffers for messages.  The CPU table (dist_ops.c) runs
 * them on the handle's backend (OpenMP + OpenBLAS on a CPU handle); a GPU
 * rank adds a table whose blocks live in device memory (cuBLAS, axb's
 * kernels; pack/unpack stage through pinned buffers or hand NCCL device
 * pointers) without changing the algorithms.
 */
#ifndef AXB_DIST_INTERNAL_H
#define AXB_DIST_INTERNAL_H

#include "axb_dist.h"
#include "core/internal.h"

#include <stdlib.h>

struct axb_dist_grid_s {
  MPI_Comm comm; /* the caller's, duplicated                       */
  MPI_Comm row;  /* the Q ranks of this process row (rank = pcol)   */
  MPI_Comm col;  /* the P ranks of this process column (rank = prow) */
  int nprow, npcol, prow, pcol, rank;
  int lookahead;
  int rcond; /* the certified driver estimates rcond (1) or not (0) */
  axb_dist_pivot pivot;
  axb_dist_times times;
  axb_dist_timeline timeline; /* GPU ranks, AXB_DIST_TIMELINE=1 */
};

/* ---- index maps (source process 0, square blocks nb) ---------------- */

/* Local index of global index i on its owner (of nprocs). */
static inline int64_t dist_g2l(int64_t i, int64_t nb, int nprocs) {
  return (i / nb / nprocs) * nb + i % nb;
}
/* Global index of local index l on process p (of nprocs). */
static inline int64_t dist_l2g(int64_t l, int64_t nb, int p, int nprocs) {
  return ((l / nb) * nprocs + p) * nb + l % nb;
}
/* Owner (process row or column) of global index i. */
static inline int dist_owner(int64_t i, int64_t nb, int nprocs) {
  return (int)((i / nb) % nprocs);
}

/* ---- collectives ------------------------------------------------------ */

/* Every rank passes its own status; all return the same one: the most
   severe (errors < 0 before numerical > 0, the most negative first; ties
   to the lowest rank), with that rank's detail (prefixed by its rank) on
   every handle.  AXB_SUCCESS only when every rank succeeded. */
axb_status axb__dist_agree(axb_handle h, const axb_dist_grid *g, axb_status st);
/* MPI_Datatype of the scalar of dtype. */
MPI_Datatype axb__dist_mpi_type(axb_dtype t);
/* Check a distributed matrix's fields against its grid (this rank). */
axb_status axb__dist_check(axb_handle h, const axb_dist_matrix *A,
                           axb_dtype dtype, const char *who);
/* Largest count in one MPI message (int). */
#define AXB_DIST_MSG_MAX ((int64_t)1 << 30)

/* The fields every algorithm context (LU, Cholesky, solve) takes from the
   handle and the matrix: zeroed, then h, grid, the CPU table of the
   including template file, the local array and its shape. */
#define AXB_DIST_CTX_INIT(c, hh, A)                                            \
  do {                                                                         \
    memset(&(c), 0, sizeof(c));                                                \
    (c).h = (hh);                                                              \
    (c).g = (axb_dist_grid *)(A)->grid;                                        \
    (c).ops = AXB_FN(axb__dist_ops_, )(hh);                                    \
    (c).a = (A)->data;                                                         \
    axb__dist_gpu_prefetch((hh), (A));                                         \
    (c).lld = (A)->lld;                                                        \
    (c).n = (A)->n;                                                            \
    (c).nb = (A)->nb;                                                          \
    (c).mloc = (A)->mloc;                                                      \
    (c).nloc = (A)->nloc;                                                      \
  } while (0)

/* ---- the table of rank-local operations -------------------------------

   When an operation's result is ready (the rule of GPU ranks, issue 24i):
   the device table enqueues every operation on the rank's one compute
   stream and returns without waiting for the device, except where the host
   reads the result.  An operation whose output is a host value (potrf's
   and panel_lu's info and pivots, iamax) or a host buffer (pack,
   pack_rows into a message buffer; a host operand of gemm/trsm written
   back) returns with that output complete; an operation whose output is
   device memory (gemm, trsm, syrk, laswp, swaps, unpack, packs device to
   device, mirror) returns at once, and the next operation sees its result
   because the stream runs them in order.  So no operation ends with a
   device-wide sync; host code reads the local array (managed memory) only
   after sync(), which the factorizations call at their end.  Broadcasts
   run on a second stream (bcast); bcast_wait orders the compute stream
   after one.  The CPU table computes everything before it returns. */

#define AXB_DIST_DECLARE_OPS(T, NAME)                                          \
  typedef struct NAME {                                                        \
    /* C := alpha op(A) op(B) + beta C on local blocks. */                     \
    axb_status (*gemm)(axb_handle h, axb_trans ta, axb_trans tb, int64_t m,    \
                       int64_t n, int64_t k, T alpha, const T *A, int64_t lda, \
                       const T *B, int64_t ldb, T beta, T *C, int64_t ldc);    \
    axb_status (*trsm)(axb_handle h, axb_side side, axb_uplo uplo,             \
                       axb_trans trans, axb_diag diag, int64_t m, int64_t n,   \
                       T alpha, const T *A, int64_t lda, T *B, int64_t ldb);   \
    /* Lower Cholesky of a diagonal block; *info as potrf. */                  \
    axb_status (*potrf)(axb_handle h, int64_t n, T *A, int64_t lda,            \
                        int64_t *info);                                        \
    /* Index (0..m-1) and magnitude of the largest |x_i| of m entries (NaN     \
       counts as the largest: it must surface); m = 0: index -1, value -1. */  \
    void (*iamax)(int64_t m, const T *x, int64_t *idx, double *val);           \
    /* One step of the unblocked panel LU on local rows: x (m entries)         \
       := x / piv (by the reciprocal when |piv| >= the safe minimum, as        \
       LAPACK), then the m x w block C -= x u^T, u the pivot row's w entries   \
       to the right.  piv = 0: x is left as it is and C unchanged. */          \
    void (*panel_step)(int64_t m, int64_t w, T piv, T *x, const T *u, T *C,    \
                       int64_t ldc);                                           \
    /* LAPACK's laswp on local rows: interchanges k1 .. k2-1 of ipiv (0-based  \
       positions, 1-based local rows) applied in order to n columns. */        \
    axb_status (*laswp)(axb_handle h, int64_t n, T *A, int64_t lda,            \
                        int64_t k1, int64_t k2, const int64_t *ipiv);          \
    /* Exchange local rows r1 and r2 over n columns. */                        \
    void (*swap_rows)(int64_t n, T *A, int64_t lda, int64_t r1, int64_t r2);   \
    /* buf (m x n, ld m) := rows rows[0..m-1] of A's n columns, and back. */   \
    void (*pack_rows)(int64_t m, const int64_t *rows, int64_t n, const T *A,   \
                      int64_t lda, T *buf);                                    \
    void (*unpack_rows)(int64_t m, const int64_t *rows, int64_t n,             \
                        const T *buf, T *A, int64_t lda);                      \
    /* buf (m x n, ld m) := A (m x n, ld lda), and back. */                    \
    void (*pack)(int64_t m, int64_t n, const T *A, int64_t lda, T *buf);       \
    void (*unpack)(int64_t m, int64_t n, const T *buf, T *A, int64_t lda);     \
    /* 1: the LU factors each panel on a host copy of it (the rank's array     \
       a is device memory and the table prefers the host for the pivot         \
       search; GPU ranks, AXB_DIST_GPU_PANEL=host); 2: on several process      \
       rows the panel is gathered onto one device and factored there by        \
       panel_lu (gatherv_root; GPU ranks by default), the host copy as its     \
       fallback; 0: in place. */                                               \
    int (*panel_on_host)(const T *a);                                          \
    /* The host array x (count entries) where gemm reads it without a copy     \
       per call: the GPU table's device buffer `slot` (0 or 1; valid until     \
       the next mirror of that slot), the CPU table's x itself; x when no      \
       copy can be had.  One upload per step instead of one per gemm. */       \
    const T *(*mirror)(int slot, const T *x, int64_t count);                   \
    /* The lower triangle of C (n x n) += alpha A A^T (A n x k), the           \
       Cholesky update's diagonal blocks on the device (cuBLAS syrk).  NULL    \
       or AXB_ERR_NOT_SUPPORTED (C not device memory): the caller's gemm       \
       into scratch and host loop. */                                          \
    axb_status (*syrk)(axb_handle h, int64_t n, int64_t k, T alpha,            \
                       const T *A, int64_t lda, T *C, int64_t ldc);            \
    /* LU with partial pivoting of an m x n panel held whole by this rank      \
       (one process row), in place: ipiv[0..n) 1-based panel rows, *info       \
       the first exactly zero pivot (1-based; 0: none).  NULL or               \
       AXB_ERR_NOT_SUPPORTED: the distributed panel (the GPU table: cuSOLVER   \
       getrf on the device array unless AXB_DIST_GPU_PANEL is set). */         \
    axb_status (*panel_lu)(axb_handle h, int64_t m, int64_t n, T *A,           \
                           int64_t lda, int64_t *ipiv, int64_t *info);         \
    /* panel_lu in two halves: _start queues the factorization and the copy    \
       of its pivots and info (no host wait), _wait waits for that copy and    \
       writes ipiv, info as panel_lu.  One panel at a time.  NULL: none. */    \
    axb_status (*panel_lu_start)(axb_handle h, int64_t m, int64_t n, T *A,     \
                                 int64_t lda);                                 \
    axb_status (*panel_lu_wait)(axb_handle h, int64_t n, int64_t *ipiv,        \
                                int64_t *info);                                \
    /* MPI_Bcast of the count entries of the host message buffer buf from      \
       root over comm, between the GPUs (NCCL), into the table's device        \
       buffer dslot (0-3; dbuf) that mirror() returns for buf until buf's      \
       next broadcast.  Started, not finished: bcast_wait(buf) orders the      \
       device's later work after it (and fills a receiver's host buf unless    \
       AXB_DIST_BC_DEV_ONLY).  flags: AXB_DIST_BC_ROOT_DEV: the root's         \
       entries are in dbuf(dslot), not in buf; AXB_DIST_BC_DEV_ONLY: the       \
       receivers read the result only through mirror().  Collective over       \
       comm (every rank of a grid has the same table).  1: started; 0: not     \
       available (NULL in the CPU table; no NCCL, several ranks on one GPU,    \
       AXB_DIST_NCCL=0 or a failure; agreed over comm): the caller's           \
       MPI_Bcast, with the root's entries in buf (copied there from dbuf       \
       under ROOT_DEV). */                                                     \
    int (*bcast)(T * buf, int64_t count, int root, MPI_Comm comm, int dslot,   \
                 int flags);                                                   \
    void (*bcast_wait)(T * buf);                                               \
    /* The device buffer (count entries) that bcast of dslot sends from        \
       under AXB_DIST_BC_ROOT_DEV, or NULL (CPU table; no memory): the root    \
       packs its panel there device to device, no host copy. */                \
    T *(*dbuf)(int dslot, int64_t count);                                      \
    /* B (m x n, ld ldb) := A (m x n, ld lda), either side host or device. */  \
    void (*copy)(int64_t m, int64_t n, const T *A, int64_t lda, T *B,          \
                 int64_t ldb);                                                 \
    /* A device work buffer (slot 0 to 2, count entries; grow-only), or NULL   \
       (CPU table; no memory). */                                              \
    T *(*dwork)(int slot, int64_t count);                                      \
    /* Every rank's piece (cnt[p] entries at d + dsp[p], d from dwork, this    \
       rank's already there) onto every rank of comm, device to device         \
       (NCCL); the compute stream is ordered after it.  Collective, agreed:    \
       1 done, 0 not available (NULL in the CPU table): the caller's           \
       MPI_Allgatherv on host buffers. */                                      \
    int (*gatherv)(T * d, const int *cnt, const int *dsp, MPI_Comm comm);      \
    /* The pieces (cnt[p] entries at d + dsp[p], d from dwork) onto root       \
       (dir 0; every rank's own piece in place) or from root back to their     \
       ranks (dir 1), device to device (NCCL point to point, one group); the   \
       compute stream is ordered after it.  Collective, agreed: 1 done, 0 not  \
       available (NULL in the CPU table; no NCCL). */                          \
    int (*gatherv_root)(T * d, const int *cnt, const int *dsp, int root,       \
                        int dir, MPI_Comm comm);                               \
    /* MPI_Alltoallv's exchange on device buffers (s, r from dwork; counts     \
       and offsets in entries), device to device (NCCL point to point, one     \
       group); the compute stream is ordered after it.  Collective, agreed     \
       (s or r NULL on a rank: 0 everywhere): 1 done, 0 not available (NULL    \
       in the CPU table): the caller's MPI_Alltoallv on host buffers. */       \
    int (*alltoallv)(const T *s, const int *sc, const int *sd, T *r,           \
                     const int *rc, const int *rd, MPI_Comm comm);             \
    /* Operations from here go to lane s: 0 the compute stream, 1 the          \
       look-ahead lane (GPU ranks: a second, high-priority stream, so that     \
       the look-ahead's block column and panel run beside the trailing         \
       update).  Switching to 1 orders the lane after the compute stream's     \
       work up to the last fence() and after every broadcast so far, nothing   \
       else: the caller keeps the lanes on disjoint data and reads the         \
       lane's results on the compute stream only through a broadcast of        \
       them (bcast orders its readers after its source).  NULL in the CPU      \
       table (one lane). */                                                    \
    void (*lane)(int s);                                                       \
    void (*fence)(void);                                                       \
    /* Wait for every device operation of this rank (the end of a              \
       factorization: host code reads the local array next); a device          \
       failure of an operation that had no status to return is reported        \
       here.  NULL in the CPU table. */                                        \
    axb_status (*sync)(axb_handle h);                                          \
  } NAME;

AXB_DIST_DECLARE_OPS(double, axb_dist_ops_d)
AXB_DIST_DECLARE_OPS(float, axb_dist_ops_s)

/* The table's device broadcast of buf (1), or 0: the caller's MPI_Bcast. */
#define AXB_DIST_BC_ROOT_DEV 1
#define AXB_DIST_BC_DEV_ONLY 2
#define AXB_DIST_BCAST(ops, buf, count, root, comm, dslot, flags)              \
  ((ops)->bcast &&                                                             \
   (ops)->bcast((buf), (count), (root), (comm), (dslot), (flags)))
/* Where a broadcast's result is first needed (after MPI_Wait). */
#define AXB_DIST_BCAST_WAIT(ops, buf)                                          \
  do {                                                                         \
    if ((ops)->bcast_wait) (ops)->bcast_wait(buf);                             \
  } while (0)

/* The CPU table: BLAS-3 and potrf through h's backend table, the rest
   host loops. */
extern const axb_dist_ops_d axb__dist_cpu_d;
extern const axb_dist_ops_s axb__dist_cpu_s;

/* ---- GPU ranks (dist_gpu.c; issue 24g) -------------------------------- */

/* The table for h: the GPU table on a CUDA handle when the layer was built
   with CUDA (AXB_DIST_GPU), else the CPU table. */
const axb_dist_ops_d *axb__dist_ops_d(axb_handle h);
const axb_dist_ops_s *axb__dist_ops_s(axb_handle h);
/* 1 when h is a CUDA handle and this build has GPU ranks. */
int axb__dist_gpu_handle(axb_handle h);
/* A local array of count entries of size bytes, zero-filled: CUDA managed
   memory on a GPU rank (*owns = 2: device-resident while the GPU works on
   it, readable by the host code that fills, scans and checks it), else
   host memory (*owns = 1).  NULL when out of memory. */
void *axb__dist_alloc(axb_handle h, int64_t count, size_t size, int *owns);
void axb__dist_free(void *p, int owns);
/* A host message buffer of count entries of size bytes: page-locked
   (cudaMallocHost) on a GPU rank, so that its copies to and from the device
   run at full PCIe speed; axb__malloc otherwise or when that fails.  Free
   with axb__dist_hfree. */
void *axb__dist_halloc(axb_handle h, int64_t count, size_t size);
void axb__dist_hfree(void *p);
/* A broadcast's host buffer (the LU's panels and U12, the Cholesky's
   panels): on a GPU rank whose broadcasts go by NCCL it only names the
   device copy the broadcast fills, and host code never touches it, so it
   is plain (lazily mapped) memory: page-locking ~0.5 GB per rank at n =
   32768 took most of the 220-330 ms before a 1 x 2 getrf's first device
   phase (2 H200s, the device timeline, eleventh session).  With
   AXB_DIST_PINNED=1 it is page-locked as axb__dist_halloc's (the A/B; the
   MPI fallback's copies are faster from page-locked memory).  Free with
   axb__dist_hfree. */
void *axb__dist_bcbuf(axb_handle h, int64_t count, size_t size);
/* On a GPU rank: start moving A's managed local array to h's device (the
   algorithms' cuBLAS calls then find it there).  No-op otherwise. */
void axb__dist_gpu_prefetch(axb_handle h, const axb_dist_matrix *A);

/* The device timeline (AXB_DIST_TIMELINE=1; axb_dist.h): start returns 1
   when it records this factorization (h a CUDA handle of a GPU build, the
   variable set), after recording its origin event on the compute stream;
   mark brackets a phase (AXB_DIST_PH_*) on the stream operations go to
   now (begin 1, then 0, never nested for one phase); end, after the
   factorization's sync, reads the intervals into *t (zeroed when nothing
   was recorded).  No-ops without GPU ranks. */
int axb__dist_gpu_timeline_start(axb_handle h);
void axb__dist_gpu_mark(int phase, int begin);
void axb__dist_gpu_timeline_end(axb_dist_timeline *t);
/* The last timeline's intervals (axb_dist_get_timeline_intervals). */
long long axb__dist_gpu_timeline_raw(double *iv, long long cap);
/* A phase's bracket in an algorithm whose context has `tl` (1: recording). */
#define AXB_DIST_MARK(c, ph, begin)                                            \
  do {                                                                         \
    if ((c)->tl) axb__dist_gpu_mark((ph), (begin));                            \
  } while (0)

/* 1 when the receivers of a look-ahead panel broadcast join it after
   enqueuing their trailing update (GPU ranks, gpu = 1, with
   AXB_DIST_GPU_LATE_RECV=1; issue 24k): the broadcast's agreement waits
   on the host for the owner's panel, so joining first leaves a
   receiver's GPU idle for that time; joining late moves the transfer
   behind the update instead (an A/B for the device: off by default). */
static inline int axb__dist_late_recv(int gpu) {
  const char *e = gpu ? getenv("AXB_DIST_GPU_LATE_RECV") : NULL;
  return e && e[0] == '1' && e[1] == 0;
}

/* ---- typed algorithms (dist_lu.c, dist_chol.c, dist_solve.c) ----------- */

#define AXB_DIST_DECLARE_ALGO(T, p)                                            \
  axb_status axb__dist_##p##getrf(axb_handle h, axb_dist_matrix *A,            \
                                  int64_t *ipiv, int64_t *info);               \
  axb_status axb__dist_##p##potrf(axb_handle h, axb_dist_matrix *A,            \
                                  int64_t *info);                              \
  axb_status axb__dist_##p##getrs(                                             \
      axb_handle h, axb_trans trans, const axb_dist_matrix *A,                 \
      const int64_t *ipiv, int64_t nrhs, T *B, int64_t ldb);                   \
  axb_status axb__dist_##p##potrs(axb_handle h, const axb_dist_matrix *A,      \
                                  int64_t nrhs, T *B, int64_t ldb);            \
  /* Per column c of X: ||b_c - A x_c||_inf / (||A||_inf ||x_c||_inf n eps)    \
     (the largest over columns into *ratio), the same on every rank;           \
     returns a status already agreed. */                                       \
  axb_status axb__dist_##p##backward_error(                                    \
      axb_handle h, const axb_dist_matrix *A, int64_t nrhs, const T *B,        \
      int64_t ldb, const T *X, int64_t ldx, double *ratio);                    \
  /* ||A||_1 (the largest column sum of |a_ij|, summed in double), the same    \
     on every rank. */                                                         \
  double axb__dist_##p##norm1(const axb_dist_matrix *A);                       \
  /* The 1-norm reciprocal condition estimate 1 / (anorm est ||A^-1||_1)       \
     from the factors F (LU with ipiv, or Cholesky), the same on every rank    \
     (dist_cond_t.h); y1: solve_x1's, or NULL.  A status already agreed. */    \
  /* X := A^-1 X (n x nrhs, replicated) from the factors F, and *y1 (n x       \
     AXB_CONDEST_T doubles, axb__malloc'ed; NULL when n <= AXB_CONDEST_T) :=   \
     A^-1 X1, the estimator's first block solved beside X.  Agreed. */         \
  axb_status axb__dist_##p##solve_x1(                                          \
      axb_handle h, const axb_dist_matrix *F, const int64_t *ipiv, int chol,   \
      int64_t nrhs, T *X, int64_t ldx, double **y1);                           \
  axb_status axb__dist_##p##rcond(axb_handle h, const axb_dist_matrix *F,      \
                                  const int64_t *ipiv, int chol, double anorm, \
                                  const double *y1, double *rcond);

AXB_DIST_DECLARE_ALGO(double, d)
AXB_DIST_DECLARE_ALGO(float, s)

#endif
