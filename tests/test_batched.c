/*
 * The batched API (issue 6): getrf, getrs, gesv, inverse, potrf, potrs and
 * posv _batched, float and double, every n from 1 to 64, strided batches
 * with lda > n and gaps between problems (NaN padding that must stay NaN)
 * and packed ones (lda = n, no gap),
 * batches mixing well-conditioned, ill-conditioned and singular (or not
 * SPD) problems: each problem is judged alone by the library's checks
 * (axb_check_lu/solve/inverse/cholesky < 30) and its info against the
 * reference backend's typed routine on the same matrix; a failed problem
 * leaves its B (gesv, posv) or A (inverse) unchanged.  Batch sizes 0, 1,
 * odd and large (on CUDA with 18 GB free, past one grid of 2^22 blocks);
 * mostly-zero matrices; matrices scaled near the ends of the exponent
 * range (2^+-1003 double, 2^+-102 float); illegal arguments.  Host arrays on
 * ref/cpu handles; the same program built as test_batched_cuda runs it on
 * device arrays. AXB_TEST_PER_BACKEND
 */
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

static axb_handle h, href;
static int on_device;

/* ---- memory of the handle's side (device arrays on CUDA) ----------------- */

static void *side_alloc(size_t bytes) {
  void *p = NULL;
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) p = NULL;
  } else
#endif
    p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}
static void side_free(void *p) {
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    cudaStreamSynchronize((cudaStream_t)axb_get_stream(h));
    cudaFree(p);
    return;
  }
#endif
  free(p);
}
/* dir 1: host -> side, 0: side -> host (synchronises the device). */
static void side_copy(void *dst, const void *src, size_t bytes, int to_side) {
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    /* The handle's stream does not synchronise with the legacy default
       stream of cudaMemcpy: wait for the queued batched work first. */
    cudaStreamSynchronize((cudaStream_t)axb_get_stream(h));
    cudaError_t e =
        cudaMemcpy(dst, src, bytes,
                   to_side ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    /* A pageable host-to-device cudaMemcpy returns once the data is in
       the driver's staging buffer; its DMA to the device may still run
       (CUDA "API synchronization behavior"), and the handle's
       non-blocking stream is not ordered after it: a kernel launched
       next could read the tail of the array before it arrives (seen on
       the H200: the last matrix of a 500 KB batch, inverse n = 64).
       Wait for the copy itself. */
    if (e == cudaSuccess && to_side) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(e));
      exit(1);
    }
    return;
  }
#endif
  (void)to_side;
  memcpy(dst, src, bytes);
}

/* ---- a strided batch on the host ------------------------------------------
 */

typedef struct {
  axb_dtype t;
  size_t es;
  int64_t rows, cols, ld, stride, count;
  char *host; /* count * stride elements, NaN outside the matrices */
  void *side; /* the batch on the handle's side, base + shift elements */
  void *base;
} batch_buf;
/* shift_mode: every buffer's batch starts one element past the
   allocation (not 16-byte aligned: the CUDA tiles' element-wise path
   instead of 16-byte pieces) */
static int shift_mode;
static void *side_alloc_shifted(batch_buf *b, int64_t total) {
  b->base = side_alloc((size_t)(total + shift_mode) * b->es);
  return (char *)b->base + (size_t)shift_mode * b->es;
}

static double get_el(const batch_buf *b, int64_t k, int64_t i, int64_t j) {
  const int64_t o = k * b->stride + i + j * b->ld;
  return b->t == AXB_F64 ? ((double *)b->host)[o] : ((float *)b->host)[o];
}

