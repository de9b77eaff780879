/* Judging a run: x from what it left (factors, an inverse or x itself)
   and the scaled residual ||b - Ax|| / (||A|| ||x|| n eps). */
#include "bench.h"

typedef enum {
  OUT_LU,
  OUT_CROUT,
  OUT_CROUT_NOPIV,
  OUT_CHOL,
  OUT_INV,
  OUT_X
} outk;

static outk out_kind(int be, rtn r) {
  switch (bk_anchor(be) ? rt_anchor(r) : r) {
  case RT_LU: return OUT_LU;
  case RT_LU_CROUT: return OUT_CROUT;
  case RT_LU_FP:
  case RT_LU_FP_DAG: return OUT_CROUT_NOPIV; /* fixed point: never pivots */
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return OUT_CHOL;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB:
  case RT_BINV: return OUT_INV;
  default: return OUT_X; /* solve, gauss, gesv, batched-gesv */
  }
}

/* xs := inv(A) b from an explicit inverse W (n x n), accumulated in double. */
static int inverse_times(const void *W, const void *bv, void *xs, int64_t n,
                         int d) {
  double *acc = calloc((size_t)n, sizeof *acc);
  if (!acc) return 0;
  for (int64_t j = 0; j < n; ++j) {
    double bj = d ? ((const double *)bv)[j] : ((const float *)bv)[j];
    if (d) {
      const double *c = (const double *)W + j * n;
      for (int64_t i = 0; i < n; ++i)
        acc[i] += c[i] * bj;
    } else {
      const float *c = (const float *)W + j * n;
      for (int64_t i = 0; i < n; ++i)
        acc[i] += (double)c[i] * bj;
    }
  }
  for (int64_t i = 0; i < n; ++i)
    if (d)
      ((double *)xs)[i] = acc[i];
    else
      ((float *)xs)[i] = (float)acc[i];
  free(acc);
  return 1;
}

/* x of one problem from the run's output (W: its factors or inverse; XB:
   its x), into xs unless the output is x itself; returns x or NULL. */
static void *solution(axb_handle h, outk o, int64_t n, axb_dtype t,
                      const void *W, void *XB, const int64_t *ipiv,
                      const void *bv, void *xs) {
  size_t es = axb_dtype_size(t);
  int d = t == AXB_F64;
  axb_status st = AXB_SUCCESS;
  if (o == OUT_X) return XB;
  if (o == OUT_INV) return inverse_times(W, bv, xs, n, d) ? xs : NULL;
  memcpy(xs, bv, (size_t)n * es);
  if (o == OUT_LU)
    st = d ? axb_dgetrs(h, AXB_NO_TRANS, n, 1, W, n, ipiv, xs, n, NULL)
           : axb_sgetrs(h, AXB_NO_TRANS, n, 1, W, n, ipiv, xs, n, NULL);
  else if (o == OUT_CHOL)
    st = d ? axb_dpotrs(h, AXB_LOWER, n, 1, W, n, xs, n, NULL)
           : axb_spotrs(h, AXB_LOWER, n, 1, W, n, xs, n, NULL);
  else { /* Crout: L non-unit, U unit; row interchanges first, in order */
    for (int64_t i = 0; i < n && o == OUT_CROUT; ++i) {
      int64_t p = ipiv[i] - 1;
      if (p != i && p >= 0 && p < n) {
        char tmp[8];
        memcpy(tmp, (char *)xs + i * es, es);
        memcpy((char *)xs + i * es, (char *)xs + p * es, es);
        memcpy((char *)xs + p * es, tmp, es);
      }
    }
    if (d) {
      st = axb_dtrsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 1,
                     1.0, W, n, xs, n);
      if (!st)
        st = axb_dtrsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 1,
                       1.0, W, n, xs, n);
    } else {
      st = axb_strsm(h, AXB_LEFT, AXB_LOWER, AXB_NO_TRANS, AXB_NON_UNIT, n, 1,
                     1.0f, W, n, xs, n);
      if (!st)
        st = axb_strsm(h, AXB_LEFT, AXB_UPPER, AXB_NO_TRANS, AXB_UNIT, n, 1,
                       1.0f, W, n, xs, n);
    }
  }
  return st ? NULL : xs;
}

/* Largest scaled residual over the run's problems (untimed): ||b - Ax|| /
   (||A|| ||x|| n eps) of x from the output, except batched-inverse, judged
   by ||I - AX|| / (n ||A|| ||X|| eps) (O(n^3) per problem: cheap there). */
double judge_residual(bench *b, int be, rtn r, const axb_dense *A,
                      const axb_dense *B, work *w, void *xs) {
  int64_t n = A->rows, nb = rt_batched(r) ? w->batch : 1;
  axb_dtype t = A->dtype;
  size_t es = axb_dtype_size(t);
  outk o = out_kind(be, r);
  double worst = 0;
  for (int64_t k = 0; k < nb; ++k) {
    size_t offa = (size_t)(k * n * n) * es, offb = (size_t)(k * n) * es;
    if (r == RT_BINV) { /* small: the inverse's own check, ||I - AX|| */
      axb_dense Ak = axb_dense_wrap(n, n, n, t, (char *)A->data + offa);
      axb_dense Xk = axb_dense_wrap(n, n, n, t, (char *)w->W + offa);
      double v = axb_check_inverse(&Ak, &Xk);
      if (!(v <= worst)) worst = v;
      if (isnan(worst)) break;
      continue;
    }
    void *x =
        solution(b->hc, o, n, t, (char *)w->W + offa, (char *)w->XB + offb,
                 w->ipiv, (const char *)B->data + offb, xs);
    if (!x) return NAN;
    axb_dense Ak = axb_dense_wrap(n, n, n, t, (char *)A->data + offa);
    axb_dense Bk = axb_dense_wrap(n, 1, n, t, (char *)B->data + offb);
    axb_dense X = axb_dense_wrap(n, 1, n, t, x);
    double v = axb_check_solve(&Ak, &X, &Bk);
    if (!(v <= worst)) worst = v; /* NaN sticks */
    if (isnan(worst)) break;
  }
  return worst;
}
