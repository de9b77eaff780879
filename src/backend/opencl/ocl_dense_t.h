/*
 * The OpenCL backend's host-array entries, written once for T = double /
 * float (ocl_dense.c includes this twice with T, P, BL(name) = CLBlast's
 * D/S routine and DBL = 1/0).  Each entry copies its arrays to the device,
 * works there on the handle's in-order queue and copies the result back.
 *   getrf  right-looking blocked LU in two levels: outer blocks of o->nb
 *          columns (64 on a GPU, 256 on a CPU device), each factored by
 *          panels of 64 (our one-group panel kernel: pivot search, swaps,
 *          scaling, rank-1 updates; interchanges and updates inside the
 *          block), then the block's interchanges on the columns left and
 *          right (laswp kernel), U12 := L11^-1 A12 and A22 -= L21 U12
 *          (GEMMs: axb__ocl_gemm, ours on a CPU device, CLBlast's on a
 *          GPU).
 *   potrf  right-looking blocked Cholesky, two levels the same way: the
 *          diagonal blocks of 64 by our one-group kernel (info read back
 *          once per outer block: stop at the first minor that is not
 *          positive), the block column by L11^-1 and a GEMM, the trailing
 *          triangle by SYRK on a GPU and by GEMMs on column chunks on a
 *          CPU device.
 *   With o->gpu_path (a GPU, or AXB_OPENCL_GPU_PATH=1) both factor the
 *   uploaded copy by the GPU-device path instead (ocl_gpu_t.h, issue 29d).
 *   The triangular solves inside are GEMMs with the inverted diagonal
 *   block (trtri_any: our kernel on 64 x 64 blocks, a blocked solve above;
 *   CLBlast's TRSM took 11 ms per 64-row call on PoCL), or on a CPU device
 *   for a few right-hand sides substitution in place (trsv_block).
 *   getrs, potrs, getri: interchanges by our kernel, triangular solves by
 *          blocks of o->nb (trsm_left); getri as LAPACK's formula
 *          inv(A) = U^-1 L^-1 P with L^-1 computed on its triangle only.
 *   gemm: axb__ocl_gemm on copies; trsm: CLBlast's on copies (the
 *   mixed-precision session's products).
 */

#define OCL_T_ sizeof(T)
#define FN_(name) AXB_FN(ocl_, name)

/* Device copy of A with the triangle opposite to uplo zeroed for CLBlast's
   triangular routines (TRSM, SYRK); with only our kernels and GEMMs on
   owned blocks to come (potrf/potrs on a CPU device, o->nb above
   AXB_OCL_NB) the other triangle is never read and stays as copied (the
   zeroing kernel took 8-19 ms at n = 2048 on PoCL). */
static axb_status FN_(upload_tri)(axb_handle h, axb_uplo uplo, int64_t n,
                                  const T *A, int64_t lda, cl_mem *dA,
                                  int64_t *ldd, int blas_reads) {
  axb_status st = axb__ocl_upload_kept(h, A, lda, n, n, OCL_T_, dA, ldd);
  if (!st && (blas_reads || axb__ocl(h)->nb == AXB_OCL_NB))
    st = ocl_zero_triangle(h, DBL, *dA, *ldd, n, uplo == AXB_LOWER);
  return st;
}

/* Host ipiv (1-based int64) as a device array of 0-based ints. */
static axb_status FN_(upload_piv)(axb_handle h, int64_t n, const int64_t *ipiv,
                                  cl_mem *dpiv) {
  int *p = axb__malloc(n, sizeof(int));
  if (!p) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for pivots");
  for (int64_t i = 0; i < n; ++i)
    p[i] = (int)(ipiv[i] - 1);
  axb_status st =
      axb__ocl_upload(h, p, n, n, 1, sizeof(int), dpiv, &(int64_t){0});
  axb__free(p);
  return st;
}

/* A triangular operand op(A) of trsm_left: A n x n at element offset a0
   of buffer A (ld lda), solved by diagonal blocks of nb. */
typedef struct {
  cl_mem A;
  int64_t a0, lda, n, nb;
  axb_uplo uplo;
  axb_trans tr;
  axb_diag diag;
} FN_(tri);

static axb_status FN_(trsm_left)(axb_handle h, const FN_(tri) * t, int64_t nrhs,
                                 cl_mem dB, int64_t ldb, int lower_rhs);

/* W (ld ldw) := inv(L) of the jb x jb lower block at a0 (unit: ones on
   its diagonal), or inv(U^T) of the upper one: our trtri kernel up to
   AXB_OCL_NB; above, the solve L W = I (or U^T W = I) by blocks of
   AXB_OCL_NB with W lower triangular (the kernel, one work-item per
   column reading A with stride lda, took ~12 ms per 256 block on PoCL). */
