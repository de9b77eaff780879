/*
 * The GPU-device getrf and potrf (issue 29d), written once for T = double
 * / float (ocl_gpu.c includes this twice with T, P, BL(name) = CLBlast's
 * D/S routine and DBL = 1/0), on a device copy of A.
 *   getrf  right-looking LU with outer blocks of o->gpu_nb columns.  The
 *          tall panel (rows k..m) is factored recursively: its columns
 *          split in halves down to a leaf of o->gpu_leaf columns, the
 *          left half factored, its interchanges applied to the right
 *          half, U12 := L11^-1 A12, A22 -= L21 U12 (GEMMs, below),
 *          the right half factored, its interchanges applied to the left.
 *          The leaf's columns one launch each over many work-groups
 *          (lu_gpu.cl), or (GPUs by default, AXB_OPENCL_GPU_LEAF_PERSIST) the
 *          whole leaf in one launch of G resident groups that meet at
 *          a global barrier per column (lu_persist.cl).  Then the
 *          block's interchanges on the columns left and right, U12 and
 *          A22 by GEMMs of depth NB.
 *   potrf  right-looking Cholesky with outer blocks of o->gpu_nb: the
 *          diagonal block recursively (halves down to chol_diag's 64, a
 *          triangular solve and SYRK between), the block column by one
 *          triangular solve, the trailing triangle by one SYRK (plus a
 *          GEMM for the next block column, see below).
 * Triangular solves: X := inv(T11) B as W = inv(T11) (tri_inv: our
 * trtri kernel on 64 x 64 blocks, GEMMs above) and one GEMM with a copy
 * of B, never CLBlast's TRSM: it copies its whole buffer up to B's last
 * element to a temporary and back (so it would undo the other queue's
 * writes to the panel) and syncs the host every 16 rows.
 * Look-ahead (both): the next block's columns are updated first and
 * marked by an event (the queue flushed), the rest of this step's
 * trailing update is queued behind it, then the second queue waits for
 * the event and factors the next panel (diagonal block) while the first
 * runs the rest; the first queue waits for the panel's event at the next
 * step.  The two touch disjoint columns in the meantime.
 */

#define GT_ sizeof(T)
#define GF_(name) AXB_FN(ocl_gpu_, name)

/* A queue's scratch: W the inverse of a diagonal block (nb x nb, ld
   its order), S tri_inv's product (nb x nb), B a copy of the block row
   or column being solved (nb x ncols). */
typedef struct {
  cl_mem W, S, B;
} GF_(ws);

static axb_status GF_(ws_alloc)(axb_handle h, GF_(ws) * w, int64_t nb,
                                int64_t ncols) {
  axb_status st = axb__ocl_alloc(h, (size_t)(nb * nb) * GT_, &w->W);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * nb) * GT_, &w->S);
  if (!st) st = axb__ocl_alloc(h, (size_t)(nb * ncols) * GT_, &w->B);
  return st;
}

/* Both queues' scratch: ws for n columns, ws2 for nb. */
static axb_status GF_(ws_alloc2)(axb_handle h, GF_(ws) * ws, GF_(ws) * ws2,
                                 int64_t nb, int64_t n) {
  axb_status st = GF_(ws_alloc)(h, ws, nb, n);
  return st ? st : GF_(ws_alloc)(h, ws2, nb, nb);
}

static void GF_(ws_free)(GF_(ws) * w) {
  axb__ocl_free(w->W);
  axb__ocl_free(w->S);
  axb__ocl_free(w->B);
}

/* W (at w0, ld ldw) := inv(L) for the w x w lower triangle L at a0 of A
   (unit: ones on its diagonal; upper: L = U^T of the upper triangle),
   W's strictly upper part already zero.  Halves: inv([L11 0; L21 L22])
   has W11 = inv(L11), W22 = inv(L22), W21 = -W22 (L21 W11), the product
   in S; our trtri kernel from 64 down. */
