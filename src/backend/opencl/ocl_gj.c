/*
 * Blocked Gauss-Jordan inverse with partial pivoting on the OpenCL backend
 * (getri_gj, issue 29), in place on a device copy of A.  Per panel J of NB
 * columns (rows split into R1 above J, J, R3 below; "other" = the columns
 * outside J, two ranges):
 *   1. LU of M[J u R3, J] with partial pivoting (our panel kernel):
 *      A_JJ = L11 U11 after the interchanges, M[R3, J] = L21;
 *   2. the interchanges on the other columns (laswp kernel);
 *   3. WL = L11^-1, W = U11^-1 WL = A_JJ^-1 (our trtri kernel and a GEMM);
 *   4. per range C, with T2 = M[J, C] and T3 = WL T2: M[R3, C] -= L21 T3
 *      (that is A_3J A_JJ^-1 M[J, C], as A_3J = L21 U11); M[J, C] :=
 *      U11^-1 T3 (= A_JJ^-1 M[J, C]);
 *      M[R1, C] -= M[R1, J] M[J, C];
 *   5. column block J: M[R1, J] := -M[R1, J] W; M[R3, J] := -L21 WL
 *      (= -A_3J A_JJ^-1); M[J, J] := W.
 * That is one Gauss-Jordan step on NB pivots at once (the in-place
 * update of every other row and column), every level-3 step a CLBlast
 * GEMM (its TRSM took 11 ms per call on PoCL).
 * At the end the row interchanges are undone on the columns, last first:
 * inv(A) = inv(P A) P.  A zero pivot stops at the end of its panel (the
 * info read back per panel) with info = its column, A untouched.
 */
#include "backend/opencl/ocl.h"
#include "backend/verdict.h"

#include <limits.h>
#include <string.h>

/* C := alpha op(A) B + beta C in the precision dbl (op(A) = A^T when
   ta), offsets in elements. */
static axb_status gemm_t(axb_handle h, int dbl, int ta, size_t m, size_t n,
                         size_t k, double alpha, cl_mem A, size_t ao,
                         size_t lda, cl_mem B, size_t bo, size_t ldb,
                         double beta, cl_mem C, size_t co, size_t ldc) {
  if (!m || !n || !k) return AXB_SUCCESS;
  return axb__ocl_gemm(h, "getri_gj: GEMM", dbl, ta, 0, m, n, k, alpha, A, ao,
                       lda, B, bo, ldb, beta, C, co, ldc);
}

#define gemm(h, dbl, ...) gemm_t(h, dbl, 0, __VA_ARGS__)

/* Our kernels: panel LU, interchanges (the column unswap in getri_gj). */
static axb_status panel(axb_handle h, int dbl, cl_mem M, cl_long a0, cl_long ld,
                        cl_int m, cl_int jb, cl_int k0, cl_mem piv,
                        cl_mem info) {
  const size_t sz[] = {sizeof M,  sizeof a0, sizeof ld,  sizeof m,
                       sizeof jb, sizeof k0, sizeof piv, sizeof info};
  const void *const v[] = {&M, &a0, &ld, &m, &jb, &k0, &piv, &info};
  const size_t wg = (size_t)axb__ocl(h)->wg;
  return axb__ocl_run(h, dbl, OCL_LU_PANEL, wg, 0, wg, 0, 8, sz, v);
}

static axb_status swaps(axb_handle h, int dbl, cl_mem M, cl_long a0, cl_long ld,
                        cl_int ncols, cl_mem piv, cl_int k1, cl_int k2) {
  if (ncols <= 0) return AXB_SUCCESS;
  cl_int fwd = 1;
  const size_t sz[] = {sizeof M,   sizeof a0, sizeof ld, sizeof ncols,
                       sizeof piv, sizeof k1, sizeof k2, sizeof fwd};
  const void *const v[] = {&M, &a0, &ld, &ncols, &piv, &k1, &k2, &fwd};
  return axb__ocl_run(h, dbl, OCL_LASWP, (size_t)ncols, 0, 64, 0, 8, sz, v);
}

#define copy_block axb__ocl_copy_block

