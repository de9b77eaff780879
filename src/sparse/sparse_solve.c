/*
 * axb_sparse_solve: validate -> choose method and backend table -> the
 * typed driver (sparse_solve_t.h: upload, preconditioner, Krylov method,
 * true residual) -> report.  Names and option defaults of the sparse API.
 */
#include "backend/omp/omp.h"
#include "core/csr.h"
#include "core/internal.h"
#include "core/template.h"
#include "sparse/sparse_direct.h"
#include "sparse/sparse_host.h"
#include "sparse/sparse_ops.h"
#include "sparse/sparse_prep.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Restarts from the true residual when the recurrence converged but the
   true residual did not. */
#define SP_TRUE_RESTARTS 3

/* Values whose largest magnitude is 2^e with |e| <= band are used as
   given; beyond it the driver equilibrates by a power of two.  The band
   keeps squares of residuals far from under- and overflow (double: 2^64,
   squares of tol-sized residuals stay above 2^-300; float vectors keep
   24 bits of room on either side). */
#define SP_BAND_D 64
#define SP_BAND_S 24

/* The exponent s such that 2^s v brings the largest magnitude mx of a set
   of values near 1, or 0 when mx is inside the band.  exact: only exact
   scalings, down only as far as the smallest nonzero mn stays normal (none
   when a subnormal is present); else entries below 2^-1000 mx may be
   flushed (b: they are negligible in its 2-norm, and the verdict is
   certified on the caller's own A and b).  Up only as far as mx stays
   finite.  frexp: v = f 2^e with f in [0.5, 1); normal iff e >= min_exp. */
static int sp_scale_exp(double mx, double mn, int min_exp, int max_exp,
                        int band, int exact) {
  if (!(mx > 0)) return 0;
  int emax, emin;
  frexp(mx, &emax);
  frexp(mn, &emin);
  if (emax >= -band && emax <= band) return 0;
  int lo = !exact ? -emax : emin < min_exp ? 0 : min_exp - emin;
  int hi = max_exp - emax, s = -emax;
  return s < lo ? lo : s > hi ? hi : s;
}

/* ILUT's parameters (issue 23): fill p per row and part beyond A's own
   count, drop tolerance tau relative to the row's 2-norm. */
#define SP_ILUT_P 10
#define SP_ILUT_TAU 1e-4

#define AXB_TEMPLATE "sparse/sparse_solve_t.h"
#include "core/instantiate.h"

static const char *const method_names[AXB_SPARSE_METHOD_COUNT] = {
    "auto", "cg", "cg1", "bicgstab", "gmres", "direct"};
static const char *const precond_names[AXB_PRECOND_COUNT] = {
    "auto", "none", "jacobi", "ilu0", "ic0", "parilu", "paric", "ilut"};
static const char *const breakdown_names[] = {
    "none",
    "p^T A p <= 0 (not SPD)",
    "<r^, r> = 0",
    "<r^, v> = 0",
    "omega = 0",
    "singular Hessenberg",
    "non-finite scalar",
    "max iterations reached",
    "residual above 1e8 ||b|| (diverging)"};

const char *axb_sparse_method_name(axb_sparse_method m) {
  return m >= 0 && m < AXB_SPARSE_METHOD_COUNT ? method_names[m] : "unknown";
}

const char *axb_precond_name(axb_precond p) {
  return p >= 0 && p < AXB_PRECOND_COUNT ? precond_names[p] : "unknown";
}

const char *axb_sparse_breakdown_name(axb_sparse_breakdown b) {
  return b >= 0 && b <= AXB_BREAKDOWN_DIVERGED ? breakdown_names[b] : "unknown";
}

/* Index of name in names[0 .. count), or -1. */
static int name_index(const char *const *names, int count, const char *name) {
  for (int i = 0; name && i < count; ++i)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}

/* *i := index of name in names[0 .. count); a name not there, or a NULL
   result pointer out, is AXB_ERR_INVALID from fn naming what was wanted. */
static axb_status parse_index(const char *fn, const char *what,
                              const char *list, const char *const *names,
                              int count, const char *name, const void *out,
                              int *i) {
  *i = name_index(names, count, name);
  if (*i < 0 || !out)
    return axb__fail(NULL, AXB_ERR_INVALID, "%s: '%.60s' is not %s (%s)%s", fn,
                     name ? name : "(NULL)", what, list,
                     out ? "" : "; NULL result pointer");
  return AXB_SUCCESS;
}