static axb_status GF_(tri_inv)(axb_handle h, cl_mem A, int64_t a0, int64_t lda,
                               int64_t w, int unit, int upper, cl_mem W,
                               int64_t w0, int64_t ldw, cl_mem S) {
  if (w <= AXB_OCL_NB)
    return axb__ocl_trtri_at(h, DBL, A, a0, lda, w, unit, upper, W, w0, ldw);
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t n1 = w / 2, n2 = w - n1;
  const size_t w22 = w0 + n1 + n1 * ldw;
  axb_status st = GF_(tri_inv)(h, A, a0, lda, n1, unit, upper, W, w0, ldw, S);
  if (!st)
    st = GF_(tri_inv)(h, A, a0 + n1 + n1 * lda, lda, n2, unit, upper, W, w22,
                      ldw, S);
  if (!st) /* S := L21 W11, L21 = A21 or (U12)^T */
    st = axb__ocl_blast(
        h,
        BL(gemm)(CLBlastLayoutColMajor,
                 upper ? CLBlastTransposeYes : CLBlastTransposeNo,
                 CLBlastTransposeNo, n2, n1, n1, 1, A,
                 upper ? a0 + n1 * lda : a0 + n1, lda, W, w0, ldw, 0, S, 0, n2,
                 &q, NULL),
        "tri_inv: GEMM L21 W11");
  if (!st)
    st = axb__ocl_blast(h,
                        BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                 CLBlastTransposeNo, n2, n1, n2, -1, W, w22,
                                 ldw, S, 0, n2, 0, W, w0 + n1, ldw, &q, NULL),
                        "tri_inv: GEMM W22 S");
  return st;
}

/* ws->W (ld w) := inv(L) of the w x w block at a0 as tri_inv, zeroed
   first (its upper part stays zero). */
static axb_status GF_(inverse)(axb_handle h, const GF_(ws) * ws, cl_mem A,
                               int64_t a0, int64_t lda, int64_t w, int unit,
                               int upper) {
  const T zero = 0;
  axb__ocl(h)->enq++;
  axb_status st =
      axb__ocl_check(h,
                     clEnqueueFillBuffer(axb__ocl(h)->q, ws->W, &zero, GT_, 0,
                                         (size_t)(w * w) * GT_, 0, NULL, NULL),
                     "clEnqueueFillBuffer");
  return st ? st
            : GF_(tri_inv)(h, A, a0, lda, w, unit, upper, ws->W, 0, w, ws->S);
}

/* The LU's device state: A (ld ld, m rows), pivots, info, and the
   leaf's scratch (S reals, I ints: GPU_LEAF_REALS, GPU_LEAF_INTS). */
typedef struct {
  cl_mem A, piv, info, S, I;
  int64_t ld, m;
} GF_(lu);

/* Columns [c0, c1) (rows c0..m) as a leaf: lu_leaf_start, then one
   lu_step per column (lu_gpu.cl); with the persistent leaf on, one
   launch of lu_leaf_persist (lu_persist.cl). */
static axb_status GF_(leaf)(axb_handle h, const GF_(lu) * f, int64_t c0,
                            int64_t c1) {
  if (axb__ocl(h)->gpu_persist)
    return gpu_leaf_persist(h, DBL, f->A, f->ld, c0, c1, f->m, f->S, f->I,
                            f->piv, f->info);
  int g = leaf_groups(h, f->m - c0);
  axb_status st =
      gpu_leaf_start(h, DBL, f->A, f->ld, c0, c1, f->m, g, f->S, f->I);
  for (int64_t j = c0; !st && j < c1; ++j) {
    const int g_in = g;
    g = leaf_groups(h, f->m - j - 1);
    st = gpu_step(h, DBL, f->A, f->ld, j, c0, c1, f->m, g, g_in, f->S, f->I,
                  f->piv, f->info);
  }
  return st;
}

/* After the w pivots at k, with ws->W = inv(L11): columns [c, c + nc)
   get U12 := W A12 (from a copy) on rows k..k+w and A22 -= L21 U12 on
   rows k+w..m; in_panel, next: the profile's categories (cu, ct). */
