/* The CPU sparse table's entries (sparse_ops.h), written once in T;
   included by sparse_cpu.c.  Reductions run over fixed chunks (the cut
   depends on n only) summed in chunk order, so every result is bitwise the
   same on any thread count. */

#define CM(A) ((const struct cpu_mat *)(A))
#define CF(F) ((const struct cpu_fac *)(F))

static axb_status AXB_FN(cpu_, vec_alloc)(axb_handle h, int64_t n, T **x) {
  (void)h;
  *x = axb__malloc(n > 0 ? n : 1, sizeof(T));
  return *x ? AXB_SUCCESS : AXB_ERR_OUT_OF_MEMORY;
}

static void AXB_FN(cpu_, vec_free)(axb_handle h, T *x) {
  (void)h;
  axb__free(x);
}

static axb_status AXB_FN(cpu_, copy)(axb_handle h, int64_t n, const T *x,
                                     T *y) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[i];
  return AXB_SUCCESS;
}

/* Host memory is the backend's memory: upload and download are copies. */
static axb_status AXB_FN(cpu_, copy_h2b)(axb_handle h, int64_t n, const T *host,
                                         T *x) {
  return AXB_FN(cpu_, copy)(h, n, host, x);
}

static axb_status AXB_FN(cpu_, copy_b2h)(axb_handle h, int64_t n, const T *x,
                                         T *host) {
  return AXB_FN(cpu_, copy)(h, n, x, host);
}

static axb_status AXB_FN(cpu_, fill)(axb_handle h, int64_t n, T alpha, T *x) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i = 0; i < n; ++i)
    x[i] = alpha;
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, axpy)(axb_handle h, int64_t n, T alpha,
                                     const T *x, T *y) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i = 0; i < n; ++i)
    y[i] += alpha * x[i];
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, axpby)(axb_handle h, int64_t n, T alpha,
                                      const T *x, T beta, T *y) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  if (beta == 0) {
    AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
                schedule(static))
    for (int64_t i = 0; i < n; ++i)
      y[i] = alpha * x[i];
  } else {
    AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
                schedule(static))
    for (int64_t i = 0; i < n; ++i)
      y[i] = alpha * x[i] + beta * y[i];
  }
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, vmul)(axb_handle h, int64_t n, const T *x,
                                     const T *y, T *z) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i = 0; i < n; ++i)
    z[i] = x[i] * y[i];
  return AXB_SUCCESS;
}

/* Up to three inner products <a_q, b_q> (q < nq) in one pass over fixed
   chunks. */
static void AXB_FN(cpu_, dots)(axb_handle h, int64_t n, int nq,
                               const T *const *a, const T *const *b,
                               double *out) {
  int64_t cl = sp_chunk(n), nc = (n + cl - 1) / cl;
  double part[SP_CHUNKS_MAX][3];
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && nc > 1)
              schedule(static))
  for (int64_t c = 0; c < nc; ++c) {
    int64_t i0 = c * cl, i1 = i0 + cl < n ? i0 + cl : n;
    for (int q = 0; q < nq; ++q) {
      const T *x = a[q], *y = b[q];
      double s = 0;
      for (int64_t i = i0; i < i1; ++i)
        s += (double)x[i] * (double)y[i];
      part[c][q] = s;
    }
  }
  for (int q = 0; q < nq; ++q) {
    double s = 0;
    for (int64_t c = 0; c < nc; ++c)
      s += part[c][q];
    out[q] = s;
  }
}

static axb_status AXB_FN(cpu_, dot)(axb_handle h, int64_t n, const T *x,
                                    const T *y, double *r) {
  AXB_FN(cpu_, dots)(h, n, 1, &x, &y, r);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, dot2)(axb_handle h, int64_t n, const T *a,
                                     const T *b, const T *c, const T *d,
                                     double r[2]) {
  const T *x[2] = {a, c}, *y[2] = {b, d};
  AXB_FN(cpu_, dots)(h, n, 2, x, y, r);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, nrm2)(axb_handle h, int64_t n, const T *x,
                                     double *r) {
  AXB_FN(cpu_, dots)(h, n, 1, &x, &x, r);
  *r = sqrt(*r);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, lincomb)(axb_handle h, int64_t n, int64_t k,
                                        const T *V, int64_t ldv,
                                        const double *y, T *x) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i0 = 0; i0 < n; i0 += 256) {
    int64_t i1 = i0 + 256 < n ? i0 + 256 : n;
    for (int64_t j = 0; j < k; ++j) {
      T yj = (T)y[j];
      const T *v = V + j * ldv;
      for (int64_t i = i0; i < i1; ++i)
        x[i] += yj * v[i];
    }
  }
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, mat_create)(axb_handle h, const axb_csr *A,
                                           axb_spmat **M) {
  (void)h;
  struct cpu_mat *m = axb__calloc(1, sizeof(*m));
  if (!m) return AXB_ERR_OUT_OF_MEMORY;
  /* The host CSR is used in place: the caller keeps it alive. */
  m->rows = A->rows;
  m->cols = A->cols;
  m->nnz = A->nnz;
  m->rowptr = A->rowptr;
  m->colind = A->colind;
  m->val = A->values;
  *M = (axb_spmat *)m;
  return AXB_SUCCESS;
}

