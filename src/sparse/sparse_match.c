/*
 * The maximum-product matching of the sparse Krylov path's preprocessing
 * (issue 23; sparse_prep.h): the idea of Duff & Koster's MC64 (job 5),
 * written here from the textbook algorithm, a shortest-augmenting-path
 * assignment (Dijkstra with dual potentials, as in the Hungarian method).
 *
 * Maths.  With rmax_i = max_j |a_ij| and, on A's nonzeros,
 *     c_ij = log rmax_i - log |a_ij|  (>= 0),
 * a perfect matching sigma (row i -> column sigma(i)) of least total cost
 * sum_i c_i,sigma(i) is one of largest product prod_i |a_i,sigma(i)|.  The
 * algorithm keeps duals u (rows) and v (columns) with reduced costs
 * r_ij = c_ij - u_i - v_j >= 0, zero on matched entries; it matches one
 * row at a time along a shortest path of reduced costs (rows -> columns
 * by A's entries, columns -> rows by the matching) to a free column and
 * updates the duals so that both properties hold again.  At the end
 *     |a_ij| exp(u_i) / rmax_i exp(v_j) <= 1,  = 1 when j = sigma(i),
 * so D_r = diag(exp(u_i) / rmax_i), D_c = diag(exp(v_j)) scale A to
 * entries of modulus at most 1 with the matched ones of modulus 1, and
 * moving row i to position sigma(i) puts them on the diagonal.
 */
#include "sparse/sparse_prep.h"

#include <math.h>
#include <string.h>

/* A binary min-heap of columns keyed by d[], with positions for the
   decrease-key of Dijkstra. */
typedef struct {
  int64_t *heap, *pos, size;
  const double *d;
} heap_t;

static void heap_swap(heap_t *H, int64_t a, int64_t b) {
  int64_t x = H->heap[a], y = H->heap[b];
  H->heap[a] = y;
  H->heap[b] = x;
  H->pos[y] = a;
  H->pos[x] = b;
}

static void heap_up(heap_t *H, int64_t k) {
  while (k > 0 && H->d[H->heap[(k - 1) / 2]] > H->d[H->heap[k]]) {
    heap_swap(H, k, (k - 1) / 2);
    k = (k - 1) / 2;
  }
}

static void heap_push_or_decrease(heap_t *H, int64_t j) {
  if (H->pos[j] < 0) {
    H->heap[H->size] = j;
    H->pos[j] = H->size++;
  }
  heap_up(H, H->pos[j]);
}

static int64_t heap_pop(heap_t *H) {
  int64_t top = H->heap[0];
  heap_swap(H, 0, --H->size);
  H->pos[top] = -1;
  int64_t k = 0;
  for (;;) {
    int64_t l = 2 * k + 1, r = l + 1, m = k;
    if (l < H->size && H->d[H->heap[l]] < H->d[H->heap[m]]) m = l;
    if (r < H->size && H->d[H->heap[r]] < H->d[H->heap[m]]) m = r;
    if (m == k) break;
    heap_swap(H, k, m);
    k = m;
  }
  return top;
}

typedef struct {
  const axb_csr *A;
  double *c;                /* c_ij per stored entry (INFINITY for a zero) */
  double *u, *v, *d;        /* duals; Dijkstra's distances (columns)       */
  int64_t *mrow, *mcol;     /* row -> column, column -> row, -1 when free  */
  int64_t *pred, *done;     /* the row a column was reached from; finals   */
  int64_t *touched, ntouch; /* columns whose d was set (reset after)       */
  heap_t H;
} match_t;

static double aval(const axb_csr *A, int64_t k) {
  return A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                             : ((const float *)A->values)[k];
}

static void relax(match_t *M, int64_t i, double base) {
  const axb_csr *A = M->A;
  for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
    int64_t j = A->colind[k];
    if (!isfinite(M->c[k]) || M->done[j]) continue;
    double nd = base + M->c[k] - M->u[i] - M->v[j];
    if (nd < M->d[j]) {
      if (M->d[j] == INFINITY) M->touched[M->ntouch++] = j;
      M->d[j] = nd;
      M->pred[j] = i;
      heap_push_or_decrease(&M->H, j);
    }
  }
}

/* Match row i0 along a shortest augmenting path; 0 when no free column is
   reachable (A structurally singular). */