static batch_buf buf_new(axb_dtype t, int64_t rows, int64_t cols, int64_t ld,
                         int64_t gap, int64_t count) {
  batch_buf b = {t,     axb_dtype_size(t),
                 rows,  cols,
                 ld,    ld * cols + gap,
                 count, NULL,
                 NULL,  NULL};
  const int64_t total = b.stride * count;
  b.host = malloc((size_t)(total ? total : 1) * b.es);
  if (!b.host) exit(1);
  for (int64_t e = 0; e < total; ++e) {
    if (t == AXB_F64)
      ((double *)b.host)[e] = NAN;
    else
      ((float *)b.host)[e] = NAN;
  }
  b.side = side_alloc_shifted(&b, total);
  return b;
}
static void buf_free(batch_buf *b) {
  free(b->host);
  side_free(b->base);
}
static void buf_put(batch_buf *b, int64_t k, const axb_dense *M) {
  for (int64_t j = 0; j < b->cols; ++j)
    memcpy(b->host + (size_t)(k * b->stride + j * b->ld) * b->es,
           (char *)M->data + (size_t)(j * M->ld) * b->es,
           (size_t)b->rows * b->es);
}
static void buf_up(batch_buf *b) {
  side_copy(b->side, b->host, (size_t)(b->stride * b->count) * b->es, 1);
}
static void buf_down(batch_buf *b) {
  side_copy(b->host, b->side, (size_t)(b->stride * b->count) * b->es, 0);
}
/* Problem k as a dense matrix viewing the host copy. */
static axb_dense buf_view(const batch_buf *b, int64_t k) {
  return axb_dense_wrap(b->rows, b->cols, b->ld, b->t,
                        b->host + (size_t)(k * b->stride) * b->es);
}
/* Every entry outside the rows x cols matrices is still NaN. */
static int buf_padding_nan(const batch_buf *b) {
  for (int64_t k = 0; k < b->count; ++k)
    for (int64_t e = 0; e < b->stride; ++e) {
      const int64_t i = e % b->ld, j = e / b->ld;
      if (i < b->rows && j < b->cols) continue;
      if (!isnan(get_el(b, k, i, j))) return 0;
    }
  return 1;
}
/* Problem k is bit-identical between two buffers' host copies. */
static int buf_same(const batch_buf *a, const batch_buf *b, int64_t k) {
  for (int64_t j = 0; j < a->cols; ++j)
    if (memcmp(a->host + (size_t)(k * a->stride + j * a->ld) * a->es,
               b->host + (size_t)(k * b->stride + j * b->ld) * b->es,
               (size_t)a->rows * a->es))
      return 0;
  return 1;
}
static batch_buf buf_clone(const batch_buf *a) {
  batch_buf b = *a;
  const int64_t total = a->stride * a->count;
  b.host = malloc((size_t)(total ? total : 1) * a->es);
  if (!b.host) exit(1);
  memcpy(b.host, a->host, (size_t)total * a->es);
  b.side = side_alloc_shifted(&b, total);
  buf_up(&b);
  return b;
}

/* ---- the routines through one signature per family --------------------- */

static axb_status getrf_b(batch_buf *A, int *ipiv, int64_t sp, int *info) {
  return A->t == AXB_F64
             ? axb_dgetrf_batched(h, A->rows, A->side, A->ld, A->stride, ipiv,
                                  sp, info, A->count)
             : axb_sgetrf_batched(h, A->rows, A->side, A->ld, A->stride, ipiv,
                                  sp, info, A->count);
}
static axb_status getrs_b(batch_buf *A, const int *ipiv, int64_t sp,
                          batch_buf *B) {
  return A->t == AXB_F64
             ? axb_dgetrs_batched(h, A->rows, B->cols, A->side, A->ld,
                                  A->stride, ipiv, sp, B->side, B->ld,
                                  B->stride, A->count)
             : axb_sgetrs_batched(h, A->rows, B->cols, A->side, A->ld,
                                  A->stride, ipiv, sp, B->side, B->ld,
                                  B->stride, A->count);
}
static axb_status gesv_b(batch_buf *A, int *ipiv, int64_t sp, batch_buf *B,
                         int *info) {
  return A->t == AXB_F64
             ? axb_dgesv_batched(h, A->rows, B->cols, A->side, A->ld, A->stride,
                                 ipiv, sp, B->side, B->ld, B->stride, info,
                                 A->count)
             : axb_sgesv_batched(h, A->rows, B->cols, A->side, A->ld, A->stride,
                                 ipiv, sp, B->side, B->ld, B->stride, info,
                                 A->count);
}
static axb_status inverse_b(batch_buf *A, int *info) {
  return A->t == AXB_F64 ? axb_dinverse_batched(h, A->rows, A->side, A->ld,
                                                A->stride, info, A->count)
                         : axb_sinverse_batched(h, A->rows, A->side, A->ld,
                                                A->stride, info, A->count);
}
static axb_status potrf_b(axb_uplo u, batch_buf *A, int *info) {
  return A->t == AXB_F64 ? axb_dpotrf_batched(h, u, A->rows, A->side, A->ld,
                                              A->stride, info, A->count)
                         : axb_spotrf_batched(h, u, A->rows, A->side, A->ld,
                                              A->stride, info, A->count);
}
static axb_status potrs_b(axb_uplo u, batch_buf *A, batch_buf *B) {
  return A->t == AXB_F64 ? axb_dpotrs_batched(h, u, A->rows, B->cols, A->side,
                                              A->ld, A->stride, B->side, B->ld,
                                              B->stride, A->count)
                         : axb_spotrs_batched(h, u, A->rows, B->cols, A->side,
                                              A->ld, A->stride, B->side, B->ld,
                                              B->stride, A->count);
}
static axb_status posv_b(axb_uplo u, batch_buf *A, batch_buf *B, int *info) {
  return A->t == AXB_F64 ? axb_dposv_batched(h, u, A->rows, B->cols, A->side,
                                             A->ld, A->stride, B->side, B->ld,
                                             B->stride, info, A->count)
                         : axb_sposv_batched(h, u, A->rows, B->cols, A->side,
                                             A->ld, A->stride, B->side, B->ld,
                                             B->stride, info, A->count);
}

