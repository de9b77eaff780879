/*
 * LU with partial pivoting, P A = L U, for the CPU backend, in T (template,
 * see core/template.h).  Needs OpenBLAS (AXB_HAVE_LAPACK).
 *
 * Panel: recursive LU (Toledo 1997; also LAPACK's getrf2).  An m x n panel
 * is split into column halves n1 + n2:
 *     [A11 A12]      factor [A11; A21] recursively (pivots p1),
 *     [A21 A22]      apply p1 to [A12; A22],  A12 := L11^-1 A12 (trsm),
 *                    A22 := A22 - A21 A12 (gemm), factor A22 recursively
 *                    (pivots p2), apply p2 to [A21]... (rows n1.. of the left
 *                    half).
 * Almost all its flops are BLAS-3; only leaves of OMP_LU_LEAF columns run
 * our own (left-looking) loop.  The same recursion factors whole small
 * matrices.
 *
 * Large matrices: blocked right-looking LU with a look-ahead of depth one.
 * With nb-wide block columns, step k (panel columns J = [j, j+jb) already
 * factored) updates every column block C to the right:
 *     swap rows of C by the pivots of J;  C_J := L_JJ^-1 C_J (trsm);
 *     C_below := C_below - L_below,J C_J (gemm).
 * One thread (omp single nowait) updates the next block column first and
 * factors it as panel k+1, while the other threads (and that one, once done)
 * update the rest of the trailing matrix in column pieces (omp for, dynamic
 * schedule).  So the panel, a sequential and memory-bound computation, is
 * hidden behind the trailing GEMMs instead of stalling every thread.  The
 * interchanges of later panels on the columns left of them are applied at
 * the end, one column block per iteration.  From 8 threads the tiled
 * variant (TILED_ below) replaces the column pieces by a 2-D grid of gemm
 * tiles up to n = 8192; above that (and from n = 8192 on 2-7 threads) the
 * hybrid path (the recursion with OpenBLAS threaded, see omp.h) runs.
 *
 * Every piece is a fixed sequential computation on a fixed block (the cuts
 * depend on n, nb and the thread count only), so the factors are bitwise
 * the same on every run with the same thread count.
 */

#define AT(M, ld, i, j) (M)[(i) + (j) * (ld)]
#define ABS_(x) ((x) < 0 ? -(x) : (x))
#define GETF2_ AXB_FN(omp_, lu_getf2)
#define FWD_ AXB_FN(omp_, lu_fwd)
#define LCOL_ AXB_FN(omp_, lu_lcol)
#define BITS_ AXB_FN(omp_, lu_bits)
#define RGETF2_ AXB_FN(omp_, lu_rgetf2)
#define SWAPC_ AXB_FN(omp_, lu_swap_cols_rows)
#define UPDATE_ AXB_FN(omp_, lu_update)
#define RTRSM_ AXB_FN(omp_, lu_rtrsm)
#define GEMM_ AXB_FN(axb_omp_, gemm_)
#define TRSM_ AXB_FN(axb_omp_, trsm_)
#define SWAPR_ AXB_FN(omp_, lu_swap_rec)
#define LASWP_OB_ AXB_FN(axb_omp_, laswp_ob)
#define TILED_ AXB_FN(omp_, lu_tiled)
#define PHASE_A_ AXB_FN(omp_, lu_phase_a)
#define PANEL_ AXB_FN(omp_, lu_panel)

/* Interchanges ipiv[k1..k2-1] (1-based, relative to A's first row) on the
   n columns of A, a column at a time. */
static void SWAPC_(int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,
                   const int64_t *ipiv) {
  for (int64_t j = 0; j < n; ++j) {
    T *a = &AT(A, lda, 0, j);
    for (int64_t k = k1; k < k2; ++k) {
      const int64_t p = ipiv[k] - 1;
      const T x = a[k];
      a[k] = a[p];
      a[p] = x;
    }
  }
}

/* Forward substitution x := L^-1 x with the unit lower triangle of the
   first c rows and columns of A (the U part of a leaf column). */
