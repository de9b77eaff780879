/* The public batched routines (axb.h), written once in T/P (PREFIX_STR is
   "axb_d" or "axb_s"). */

/* Checked arguments -> device kernels (CUDA handle) or host loops. */
static axb_status AXB_FN(bat_, run)(axb_handle h, const bat_args *a, int op,
                                    T *A, int *ipiv, T *B, int *info) {
  axb_status st = bat_check(h, a);
  if (st) return st;
  const int up = a->uplo == AXB_UPPER;
  BAT_CUDA_OR(h, AXB_FN(axb__cuda_, batched)(h, op, up, a->n, a->nrhs, A,
                                             a->lda, a->sA, ipiv, a->sP, B,
                                             a->ldb, a->sB, info, a->batch))
  if (a->batch == 0) return AXB_SUCCESS;
  BAT_AUTO_GPU(h, a, op, AXB_FN(axb__cuda_, batched_host))
  return AXB_FN(bat_, host)(h, op, up, a->n, a->nrhs, A, a->lda, a->sA, ipiv,
                            a->sP, B, a->ldb, a->sB, info, a->batch);
}

axb_status AXB_FN(axb_, getrf_batched)(axb_handle h, int64_t n, T *A,
                                       int64_t lda, int64_t strideA, int *ipiv,
                                       int64_t strideipiv, int *info,
                                       int64_t batch) {
  bat_args a = {.name = PREFIX_STR "getrf_batched",
                .n = n,
                .lda = lda,
                .sA = strideA,
                .sP = strideipiv,
                .ldb = 1,
                .batch = batch,
                .A = A,
                .ipiv = ipiv,
                .info = info,
                .uplo = -1,
                .a_n = 1,
                .a_A = 2,
                .a_lda = 3,
                .a_sA = 4,
                .a_ipiv = 5,
                .a_sP = 6,
                .a_info = 7,
                .a_batch = 8};
  return AXB_FN(bat_, run)(h, &a, BAT_GETRF, A, ipiv, NULL, info);
}

axb_status AXB_FN(axb_, getrs_batched)(axb_handle h, int64_t n, int64_t nrhs,
                                       const T *A, int64_t lda, int64_t strideA,
                                       const int *ipiv, int64_t strideipiv,
                                       T *B, int64_t ldb, int64_t strideB,
                                       int64_t batch) {
  bat_args a = {.name = PREFIX_STR "getrs_batched",
                .n = n,
                .nrhs = nrhs,
                .lda = lda,
                .sA = strideA,
                .sP = strideipiv,
                .ldb = ldb,
                .sB = strideB,
                .batch = batch,
                .A = A,
                .ipiv = ipiv,
                .B = B,
                .uplo = -1,
                .a_n = 1,
                .a_nrhs = 2,
                .a_A = 3,
                .a_lda = 4,
                .a_sA = 5,
                .a_ipiv = 6,
                .a_sP = 7,
                .a_B = 8,
                .a_ldb = 9,
                .a_sB = 10,
                .a_batch = 11};
  if (nrhs == 0 && n >= 0) a.batch = batch < 0 ? batch : 0;
  return AXB_FN(bat_, run)(h, &a, BAT_GETRS, (T *)A, (int *)ipiv, B, NULL);
}

axb_status AXB_FN(axb_, gesv_batched)(axb_handle h, int64_t n, int64_t nrhs,
                                      T *A, int64_t lda, int64_t strideA,
                                      int *ipiv, int64_t strideipiv, T *B,
                                      int64_t ldb, int64_t strideB, int *info,
                                      int64_t batch) {
  bat_args a = {.name = PREFIX_STR "gesv_batched",
                .n = n,
                .nrhs = nrhs,
                .lda = lda,
                .sA = strideA,
                .sP = strideipiv,
                .ldb = ldb,
                .sB = strideB,
                .batch = batch,
                .A = A,
                .ipiv = ipiv,
                .B = B,
                .info = info,
                .uplo = -1,
                .a_n = 1,
                .a_nrhs = 2,
                .a_A = 3,
                .a_lda = 4,
                .a_sA = 5,
                .a_ipiv = 6,
                .a_sP = 7,
                .a_B = 8,
                .a_ldb = 9,
                .a_sB = 10,
                .a_info = 11,
                .a_batch = 12,
                .ipiv_optional = 1};
  return AXB_FN(bat_, run)(h, &a, BAT_GESV, A, ipiv, B, info);
}