axb_status axb_sparse_method_parse(const char *name, axb_sparse_method *m) {
  int i;
  axb_status st =
      parse_index("axb_sparse_method_parse", "a sparse method",
                  "cg, cg1, bicgstab, gmres, direct, auto", method_names,
                  AXB_SPARSE_METHOD_COUNT, name, m, &i);
  if (!st) *m = (axb_sparse_method)i;
  return st;
}

axb_status axb_precond_parse(const char *name, axb_precond *p) {
  int i;
  axb_status st =
      parse_index("axb_precond_parse", "a preconditioner",
                  "none, jacobi, ilu0, ic0, parilu, paric, ilut, auto",
                  precond_names, AXB_PRECOND_COUNT, name, p, &i);
  if (!st) *p = (axb_precond)i;
  return st;
}

void axb_sparse_opts_default(axb_sparse_opts *o) {
  if (!o) return;
  memset(o, 0, sizeof(*o));
  o->method = AXB_SPARSE_AUTO;
  o->precond = AXB_PRECOND_AUTO;
  o->tol = 1e-8;
  o->max_iter = 10000;
  o->restart = 30;
  o->sweeps = 3;
  o->trisolve = AXB_TRISOLVE_EXACT;
  o->tri_sweeps = 3;
}

void axb_sparse_report_free(axb_sparse_report *r) {
  if (!r) return;
  axb__free(r->history);
  r->history = NULL;
  r->history_len = 0;
}

/* 1 when every value of A is finite; else 0 and the row in *row.  One
   pass over the values array in its own type (the row is looked up in
   rowptr only for a bad value): Poisson 100^3's 6.9e6 values were read
   row by row with a dtype test per entry before. */
static int csr_finite(const axb_csr *A, int64_t *row) {
  int64_t bad = -1;
  if (A->dtype == AXB_F64) {
    const double *v = A->values;
    for (int64_t k = 0; k < A->nnz && bad < 0; ++k)
      if (!isfinite(v[k])) bad = k;
  } else {
    const float *v = A->values;
    for (int64_t k = 0; k < A->nnz && bad < 0; ++k)
      if (!isfinite(v[k])) bad = k;
  }
  if (bad < 0) return 1;
  /* the row i with rowptr[i] <= bad < rowptr[i + 1] (empty rows skipped) */
  *row = axb__lower_bound(A->rowptr, 0, A->rows + 1, bad + 1) - 1;
  return 0;
}

static axb_status check_vec(axb_handle h, const axb_dense *D, const char *what,
                            int argno, const axb_csr *A, int64_t nrhs,
                            int finite) {
  if (!D) return axb__fail(h, -argno, "%s is NULL", what);
  if (D->dtype != A->dtype)
    return axb__fail(h, -argno, "%s is %s but A is %s", what,
                     axb_dtype_name(D->dtype), axb_dtype_name(A->dtype));
  if (D->mem != AXB_MEM_HOST)
    return axb__fail(h, -argno, "%s must be in host memory", what);
  if (D->rows != A->rows || (nrhs >= 0 && D->cols != nrhs) || D->cols < 0)
    return axb__fail(h, -argno,
                     "%s is %lld x %lld; A is %lld x %lld (want n x nrhs)",
                     what, (long long)D->rows, (long long)D->cols,
                     (long long)A->rows, (long long)A->cols);
  if (D->ld < (D->rows > 1 ? D->rows : 1) ||
      (!D->data && D->rows > 0 && D->cols > 0))
    return axb__fail(h, -argno, "%s has a bad leading dimension or no data",
                     what);
  if (D->cols > 0 &&
      D->ld > INT64_MAX / (int64_t)axb_dtype_size(D->dtype) / D->cols)
    return axb__fail(h, -argno,
                     "%s is %lld x %lld with ld %lld: its size in bytes "
                     "overflows a 64-bit integer",
                     what, (long long)D->rows, (long long)D->cols,
                     (long long)D->ld);
  int64_t bi, bj;
  if (finite && !axb__dense_finite(D, &bi, &bj))
    return axb__fail(h, -argno, "%s(%lld, %lld) is not finite", what,
                     (long long)bi + 1, (long long)bj + 1);
  return AXB_SUCCESS;
}

