/*
 * The sparse direct solvers over SuiteSparse (sparse_direct.h): CHOLMOD
 * for a symmetric matrix with a positive diagonal, UMFPACK otherwise and
 * when the Cholesky meets a non-positive pivot.  Built when CMake finds
 * SuiteSparse (AXB_HAVE_SUITESPARSE); direct_none.c otherwise.
 *
 * axb's CSR arrays are handed over as they are: CSR(A) is CSC(A^T), so
 * UMFPACK factors A^T and solves A x = b as (A^T)^T x = b (UMFPACK_At);
 * for a symmetric A, CSC(A^T) = CSC(A) and CHOLMOD reads its upper
 * triangle (stype = 1).  Values of a float matrix are widened to double.
 */
#include "sparse/sparse_direct.h"

#include "backend/omp/omp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <amd.h>
#include <cholmod.h>
#include <umfpack.h>

_Static_assert(sizeof(SuiteSparse_long) == sizeof(int64_t),
               "SuiteSparse_long must be axb's 64-bit index");

struct axb_direct {
  const axb_csr *A;
  double *xv_owned; /* A's values widened to double (float A), else NULL */
  const double *xv; /* A's values in double                           */
  axb_direct_kind kind;
  int switched; /* CHOLMOD gave way to UMFPACK */
  double have;  /* bytes available when analysed (read once: ~0.1 ms) */
  /* CHOLMOD */
  cholmod_common cc;
  int cc_started;
  cholmod_factor *L;
  /* UMFPACK */
  void *sym, *num;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
};

int axb__direct_available(void) { return 1; }

static cholmod_sparse chol_view(axb_direct *F) {
  cholmod_sparse S;
  memset(&S, 0, sizeof S);
  S.nrow = S.ncol = (size_t)F->A->rows;
  S.nzmax = (size_t)F->A->nnz;
  S.p = F->A->rowptr;
  S.i = F->A->colind;
  S.x = (void *)F->xv;
  S.stype = 1; /* the upper triangle of the symmetric matrix */
  S.itype = CHOLMOD_LONG;
  S.xtype = CHOLMOD_REAL;
  S.dtype = CHOLMOD_DOUBLE;
  S.sorted = 1;
  S.packed = 1;
  return S;
}

static axb_status umf_status(axb_handle h, int s, const char *step) {
  if (s == UMFPACK_OK) return AXB_SUCCESS;
  if (s == UMFPACK_WARNING_singular_matrix)
    return axb__fail(h, AXB_ERR_SINGULAR,
                     "UMFPACK %s: the matrix is singular (a zero pivot "
                     "remained after partial pivoting)",
                     step);
  if (s == UMFPACK_ERROR_out_of_memory)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "UMFPACK %s: out of memory",
                     step);
  return axb__fail(h, AXB_ERR_INTERNAL, "UMFPACK %s failed with status %d",
                   step, s);
}

static axb_status umf_analyze(axb_handle h, axb_direct *F) {
  umfpack_dl_defaults(F->control);
  F->control[UMFPACK_PRL] = 0; /* the library never prints */
  /* No refinement inside each solve: the condition estimate's solves need
     none, and the driver refines the answer itself (sparse_direct_t.h). */
  F->control[UMFPACK_IRSTEP] = 0;
  const SuiteSparse_long *p = (const SuiteSparse_long *)F->A->rowptr;
  const SuiteSparse_long *i = (const SuiteSparse_long *)F->A->colind;
  int s = umfpack_dl_symbolic(F->A->rows, F->A->rows, p, i, F->xv, &F->sym,
                              F->control, F->info);
  F->kind = AXB_DIRECT_UMFPACK;
  return umf_status(h, s, "symbolic analysis");
}

static axb_status chol_analyze(axb_handle h, axb_direct *F) {
  cholmod_l_start(&F->cc);
  F->cc_started = 1;
  F->cc.print = 0;
  F->cc.error_handler = NULL;
  F->cc.final_ll = 1; /* LL^T: a pivot <= 0 is reported (LDL^T would go on) */
  cholmod_sparse S = chol_view(F);
  F->L = cholmod_l_analyze(&S, &F->cc);
  F->kind = AXB_DIRECT_CHOLMOD;
  if (F->L) return AXB_SUCCESS;
  return axb__fail(h,
                   F->cc.status == CHOLMOD_OUT_OF_MEMORY ? AXB_ERR_OUT_OF_MEMORY
                                                         : AXB_ERR_INTERNAL,
                   "CHOLMOD analysis failed (status %d)", F->cc.status);
}

