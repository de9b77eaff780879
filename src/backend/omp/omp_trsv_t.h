/*
 * Triangular solves with few right-hand sides in T (template, see
 * core/template.h; omp_trsv.c instantiates it): op(A) X = B, LEFT, alpha
 * = 1, X n x t with t small (the certified driver's solve with B and the
 * condition estimate's first block, then the estimate's two-column
 * steps; getrs/potrs with one right-hand side).
 *
 * Why not OpenBLAS: with so few columns a solve does ~t flops per entry
 * of the triangle it reads, so it runs at the speed A is read.  OpenBLAS's
 * trsm packs every block of A first (the 2-core VM, n = 1024, 2 columns:
 * 0.24 ms on one thread, against 0.074 ms for its trsv with one); the
 * earlier row split on top of it (every thread solving each 256-row
 * diagonal block with trsm, then its rows' gemm, one barrier per block)
 * took 0.15-0.23 ms on 2 threads, and on 16 threads its critical path
 * (the diagonal solves with their packing) made a two-column solve 10x
 * slower than reading the triangle.
 *
 * Here A is read once, in place, by plain loops (vectorised, ISA clones):
 * the rows are cut into blocks of NB; in solve order (downwards when
 * op(A) is lower, upwards when upper) block s belongs to thread s mod
 * team, which, for each earlier block q in solve order, once that block's
 * x_q is published,
 *     X_s := X_s - op(A)_sq x_q                (a tile of A, read once)
 * then solves its diagonal block x_s := op(A)_ss^-1 X_s and publishes it
 * (a flag per block; no barrier).  The tile is A(s, q) used by columns
 * (axpy: X_s -= A(:, k) x_k) when op(A) = A, A(q, s) used by rows (dots:
 * x_i -= A(:, i) . x_q) when op(A) = A^T; either way A is read along its
 * columns.  Each entry of X gets its updates in the fixed solve order of
 * the tiles, whatever the timing or the thread count: the result is
 * bitwise the same on any number of threads.
 *
 * A thread waiting for a block spins for a while, then sleeps on the flag
 * (futex): on a loaded machine a spinning waiter would hold the core its
 * partner needs (docs/notes/certificate.md: the spin barrier made the
 * estimate 30x slower beside two busy processes on the 2-core VM).
 */

/* Software prefetch of the len entries at p (a column segment of a tile
   that comes TRSV_AHEAD columns later).  A tile's columns are short runs
   (a block's rows) a whole column of A apart, which the hardware
   prefetchers do not follow: without it a solve waited for the cache at
   every column. */
AXB_OMP_INLINE void AXB_FN(trsv_prefetch_, )(const T *p, int64_t len) {
  for (int64_t i = 0; i < len; i += 64 / (int64_t)sizeof(T))
    __builtin_prefetch(p + i);
}

/* X(:, 0:t) rows [0, mb) -= A(0:mb, 0:kb) * Y(0:kb, 0:t): A by columns.
   Strips of TRSV_STRIP rows of two columns of X stay in registers while
   the kb columns of the tile go by: a store per strip, not per column of
   A (one column of A at a time, the loads and stores of X bounded the
   speed: 0.114 against 0.068 ms for the tiles of n = 1024 on one thread
   of the 2-core VM; strips of 16 rows were not kept in registers, 0.27).
   X is the thread's copy of its block (trsv_thread_). */
AXB_OMP_INLINE void AXB_FN(trsv_strip_, )(int64_t kb, const T *restrict A,
                                          int64_t lda, const T *restrict y0,
                                          const T *restrict y1, T *restrict x0,
                                          T *restrict x1) {
  T u[TRSV_STRIP], v[TRSV_STRIP];
  for (int i = 0; i < TRSV_STRIP; ++i)
    u[i] = x0[i], v[i] = x1[i];
  for (int64_t k = 0; k < kb; ++k) {
    const T *a = A + k * lda, s0 = y0[k], s1 = y1[k];
    for (int i = 0; i < TRSV_STRIP; ++i) {
      u[i] -= a[i] * s0;
      v[i] -= a[i] * s1;
    }
  }
  for (int i = 0; i < TRSV_STRIP; ++i)
    x0[i] = u[i], x1[i] = v[i];
}