/* ---- operands ---------------------------------------------------------- */

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

static axb_dense gen_rhs(int64_t n, int64_t nrhs, axb_dtype t, int64_t k) {
  return test_gen(href, AXB_GEN_UNIFORM, n > nrhs ? n : nrhs, t, 0, -1,
                  3000 + (uint64_t)k);
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

/* ---- LU family ----------------------------------------------------------- */

static void test_lu_family(axb_dtype t, int64_t n, int64_t count) {
  const char *tn = axb_dtype_name(t);
  /* packed at n <= 6 with one right-hand side: B's tiles packed too */
  const int64_t lda = packed_mode ? n : n + 1,
                nrhs = (n & 1) || (packed_mode && n <= 6) ? 1 : 3,
                ldb = packed_mode ? n : n + 2;
  batch_buf A = buf_new(t, n, n, lda, packed_mode ? 0 : 3, count);
  batch_buf B = buf_new(t, n, nrhs, ldb, packed_mode ? 0 : 1, count);
  axb_dense *orig = calloc((size_t)(count ? count : 1), sizeof(axb_dense));
  int64_t *rinfo = calloc((size_t)(count ? count : 1), sizeof(int64_t));
  /* REF's pivots of the exactly factored problems (0 elsewhere) */
  int64_t *rpiv = calloc((size_t)(count * n + 1), sizeof(int64_t));
  if (!orig || !rinfo || !rpiv) exit(1);
  for (int64_t k = 0; k < count; ++k) {
    orig[k] = gen_general(n, t, k);
    buf_put(&A, k, &orig[k]);
    axb_dense R = gen_rhs(n, nrhs, t, k);
    axb_dense Rv = axb_dense_wrap(n, nrhs, R.ld, t, R.data);
    buf_put(&B, k, &Rv);
    axb_dense_destroy(&R);
    rinfo[k] = ref_getrf_info_piv(&orig[k], rpiv + k * n);
    if (is_singular_kind(k))
      CHECK(rinfo[k] == n / 2 + 1, "reference info %lld n %lld",
            (long long)rinfo[k], (long long)n);
  }
  buf_up(&A);
  buf_up(&B);
  const int64_t sp = n + 2;
  int *ipiv = ints_side(sp * count), *info = ints_side(count);
  int *hpiv = calloc((size_t)(sp * count + 1), sizeof(int));
  int *hinfo = calloc((size_t)(count + 1), sizeof(int));
  int64_t *piv64 = test_new_ipiv(n);

  /* getrf, then getrs on the factors */
  batch_buf F = buf_clone(&A), X = buf_clone(&B);
  CHECK_STATUS(h, getrf_b(&F, ipiv, sp, info), AXB_SUCCESS);
  CHECK_STATUS(h, getrs_b(&F, ipiv, sp, &X), AXB_SUCCESS);
  buf_down(&F);
  buf_down(&X);
  ints_down(hpiv, ipiv, sp * count);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&F) && buf_padding_nan(&X), "%s n %lld padding", tn,
        (long long)n);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s getrf n %lld #%lld info %d ref %lld", tn,
          (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    for (int64_t i = 0; i < n; ++i)
      piv64[i] = hpiv[k * sp + i];
    axb_dense LU = buf_view(&F, k);
    CHECK_RATIO(axb_check_lu(&orig[k], &LU, piv64), "%s getrf n %lld #%lld", tn,
                (long long)n, (long long)k);
    /* Where REF's factorization is exact (the tie problems), the same
       exact arithmetic must meet the same ties: the pivots must be REF's
       (first row of the largest magnitude in the current order). */
    if (n > 0 && rpiv[k * n]) {
      ++pivots_compared;
      int64_t differ = -1;
      for (int64_t i = n - 1; i >= 0; --i)
        if (piv64[i] != rpiv[k * n + i]) differ = i;
      CHECK(differ < 0, "%s getrf n %lld #%lld: pivot %lld is %lld, ref %lld",
            tn, (long long)n, (long long)k, (long long)differ,
            (long long)(differ < 0 ? 0 : piv64[differ]),
            (long long)(differ < 0 ? 0 : rpiv[k * n + differ]));
    }
    if (!rinfo[k]) {
      axb_dense Xk = buf_view(&X, k), Bk = buf_view(&B, k);
      CHECK_RATIO(axb_check_solve(&orig[k], &Xk, &Bk), "%s getrs n %lld #%lld",
                  tn, (long long)n, (long long)k);
    }
  }
  buf_free(&F);
  buf_free(&X);

  /* gesv, with and without kept pivots */
  for (int keep = 0; keep < 2; ++keep) {
    batch_buf G = buf_clone(&A), Y = buf_clone(&B);
    CHECK_STATUS(h, gesv_b(&G, keep ? ipiv : NULL, sp, &Y, info), AXB_SUCCESS);
    buf_down(&G);
    buf_down(&Y);
    ints_down(hinfo, info, count);
    if (keep) ints_down(hpiv, ipiv, sp * count);
    CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s gesv padding", tn);
    for (int64_t k = 0; k < count; ++k) {
      CHECK(hinfo[k] == rinfo[k], "%s gesv n %lld #%lld info %d ref %lld", tn,
            (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
      if (keep) {
        for (int64_t i = 0; i < n; ++i)
          piv64[i] = hpiv[k * sp + i];
        axb_dense LU = buf_view(&G, k);
        CHECK_RATIO(axb_check_lu(&orig[k], &LU, piv64), "%s gesv LU n %lld", tn,
                    (long long)n);
      }
      if (!rinfo[k]) {
        axb_dense Yk = buf_view(&Y, k), Bk = buf_view(&B, k);
        CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk), "%s gesv n %lld #%lld",
                    tn, (long long)n, (long long)k);
      } else {
        CHECK(buf_same(&Y, &B, k), "%s gesv n %lld #%lld: B changed", tn,
              (long long)n, (long long)k);
      }
    }
    buf_free(&G);
    buf_free(&Y);
  }
  /* gesv with one right-hand side (the CUDA backend has kernels of its own
     for it) where B has more: B's first column alone; the other columns
     must come back untouched */
  if (B.cols > 1) {
    batch_buf G = buf_clone(&A), Y = buf_clone(&B), Y1, B1 = B;
    Y.cols = B1.cols = 1;
    CHECK_STATUS(h, gesv_b(&G, NULL, sp, &Y, info), AXB_SUCCESS);
    Y.cols = B.cols;
    buf_down(&G);
    buf_down(&Y);
    ints_down(hinfo, info, count);
    Y1 = Y;
    Y1.cols = 1;
    CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s gesv1 padding", tn);
    for (int64_t k = 0; k < count; ++k) {
      CHECK(hinfo[k] == rinfo[k], "%s gesv1 n %lld #%lld info %d ref %lld", tn,
            (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
      int others = 1;
      for (int64_t j = 1; j < B.cols; ++j)
        for (int64_t i = 0; i < n; ++i)
          if (memcmp(Y.host + (size_t)(k * Y.stride + i + j * Y.ld) * Y.es,
                     B.host + (size_t)(k * B.stride + i + j * B.ld) * B.es,
                     Y.es))
            others = 0;
      CHECK(others, "%s gesv1 n %lld #%lld: other columns changed", tn,
            (long long)n, (long long)k);
      if (!rinfo[k]) {
        axb_dense Yk = buf_view(&Y1, k), Bk = buf_view(&B1, k);
        CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk),
                    "%s gesv1 n %lld #%lld", tn, (long long)n, (long long)k);
      } else {
        CHECK(buf_same(&Y1, &B1, k), "%s gesv1 n %lld #%lld: B changed", tn,
              (long long)n, (long long)k);
      }
    }
    buf_free(&G);
    buf_free(&Y);
  }

  /* inverse in place */
  batch_buf V = buf_clone(&A);
  CHECK_STATUS(h, inverse_b(&V, info), AXB_SUCCESS);
  buf_down(&V);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&V), "%s inverse padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s inverse n %lld #%lld info %d ref %lld", tn,
          (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    if (!rinfo[k]) {
      axb_dense Vk = buf_view(&V, k);
      CHECK_RATIO(axb_check_inverse(&orig[k], &Vk), "%s inverse n %lld #%lld",
                  tn, (long long)n, (long long)k);
    } else {
      CHECK(buf_same(&V, &A, k), "%s inverse n %lld #%lld: A changed", tn,
            (long long)n, (long long)k);
    }
  }
  buf_free(&V);

  for (int64_t k = 0; k < count; ++k)
    axb_dense_destroy(&orig[k]);
  free(orig);
  free(rinfo);
  free(rpiv);
  free(hpiv);
  free(hinfo);
  free(piv64);
  side_free(ipiv);
  side_free(info);
  buf_free(&A);
  buf_free(&B);
}

