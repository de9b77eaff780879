/*
 * ILUT(p, tau) (issue 23; Saad, "ILUT: a dual threshold incomplete LU
 * factorization", 1994): the incomplete LU of A whose pattern is found as
 * it goes instead of being A's.  Row i of A is eliminated with the earlier
 * rows of U in increasing column order (IKJ, as ILU(0)); a multiplier
 * l_ik below tau ||a_i||_2 is dropped before it is used, and at the end of
 * the row every entry below tau ||a_i||_2 is dropped and only the
 * (row's count in A + p) largest of L's part and of U's part are kept
 * (the diagonal always).  A zero pivot is replaced by tau ||a_i||_2 (the
 * count is reported): the preconditioner exists for every matrix without
 * an empty row, and the Krylov method still solves A x = b.
 *
 * The result is one CSR of the factor's layout (sparse_ops.h): L strictly
 * below the diagonal (unit diagonal implied), U on and above it, columns
 * sorted; the driver builds the factor's pattern from it.
 */
#include "core/internal.h"
#include "sparse/sparse_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t col;
  double v;
} ilut_entry;

static int by_magnitude(const void *a, const void *b) {
  double x = fabs(((const ilut_entry *)a)->v);
  double y = fabs(((const ilut_entry *)b)->v);
  return x > y ? -1 : x < y;
}

static int by_column(const void *a, const void *b) {
  int64_t x = ((const ilut_entry *)a)->col, y = ((const ilut_entry *)b)->col;
  return x < y ? -1 : x > y;
}

/* The work row: values w (dense, n), the list of its columns, and where
   each column sits in the list (-1: absent). */
typedef struct {
  double *w;
  int64_t *pos, *cols, len;
  ilut_entry *buf; /* a part of the row, for the dropping */
} ilut_row;

static void row_add(ilut_row *R, int64_t j, double v) {
  if (R->pos[j] < 0) {
    R->pos[j] = R->len;
    R->cols[R->len++] = j;
    R->w[j] = 0;
  }
  R->w[j] += v;
}

/* Keep the entries of `part` (count m) not below drop, at most keep of the
   largest, sorted by column; returns how many. */
static int64_t select_part(ilut_entry *part, int64_t m, double drop,
                           int64_t keep) {
  int64_t q = 0;
  for (int64_t k = 0; k < m; ++k)
    if (fabs(part[k].v) >= drop && part[k].v != 0) part[q++] = part[k];
  if (q > keep) {
    qsort(part, (size_t)q, sizeof *part, by_magnitude);
    q = keep;
  }
  qsort(part, (size_t)q, sizeof *part, by_column);
  return q;
}