/* The same for one column of X (y1 unused). */
AXB_OMP_INLINE void AXB_FN(trsv_strip1_, )(int64_t kb, const T *restrict A,
                                           int64_t lda, const T *restrict y0,
                                           T *restrict x0) {
  T u[TRSV_STRIP];
  for (int i = 0; i < TRSV_STRIP; ++i)
    u[i] = x0[i];
  for (int64_t k = 0; k < kb; ++k) {
    const T *a = A + k * lda, s0 = y0[k];
    for (int i = 0; i < TRSV_STRIP; ++i)
      u[i] -= a[i] * s0;
  }
  for (int i = 0; i < TRSV_STRIP; ++i)
    x0[i] = u[i];
}

/* trsv_strip_ for three columns of X (the driver's solve: B and the
   estimate's two first vectors), 3 x TRSV_STRIP values in registers (AVX-512:
   12 of its 32; taken only there: trsv_three_cols).  As a pair then a
   single the tile was read twice: one thread, n = 1024, L and U with
   t = 3 took 0.267-0.274 ms, now 0.209-0.218 (bench_trsv, 2-core VM, load
   ~10, interleaved).  Strips of TRSV_STRIP / 2 rows were slower than the
   pair and single (0.43-0.49 ms): four sweeps over each column of the
   tile. */
AXB_OMP_INLINE void AXB_FN(trsv_strip3_, )(int64_t kb, const T *restrict A,
                                           int64_t lda, const T *restrict y0,
                                           const T *restrict y1,
                                           const T *restrict y2, T *restrict x0,
                                           T *restrict x1, T *restrict x2) {
  enum { H = TRSV_STRIP };
  T u[H], v[H], w[H];
  for (int i = 0; i < H; ++i)
    u[i] = x0[i], v[i] = x1[i], w[i] = x2[i];
  for (int64_t k = 0; k < kb; ++k) {
    const T *a = A + k * lda, s0 = y0[k], s1 = y1[k], s2 = y2[k];
    for (int i = 0; i < H; ++i) {
      u[i] -= a[i] * s0;
      v[i] -= a[i] * s1;
      w[i] -= a[i] * s2;
    }
  }
  for (int i = 0; i < H; ++i)
    x0[i] = u[i], x1[i] = v[i], x2[i] = w[i];
}

/* trsv_axpy_'s last three columns (t odd, t >= 3): X(:, 0:3) -= A Y(:, 0:3)
   by strips, the last rows column by column. */
AXB_OMP_INLINE void AXB_FN(trsv_axpy3_, )(int64_t mb, int64_t kb,
                                          const T *restrict A, int64_t lda,
                                          const T *restrict Y, int64_t ldy,
                                          T *restrict X, int64_t ldx) {
  const int64_t H = TRSV_STRIP, ms = mb / H * H;
  const T *y0 = Y, *y1 = y0 + ldy, *y2 = y1 + ldy;
  T *x0 = X, *x1 = x0 + ldx, *x2 = x1 + ldx;
  for (int64_t i = 0; i < ms; i += H)
    AXB_FN(trsv_strip3_, )
  (kb, A + i, lda, y0, y1, y2, x0 + i, x1 + i, x2 + i);
  for (int64_t k = 0; k < kb && ms < mb; ++k) {
    const T *a = A + k * lda;
    for (int64_t i = ms; i < mb; ++i) {
      x0[i] -= a[i] * y0[k];
      x1[i] -= a[i] * y1[k];
      x2[i] -= a[i] * y2[k];
    }
  }
}

