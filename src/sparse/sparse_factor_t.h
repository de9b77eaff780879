/* Exact ILU(0)/IC(0) and the fixed-point initial guess on the host
   (sparse_host.h), written once in T; included by sparse_factor.c. */

/* Round the double factor w to T into f; a non-finite value (overflow in
   float included): AXB_ERR_SMALL_PIVOT with its row. */
static axb_status AXB_FN(store_, )(const axb_spf_pattern *pt, const double *w,
                                   T *f, int64_t *info) {
  for (int64_t i = 0; i < pt->n; ++i)
    for (int64_t k = pt->rowptr[i]; k < pt->rowptr[i + 1]; ++k) {
      f[k] = (T)w[k];
      if (!isfinite(f[k])) {
        *info = i + 1;
        return AXB_ERR_SMALL_PIVOT;
      }
    }
  return AXB_SUCCESS;
}

static double *AXB_FN(widen_, )(const axb_spf_pattern *pt, const T *a) {
  double *w = axb__malloc(pt->nnz > 0 ? pt->nnz : 1, sizeof(double));
  if (w)
    for (int64_t k = 0; k < pt->nnz; ++k)
      w[k] = (double)a[k];
  return w;
}

axb_status AXB_FN(axb__spf_ilu0_, )(const axb_spf_pattern *pt, const T *a, T *f,
                                    int64_t *info) {
  int64_t n = pt->n;
  const int64_t *rp = pt->rowptr, *ci = pt->colind;
  axb_status st = AXB_SUCCESS;
  *info = 0;
  double *w = AXB_FN(widen_, )(pt, a);
  int64_t *pos = axb__malloc(n > 0 ? n : 1, sizeof(int64_t));
  if (!w || !pos) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto done;
  }
  for (int64_t j = 0; j < n; ++j)
    pos[j] = -1;
  for (int64_t i = 0; i < n && !st; ++i) {
    for (int64_t k = rp[i]; k < rp[i + 1]; ++k)
      pos[ci[k]] = k;
    /* Row i of L and U: eliminate with every earlier row c stored in
       row i, in increasing c (IKJ): l_ic = w_ic / u_cc, then
       w_ij -= l_ic u_cj for the j > c stored in both rows. */
    for (int64_t k = rp[i]; k < pt->diag[i]; ++k) {
      int64_t c = ci[k];
      double l = w[k] / w[pt->diag[c]];
      w[k] = l;
      for (int64_t kk = pt->diag[c] + 1; kk < rp[c + 1]; ++kk)
        if (pos[ci[kk]] >= 0) w[pos[ci[kk]]] -= l * w[kk];
    }
    double piv = w[pt->diag[i]];
    if (piv == 0 || !isfinite(piv)) {
      *info = i + 1;
      st = AXB_ERR_SMALL_PIVOT;
    }
    for (int64_t k = rp[i]; k < rp[i + 1]; ++k)
      pos[ci[k]] = -1;
  }
  if (!st) st = AXB_FN(store_, )(pt, w, f, info);
done:
  axb__free(w);
  axb__free(pos);
  return st;
}

/* Sum over m < lim of row i's and row j's entries in column m (merge of
   two sorted rows of w). */
static double AXB_FN(rowdot_, )(const axb_spf_pattern *pt, const double *w,
                                int64_t i, int64_t j, int64_t lim) {
  const int64_t *rp = pt->rowptr, *ci = pt->colind;
  int64_t p = rp[i], q = rp[j];
  double s = 0;
  while (p < rp[i + 1] && q < rp[j + 1] && ci[p] < lim && ci[q] < lim) {
    if (ci[p] == ci[q])
      s += w[p++] * w[q++];
    else if (ci[p] < ci[q])
      ++p;
    else
      ++q;
  }
  return s;
}

/* Row i of the up-looking IC(0) in w (rows j < i stored in row i done):
   l_ij = (a_ij - sum_{m<j} l_im l_jm) / l_jj, then l_ii; 0, or 1 when
   the pivot is <= 0 or not finite (w's diagonal then left as it was). */
static int AXB_FN(ic0_row_, )(const axb_spf_pattern *pt, double *w, int64_t i) {
  const int64_t *ci = pt->colind;
  for (int64_t k = pt->rowptr[i]; k < pt->diag[i]; ++k) {
    int64_t j = ci[k];
    w[k] = (w[k] - AXB_FN(rowdot_, )(pt, w, i, j, j)) / w[pt->diag[j]];
  }
  double d = w[pt->diag[i]] - AXB_FN(rowdot_, )(pt, w, i, i, i);
  if (!(d > 0) || !isfinite(d)) return 1;
  w[pt->diag[i]] = sqrt(d);
  return 0;
}

/* IC(0) level by level (the lower level sets of pt): the rows of one
   level read only rows of earlier levels, so they run in parallel, each
   as the sequential loop computes it (the same values bit for bit).  A
   failed pivot does not stop the sweep: rows after it may read its
   garbage, but every row before the first failing row i0 (in index order)
   is exact, so i0 is the smallest failing row, as sequentially. */
