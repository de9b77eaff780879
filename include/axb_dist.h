/*
 * axb_dist.h: distributed dense LU and Cholesky over MPI (issue 24).
 *
 * Built only when MPI is found (CMake option AXB_MPI); the library is then
 * libaxb_dist, linked beside libaxb.  This header includes mpi.h; axb.h
 * does not need MPI.
 *
 * Layout: ScaLAPACK's 2-D block-cyclic distribution of a global n x n
 * matrix on a P x Q process grid, square blocks nb x nb, the first block on
 * process (0, 0) (RSRC = CSRC = 0), ranks laid out row-major on the grid
 * (rank = prow Q + pcol, BLACS's default 'R' order).  Global block (I, J)
 * lives on process (I mod P, J mod Q), at local block (I / P, J / Q); a
 * rank's local array is column-major with leading dimension lld >= max(1,
 * mloc), mloc = axb_dist_numroc(n, nb, prow, P) (ScaLAPACK's NUMROC).  A
 * caller's ScaLAPACK local array (DESC: M = N = n, MB = NB = nb, RSRC =
 * CSRC = 0, LLD) can be wrapped without copying (axb_dist_matrix_wrap).
 *
 * Semantics: LAPACK's.  Every routine is collective over the grid's
 * communicator and returns the same status on every rank (agreed by a
 * collective before it returns: a failure on one rank, an allocation or a
 * NaN in its blocks, is reported on all, never a hang); info is the global
 * 1-based column of the first zero pivot (getrf) or the order of the
 * first minor that is not positive definite (potrf), the same on every
 * rank.  ipiv is global (n entries, 1-based global rows, LAPACK's ipiv)
 * and replicated on every rank (ScaLAPACK keeps a local ipiv instead).
 * Right-hand sides and solutions are replicated: every rank passes the
 * same n x nrhs B and receives the same X.
 */
#ifndef AXB_DIST_H
#define AXB_DIST_H

#include "axb.h"

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Pivot search of the distributed LU. */
typedef enum {
  /* Partial pivoting: the largest |a_ij| of the whole column below the
     diagonal, across all process rows (LAPACK's and ScaLAPACK's). */
  AXB_DIST_PIVOT_PARTIAL = 0,
  /* The 2007 thesis's scheme, for study only: the largest entry among the
     rows of the column held by the process row that owns the diagonal
     entry; rows on other process rows are never pivot rows (weaker than
     partial pivoting: growth is unbounded). */
  AXB_DIST_PIVOT_LOCAL = 1
} axb_dist_pivot;

/* Seconds per phase of the last factorization/solve on the grid (rank-
   local wall clock; the CLI prints rank 0's, after a barrier). */
typedef struct {
  double panel;  /* panel factorization (pivot search, swaps in panel) */
  double bcast;  /* panel and U-row broadcasts, waits on them          */
  double swap;   /* row interchanges outside the panel                 */
  double update; /* trsm of the U row and trailing gemm                */
  double factor; /* whole factorization                                */
  double solve;  /* triangular solves                                  */
  double check;  /* the certificate (backward error)                   */
  double rcond;  /* ||A||_1 and the condition estimate's solves with A
                    and A^T (its first block rides in `solve`)         */
} axb_dist_times;

typedef struct axb_dist_grid_s axb_dist_grid;

/* A P x Q grid over comm (collective; comm's size must be P Q; comm is
   duplicated, the caller keeps its own).  Defaults: look-ahead on, partial
   pivoting. */
axb_status axb_dist_grid_create(axb_handle h, MPI_Comm comm, int P, int Q,
                                axb_dist_grid **g);
void axb_dist_grid_destroy(axb_dist_grid *g);
int axb_dist_grid_rank(const axb_dist_grid *g);
void axb_dist_grid_shape(const axb_dist_grid *g, int *P, int *Q, int *prow,
                         int *pcol);
/* Look-ahead of depth 1 in getrf and potrf (panel k+1 factored and its
   broadcast started before the trailing update of step k): 1 on, 0 off. */
void axb_dist_set_lookahead(axb_dist_grid *g, int on);
void axb_dist_set_pivot(axb_dist_grid *g, axb_dist_pivot pivot);
/* The certified driver's condition estimate (axb_dist_solve): 1 on (the
   default), 0 off (report.rcond = -1, no ILL_CONDITIONED verdict; saves
   its 2-12 distributed solves with two right-hand sides). */
void axb_dist_set_rcond(axb_dist_grid *g, int on);
/* Times of the last call on this grid. */
axb_dist_times axb_dist_get_times(const axb_dist_grid *g);
/* The device timeline of the last getrf/potrf on this grid (GPU ranks,
   issue 24k): recorded only when the environment has AXB_DIST_TIMELINE=1
   (off by default: it adds two timing events per phase and step).  Host
   times of asynchronous device work say where the host waited, not where
   the device spent its time; these are CUDA events recorded on the stream
   each phase runs on, in milliseconds of device time, rank-local.
   Streams: 0 the compute stream, 1 the look-ahead lane, 2 the broadcasts'
   stream (NCCL: panel gathers under `panel`, broadcasts under `bcast`).
   A `bcast` interval on stream 0 or 1 is that stream's stall waiting for
   a broadcast.  overlap = busy[0] + busy[1] + busy[2] - busy_all: the
   time during which two or more streams worked at once. */
