/*
 * Cholesky factorization A = L L^T (LOWER) or U^T U (UPPER) for the CPU
 * backend, in T (template, see core/template.h).  Needs OpenBLAS.
 *
 * Diagonal blocks: recursive Cholesky (the LAPACK potrf2 scheme): with
 * n = n1 + n2,  L11 = chol(A11),  L21 = A21 L11^-T (trsm),
 * A22 := A22 - L21 L21^T (syrk),  L22 = chol(A22); leaves of OMP_CHOL_LEAF
 * columns run the unblocked right-looking loop.  UPPER is the transpose:
 * U12 = U11^-T A12, A22 := A22 - U12^T U12.
 *
 * Large matrices: blocked right-looking with look-ahead of depth one, the
 * same structure as the LU (omp_lu_t.h).  LOWER, step k with the block
 * column J = [j, j+jb) factored (L_JJ and L_below,J):
 *     for each column piece C = [c0, c1) of the trailing matrix
 *       A(C, C)     -= L(C, J) L(C, J)^T          (syrk, lower part)
 *       A(c1:n, C)  -= L(c1:n, J) L(C, J)^T       (gemm)
 * One thread updates the next block column and factors it (potrf of its
 * diagonal block, trsm of the part below) while the others update the
 * rest.  UPPER works on row pieces of the trailing matrix, the mirror
 * image, so that the next block row (the upper factor's panel) is again
 * owned by the look-ahead thread.  Pieces are cut to equal work (the
 * trailing matrix is a triangle, so left pieces are narrower).
 *
 * A non-positive pivot stops the factorization at the first failing
 * leading minor, as the reference kernel does.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define SQRT_(x) ((T)sqrt((double)(x)))
#define POTF2_ AXB_FN(omp_, chol_potf2)
#define RTRSM_ AXB_FN(omp_, chol_rtrsm)
#define RPOTRF_ AXB_FN(omp_, chol_rpotrf)
#define PANEL_ AXB_FN(omp_, chol_panel)
#define UPDATE_ AXB_FN(omp_, chol_update)
#define GEMM_ AXB_FN(axb_omp_, gemm_)
#define TRSM_ AXB_FN(axb_omp_, trsm_)
#define SYRK_ AXB_FN(axb_omp_, syrk_)

/* Unblocked Cholesky of an n x n block (right-looking for LOWER: column
   scaled by 1/l_jj, rank-1 update of the trailing lower part; UPPER is the
   same on rows).  Returns 0 or the 1-based failing minor. */
AXB_OMP_CLONES
static int64_t POTF2_(axb_uplo uplo, int64_t n, T *A, int64_t lda) {
  for (int64_t j = 0; j < n; ++j) {
    const T ajj = AT(A, lda, j, j);
    if (!(ajj > 0)) return j + 1;
    const T ljj = SQRT_(ajj), r = (T)1 / ljj;
    AT(A, lda, j, j) = ljj;
    if (uplo == AXB_LOWER) {
      T *l = &AT(A, lda, 0, j);
      for (int64_t i = j + 1; i < n; ++i)
        l[i] *= r;
      for (int64_t k = j + 1; k < n; ++k) {
        const T lkj = l[k];
        T *a = &AT(A, lda, 0, k);
        for (int64_t i = k; i < n; ++i)
          a[i] -= l[i] * lkj;
      }
    } else {
      for (int64_t c = j + 1; c < n; ++c)
        AT(A, lda, j, c) *= r;
      for (int64_t c = j + 1; c < n; ++c) {
        const T ujc = AT(A, lda, j, c);
        T *a = &AT(A, lda, 0, c);
        for (int64_t i = j + 1; i <= c; ++i)
          a[i] -= AT(A, lda, j, i) * ujc;
      }
    }
  }
  return 0;
}

/* The triangular solve of the recursion, itself recursive on halves of the
   n1 x n1 factor so that most flops run in GEMM (faster than the small
   triangular kernels):
     LOWER: B := B L^-T (B n2 x n1); with L = [La 0; Lb Lc]:
            X1 = B1 La^-T,  B2 := B2 - X1 Lb^T,  X2 = B2 Lc^-T;
     UPPER: B := U^-T B (B n1 x n2); with U = [Ua Ub; 0 Uc]:
            X1 = Ua^-T B1,  B2 := B2 - Ub^T X1,  X2 = Uc^-T B2. */