AXB_OMP_CLONES
static void AXB_FN(trsv_axpy_, )(int64_t mb, int64_t kb, int64_t t,
                                 const T *restrict A, int64_t lda,
                                 const T *restrict Y, int64_t ldy,
                                 T *restrict X, int64_t ldx) {
  const int64_t ms = mb / TRSV_STRIP * TRSV_STRIP;
  for (int64_t c = 0; c < t; c += 2) {
    if (t - c == 3 && trsv_three_cols()) {
      AXB_FN(trsv_axpy3_, )(mb, kb, A, lda, Y + c * ldy, ldy, X + c * ldx, ldx);
      break;
    }
    const int two = c + 1 < t;
    T *x0 = X + c * ldx, *x1 = x0 + ldx;
    const T *y0 = Y + c * ldy, *y1 = y0 + ldy;
    for (int64_t i = 0; i < ms; i += TRSV_STRIP) {
      if (two)
        AXB_FN(trsv_strip_, )(kb, A + i, lda, y0, y1, x0 + i, x1 + i);
      else
        AXB_FN(trsv_strip1_, )(kb, A + i, lda, y0, x0 + i);
    }
    for (int64_t k = 0; k < kb && ms < mb; ++k) { /* the last rows */
      const T *a = A + k * lda;
      for (int64_t i = ms; i < mb; ++i)
        x0[i] -= a[i] * y0[k];
      if (two)
        for (int64_t i = ms; i < mb; ++i)
          x1[i] -= a[i] * y1[k];
    }
  }
}

/* trsv_dots_ for three columns of X and Y at once (the driver's solve:
   B and the estimate's two first vectors): four columns of A against the
   three of Y, twelve sums.  In pairs the third column was a second sweep
   over the tile with its partner's sums wasted: one thread, n = 1024,
   L^T with t = 3 took 0.32-0.44 ms against 0.21-0.23 with t = 2
   (bench_trsv, 2-core VM under load ~11); 0.34-0.38 against 0.26-0.29
   in an interleaved rerun, U^T 0.34 against 0.26. */
AXB_OMP_INLINE void AXB_FN(trsv_dots3_, )(int64_t mb, int64_t kb, int pf,
                                          const T *restrict A, int64_t lda,
                                          const T *restrict Y, int64_t ldy,
                                          T *restrict X, int64_t ldx) {
  const T *y0 = Y, *y1 = y0 + ldy, *y2 = y1 + ldy;
  T *x0 = X, *x1 = x0 + ldx, *x2 = x1 + ldx;
  int64_t i = 0;
  for (; i + 4 <= mb; i += 4) {
    const T *a0 = A + i * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    if (pf)
      for (int q = 0; q < 4; ++q)
        AXB_FN(trsv_prefetch_, )(a0 + (TRSV_AHEAD + q) * lda, kb);
    T p0 = 0, p1 = 0, p2 = 0, p3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;
    T r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    AXB_OMP(simd reduction(+ : p0, p1, p2, p3, q0, q1, q2, q3, r0, r1, r2, r3))
    for (int64_t k = 0; k < kb; ++k) {
      p0 += a0[k] * y0[k], q0 += a0[k] * y1[k], r0 += a0[k] * y2[k];
      p1 += a1[k] * y0[k], q1 += a1[k] * y1[k], r1 += a1[k] * y2[k];
      p2 += a2[k] * y0[k], q2 += a2[k] * y1[k], r2 += a2[k] * y2[k];
      p3 += a3[k] * y0[k], q3 += a3[k] * y1[k], r3 += a3[k] * y2[k];
    }
    x0[i] -= p0, x0[i + 1] -= p1, x0[i + 2] -= p2, x0[i + 3] -= p3;
    x1[i] -= q0, x1[i + 1] -= q1, x1[i + 2] -= q2, x1[i + 3] -= q3;
    x2[i] -= r0, x2[i + 1] -= r1, x2[i + 2] -= r2, x2[i + 3] -= r3;
  }
  for (; i < mb; ++i) {
    const T *a0 = A + i * lda;
    T p0 = 0, q0 = 0, r0 = 0;
    AXB_OMP(simd reduction(+ : p0, q0, r0))
    for (int64_t k = 0; k < kb; ++k)
      p0 += a0[k] * y0[k], q0 += a0[k] * y1[k], r0 += a0[k] * y2[k];
    x0[i] -= p0, x1[i] -= q0, x2[i] -= r0;
  }
}

