/*
 * The GPU-device getrf and potrf (issue 29d), written once for T = double
 * / float (ocl_gpu.c includes this twice with T, P, BL(name) = CLBlast's
 * D/S routine and DBL = 1/0), on a device copy of A.
 *   getrf  right-looking LU with outer blocks of o->gpu_nb columns.  The
 *          tall panel (rows k..m) is factored recursively: its columns
 *          split in halves down to a leaf of o->gpu_leaf columns, the
 *          left half factored, its interchanges applied to the right
 *          half, U12 := L11^-1 A12 (CLBlast TRSM), A22 -= L21 U12 (GEMM),
 *          the right half factored, its interchanges applied to the left.
 *          The leaf's columns one at a time over many work-groups
 *          (lu_gpu.cl).  Then the block's interchanges on the columns
 *          left and right, U12 by TRSM and A22 by one GEMM of depth NB.
 *   potrf  right-looking Cholesky with outer blocks of o->gpu_nb: the
 *          diagonal block recursively (halves down to chol_diag's 64,
 *          TRSM and SYRK between), the block column by one TRSM, the
 *          trailing triangle by one SYRK (plus a GEMM for the next block
 *          column, see below).
 * Look-ahead (both): the next block's columns are updated first and
 * marked by an event; the second queue waits for it and factors the next
 * panel (diagonal block) while the first queue runs the rest of this
 * step's trailing update; the first queue waits for the panel's event at
 * the next step.  The two touch disjoint columns in the meantime.
 */

#define GT_ sizeof(T)
#define GF_(name) AXB_FN(ocl_gpu_, name)

/* The LU's device state: A (ld ld, m rows), pivots, info, and the leaf's
   partial maxima (GPU_GROUPS values and rows). */
typedef struct {
  cl_mem A, piv, info, pv, pi;
  int64_t ld, m;
} GF_(lu);

/* Columns [c0, c1) (rows c0..m) as a leaf: the first column's partial
   maxima, then per column its pivot and its update (lu_gpu.cl). */
static axb_status GF_(leaf)(axb_handle h, const GF_(lu) * f, int64_t c0,
                            int64_t c1) {
  int g = leaf_groups(h, f->m - c0);
  axb_status st =
      gpu_amax(h, DBL, f->A, f->ld, c0, c0, f->m, g, f->pv, f->pi);
  for (int64_t j = c0; !st && j < c1; ++j) {
    st = gpu_pivot(h, DBL, f->A, f->ld, j, c0, c1, f->pv, f->pi, g, f->piv,
                   f->info);
    g = leaf_groups(h, f->m - j - 1);
    if (!st)
      st = gpu_col_update(h, DBL, f->A, f->ld, j, c1, f->m, g, f->pv, f->pi);
  }
  return st;
}

/* After the w pivots at k: columns [c, c + nc) get U12 := L11^-1 A12
   (rows k..k+w) and A22 -= L21 U12 (rows k+w..m). */
static axb_status GF_(update)(axb_handle h, const GF_(lu) * f, int64_t k,
                              int64_t w, int64_t c, int64_t nc) {
  if (nc <= 0) return AXB_SUCCESS;
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t ld = f->ld, r = f->m - k - w;
  axb_status st = axb__ocl_blast(
      h,
      BL(trsm)(CLBlastLayoutColMajor, CLBlastSideLeft, CLBlastTriangleLower,
               CLBlastTransposeNo, CLBlastDiagonalUnit, w, nc, 1, f->A,
               k + k * ld, ld, f->A, k + c * ld, ld, &q, NULL),
      "getrf: TRSM of the block row");
  if (!st && r > 0)
    st = axb__ocl_blast(h,
                        BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                 CLBlastTransposeNo, r, nc, w, -1, f->A,
                                 k + w + k * ld, ld, f->A, k + c * ld, ld, 1,
                                 f->A, k + w + c * ld, ld, &q, NULL),
                        "getrf: GEMM of the trailing matrix");
  return st;
}

/* Columns [c0, c0 + w) of the panel, rows c0..m, recursively: halves
   down to the leaf; the interchanges of each half on the other half. */
static axb_status GF_(panel)(axb_handle h, const GF_(lu) * f, int64_t c0,
                             int64_t w) {
  if (w <= axb__ocl(h)->gpu_leaf) return GF_(leaf)(h, f, c0, c0 + w);
  const int64_t n1 = w / 2, ld = f->ld;
  axb_status st = GF_(panel)(h, f, c0, n1);
  if (!st)
    st = axb__ocl_laswp(h, DBL, f->A, (c0 + n1) * ld, ld, w - n1, f->piv, c0,
                        c0 + n1, 1);
  if (!st) st = GF_(update)(h, f, c0, n1, c0 + n1, w - n1);
  if (!st) st = GF_(panel)(h, f, c0 + n1, w - n1);
  if (!st)
    st = axb__ocl_laswp(h, DBL, f->A, c0 * ld, ld, n1, f->piv, c0 + n1, c0 + w,
                        1);
  return st;
}

