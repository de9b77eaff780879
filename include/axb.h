/*
 * axb — solve Ax = b on multicore CPUs and NVIDIA GPUs, with a certificate
 * of accuracy.  This is the whole public API; the CLI uses nothing else.
 *
 * Conventions (see docs/ARCHITECTURE.md):
 *   - column-major storage with an explicit leading dimension (LAPACK);
 *   - every size, leading dimension and offset is int64_t;
 *   - every call returns an axb_status; the library never prints and never
 *     exits; a per-handle detail message says what went wrong and where;
 *   - pivot arrays are 1-based, as in LAPACK: row i was swapped with ipiv[i].
 */
#ifndef AXB_H
#define AXB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/*
 * 0 is success.
 * Positive values are numerical outcomes; the index (1-based pivot column or
 * leading minor) is returned in the routine's `info` argument or the report.
 * -1 .. -99: argument i of a typed routine is illegal (LAPACK numbering: the
 * handle is not counted, so for axb_dgetrf(h, m, n, ...) m is argument 1).
 * <= -100: library errors.
 */
typedef int axb_status;

enum {
  AXB_SUCCESS = 0,
  AXB_ERR_SINGULAR = 1,         /* exact zero pivot U(info,info)            */
  AXB_ERR_NOT_SPD = 2,          /* leading minor of order info not positive */
  AXB_ERR_SMALL_PIVOT = 3,      /* unpivoted variant met a zero/tiny pivot  */
  AXB_ERR_NO_CONVERGENCE = 4,   /* iteration stopped short of tolerance     */
  AXB_ERR_ILL_CONDITIONED = 5,  /* solved, but rcond < eps: not trustworthy */
  AXB_ERR_INACCURATE = 6,       /* solved, but the backward error check of
                                   the answer failed (ratio >= 30)         */
  AXB_ERR_INVALID = -100,       /* bad value not tied to one argument       */
  AXB_ERR_OUT_OF_MEMORY = -101, /* allocation failed or size overflows      */
  AXB_ERR_IO = -102,            /* cannot open / read / write a file        */
  AXB_ERR_PARSE = -103,         /* malformed input file                     */
  AXB_ERR_NOT_SUPPORTED = -104, /* combination not implemented (yet)        */
  AXB_ERR_NOT_COMPILED = -105,  /* backend not compiled into this build     */
  AXB_ERR_NO_DEVICE = -106,     /* no usable GPU                            */
  AXB_ERR_DEVICE = -107,        /* CUDA / device library error              */
  AXB_ERR_INTERNAL = -108       /* a bug in axb                             */
};

/* Short, static description of a status (never NULL). */
const char *axb_strerror(axb_status status);

/* ------------------------------------------------------------------------ */
/* Version and build                                                        */
/* ------------------------------------------------------------------------ */

#define AXB_VERSION_MAJOR 0
#define AXB_VERSION_MINOR 1
#define AXB_VERSION_PATCH 0

const char *axb_version(void); /* "0.1.0" */
void axb_version_numbers(int *major, int *minor, int *patch);
/* BLAS/LAPACK linked as comparison anchor and building block, or "none". */
const char *axb_blas_info(void);

/* ------------------------------------------------------------------------ */
/* Handle                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_BACKEND_AUTO = 0, /* CUDA when compiled, a device exists and the
                           routine is implemented there; else CPU        */
  AXB_BACKEND_CPU = 1,  /* multicore CPU (OpenMP)                         */
  AXB_BACKEND_CUDA = 2, /* NVIDIA GPU                                     */
  AXB_BACKEND_REF = 3   /* sequential reference kernels: the test oracle */
} axb_backend;

typedef struct axb_handle_s *axb_handle;

/*
 * Threads.  A handle is used by one thread at a time: use one handle per
 * thread (or serialize calls on a shared one yourself).  A handle holds
 * mutable state (its detail message, an AUTO handle's GPU sub-handle, the
 * CUDA stream), so two concurrent calls on the same handle race.  Calls on
 * different handles may run concurrently from any number of threads; the
 * library has no other mutable global state (its kernel tables are built
 * once under pthread_once).  axb_detail(NULL), the message of a failure
 * that had no handle to hold it, is per thread.  Checked under
 * ThreadSanitizer by tests/test_threads.c (scripts/test.sh).
 */

/* device: GPU ordinal for CUDA (ignored otherwise). AUTO resolves at
   creation; axb_handle_backend() tells what was chosen. */
axb_status axb_handle_create(axb_handle *h, axb_backend backend, int device);
axb_status axb_handle_destroy(axb_handle h); /* NULL is fine */
axb_backend axb_handle_backend(axb_handle h);
/* Threads used by CPU kernels; 0 = all cores (the default). */
axb_status axb_set_threads(axb_handle h, int nthreads);
int axb_get_threads(axb_handle h);
/* CUDA stream (a cudaStream_t) used by device work; NULL = the handle's own. */
axb_status axb_set_stream(axb_handle h, void *stream);
void *axb_get_stream(axb_handle h);
/* Detail of the last failure on this handle ("" after success).  With
   h = NULL: the last failure of this thread that had no handle to hold it
   (axb_handle_create, and I/O or generators called with h = NULL). */
const char *axb_detail(axb_handle h);

const char *axb_backend_name(axb_backend b);
int axb_backend_compiled(axb_backend b); /* 1 when built in */
/* Number of CUDA devices usable now (0 without a driver or GPU). */
axb_status axb_cuda_device_count(int *count);
/* Name and memory of device `dev`; buf may be NULL. */
axb_status axb_cuda_device_info(int dev, char *name, size_t name_len,
                                size_t *total_bytes);

/* ------------------------------------------------------------------------ */
/* Typed LAPACK-like layer (host memory), float and double                  */
/* ------------------------------------------------------------------------ */

/*
 * Iterative (fixed-point) Crout LU, SEEDS.md 1 (getrf_fixedpoint below):
 * Z starts as A; a sweep recomputes every entry of a section from the
 * current Z with Crout's formulas (Jacobi: all reads from the previous
 * sweep), until a sweep changes no entry by more than tol.  Z is cut into
 * s x s sections: the diagonal section k converges first, then the U-row /
 * L-column sections that read it.  The dependencies are triangular, so in
 * exact arithmetic a section of edge s is exact after 2 s sweeps; with
 * tol = 0 the run stops at the first sweep that changes nothing.
 */
typedef enum {
  AXB_FP_SCHED_PAIRS = 0, /* the document's: section pair (k,j), (j,k) on
                             two streams, one pair at a time              */
  AXB_FP_SCHED_DAG = 1    /* a section starts as soon as the sections it
                             reads have converged; up to `streams` in
                             flight                                       */
} axb_fp_scheduler;

typedef struct {
  double tol;         /* >= 0; 0 (default): until a sweep changes nothing */
  int64_t max_sweeps; /* cap per section; 0 (default): 2 s + 8            */
  int64_t section;    /* section edge; 0 (default): clamp(n/10, 256, 1024);
                         rounded up to a multiple of block; >= n: one     */
  int block;          /* CUDA thread-block edge 8, 16 or 32; 0: 16        */
  int scheduler;      /* axb_fp_scheduler; default PAIRS                  */
  int streams;        /* DAG: most sections in flight; 0: 8 (1..64)       */
} axb_fixedpoint_opts;

typedef struct {
  int64_t sweeps;             /* over all sections (convergence sweeps
                                 included)                                */
  int64_t sections;           /* sections iterated                        */
  int64_t max_section_sweeps; /* the most any one section took            */
  int64_t section;            /* the section edge used                    */
  int64_t nsec;               /* sections per side: ceil(n / section)     */
  /* In: caller array of section_sweeps_len entries, or NULL.  Out (when
     section_sweeps_len >= nsec^2): sweeps of section (I, J) at
     I * nsec + J (0 for sections not reached). */
  int64_t *section_sweeps;
  int64_t section_sweeps_len;
  double last_change; /* max |Z_new - Z| of the last sweep run           */
} axb_fixedpoint_stats;

void axb_fixedpoint_opts_default(axb_fixedpoint_opts *opts);

/* Column-oriented Cholesky kernels (SEEDS.md 3, potrf_columns below): a
   host loop over the columns, one GPU thread per element of the column.
   The CPU backends compute the same factor with their potrf_crout and
   ignore these options. */
typedef struct {
  int kernels;  /* 2 (default): a diagonal kernel, then one for the rest of
                   the column; 1: one kernel, every thread recomputing the
                   diagonal itself                                        */
  int in_place; /* 1 (default): L overwrites A on the device; 0: L goes to
                   a second device array (the result lands in A anyway)   */
  int threads;  /* threads per block: a power of two 32..1024; 0: 256     */
} axb_potrf_columns_opts;

void axb_potrf_columns_opts_default(axb_potrf_columns_opts *opts);

/* Gaussian elimination on [A | B] decomposed row-cyclically across thread
   blocks (SEEDS.md 2, gesv_rowcyclic below): block g of G eliminates rows
   g, g + G, ... below the pivot; G shrinks as the triangle does.  The CPU
   backends run gesv_gauss and ignore everything but pivot. */
typedef enum {
  AXB_RC_HALVE = 0,    /* G halves after each of log2(G0) + 1 passes      */
  AXB_RC_DECREMENT = 1 /* G drops by one after each of G0 passes (default;
                          the document found it better)                   */
} axb_rc_schedule;