/* X(i, 0:t) -= A(0:kb, i) . Y(0:kb, 0:t) for i < mb: A by rows (dots
   along its columns), four columns of A against two of Y at a time (eight
   sums, each a vector of partial sums: the loads of Y are shared); an odd
   t >= 3 ends with three columns at a time (trsv_dots3_). */
AXB_OMP_CLONES
static void AXB_FN(trsv_dots_, )(int64_t mb, int64_t kb, int64_t t,
                                 const T *restrict A, int64_t lda,
                                 const T *restrict Y, int64_t ldy,
                                 T *restrict X, int64_t ldx) {
  for (int64_t c = 0; c < t; c += 2) {
    if (t - c == 3) {
      AXB_FN(trsv_dots3_, )
      (mb, kb, c == 0, A, lda, Y + c * ldy, ldy, X + c * ldx, ldx);
      break;
    }
    const int two = c + 1 < t;
    const T *y0 = Y + c * ldy, *y1 = two ? y0 + ldy : y0;
    T *x0 = X + c * ldx, *x1 = x0 + ldx;
    int64_t i = 0;
    for (; i + 4 <= mb; i += 4) {
      const T *a0 = A + i * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
      if (c == 0)
        for (int q = 0; q < 4; ++q)
          AXB_FN(trsv_prefetch_, )(a0 + (TRSV_AHEAD + q) * lda, kb);
      T p0 = 0, p1 = 0, p2 = 0, p3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;
      AXB_OMP(simd reduction(+ : p0, p1, p2, p3, q0, q1, q2, q3))
      for (int64_t k = 0; k < kb; ++k) {
        p0 += a0[k] * y0[k], q0 += a0[k] * y1[k];
        p1 += a1[k] * y0[k], q1 += a1[k] * y1[k];
        p2 += a2[k] * y0[k], q2 += a2[k] * y1[k];
        p3 += a3[k] * y0[k], q3 += a3[k] * y1[k];
      }
      x0[i] -= p0, x0[i + 1] -= p1, x0[i + 2] -= p2, x0[i + 3] -= p3;
      if (two) x1[i] -= q0, x1[i + 1] -= q1, x1[i + 2] -= q2, x1[i + 3] -= q3;
    }
    for (; i < mb; ++i) {
      const T *a0 = A + i * lda;
      T p0 = 0, q0 = 0;
      AXB_OMP(simd reduction(+ : p0, q0))
      for (int64_t k = 0; k < kb; ++k)
        p0 += a0[k] * y0[k], q0 += a0[k] * y1[k];
      x0[i] -= p0;
      if (two) x1[i] -= q0;
    }
  }
}

/* The diagonal block: X (w x t, ld ldx) := op(D)^-1 X, D = A's w x w block
   at its diagonal (ld lda), op(D) lower when `down` (D lower, or D upper
   transposed), else upper; `cols`: op(D) = D (column-oriented
   substitution: x_k final, then x_i -= d_ik x_k), else op(D) = D^T
   (row-oriented: x_k -= D(:, k) . x over the solved part, then divided).
   X is the thread's copy (restrict: no aliasing checks in the short inner
   loops, which are the solve's critical path). */
AXB_OMP_CLONES
static void AXB_FN(trsv_diag_, )(int down, int cols, int unit, int64_t w,
                                 int64_t t, const T *restrict D, int64_t lda,
                                 T *restrict X, int64_t ldx) {
  for (int64_t c = 0; c < t; ++c) {
    T *restrict x = X + c * ldx;
    for (int64_t s = 0; s < w; ++s) {
      const int64_t k = down ? s : w - 1 - s;
      const T *restrict d = D + k * lda; /* column k of D */
      const int64_t i0 = down == cols ? k + 1 : 0, i1 = down == cols ? w : k;
      if (cols) {
        if (!unit) x[k] /= d[k];
        const T xk = x[k];
        for (int64_t i = i0; i < i1; ++i)
          x[i] -= d[i] * xk;
      } else {
        T sum = 0;
        AXB_OMP(simd reduction(+ : sum))
        for (int64_t i = i0; i < i1; ++i)
          sum += d[i] * x[i];
        x[k] -= sum;
        if (!unit) x[k] /= d[k];
      }
    }
  }
}