static int augment(match_t *M, int64_t i0) {
  int64_t nfinal = 0, end = -1;
  double dmin = 0;
  relax(M, i0, 0);
  while (M->H.size > 0) {
    int64_t j = heap_pop(&M->H);
    M->done[j] = 1;
    M->touched[M->A->rows + nfinal++] = j; /* finalised, in order */
    if (M->mcol[j] < 0) {
      end = j;
      dmin = M->d[j];
      break;
    }
    relax(M, M->mcol[j], M->d[j]);
  }
  int64_t *fin = M->touched + M->A->rows;
  if (end >= 0) {
    /* duals: v_j -= dmin - d_j on finalised columns, u_i += dmin - d_j
       for the row matched to each (before the augmentation), u_i0 += dmin */
    M->u[i0] += dmin;
    for (int64_t t = 0; t < nfinal; ++t) {
      int64_t j = fin[t];
      double delta = dmin - M->d[j];
      M->v[j] -= delta;
      if (M->mcol[j] >= 0) M->u[M->mcol[j]] += delta;
    }
    for (int64_t j = end; j >= 0;) { /* flip the path */
      int64_t i = M->pred[j], jn = M->mrow[i];
      M->mrow[i] = j;
      M->mcol[j] = i;
      j = i == i0 ? -1 : jn;
    }
  }
  while (M->H.size > 0)
    heap_pop(&M->H);
  for (int64_t t = 0; t < M->ntouch; ++t)
    M->d[M->touched[t]] = INFINITY;
  for (int64_t t = 0; t < nfinal; ++t)
    M->done[fin[t]] = 0;
  M->ntouch = 0;
  return end >= 0;
}

/* c_ij and the rows' maxima; a row without a nonzero: 0 (singular). */
static int costs(const axb_csr *A, double *c, double *rmax) {
  for (int64_t i = 0; i < A->rows; ++i) {
    double mx = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (fabs(aval(A, k)) > mx) mx = fabs(aval(A, k));
    if (!(mx > 0) || !isfinite(mx)) return 0;
    rmax[i] = mx;
    double lm = log(mx);
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      double a = fabs(aval(A, k));
      c[k] = a > 0 ? lm - log(a) : INFINITY;
    }
  }
  return 1;
}

axb_status axb__prep_mc64(axb_handle h, const axb_csr *A, int64_t *perm,
                          double *dr, double *dc, int64_t *matched) {
  int64_t n = A->rows, nn = n > 0 ? n : 1;
  *matched = 0;
  match_t M;
  memset(&M, 0, sizeof M);
  M.A = A;
  M.c = axb__malloc(A->nnz > 0 ? A->nnz : 1, sizeof(double));
  M.u = axb__calloc(nn, sizeof(double));
  M.v = axb__calloc(nn, sizeof(double));
  M.d = axb__malloc(nn, sizeof(double));
  int64_t *iw = axb__malloc(8 * nn, sizeof(int64_t));
  axb_status st = AXB_SUCCESS;
  if (!M.c || !M.u || !M.v || !M.d || !iw) {
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "no memory for the weighted matching (n = %lld)",
                   (long long)n);
    goto out;
  }
  M.mrow = iw;
  M.mcol = iw + nn;
  M.pred = iw + 2 * nn;
  M.done = iw + 3 * nn;
  M.touched = iw + 4 * nn; /* 2 n: touched, then the finalised columns */
  M.H.heap = iw + 6 * nn;
  M.H.pos = iw + 7 * nn;
  M.H.d = M.d;
  for (int64_t k = 0; k < nn; ++k) {
    M.mrow[k] = M.mcol[k] = M.H.pos[k] = -1;
    M.done[k] = 0;
    M.d[k] = INFINITY;
  }
  if (!costs(A, M.c, dr)) {
    st = axb__fail(h, AXB_ERR_SINGULAR, "weighted matching: a zero row");
    goto out;
  }
  /* Cheap start: a row's largest entry (c = 0 = u + v) on a free column. */
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      if (M.c[k] == 0 && M.mcol[A->colind[k]] < 0) {
        M.mrow[i] = A->colind[k];
        M.mcol[A->colind[k]] = i;
        break;
      }
  for (int64_t i = 0; i < n; ++i)
    if (M.mrow[i] < 0 && !augment(&M, i)) {
      st = axb__fail(h, AXB_ERR_SINGULAR,
                     "weighted matching: A is structurally singular (row "
                     "%lld has no augmenting path)",
                     (long long)i + 1);
      goto out;
    }
  *matched = n;
  for (int64_t j = 0; j < n; ++j) {
    perm[j] = M.mcol[j]; /* new row j = old row matched to column j */
    dc[j] = exp(M.v[j]);
  }
  for (int64_t i = 0; i < n; ++i)
    dr[i] = exp(M.u[i]) / dr[i];
out:
  axb__free(M.c);
  axb__free(M.u);
  axb__free(M.v);
  axb__free(M.d);
  axb__free(iw);
  return st;
}