typedef struct {
  int dbl;
  size_t es, n, ld;
  cl_mem M, W, WL, WU, T, T2, T3, piv, info;
} gj_ctx;

/* Step 3: WL = L11^-1, WU = U11^-T (trtri), W = WU^T WL = A_JJ^-1. */
static axb_status pivot_inverse(axb_handle h, const gj_ctx *g, size_t k,
                                size_t jb) {
  const size_t J = k + k * g->ld;
  axb_status st =
      axb__ocl_trtri(h, g->dbl, g->M, J, g->ld, jb, 1, 0, g->WL, jb);
  if (!st) st = axb__ocl_trtri(h, g->dbl, g->M, J, g->ld, jb, 0, 1, g->WU, jb);
  if (!st)
    st = gemm_t(h, g->dbl, 1, jb, jb, jb, 1, g->WU, 0, jb, g->WL, 0, jb, 0,
                g->W, 0, jb);
  return st;
}

/* Step 4 on one range of other columns [c0, c0 + nc). */
static axb_status other_cols(axb_handle h, const gj_ctx *g, size_t k, size_t jb,
                             size_t c0, size_t nc) {
  const size_t ld = g->ld, n = g->n, r3 = k + jb, n3 = n - r3;
  const size_t JC = k + c0 * ld;
  if (!nc) return AXB_SUCCESS;
  axb_status st = copy_block(h, g->es, g->M, JC, ld, g->T2, 0, jb, jb, nc);
  if (!st) /* T3 = WL T2; M[R3, C] -= L21 T3 */
    st = gemm(h, g->dbl, jb, nc, jb, 1, g->WL, 0, jb, g->T2, 0, jb, 0, g->T3, 0,
              jb);
  if (!st)
    st = gemm(h, g->dbl, n3, nc, jb, -1, g->M, r3 + k * ld, ld, g->T3, 0, jb, 1,
              g->M, r3 + c0 * ld, ld);
  /* M[J, C] := U11^-1 T3 = WU^T T3: the two triangular inverses applied
     one after the other, as a solve would (the product W = A_JJ^-1 applied
     at once lost accuracy: residual 52 at n = 65, kappa 1e8) */
  if (!st)
    st = gemm_t(h, g->dbl, 1, jb, nc, jb, 1, g->WU, 0, jb, g->T3, 0, jb, 0,
                g->M, JC, ld);
  if (!st) /* M[R1, C] -= M[R1, J] M[J, C] */
    st = gemm(h, g->dbl, k, nc, jb, -1, g->M, k * ld, ld, g->M, JC, ld, 1, g->M,
              c0 * ld, ld);
  return st;
}

/* Step 5: the panel's own columns. */
static axb_status panel_cols(axb_handle h, const gj_ctx *g, size_t k,
                             size_t jb) {
  const size_t ld = g->ld, n = g->n, r3 = k + jb, n3 = n - r3;
  const size_t J = k + k * ld;
  /* T := -M[R1, J] W, then M[R1, J] := T */
  axb_status st = gemm(h, g->dbl, k, jb, jb, -1, g->M, k * ld, ld, g->W, 0, jb,
                       0, g->T, 0, n);
  if (!st) st = copy_block(h, g->es, g->T, 0, n, g->M, k * ld, ld, k, jb);
  /* T := L21, then M[R3, J] := -T WL */
  if (!st) st = copy_block(h, g->es, g->M, r3 + k * ld, ld, g->T, 0, n, n3, jb);
  if (!st)
    st = gemm(h, g->dbl, n3, jb, jb, -1, g->T, 0, n, g->WL, 0, jb, 0, g->M,
              r3 + k * ld, ld);
  if (!st) st = copy_block(h, g->es, g->W, 0, jb, g->M, J, ld, jb, jb);
  return st;
}

