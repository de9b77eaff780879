/*
 * Triangular solves through the typed API, axb_[ds]trsm: all 16
 * side/uplo/trans/diag combinations, alpha in {1, -0.5, 0}, sizes from 1 x 1
 * to beyond the block width and not multiples of it, lda and ldb larger
 * than needed.  The triangle of A that must not be read holds NaN, and so
 * does its diagonal when diag = UNIT; the padding of B holds NaN and must
 * not be written.  op(A) X = alpha B (LEFT) is judged by the solve residual
 * of DESIGN.md against the dense matrix M = op(A) (unit diagonal restored);
 * X op(A) = alpha B (RIGHT) as op(A)^T X^T = alpha B^T.  alpha = 0 gives
 * X = 0 even when B holds NaN.  A few columns on 1-3 threads (the CPU
 * backend's own solve for them) at sizes around its 64-row block, and a
 * NaN in B, which must reach exactly the rows of X that depend on it.
 * AXB_TEST_PER_BACKEND
 */
#include "testing.h"

static axb_handle h;

/* The stored operand: the uplo triangle of a well-scaled triangular matrix
   (diagonal in [1, 2]: AXB_GEN_UPPER, transposed for LOWER), NaN elsewhere,
   NaN on the diagonal when it must not be read, NaN padding. */
static axb_dense stored_a(int64_t k, axb_uplo uplo, axb_diag diag, axb_dtype t,
                          uint64_t seed) {
  axb_dense U = test_gen(h, AXB_GEN_UPPER, k, t, 0, 0, seed);
  axb_dense A = test_alloc(k, k, k + 2, t);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k + 2; ++i) {
      const int in = i < k && (uplo == AXB_UPPER ? i <= j : i >= j);
      double v = NAN;
      if (in && !(i == j && diag == AXB_UNIT))
        v = uplo == AXB_UPPER ? axb_dense_get(&U, i, j)
                              : axb_dense_get(&U, j, i);
      axb_dense_set(&A, i, j, v);
    }
  axb_dense_destroy(&U);
  return A;
}

/* Dense M(i,j) = op(A)(i,j), or its transpose when `transposed`. */
static axb_dense dense_op(const axb_dense *A, axb_uplo uplo, axb_trans tr,
                          axb_diag diag, int transposed) {
  const int64_t k = A->rows;
  axb_dense M = test_alloc(k, k, k > 0 ? k : 1, AXB_F64);
  const int flip = (tr == AXB_TRANS) != (transposed != 0);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) {
      const int64_t r = flip ? j : i, c = flip ? i : j; /* entry of A */
      const int in = uplo == AXB_UPPER ? r <= c : r >= c;
      double v = in ? axb_dense_get(A, r, c) : 0;
      if (r == c && diag == AXB_UNIT) v = 1;
      axb_dense_set(&M, i, j, v);
    }
  return M;
}

/* m x n random B (uniform(-1,1) from the generator), NaN padding. */
static axb_dense random_b(int64_t m, int64_t n, axb_dtype t, uint64_t seed) {
  const int64_t big = m > n ? m : n;
  axb_dense G = test_gen(h, AXB_GEN_UNIFORM, big, t, 0, 0, seed);
  axb_dense W = axb_dense_wrap(m, n, G.ld, t, G.data); /* leading block */
  axb_dense B = test_copy_ld(&W, m + 3);
  axb_dense_destroy(&G);
  return B;
}

/* Copy of the rows x cols block (transposed when asked), times s, in a
   fresh matrix of the same dtype. */
static axb_dense scaled_copy(const axb_dense *B, double s, int transposed) {
  const int64_t r = transposed ? B->cols : B->rows;
  const int64_t c = transposed ? B->rows : B->cols;
  axb_dense D = test_alloc(r, c, r > 0 ? r : 1, B->dtype);
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < r; ++i)
      axb_dense_set(
          &D, i, j,
          s * (transposed ? axb_dense_get(B, j, i) : axb_dense_get(B, i, j)));
  return D;
}

static axb_status trsm(axb_side sd, axb_uplo ul, axb_trans tr, axb_diag dg,
                       double alpha, const axb_dense *A, axb_dense *B) {
  if (A->dtype == AXB_F64)
    return axb_dtrsm(h, sd, ul, tr, dg, B->rows, B->cols, alpha, A->data, A->ld,
                     B->data, B->ld);
  return axb_strsm(h, sd, ul, tr, dg, B->rows, B->cols, (float)alpha, A->data,
                   A->ld, B->data, B->ld);
}