static axb_status FN_(trtri_any)(axb_handle h, cl_mem dA, int64_t a0,
                                 int64_t lda, int64_t jb, int unit, int upper,
                                 cl_mem dW, int64_t ldw) {
  if (jb <= AXB_OCL_NB)
    return ocl_trtri(h, DBL, dA, a0, lda, jb, unit, upper, dW, ldw);
  const FN_(tri) t = {dA,
                      a0,
                      lda,
                      jb,
                      AXB_OCL_NB,
                      upper ? AXB_UPPER : AXB_LOWER,
                      upper ? AXB_TRANS : AXB_NO_TRANS,
                      unit ? AXB_UNIT : AXB_NON_UNIT};
  axb_status st = ocl_identity(h, DBL, dW, ldw, jb);
  return st ? st : FN_(trsm_left)(h, &t, jb, dW, ldw, 1);
}

/*
 * B := op(A)^-1 B (left side, B n x nrhs in dB) by diagonal blocks of
 * t->nb: per block X_k by substitution (trsv_block) for at most
 * AXB_OCL_TRSV_MAX right-hand sides on a CPU device (measured on PoCL only; a
 * GPU keeps the inverses), else W = its inverse (trtri_any) and X_k = op(W) B_k
 * (a GEMM from a copy T of B_k); then the blocks not yet solved lose
 * op(A)_{rest,k} X_k (a GEMM).  op(A) lower (Lower/NoTrans, Upper/Trans)
 * runs top down, upper (Upper/NoTrans, Lower/Trans) bottom up.  trtri
 * gives inv(L) for a lower block and inv(U^T) for an upper one, so W is
 * transposed in the GEMM exactly when op(A) is upper.  lower_rhs (top
 * down only): B is lower triangular (block row b zero right of its last
 * column), so each step works on the columns left of it only.  CLBlast's
 * TRSM took ~30 ms for one right-hand side at n = 1024 on PoCL.
 */
static axb_status FN_(trsm_left)(axb_handle h, const FN_(tri) * t, int64_t nrhs,
                                 cl_mem dB, int64_t ldb, int lower_rhs) {
  const int64_t nb = t->nb, n = t->n, lda = t->lda;
  const int lower = t->uplo == AXB_LOWER, notr = t->tr == AXB_NO_TRANS;
  const int down = lower == notr;   /* op(A) lower: top down */
  const int wt = !down, at = !notr; /* W^T, op(A) = A^T in the GEMMs */
  /* substitution in place (trsv_block), or the blocks' inverses */
  const int subst = nrhs <= AXB_OCL_TRSV_MAX && axb__ocl(h)->cpu_dev;
  cl_mem dW = NULL, dT = NULL;
  axb_status st = AXB_SUCCESS;
  if (!subst) st = axb__ocl_alloc(h, (size_t)(nb * nb) * OCL_T_, &dW);
  if (!st && !subst) st = axb__ocl_alloc(h, (size_t)(nb * nrhs) * OCL_T_, &dT);
  const int64_t nblk = (n + nb - 1) / nb;
  for (int64_t b = 0; !st && b < nblk; ++b) {
    const int64_t k0 = (down ? b : nblk - 1 - b) * nb;
    const int64_t jb = n - k0 < nb ? n - k0 : nb, k1 = k0 + jb;
    const int64_t nc = lower_rhs && down && k1 < nrhs ? k1 : nrhs;
    if (subst) {
      st = ocl_trsv_block(h, DBL, t->A, t->a0 + k0 + k0 * lda, lda, jb, !notr,
                          down, t->diag == AXB_UNIT, dB, k0, ldb, nc);
    } else { /* X_k := op(W) T, W the block's inverse, T a copy of B_k */
      st = FN_(trtri_any)(h, t->A, t->a0 + k0 + k0 * lda, lda, jb,
                          t->diag == AXB_UNIT, !lower, dW, jb);
      if (!st)
        st = axb__ocl_copy_block(h, OCL_T_, dB, k0, ldb, dT, 0, jb, jb, nc);
      if (!st)
        st = axb__ocl_gemm(h, "trsm: GEMM of a diagonal block", DBL, wt, 0, jb,
                           nc, jb, 1, dW, 0, jb, dT, 0, jb, 0, dB, k0, ldb);
    }
    /* the rest: rows [k1, n) top down, [0, k0) bottom up */
    const int64_t r0 = down ? k1 : 0, nr = down ? n - k1 : k0;
    /* op(A)(rest, block) is A(rest, block), or A(block, rest)^T */
    const size_t a_off = t->a0 + (notr ? r0 + k0 * lda : k0 + r0 * lda);
    if (!st && nr > 0)
      st = axb__ocl_gemm(h, "trsm: GEMM of the rest", DBL, at, 0, nr, nc, jb,
                         -1, t->A, a_off, lda, dB, k0, ldb, 1, dB, r0, ldb);
  }
  axb__ocl_free(dW);
  axb__ocl_free(dT);
  return st;
}