static axb_status gj_steps(axb_handle h, const gj_ctx *g, int *hinfo) {
  const size_t n = g->n, ld = g->ld, nb = AXB_OCL_NB;
  axb_status st = AXB_SUCCESS;
  for (size_t k = 0; !st && k < n; k += nb) {
    const size_t jb = n - k < nb ? n - k : nb, r3 = k + jb;
    st = panel(h, g->dbl, g->M, (cl_long)(k + k * ld), (cl_long)ld,
               (cl_int)(n - k), (cl_int)jb, (cl_int)k, g->piv, g->info);
    if (!st) st = axb__ocl_download(h, g->info, 1, 1, 1, sizeof(int), hinfo, 1);
    if (st || *hinfo) return st;
    if (!st)
      st = swaps(h, g->dbl, g->M, 0, (cl_long)ld, (cl_int)k, g->piv, (cl_int)k,
                 (cl_int)r3);
    if (!st)
      st = swaps(h, g->dbl, g->M, (cl_long)(r3 * ld), (cl_long)ld,
                 (cl_int)(n - r3), g->piv, (cl_int)k, (cl_int)r3);
    if (!st) st = pivot_inverse(h, g, k, jb);
    if (!st) st = other_cols(h, g, k, jb, 0, k);
    if (!st) st = other_cols(h, g, k, jb, r3, n - r3);
    if (!st) st = panel_cols(h, g, k, jb);
  }
  return st;
}

static axb_status getri_gj(axb_handle h, int dbl, size_t es, int64_t n, void *A,
                           int64_t lda, int64_t *info) {
  if (n > INT_MAX)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "getri_gj: n too large");
  gj_ctx g;
  memset(&g, 0, sizeof g);
  g.dbl = dbl;
  g.es = es;
  g.n = (size_t)n;
  const size_t nb = AXB_OCL_NB, w = nb * nb * es, t = (size_t)n * nb * es;
  int64_t ldd = 0, ld1 = 0;
  int hinfo = 0;
  axb_status st = axb__ocl_upload(h, A, lda, n, n, es, &g.M, &ldd);
  g.ld = (size_t)ldd;
  if (!st) st = axb__ocl_upload(h, &hinfo, 1, 1, 1, sizeof(int), &g.info, &ld1);
  if (!st) st = axb__ocl_alloc(h, (size_t)n * sizeof(int), &g.piv);
  if (!st) st = axb__ocl_alloc(h, w, &g.W);
  if (!st) st = axb__ocl_alloc(h, w, &g.WL);
  if (!st) st = axb__ocl_alloc(h, w, &g.WU);
  if (!st) st = axb__ocl_alloc(h, t, &g.T);
  if (!st) st = axb__ocl_alloc(h, t, &g.T2);
  if (!st) st = axb__ocl_alloc(h, t, &g.T3);
  if (!st) st = gj_steps(h, &g, &hinfo);
  if (!st && !hinfo) {
    cl_int nn = (cl_int)n;
    cl_long ld = ldd;
    const size_t sz[] = {sizeof nn, sizeof g.M, sizeof ld, sizeof g.piv};
    const void *const v[] = {&nn, &g.M, &ld, &g.piv};
    st = axb__ocl_run(h, dbl, OCL_GJ_UNSWAP, (size_t)n, 0, 64, 0, 4, sz, v);
    if (!st) st = axb__ocl_download(h, g.M, ldd, n, n, es, A, lda);
  }
  if (!st) st = axb__zero_pivot_column(h, info, hinfo, "getri_gj");
  axb__ocl_free(g.M);
  axb__ocl_free(g.W);
  axb__ocl_free(g.WL);
  axb__ocl_free(g.WU);
  axb__ocl_free(g.T);
  axb__ocl_free(g.T2);
  axb__ocl_free(g.T3);
  axb__ocl_free(g.piv);
  axb__ocl_free(g.info);
  return st;
}

static axb_status dgetri_gj(axb_handle h, int64_t n, double *A, int64_t lda,
                            int64_t *info) {
  return getri_gj(h, 1, sizeof(double), n, A, lda, info);
}

static axb_status sgetri_gj(axb_handle h, int64_t n, float *A, int64_t lda,
                            int64_t *info) {
  return getri_gj(h, 0, sizeof(float), n, A, lda, info);
}

void axb__ocl_gj_entries(axb_backend_ops *ops) {
  ops->d.getri_gj = dgetri_gj;
  ops->s.getri_gj = sgetri_gj;
}