typedef struct {
  int pivot;     /* 1 (default): partial pivoting, decided on the device;
                    0: the original, reporting a zero/tiny pivot           */
  int schedule;  /* axb_rc_schedule                                        */
  int blocks;    /* G0, the blocks of the first pass; 0: 4 per SM          */
  int threads;   /* threads per block, a power of two 32..1024; 0: 256     */
  int pipelined; /* 0 (default): back substitution in one block with a
                    shared-memory tree reduction per row; 1: every block
                    resident (cooperative launch), one ready flag per
                    unknown, rows cyclic over the blocks                  */
} axb_rowcyclic_opts;

void axb_rowcyclic_opts_default(axb_rowcyclic_opts *opts);

typedef enum { AXB_LOWER = 0, AXB_UPPER = 1 } axb_uplo;
typedef enum { AXB_NO_TRANS = 0, AXB_TRANS = 1 } axb_trans;
typedef enum { AXB_LEFT = 0, AXB_RIGHT = 1 } axb_side;
typedef enum { AXB_NON_UNIT = 0, AXB_UNIT = 1 } axb_diag;
typedef enum {
  AXB_NORM_ONE = 0,
  AXB_NORM_INF = 1,
  AXB_NORM_MAX = 2,
  AXB_NORM_FRO = 3
} axb_norm;

/*
 * Every routine follows its LAPACK namesake: on return *info is 0, -i for an
 * illegal argument i, or the positive index of the failing pivot/minor; the
 * returned status says the same thing (AXB_ERR_SINGULAR, AXB_ERR_NOT_SPD, -i,
 * or a library error).  info may be NULL.  getrf, like LAPACK, completes the
 * factorization when U is exactly singular.
 */
#define AXB_DECLARE_TYPED(T, p)                                                \
  axb_status axb_##p##getrf(axb_handle h, int64_t m, int64_t n, T *A,          \
                            int64_t lda, int64_t *ipiv, int64_t *info);        \
  axb_status axb_##p##getrs(                                                   \
      axb_handle h, axb_trans trans, int64_t n, int64_t nrhs, const T *A,      \
      int64_t lda, const int64_t *ipiv, T *B, int64_t ldb, int64_t *info);     \
  axb_status axb_##p##gesv(axb_handle h, int64_t n, int64_t nrhs, T *A,        \
                           int64_t lda, int64_t *ipiv, T *B, int64_t ldb,      \
                           int64_t *info);                                     \
  axb_status axb_##p##potrf(axb_handle h, axb_uplo uplo, int64_t n, T *A,      \
                            int64_t lda, int64_t *info);                       \
  axb_status axb_##p##potrs(axb_handle h, axb_uplo uplo, int64_t n,            \
                            int64_t nrhs, const T *A, int64_t lda, T *B,       \
                            int64_t ldb, int64_t *info);                       \
  axb_status axb_##p##posv(axb_handle h, axb_uplo uplo, int64_t n,             \
                           int64_t nrhs, T *A, int64_t lda, T *B, int64_t ldb, \
                           int64_t *info);                                     \
  /* Inverse from getrf's factors, in place. */                                \
  axb_status axb_##p##getri(axb_handle h, int64_t n, T *A, int64_t lda,        \
                            const int64_t *ipiv, int64_t *info);               \
  /* B := alpha * op(A)^-1 B (LEFT) or alpha * B op(A)^-1 (RIGHT). */          \
  axb_status axb_##p##trsm(axb_handle h, axb_side side, axb_uplo uplo,         \
                           axb_trans trans, axb_diag diag, int64_t m,          \
                           int64_t n, T alpha, const T *A, int64_t lda, T *B,  \
                           int64_t ldb);                                       \
  /* Reciprocal condition number estimate from getrf's factors (the block      \
     1-norm estimator of Higham & Tisseur with 2 columns, LAPACK's xLACN2      \
     generalised: rcond >= the true value, almost always within 3 of it);      \
     anorm = norm of the original A in the same norm (ONE or INF). */          \
  axb_status axb_##p##gecon(axb_handle h, axb_norm norm, int64_t n,            \
                            const T *LU, int64_t lda, double anorm,            \
                            double *rcond, int64_t *info);                     \
  /* Same from potrf's factor; anorm = 1-norm of the original A. */            \
  axb_status axb_##p##pocon(axb_handle h, axb_uplo uplo, int64_t n,            \
                            const T *L, int64_t lda, double anorm,             \
                            double *rcond, int64_t *info);                     \
  /* ---- study variants from the source documents (SEEDS.md) ---- */          \
  /* Crout LU: Z holds L (with its diagonal) below and on the diagonal and     \
     unit U strictly above.  ipiv != NULL: partial pivoting (rows); NULL:      \
     none, and a zero or tiny pivot is reported as AXB_ERR_SMALL_PIVOT. */     \
  axb_status axb_##p##getrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,  \
                                  int64_t *ipiv, int64_t *info);               \
  /* Split Crout's Z into L (n x n lower, with diagonal) and U (unit upper).   \
   */                                                                          \
  axb_status axb_##p##crout_extract(int64_t n, const T *Z, int64_t ldz, T *L,  \
                                    int64_t ldl, T *U, int64_t ldu);           \
  /* Gaussian elimination on [A|B] with row normalisation (unit diagonal)      \
     and back substitution.  pivot=1: partial pivoting; pivot=0: the           \
     original algorithm, which reports a zero/tiny pivot instead of            \
     dividing by it.  A is destroyed; B is overwritten with X. */              \
  axb_status axb_##p##gesv_gauss(axb_handle h, int64_t n, int64_t nrhs, T *A,  \
                                 int64_t lda, T *B, int64_t ldb, int pivot,    \
                                 int64_t *info);                               \
  /* Cholesky, lower, unblocked: column-wise (Crout) or row-wise               \
     (Banachiewicz).  Only the lower triangle is referenced/written. */        \
  axb_status axb_##p##potrf_crout(axb_handle h, int64_t n, T *A, int64_t lda,  \
                                  int64_t *info);                              \
  axb_status axb_##p##potrf_banachiewicz(axb_handle h, int64_t n, T *A,        \
                                         int64_t lda, int64_t *info);          \
  /* Gauss-Jordan inverse on [A|I] with partial pivoting, in place: the        \
     backend's fastest form (blocked on the CPU backend). */                   \
  axb_status axb_##p##getri_gj(axb_handle h, int64_t n, T *A, int64_t lda,     \
                               int64_t *info);                                 \
  /* The same, one pivot at a time (the source document's algorithm; on the    \
     CPU backend rows in parallel, simd over columns): a study variant. */     \
  axb_status axb_##p##getri_gj_unblocked(axb_handle h, int64_t n, T *A,        \
                                         int64_t lda, int64_t *info);          \
  /* Iterative (fixed-point) Crout LU without pivoting (see                    \
     axb_fixedpoint_opts): on return A holds Z as getrf_crout's (L with its    \
     diagonal, unit U above).  opts NULL: defaults; stats may be NULL.         \
     AXB_ERR_SMALL_PIVOT (info = column) when a converged pivot is not above   \
     n eps max|A| (never divided by); AXB_ERR_NO_CONVERGENCE (info = 0) when   \
     a section reached the sweep cap.  Arguments: n 1, A 2, lda 3, opts 4. */  \
  axb_status axb_##p##getrf_fixedpoint(                                        \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_fixedpoint_opts *opts, axb_fixedpoint_stats *stats,            \
      int64_t *info);                                                          \
  /* Cholesky, lower, column by column (see axb_potrf_columns_opts; opts       \
     NULL: defaults), as potrf_crout: AXB_ERR_NOT_SPD with info = the order    \
     of the first minor that is not positive definite.  Arguments: n 1, A 2,   \
     lda 3, opts 4. */                                                         \
  axb_status axb_##p##potrf_columns(                                           \
      axb_handle h, int64_t n, T *A, int64_t lda,                              \
      const axb_potrf_columns_opts *opts, int64_t *info);                      \
  /* gesv_gauss with the row-cyclic GPU decomposition's options (see           \
     axb_rowcyclic_opts; NULL: defaults).  Statuses as gesv_gauss's.           \
     Arguments: n 1, nrhs 2, A 3, lda 4, B 5, ldb 6, opts 7. */                \
  axb_status axb_##p##gesv_rowcyclic(                                          \
      axb_handle h, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,          \
      int64_t ldb, const axb_rowcyclic_opts *opts, int64_t *info);

AXB_DECLARE_TYPED(double, d)
AXB_DECLARE_TYPED(float, s)

/* ------------------------------------------------------------------------ */
/* Device-pointer API (CUDA handles), float and double                      */
/* ------------------------------------------------------------------------ */

/*
 * The same routines on arrays in device memory of the handle's GPU (MAGMA's
 * _gpu): no transfers, no device synchronisation.  Work is queued on the
 * handle's stream (axb_get_stream); the call returns AXB_SUCCESS once it is
 * queued, -i for an illegal argument i (numbered as the host routine, dinfo
 * last), or a library error.  The numerical outcome is written to *dinfo, an
 * int64_t in DEVICE memory: 0, or as the host routine's info (first exactly
 * zero pivot of U, which getrf still completes; order of the first minor
 * that is not positive definite).  Pivots (dipiv, 1-based) are in device
 * memory too.  A handle of a backend without device arrays answers
 * AXB_ERR_NOT_SUPPORTED.
 */