axb_status AXB_FN(axb_, inverse_batched)(axb_handle h, int64_t n, T *A,
                                         int64_t lda, int64_t strideA,
                                         int *info, int64_t batch) {
  bat_args a = {.name = PREFIX_STR "inverse_batched",
                .n = n,
                .lda = lda,
                .sA = strideA,
                .ldb = 1,
                .batch = batch,
                .A = A,
                .info = info,
                .uplo = -1,
                .a_n = 1,
                .a_A = 2,
                .a_lda = 3,
                .a_sA = 4,
                .a_info = 5,
                .a_batch = 6};
  return AXB_FN(bat_, run)(h, &a, BAT_INVERSE, A, NULL, NULL, info);
}

axb_status AXB_FN(axb_, potrf_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                       T *A, int64_t lda, int64_t strideA,
                                       int *info, int64_t batch) {
  bat_args a = {.name = PREFIX_STR "potrf_batched",
                .n = n,
                .lda = lda,
                .sA = strideA,
                .ldb = 1,
                .batch = batch,
                .A = A,
                .info = info,
                .uplo = (int)uplo,
                .a_uplo = 1,
                .a_n = 2,
                .a_A = 3,
                .a_lda = 4,
                .a_sA = 5,
                .a_info = 6,
                .a_batch = 7};
  return AXB_FN(bat_, run)(h, &a, BAT_POTRF, A, NULL, NULL, info);
}

axb_status AXB_FN(axb_, potrs_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                       int64_t nrhs, const T *A, int64_t lda,
                                       int64_t strideA, T *B, int64_t ldb,
                                       int64_t strideB, int64_t batch) {
  bat_args a = {.name = PREFIX_STR "potrs_batched",
                .n = n,
                .nrhs = nrhs,
                .lda = lda,
                .sA = strideA,
                .ldb = ldb,
                .sB = strideB,
                .batch = batch,
                .A = A,
                .B = B,
                .uplo = (int)uplo,
                .a_uplo = 1,
                .a_n = 2,
                .a_nrhs = 3,
                .a_A = 4,
                .a_lda = 5,
                .a_sA = 6,
                .a_B = 7,
                .a_ldb = 8,
                .a_sB = 9,
                .a_batch = 10};
  if (nrhs == 0 && n >= 0) a.batch = batch < 0 ? batch : 0;
  return AXB_FN(bat_, run)(h, &a, BAT_POTRS, (T *)A, NULL, B, NULL);
}

axb_status AXB_FN(axb_, posv_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                      int64_t nrhs, T *A, int64_t lda,
                                      int64_t strideA, T *B, int64_t ldb,
                                      int64_t strideB, int *info,
                                      int64_t batch) {
  bat_args a = {.name = PREFIX_STR "posv_batched",
                .n = n,
                .nrhs = nrhs,
                .lda = lda,
                .sA = strideA,
                .ldb = ldb,
                .sB = strideB,
                .batch = batch,
                .A = A,
                .B = B,
                .info = info,
                .uplo = (int)uplo,
                .a_uplo = 1,
                .a_n = 2,
                .a_nrhs = 3,
                .a_A = 4,
                .a_lda = 5,
                .a_sA = 6,
                .a_B = 7,
                .a_ldb = 8,
                .a_sB = 9,
                .a_info = 10,
                .a_batch = 11};
  return AXB_FN(bat_, run)(h, &a, BAT_POSV, A, NULL, B, info);
}
