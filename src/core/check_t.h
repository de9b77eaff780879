/*
 * Typed kernels of the accuracy checks, written once in terms of T (float or
 * double) and P (d or s); check.c includes this file twice (template.h).
 * Inputs of type T are promoted to double; every product and sum is formed
 * in double.  Residual matrices W are double, column-major, leading
 * dimension ldw.  NaN propagates through every kernel: sums carry it, and
 * maxima use chk_nanmax from check.c.
 */

/* B := A (m x n), promoted to double. */
static void AXB_FN(chk_, copy)(int64_t m, int64_t n, const T *a, int64_t lda,
                               double *b, int64_t ldb) {
  for (int64_t j = 0; j < n; ++j) {
    const T *aj = a + j * lda;
    double *bj = b + j * ldb;
    for (int64_t i = 0; i < m; ++i)
      bj[i] = (double)aj[i];
  }
}

/* Lower triangle (with diagonal) of the n x n matrix B := the lower triangle
   of A, or the transpose of A's upper triangle when upper != 0.  The strictly
   upper part of B is not written. */
static void AXB_FN(chk_, copy_lower)(int64_t n, const T *a, int64_t lda,
                                     int upper, double *b, int64_t ldb) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      b[i + j * ldb] = (double)(upper ? a[j + i * lda] : a[i + j * lda]);
}

/* ||A||_1 = max_j sum_i |a_ij|. */
static double AXB_FN(chk_, norm_one)(int64_t m, int64_t n, const T *a,
                                     int64_t lda) {
  double norm = 0;
  for (int64_t j = 0; j < n; ++j) {
    const T *aj = a + j * lda;
    double s = 0;
    for (int64_t i = 0; i < m; ++i)
      s += fabs((double)aj[i]);
    norm = chk_nanmax(norm, s);
  }
  return norm;
}

/* ||A||_inf = max_i sum_j |a_ij|, by blocks of CHK_ROWS rows so that the
   column-major walk stays contiguous and no workspace is allocated.  Large
   matrices share the blocks among threads: each row's sum keeps its order
   and the maximum is order-free, so the value is the serial one. */
static double AXB_FN(chk_, norm_inf)(int64_t m, int64_t n, const T *a,
                                     int64_t lda) {
  double norm = 0;
#ifdef _OPENMP
#pragma omp parallel if ((double)m * (double)n >= CHK_PAR_WORK)
#endif
  {
    double local = 0, acc[CHK_ROWS];
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int64_t i0 = 0; i0 < m; i0 += CHK_ROWS) {
      int64_t mb = m - i0 < CHK_ROWS ? m - i0 : CHK_ROWS;
      for (int64_t i = 0; i < mb; ++i)
        acc[i] = 0;
      for (int64_t j = 0; j < n; ++j) {
        const T *aj = a + i0 + j * lda;
        for (int64_t i = 0; i < mb; ++i)
          acc[i] += fabs((double)aj[i]);
      }
      for (int64_t i = 0; i < mb; ++i)
        local = chk_nanmax(local, acc[i]);
    }
#ifdef _OPENMP
#pragma omp critical(axb_chk_norm_inf)
#endif
    norm = chk_nanmax(norm, local);
  }
  return norm;
}

/* max_ij |a_ij|. */
static double AXB_FN(chk_, norm_max)(int64_t m, int64_t n, const T *a,
                                     int64_t lda) {
  double norm = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      norm = chk_nanmax(norm, fabs((double)a[i + j * lda]));
  return norm;
}

/* ||A||_F = s sqrt(sum (a_ij / s)^2) with s = max |a_ij|: no overflow or
   underflow of the squares. */
static double AXB_FN(chk_, norm_fro)(int64_t m, int64_t n, const T *a,
                                     int64_t lda) {
  double s = AXB_FN(chk_, norm_max)(m, n, a, lda);
  if (s == 0 || !isfinite(s)) return s;
  double sum = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double t = (double)a[i + j * lda] / s;
      sum += t * t;
    }
  return s * sqrt(sum);
}