/* Option values filled in (0 = default) and checked. */
static axb_status resolve_opts(axb_handle h, const axb_sparse_opts *in,
                               axb_sparse_opts *o) {
  axb_sparse_opts_default(o);
  if (in) {
    *o = *in;
    if (o->tol == 0) o->tol = 1e-8;
    if (o->max_iter == 0) o->max_iter = 10000;
    if (o->restart == 0) o->restart = 30;
    if (o->sweeps == 0) o->sweeps = 3;
    if (o->tri_sweeps == 0) o->tri_sweeps = 3;
  }
  if (o->method < 0 || o->method >= AXB_SPARSE_METHOD_COUNT)
    return axb__fail(h, -5, "unknown sparse method %d", (int)o->method);
  if (o->precond < 0 || o->precond >= AXB_PRECOND_COUNT)
    return axb__fail(h, -5, "unknown preconditioner %d", (int)o->precond);
  if (!(o->tol > 0) || !(o->tol < 1))
    return axb__fail(h, -5, "tol %g must be in (0, 1)", o->tol);
  if (o->max_iter < 0 || o->restart < 0 || o->sweeps < 0 || o->tri_sweeps < 0 ||
      o->restart > 10000)
    return axb__fail(h, -5,
                     "max_iter (%lld), restart (%d <= 10000), sweeps (%d) "
                     "and tri_sweeps (%d) must not be negative",
                     (long long)o->max_iter, o->restart, o->sweeps,
                     o->tri_sweeps);
  if ((o->trisolve != AXB_TRISOLVE_EXACT &&
       o->trisolve != AXB_TRISOLVE_JACOBI) ||
      (o->use_x0 != 0 && o->use_x0 != 1) ||
      (o->history != 0 && o->history != 1) || o->direct < AXB_DIRECT_AUTO ||
      o->direct > AXB_DIRECT_NEVER)
    return axb__fail(h, -5, "trisolve, use_x0, history or direct out of range");
  return AXB_SUCCESS;
}

static axb_status check_inputs(axb_handle h, const axb_csr *A,
                               const axb_dense *B, const axb_dense *X,
                               const axb_sparse_opts *o) {
  if (!A) return axb__fail(h, -2, "A is NULL");
  axb_status st = axb__csr_check(h, A);
  if (st) return st;
  if (A->rows != A->cols)
    return axb__fail(h, -2,
                     "A is %lld x %lld: a sparse solve needs a square "
                     "matrix",
                     (long long)A->rows, (long long)A->cols);
  int64_t row;
  if (!csr_finite(A, &row))
    return axb__fail(h, AXB_ERR_INVALID, "A has a non-finite value in row %lld",
                     (long long)row + 1);
  if ((st = check_vec(h, B, "B", 3, A, -1, 1))) return st;
  return check_vec(h, X, "X", 4, A, B->cols, o->use_x0);
}

/* axb__csr_symmetric_once on the handle's threads (one on the REF
   backend): the threaded test of sparse_host.h for large A. */
static int sym_once(axb_handle h, const axb_csr *A, int *known) {
  if (*known < 0)
    *known = axb__csr_is_symmetric_par(
        A, 1, h->backend == AXB_BACKEND_REF ? 1 : axb_omp_threads(h));
  return *known;
}

/* The diagonal test first: it is cheaper than the symmetry test and, when
   it fails, the symmetry is not needed at all. */
static axb_sparse_method choose_method(axb_handle h, const axb_csr *A,
                                       axb_sparse_method m, int *sym) {
  if (m != AXB_SPARSE_AUTO) return m;
  return axb__csr_positive_diag(A) && sym_once(h, A, sym) ? AXB_SPARSE_CG
                                                          : AXB_SPARSE_GMRES;
}

/* Refuse up front what would only swap or meet the OOM killer (as the
   dense driver does; sparse_mem.h): every sizeable allocation of a Krylov
   solve of method m, counted here once.  On the backend (device memory on
   the CUDA table, where cudaMalloc fails cleanly, so only the host side is
   counted there): the method's vectors (GMRES: restart + 3, its basis),
   b and x, Jacobi's inverse diagonal and the solves' work, the factor's
   values and work copy with its indices.  On the host: the power-of-two
   scaled copy of A and one column (sparse_solve_t.h), the factor's
   set-up (its values, the shifted IC(0) copy, the pattern: diagonal
   positions, CSC view, transposed positions, level sets), and
   caller_values more values of A's dtype.  *needed (when not NULL): the
   bytes counted, which a later check adds to its own. */
