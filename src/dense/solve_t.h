/*
 * The descriptor-level driver's typed steps, written once for T (see
 * core/template.h): factor with the chosen method, solve with the factors,
 * estimate rcond.  solve.c holds the type-independent logic.
 */

typedef struct {
  axb_handle h;
  axb_method method;
  int pivot;
  axb_trans trans; /* solve A^T X = B (not for Cholesky or gauss) */
  int64_t n, nrhs;
  T *F;          /* n x n working copy of A (ld = n): factors or inverse */
  int64_t *ipiv; /* n                                                    */
  T *X;          /* n x nrhs: B on entry, X on exit (ld = n)             */
  T *W;          /* n x nrhs scratch (Gauss-Jordan product), or NULL     */
  int64_t info;
  const axb_fixedpoint_opts *fp; /* lu-fixedpoint options, or NULL       */
  axb_fixedpoint_stats *fps;     /* lu-fixedpoint statistics, or NULL    */
  /* Resident factors (dense/resident.h; LU and Cholesky on a backend with
     the res_ entries): A is factored where the backend keeps it, F is
     not used, and res holds the factors for the solve and rcond. */
  int resident;
  const T *A; /* the caller's A (lda) */
  int64_t lda;
  void *res;
  buffers *b; /* the driver's: the estimate's first product (Y1) */
} AXB_FN(work_, );

/* rows[i] += |a_ij| for i0 <= i < i1: column j's share of the row sums
   (||A||_inf, the transposed solve's estimate), added in the pass that
   reads the column anyway. */
static void AXB_FN(add_rows_, )(const T *aj, int64_t i0, int64_t i1,
                                double *rows) {
  for (int64_t i = i0; i < i1; ++i)
    rows[i] += fabs((double)aj[i]);
}

/* One pass over A (n x n): ||A||_1 = max_j sum_i |a_ij|, each column summed
   in double in order, as axb_matrix_norm does (the same bits, also when the
   columns are shared among threads).  A NaN or Inf entry makes its column's
   sum non-finite; the caller then locates it.  rows (axb__rows_t x n,
   zeroed), when not NULL, gets each thread's share of the row sums
   (axb__rows_max). */
static double AXB_FN(norm_one_, )(int64_t n, const T *a, int64_t lda,
                                  double *colsum, double *rows, int threads) {
  (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= 512)                        \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
#endif
  for (int64_t j = 0; j < n; ++j) {
    const T *aj = a + j * lda;
    double s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += fabs((double)aj[i]);
    colsum[j] = s;
    if (rows) AXB_FN(add_rows_, )(aj, 0, n, axb__rows_mine(rows, n));
  }
  double norm = 0;
  for (int64_t j = 0; j < n; ++j)
    if (colsum[j] > norm || isnan(colsum[j])) norm = colsum[j];
  return norm;
}

/* Columns per block of take_a_: 32 (enough blocks for every thread) up to
   128 where there are many blocks per thread.  The symmetry test reads the
   mirror of a block, a piece of TJ entries from every column to its right
   of the caller's A (4 KiB pages): with 32 that was a TLB miss per 256
   bytes read, and the pass took 31 ms against 9 for the plain copy at
   n = 4096 on the 2-core VM. */
static int64_t AXB_FN(take_width_, )(int64_t n, int threads) {
#ifdef _OPENMP
  const int64_t nt = threads > 0 ? threads : omp_get_max_threads();
#else
  const int64_t nt = 1 + 0 * threads;
#endif
  int64_t w = n / (4 * nt) / 32 * 32;
  return w < 32 ? 32 : w > 128 ? 128 : w;
}

