/* issue28k scratch: take_lower_ as in main (46bdcd8) with the prefetch
   distances as knobs (PFD mirror, PFL lower copy; 0: none), for pass4.c. */
static int PFD = 16, PFL = 0;
int take_lower2_d(int64_t n, const double *a, int64_t lda, double *F,
                  int64_t ldf, double *rows, int threads) {
  enum { TI = 256, B = 8 };
  int asym = 0;
  const int64_t TJ = take_width_d(n, threads);
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
        const double *aj = a + j * lda;
        if (PFL && j + PFL < j1)
          for (int64_t q = i0 > j ? i0 : j; q < i1; q += 8)
            __builtin_prefetch(aj + PFL * lda + q);
        double *fj = F + j * ldf;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int64_t i = i0 > j ? i0 : j;
        for (; i + 4 <= i1; i += 4) {
          fj[i] = aj[i];
          fj[i + 1] = aj[i + 1];
          fj[i + 2] = aj[i + 2];
          fj[i + 3] = aj[i + 3];
          s0 += fabs(aj[i]);
          s1 += fabs(aj[i + 1]);
          s2 += fabs(aj[i + 2]);
          s3 += fabs(aj[i + 3]);
        }
        for (; i < i1; ++i) {
          fj[i] = aj[i];
          s0 += fabs(aj[i]);
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
            const double *ai = a + i * lda;
            if (PFD && i + PFD < n) __builtin_prefetch(ai + PFD * lda + gb);
            const int64_t ge = gbe < i ? gbe : i;
            double s = 0;
            int bb = 0;
            for (int64_t g = gb; g < ge; ++g) {
              s += fabs(ai[g]);
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
