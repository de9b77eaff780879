/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): memory on the handle's side, a strided
   batch with NaN padding on the host and its copy there, and the batched
   routines through one signature per family. */

/* ---- memory of the handle's side (device arrays on CUDA) ----------------- */

static void *side_alloc(size_t bytes) {
  void *p = NULL;
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) p = NULL;
  } else
#endif
    p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}
static void side_free(void *p) {
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    cudaStreamSynchronize((cudaStream_t)axb_get_stream(h));
    cudaFree(p);
    return;
  }
#endif
  free(p);
}
/* dir 1: host -> side, 0: side -> host (synchronises the device). */
static void side_copy(void *dst, const void *src, size_t bytes, int to_side) {
#if defined(TEST_BATCHED_CUDA) && defined(AXB_TEST_HAVE_CUDA)
  if (on_device) {
    /* The handle's stream does not synchronise with the legacy default
       stream of cudaMemcpy: wait for the queued batched work first. */
    cudaStreamSynchronize((cudaStream_t)axb_get_stream(h));
    cudaError_t e =
        cudaMemcpy(dst, src, bytes,
                   to_side ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    /* A pageable host-to-device cudaMemcpy returns once the data is in
       the driver's staging buffer; its DMA to the device may still run
       (CUDA "API synchronization behavior"), and the handle's
       non-blocking stream is not ordered after it: a kernel launched
       next could read the tail of the array before it arrives (seen on
       the H200: the last matrix of a 500 KB batch, inverse n = 64).
       Wait for the copy itself. */
    if (e == cudaSuccess && to_side) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(e));
      exit(1);
    }
    return;
  }
#endif
  (void)to_side;
  memcpy(dst, src, bytes);
}

/* ---- a strided batch on the host ------------------------------------------
 */

typedef struct {
  axb_dtype t;
  size_t es;
  int64_t rows, cols, ld, stride, count;
  char *host; /* count * stride elements, NaN outside the matrices */
  void *side; /* the batch on the handle's side, base + shift elements */
  void *base;
} batch_buf;
/* shift_mode: every buffer's batch starts one element past the
   allocation (not 16-byte aligned: the CUDA tiles' element-wise path
   instead of 16-byte pieces) */
static int shift_mode;
static void *side_alloc_shifted(batch_buf *b, int64_t total) {
  b->base = side_alloc((size_t)(total + shift_mode) * b->es);
  return (char *)b->base + (size_t)shift_mode * b->es;
}

static double get_el(const batch_buf *b, int64_t k, int64_t i, int64_t j) {
  const int64_t o = k * b->stride + i + j * b->ld;
  return b->t == AXB_F64 ? ((double *)b->host)[o] : ((float *)b->host)[o];
}

static batch_buf buf_new(axb_dtype t, int64_t rows, int64_t cols, int64_t ld,
                         int64_t gap, int64_t count) {
  batch_buf b = {t,     axb_dtype_size(t),
                 rows,  cols,
                 ld,    ld * cols + gap,
                 count, NULL,
                 NULL,  NULL};
  const int64_t total = b.stride * count;
  b.host = malloc((size_t)(total ? total : 1) * b.es);
  if (!b.host) exit(1);
  for (int64_t e = 0; e < total; ++e) {
    if (t == AXB_F64)
      ((double *)b.host)[e] = NAN;
    else
      ((float *)b.host)[e] = NAN;
  }
  b.side = side_alloc_shifted(&b, total);
  return b;
}
static void buf_free(batch_buf *b) {
  free(b->host);
  side_free(b->base);
}
static void buf_put(batch_buf *b, int64_t k, const axb_dense *M) {
  for (int64_t j = 0; j < b->cols; ++j)
    memcpy(b->host + (size_t)(k * b->stride + j * b->ld) * b->es,
           (char *)M->data + (size_t)(j * M->ld) * b->es,
           (size_t)b->rows * b->es);
}
static void buf_up(batch_buf *b) {
  side_copy(b->side, b->host, (size_t)(b->stride * b->count) * b->es, 1);
}
static void buf_down(batch_buf *b) {
  side_copy(b->host, b->side, (size_t)(b->stride * b->count) * b->es, 0);
}
/* Problem k as a dense matrix viewing the host copy. */
static axb_dense buf_view(const batch_buf *b, int64_t k) {
  return axb_dense_wrap(b->rows, b->cols, b->ld, b->t,
                        b->host + (size_t)(k * b->stride) * b->es);
}
/* Every entry outside the rows x cols matrices is still NaN. */
static int buf_padding_nan(const batch_buf *b) {
  for (int64_t k = 0; k < b->count; ++k)
    for (int64_t e = 0; e < b->stride; ++e) {
      const int64_t i = e % b->ld, j = e / b->ld;
      if (i < b->rows && j < b->cols) continue;
      if (!isnan(get_el(b, k, i, j))) return 0;
    }
  return 1;
}
/* Problem k is bit-identical between two buffers' host copies. */
static int buf_same(const batch_buf *a, const batch_buf *b, int64_t k) {
  for (int64_t j = 0; j < a->cols; ++j)
    if (memcmp(a->host + (size_t)(k * a->stride + j * a->ld) * a->es,
               b->host + (size_t)(k * b->stride + j * b->ld) * b->es,
               (size_t)a->rows * a->es))
      return 0;
  return 1;
}
static batch_buf buf_clone(const batch_buf *a) {
  batch_buf b = *a;
  const int64_t total = a->stride * a->count;
  b.host = malloc((size_t)(total ? total : 1) * a->es);
  if (!b.host) exit(1);
  memcpy(b.host, a->host, (size_t)total * a->es);
  b.side = side_alloc_shifted(&b, total);
  buf_up(&b);
  return b;
}