/* One pass over A (n x n) that does what the driver needs of it before
   factoring, columns shared among the threads:
     F := A (ld ldf), when F is not NULL (the working copy the
       factorization overwrites; each thread first touches its own
       columns);
     colsum[j] = sum_i |a_ij|, in double and in the order i = 0..n-1, so
       that ||A||_1 = max_j colsum[j] is norm_one_'s (and axb_matrix_norm's)
       value bit for bit; a NaN or Inf entry makes its column's sum
       non-finite, which is the finiteness check;
     *sym = [A == A^T] when sym is not NULL: the tile (I, J), I >= J, is
       compared with the transpose of its mirror (J, I) while both are in
       cache, and no comparison is made once an unequal pair was found (a
       flag shared by the threads).
   Without sym, columns are copied and summed whole (streaming); with it,
   by tiles of TI rows x TJ columns (runs of TI entries to copy; the
   mirror's TI columns x TJ rows stay in L2 for the comparison), the column
   sums still running over i in order (TJ: take_width_).  Tiles of 32 x 32 made
   the pass 3x slower than streaming (7.4 against 2.3 ms at n = 2048, 2-core
   VM). rows, when not NULL: each thread's row sums as in norm_one_. */
static void AXB_FN(take_a_, )(int64_t n, const T *a, int64_t lda, T *F,
                              int64_t ldf, double *colsum, double *rows,
                              int *sym, int threads) {
  enum { TI = 256 };
  int asym = 0;
  const int64_t TJ = AXB_FN(take_width_, )(n, threads);
  (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) if (n >= 256)                    \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
#endif
  for (int64_t j0 = 0; j0 < n; j0 += TJ) {
    const int64_t j1 = j0 + TJ < n ? j0 + TJ : n;
    if (!sym) {
      for (int64_t j = j0; j < j1; ++j) {
        const T *aj = a + j * lda;
        T *fj = F ? F + j * ldf : NULL;
        double s = 0;
        if (fj)
          for (int64_t i = 0; i < n; ++i) {
            fj[i] = aj[i];
            s += fabs((double)aj[i]);
          }
        else
          for (int64_t i = 0; i < n; ++i)
            s += fabs((double)aj[i]);
        colsum[j] = s;
        if (rows) AXB_FN(add_rows_, )(aj, 0, n, axb__rows_mine(rows, n));
      }
      continue;
    }
    for (int64_t j = j0; j < j1; ++j)
      colsum[j] = 0;
    for (int64_t i0 = 0; i0 < n; i0 += TI) {
      const int64_t i1 = i0 + TI < n ? i0 + TI : n;
      for (int64_t j = j0; j < j1; ++j) {
        const T *aj = a + j * lda;
        double s = colsum[j];
        if (F)
          for (int64_t i = i0; i < i1; ++i) {
            F[i + j * ldf] = aj[i];
            s += fabs((double)aj[i]);
          }
        else
          for (int64_t i = i0; i < i1; ++i)
            s += fabs((double)aj[i]);
        colsum[j] = s;
        if (rows) AXB_FN(add_rows_, )(aj, i0, i1, axb__rows_mine(rows, n));
      }
      /* a_ij against a_ji for the rows i > j of this tile. */
      if (i1 <= j0 + 1 || __atomic_load_n(&asym, __ATOMIC_RELAXED)) continue;
      int bad = 0;
      /* By groups of SG columns j: the mirror's SG rows (one cache line of
         each column i to the right) are first copied, transposed, into mt
         (mt[i - i0 + jj TI] = a_(g0+jj),i), then compared with the tile's
         columns, both walked contiguously.  Compared in place (a_ij
         against a_ji, a column stride apart, every i), the pass missed L1
         on every entry at power-of-two n (same cache set): the Cholesky
         copy took 31 ms against 9 for LU's at n = 4096 on the 2-core VM. */
      enum { SG = 8 };
      T mt[SG * TI];
      for (int64_t g0 = j0; g0 < j1 && !bad; g0 += SG) {
        const int64_t g1 = g0 + SG < j1 ? g0 + SG : j1, gw = g1 - g0;
        const int64_t ist = i0 > g0 + 1 ? i0 : g0 + 1;
        for (int64_t i = ist; i < i1; ++i) {
          const T *ai = a + g0 + i * lda; /* column i, rows g0..g1 */
          for (int64_t jj = 0; jj < gw; ++jj)
            mt[i - i0 + jj * TI] = ai[jj];
        }
        for (int64_t j = g0; j < g1; ++j) {
          const T *aj = a + j * lda, *mj = mt + (j - g0) * TI - i0;
          int b = 0;
          for (int64_t i = ist > j + 1 ? ist : j + 1; i < i1; ++i)
            b |= aj[i] != mj[i];
          bad |= b;
        }
      }
      if (bad) __atomic_store_n(&asym, 1, __ATOMIC_RELAXED);
    }
  }
  if (sym) *sym = !asym;
}