static void AXB_FN(cpu_, mat_destroy)(axb_handle h, axb_spmat *M) {
  (void)h;
  axb__free(M);
}

/* Row i of A times x, in T. */
static inline T AXB_FN(cpu_, rowdot)(const struct cpu_mat *A, int64_t i,
                                     const T *x) {
  const T *v = (const T *)A->val;
  T s = 0;
  for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
    s += v[k] * x[A->colind[k]];
  return s;
}

static axb_status AXB_FN(cpu_, spmv)(axb_handle h, const axb_spmat *M, T alpha,
                                     const T *x, T beta, T *y) {
  const struct cpu_mat *A = CM(M);
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  if (nt > 1 && A->nnz < SP_PAR_MIN) nt = 1;
  AXB_OMP(parallel num_threads(nt)) {
    /* Rows cut into ranges of about equal nnz, one per thread of the team
       actually running (it may be smaller than nt: nested regions,
       OMP_THREAD_LIMIT, no OpenMP); each row's sum does not depend on the
       cut, so y is the same for any team. */
    int64_t r0, r1;
    sp_row_range(A, axb_omp_thread_id(), sp_team_size(), &r0, &r1);
    if (beta == 0)
      for (int64_t i = r0; i < r1; ++i)
        y[i] = alpha * AXB_FN(cpu_, rowdot)(A, i, x);
    else
      for (int64_t i = r0; i < r1; ++i)
        y[i] = alpha * AXB_FN(cpu_, rowdot)(A, i, x) + beta * y[i];
  }
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, resid_nrm2)(axb_handle h, const axb_spmat *M,
                                           const T *x, const T *b, double *r) {
  const struct cpu_mat *A = CM(M);
  const T *v = (const T *)A->val;
  int64_t n = A->rows, cl = sp_chunk(n), nc = (n + cl - 1) / cl;
  double part[SP_CHUNKS_MAX];
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && nc > 1)
              schedule(dynamic))
  for (int64_t c = 0; c < nc; ++c) {
    int64_t i1 = (c + 1) * cl < n ? (c + 1) * cl : n;
    double s = 0;
    for (int64_t i = c * cl; i < i1; ++i) {
      double ri = (double)b[i];
      for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
        ri -= (double)v[k] * (double)x[A->colind[k]];
      s += ri * ri;
    }
    part[c] = s;
  }
  double s = 0;
  for (int64_t c = 0; c < nc; ++c)
    s += part[c];
  *r = sqrt(s);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, diag_inv)(axb_handle h, const axb_spmat *M,
                                         T *dinv, int64_t *info) {
  const struct cpu_mat *A = CM(M);
  const T *v = (const T *)A->val;
  int64_t n = A->rows, bad = INT64_MAX;
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static) reduction(min : bad))
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = axb__csr_find(A->rowptr, A->colind, i, i);
    T d = k >= 0 ? v[k] : 0;
    T r = d != 0 ? 1 / d : 0;
    if (d == 0 || !isfinite(r)) {
      if (i + 1 < bad) bad = i + 1;
      r = 0;
    }
    dinv[i] = r;
  }
  *info = bad == INT64_MAX ? 0 : bad;
  return *info ? AXB_ERR_SMALL_PIVOT : AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, cg1_spmv_dots)(axb_handle h, const axb_spmat *M,
                                              const T *z, T *s, const T *r,
                                              double r3[3]) {
  const struct cpu_mat *A = CM(M);
  int64_t n = A->rows, cl = sp_chunk(n), nc = (n + cl - 1) / cl;
  double part[SP_CHUNKS_MAX][3];
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  /* s = A z, fused with <r,z>, <z,s>, <r,r> over the same row chunk. */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && nc > 1)
              schedule(dynamic))
  for (int64_t c = 0; c < nc; ++c) {
    int64_t i1 = (c + 1) * cl < n ? (c + 1) * cl : n;
    double g = 0, w = 0, q = 0;
    for (int64_t i = c * cl; i < i1; ++i) {
      T si = AXB_FN(cpu_, rowdot)(A, i, z);
      s[i] = si;
      g += (double)r[i] * (double)z[i];
      w += (double)z[i] * (double)si;
      q += (double)r[i] * (double)r[i];
    }
    part[c][0] = g;
    part[c][1] = w;
    part[c][2] = q;
  }
  r3[0] = r3[1] = r3[2] = 0;
  for (int64_t c = 0; c < nc; ++c)
    for (int q = 0; q < 3; ++q)
      r3[q] += part[c][q];
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, cg1_update)(axb_handle h, int64_t n, T alpha,
                                           T beta, const T *z, const T *s, T *p,
                                           T *t, T *x, T *r) {
  int nt = sp_threads(h);
  (void)nt; /* unused without OpenMP */
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
              schedule(static))
  for (int64_t i = 0; i < n; ++i) {
    T pi = z[i] + beta * p[i]; /* z[i] read before r[i] is written */
    T ti = s[i] + beta * t[i];
    p[i] = pi;
    t[i] = ti;
    x[i] += alpha * pi;
    r[i] -= alpha * ti;
  }
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, fac_create)(axb_handle h,
                                           const axb_spf_pattern *pt,
                                           const T *values, axb_spfac **out) {
  (void)h;
  struct cpu_fac *F = NULL;
  axb_status st = cpu_fac_alloc(pt, sizeof(T), &F);
  if (st) return st;
  memcpy(F->val, values, (size_t)pt->nnz * sizeof(T));
  *out = (axb_spfac *)F;
  return AXB_SUCCESS;
}