/* ---- Cholesky family ------------------------------------------------------
 */

static void test_chol_family(axb_dtype t, int64_t n, int64_t count,
                             axb_uplo uplo) {
  const char *tn = axb_dtype_name(t);
  const char *un = uplo == AXB_LOWER ? "lower" : "upper";
  const int64_t lda = n + 2, nrhs = (n % 3) ? 1 : 2, ldb = n + 1;
  batch_buf A = buf_new(t, n, n, lda, 1, count);
  batch_buf B = buf_new(t, n, nrhs, ldb, 2, count);
  axb_dense *orig = calloc((size_t)(count ? count : 1), sizeof(axb_dense));
  int64_t *rinfo = calloc((size_t)(count ? count : 1), sizeof(int64_t));
  if (!orig || !rinfo) exit(1);
  for (int64_t k = 0; k < count; ++k) {
    orig[k] = gen_spd(n, t, k);
    buf_put(&A, k, &orig[k]);
    axb_dense R = gen_rhs(n, nrhs, t, k);
    axb_dense Rv = axb_dense_wrap(n, nrhs, R.ld, t, R.data);
    buf_put(&B, k, &Rv);
    axb_dense_destroy(&R);
    rinfo[k] = ref_potrf_info(&orig[k]);
    if (not_spd_kind(k))
      CHECK(rinfo[k] >= 1 && rinfo[k] <= n / 2 + 1, "reference potrf info");
  }
  buf_up(&A);
  buf_up(&B);
  int *info = ints_side(count);
  int *hinfo = calloc((size_t)(count + 1), sizeof(int));

  batch_buf F = buf_clone(&A), X = buf_clone(&B);
  CHECK_STATUS(h, potrf_b(uplo, &F, info), AXB_SUCCESS);
  ints_down(hinfo, info, count);
  /* potrs only on the SPD problems: run it on all, judge the SPD ones */
  CHECK_STATUS(h, potrs_b(uplo, &F, &X), AXB_SUCCESS);
  buf_down(&F);
  buf_down(&X);
  CHECK(buf_padding_nan(&F) && buf_padding_nan(&X), "%s potrf padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s potrf %s n %lld #%lld info %d ref %lld", tn,
          un, (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    if (rinfo[k]) continue;
    axb_dense Fk = buf_view(&F, k), Xk = buf_view(&X, k), Bk = buf_view(&B, k);
    CHECK_RATIO(axb_check_cholesky(&orig[k], &Fk, uplo),
                "%s potrf %s n %lld #%lld", tn, un, (long long)n, (long long)k);
    CHECK_RATIO(axb_check_solve(&orig[k], &Xk, &Bk), "%s potrs %s n %lld #%lld",
                tn, un, (long long)n, (long long)k);
  }
  buf_free(&F);
  buf_free(&X);

  batch_buf G = buf_clone(&A), Y = buf_clone(&B);
  CHECK_STATUS(h, posv_b(uplo, &G, &Y, info), AXB_SUCCESS);
  buf_down(&G);
  buf_down(&Y);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s posv padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s posv %s n %lld #%lld info %d ref %lld", tn,
          un, (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    axb_dense Yk = buf_view(&Y, k), Bk = buf_view(&B, k);
    if (!rinfo[k])
      CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk),
                  "%s posv %s n %lld #%lld", tn, un, (long long)n,
                  (long long)k);
    else
      CHECK(buf_same(&Y, &B, k), "%s posv n %lld #%lld: B changed", tn,
            (long long)n, (long long)k);
  }
  buf_free(&G);
  buf_free(&Y);
  for (int64_t k = 0; k < count; ++k)
    axb_dense_destroy(&orig[k]);
  free(orig);
  free(rinfo);
  free(hinfo);
  side_free(info);
  buf_free(&A);
  buf_free(&B);
}

