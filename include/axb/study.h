/*
 * <axb/study.h>: the options of the study variants of the source documents
 * (SEEDS.md). One piece of axb's public API: include <axb.h>, which includes
 * every piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_STUDY_H
#define AXB_API_STUDY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Study variants of the source documents (SEEDS.md): their options         */
/* ------------------------------------------------------------------------ */

/*
 * Iterative (fixed-point) Crout LU, SEEDS.md 1 (getrf_fixedpoint in
 * axb/dense.h): Z starts as A; a sweep recomputes every entry of a section from
 * the current Z with Crout's formulas (Jacobi: all reads from the previous
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

/* Column-oriented Cholesky kernels (SEEDS.md 3, potrf_columns in
   axb/dense.h): a host loop over the columns, one GPU thread per element
   of the column.  The CPU backends compute the same factor with their
   potrf_crout and ignore these options. */
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
   blocks (SEEDS.md 2, gesv_rowcyclic in axb/dense.h): block g of G
   eliminates rows g, g + G, ... below the pivot; G shrinks as the triangle
   does.  The CPU backends run gesv_gauss and ignore everything but pivot. */
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

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_STUDY_H */