AXB_OMP_INLINE void FWD_(int64_t c, const T *A, int64_t lda, T *x) {
  for (int64_t r = 1; r < c; ++r) {
    T s = x[r];
    for (int64_t q = 0; q < r; ++q)
      s -= AT(A, lda, r, q) * x[q];
    x[r] = s;
  }
}

/* Rows [i0, i0 + len) of leaf column x, len <= OMP_LU_ROWS:
   x_i -= sum_{q<c} L_iq u_q (u = x[0..c), L = A's first c columns); the
   rows stay in L1 while the c columns of L stream past once.  Then the
   first largest |x_i| of the rows, merged into (*p, *big) as LAPACK's
   i?amax (first index of the maximum; NaN never compares larger; i0 == c
   starts): the maximum is found on the bit patterns of |x_i| (for
   non-negative IEEE numbers the same order as the values), a loop that
   vectorizes; the scalar compare runs only on a chunk with a NaN. */
AXB_OMP_INLINE void LCOL_(int64_t i0, int64_t len, int64_t c, const T *A,
                          int64_t lda, T *x, int64_t *p, T *big) {
  T *y = x + i0;
  int64_t q = 0;
  /* Four columns per pass over y (the same operations in the same order
     as one at a time, a quarter of the loads and stores of y). */
  for (; q + 4 <= c; q += 4) {
    const T u0 = x[q], u1 = x[q + 1], u2 = x[q + 2], u3 = x[q + 3];
    const T *l0 = &AT(A, lda, i0, q), *l1 = l0 + lda, *l2 = l1 + lda,
            *l3 = l2 + lda;
    for (int64_t i = 0; i < len; ++i)
      y[i] = (((y[i] - l0[i] * u0) - l1[i] * u1) - l2[i] * u2) - l3[i] * u3;
  }
  for (; q < c; ++q) {
    const T u = x[q];
    const T *l = &AT(A, lda, i0, q);
    for (int64_t i = 0; i < len; ++i)
      y[i] -= l[i] * u;
  }
  const BITS_ sign = (BITS_)1 << (8 * sizeof(BITS_) - 1);
  const T inf = (T)INFINITY;
  BITS_ infb, mx = 0;
  memcpy(&infb, &inf, sizeof infb);
  for (int64_t i = 0; i < len; ++i) {
    BITS_ b;
    memcpy(&b, &y[i], sizeof b);
    b &= ~sign;
    mx = b > mx ? b : mx;
  }
  if (mx > infb) { /* a NaN in the chunk */
    int64_t i = 0;
    if (i0 == c) {
      *big = ABS_(y[0]);
      *p = c;
      i = 1;
    }
    for (; i < len; ++i)
      if (ABS_(y[i]) > *big) {
        *big = ABS_(y[i]);
        *p = i0 + i;
      }
    return;
  }
  T cm;
  memcpy(&cm, &mx, sizeof cm);
  if (i0 == c || cm > *big) {
    int64_t i = 0;
    for (;; ++i) {
      BITS_ b;
      memcpy(&b, &y[i], sizeof b);
      if ((b & ~sign) == mx) break;
    }
    *big = cm;
    *p = i0 + i;
  }
}

/* Unblocked LU of an m x n block (the recursion's leaves; n is small or m
   is), left-looking (Crout order, as LAPACK's getf2 through gemv): column
   c is first brought up to date by the c factored columns left of it, u =
   L11^-1 a_top and a_below -= L_below u, then pivot = first largest
   |a_ic| (i >= c), swap within the block, scale the column by 1/pivot.
   Each column reads the factored part once, where the right-looking
   rank-1 form streamed the whole block through the caches once per
   column (3x the memory traffic: that loop was half of a panel's time).
   An exact zero pivot: the column below is zero, record it and go on
   (LAPACK).  Columns beyond min(m, n) (wide blocks) get the triangular
   solve.  Returns the block-relative 1-based info or 0. */
