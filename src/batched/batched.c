/*
 * The batched API of axb.h (issue 6): argument checks in LAPACK numbering,
 * then dispatch by the handle's backend — CUDA handles to the device
 * kernels of src/backend/cuda/batched.cu (device arrays, asynchronous),
 * CPU and REF handles to the host kernels of batched_t.h (host arrays,
 * OpenMP over the batch on CPU, sequential on REF).
 */
#include "batched/batched.h"
#include "core/internal.h"
#include "core/template.h"
#include "core/tune.h"

#include <math.h>
#include <string.h>

#ifdef AXB_HAVE_OPENMP
#include <omp.h>
#endif

/* Threads for a batch on h: 1 on REF, else the handle's (0 = all). */
static int bat_threads(axb_handle h, int64_t batch) {
  if (h->backend == AXB_BACKEND_REF) return 1;
#ifdef AXB_HAVE_OPENMP
  int t = h->threads > 0 ? h->threads : omp_get_max_threads();
  if (t > batch) t = (int)batch;
  return t < 1 ? 1 : t;
#else
  (void)batch;
  return 1;
#endif
}

/* BAT_FABS: |x| in T (a sign-bit clear, no branch on the sign). */
#define T double
#define P d
#define BAT_FABS fabs
#include "batched/batched_t.h"
#undef T
#undef P
#undef BAT_FABS
#define T float
#define P s
#define BAT_FABS fabsf
#include "batched/batched_t.h"
#undef T
#undef P
#undef BAT_FABS

/* ---- argument checks ------------------------------------------------------
 */

/* What one call describes; positions are the LAPACK argument numbers (0:
   the routine has no such argument). */
typedef struct {
  const char *name;
  int64_t n, nrhs, lda, sA, sP, ldb, sB, batch;
  const void *A, *ipiv, *B, *info;
  int uplo; /* -1: none */
  int a_uplo, a_n, a_nrhs, a_A, a_lda, a_sA, a_ipiv, a_sP, a_B, a_ldb, a_sB,
      a_info, a_batch;
  int ipiv_optional;
} bat_args;

/* Which optional arguments a routine has.  Every public batched routine
   takes, in this order, (h,) [uplo,] n, [nrhs,] A, lda, strideA,
   [ipiv, strideipiv,] [B, ldb, strideB,] [info,] batch, so the LAPACK
   argument numbers follow from the set (bat_make). */
enum {
  BAT_HAS_UPLO = 1,
  BAT_HAS_NRHS = 2,
  BAT_HAS_IPIV = 4,
  BAT_IPIV_OPTIONAL = 8, /* gesv: pivots need not be kept */
  BAT_HAS_B = 16,
  BAT_HAS_INFO = 32
};

/* One call's description: the values, and the argument numbers of those
   in `has` (the others 0).  Absent values are passed as 0 / NULL (uplo:
   -1, ldb: 1). */
static bat_args bat_make(const char *name, unsigned has, int uplo, int64_t n,
                         int64_t nrhs, const void *A, int64_t lda, int64_t sA,
                         const void *ipiv, int64_t sP, const void *B,
                         int64_t ldb, int64_t sB, const void *info,
                         int64_t batch) {
  bat_args a = {.name = name,
                .n = n,
                .nrhs = nrhs,
                .lda = lda,
                .sA = sA,
                .sP = sP,
                .ldb = ldb,
                .sB = sB,
                .batch = batch,
                .A = A,
                .ipiv = ipiv,
                .B = B,
                .info = info,
                .uplo = uplo,
                .ipiv_optional = (has & BAT_IPIV_OPTIONAL) != 0};
  int k = 0;
  if (has & BAT_HAS_UPLO) a.a_uplo = ++k;
  a.a_n = ++k;
  if (has & BAT_HAS_NRHS) a.a_nrhs = ++k;
  a.a_A = ++k;
  a.a_lda = ++k;
  a.a_sA = ++k;
  if (has & BAT_HAS_IPIV) a.a_ipiv = ++k, a.a_sP = ++k;
  if (has & BAT_HAS_B) a.a_B = ++k, a.a_ldb = ++k, a.a_sB = ++k;
  if (has & BAT_HAS_INFO) a.a_info = ++k;
  a.a_batch = ++k;
  return a;
}