#define AXB_DECLARE_DEV(T, p)                                                  \
  axb_status axb_##p##getrf_dev(axb_handle h, int64_t m, int64_t n, T *dA,     \
                                int64_t ldda, int64_t *dipiv, int64_t *dinfo); \
  axb_status axb_##p##getrs_dev(axb_handle h, axb_trans trans, int64_t n,      \
                                int64_t nrhs, const T *dA, int64_t ldda,       \
                                const int64_t *dipiv, T *dB, int64_t lddb);    \
  axb_status axb_##p##potrf_dev(axb_handle h, axb_uplo uplo, int64_t n, T *dA, \
                                int64_t ldda, int64_t *dinfo);                 \
  axb_status axb_##p##potrs_dev(axb_handle h, axb_uplo uplo, int64_t n,        \
                                int64_t nrhs, const T *dA, int64_t ldda,       \
                                T *dB, int64_t lddb);                          \
  /* Inverse from getrf_dev's factors, in place. */                            \
  axb_status axb_##p##getri_dev(axb_handle h, int64_t n, T *dA, int64_t ldda,  \
                                const int64_t *dipiv, int64_t *dinfo);         \
  /* Blocked Gauss-Jordan inverse with partial pivoting, in place (no          \
     factors needed; *dinfo = the first zero pivot, then dA is undefined). */  \
  axb_status axb_##p##getri_gj_dev(axb_handle h, int64_t n, T *dA,             \
                                   int64_t ldda, int64_t *dinfo);

AXB_DECLARE_DEV(double, d)
AXB_DECLARE_DEV(float, s)

/* ------------------------------------------------------------------------ */
/* Mixed precision with an FP64 certificate (issue 22)                      */
/* ------------------------------------------------------------------------ */

/*
 * Solve A X = B for FP64 A and B with a factorization in lower precision and
 * refinement in FP64 (LAPACK's dsgesv/dsposv, generalised):
 *
 *   1. A is scaled by powers of two, As = R A C (rows, then columns, so that
 *      every row and column of As has its largest entry in [1/2, 1]; for
 *      Cholesky symmetrically, As = D A D with unit-order diagonal): exact,
 *      and nothing overflows when As is rounded down (Higham, Pranesh and
 *      Zounon, SIAM J. Sci. Comput. 41(4), 2019).
 *   2. As is rounded to FP32 and factored (LU with partial pivoting, or
 *      Cholesky) in the requested factor precision: FP32 throughout, or FP32
 *      panels with the trailing updates on tensor cores with inputs rounded
 *      to TF32, FP16 or BF16 and FP32 accumulation (CUDA).  On the CPU the
 *      factorization is FP32; TF32/FP16/BF16 there round As to that format
 *      first (the same information loss, no speed-up: for tests).
 *   3. Refinement in FP64 on the caller's A: r = B - A X, X += (LU)^-1 r
 *      (classic iterative refinement), or GMRES-IR (Carson and Higham, SIAM
 *      J. Sci. Comput. 40(2), 2018): FP64 GMRES on (LU)^-1 A d = (LU)^-1 r.
 *      It stops when every column's normwise backward error ratio
 *      ||b - A x||_inf / (||A||_inf ||x||_inf n eps) is < 30 (the driver's
 *      certificate, DESIGN.md), and early on stagnation or divergence.
 *   4. Never a wrong answer: a factor precision whose refinement does not
 *      certify falls back to the next (TF32/FP16/BF16 -> FP32 -> FP64 LU or
 *      Cholesky, the last checked by the same certificate).
 *
 * A and B are not modified (unlike LAPACK's dsgesv, whose A receives the
 * FP64 factors after a fallback); X may be B itself (B is read whole
 * first), and is left untouched when the FP64 factorization fails.  iter
 * (LAPACK's convention): >= 0 the refinement steps of the precision that
 * certified without any fallback; < 0 a fallback happened: -2 rounding A down
 * overflowed, -3 the low precision factorization failed (singular / not SPD
 * there), -31 refinement did not certify within its budget. Returns AXB_SUCCESS
 * when X is certified; AXB_ERR_SINGULAR / AXB_ERR_NOT_SPD (info = column /
 * minor) when the FP64 factorization fails too; AXB_ERR_INACCURATE when even
 * the FP64 answer fails the certificate (X is returned anyway); -i for an
 * illegal argument i.
 */
typedef enum {
  AXB_FACTOR_AUTO = 0, /* CUDA: TF32 for Cholesky, FP32 for LU; CPU:
                          FP32                                         */
  AXB_FACTOR_FP32 = 1,
  AXB_FACTOR_TF32 = 2, /* FP32 panels, TF32 tensor-core updates        */
  AXB_FACTOR_FP16 = 3, /* FP32 panels, FP16 tensor-core updates        */
  AXB_FACTOR_BF16 = 4, /* FP32 panels, BF16 tensor-core updates        */
  AXB_FACTOR_FP64 = 5, /* no low precision: FP64 factor, certified     */
  AXB_FACTOR_COUNT
} axb_factor_precision;

typedef enum {
  AXB_REFINE_AUTO = 0, /* IR; GMRES-IR with the same factors when IR
                          stagnates, before falling back               */
  AXB_REFINE_IR = 1,   /* classic iterative refinement only           */
  AXB_REFINE_GMRES = 2 /* GMRES-IR from the start                     */
} axb_refine;

/* "auto", "fp32", "tf32", "fp16", "bf16", "fp64". */
const char *axb_factor_precision_name(axb_factor_precision p);
axb_status axb_factor_precision_parse(const char *name,
                                      axb_factor_precision *p);

typedef struct {
  axb_factor_precision precision; /* default AUTO                          */
  axb_refine refine;              /* default AUTO                          */
  int max_iter;    /* IR steps per factor precision; 0: 30 (LAPACK's)    */
  int gmres_inner; /* most GMRES iterations per refinement step; 0: 30  */
  int fallback;    /* 1 (default): fall back on failure; 0: report
                      AXB_ERR_NO_CONVERGENCE instead                     */
  int scale;       /* 1 (default): scale A before rounding it down; 0:
                      round A as it is (studies, tests of the overflow
                      path)                                              */
} axb_mixed_opts;

void axb_mixed_opts_default(axb_mixed_opts *opts);

typedef struct {
  axb_factor_precision precision; /* the factor precision that certified
                                     (or the last one tried)              */
  axb_factor_precision requested; /* as resolved from AUTO                */
  axb_backend backend;            /* the backend that ran it (an AUTO
                                     handle: CPU or its GPU)              */
  int64_t iter;        /* LAPACK's ITER (see above)                      */
  int64_t ir_steps;    /* refinement steps, all precisions together      */
  int64_t gmres_iters; /* GMRES iterations, all steps together           */
  int fallbacks;       /* factor precisions abandoned                    */
  int gmres_used;      /* GMRES-IR produced the answer                   */
  double row_scale_min, row_scale_max; /* the powers of two of R (or D)  */
  double col_scale_min, col_scale_max; /* ... of C (1 for Cholesky)      */
  double backward_error; /* the certificate: max over columns of the ratio
                            above (< 30 when certified)                   */
  double t_factor, t_refine, t_total; /* seconds                          */
} axb_mixed_info;

/* X (n x nrhs, ldx) := A^-1 B; A (lda), B (ldb) host arrays. */
axb_status axb_dsgesv(axb_handle h, int64_t n, int64_t nrhs, const double *A,
                      int64_t lda, const double *B, int64_t ldb, double *X,
                      int64_t ldx, int64_t *iter, int64_t *info);
/* A symmetric positive definite; only the uplo triangle is read. */
axb_status axb_dsposv(axb_handle h, axb_uplo uplo, int64_t n, int64_t nrhs,
                      const double *A, int64_t lda, const double *B,
                      int64_t ldb, double *X, int64_t ldx, int64_t *iter,
                      int64_t *info);
/* The same with options (NULL: defaults) and a report (NULL ok); chol = 1
   for the Cholesky form (uplo as above).  dev = 1: A, B and X are in device
   memory of the handle's GPU (a CUDA handle; the call waits for the
   handle's stream and returns when X is final); dev = 0: host arrays. */
axb_status axb_dsxsv_ex(axb_handle h, int chol, axb_uplo uplo, int dev,
                        int64_t n, int64_t nrhs, const double *A, int64_t lda,
                        const double *B, int64_t ldb, double *X, int64_t ldx,
                        const axb_mixed_opts *opts, axb_mixed_info *info_out,
                        int64_t *info);

/* ------------------------------------------------------------------------ */
/* Batched small systems (issue 6), float and double                        */
/* ------------------------------------------------------------------------ */