static axb_status check_memory(axb_handle h, const axb_csr *A,
                               const axb_sparse_opts *o, axb_sparse_method m,
                               int device, double caller_values,
                               double *needed) {
  double n = (double)A->rows, nnz = (double)A->nnz;
  double es = (double)axb_dtype_size(A->dtype);
  double vecs = m == AXB_SPARSE_CG1        ? 5
                : m == AXB_SPARSE_BICGSTAB ? 7
                : m == AXB_SPARSE_GMRES    ? (double)o->restart + 3
                                           : 4;
  vecs += 2 + 3; /* b and x; Jacobi's inverse diagonal, the solves' work */
  int fac = o->precond != AXB_PRECOND_NONE && o->precond != AXB_PRECOND_JACOBI;
  if (o->precond == AXB_PRECOND_ILUT) /* its fill: 2 p + 1 per row */
    nnz += (2.0 * SP_ILUT_P + 1) * n;
  /* the factor on the backend: values, work copy, its copy of the
     pattern (CPU: rowptr, colind, CSC view, transposed positions, levels) */
  double dev = vecs * n * es + (fac ? nnz * (2 * es + 5 * 8) + 8 * n * 8 : 0);
  double host = (nnz + n) * es + (fac ? nnz * (2 * es + 5 * 8) + 8 * n * 8 : 0);
  double need = (device ? host : host + dev) + caller_values * es;
  if (needed) *needed = need;
  double have = 0;
  if (!axb__memory_short(need, &have)) return AXB_SUCCESS;
  return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "a sparse %s solve of n = %lld (%lld nonzeros, %s) needs "
                   "%.3g GiB of working memory, more than the %.3g GiB "
                   "available",
                   axb_sparse_method_name(m), (long long)A->rows,
                   (long long)A->nnz, axb_dtype_name(A->dtype),
                   need / 1073741824.0, have / 1073741824.0);
}

/* Append one clause to report.path ("; " between clauses; cut at the
   array's end). */
static void path_add(axb_sparse_report *r, const char *fmt, ...) {
  size_t len = strlen(r->path);
  if (len + 3 >= sizeof r->path) return;
  if (len) {
    memcpy(r->path + len, "; ", 3);
    len += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->path + len, sizeof r->path - len, fmt, ap);
  va_end(ap);
}

/* AUTO takes the direct path when the numeric factorisation is estimated
   at most SP_DIRECT_FLOPS (about 0.1 s on a core) or at most
   SP_DIRECT_PER_NNZ flops per nonzero of A (the price of a few thousand
   SpMVs, which a Krylov solve of a hard matrix easily spends: measured on
   the 2-D Poisson matrix of n = 90000, 1000 flops per nonzero, direct won
   by 20%; on the 3-D one of n = 64000, 37000 per nonzero, IC(0)-CG won
   12x), and its memory fits in half of what is available. */
#define SP_DIRECT_FLOPS 1e9
#define SP_DIRECT_PER_NNZ 5000.0
/* A CUDA handle analyses for the direct path only matrices of at most
   this many nonzeros: large PDE matrices are the GPU Krylov methods'
   ground (3-D Poisson 100^3, 7e6 nonzeros: CG 39 ms), their
   factorisations are not cheap, and the analysis (AMD, symbolic
   factorisation) that would say so is itself not free.  The shared
   matrices have at most ~0.5e6 nonzeros. */
#define SP_GPU_DIRECT_NNZ 2e6

/* The direct path on A (F: A analysed, or NULL to analyse here for
   CHOLMOD when spd, else UMFPACK); F is freed. */
static axb_status run_direct(axb_handle h, const axb_csr *A, const axb_dense *B,
                             axb_dense *X, const axb_sparse_opts *o, int spd,
                             axb_direct *F, axb_sparse_report *r) {
  axb_status st = AXB_SUCCESS;
  if (!F) {
    double t0 = axb__now();
    st = axb__direct_analyze(h, A, spd, &F);
    r->t_analysis += axb__now() - t0;
    r->t_setup += axb__now() - t0;
    if (st) return st;
  }
  r->iterations = 0;
  r->restarts = 0;
  r->breakdown = AXB_BREAKDOWN_NONE;
  r->precond_fell_back = 0;
  r->precond_requested = AXB_PRECOND_NONE;
  if (A->dtype == AXB_F64)
    st = axb__sparse_direct_d(h, A, B, X, o->tol, F, r);
  else
    st = axb__sparse_direct_s(h, A, B, X, o->tol, F, r);
  if (axb__direct_switched(F))
    path_add(r, "cholmod met a non-positive pivot: umfpack (pivoted LU) "
                "instead");
  if (st != AXB_ERR_NOT_SUPPORTED && st != AXB_ERR_OUT_OF_MEMORY) {
    char what[200];
    axb__direct_describe(F, what, sizeof what);
    if (what[0]) path_add(r, "preprocessing: %s", what);
  }
  axb__direct_free(F);
  return st;
}