/* Triangle uplo of the n x n dA (ld ldd), op tr, as trsm_left's operand
   with the handle's block. */
static FN_(tri) FN_(whole)(axb_handle h, cl_mem dA, int64_t ldd, int64_t n,
                           axb_uplo uplo, axb_trans tr, axb_diag diag) {
  const FN_(tri) t = {dA, 0, ldd, n, axb__ocl(h)->nb, uplo, tr, diag};
  return t;
}

/* U12 := L11^-1 A12 for the jb x r block row at step k: W := inv(L11)
   (unit lower), T := A12, A12 := W T. */
static axb_status FN_(block_row)(axb_handle h, cl_mem dA, int64_t ldd,
                                 int64_t k, int64_t jb, int64_t r, cl_mem dW,
                                 cl_mem dT) {
  const size_t a12 = k + (k + jb) * ldd;
  axb_status st = FN_(trtri_any)(h, dA, k + k * ldd, ldd, jb, 1, 0, dW, jb);
  if (!st) st = axb__ocl_copy_block(h, OCL_T_, dA, a12, ldd, dT, 0, jb, jb, r);
  if (!st)
    st = axb__ocl_gemm(h, "getrf: GEMM of the block row", DBL, 0, 0, jb, r, jb,
                       1, dW, 0, jb, dT, 0, jb, 0, dA, a12, ldd);
  return st;
}

/* The interchanges of pivots [k, k + jb) on the columns [c0, k) and
   [k + jb, c1) (the panel kernel swapped the panel's own). */
static axb_status FN_(swap_outside)(axb_handle h, cl_mem dA, int64_t ldd,
                                    cl_mem dpiv, int64_t k, int64_t jb,
                                    int64_t c0, int64_t c1) {
  axb_status st = AXB_SUCCESS;
  if (k > c0)
    st = ocl_laswp(h, DBL, dA, c0 * ldd, ldd, k - c0, dpiv, k, k + jb, 1);
  if (!st && c1 > k + jb)
    st = ocl_laswp(h, DBL, dA, (k + jb) * ldd, ldd, c1 - k - jb, dpiv, k,
                   k + jb, 1);
  return st;
}

/* The right-looking update after the jb columns at k are factored, on the
   columns [k + jb, c1): U12 := L11^-1 A12, A22 -= L21 U12 (rows to m). */
static axb_status FN_(lu_update)(axb_handle h, cl_mem dA, int64_t ldd,
                                 int64_t m, int64_t k, int64_t jb, int64_t c1,
                                 cl_mem dW, cl_mem dT) {
  const int64_t r = c1 - k - jb;
  if (r <= 0) return AXB_SUCCESS;
  axb_status st = FN_(block_row)(h, dA, ldd, k, jb, r, dW, dT);
  if (!st && m - k - jb > 0)
    st = axb__ocl_gemm(h, "getrf: GEMM of the trailing matrix", DBL, 0, 0,
                       m - k - jb, r, jb, -1, dA, k + jb + k * ldd, ldd, dA,
                       k + (k + jb) * ldd, ldd, 1, dA, k + jb + (k + jb) * ldd,
                       ldd);
  return st;
}

/* Columns [c0, c1) (rows c0..m, every earlier update applied) factored by
   panels of AXB_OCL_NB: our panel kernel, the interchanges and the update
   inside [c0, c1) only (the caller does the rest for the whole block). */
static axb_status FN_(lu_inner)(axb_handle h, cl_mem dA, int64_t ldd, int64_t m,
                                int64_t c0, int64_t c1, cl_mem dpiv,
                                cl_mem dinfo, cl_mem dW, cl_mem dT) {
  axb_status st = AXB_SUCCESS;
  for (int64_t k = c0; !st && k < c1; k += AXB_OCL_NB) {
    const int64_t jb = c1 - k < AXB_OCL_NB ? c1 - k : AXB_OCL_NB;
    st = ocl_lu_panel(h, DBL, dA, k + k * ldd, ldd, m - k, jb, k, dpiv, dinfo);
    if (!st) st = FN_(swap_outside)(h, dA, ldd, dpiv, k, jb, c0, c1);
    if (!st) st = FN_(lu_update)(h, dA, ldd, m, k, jb, c1, dW, dT);
  }
  return st;
}

