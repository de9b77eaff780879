/*
 * axb_solve and axb_invert: the descriptor-level driver.
 *
 *   validate -> copy A (A stays intact for the residual) -> choose method
 *   -> factor -> solve -> rcond -> backward error -> verdict
 *
 * On a device backend (the res_ entries of its table, dense/resident.h)
 * LU and Cholesky skip the host copy: A is uploaded once and factored
 * there, the solve and the condition estimate's triangular solves run on
 * that device copy (only n-vectors move), X comes back once, and the
 * backward error is computed on the host from the caller's A, exactly as
 * on the CPU.
 *
 * Every answer is certified: the report carries the scaled residual
 * ||b - Ax||_inf / (||A||_inf ||x||_inf n eps) of the returned X and the
 * 1-norm reciprocal condition estimate.  With opts->trans the system is
 * A^T X = B, A read as it is (getrs and friends with TRANS), and both
 * numbers are those of A^T.  A result that fails either test
 * comes back with a positive status, never silently.
 */
#include "core/internal.h"
#include "core/template.h"
#include "core/tune.h"
#include "dense/condest.h"
#include "dense/mixed.h"
#include "dense/resident.h"
#include "dense/solve_args.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The driver's working buffers (untyped; dense/solve_t.h reads them in
   T). */
typedef struct {
  void *F, *X, *W; /* F: NULL when the factors are resident */
  int64_t *ipiv;
  void *res;                     /* resident factors, or NULL */
  int f_ready;                   /* F holds A (take_a_), not yet factored */
  int f_kept;                    /* F is the handle's (axb__handle_work) */
  int threads;                   /* the handle's (0: OpenMP's default) */
  axb_trans trans;               /* solve A^T X = B            */
  double anorm;                  /* ||op(A)||_1 (A^T: ||A||_inf) */
  const axb_fixedpoint_opts *fp; /* lu-fixedpoint's options */
  axb_fixedpoint_stats fps;      /* and its statistics      */
  /* The condition estimate's first block solved beside B (X has
     AXB_CONDEST_T columns more): its product in Y1 (n x t doubles) once
     y1_ready; want_y1 when the estimate is asked for. */
  double *Y1;
  int want_y1, y1_ready;
} buffers;

/* Row sums (||A||_inf) accumulated by the threads of a column-parallel
   pass over A: one row of n sums per thread that may run it. */
static int64_t axb__rows_t(int threads) {
#ifdef _OPENMP
  return threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
  return 1;
#endif
}

/* The calling thread's n sums in rows. */
static inline double *axb__rows_mine(double *rows, int64_t n) {
#ifdef _OPENMP
  return rows + (int64_t)omp_get_thread_num() * n;
#else
  (void)n;
  return rows;
#endif
}

/* max_i sum_t rows[t][i] (NaN wins), the threads' shares added up. */
static double axb__rows_max(const double *rows, int64_t nt, int64_t n) {
  double norm = 0;
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t t = 0; t < nt; ++t)
      s += rows[t * n + i];
    if (s > norm || isnan(s)) norm = s;
  }
  return norm;
}

#define T double
#define P d
#define AXB_DTYPE AXB_F64
#include "dense/solve_t.h"
#undef T
#undef P
#undef AXB_DTYPE

#define T float
#define P s
#define AXB_DTYPE AXB_F32
#include "dense/solve_t.h"
#undef T
#undef P
#undef AXB_DTYPE

static const char *const method_names[AXB_METHOD_COUNT] = {
    "auto",          "lu",       "cholesky",       "gauss-jordan",
    "lu-crout",      "gauss",    "cholesky-crout", "cholesky-banachiewicz",
    "lu-fixedpoint", "lu-mixed", "cholesky-mixed"};

const char *axb_method_name(axb_method m) {
  return m >= 0 && m < AXB_METHOD_COUNT ? method_names[m] : "unknown";
}

axb_status axb_method_parse(const char *name, axb_method *m) {
  if (!name || !m)
    return axb__fail(NULL, AXB_ERR_INVALID, "axb_method_parse: %s is NULL",
                     !name ? "the name" : "the result pointer");
  for (int i = 0; i < AXB_METHOD_COUNT; ++i)
    if (strcmp(name, method_names[i]) == 0) {
      *m = (axb_method)i;
      return AXB_SUCCESS;
    }
  return axb__fail(NULL, AXB_ERR_INVALID,
                   "axb_method_parse: '%.60s' is not a method name", name);
}

