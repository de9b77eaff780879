/*
 * BLAS entries of the CPU table in T (template, see core/template.h).
 *
 * gemm and trsm are split over independent columns (or rows) of the output
 * between the OpenMP threads, each piece a single-threaded OpenBLAS call:
 *   C(:, J) = alpha op(A) op(B)(:, J) + beta C(:, J)  for column blocks J;
 *   op(A) X = alpha B: the columns of X are independent (LEFT);
 *   X op(A) = alpha B: the rows of X are independent (RIGHT).
 * laswp is our own: a column at a time, each interchange inside one
 * contiguous column, columns split between threads.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
/* Work below which a call stays in the calling thread (flops). */
#define OMP_BLAS_SERIAL_FLOPS 4.0e6
/* A LEFT trsm with at least this many rows and at most this many columns
   shares its rows among the threads (trsm_rows). */
#ifndef OMP_TRSM_ROWS_MIN
#define OMP_TRSM_ROWS_MIN 1024
#define OMP_TRSM_ROWS_COLS 16
#endif

#ifdef AXB_HAVE_LAPACK
void AXB_FN(axb_omp_, gemm_)(axb_trans ta, axb_trans tb, int64_t m, int64_t n,
                             int64_t k, T alpha, const T *A, int64_t lda,
                             const T *B, int64_t ldb, T beta, T *C,
                             int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  AXB_CAT3(cblas_, P, gemm)
  (AXB_CB_COL, CB_TR(ta), CB_TR(tb), (int)m, (int)n, (int)k, alpha, A, (int)lda,
   B, (int)ldb, beta, C, (int)ldc);
}

void AXB_FN(axb_omp_, trsm_)(axb_side side, axb_uplo uplo, axb_trans trans,
                             axb_diag diag, int64_t m, int64_t n, T alpha,
                             const T *A, int64_t lda, T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return;
  AXB_CAT3(cblas_, P, trsm)
  (AXB_CB_COL, CB_SIDE(side), CB_UPLO(uplo), CB_TR(trans), CB_DIAG(diag),
   (int)m, (int)n, alpha, A, (int)lda, B, (int)ldb);
}

void AXB_FN(axb_omp_, trmm_)(axb_side side, axb_uplo uplo, axb_trans trans,
                             axb_diag diag, int64_t m, int64_t n, T alpha,
                             const T *A, int64_t lda, T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return;
  AXB_CAT3(cblas_, P, trmm)
  (AXB_CB_COL, CB_SIDE(side), CB_UPLO(uplo), CB_TR(trans), CB_DIAG(diag),
   (int)m, (int)n, alpha, A, (int)lda, B, (int)ldb);
}

void AXB_FN(axb_omp_, syrk_)(axb_uplo uplo, axb_trans trans, int64_t n,
                             int64_t k, T alpha, const T *A, int64_t lda,
                             T beta, T *C, int64_t ldc) {
  if (n <= 0) return;
  AXB_CAT3(cblas_, P, syrk)
  (AXB_CB_COL, CB_UPLO(uplo), CB_TR(trans), (int)n, (int)k, alpha, A, (int)lda,
   beta, C, (int)ldc);
}

axb_status AXB_FN(axb_omp_, gemm)(axb_handle h, axb_trans ta, axb_trans tb,
                                  int64_t m, int64_t n, int64_t k, T alpha,
                                  const T *A, int64_t lda, const T *B,
                                  int64_t ldb, T beta, T *C, int64_t ldc) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  if (!axb_omp_fits_int(m, n) || !axb_omp_fits_int(k, lda) ||
      !axb_omp_fits_int(ldb, ldc))
    return AXB_FN(axb_ref_, gemm)(h, ta, tb, m, n, k, alpha, A, lda, B, ldb,
                                  beta, C, ldc);
  const int saved = axb_omp_blas_begin();
  int nt = axb_omp_threads(h);
  if (2.0 * (double)m * (double)n * (double)k < OMP_BLAS_SERIAL_FLOPS) nt = 1;
  int64_t bounds[AXB_OMP_MAX_PARTS + 1];
  const int parts = axb_omp_split(0, n, 8, nt, bounds);
  AXB_OMP(parallel for num_threads(nt) schedule(static) if(parts > 1))
  for (int q = 0; q < parts; ++q) {
    const int64_t c0 = bounds[q], w = bounds[q + 1] - c0;
    const T *Bq = tb == AXB_NO_TRANS ? &AT(B, ldb, 0, c0) : &AT(B, ldb, c0, 0);
    AXB_FN(axb_omp_, gemm_)
    (ta, tb, m, w, k, alpha, A, lda, Bq, ldb, beta, &AT(C, ldc, 0, c0), ldc);
  }
  axb_omp_blas_end(saved);
  return AXB_SUCCESS;
}