/* Prefetch the len entries at p (a run of a column that a pass over A
   reaches a few columns later), one cache line at a time. */
static inline void AXB_FN(prefetch_run_, )(const T *p, int64_t len) {
  for (int64_t i = 0; i < len; i += 64 / (int64_t)sizeof(T))
    __builtin_prefetch(p + i);
}

/* For the explicit Cholesky method and AUTO (potrf with the lower
   triangle never reads above the diagonal): F's lower triangle := A's,
   A's symmetry and ||A||_1, each entry of A read once.  take_a_ with sym
   reads every column whole for the copy and the column sums, then the
   mirror of each tile a second time for the comparison (1.5 reads and one
   write of A).  Here block column J (TJ wide) copies its lower tiles
   (I, J), I >= J, and reads each tile's mirror (J, I) once, by blocks of
   B x B, comparing a_gi with a_ig while that line of the tile is in
   cache.  One thread, thread CPU time, n = 2048: 10.0-12.0 ms for take_a_
   with sym, 6.7-8.1 here (3.6 of it the lower copy), 3.5 for LU's plain
   copy; n = 1024: 1.7-2.0 against 1.3-1.5 (2-core VM).
   Since a_ij is read either in its lower tile or as a mirror, rows (one
   row of n sums per thread, zeroed: axb__rows_t x n) gets
     rows_t[j] += sum_(i >= j) |a_ij| (the lower part of column j, by the
       thread of block column J) and sum_(i < j) |a_ij| (the upper part, by
       the threads of the block columns whose mirror holds it),
   so that ||A||_1 = max_j sum_t rows_t[j] (axb__rows_max; another
   summation order than axb_matrix_norm's, the same value to rounding).
   A NaN or Inf makes its column's sum non-finite.  Once an unequal pair
   is found every thread stops at its next tile (the sums are then
   incomplete: the caller scans A for a non-finite entry before reporting
   the asymmetry).
   Both reads are short runs a column of A apart (TI rows of a column for
   the copy, TJ rows of a column for the mirror), which the hardware
   prefetchers do not follow across columns (4 KiB pages): the next runs
   are prefetched, PL columns ahead for the copy and PM ahead for the
   mirror.  One thread, thread CPU time, n = 2048, medians of 11, load ~8
   (2-core VM, 2026-11-27): the pass 6.0-7.3 ms without, 5.3-5.4 with (the
   driver's copy phase 7.1-7.7 -> 5.6-5.8); n = 1024 (A in cache): no
   change.  Returns [A == A^T]. */
