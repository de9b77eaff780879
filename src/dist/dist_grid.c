/*
 * The process grid, distributed matrices (create, wrap, locate), NUMROC,
 * and the collective agreement on a status that every distributed routine
 * ends with (so that a failure on one rank is a status on all, never a
 * hang).
 */
#include "dist/dist.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int64_t axb_dist_numroc(int64_t n, int64_t nb, int iproc, int nprocs) {
  if (n <= 0 || nb <= 0 || nprocs <= 0) return 0;
  int64_t nblocks = n / nb;
  int64_t num = (nblocks / nprocs) * nb;
  int64_t extra = nblocks % nprocs;
  if (iproc < extra)
    num += nb;
  else if (iproc == extra)
    num += n % nb;
  return num;
}

/* ---- agreement ------------------------------------------------------- */

/* Order of severity: the smallest key wins. */
static int status_key(axb_status st) {
  if (st == AXB_SUCCESS) return INT_MAX;
  if (st < 0) return (int)st; /* library and argument errors first */
  return 1000000 + (int)st;   /* then numerical outcomes            */
}

axb_status axb__dist_agree(axb_handle h, const axb_dist_grid *g,
                           axb_status st) {
  int in[2] = {status_key(st), g->rank}, out[2];
  MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, g->comm);
  if (out[0] == INT_MAX) return AXB_SUCCESS;
  axb_status agreed =
      out[0] < 0 ? (axb_status)out[0] : (axb_status)(out[0] - 1000000);
  char detail[AXB_DETAIL_LEN];
  memset(detail, 0, sizeof detail);
  if (g->rank == out[1]) {
    const char *d = axb_detail(h);
    snprintf(detail, sizeof detail, "%s", d && *d ? d : axb_strerror(agreed));
  }
  MPI_Bcast(detail, AXB_DETAIL_LEN, MPI_CHAR, out[1], g->comm);
  detail[AXB_DETAIL_LEN - 1] = '\0';
  return axb__fail(h, agreed, "rank %d: %s", out[1], detail);
}

MPI_Datatype axb__dist_mpi_type(axb_dtype t) {
  return t == AXB_F64 ? MPI_DOUBLE : MPI_FLOAT;
}

/* ---- the grid -------------------------------------------------------- */

axb_status axb_dist_grid_create(axb_handle h, MPI_Comm comm, int P, int Q,
                                axb_dist_grid **g) {
  if (!g) return axb__fail(h, AXB_ERR_INVALID, "axb_dist_grid_create: NULL g");
  *g = NULL;
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  /* Every rank judges its own arguments and allocation; all agree (on
     comm itself) before any other collective, so that a rank with other
     arguments than the rest fails with them instead of hanging. */
  axb_dist_grid *G = NULL;
  int ok = P >= 1 && Q >= 1 && (int64_t)P * Q == size;
  if (ok) G = axb__calloc(1, sizeof *G);
  int in[2] = {ok, G != NULL}, out[2];
  MPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, comm);
  if (!out[0] || !out[1]) {
    axb__free(G);
    if (!out[0])
      return axb__fail(h, AXB_ERR_INVALID,
                       "axb_dist_grid_create: a %d x %d grid needs %lld "
                       "ranks, the communicator has %d%s",
                       P, Q, (long long)P * Q, size,
                       ok ? " (on another rank: every rank must pass the "
                            "same grid)"
                          : "");
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "axb_dist_grid_create: out of memory on a rank");
  }
  MPI_Comm_dup(comm, &G->comm);
  G->nprow = P;
  G->npcol = Q;
  G->rank = rank;
  G->prow = rank / Q;
  G->pcol = rank % Q;
  G->lookahead = 1;
  G->rcond = 1;
  G->pivot = AXB_DIST_PIVOT_PARTIAL;
  MPI_Comm_split(G->comm, G->prow, G->pcol, &G->row);
  MPI_Comm_split(G->comm, G->pcol, G->prow, &G->col);
  *g = G;
  axb__clear(h);
  return AXB_SUCCESS;
}

void axb_dist_grid_destroy(axb_dist_grid *g) {
  if (!g) return;
  MPI_Comm_free(&g->row);
  MPI_Comm_free(&g->col);
  MPI_Comm_free(&g->comm);
  axb__free(g);
}

int axb_dist_grid_rank(const axb_dist_grid *g) { return g ? g->rank : -1; }

void axb_dist_grid_shape(const axb_dist_grid *g, int *P, int *Q, int *prow,
                         int *pcol) {
  if (P) *P = g->nprow;
  if (Q) *Q = g->npcol;
  if (prow) *prow = g->prow;
  if (pcol) *pcol = g->pcol;
}

void axb_dist_set_lookahead(axb_dist_grid *g, int on) {
  if (g) g->lookahead = on != 0;
}

void axb_dist_set_rcond(axb_dist_grid *g, int on) {
  if (g) g->rcond = on != 0;
}

void axb_dist_set_pivot(axb_dist_grid *g, axb_dist_pivot pivot) {
  if (g) g->pivot = pivot;
}

axb_dist_times axb_dist_get_times(const axb_dist_grid *g) {
  axb_dist_times t;
  memset(&t, 0, sizeof t);
  return g ? g->times : t;
}

axb_dist_timeline axb_dist_get_timeline(const axb_dist_grid *g) {
  axb_dist_timeline t;
  memset(&t, 0, sizeof t);
  return g ? g->timeline : t;
}

long long axb_dist_get_timeline_intervals(const axb_dist_grid *g, double *iv,
                                          long long cap) {
  (void)g; /* the recording is the process's (one device per process) */
  return axb__dist_gpu_timeline_raw(iv, cap);
}