/* One thread's blocks: s = tid, tid + team, ... in solve order.  Each
   block's rows of X are worked on in a copy (xb, ld j->ldb, in the
   thread's part of j->room: heap, not the stack of a caller's thread) placed
   half a page away from A's columns (trsv_axpy_), written back when solved. */
static void AXB_FN(trsv_thread_, )(const axb_omp_trsv_job *j, int tid, int team,
                                   const T *A, T *X) {
  const int64_t nb = j->nb, NB = j->block, m = j->m, t = j->t;
  const int64_t lda = j->lda, ldx = j->ldx, page = 4096 / sizeof(T);
  T *room = (T *)j->room + (int64_t)tid * j->room_each;
  const int64_t ldb = j->ldb;
  for (int64_t s = tid; s < nb; s += team) {
    if (s < j->zero) continue; /* zero rows, zero solution */
    const int64_t b = j->down ? s : nb - 1 - s;
    const int64_t r0 = b * NB, r1 = r0 + NB < m ? r0 + NB : m, w = r1 - r0;
    /* xb - (A + r0) = page / 2 modulo a page */
    const uintptr_t off = ((uintptr_t)(A + r0) - (uintptr_t)room) / sizeof(T);
    T *xb = room + (off + page / 2) % page;
    for (int64_t c = 0; c < t; ++c)
      memcpy(xb + c * ldb, X + r0 + c * ldx, (size_t)w * sizeof(T));
    for (int64_t done = j->zero; done < s;) {
      axb_omp_trsv_wait(j, done);
      int64_t ready = done + 1;
      while (ready < s && axb_omp_trsv_ready(j, ready))
        ++ready;
      for (int64_t q = done; q < ready; ++q) {
        const int64_t pb = j->down ? q : nb - 1 - q;
        const int64_t p0 = pb * NB, p1 = p0 + NB < m ? p0 + NB : m;
        if (j->cols) AXB_FN(trsv_axpy_, )
        (w, p1 - p0, t, A + r0 + p0 * lda, lda, X + p0, ldx, xb, ldb);
        else AXB_FN(trsv_dots_, )(w, p1 - p0, t, A + p0 + r0 * lda, lda, X + p0,
                                  ldx, xb, ldb);
      }
      done = ready;
    }
    AXB_FN(trsv_diag_, )
    (j->down, j->cols, j->unit, w, t, A + r0 + r0 * lda, lda, xb, ldb);
    for (int64_t c = 0; c < t; ++c)
      memcpy(X + r0 + c * ldx, xb + c * ldb, (size_t)w * sizeof(T));
    axb_omp_trsv_publish(j, s);
  }
}

int AXB_FN(axb_omp_, trsv_few)(axb_uplo uplo, axb_trans trans, axb_diag diag,
                               int64_t m, int64_t t, const T *A, int64_t lda,
                               T *X, int64_t ldx, int nt) {
  axb_omp_trsv_job j;
  if (m <= 0 || t <= 0) return 0;
  if (axb_omp_trsv_job_init(&j, uplo, trans, diag, m, t, lda, ldx, sizeof(T),
                            nt))
    return 1;
  /* Leading blocks (in solve order) whose rows of X are zero in every
     column: their solution is zero and they update nothing (the estimate's
     unit vectors e_i: L^-1 e_i starts at row i).  Skipped, as the
     reference BLAS skips zero entries. */
  for (; j.zero < j.nb; ++j.zero) {
    const int64_t b = j.down ? j.zero : j.nb - 1 - j.zero;
    const int64_t r0 = b * j.block, r1 = r0 + j.block < m ? r0 + j.block : m;
    int nz = 0;
    for (int64_t c = 0; c < t && !nz; ++c)
      for (int64_t i = r0; i < r1 && !nz; ++i)
        nz = X[i + c * ldx] != 0;
    if (nz) break;
  }
  AXB_OMP(parallel num_threads(nt) if (nt > 1 && j.nb > 1))
  AXB_FN(trsv_thread_, )
  (&j, axb_omp_thread_id(), axb_omp_threads_in_team(), A, X);
  axb_omp_trsv_job_free(&j);
  return 0;
}