static int AXB_FN(take_lower_, )(int64_t n, const T *a, int64_t lda, T *F,
                                 int64_t ldf, double *rows, int threads) {
  enum { TI = 256, B = 8, PL = 4, PM = 16 };
  int asym = 0;
  const int64_t TJ = AXB_FN(take_width_, )(n, threads);
  (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) if (n >= 256)                    \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
#endif
  for (int64_t j0 = 0; j0 < n; j0 += TJ) {
    const int64_t j1 = j0 + TJ < n ? j0 + TJ : n;
    double *up = axb__rows_mine(rows, n);
    for (int64_t i0 = j0; i0 < n; i0 += TI) {
      if (__atomic_load_n(&asym, __ATOMIC_RELAXED)) break;
      const int64_t i1 = i0 + TI < n ? i0 + TI : n;
      /* The lower tile: copy, column sums (four partial sums: one chain
         of dependent additions took as long as the copy's traffic). */
      for (int64_t j = j0; j < j1; ++j) {
        const T *aj = a + j * lda;
        T *fj = F + j * ldf;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int64_t i = i0 > j ? i0 : j;
        if (j + PL < j1) AXB_FN(prefetch_run_, )(aj + PL * lda + i, i1 - i);
        for (; i + 4 <= i1; i += 4) {
          fj[i] = aj[i];
          fj[i + 1] = aj[i + 1];
          fj[i + 2] = aj[i + 2];
          fj[i + 3] = aj[i + 3];
          s0 += fabs((double)aj[i]);
          s1 += fabs((double)aj[i + 1]);
          s2 += fabs((double)aj[i + 2]);
          s3 += fabs((double)aj[i + 3]);
        }
        for (; i < i1; ++i) {
          fj[i] = aj[i];
          s0 += fabs((double)aj[i]);
        }
        up[j] += (s0 + s1) + (s2 + s3);
      }
      /* The mirror by blocks of B x B: B of its columns i (B streams down
         the rows g < i of block column J), each a_gi summed into up[i]
         and compared with a_ig, which the copy above just brought to
         cache (one line of B entries per column g of the lower tile). */
      int bad = 0;
      for (int64_t ib = i0; ib < i1; ib += B) {
        const int64_t ie = ib + B < i1 ? ib + B : i1;
        double su[B] = {0};
        for (int64_t gb = j0; gb < j1 && gb < ie - 1; gb += B) {
          const int64_t gbe = gb + B < j1 ? gb + B : j1;
          for (int64_t i = ib; i < ie; ++i) {
            const T *ai = a + i * lda;
            const int64_t ge = gbe < i ? gbe : i;
            if (i + PM < n) __builtin_prefetch(ai + PM * lda + gb);
            double s = 0;
            int bb = 0;
            for (int64_t g = gb; g < ge; ++g) {
              s += fabs((double)ai[g]);
              bb |= ai[g] != a[i + g * lda];
            }
            su[i - ib] += s;
            bad |= bb;
          }
        }
        for (int64_t i = ib; i < ie; ++i)
          up[i] += su[i - ib];
      }
      if (bad) __atomic_store_n(&asym, 1, __ATOMIC_RELAXED);
    }
  }
  return !asym;
}

/* F := A (ld n), columns shared among the threads: a second copy after a
   failed attempt (AUTO's Cholesky) or for the gauss variant's refactor. */
static void AXB_FN(copy_a_, )(int64_t n, const T *a, int64_t lda, T *F,
                              int threads) {
  (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= 256)                        \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
#endif
  for (int64_t j = 0; j < n; ++j)
    memcpy(F + j * n, a + j * lda, (size_t)n * sizeof(T));
}

/* A == A^T exactly, compared by tiles so that the transposed walk stays in
   cache (a column-major A read by rows would miss on every entry). */
static int AXB_FN(symmetric_, )(int64_t n, const T *a, int64_t lda) {
  enum { TILE = 32 };
  for (int64_t j0 = 0; j0 < n; j0 += TILE)
    for (int64_t i0 = j0; i0 < n; i0 += TILE) {
      int64_t j1 = j0 + TILE < n ? j0 + TILE : n;
      int64_t i1 = i0 + TILE < n ? i0 + TILE : n;
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t i = i0 > j + 1 ? i0 : j + 1; i < i1; ++i)
          if (a[i + j * lda] != a[j + i * lda]) return 0;
    }
  return 1;
}