void axb_solve_opts_default(axb_solve_opts *opts) {
  if (!opts) return;
  opts->method = AXB_METHOD_AUTO;
  opts->pivot = 1;
  opts->estimate_rcond = 1;
  opts->trans = AXB_NO_TRANS;
  axb_fixedpoint_opts_default(&opts->fixedpoint);
  axb_mixed_opts_default(&opts->mixed);
}

/* Flop counts of the factorization and of the solve with nrhs columns. */
static double factor_flops(axb_method m, double n) {
  switch (m) {
  case AXB_METHOD_CHOLESKY:
  case AXB_METHOD_CHOLESKY_CROUT:
  case AXB_METHOD_CHOLESKY_BANACHIEWICZ: return n * n * n / 3;
  case AXB_METHOD_GAUSS_JORDAN: return 2 * n * n * n;
  default: return 2 * n * n * n / 3;
  }
}

static double solve_flops(double n, double nrhs) { return 2 * n * n * nrhs; }

/* The square A is finite, and *anorm = ||A||_1 (the rcond estimate's),
   from one pass over A (columns shared among the handle's threads); only
   a non-finite norm pays for the entry-by-entry scan that names the
   culprit (or finds none: the sums overflowed).  *ainf = ||A||_inf from
   the same pass when ainf is not NULL (the transposed solve's). */
static axb_status check_finite_norm(axb_handle h, const axb_dense *A,
                                    const char *what, double *anorm,
                                    double *ainf) {
  int64_t n = A->rows, nt = ainf ? axb__rows_t(h->threads) : 0;
  double *colsum = axb__malloc(n, sizeof(double));
  double *rows = ainf ? axb__calloc(nt * n, sizeof(double)) : NULL;
  if (!colsum || (ainf && !rows)) {
    axb__free(colsum);
    axb__free(rows);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for %lld sums",
                     (long long)n);
  }
  *anorm = A->dtype == AXB_F64
               ? norm_one_d(n, A->data, A->ld, colsum, rows, h->threads)
               : norm_one_s(n, A->data, A->ld, colsum, rows, h->threads);
  if (ainf) *ainf = axb__rows_max(rows, nt, n);
  axb__free(colsum);
  axb__free(rows);
  return isfinite(*anorm) ? AXB_SUCCESS : axb__solve_finite(h, A, what);
}

static int is_symmetric(const axb_dense *A) {
  return A->dtype == AXB_F64 ? symmetric_d(A->rows, A->data, A->ld)
                             : symmetric_s(A->rows, A->data, A->ld);
}

static int is_cholesky(axb_method m) {
  return m == AXB_METHOD_CHOLESKY || m == AXB_METHOD_CHOLESKY_CROUT ||
         m == AXB_METHOD_CHOLESKY_BANACHIEWICZ ||
         m == AXB_METHOD_CHOLESKY_MIXED;
}

/* Exact symmetry and a positive diagonal: the cheap necessary conditions
   for SPD that make a Cholesky attempt worth it. */
static int looks_spd(const axb_dense *A) {
  for (int64_t j = 0; j < A->cols; ++j)
    if (!(axb_dense_get(A, j, j) > 0)) return 0;
  return is_symmetric(A);
}

/* Copy a (rows x cols, any ld) into b (ld = rows), same dtype. */
static void copy_dense(const axb_dense *a, void *b) {
  size_t es = axb_dtype_size(a->dtype), col = (size_t)a->rows * es;
  for (int64_t j = 0; j < a->cols; ++j)
    memcpy((char *)b + (size_t)j * col,
           (const char *)a->data + (size_t)(j * a->ld) * es, col);
}

static void copy_back(const void *b, axb_dense *a) {
  size_t es = axb_dtype_size(a->dtype), col = (size_t)a->rows * es;
  for (int64_t j = 0; j < a->cols; ++j)
    memcpy((char *)a->data + (size_t)(j * a->ld) * es,
           (const char *)b + (size_t)j * col, col);
}

/* b->F := A, threaded. */
static void copy_a(const axb_dense *A, buffers *b) {
  if (A->dtype == AXB_F64)
    copy_a_d(A->rows, A->data, A->ld, b->F, b->threads);
  else
    copy_a_s(A->rows, A->data, A->ld, b->F, b->threads);
}

static void free_buffers(axb_handle h, buffers *b) {
  axb__res_free(h, b->res);
  b->res = NULL;
  if (!b->f_kept) axb__free(b->F);
  axb__free(b->X);
  axb__free(b->Y1);
  axb__free(b->W);
  axb__free(b->ipiv);
}