/* Blocked LU in two levels: outer blocks of o->nb columns (64 on a GPU:
   one level; 256 on a CPU device), each factored by lu_inner, then its
   interchanges on the other columns and the update of the trailing
   matrix with k = o->nb. */
axb_status AXB_FN(axb_ocl_, getrf)(axb_handle h, int64_t m, int64_t n, T *A,
                                   int64_t lda, int64_t *ipiv, int64_t *info) {
  const int64_t mn = m < n ? m : n, nb = axb__ocl(h)->nb;
  cl_mem dA = NULL, dpiv = NULL, dinfo = NULL, dW = NULL, dT = NULL;
  int64_t ldd = 0, ld1 = 0;
  int *piv = NULL, hinfo = 0;
  axb_status st = ocl_fits(h, m, n);
  if (!st) st = axb__ocl_upload_kept(h, A, lda, m, n, OCL_T_, &dA, &ldd);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * nb) * OCL_T_, &dW);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * n) * OCL_T_, &dT);
  if (!st) st = axb__ocl_upload(h, NULL, 1, mn, 1, sizeof(int), &dpiv, &ld1);
  if (!st) st = axb__ocl_upload(h, &hinfo, 1, 1, 1, sizeof(int), &dinfo, &ld1);
  if (!st && axb__ocl(h)->gpu_path) /* issue 29d: ocl_gpu_t.h */
    st = AXB_FN(axb__ocl_gpu_, getrf)(h, m, n, dA, ldd, dpiv, dinfo);
  for (int64_t k = 0; !st && !axb__ocl(h)->gpu_path && k < mn; k += nb) {
    const int64_t jb = mn - k < nb ? mn - k : nb;
    st = FN_(lu_inner)(h, dA, ldd, m, k, k + jb, dpiv, dinfo, dW, dT);
    if (!st) st = FN_(swap_outside)(h, dA, ldd, dpiv, k, jb, 0, n);
    if (!st) st = FN_(lu_update)(h, dA, ldd, m, k, jb, n, dW, dT);
  }
  if (!st) st = axb__ocl_download(h, dA, ldd, m, n, OCL_T_, A, lda);
  if (!st && !(piv = axb__malloc(mn, sizeof(int))))
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for pivots");
  if (!st) st = axb__ocl_download(h, dpiv, mn, mn, 1, sizeof(int), piv, mn);
  if (!st) st = axb__ocl_download(h, dinfo, 1, 1, 1, sizeof(int), &hinfo, 1);
  if (!st) {
    for (int64_t i = 0; i < mn; ++i)
      ipiv[i] = piv[i] + 1;
    st = axb__zero_pivot(h, info, hinfo, "getrf", "U");
  }
  axb__free(piv);
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dpiv);
  axb__ocl_free(dinfo);
  axb__ocl_free(dW);
  axb__ocl_free(dT);
  return st;
}

/* op(A) X = B with the factors of getrf, on device copies. */
axb_status AXB_FN(axb_ocl_, getrs)(axb_handle h, axb_trans trans, int64_t n,
                                   int64_t nrhs, const T *A, int64_t lda,
                                   const int64_t *ipiv, T *B, int64_t ldb) {
  cl_mem dA = NULL, dB = NULL, dpiv = NULL;
  int64_t ldd = 0, lde = 0;
  /* no transpose: X = U^-1 L^-1 P B; transpose: X = P^T L^-T U^-T B */
  const axb_uplo first = trans == AXB_NO_TRANS ? AXB_LOWER : AXB_UPPER;
  const axb_uplo second = trans == AXB_NO_TRANS ? AXB_UPPER : AXB_LOWER;
  axb_status st = ocl_fits(h, n, nrhs);
  if (!st) st = axb__ocl_upload_kept(h, A, lda, n, n, OCL_T_, &dA, &ldd);
  if (!st) st = axb__ocl_upload(h, B, ldb, n, nrhs, OCL_T_, &dB, &lde);
  if (!st) st = FN_(upload_piv)(h, n, ipiv, &dpiv);
  if (!st && trans == AXB_NO_TRANS)
    st = ocl_laswp(h, DBL, dB, 0, lde, nrhs, dpiv, 0, n, 1);
  const FN_(tri) t1 = FN_(whole)(h, dA, ldd, n, first, trans,
                                 first == AXB_LOWER ? AXB_UNIT : AXB_NON_UNIT);
  const FN_(tri) t2 = FN_(whole)(h, dA, ldd, n, second, trans,
                                 second == AXB_LOWER ? AXB_UNIT : AXB_NON_UNIT);
  if (!st) st = FN_(trsm_left)(h, &t1, nrhs, dB, lde, 0);
  if (!st) st = FN_(trsm_left)(h, &t2, nrhs, dB, lde, 0);
  if (!st && trans != AXB_NO_TRANS)
    st = ocl_laswp(h, DBL, dB, 0, lde, nrhs, dpiv, 0, n, 0);
  if (!st) st = axb__ocl_download(h, dB, lde, n, nrhs, OCL_T_, B, ldb);
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dB);
  axb__ocl_free(dpiv);
  return st;
}