static void RTRSM_(axb_uplo uplo, int64_t n1, int64_t n2, const T *L,
                   int64_t ldl, T *B, int64_t ldb, int64_t leaf) {
  if (n1 <= leaf) {
    if (uplo == AXB_LOWER)
      TRSM_(AXB_RIGHT, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT, n2, n1, (T)1, L, ldl,
            B, ldb);
    else
      TRSM_(AXB_LEFT, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, n1, n2, (T)1, L, ldl,
            B, ldb);
    return;
  }
  const int64_t h = n1 / 2;
  RTRSM_(uplo, h, n2, L, ldl, B, ldb, leaf);
  if (uplo == AXB_LOWER) {
    GEMM_(AXB_NO_TRANS, AXB_TRANS, n2, n1 - h, h, (T)-1, B, ldb,
          &AT(L, ldl, h, 0), ldl, (T)1, &AT(B, ldb, 0, h), ldb);
    RTRSM_(uplo, n1 - h, n2, &AT(L, ldl, h, h), ldl, &AT(B, ldb, 0, h), ldb,
           leaf);
  } else {
    GEMM_(AXB_TRANS, AXB_NO_TRANS, n1 - h, n2, h, (T)-1, &AT(L, ldl, 0, h), ldl,
          B, ldb, (T)1, &AT(B, ldb, h, 0), ldb);
    RTRSM_(uplo, n1 - h, n2, &AT(L, ldl, h, h), ldl, &AT(B, ldb, h, 0), ldb,
           leaf);
  }
}

/* Recursive Cholesky of an n x n block; 0 or the 1-based failing minor.
   tleaf: order below which the triangular solve calls trsm (RTRSM_). */
static int64_t RPOTRF_(axb_uplo uplo, int64_t n, T *A, int64_t lda,
                       int64_t tleaf) {
  const int tid = AXB_PROF_ON() ? axb_omp_thread_id() : 0;
  double t0 = AXB_PROF_T0();
  if (n <= OMP_CHOL_LEAF) {
    const int64_t bad = POTF2_(uplo, n, A, lda);
    AXB_PROF_ADD(tid, AXB_OMP_PH_LEAF, t0);
    return bad;
  }
  const int64_t n1 = n / 2, n2 = n - n1;
  const int64_t bad = RPOTRF_(uplo, n1, A, lda, tleaf);
  if (bad) return bad;
  T *A22 = &AT(A, lda, n1, n1);
  t0 = AXB_PROF_T0();
  if (uplo == AXB_LOWER) {
    T *A21 = &AT(A, lda, n1, 0);
    RTRSM_(AXB_LOWER, n1, n2, A, lda, A21, lda, tleaf);
    t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_RTRSM, t0);
    SYRK_(AXB_LOWER, AXB_NO_TRANS, n2, n1, (T)-1, A21, lda, (T)1, A22, lda);
  } else {
    T *A12 = &AT(A, lda, 0, n1);
    RTRSM_(AXB_UPPER, n1, n2, A, lda, A12, lda, tleaf);
    t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_RTRSM, t0);
    SYRK_(AXB_UPPER, AXB_TRANS, n2, n1, (T)-1, A12, lda, (T)1, A22, lda);
  }
  AXB_PROF_ADD(tid, AXB_OMP_PH_RGEMM, t0);
  const int64_t bad2 = RPOTRF_(uplo, n2, A22, lda, tleaf);
  return bad2 ? bad2 + n1 : 0;
}

/* Panel J = [j, j+jb): factor the diagonal block, then the block column
   below it (LOWER) or block row right of it (UPPER).  0 or 1-based
   failing minor relative to j. */
static int64_t PANEL_(axb_uplo uplo, int64_t n, T *A, int64_t lda, int64_t j,
                      int64_t jb) {
  T *Ajj = &AT(A, lda, j, j);
  const int64_t bad = RPOTRF_(uplo, jb, Ajj, lda, OMP_CHOL_TRSM_LEAF);
  if (bad) return bad;
  const int64_t rest = n - j - jb;
  if (rest <= 0) return 0;
  if (uplo == AXB_LOWER)
    TRSM_(AXB_RIGHT, AXB_LOWER, AXB_TRANS, AXB_NON_UNIT, rest, jb, (T)1, Ajj,
          lda, &AT(A, lda, j + jb, j), lda);
  else
    TRSM_(AXB_LEFT, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, jb, rest, (T)1, Ajj,
          lda, &AT(A, lda, j, j + jb), lda);
  return 0;
}

/* Trailing update of the piece [c0, c1) (columns for LOWER, rows for
   UPPER) by the panel J = [j, j+jb). */
static void UPDATE_(axb_uplo uplo, int64_t n, T *A, int64_t lda, int64_t j,
                    int64_t jb, int64_t c0, int64_t c1) {
  const int64_t w = c1 - c0;
  if (w <= 0) return;
  if (uplo == AXB_LOWER) {
    const T *Lc = &AT(A, lda, c0, j);
    SYRK_(AXB_LOWER, AXB_NO_TRANS, w, jb, (T)-1, Lc, lda, (T)1,
          &AT(A, lda, c0, c0), lda);
    if (c1 < n)
      GEMM_(AXB_NO_TRANS, AXB_TRANS, n - c1, w, jb, (T)-1, &AT(A, lda, c1, j),
            lda, Lc, lda, (T)1, &AT(A, lda, c1, c0), lda);
  } else {
    const T *Uc = &AT(A, lda, j, c0);
    SYRK_(AXB_UPPER, AXB_TRANS, w, jb, (T)-1, Uc, lda, (T)1,
          &AT(A, lda, c0, c0), lda);
    if (c1 < n)
      GEMM_(AXB_TRANS, AXB_NO_TRANS, w, n - c1, jb, (T)-1, Uc, lda,
            &AT(A, lda, j, c1), lda, (T)1, &AT(A, lda, c0, c1), lda);
  }
}

