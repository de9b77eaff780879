/*
 * GEMM for CPU devices (issue 29): C := alpha A op(B) + beta C, the
 * CPU-device path's products in place of CLBlast's (ocl_gemm.c).
 *
 * Why our own: CLBlast's Xgemm kernel is written for GPUs.  On PoCL 3.1
 * (Debian 12) tuned parameters ran it at 60 GFLOP/s on 2 cores, but
 * PoCL 5.0 (Ubuntu 24.04, the 16-core device host) scalarizes its vector
 * loads and then fails to vectorize its work-item loop ("loop control
 * flow is not understood by vectorizer"): 8.7 GFLOP/s on the same 2
 * cores, 24.5 on 16.  This kernel needs no work-item loop at all: one
 * work-item per work-group computes an MR x NR tile of C with explicit
 * vectors, the register-blocked outer-product form of CPU BLAS kernels:
 * for each p, the MR-row column segment of A (two vector loads) times
 * each of the NR entries of B's row p (broadcasts), accumulated in
 * 2 NR vector registers.  The NR columns are unrolled by hand because
 * PoCL turns LLVM's loop unrolling off.  With AVX-512 a double tile of
 * 16 x 8 keeps 16 of the 32 registers busy; with AVX2 half the lanes.
 *
 * op(A) = A only: the launcher transposes A into scratch first when the
 * caller asks for A^T (O(mk) against the product's O(mnk)).  op(B) = B or
 * B^T (tb), read as scalars either way.  beta == 0 does not read C (BLAS:
 * NaN in C does not propagate).  Tiles past C's last row are done by a
 * scalar loop, tiles past its last column by one column at a time.
 */
#ifdef AXB_FP64
typedef double8 vec_t;
#define VW 8
#define VLOAD vload8
#define VSTORE vstore8
#else
typedef float16 vec_t;
#define VW 16
#define VLOAD vload16
#define VSTORE vstore16
#endif
#define GEMM_MR (2 * VW) /* rows of a tile: two vectors */
#define GEMM_NR 8        /* columns of a tile */

/* Column j's accumulators, their update at step p (B's entry (p, j) at
   b[j * bc]), and C's column j0 + j := alpha acc + beta C. */
#define G_DECL(j) vec_t x##j = 0, y##j = 0;
#define G_STEP(j)                                                             \
  {                                                                           \
    const vec_t bv = (vec_t)b[(j)*bc];                                        \
    x##j += av * bv; /* contracted to an FMA where the CPU has one */    \
    y##j += aw * bv;                                                          \
  }
#define G_STORE(j) gemm_store(C + (long)(j)*ldc, x##j, y##j, alpha, beta);

static void gemm_store(global real_t *c, vec_t x, vec_t y, real_t alpha,
                       real_t beta) {
  if (beta == 0) {
    VSTORE(alpha * x, 0, c);
    VSTORE(alpha * y, 1, c);
  } else {
    VSTORE(alpha * x + beta * VLOAD(0, c), 0, c);
    VSTORE(alpha * y + beta * VLOAD(1, c), 1, c);
  }
}

/* A whole tile: MR rows from a (A's row i0, column 0), NR columns of B
   from b (entry (p, j) at b[p * bs + j * bc]), into C at c. */
static void gemm_tile(int k, real_t alpha, global const real_t *a, long lda,
                      global const real_t *b, long bs, long bc, real_t beta,
                      global real_t *C, long ldc) {
  G_DECL(0) G_DECL(1) G_DECL(2) G_DECL(3)
  G_DECL(4) G_DECL(5) G_DECL(6) G_DECL(7)
  for (int p = 0; p < k; ++p, a += lda, b += bs) {
    const vec_t av = VLOAD(0, a), aw = VLOAD(1, a);
    G_STEP(0) G_STEP(1) G_STEP(2) G_STEP(3)
    G_STEP(4) G_STEP(5) G_STEP(6) G_STEP(7)
  }
  G_STORE(0) G_STORE(1) G_STORE(2) G_STORE(3)
  G_STORE(4) G_STORE(5) G_STORE(6) G_STORE(7)
}

/* MR whole rows, the w < NR columns left at C's right edge. */
static void gemm_columns(int k, int w, real_t alpha, global const real_t *a,
                         long lda, global const real_t *b, long bs, long bc,
                         real_t beta, global real_t *C, long ldc) {
  for (int j = 0; j < w; ++j) {
    vec_t x = 0, y = 0;
    global const real_t *ap = a, *bp = b + j * bc;
    for (int p = 0; p < k; ++p, ap += lda, bp += bs) {
      const vec_t bv = (vec_t)*bp;
      x += VLOAD(0, ap) * bv;
      y += VLOAD(1, ap) * bv;
    }
    gemm_store(C + (long)j * ldc, x, y, alpha, beta);
  }
}

/* m x n C at c0 (ld ldc) := alpha A B + beta C, A m x k at a0, B k x n
   (tb: B^T, n x k stored) at b0.  One work-item per work-group and per
   MR x NR tile: global (ceil(m / MR), ceil(n / NR)), local (1, 1). */
kernel void gemm_cpu(int m, int n, int k, real_t alpha, global const real_t *A,
                     long a0, long lda, global const real_t *B, long b0,
                     long ldb, int tb, real_t beta, global real_t *C, long c0,
                     long ldc) {
  const int i0 = get_global_id(0) * GEMM_MR, j0 = get_global_id(1) * GEMM_NR;
  if (i0 >= m || j0 >= n) return;
  const long bs = tb ? ldb : 1, bc = tb ? 1 : ldb;
  global const real_t *a = A + a0 + i0;
  global const real_t *b = B + b0 + j0 * bc;
  global real_t *c = C + c0 + i0 + (long)j0 * ldc;
  const int w = min(GEMM_NR, n - j0);
  if (i0 + GEMM_MR <= m && w == GEMM_NR) {
    gemm_tile(k, alpha, a, lda, b, bs, bc, beta, c, ldc);
  } else if (i0 + GEMM_MR <= m) {
    gemm_columns(k, w, alpha, a, lda, b, bs, bc, beta, c, ldc);
  } else {
    for (int j = 0; j < w; ++j)
      for (int i = 0; i < m - i0; ++i) {
        real_t s = 0;
        for (int p = 0; p < k; ++p) s += a[i + p * lda] * b[p * bs + j * bc];
        c[i + (long)j * ldc] =
            beta == 0 ? alpha * s : alpha * s + beta * c[i + (long)j * ldc];
      }
  }
}

/* T (cols x rows, ld ldt) := the rows x cols block of A at a0 transposed;
   one work-item per 16 x 16 tile, local size 1. */
kernel void transpose_cpu(int rows, int cols, global const real_t *A, long a0,
                          long lda, global real_t *T, long ldt) {
  const int i0 = get_global_id(0) * 16, j0 = get_global_id(1) * 16;
  for (int j = j0; j < min(j0 + 16, cols); ++j)
    for (int i = i0; i < min(i0 + 16, rows); ++i)
      T[j + (long)i * ldt] = A[a0 + i + (long)j * lda];
}
