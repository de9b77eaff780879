/*
 * The host mixed-precision session (backend.h, axb_mixed_backend): A in
 * host memory, its factors made by the handle's own typed routines (REF or
 * CPU table).  The factor is FP32 (sgetrf/spotrf) or FP64; TF32, FP16 and
 * BF16 round the scaled matrix to that format before the FP32
 * factorization, so that tests on machines without a GPU see the same
 * information loss in A (not the rounding of each trailing update that the
 * tensor cores add).  Where the table has kernels for the session
 * (ops->mixed_host: the CPU table's OpenBLAS sgetrf, dgemv, dsymv, strsv)
 * the FP32 factor, the products and the one-vector solves use them, and an
 * LU session whose first factor is FP32 rounds A while it scans it (A read
 * twice in all before the factorization; docs/notes/mixed.md).
 */
#include "core/internal.h"
#include "dense/mixed.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
  int chol;
  axb_uplo uplo;
  int64_t n;
  const double *A;
  int64_t lda;
  const double *r, *c; /* the driver's scale arrays */
  axb_factor_precision p;
  float *F32;
  double *F64;
  int64_t *ipiv;
  const axb_mixed_host_kernels *kx; /* NULL: the typed entries only */
  int f32_ready; /* F32 holds As rounded to FP32 (made by the scan) */
  float *W;      /* a vector of n for the one-vector solves */
} host_session;

static int nthreads(axb_handle h) {
#ifdef _OPENMP
  return h->threads > 0 ? h->threads : omp_get_max_threads();
#else
  (void)h;
  return 1;
#endif
}

/* Inside a parallel region: this thread's share [j0, j1) of n columns;
   returns the thread number. */
static int my_columns(int64_t n, int64_t *j0, int64_t *j1) {
  int t = 0, nt = 1;
#ifdef _OPENMP
  t = omp_get_thread_num();
  nt = omp_get_num_threads();
#endif
  *j0 = n * t / nt;
  *j1 = n * (t + 1) / nt;
  return t;
}

/* Entry (i, j) of A, read from the stored triangle when A is symmetric. */
static double entry(const host_session *s, int64_t i, int64_t j) {
  if (s->chol && ((s->uplo == AXB_LOWER) ? i < j : i > j)) {
    int64_t t = i;
    i = j;
    j = t;
  }
  return s->A[i + j * s->lda];
}

/* Row sums and maxima of |A| (the symmetric expansion for chol), each
   thread over a range of columns into its own accumulators, combined in
   thread order.  LU with F: also the column maxima cmx and A rounded to
   FP32 as it is into F (ld n), on the same read of A. */
static axb_status row_stats(axb_handle h, const host_session *s, double *sum,
                            double *mx, double *cmx, float *F, int *finite) {
  const int64_t n = s->n;
  const int T = nthreads(h);
  double *acc = axb__calloc((int64_t)T * 2, (size_t)n * sizeof(double));
  if (!acc)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "mixed: %d x %lld row accumulators", 2 * T, (long long)n);
  int bad = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(T) reduction(| : bad)
#endif
  {
    int64_t j0, j1;
    int t = my_columns(n, &j0, &j1);
    double *su = acc + (size_t)t * 2 * n, *ma = su + n;
    for (int64_t j = j0; F && j < j1; ++j) {
      const double *aj = s->A + j * s->lda;
      float *fj = F + j * n;
      double cm = 0;
      for (int64_t i = 0; i < n; ++i) {
        double v = fabs(aj[i]);
        if (!isfinite(v)) bad = 1;
        su[i] += v;
        if (v > ma[i]) ma[i] = v;
        if (v > cm) cm = v;
        fj[i] = (float)aj[i];
      }
      cmx[j] = cm;
    }
    for (int64_t j = j0; !F && j < j1; ++j) {
      const double *aj = s->A + j * s->lda;
      int64_t i0 = 0, i1 = n;
      if (s->chol) {
        i0 = s->uplo == AXB_LOWER ? j : 0;
        i1 = s->uplo == AXB_LOWER ? n : j + 1;
      }
      for (int64_t i = i0; i < i1; ++i) {
        double v = fabs(aj[i]);
        if (!isfinite(v)) bad = 1;
        su[i] += v;
        if (v > ma[i]) ma[i] = v;
        if (s->chol && i != j) {
          su[j] += v;
          if (v > ma[j]) ma[j] = v;
        }
      }
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    double a = 0, m = 0;
    for (int t = 0; t < T; ++t) {
      a += acc[(size_t)t * 2 * n + i];
      double v = acc[(size_t)t * 2 * n + n + i];
      if (v > m) m = v;
    }
    sum[i] = a;
    mx[i] = m;
  }
  axb__free(acc);
  *finite = !bad;
  return AXB_SUCCESS;
}