static double AXB_FN(chk_, norm)(int64_t m, int64_t n, const T *a, int64_t lda,
                                 axb_norm norm) {
  switch (norm) {
  case AXB_NORM_ONE: return AXB_FN(chk_, norm_one)(m, n, a, lda);
  case AXB_NORM_INF: return AXB_FN(chk_, norm_inf)(m, n, a, lda);
  case AXB_NORM_MAX: return AXB_FN(chk_, norm_max)(m, n, a, lda);
  case AXB_NORM_FRO: return AXB_FN(chk_, norm_fro)(m, n, a, lda);
  }
  return NAN;
}

/* Rows i0..i1-1 of W := W - A X, A m x k (type T), X k x nrhs (double), W
   m x nrhs.  Columns of W are taken CHK_NB at a time so that a column of A
   is reused from cache across the block. */
static void AXB_FN(chk_, sub_ax_rows)(int64_t i0, int64_t i1, int64_t k,
                                      const T *a, int64_t lda, const double *x,
                                      int64_t ldx, int64_t nrhs, double *w,
                                      int64_t ldw) {
  for (int64_t c0 = 0; c0 < nrhs; c0 += CHK_NB) {
    int64_t c1 = c0 + CHK_NB < nrhs ? c0 + CHK_NB : nrhs;
    for (int64_t p = 0; p < k; ++p) {
      const T *ap = a + p * lda;
      for (int64_t c = c0; c < c1; ++c) {
        double xpc = x[p + c * ldx];
        double *wc = w + c * ldw;
        for (int64_t i = i0; i < i1; ++i)
          wc[i] -= (double)ap[i] * xpc;
      }
    }
  }
}

/* One right-hand side, columns of A eight at a time: rowsum[i] += |a_ip|
   and w[i] -= a_ip x_p for p = p0..p0+7 in that order, from one load and
   one store of rowsum[i] and w[i] (a load and a store per column of A
   bounded the pass: the backward error took 1.0 ms at n = 1024 on the
   2-core VM, where A is read from cache in 0.2); each entry is formed as
   the column-by-column loop forms it, bit for bit.  Returns the columns
   done (a multiple of 8; the caller does the rest). */
static int64_t AXB_FN(chk_, sub_ax_abs8)(int64_t i0, int64_t i1, int64_t k,
                                         const T *a, int64_t lda,
                                         const double *x, double *w,
                                         double *rowsum) {
  int64_t p = 0;
  for (; p + 8 <= k; p += 8) {
    const T *a0 = a + p * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    const T *a4 = a3 + lda, *a5 = a4 + lda, *a6 = a5 + lda, *a7 = a6 + lda;
    const double *xp = x + p;
    for (int64_t i = i0; i < i1; ++i) {
      const double b0 = a0[i], b1 = a1[i], b2 = a2[i], b3 = a3[i];
      const double b4 = a4[i], b5 = a5[i], b6 = a6[i], b7 = a7[i];
      double r = rowsum[i], v = w[i];
      r += fabs(b0), r += fabs(b1), r += fabs(b2), r += fabs(b3);
      r += fabs(b4), r += fabs(b5), r += fabs(b6), r += fabs(b7);
      v -= b0 * xp[0], v -= b1 * xp[1], v -= b2 * xp[2], v -= b3 * xp[3];
      v -= b4 * xp[4], v -= b5 * xp[5], v -= b6 * xp[6], v -= b7 * xp[7];
      rowsum[i] = r;
      w[i] = v;
    }
  }
  return p;
}

/* sub_ax_rows that also adds |a_ip| to rowsum[i] for every column p of A
   while the first block of W's columns reads it: the residual and the row
   sums of ||A||_inf from one pass over A.  Each row sum runs over p in
   order, as norm_inf's, so both come out bit for bit as apart. */