/* ---- the routines through one signature per family --------------------- */

static axb_status getrf_b(batch_buf *A, int *ipiv, int64_t sp, int *info) {
  return A->t == AXB_F64
             ? axb_dgetrf_batched(h, A->rows, A->side, A->ld, A->stride, ipiv,
                                  sp, info, A->count)
             : axb_sgetrf_batched(h, A->rows, A->side, A->ld, A->stride, ipiv,
                                  sp, info, A->count);
}
static axb_status getrs_b(batch_buf *A, const int *ipiv, int64_t sp,
                          batch_buf *B) {
  return A->t == AXB_F64
             ? axb_dgetrs_batched(h, A->rows, B->cols, A->side, A->ld,
                                  A->stride, ipiv, sp, B->side, B->ld,
                                  B->stride, A->count)
             : axb_sgetrs_batched(h, A->rows, B->cols, A->side, A->ld,
                                  A->stride, ipiv, sp, B->side, B->ld,
                                  B->stride, A->count);
}
static axb_status gesv_b(batch_buf *A, int *ipiv, int64_t sp, batch_buf *B,
                         int *info) {
  return A->t == AXB_F64
             ? axb_dgesv_batched(h, A->rows, B->cols, A->side, A->ld, A->stride,
                                 ipiv, sp, B->side, B->ld, B->stride, info,
                                 A->count)
             : axb_sgesv_batched(h, A->rows, B->cols, A->side, A->ld, A->stride,
                                 ipiv, sp, B->side, B->ld, B->stride, info,
                                 A->count);
}
static axb_status inverse_b(batch_buf *A, int *info) {
  return A->t == AXB_F64 ? axb_dinverse_batched(h, A->rows, A->side, A->ld,
                                                A->stride, info, A->count)
                         : axb_sinverse_batched(h, A->rows, A->side, A->ld,
                                                A->stride, info, A->count);
}
static axb_status potrf_b(axb_uplo u, batch_buf *A, int *info) {
  return A->t == AXB_F64 ? axb_dpotrf_batched(h, u, A->rows, A->side, A->ld,
                                              A->stride, info, A->count)
                         : axb_spotrf_batched(h, u, A->rows, A->side, A->ld,
                                              A->stride, info, A->count);
}
static axb_status potrs_b(axb_uplo u, batch_buf *A, batch_buf *B) {
  return A->t == AXB_F64 ? axb_dpotrs_batched(h, u, A->rows, B->cols, A->side,
                                              A->ld, A->stride, B->side, B->ld,
                                              B->stride, A->count)
                         : axb_spotrs_batched(h, u, A->rows, B->cols, A->side,
                                              A->ld, A->stride, B->side, B->ld,
                                              B->stride, A->count);
}
static axb_status posv_b(axb_uplo u, batch_buf *A, batch_buf *B, int *info) {
  return A->t == AXB_F64 ? axb_dposv_batched(h, u, A->rows, B->cols, A->side,
                                             A->ld, A->stride, B->side, B->ld,
                                             B->stride, info, A->count)
                         : axb_sposv_batched(h, u, A->rows, B->cols, A->side,
                                             A->ld, A->stride, B->side, B->ld,
                                             B->stride, info, A->count);
}
