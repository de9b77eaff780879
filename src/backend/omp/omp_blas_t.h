/*
 * BLAS entries of the CPU table in T (template, see core/template.h).
 *
 * gemm and trsm are split over independent columns (or rows) of the output
 * between the OpenMP threads, each piece a single-threaded OpenBLAS call:
 *   C(:, J) = alpha op(A) op(B)(:, J) + beta C(:, J)  for column blocks J;
 *   op(A) X = alpha B: the columns of X are independent (LEFT; with few
 *     columns, our own row-blocked solve instead: omp_trsv_t.h);
 *   X op(A) = alpha B: the rows of X are independent (RIGHT).
 * laswp is our own: a column at a time, each interchange inside one
 * contiguous column, columns split between threads.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
/* Work below which a call stays in the calling thread (flops). */
#define OMP_BLAS_SERIAL_FLOPS 4.0e6
/* A LEFT trsm with alpha = 1, at most this many columns and at least
   this many rows is our own few-columns solve (omp_trsv_t.h), on the
   handle's threads from OMP_TRSM_FEW_THREADED rows. */
#ifndef OMP_TRSM_FEW_COLS
#define OMP_TRSM_FEW_COLS 16
#define OMP_TRSM_FEW_MIN 64
#define OMP_TRSM_FEW_THREADED 256
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
  /* A few columns (the solves of getrs/potrs and of the condition
     estimate): our own blocked solve (omp_trsv_t.h), threads over the
     rows; it reads A in place, once, where OpenBLAS's trsm packs it
     (bench/bench_trsv.c; docs/notes/certificate.md). */
  if (side == AXB_LEFT && n <= OMP_TRSM_FEW_COLS && alpha == 1 &&
      m >= OMP_TRSM_FEW_MIN) {
    /* One thread while the pthread OpenBLAS's pool still spins after the
       hybrid factorization (axb_omp_pool_spinning): a team beside 15
       spinners waited a scheduler slice per block (the driver's solve
       45 ms, estimate 100 ms at n = 1024 on 16 threads, against ~2 ms);
       the calling thread has its own core.  The answer is the same bits
       on any thread count. */
    const int few =
        m >= OMP_TRSM_FEW_THREADED && !axb_omp_pool_spinning() ? nt : 1;
    if (!AXB_FN(axb_omp_, trsv_few)(uplo, trans, diag, m, n, A, lda, B, ldb,
                                    few)) {
      axb_omp_blas_end(saved);
      return AXB_SUCCESS;
    }
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
#undef OMP_TRSM_FEW_COLS
#undef OMP_TRSM_FEW_MIN
#undef OMP_TRSM_FEW_THREADED