/* ---- arguments and empty batches --------------------------------------- */

static void test_arguments(void) {
  double a[4] = {1, 2, 3, 4};
  int ip[2], inf[1];
  void *dA = side_alloc(sizeof a);
  int *dinfo = ints_side(3);
  side_copy(dA, a, sizeof a, 1);
  CHECK_STATUS(h, axb_dgetrf_batched(h, -1, dA, 2, 4, ip, 2, inf, 1), -1);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 1, 4, ip, 2, inf, 1), -3);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 3, ip, 2, inf, 2), -4);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, NULL, 2, inf, 1), -5);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, ip, 2, NULL, 1), -7);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, ip, 2, inf, -1), -8);
  CHECK_STATUS(h, axb_dpotrf_batched(h, (axb_uplo)7, 2, dA, 2, 4, inf, 1), -1);
  CHECK_STATUS(
      h, axb_dgesv_batched(h, 2, 1, dA, 2, 4, NULL, 0, NULL, 2, 2, inf, 1), -8);
  CHECK_STATUS(
      h, axb_dposv_batched(h, AXB_LOWER, 2, 1, dA, 2, 4, dA, 1, 2, inf, 1), -8);
  CHECK_STATUS(h, axb_dinverse_batched(h, 2, dA, 2, 4, NULL, 1), -5);
  /* batch 0: nothing is read or written, NULL arrays are fine */
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, NULL, 2, 4, NULL, 2, NULL, 0),
               AXB_SUCCESS);
  CHECK_STATUS(
      h, axb_sposv_batched(h, AXB_UPPER, 3, 2, NULL, 3, 9, NULL, 3, 6, NULL, 0),
      AXB_SUCCESS);
  /* n = 0: success, info zeroed */
  int minus[3] = {-5, -5, -5}, got[3];
  side_copy(dinfo, minus, sizeof minus, 1);
  CHECK_STATUS(h, axb_dinverse_batched(h, 0, dA, 1, 0, dinfo, 3), AXB_SUCCESS);
  ints_down(got, dinfo, 3);
  CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0, "n = 0 info %d %d %d",
        got[0], got[1], got[2]);
  if (on_device) {
    CHECK_STATUS(h, axb_dinverse_batched(h, 65, dA, 65, 65 * 65, dinfo, 1),
                 AXB_ERR_NOT_SUPPORTED);
    /* Host arrays on a CUDA handle are refused, not read asynchronously. */
    double host_a[4] = {2, 0, 0, 2};
    CHECK_STATUS(h, axb_dinverse_batched(h, 2, host_a, 2, 4, dinfo, 1),
                 AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "host memory") != NULL, "detail: %s",
          axb_detail(h));
  }
  side_free(dA);
  side_free(dinfo);
}