/* Factor F in place.  GAUSS factors and solves in one sweep (on X). */
static axb_status AXB_FN(factor_, )(AXB_FN(work_, ) * w) {
  axb_handle h = w->h;
  int64_t n = w->n;
  if (w->resident)
    return AXB_FN(axb__, res_factor)(h, w->method != AXB_METHOD_LU, n, w->A,
                                     w->lda, &w->res, &w->info);
  switch (w->method) {
  case AXB_METHOD_LU:
    return AXB_FN(axb_, getrf)(h, n, n, w->F, n, w->ipiv, &w->info);
  case AXB_METHOD_CHOLESKY:
    return AXB_FN(axb_, potrf)(h, AXB_LOWER, n, w->F, n, &w->info);
  case AXB_METHOD_CHOLESKY_CROUT:
    return AXB_FN(axb_, potrf_crout)(h, n, w->F, n, &w->info);
  case AXB_METHOD_CHOLESKY_BANACHIEWICZ:
    return AXB_FN(axb_, potrf_banachiewicz)(h, n, w->F, n, &w->info);
  case AXB_METHOD_GAUSS_JORDAN:
    return AXB_FN(axb_, getri_gj)(h, n, w->F, n, &w->info);
  case AXB_METHOD_LU_CROUT:
    return AXB_FN(axb_, getrf_crout)(h, n, w->F, n, w->pivot ? w->ipiv : NULL,
                                     &w->info);
  case AXB_METHOD_GAUSS:
    return AXB_FN(axb_, gesv_gauss)(h, n, w->nrhs, w->F, n, w->X, n, w->pivot,
                                    &w->info);
  case AXB_METHOD_LU_FIXEDPOINT:
    return AXB_FN(axb_, getrf_fixedpoint)(h, n, w->F, n, w->fp, w->fps,
                                          &w->info);
  default: return axb__fail(h, AXB_ERR_INTERNAL, "unknown method");
  }
}

/* Crout's Z = L U with L non-unit lower and U unit upper, rows permuted by
   ipiv when pivoting (lu-crout only; lu-fixedpoint never pivots):
   X = U^-1 L^-1 P B, or for A^T = U^T L^T P (P^T = P^-1 undoes the
   interchanges): X = P^T L^-T U^-T B. */
static axb_status AXB_FN(crout_solve_, )(AXB_FN(work_, ) * w) {
  axb_handle h = w->h;
  int64_t n = w->n, k = w->nrhs;
  axb_status st = AXB_SUCCESS;
  const int swp = w->pivot && w->method == AXB_METHOD_LU_CROUT;
  if (w->trans == AXB_TRANS) {
    st = AXB_FN(axb_, trsm)(h, AXB_LEFT, AXB_UPPER, AXB_TRANS, AXB_UNIT, n, k,
                            1, w->F, n, w->X, n);
    if (!st)
      st = AXB_FN(axb_, trsm)(h, AXB_LEFT, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT,
                              n, k, 1, w->F, n, w->X, n);
    if (!st && swp) st = h->ops->P.laswp(h, k, w->X, n, 0, n, w->ipiv, 0);
    return st;
  }
  if (swp) st = h->ops->P.laswp(h, k, w->X, n, 0, n, w->ipiv, 1);
  if (!st)
    st = AXB_FN(axb_, trsm)(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT,
                            n, k, 1, w->F, n, w->X, n);
  if (!st)
    st = AXB_FN(axb_, trsm)(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n,
                            k, 1, w->F, n, w->X, n);
  return st;
}

/* LU and Cholesky: B and the condition estimate's first block X1 solved
   together, X := A^-1 [B X1], which reads the factors once for both (the
   solves are memory-bound: two more columns cost about nothing); Y1 :=
   the last t columns.  With LU the solve applies P to X1 as well, so Y1
   is the estimator's operator U^-1 L^-1 applied to P X1, unit 1-norm
   columns as X1's: a first block as good as X1 (condest.h).  For A^T
   (host factors only: the driver asks for Y1 there) the solve gives
   A^-T X1 = P (L U)^-T X1; undoing the interchanges on Y1 leaves the
   inf-norm estimate's operator (L U)^-T applied to X1 itself. */