/* Room for the FP32 copy of an n x n matrix, checked against the available
   memory rather than met by the OOM killer when its pages are touched. */
static int f32_fits(int64_t n) {
  return (double)n * (double)n * sizeof(float) <=
         (double)axb__memory_available();
}

/* LU: c_j = 2^-e(max_i |a_ij| r_i) (1 without scale) and max |As| =
   max_j c_j max_i |a_ij| r_i (exact: c_j is a power of two and rounding is
   monotone, so it equals the maximum over the scaled entries); with F,
   As = R A C rounded to FP32 into F (ld n) while the column is in cache,
   so that A is read once here (the rounding is fill_scaled's). */
static double col_scales(axb_handle h, const host_session *s, int scale,
                         double *c, float *F) {
  (void)h; /* its thread count, with OpenMP */
  const int64_t n = s->n, lda = s->lda;
  const double *A = s->A, *r = s->r;
  double amax = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)                                      \
    num_threads(nthreads(h)) if (n >= 256) reduction(max                       \
                                                     : amax)
#endif
  for (int64_t j = 0; j < n; ++j) {
    const double *aj = A + j * lda;
    double m = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = fabs(aj[i]) * r[i];
      if (v > m) m = v;
    }
    const double cj = scale ? axb__mixed_pow2_scale(m) : 1;
    c[j] = cj;
    if (m * cj > amax) amax = m * cj;
    if (F) {
      float *fj = F + j * n;
      for (int64_t i = 0; i < n; ++i)
        fj[i] = (float)(aj[i] * r[i] * cj);
    }
  }
  return amax;
}

/* 1 when A, rounded to FP32 as it is, needs no scaling: every nonzero
   row and column maximum within [2^-AS_IS, 2^AS_IS] (far inside FP32's
   normal range, 2^-126 .. 2^128, with room for the factor's growth).  Then
   R = C = 1: a power-of-two scaling would change nothing but the rows'
   pivot order (row_scales). */
#define AS_IS 64
static int fits_as_is(int64_t n, const double *mx, const double *cmx) {
  const double lo = ldexp(1.0, -AS_IS), hi = ldexp(1.0, AS_IS);
  for (int64_t i = 0; i < n; ++i)
    if ((mx[i] > 0 && (mx[i] < lo || mx[i] > hi)) ||
        (cmx[i] > 0 && (cmx[i] < lo || cmx[i] > hi)))
      return 0;
  return 1;
}

