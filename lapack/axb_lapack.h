/*
 * Internal interface of the LAPACK drop-in (libaxb_lapack.so): the
 * per-thread state and the dispatch shared by the precision template
 * lapack_t.h.  The drop-in is a client of include/axb.h only.
 */
#ifndef AXB_LAPACK_H
#define AXB_LAPACK_H

#include <axb.h>

#include <stddef.h>
#include <stdint.h>

/* The library is built with hidden visibility: only the LAPACK names are
   exported, so the helpers below never collide with a program's. */
#define AXL_EXPORT __attribute__((visibility("default")))

/* LAPACK's integer: 32 bits (Debian's liblapack3 and libopenblas0). */
typedef int lapack_int;

/* What a call is, for the dispatch: which crossover of `axb tune` it
   uses, and whether it is a solve with factors the caller already has
   (those move only with many right-hand sides, see pick()). */
typedef enum { AXL_LU = 0, AXL_CHOL = 1, AXL_INV = 2 } axl_kind;

/* One thread's handles (created on first use) and pivot buffer. */
typedef struct {
  axb_handle cpu, cuda;
  int cuda_failed; /* creating the CUDA handle failed: CPU from then on */
  int64_t *piv;    /* int64_t pivots for axb's typed layer */
  size_t piv_cap;
} axl_thread;

/* A dispatched call: the handle chosen and what the trace prints. */
typedef struct {
  axl_thread *t;
  axb_handle h;
  int on_gpu;
  const char *name; /* LAPACK's name, "DGESV" */
  double t0;
} axl_call;

/* Start a call of `name` on a problem of order n (nrhs for solves from
   given factors, else 0).  Returns 0, or -1 when no handle could be made
   (the caller then uses the system routine). */
int axl_begin(axl_call *c, const char *name, axl_kind kind, int64_t n,
              int64_t nrhs, int solve_only);
/* The library failed on the GPU handle: switch this call to the CPU.
   Returns 0 when there is a CPU handle. */
int axl_retry_cpu(axl_call *c, axb_status st);
/* End a call: the trace line (AXB_LAPACK_VERBOSE) with the outcome. */
void axl_end(axl_call *c, axb_status st, lapack_int info);
/* n pivots of the thread's buffer; NULL when out of memory. */
int64_t *axl_piv(axl_call *c, int64_t n);

/* AXB_LAPACK_CHECK=1: gesv/posv keep copies of A (full, packed) and B and
   judge the answer after the call.  axl_check_on says whether to copy;
   axl_certify computes axb_check_solve's backward error of X (ldx) and
   writes a warning line to stderr when it is not below 30. */
int axl_check_on(void);
void axl_certify(const char *name, axb_dtype t, int64_t n, int64_t nrhs,
                 const void *A, const void *B, const void *X, int64_t ldx);

/* The system library's definition of a LAPACK symbol (the next one after
   the drop-in in the lookup order), or NULL.  Used when axb cannot serve
   a call (library error, input axb refuses such as NaN in dsgesv). */
void *axl_next(const char *sym);

/* LAPACK's LSAME on the first character. */
int axl_lsame(const char *a, char b);
/* The end of a routine's argument checks, the LAPACK way: *info := -e and,
   for an illegal argument (e > 0, its position), the caller's XERBLA.
   Returns whether the routine must return. */
int axl_arg_error(lapack_int *info, const char *name, lapack_int e);

/* The argument checks, the LAPACK way: `pairs` (bad, position) pairs of
   ints, in the routine's order of checks; returns the position of the first
   whose `bad` is nonzero, or 0 when every argument is legal (for
   axl_arg_error). */
lapack_int axl_first_bad(int pairs, ...);

/* Fortran's XERBLA (hidden length of the name last, gfortran ABI). */
void xerbla_(const char *srname, const lapack_int *info, size_t len);

static inline lapack_int axl_max1(lapack_int n) { return n > 1 ? n : 1; }

#endif
