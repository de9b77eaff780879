/*
 * Host kernels of the batched API, one problem each (written once in T/P,
 * included twice by batched.c).  Column-oriented loops without blocking
 * beyond pairs of elimination steps (LU, Gauss-Jordan) fused into one pass
 * over each column: the problems are small and the parallelism is over
 * the batch.  LU and the inverse work on a copy in a per-thread buffer
 * (the batch loop's ldw).  Every variant does the same operations in the
 * same order as the one-step-at-a-time dgetf2 / Gauss-Jordan loops, with
 * the same zero-multiplier skips: the same roundings (no FMA contraction
 * in a baseline x86-64 build), whatever the pairing.  Pivots and info are int,
 * 1-based, as in the API.
 */

/* y := y - x u over m entries: the column update of a rank-1 step.  x and
   y never overlap (two columns, or a column and a saved copy), so restrict
   holds and the loop vectorises without a run-time alias check. */
static inline void AXB_FN(bat_, axpy1)(int64_t m, T u, const T *restrict x,
                                       T *restrict y) {
  for (int64_t i = 0; i < m; ++i)
    y[i] -= x[i] * u;
}

/* y := (y - x0 u0) - x1 u1: two rank-1 steps in one pass over y (one
   store per element instead of two; the same roundings as one after the
   other). */
static inline void AXB_FN(bat_, axpy2)(int64_t m, T u0, const T *restrict x0,
                                       T u1, const T *restrict x1,
                                       T *restrict y) {
  for (int64_t i = 0; i < m; ++i)
    y[i] = (y[i] - x0[i] * u0) - x1[i] * u1;
}

/* Row of the first largest |A(i,k)|, i >= k, in column ak (LAPACK's
   idamax: the first maximum wins, NaN never wins).  BAT_FABS, not a
   test of the sign: a branch on random signs mispredicts half the time. */
static inline int64_t AXB_FN(bat_, pivot1)(int64_t n, int64_t k, const T *ak) {
  int64_t p = k;
  T best = BAT_FABS(ak[k]);
  for (int64_t i = k + 1; i < n; ++i) {
    const T v = BAT_FABS(ak[i]);
    if (v > best) {
      best = v;
      p = i;
    }
  }
  return p;
}

static inline void AXB_FN(bat_, swaprows)(int64_t n, T *A, int64_t lda,
                                          int64_t k, int64_t p) {
  for (int64_t j = 0; j < n; ++j) {
    const T t = A[k + j * lda];
    A[k + j * lda] = A[p + j * lda];
    A[p + j * lda] = t;
  }
}

/* Pivot of LU step k in column ak: search, swap of rows k and p in all
   columns, L's column scaled; info keeps the first zero pivot (LAPACK
   dgetf2: the first largest magnitude wins, NaN never wins, a zero pivot
   is recorded and skipped). */
static inline void AXB_FN(bat_, lupivot)(int64_t n, T *A, int64_t lda,
                                         int64_t k, int *ipiv, int *info) {
  T *ak = A + k * lda;
  const int64_t p = AXB_FN(bat_, pivot1)(n, k, ak);
  ipiv[k] = (int)(p + 1);
  if (p != k) AXB_FN(bat_, swaprows)(n, A, lda, k, p);
  const T piv = ak[k];
  if (piv == 0) {
    if (!*info) *info = (int)(k + 1);
  } else {
    const T r = (T)1 / piv;
    for (int64_t i = k + 1; i < n; ++i)
      ak[i] *= r;
  }
}

/* LU with partial pivoting, right-looking, steps in pairs: step k is
   applied at once to column k1 = k + 1 (whose pivot search needs it);
   then each later column j gets both rank-1 updates in one pass,
   A(k1+1:,j) -= L(:,k) A(k,j) + L(:,k1) v with v = A(k1,j) - L(k1,k)
   A(k,j) its U entry, in the order and with the zero skips of the steps
   one after the other (the swap of step k1 touches rows k1 and p1 > k
   only, so it commutes with step k's update of the later columns). */