#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
/* ---- batches past one grid ------------------------------------------------
 * The per-thread factorizations and inverse (one tile of 128 matrices per
 * block at n <= 4) and the in-step group kernels (one matrix per group, 16
 * per block at n = 7, 8) are launched once per 2^22 blocks.  Here: the
 * float inverse at n = 2 past 2^29 matrices, and the inverse and the
 * one-rhs solve at n = 7 past 2^26, on A = c I (c = 3.0039..., the float
 * of bytes 0x40; stride n (n + 1), lda n), so that every result is known:
 * (1/c) I, and x = 1 for b = c (every entry bytes 0x40).  info starts at
 * -1 and must end 0 for every matrix (each one visited); the matrices at
 * the grids' edges are read back in full.  Needs ~18 GB of free device
 * memory; reported as skipped otherwise. */
static int big_diag(float *A, int64_t n, int64_t batch, float c) {
  /* a host tile of K matrices, then doubling copies on the device */
  const int64_t K = 1024, s = n * (n + 1);
  float *t = (float *)calloc((size_t)(K * s), sizeof(float));
  if (!t) return 0;
  for (int64_t e = 0; e < K * s; e += n + 1)
    t[e] = c;
  int ok = cudaMemcpy(A, t, (size_t)(K * s) * sizeof(float),
                      cudaMemcpyHostToDevice) == cudaSuccess;
  free(t);
  for (int64_t done = K; ok && done < batch; done *= 2) {
    const int64_t m = batch - done < done ? batch - done : done;
    ok = cudaMemcpy(A + done * s, A, (size_t)(m * s) * sizeof(float),
                    cudaMemcpyDeviceToDevice) == cudaSuccess;
  }
  return ok && cudaDeviceSynchronize() == cudaSuccess;
}
/* Bytes of device memory set to v, finished before the call returns: the
   handle's stream does not wait for the legacy stream's cudaMemset (a
   first version of this test raced there and read -1 back). */