/* ---- matrices ---------------------------------------------------------- */

static axb_status check_shape(axb_handle h, const axb_dist_grid *g,
                              axb_dtype dtype, int64_t n, int64_t nb) {
  if (!g) return axb__fail(h, AXB_ERR_INVALID, "distributed matrix: NULL grid");
  if (dtype != AXB_F64 && dtype != AXB_F32)
    return axb__fail(h, AXB_ERR_INVALID, "distributed matrix: dtype %d",
                     (int)dtype);
  if (n < 0 || nb < 1)
    return axb__fail(h, AXB_ERR_INVALID,
                     "distributed matrix: n = %lld, nb = %lld (need n >= 0, "
                     "nb >= 1)",
                     (long long)n, (long long)nb);
  if (n > INT_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "distributed matrix: n = %lld above 2^31 - 1",
                     (long long)n);
  return AXB_SUCCESS;
}

static void fill_fields(const axb_dist_grid *g, axb_dtype dtype, int64_t n,
                        int64_t nb, axb_dist_matrix *A) {
  memset(A, 0, sizeof *A);
  A->grid = g;
  A->dtype = dtype;
  A->n = n;
  A->nb = nb;
  A->mloc = axb_dist_numroc(n, nb, g->prow, g->nprow);
  A->nloc = axb_dist_numroc(n, nb, g->pcol, g->npcol);
}

axb_status axb_dist_matrix_create(axb_handle h, const axb_dist_grid *g,
                                  axb_dtype dtype, int64_t n, int64_t nb,
                                  axb_dist_matrix *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "axb_dist_matrix_create: NULL");
  memset(A, 0, sizeof *A);
  axb_status st = check_shape(h, g, dtype, n, nb);
  if (st != AXB_SUCCESS) return st; /* the same arguments on every rank */
  fill_fields(g, dtype, n, nb, A);
  A->lld = A->mloc > 1 ? A->mloc : 1;
  int64_t count = A->lld * (A->nloc > 1 ? A->nloc : 1);
  A->data = axb__dist_alloc(h, count, axb_dtype_size(dtype), &A->owns);
  if (!A->data)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "cannot allocate the %lld x %lld local blocks of a "
                   "distributed %lld x %lld matrix",
                   (long long)A->mloc, (long long)A->nloc, (long long)n,
                   (long long)n);
  st = axb__dist_agree(h, g, st);
  if (st != AXB_SUCCESS) axb_dist_matrix_destroy(A);
  return st;
}

axb_status axb_dist_matrix_wrap(axb_handle h, const axb_dist_grid *g,
                                axb_dtype dtype, int64_t n, int64_t nb,
                                void *local, int64_t lld, axb_dist_matrix *A) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "axb_dist_matrix_wrap: NULL");
  memset(A, 0, sizeof *A);
  axb_status st = check_shape(h, g, dtype, n, nb);
  if (st != AXB_SUCCESS) return st;
  fill_fields(g, dtype, n, nb, A);
  A->lld = lld;
  A->data = local;
  if (lld < (A->mloc > 1 ? A->mloc : 1))
    st = axb__fail(h, AXB_ERR_INVALID,
                   "axb_dist_matrix_wrap: lld = %lld < local rows %lld",
                   (long long)lld, (long long)A->mloc);
  else if (!local && A->mloc > 0 && A->nloc > 0)
    st =
        axb__fail(h, AXB_ERR_INVALID, "axb_dist_matrix_wrap: NULL local array");
  st = axb__dist_agree(h, g, st);
  if (st != AXB_SUCCESS) memset(A, 0, sizeof *A);
  return st;
}

void axb_dist_matrix_destroy(axb_dist_matrix *A) {
  if (!A) return;
  if (A->owns) axb__dist_free(A->data, A->owns);
  memset(A, 0, sizeof *A);
}

void axb_dist_locate(const axb_dist_matrix *A, int64_t i, int64_t j, int *prow,
                     int *pcol, int64_t *li, int64_t *lj) {
  const axb_dist_grid *g = A->grid;
  if (prow) *prow = dist_owner(i, A->nb, g->nprow);
  if (pcol) *pcol = dist_owner(j, A->nb, g->npcol);
  if (li) *li = dist_g2l(i, A->nb, g->nprow);
  if (lj) *lj = dist_g2l(j, A->nb, g->npcol);
}

axb_status axb__dist_check(axb_handle h, const axb_dist_matrix *A,
                           axb_dtype dtype, const char *who) {
  if (!A || !A->grid)
    return axb__fail(h, AXB_ERR_INVALID, "%s: NULL matrix or grid", who);
  const axb_dist_grid *g = A->grid;
  if (A->dtype != dtype)
    return axb__fail(h, AXB_ERR_INVALID, "%s: the matrix holds %s", who,
                     axb_dtype_name(A->dtype));
  if (A->n < 0 || A->nb < 1 ||
      A->mloc != axb_dist_numroc(A->n, A->nb, g->prow, g->nprow) ||
      A->nloc != axb_dist_numroc(A->n, A->nb, g->pcol, g->npcol) ||
      A->lld < (A->mloc > 1 ? A->mloc : 1) ||
      (!A->data && A->mloc > 0 && A->nloc > 0))
    return axb__fail(h, AXB_ERR_INVALID,
                     "%s: inconsistent distributed matrix (n %lld, nb %lld, "
                     "local %lld x %lld, lld %lld)",
                     who, (long long)A->n, (long long)A->nb, (long long)A->mloc,
                     (long long)A->nloc, (long long)A->lld);
  return AXB_SUCCESS;
}