static axb_status GF_(update)(axb_handle h, const GF_(lu) * f,
                              const GF_(ws) * ws, int64_t k, int64_t w,
                              int64_t c, int64_t nc, int in_panel, int next) {
  if (nc <= 0) return AXB_SUCCESS;
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t ld = f->ld, r = f->m - k - w;
  const int cu =
      in_panel ? AXB_OCL_PROF_LU_PANEL_GEMM : AXB_OCL_PROF_LU_U12_GEMM;
  const int ct = in_panel ? AXB_OCL_PROF_LU_PANEL_GEMM
                 : next   ? AXB_OCL_PROF_LU_TRAIL_NEXT
                          : AXB_OCL_PROF_LU_TRAIL;
  axb_status st;
  prof_mark pm = prof_start(h);
  st = axb__ocl_copy_block(h, GT_, f->A, k + c * ld, ld, ws->B, 0, w, w, nc);
  st = prof_stop(h, pm, AXB_OCL_PROF_COPY, st);
  if (!st) {
    pm = prof_start(h);
    st =
        axb__ocl_blast(h,
                       BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                CLBlastTransposeNo, w, nc, w, 1, ws->W, 0, w,
                                ws->B, 0, w, 0, f->A, k + c * ld, ld, &q, NULL),
                       "getrf: GEMM of the block row");
    st = prof_stop(h, pm, cu, st);
  }
  if (!st && r > 0) {
    pm = prof_start(h);
    st = axb__ocl_blast(h,
                        BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                 CLBlastTransposeNo, r, nc, w, -1, f->A,
                                 k + w + k * ld, ld, f->A, k + c * ld, ld, 1,
                                 f->A, k + w + c * ld, ld, &q, NULL),
                        "getrf: GEMM of the trailing matrix");
    st = prof_stop(h, pm, ct, st);
  }
  return st;
}

/* ws->W := inv(L11) of the unit lower w x w block at k. */
static axb_status GF_(inv_l11)(axb_handle h, const GF_(lu) * f,
                               const GF_(ws) * ws, int64_t k, int64_t w) {
  return GF_(inverse)(h, ws, f->A, k + k * f->ld, f->ld, w, 1, 0);
}

/* Columns [c0, c0 + w) of the panel, rows c0..m, recursively: halves
   down to the leaf; the interchanges of each half on the other half. */
static axb_status GF_(panel)(axb_handle h, const GF_(lu) * f,
                             const GF_(ws) * ws, int64_t c0, int64_t w) {
  axb_status st;
  if (w <= axb__ocl(h)->gpu_leaf) {
    PROF(h, LU_LEAF, st, GF_(leaf)(h, f, c0, c0 + w));
    return st;
  }
  const int64_t n1 = w / 2, ld = f->ld;
  st = GF_(panel)(h, f, ws, c0, n1);
  if (!st)
    PROF(h, LU_PANEL_SWAP, st,
         axb__ocl_laswp(h, DBL, f->A, (c0 + n1) * ld, ld, w - n1, f->piv, c0,
                        c0 + n1, 1));
  if (!st) PROF(h, LU_PANEL_INV, st, GF_(inv_l11)(h, f, ws, c0, n1));
  if (!st) st = GF_(update)(h, f, ws, c0, n1, c0 + n1, w - n1, 1, 0);
  if (!st) st = GF_(panel)(h, f, ws, c0 + n1, w - n1);
  if (!st)
    PROF(h, LU_PANEL_SWAP, st,
         axb__ocl_laswp(h, DBL, f->A, c0 * ld, ld, n1, f->piv, c0 + n1, c0 + w,
                        1));
  return st;
}

/* The panel [k, k + w) on the side queue (its scratch ws), after *wait;
 *ev marks its end. */
static axb_status GF_(panel_side)(axb_handle h, const GF_(lu) * f,
                                  const GF_(ws) * ws, int64_t k, int64_t w,
                                  cl_event *wait, cl_event *ev) {
  axb_status st;
  swap_queues(h);
  PROF(h, LOOKAHEAD, st, wait_for(h, wait));
  if (!st) st = GF_(panel)(h, f, ws, k, w);
  if (!st) PROF(h, LOOKAHEAD, st, mark(h, ev));
  swap_queues(h);
  return st;
}

/* Step k of the LU on the main queue (scratch ws) once its panel is
   factored: the interchanges left and right, inv(L11), the next panel's
   columns updated and handed to the side queue (scratch ws2), then the
   rest of the trailing matrix. */