static int big_fill(void *p, int v, int64_t bytes) {
  return cudaMemset(p, v, (size_t)bytes) == cudaSuccess &&
         cudaDeviceSynchronize() == cudaSuccess;
}
/* info[0..batch) all 0; the matrices m in ms: diagonal d, the rest 0. */
static void big_check(const char *what, int64_t n, int64_t batch,
                      const float *A, const int *info, const int64_t *ms,
                      int nm, float d) {
  int *hi = (int *)malloc((size_t)batch * sizeof(int));
  CHECK(hi != NULL, "%s: host info", what);
  if (!hi) return;
  side_copy(hi, info, (size_t)batch * sizeof(int), 0);
  int64_t bad = 0, first = -1;
  for (int64_t m = 0; m < batch; ++m)
    if (hi[m] != 0 && bad++ == 0) first = m;
  CHECK(bad == 0, "%s n %lld batch %lld: %lld info != 0, first %lld (%d)", what,
        (long long)n, (long long)batch, (long long)bad, (long long)first,
        first >= 0 ? hi[first] : 0);
  free(hi);
  float M[8 * 8];
  for (int k = 0; k < nm; ++k) {
    side_copy(M, A + ms[k] * n * (n + 1), (size_t)(n * n) * sizeof(float), 0);
    double err = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        const double e = M[i + j * n] - (i == j ? d : 0.0f);
        if (!(fabs(e) <= err)) err = fabs(e);
      }
    CHECK(err <= 1e-6 * d, "%s n %lld matrix %lld: max error %g", what,
          (long long)n, (long long)ms[k], err);
  }
}
static void test_past_one_grid(void) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
      free_b < ((size_t)18 << 30)) {
    printf("SKIP batches past one grid: %zu MB of device memory free, 18 GB "
           "needed\n",
           free_b >> 20);
    return;
  }
  float c;
  const unsigned cb = 0x40404040u;
  memcpy(&c, &cb, sizeof c);
  const int64_t g = (int64_t)1 << 22; /* blocks per launch */
  /* n = 2: per-thread inverse, 128 matrices per block */
  {
    const int64_t n = 2, batch = g * 128 + 5, s = n * (n + 1);
    float *A = (float *)side_alloc((size_t)(batch * s) * sizeof(float));
    int *info = (int *)side_alloc((size_t)batch * sizeof(int));
    CHECK(big_diag(A, n, batch, c) && big_fill(info, 0xff, batch * 4),
          "big n 2: memset");
    CHECK(axb_sinverse_batched(h, n, A, n, s, info, batch) == AXB_SUCCESS,
          "big n 2: %s", axb_detail(h));
    const int64_t ms[] = {0, g * 128 - 1, g * 128, batch - 1};
    big_check("inverse (per thread)", n, batch, A, info, ms, 4, 1.0f / c);
    side_free(A);
    side_free(info);
  }
  /* n = 7: in-step group kernels, 16 matrices per block */
  {
    const int64_t n = 7, batch = g * 16 + 33, s = n * (n + 1);
    float *A = (float *)side_alloc((size_t)(batch * s) * sizeof(float));
    float *B = (float *)side_alloc((size_t)(batch * n) * sizeof(float));
    int *info = (int *)side_alloc((size_t)batch * sizeof(int));
    const int64_t ms[] = {0, g * 16 - 1, g * 16, batch - 1};
    CHECK(big_diag(A, n, batch, c) && big_fill(info, 0xff, batch * 4),
          "big n 7: memset");
    CHECK(axb_sinverse_batched(h, n, A, n, s, info, batch) == AXB_SUCCESS,
          "big n 7 inverse: %s", axb_detail(h));
    big_check("inverse (in step)", n, batch, A, info, ms, 4, 1.0f / c);
    CHECK(big_diag(A, n, batch, c) && big_fill(B, 0x40, batch * n * 4) &&
              big_fill(info, 0xff, batch * 4),
          "big n 7: memset");
    CHECK(axb_sgesv_batched(h, n, 1, A, n, s, NULL, 0, B, n, n, info, batch) ==
              AXB_SUCCESS,
          "big n 7 gesv: %s", axb_detail(h));
    big_check("gesv (in step)", n, batch, A, info, ms, 0, 0.0f); /* info */
    for (int k = 0; k < 4; ++k) {
      float x[8];
      side_copy(x, B + ms[k] * n, (size_t)n * sizeof(float), 0);
      double err = 0;
      for (int64_t i = 0; i < n; ++i)
        if (!(fabs(x[i] - 1.0) <= err)) err = fabs(x[i] - 1.0);
      CHECK(err <= 1e-6, "gesv (in step) n 7 matrix %lld: max |x - 1| %g",
            (long long)ms[k], err);
    }
    side_free(A);
    side_free(B);
    side_free(info);
  }
}
#endif

