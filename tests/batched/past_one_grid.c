/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): batches past one grid of 2^22 blocks, on
   CUDA only. */

#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
/* ---- batches past one grid ------------------------------------------------
 * The per-thread factorizations and inverse (one tile of 128 matrices per
 * block at n <= 4) and the in-step group kernels (one matrix per group, 16
 * per block at n = 7, 8) are launched once per 2^22 blocks.  Here: the
 * float inverse at n = 2 past 2^29 matrices, and the inverse and the
 * one-rhs solve at n = 7 past 2^26, on A = c I (c = 3.0039..., the float
 * of bytes 0x40; stride n (n + 1), lda n), so that every result is known:
 * (1/c) I, and x = 1 for b = c (every entry bytes 0x40).  info starts at
 * -1 and must end 0 for every matrix (each one visited); the matrices at
 * the grids' edges are read back in full.  Needs ~18 GB of free device
 * memory; reported as skipped otherwise. */
static int big_diag(float *A, int64_t n, int64_t batch, float c) {
  /* a host tile of K matrices, then doubling copies on the device */
  const int64_t K = 1024, s = n * (n + 1);
  float *t = (float *)calloc((size_t)(K * s), sizeof(float));
  if (!t) return 0;
  for (int64_t e = 0; e < K * s; e += n + 1)
    t[e] = c;
  int ok = cudaMemcpy(A, t, (size_t)(K * s) * sizeof(float),
                      cudaMemcpyHostToDevice) == cudaSuccess;
  free(t);
  for (int64_t done = K; ok && done < batch; done *= 2) {
    const int64_t m = batch - done < done ? batch - done : done;
    ok = cudaMemcpy(A + done * s, A, (size_t)(m * s) * sizeof(float),
                    cudaMemcpyDeviceToDevice) == cudaSuccess;
  }
  return ok && cudaDeviceSynchronize() == cudaSuccess;
}
/* Bytes of device memory set to v, finished before the call returns: the
   handle's stream does not wait for the legacy stream's cudaMemset (a
   first version of this test raced there and read -1 back). */
static int big_fill(void *p, int v, int64_t bytes) {
  return cudaMemset(p, v, (size_t)bytes) == cudaSuccess &&
         cudaDeviceSynchronize() == cudaSuccess;
}
/* info[0..batch) all 0; the matrices m in ms: diagonal d, the rest 0. */
static void big_check(const char *what, int64_t n, int64_t batch,
                      const float *A, const int *info, const int64_t *ms,
                      int nm, float d) {
  int *hi = (int *)malloc((size_t)batch * sizeof(int));
  CHECK(hi != NULL, "%s: host info", what);
  if (!hi) return;
  side_copy(hi, info, (size_t)batch * sizeof(int), 0);
  int64_t bad = 0, first = -1;
  for (int64_t m = 0; m < batch; ++m)
    if (hi[m] != 0 && bad++ == 0) first = m;
  CHECK(bad == 0, "%s n %lld batch %lld: %lld info != 0, first %lld (%d)", what,
        (long long)n, (long long)batch, (long long)bad, (long long)first,
        first >= 0 ? hi[first] : 0);
  free(hi);
  float M[8 * 8];
  for (int k = 0; k < nm; ++k) {
    side_copy(M, A + ms[k] * n * (n + 1), (size_t)(n * n) * sizeof(float), 0);
    double err = 0;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) {
        const double e = M[i + j * n] - (i == j ? d : 0.0f);
        if (!(fabs(e) <= err)) err = fabs(e);
      }
    CHECK(err <= 1e-6 * d, "%s n %lld matrix %lld: max error %g", what,
          (long long)n, (long long)ms[k], err);
  }
}
static void test_past_one_grid(void) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
      free_b < ((size_t)18 << 30)) {
    printf("SKIP batches past one grid: %zu MB of device memory free, 18 GB "
           "needed\n",
           free_b >> 20);
    return;
  }
  float c;
  const unsigned cb = 0x40404040u;
  memcpy(&c, &cb, sizeof c);
  const int64_t g = (int64_t)1 << 22; /* blocks per launch */
  /* n = 2: per-thread inverse, 128 matrices per block */
  {
    const int64_t n = 2, batch = g * 128 + 5, s = n * (n + 1);
    float *A = (float *)side_alloc((size_t)(batch * s) * sizeof(float));
    int *info = (int *)side_alloc((size_t)batch * sizeof(int));
    CHECK(big_diag(A, n, batch, c) && big_fill(info, 0xff, batch * 4),
          "big n 2: memset");
    CHECK(axb_sinverse_batched(h, n, A, n, s, info, batch) == AXB_SUCCESS,
          "big n 2: %s", axb_detail(h));
    const int64_t ms[] = {0, g * 128 - 1, g * 128, batch - 1};
    big_check("inverse (per thread)", n, batch, A, info, ms, 4, 1.0f / c);
    side_free(A);
    side_free(info);
  }
  /* n = 7: in-step group kernels, 16 matrices per block */
  {
    const int64_t n = 7, batch = g * 16 + 33, s = n * (n + 1);
    float *A = (float *)side_alloc((size_t)(batch * s) * sizeof(float));
    float *B = (float *)side_alloc((size_t)(batch * n) * sizeof(float));
    int *info = (int *)side_alloc((size_t)batch * sizeof(int));
    const int64_t ms[] = {0, g * 16 - 1, g * 16, batch - 1};
    CHECK(big_diag(A, n, batch, c) && big_fill(info, 0xff, batch * 4),
          "big n 7: memset");
    CHECK(axb_sinverse_batched(h, n, A, n, s, info, batch) == AXB_SUCCESS,
          "big n 7 inverse: %s", axb_detail(h));
    big_check("inverse (in step)", n, batch, A, info, ms, 4, 1.0f / c);
    CHECK(big_diag(A, n, batch, c) && big_fill(B, 0x40, batch * n * 4) &&
              big_fill(info, 0xff, batch * 4),
          "big n 7: memset");
    CHECK(axb_sgesv_batched(h, n, 1, A, n, s, NULL, 0, B, n, n, info, batch) ==
              AXB_SUCCESS,
          "big n 7 gesv: %s", axb_detail(h));
    big_check("gesv (in step)", n, batch, A, info, ms, 0, 0.0f); /* info */
    for (int k = 0; k < 4; ++k) {
      float x[8];
      side_copy(x, B + ms[k] * n, (size_t)n * sizeof(float), 0);
      double err = 0;
      for (int64_t i = 0; i < n; ++i)
        if (!(fabs(x[i] - 1.0) <= err)) err = fabs(x[i] - 1.0);
      CHECK(err <= 1e-6, "gesv (in step) n 7 matrix %lld: max |x - 1| %g",
            (long long)ms[k], err);
    }
    side_free(A);
    side_free(B);
    side_free(info);
  }
}
#endif