static void one_case(axb_side sd, axb_uplo ul, axb_trans tr, axb_diag dg,
                     int64_t m, int64_t n, double alpha, axb_dtype t) {
  char what[128];
  snprintf(what, sizeof what, "%s %s %s %s m=%lld n=%lld alpha=%g %s",
           sd == AXB_LEFT ? "left" : "right",
           ul == AXB_UPPER ? "upper" : "lower",
           tr == AXB_TRANS ? "trans" : "notrans",
           dg == AXB_UNIT ? "unit" : "nonunit", (long long)m, (long long)n,
           alpha, axb_dtype_name(t));
  const int64_t k = sd == AXB_LEFT ? m : n;
  const uint64_t seed = 1000 + (uint64_t)(m * 7 + n);
  axb_dense A = stored_a(k, ul, dg, t, seed);
  axb_dense B = random_b(m, n, t, seed + 1);
  if (alpha == 0) /* B must not be read */
    for (int64_t j = 0; j < n; ++j)
      axb_dense_set(&B, 0, j, NAN);
  axb_dense X = test_copy_ld(&B, B.ld); /* B with its NaN padding */
  axb_status st = trsm(sd, ul, tr, dg, alpha, &A, &X);
  CHECK_STATUS(h, st, AXB_SUCCESS);
  CHECK(test_padding_intact(&X), "%s: wrote outside B", what);
  if (alpha == 0) {
    int zero = 1;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        zero &= axb_dense_get(&X, i, j) == 0;
    CHECK(zero, "%s: X is not 0", what);
  } else {
    /* LEFT: M = op(A), M X = alpha B.  RIGHT: M = op(A)^T, M X^T = alpha
       B^T. */
    const int right = sd == AXB_RIGHT;
    axb_dense M = dense_op(&A, ul, tr, dg, right);
    axb_dense Xc = scaled_copy(&X, 1, right);
    axb_dense Bc = scaled_copy(&B, alpha, right);
    CHECK_RATIO(axb_check_solve(&M, &Xc, &Bc), "%s", what);
    axb_dense_destroy(&M);
    axb_dense_destroy(&Xc);
    axb_dense_destroy(&Bc);
  }
  axb_dense_destroy(&X);
  axb_dense_destroy(&B);
  axb_dense_destroy(&A);
}

static void all_cases(axb_dtype t) {
  const int64_t shapes[][2] = {{1, 1},  {1, 3},   {3, 1},   {2, 2},   {3, 2},
                               {17, 5}, {33, 31}, {65, 70}, {100, 33}};
  const double alphas[] = {1, -0.5, 0};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s)
    for (int sd = 0; sd < 2; ++sd)
      for (int ul = 0; ul < 2; ++ul)
        for (int tr = 0; tr < 2; ++tr)
          for (int dg = 0; dg < 2; ++dg)
            for (size_t a = 0; a < sizeof alphas / sizeof *alphas; ++a)
              one_case((axb_side)sd, (axb_uplo)ul, (axb_trans)tr, (axb_diag)dg,
                       shapes[s][0], shapes[s][1], alphas[a], t);
}

/* A few columns (at most 16) with alpha = 1: the CPU backend's own solve
   (omp_trsv_t.h: blocks of 64 rows, threads over the blocks, per-block
   flags), from 64 rows.  Sizes around and between the block, odd, and
   large; 1 to 3 threads (every combination of triangle, transpose and
   diagonal); 17 columns take OpenBLAS's path. */
static void few_column_cases(void) {
  const int saved = axb_get_threads(h);
  const int64_t ms[] = {64, 65, 127, 129, 300, 1107};
  const int64_t ts[] = {1, 2, 3, 5, 16, 17};
  for (int nt = 1; nt <= 3; ++nt) {
    axb_set_threads(h, nt);
    for (size_t a = 0; a < sizeof ms / sizeof *ms; ++a)
      for (size_t b = 0; b < sizeof ts / sizeof *ts; ++b) {
        if (ms[a] > 300 && ts[b] > 3) continue; /* time */
        for (int ul = 0; ul < 2; ++ul)
          for (int tr = 0; tr < 2; ++tr)
            for (int dg = 0; dg < 2; ++dg)
              one_case(AXB_LEFT, (axb_uplo)ul, (axb_trans)tr, (axb_diag)dg,
                       ms[a], ts[b], 1,
                       (a + b + (size_t)nt) % 2 ? AXB_F64 : AXB_F32);
      }
  }
  axb_set_threads(h, saved);
}

/* A NaN in B reaches every entry of X that depends on it, and only those:
   the solve neither drops nor invents it (rows after the NaN's in solve
   order are NaN, the rows before it finite).  The CPU backend's own solve
   and the reference only: a blocked device trsm (OpenCL) may spread a NaN
   further, which the BLAS allows. */