/* Run one method end to end on fresh copies of A and B. */
static axb_status run_method(axb_handle h, const axb_dense *A,
                             const axb_dense *B, axb_method m, int pivot,
                             buffers *b, axb_report *r, int64_t *info) {
  int64_t k = B->cols;
  /* A device backend keeps LU and Cholesky factors: no host copy of A. */
  int resident = (m == AXB_METHOD_LU || m == AXB_METHOD_CHOLESKY) &&
                 axb__res_available(h, A->dtype);
  axb__res_free(h, b->res); /* a failed Cholesky attempt's */
  b->res = NULL;
  double t0 = axb__now();
  if (!resident && !b->f_ready) copy_a(A, b);
  b->f_ready = 0;
  b->y1_ready = 0;
  copy_dense(B, b->X);
  r->t_copy += axb__now() - t0;
  axb_status st;
  /* A device backend counts its host<->device copies: they are reported as
     t_transfer and taken out of the factor and solve times. */
  double (*take)(axb_handle) = h->ops ? h->ops->take_transfer_seconds : NULL;
  double t[2], tx[2];
  if (A->dtype == AXB_F64) {
    work_d w = work_on_d(h, A, m, pivot, k, b, resident);
    st = factor_apply_d(&w, take, t, tx);
    b->res = w.res;
    *info = w.info;
  } else {
    work_s w = work_on_s(h, A, m, pivot, k, b, resident);
    st = factor_apply_s(&w, take, t, tx);
    b->res = w.res;
    *info = w.info;
  }
  r->t_factor = t[0] > tx[0] ? t[0] - tx[0] : 0;
  r->t_solve = t[1] > tx[1] ? t[1] - tx[1] : 0;
  r->t_transfer = tx[0] + tx[1];
  r->sweeps = b->fps.sweeps;
  r->sections = b->fps.sections;
  return st;
}

/* rcond from the factors in b->F.  The gauss variant keeps no factors, so
   its answer is certified from an LU factorization of a fresh copy: 2/3 n^3
   more flops for a study variant, rather than an uncertified answer.  A
   singular copy gives rcond = 0, hence the ILL_CONDITIONED verdict. */
static axb_status estimate_rcond(axb_handle h, const axb_dense *A, axb_method m,
                                 int pivot, buffers *b, double *rcond) {
  double anorm = b->anorm;
  int refactor = m == AXB_METHOD_GAUSS;
  if (refactor) {
    copy_a(A, b);
    m = AXB_METHOD_LU;
    pivot = 1;
  }
  axb_status st;
  int resident = b->res != NULL;
  if (A->dtype == AXB_F64) {
    work_d w = work_on_d(h, A, m, pivot, 0, b, resident);
    st = refactor ? factor_d(&w) : AXB_SUCCESS;
    if (st == AXB_ERR_SINGULAR) return *rcond = 0, AXB_SUCCESS;
    return st ? st : rcond_d(&w, anorm, rcond);
  }
  work_s w = work_on_s(h, A, m, pivot, 0, b, resident);
  st = refactor ? factor_s(&w) : AXB_SUCCESS;
  if (st == AXB_ERR_SINGULAR) return *rcond = 0, AXB_SUCCESS;
  return st ? st : rcond_s(&w, anorm, rcond);
}

static void report_init(axb_report *r, const axb_dense *A, const axb_dense *B,
                        axb_handle h) {
  memset(r, 0, sizeof *r);
  r->backend = h->backend;
  r->dtype = A ? A->dtype : AXB_F64;
  r->n = A ? A->rows : 0;
  r->nrhs = B ? B->cols : 0;
  r->rcond = -1;
  r->backward_error = -1;
}

/* The method AUTO picks, trying Cholesky first on plausible SPD input. */
static axb_status solve_auto(axb_handle h, const axb_dense *A,
                             const axb_dense *B, int spd, buffers *b,
                             axb_report *r, int64_t *info) {
  if (spd) {
    r->method = AXB_METHOD_CHOLESKY;
    axb_status st = run_method(h, A, B, AXB_METHOD_CHOLESKY, 1, b, r, info);
    if (st != AXB_ERR_NOT_SPD) return st;
    r->cholesky_fell_back = 1;
  }
  r->method = AXB_METHOD_LU;
  return run_method(h, A, B, AXB_METHOD_LU, 1, b, r, info);
}

/* The working buffers; F is the handle's kept copy (axb__handle_work)
   when it is small enough to keep, so that repeated calls neither fault
   nor zero its pages again. */
