/*
 * The LAPACK routines of the drop-in, written once for T = double/float
 * (P = d/s, PNAME = "D"/"S"; included twice by axb_lapack.c).
 *
 * Each routine does what LAPACK 3.11's does before any work: the same
 * argument checks in the same order, reported through the caller's XERBLA
 * with LAPACK's name and argument number; INFO = 0 first; the same quick
 * returns.  Then axb's typed layer does the work on the handle the
 * dispatch picked, with 1-based int64_t pivots converted to LAPACK's
 * int.  When axb cannot serve a call (a library error, not a numerical
 * outcome) the system library's routine does, so the caller still gets
 * LAPACK's answer.
 */

#define AXL_CAT3_(a, b, c) a##b##c
#define AXL_CAT3(a, b, c) AXL_CAT3_(a, b, c)
#define FN(name) AXL_CAT3(P, name, _)     /* dgetrf_ */
#define AXB(name) AXL_CAT3(axb_, P, name) /* axb_dgetrf */
#define TY(name) AXL_CAT3(P, name, _fn)   /* dgetrf_fn */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The outcomes LAPACK has a value for: success and the numerical ones. */
#ifndef AXL_SERVED
#define AXL_SERVED(st)                                                         \
  ((st) == AXB_SUCCESS || (st) == AXB_ERR_SINGULAR || (st) == AXB_ERR_NOT_SPD)
/* Run `call` on c.h; after a library error on the GPU run it again on the
   CPU (the arrays are still the caller's: the CUDA path stages host
   arrays and writes them back at the end). */
#define AXL_RUN(c, st, call)                                                   \
  do {                                                                         \
    st = (call);                                                               \
    if (!AXL_SERVED(st) && (c).on_gpu && axl_retry_cpu(&(c), st) == 0)         \
      st = (call);                                                             \
  } while (0)
/* No system routine either: LAPACK has no INFO for "library failed". */
#define AXL_NO_SYSTEM (-1000)
/* Ends call c: where axb served it, INFO = axb's info i and 1 (the caller
   returns); otherwise 0 (the system library's turn, INFO still LAPACK's). */
static int axl_finish(axl_call *c, axb_status st, int64_t i, lapack_int *info) {
  if (!AXL_SERVED(st)) {
    axl_end(c, st, 0);
    return 0;
  }
  *info = (lapack_int)i;
  axl_end(c, st, *info);
  return 1;
}
#endif

typedef void (*TY(getrf))(const lapack_int *, const lapack_int *, T *,
                          const lapack_int *, lapack_int *, lapack_int *);
typedef void (*TY(getrs))(const char *, const lapack_int *, const lapack_int *,
                          const T *, const lapack_int *, const lapack_int *,
                          T *, const lapack_int *, lapack_int *, size_t);
typedef void (*TY(gesv))(const lapack_int *, const lapack_int *, T *,
                         const lapack_int *, lapack_int *, T *,
                         const lapack_int *, lapack_int *);
typedef void (*TY(getri))(const lapack_int *, T *, const lapack_int *,
                          const lapack_int *, T *, const lapack_int *,
                          lapack_int *);
typedef void (*TY(potrf))(const char *, const lapack_int *, T *,
                          const lapack_int *, lapack_int *, size_t);
typedef void (*TY(potrs))(const char *, const lapack_int *, const lapack_int *,
                          const T *, const lapack_int *, T *,
                          const lapack_int *, lapack_int *, size_t);
typedef void (*TY(posv))(const char *, const lapack_int *, const lapack_int *,
                         T *, const lapack_int *, T *, const lapack_int *,
                         lapack_int *, size_t);

/* The system's routine of this name, or NULL (then INFO = AXL_NO_SYSTEM). */
#define SYSTEM(name, info) ((TY(name))axl_next(STR(FN(name))))
/* The system library's routine `name` on the parenthesised `args`, or
   INFO = AXL_NO_SYSTEM where it has none. */
#define FALL_BACK(name, info, args)                                            \
  do {                                                                         \
    TY(name) f_ = SYSTEM(name, info);                                          \
    if (f_)                                                                    \
      f_ args;                                                                 \
    else                                                                       \
      *(info) = AXL_NO_SYSTEM;                                                 \
  } while (0)

#define DTYPE (sizeof(T) == sizeof(double) ? AXB_F64 : AXB_F32)

/* AXB_LAPACK_CHECK's copies: m x n of X (ld) packed, or NULL; sym = 'U' or
   'L' mirrors that triangle into a full symmetric matrix (posv). */
static T *AXL_CAT3(save_, P, )(const T *X, lapack_int m, lapack_int n,
                               lapack_int ld, char sym) {
  T *Y = malloc(sizeof *Y * (size_t)m * (size_t)(n > 0 ? n : 1));
  if (!Y) return NULL;
  for (lapack_int j = 0; j < n; ++j)
    for (lapack_int i = 0; i < m; ++i) {
      int mirror = (sym == 'U' && i > j) || (sym == 'L' && i < j);
      Y[(size_t)j * m + i] =
          mirror ? X[(size_t)i * ld + j] : X[(size_t)j * ld + i];
    }
  return Y;
}