/* The flops above which AUTO does not factorise A (the rule above). */
static double direct_limit(const axb_csr *A) {
  double per = SP_DIRECT_PER_NNZ * (double)A->nnz;
  return per > SP_DIRECT_FLOPS ? per : SP_DIRECT_FLOPS;
}

/* AUTO's pre-estimate before UMFPACK's analysis (issue 23): cage10's
   analysis took ~45 ms (H100 host) to say 2.1e11 flops, 211x the limit,
   where GMRES + ILU(0) takes 6 iterations.  AMD's LU count for the
   pattern of A + A^T (sparse_direct.h) costs about half of that analysis
   (cage10: 12-26 ms against 52-57 ms, 2-core VM, medians of 5-9) and is
   28x the limit there.  It is trusted only where UMFPACK's estimate
   cannot be far below it: on the 49 shared matrices it was 0.007-1.05x
   UMFPACK's where at least half of the pattern is symmetric, and up to
   3800x above where under a tenth is (gemat12, bp_1200, impcol_*,
   west*: UMFPACK's unsymmetric strategy, COLAMD with row pivoting, avoids
   A + A^T's fill).  Skipped only when SP_PRE_MARGIN times the limit is
   exceeded, and only run when the envelope bound of A's own order (O(nnz),
   sparse_host.h) does not already clear the limit: that spares AMD's cost
   on 45 of the 49 shared matrices. */
#define SP_PRE_SYMMETRY 0.5
#define SP_PRE_MARGIN 10.0

/* AMD's count (sparse_direct.h) when the two O(nnz) gates let it run,
   else -1; *sym: the symmetric share of the pattern when asked. */
static double pre_estimate(axb_handle h, const axb_csr *A, double limit,
                           double *sym) {
  double env = axb__csr_envelope_flops(A), fl = 0;
  if (env >= 0 && env <= limit) return -1;
  *sym = axb__csr_pattern_symmetry(A);
  if (*sym < SP_PRE_SYMMETRY) return -1;
  if (axb__direct_preestimate(h, A, &fl)) { /* no memory: the analysis */
    axb__clear(h);
    return -1;
  }
  return fl;
}

/* 1 when the pre-estimate says the direct path is hopeless; the path
   names the estimate whenever AMD ran.  Its time is analysis time. */
static int auto_pre_skip(axb_handle h, const axb_csr *A, axb_sparse_report *r) {
  double t0 = axb__now(), limit = direct_limit(A), sym = 0;
  double fl = pre_estimate(h, A, limit, &sym);
  int skip = fl > SP_PRE_MARGIN * limit;
  if (fl >= 0)
    path_add(r,
             "%s: AMD on the pattern of A + A^T (%.0f %% symmetric) estimates "
             "LU at %.3g flops (%.0f per nonzero), %s %.0fx the direct limit "
             "of %.3g%s",
             skip ? "iterative" : "pre-estimate", 100 * sym, fl,
             fl / (double)(A->nnz > 0 ? A->nnz : 1),
             skip ? "more than" : "at most", SP_PRE_MARGIN, limit,
             skip ? ": no direct analysis" : "");
  double dt = axb__now() - t0;
  r->t_analysis += dt;
  r->t_setup += dt;
  return skip;
}

/* AUTO's first question: is the direct factorisation cheap enough?
   Analyses A (CHOLMOD when spd, else UMFPACK, after the pre-estimate) and
   keeps the analysis in *F when the answer is yes. */
static void auto_pick_direct(axb_handle h, const axb_csr *A, int spd,
                             axb_sparse_report *r, axb_direct **F) {
  *F = NULL;
  if (!spd && auto_pre_skip(h, A, r)) return;
  double t0 = axb__now();
  axb_direct *G = NULL;
  if (axb__direct_analyze(h, A, spd, &G)) {
    path_add(r, "direct analysis refused (%s): iterative", axb_detail(h));
    axb__clear(h);
    return;
  }
  double fl, bytes, have = axb__direct_memory(G);
  axb__direct_estimate(G, &fl, &bytes);
  r->t_analysis += axb__now() - t0;
  r->t_setup += axb__now() - t0;
  double per_nnz = fl / (double)(A->nnz > 0 ? A->nnz : 1);
  if (fl <= direct_limit(A) && bytes <= have / 2) {
    path_add(r,
             "direct: %s factorisation estimated at %.3g flops (%.0f per "
             "nonzero) and %.3g MiB",
             axb__direct_name(G), fl, per_nnz, bytes / 1048576.0);
    *F = G;
    return;
  }
  path_add(r,
           "iterative: the %s factorisation would take %.3g flops (%.0f per "
           "nonzero) and %.3g GiB",
           axb__direct_name(G), fl, per_nnz, bytes / 1073741824.0);
  axb__direct_free(G);
}