static int allocate(axb_handle h, buffers *b, int64_t n, int64_t k, size_t es,
                    int gj, int need_f) {
  if (n > 0 && (uint64_t)n > (uint64_t)INT64_MAX / (uint64_t)n) return 0;
  b->f_kept = need_f && n * n <= AXB_KEEP_WORK_MAX / (int64_t)es;
  b->F = !need_f     ? NULL
         : b->f_kept ? axb__handle_work(h, n * n * (int64_t)es)
                     : axb__malloc_large(n * n, es);
  b->X = axb__malloc(n * (k + AXB_CONDEST_T), es);
  b->Y1 = axb__malloc(n * AXB_CONDEST_T, sizeof(double));
  b->W = gj ? axb__malloc(n * k, es) : NULL;
  b->ipiv = axb__malloc(n, sizeof(int64_t));
  return (!need_f || b->F) && b->X && b->Y1 && b->ipiv && (!gj || b->W);
}

/* Certify X: backward error of the returned answer, rcond verdict. */
static axb_status certify(axb_handle h, const axb_dense *A, const axb_dense *B,
                          const axb_solve_opts *o, buffers *b, axb_report *r) {
  axb_status st = AXB_SUCCESS;
  double t0 = axb__now();
  if (o->estimate_rcond) {
    st = estimate_rcond(h, A, r->method, o->pivot, b, &r->rcond);
    r->t_rcond = axb__now() - t0;
    if (st) return st;
  }
  t0 = axb__now();
  axb_dense X = axb_dense_wrap(A->rows, B->cols, A->rows, A->dtype, b->X);
  /* One pass over A: the residual and ||op(A)||_inf together, on the
     handle's threads; for the Cholesky methods, whose A was tested
     symmetric (A == A^T exactly), half a pass: the residual from the lower
     triangle, ||A||_inf = ||A||_1 (the same bits for such an A). */
  int oom = 0;
  r->backward_error =
      is_cholesky(r->method)
          ? axb__backward_error_sym(A, &X, B, b->anorm, h->threads, &oom)
          : axb__backward_error_op(A, b->trans, &X, B, h->threads, &oom);
  r->t_backward = axb__now() - t0;
  if (oom) /* not a verdict on X: the check itself could not run */
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "no memory for the backward error check (%lld x %lld "
                     "doubles)",
                     (long long)A->rows, (long long)B->cols);
  double eps = axb_eps(A->dtype);
  if (!(r->backward_error < 30))
    return axb__fail(h, AXB_ERR_INACCURATE,
                     "the solution's backward error ratio is %.3g (>= 30): "
                     "the %s solve is not accurate for this matrix",
                     r->backward_error, axb_method_name(r->method));
  if (r->rcond >= 0 && r->rcond < eps)
    return axb__fail(h, AXB_ERR_ILL_CONDITIONED,
                     "rcond = %.3g is below eps = %.3g: the matrix is "
                     "singular to working precision",
                     r->rcond, eps);
  return AXB_SUCCESS;
}

/* The status of work done on an AUTO handle's sub-handle g, with its
   detail copied to h. */
static axb_status forward(axb_handle h, axb_handle g, axb_status st) {
  if (st == AXB_SUCCESS) {
    axb__clear(h);
    return st;
  }
  return axb__fail(h, st, "%s", axb_detail(g));
}

/* Not symmetric is one way of not being SPD: the numerical status (exit
   1 in the CLI), as a failed factorization of a symmetric A would say. */
static axb_status not_symmetric(axb_handle h, axb_method m) {
  return axb__fail(h, AXB_ERR_NOT_SPD,
                   "A is not symmetric: the %s method needs a symmetric "
                   "(positive definite) matrix; use lu",
                   axb_method_name(m));
}

/* The failure st, unless A holds a NaN or Inf: that is reported first. */
static axb_status a_first(axb_handle h, const axb_dense *A, axb_status st) {
  axb_status fa = st ? axb__solve_finite(h, A, "A") : AXB_SUCCESS;
  return fa ? fa : st;
}

/* The options, in the order the statuses have always come: method, flags,
   then (a Cholesky method on a non-symmetric A first) pivoting. */