/*
 * `batch` independent n x n problems in one call, strided layout: matrix b
 * starts at A + b * strideA (column-major, leading dimension lda), its right
 * -hand sides at B + b * strideB (n x nrhs, ldb), its pivots at
 * ipiv + b * strideipiv (n entries, 1-based) and its outcome in info[b].
 * Strides are in elements; problems must not overlap (strideA >= lda * n,
 * strideB >= ldb * nrhs, strideipiv >= n when batch > 1).
 *
 * Where the arrays live follows the handle: a CUDA handle takes DEVICE
 * arrays (A, B, ipiv and info all in device memory of the handle's GPU) and
 * queues the work on the handle's stream with no host synchronisation; a
 * CPU handle takes HOST arrays and runs OpenMP over the batch (the handle's
 * threads); a REF handle runs the same host code sequentially.  The device
 * kernels handle 1 <= n <= 64 (larger n on a CUDA handle:
 * AXB_ERR_NOT_SUPPORTED); the host code any n.
 *
 * The call returns AXB_SUCCESS once the work is done (host) or queued
 * (device), -i for an illegal argument i (LAPACK numbering, the handle not
 * counted), or a library error.  Numerical outcomes never fail the call:
 * info[b] (int, like cuBLAS, so that tiny problems stay cheap to report) is
 * 0 or the 1-based index of the first exactly zero pivot (getrf, gesv,
 * inverse) or of the first leading minor that is not positive definite
 * (potrf, posv) of problem b alone; the other problems are unaffected.
 * getrf completes a singular factorization (as LAPACK); gesv and posv
 * leave that problem's B unchanged; inverse leaves its A unchanged.
 * Pivots and info are int (n <= 64 on the device; on the host n < 2^31).
 * Only the uplo triangle is read and written by potrf/potrs/posv.
 * Partial pivoting takes the largest magnitude, the first row on ties
 * (LAPACK's rule); the device kernels for 7 <= n <= 32 compare magnitudes
 * by their exponent and top 11-15 mantissa bits (axb_device.cuh,
 * pivot_key), so near-ties go to the first row: |l| <= 1 + 2^-11, the
 * stability of partial pivoting, but not always LAPACK's ipiv.
 */
#define AXB_DECLARE_BATCHED(T, p)                                              \
  axb_status axb_##p##getrf_batched(                                           \
      axb_handle h, int64_t n, T *A, int64_t lda, int64_t strideA, int *ipiv,  \
      int64_t strideipiv, int *info, int64_t batch);                           \
  /* B := A^-1 B from getrf_batched's factors.  Host arrays: an ipiv entry     \
     outside 1..n is argument 6 (checked, O(n batch)); device arrays are       \
     not checked. */                                                           \
  axb_status axb_##p##getrs_batched(                                           \
      axb_handle h, int64_t n, int64_t nrhs, const T *A, int64_t lda,          \
      int64_t strideA, const int *ipiv, int64_t strideipiv, T *B, int64_t ldb, \
      int64_t strideB, int64_t batch);                                         \
  /* LU of A in place and B := A^-1 B; ipiv may be NULL (not kept). */         \
  axb_status axb_##p##gesv_batched(                                            \
      axb_handle h, int64_t n, int64_t nrhs, T *A, int64_t lda,                \
      int64_t strideA, int *ipiv, int64_t strideipiv, T *B, int64_t ldb,       \
      int64_t strideB, int *info, int64_t batch);                              \
  /* A := A^-1 in place (Gauss-Jordan with partial pivoting). */               \
  axb_status axb_##p##inverse_batched(axb_handle h, int64_t n, T *A,           \
                                      int64_t lda, int64_t strideA, int *info, \
                                      int64_t batch);                          \
  axb_status axb_##p##potrf_batched(axb_handle h, axb_uplo uplo, int64_t n,    \
                                    T *A, int64_t lda, int64_t strideA,        \
                                    int *info, int64_t batch);                 \
  axb_status axb_##p##potrs_batched(axb_handle h, axb_uplo uplo, int64_t n,    \
                                    int64_t nrhs, const T *A, int64_t lda,     \
                                    int64_t strideA, T *B, int64_t ldb,        \
                                    int64_t strideB, int64_t batch);           \
  axb_status axb_##p##posv_batched(axb_handle h, axb_uplo uplo, int64_t n,     \
                                   int64_t nrhs, T *A, int64_t lda,            \
                                   int64_t strideA, T *B, int64_t ldb,         \
                                   int64_t strideB, int *info, int64_t batch);

AXB_DECLARE_BATCHED(double, d)
AXB_DECLARE_BATCHED(float, s)

/* ------------------------------------------------------------------------ */
/* Dense and sparse matrices                                                */
/* ------------------------------------------------------------------------ */

typedef enum { AXB_F32 = 1, AXB_F64 = 2 } axb_dtype;
typedef enum { AXB_MEM_HOST = 0, AXB_MEM_DEVICE = 1 } axb_memory;

const char *axb_dtype_name(axb_dtype t);
size_t axb_dtype_size(axb_dtype t);

/* A dense column-major matrix.  The struct is plain data: wrap your own
   array with axb_dense_wrap, or let axb_dense_create allocate one. */
typedef struct {
  int64_t rows, cols, ld;
  axb_dtype dtype;
  axb_memory mem;
  void *data;
  int owns; /* 1: axb_dense_destroy frees data */
} axb_dense;

axb_dense axb_dense_wrap(int64_t rows, int64_t cols, int64_t ld,
                         axb_dtype dtype, void *data);
/* Host allocation, zero-filled, ld = rows (>= 1). */
axb_status axb_dense_create(axb_dense *A, int64_t rows, int64_t cols,
                            axb_dtype dtype);
void axb_dense_destroy(axb_dense *A);
/* Element access by value (as double), for tools and tests. */
double axb_dense_get(const axb_dense *A, int64_t i, int64_t j);
void axb_dense_set(axb_dense *A, int64_t i, int64_t j, double v);

/* Compressed sparse row, 0-based, 64-bit offsets and column indices;
   columns sorted within each row, no duplicates. */
typedef struct {
  int64_t rows, cols, nnz;
  axb_dtype dtype;
  int64_t *rowptr; /* rows + 1 */
  int64_t *colind; /* nnz */
  void *values;    /* nnz of dtype */
} axb_csr;

axb_status axb_csr_create(axb_csr *A, int64_t rows, int64_t cols, int64_t nnz,
                          axb_dtype dtype);
void axb_csr_destroy(axb_csr *A);
/* Expand to a dense matrix (allocated by the call). */
axb_status axb_csr_to_dense(axb_handle h, const axb_csr *S, axb_dense *D);

/* ------------------------------------------------------------------------ */
/* Matrix Market and plain text I/O                                         */
/* ------------------------------------------------------------------------ */

/*
 * Readers accept Matrix Market `coordinate` (real, integer, pattern;
 * general, symmetric, skew-symmetric) and `array` (real, integer; general,
 * symmetric, skew-symmetric), optionally gzip-compressed (.gz), and the
 * plain dense text format (one row per line, whitespace separated) when
 * the file has no %%MatrixMarket banner.  Symmetric storage is expanded
 * (either triangle may be given; an entry given in both is a duplicate).
 * CSR keeps the explicit zeros of `coordinate` files and drops the zeros of
 * `array` and plain-text input.
 * Errors: AXB_ERR_IO (cannot open), AXB_ERR_PARSE (malformed, truncated,
 * count mismatch), AXB_ERR_INVALID (index out of range, duplicate entry,
 * NaN/Inf value, a nonzero value that underflows to 0 in the requested
 * dtype — read such files in double —, empty matrix),
 * AXB_ERR_OUT_OF_MEMORY (a read draws on one budget, 3/4 of available
 * memory, which the environment variable AXB_MMIO_MAX_BYTES can lower); the
 * handle's detail
 * holds "file:line: what".  h may be NULL (no detail then).
 */
axb_status axb_read_dense(axb_handle h, const char *path, axb_dtype dtype,
                          axb_dense *A);
axb_status axb_read_csr(axb_handle h, const char *path, axb_dtype dtype,
                        axb_csr *A);
/* Same, from a buffer in memory (name is used in messages). */
axb_status axb_read_dense_mem(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *A);
axb_status axb_read_csr_mem(axb_handle h, const char *name, const char *buf,
                            size_t len, axb_dtype dtype, axb_csr *A);
/* Writers: dense as `array real general`, sparse as `coordinate real
   general`; values printed with enough digits to round-trip; a path ending
   in .gz is written compressed; NaN/Inf values are refused (INVALID). */
axb_status axb_write_dense(axb_handle h, const char *path, const axb_dense *A);
axb_status axb_write_csr(axb_handle h, const char *path, const axb_csr *A);
/* What a Matrix Market file holds, from its banner and size line only
   (issue 23: the CLI's AUTO reads a large or very sparse coordinate file
   as CSR).  A file without a banner (plain text), or whose header is not
   in its first MiB, reads as coordinate = 0 with zero sizes.  Errors:
   AXB_ERR_IO, AXB_ERR_PARSE (malformed banner or size line). */
typedef struct {
  int coordinate; /* 1: `coordinate` format (sparse entries)           */
  int symmetric;  /* symmetric or skew-symmetric storage              */
  int64_t rows, cols;
  int64_t entries; /* coordinate: entries stored (one triangle when
                      symmetric); array: values stored                  */
} axb_mm_info;
axb_status axb_read_info(axb_handle h, const char *path, axb_mm_info *info);