static void AXB_FN(chk_, sub_ax_abs_rows)(int64_t i0, int64_t i1, int64_t k,
                                          const T *a, int64_t lda,
                                          const double *x, int64_t ldx,
                                          int64_t nrhs, double *w, int64_t ldw,
                                          double *rowsum) {
  for (int64_t i = i0; i < i1; ++i)
    rowsum[i] = 0;
  int64_t c1 = CHK_NB < nrhs ? CHK_NB : nrhs;
  /* one right-hand side: eight columns of A at a time, then the rest */
  int64_t p =
      c1 == 1 ? AXB_FN(chk_, sub_ax_abs8)(i0, i1, k, a, lda, x, w, rowsum) : 0;
  for (; p < k; ++p) {
    const T *ap = a + p * lda;
    for (int64_t i = i0; i < i1; ++i)
      rowsum[i] += fabs((double)ap[i]);
    for (int64_t c = 0; c < c1; ++c) {
      double xpc = x[p + c * ldx];
      double *wc = w + c * ldw;
      for (int64_t i = i0; i < i1; ++i)
        wc[i] -= (double)ap[i] * xpc;
    }
  }
  if (nrhs > c1) { /* the other blocks, as sub_ax_rows */
    AXB_FN(chk_, sub_ax_rows)
    (i0, i1, k, a, lda, x + c1 * ldx, ldx, nrhs - c1, w + c1 * ldw, ldw);
  }
}

/* W := W - A X and rowsum[i] = sum_j |a_ij| (A square, m x m) in one pass,
   row strips shared among `threads` threads (0: OpenMP's default). */
static void AXB_FN(chk_, sub_ax_abs)(int64_t m, const T *a, int64_t lda,
                                     const double *x, int64_t ldx, int64_t nrhs,
                                     double *w, int64_t ldw, double *rowsum,
                                     int threads) {
  (void)threads;
#ifdef _OPENMP
  if ((double)m * (double)m >= CHK_PAR_WORK && m >= 64) {
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
      int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
      int64_t strip = ((m + nt - 1) / nt + 7) / 8 * 8;
      int64_t i0 = t * strip, i1 = i0 + strip < m ? i0 + strip : m;
      if (i0 < i1) {
        AXB_FN(chk_, sub_ax_abs_rows)
        (i0, i1, m, a, lda, x, ldx, nrhs, w, ldw, rowsum);
      }
    }
    return;
  }
#endif
  AXB_FN(chk_, sub_ax_abs_rows)(0, m, m, a, lda, x, ldx, nrhs, w, ldw, rowsum);
}

/* Columns [j0, j1) of a symmetric A's lower triangle into acc (n x nrhs,
   ld n): acc += A(:, j) x_j over those columns, the strictly lower part of
   column j also standing for row j's upper part (a_ji = a_ij): acc[i] +=
   a_ij x_j for i > j, acc[j] += sum_{i >= j} a_ij x_i.  Four columns at a
   time share the loads and stores of acc. */
static void AXB_FN(chk_, symx_cols)(int64_t n, int64_t j0, int64_t j1,
                                    const T *a, int64_t lda, const double *x,
                                    int64_t ldx, int64_t nrhs, double *acc) {
  for (int64_t c = 0; c < nrhs; ++c) {
    const double *xc = x + c * ldx;
    double *ac = acc + c * n;
    int64_t j = j0;
    for (; j + 4 <= j1; j += 4) {
      const T *a0 = a + j * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
      const double x0 = xc[j], x1 = xc[j + 1], x2 = xc[j + 2], x3 = xc[j + 3];
      /* the 4 x 4 corner: rows j..j+3 of the four columns (lower part) */
      double d0 = (double)a0[j] * x0, d1 = (double)a1[j + 1] * x1;
      double d2 = (double)a2[j + 2] * x2, d3 = (double)a3[j + 3] * x3;
      d0 += (double)a0[j + 1] * x1 + (double)a0[j + 2] * x2 +
            (double)a0[j + 3] * x3;
      d1 += (double)a0[j + 1] * x0 + (double)a1[j + 2] * x2 +
            (double)a1[j + 3] * x3;
      d2 += (double)a0[j + 2] * x0 + (double)a1[j + 2] * x1 +
            (double)a2[j + 3] * x3;
      d3 += (double)a0[j + 3] * x0 + (double)a1[j + 3] * x1 +
            (double)a2[j + 3] * x2;
      double e0 = 0, e1 = 0, e2 = 0, e3 = 0;
#ifdef _OPENMP
#pragma omp simd reduction(+ : e0, e1, e2, e3)
#endif
      for (int64_t i = j + 4; i < n; ++i) {
        const double b0 = a0[i], b1 = a1[i], b2 = a2[i], b3 = a3[i];
        ac[i] += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;
        e0 += b0 * xc[i], e1 += b1 * xc[i], e2 += b2 * xc[i], e3 += b3 * xc[i];
      }
      ac[j] += d0 + e0, ac[j + 1] += d1 + e1;
      ac[j + 2] += d2 + e2, ac[j + 3] += d3 + e3;
    }
    for (; j < j1; ++j) {
      const T *aj = a + j * lda;
      const double xj = xc[j];
      double e = (double)aj[j] * xj;
      for (int64_t i = j + 1; i < n; ++i) {
        ac[i] += (double)aj[i] * xj;
        e += (double)aj[i] * xc[i];
      }
      ac[j] += e;
    }
  }
}

