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
  /* In double the factor is computed in f itself (as IC(0) below). */
  const int in_place = sizeof(T) == sizeof(double);
  double *w = in_place ? (double *)(void *)f : AXB_FN(widen_, )(pt, a);
  int64_t *pos = axb__malloc(n > 0 ? n : 1, sizeof(int64_t));
  if (!w || !pos) {
    st = AXB_ERR_OUT_OF_MEMORY;
    goto done;
  }
  if (in_place && (const void *)a != (void *)f)
    memcpy(f, a, (size_t)pt->nnz * sizeof(T));
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
  if (!st) st = AXB_FN(store_, )(pt, w, f, info); /* in place: finite test */
done:
  if (!in_place) axb__free(w);
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

axb_status AXB_FN(axb__spf_ic0_, )(const axb_spf_pattern *pt, const T *a, T *f,
                                   int64_t *info) {
  int64_t n = pt->n;
  const int64_t *rp = pt->rowptr, *ci = pt->colind;
  axb_status st = AXB_SUCCESS;
  *info = 0;
  /* In double the factor is computed in f itself, without a widened copy
     (Poisson 100^3: 6.9e6 values, 55 MB): the loop below reads only L's
     part and the diagonal, and the upper part is written by the mirror at
     the end. */
  const int in_place = sizeof(T) == sizeof(double);
  double *w = in_place ? (double *)(void *)f : AXB_FN(widen_, )(pt, a);
  if (!w) return AXB_ERR_OUT_OF_MEMORY;
  if (in_place && (const void *)a != (void *)f)
    memcpy(f, a, (size_t)pt->nnz * sizeof(T));
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
    st = AXB_FN(store_, )(pt, w, f, info); /* in place: the finite test */
  }
  if (!in_place) axb__free(w);
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