AXB_OMP_CLONES
static int64_t GETF2_(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv) {
  int64_t info = 0;
  const int64_t mn = m < n ? m : n;
  for (int64_t c = 0; c < mn; ++c) {
    T *col = &AT(A, lda, 0, c);
    FWD_(c, A, lda, col);
    int64_t p = c;
    T big = 0;
    for (int64_t i0 = c; i0 < m; i0 += OMP_LU_ROWS)
      LCOL_(i0, m - i0 < OMP_LU_ROWS ? m - i0 : OMP_LU_ROWS, c, A, lda, col, &p,
            &big);
    ipiv[c] = p + 1;
    const T piv = col[p];
    if (piv != (T)0) {
      if (p != c)
        for (int64_t j = 0; j < n; ++j) {
          const T x = AT(A, lda, c, j);
          AT(A, lda, c, j) = AT(A, lda, p, j);
          AT(A, lda, p, j) = x;
        }
      /* Multiply by the reciprocal when it is safe (as LAPACK's getf2). */
      if (ABS_(piv) >= AXB_SAFMIN(T)) {
        const T r = (T)1 / piv;
        for (int64_t i = c + 1; i < m; ++i)
          col[i] *= r;
      } else {
        for (int64_t i = c + 1; i < m; ++i)
          col[i] /= piv;
      }
    } else if (info == 0) {
      info = c + 1;
    }
  }
  for (int64_t j = mn; j < n; ++j)
    FWD_(mn, A, lda, &AT(A, lda, 0, j));
  return info;
}

/* B := L^-1 B for the unit lower triangular n1 x n1 L, recursively on
   halves of L: X1 = L11^-1 B1, B2 := B2 - L21 X1 (gemm), X2 = L22^-1 B2,
   so that most of the flops run in GEMM, whose small-size kernels are
   faster than the triangular ones (trsm only on OMP_LU_TRSM_LEAF rows). */
static void RTRSM_(int64_t n1, int64_t n2, const T *L, int64_t ldl, T *B,
                   int64_t ldb, int64_t leaf) {
  if (n1 <= leaf) {
    TRSM_(AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, n1, n2, (T)1, L, ldl, B,
          ldb);
    return;
  }
  const int64_t h = n1 / 2;
  RTRSM_(h, n2, L, ldl, B, ldb, leaf);
  GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, n1 - h, n2, h, (T)-1, &AT(L, ldl, h, 0),
        ldl, B, ldb, (T)1, &AT(B, ldb, h, 0), ldb);
  RTRSM_(n1 - h, n2, &AT(L, ldl, h, h), ldl, &AT(B, ldb, h, 0), ldb, leaf);
}

/* Interchanges of the recursion: our column loop, or OpenBLAS's ?laswp
   (threaded by OpenBLAS) on the hybrid path (ibuf != NULL) when the block
   is large enough for the threads to pay. */
static void SWAPR_(int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,
                   const int64_t *ipiv, int *ibuf) {
  if (ibuf && (double)n * (double)(k2 - k1) >= OMP_LU_LASWP_MIN)
    LASWP_OB_(n, A, lda, k1, k2, ipiv, ibuf);
  else
    SWAPC_(n, A, lda, k1, k2, ipiv);
}

/* Recursive LU of the m x n block (see the file comment); ipiv relative to
   the block's first row, 1-based; returns block-relative info or 0.
   ibuf: NULL, or int workspace (min(m, n) entries, indexed like ipiv) for
   the threaded interchanges of the hybrid path.  leaf: width of the
   unblocked leaves; tleaf: rows below which the triangular solve calls
   trsm (see RTRSM_). */