/* ------------------------------------------------------------------------ */
/* Generators: seeded, identical on every backend and platform              */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_GEN_UNIFORM = 0,   /* uniform(-1, 1)                                */
  AXB_GEN_UNIFORM1000,   /* uniform in [-1000, 1000], no zeros            */
  AXB_GEN_POSITIVE1000,  /* uniform in (0, 1000]                          */
  AXB_GEN_INTEGER,       /* integers in [-100, 100]                       */
  AXB_GEN_DIAGONAL,      /* diagonal, entries uniform in [1, 2]           */
  AXB_GEN_UPPER,         /* upper triangular, diag in [1,2], rest
                            uniform(-1,1)/sqrt(n) (kappa ~ n/5)          */
  AXB_GEN_SPD_SHIFT,     /* (R + R^T)/2 + n I, R uniform(-1, 1)           */
  AXB_GEN_SPD_GRAM,      /* R R^T + n I                                   */
  AXB_GEN_DIAG_DOMINANT, /* uniform(-1,1), |a_ii| > sum_j!=i |a_ij|       */
  AXB_GEN_HILBERT,       /* 1 / (i + j + 1), 0-based                      */
  AXB_GEN_COND,          /* U diag(sigma) V^T, sigma geometric 1..1/kappa */
  AXB_GEN_POISSON2D,     /* 5-point, grid g x g, n = g^2 (sparse)         */
  AXB_GEN_POISSON3D,     /* 7-point, grid g^3, n = g^3 (sparse)           */
  AXB_GEN_SINGULAR,      /* uniform(-1,1) with column `col` zeroed        */
  AXB_GEN_CONVDIFF3D,    /* 7-point convection-diffusion, grid g^3, first-
                            order upwind, unsymmetric M-matrix (sparse):
                            diag 6 + 6 Pe, lower neighbours -1 - 2 Pe,
                            upper -1; Pe (cell Peclet number, > 0) in
                            `kappa`, default 1                            */
  AXB_GEN_COUNT
} axb_gen_kind;

typedef struct {
  axb_gen_kind kind;
  int64_t n;     /* matrix order (for Poisson: the grid edge g)          */
  double kappa;  /* AXB_GEN_COND: 2-norm condition number (default 1e3);
                    AXB_GEN_CONVDIFF3D: cell Peclet number (default 1) */
  int64_t col;   /* AXB_GEN_SINGULAR: 0-based zero column (default n/2) */
  uint64_t seed; /* default 42                                          */
} axb_gen_spec;
/* Filled by hand: kappa == 0 means 1e3 (convdiff3d: 1), col < 0 means n/2. */

/* Parse "KIND:N[,key=value...]", e.g. "spd:2000", "cond:500,kappa=1e8",
   "poisson2d:64", "uniform:1000,seed=7", "convdiff3d:100,peclet=2".
   Kinds: uniform, uniform1000, positive1000, integer, diagonal, upper, spd
   (= spd-shift), spd-gram, diagdom, hilbert, cond, poisson2d, poisson3d,
   singular, convdiff3d. */
axb_status axb_gen_parse(axb_handle h, const char *text, axb_gen_spec *spec);
const char *axb_gen_kind_name(axb_gen_kind k);
/* Order of the generated matrix (g^2, g^3 for Poisson and convdiff3d). */
int64_t axb_gen_order(const axb_gen_spec *spec);
/* Dense n x n matrix (allocated by the call); every kind, Poisson too. */
axb_status axb_gen_dense(axb_handle h, const axb_gen_spec *spec,
                         axb_dtype dtype, axb_dense *A);
/* Sparse: Poisson and convdiff3d natively; dense kinds are converted. */
axb_status axb_gen_csr(axb_handle h, const axb_gen_spec *spec, axb_dtype dtype,
                       axb_csr *A);

typedef enum {
  AXB_RHS_ONES = 0,  /* x_true = (1,...,1), b = A x_true (row sums)    */
  AXB_RHS_RANDOM = 1 /* x_true uniform(-1, 1) from seed, b = A x_true   */
} axb_rhs_kind;
/* Allocates X_true and B (n x nrhs, dtype of A); b is computed in double. */
axb_status axb_gen_rhs(axb_handle h, const axb_dense *A, int64_t nrhs,
                       axb_rhs_kind kind, uint64_t seed, axb_dense *X_true,
                       axb_dense *B);

/* ------------------------------------------------------------------------ */
/* Accuracy checks (scaled residuals; pass when < 30, DESIGN.md)            */
/* ------------------------------------------------------------------------ */

/* eps used by the checks: unit roundoff, 2^-53 (double) / 2^-24 (float). */
double axb_eps(axb_dtype t);
/* Matrix norm of A (any dtype, host), computed in double. */
double axb_matrix_norm(const axb_dense *A, axb_norm norm);
/* ||P A - L U||_1 / (n ||A||_1 eps); LU and ipiv from getrf (m = n). */
double axb_check_lu(const axb_dense *A, const axb_dense *LU,
                    const int64_t *ipiv);
/* ||A - L L^T||_1 / (n ||A||_1 eps) (lower) or A - U^T U (upper). */
double axb_check_cholesky(const axb_dense *A, const axb_dense *F,
                          axb_uplo uplo);
/* max over columns ||b - A x||_inf / (||A||_inf ||x||_inf n eps). */
double axb_check_solve(const axb_dense *A, const axb_dense *X,
                       const axb_dense *B);
/* ||I - A X||_1 / (n ||A||_1 ||X||_1 eps). */
double axb_check_inverse(const axb_dense *A, const axb_dense *X);
/* max over columns ||x - x_true||_inf / ||x_true||_inf. */
double axb_forward_error(const axb_dense *X, const axb_dense *X_true);
/* The source documents' metrics: max |P A - L U| (ipiv may be NULL for
   an unpivoted factor) and max |A - Y| (Y = inv(inv(A)) computed by the
   caller). */
double axb_max_lu_diff(const axb_dense *A, const axb_dense *LU,
                       const int64_t *ipiv);
double axb_max_abs_diff(const axb_dense *A, const axb_dense *Y);

/* ------------------------------------------------------------------------ */
/* Descriptor-level driver                                                  */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_METHOD_AUTO = 0,              /* Cholesky when symmetric with positive
                                       diagonal (LU if not SPD), else LU       */
  AXB_METHOD_LU,                    /* getrf + getrs                          */
  AXB_METHOD_CHOLESKY,              /* potrf + potrs                          */
  AXB_METHOD_GAUSS_JORDAN,          /* Gauss-Jordan inverse, x = inv(A) b     */
  AXB_METHOD_LU_CROUT,              /* study variant                          */
  AXB_METHOD_GAUSS,                 /* study variant: elimination on [A|b]    */
  AXB_METHOD_CHOLESKY_CROUT,        /* study variant: column-wise             */
  AXB_METHOD_CHOLESKY_BANACHIEWICZ, /* study variant: row-wise           */
  AXB_METHOD_LU_FIXEDPOINT,         /* study variant: iterative Crout,
                                       no pivoting (getrf_fixedpoint)    */
  AXB_METHOD_LU_MIXED,              /* low-precision LU + FP64 refinement,
                                       double A only (axb_dsxsv_ex)      */
  AXB_METHOD_CHOLESKY_MIXED,        /* the same with Cholesky            */
  AXB_METHOD_COUNT
} axb_method;

const char *axb_method_name(axb_method m);
/* "auto", "lu", "cholesky", "gauss-jordan", "lu-crout", "gauss",
   "cholesky-crout", "cholesky-banachiewicz", "lu-fixedpoint", "lu-mixed",
   "cholesky-mixed"; returns AXB_ERR_INVALID. */
axb_status axb_method_parse(const char *name, axb_method *m);

typedef struct {
  axb_method method;  /* default AUTO                                      */
  int pivot;          /* 1 (default); 0 = no pivoting where the method
                         allows it (gauss, lu-crout)                        */
  int estimate_rcond; /* 1 (default): rcond in the report and the
                         AXB_ERR_ILL_CONDITIONED verdict                   */
  axb_fixedpoint_opts fixedpoint; /* lu-fixedpoint only (never pivots)   */
  axb_mixed_opts mixed; /* lu-mixed and cholesky-mixed only              */
} axb_solve_opts;

void axb_solve_opts_default(axb_solve_opts *opts);

typedef struct {
  axb_status status;
  axb_method method;   /* the method that produced the answer           */
  axb_backend backend; /* the backend that ran it                        */
  axb_dtype dtype;
  int64_t n, nrhs;
  int64_t info;           /* index of the failing pivot/minor, else 0      */
  int cholesky_fell_back; /* AUTO tried Cholesky, matrix was not SPD     */
  double t_factor, t_solve, t_transfer, t_total; /* seconds              */
  double gflops;         /* (factor + solve flops) / (t_factor + t_solve) */
  double backward_error; /* axb_check_solve ratio of the returned X      */
  double rcond;          /* 1-norm reciprocal condition estimate, or -1    */
  int64_t sweeps;        /* lu-fixedpoint: sweeps over all sections, else 0 */
  int64_t sections;      /* lu-fixedpoint: sections iterated, else 0       */
  /* Seconds certifying X: the rcond estimate and the backward error
     (host<->device copies among them are in t_transfer).  t_total covers
     factor, solve, transfer, certify and the input checks and copies. */
  double t_certify;
  /* lu-mixed / cholesky-mixed: the factor precision that produced X, the
     refinement steps and GMRES iterations, the precisions abandoned, and
     LAPACK's ITER (axb_mixed_info); t_solve is the refinement's time. */
  axb_factor_precision factor_precision;
  int64_t refine_steps, gmres_iters, mixed_iter;
  int mixed_fallbacks;
  /* The driver's phases in seconds (0 where a phase did not run), for
     finding where the time goes: t_check the input checks (finiteness of
     A and B, ||A||_1) where they are not fused with the copy of A;
     t_symmetry the symmetry test (Cholesky methods, AUTO); t_copy the
     working copies of A and B (with the finiteness check, ||A||_1 and the
     symmetry test fused into A's copy) and X back into B; t_rcond and
     t_backward the condition estimate and the backward error, which
     together make t_certify (LU and Cholesky solve the estimate's first
     block beside B: that part is in t_solve). */
  double t_check, t_symmetry, t_copy, t_rcond, t_backward;
} axb_report;