/* The trailing update of the Cholesky step at k (r x r, the block
   column of width jb beside it) by GEMMs on column chunks of width cw:
   lower, C[c:, c:c+w] -= A21[c:, :] A21[c:c+w, :]^T; upper, C[:c+w, c:c+w]
   -= A12[:, :c+w]^T A12[:, c:c+w].  Each chunk's diagonal w x w block is
   computed whole, so the triangle the routine does not own gets values
   there (never read: chol_diag, trtri and download_tri read the owned
   triangle only).  On PoCL CLBlast's SYRK took 160 of the 235 ms of an
   n = 2048 potrf (NB 64); these GEMMs take k = 256 (docs/notes/opencl.md). */
static axb_status FN_(syrk_gemm)(axb_handle h, int lo, cl_mem dA, int64_t ldd,
                                 int64_t k, int64_t jb, int64_t r, int64_t cw) {
  const size_t k1 = (size_t)(k + jb);
  axb_status st = AXB_SUCCESS;
  for (int64_t c = 0; !st && c < r; c += cw) {
    const int64_t w = r - c < cw ? r - c : cw;
    const size_t cc = k1 + c + (k1 + c) * ldd; /* C's chunk diagonal */
    const char *what = "potrf: GEMM of the trailing matrix";
    st = lo ? axb__ocl_gemm(h, what, DBL, 0, 1, r - c, w, jb, -1, dA,
                            k1 + c + k * ldd, ldd, dA, k1 + c + k * ldd, ldd, 1,
                            dA, cc, ldd)
            : axb__ocl_gemm(h, what, DBL, 1, 0, c + w, w, jb, -1, dA,
                            k + k1 * ldd, ldd, dA, k + (k1 + c) * ldd, ldd, 1,
                            dA, k1 + (k1 + c) * ldd, ldd);
  }
  return st;
}

/* One block step of the blocked Cholesky after its diagonal block: the
   block column (lower: A21 := A21 L11^-T = T W^T with W = inv(L11);
   upper: A12 := U11^-T A12 = W T with W = inv(U11^T); T the block's copy)
   and the trailing triangle (A22 -= A21 A21^T, or A12^T A12). */
static axb_status FN_(chol_step)(axb_handle h, axb_uplo uplo, cl_mem dA,
                                 int64_t ldd, int64_t k, int64_t jb, int64_t r,
                                 cl_mem dW, cl_mem dT) {
  cl_command_queue q = axb__ocl(h)->q;
  const int lo = uplo == AXB_LOWER;
  const size_t d = k + k * ldd,
               off = lo ? k + jb + k * ldd : k + (k + jb) * ldd;
  const int64_t rows = lo ? r : jb, cols = lo ? jb : r;
  axb_status st = FN_(trtri_any)(h, dA, d, ldd, jb, 0, !lo, dW, jb);
  if (!st)
    st = axb__ocl_copy_block(h, OCL_T_, dA, off, ldd, dT, 0, rows, rows, cols);
  if (!st)
    st = lo ? axb__ocl_gemm(h, "potrf: GEMM of the block column", DBL, 0, 1, r,
                            jb, jb, 1, dT, 0, r, dW, 0, jb, 0, dA, off, ldd)
            : axb__ocl_gemm(h, "potrf: GEMM of the block column", DBL, 0, 0, jb,
                            r, jb, 1, dW, 0, jb, dT, 0, jb, 0, dA, off, ldd);
  if (st) return st;
  if (axb__ocl(h)->nb > AXB_OCL_NB)
    return FN_(syrk_gemm)(h, lo, dA, ldd, k, jb, r, (int64_t)axb__ocl(h)->nb);
  return axb__ocl_blast(
      h,
      BL(syrk)(CLBlastLayoutColMajor,
               lo ? CLBlastTriangleLower : CLBlastTriangleUpper,
               lo ? CLBlastTransposeNo : CLBlastTransposeYes, r, jb, -1, dA,
               off, ldd, 1, dA, k + jb + (k + jb) * ldd, ldd, &q, NULL),
      "potrf: SYRK of the trailing matrix");
}