axb_status axb__direct_analyze(axb_handle h, const axb_csr *A, int try_chol,
                               axb_direct **out) {
  *out = NULL;
  /* The analysis holds a few copies of the pattern (AMD/COLAMD work);
     a float A is widened to double (nnz more doubles). */
  double need = 12.0 * (double)A->nnz * 8 + 40.0 * (double)A->rows * 8 +
                (A->dtype == AXB_F64 ? 0 : (double)A->nnz * 8);
  double have = (double)axb__memory_available();
  if (need > have)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "the sparse direct analysis of n = %lld (%lld "
                     "nonzeros) needs about %.3g GiB, more than available",
                     (long long)A->rows, (long long)A->nnz,
                     need / 1073741824.0);
  axb_direct *F = axb__calloc(1, sizeof *F);
  if (!F) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for a factor");
  F->A = A;
  F->have = have;
  if (A->dtype == AXB_F64) {
    F->xv = (const double *)A->values;
  } else {
    F->xv_owned = axb__malloc(A->nnz > 0 ? A->nnz : 1, sizeof(double));
    if (!F->xv_owned) {
      axb__free(F);
      return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                       "no memory for A's values in double");
    }
    for (int64_t k = 0; k < A->nnz; ++k)
      F->xv_owned[k] = ((const float *)A->values)[k];
    F->xv = F->xv_owned;
  }
  axb_status st = try_chol ? chol_analyze(h, F) : umf_analyze(h, F);
  if (st) {
    axb__direct_free(F);
    return st;
  }
  *out = F;
  return AXB_SUCCESS;
}

axb_status axb__direct_preestimate(axb_handle h, const axb_csr *A,
                                   double *flops) {
  *flops = 0;
  /* AMD's work: A + A^T (at most 2 nnz off-diagonal entries) with 20 %
     elbow room and 9 n integers (amd.h's Info[AMD_MEMORY]), the
     permutation (n). */
  const double need = (2.4 * (double)A->nnz + 10.0 * (double)A->rows) * 8;
  double have = 0;
  if (axb__memory_short(need, &have))
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "AMD's pre-estimate of n = %lld needs %.3g GiB, more "
                     "than the %.3g GiB available",
                     (long long)A->rows, need / 1073741824.0,
                     have / 1073741824.0);
  SuiteSparse_long *perm =
      axb__malloc(A->rows > 0 ? A->rows : 1, sizeof(SuiteSparse_long));
  if (!perm) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "AMD's permutation");
  double control[AMD_CONTROL], info[AMD_INFO];
  amd_l_defaults(control);
  /* CSR(A) is CSC(A^T): the pattern of A^T + A is A + A^T's. */
  SuiteSparse_long s =
      amd_l_order(A->rows, (const SuiteSparse_long *)A->rowptr,
                  (const SuiteSparse_long *)A->colind, perm, control, info);
  axb__free(perm);
  if (s == AMD_OUT_OF_MEMORY)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "AMD: out of memory");
  if (s != AMD_OK && s != AMD_OK_BUT_JUMBLED)
    return axb__fail(h, AXB_ERR_INTERNAL, "AMD failed with status %ld",
                     (long)s);
  *flops = info[AMD_NDIV] + 2 * info[AMD_NMULTSUBS_LU];
  return AXB_SUCCESS;
}

double axb__direct_memory(const axb_direct *F) { return F->have; }

void axb__direct_estimate(const axb_direct *F, double *flops, double *bytes) {
  if (F->kind == AXB_DIRECT_CHOLMOD) {
    /* values and row indices of L (supernodal: its dense blocks, xsize
       values, and ssize indices; the largest update matrix as work) */
    const cholmod_factor *L = F->L;
    double x = F->cc.lnz, s = F->cc.lnz, c = 0;
    if (L && L->is_super) {
      x = x > (double)L->xsize ? x : (double)L->xsize;
      s = (double)L->ssize;
      c = (double)L->maxcsize;
    }
    *flops = F->cc.fl;
    *bytes = (x + c) * 8 + s * 8 + 64.0 * (double)F->A->rows;
  } else {
    double unit = F->info[UMFPACK_SIZE_OF_UNIT];
    *flops = F->info[UMFPACK_FLOPS_ESTIMATE];
    *bytes = F->info[UMFPACK_PEAK_MEMORY_ESTIMATE] * unit;
  }
}