static axb_status AXB_FN(solve_y1_, )(AXB_FN(work_, ) * w) {
  axb_handle h = w->h;
  const int64_t n = w->n, k = w->nrhs, t = AXB_CONDEST_T;
  double *y1 = w->b->Y1;
  T *x1 = w->X + n * k;
  axb__norm1_first_block(n, y1);
  for (int64_t i = 0; i < n * t; ++i)
    x1[i] = (T)y1[i];
  const int chol = w->method != AXB_METHOD_LU;
  axb_status st;
  const int tr = w->trans == AXB_TRANS && !chol;
  if (tr && w->resident) /* the device keeps the interchanges */
    return axb__fail(h, AXB_ERR_INTERNAL, "resident transposed first block");
  if (w->resident)
    st =
        AXB_FN(axb__, res_solve)(h, w->res, chol, AXB_NO_TRANS, k + t, w->X, n);
  else if (!chol)
    st = AXB_FN(axb_, getrs)(h, w->trans, n, k + t, w->F, n, w->ipiv, w->X, n,
                             NULL);
  else
    st = AXB_FN(axb_, potrs)(h, AXB_LOWER, n, k + t, w->F, n, w->X, n, NULL);
  for (int64_t i = 0; !st && i < n * t; ++i)
    y1[i] = (double)x1[i];
  /* P^T Y1: getrf's interchanges (1-based) in their order. */
  for (int64_t i = 0; !st && tr && i < n; ++i) {
    int64_t p = w->ipiv[i] - 1;
    for (int64_t j = 0; p != i && j < t; ++j) {
      double v = y1[i + j * n];
      y1[i + j * n] = y1[p + j * n];
      y1[p + j * n] = v;
    }
  }
  w->b->y1_ready = !st;
  return st;
}

/* Solve with the factors; X holds B on entry. */
static axb_status AXB_FN(apply_, )(AXB_FN(work_, ) * w) {
  axb_handle h = w->h;
  int64_t n = w->n, k = w->nrhs;
  if ((w->method == AXB_METHOD_LU || w->method == AXB_METHOD_CHOLESKY) &&
      w->b->want_y1 && n > AXB_CONDEST_T)
    return AXB_FN(solve_y1_, )(w);
  if (w->resident)
    return AXB_FN(axb__, res_solve)(h, w->res, w->method != AXB_METHOD_LU,
                                    w->trans, k, w->X, n);
  switch (w->method) {
  case AXB_METHOD_LU:
    return AXB_FN(axb_, getrs)(h, w->trans, n, k, w->F, n, w->ipiv, w->X, n,
                               NULL);
  case AXB_METHOD_CHOLESKY:
  case AXB_METHOD_CHOLESKY_CROUT:
  case AXB_METHOD_CHOLESKY_BANACHIEWICZ:
    return AXB_FN(axb_, potrs)(h, AXB_LOWER, n, k, w->F, n, w->X, n, NULL);
  case AXB_METHOD_LU_CROUT:
  case AXB_METHOD_LU_FIXEDPOINT:
    if (!h->ops->P.laswp)
      return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "laswp missing on backend");
    return AXB_FN(crout_solve_, )(w);
  case AXB_METHOD_GAUSS_JORDAN: {
    /* X = inv(A) B (or inv(A)^T B = inv(A^T) B): one GEMM into the
       scratch, then copy back. */
    if (!h->ops->P.gemm)
      return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "gemm missing on backend");
    axb_status st = h->ops->P.gemm(h, w->trans, AXB_NO_TRANS, n, k, n, 1, w->F,
                                   n, w->X, n, 0, w->W, n);
    if (!st) memcpy(w->X, w->W, (size_t)(n * k) * sizeof(T));
    return st;
  }
  case AXB_METHOD_GAUSS: return AXB_SUCCESS; /* solved while factoring */
  default: return axb__fail(h, AXB_ERR_INTERNAL, "unknown method");
  }
}

/* The work record of a method on the driver's buffers b (solve.c) for
   A's n x n system with k right-hand sides. */
static AXB_FN(work_, )
    AXB_FN(work_on_, )(axb_handle h, const axb_dense *A, axb_method m,
                       int pivot, int64_t k, buffers *b, int resident) {
  AXB_FN(work_, )
  w = {.h = h,
       .method = m,
       .pivot = pivot,
       .trans = b->trans,
       .n = A->rows,
       .nrhs = k,
       .F = b->F,
       .ipiv = b->ipiv,
       .X = b->X,
       .W = b->W,
       .fp = b->fp,
       .fps = &b->fps,
       .resident = resident,
       .A = A->data,
       .lda = A->ld,
       .res = b->res,
       .b = b};
  return w;
}