static axb_status bat_bad(axb_handle h, const bat_args *a, int pos,
                          const char *what) {
  return axb__fail(h, -pos, "%s: argument %d (%s) is illegal", a->name, pos,
                   what);
}

static axb_status bat_check(axb_handle h, const bat_args *a) {
  if (!h) return AXB_ERR_INVALID;
  axb__clear(h);
  const int64_t n1 = a->n > 1 ? a->n : 1;
  const int many = a->batch > 1;
  if (a->a_uplo && a->uplo != AXB_LOWER && a->uplo != AXB_UPPER)
    return bat_bad(h, a, a->a_uplo, "uplo");
  if (a->n < 0) return bat_bad(h, a, a->a_n, "n < 0");
  if (a->a_nrhs && a->nrhs < 0) return bat_bad(h, a, a->a_nrhs, "nrhs < 0");
  const int work = a->batch > 0 && a->n > 0;
  if (work && !a->A) return bat_bad(h, a, a->a_A, "A is NULL");
  if (a->lda < n1) return bat_bad(h, a, a->a_lda, "lda < max(1, n)");
  if (a->sA < 0 || (many && a->n > 0 && a->sA < a->lda * a->n))
    return bat_bad(h, a, a->a_sA, "strideA < lda * n");
  if (a->a_ipiv) {
    if (work && !a->ipiv && !a->ipiv_optional)
      return bat_bad(h, a, a->a_ipiv, "ipiv is NULL");
    if (a->ipiv && (a->sP < 0 || (many && a->sP < a->n)))
      return bat_bad(h, a, a->a_sP, "strideipiv < n");
  }
  if (a->a_B) {
    if (work && a->nrhs > 0 && !a->B) return bat_bad(h, a, a->a_B, "B is NULL");
    if (a->ldb < n1) return bat_bad(h, a, a->a_ldb, "ldb < max(1, n)");
    if (a->sB < 0 || (many && a->nrhs > 0 && a->sB < a->ldb * a->nrhs))
      return bat_bad(h, a, a->a_sB, "strideB < ldb * nrhs");
  }
  if (a->a_info && a->batch > 0 && !a->info)
    return bat_bad(h, a, a->a_info, "info is NULL");
  if (a->batch < 0) return bat_bad(h, a, a->a_batch, "batch < 0");
  if (a->n > INT32_MAX || a->nrhs > INT32_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "%s: n or nrhs above 2^31-1",
                     a->name);
  if (h->backend == AXB_BACKEND_CUDA && a->n > AXB_BATCHED_MAX_N)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "%s: n = %lld on the CUDA backend (at most %d)", a->name,
                     (long long)a->n, AXB_BATCHED_MAX_N);
  return AXB_SUCCESS;
}

/* Input pivots of a host-array getrs: every entry in 1..n (O(n batch)),
   so that garbage gives the argument error instead of reads and writes
   outside B.  Device arrays are not read here (a copy would cost more
   than the solve); axb.h says so. */
static axb_status bat_check_pivots(axb_handle h, const bat_args *a,
                                   const int *ipiv) {
  for (int64_t b = 0; b < a->batch; ++b)
    for (int64_t i = 0; i < a->n; ++i) {
      int p = ipiv[b * a->sP + i];
      if (p < 1 || p > a->n)
        return axb__fail(h, -a->a_ipiv,
                         "%s: argument %d (ipiv) is illegal: entry %lld of "
                         "problem %lld is %d, outside 1..%lld",
                         a->name, a->a_ipiv, (long long)i + 1, (long long)b, p,
                         (long long)a->n);
    }
  return AXB_SUCCESS;
}

