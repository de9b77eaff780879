/*
 * The backend table: kernels a backend provides, for float and double.
 * Drivers (src/dense) check arguments and call through h->ops; kernels may
 * assume valid arguments and n > 0.  An optimised backend starts from the
 * reference table and overrides what it has (BLIS's context init); an entry
 * left NULL means "not supported on this backend" (AXB_ERR_NOT_SUPPORTED).
 * Kernels return AXB_SUCCESS, a numerical status with *info set, or a
 * library error (out of memory, device error).
 */
#ifndef AXB_BACKEND_H
#define AXB_BACKEND_H

#include "axb.h"

#define AXB_DECLARE_OPS(T, NAME)                                               \
  typedef struct NAME {                                                        \
    axb_status (*getrf)(axb_handle h, int64_t m, int64_t n, T *A, int64_t lda, \
                        int64_t *ipiv, int64_t *info);                         \
    /* Apply row interchanges ipiv[k1..k2-1] (0-based positions, 1-based       \
       values) to the n columns of A; forward=1 in increasing k. */            \
    axb_status (*laswp)(axb_handle h, int64_t n, T *A, int64_t lda,            \
                        int64_t k1, int64_t k2, const int64_t *ipiv,           \
                        int forward);                                          \
    axb_status (*trsm)(axb_handle h, axb_side side, axb_uplo uplo,             \
                       axb_trans trans, axb_diag diag, int64_t m, int64_t n,   \
                       T alpha, const T *A, int64_t lda, T *B, int64_t ldb);   \
    /* C := alpha op(A) op(B) + beta C */                                      \
    axb_status (*gemm)(axb_handle h, axb_trans ta, axb_trans tb, int64_t m,    \
                       int64_t n, int64_t k, T alpha, const T *A, int64_t lda, \
                       const T *B, int64_t ldb, T beta, T *C, int64_t ldc);    \
    axb_status (*potrf)(axb_handle h, axb_uplo uplo, int64_t n, T *A,          \
                        int64_t lda, int64_t *info);                           \
    axb_status (*getri)(axb_handle h, int64_t n, T *A, int64_t lda,            \
                        const int64_t *ipiv, int64_t *info);                   \
    axb_status (*getri_gj)(axb_handle h, int64_t n, T *A, int64_t lda,         \
                           int64_t *info);                                     \
    /* The study variant: one pivot at a time. */                              \
    axb_status (*getri_gj_unblocked)(axb_handle h, int64_t n, T *A,            \
                                     int64_t lda, int64_t *info);              \
    axb_status (*getrf_crout)(axb_handle h, int64_t n, T *A, int64_t lda,      \
                              int64_t *ipiv, int64_t *info);                   \
    axb_status (*gesv_gauss)(axb_handle h, int64_t n, int64_t nrhs, T *A,      \
                             int64_t lda, T *B, int64_t ldb, int pivot,        \
                             int64_t *info);                                   \
    axb_status (*potrf_crout)(axb_handle h, int64_t n, T *A, int64_t lda,      \
                              int64_t *info);                                  \
    axb_status (*potrf_banachiewicz)(axb_handle h, int64_t n, T *A,            \
                                     int64_t lda, int64_t *info);              \
    /* Fixed-point Crout: o resolved by the typed layer (section > 0 and a     \
       multiple of block unless it is n, max_sweeps > 0, block in 8/16/32);    \
       st zeroed with section and nsec set, and section_sweeps NULL unless     \
       it holds nsec^2 entries. */                                             \
    axb_status (*getrf_fixedpoint)(axb_handle h, int64_t n, T *A, int64_t lda, \
                                   const axb_fixedpoint_opts *o,               \
                                   axb_fixedpoint_stats *st, int64_t *info);   \
    /* Column Cholesky kernels: o resolved (kernels 1/2, in_place 0/1,         \
       threads a power of two 32..1024). */                                    \
    axb_status (*potrf_columns)(axb_handle h, int64_t n, T *A, int64_t lda,    \
                                const axb_potrf_columns_opts *o,               \
                                int64_t *info);                                \
    /* Row-cyclic Gaussian elimination: o resolved (threads a power of two     \
       32..1024, blocks >= 1 or 0 = the backend's default). */                 \
    axb_status (*gesv_rowcyclic)(axb_handle h, int64_t n, int64_t nrhs, T *A,  \
                                 int64_t lda, T *B, int64_t ldb,               \
                                 const axb_rowcyclic_opts *o, int64_t *info);  \
    /* Optional whole solves on host arrays (NULL: the typed layer composes    \
       them from laswp + trsm), so a device backend moves A once. */           \
    axb_status (*getrs)(axb_handle h, axb_trans trans, int64_t n,              \
                        int64_t nrhs, const T *A, int64_t lda,                 \
                        const int64_t *ipiv, T *B, int64_t ldb);               \
    axb_status (*potrs)(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,  \
                        const T *A, int64_t lda, T *B, int64_t ldb);           \
    /* Optional device-pointer entries behind the public _dev API: arrays      \
       and info in device memory, asynchronous on the handle's stream. */      \
    axb_status (*getrf_dev)(axb_handle h, int64_t m, int64_t n, T *dA,         \
                            int64_t ldda, int64_t *dipiv, int64_t *dinfo);     \
    axb_status (*getrs_dev)(axb_handle h, axb_trans trans, int64_t n,          \
                            int64_t nrhs, const T *dA, int64_t ldda,           \
                            const int64_t *dipiv, T *dB, int64_t lddb);        \
    axb_status (*laswp_dev)(axb_handle h, int64_t n, T *dA, int64_t ldda,      \
                            int64_t k1, int64_t k2, const int64_t *dipiv,      \
                            int64_t incx);                                     \
    axb_status (*potrf_dev)(axb_handle h, axb_uplo uplo, int64_t n, T *dA,     \
                            int64_t ldda, int64_t *dinfo);                     \
    axb_status (*potrs_dev)(axb_handle h, axb_uplo uplo, int64_t n,            \
                            int64_t nrhs, const T *dA, int64_t ldda, T *dB,    \
                            int64_t lddb);                                     \
    axb_status (*getri_dev)(axb_handle h, int64_t n, T *dA, int64_t ldda,      \
                            const int64_t *dipiv, int64_t *dinfo);             \
    axb_status (*getri_gj_dev)(axb_handle h, int64_t n, T *dA, int64_t ldda,   \
                               int64_t *dinfo);                                \
    /* Optional resident factors (the certified driver on a device backend:    \
       A moved once, every later step on the device copy).  res_factor         \
       uploads the host A and factors it, LU (chol 0) or lower Cholesky        \
       (chol 1), into *res (freed by the table's res_free, also after a        \
       numerical failure); *info as getrf/potrf.  res_solve: host B (n x       \
       nrhs) := op(A)^-1 B (trans AXB_TRANS: A^-T B, getrs's; a Cholesky       \
       factor always gets NO_TRANS).  res_trsv: host x := op(T)^-1 x with T    \
       the factor's uplo triangle, no interchanges (the condition estimate).   \
       res_diag:                                                               \
       host d := the factor's diagonal.  res_getri: the LU factors become      \
       inv(A) on the device (*info as getri).  res_get: host X (ld ldx) :=     \
       the device matrix (factors or inverse). */                              \
    axb_status (*res_factor)(axb_handle h, int chol, int64_t n, const T *A,    \
                             int64_t lda, void **res, int64_t *info);          \
    axb_status (*res_solve)(axb_handle h, void *res, axb_trans trans,          \
                            int64_t nrhs, T *B, int64_t ldb);                  \
    axb_status (*res_trsv)(axb_handle h, void *res, axb_uplo uplo,             \
                           axb_trans trans, axb_diag diag, T *x);              \
    axb_status (*res_diag)(axb_handle h, void *res, T *d);                     \
    axb_status (*res_getri)(axb_handle h, void *res, int64_t *info);           \
    axb_status (*res_get)(axb_handle h, void *res, T *X, int64_t ldx);         \
  } NAME;