/* 1 when AUTO's preconditioner will be of the ILU kind (a method other
   than CG).  A preconditioner named by the caller runs on A as given and
   reports its own failure with the row (the contract of issue 8). */
static int ilu_kind(const axb_sparse_opts *o, axb_sparse_method m) {
  return o->precond == AXB_PRECOND_AUTO && m != AXB_SPARSE_CG &&
         m != AXB_SPARSE_CG1;
}

/* The Krylov path as issue 8 built it (preconditioner AUTO and its
   fallbacks inside), after the preprocessing of issue 23: AUTO's ILU(0)
   on a matrix with zero diagonal entries, on which ILU(0) fails, gets A's
   rows permuted by a maximum-product matching (sparse_prep.h; where ILU(0)
   of A itself succeeds a permutation was measured to do harm: fidap036).
   P is orthogonal: the residual norms, and so the verdict, are A's. */
static axb_status run_krylov(axb_handle h, const axb_sparse_ops *ops,
                             const axb_csr *A, const axb_dense *B, axb_dense *X,
                             const axb_sparse_opts *o, axb_sparse_method m,
                             int sym, axb_sparse_report *r) {
  double kneed = 0; /* the Krylov solve's bytes: P A and P B come on top */
  double t0 = axb__now();
  axb_status st =
      check_memory(h, A, o, m, h->backend == AXB_BACKEND_CUDA, 0, &kneed);
  r->t_memory = axb__now() - t0;
  if (st) return st;
  axb_csr Ap;
  axb_dense Bp;
  int permuted = 0;
  if (ilu_kind(o, m) && axb__prep_diag_defect(A) && axb__prep_ilu0_fails(A)) {
    int64_t matched = 0;
    st = axb__prep_matching(h, A, B, kneed, &Ap, &Bp, &matched);
    if (st) {
      path_add(r, "weighted matching refused (%s)", axb_detail(h));
      axb__clear(h);
    } else {
      permuted = 1;
      path_add(r, "preprocessing: rows permuted by a maximum-product "
                  "matching (MC64-like): every diagonal entry nonzero");
      A = &Ap;
      B = &Bp;
      sym = -1; /* P A is another matrix */
    }
  }
  if (A->dtype == AXB_F64)
    st = axb__sparse_solve_d(h, ops, A, B, X, o, m, sym, r);
  else
    st = axb__sparse_solve_s(h, ops, A, B, X, o, m, sym, r);
  if (permuted) {
    axb_csr_destroy(&Ap);
    axb_dense_destroy(&Bp);
  }
  return st;
}

/* AUTO's CG with the AUTO preconditioner, Jacobi first (issue 23).  On a
   CUDA handle IC(0) costs a host factorisation and its upload (216 of
   AUTO's 705 ms on 3-D Poisson 100^3, H200) and two level-scheduled
   triangular solves per iteration (4.2 ms, against 1.9 ms for cuSPARSE's
   whole PCG iteration), while a Jacobi-CG iteration is one SpMV and a few
   vector operations (plain CG solves that system in 39 ms).  So Jacobi
   runs first for at most this many iterations; unconverged, CG + IC(0)
   continues from its iterate, so only the budget is lost.  The host
   backends keep IC(0) at once (0: their triangular solves are not the
   bottleneck).  AXB_SPARSE_JACOBI_FIRST=k sets the budget on any backend
   (the tests reach both outcomes on the CPU with it). */
#define SP_JACOBI_FIRST_CUDA 500

static int64_t jacobi_first(axb_handle h, const axb_sparse_opts *o,
                            axb_sparse_method m) {
  if (m != AXB_SPARSE_CG || o->precond != AXB_PRECOND_AUTO) return 0;
  const char *e = getenv("AXB_SPARSE_JACOBI_FIRST");
  int64_t k = e && *e
                  ? strtoll(e, NULL, 10)
                  : (h->backend == AXB_BACKEND_CUDA ? SP_JACOBI_FIRST_CUDA : 0);
  return k > 0 ? k : 0;
}

/* CG + Jacobi for at most k iterations, then (not converged) CG + AUTO's
   preconditioner from that iterate with the iterations left; the report
   adds both runs' iterations and times. */