/* Row i: load a_i, eliminate with the earlier rows of U, drop, store. */
static void ilut_row_i(const axb_csr *A, const double *a, int64_t i, int p,
                       double tau, ilut_row *R, axb_csr *F, int64_t *uptr,
                       int64_t *boosted) {
  int64_t k0 = A->rowptr[i], k1 = A->rowptr[i + 1], nl = 0, nu = 0;
  double norm = 0;
  R->len = 0;
  for (int64_t k = k0; k < k1; ++k) {
    row_add(R, A->colind[k], a[k]);
    norm += a[k] * a[k];
    if (A->colind[k] < i)
      ++nl;
    else
      ++nu;
  }
  double drop = tau * sqrt(norm);
  const double *fv = (const double *)F->values;
  /* Eliminate in increasing column: the smallest unused column < i. */
  for (int64_t done = -1;;) {
    int64_t k = -1;
    for (int64_t t = 0; t < R->len; ++t) {
      int64_t c = R->cols[t];
      if (c < i && c > done && (k < 0 || c < k)) k = c;
    }
    if (k < 0) break;
    done = k;
    double l = R->w[k] / fv[uptr[k]]; /* u_kk is the first entry of U_k */
    R->w[k] = fabs(l) < drop ? 0 : l;
    if (R->w[k] == 0) continue;
    for (int64_t q = uptr[k] + 1; q < F->rowptr[k + 1]; ++q)
      row_add(R, F->colind[q], -l * fv[q]);
  }
  /* Split, drop, keep the largest; the diagonal always. */
  ilut_entry *lo = R->buf, *up = R->buf + R->len;
  int64_t m_lo = 0, m_up = 0;
  double diag = 0;
  for (int64_t t = 0; t < R->len; ++t) {
    int64_t c = R->cols[t];
    ilut_entry e = {c, R->w[c]};
    if (c < i)
      lo[m_lo++] = e;
    else if (c > i)
      up[m_up++] = e;
    else
      diag = e.v;
    R->pos[c] = -1;
  }
  m_lo = select_part(lo, m_lo, drop, nl + p);
  m_up = select_part(up, m_up, drop, nu + p);
  if (!(fabs(diag) > 0)) { /* a zero pivot: tau ||a_i|| instead */
    diag = drop > 0 ? drop : 1;
    ++*boosted;
  }
  int64_t q = F->rowptr[i];
  double *v = (double *)F->values;
  for (int64_t t = 0; t < m_lo; ++t, ++q) {
    F->colind[q] = lo[t].col;
    v[q] = lo[t].v;
  }
  uptr[i] = q;
  F->colind[q] = i;
  v[q++] = diag;
  for (int64_t t = 0; t < m_up; ++t, ++q) {
    F->colind[q] = up[t].col;
    v[q] = up[t].v;
  }
  F->rowptr[i + 1] = q;
}

axb_status axb__spf_ilut(const axb_csr *A, int p, double tau, axb_csr *F,
                         int64_t *boosted, int64_t *info) {
  int64_t n = A->rows;
  *boosted = 0;
  *info = 0;
  memset(F, 0, sizeof *F);
  /* Every row keeps at most its count in A + 2 p + 1 entries. */
  int64_t cap = A->nnz + (2 * (int64_t)p + 1) * n;
  double need = (double)cap * 16 + (double)n * 64;
  double have = 0;
  if (axb__memory_short(need, &have)) return AXB_ERR_OUT_OF_MEMORY;
  for (int64_t i = 0; i < n; ++i)
    if (A->rowptr[i] == A->rowptr[i + 1]) {
      *info = i + 1; /* an empty row: A is singular */
      return AXB_ERR_SMALL_PIVOT;
    }
  double *a = axb__malloc(A->nnz > 0 ? A->nnz : 1, sizeof(double));
  int64_t *uptr = axb__malloc(n > 0 ? n : 1, sizeof(int64_t));
  ilut_row R = {axb__malloc(n > 0 ? n : 1, sizeof(double)),
                axb__malloc(n > 0 ? n : 1, sizeof(int64_t)),
                axb__malloc(n > 0 ? n : 1, sizeof(int64_t)), 0,
                axb__malloc(2 * (n > 0 ? n : 1), sizeof(ilut_entry))};
  axb_status st = AXB_SUCCESS;
  if (!a || !uptr || !R.w || !R.pos || !R.cols || !R.buf ||
      axb_csr_create(F, n, n, cap, AXB_F64)) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto done;
  }
  for (int64_t k = 0; k < A->nnz; ++k)
    a[k] = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                               : ((const float *)A->values)[k];
  for (int64_t j = 0; j < n; ++j)
    R.pos[j] = -1;
  F->rowptr[0] = 0;
  for (int64_t i = 0; i < n; ++i)
    ilut_row_i(A, a, i, p, tau, &R, F, uptr, boosted);
  F->nnz = F->rowptr[n];
  for (int64_t k = 0; k < F->nnz && !st; ++k)
    if (!isfinite(((double *)F->values)[k])) {
      int64_t i = 0;
      while (F->rowptr[i + 1] <= k)
        ++i;
      *info = i + 1;
      st = AXB_ERR_SMALL_PIVOT;
    }
done:
  if (st) axb_csr_destroy(F);
  axb__free(a);
  axb__free(uptr);
  axb__free(R.w);
  axb__free(R.pos);
  axb__free(R.cols);
  axb__free(R.buf);
  return st;
}