/* Host A's uplo triangle := the device copy's (via a host buffer: the
   other triangle of A is the caller's and stays as it was). */
/* A's triangle uplo := the device's, the other triangle untouched: by
   column blocks of OCL_TRI_NB read straight into A (rows k.. of a lower
   block column, rows ..k+jb of an upper one), each diagonal block's other
   half saved before its read and put back after.  Reading into A itself,
   whose pages the caller has touched, not into a fresh n x n staging copy:
   on NVIDIA's OpenCL (H200, n = 8192) potrf spent 580 of its 707 ms
   outside the factorization with that copy, getrf (read into A) 126. */
#define OCL_TRI_NB 256
static axb_status FN_(download_tri)(axb_handle h, axb_uplo uplo, cl_mem dA,
                                    int64_t ldd, int64_t n, T *A, int64_t lda) {
  const int lower = uplo == AXB_LOWER;
  T *keep = axb__malloc(OCL_TRI_NB * OCL_TRI_NB, OCL_T_);
  if (!keep) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for a copy");
  axb_status st = AXB_SUCCESS;
  for (int64_t k = 0; !st && k < n; k += OCL_TRI_NB) {
    const int64_t jb = n - k < OCL_TRI_NB ? n - k : OCL_TRI_NB;
    T *d = A + k + k * lda; /* the diagonal block */
    for (int64_t c = 0; c < jb; ++c)
      for (int64_t i = lower ? 0 : c + 1; i < (lower ? c : jb); ++i)
        keep[i + c * jb] = d[i + c * lda];
    st = lower
             ? axb__ocl_download_at(h, dA, k, k, ldd, n - k, jb, OCL_T_, d, lda)
             : axb__ocl_download_at(h, dA, 0, k, ldd, k + jb, jb, OCL_T_,
                                    A + k * lda, lda);
    for (int64_t c = 0; c < jb; ++c)
      for (int64_t i = lower ? 0 : c + 1; i < (lower ? c : jb); ++i)
        d[i + c * lda] = keep[i + c * jb];
  }
  axb__free(keep);
  return st;
}

/* The diagonal block [k0, k1) by inner blocks of AXB_OCL_NB: our
   one-group kernel on each, then chol_step inside [k0, k1) only; info
   read back once, at the end (each blocking read drained the queue and
   left the device idle while the host queued the next step: 32 of them
   at n = 2048).  The kernel does nothing once info is set, so info is
   the first minor that is not positive even though the steps after a
   failing inner block still run; what they leave in [k0, k1) is not a
   factor (LAPACK's potrf leaves that part unspecified too), and the
   caller stops at this outer block. */
static axb_status FN_(chol_inner)(axb_handle h, axb_uplo uplo, cl_mem dA,
                                  int64_t ldd, int64_t k0, int64_t k1,
                                  cl_mem dinfo, int *hinfo, cl_mem dW,
                                  cl_mem dT) {
  axb_status st = AXB_SUCCESS;
  for (int64_t k = k0; !st && k < k1; k += AXB_OCL_NB) {
    const int64_t jb = k1 - k < AXB_OCL_NB ? k1 - k : AXB_OCL_NB;
    st = ocl_chol_diag(h, DBL, dA, k + k * ldd, ldd, jb, k, uplo == AXB_UPPER,
                       dinfo);
    if (!st && k1 - k - jb > 0)
      st = FN_(chol_step)(h, uplo, dA, ldd, k, jb, k1 - k - jb, dW, dT);
  }
  if (!st) st = axb__ocl_download(h, dinfo, 1, 1, 1, sizeof(int), hinfo, 1);
  return st;
}

/* Blocked Cholesky in two levels: outer blocks of o->nb (64 on a GPU: one
   level), each diagonal block by chol_inner, then the block column and the
   trailing matrix with k = o->nb. */
