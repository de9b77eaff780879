/* Part of test_sparse_cuda (tests/test_sparse_cuda.c includes it; not
   compiled alone): every SpMV kernel against a host SpMV with a
   row-wise error bound, on generated, hand-made and real matrices. */

/* Row-wise error bound of an SpMV: |y - y_ref|_i <= c eps (|A||x|)_i. */
static double spmv_ratio(const axb_csr *A, const double *x, const double *y) {
  const double eps = A->dtype == AXB_F64 ? 0x1p-53 : 0x1p-24;
  double worst = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = 0, scale = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      const double v = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                                           : ((const float *)A->values)[k];
      s += v * x[A->colind[k]];
      scale += fabs(v * x[A->colind[k]]);
    }
    const int64_t len = A->rowptr[i + 1] - A->rowptr[i];
    const double r =
        fabs(y[i] - s) / ((scale > 0 ? scale : 1) * eps * (double)(len + 1));
    if (!(r <= worst)) worst = r;
  }
  return worst;
}

/* y = A x with the kernel (kind, width) on the GPU, judged on the host. */
static void spmv_case(const char *name, const axb_csr *A, axb_spcuda_mat *M,
                      axb_spmv_kind kind, int width) {
  const size_t ts = A->dtype == AXB_F64 ? 8 : 4;
  double *x = malloc((size_t)(A->cols + 1) * sizeof(double));
  double *y = malloc((size_t)(A->rows + 1) * sizeof(double));
  void *hx = malloc((size_t)(A->cols + 1) * ts);
  void *hy = malloc((size_t)(A->rows + 1) * ts);
  for (int64_t j = 0; j < A->cols; ++j) {
    x[j] = 1.0 + 0.5 * sin(0.7 * (double)j + 0.1);
    if (A->dtype == AXB_F32) {
      ((float *)hx)[j] = (float)x[j];
      x[j] = ((float *)hx)[j];
    } else {
      ((double *)hx)[j] = x[j];
    }
  }
  void *dx = NULL, *dy = NULL;
  CHECK(cudaMalloc(&dx, (size_t)(A->cols + 1) * ts) == cudaSuccess, "malloc");
  CHECK(cudaMalloc(&dy, (size_t)(A->rows + 1) * ts) == cudaSuccess, "malloc");
  cudaMemcpy(dx, hx, (size_t)A->cols * ts, cudaMemcpyHostToDevice);
  /* A pageable copy may return before its DMA lands, and the handle's
     stream does not wait for the legacy stream: wait for it here. */
  CHECK(cudaStreamSynchronize(0) == cudaSuccess, "sync");
  /* NaN until written; on the handle's stream, which does not wait for the
     legacy default stream (non-blocking). */
  cudaMemsetAsync(dy, 0xff, (size_t)(A->rows + 1) * ts,
                  (cudaStream_t)axb_get_stream(g));
  CHECK_STATUS(g, axb_spcuda_mat_set_spmv(M, kind, width), AXB_SUCCESS);
  axb_status st = axb_spcuda_spmv(g, M, dx, dy);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK(cudaStreamSynchronize((cudaStream_t)axb_get_stream(g)) == cudaSuccess,
        "sync");
  cudaMemcpy(hy, dy, (size_t)A->rows * ts, cudaMemcpyDeviceToHost);
  for (int64_t i = 0; i < A->rows; ++i)
    y[i] = A->dtype == AXB_F64 ? ((double *)hy)[i] : ((float *)hy)[i];
  const double r = spmv_ratio(A, x, y);
  CHECK_RATIO(r, "%s %s kernel %d width %d", name,
              A->dtype == AXB_F64 ? "d" : "s", (int)kind, width);
  cudaFree(dx);
  cudaFree(dy);
  free(x);
  free(y);
  free(hx);
  free(hy);
}

/* Every kernel on A. */
static void spmv_all(const char *name, const axb_csr *A) {
  axb_spcuda_mat *M = NULL;
  axb_status st = axb_spcuda_mat_create(g, A, &M);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  for (int w = 1; w <= 32; w *= 2)
    spmv_case(name, A, M, AXB_SPMV_VECTOR, w);
  /* W = 1 with its batches of entries under every load hint. */
  const int batches[] = {1, 4, 8, 0};
  for (int bt = 0; bt < 4; ++bt)
    for (int hh = 0; hh < 3; ++hh) {
      CHECK_STATUS(g, axb_spcuda_mat_set_spmv_batch(M, batches[bt]),
                   AXB_SUCCESS);
      CHECK_STATUS(g, axb_spcuda_mat_set_spmv_hint(M, (axb_spmv_hint)hh),
                   AXB_SUCCESS);
      spmv_case(name, A, M, AXB_SPMV_VECTOR, 1);
    }
  CHECK(axb_spcuda_mat_set_spmv_batch(M, 3) == AXB_ERR_INVALID,
        "batch 3 refused");
  spmv_case(name, A, M, AXB_SPMV_MERGE, 0);
  spmv_case(name, A, M, AXB_SPMV_STREAM, 0);
  spmv_case(name, A, M, AXB_SPMV_AUTO, 0);
  CHECK(axb_spcuda_mat_set_spmv(M, AXB_SPMV_VECTOR, 3) == AXB_ERR_INVALID,
        "width 3 refused");
  axb_spcuda_mat_destroy(M);
}