static axb_status check_options(axb_handle h, const axb_dense *A,
                                const axb_solve_opts *o) {
  if (o->method < 0 || o->method >= AXB_METHOD_COUNT)
    return axb__fail(h, AXB_ERR_INVALID, "unknown method %d", (int)o->method);
  if ((o->pivot != 0 && o->pivot != 1) ||
      (o->estimate_rcond != 0 && o->estimate_rcond != 1))
    return axb__fail(
        h, AXB_ERR_INVALID,
        "options pivot (%d) and estimate_rcond (%d) must be 0 or 1", o->pivot,
        o->estimate_rcond);
  if (o->trans != AXB_NO_TRANS && o->trans != AXB_TRANS)
    return axb__fail(h, AXB_ERR_INVALID,
                     "option trans (%d) must be AXB_NO_TRANS or AXB_TRANS",
                     (int)o->trans);
  if (o->trans == AXB_TRANS &&
      (o->method == AXB_METHOD_GAUSS || o->method == AXB_METHOD_LU_MIXED))
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "the %s method has no transposed solve (A^T X = B): "
                     "use lu, or pass A^T",
                     axb_method_name(o->method));
  if (!o->pivot && o->method != AXB_METHOD_GAUSS &&
      o->method != AXB_METHOD_LU_CROUT &&
      o->method != AXB_METHOD_LU_FIXEDPOINT) {
    if (is_cholesky(o->method) && !is_symmetric(A))
      return not_symmetric(h, o->method);
    return axb__fail(h, AXB_ERR_INVALID,
                     "pivoting can only be turned off for the gauss, lu-crout "
                     "and lu-fixedpoint (which never pivots) methods, not %s",
                     axb_method_name(o->method));
  }
  return AXB_SUCCESS;
}

/* take_a for the explicit Cholesky method and AUTO: F's lower triangle
   (all that potrf with AXB_LOWER, potrs and pocon read), ||A||_1 and A's
   symmetry *sym from one read of A (take_lower_).  The Cholesky method on
   an asymmetric A fails with NOT_SPD, after a scan for a NaN or Inf
   (reported first, as take_a does: the pass stopped early, its sums are
   incomplete); for AUTO the caller then makes take_a's full pass. */
static axb_status take_lower(axb_handle h, const axb_dense *A, axb_method m,
                             buffers *b, double *anorm, int *sym) {
  int64_t n = A->rows, nt = axb__rows_t(b->threads);
  double *rows = axb__calloc(nt * n, sizeof(double));
  if (!rows)
    return a_first(h, A,
                   axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                             "no memory for %lld sums", (long long)(nt * n)));
  *sym = A->dtype == AXB_F64
             ? take_lower_d(n, A->data, A->ld, b->F, n, rows, b->threads)
             : take_lower_s(n, A->data, A->ld, b->F, n, rows, b->threads);
  *anorm = axb__rows_max(rows, nt, n);
  axb__free(rows);
  if (!*sym && m == AXB_METHOD_AUTO) return AXB_SUCCESS;
  if (!*sym || !isfinite(*anorm)) {
    axb_status st = axb__solve_finite(h, A, "A");
    if (st) return st;
  }
  return *sym ? AXB_SUCCESS : not_symmetric(h, m);
}

/* AUTO's take_a on a symmetric A (take_lower): *spd = a positive
   diagonal.  F holds the lower triangle only, enough for the Cholesky
   attempt; LU (not SPD, or a failed attempt) copies A again (run_method).
   For a symmetric A, ||A||_inf = ||A||_1. */
static void auto_symmetric(const axb_dense *A, buffers *b, double anorm,
                           double *ainf, int *spd) {
  int64_t n = A->rows;
  *spd = 1;
  for (int64_t j = 0; j < n && *spd; ++j)
    *spd = axb_dense_get(A, j, j) > 0;
  b->f_ready = *spd;
  if (ainf) *ainf = anorm;
}

/* b->F := A in one threaded pass that also gives *anorm = ||A||_1, the
   finiteness of A (a non-finite sum: then the scan that names the entry),
   *ainf = ||A||_inf when ainf is not NULL (the transposed solve's) and,
   for the Cholesky methods and AUTO, A's symmetry: a Cholesky method on a
   non-symmetric A fails here with NOT_SPD; AUTO gets *spd = symmetric with
   a positive diagonal.  The explicit Cholesky method and AUTO read A once
   (take_lower: F gets the lower triangle); AUTO on an asymmetric A then
   makes the full pass of LU's. */