AXB_DECLARE_OPS(double, axb_ops_d)
AXB_DECLARE_OPS(float, axb_ops_s)

/*
 * Mixed-precision sessions (src/dense/mixed.c drives them): one FP64 A
 * (host or device memory, the caller's, never written) and its factors in
 * a chosen precision.  The driver keeps every vector on the host (n x k,
 * ld n) and does all vector work; a session does the O(n^2) and O(n^3)
 * steps where A lives.
 *   open:   scale factors of A (host arrays r, c of n entries, powers of
 *           two; chol: symmetric, r = c), ||A||_inf, max |r_i a_ij c_j| and
 *           whether A is finite; with scale = 0 the scales are all 1.
 *   factor: As = R A C rounded to the precision and factored (LU with
 *           partial pivoting, or lower Cholesky); a numerical failure
 *           returns AXB_ERR_SINGULAR / AXB_ERR_NOT_SPD with *info.
 *   matmul: Y := A X with the caller's FP64 A (not As).
 *   solve:  V := As^-1 V through the factors (rounded to their storage
 *           precision on the way in, back to FP64 on the way out).
 */
typedef struct {
  /* in: the precision the driver factors in first (a session may round A
     to it during the scan, issue 22c) */
  axb_factor_precision first;
  double anorm; /* ||A||_inf                                   */
  double amax;  /* max |As_ij| before rounding                 */
  int finite;   /* every entry of A is finite                  */
} axb_mixed_scan;