/*
 * Solve A X = B.  A is n x n and left unchanged; B (n x nrhs, same dtype,
 * host memory) is overwritten with X.  A and B are checked for NaN/Inf
 * first (AXB_ERR_INVALID).  report may be NULL.  Returns AXB_SUCCESS,
 * a numerical status (the report says which pivot/minor),
 * AXB_ERR_ILL_CONDITIONED when X was computed but rcond < eps, or
 * AXB_ERR_INACCURATE when X was computed but its backward error ratio is
 * >= 30 (both: B holds X anyway, so that the caller can inspect it).
 * A failed factorization leaves B unchanged.
 */
axb_status axb_solve(axb_handle h, const axb_dense *A, axb_dense *B,
                     const axb_solve_opts *opts, axb_report *report);

/* Inverse of A into X (allocated by the caller, n x n, same dtype) with
   AXB_METHOD_LU (getrf + getri) or AXB_METHOD_GAUSS_JORDAN.  A singular A
   returns AXB_ERR_SINGULAR (the detail names the pivot); X then holds no
   inverse (its contents are unspecified, as after a NaN or Inf in A, which
   is found while A is copied into X). */
axb_status axb_invert(axb_handle h, const axb_dense *A, axb_dense *X,
                      axb_method method);

/* ------------------------------------------------------------------------ */
/* Benchmarking and tuning (issue 5)                                        */
/* ------------------------------------------------------------------------ */

/*
 * AUTO dispatch.  A handle created with AXB_BACKEND_AUTO is a CPU handle
 * (axb_handle_backend says CPU); when CUDA is compiled in and a GPU exists,
 * axb_solve and axb_invert hand a problem of order n >= the routine's
 * crossover to a CUDA handle the AUTO handle creates on first use (the
 * report's `backend` says which one ran).  Only methods the CUDA backend
 * implements move (LU, Cholesky, AUTO's choice of them, the LU inverse);
 * study variants stay on the CPU.  Without a GPU, AUTO is the CPU backend.
 *
 * Batched host arrays: an AUTO handle runs gesv_batched, posv_batched and
 * inverse_batched on HOST arrays (as a CPU handle) and hands a call to its
 * CUDA sub-handle, staging the arrays through device memory and waiting
 * for the result, when n >= the routine's batched crossover, n <= 64 (the
 * device kernels) and batch >= AXB_TUNE_BATCH (the batch the crossover was
 * measured at: a GPU that wins at that batch wins at larger ones, a smaller
 * batch stays on the CPU), and only for packed arrays (lda = n, stride
 * n*n; ldb = n, stride n*nrhs, nrhs >= 1; ipiv stride n): the staging copies
 * whole spans back, so padded or interleaved layouts stay on the CPU.  The
 * other batched routines (getrf/getrs,
 * potrf/potrs: factors reused on the host) stay on the CPU.
 *
 * Crossovers come from a tuning file written by `axb tune`: the file named
 * by $AXB_TUNE_FILE, else $XDG_CONFIG_HOME/axb/tune.txt, else
 * $HOME/.config/axb/tune.txt.  Format: one "ROUTINE N" per line (ROUTINE
 * lu, cholesky, inverse, batched-gesv, batched-cholesky or batched-inverse;
 * N a positive integer or "never"), '#' starts a comment.  A routine the
 * file leaves out, a missing file or a malformed file (AXB_ERR_PARSE from
 * axb_tuning_read) means the built-in default (AXB_TUNE_DEFAULT_CROSSOVER
 * for the dense routines, never for the batched ones).
 */
typedef enum {
  AXB_TUNE_LU = 0,           /* LU solves (also AUTO's LU)                    */
  AXB_TUNE_CHOLESKY = 1,     /* Cholesky solves (also AUTO's Cholesky)        */
  AXB_TUNE_INVERSE = 2,      /* axb_invert with AXB_METHOD_LU                 */
  AXB_TUNE_BATCHED_GESV = 3, /* gesv_batched on host arrays           */
  AXB_TUNE_BATCHED_CHOLESKY = 4, /* posv_batched on host arrays           */
  AXB_TUNE_BATCHED_INVERSE = 5,  /* inverse_batched on host arrays        */
  AXB_TUNE_COUNT
} axb_tune_routine;

#define AXB_TUNE_NEVER INT64_MAX        /* the GPU never wins        */
#define AXB_TUNE_DEFAULT_CROSSOVER 2048 /* built-in: CPU below 2048  */
/* Batch size at which `axb tune` measures the batched crossovers, and the
   smallest batch AUTO moves to the GPU. */
#define AXB_TUNE_BATCH 10000

typedef struct {
  int64_t crossover[AXB_TUNE_COUNT]; /* smallest n where CUDA is used    */
  int from_file[AXB_TUNE_COUNT];     /* 1: this entry came from the file */
  char path[1024];                   /* the file consulted, or ""        */
} axb_tuning;

/* "lu", "cholesky", "inverse", "batched-gesv", "batched-cholesky",
   "batched-inverse". */
const char *axb_tune_routine_name(axb_tune_routine r);
/* Built-in crossovers, path "". */
void axb_tuning_defaults(axb_tuning *t);
/* The tuning file's location (see above); AXB_ERR_NOT_SUPPORTED when no
   environment variable names one. */
axb_status axb_tuning_path(char *buf, size_t len);
/* Parse the text of a tuning file into t (defaults first).  On a malformed
   line: AXB_ERR_PARSE, "line N: what" in err, and t holds the defaults. */
axb_status axb_tuning_parse(const char *text, axb_tuning *t, char *err,
                            size_t errlen);
/* The same from a file: AXB_ERR_IO (t = defaults) when it cannot be read. */
axb_status axb_tuning_read(const char *path, axb_tuning *t, char *err,
                           size_t errlen);
/* Write t (with comment lines, may be NULL) to path, creating the parent
   directories; the file is replaced atomically. */
axb_status axb_tuning_write(const char *path, const axb_tuning *t,
                            const char *comment);
/* The tuning AUTO uses now: the file if it exists and parses, else the
   defaults.  Returns AXB_SUCCESS (also for no file), or AXB_ERR_PARSE when
   the file is malformed (err says where; t = defaults). */
axb_status axb_tuning_current(axb_tuning *t, char *err, size_t errlen);
/* The decision AUTO makes for a problem of order n: AXB_BACKEND_CUDA when
   gpu != 0 and n >= the crossover, else AXB_BACKEND_CPU.  For a batched
   routine this is the decision at batch = AXB_TUNE_BATCH (see below). */
axb_backend axb_tuning_choose(const axb_tuning *t, axb_tune_routine r,
                              int64_t n, int gpu);
/* AUTO's decision for a batched call (r one of the AXB_TUNE_BATCHED_*):
   AXB_BACKEND_CUDA when gpu != 0, crossover <= n <= 64 and
   batch >= AXB_TUNE_BATCH, else AXB_BACKEND_CPU. */
axb_backend axb_tuning_choose_batched(const axb_tuning *t, axb_tune_routine r,
                                      int64_t n, int64_t batch, int gpu);

/*
 * Vendor anchors for comparisons (benchmarks; never used by the solvers),
 * run in the same process as axb on the same inputs.  Host-array anchors:
 * OpenBLAS's LAPACK and Eigen 3 (PartialPivLU, LLT, inverse(); a C++ shim
 * compiled when Eigen3 was found).  Device anchors (CUDA builds): cuSOLVER
 * dense and cuBLAS batched, reached through axb_gpu_run below.  A missing
 * anchor answers AXB_ERR_NOT_COMPILED; sizes above INT32_MAX
 * AXB_ERR_NOT_SUPPORTED.  *info as LAPACK's (positive: singular pivot,
 * minor not positive definite; the status says the same as in the typed
 * layer).  getri inverts from getrf's factors (OpenBLAS only); inverse
 * does both steps (OpenBLAS getrf+getri, Eigen inverse()).  Eigen's getrf
 * returns LAPACK-style ipiv (converted from its permutation), so getrs
 * applies; Eigen's potrf reports a failure as info = 1 (Eigen does not say
 * at which minor).  Threads: process-global per anchor.
 */
typedef enum {
  AXB_ANCHOR_AXB = 0,      /* axb itself (axb_gpu_run), not an anchor */
  AXB_ANCHOR_OPENBLAS = 1, /* LAPACK from OpenBLAS, host arrays   */
  AXB_ANCHOR_EIGEN = 2,    /* Eigen 3, host arrays                */
  AXB_ANCHOR_CUSOLVER = 3, /* cuSOLVER dense, through axb_gpu_run */
  AXB_ANCHOR_CUBLAS = 4    /* cuBLAS batched, through axb_gpu_run */
} axb_anchor;