static axb_status take_a(axb_handle h, const axb_dense *A, axb_method m,
                         buffers *b, double *anorm, double *ainf, int *spd) {
  *spd = 0;
  if (m == AXB_METHOD_CHOLESKY || m == AXB_METHOD_AUTO) {
    int lsym = 0;
    axb_status st = take_lower(h, A, m, b, anorm, &lsym);
    if (st || m == AXB_METHOD_CHOLESKY) {
      b->f_ready = !st;
      return st;
    }
    if (lsym) {
      auto_symmetric(A, b, *anorm, ainf, spd);
      return AXB_SUCCESS;
    }
    m = AXB_METHOD_LU; /* asymmetric: take_a's pass as for LU */
  }
  int64_t n = A->rows, nt = ainf ? axb__rows_t(b->threads) : 0;
  int want_sym = is_cholesky(m), sym = 0;
  double *colsum = axb__malloc(n, sizeof(double));
  double *rows = ainf ? axb__calloc(nt * n, sizeof(double)) : NULL;
  if (!colsum || (ainf && !rows)) {
    axb__free(colsum);
    axb__free(rows);
    return a_first(h, A,
                   axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                             "no memory for %lld sums", (long long)n));
  }
  if (A->dtype == AXB_F64)
    take_a_d(n, A->data, A->ld, b->F, n, colsum, rows, want_sym ? &sym : NULL,
             b->threads);
  else
    take_a_s(n, A->data, A->ld, b->F, n, colsum, rows, want_sym ? &sym : NULL,
             b->threads);
  if (ainf) *ainf = axb__rows_max(rows, nt, n);
  axb__free(rows);
  b->f_ready = 1;
  double norm = 0;
  for (int64_t j = 0; j < n; ++j)
    if (colsum[j] > norm || isnan(colsum[j])) norm = colsum[j];
  axb__free(colsum);
  *anorm = norm;
  if (!isfinite(norm)) {
    axb_status st = axb__solve_finite(h, A, "A");
    if (st) return st;
  }
  if (is_cholesky(m) && !sym) return not_symmetric(h, m);
  return AXB_SUCCESS;
}