axb_status AXB_FN(axb_omp_, potrf)(axb_handle h, axb_uplo uplo, int64_t n, T *A,
                                   int64_t lda, int64_t *info) {
  if (!axb_omp_fits_int(n, lda))
    return AXB_FN(axb_ref_, potrf)(h, uplo, n, A, lda, info);
  if (info) *info = 0;
  const int nt = axb_omp_threads(h);
  int64_t bad = 0; /* 0-based failing column + 1, or 0 */
  if (nt > 1 && n > axb_omp_env_int("AXB_CHOL_SMALL", OMP_CHOL_SMALL) &&
      axb_omp_use_hybrid(nt, n, 1)) {
    /* Hybrid path (many threads): the recursion on the whole matrix with
       OpenBLAS threaded (nt threads) in every trsm, gemm and syrk, called
       from this thread outside any OpenMP region. */
    const int sv = axb_omp_blas_begin_threaded(nt);
    const double tp = axb_omp_prof_begin(nt, 3);
    bad = RPOTRF_(uplo, n, A, lda,
                  axb_omp_env_int("AXB_HYB_TRSM_LEAF", OMP_HYB_TRSM_LEAF));
    axb_omp_prof_end(tp);
    axb_omp_blas_end_threaded(sv, nt);
    goto done;
  }
  const int saved = axb_omp_blas_begin();
  const int64_t nb = axb_omp_env_int("AXB_CHOL_NB", OMP_CHOL_NB(n, nt));
  const int64_t small = axb_omp_env_int("AXB_CHOL_SMALL", OMP_CHOL_SMALL);
  if (n <= axb_omp_env_int("AXB_CHOL_DIRECT", OMP_CHOL_DIRECT)) {
    bad = POTF2_(uplo, n, A, lda);
  } else if (nt == 1 || n <= small || nb < 8 || nb >= n) {
    bad = RPOTRF_(uplo, n, A, lda, OMP_CHOL_TRSM_LEAF);
  } else {
    const int64_t nsteps = (n + nb - 1) / nb;
    int64_t stop_step = nsteps; /* first step whose panel failed */
    const int64_t b0 = PANEL_(uplo, n, A, lda, 0, nb);
    if (b0) {
      bad = b0;
      stop_step = 0;
    }
    axb_omp_bar bar = {0, 0};
    AXB_OMP(parallel num_threads(nt) if (stop_step > 0)) {
      int64_t bounds[AXB_OMP_MAX_PARTS + 1];
      int sense = 0;
      for (int64_t k = 0; k < nsteps; ++k) {
        int64_t stop;
        AXB_OMP(atomic read)
        stop = stop_step;
        /* Panel k failed: a write of this step (value k + 1) cannot make
           the test true, so every thread leaves at the same k. */
        if (stop <= k) break;
        const int64_t j = k * nb, jb = n - j < nb ? n - j : nb;
        const int64_t j1 = j + jb;
        const int64_t jb1 = k + 1 < nsteps ? (n - j1 < nb ? n - j1 : nb) : 0;
        const int parts =
            axb_omp_split_tri(j1 + jb1, n, 16, OMP_CHOL_PARTS(nt), bounds);
        AXB_OMP(single nowait)
        if (jb1 > 0) {
          UPDATE_(uplo, n, A, lda, j, jb, j1, j1 + jb1);
          const int64_t pb = PANEL_(uplo, n, A, lda, j1, jb1);
          if (pb) {
            bad = j1 + pb;
            AXB_OMP(atomic write)
            stop_step = k + 1;
          }
        }
        AXB_OMP(for schedule(dynamic, 1) nowait)
        for (int q = 0; q < parts; ++q)
          UPDATE_(uplo, n, A, lda, j, jb, bounds[q], bounds[q + 1]);
        axb_omp_barrier(&bar, &sense); /* panel k+1 and step k done */
      }
    }
  }
  axb_omp_blas_end(saved);
done:
  return bad ? axb__not_spd(h, info, bad, "potrf") : AXB_SUCCESS;
}

#undef AT
#undef SQRT_
#undef POTF2_
#undef RTRSM_
#undef RPOTRF_
#undef PANEL_
#undef UPDATE_
#undef GEMM_
#undef TRSM_
#undef SYRK_