static axb_status run_cg_jacobi_first(axb_handle h, const axb_sparse_ops *ops,
                                      const axb_csr *A, const axb_dense *B,
                                      axb_dense *X, const axb_sparse_opts *o,
                                      int sym, int64_t k,
                                      axb_sparse_report *r) {
  axb_sparse_opts oj = *o;
  oj.precond = AXB_PRECOND_JACOBI;
  oj.max_iter = k < o->max_iter ? k : o->max_iter;
  axb_status st = run_krylov(h, ops, A, B, X, &oj, AXB_SPARSE_CG, sym, r);
  if (st <= 0 || oj.max_iter >= o->max_iter) {
    path_add(r, "CG + jacobi first (at most %lld iterations)%s",
             (long long)oj.max_iter, st ? "" : ": converged");
    return st;
  }
  path_add(r,
           "CG + jacobi: %s after %lld iterations (true residual %.3g): CG "
           "+ the AUTO preconditioner from that iterate",
           axb_strerror(st), (long long)r->iterations, r->true_residual);
  axb__clear(h);
  const int64_t it = r->iterations;
  const double up = r->t_upload, pc = r->t_precond, ph = r->t_precond_host,
               so = r->t_solve, me = r->t_memory;
  axb_sparse_opts oi = *o;
  oi.max_iter = o->max_iter - it;
  /* From Jacobi's iterate unless it is worse than x = 0 (or not finite). */
  oi.use_x0 = r->true_residual < 1;
  r->iterations = 0;
  r->breakdown = AXB_BREAKDOWN_NONE; /* Jacobi's: not the verdict */
  axb__free(r->history);             /* the history is the second run's */
  r->history = NULL;
  r->history_len = 0;
  st = run_krylov(h, ops, A, B, X, &oi, AXB_SPARSE_CG, sym, r);
  r->iterations += it;
  r->t_upload += up;
  r->t_precond += pc;
  r->t_precond_host += ph;
  r->t_solve += so;
  r->t_memory += me;
  return st;
}

/* AUTO after a failed Krylov solve: the direct path, when it is in the
   build and fits; else the Krylov failure stands. */
static axb_status auto_fallback(axb_handle h, const axb_csr *A,
                                const axb_dense *B, axb_dense *X,
                                const axb_sparse_opts *o, int spd,
                                axb_status st, axb_sparse_report *r) {
  if (st <= 0 || !axb__direct_available()) return st;
  path_add(r,
           "%s + %s failed (%s, %lld iterations, true residual %.3g): "
           "fell back to direct",
           axb_sparse_method_name(r->method), axb_precond_name(r->precond),
           axb_strerror(st), (long long)r->iterations, r->true_residual);
  char why[256];
  snprintf(why, sizeof why, "%s", axb_detail(h));
  r->t_setup += r->t_solve;
  r->t_solve = 0;
  axb__clear(h);
  axb_status sd = run_direct(h, A, B, X, o, spd, NULL, r);
  if (sd >= 0) return sd;
  path_add(r, "direct refused: %s", axb_detail(h));
  return axb__fail(h, st, "%s (the direct fallback: %s)", why, axb_detail(h));
}