axb_status axb_solve(axb_handle h, const axb_dense *A, axb_dense *B,
                     const axb_solve_opts *opts, axb_report *report) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL", __func__);
  axb__clear(h);
  double t_start = axb__now();
  axb_report local;
  axb_report *r = report ? report : &local;
  report_init(r, A, B, h);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  if (opts) o = *opts;
  double t0 = axb__now();
  axb_status st = axb__solve_shapes(h, A, B);
  if (st) return r->status = st;
  /* A's contents are read once below, with its copy; any failure before
     that reports a NaN or Inf in A first, as the scan came first. */
  if (!st) st = axb__solve_finite(h, B, "B");
  if (!st) st = check_options(h, A, &o);
  r->t_check = axb__now() - t0;
  if (st) return r->status = a_first(h, A, st);
  if (o.method == AXB_METHOD_LU_MIXED ||
      o.method == AXB_METHOD_CHOLESKY_MIXED) {
    double anorm = 0;
    if (!(st = check_finite_norm(h, A, "A", &anorm, NULL)) &&
        o.method == AXB_METHOD_CHOLESKY_MIXED && !is_symmetric(A))
      st = not_symmetric(h, o.method);
    if (st) return r->status = st;
    return r->status = axb__solve_mixed(h, A, B, &o, r, t_start);
  }
  /* AUTO handle: a large problem goes to the GPU where one exists (A's
     symmetry is asked only when it would change the choice). */
  axb_handle g = h;
  if (o.method == AXB_METHOD_AUTO) {
    axb_handle gl = axb__auto_pick(h, AXB_TUNE_LU, A->rows);
    axb_handle gc = axb__auto_pick(h, AXB_TUNE_CHOLESKY, A->rows);
    g = gl == gc ? gl : looks_spd(A) ? gc : gl;
  } else if (o.method == AXB_METHOD_LU || o.method == AXB_METHOD_CHOLESKY)
    g = axb__auto_pick(
        h, o.method == AXB_METHOD_LU ? AXB_TUNE_LU : AXB_TUNE_CHOLESKY,
        A->rows);
  if (g != h) return forward(h, g, axb_solve(g, A, B, opts, report));

  int64_t n = A->rows, k = B->cols;
  buffers b = {0};
  b.threads = h->threads;
  /* The methods a device backend factors in its own memory need no host
     copy of A. */
  int need_f = !((o.method == AXB_METHOD_AUTO || o.method == AXB_METHOD_LU ||
                  o.method == AXB_METHOD_CHOLESKY) &&
                 axb__res_available(h, A->dtype));
  /* Without a host copy, A's checks are passes of their own.  ||A||_inf
     (ainf) comes from A's first pass when A^T X = B may be solved with
     the estimate. */
  double anorm = 0, ainf = 0;
  int spd = 0;
  int want_inf =
      o.trans == AXB_TRANS && o.estimate_rcond && !is_cholesky(o.method);
  if (!need_f) {
    if ((st = check_finite_norm(h, A, "A", &anorm, want_inf ? &ainf : NULL)))
      return r->status = st;
    t0 = axb__now();
    if (is_cholesky(o.method) && !is_symmetric(A))
      st = not_symmetric(h, o.method);
    spd = o.method == AXB_METHOD_AUTO && looks_spd(A);
    r->t_symmetry = axb__now() - t0;
    if (st) return r->status = st;
  }
  /* Working copies: A (n^2), B twice (or three times for Gauss-Jordan).
     Refuse up front what would only swap or meet the OOM killer. */
  double need = ((double)need_f * (double)n * (double)n +
                 (double)n * (3.0 * (double)k + AXB_CONDEST_T)) *
                    (double)axb_dtype_size(A->dtype) +
                (8.0 + 8.0 * AXB_CONDEST_T) * (double)n;
  double have;
  if (axb__memory_short(need, &have))
    return r->status = a_first(
               h, A,
               axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                         "solving a %lld x %lld %s system needs %.3g GiB of "
                         "working memory, more than the %.3g GiB available",
                         (long long)n, (long long)n, axb_dtype_name(A->dtype),
                         need / 1073741824.0, have / 1073741824.0));
  /* B0 keeps the right-hand side for the residual; X goes to B at the end. */
  axb_dense B0 = {0};
  t0 = axb__now();
  if (!allocate(h, &b, n, k, axb_dtype_size(A->dtype),
                o.method == AXB_METHOD_GAUSS_JORDAN, need_f) ||
      axb_dense_create(&B0, n, k, A->dtype)) {
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "no memory for the working copies of a %lld x %lld %s "
                   "system (%lld right-hand sides)",
                   (long long)n, (long long)n, axb_dtype_name(A->dtype),
                   (long long)k);
    st = need_f ? a_first(h, A, st) : st;
    goto cleanup;
  }
  copy_dense(B, B0.data);
  /* The copy of A that the factorization overwrites, with A's finiteness,
     ||A||_1 and (Cholesky, AUTO) its symmetry from the same pass. */
  if (need_f &&
      (st = take_a(h, A, o.method, &b, &anorm, want_inf ? &ainf : NULL, &spd)))
    goto cleanup;
  r->t_copy += axb__now() - t0;
  /* A^T X = B: a Cholesky method (or AUTO's choice of it) has a symmetric
     A, for which A^T = A; the others factor A and solve with A^T. */
  b.trans = o.trans == AXB_TRANS && !is_cholesky(o.method) && !spd
                ? AXB_TRANS
                : AXB_NO_TRANS;
  b.fp = &o.fixedpoint;
  /* The estimate's norm: ||op(A)||_1, for A^T ||A||_inf. */
  b.anorm = b.trans == AXB_TRANS ? ainf : anorm;
  /* The estimate's first block rides with B's solve; for A^T only on host
     factors, whose interchanges undo the P in A^-T X1 = P (L U)^-T X1
     (solve_t.h): resident factors keep them on the device, and the
     inf-norm estimate forms its own first product there. */
  b.want_y1 = o.estimate_rcond && (b.trans == AXB_NO_TRANS || need_f);

  int64_t info = 0;
  if (o.method == AXB_METHOD_AUTO) {
    st = solve_auto(h, A, &B0, spd, &b, r, &info);
  } else {
    r->method = o.method;
    st = run_method(h, A, &B0, o.method, o.pivot, &b, r, &info);
  }
  r->info = info;
  if (st) goto cleanup;
  /* Certification time apart, its host<->device copies (the estimate's
     vectors) counted as transfer time like the others. */
  double (*take)(axb_handle) = h->ops ? h->ops->take_transfer_seconds : NULL;
  if (take) take(h);
  double t_cert = axb__now();
  st = certify(h, A, &B0, &o, &b, r);
  double tx_c = take ? take(h) : 0;
  t_cert = axb__now() - t_cert;
  r->t_certify = t_cert > tx_c ? t_cert - tx_c : 0;
  r->t_transfer += tx_c;
  /* X exists: hand it back, also when certify found it untrustworthy. */
  if (st == AXB_SUCCESS || st == AXB_ERR_ILL_CONDITIONED ||
      st == AXB_ERR_INACCURATE) {
    double t1 = axb__now();
    copy_back(b.X, B);
    r->t_copy += axb__now() - t1;
  }
  double t = r->t_factor + r->t_solve;
  r->gflops = t > 0 ? (factor_flops(r->method, (double)n) +
                       solve_flops((double)n, (double)k)) /
                          t * 1e-9
                    : 0;