typedef struct axb_mixed_backend {
  axb_status (*open)(axb_handle h, int chol, axb_uplo uplo, int dev, int64_t n,
                     const double *A, int64_t lda, int scale, double *r,
                     double *c, axb_mixed_scan *scan, void **s);
  axb_status (*factor)(axb_handle h, void *s, axb_factor_precision p,
                       int64_t *info);
  axb_status (*matmul)(axb_handle h, void *s, int64_t k, const double *X,
                       double *Y);
  axb_status (*solve)(axb_handle h, void *s, int64_t k, double *V);
  void (*close)(axb_handle h, void *s);
  /* dev sessions: dst (ldd) := src (lds), rows x cols doubles, between
     host and device memory (to_device 1: src host, dst device). */
  axb_status (*copy)(axb_handle h, double *dst, int64_t ldd, const double *src,
                     int64_t lds, int64_t rows, int64_t cols, int to_device);
} axb_mixed_backend;

/* Kernels of the host session's hot steps on host arrays (the CPU table's,
   OpenBLAS: src/backend/omp/omp_mixed.c).  Each returns AXB_SUCCESS, a
   numerical status with *info (sgetrf: AXB_ERR_SINGULAR, the first zero
   pivot), or AXB_ERR_NOT_SUPPORTED without a detail message when it
   declines the call (sizes beyond its integers, or a measured policy):
   the session then uses the typed entries.
     sgetrf: LU with partial pivoting of the n x n FP32 A (ipiv 1-based).
     dgemv:  y := A x, FP64, one vector; dsymv the same from the lower
             (uplo) triangle of a symmetric A.
     strsv:  x := op(T)^-1 x, T the uplo triangle of the FP32 A. */
typedef struct axb_mixed_host_kernels {
  axb_status (*sgetrf)(axb_handle h, int64_t n, float *A, int64_t lda,
                       int64_t *ipiv, int64_t *info);
  axb_status (*dgemv)(axb_handle h, int64_t n, const double *A, int64_t lda,
                      const double *x, double *y);
  axb_status (*dsymv)(axb_handle h, axb_uplo uplo, int64_t n, const double *A,
                      int64_t lda, const double *x, double *y);
  axb_status (*strsv)(axb_handle h, axb_uplo uplo, axb_trans trans,
                      axb_diag diag, int64_t n, const float *A, int64_t lda,
                      float *x);
} axb_mixed_host_kernels;

/* The host session (src/dense/mixed_host.c) over h's kernel table: any
   backend whose typed routines take host arrays (REF, CPU). */
extern const axb_mixed_backend axb__mixed_host;

typedef struct axb_backend_ops {
  const char *name;
  axb_ops_d d;
  axb_ops_s s;
  /* Optional.  Table for O(n^2) host-side work on host arrays (the
     condition estimate's triangular solves with one vector): a device
     backend points it at the CPU table instead of moving the factor to the
     device for every vector.  NULL: use this table. */
  const struct axb_backend_ops *host;
  /* Optional.  Seconds spent moving data between host and device on h
     since the last call (then reset to 0); NULL: no transfers. */
  double (*take_transfer_seconds)(axb_handle h);
  /* Optional, with the res_ entries: release resident factors (NULL ok). */
  void (*res_free)(axb_handle h, void *res);
  /* Optional: mixed-precision sessions where A lives on the device (NULL:
     the host session over this table). */
  const axb_mixed_backend *mixed;
  /* Optional: kernels the host session prefers to the typed entries
     (NULL: the typed entries; issue 22c). */
  const struct axb_mixed_host_kernels *mixed_host;
} axb_backend_ops;

/* Tables defined by each backend. */
extern const axb_backend_ops axb_ref_ops;
/* Fills *ops for the CPU backend (reference entries overridden by the
   OpenMP kernels compiled in). */
const axb_backend_ops *axb_cpu_ops(void);

/* CUDA glue (src/backend/cuda, or src/backend/stub when not compiled). */
int axb__cuda_compiled(void);
axb_status axb__cuda_device_count(int *count);
axb_status axb__cuda_device_info(int dev, char *name, size_t name_len,
                                 size_t *total_bytes);
/* Select the device and create a stream for a handle. */
axb_status axb__cuda_handle_init(axb_handle h);
void axb__cuda_handle_fini(axb_handle h);
const axb_backend_ops *axb_cuda_ops(void);

/* OpenCL glue (src/backend/opencl, or src/backend/stub/opencl_stub.c when
   not compiled; issue 29). */
int axb__opencl_compiled(void);
axb_status axb__opencl_device_count(int *count);
axb_status axb__opencl_device_info(int dev, axb_opencl_device *info);
axb_status axb__opencl_device_select(int device, int *ordinal);
/* Select the device, create the context and queue of a handle (programs
   are built on first use, once per context and precision). */
axb_status axb__opencl_handle_init(axb_handle h);
void axb__opencl_handle_fini(axb_handle h);
const axb_backend_ops *axb_opencl_ops(void);

#endif