/* The panel [k, k + w) on the side queue, *ev marking its end. */
static axb_status GF_(panel_side)(axb_handle h, const GF_(lu) * f, int64_t k,
                                  int64_t w, cl_event *wait, cl_event *ev) {
  swap_queues(h);
  axb_status st = wait_for(h, wait);
  if (!st) st = GF_(panel)(h, f, k, w);
  if (!st) st = mark(h, ev);
  swap_queues(h);
  return st;
}

axb_status AXB_FN(axb__ocl_gpu_, getrf)(axb_handle h, int64_t m, int64_t n,
                                        cl_mem dA, int64_t ldd, cl_mem dpiv,
                                        cl_mem dinfo) {
  const int64_t mn = m < n ? m : n, nb = axb__ocl(h)->gpu_nb;
  GF_(lu) f = {dA, dpiv, dinfo, NULL, NULL, ldd, m};
  cl_event ev_panel = NULL, ev_next = NULL;
  axb_status st = axb__ocl_alloc(h, GPU_GROUPS * GT_, &f.pv);
  if (!st) st = axb__ocl_alloc(h, GPU_GROUPS * sizeof(int), &f.pi);
  if (!st && mn > 0)
    st = GF_(panel_side)(h, &f, 0, mn < nb ? mn : nb, &ev_next, &ev_panel);
  for (int64_t k = 0, jb; !st && k < mn; k += jb) {
    jb = mn - k < nb ? mn - k : nb;
    const int64_t kn = k + jb, jn = mn - kn < nb ? mn - kn : nb;
    st = wait_for(h, &ev_panel);
    if (!st && k > 0) /* the block's interchanges, left and right */
      st = axb__ocl_laswp(h, DBL, dA, 0, ldd, k, dpiv, k, kn, 1);
    if (!st && n > kn)
      st = axb__ocl_laswp(h, DBL, dA, kn * ldd, ldd, n - kn, dpiv, k, kn, 1);
    if (!st && jn > 0) { /* look-ahead: the next panel's columns first */
      st = GF_(update)(h, &f, k, jb, kn, jn);
      if (!st) st = mark(h, &ev_next);
      if (!st) st = GF_(panel_side)(h, &f, kn, jn, &ev_next, &ev_panel);
    }
    if (!st) st = GF_(update)(h, &f, k, jb, kn + jn, n - kn - jn);
  }
  const axb_status fin = finish_both(h);
  if (ev_panel) clReleaseEvent(ev_panel);
  if (ev_next) clReleaseEvent(ev_next);
  axb__ocl_free(f.pv);
  axb__ocl_free(f.pi);
  return st ? st : fin;
}

/* The diagonal block [k0, k0 + w) recursively: halves down to
   AXB_OCL_NB (chol_diag, which does nothing once info is set), the
   lower half's block column by TRSM and its triangle by SYRK between. */
static axb_status GF_(chol_rec)(axb_handle h, int lo, cl_mem A, int64_t ld,
                                int64_t k0, int64_t w, cl_mem dinfo) {
  if (w <= AXB_OCL_NB)
    return axb__ocl_chol_diag(h, DBL, A, k0 + k0 * ld, ld, w, k0, !lo, dinfo);
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t n1 = w / 2, k1 = k0 + n1, r = w - n1;
  axb_status st = GF_(chol_rec)(h, lo, A, ld, k0, n1, dinfo);
  if (!st)
    st = axb__ocl_blast(
        h,
        lo ? BL(trsm)(CLBlastLayoutColMajor, CLBlastSideRight,
                      CLBlastTriangleLower, CLBlastTransposeYes,
                      CLBlastDiagonalNonUnit, r, n1, 1, A, k0 + k0 * ld, ld, A,
                      k1 + k0 * ld, ld, &q, NULL)
           : BL(trsm)(CLBlastLayoutColMajor, CLBlastSideLeft,
                      CLBlastTriangleUpper, CLBlastTransposeYes,
                      CLBlastDiagonalNonUnit, n1, r, 1, A, k0 + k0 * ld, ld, A,
                      k0 + k1 * ld, ld, &q, NULL),
        "potrf: TRSM inside the diagonal block");
  if (!st)
    st = axb__ocl_blast(
        h,
        BL(syrk)(CLBlastLayoutColMajor,
                 lo ? CLBlastTriangleLower : CLBlastTriangleUpper,
                 lo ? CLBlastTransposeNo : CLBlastTransposeYes, r, n1, -1, A,
                 lo ? k1 + k0 * ld : k0 + k1 * ld, ld, 1, A, k1 + k1 * ld, ld,
                 &q, NULL),
        "potrf: SYRK inside the diagonal block");
  if (!st) st = GF_(chol_rec)(h, lo, A, ld, k1, r, dinfo);
  return st;
}

/* The block column of step k (jb wide, r beyond it): lower A21 :=
   A21 L11^-T, upper A12 := U11^-T A12 (one TRSM). */