static axb_status h_open(axb_handle h, int chol, axb_uplo uplo, int dev,
                         int64_t n, const double *A, int64_t lda, int scale,
                         double *r, double *c, axb_mixed_scan *scan,
                         void **out) {
  if (dev)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "mixed: device arrays need a CUDA handle");
  host_session *s = axb__calloc(1, sizeof *s);
  double *sum = axb__malloc(3 * n, sizeof(double));
  if (!s || !sum) {
    axb__free(s);
    axb__free(sum);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: session of n = %lld",
                     (long long)n);
  }
  s->chol = chol;
  s->uplo = uplo;
  s->n = n;
  s->A = A;
  s->lda = lda;
  s->r = r;
  s->c = c;
  /* AXB_MIXED_HOST_KERNELS=0: the typed entries only and no rounding in
     the scan (the path before issue 22c, for the benchmark's same-process
     comparison and the tests) */
  const char *ev = getenv("AXB_MIXED_HOST_KERNELS");
  const int fast = !(ev && ev[0] == '0');
  s->kx = fast ? h->ops->mixed_host : NULL;
  double *mx = sum + n, *cmx = mx + n;
  /* LU with FP32 first: A rounded as it is on the scan's read (kept when
     no scaling is needed or asked for; a failed allocation only leaves the
     copy to h_factor, which reports it).  Plain pages: with huge pages the
     scan's first touch of the copy took 52-120 ms at n = 4096 on the 2-core
     VM against 39-41 (bench/results/mixed-2core-vm/quiet-s8.txt). */
  if (!chol && fast && scan->first == AXB_FACTOR_FP32 && f32_fits(n))
    s->F32 = axb__malloc(n * n, sizeof(float));
  axb_status st = row_stats(h, s, sum, mx, cmx, s->F32, &scan->finite);
  if (st) {
    axb__free(sum);
    axb__free(s);
    return st;
  }
  scan->anorm = 0;
  for (int64_t i = 0; i < n; ++i)
    if (sum[i] > scan->anorm) scan->anorm = sum[i];
  if (chol) {
    for (int64_t i = 0; i < n; ++i)
      r[i] = c[i] = scale ? axb__mixed_sym_scale(entry(s, i, i)) : 1;
  } else {
    if (s->F32 && (!scale || fits_as_is(n, mx, cmx))) {
      double amax = 0;
      for (int64_t i = 0; i < n; ++i) {
        r[i] = c[i] = 1;
        if (mx[i] > amax) amax = mx[i];
      }
      scan->amax = amax;
      s->f32_ready = 1;
      axb__free(sum);
      *out = s;
      return AXB_SUCCESS;
    }
    axb__mixed_row_scales(scale && fast && scan->first == AXB_FACTOR_FP32, n,
                          mx, scale, r);
    /* the scaled matrix rounded on this pass (over the copy as it is) */
    scan->amax = col_scales(h, s, scale, c, s->F32);
    s->f32_ready = s->F32 != NULL;
    axb__free(sum);
    *out = s;
    return AXB_SUCCESS;
  }
  /* max |As| over the stored entries */
  double amax = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)                                      \
    num_threads(nthreads(h)) if (n >= 256) reduction(max                       \
                                                     : amax)
#endif
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (chol && (uplo == AXB_LOWER ? i < j : i > j)) continue;
      double v = fabs(A[i + j * lda]) * r[i] * c[j];
      if (v > amax) amax = v;
    }
  scan->amax = amax;
  axb__free(sum);
  *out = s;
  return AXB_SUCCESS;
}

/* As = R A C (lower triangle for chol), rounded to p, into F32 or F64. */
static void fill_scaled(host_session *s, axb_factor_precision p) {
  const int64_t n = s->n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= 256)
#endif
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = s->chol ? j : 0; i < n; ++i) {
      double v = entry(s, i, j) * s->r[i] * s->c[j];
      if (p == AXB_FACTOR_FP64)
        s->F64[i + j * n] = v;
      else
        s->F32[i + j * n] = (float)axb__mixed_round(v, p);
    }
}

/* The FP32 LU of F32: the table's session kernel where it takes it, else
   the typed sgetrf. */
static axb_status sgetrf_(axb_handle h, host_session *s, int64_t *info) {
  const int64_t n = s->n;
  if (s->kx && s->kx->sgetrf) {
    axb_status st = s->kx->sgetrf(h, n, s->F32, n, s->ipiv, info);
    if (st != AXB_ERR_NOT_SUPPORTED) return st;
  }
  return axb_sgetrf(h, n, n, s->F32, n, s->ipiv, info);
}