/* op(A) X = B (LEFT, alpha = 1) for a few columns (n <= 16): the columns
   cannot feed the threads, so the rows do.  By blocks of NB rows,
   downwards when op(A) is lower (A lower, or A upper transposed), else
   upwards; for block k (rows K) and the rows J still to come, every
   thread
     x_K := op(A)_KK^-1 X_K                   (its own copy: a small trsm)
     X_J := X_J - op(A)_JK x_K                (its share of the rows of J)
   with op(A)_JK = A(J, K), or A(K, J)^T when transposed, then meets the
   others at one barrier, after which thread 0 stores x_K into X_K (nobody
   reads those rows again).  Solving the small block in every thread costs
   a re-read of the NB x NB triangle but saves the second barrier of each
   step.  The barrier is OpenMP's (spins, then sleeps), not the spin
   barrier of the factorizations: with two other processes busy on the 2
   cores, the 4 solves of an estimate step at n = 2048 took 88-120 ms with
   the spin barrier (a waiting thread yields its core to the other
   process, not to its partner) and 3-5 ms with OpenMP's, the same as on a
   quiet machine either way.  Memory-bound (the triangle is
   read once): what the threads add is bandwidth.  The row pieces depend
   only on (m, NB, threads), and every copy of x_K is the same sequential
   computation, so the result is reproducible for a given thread count. */
static void AXB_FN(omp_, trsm_rows)(axb_uplo uplo, axb_trans trans,
                                    axb_diag diag, int64_t m, int64_t n,
                                    const T *A, int64_t lda, T *B, int64_t ldb,
                                    int nt) {
  enum { NB = 256 };
  const int down = (uplo == AXB_LOWER) == (trans == AXB_NO_TRANS);
  const int64_t nblk = (m + NB - 1) / NB;
  AXB_OMP(parallel num_threads(nt)) {
    const int tid = axb_omp_thread_id();
    const int team = axb_omp_threads_in_team();
    T xk[NB * OMP_TRSM_ROWS_COLS]; /* this thread's x_K, ld kb */
    for (int64_t s = 0; s < nblk; ++s) {
      const int64_t kb = down ? s : nblk - 1 - s;
      const int64_t k0 = kb * NB, k1 = k0 + NB < m ? k0 + NB : m, w = k1 - k0;
      for (int64_t j = 0; j < n; ++j)
        memcpy(xk + j * w, &AT(B, ldb, k0, j), (size_t)w * sizeof(T));
      AXB_FN(axb_omp_, trsm_)
      (AXB_LEFT, uplo, trans, diag, w, n, 1, &AT(A, lda, k0, k0), lda, xk, w);
      /* The rows still to solve: [k1, m) going down, [0, k0) going up. */
      const int64_t r0 = down ? k1 : 0, r1 = down ? m : k0;
      int64_t bounds[AXB_OMP_MAX_PARTS + 1];
      const int parts = axb_omp_split(r0, r1, 8, team, bounds);
      if (tid < parts) {
        const int64_t a0 = bounds[tid], rows = bounds[tid + 1] - a0;
        const T *Ajk =
            trans == AXB_NO_TRANS ? &AT(A, lda, a0, k0) : &AT(A, lda, k0, a0);
        AXB_FN(axb_omp_, gemm_)
        (trans, AXB_NO_TRANS, rows, n, w, -1, Ajk, lda, xk, w, 1,
         &AT(B, ldb, a0, 0), ldb);
      }
      AXB_OMP(barrier)
      if (tid == 0)
        for (int64_t j = 0; j < n; ++j)
          memcpy(&AT(B, ldb, k0, j), xk + j * w, (size_t)w * sizeof(T));
    }
  }
}