static int64_t RGETF2_(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv,
                       int *ibuf, int64_t leaf, int64_t tleaf) {
  const int64_t mn = m < n ? m : n;
  const int tid = AXB_PROF_ON() ? axb_omp_thread_id() : 0;
  double t0 = AXB_PROF_T0();
  if (mn <= leaf) {
    const int64_t info = GETF2_(m, n, A, lda, ipiv);
    AXB_PROF_ADD(tid, AXB_OMP_PH_LEAF, t0);
    return info;
  }
  const int64_t n1 = mn / 2, n2 = n - n1;
  const int64_t info1 = RGETF2_(m, n1, A, lda, ipiv, ibuf, leaf, tleaf);
  T *A12 = &AT(A, lda, 0, n1);
  t0 = AXB_PROF_T0();
  SWAPR_(n2, A12, lda, 0, n1, ipiv, ibuf);
  AXB_PROF_ADD(tid, AXB_OMP_PH_RSWAP, t0);
  t0 = AXB_PROF_T0();
  RTRSM_(n1, n2, A, lda, A12, lda, tleaf);
  AXB_PROF_ADD(tid, AXB_OMP_PH_RTRSM, t0);
  int64_t info2 = 0;
  if (m > n1) {
    t0 = AXB_PROF_T0();
    GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, m - n1, n2, n1, (T)-1, &AT(A, lda, n1, 0),
          lda, A12, lda, (T)1, &AT(A, lda, n1, n1), lda);
    AXB_PROF_ADD(tid, AXB_OMP_PH_RGEMM, t0);
    info2 = RGETF2_(m - n1, n2, &AT(A, lda, n1, n1), lda, ipiv + n1,
                    ibuf ? ibuf + n1 : NULL, leaf, tleaf);
    const int64_t mn2 = m - n1 < n2 ? m - n1 : n2;
    for (int64_t i = n1; i < n1 + mn2; ++i)
      ipiv[i] += n1;
    t0 = AXB_PROF_T0();
    SWAPR_(n1, A, lda, n1, n1 + mn2, ipiv, ibuf);
    AXB_PROF_ADD(tid, AXB_OMP_PH_RSWAP, t0);
  }
  return info1 ? info1 : (info2 ? info2 + n1 : 0);
}

/* Update of the columns [c0, c1) by the factored panel J = [j, j+jb):
   interchanges, C_J := L_JJ^-1 C_J, C_below -= L_below,J C_J. */
static void UPDATE_(int64_t m, T *A, int64_t lda, const int64_t *ipiv,
                    int64_t j, int64_t jb, int64_t c0, int64_t c1) {
  const int64_t w = c1 - c0;
  if (w <= 0) return;
  T *C = &AT(A, lda, 0, c0);
  SWAPC_(w, C, lda, j, j + jb, ipiv);
  TRSM_(AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_UNIT, jb, w, (T)1,
        &AT(A, lda, j, j), lda, &AT(C, lda, j, 0), lda);
  if (j + jb < m)
    GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, m - j - jb, w, jb, (T)-1,
          &AT(A, lda, j + jb, j), lda, &AT(C, lda, j, 0), lda, (T)1,
          &AT(C, lda, j + jb, 0), lda);
}

/* Factor the panel of columns [j1, j1 + jb1) below row j1 (the look-ahead
   panel), its pivots made global; *first: the first zero pivot so far
   (1-based, 0 if none). */
static void PANEL_(int64_t m, T *A, int64_t lda, int64_t *ipiv, int64_t j1,
                   int64_t jb1, int64_t *first) {
  const int64_t pinfo = RGETF2_(m - j1, jb1, &AT(A, lda, j1, j1), lda,
                                ipiv + j1, NULL, OMP_LU_LEAF, OMP_LU_TRSM_LEAF);
  for (int64_t i = j1; i < j1 + jb1; ++i)
    ipiv[i] += j1;
  if (*first == 0 && pinfo > 0) *first = j1 + pinfo;
}

/* Phase A of a tiled step: claim the column pieces ab[q]..ab[q+1] right
   of the look-ahead block one by one, apply the step's row swaps to each
   and solve with the unit L11: U12 = L11^-1 P A12.  Any thread may run any
   piece; each piece is a fixed computation, so the result does not depend
   on who ran it.  stop: NULL, or a counter at whose value stopv the
   caller stops taking pieces (the next block column is ready for its
   gemm); tleaf: see RTRSM_. */