int main(int argc, char **argv) {
#ifdef TEST_BATCHED_CUDA
#ifndef AXB_TEST_HAVE_CUDA
  (void)argc;
  (void)argv;
  printf("test_batched_cuda: no CUDA in this build\n");
  return 77;
#else
  (void)argc;
  (void)argv;
  h = test_handle(AXB_BACKEND_CUDA);
  on_device = 1;
#endif
#else
  h = test_handle(test_backend_arg(argc, argv));
#endif
  href = test_handle(AXB_BACKEND_REF);
  test_arguments();
  const axb_dtype types[2] = {AXB_F64, AXB_F32};
  for (int ti = 0; ti < 2; ++ti) {
    /* AXB_TEST_BATCHED_QUICK=1 (for compute-sanitizer runs): fewer n. */
    const char *quick = getenv("AXB_TEST_BATCHED_QUICK");
    const int q = quick && quick[0] == '1';
    for (int64_t n = 1; n <= 64; ++n) {
      if (q &&
          !(n <= 3 || n == 6 || n == 7 || n == 8 || n == 10 || n == 12 ||
            n == 13 || n == 17 || n == 24 || n == 32 || n == 33 || n == 64))
        continue;
      test_lu_family(types[ti], n, 7);
      test_chol_family(types[ti], n, 5, (n & 1) ? AXB_UPPER : AXB_LOWER);
    }
    /* batch sizes 0 and 1, and a large odd batch (grid-stride loops) */
    const int64_t ns[] = {1, 3, 6, 16, 33, 64};
    for (int i = 0; i < 6; ++i) {
      test_lu_family(types[ti], ns[i], 0);
      test_lu_family(types[ti], ns[i], 1);
      test_chol_family(types[ti], ns[i], 1, AXB_LOWER);
      test_chol_family(types[ti], ns[i], 0, AXB_UPPER);
    }
    test_lu_family(types[ti], 5, q ? 65 : 1001);
    /* packed (lda = n, no gap) at and around the group kernels' size
       classes, odd batches (a warp's last groups inactive) */
    packed_mode = 1;
    const int64_t pn[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                          11, 12, 13, 14, 15, 16, 17, 24, 32, 64};
    for (int i = 0; i < 20; ++i)
      test_lu_family(types[ti], pn[i], q ? 5 : 37);
    /* packed but one element off 16-byte alignment (element-wise tiles) */
    shift_mode = 1;
    for (int64_t n = 1; n <= 6; ++n)
      test_lu_family(types[ti], n, q ? 5 : 37);
    shift_mode = 0;
    packed_mode = 0;
    /* pivots of extreme scale */
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      scale_exp = sgn * (types[ti] == AXB_F64 ? 1003 : 102);
      const int64_t xn[] = {7, 8, 11, 12, 15, 16, 24, 32};
      for (int i = 0; i < 8; ++i)
        test_lu_family(types[ti], xn[i], q ? 5 : 10);
      packed_mode = 1;
      test_lu_family(types[ti], 16, q ? 5 : 10);
      packed_mode = 0;
    }
    scale_exp = 0;
    /* mostly-zero matrices: the zero-multiplier skips of the paired
       elimination steps (CPU kernels), odd and even n */
    sparse_mode = 1;
    const int64_t sn[] = {2, 3, 4, 5, 8, 9, 16, 17, 31, 64};
    for (int i = 0; i < 10; ++i)
      test_lu_family(types[ti], sn[i], 15);
    sparse_mode = 0;
    /* exactly tied pivot candidates (and +-0 columns), around the group
       and block sizes of the CUDA kernels */
    tie_mode = 1;
    pivots_compared = 0;
    const int64_t tn[] = {2, 5, 7, 8, 9, 16, 17, 24, 31, 32, 33, 48, 63, 64};
    for (int i = 0; i < 14; ++i)
      test_lu_family(types[ti], tn[i], 8);
    CHECK(pivots_compared > 0, "tie problems: no pivots compared");
    tie_mode = 0;
    test_chol_family(types[ti], 12, q ? 33 : 333, AXB_LOWER);
  }
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  {
    const char *quick = getenv("AXB_TEST_BATCHED_QUICK");
    if (!(quick && quick[0] == '1')) test_past_one_grid();
  }
#endif
  axb_handle_destroy(href);
  axb_handle_destroy(h);
  return test_finish(on_device ? "test_batched_cuda" : "test_batched");
}