static void spmv_gen(const char *spec) {
  for (int t = 0; t < 2; ++t) {
    axb_gen_spec s;
    axb_csr A;
    CHECK_STATUS(g, axb_gen_parse(g, spec, &s), AXB_SUCCESS);
    if (axb_gen_csr(g, &s, t ? AXB_F32 : AXB_F64, &A) != AXB_SUCCESS) {
      CHECK(0, "gen %s", spec);
      continue;
    }
    spmv_all(spec, &A);
    axb_csr_destroy(&A);
  }
}

/* rows x cols with row lengths len(i) (columns spread over the row),
   values in (-1, 1) from a simple LCG. */
static axb_csr make_csr(int64_t rows, int64_t cols, axb_dtype t,
                        int64_t (*len)(int64_t i, int64_t cols)) {
  int64_t nnz = 0;
  for (int64_t i = 0; i < rows; ++i)
    nnz += len(i, cols);
  axb_csr A;
  if (axb_csr_create(&A, rows, cols, nnz, t) != AXB_SUCCESS) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  uint64_t s = 12345;
  int64_t k = 0;
  for (int64_t i = 0; i < rows; ++i) {
    A.rowptr[i] = k;
    const int64_t l = len(i, cols);
    for (int64_t e = 0; e < l; ++e, ++k) {
      /* spaced by >= cols / l, shifted by less than that: increasing */
      A.colind[k] = l >= cols ? e : (e * cols) / l + i % (cols / l);
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      const double v = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
      if (t == AXB_F64)
        ((double *)A.values)[k] = v;
      else
        ((float *)A.values)[k] = (float)v;
    }
  }
  A.rowptr[rows] = k;
  return A;
}

static int64_t len_irregular(int64_t i, int64_t cols) {
  if (i == 3) return cols;  /* one dense row: spans many merge tiles */
  if (i % 7 == 0) return 0; /* empty rows */
  return 1 + (i * 13) % 9;
}
static int64_t len_one(int64_t i, int64_t cols) {
  (void)i;
  (void)cols;
  return 1;
}
static int64_t len_wide(int64_t i, int64_t cols) {
  (void)i;
  return cols / 3 + 1;
}

static void spmv_handmade(void) {
  const int64_t big = quick ? 3000 : 40000;
  for (int t = 0; t < 2; ++t) {
    const axb_dtype dt = t ? AXB_F32 : AXB_F64;
    axb_csr A = make_csr(1, 1, dt, len_one);
    spmv_all("1x1", &A);
    axb_csr_destroy(&A);
    A = make_csr(1001, big, dt, len_irregular);
    spmv_all("irregular", &A);
    axb_csr_destroy(&A);
    A = make_csr(37, 2 * big, dt, len_wide);
    spmv_all("few-long-rows", &A);
    axb_csr_destroy(&A);
    A = make_csr(33, 517, dt, len_wide);
    spmv_all("rectangular", &A);
    axb_csr_destroy(&A);
  }
}

/* A shared matrix by name: NAME.mtx, else NAME.mtx.gz (the device copy is
   compressed); AXB_SUCCESS or the reader's status. */
static axb_status read_real(const char *dir, const char *name, axb_dtype t,
                            axb_csr *A) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.mtx", dir, name);
  if (axb_read_csr(g, path, t, A) == AXB_SUCCESS) return AXB_SUCCESS;
  snprintf(path, sizeof path, "%s/%s.mtx.gz", dir, name);
  return axb_read_csr(g, path, t, A);
}

static void spmv_real(void) {
  const char *dir = test_matrices_dir();
  if (!dir) return;
  const char *names[] = {"bcsstk16", "cage10",   "west0479",
                         "gemat12",  "sherman3", "nos4"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    if (quick && i > 0) break;
    for (int t = 0; t < 2; ++t) {
      axb_csr A;
      if (read_real(dir, names[i], t ? AXB_F32 : AXB_F64, &A) != AXB_SUCCESS)
        continue; /* a missing matrix is not this test's failure */
      spmv_all(names[i], &A);
      axb_csr_destroy(&A);
    }
  }
}
