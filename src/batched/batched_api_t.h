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
  if (op == BAT_GETRS && a->n > 0 && (st = bat_check_pivots(h, a, ipiv)))
    return st;
  BAT_AUTO_GPU(h, a, op, AXB_FN(axb__cuda_, batched_host))
  return AXB_FN(bat_, host)(h, op, up, a->n, a->nrhs, A, a->lda, a->sA, ipiv,
                            a->sP, B, a->ldb, a->sB, info, a->batch);
}

axb_status AXB_FN(axb_, getrf_batched)(axb_handle h, int64_t n, T *A,
                                       int64_t lda, int64_t strideA, int *ipiv,
                                       int64_t strideipiv, int *info,
                                       int64_t batch) {
  bat_args a =
      bat_make(PREFIX_STR "getrf_batched", BAT_HAS_IPIV | BAT_HAS_INFO, -1, n,
               0, A, lda, strideA, ipiv, strideipiv, NULL, 1, 0, info, batch);
  return AXB_FN(bat_, run)(h, &a, BAT_GETRF, A, ipiv, NULL, info);
}

/* getrs and potrs with nrhs = 0 (and a valid n) have nothing to solve:
   batch 0 skips the work; a negative batch is still reported. */
axb_status AXB_FN(axb_, getrs_batched)(axb_handle h, int64_t n, int64_t nrhs,
                                       const T *A, int64_t lda, int64_t strideA,
                                       const int *ipiv, int64_t strideipiv,
                                       T *B, int64_t ldb, int64_t strideB,
                                       int64_t batch) {
  bat_args a = bat_make(
      PREFIX_STR "getrs_batched", BAT_HAS_NRHS | BAT_HAS_IPIV | BAT_HAS_B, -1,
      n, nrhs, A, lda, strideA, ipiv, strideipiv, B, ldb, strideB, NULL, batch);
  if (nrhs == 0 && n >= 0) a.batch = batch < 0 ? batch : 0;
  return AXB_FN(bat_, run)(h, &a, BAT_GETRS, (T *)A, (int *)ipiv, B, NULL);
}

axb_status AXB_FN(axb_, gesv_batched)(axb_handle h, int64_t n, int64_t nrhs,
                                      T *A, int64_t lda, int64_t strideA,
                                      int *ipiv, int64_t strideipiv, T *B,
                                      int64_t ldb, int64_t strideB, int *info,
                                      int64_t batch) {
  bat_args a = bat_make(PREFIX_STR "gesv_batched",
                        BAT_HAS_NRHS | BAT_HAS_IPIV | BAT_IPIV_OPTIONAL |
                            BAT_HAS_B | BAT_HAS_INFO,
                        -1, n, nrhs, A, lda, strideA, ipiv, strideipiv, B, ldb,
                        strideB, info, batch);
  return AXB_FN(bat_, run)(h, &a, BAT_GESV, A, ipiv, B, info);
}

axb_status AXB_FN(axb_, inverse_batched)(axb_handle h, int64_t n, T *A,
                                         int64_t lda, int64_t strideA,
                                         int *info, int64_t batch) {
  bat_args a = bat_make(PREFIX_STR "inverse_batched", BAT_HAS_INFO, -1, n, 0, A,
                        lda, strideA, NULL, 0, NULL, 1, 0, info, batch);
  return AXB_FN(bat_, run)(h, &a, BAT_INVERSE, A, NULL, NULL, info);
}

axb_status AXB_FN(axb_, potrf_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                       T *A, int64_t lda, int64_t strideA,
                                       int *info, int64_t batch) {
  bat_args a = bat_make(PREFIX_STR "potrf_batched", BAT_HAS_UPLO | BAT_HAS_INFO,
                        (int)uplo, n, 0, A, lda, strideA, NULL, 0, NULL, 1, 0,
                        info, batch);
  return AXB_FN(bat_, run)(h, &a, BAT_POTRF, A, NULL, NULL, info);
}

axb_status AXB_FN(axb_, potrs_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                       int64_t nrhs, const T *A, int64_t lda,
                                       int64_t strideA, T *B, int64_t ldb,
                                       int64_t strideB, int64_t batch) {
  bat_args a =
      bat_make(PREFIX_STR "potrs_batched",
               BAT_HAS_UPLO | BAT_HAS_NRHS | BAT_HAS_B, (int)uplo, n, nrhs, A,
               lda, strideA, NULL, 0, B, ldb, strideB, NULL, batch);
  if (nrhs == 0 && n >= 0) a.batch = batch < 0 ? batch : 0;
  return AXB_FN(bat_, run)(h, &a, BAT_POTRS, (T *)A, NULL, B, NULL);
}

axb_status AXB_FN(axb_, posv_batched)(axb_handle h, axb_uplo uplo, int64_t n,
                                      int64_t nrhs, T *A, int64_t lda,
                                      int64_t strideA, T *B, int64_t ldb,
                                      int64_t strideB, int *info,
                                      int64_t batch) {
  bat_args a = bat_make(PREFIX_STR "posv_batched",
                        BAT_HAS_UPLO | BAT_HAS_NRHS | BAT_HAS_B | BAT_HAS_INFO,
                        (int)uplo, n, nrhs, A, lda, strideA, NULL, 0, B, ldb,
                        strideB, info, batch);
  return AXB_FN(bat_, run)(h, &a, BAT_POSV, A, NULL, B, info);
}