/* W := W - A X for a symmetric A (exactly: the driver's Cholesky methods
   have tested it) read from its lower triangle only, half the reads of
   sub_ax_abs.  Columns in `parts` ranges of equal triangle area, each
   range's sum in its own accumulator (acc: parts x n x nrhs), added to W
   in range order afterwards: the result depends on the thread count only
   through `parts`, which the caller fixes. */
static void AXB_FN(chk_, sub_symx)(int64_t n, const T *a, int64_t lda,
                                   const double *x, int64_t ldx, int64_t nrhs,
                                   double *w, int64_t ldw, double *acc,
                                   int parts) {
  int64_t cut[CHK_SYM_PARTS + 1];
  cut[0] = 0;
  const double area = 0.5 * (double)n * (double)(n + 1);
  for (int q = 1, j = 0; q <= parts; ++q) {
    const double goal = area * q / parts;
    double done = 0.5 * (double)j * (double)(2 * n - j + 1);
    while (j < n && done < goal) {
      done += (double)(n - j);
      ++j;
    }
    cut[q] = q == parts ? n : j;
  }
  memset(acc, 0, (size_t)(parts * n * nrhs) * sizeof *acc);
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(parts) if (parts > 1)
#endif
  for (int q = 0; q < parts; ++q)
    AXB_FN(chk_, symx_cols)
  (n, cut[q], cut[q + 1], a, lda, x, ldx, nrhs, acc + (int64_t)q * n * nrhs);
  for (int64_t c = 0; c < nrhs; ++c)
    for (int q = 0; q < parts; ++q) {
      const double *aq = acc + ((int64_t)q * nrhs + c) * n;
      double *wc = w + c * ldw;
      for (int64_t i = 0; i < n; ++i)
        wc[i] -= aq[i];
    }
}

/* The transposed system's sub_ax_abs: W := W - A^T X and colsum[i] =
   sum_p |a_pi| (the row sums of A^T, whose max is ||A^T||_inf = ||A||_1)
   in one pass over the square m x m A.  Row i of A^T is column i of A,
   contiguous: each residual entry is a dot product down that column, and
   the columns of A are shared among `threads` threads (every entry is
   formed as in the serial loop, whatever the threads). */
static void AXB_FN(chk_, sub_atx_abs)(int64_t m, const T *a, int64_t lda,
                                      const double *x, int64_t ldx,
                                      int64_t nrhs, double *w, int64_t ldw,
                                      double *colsum, int threads) {
  (void)threads;
#ifdef _OPENMP
#pragma omp parallel for schedule(                                             \
    static) if ((double)m * (double)m >= CHK_PAR_WORK && m >= 64)              \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