axb_status AXB_FN(axb__spf_ic0_par_, )(const axb_spf_pattern *pt, const T *a,
                                       T *f, int threads, int64_t *info) {
  if (threads <= 1 || !pt->lo_ptr || !pt->lo_rows || !pt->tpos)
    return AXB_FN(axb__spf_ic0_, )(pt, a, f, info);
  const int64_t n = pt->n, nnz = pt->nnz;
  *info = 0;
  double *w = axb__malloc(nnz > 0 ? nnz : 1, sizeof(double));
  if (!w) return AXB_ERR_OUT_OF_MEMORY;
  AXB_OMP(parallel for num_threads(threads) schedule(static))
  for (int64_t k = 0; k < nnz; ++k)
    w[k] = (double)a[k];
  int64_t first = n; /* the smallest failing row */
  /* One team for all levels: a barrier per level (the loop's own), no
     fork per level. */
  AXB_OMP(parallel num_threads(threads) reduction(min : first))
  for (int64_t l = 0; l < pt->lo_nlev; ++l) {
    AXB_OMP(for schedule(static))
    for (int64_t q = pt->lo_ptr[l]; q < pt->lo_ptr[l + 1]; ++q) {
      const int64_t i = pt->lo_rows[q];
      if (AXB_FN(ic0_row_, )(pt, w, i) && i < first) first = i;
    }
  }
  axb_status st = AXB_SUCCESS;
  if (first < n) {
    *info = first + 1;
    st = AXB_ERR_NOT_SPD;
  } else {
    /* Round to T, L mirrored into the upper part (rows in parallel; each
       upper entry is the mirror of one lower entry).  A value that does
       not fit T: the smallest row holding it (its mirror's row, j < i,
       for an entry of L), as store_ reports. */
    int64_t bad = n;
    AXB_OMP(parallel for num_threads(threads) schedule(static)
            reduction(min : bad))
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = pt->rowptr[i]; k < pt->diag[i]; ++k) {
        f[k] = f[pt->tpos[k]] = (T)w[k];
        if (!isfinite(f[k]) && pt->colind[k] < bad) bad = pt->colind[k];
      }
      f[pt->diag[i]] = (T)w[pt->diag[i]];
      if (!isfinite(f[pt->diag[i]]) && i < bad) bad = i;
    }
    if (bad < n) {
      *info = bad + 1;
      st = AXB_ERR_SMALL_PIVOT;
    }
  }
  axb__free(w);
  return st;
}

axb_status AXB_FN(axb__spf_ic0_, )(const axb_spf_pattern *pt, const T *a, T *f,
                                   int64_t *info) {
  int64_t n = pt->n;
  const int64_t *rp = pt->rowptr, *ci = pt->colind;
  axb_status st = AXB_SUCCESS;
  *info = 0;
  double *w = AXB_FN(widen_, )(pt, a);
  if (!w) return AXB_ERR_OUT_OF_MEMORY;
  /* Up-looking over rows: l_ij = (a_ij - sum_{m<j} l_im l_jm) / l_jj for
     the stored j < i, then l_ii = sqrt(a_ii - sum_{m<i} l_im^2). */
  for (int64_t i = 0; i < n && !st; ++i) {
    for (int64_t k = rp[i]; k < pt->diag[i]; ++k) {
      int64_t j = ci[k];
      w[k] = (w[k] - AXB_FN(rowdot_, )(pt, w, i, j, j)) / w[pt->diag[j]];
    }
    double d = w[pt->diag[i]] - AXB_FN(rowdot_, )(pt, w, i, i, i);
    if (!(d > 0) || !isfinite(d)) {
      *info = i + 1;
      st = AXB_ERR_NOT_SPD;
    } else
      w[pt->diag[i]] = sqrt(d);
  }
  if (!st) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = rp[i]; k < pt->diag[i]; ++k)
        w[pt->tpos[k]] = w[k];
    st = AXB_FN(store_, )(pt, w, f, info);
  }
  axb__free(w);
  return st;
}

axb_status AXB_FN(axb__spf_init_, )(const axb_spf_pattern *pt, const T *a, T *f,
                                    int64_t *info) {
  int64_t n = pt->n;
  const int64_t *rp = pt->rowptr, *ci = pt->colind;
  int ic = pt->kind == AXB_SPF_IC;
  *info = 0;
  for (int64_t i = 0; i < n; ++i) {
    double d = a[pt->diag[i]];
    if (d == 0 || !isfinite(d) || (ic && !(d > 0))) {
      *info = i + 1;
      return ic ? AXB_ERR_NOT_SPD : AXB_ERR_SMALL_PIVOT;
    }
  }
  double *w = axb__malloc(pt->nnz > 0 ? pt->nnz : 1, sizeof(double));
  if (!w) return AXB_ERR_OUT_OF_MEMORY;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = rp[i]; k < rp[i + 1]; ++k) {
      int64_t j = ci[k];
      double ajj = a[pt->diag[j]], aij = a[k];
      if (ic)
        w[k] = j == i ? sqrt(aij) : j < i ? aij / sqrt(ajj) : 0;
      else
        w[k] = j < i ? aij / ajj : aij;
    }
  if (ic)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = rp[i]; k < pt->diag[i]; ++k)
        w[pt->tpos[k]] = w[k];
  axb_status st = AXB_FN(store_, )(pt, w, f, info);
  axb__free(w);
  return st;
}