axb_status AXB_FN(axb_ocl_, potrf)(axb_handle h, axb_uplo uplo, int64_t n, T *A,
                                   int64_t lda, int64_t *info) {
  cl_mem dA = NULL, dinfo = NULL, dW = NULL, dT = NULL;
  int64_t ldd = 0, ld1 = 0;
  int hinfo = 0;
  const int64_t nb = axb__ocl(h)->nb;
  axb_status st = ocl_fits(h, n, n);
  const int gpu = axb__ocl(h)->gpu_path;
  if (!st) st = FN_(upload_tri)(h, uplo, n, A, lda, &dA, &ldd, gpu);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * nb) * OCL_T_, &dW);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * n) * OCL_T_, &dT);
  if (!st) st = axb__ocl_upload(h, &hinfo, 1, 1, 1, sizeof(int), &dinfo, &ld1);
  if (!st && gpu) /* issue 29d: ocl_gpu_t.h */
    st = AXB_FN(axb__ocl_gpu_, potrf)(h, uplo, n, dA, ldd, dinfo, &hinfo);
  for (int64_t k = 0; !st && !gpu && !hinfo && k < n; k += nb) {
    const int64_t jb = n - k < nb ? n - k : nb, r = n - k - jb;
    st = FN_(chol_inner)(h, uplo, dA, ldd, k, k + jb, dinfo, &hinfo, dW, dT);
    if (!st && !hinfo && r > 0)
      st = FN_(chol_step)(h, uplo, dA, ldd, k, jb, r, dW, dT);
  }
  if (!st) st = FN_(download_tri)(h, uplo, dA, ldd, n, A, lda);
  if (!st && hinfo) st = axb__not_spd(h, info, hinfo, "potrf");
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dinfo);
  axb__ocl_free(dW);
  axb__ocl_free(dT);
  return st;
}

/* A = L L^T: X = L^-T L^-1 B.  A = U^T U: X = U^-1 U^-T B. */
axb_status AXB_FN(axb_ocl_, potrs)(axb_handle h, axb_uplo uplo, int64_t n,
                                   int64_t nrhs, const T *A, int64_t lda, T *B,
                                   int64_t ldb) {
  cl_mem dA = NULL, dB = NULL;
  int64_t ldd = 0, lde = 0;
  const axb_trans t1 = uplo == AXB_LOWER ? AXB_NO_TRANS : AXB_TRANS;
  const axb_trans t2 = uplo == AXB_LOWER ? AXB_TRANS : AXB_NO_TRANS;
  axb_status st = ocl_fits(h, n, nrhs);
  if (!st) st = FN_(upload_tri)(h, uplo, n, A, lda, &dA, &ldd, 0);
  if (!st) st = axb__ocl_upload(h, B, ldb, n, nrhs, OCL_T_, &dB, &lde);
  for (int pass = 0; pass < 2 && !st; ++pass) {
    const FN_(tri) t =
        FN_(whole)(h, dA, ldd, n, uplo, pass ? t2 : t1, AXB_NON_UNIT);
    st = FN_(trsm_left)(h, &t, nrhs, dB, lde, 0);
  }
  if (!st) st = axb__ocl_download(h, dB, lde, n, nrhs, OCL_T_, B, ldb);
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dB);
  return st;
}

/* inv(A) = U^-1 L^-1 P (LAPACK getri's formula): X := L^-1 by the solve
   L X = I restricted to X's lower triangle (n^3/3 flops), X := U^-1 X
   (n^3), then the columns of X interchanged in reverse pivot order on the
   host (O(n^2)).  A zero U(i,i) is reported first (as LAPACK getri), A
   untouched then. */
axb_status AXB_FN(axb_ocl_, getri)(axb_handle h, int64_t n, T *A, int64_t lda,
                                   const int64_t *ipiv, int64_t *info) {
  for (int64_t i = 0; i < n; ++i)
    if (A[i + i * lda] == 0)
      return axb__zero_pivot(h, info, i + 1, "getri", "U");
  for (int64_t i = 0; i < n; ++i)
    if (ipiv[i] < 1 || ipiv[i] > n)
      return axb__fail(h, AXB_ERR_INVALID,
                       "getri: ipiv[%lld] = %lld is not a row", (long long)i,
                       (long long)ipiv[i]);
  cl_mem dA = NULL, dX = NULL;
  int64_t ldd = 0, ldx = 0;
  axb_status st = ocl_fits(h, n, n);
  if (!st) st = axb__ocl_upload_kept(h, A, lda, n, n, OCL_T_, &dA, &ldd);
  if (!st) st = axb__ocl_upload(h, NULL, n, n, n, OCL_T_, &dX, &ldx);
  if (!st) st = ocl_identity(h, DBL, dX, ldx, n);
  for (int pass = 0; pass < 2 && !st; ++pass) {
    const FN_(tri) t = FN_(whole)(h, dA, ldd, n, pass ? AXB_UPPER : AXB_LOWER,
                                  AXB_NO_TRANS, pass ? AXB_NON_UNIT : AXB_UNIT);
    st = FN_(trsm_left)(h, &t, n, dX, ldx, !pass);
  }
  if (!st) st = axb__ocl_download(h, dX, ldx, n, n, OCL_T_, A, lda);
  for (int64_t j = n - 2; !st && j >= 0; --j) /* X P: columns j, ipiv(j) */
    if (ipiv[j] - 1 != j) {
      T *a = A + j * lda, *b = A + (ipiv[j] - 1) * lda;
      for (int64_t i = 0; i < n; ++i) {
        const T t = a[i];
        a[i] = b[i];
        b[i] = t;
      }
    }
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dX);
  return st;
}