enum {
  AXB_DIST_PH_PANEL = 0, /* the timeline's phases: ms's first index */
  AXB_DIST_PH_BCAST = 1,
  AXB_DIST_PH_SWAP = 2,
  AXB_DIST_PH_UPDATE = 3,
  AXB_DIST_NPHASE = 4,
  AXB_DIST_NSTREAM = 3
};
typedef struct {
  int valid;           /* 1: recorded (GPU ranks, AXB_DIST_TIMELINE=1)      */
  long long intervals; /* event pairs read                               */
  double ms[AXB_DIST_NPHASE][AXB_DIST_NSTREAM]; /* [panel, bcast, swap,
                                  update][stream]: summed interval lengths */
  double busy[AXB_DIST_NSTREAM]; /* the union of each stream's intervals  */
  double busy_all; /* the union over the streams                          */
  double span;     /* from the factorization's first event to its last    */
} axb_dist_timeline;
axb_dist_timeline axb_dist_get_timeline(const axb_dist_grid *g);
/* The last timeline's intervals themselves, for a per-step reading or a
   plot: up to cap of them into iv as (phase, stream, begin ms, end ms)
   quadruples, in the order the host recorded them (per stream, the order
   of the steps); returns how many there are (0 when none were recorded).
   Process-wide: the last getrf/potrf of this process. */
long long axb_dist_get_timeline_intervals(const axb_dist_grid *g, double *iv,
                                          long long cap);

/* GPU ranks (built when CUDA is found): a grid's routines called with a
   CUDA handle keep each rank's local array in CUDA managed memory on that
   handle's device (matrices created, generated or read with that handle)
   and do the local work there (cuBLAS; messages host-staged MPI).  The
   device a rank should use: AXB_DIST_DEVICE if set, else its rank among
   the ranks of its host modulo the device count (several ranks may share a
   GPU); -1 when there is no GPU or the build has no GPU ranks.  Pass it to
   axb_handle_create(&h, AXB_BACKEND_CUDA, device).  Collective over comm. */
int axb_dist_gpu_device(MPI_Comm comm);

/* Rows (or columns) of an n-long dimension held by process iproc of
   nprocs with blocks of nb: ScaLAPACK's NUMROC with the source at 0. */
int64_t axb_dist_numroc(int64_t n, int64_t nb, int iproc, int nprocs);

typedef struct {
  const axb_dist_grid *grid;
  axb_dtype dtype;
  int64_t n, nb;      /* global order and block size                     */
  int64_t mloc, nloc; /* local rows and columns                          */
  int64_t lld;        /* local leading dimension >= max(1, mloc)          */
  void *data;         /* local array, column-major                        */
  int owns;           /* 1: axb_dist_matrix_destroy frees data            */
} axb_dist_matrix;

/* Collective.  A zero-filled local array (lld = max(1, mloc)). */
axb_status axb_dist_matrix_create(axb_handle h, const axb_dist_grid *g,
                                  axb_dtype dtype, int64_t n, int64_t nb,
                                  axb_dist_matrix *A);
/* Collective.  The caller's local array (e.g. ScaLAPACK's), not copied,
   not freed. */
axb_status axb_dist_matrix_wrap(axb_handle h, const axb_dist_grid *g,
                                axb_dtype dtype, int64_t n, int64_t nb,
                                void *local, int64_t lld, axb_dist_matrix *A);
void axb_dist_matrix_destroy(axb_dist_matrix *A);
/* Global (i, j) <-> owner and local position. */
void axb_dist_locate(const axb_dist_matrix *A, int64_t i, int64_t j, int *prow,
                     int *pcol, int64_t *li, int64_t *lj);

/* Collective.  A := the matrix of spec (axb_gen_dense's, bit for bit, for
   the same spec and seed), each rank computing only its own blocks' entries
   (it walks the generator's random stream, O(n^2) draws, and keeps its own:
   memory O(local)).  Kinds: uniform, uniform1000, positive1000, integer,
   diagonal, upper, spd (spd-shift), diagdom, hilbert, singular, poisson2d,
   poisson3d, convdiff3d; spd-gram and cond (formed by O(n^3) products of the
   whole matrix) answer AXB_ERR_NOT_SUPPORTED.  A is created by the call. */
axb_status axb_dist_gen(axb_handle h, const axb_dist_grid *g,
                        const axb_gen_spec *spec, axb_dtype dtype, int64_t nb,
                        axb_dist_matrix *A);
