/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): getrf, getrs, gesv and inverse
   _batched, each problem judged alone against the reference backend. */

static void test_lu_family(axb_dtype t, int64_t n, int64_t count) {
  const char *tn = axb_dtype_name(t);
  /* packed at n <= 6 with one right-hand side: B's tiles packed too */
  const int64_t lda = packed_mode ? n : n + 1,
                nrhs = (n & 1) || (packed_mode && n <= 6) ? 1 : 3,
                ldb = packed_mode ? n : n + 2;
  batch_buf A = buf_new(t, n, n, lda, packed_mode ? 0 : 3, count);
  batch_buf B = buf_new(t, n, nrhs, ldb, packed_mode ? 0 : 1, count);
  axb_dense *orig = calloc((size_t)(count ? count : 1), sizeof(axb_dense));
  int64_t *rinfo = calloc((size_t)(count ? count : 1), sizeof(int64_t));
  /* REF's pivots of the exactly factored problems (0 elsewhere) */
  int64_t *rpiv = calloc((size_t)(count * n + 1), sizeof(int64_t));
  if (!orig || !rinfo || !rpiv) exit(1);
  for (int64_t k = 0; k < count; ++k) {
    orig[k] = gen_general(n, t, k);
    buf_put(&A, k, &orig[k]);
    put_rhs(&B, k);
    rinfo[k] = ref_getrf_info_piv(&orig[k], rpiv + k * n);
    if (is_singular_kind(k))
      CHECK(rinfo[k] == n / 2 + 1, "reference info %lld n %lld",
            (long long)rinfo[k], (long long)n);
  }
  buf_up(&A);
  buf_up(&B);
  const int64_t sp = n + 2;
  int *ipiv = ints_side(sp * count), *info = ints_side(count);
  int *hpiv = calloc((size_t)(sp * count + 1), sizeof(int));
  int *hinfo = calloc((size_t)(count + 1), sizeof(int));
  int64_t *piv64 = test_new_ipiv(n);

  /* getrf, then getrs on the factors */
  batch_buf F = buf_clone(&A), X = buf_clone(&B);
  CHECK_STATUS(h, getrf_b(&F, ipiv, sp, info), AXB_SUCCESS);
  CHECK_STATUS(h, getrs_b(&F, ipiv, sp, &X), AXB_SUCCESS);
  buf_down(&F);
  buf_down(&X);
  ints_down(hpiv, ipiv, sp * count);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&F) && buf_padding_nan(&X), "%s n %lld padding", tn,
        (long long)n);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s getrf n %lld #%lld info %d ref %lld", tn,
          (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    for (int64_t i = 0; i < n; ++i)
      piv64[i] = hpiv[k * sp + i];
    axb_dense LU = buf_view(&F, k);
    CHECK_RATIO(axb_check_lu(&orig[k], &LU, piv64), "%s getrf n %lld #%lld", tn,
                (long long)n, (long long)k);
    /* Where REF's factorization is exact (the tie problems), the same
       exact arithmetic must meet the same ties: the pivots must be REF's
       (first row of the largest magnitude in the current order). */
    if (n > 0 && rpiv[k * n]) {
      ++pivots_compared;
      int64_t differ = -1;
      for (int64_t i = n - 1; i >= 0; --i)
        if (piv64[i] != rpiv[k * n + i]) differ = i;
      CHECK(differ < 0, "%s getrf n %lld #%lld: pivot %lld is %lld, ref %lld",
            tn, (long long)n, (long long)k, (long long)differ,
            (long long)(differ < 0 ? 0 : piv64[differ]),
            (long long)(differ < 0 ? 0 : rpiv[k * n + differ]));
    }
    if (!rinfo[k]) {
      axb_dense Xk = buf_view(&X, k), Bk = buf_view(&B, k);
      CHECK_RATIO(axb_check_solve(&orig[k], &Xk, &Bk), "%s getrs n %lld #%lld",
                  tn, (long long)n, (long long)k);
    }
  }
  buf_free(&F);
  buf_free(&X);

  /* gesv, with and without kept pivots */
  for (int keep = 0; keep < 2; ++keep) {
    batch_buf G = buf_clone(&A), Y = buf_clone(&B);
    CHECK_STATUS(h, gesv_b(&G, keep ? ipiv : NULL, sp, &Y, info), AXB_SUCCESS);
    buf_down(&G);
    buf_down(&Y);
    ints_down(hinfo, info, count);
    if (keep) ints_down(hpiv, ipiv, sp * count);
    CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s gesv padding", tn);
    for (int64_t k = 0; k < count; ++k) {
      CHECK(hinfo[k] == rinfo[k], "%s gesv n %lld #%lld info %d ref %lld", tn,
            (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
      if (keep) {
        for (int64_t i = 0; i < n; ++i)
          piv64[i] = hpiv[k * sp + i];
        axb_dense LU = buf_view(&G, k);
        CHECK_RATIO(axb_check_lu(&orig[k], &LU, piv64), "%s gesv LU n %lld", tn,
                    (long long)n);
      }
      if (!rinfo[k]) {
        axb_dense Yk = buf_view(&Y, k), Bk = buf_view(&B, k);
        CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk), "%s gesv n %lld #%lld",
                    tn, (long long)n, (long long)k);
      } else {
        CHECK(buf_same(&Y, &B, k), "%s gesv n %lld #%lld: B changed", tn,
              (long long)n, (long long)k);
      }
    }
    buf_free(&G);
    buf_free(&Y);
  }
  /* gesv with one right-hand side (the CUDA backend has kernels of its own
     for it) where B has more: B's first column alone; the other columns
     must come back untouched */
  if (B.cols > 1) {
    batch_buf G = buf_clone(&A), Y = buf_clone(&B), Y1, B1 = B;
    Y.cols = B1.cols = 1;
    CHECK_STATUS(h, gesv_b(&G, NULL, sp, &Y, info), AXB_SUCCESS);
    Y.cols = B.cols;
    buf_down(&G);
    buf_down(&Y);
    ints_down(hinfo, info, count);
    Y1 = Y;
    Y1.cols = 1;
    CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s gesv1 padding", tn);
    for (int64_t k = 0; k < count; ++k) {
      CHECK(hinfo[k] == rinfo[k], "%s gesv1 n %lld #%lld info %d ref %lld", tn,
            (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
      int others = 1;
      for (int64_t j = 1; j < B.cols; ++j)
        for (int64_t i = 0; i < n; ++i)
          if (memcmp(Y.host + (size_t)(k * Y.stride + i + j * Y.ld) * Y.es,
                     B.host + (size_t)(k * B.stride + i + j * B.ld) * B.es,
                     Y.es))
            others = 0;
      CHECK(others, "%s gesv1 n %lld #%lld: other columns changed", tn,
            (long long)n, (long long)k);
      if (!rinfo[k]) {
        axb_dense Yk = buf_view(&Y1, k), Bk = buf_view(&B1, k);
        CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk),
                    "%s gesv1 n %lld #%lld", tn, (long long)n, (long long)k);
      } else {
        CHECK(buf_same(&Y1, &B1, k), "%s gesv1 n %lld #%lld: B changed", tn,
              (long long)n, (long long)k);
      }
    }
    buf_free(&G);
    buf_free(&Y);
  }

  /* inverse in place */
  batch_buf V = buf_clone(&A);
  CHECK_STATUS(h, inverse_b(&V, info), AXB_SUCCESS);
  buf_down(&V);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&V), "%s inverse padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s inverse n %lld #%lld info %d ref %lld", tn,
          (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    if (!rinfo[k]) {
      axb_dense Vk = buf_view(&V, k);
      CHECK_RATIO(axb_check_inverse(&orig[k], &Vk), "%s inverse n %lld #%lld",
                  tn, (long long)n, (long long)k);
    } else {
      CHECK(buf_same(&V, &A, k), "%s inverse n %lld #%lld: A changed", tn,
            (long long)n, (long long)k);
    }
  }
  buf_free(&V);

  originals_free(orig, count);
  free(rinfo);
  free(rpiv);
  free(hpiv);
  free(hinfo);
  free(piv64);
  side_free(ipiv);
  side_free(info);
  buf_free(&A);
  buf_free(&B);
}