static axb_status AXB_FN(cpu_, fac_download)(axb_handle h, const axb_spfac *F,
                                             T *values) {
  (void)h;
  memcpy(values, CF(F)->val, (size_t)CF(F)->nnz * sizeof(T));
  return AXB_SUCCESS;
}

/* One fixed-point entry of AXB_SPF_LU at position k = (i, j), from the
   values v of the previous sweep; a: A's values.  Sets *bad on a zero
   pivot. */
static inline T AXB_FN(cpu_, lu_entry)(const struct cpu_fac *F, const T *a,
                                       const T *v, int64_t i, int64_t k,
                                       int *bad) {
  int64_t j = F->colind[k], m = i < j ? i : j;
  int64_t p = F->rowptr[i], pe = F->rowptr[i + 1];
  int64_t q = F->colptr[j], qe = F->colptr[j + 1];
  T s = 0;
  /* sum_{c < m} l_ic u_cj: row i (columns c) against column j (rows c). */
  while (p < pe && q < qe) {
    int64_t c = F->colind[p], r = F->csrrow[q];
    if (c >= m || r >= m) break;
    if (c == r)
      s += v[p++] * v[F->cscpos[q++]];
    else if (c < r)
      ++p;
    else
      ++q;
  }
  if (i <= j) return a[k] - s;
  T u = v[F->diag[j]];
  if (u == 0) {
    *bad = 1;
    return 0;
  }
  return (a[k] - s) / u;
}

/* One fixed-point entry of AXB_SPF_IC at k = (i, j), j <= i.  Sets *bad
   to 1 (zero pivot) or 2 (a_ii - s <= 0). */
static inline T AXB_FN(cpu_, ic_entry)(const struct cpu_fac *F, const T *a,
                                       const T *v, int64_t i, int64_t k,
                                       int *bad) {
  int64_t j = F->colind[k];
  int64_t p = F->rowptr[i], pe = F->rowptr[i + 1];
  int64_t q = F->rowptr[j], qe = F->rowptr[j + 1];
  T s = 0;
  /* sum_{c < j} l_ic l_jc: rows i and j merged. */
  while (p < pe && q < qe) {
    int64_t c = F->colind[p], d = F->colind[q];
    if (c >= j || d >= j) break;
    if (c == d)
      s += v[p++] * v[q++];
    else if (c < d)
      ++p;
    else
      ++q;
  }
  if (i == j) {
    T d = a[k] - s;
    if (!(d > 0)) {
      *bad = 2;
      return 0;
    }
    return sqrt(d);
  }
  T l = v[F->diag[j]];
  if (l == 0) {
    *bad = 1;
    return 0;
  }
  return (a[k] - s) / l;
}