static void PHASE_A_(T *A, int64_t lda, int64_t j, int64_t jb,
                     const int64_t *ipiv, const int64_t *ab, int pa,
                     int *claim_a, int *done_a, int tid, const int *stop,
                     int stopv, int64_t tleaf) {
  int q;
  while ((!stop || __atomic_load_n(stop, __ATOMIC_ACQUIRE) < stopv) &&
         (q = __atomic_fetch_add(claim_a, 1, __ATOMIC_RELAXED)) < pa) {
    const int64_t w = ab[q + 1] - ab[q];
    T *C = &AT(A, lda, 0, ab[q]);
    double t0 = AXB_PROF_T0();
    SWAPC_(w, C, lda, j, j + jb, ipiv);
    AXB_PROF_ADD(tid, AXB_OMP_PH_SWAP, t0);
    t0 = AXB_PROF_T0();
    RTRSM_(jb, w, &AT(A, lda, j, j), lda, &AT(C, lda, j, 0), lda, tleaf);
    AXB_PROF_ADD(tid, AXB_OMP_PH_TRSM, t0);
    __atomic_add_fetch(done_a, 1, __ATOMIC_RELEASE);
  }
}

/* Tiled look-ahead path (many threads, AXB_LU_TILED), after the structure
   of OpenBLAS's threaded getrf, with single-threaded BLAS calls on fixed
   blocks.  In step k (panel J = [j, j+jb) factored, next panel J1 =
   [j1, j1+jb1), the rest R = [c2, n) with c2 = j1 + jb1, rows below the
   panel B = [j+jb, m)):
     thread 0:   interchanges and C_J := L_JJ^-1 C_J on J1, then (with any
                 thread that is free) the gemm of B x J1 in row tiles; once
                 all of those are done it factors J1 as panel k+1;
     the others: the interchanges and trsm of R in column pieces (phase A),
                 then the B x J1 tiles, then the gemm of B x R on a grid of
                 nearly square tiles (phase B); thread 0 joins phase B when
                 its panel is done.
   So the only serial work per step is the panel (m - j1) x jb1, factored
   while the other threads run the trailing gemm; its cost m nb^2 hides
   behind the update 2 m (n - j) nb / (T - 1) while n - j > ~ (T - 1) nb.
   Square tiles pack each block of L and U once per tile row / column,
   where thin column pieces re-pack the whole of L_B,J for every piece.
   Pieces and tiles are claimed through atomic counters (ctr: OMP_LU_CTRS
   per step, zeroed by the caller); each is a fixed sequential computation
   on a fixed block, the cuts depending on (m, n, nb, threads) only, so the
   result is bitwise the same whichever thread runs what.  Returns the
   first zero pivot (1-based) or 0. */