static axb_status GF_(lu_step)(axb_handle h, const GF_(lu) * f,
                               const GF_(ws) * ws, const GF_(ws) * ws2,
                               int64_t n, int64_t k, int64_t jb, int64_t jn,
                               cl_event *ev_panel) {
  const int64_t kn = k + jb, ld = f->ld;
  cl_event ev_next = NULL;
  axb_status st;
  PROF(h, LOOKAHEAD, st, wait_for(h, ev_panel));
  if (!st && k > 0)
    PROF(h, LU_SWAP_LEFT, st,
         axb__ocl_laswp(h, DBL, f->A, 0, ld, k, f->piv, k, kn, 1));
  if (!st && n > kn)
    PROF(h, LU_SWAP_RIGHT, st,
         axb__ocl_laswp(h, DBL, f->A, kn * ld, ld, n - kn, f->piv, k, kn, 1));
  if (!st && n > kn) PROF(h, LU_U12_INV, st, GF_(inv_l11)(h, f, ws, k, jb));
  if (!st && jn > 0) { /* look-ahead: the next panel's columns first */
    st = GF_(update)(h, f, ws, k, jb, kn, jn, 0, 1);
    if (!st) PROF(h, LOOKAHEAD, st, mark(h, &ev_next));
  }
  /* the rest queued before the panel: the host is not held up by the
     panel's many launches while the main queue could be fed */
  if (!st) st = GF_(update)(h, f, ws, k, jb, kn + jn, n - kn - jn, 0, 0);
  if (!st && jn > 0)
    st = GF_(panel_side)(h, f, ws2, kn, jn, &ev_next, ev_panel);
  if (ev_next) clReleaseEvent(ev_next);
  return st;
}

/* getrf's scratch: the leaf's, ws for the block rows (n columns) and ws2
   for the panel on the side queue. */
static axb_status GF_(lu_alloc)(axb_handle h, GF_(lu) * f, GF_(ws) * ws,
                                GF_(ws) * ws2, int64_t nb, int64_t n) {
  axb_status st = axb__ocl_alloc(h, GPU_LEAF_REALS * GT_, &f->S);
  if (!st) st = axb__ocl_alloc(h, GPU_LEAF_INTS * sizeof(int), &f->I);
  if (!st) st = gpu_leaf_bar_init(h, f->I);
  if (!st) st = GF_(ws_alloc)(h, ws, nb, n);
  if (!st) st = GF_(ws_alloc)(h, ws2, nb, nb);
  return st;
}

axb_status AXB_FN(axb__ocl_gpu_, getrf)(axb_handle h, int64_t m, int64_t n,
                                        cl_mem dA, int64_t ldd, cl_mem dpiv,
                                        cl_mem dinfo) {
  const int64_t mn = m < n ? m : n, nb = axb__ocl(h)->gpu_nb;
  GF_(lu) f = {dA, dpiv, dinfo, NULL, NULL, ldd, m};
  GF_(ws) ws = {NULL, NULL, NULL}, ws2 = {NULL, NULL, NULL};
  cl_event ev_panel = NULL, none = NULL;
  const prof_mark all = prof_begin_total(h);
  axb_status st;
  PROF(h, SETUP, st, GF_(lu_alloc)(h, &f, &ws, &ws2, nb, n));
  if (!st && mn > 0)
    st = GF_(panel_side)(h, &f, &ws2, 0, mn < nb ? mn : nb, &none, &ev_panel);
  for (int64_t k = 0, jb; !st && k < mn; k += jb) {
    jb = mn - k < nb ? mn - k : nb;
    const int64_t jn = mn - k - jb < nb ? mn - k - jb : nb;
    st = GF_(lu_step)(h, &f, &ws, &ws2, n, k, jb, jn, &ev_panel);
  }
  const axb_status fin = finish_both(h);
  if (ev_panel) clReleaseEvent(ev_panel);
  axb__ocl_free(f.S);
  axb__ocl_free(f.I);
  GF_(ws_free)(&ws);
  GF_(ws_free)(&ws2);
  prof_total(h, all);
  return st ? st : fin;
}

/* The block column beside the w x w diagonal block at k0 (r rows below
   it, or r columns right): lower A21 := A21 L11^-T = B W^T with W =
   inv(L11), upper A12 := U11^-T A12 = W B with W = inv(U11^T), B the
   block column's copy; in_diag: inside the diagonal block (profile). */