/* Before the numeric factorisation: the factor's peak (its analysis's
   estimate) and the vectors of the refinement (5 n) and the condition
   estimate (5 n doubles and n signs), sparse_direct_t.h and
   direct_condest.c. */
static axb_status check_numeric_memory(axb_handle h, axb_direct *F) {
  double fl, bytes;
  axb__direct_estimate(F, &fl, &bytes);
  bytes += 11.0 * (double)F->A->rows * 8;
  double have = F->have;
  if (bytes <= have) return AXB_SUCCESS;
  return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "the sparse %s factorisation of n = %lld needs about "
                   "%.3g GiB, more than the %.3g GiB available",
                   axb__direct_name(F), (long long)F->A->rows,
                   bytes / 1073741824.0, have / 1073741824.0);
}

/* UMFPACK's numeric factorisation (after its analysis). */
static axb_status umf_factor(axb_handle h, axb_direct *F) {
  axb_status st = check_numeric_memory(h, F);
  if (st) return st;
  const SuiteSparse_long *p = (const SuiteSparse_long *)F->A->rowptr;
  const SuiteSparse_long *i = (const SuiteSparse_long *)F->A->colind;
  int s = umfpack_dl_numeric(p, i, F->xv, F->sym, &F->num, F->control, F->info);
  return umf_status(h, s, "factorisation");
}

/* BLAS threads for the numeric factorisation: one per ~5e8 flops of the
   estimate, at most the handle's.  A sparse factorisation's BLAS calls are
   as small as its supernodes or fronts, and a threaded BLAS (OpenBLAS's
   OpenMP build) forks a team for each: bcsstk16 (1.9e8 flops) took 324 ms
   on 16 threads of the 16-core device host against 29 ms on 1 and 31 ms
   on 4, and 293-390 ms on 2 threads of the 2-core VM against 73 ms on 1
   (CHOLMOD alone, bench_sparse_auto). */
static int factor_threads(axb_handle h, const axb_direct *F) {
  double fl = 0, bytes = 0;
  axb__direct_estimate(F, &fl, &bytes);
  const int have = axb_omp_threads(h);
  const double want = fl / 5e8;
  return want >= (double)have ? have : want < 1 ? 1 : (int)want;
}

static axb_status factor(axb_handle h, axb_direct *F);

axb_status axb__direct_factor(axb_handle h, axb_direct *F) {
  const int nt = factor_threads(h, F);
  const int saved = axb_omp_blas_begin_threaded(nt);
  axb_status st = factor(h, F);
  axb_omp_blas_end_threaded(saved, nt);
  return st;
}

static axb_status factor(axb_handle h, axb_direct *F) {
  if (F->kind == AXB_DIRECT_UMFPACK) return umf_factor(h, F);
  axb_status st = check_numeric_memory(h, F);
  if (st) return st;
  cholmod_sparse S = chol_view(F);
  cholmod_l_factorize(&S, F->L, &F->cc);
  if (F->cc.status == CHOLMOD_OUT_OF_MEMORY)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "CHOLMOD factorisation: out of memory");
  if (F->cc.status >= CHOLMOD_OK && F->L->minor >= F->L->n) return AXB_SUCCESS;
  /* Not positive definite (or CHOLMOD failed otherwise): pivoted LU. */
  cholmod_l_free_factor(&F->L, &F->cc);
  cholmod_l_finish(&F->cc);
  F->cc_started = 0;
  F->switched = 1;
  if ((st = umf_analyze(h, F))) return st;
  return umf_factor(h, F);
}

/* X := A^-1 B by CHOLMOD's factor, B and X n x ncol column-major (ld n). */
static axb_status chol_solve_cols(axb_handle h, axb_direct *F, int64_t n,
                                  int ncol, const double *b, double *x) {
  cholmod_dense B;
  memset(&B, 0, sizeof B);
  B.nrow = B.d = (size_t)n;
  B.ncol = (size_t)ncol;
  B.nzmax = (size_t)ncol * (size_t)n;
  B.x = (void *)b;
  B.xtype = CHOLMOD_REAL;
  B.dtype = CHOLMOD_DOUBLE;
  cholmod_dense *X = cholmod_l_solve(CHOLMOD_A, F->L, &B, &F->cc);
  if (!X)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "CHOLMOD solve: status %d",
                     F->cc.status);
  memcpy(x, X->x, (size_t)ncol * (size_t)n * sizeof(double));
  cholmod_l_free_dense(&X, &F->cc);
  return AXB_SUCCESS;
}

static axb_status solve_one(axb_handle h, axb_direct *F, int trans,
                            const double *b, double *x);