axb_status AXB_FN(axb_omp_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                                  axb_trans trans, axb_diag diag, int64_t m,
                                  int64_t n, T alpha, const T *A, int64_t lda,
                                  T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  if (!axb_omp_fits_int(m, n) || !axb_omp_fits_int(lda, ldb))
    return AXB_FN(axb_ref_, trsm)(h, side, uplo, trans, diag, m, n, alpha, A,
                                  lda, B, ldb);
  const int saved = axb_omp_blas_begin();
  int nt = axb_omp_threads(h);
  const int64_t k = side == AXB_LEFT ? m : n;
  /* A few columns and many rows (the solves of getrs and of the condition
     estimate): threads over the rows.  Split by columns, every thread
     would read all of A for its one or two columns, and a solve with so
     few columns runs at the speed A is read (2 columns on 2 threads at
     n = 2048 on the 2-core VM: 6.7 ms by columns, 3.6 ms by rows). */
  if (side == AXB_LEFT && nt > 1 && n <= OMP_TRSM_ROWS_COLS && alpha == 1 &&
      m >= OMP_TRSM_ROWS_MIN) {
    AXB_FN(omp_, trsm_rows)(uplo, trans, diag, m, n, A, lda, B, ldb, nt);
    axb_omp_blas_end(saved);
    return AXB_SUCCESS;
  }
  if ((double)k * (double)m * (double)n < OMP_BLAS_SERIAL_FLOPS) nt = 1;
  /* LEFT: independent columns of B; RIGHT: independent rows. */
  int64_t bounds[AXB_OMP_MAX_PARTS + 1];
  const int parts = axb_omp_split(0, side == AXB_LEFT ? n : m, 8, nt, bounds);
  AXB_OMP(parallel for num_threads(nt) schedule(static) if(parts > 1))
  for (int q = 0; q < parts; ++q) {
    const int64_t c0 = bounds[q], w = bounds[q + 1] - c0;
    if (side == AXB_LEFT) AXB_FN(axb_omp_, trsm_)
    (side, uplo, trans, diag, m, w, alpha, A, lda, &AT(B, ldb, 0, c0), ldb);
    else AXB_FN(axb_omp_, trsm_)(side, uplo, trans, diag, w, n, alpha, A, lda,
                                 &AT(B, ldb, c0, 0), ldb);
  }
  axb_omp_blas_end(saved);
  return AXB_SUCCESS;
}
#endif /* AXB_HAVE_LAPACK */

/* Interchanges ipiv[k1..k2-1] on the n columns, one column at a time (each
   swap reads and writes inside one contiguous column); forward applies
   them in increasing k, backward in decreasing k (undoing them). */
static void AXB_FN(omp_, laswp_cols)(int64_t n, T *A, int64_t lda, int64_t k1,
                                     int64_t k2, const int64_t *ipiv,
                                     int forward) {
  for (int64_t j = 0; j < n; ++j) {
    T *a = &AT(A, lda, 0, j);
    if (forward) {
      for (int64_t k = k1; k < k2; ++k) {
        const int64_t p = ipiv[k] - 1;
        const T x = a[k];
        a[k] = a[p];
        a[p] = x;
      }
    } else {
      for (int64_t k = k2 - 1; k >= k1; --k) {
        const int64_t p = ipiv[k] - 1;
        const T x = a[k];
        a[k] = a[p];
        a[p] = x;
      }
    }
  }
}

axb_status AXB_FN(axb_omp_, laswp)(axb_handle h, int64_t n, T *A, int64_t lda,
                                   int64_t k1, int64_t k2, const int64_t *ipiv,
                                   int forward) {
  if (n <= 0 || k2 <= k1) return AXB_SUCCESS;
  int nt = axb_omp_threads(h);
  if ((double)n * (double)(k2 - k1) < 1.0e6) nt = 1;
  int64_t bounds[AXB_OMP_MAX_PARTS + 1];
  const int parts = axb_omp_split(0, n, 8, nt, bounds);
  AXB_OMP(parallel for num_threads(nt) schedule(static) if(parts > 1))
  for (int q = 0; q < parts; ++q)
    AXB_FN(omp_, laswp_cols)
  (bounds[q + 1] - bounds[q], &AT(A, lda, 0, bounds[q]), lda, k1, k2, ipiv,
   forward);
  return AXB_SUCCESS;
}

#undef AT
#undef OMP_BLAS_SERIAL_FLOPS
#undef OMP_TRSM_ROWS_MIN
#undef OMP_TRSM_ROWS_COLS