static axb_status GF_(chol_col)(axb_handle h, int lo, const GF_(ws) * ws,
                                cl_mem A, int64_t ld, int64_t k0, int64_t w,
                                int64_t r, int in_diag) {
  cl_command_queue q = axb__ocl(h)->q;
  const size_t off = lo ? k0 + w + k0 * ld : k0 + (k0 + w) * ld;
  const int64_t rows = lo ? r : w, cols = lo ? w : r;
  prof_mark pm = prof_start(h);
  axb_status st = GF_(inverse)(h, ws, A, k0 + k0 * ld, ld, w, 0, !lo);
  st = prof_stop(h, pm,
                 in_diag ? AXB_OCL_PROF_CH_DIAG_INV : AXB_OCL_PROF_CH_INV, st);
  if (!st)
    PROF(h, COPY, st,
         axb__ocl_copy_block(h, GT_, A, off, ld, ws->B, 0, rows, rows, cols));
  if (!st) {
    pm = prof_start(h);
    st = axb__ocl_blast(h,
                        lo ? BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                      CLBlastTransposeYes, r, w, w, 1, ws->B, 0,
                                      r, ws->W, 0, w, 0, A, off, ld, &q, NULL)
                           : BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                      CLBlastTransposeNo, w, r, w, 1, ws->W, 0,
                                      w, ws->B, 0, w, 0, A, off, ld, &q, NULL),
                        "potrf: GEMM of the block column");
    st = prof_stop(
        h, pm, in_diag ? AXB_OCL_PROF_CH_DIAG_GEMM : AXB_OCL_PROF_CH_COL_GEMM,
        st);
  }
  return st;
}

/* The diagonal block [k0, k0 + w) recursively: halves down to
   AXB_OCL_NB (chol_diag, which does nothing once info is set), the
   lower half's block column (chol_col) and its triangle by SYRK between. */
static axb_status GF_(chol_rec)(axb_handle h, int lo, const GF_(ws) * ws,
                                cl_mem A, int64_t ld, int64_t k0, int64_t w,
                                cl_mem dinfo) {
  axb_status st;
  if (w <= AXB_OCL_NB) {
    PROF(h, CH_DIAG_CHOL, st,
         axb__ocl_chol_diag(h, DBL, A, k0 + k0 * ld, ld, w, k0, !lo, dinfo));
    return st;
  }
  cl_command_queue q = axb__ocl(h)->q;
  const int64_t n1 = w / 2, k1 = k0 + n1, r = w - n1;
  st = GF_(chol_rec)(h, lo, ws, A, ld, k0, n1, dinfo);
  if (!st) st = GF_(chol_col)(h, lo, ws, A, ld, k0, n1, r, 1);
  if (!st)
    PROF(h, CH_DIAG_SYRK, st,
         axb__ocl_blast(
             h,
             BL(syrk)(CLBlastLayoutColMajor,
                      lo ? CLBlastTriangleLower : CLBlastTriangleUpper,
                      lo ? CLBlastTransposeNo : CLBlastTransposeYes, r, n1, -1,
                      A, lo ? k1 + k0 * ld : k0 + k1 * ld, ld, 1, A,
                      k1 + k1 * ld, ld, &q, NULL),
             "potrf: SYRK inside the diagonal block"));
  if (!st) st = GF_(chol_rec)(h, lo, ws, A, ld, k1, r, dinfo);
  return st;
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
  prof_mark pm = prof_start(h);
  axb_status st = axb__ocl_blast(
      h,
      BL(syrk)(CLBlastLayoutColMajor,
               lo ? CLBlastTriangleLower : CLBlastTriangleUpper,
               lo ? CLBlastTransposeNo : CLBlastTransposeYes, nc, jb, -1, A,
               a_c, ld, 1, A, c + c * ld, ld, &q, NULL),
      "potrf: SYRK of the trailing matrix");
  st = prof_stop(h, pm, AXB_OCL_PROF_CH_SYRK, st);
  if (st || !beside || rest <= 0) return st;
  pm = prof_start(h);
  st = axb__ocl_blast(h,
                      lo ? BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                    CLBlastTransposeYes, rest, nc, jb, -1, A,
                                    c + nc + k * ld, ld, A, a_c, ld, 1, A,
                                    c + nc + c * ld, ld, &q, NULL)
                         : BL(gemm)(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                    CLBlastTransposeNo, nc, rest, jb, -1, A,
                                    a_c, ld, A, k + (c + nc) * ld, ld, 1, A,
                                    c + (c + nc) * ld, ld, &q, NULL),
                      "potrf: GEMM of the next block column");
  return prof_stop(h, pm, AXB_OCL_PROF_CH_GEMM, st);
}