static axb_status h_factor(axb_handle h, void *vs, axb_factor_precision p,
                           int64_t *info) {
  host_session *s = vs;
  const int64_t n = s->n;
  *info = 0;
  s->p = p;
  if (!s->ipiv && !s->chol) {
    s->ipiv = axb__malloc(n > 0 ? n : 1, sizeof(int64_t));
    if (!s->ipiv)
      return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: pivots of n = %lld",
                       (long long)n);
  }
  /* FP32 rounded by the scan: factor it as it is */
  if (p == AXB_FACTOR_FP32 && s->f32_ready) {
    s->f32_ready = 0;
    return sgetrf_(h, s, info);
  }
  s->f32_ready = 0;
  /* the factor's copy, refused up front rather than met by the OOM killer
     when its pages are touched */
  const double need = (double)n * (double)n *
                      (p == AXB_FACTOR_FP64 ? sizeof(double) : sizeof(float));
  if ((p == AXB_FACTOR_FP64 ? !s->F64 : !s->F32) &&
      need > (double)axb__memory_available())
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "mixed: the %s factor of n = %lld needs %.3g GiB, more "
                     "than is available",
                     axb_factor_precision_name(p), (long long)n,
                     need / 1073741824.0);
  if (p == AXB_FACTOR_FP64) {
    axb__free(s->F32); /* the low-precision factors are done with */
    s->F32 = NULL;
    if (!s->F64) s->F64 = axb__malloc_large(n * n, sizeof(double));
    if (!s->F64)
      return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                       "mixed: FP64 factor of n = %lld", (long long)n);
    fill_scaled(s, p);
    return s->chol ? axb_dpotrf(h, AXB_LOWER, n, s->F64, n, info)
                   : axb_dgetrf(h, n, n, s->F64, n, s->ipiv, info);
  }
  if (!s->F32) s->F32 = axb__malloc_large(n * n, sizeof(float));
  if (!s->F32)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: FP32 factor of n = %lld",
                     (long long)n);
  fill_scaled(s, p);
  return s->chol ? axb_spotrf(h, AXB_LOWER, n, s->F32, n, info)
                 : sgetrf_(h, s, info);
}

/* Y := A X, A symmetric from one triangle: each thread accumulates the
   columns it owns into a private Y, combined in thread order. */
static axb_status symm(axb_handle h, const host_session *s, int64_t k,
                       const double *X, double *Y) {
  const int64_t n = s->n;
  const int T = nthreads(h);
  double *acc = axb__calloc((int64_t)T, (size_t)n * sizeof(double));
  if (!acc)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: %d accumulators", T);
  for (int64_t q = 0; q < k; ++q) {
    const double *x = X + q * n;
    memset(acc, 0, (size_t)T * n * sizeof(double));
#ifdef _OPENMP
#pragma omp parallel num_threads(T)
#endif
    {
      int64_t j0, j1;
      int t = my_columns(n, &j0, &j1);
      double *y = acc + (size_t)t * n;
      for (int64_t j = j0; j < j1; ++j) {
        const double *aj = s->A + j * s->lda;
        int64_t i0 = s->uplo == AXB_LOWER ? j + 1 : 0;
        int64_t i1 = s->uplo == AXB_LOWER ? n : j;
        double dot = aj[j] * x[j];
        for (int64_t i = i0; i < i1; ++i) {
          y[i] += aj[i] * x[j];
          dot += aj[i] * x[i];
        }
        y[j] += dot;
      }
    }
    double *yq = Y + q * n;
    for (int64_t i = 0; i < n; ++i) {
      double a = 0;
      for (int t = 0; t < T; ++t)
        a += acc[(size_t)t * n + i];
      yq[i] = a;
    }
  }
  axb__free(acc);
  return AXB_SUCCESS;
}

/* Y := A X for a few columns: threads over blocks of rows, each an axpy
   per column of A (one pass over A, no packed copy: a GEMM with k = 1
   copied all of A first, measured with perf). */
static void gemv_rows(axb_handle h, const host_session *s, int64_t k,
                      const double *X, double *Y) {
  (void)h; /* its thread count, with OpenMP */
  const int64_t n = s->n;
  enum { ROWS = 512 };
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(nthreads(h)) if (n >= 512)
#endif
  for (int64_t i0 = 0; i0 < n; i0 += ROWS) {
    const int64_t i1 = i0 + ROWS < n ? i0 + ROWS : n;
    for (int64_t q = 0; q < k; ++q) {
      double *y = Y + q * n;
      const double *x = X + q * n;
      for (int64_t i = i0; i < i1; ++i)
        y[i] = 0;
      for (int64_t j = 0; j < n; ++j) {
        const double *aj = s->A + j * s->lda, xj = x[j];
        for (int64_t i = i0; i < i1; ++i)
          y[i] += aj[i] * xj;
      }
    }
  }
}

/* Y := A X through the table's one-vector product (dgemv, or dsymv from
   the stored triangle); 1 when it declines or is absent. */
static int matvec_kx(axb_handle h, const host_session *s, int64_t k,
                     const double *X, double *Y) {
  const int64_t n = s->n;
  if (!s->kx || k > 4 || (s->chol ? !s->kx->dsymv : !s->kx->dgemv)) return 1;
  for (int64_t q = 0; q < k; ++q) {
    axb_status st =
        s->chol
            ? s->kx->dsymv(h, s->uplo, n, s->A, s->lda, X + q * n, Y + q * n)
            : s->kx->dgemv(h, n, s->A, s->lda, X + q * n, Y + q * n);
    if (st) return 1; /* declined: nothing depends on Y yet */
  }
  return 0;
}