/* "axb", "openblas", "eigen", "cusolver", "cublas". */
const char *axb_anchor_name(axb_anchor a);
/* 1 when compiled in (for the device anchors: CUDA compiled; whether a GPU
   exists is axb_cuda_device_count's question). */
int axb_anchor_available(axb_anchor a);
/* Library version text ("OpenBLAS (...)", "Eigen 3.4.0", "cuSOLVER 11.7.1"). */
const char *axb_anchor_version(axb_anchor a);
axb_status axb_anchor_set_threads(axb_anchor a, int nthreads);
axb_status axb_anchor_getrf(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, int64_t *ipiv, int64_t *info);
axb_status axb_anchor_potrf(axb_anchor a, axb_dtype t, axb_uplo uplo, int64_t n,
                            void *A, int64_t lda, int64_t *info);
axb_status axb_anchor_getri(axb_anchor a, axb_dtype t, int64_t n, void *A,
                            int64_t lda, const int64_t *ipiv, int64_t *info);
axb_status axb_anchor_inverse(axb_anchor a, axb_dtype t, int64_t n, void *A,
                              int64_t lda, int64_t *info);
/* A := L\U (ipiv as getrf's) and B := A^-1 B (n x nrhs, ldb). */
axb_status axb_anchor_gesv(axb_anchor a, axb_dtype t, int64_t n, int64_t nrhs,
                           void *A, int64_t lda, int64_t *ipiv, void *B,
                           int64_t ldb, int64_t *info);

/*
 * GPU runs for benchmarks.  A runner belongs to a CUDA handle (its device
 * and stream) and keeps device buffers that grow on demand, so that a
 * timed call after a warm-up allocates nothing.  axb_gpu_run copies the
 * host arrays in, runs one operation of one implementation (impl:
 * AXB_ANCHOR_AXB = axb's CUDA backend through the _dev and batched API,
 * AXB_ANCHOR_CUSOLVER, AXB_ANCHOR_CUBLAS), copies the results back and
 * synchronises.  CUDA events on the stream measure the operation alone
 * (device_s) and the copies (transfer_s); a wall clock around the call
 * sees both.  Operations (column-major, lda = n; batched: `batch` problems
 * back to back, A_k at A + k n^2, b_k at B + k n):
 *   LU        A := L\U, ipiv (host, 1-based)   axb, cusolver (getrf)
 *   CHOLESKY  A := L (lower)                    axb, cusolver (potrf)
 *   INVERSE   A := A^-1                         axb (getrf+getri),
 *                                               cusolver (getrf+getrs(I))
 *   GESV      b := A^-1 b, A := L\U, ipiv      axb, cusolver (getrf+getrs)
 *   BATCHED_GESV     b_k := A_k^-1 b_k          axb, cublas (getrfBatched
 *                                               + getrsBatched)
 *   BATCHED_INVERSE  A_k := A_k^-1              axb, cublas (getrfBatched
 *                                               + getriBatched)
 *   BATCHED_POSV     b_k := A_k^-1 b_k, A_k SPD axb (posv_batched, lower),
 *                    A_k := L_k                 cusolver (potrfBatched
 *                                               + potrsBatched)
 * batch is ignored (1) by the single-problem operations; ipiv may be NULL
 * for the batched ones and INVERSE.  Returns AXB_SUCCESS; AXB_ERR_SINGULAR
 * / AXB_ERR_NOT_SPD with *info = LAPACK's info (batched: *info = 1-based
 * index of the first failing problem; AXB_ERR_NOT_SPD for BATCHED_POSV);
 * AXB_ERR_NOT_SUPPORTED for an implementation without that operation (e.g.
 * axb's batched kernels beyond n = 64); AXB_ERR_NOT_COMPILED without CUDA.
 */
typedef enum {
  AXB_GPU_LU = 0,
  AXB_GPU_CHOLESKY,
  AXB_GPU_INVERSE,
  AXB_GPU_GESV,
  AXB_GPU_BATCHED_GESV,
  AXB_GPU_BATCHED_INVERSE,
  AXB_GPU_BATCHED_POSV
} axb_gpu_op;

typedef struct axb_gpu_runner_s *axb_gpu_runner;

typedef struct {
  double device_s;   /* events around the operation alone          */
  double transfer_s; /* events around the host<->device copies     */
} axb_gpu_times;

axb_status axb_gpu_runner_create(axb_gpu_runner *r, axb_handle h);
void axb_gpu_runner_destroy(axb_gpu_runner r); /* NULL is fine */
axb_status axb_gpu_run(axb_gpu_runner r, axb_anchor impl, axb_gpu_op op,
                       axb_dtype t, int64_t n, int64_t batch, void *A, void *B,
                       int64_t *ipiv, int64_t *info, axb_gpu_times *tm);

/* Batched small systems on a HOST anchor (AXB_ANCHOR_EIGEN: PartialPivLU,
   LLT, inverse() per problem, OpenMP over the batch with the threads of
   axb_anchor_set_threads, as axb's CPU batched path).  op:
   AXB_GPU_BATCHED_GESV, _POSV (lower) or _INVERSE; layout as axb_gpu_run's
   batched operations (gesv/posv leave A as given).  AXB_ERR_SINGULAR /
   AXB_ERR_NOT_SPD with *info = 1-based index of the first failing problem;
   AXB_ERR_NOT_SUPPORTED for OpenBLAS (no batched LAPACK). */
axb_status axb_anchor_batched(axb_anchor a, axb_gpu_op op, axb_dtype t,
                              int64_t n, int64_t batch, void *A, void *B,
                              int64_t *info);

/* ------------------------------------------------------------------------ */
/* Sparse iterative solvers (issue 8)                                       */
/* ------------------------------------------------------------------------ */

/*
 * Krylov solvers for A x = b with A a square host CSR matrix (axb_csr),
 * float or double.  Every method stops when the relative residual of its
 * recurrence ||r_k||_2 / ||b||_2 <= tol, or after max_iter iterations; then
 * the TRUE residual ||b - A x||_2 / ||b||_2 is recomputed (in double).  When
 * the recurrence says "converged" but the true residual is above tol, the
 * method restarts from x with the true residual (at most 3 times, within
 * max_iter).  AXB_SUCCESS means the true relative residual is <= tol.
 *
 * Methods: CG (with a preconditioner: PCG), CG1 (the single-reduction CG of
 * SEEDS.md: one SpMV fused with its dot products, one reduction per
 * iteration; preconditioned in Chronopoulos-Gear form), BiCGStab (right
 * preconditioned), GMRES(m) (restarted, modified Gram-Schmidt, right
 * preconditioned; an iteration is one inner step).  AUTO: CG when A is
 * symmetric (exactly) with a positive diagonal, GMRES otherwise.
 *
 * Preconditioners: Jacobi (diagonal), ILU(0) / IC(0) (exact, computed on the
 * host), ParILU / ParIC (Chow-Patel fixed-point sweeps over A's pattern,
 * `sweeps` of them, on the handle's backend), with the triangular solves of
 * the incomplete factors exact (level-scheduled) or approximate (`tri_sweeps`
 * Jacobi sweeps).  ILUT (issue 23): threshold ILU(p = 10, tau = 1e-4)
 * computed on the host with its own pattern, a zero pivot replaced by
 * tau ||a_i||_2.  AUTO: IC(0) for CG/CG1 on a symmetric matrix, ILU(0)
 * otherwise; if it fails (zero or non-finite pivot, not positive) AUTO falls
 * back (ILU(0) to ILUT first) to Jacobi, then to none, and the report says
 * so.  A preconditioner
 * asked for by name that fails returns its status (AXB_ERR_SMALL_PIVOT or
 * AXB_ERR_NOT_SPD, report.info = the row, 1-based).
 *
 * Outcomes: AXB_SUCCESS; AXB_ERR_NO_CONVERGENCE (max_iter reached, or a
 * breakdown: report.breakdown says which; X holds the last iterate and the
 * report the residuals reached); AXB_ERR_NOT_SPD (CG/CG1: p^T A p <= 0, or
 * a preconditioner that is not positive definite; report.breakdown);
 * AXB_ERR_SMALL_PIVOT (a named preconditioner failed); AXB_ERR_INVALID /
 * -i for bad input (CSR structure, NaN/Inf, sizes, dtypes);
 * AXB_ERR_NOT_SUPPORTED (CUDA handle without the sparse CUDA table).
 *
 * Backends: REF runs the CPU kernels on one thread, CPU on the handle's
 * threads (results bitwise reproducible for a given thread count), CUDA on
 * the GPU.  An AUTO handle solves on the CPU.
 *
 * Direct (issue 23; SuiteSparse in the build, else AXB_ERR_NOT_SUPPORTED):
 * CHOLMOD when A is symmetric with a positive diagonal (UMFPACK if the
 * Cholesky meets a non-positive pivot), UMFPACK otherwise, on the CPU in
 * double (float values are widened), with iterative refinement and a
 * 1-norm condition estimate of the row-equilibrated matrix (report.rcond:
 * a row scaling leaves x unchanged, so kappa(R A) bounds x's error as
 * kappa(A) does, without blaming a badly scaled row).  AXB_SUCCESS: certified
 * (true residual + its rounding bound <= tol); AXB_ERR_ILL_CONDITIONED:
 * solved but rcond < eps (X returned, not trustworthy);
 * AXB_ERR_INACCURATE: the certificate failed; AXB_ERR_SINGULAR.
 *
 * AUTO method (issue 23): with the direct solvers in the build, A is
 * analysed for them first (an ordering: cheap); when the factorisation
 * is estimated at most 1e9 flops or 5000 flops per nonzero of A, and fits
 * in half the available memory (and no preconditioner is named), the
 * direct path runs, else the Krylov method
 * above; when that fails (no convergence, breakdown) the direct path is tried
 * as a fallback if its memory fits.  A CUDA handle runs the Krylov method on
 * the GPU first and falls back to the CPU direct path.  With the AUTO
 * preconditioner, the Krylov path preprocesses a matrix with zero diagonal
 * entries on which ILU(0) fails: its rows are permuted by a maximum-
 * product matching (MC64-like; no residual norm changes).  IC(0) that breaks
 * down (AUTO's or named) is computed again on A + alpha diag(A) (Manteuffel's
 * shift, alpha growing; report.precond_shift).  The direct path's
 * equilibration and ordering are UMFPACK's and CHOLMOD's own (row scaling,
 * AMD / COLAMD).
 * report.path says what was chosen and why and every fallback step.
 */