#endif
  for (int64_t i = 0; i < m; ++i) {
    const T *ai = a + i * lda;
    /* the sum of |a_pi| and the first right-hand side's dot product from
       one read of the column, in four interleaved partial sums (p mod 4:
       independent additions the compiler can vectorise; a fixed order, so
       the result does not depend on the threads) */
    double s4[4] = {0, 0, 0, 0}, d4[4] = {0, 0, 0, 0};
    int64_t p = 0;
    for (; p + 4 <= m; p += 4)
      for (int q = 0; q < 4; ++q) {
        s4[q] += fabs((double)ai[p + q]);
        d4[q] += (double)ai[p + q] * x[p + q];
      }
    for (; p < m; ++p) {
      s4[0] += fabs((double)ai[p]);
      d4[0] += (double)ai[p] * x[p];
    }
    colsum[i] = (s4[0] + s4[1]) + (s4[2] + s4[3]);
    w[i] -= (d4[0] + d4[1]) + (d4[2] + d4[3]);
    for (int64_t c = 1; c < nrhs; ++c) {
      const double *xc = x + c * ldx;
      double d = 0;
      for (int64_t p = 0; p < m; ++p)
        d += (double)ai[p] * xc[p];
      w[i + c * ldw] -= d;
    }
  }
}

/* W := W - A X.  Large products share the rows among threads in strips;
   every entry is formed in the serial order, so the result is bitwise the
   serial one. */
static void AXB_FN(chk_, sub_ax)(int64_t m, int64_t k, const T *a, int64_t lda,
                                 const double *x, int64_t ldx, int64_t nrhs,
                                 double *w, int64_t ldw) {
#ifdef _OPENMP
  if ((double)m * (double)k * (double)nrhs >= CHK_PAR_WORK && m >= 64) {
#pragma omp parallel
    {
      int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
      int64_t strip = ((m + nt - 1) / nt + 7) / 8 * 8;
      int64_t i0 = t * strip, i1 = i0 + strip < m ? i0 + strip : m;
      if (i0 < i1)
        AXB_FN(chk_, sub_ax_rows)(i0, i1, k, a, lda, x, ldx, nrhs, w, ldw);
    }
    return;
  }
#endif
  AXB_FN(chk_, sub_ax_rows)(0, m, k, a, lda, x, ldx, nrhs, w, ldw);
}

/* W := W - L U for getrf's combined n x n factor: L unit lower (strictly
   below the diagonal of LU), U upper (on and above it).
   (L U)_ic = sum_{k <= min(i,c)} l_ik u_kc, formed as column updates
   w_c -= l_k u_kc for k <= c, with l_kk = 1. */
static void AXB_FN(chk_, sub_lu)(int64_t n, const T *lu, int64_t ld, double *w,
                                 int64_t ldw) {
  for (int64_t c0 = 0; c0 < n; c0 += CHK_NB) {
    int64_t c1 = c0 + CHK_NB < n ? c0 + CHK_NB : n;
    for (int64_t k = 0; k < c1; ++k) {
      const T *lk = lu + k * ld;
      for (int64_t c = k > c0 ? k : c0; c < c1; ++c) {
        double ukc = (double)lu[k + c * ld];
        double *wc = w + c * ldw;
        wc[k] -= ukc;
        for (int64_t i = k + 1; i < n; ++i)
          wc[i] -= (double)lk[i] * ukc;
      }
    }
  }
}

/* Lower triangle of W := lower triangle of W - L L^T, L lower n x n (only its
   lower triangle is read).  (L L^T)_ic = sum_{k <= c} l_ik l_ck for i >= c. */
static void AXB_FN(chk_, sub_llt)(int64_t n, const T *l, int64_t ld, double *w,
                                  int64_t ldw) {
  for (int64_t c0 = 0; c0 < n; c0 += CHK_NB) {
    int64_t c1 = c0 + CHK_NB < n ? c0 + CHK_NB : n;
    for (int64_t k = 0; k < c1; ++k) {
      const T *lk = l + k * ld;
      for (int64_t c = k > c0 ? k : c0; c < c1; ++c) {
        double lck = (double)lk[c];
        double *wc = w + c * ldw;
        for (int64_t i = c; i < n; ++i)
          wc[i] -= (double)lk[i] * lck;
      }
    }
  }
}