/* A solve is two sweeps over the factor, O(nnz(L)) work in small BLAS
   calls: one BLAS thread (the factorisation's reasoning, above). */
axb_status axb__direct_solve(axb_handle h, axb_direct *F, int trans,
                             const double *b, double *x) {
  const int saved = axb_omp_blas_begin();
  axb_status st = solve_one(h, F, trans, b, x);
  axb_omp_blas_end(saved);
  return st;
}

static axb_status solve_one(axb_handle h, axb_direct *F, int trans,
                            const double *b, double *x) {
  int64_t n = F->A->rows;
  if (F->kind == AXB_DIRECT_UMFPACK) {
    const SuiteSparse_long *p = (const SuiteSparse_long *)F->A->rowptr;
    const SuiteSparse_long *i = (const SuiteSparse_long *)F->A->colind;
    /* UMFPACK holds A^T: A x = b is its transposed system. */
    int sys = trans ? UMFPACK_A : UMFPACK_At;
    int s =
        umfpack_dl_solve(sys, p, i, F->xv, x, b, F->num, F->control, F->info);
    if (s == UMFPACK_WARNING_singular_matrix) return AXB_SUCCESS; /* Inf */
    return umf_status(h, s, "solve");
  }
  return chol_solve_cols(h, F, n, 1, b, x);
}

static const char *chol_ordering(int o) {
  switch (o) {
  case CHOLMOD_NATURAL: return "natural";
  case CHOLMOD_AMD: return "AMD";
  case CHOLMOD_METIS: return "METIS";
  case CHOLMOD_NESDIS: return "nested dissection";
  case CHOLMOD_COLAMD: return "COLAMD";
  default: return "given";
  }
}

void axb__direct_describe(const axb_direct *F, char *buf, size_t len) {
  if (F->kind == AXB_DIRECT_CHOLMOD) {
    int sel = F->cc.selected >= 0 && F->cc.selected < CHOLMOD_MAXMETHODS
                  ? F->cc.selected
                  : 0;
    snprintf(buf, len, "symmetric %s ordering, %s LL^T (CHOLMOD)",
             chol_ordering(F->cc.method[sel].ordering),
             F->L && F->L->is_super ? "supernodal" : "simplicial");
    return;
  }
  double scaled = F->info[UMFPACK_WAS_SCALED];
  int sym = F->info[UMFPACK_STRATEGY_USED] == UMFPACK_STRATEGY_SYMMETRIC;
  int ord = (int)F->info[UMFPACK_ORDERING_USED];
  const char *o = ord == UMFPACK_ORDERING_METIS  ? "METIS"
                  : ord == UMFPACK_ORDERING_NONE ? "natural"
                  : sym                          ? "AMD (of A + A^T)"
                                                 : "COLAMD";
  snprintf(buf, len,
           "rows %s, columns ordered by %s, %s strategy, threshold partial "
           "pivoting (UMFPACK)",
           scaled == UMFPACK_SCALE_SUM   ? "scaled by their sums"
           : scaled == UMFPACK_SCALE_MAX ? "scaled by their maxima"
                                         : "not scaled",
           o, sym ? "symmetric" : "unsymmetric");
}

axb_status axb__direct_solve2(axb_handle h, axb_direct *F, const double *b,
                              double *x) {
  int64_t n = F->A->rows;
  if (F->kind == AXB_DIRECT_UMFPACK) {
    axb_status st = axb__direct_solve(h, F, 0, b, x);
    return st ? st : axb__direct_solve(h, F, 0, b + n, x + n);
  }
  const int saved = axb_omp_blas_begin();
  axb_status st = chol_solve_cols(h, F, n, 2, b, x);
  axb_omp_blas_end(saved);
  return st;
}

axb_direct_kind axb__direct_kind(const axb_direct *F) { return F->kind; }

const char *axb__direct_name(const axb_direct *F) {
  return F->kind == AXB_DIRECT_CHOLMOD ? "cholmod" : "umfpack";
}

int axb__direct_switched(const axb_direct *F) { return F->switched; }

void axb__direct_free(axb_direct *F) {
  if (!F) return;
  if (F->L) cholmod_l_free_factor(&F->L, &F->cc);
  if (F->cc_started) cholmod_l_finish(&F->cc);
  if (F->sym) umfpack_dl_free_symbolic(&F->sym);
  if (F->num) umfpack_dl_free_numeric(&F->num);
  axb__free(F->xv_owned);
  axb__free(F);
}