static axb_status GF_(chol_panel)(axb_handle h, int lo, cl_mem A, int64_t ld,
                                  int64_t k, int64_t jb, int64_t r) {
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t kn = k + jb;
  return axb__ocl_blast(
      h,
      lo ? BL(trsm)(CLBlastLayoutColMajor, CLBlastSideRight,
                    CLBlastTriangleLower, CLBlastTransposeYes,
                    CLBlastDiagonalNonUnit, r, jb, 1, A, k + k * ld, ld, A,
                    kn + k * ld, ld, &q, NULL)
         : BL(trsm)(CLBlastLayoutColMajor, CLBlastSideLeft,
                    CLBlastTriangleUpper, CLBlastTransposeYes,
                    CLBlastDiagonalNonUnit, jb, r, 1, A, k + k * ld, ld, A,
                    k + kn * ld, ld, &q, NULL),
      "potrf: TRSM of the block column");
}

/* Step k's update of the nc x nc diagonal block at c (one SYRK: lower
   A[c.., c..] -= A21_c A21_c^T, upper A12_c^T A12_c) and, when `beside`,
   of the rest of its block column (lower: the rows below; upper: the
   columns right) by a GEMM: the next step's panel, before look-ahead. */
static axb_status GF_(chol_trail)(axb_handle h, int lo, cl_mem A, int64_t ld,
                                  int64_t n, int64_t k, int64_t jb, int64_t c,
                                  int64_t nc, int beside) {
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t rest = n - c - nc;
  const size_t a_c = lo ? c + k * ld : k + c * ld; /* A21 / A12 at c */
  axb_status st = axb__ocl_blast(
      h,
      BL(syrk)(CLBlastLayoutColMajor,
               lo ? CLBlastTriangleLower : CLBlastTriangleUpper,
               lo ? CLBlastTransposeNo : CLBlastTransposeYes, nc, jb, -1, A,
               a_c, ld, 1, A, c + c * ld, ld, &q, NULL),
      "potrf: SYRK of the trailing matrix");
  if (st || !beside || rest <= 0) return st;
  return axb__ocl_blast(
      h,
      lo ? BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                    CLBlastTransposeYes, rest, nc, jb, -1, A,
                    c + nc + k * ld, ld, A, a_c, ld, 1, A, c + nc + c * ld, ld,
                    &q, NULL)
         : BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeYes,
                    CLBlastTransposeNo, nc, rest, jb, -1, A, a_c, ld, A,
                    k + (c + nc) * ld, ld, 1, A, c + (c + nc) * ld, ld, &q,
                    NULL),
      "potrf: GEMM of the next block column");
}

/* The diagonal block [k, k + w) on the side queue, *ev marking its end. */
static axb_status GF_(diag_side)(axb_handle h, int lo, cl_mem A, int64_t ld,
                                 int64_t k, int64_t w, cl_mem dinfo,
                                 cl_event *wait, cl_event *ev) {
  swap_queues(h);
  axb_status st = wait_for(h, wait);
  if (!st) st = GF_(chol_rec)(h, lo, A, ld, k, w, dinfo);
  if (!st) st = mark(h, ev);
  swap_queues(h);
  return st;
}

axb_status AXB_FN(axb__ocl_gpu_, potrf)(axb_handle h, axb_uplo uplo, int64_t n,
                                        cl_mem dA, int64_t ldd, cl_mem dinfo,
                                        int *hinfo) {
  const int64_t nb = axb__ocl(h)->gpu_nb;
  const int lo = uplo == AXB_LOWER;
  cl_event ev_diag = NULL, ev_next = NULL;
  axb_status st = AXB_SUCCESS;
  *hinfo = 0;
  if (n > 0)
    st = GF_(diag_side)(h, lo, dA, ldd, 0, n < nb ? n : nb, dinfo, &ev_next,
                        &ev_diag);
  for (int64_t k = 0, jb; !st && k < n; k += jb) {
    jb = n - k < nb ? n - k : nb;
    const int64_t kn = k + jb, r = n - kn, jn = r < nb ? r : nb;
    /* info once per outer block, read on the side queue: the host waits
       for the diagonal block only, the main queue keeps its work */
    st = axb__ocl_check(h,
                        clEnqueueReadBuffer(axb__ocl(h)->q2, dinfo, CL_TRUE, 0,
                                            sizeof(int), hinfo, 0, NULL, NULL),
                        "clEnqueueReadBuffer (info)");
    if (st || *hinfo) break;
    st = wait_for(h, &ev_diag);
    if (!st && r > 0) st = GF_(chol_panel)(h, lo, dA, ldd, k, jb, r);
    if (!st && jn > 0) { /* look-ahead: the next diagonal block first */
      st = GF_(chol_trail)(h, lo, dA, ldd, n, k, jb, kn, jn, 1);
      if (!st) st = mark(h, &ev_next);
      if (!st)
        st = GF_(diag_side)(h, lo, dA, ldd, kn, jn, dinfo, &ev_next, &ev_diag);
    }
    if (!st && r > jn)
      st = GF_(chol_trail)(h, lo, dA, ldd, n, k, jb, kn + jn, r - jn, 0);
  }
  const axb_status fin = finish_both(h);
  if (ev_diag) clReleaseEvent(ev_diag);
  if (ev_next) clReleaseEvent(ev_next);
  return st ? st : fin;
}

#undef GT_
#undef GF_