/* After the sweeps: every value finite, pivots nonzero (IC: positive). */
static axb_status AXB_FN(cpu_, fac_check)(const struct cpu_fac *F, int nt,
                                          int64_t *info) {
  const T *v = (const T *)F->val;
  int64_t bad_piv = INT64_MAX, bad_spd = INT64_MAX, n = F->n;
  (void)nt; /* unused without OpenMP */
  int ic = F->kind == AXB_SPF_IC;
  AXB_OMP(parallel for num_threads(nt) if (nt > 1 && F->nnz >= SP_PAR_MIN)
              schedule(static) reduction(min : bad_piv, bad_spd))
  for (int64_t i = 0; i < n; ++i) {
    T d = v[F->diag[i]];
    if (ic && !(d > 0) && isfinite(d))
      bad_spd = bad_spd < i + 1 ? bad_spd : i + 1;
    if (d == 0) bad_piv = bad_piv < i + 1 ? bad_piv : i + 1;
    for (int64_t k = F->rowptr[i]; k < F->rowptr[i + 1]; ++k)
      if (!isfinite(v[k])) bad_piv = bad_piv < i + 1 ? bad_piv : i + 1;
  }
  return sp_bad_status(bad_piv, bad_spd, info);
}

static axb_status AXB_FN(cpu_, fac_sweeps)(axb_handle h, const axb_spmat *M,
                                           axb_spfac *Fo, int sweeps,
                                           int64_t *info) {
  struct cpu_fac *F = (struct cpu_fac *)Fo;
  const T *a = (const T *)CM(M)->val;
  int64_t n = F->n;
  int nt = sp_threads(h), ic = F->kind == AXB_SPF_IC;
  *info = 0;
  if (!ic && sweeps > 0 && !F->colptr)
    return axb__fail(h, AXB_ERR_INTERNAL,
                     "ParILU sweeps on a factor made without its CSC view");
  for (int sw = 0; sw < sweeps; ++sw) {
    const T *v = (const T *)F->val;
    T *w = (T *)F->tmp;
    int64_t bad_piv = INT64_MAX, bad_spd = INT64_MAX;
    /* Synchronous sweep: w from v only; rows independent. */
    AXB_OMP(parallel for num_threads(nt) if (nt > 1 && F->nnz >= SP_PAR_MIN)
                schedule(dynamic, 64) reduction(min : bad_piv, bad_spd))
    for (int64_t i = 0; i < n; ++i) {
      int64_t kend = ic ? F->diag[i] + 1 : F->rowptr[i + 1];
      for (int64_t k = F->rowptr[i]; k < kend; ++k) {
        int bad = 0;
        T x = ic ? AXB_FN(cpu_, ic_entry)(F, a, v, i, k, &bad)
                 : AXB_FN(cpu_, lu_entry)(F, a, v, i, k, &bad);
        if (bad == 2 && i + 1 < bad_spd) bad_spd = i + 1;
        if ((bad == 1 || !isfinite(x)) && i + 1 < bad_piv) bad_piv = i + 1;
        w[k] = x;
        if (ic && F->colind[k] < i) w[F->tpos[k]] = x;
      }
    }
    F->val = w;
    F->tmp = (void *)v;
    if (bad_piv != INT64_MAX || bad_spd != INT64_MAX)
      return sp_bad_status(bad_piv, bad_spd, info);
  }
  return AXB_FN(cpu_, fac_check)(F, nt, info);
}

/* Row i of the lower (lower = 1) or upper solve: x_i from b_i and the
   x_j already known (exact) or the previous iterate xo (Jacobi). */
static inline T AXB_FN(cpu_, tri_row)(const struct cpu_fac *F, int lower,
                                      int64_t i, const T *b, const T *xo) {
  const T *v = (const T *)F->val;
  int64_t k0 = lower ? F->rowptr[i] : F->diag[i] + 1;
  int64_t k1 = lower ? F->diag[i] : F->rowptr[i + 1];
  T s = b[i];
  for (int64_t k = k0; k < k1; ++k)
    s -= v[k] * xo[F->colind[k]];
  if (lower && F->kind == AXB_SPF_LU) return s; /* unit diagonal */
  return s / v[F->diag[i]];
}