/* Collective.  Rank 0 reads a square Matrix Market (or plain text) file
   (axb_read_dense's formats and checks) and sends each rank its blocks,
   one block column at a time (messages of at most n x nb entries).  Rank
   0 holds the whole matrix while it scatters; the others only their own
   blocks.  A is created by the call. */
axb_status axb_dist_read(axb_handle h, const axb_dist_grid *g, const char *path,
                         axb_dtype dtype, int64_t nb, axb_dist_matrix *A);
/* Collective.  The whole matrix on rank `root` (G: n x n, ld >= n, A's
   dtype; ignored on the other ranks).  For tests and small n. */
axb_status axb_dist_gather(axb_handle h, const axb_dist_matrix *A, int root,
                           void *G, int64_t ldg);

/*
 * Typed routines (d: double, s: float), collective, LAPACK semantics.
 *   getrf: PA = LU in place, ipiv global and replicated (n entries).
 *   getrs: B := A^-1 B (trans NO_TRANS) or A^-T B (TRANS: U^T, then L^T,
 *          then the interchanges in reverse order) from getrf's factors.
 *   gesv:  getrf + getrs.
 *   potrf: lower Cholesky A = L L^T (uplo: LOWER only), upper triangle of
 *          A not referenced.
 *   potrs, posv: as LAPACK's.
 * B (n x nrhs, ld ldb) is the same on every rank on entry and holds the
 * same X on every rank on exit.
 */
#define AXB_DIST_DECLARE_TYPED(T, p)                                           \
  axb_status axb_dist_##p##getrf(axb_handle h, axb_dist_matrix *A,             \
                                 int64_t *ipiv, int64_t *info);                \
  axb_status axb_dist_##p##getrs(                                              \
      axb_handle h, axb_trans trans, const axb_dist_matrix *A,                 \
      const int64_t *ipiv, int64_t nrhs, T *B, int64_t ldb);                   \
  axb_status axb_dist_##p##gesv(axb_handle h, axb_dist_matrix *A,              \
                                int64_t *ipiv, int64_t nrhs, T *B,             \
                                int64_t ldb, int64_t *info);                   \
  axb_status axb_dist_##p##potrf(axb_handle h, axb_uplo uplo,                  \
                                 axb_dist_matrix *A, int64_t *info);           \
  axb_status axb_dist_##p##potrs(axb_handle h, axb_uplo uplo,                  \
                                 const axb_dist_matrix *A, int64_t nrhs, T *B, \
                                 int64_t ldb);                                 \
  axb_status axb_dist_##p##posv(axb_handle h, axb_uplo uplo,                   \
                                axb_dist_matrix *A, int64_t nrhs, T *B,        \
                                int64_t ldb, int64_t *info);

AXB_DIST_DECLARE_TYPED(double, d)
AXB_DIST_DECLARE_TYPED(float, s)

/* The certified driver's outcome (the same on every rank). */
typedef struct {
  axb_status status;
  int64_t info;          /* failing pivot column / minor, else 0          */
  double backward_error; /* ||b - Ax||_inf / (||A||_inf ||x||_inf n eps)   */
  double rcond; /* 1 / (||A||_1 est ||A^-1||_1), -1: not estimated         */
  axb_dist_times times;
} axb_dist_report;

/*
 * Certified distributed solve (collective): A is not changed (its local
 * blocks are copied); X (n x nrhs, ld ldx, A's dtype) := A^-1 B on every
 * rank.  chol = 1: Cholesky (lower), 0: LU.  Before any work every rank
 * scans its blocks and B for NaN/Inf, and the ranks agree (AXB_ERR_INVALID,
 * the detail names the global position).  Returns AXB_SUCCESS when the
 * backward error ||b - Ax||_inf / (||A||_inf ||x||_inf n eps), computed
 * distributedly from the caller's A, is below 30 for every column and the
 * 1-norm reciprocal condition estimate rcond is not below eps (axb_eps);
 * AXB_ERR_INACCURATE when X was computed but fails the backward-error test
 * (checked first); AXB_ERR_ILL_CONDITIONED when X passes it but rcond <
 * eps (singular to working precision); AXB_ERR_SINGULAR / AXB_ERR_NOT_SPD
 * with report->info (rcond then not estimated: -1); library errors as
 * elsewhere.  X is returned in all three numerical cases.  The same
 * status, detail and report (rcond bit for bit) on every rank.
 *
 * rcond is axb_solve's: Higham and Tisseur's block 1-norm estimator of
 * ||A^-1||_1 (LAPACK's gecon/pocon generalised to 2 columns; the estimate
 * is a lower bound, in practice within a factor 3 of the truth), each step
 * one distributed solve with A and one with A^T on 2 replicated columns,
 * and ||A||_1 from the caller's A.  axb_dist_set_rcond(g, 0) skips it.
 */
axb_status axb_dist_solve(axb_handle h, const axb_dist_matrix *A, int chol,
                          int64_t nrhs, const void *B, int64_t ldb, void *X,
                          int64_t ldx, axb_dist_report *report);

#ifdef __cplusplus
}
#endif

#endif
