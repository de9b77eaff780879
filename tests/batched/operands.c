/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): the operands: mixed batches of general
   and SPD problems (singular, ill-conditioned, tied pivots, mostly zero,
   scaled) and the reference backend's info and pivots for each. */

/* General problem k of a mixed batch: uniform, singular (zero column n/2),
   ill-conditioned, diagonally dominant, uniform in [-1000, 1000]. */
static int sparse_mode, tie_mode;
/* scale_exp != 0: every matrix times 2^scale_exp (the ill-conditioned kind
   replaced by the diagonally dominant one, whose inverse stays in range):
   pivots and reciprocals near the ends of the exponent range (2^+-1003 in
   double, 2^+-102 in float), where the pivot keys' magnitude bits and the
   reciprocals must still be right. */
static int scale_exp;
/* packed_mode: A with lda = n and no gap, B with ldb = n and no gap (the
   CUDA kernels' packed copies at n = NMAX, and their packed tiles at
   n <= 6); otherwise lda = n + 1 and a gap of 3, ldb = n + 2 and a gap
   of 1 */
static int packed_mode;
static int64_t pivots_compared; /* problems whose pivots were REF's-checked */
static axb_dense gen_ties(int64_t n, axb_dtype t, int64_t k);
static axb_dense gen_general(int64_t n, axb_dtype t, int64_t k) {
  if (tie_mode) return gen_ties(n, t, k);
  static const axb_gen_kind kinds[] = {AXB_GEN_UNIFORM, AXB_GEN_SINGULAR,
                                       AXB_GEN_COND, AXB_GEN_DIAG_DOMINANT,
                                       AXB_GEN_UNIFORM1000};
  axb_gen_kind kind = kinds[k % 5];
  if (scale_exp && kind == AXB_GEN_COND) kind = AXB_GEN_DIAG_DOMINANT;
  const double kappa = t == AXB_F64 ? 1e7 : 1e3;
  axb_dense A =
      test_gen(href, kind, n, t, kappa, -1, 1000 + (uint64_t)(7 * k + n));
  if (scale_exp)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        axb_dense_set(&A, i, j, ldexp(axb_dense_get(&A, i, j), scale_exp));
  /* sparse_mode: about two thirds of the off-diagonal entries zeroed, so
     that elimination steps meet exact zero multipliers in every
     combination (the CPU kernels skip zero updates, one or both of a
     pair of steps). The diagonal stays: singular only where the kind
     is. */
  if (sparse_mode)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t hsh = (uint32_t)i * 73856093u ^ (uint32_t)j * 19349663u ^
                             (uint32_t)k * 83492791u;
        if (i != j && (hsh >> 7) % 3 != 0) axb_dense_set(&A, i, j, 0.0);
      }
  return A;
}
/* Tie problem k (tie_mode, declared above): exactly equal magnitudes in the
   pivot columns, so that partial pivoting breaks ties at nearly every step (the
   group kernels' argmax must take the first row in the current order, as LAPACK
   does, and never a lane without a candidate).  Rows and columns are
   permuted and signs flipped by a hash of (i, k), so the tied rows sit on
   different lanes and warps.
     k % 4 == 0: direct sum of Sylvester-Hadamard blocks (+-1) of orders
                 <= 16 (orthogonal blocks: nonsingular, condition <= 4;
                 factored exactly, so REF's pivots are checked);
     k % 4 == 1: the same times 1000;
     k % 4 == 2: a signed permutation, every other entry +0.0 or -0.0;
     k % 4 == 3: the same with column n/2 all zeros (singular, info
                 n/2 + 1). */
static uint32_t tie_hash(int64_t i, int64_t k, uint32_t salt) {
  uint32_t x = (uint32_t)i * 2654435761u ^ (uint32_t)k * 40503u ^ salt;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return x;
}
/* Entry (i, j) of the block-Hadamard matrix of order n: blocks of order
   16 while they fit, then one of order 2^b for each set bit b of n mod 16,
   largest first.  (Up to order 16 partial pivoting factors a Sylvester-
   Hadamard block exactly; from 32 on its factors are not all dyadic.) */
static double hadamard_sum(int64_t n, int64_t i, int64_t j) {
  int64_t off = 16 * (n / 16);
  if (i < off && j < off) {
    if (i / 16 != j / 16) return 0.0;
    return __builtin_popcount((unsigned)((i % 16) & (j % 16))) & 1 ? -1.0 : 1.0;
  }
  for (int b = 3; b >= 0; --b) {
    const int64_t m = (int64_t)1 << b;
    if (!(n & m)) continue;
    if (i >= off && i < off + m && j >= off && j < off + m)
      return __builtin_popcount((unsigned)((i - off) & (j - off))) & 1 ? -1.0
                                                                       : 1.0;
    off += m;
  }
  return 0.0;
}
static axb_dense gen_ties(int64_t n, axb_dtype t, int64_t k) {
  axb_dense A = test_alloc(n, n, n, t);
  /* row and column permutations: sort indices by a hash (selection) */
  int64_t *pr = malloc((size_t)(2 * n + 1) * sizeof(int64_t)), *pc = pr + n;
  if (!pr) exit(1);
  for (int64_t i = 0; i < n; ++i)
    pr[i] = pc[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t a = (int64_t)(tie_hash(i, k, 11u) % (uint32_t)(i + 1));
    const int64_t b = (int64_t)(tie_hash(i, k, 29u) % (uint32_t)(i + 1));
    int64_t x = pr[i];
    pr[i] = pr[a];
    pr[a] = x;
    x = pc[i];
    pc[i] = pc[b];
    pc[b] = x;
  }
  const int kind = (int)(k % 4);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t si = pr[i], sj = pc[j];
      double v;
      if (kind < 2) {
        v = hadamard_sum(n, si, sj) * (kind == 1 ? 1000.0 : 1.0);
        if (tie_hash(si, k, 7u) & 1) v = -v;
      } else {
        v = si == sj ? ((tie_hash(si, k, 3u) & 1) ? -1.0 : 1.0)
                     : ((tie_hash(si * n + sj, k, 5u) & 1) ? -0.0 : 0.0);
        if (kind == 3 && j == n / 2) v = (tie_hash(i, k, 9u) & 1) ? -0.0 : 0.0;
      }
      axb_dense_set(&A, i, j, v);
    }
  free(pr);
  return A;
}

