/*
 * Host kernels of the batched API, one problem each (written once in T/P,
 * included twice by batched.c).  Unblocked, column-oriented loops: the
 * problems are small and the parallelism is over the batch.  Pivots and
 * info are int, 1-based, as in the API.
 */

/* LU with partial pivoting (LAPACK dgetf2: the first largest magnitude
   wins, NaN never wins; a zero pivot is recorded and skipped). */
static int AXB_FN(bat_, getrf1)(int64_t n, T *A, int64_t lda, int *ipiv) {
  int info = 0;
  for (int64_t k = 0; k < n; ++k) {
    T *ak = A + k * lda;
    int64_t p = k;
    T best = ak[k] < 0 ? -ak[k] : ak[k];
    for (int64_t i = k + 1; i < n; ++i) {
      const T v = ak[i] < 0 ? -ak[i] : ak[i];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    ipiv[k] = (int)(p + 1);
    if (p != k) {
      for (int64_t j = 0; j < n; ++j) {
        const T t = A[k + j * lda];
        A[k + j * lda] = A[p + j * lda];
        A[p + j * lda] = t;
      }
    }
    const T piv = ak[k];
    if (piv == 0) {
      if (!info) info = (int)(k + 1);
    } else {
      const T r = (T)1 / piv;
      for (int64_t i = k + 1; i < n; ++i)
        ak[i] *= r;
    }
    for (int64_t j = k + 1; j < n; ++j) {
      T *aj = A + j * lda;
      const T u = aj[k];
      if (u != 0)
        for (int64_t i = k + 1; i < n; ++i)
          aj[i] -= ak[i] * u;
    }
  }
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
      const T *ak = A + k * lda;
      const T y = b[k];
      if (y != 0)
        for (int64_t i = k + 1; i < n; ++i)
          b[i] -= ak[i] * y;
    }
    for (int64_t k = n - 1; k >= 0; --k) {
      const T *ak = A + k * lda;
      b[k] /= ak[k];
      const T x = b[k];
      if (x != 0)
        for (int64_t i = 0; i < k; ++i)
          b[i] -= ak[i] * x;
    }
  }
}

/* Gauss-Jordan inverse of the n x n W (ld n) in place; piv: n ints. */
static int AXB_FN(bat_, gj1)(int64_t n, T *W, int *piv) {
  for (int64_t k = 0; k < n; ++k) {
    T *wk = W + k * n;
    int64_t p = k;
    T best = wk[k] < 0 ? -wk[k] : wk[k];
    for (int64_t i = k + 1; i < n; ++i) {
      const T v = wk[i] < 0 ? -wk[i] : wk[i];
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = (int)p;
    if (p != k) {
      for (int64_t j = 0; j < n; ++j) {
        const T t = W[k + j * n];
        W[k + j * n] = W[p + j * n];
        W[p + j * n] = t;
      }
    }
    const T d = wk[k];
    if (d == 0) return (int)(k + 1);
    const T r = (T)1 / d;
    wk[k] = 1;
    for (int64_t j = 0; j < n; ++j)
      W[k + j * n] *= r;
    for (int64_t j = 0; j < n; ++j) {
      if (j == k) continue;
      T *wj = W + j * n;
      const T u = wj[k];
      if (u != 0)
        for (int64_t i = 0; i < n; ++i)
          if (i != k) wj[i] -= wk[i] * u;
    }
    for (int64_t i = 0; i < n; ++i)
      if (i != k) wk[i] = -wk[i] * r;
  }
  for (int64_t k = n - 1; k >= 0; --k) {
    const int64_t p = piv[k];
    if (p != k)
      for (int64_t i = 0; i < n; ++i) {
        const T t = W[i + k * n];
        W[i + k * n] = W[i + p * n];
        W[i + p * n] = t;
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

static axb_status AXB_FN(bat_, host)(axb_handle h, int op, int up, int64_t n,
                                     int64_t nrhs, T *A, int64_t lda,
                                     int64_t sA, int *ipiv, int64_t sP, T *B,
                                     int64_t ldb, int64_t sB, int *info,
                                     int64_t batch) {
  const int nt = bat_threads(h, batch);
  (void)nt; /* unused without OpenMP */
  int oom = 0;
  const int need_work = op == BAT_INVERSE || (op == BAT_GESV && !ipiv);
#ifdef AXB_HAVE_OPENMP
#pragma omp parallel num_threads(nt) reduction(| : oom)
#endif
  {
    T *work = NULL;
    int *pwork = NULL;
    if (need_work) {
      work = (T *)axb__malloc(n * n + 1, sizeof(T));
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
      case BAT_GETRF: st = AXB_FN(bat_, getrf1)(n, Ab, lda, pb); break;
      case BAT_GETRS:
        AXB_FN(bat_, getrs1)(n, nrhs, Ab, lda, pb, Bb, ldb);
        break;
      case BAT_GESV:
        st = AXB_FN(bat_, getrf1)(n, Ab, lda, pb);
        if (!st) AXB_FN(bat_, getrs1)(n, nrhs, Ab, lda, pb, Bb, ldb);
        break;
      case BAT_INVERSE:
        for (int64_t j = 0; j < n; ++j)
          memcpy(work + j * n, Ab + j * lda, (size_t)n * sizeof(T));
        st = AXB_FN(bat_, gj1)(n, work, pwork);
        if (!st)
          for (int64_t j = 0; j < n; ++j)
            memcpy(Ab + j * lda, work + j * n, (size_t)n * sizeof(T));
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