/* C := alpha op(A) op(B) + beta C on device copies (k = 0: C := beta C). */
axb_status AXB_FN(axb_ocl_, gemm)(axb_handle h, axb_trans ta, axb_trans tb,
                                  int64_t m, int64_t n, int64_t k, T alpha,
                                  const T *A, int64_t lda, const T *B,
                                  int64_t ldb, T beta, T *C, int64_t ldc) {
  if (m == 0 || n == 0) return AXB_SUCCESS;
  if (k == 0) {
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        C[i + j * ldc] = beta == 0 ? 0 : beta * C[i + j * ldc];
    return AXB_SUCCESS;
  }
  cl_mem dA = NULL, dB = NULL, dC = NULL;
  int64_t la = 0, lb = 0, lc = 0;
  axb_status st = ocl_fits(h, m > k ? m : k, n > k ? n : k);
  if (!st)
    st = axb__ocl_upload(h, A, lda, ta == AXB_NO_TRANS ? m : k,
                         ta == AXB_NO_TRANS ? k : m, OCL_T_, &dA, &la);
  if (!st)
    st = axb__ocl_upload(h, B, ldb, tb == AXB_NO_TRANS ? k : n,
                         tb == AXB_NO_TRANS ? n : k, OCL_T_, &dB, &lb);
  if (!st) st = axb__ocl_upload(h, C, ldc, m, n, OCL_T_, &dC, &lc);
  if (!st)
    st = axb__ocl_gemm(h, "gemm", DBL, ta != AXB_NO_TRANS, tb != AXB_NO_TRANS,
                       m, n, k, alpha, dA, 0, la, dB, 0, lb, beta, dC, 0, lc);
  if (!st) st = axb__ocl_download(h, dC, lc, m, n, OCL_T_, C, ldc);
  axb__ocl_free(dA);
  axb__ocl_free(dB);
  axb__ocl_free(dC);
  return st;
}

/* B := alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right). */
axb_status AXB_FN(axb_ocl_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                                  axb_trans trans, axb_diag diag, int64_t m,
                                  int64_t n, T alpha, const T *A, int64_t lda,
                                  T *B, int64_t ldb) {
  if (m == 0 || n == 0) return AXB_SUCCESS;
  if (alpha == 0) { /* B := 0, A not read (BLAS) */
    for (int64_t j = 0; j < n; ++j)
      memset(B + j * ldb, 0, (size_t)m * OCL_T_);
    return AXB_SUCCESS;
  }
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t na = side == AXB_LEFT ? m : n;
  cl_mem dA = NULL, dB = NULL;
  int64_t la = 0, lb = 0;
  axb_status st = ocl_fits(h, m > na ? m : na, n > na ? n : na);
  if (!st) st = FN_(upload_tri)(h, uplo, na, A, lda, &dA, &la, 1);
  if (!st) st = axb__ocl_upload(h, B, ldb, m, n, OCL_T_, &dB, &lb);
  if (!st)
    st = axb__ocl_blast(
        h,
        BL(trsm)(
            CLBlastLayoutColMajor,
            side == AXB_LEFT ? CLBlastSideLeft : CLBlastSideRight,
            uplo == AXB_LOWER ? CLBlastTriangleLower : CLBlastTriangleUpper,
            trans == AXB_NO_TRANS ? CLBlastTransposeNo : CLBlastTransposeYes,
            diag == AXB_UNIT ? CLBlastDiagonalUnit : CLBlastDiagonalNonUnit, m,
            n, alpha, dA, 0, la, dB, 0, lb, &q, NULL),
        "trsm");
  if (!st) st = axb__ocl_download(h, dB, lb, m, n, OCL_T_, B, ldb);
  axb__ocl_free_kept(h, dA);
  axb__ocl_free(dB);
  return st;
}

#undef OCL_T_
#undef FN_