/* Frees a batch's count original problems and their array. */
static void originals_free(axb_dense *orig, int64_t count) {
  for (int64_t k = 0; k < count; ++k)
    axb_dense_destroy(&orig[k]);
  free(orig);
}

static int is_singular_kind(int64_t k) {
  return tie_mode ? k % 4 == 3 : k % 5 == 1;
}

/* SPD problem k: shifted, Gram, badly scaled (D S D, D = 10^(0..3)), and
   every fourth one not SPD (A(n/2, n/2) = -1). */
static axb_dense gen_spd(int64_t n, axb_dtype t, int64_t k) {
  axb_dense A =
      test_gen(href, k % 4 == 1 ? AXB_GEN_SPD_GRAM : AXB_GEN_SPD_SHIFT, n, t, 0,
               -1, 2000 + (uint64_t)(5 * k + n));
  if (k % 4 == 2) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        const double di = pow(10.0, 3.0 * (double)i / (double)n);
        const double dj = pow(10.0, 3.0 * (double)j / (double)n);
        axb_dense_set(&A, i, j, axb_dense_get(&A, i, j) * di * dj);
      }
  }
  if (k % 4 == 3) axb_dense_set(&A, n / 2, n / 2, -1.0);
  return A;
}
static int not_spd_kind(int64_t k) { return k % 4 == 3; }

/* The right-hand sides of problem k (uniform, seed 3000 + k) into B. */
static void put_rhs(batch_buf *B, int64_t k) {
  const int64_t n = B->rows, nrhs = B->cols;
  axb_dense R = test_gen(href, AXB_GEN_UNIFORM, n > nrhs ? n : nrhs, B->t, 0,
                         -1, 3000 + (uint64_t)k);
  axb_dense Rv = axb_dense_wrap(n, nrhs, R.ld, B->t, R.data);
  buf_put(B, k, &Rv);
  axb_dense_destroy(&R);
}

/* Every entry of the n x n F a multiple of 2^-20 below 2^20 in magnitude:
   then LU with partial pivoting met only exact operations (a quotient or
   product that rounded would carry more bits than that). */
static int dyadic_factors(const axb_dense *F) {
  for (int64_t j = 0; j < F->cols; ++j)
    for (int64_t i = 0; i < F->rows; ++i) {
      const double x = axb_dense_get(F, i, j) * 1048576.0;
      if (!(fabs(x) < 1099511627776.0) || x != floor(x)) return 0;
    }
  return 1;
}

/* Reference info of the typed routine on the REF backend.  piv (n
   entries, may be NULL): REF's pivots when its factorization was exact
   (dyadic factors, as for the tie problems), else all 0. */
static int64_t ref_getrf_info_piv(const axb_dense *A, int64_t *piv) {
  axb_dense C = test_copy_ld(A, A->rows);
  int64_t *ipiv = test_new_ipiv(A->rows), info = -1;
  if (A->dtype == AXB_F64)
    axb_dgetrf(href, A->rows, A->rows, C.data, C.ld, ipiv, &info);
  else
    axb_sgetrf(href, A->rows, A->rows, C.data, C.ld, ipiv, &info);
  if (piv) {
    const int exact = info == 0 && dyadic_factors(&C);
    for (int64_t i = 0; i < A->rows; ++i)
      piv[i] = exact ? ipiv[i] : 0;
  }
  free(ipiv);
  axb_dense_destroy(&C);
  return info;
}
static int64_t ref_potrf_info(const axb_dense *A) {
  axb_dense C = test_copy_ld(A, A->rows);
  int64_t info = -1;
  if (A->dtype == AXB_F64)
    axb_dpotrf(href, AXB_LOWER, A->rows, C.data, C.ld, &info);
  else
    axb_spotrf(href, AXB_LOWER, A->rows, C.data, C.ld, &info);
  axb_dense_destroy(&C);
  return info;
}

static int *ints_side(int64_t count) {
  return side_alloc((size_t)(count ? count : 1) * sizeof(int));
}
static void ints_down(int *host, const int *side, int64_t count) {
  side_copy(host, side, (size_t)count * sizeof(int), 0);
}
