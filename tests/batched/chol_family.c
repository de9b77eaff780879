/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): potrf, potrs and posv _batched,
   each problem judged alone against the reference backend. */

static void test_chol_family(axb_dtype t, int64_t n, int64_t count,
                             axb_uplo uplo) {
  const char *tn = axb_dtype_name(t);
  const char *un = uplo == AXB_LOWER ? "lower" : "upper";
  const int64_t lda = n + 2, nrhs = (n % 3) ? 1 : 2, ldb = n + 1;
  batch_buf A = buf_new(t, n, n, lda, 1, count);
  batch_buf B = buf_new(t, n, nrhs, ldb, 2, count);
  axb_dense *orig = calloc((size_t)(count ? count : 1), sizeof(axb_dense));
  int64_t *rinfo = calloc((size_t)(count ? count : 1), sizeof(int64_t));
  if (!orig || !rinfo) exit(1);
  for (int64_t k = 0; k < count; ++k) {
    orig[k] = gen_spd(n, t, k);
    buf_put(&A, k, &orig[k]);
    put_rhs(&B, k);
    rinfo[k] = ref_potrf_info(&orig[k]);
    if (not_spd_kind(k))
      CHECK(rinfo[k] >= 1 && rinfo[k] <= n / 2 + 1, "reference potrf info");
  }
  buf_up(&A);
  buf_up(&B);
  int *info = ints_side(count);
  int *hinfo = calloc((size_t)(count + 1), sizeof(int));

  batch_buf F = buf_clone(&A), X = buf_clone(&B);
  CHECK_STATUS(h, potrf_b(uplo, &F, info), AXB_SUCCESS);
  ints_down(hinfo, info, count);
  /* potrs only on the SPD problems: run it on all, judge the SPD ones */
  CHECK_STATUS(h, potrs_b(uplo, &F, &X), AXB_SUCCESS);
  buf_down(&F);
  buf_down(&X);
  CHECK(buf_padding_nan(&F) && buf_padding_nan(&X), "%s potrf padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s potrf %s n %lld #%lld info %d ref %lld", tn,
          un, (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    if (rinfo[k]) continue;
    axb_dense Fk = buf_view(&F, k), Xk = buf_view(&X, k), Bk = buf_view(&B, k);
    CHECK_RATIO(axb_check_cholesky(&orig[k], &Fk, uplo),
                "%s potrf %s n %lld #%lld", tn, un, (long long)n, (long long)k);
    CHECK_RATIO(axb_check_solve(&orig[k], &Xk, &Bk), "%s potrs %s n %lld #%lld",
                tn, un, (long long)n, (long long)k);
  }
  buf_free(&F);
  buf_free(&X);

  batch_buf G = buf_clone(&A), Y = buf_clone(&B);
  CHECK_STATUS(h, posv_b(uplo, &G, &Y, info), AXB_SUCCESS);
  buf_down(&G);
  buf_down(&Y);
  ints_down(hinfo, info, count);
  CHECK(buf_padding_nan(&G) && buf_padding_nan(&Y), "%s posv padding", tn);
  for (int64_t k = 0; k < count; ++k) {
    CHECK(hinfo[k] == rinfo[k], "%s posv %s n %lld #%lld info %d ref %lld", tn,
          un, (long long)n, (long long)k, hinfo[k], (long long)rinfo[k]);
    axb_dense Yk = buf_view(&Y, k), Bk = buf_view(&B, k);
    if (!rinfo[k])
      CHECK_RATIO(axb_check_solve(&orig[k], &Yk, &Bk),
                  "%s posv %s n %lld #%lld", tn, un, (long long)n,
                  (long long)k);
    else
      CHECK(buf_same(&Y, &B, k), "%s posv n %lld #%lld: B changed", tn,
            (long long)n, (long long)k);
  }
  buf_free(&G);
  buf_free(&Y);
  originals_free(orig, count);
  free(rinfo);
  free(hinfo);
  side_free(info);
  buf_free(&A);
  buf_free(&B);
}