static int AXB_FN(bat_, getrf1)(int64_t n, T *A, int64_t lda, int *ipiv) {
  int info = 0;
  int64_t k = 0;
  for (; k + 1 < n; k += 2) {
    const int64_t k1 = k + 1;
    T *ak = A + k * lda, *a1 = A + k1 * lda;
    AXB_FN(bat_, lupivot)(n, A, lda, k, ipiv, &info);
    const T u = a1[k];
    if (u != 0) AXB_FN(bat_, axpy1)(n - k1, u, ak + k1, a1 + k1);
    AXB_FN(bat_, lupivot)(n, A, lda, k1, ipiv, &info);
    const int64_t m = n - k1 - 1;
    for (int64_t j = k1 + 1; j < n; ++j) {
      T *aj = A + j * lda;
      const T u0 = aj[k];
      const T v = u0 != 0 ? aj[k1] - ak[k1] * u0 : aj[k1];
      aj[k1] = v;
      if (u0 != 0 && v != 0)
        AXB_FN(bat_, axpy2)(m, u0, ak + k1 + 1, v, a1 + k1 + 1, aj + k1 + 1);
      else if (u0 != 0)
        AXB_FN(bat_, axpy1)(m, u0, ak + k1 + 1, aj + k1 + 1);
      else if (v != 0)
        AXB_FN(bat_, axpy1)(m, v, a1 + k1 + 1, aj + k1 + 1);
    }
  }
  if (k < n) AXB_FN(bat_, lupivot)(n, A, lda, k, ipiv, &info);
  return info;
}

static void AXB_FN(bat_, getrs1)(int64_t n, int64_t nrhs, const T *A,
                                 int64_t lda, const int *ipiv, T *B,
                                 int64_t ldb) {
  for (int64_t c = 0; c < nrhs; ++c) {
    T *b = B + c * ldb;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t p = ipiv[k] - 1;
      if (p != k) {
        const T t = b[k];
        b[k] = b[p];
        b[p] = t;
      }
    }
    for (int64_t k = 0; k < n; ++k) {
      const T y = b[k];
      if (y != 0)
        AXB_FN(bat_, axpy1)(n - k - 1, y, A + k * lda + k + 1, b + k + 1);
    }
    for (int64_t k = n - 1; k >= 0; --k) {
      b[k] /= A[k + k * lda];
      const T x = b[k];
      if (x != 0) AXB_FN(bat_, axpy1)(k, x, A + k * lda, b);
    }
  }
}

/* Gauss-Jordan (SEEDS.md 4 per pivot) on the n x n W, leading dimension ld, in
   place. Step k, after the pivot row is swapped to k and scaled by r =
   1/W(k,k): every other column j takes the rank-1 update W(:,j) -= c u_j with
   c = W(:,k) saved, c(k) = 0 (row k, the scaled pivot row, is left alone
   without a branch in the loop) and u_j = W(k,j) r, then W(k,j) = u_j;
   column k becomes -c r with W(k,k) = r.  A zero u_j skips the update
   (as LAPACK's dger does: no 0 * Inf). */

/* Pivot search and row swap of step k; 0 or k + 1 for a zero pivot. */
static inline int AXB_FN(bat_, gjpivot)(int64_t n, T *W, int64_t ld, int64_t k,
                                        int *piv, T *r) {
  const int64_t p = AXB_FN(bat_, pivot1)(n, k, W + k * ld);
  piv[k] = (int)p;
  if (p != k) AXB_FN(bat_, swaprows)(n, W, ld, k, p);
  const T d = W[k + k * ld];
  if (d == 0) return (int)(k + 1);
  *r = (T)1 / d;
  return 0;
}

/* Column j takes step k (saved column c, pivot reciprocal r). */
static inline void AXB_FN(bat_, gjcol)(int64_t n, T *restrict wj, int64_t k,
                                       const T *restrict c, T r) {
  const T u = wj[k] * r;
  if (u != 0) AXB_FN(bat_, axpy1)(n, u, c, wj);
  wj[k] = u; /* also undoes 0 * u when u is infinite */
}

/* c := W(:,k) with c(k) = 0, then W(:,k) := -c r, W(k,k) = r. */
static inline void AXB_FN(bat_, gjsave)(int64_t n, T *restrict wk, int64_t k,
                                        T *restrict c, T r) {
  for (int64_t i = 0; i < n; ++i)
    c[i] = wk[i];
  c[k] = 0;
  for (int64_t i = 0; i < n; ++i)
    wk[i] = -c[i] * r;
  wk[k] = r;
}

/* One step k on all columns. */
static int AXB_FN(bat_, gjstep1)(int64_t n, T *restrict W, int64_t ld,
                                 int64_t k, int *piv, T *restrict c) {
  T r = 0;
  const int st = AXB_FN(bat_, gjpivot)(n, W, ld, k, piv, &r);
  if (st) return st;
  AXB_FN(bat_, gjsave)(n, W + k * ld, k, c, r);
  for (int64_t j = 0; j < n; ++j)
    if (j != k) AXB_FN(bat_, gjcol)(n, W + j * ld, k, c, r);
  return 0;
}