static axb_status h_matmul(axb_handle h, void *vs, int64_t k, const double *X,
                           double *Y) {
  host_session *s = vs;
  if (!matvec_kx(h, s, k, X, Y)) return AXB_SUCCESS;
  if (s->chol) return symm(h, s, k, X, Y);
  if (k <= 4) {
    gemv_rows(h, s, k, X, Y);
    return AXB_SUCCESS;
  }
  return h->ops->d.gemm(h, AXB_NO_TRANS, AXB_NO_TRANS, s->n, k, s->n, 1.0, s->A,
                        s->lda, X, s->n, 0.0, Y, s->n);
}

/* V := As^-1 V through the FP32 factors, one column at a time with the
   table's strsv: w = P v (the interchanges, in order) rounded to FP32,
   w := L^-1 w, w := U^-1 w (Cholesky: L^-1 then L^-T), v = w.  1 when the
   kernel declines or is absent (V untouched), a library error < 0. */
static int solve_kx(axb_handle h, host_session *s, int64_t k, double *V) {
  const int64_t n = s->n;
  const axb_mixed_host_kernels *kx = s->kx;
  if (!kx || !kx->strsv || k > 4) return 1;
  if (!s->W && !(s->W = axb__malloc(n, sizeof(float)))) return 1;
  float *w = s->W;
  for (int64_t q = 0; q < k; ++q) {
    double *v = V + q * n;
    for (int64_t i = 0; i < n; ++i)
      w[i] = (float)v[i];
    axb_status st;
    if (s->chol) {
      st = kx->strsv(h, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, s->F32, n, w);
      if (!st)
        st = kx->strsv(h, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT, n, s->F32, n, w);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t p = s->ipiv[i] - 1;
        if (p != i) {
          float t = w[i];
          w[i] = w[p];
          w[p] = t;
        }
      }
      st = kx->strsv(h, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, n, s->F32, n, w);
      if (!st)
        st = kx->strsv(h, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, n, s->F32, n,
                       w);
    }
    if (st == AXB_ERR_NOT_SUPPORTED && q == 0) return 1;
    if (st) return st < 0 ? st : AXB_ERR_INTERNAL;
    for (int64_t i = 0; i < n; ++i)
      v[i] = w[i];
  }
  return 0;
}

static axb_status h_solve(axb_handle h, void *vs, int64_t k, double *V) {
  host_session *s = vs;
  const int64_t n = s->n;
  int64_t info = 0;
  if (s->p != AXB_FACTOR_FP64) {
    int e = solve_kx(h, s, k, V);
    if (e <= 0) return e;
  }
  if (s->p == AXB_FACTOR_FP64)
    return s->chol ? axb_dpotrs(h, AXB_LOWER, n, k, s->F64, n, V, n, &info)
                   : axb_dgetrs(h, AXB_NO_TRANS, n, k, s->F64, n, s->ipiv, V, n,
                                &info);
  float *W = axb__malloc(n * k, sizeof(float));
  if (!W)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "mixed: %lld x %lld vectors",
                     (long long)n, (long long)k);
  for (int64_t i = 0; i < n * k; ++i)
    W[i] = (float)V[i];
  axb_status st =
      s->chol
          ? axb_spotrs(h, AXB_LOWER, n, k, s->F32, n, W, n, &info)
          : axb_sgetrs(h, AXB_NO_TRANS, n, k, s->F32, n, s->ipiv, W, n, &info);
  for (int64_t i = 0; !st && i < n * k; ++i)
    V[i] = W[i];
  axb__free(W);
  return st;
}

static void h_close(axb_handle h, void *vs) {
  (void)h;
  host_session *s = vs;
  if (!s) return;
  axb__free(s->F32);
  axb__free(s->F64);
  axb__free(s->ipiv);
  axb__free(s->W);
  axb__free(s);
}

const axb_mixed_backend axb__mixed_host = {h_open,  h_factor, h_matmul,
                                           h_solve, h_close,  NULL};