cleanup:
  free_buffers(h, &b);
  axb_dense_destroy(&B0);
  r->t_total = axb__now() - t_start;
  return r->status = st;
}

/* getrf + getri with the factors resident on the device: A goes up once,
   inv(A) comes back once (host arrays would move the factors both ways
   between the two).  X holds no inverse after a failure. */
static axb_status invert_resident(axb_handle h, const axb_dense *A,
                                  axb_dense *X) {
  int64_t n = A->rows, info = 0;
  void *res = NULL;
  axb_status st;
  if (A->dtype == AXB_F64) {
    st = axb__dres_factor(h, 0, n, A->data, A->ld, &res, &info);
    if (!st) st = axb__dres_getri(h, res, X->data, X->ld, &info);
  } else {
    st = axb__sres_factor(h, 0, n, A->data, A->ld, &res, &info);
    if (!st) st = axb__sres_getri(h, res, X->data, X->ld, &info);
  }
  axb__res_free(h, res);
  return st;
}

axb_status axb_invert(axb_handle h, const axb_dense *A, axb_dense *X,
                      axb_method method) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: the handle is NULL", __func__);
  axb__clear(h);
  axb_status st = axb__solve_square(h, A, "A");
  if (st) return st;
  /* A's contents are read with its copy into X below; a failure before
     that reports a NaN or Inf in A first, as the scan came first. */
  int64_t n = A->rows;
  if (!X || !X->data || X->rows != n || X->cols != n || X->ld < n ||
      X->dtype != A->dtype || X->mem != AXB_MEM_HOST)
    return a_first(
        h, A,
        axb__fail(h, AXB_ERR_INVALID, "X must be a host %lld x %lld %s matrix",
                  (long long)n, (long long)n, axb_dtype_name(A->dtype)));
  if ((st = axb__solve_extent_ok(h, X, "X"))) return a_first(h, A, st);
  if (method != AXB_METHOD_LU && method != AXB_METHOD_GAUSS_JORDAN)
    return a_first(h, A,
                   axb__fail(h, AXB_ERR_INVALID,
                             "inverse methods are lu and gauss-jordan, not %s",
                             axb_method_name(method)));
  if (method == AXB_METHOD_LU) {
    axb_handle g = axb__auto_pick(h, AXB_TUNE_INVERSE, A->rows);
    if (g != h) return forward(h, g, axb_invert(g, A, X, method));
    if (axb__res_available(h, A->dtype)) {
      double anorm = 0;
      if ((st = check_finite_norm(h, A, "A", &anorm, NULL))) return st;
      return invert_resident(h, A, X);
    }
  }
  /* A into X (its own ld) and A's finiteness from one threaded pass; only
     a non-finite column sum pays for the scan that names the entry. */
  double *colsum = axb__malloc(n, sizeof(double));
  if (!colsum)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for %lld sums",
                     (long long)n);
  if (A->dtype == AXB_F64)
    take_a_d(n, A->data, A->ld, X->data, X->ld, colsum, NULL, NULL, h->threads);
  else
    take_a_s(n, A->data, A->ld, X->data, X->ld, colsum, NULL, NULL, h->threads);
  int finite = 1;
  for (int64_t j = 0; j < n; ++j)
    finite = finite && isfinite(colsum[j]);
  axb__free(colsum);
  if (!finite && (st = axb__solve_finite(h, A, "A"))) return st;
  int64_t *ipiv = NULL;
  if (method == AXB_METHOD_LU && !(ipiv = axb__malloc(n, sizeof *ipiv)))
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for pivots");
  int64_t info = 0;
  if (A->dtype == AXB_F64) {
    double *x = X->data;
    st = method == AXB_METHOD_LU ? axb_dgetrf(h, n, n, x, X->ld, ipiv, &info)
                                 : axb_dgetri_gj(h, n, x, X->ld, &info);
    if (!st && method == AXB_METHOD_LU)
      st = axb_dgetri(h, n, x, X->ld, ipiv, &info);
  } else {
    float *x = X->data;
    st = method == AXB_METHOD_LU ? axb_sgetrf(h, n, n, x, X->ld, ipiv, &info)
                                 : axb_sgetri_gj(h, n, x, X->ld, &info);
    if (!st && method == AXB_METHOD_LU)
      st = axb_sgetri(h, n, x, X->ld, ipiv, &info);
  }
  axb__free(ipiv);
  return st;
}