/* The diagonal block [k, k + w) on the side queue (scratch ws) after
 *wait; *ev marks its end. */
static axb_status GF_(diag_side)(axb_handle h, int lo, const GF_(ws) * ws,
                                 cl_mem A, int64_t ld, int64_t k, int64_t w,
                                 cl_mem dinfo, cl_event *wait, cl_event *ev) {
  axb_status st;
  swap_queues(h);
  PROF(h, LOOKAHEAD, st, wait_for(h, wait));
  if (!st) st = GF_(chol_rec)(h, lo, ws, A, ld, k, w, dinfo);
  if (!st) PROF(h, LOOKAHEAD, st, mark(h, ev));
  swap_queues(h);
  return st;
}

/* Step k of the Cholesky on the main queue once its diagonal block is
   factored: the block column, the next diagonal block's columns updated
   and handed to the side queue (scratch ws2), then the rest. */
static axb_status GF_(chol_step)(axb_handle h, int lo, const GF_(ws) * ws,
                                 const GF_(ws) * ws2, cl_mem A, int64_t ld,
                                 int64_t n, int64_t k, int64_t jb, cl_mem dinfo,
                                 cl_event *ev_diag) {
  const int64_t kn = k + jb, r = n - kn, jn = r < jb ? r : jb;
  cl_event ev_next = NULL;
  axb_status st;
  PROF(h, LOOKAHEAD, st, wait_for(h, ev_diag));
  if (!st && r > 0) st = GF_(chol_col)(h, lo, ws, A, ld, k, jb, r, 0);
  if (!st && jn > 0) { /* look-ahead: the next diagonal block first */
    st = GF_(chol_trail)(h, lo, A, ld, n, k, jb, kn, jn, 1);
    if (!st) PROF(h, LOOKAHEAD, st, mark(h, &ev_next));
  }
  if (!st && r > jn) /* the rest, queued before the diagonal block */
    st = GF_(chol_trail)(h, lo, A, ld, n, k, jb, kn + jn, r - jn, 0);
  if (!st && jn > 0)
    st = GF_(diag_side)(h, lo, ws2, A, ld, kn, jn, dinfo, &ev_next, ev_diag);
  if (ev_next) clReleaseEvent(ev_next);
  return st;
}

axb_status AXB_FN(axb__ocl_gpu_, potrf)(axb_handle h, axb_uplo uplo, int64_t n,
                                        cl_mem dA, int64_t ldd, cl_mem dinfo,
                                        int *hinfo) {
  const int64_t nb = axb__ocl(h)->gpu_nb;
  const int lo = uplo == AXB_LOWER;
  GF_(ws) ws = {NULL, NULL, NULL}, ws2 = {NULL, NULL, NULL};
  cl_event ev_diag = NULL, none = NULL;
  *hinfo = 0;
  const prof_mark all = prof_begin_total(h);
  axb_status st;
  PROF(h, SETUP, st, GF_(ws_alloc2)(h, &ws, &ws2, nb, n));
  if (!st && n > 0)
    st = GF_(diag_side)(h, lo, &ws2, dA, ldd, 0, n < nb ? n : nb, dinfo, &none,
                        &ev_diag);
  for (int64_t k = 0, jb; !st && k < n; k += jb) {
    jb = n - k < nb ? n - k : nb;
    /* info once per outer block, read on the side queue: the host waits
       for the diagonal block only, the main queue keeps its work */
    PROF(h, CH_INFO, st,
         axb__ocl_check(h,
                        clEnqueueReadBuffer(axb__ocl(h)->q2, dinfo, CL_TRUE, 0,
                                            sizeof(int), hinfo, 0, NULL, NULL),
                        "clEnqueueReadBuffer (info)"));
    if (st || *hinfo) break;
    st = GF_(chol_step)(h, lo, &ws, &ws2, dA, ldd, n, k, jb, dinfo, &ev_diag);
  }
  const axb_status fin = finish_both(h);
  if (ev_diag) clReleaseEvent(ev_diag);
  GF_(ws_free)(&ws);
  GF_(ws_free)(&ws2);
  prof_total(h, all);
  return st ? st : fin;
}

#undef GT_
#undef GF_
