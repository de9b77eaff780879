/*
 * The CPU sparse table (sparse_ops.h): OpenMP over rows and fixed chunks.
 * A REF handle runs the same entries on one thread.  Matrices reference the
 * caller's host CSR in place (no copy); factors copy their pattern.
 */
#include "backend/omp/omp.h"
#include "core/internal.h"
#include "core/template.h"
#include "sparse/sparse_host.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

/* Below this many entries a vector loop runs on one thread. */
#define SP_PAR_MIN 50000
/* Reductions: at most SP_CHUNKS_MAX chunks of at least 4096 entries. */
#define SP_CHUNKS_MAX 1024
/* Level-scheduled solves: at least SP_LEVEL_MIN_N rows, and on average
   SP_LEVEL_ROWS_PER_THREAD rows per thread in a level (else the barriers
   cost more than the rows and plain substitution runs). */
#define SP_LEVEL_MIN_N 10000
#define SP_LEVEL_ROWS_PER_THREAD 16

struct cpu_mat {
  int64_t rows, cols, nnz;
  const int64_t *rowptr, *colind;
  const void *val;
};

struct cpu_fac {
  axb_spf_kind kind;
  int64_t n, nnz, lo_nlev, up_nlev;
  int64_t *rowptr, *colind, *diag, *colptr, *csrrow, *cscpos, *tpos;
  int64_t *lo_ptr, *lo_rows, *up_ptr, *up_rows;
  void *val, *tmp; /* values, and the second buffer of the sweeps */
};

static int sp_threads(axb_handle h) {
  return h->backend == AXB_BACKEND_REF ? 1 : axb_omp_threads(h);
}

static int sp_team_size(void) {
#ifdef AXB_HAVE_OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/* Chunk length of the reductions: depends on n only. */
static int64_t sp_chunk(int64_t n) {
  int64_t c = (n + SP_CHUNKS_MAX - 1) / SP_CHUNKS_MAX;
  return c < 4096 ? 4096 : c;
}

/* Rows [r0, r1) of thread t of nt: the first row whose rowptr reaches
   t * nnz / nt (equal shares of nonzeros). */
static int64_t sp_row_at(const struct cpu_mat *A, int64_t target) {
  return axb__lower_bound(A->rowptr, 0, A->rows, target);
}

static void sp_row_range(const struct cpu_mat *A, int t, int nt, int64_t *r0,
                         int64_t *r1) {
  if (nt <= 1) {
    *r0 = 0;
    *r1 = A->rows;
    return;
  }
  *r0 = t == 0 ? 0 : sp_row_at(A, A->nnz / nt * t + A->nnz % nt * t / nt);
  *r1 = t == nt - 1
            ? A->rows
            : sp_row_at(A, A->nnz / nt * (t + 1) + A->nnz % nt * (t + 1) / nt);
}

/* The smaller offending row decides; at a tie IC's "not positive" wins. */
static axb_status sp_bad_status(int64_t bad_piv, int64_t bad_spd,
                                int64_t *info) {
  if (bad_piv == INT64_MAX && bad_spd == INT64_MAX) {
    *info = 0;
    return AXB_SUCCESS;
  }
  if (bad_spd <= bad_piv) {
    *info = bad_spd;
    return AXB_ERR_NOT_SPD;
  }
  *info = bad_piv;
  return AXB_ERR_SMALL_PIVOT;
}

static void cpu_fac_destroy(axb_handle h, axb_spfac *Fo) {
  (void)h;
  struct cpu_fac *F = (struct cpu_fac *)Fo;
  if (!F) return;
  int64_t **arrays[] = {&F->rowptr,  &F->colind, &F->diag,   &F->colptr,
                        &F->csrrow,  &F->cscpos, &F->tpos,   &F->lo_ptr,
                        &F->lo_rows, &F->up_ptr, &F->up_rows};
  for (size_t q = 0; q < sizeof(arrays) / sizeof(arrays[0]); ++q)
    axb__free(*arrays[q]);
  axb__free(F->val);
  axb__free(F->tmp);
  axb__free(F);
}

static int64_t *sp_dup(const int64_t *src, int64_t count, int *fail) {
  if (!src) return NULL;
  int64_t *d = axb__malloc(count > 0 ? count : 1, sizeof(int64_t));
  if (!d) {
    *fail = 1;
    return NULL;
  }
  if (count > 0) memcpy(d, src, (size_t)count * sizeof(int64_t));
  return d;
}

/* A factor with P's pattern copied and two value buffers of tsize bytes
   per entry (values not set). */
static axb_status cpu_fac_alloc(const axb_spf_pattern *P, size_t tsize,
                                struct cpu_fac **out) {
  struct cpu_fac *F = axb__calloc(1, sizeof(*F));
  if (!F) return AXB_ERR_OUT_OF_MEMORY;
  int fail = 0;
  int64_t n = P->n, nnz = P->nnz;
  F->kind = P->kind;
  F->n = n;
  F->nnz = nnz;
  F->lo_nlev = P->lo_nlev;
  F->up_nlev = P->up_nlev;
  F->rowptr = sp_dup(P->rowptr, n + 1, &fail);
  F->colind = sp_dup(P->colind, nnz, &fail);
  F->diag = sp_dup(P->diag, n, &fail);
  F->colptr = sp_dup(P->colptr, n + 1, &fail);
  F->csrrow = sp_dup(P->csrrow, nnz, &fail);
  F->cscpos = sp_dup(P->cscpos, nnz, &fail);
  F->tpos = sp_dup(P->tpos, nnz, &fail);
  F->lo_ptr = sp_dup(P->lo_ptr, P->lo_nlev + 1, &fail);
  F->lo_rows = sp_dup(P->lo_rows, n, &fail);
  F->up_ptr = sp_dup(P->up_ptr, P->up_nlev + 1, &fail);
  F->up_rows = sp_dup(P->up_rows, n, &fail);
  F->val = axb__malloc(nnz > 0 ? nnz : 1, tsize);
  F->tmp = axb__malloc(nnz > 0 ? nnz : 1, tsize);
  if (fail || !F->val || !F->tmp || !F->rowptr || !F->colind || !F->diag) {
    cpu_fac_destroy(NULL, (axb_spfac *)F);
    return AXB_ERR_OUT_OF_MEMORY;
  }
  *out = F;
  return AXB_SUCCESS;
}

#define AXB_TEMPLATE "sparse/sparse_cpu_t.h"
#include "core/instantiate.h"

static int cpu_tri_levels(axb_handle h, int64_t n) {
  (void)h;
  (void)n;
  return 1;
}

static axb_status cpu_finish(axb_handle h) {
  (void)h;
  return AXB_SUCCESS;
}

static axb_sparse_ops cpu_sparse_ops;
static pthread_once_t cpu_sparse_once = PTHREAD_ONCE_INIT;

static void cpu_sparse_fill(void) {
  cpu_sparse_ops.name = "cpu";
  cpu_dfill_table(&cpu_sparse_ops.d);
  cpu_sfill_table(&cpu_sparse_ops.s);
  cpu_sparse_ops.finish = cpu_finish;
  cpu_sparse_ops.tri_levels = cpu_tri_levels;
}

/* Filled once (pthread_once): solves may start in several threads at once,
   and two first calls filling the table together were a data race. */
const axb_sparse_ops *axb__sparse_cpu_ops(void) {
  pthread_once(&cpu_sparse_once, cpu_sparse_fill);
  return &cpu_sparse_ops;
}