/* Factor, then solve with the factors: t[0], t[1] their wall times and
   tx[0], tx[1] the host<->device copies inside them, as the backend's
   `take` counts them (0 without one). */
static axb_status AXB_FN(factor_apply_, )(AXB_FN(work_, ) * w,
                                          double (*take)(axb_handle),
                                          double t[2], double tx[2]) {
  tx[0] = tx[1] = 0;
  if (take) take(w->h);
  double t0 = axb__now();
  axb_status st = AXB_FN(factor_, )(w);
  t[0] = axb__now() - t0;
  if (take) tx[0] = take(w->h);
  t0 = axb__now();
  if (!st) st = AXB_FN(apply_, )(w);
  t[1] = axb__now() - t0;
  if (take) tx[1] = take(w->h);
  return st;
}

/* 1-norm reciprocal condition estimate of op(A) from the factors in w->F
   (for GAUSS the caller puts an LU factorization there first); anorm is
   ||op(A)||_1.  For op(A) = A^T, 1 / (||A^T||_1 ||A^-T||_1) is A's
   reciprocal condition in the inf-norm: gecon with norm INF (the
   estimator with its two solves swapped). */
static axb_status AXB_FN(rcond_, )(AXB_FN(work_, ) * w, double anorm,
                                   double *rcond) {
  axb_handle h = w->h;
  int64_t n = w->n;
  *rcond = -1;
  const double *y1 = w->b->y1_ready ? w->b->Y1 : NULL;
  const axb_norm nrm = w->trans == AXB_TRANS ? AXB_NORM_INF : AXB_NORM_ONE;
  if (w->resident)
    return AXB_FN(axb__, res_con)(h, w->res, w->method != AXB_METHOD_LU, nrm, n,
                                  anorm, y1, rcond);
  if (y1 && (w->method == AXB_METHOD_LU || w->method == AXB_METHOD_CHOLESKY))
    return AXB_FN(axb__, con_y1)(h, w->method != AXB_METHOD_LU, nrm, n, w->F, n,
                                 anorm, y1, rcond);
  switch (w->method) {
  case AXB_METHOD_LU:
    return AXB_FN(axb_, gecon)(h, nrm, n, w->F, n, anorm, rcond, NULL);
  case AXB_METHOD_CHOLESKY:
  case AXB_METHOD_CHOLESKY_CROUT:
  case AXB_METHOD_CHOLESKY_BANACHIEWICZ:
    return AXB_FN(axb_, pocon)(h, AXB_LOWER, n, w->F, n, anorm, rcond, NULL);
  case AXB_METHOD_GAUSS_JORDAN: {
    /* The inverse is explicit: rcond = 1 / (||A||_1 ||inv(A)||_1), or with
       the inf-norms for A^T (||inv(A)^T||_1 = ||inv(A)||_inf). */
    axb_dense Xi = axb_dense_wrap(n, n, n, AXB_DTYPE, w->F);
    double xnorm = axb_matrix_norm(&Xi, nrm);
    *rcond =
        anorm > 0 && xnorm > 0 && isfinite(xnorm) ? 1.0 / (anorm * xnorm) : 0;
    return AXB_SUCCESS;
  }
  case AXB_METHOD_LU_CROUT:
  case AXB_METHOD_LU_FIXEDPOINT: {
    /* Crout's L U = (L D^-1)(D U) with D = diag(L): move the diagonal to U
       in a copy and reuse gecon, which needs unit L and non-unit U. */
    T *G = axb__malloc(n * n, sizeof(T));
    if (!G) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for rcond");
    for (int64_t j = 0; j < n; ++j) {
      T d = w->F[j + j * n];
      for (int64_t i = 0; i < n; ++i) {
        T z = w->F[i + j * n];
        /* column j of L divided by l_jj; row i of U times l_ii */
        G[i + j * n] = i > j ? z / d : (i == j ? d : z * w->F[i + i * n]);
      }
    }
    axb_status st = AXB_FN(axb_, gecon)(h, nrm, n, G, n, anorm, rcond, NULL);
    axb__free(G);
    return st;
  }
  default: return AXB_SUCCESS;
  }
}