/* Steps k and k1 = k + 1 with one pass over the other columns.  Step k is
   applied at once to column k1 (its pivot search needs it); the swap of
   step k1 (rows k1 and p1 > k) is applied to every column at once and to
   the saved c0, which equals swapping after step k's update since row k
   (that gives u0) is not involved.  For another column j, with
   u0 = W(k,j) r0, v = W(k1,j) - c0(k1) u0 (its value after step k) and
   u1 = v r1: W(:,j) -= c0 u0 + c1 u1 in that order, then W(k,j) =
   u0 - c1(k) u1 and W(k1,j) = u1, as the two steps one after the other
   leave them. */
static int AXB_FN(bat_, gjstep2)(int64_t n, T *restrict W, int64_t ld,
                                 int64_t k, int *piv, T *restrict c0,
                                 T *restrict c1) {
  const int64_t k1 = k + 1;
  T *wk = W + k * ld, *w1 = W + k1 * ld;
  T r0 = 0, r1 = 0;
  int st = AXB_FN(bat_, gjpivot)(n, W, ld, k, piv, &r0);
  if (st) return st;
  AXB_FN(bat_, gjsave)(n, wk, k, c0, r0);
  AXB_FN(bat_, gjcol)(n, w1, k, c0, r0);
  st = AXB_FN(bat_, gjpivot)(n, W, ld, k1, piv, &r1);
  if (st) return st;
  const int64_t p1 = piv[k1];
  if (p1 != k1) {
    const T t = c0[k1];
    c0[k1] = c0[p1];
    c0[p1] = t;
  }
  AXB_FN(bat_, gjsave)(n, w1, k1, c1, r1);
  AXB_FN(bat_, gjcol)(n, wk, k1, c1, r1);
  for (int64_t j = 0; j < n; ++j) {
    if (j == k || j == k1) continue;
    T *wj = W + j * ld;
    const T u0 = wj[k] * r0;
    const T v = u0 != 0 ? wj[k1] - c0[k1] * u0 : wj[k1];
    const T u1 = v * r1;
    if (u0 != 0 && u1 != 0)
      AXB_FN(bat_, axpy2)(n, u0, c0, u1, c1, wj);
    else if (u0 != 0)
      AXB_FN(bat_, axpy1)(n, u0, c0, wj);
    else if (u1 != 0)
      AXB_FN(bat_, axpy1)(n, u1, c1, wj);
    wj[k] = u1 != 0 ? u0 - c1[k] * u1 : u0;
    wj[k1] = u1;
  }
  return 0;
}

/* The inverse of the n x n W (leading dimension ld) in place by Gauss-Jordan,
   steps in pairs; piv: n ints, c: 2n Ts of scratch; 0 or the first zero pivot
   (then W is garbage).  The pivots' row swaps become column swaps of the
   inverse, undone last to first. */
static int AXB_FN(bat_, gj1)(int64_t n, T *restrict W, int64_t ld, int *piv,
                             T *restrict c) {
  int64_t k = 0;
  for (; k + 1 < n; k += 2) {
    const int st = AXB_FN(bat_, gjstep2)(n, W, ld, k, piv, c, c + n);
    if (st) return st;
  }
  if (k < n) {
    const int st = AXB_FN(bat_, gjstep1)(n, W, ld, k, piv, c);
    if (st) return st;
  }
  for (k = n - 1; k >= 0; --k) {
    const int64_t p = piv[k];
    if (p != k)
      for (int64_t i = 0; i < n; ++i) {
        const T t = W[i + k * ld];
        W[i + k * ld] = W[i + p * ld];
        W[i + p * ld] = t;
      }
  }
  return 0;
}

/* Element (i, j) of the factor's lower view: L(i,j) = A(i,j) (lower) or
   U(j,i) = A(j,i) (upper). */
#define BAT_L(A, lda, up, i, j)                                                \
  (*((up) ? &(A)[(j) + (i) * (lda)] : &(A)[(i) + (j) * (lda)]))

/* Cholesky, left-looking by columns of L (dpotf2 order). */
static int AXB_FN(bat_, potrf1)(int up, int64_t n, T *A, int64_t lda) {
  for (int64_t j = 0; j < n; ++j) {
    double d = BAT_L(A, lda, up, j, j);
    for (int64_t k = 0; k < j; ++k) {
      const double l = BAT_L(A, lda, up, j, k);
      d -= l * l;
    }
    if (!(d > 0)) return (int)(j + 1);
    const T s = (T)sqrt(d);
    BAT_L(A, lda, up, j, j) = s;
    const T r = (T)1 / s;
    for (int64_t i = j + 1; i < n; ++i) {
      T v = BAT_L(A, lda, up, i, j);
      for (int64_t k = 0; k < j; ++k)
        v -= BAT_L(A, lda, up, i, k) * BAT_L(A, lda, up, j, k);
      BAT_L(A, lda, up, i, j) = v * r;
    }
  }
  return 0;
}