static int64_t TILED_(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv,
                      int nt, int64_t nb, int *ctr) {
  const int64_t mn = m < n ? m : n;
  const int64_t nsteps = (mn + nb - 1) / nb;
  const int64_t tiles_env =
      axb_omp_env_int("AXB_LU_TILES", OMP_LU_TILES_PER_THREAD);
  const int tiles_per_thread =
      tiles_env < 1 ? 1
                    : (tiles_env > AXB_OMP_MAX_PARTS ? AXB_OMP_MAX_PARTS
                                                     : (int)tiles_env);
  int64_t first = RGETF2_(m, nb < mn ? nb : mn, A, lda, ipiv, NULL, OMP_LU_LEAF,
                          OMP_LU_TRSM_LEAF);
  axb_omp_bar bar = {0, 0};
  /* Knobs of the step's order (off by default, see omp_lu.c): j1first: the
     threads other than 0 stop taking phase A pieces as soon as J1 is ready and
     take its gemm tiles first, so that thread 0 starts the panel (the critical
     path) sooner; rtrsm: the triangular solves of J1 and phase A recursive down
     to OMP_LU_TRSM_LEAF rows (their flops in gemm) instead of one trsm;
     j1split: J1's interchanges and trsm in 16-column pieces that any
     thread takes, rather than all by thread 0 (whose caches do not hold
     J1: the other threads updated it in the step before). */
  const int j1first = axb_omp_env_int("AXB_LU_J1FIRST", OMP_LU_J1FIRST) != 0;
  const int j1split = axb_omp_env_int("AXB_LU_J1SPLIT", OMP_LU_J1SPLIT) != 0;
  const int64_t tleaf = axb_omp_env_int("AXB_LU_RTRSM", OMP_LU_RTRSM)
                            ? OMP_LU_TRSM_LEAF
                            : INT64_MAX;
  AXB_OMP(parallel num_threads(nt)) {
    const int tid = axb_omp_thread_id();
    int64_t cb[AXB_OMP_MAX_PARTS + 1], rb[AXB_OMP_MAX_PARTS + 1];
    int64_t ab[AXB_OMP_MAX_PARTS + 1], jr[AXB_OMP_MAX_PARTS + 1];
    int64_t j1b[AXB_OMP_MAX_PARTS + 1];
    int sense = 0;
    for (int64_t k = 0; k < nsteps; ++k) {
      int *c = &ctr[OMP_LU_CTRS * k];
      int *claim_a = c, *done_a = c + 1, *j1_ready = c + 2, *claim_j = c + 3,
          *done_j = c + 4, *claim_b = c + 5, *claim_j1 = c + 6;
      const int64_t j = k * nb, jb = mn - j < nb ? mn - j : nb;
      const int64_t j1 = j + jb;
      const int64_t jb1 = k + 1 < nsteps ? (mn - j1 < nb ? mn - j1 : nb) : 0;
      const int64_t c2 = j1 + jb1, r0 = j + jb;
      const int64_t ncols = n - c2, nrows = m - r0;
      /* Phase A: a piece per thread.  J1's gemm: row tiles, a few per
         thread.  Phase B: about tiles_per_thread x nt tiles, pc columns x
         pr rows with pc / pr ~ ncols / nrows. */
      const int pa = axb_omp_split(c2, n, 16, nt, ab);
      const int pj1 = axb_omp_split(j1, c2, 16, j1split ? nt : 1, j1b);
      const int pj =
          jb1 > 0 && nrows > 0 ? axb_omp_split(r0, m, 16, 2 * nt, jr) : 0;
      int pc = 0, pr = 0;
      if (ncols > 0 && nrows > 0) {
        int want = tiles_per_thread * nt;
        want = want < 1 ? 1
                        : (want > AXB_OMP_MAX_PARTS ? AXB_OMP_MAX_PARTS : want);
        int w = (int)(sqrt((double)want * (double)ncols / (double)nrows) + 0.5);
        w = w < 1 ? 1 : (w > want ? want : w);
        pc = axb_omp_split(c2, n, 16, w, cb);
        pr = axb_omp_split(r0, m, 16, (want + w - 1) / w, rb);
      }
      int q;
      double t0 = AXB_PROF_T0();
      /* J1's interchanges and trsm (pieces counted in j1_ready). */
      if (j1split || tid == 0)
        while ((q = __atomic_fetch_add(claim_j1, 1, __ATOMIC_RELAXED)) < pj1) {
          const int64_t w = j1b[q + 1] - j1b[q];
          T *C = &AT(A, lda, 0, j1b[q]);
          SWAPC_(w, C, lda, j, j + jb, ipiv);
          t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_SWAP, t0);
          RTRSM_(jb, w, &AT(A, lda, j, j), lda, &AT(C, lda, j, 0), lda, tleaf);
          t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_TRSM, t0);
          __atomic_add_fetch(j1_ready, 1, __ATOMIC_RELEASE);
        }
      if (tid != 0)
        PHASE_A_(A, lda, j, jb, ipiv, ab, pa, claim_a, done_a, tid,
                 j1first ? j1_ready : NULL, pj1, tleaf);
      t0 = AXB_PROF_T0();
      axb_omp_wait_until(j1_ready, pj1);
      t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_WAITJ, t0);
      while ((q = __atomic_fetch_add(claim_j, 1, __ATOMIC_RELAXED)) < pj) {
        GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, jr[q + 1] - jr[q], jb1, jb, (T)-1,
              &AT(A, lda, jr[q], j), lda, &AT(A, lda, j, j1), lda, (T)1,
              &AT(A, lda, jr[q], j1), lda);
        __atomic_add_fetch(done_j, 1, __ATOMIC_RELEASE);
      }
      t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_GEMM, t0);
      if (tid == 0) {
        if (jb1 > 0) {
          axb_omp_wait_until(done_j, pj);
          t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_WAITJ, t0);
          PANEL_(m, A, lda, ipiv, j1, jb1, &first);
          AXB_PROF_ADD(tid, AXB_OMP_PH_PANEL, t0);
        }
      }
      /* Phase A pieces nobody has taken yet. */
      PHASE_A_(A, lda, j, jb, ipiv, ab, pa, claim_a, done_a, tid, NULL, 0,
               tleaf);
      t0 = AXB_PROF_T0();
      axb_omp_wait_until(done_a, pa);
      t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_WAITA, t0);
      while ((q = __atomic_fetch_add(claim_b, 1, __ATOMIC_RELAXED)) < pr * pc) {
        const int qc = q / pr, qr = q % pr;
        GEMM_(AXB_NO_TRANS, AXB_NO_TRANS, rb[qr + 1] - rb[qr],
              cb[qc + 1] - cb[qc], jb, (T)-1, &AT(A, lda, rb[qr], j), lda,
              &AT(A, lda, j, cb[qc]), lda, (T)1, &AT(A, lda, rb[qr], cb[qc]),
              lda);
      }
      t0 = AXB_PROF_ADD_(tid, AXB_OMP_PH_GEMM, t0);
      axb_omp_barrier(&bar, &sense); /* panel k+1 and step k done */
      AXB_PROF_ADD(tid, AXB_OMP_PH_WAIT, t0);
    }
    /* Interchanges of the panels right of each block column. */
    const double t0 = AXB_PROF_T0();
    AXB_OMP(for schedule(dynamic, 1) nowait)
    for (int64_t k = 0; k < nsteps - 1; ++k)
      SWAPC_(nb, &AT(A, lda, 0, k * nb), lda, (k + 1) * nb, mn, ipiv);
    AXB_PROF_ADD(tid, AXB_OMP_PH_TAIL, t0);
  }
  return first;
}