static axb_status AXB_FN(cpu_, tri_solve)(axb_handle h, const axb_spfac *Fo,
                                          axb_uplo uplo, axb_sptri_mode mode,
                                          int sweeps, const T *b, T *x,
                                          T *work) {
  const struct cpu_fac *F = CF(Fo);
  int64_t n = F->n;
  int lower = uplo == AXB_LOWER, nt = sp_threads(h);
  if (mode == AXB_SPTRI_JACOBI) {
    const T *v = (const T *)F->val;
    int unit = lower && F->kind == AXB_SPF_LU;
    AXB_OMP(parallel for num_threads(nt) if (nt > 1 && n >= SP_PAR_MIN)
                schedule(static))
    for (int64_t i = 0; i < n; ++i)
      x[i] = unit ? b[i] : b[i] / v[F->diag[i]];
    for (int sw = 0; sw < sweeps; ++sw) {
      memcpy(work, x, (size_t)n * sizeof(T));
      AXB_OMP(parallel for num_threads(nt) if (nt > 1 && F->nnz >= SP_PAR_MIN)
                  schedule(static))
      for (int64_t i = 0; i < n; ++i)
        x[i] = AXB_FN(cpu_, tri_row)(F, lower, i, b, work);
    }
    return AXB_SUCCESS;
  }
  int64_t nlev = lower ? F->lo_nlev : F->up_nlev;
  const int64_t *lp = lower ? F->lo_ptr : F->up_ptr;
  const int64_t *lr = lower ? F->lo_rows : F->up_rows;
  /* No level sets (not built), or few rows per level: the barriers would
     cost more than the rows, so substitute in plain order (a valid order
     for the dependencies). */
  if (!lp || nt == 1 || n < SP_LEVEL_MIN_N ||
      n < (int64_t)SP_LEVEL_ROWS_PER_THREAD * nt * nlev) {
    for (int64_t t = 0; t < n; ++t) {
      int64_t i = lower ? t : n - 1 - t;
      x[i] = AXB_FN(cpu_, tri_row)(F, lower, i, b, x);
    }
    return AXB_SUCCESS;
  }
  axb_omp_bar bar = {0, 0};
  AXB_OMP(parallel num_threads(nt)) {
    int sense = 0, me = axb_omp_thread_id(), team = sp_team_size();
    for (int64_t l = 0; l < nlev; ++l) {
      int64_t len = lp[l + 1] - lp[l];
      int64_t a0 = lp[l] + len * me / team, a1 = lp[l] + len * (me + 1) / team;
      for (int64_t q = a0; q < a1; ++q)
        x[lr[q]] = AXB_FN(cpu_, tri_row)(F, lower, lr[q], b, x);
      axb_omp_barrier(&bar, &sense);
    }
  }
  return AXB_SUCCESS;
}

static void AXB_FN(cpu_, fill_table)(AXB_CAT2(axb_sparse_ops_, P) * o) {
  o->vec_alloc = AXB_FN(cpu_, vec_alloc);
  o->vec_free = AXB_FN(cpu_, vec_free);
  o->vec_upload = AXB_FN(cpu_, copy_h2b);
  o->vec_download = AXB_FN(cpu_, copy_b2h);
  o->copy = AXB_FN(cpu_, copy);
  o->fill = AXB_FN(cpu_, fill);
  o->axpy = AXB_FN(cpu_, axpy);
  o->axpby = AXB_FN(cpu_, axpby);
  o->vmul = AXB_FN(cpu_, vmul);
  o->dot = AXB_FN(cpu_, dot);
  o->dot2 = AXB_FN(cpu_, dot2);
  o->nrm2 = AXB_FN(cpu_, nrm2);
  o->lincomb = AXB_FN(cpu_, lincomb);
  o->mat_create = AXB_FN(cpu_, mat_create);
  o->mat_destroy = AXB_FN(cpu_, mat_destroy);
  o->spmv = AXB_FN(cpu_, spmv);
  o->resid_nrm2 = AXB_FN(cpu_, resid_nrm2);
  o->diag_inv = AXB_FN(cpu_, diag_inv);
  o->cg1_spmv_dots = AXB_FN(cpu_, cg1_spmv_dots);
  o->cg1_update = AXB_FN(cpu_, cg1_update);
  o->fac_create = AXB_FN(cpu_, fac_create);
  o->fac_destroy = cpu_fac_destroy;
  o->fac_download = AXB_FN(cpu_, fac_download);
  o->fac_sweeps = AXB_FN(cpu_, fac_sweeps);
  o->tri_solve = AXB_FN(cpu_, tri_solve);
}

#undef CM
#undef CF