static void AXB_FN(bat_, potrs1)(int up, int64_t n, int64_t nrhs, const T *A,
                                 int64_t lda, T *B, int64_t ldb) {
  for (int64_t c = 0; c < nrhs; ++c) {
    T *b = B + c * ldb;
    for (int64_t i = 0; i < n; ++i) {
      T v = b[i];
      for (int64_t k = 0; k < i; ++k)
        v -= BAT_L(A, lda, up, i, k) * b[k];
      b[i] = v / BAT_L(A, lda, up, i, i);
    }
    for (int64_t i = n - 1; i >= 0; --i) {
      T v = b[i];
      for (int64_t k = i + 1; k < n; ++k)
        v -= BAT_L(A, lda, up, k, i) * b[k];
      b[i] = v / BAT_L(A, lda, up, i, i);
    }
  }
}
#undef BAT_L

/* ---- the batch loops ---------------------------------------------------- */

/* The n x n X (ld ldx) to Y (ld ldy). */
static void AXB_FN(bat_, copy)(int64_t n, const T *restrict X, int64_t ldx,
                               T *restrict Y, int64_t ldy) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      Y[i + j * ldy] = X[i + j * ldx];
}

static axb_status AXB_FN(bat_, host)(axb_handle h, int op, int up, int64_t n,
                                     int64_t nrhs, T *A, int64_t lda,
                                     int64_t sA, int *ipiv, int64_t sP, T *B,
                                     int64_t ldb, int64_t sB, int *info,
                                     int64_t batch) {
  const int nt = bat_threads(h, batch);
  (void)nt; /* unused without OpenMP */
  int oom = 0;
  /* LU and inverse work on a copy in a per-thread buffer of leading
     dimension ldw: n rounded up to 32 bytes, plus 32 bytes when that is a
     multiple of 256 bytes (a power-of-two stride puts a row's elements in
     few L1 sets, and the row swaps then miss). */
  const int64_t vec = 32 / (int64_t)sizeof(T);
  int64_t ldw = (n + vec - 1) / vec * vec;
  if ((ldw * (int64_t)sizeof(T)) % 256 == 0) ldw += vec;
  const int need_work = op == BAT_INVERSE || op == BAT_GESV || op == BAT_GETRF;
#ifdef AXB_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(| : oom)
#endif
  {
    T *work = NULL;
    int *pwork = NULL;
    if (need_work) {
      work = (T *)axb__malloc(ldw * n + 2 * n + 1, sizeof(T));
      pwork = (int *)axb__malloc(n + 1, sizeof(int));
      if (!work || !pwork) oom = 1;
    }
#ifdef AXB_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
    for (int64_t b = 0; b < batch; ++b) {
      if (oom) continue;
      T *Ab = A + b * sA;
      T *Bb = B ? B + b * sB : NULL;
      int *pb = ipiv ? ipiv + b * sP : pwork;
      int st = 0;
      switch (op) {
      case BAT_GETRF:
      case BAT_GESV:
        AXB_FN(bat_, copy)(n, Ab, lda, work, ldw);
        st = AXB_FN(bat_, getrf1)(n, work, ldw, pb);
        AXB_FN(bat_, copy)(n, work, ldw, Ab, lda);
        if (op == BAT_GESV && !st)
          AXB_FN(bat_, getrs1)(n, nrhs, work, ldw, pb, Bb, ldb);
        break;
      case BAT_GETRS:
        AXB_FN(bat_, getrs1)(n, nrhs, Ab, lda, pb, Bb, ldb);
        break;
      case BAT_INVERSE:
        AXB_FN(bat_, copy)(n, Ab, lda, work, ldw);
        st = AXB_FN(bat_, gj1)(n, work, ldw, pwork, work + ldw * n);
        if (!st) AXB_FN(bat_, copy)(n, work, ldw, Ab, lda);
        break;
      case BAT_POTRF: st = AXB_FN(bat_, potrf1)(up, n, Ab, lda); break;
      case BAT_POTRS:
        AXB_FN(bat_, potrs1)(up, n, nrhs, Ab, lda, Bb, ldb);
        break;
      case BAT_POSV:
        st = AXB_FN(bat_, potrf1)(up, n, Ab, lda);
        if (!st) AXB_FN(bat_, potrs1)(up, n, nrhs, Ab, lda, Bb, ldb);
        break;
      default: break;
      }
      if (info) info[b] = st;
    }
    axb__free(work);
    axb__free(pwork);
  }
  if (oom)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "batched: no memory for the per-thread workspace");
  return AXB_SUCCESS;
}