/* Dispatch: the device kernels on CUDA handles, else the host loops. */
#ifdef AXB_HAVE_CUDA
#define BAT_CUDA_OR(h, call)                                                   \
  if ((h)->backend == AXB_BACKEND_CUDA) return call;
#else
#define BAT_CUDA_OR(h, call)                                                   \
  if ((h)->backend == AXB_BACKEND_CUDA)                                        \
    return axb__fail((h), AXB_ERR_NOT_COMPILED,                                \
                     "no CUDA backend in this build");
#endif

/* AUTO handles (host arrays): the tuning's batched crossover may send
   gesv, posv and inverse to the CUDA sub-handle, staged through device
   memory (batched_stage.cu).  A GPU failure before the host arrays were
   written falls back to the host code, as AUTO's dense dispatch does. */
static axb_tune_routine bat_tune_routine(int op) {
  return op == BAT_GESV      ? AXB_TUNE_BATCHED_GESV
         : op == BAT_POSV    ? AXB_TUNE_BATCHED_CHOLESKY
         : op == BAT_INVERSE ? AXB_TUNE_BATCHED_INVERSE
                             : AXB_TUNE_COUNT;
}
/* The staging copies each array as one span, the gaps between matrices
   included, so only packed layouts (lda = n and stride n^2 for A, ldb = n
   and stride n * nrhs for B, stride n for ipiv) may go to the GPU: a gap
   may hold the caller's other data (interleaved [A_k | B_k] problems,
   another thread's matrices), which a span copy-back would overwrite.
   Other layouts, and gesv/posv without right-hand sides, stay on the
   CPU. */
static int bat_packed(const bat_args *a, int op, const void *ipiv) {
  const int64_t n = a->n;
  if (a->lda != n || a->sA != n * n) return 0;
  if (op == BAT_GESV || op == BAT_POSV)
    if (a->nrhs < 1 || a->ldb != n || a->sB != n * a->nrhs) return 0;
  return !(op == BAT_GESV && ipiv && a->sP != n);
}

#ifdef AXB_HAVE_CUDA
#define BAT_AUTO_GPU(h, a, op, staged)                                         \
  if ((h)->requested == AXB_BACKEND_AUTO && (a)->n > 0 &&                      \
      bat_tune_routine(op) != AXB_TUNE_COUNT && bat_packed(a, op, ipiv)) {     \
    axb_handle g_ =                                                            \
        axb__auto_pick_batched((h), bat_tune_routine(op), (a)->n, (a)->batch); \
    if (g_ != (h)) {                                                           \
      int touched_ = 0;                                                        \
      axb_status s_ =                                                          \
          staged(g_, op, up, (a)->n, (a)->nrhs, A, (a)->lda, (a)->sA, ipiv,    \
                 (a)->sP, B, (a)->ldb, (a)->sB, info, (a)->batch, &touched_);  \
      if (s_ == AXB_SUCCESS || touched_) {                                     \
        if (s_) axb__fail((h), s_, "%s", axb_detail(g_));                      \
        return s_;                                                             \
      }                                                                        \
    }                                                                          \
  }
#else
#define BAT_AUTO_GPU(h, a, op, staged) (void)bat_tune_routine, (void)bat_packed;
#endif

/* ---- gesv_batched_cert (batched_cert_t.h) ---------------------------- */

typedef struct {
  int rm;
  int64_t n, nrhs, lda, sA, ldb, sB, ldx, sX, batch;
} cert_dims;

static axb_status cert_bad(axb_handle h, const char *name, int pos,
                           const char *what) {
  return axb__fail(h, -pos, "%s: argument %d (%s) is illegal", name, pos, what);
}

/* Bytes spanned by a batch of rows x cols operands (ld, stride), rm as the
   operands' order; 0 when empty. */