typedef enum {
  AXB_SPARSE_AUTO = 0,
  AXB_SPARSE_CG = 1,
  AXB_SPARSE_CG1 = 2, /* single-reduction CG */
  AXB_SPARSE_BICGSTAB = 3,
  AXB_SPARSE_GMRES = 4,
  AXB_SPARSE_DIRECT = 5, /* sparse LU / Cholesky (SuiteSparse; issue 23) */
  AXB_SPARSE_METHOD_COUNT
} axb_sparse_method;

typedef enum {
  AXB_PRECOND_AUTO = 0,
  AXB_PRECOND_NONE = 1,
  AXB_PRECOND_JACOBI = 2,
  AXB_PRECOND_ILU0 = 3,
  AXB_PRECOND_IC0 = 4,
  AXB_PRECOND_PARILU = 5,
  AXB_PRECOND_PARIC = 6,
  AXB_PRECOND_ILUT = 7, /* ILUT(10, 1e-4), on the host (issue 23) */
  AXB_PRECOND_COUNT
} axb_precond;

typedef enum {
  AXB_TRISOLVE_EXACT = 0, /* level-scheduled substitution          */
  AXB_TRISOLVE_JACOBI = 1 /* tri_sweeps Jacobi sweeps (approximate) */
} axb_trisolve;

/* Why an iteration stopped short (report.breakdown). */
typedef enum {
  AXB_BREAKDOWN_NONE = 0,
  AXB_BREAKDOWN_NOT_SPD = 1,    /* CG/CG1: p^T A p <= 0 (or <r,z> <= 0)     */
  AXB_BREAKDOWN_RHO = 2,        /* BiCGStab: <r^, r> = 0                   */
  AXB_BREAKDOWN_RV = 3,         /* BiCGStab: <r^, v> = 0                   */
  AXB_BREAKDOWN_OMEGA = 4,      /* BiCGStab: omega = 0 (<t, t> or <t, s>) */
  AXB_BREAKDOWN_GMRES = 5,      /* GMRES: singular Hessenberg matrix       */
  AXB_BREAKDOWN_NON_FINITE = 6, /* a non-finite scalar in the recurrence  */
  AXB_BREAKDOWN_MAX_ITER = 7,   /* max_iter reached (not a breakdown)      */
  AXB_BREAKDOWN_DIVERGED = 8 /* ||r|| / ||b|| > 1e8: stopped before overflow  */
} axb_sparse_breakdown;

const char *axb_sparse_method_name(axb_sparse_method m); /* "cg", ... */
const char *axb_precond_name(axb_precond p);             /* "ilu0", ... */
const char *axb_sparse_breakdown_name(axb_sparse_breakdown b);
/* "auto", "cg", "cg1", "bicgstab", "gmres", "direct"; AXB_ERR_INVALID
   otherwise. */
axb_status axb_sparse_method_parse(const char *name, axb_sparse_method *m);
/* "auto", "none", "jacobi", "ilu0", "ic0", "parilu", "paric", "ilut". */
axb_status axb_precond_parse(const char *name, axb_precond *p);

typedef struct {
  axb_sparse_method method; /* default AUTO                                */
  axb_precond precond;      /* default AUTO                                */
  double tol;               /* relative residual; default 1e-8            */
  int64_t max_iter;         /* default 10000                               */
  int restart;              /* GMRES(m): m, default 30                     */
  int sweeps;               /* ParILU/ParIC fixed-point sweeps, default 3  */
  axb_trisolve trisolve;    /* default EXACT                               */
  int tri_sweeps;           /* Jacobi sweeps per triangular solve, def. 3 */
  int use_x0;               /* 1: X holds the initial guess; 0 (default): 0 */
  int history;              /* 1: record the residual history (default 0)  */
  /* AUTO method only (issue 23): AXB_DIRECT_AUTO (0, default) lets AUTO
     pick the direct path first when cheap; AXB_DIRECT_FALLBACK keeps it
     as the fallback of a failed Krylov solve only; AXB_DIRECT_NEVER: no
     direct path. */
  int direct;
} axb_sparse_opts;
enum { AXB_DIRECT_AUTO = 0, AXB_DIRECT_FALLBACK = 1, AXB_DIRECT_NEVER = 2 };

void axb_sparse_opts_default(axb_sparse_opts *opts);

typedef struct {
  axb_status status;
  axb_sparse_method method; /* the method that ran                         */
  axb_precond precond;      /* the preconditioner that ran                */
  /* opts.precond, or AUTO's choice once made (IC(0) or ILU(0)): the one
     set up first, which failed when precond_fell_back is 1 */
  axb_precond precond_requested;
  int precond_fell_back;     /* 1: the requested one failed, `precond` ran */
  axb_status precond_status; /* why it failed (else AXB_SUCCESS)          */
  int64_t precond_info;      /* the row where it failed (1-based)         */
  axb_sparse_breakdown breakdown;
  axb_backend backend;
  axb_dtype dtype;
  int64_t n, nnz, nrhs;
  int64_t info;         /* failing row of a named preconditioner, else 0 */
  int64_t iterations;   /* largest over the right-hand sides            */
  int restarts;         /* true-residual restarts (and GMRES cycles)    */
  double t_setup;       /* seconds: upload, analysis, preconditioner    */
  double t_solve;       /* seconds: the iterations and the true residual */
  double residual;      /* last recurrence ||r|| / ||b|| (worst column) */
  double true_residual; /* ||b - A x|| / ||b|| in double (worst column)  */
  /* With opts.history: ||r_k|| / ||b|| of the recurrence for k = 0 ..
     history_len - 1 (the last right-hand side; restarts included), owned
     by the report: axb_sparse_report_free releases it. */
  double *history;
  int64_t history_len;
  /* Issue 23: the direct path and AUTO's choices. */
  double rcond; /* direct: 1-norm reciprocal condition estimate of R A,
                   R = diag(1 / max_j |a_ij|) (rows equilibrated), else 0 */
  /* IC(0) that broke down and was computed on A + alpha diag(A): alpha
     (Manteuffel's shift), else 0 */
  double precond_shift;
  char solver[16]; /* direct: "cholmod" or "umfpack"; else ""            */
  /* What AUTO chose and why, the preprocessing applied, and every
     fallback step taken, as "; "-separated clauses (never printed by the
     library; the CLI shows it). */
  char path[768];
} axb_sparse_report;

void axb_sparse_report_free(axb_sparse_report *report); /* NULL is fine */

/*
 * Solve A X = B: A n x n CSR (host), B and X n x nrhs dense (host), all of
 * one dtype; B is left unchanged; X gets the solutions (its input is the
 * initial guess when opts->use_x0).  Each column is solved in turn.  opts
 * may be NULL (defaults); a zero field of opts takes its default, so a
 * zeroed struct means all defaults.  report may be NULL; the call
 * overwrites *report (free an earlier report's history first with
 * axb_sparse_report_free, or it leaks).
 */
axb_status axb_sparse_solve(axb_handle h, const axb_csr *A, const axb_dense *B,
                            axb_dense *X, const axb_sparse_opts *opts,
                            axb_sparse_report *report);
/* 1 when this build has the sparse direct solvers (SuiteSparse's UMFPACK
   and CHOLMOD; issue 23), else 0 (AXB_SPARSE_DIRECT then answers
   AXB_ERR_NOT_SUPPORTED). */
int axb_sparse_direct_available(void);
/* The memory check axb_sparse_solve makes before it allocates anything
   (issue 19): its working memory for A, nrhs and opts (NULL: defaults),
   plus `caller_arrays` n x nrhs arrays of A's dtype that the caller has yet
   to allocate (B, X, ...), against the memory available.
   AXB_ERR_OUT_OF_MEMORY, with the sizes in the detail, when it does not
   fit.  Lets a caller refuse an absurd n before creating its vectors. */
axb_status axb_sparse_check_memory(axb_handle h, const axb_csr *A, int64_t nrhs,
                                   const axb_sparse_opts *opts,
                                   int caller_arrays);

#ifdef __cplusplus
}
#endif
#endif /* AXB_H */