static void AXL_CAT3(copy_piv_, P, )(lapack_int *ipiv, const int64_t *piv,
                                     int64_t k) {
  for (int64_t i = 0; i < k; ++i)
    ipiv[i] = (lapack_int)piv[i];
}

AXL_EXPORT void FN(getrf)(const lapack_int *m, const lapack_int *n, T *A,
                          const lapack_int *lda, lapack_int *ipiv,
                          lapack_int *info) {
  const lapack_int e =
      axl_first_bad(3, *m < 0, 1, *n < 0, 2, *lda < axl_max1(*m), 4);
  if (axl_arg_error(info, PNAME "GETRF", e)) return;
  if (*m == 0 || *n == 0) return;
  const int64_t k = *m < *n ? *m : *n;
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t *piv = NULL, i = 0;
  if (axl_begin(&c, PNAME "GETRF", AXL_LU, k, 0, 0) == 0 &&
      (piv = axl_piv(&c, k)) != NULL)
    AXL_RUN(c, st, AXB(getrf)(c.h, *m, *n, A, *lda, piv, &i));
  if (AXL_SERVED(st)) AXL_CAT3(copy_piv_, P, )(ipiv, piv, k);
  if (axl_finish(&c, st, i, info)) return;
  FALL_BACK(getrf, info, (m, n, A, lda, ipiv, info));
}

AXL_EXPORT void FN(getrs)(const char *trans, const lapack_int *n,
                          const lapack_int *nrhs, const T *A,
                          const lapack_int *lda, const lapack_int *ipiv, T *B,
                          const lapack_int *ldb, lapack_int *info,
                          size_t trans_len) {
  const int notran = axl_lsame(trans, 'N');
  const lapack_int e = axl_first_bad(
      5, !notran && !axl_lsame(trans, 'T') && !axl_lsame(trans, 'C'), 1, *n < 0,
      2, *nrhs < 0, 3, *lda < axl_max1(*n), 5, *ldb < axl_max1(*n), 8);
  if (axl_arg_error(info, PNAME "GETRS", e)) return;
  if (*n == 0 || *nrhs == 0) return;
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t *piv = NULL, i = 0;
  if (axl_begin(&c, PNAME "GETRS", AXL_LU, *n, *nrhs, 1) == 0 &&
      (piv = axl_piv(&c, *n)) != NULL) {
    for (lapack_int j = 0; j < *n; ++j)
      piv[j] = ipiv[j];
    AXL_RUN(c, st,
            AXB(getrs)(c.h, notran ? AXB_NO_TRANS : AXB_TRANS, *n, *nrhs, A,
                       *lda, piv, B, *ldb, &i));
  }
  axl_end(&c, st, 0);
  if (st == AXB_SUCCESS) return;
  FALL_BACK(getrs, info,
            (trans, n, nrhs, A, lda, ipiv, B, ldb, info, trans_len));
}

AXL_EXPORT void FN(gesv)(const lapack_int *n, const lapack_int *nrhs, T *A,
                         const lapack_int *lda, lapack_int *ipiv, T *B,
                         const lapack_int *ldb, lapack_int *info) {
  const lapack_int e =
      axl_first_bad(4, *n < 0, 1, *nrhs < 0, 2, *lda < axl_max1(*n), 4,
                    *ldb < axl_max1(*n), 7);
  if (axl_arg_error(info, PNAME "GESV ", e)) return;
  if (*n == 0) return;
  T *sA = NULL, *sB = NULL;
  if (axl_check_on() && *nrhs > 0) {
    sA = AXL_CAT3(save_, P, )(A, *n, *n, *lda, 0);
    sB = AXL_CAT3(save_, P, )(B, *n, *nrhs, *ldb, 0);
  }
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t *piv = NULL, i = 0;
  if (axl_begin(&c, PNAME "GESV", AXL_LU, *n, 0, 0) == 0 &&
      (piv = axl_piv(&c, *n)) != NULL)
    AXL_RUN(c, st, AXB(gesv)(c.h, *n, *nrhs, A, *lda, piv, B, *ldb, &i));
  if (AXL_SERVED(st)) AXL_CAT3(copy_piv_, P, )(ipiv, piv, *n);
  const int served = axl_finish(&c, st, i, info);
  if (served && sA && sB && *info == 0)
    axl_certify(PNAME "GESV", DTYPE, *n, *nrhs, sA, sB, B, *ldb);
  free(sA), free(sB);
  if (served) return;
  FALL_BACK(gesv, info, (n, nrhs, A, lda, ipiv, B, ldb, info));
}

/* axb's getri needs no workspace: the optimal LWORK reported is the least
   LAPACK accepts, max(1, n). */