static int64_t cert_span(int rm, int64_t rows, int64_t cols, int64_t ld,
                         int64_t stride, int64_t batch, size_t es) {
  if (rows == 0 || cols == 0 || batch == 0) return 0;
  const int64_t one = rm ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
  return ((batch - 1) * stride + one) * (int64_t)es;
}
static int cert_overlap(const void *p, int64_t pb, const void *q, int64_t qb) {
  const char *a = (const char *)p, *b = (const char *)q;
  return pb > 0 && qb > 0 && a < b + qb && b < a + pb;
}

/* Arguments of gesv_batched_cert, numbered as LAPACK would (handle not
   counted): rowmajor 1, n 2, nrhs 3, A 4, lda 5, strideA 6, B 7, ldb 8,
   strideB 9, X 10, ldx 11, strideX 12, info 13, berr 14, batch 15. */
static axb_status cert_check(axb_handle h, const char *name, const cert_dims *d,
                             const void *A, const void *B, const void *X,
                             const int *info, const void *berr, size_t es) {
  const int64_t n1 = d->n > 1 ? d->n : 1, k1 = d->nrhs > 1 ? d->nrhs : 1;
  const int many = d->batch > 1, work = d->batch > 0 && d->n > 0;
  const int wk = work && d->nrhs > 0;
  const int64_t bmin = d->rm ? k1 : n1, bext = d->rm ? d->n : d->nrhs;
  const char *ldw = d->rm ? "< max(1, nrhs)" : "< max(1, n)";
  if (d->n < 0) return cert_bad(h, name, 2, "n < 0");
  if (d->nrhs < 0) return cert_bad(h, name, 3, "nrhs < 0");
  if (work && !A) return cert_bad(h, name, 4, "A is NULL");
  if (d->lda < n1) return cert_bad(h, name, 5, "lda < max(1, n)");
  if (d->sA < 0 || (many && d->n > 0 && d->sA < d->lda * d->n))
    return cert_bad(h, name, 6, "strideA < lda * n");
  if (wk && !B) return cert_bad(h, name, 7, "B is NULL");
  if (d->ldb < bmin) return cert_bad(h, name, 8, ldw);
  if (d->sB < 0 || (many && wk && d->sB < d->ldb * bext))
    return cert_bad(h, name, 9, "strideB too small for one problem");
  if (wk && !X) return cert_bad(h, name, 10, "X is NULL");
  if (d->ldx < bmin) return cert_bad(h, name, 11, ldw);
  if (d->sX < 0 || (many && wk && d->sX < d->ldx * bext))
    return cert_bad(h, name, 12, "strideX too small for one problem");
  if (d->batch > 0 && !info) return cert_bad(h, name, 13, "info is NULL");
  if (d->batch > 0 && !berr) return cert_bad(h, name, 14, "berr is NULL");
  if (d->batch < 0) return cert_bad(h, name, 15, "batch < 0");
  if (d->n > INT32_MAX || d->nrhs > INT32_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "%s: n or nrhs above 2^31-1",
                     name);
  if (h->backend == AXB_BACKEND_CUDA && d->n > AXB_BATCHED_MAX_N)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "%s: n = %lld on the CUDA backend (at most %d)", name,
                     (long long)d->n, AXB_BATCHED_MAX_N);
  const int64_t xs =
      cert_span(d->rm, d->n, d->nrhs, d->ldx, d->sX, d->batch, es);
  if (cert_overlap(X, xs, A,
                   cert_span(d->rm, d->n, d->n, d->lda, d->sA, d->batch, es)) ||
      cert_overlap(
          X, xs, B,
          cert_span(d->rm, d->n, d->nrhs, d->ldb, d->sB, d->batch, es)))
    return cert_bad(h, name, 10, "X overlaps A or B");
  return AXB_SUCCESS;
}

#define T double
#define P d
#define PREFIX_STR "axb_d"
#include "batched/batched_api_t.h"
#include "batched/batched_cert_t.h"
#undef T
#undef P
#undef PREFIX_STR
#define T float
#define P s
#define PREFIX_STR "axb_s"
#include "batched/batched_api_t.h"
#include "batched/batched_cert_t.h"
#undef T
#undef P
#undef PREFIX_STR