axb_status AXB_FN(axb_omp_, getrf)(axb_handle h, int64_t m, int64_t n, T *A,
                                   int64_t lda, int64_t *ipiv, int64_t *info) {
  if (!axb_omp_fits_int(m, n) || !axb_omp_fits_int(lda, 0))
    return AXB_FN(axb_ref_, getrf)(h, m, n, A, lda, ipiv, info);
  const int64_t mn = m < n ? m : n;
  const int nt = axb_omp_threads(h);
  int64_t first = 0;
  const int64_t small0 = axb_omp_env_int("AXB_LU_SMALL", OMP_LU_SMALL);
  if (nt > 1 && mn > small0 && axb_omp_use_hybrid(nt, mn, 0)) {
    const int64_t tiled = axb_omp_env_int("AXB_LU_TILED", -1);
    if (tiled > 0 ||
        (tiled < 0 && nt >= OMP_LU_TILED_THREADS &&
         mn <= axb_omp_env_int("AXB_LU_TILED_MAX", OMP_LU_TILED_MAX))) {
      /* Tiled look-ahead (single-threaded BLAS in nt OpenMP threads). */
      const int64_t nb = axb_omp_env_int("AXB_LU_NB", OMP_LU_TILED_NB(mn));
      int *ctr = nb >= 8 && nb < mn
                     ? calloc((size_t)(OMP_LU_CTRS * ((mn + nb - 1) / nb)),
                              sizeof *ctr)
                     : NULL;
      if (ctr) {
        const int sv = axb_omp_blas_begin();
        const double tp = axb_omp_prof_begin(nt, 1);
        first = TILED_(m, n, A, lda, ipiv, nt, nb, ctr);
        axb_omp_prof_end(tp);
        axb_omp_blas_end(sv);
        free(ctr);
        goto done;
      }
    }
    /* Hybrid path (many threads): the recursion on the whole matrix with
       OpenBLAS threaded (nt threads) in every gemm, trsm and interchange,
       called from this thread outside any OpenMP region. */
    int *ibuf = malloc((size_t)mn * sizeof *ibuf);
    if (ibuf) {
      const int sv = axb_omp_blas_begin_threaded(nt);
      const double tp = axb_omp_prof_begin(nt, 2);
      first = RGETF2_(m, n, A, lda, ipiv, ibuf,
                      axb_omp_env_int("AXB_HYB_LU_LEAF", OMP_HYB_LU_LEAF),
                      axb_omp_env_int("AXB_HYB_TRSM_LEAF", OMP_HYB_TRSM_LEAF));
      axb_omp_prof_end(tp);
      axb_omp_blas_end_threaded(sv, nt);
      free(ibuf);
      goto done;
    }
  }
  const int saved = axb_omp_blas_begin();
  const int64_t nb = axb_omp_env_int("AXB_LU_NB", OMP_LU_NB(mn, nt));
  const int64_t small = axb_omp_env_int("AXB_LU_SMALL", OMP_LU_SMALL);
  const int parts_per_step =
      (int)axb_omp_env_int("AXB_LU_PARTS", OMP_LU_PARTS(nt));
  const int guided = axb_omp_env_int("AXB_LU_GUIDED", OMP_LU_GUIDED) != 0;
  if (nt == 1 || mn <= small || nb < 8 || nb >= mn) {
    /* Small or single-threaded: the recursion on the whole matrix, no task
       machinery at all. */
    first = RGETF2_(m, n, A, lda, ipiv, NULL, OMP_LU_LEAF, OMP_LU_TRSM_LEAF);
  } else {
    const int64_t nsteps = (mn + nb - 1) / nb;
    first = RGETF2_(m, nb, A, lda, ipiv, NULL, OMP_LU_LEAF, OMP_LU_TRSM_LEAF);
    axb_omp_bar bar = {0, 0};
    AXB_OMP(parallel num_threads(nt)) {
      int64_t bounds[AXB_OMP_MAX_PARTS + 1];
      int sense = 0;
      for (int64_t k = 0; k < nsteps; ++k) {
        const int64_t j = k * nb, jb = mn - j < nb ? mn - j : nb;
        const int64_t j1 = j + jb; /* next panel */
        const int64_t jb1 = k + 1 < nsteps ? (mn - j1 < nb ? mn - j1 : nb) : 0;
        const int parts =
            guided
                ? axb_omp_split_guided(j1 + jb1, n, 16, parts_per_step, bounds)
                : axb_omp_split(j1 + jb1, n, 16, parts_per_step, bounds);
        AXB_OMP(single nowait)
        if (jb1 > 0) {
          UPDATE_(m, A, lda, ipiv, j, jb, j1, j1 + jb1);
          PANEL_(m, A, lda, ipiv, j1, jb1, &first);
        }
        AXB_OMP(for schedule(dynamic, 1) nowait)
        for (int q = 0; q < parts; ++q)
          UPDATE_(m, A, lda, ipiv, j, jb, bounds[q], bounds[q + 1]);
        axb_omp_barrier(&bar, &sense); /* panel k+1 and step k done */
      }
      /* Interchanges of the panels right of each block column. */
      AXB_OMP(for schedule(dynamic, 1))
      for (int64_t k = 0; k < nsteps - 1; ++k)
        SWAPC_(nb, &AT(A, lda, 0, k * nb), lda, (k + 1) * nb, mn, ipiv);
    }
  }
  axb_omp_blas_end(saved);
done:
  return axb__zero_pivot(h, info, first, "getrf", "U");
}

#undef AT
#undef ABS_
#undef GETF2_
#undef FWD_
#undef LCOL_
#undef BITS_
#undef RGETF2_
#undef SWAPC_
#undef UPDATE_
#undef RTRSM_
#undef GEMM_
#undef TRSM_
#undef SWAPR_
#undef LASWP_OB_
#undef TILED_
#undef PHASE_A_
#undef PANEL_