axb_status axb_sparse_solve(axb_handle h, const axb_csr *A, const axb_dense *B,
                            axb_dense *X, const axb_sparse_opts *opts,
                            axb_sparse_report *report) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID, "axb_sparse_solve: NULL handle");
  axb__clear(h);
  axb_sparse_report local;
  axb_sparse_report *r = report ? report : &local;
  memset(r, 0, sizeof(*r));
  r->backend = h->backend;
  axb_sparse_opts o;
  double tc = axb__now();
  axb_status st = resolve_opts(h, opts, &o);
  if (!st) st = check_inputs(h, A, B, X, &o);
  r->t_check = axb__now() - tc;
  if (st) return r->status = st;
  r->dtype = A->dtype;
  r->n = A->rows;
  r->nnz = A->nnz;
  r->nrhs = B->cols;
  r->precond_requested = o.precond;
  const axb_sparse_ops *ops = NULL;
  if (h->backend == AXB_BACKEND_CUDA) {
    ops = axb__sparse_cuda_ops();
    if (!ops && o.method != AXB_SPARSE_DIRECT)
      return r->status = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                                   "sparse solvers are not available on the "
                                   "CUDA backend of this build");
  } else {
    ops = axb__sparse_cpu_ops();
  }
  int sym = -1; /* A's symmetry: asked for at most once per solve */
  double ts = axb__now();
  axb_sparse_method m = choose_method(h, A, o.method, &sym);
  r->method = m;
  r->precond = o.precond;
  if (A->rows == 0 || B->cols == 0) return r->status = AXB_SUCCESS;
  int is_auto = o.method == AXB_SPARSE_AUTO && o.direct != AXB_DIRECT_NEVER;
  int spd = -1; /* symmetric with a positive diagonal: CHOLMOD's candidate */
  /* AUTO's method already asked both questions: CG iff spd (the
     positive-diagonal pass is not repeated). */
  if (o.method == AXB_SPARSE_AUTO)
    spd = m == AXB_SPARSE_CG;
  else if (m == AXB_SPARSE_DIRECT)
    spd = axb__csr_positive_diag(A) && sym_once(h, A, &sym);
  r->t_symmetry = axb__now() - ts;
  axb_direct *F = NULL;
  /* A preconditioner named by the caller asks for the Krylov path.  On a
     CUDA handle too AUTO takes the direct path where it is cheap: the GPU's
     Krylov methods spent 5-6 s failing on dw2048, cryg2500 and gemat12
     before the fallback, 58-217 ms converging where UMFPACK takes 8-22 ms,
     and CG + IC(0) 131 / 202 ms on bcsstk16 / bcsstk18 against CHOLMOD's
     24 / 39 ms (H100 and its host, bench_sparse --auto).  Large PDE
     matrices, whose factorisation is not cheap, stay on the GPU.  A probe
     of 30 GPU iterations before the analysis (for cage10: 6.8 ms instead
     of the analysis' ~45 ms) was tried and dropped: GMRES + ILU(0)'s set-up
     and 30 iterations cost 20-50 ms on the other matrices. */
  const int may_pick = is_auto && axb__direct_available() &&
                       o.direct == AXB_DIRECT_AUTO &&
                       o.precond == AXB_PRECOND_AUTO;
  const int gpu_big =
      h->backend == AXB_BACKEND_CUDA && A->nnz > SP_GPU_DIRECT_NNZ;
  if (may_pick && !gpu_big) auto_pick_direct(h, A, spd, r, &F);
  if (m == AXB_SPARSE_DIRECT || F) {
    st = run_direct(h, A, B, X, &o, spd, F, r);
  } else {
    if (is_auto && !axb__direct_available())
      path_add(r, "iterative (no direct solver in this build)");
    else if (may_pick && gpu_big)
      path_add(r,
               "iterative on the GPU first (%lld nonzeros: no direct "
               "analysis above %.0f)",
               (long long)A->nnz, SP_GPU_DIRECT_NNZ);
    else if (is_auto && o.direct == AXB_DIRECT_FALLBACK)
      path_add(r, "iterative first (direct only as the fallback)");
    else if (is_auto && o.precond != AXB_PRECOND_AUTO)
      path_add(r, "iterative: preconditioner %s named",
               axb_precond_name(o.precond));
    int64_t kj = jacobi_first(h, &o, m);
    st = kj ? run_cg_jacobi_first(h, ops, A, B, X, &o, sym, kj, r)
            : run_krylov(h, ops, A, B, X, &o, m, sym, r);
    if (is_auto) st = auto_fallback(h, A, B, X, &o, spd, st, r);
  }
  if (!report) axb_sparse_report_free(r);
  return r->status = st;
}

int axb_sparse_direct_available(void) { return axb__direct_available(); }

axb_status axb_sparse_check_memory(axb_handle h, const axb_csr *A, int64_t nrhs,
                                   const axb_sparse_opts *opts,
                                   int caller_arrays) {
  if (!h)
    return axb__fail(NULL, AXB_ERR_INVALID,
                     "axb_sparse_check_memory: NULL handle");
  axb__clear(h);
  axb_sparse_opts o;
  axb_status st = resolve_opts(h, opts, &o);
  if (st) return st;
  if (!A) return axb__fail(h, -2, "A is NULL");
  if ((st = axb__csr_check(h, A))) return st;
  if (nrhs < 0 || caller_arrays < 0)
    return axb__fail(h, AXB_ERR_INVALID,
                     "nrhs (%lld) and caller_arrays (%d) must be >= 0",
                     (long long)nrhs, caller_arrays);
  int sym = -1;
  axb_sparse_method m = choose_method(h, A, o.method, &sym);
  return check_memory(h, A, &o, m, h->backend == AXB_BACKEND_CUDA,
                      (double)caller_arrays * (double)A->rows * (double)nrhs,
                      NULL);
}