AXL_EXPORT void FN(getri)(const lapack_int *n, T *A, const lapack_int *lda,
                          const lapack_int *ipiv, T *work,
                          const lapack_int *lwork, lapack_int *info) {
  work[0] = (T)axl_max1(*n);
  const int lquery = *lwork == -1;
  const lapack_int e = axl_first_bad(3, *n < 0, 1, *lda < axl_max1(*n), 3,
                                     *lwork < axl_max1(*n) && !lquery, 6);
  if (axl_arg_error(info, PNAME "GETRI", e)) return;
  if (lquery || *n == 0) return;
  /* LAPACK's xTRTRI: an exactly zero U(i,i) is INFO = i, A untouched. */
  for (lapack_int j = 0; j < *n; ++j)
    if (A[(size_t)j * (size_t)*lda + (size_t)j] == 0) {
      *info = j + 1;
      return;
    }
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t *piv = NULL, i = 0;
  if (axl_begin(&c, PNAME "GETRI", AXL_INV, *n, 0, 0) == 0 &&
      (piv = axl_piv(&c, *n)) != NULL) {
    for (lapack_int j = 0; j < *n; ++j)
      piv[j] = ipiv[j];
    AXL_RUN(c, st, AXB(getri)(c.h, *n, A, *lda, piv, &i));
  }
  if (axl_finish(&c, st, i, info)) return;
  FALL_BACK(getri, info, (n, A, lda, ipiv, work, lwork, info));
}

AXL_EXPORT void FN(potrf)(const char *uplo, const lapack_int *n, T *A,
                          const lapack_int *lda, lapack_int *info,
                          size_t uplo_len) {
  const int upper = axl_lsame(uplo, 'U');
  const lapack_int e = axl_first_bad(3, !upper && !axl_lsame(uplo, 'L'), 1,
                                     *n < 0, 2, *lda < axl_max1(*n), 4);
  if (axl_arg_error(info, PNAME "POTRF", e)) return;
  if (*n == 0) return;
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t i = 0;
  if (axl_begin(&c, PNAME "POTRF", AXL_CHOL, *n, 0, 0) == 0)
    AXL_RUN(c, st,
            AXB(potrf)(c.h, upper ? AXB_UPPER : AXB_LOWER, *n, A, *lda, &i));
  if (axl_finish(&c, st, i, info)) return;
  FALL_BACK(potrf, info, (uplo, n, A, lda, info, uplo_len));
}

AXL_EXPORT void FN(potrs)(const char *uplo, const lapack_int *n,
                          const lapack_int *nrhs, const T *A,
                          const lapack_int *lda, T *B, const lapack_int *ldb,
                          lapack_int *info, size_t uplo_len) {
  const int upper = axl_lsame(uplo, 'U');
  const lapack_int e =
      axl_first_bad(5, !upper && !axl_lsame(uplo, 'L'), 1, *n < 0, 2, *nrhs < 0,
                    3, *lda < axl_max1(*n), 5, *ldb < axl_max1(*n), 7);
  if (axl_arg_error(info, PNAME "POTRS", e)) return;
  if (*n == 0 || *nrhs == 0) return;
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t i = 0;
  if (axl_begin(&c, PNAME "POTRS", AXL_CHOL, *n, *nrhs, 1) == 0)
    AXL_RUN(c, st,
            AXB(potrs)(c.h, upper ? AXB_UPPER : AXB_LOWER, *n, *nrhs, A, *lda,
                       B, *ldb, &i));
  axl_end(&c, st, 0);
  if (st == AXB_SUCCESS) return;
  FALL_BACK(potrs, info, (uplo, n, nrhs, A, lda, B, ldb, info, uplo_len));
}

AXL_EXPORT void FN(posv)(const char *uplo, const lapack_int *n,
                         const lapack_int *nrhs, T *A, const lapack_int *lda,
                         T *B, const lapack_int *ldb, lapack_int *info,
                         size_t uplo_len) {
  const int upper = axl_lsame(uplo, 'U');
  const lapack_int e =
      axl_first_bad(5, !upper && !axl_lsame(uplo, 'L'), 1, *n < 0, 2, *nrhs < 0,
                    3, *lda < axl_max1(*n), 5, *ldb < axl_max1(*n), 7);
  if (axl_arg_error(info, PNAME "POSV ", e)) return;
  if (*n == 0) return;
  T *sA = NULL, *sB = NULL;
  if (axl_check_on() && *nrhs > 0) {
    sA = AXL_CAT3(save_, P, )(A, *n, *n, *lda, upper ? 'U' : 'L');
    sB = AXL_CAT3(save_, P, )(B, *n, *nrhs, *ldb, 0);
  }
  axl_call c;
  axb_status st = AXB_ERR_OUT_OF_MEMORY;
  int64_t i = 0;
  if (axl_begin(&c, PNAME "POSV", AXL_CHOL, *n, 0, 0) == 0)
    AXL_RUN(c, st,
            AXB(posv)(c.h, upper ? AXB_UPPER : AXB_LOWER, *n, *nrhs, A, *lda, B,
                      *ldb, &i));
  const int served = axl_finish(&c, st, i, info);
  if (served && sA && sB && *info == 0)
    axl_certify(PNAME "POSV", DTYPE, *n, *nrhs, sA, sB, B, *ldb);
  free(sA), free(sB);
  if (served) return;
  FALL_BACK(posv, info, (uplo, n, nrhs, A, lda, B, ldb, info, uplo_len));
}

#undef FN
#undef AXB
#undef TY
#undef SYSTEM
#undef FALL_BACK
#undef DTYPE