static void few_column_nan(void) {
  const axb_backend be = axb_handle_backend(h);
  if (be != AXB_BACKEND_CPU && be != AXB_BACKEND_REF) return;
  const int saved = axb_get_threads(h);
  const int64_t m = 333, r = 150;
  axb_set_threads(h, 3);
  for (int ul = 0; ul < 2; ++ul)
    for (int tr = 0; tr < 2; ++tr) {
      axb_dense A = stored_a(m, (axb_uplo)ul, AXB_NON_UNIT, AXB_F64, 77);
      axb_dense B = random_b(m, 2, AXB_F64, 78);
      axb_dense_set(&B, r, 1, NAN);
      CHECK_STATUS(
          h,
          trsm(AXB_LEFT, (axb_uplo)ul, (axb_trans)tr, AXB_NON_UNIT, 1, &A, &B),
          AXB_SUCCESS);
      const int down = (ul == AXB_LOWER) == (tr == AXB_NO_TRANS);
      int ok = 1;
      for (int64_t i = 0; i < m; ++i) {
        const int after = down ? i >= r : i <= r;
        ok &= isfinite(axb_dense_get(&B, i, 0)) &&
              (after ? isnan(axb_dense_get(&B, i, 1))
                     : isfinite(axb_dense_get(&B, i, 1)));
      }
      CHECK(ok, "NaN in B: uplo %d trans %d, wrong pattern in X", ul, tr);
      axb_dense_destroy(&A);
      axb_dense_destroy(&B);
    }
  axb_set_threads(h, saved);
}

/* Leading rows of B (in solve order) that are zero, as the condition
   estimate's unit vectors make them: the few-column solve skips their
   blocks; the answer must still solve the system (2 threads). */
static void few_column_zero_lead(void) {
  const int saved = axb_get_threads(h);
  const int64_t m = 517, z = 200; /* not a multiple of the 64-row block */
  axb_set_threads(h, 2);
  for (int ul = 0; ul < 2; ++ul)
    for (int tr = 0; tr < 2; ++tr) {
      const int down = (ul == AXB_LOWER) == (tr == AXB_NO_TRANS);
      axb_dense A = stored_a(m, (axb_uplo)ul, AXB_NON_UNIT, AXB_F64, 91);
      axb_dense B = random_b(m, 2, AXB_F64, 92);
      for (int64_t i = 0; i < z; ++i)
        for (int64_t c = 0; c < 2; ++c)
          axb_dense_set(&B, down ? i : m - 1 - i, c, 0);
      axb_dense_set(&B, down ? z + 5 : m - 1 - z - 5, 1, 0); /* one more */
      axb_dense X = test_copy_ld(&B, B.ld);
      CHECK_STATUS(
          h,
          trsm(AXB_LEFT, (axb_uplo)ul, (axb_trans)tr, AXB_NON_UNIT, 1, &A, &X),
          AXB_SUCCESS);
      axb_dense M = dense_op(&A, (axb_uplo)ul, (axb_trans)tr, AXB_NON_UNIT, 0);
      CHECK_RATIO(axb_check_solve(&M, &X, &B), "zero lead uplo %d trans %d", ul,
                  tr);
      int zero = 1;
      for (int64_t i = 0; i < z; ++i)
        zero &= axb_dense_get(&X, down ? i : m - 1 - i, 0) == 0;
      CHECK(zero, "zero lead uplo %d trans %d: X not 0 there", ul, tr);
      axb_dense_destroy(&M);
      axb_dense_destroy(&X);
      axb_dense_destroy(&B);
      axb_dense_destroy(&A);
    }
  axb_set_threads(h, saved);
}

/* Empty B: nothing happens, A and B may be NULL; a bad side is argument 1. */
static void edges(void) {
  CHECK_STATUS(h,
               axb_dtrsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, 0,
                         5, 1.0, NULL, 1, NULL, 1),
               AXB_SUCCESS);
  double a = 2, b = 3;
  CHECK_STATUS(h,
               axb_dtrsm(h, AXB_RIGHT, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, 4, 0,
                         1.0, &a, 1, NULL, 4),
               AXB_SUCCESS);
  CHECK_STATUS(h,
               axb_dtrsm(h, (axb_side)7, AXB_UPPER, AXB_TRANS, AXB_NON_UNIT, 1,
                         1, 1.0, &a, 1, &b, 1),
               -1);
  /* 1 x 1: x = alpha b / a, exactly 3 * 2 / 2 here. */
  CHECK_STATUS(h,
               axb_dtrsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_NON_UNIT, 1,
                         1, 2.0, &a, 1, &b, 1),
               AXB_SUCCESS);
  CHECK(b == 3, "1x1 trsm gave %g", b);
}

int main(int argc, char **argv) {
  h = test_handle(test_backend_arg(argc, argv));
  edges();
  all_cases(AXB_F64);
  all_cases(AXB_F32);
  few_column_cases();
  few_column_nan();
  few_column_zero_lead();
  axb_handle_destroy(h);
  return test_finish("test_trsm");
}
