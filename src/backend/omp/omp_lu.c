/* LU with partial pivoting for the CPU backend, float and double
   (omp_lu_t.h).  Without OpenBLAS the reference getrf stays in the table. */
#include "backend/omp/omp.h"
#include "backend/ref/ref.h"
#include "backend/verdict.h"
#include "core/template.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef AXB_HAVE_LAPACK

/* Leaf width of the recursive panel: below it the rank-1 loop runs on a
   block that stays in L1/L2. */
#define OMP_LU_LEAF 16
/* Rows of a leaf column kept in registers / L1 while the factored columns
   stream past (omp_lu_t.h, LCOL_). */
#define OMP_LU_ROWS 64
/* Rows of the unit lower triangle below which the panel's triangular solve
   calls trsm rather than splitting further into gemm. */
#define OMP_LU_TRSM_LEAF 16
/* Up to this order (min(m, n)) the whole matrix is factored by the
   recursion in the calling thread: no OpenMP region at all. */
#define OMP_LU_SMALL 512
/* Block width of the look-ahead path (AXB_LU_NB overrides it): wide enough
   that the trailing GEMMs (inner dimension nb) run near peak, narrow
   enough that the panel stays a small share of the work. */
#define OMP_LU_NB(mn, nt) ((mn) <= 2048 ? 128 : 192)
/* Pieces of the trailing update per step: a few per thread, so that the
   thread that runs the look-ahead panel still finds work when it is done. */
#define OMP_LU_PARTS(nt) (3 * (nt))
/* 1: pieces of decreasing width (axb_omp_split_guided); 0: equal widths
   (AXB_LU_GUIDED overrides). */
#define OMP_LU_GUIDED 0
/* Interchanges (columns x rows) from which the hybrid path hands them to
   OpenBLAS's threaded ?laswp rather than our single-thread loop. */
#define OMP_LU_LASWP_MIN 65536.0
/* Hybrid path: leaf width (AXB_HYB_LU_LEAF) and the rows below which the
   recursion's triangular solve is one (threaded) trsm call rather than
   split into gemm (AXB_HYB_TRSM_LEAF): every split is one more threaded
   call, each a synchronization of all OpenBLAS threads. */
#define OMP_HYB_LU_LEAF 16
#define OMP_HYB_TRSM_LEAF INT64_MAX
/* Tiled look-ahead path instead of the hybrid where the hybrid would be
   taken, from OMP_LU_TILED_THREADS threads up to order OMP_LU_TILED_MAX
   (AXB_LU_TILED_MAX; AXB_LU_TILED=0/1 forces it off/on wherever the
   hybrid applies).  Measured on the 16-core device host
   (docs/PERFORMANCE.md): at n = 4096-8192 it beats the hybrid (dgetrf
   0.86-0.90 against 0.71 of OpenBLAS at 4096, sgetrf 0.83-1.14 against
   0.61-0.70), at 2048 the two are within the noise for the factorization
   alone, but an OpenMP region right after the hybrid (getri, getrs) runs
   beside OpenBLAS's still-spinning pool (getrf+getri at 2048: 0.67 after
   the hybrid, 1.36 after the tiled path); at 16384 the hybrid's threaded
   gemm (shared packing, one pool) wins: 0.93 against 0.74-0.76.  On 2-7
   threads one panel thread is too large a share of the team. */
#define OMP_LU_TILED_THREADS 8
#define OMP_LU_TILED_MAX 8192
/* Its block width (AXB_LU_NB overrides): the panel, factored by one
   thread, hides behind the update of the others while n - j > ~ (T - 1)
   nb s_gemm / (2 s_panel) (per step: panel m nb^2 flops on one thread,
   update 2 m (n - j) nb on T - 1 threads).  96, 128, 192 and 256 were
   within the noise of each other at n = 2048-8192 on 16 threads. */
#define OMP_LU_TILED_NB(mn) 128
/* Tiles of the trailing gemm per thread and step (AXB_LU_TILES). */
#define OMP_LU_TILES_PER_THREAD 2
/* Order of a tiled step (omp_lu_t.h, TILED_), all off by default:
   AXB_LU_J1FIRST=1: the other threads stop taking interchange + trsm
   pieces once the next block column J1 is ready and take its gemm tiles
   first; AXB_LU_RTRSM=1: the step's triangular solves recursive into gemm
   rather than one trsm call each; AXB_LU_J1SPLIT=1: J1's interchanges +
   trsm in 16-column pieces for every thread rather than all on thread 0.
   The profile (docs/PERFORMANCE.md, 2026-11-21 late) showed thread 0
   waiting 14-16 % of a 2048 LU for J1's gemm; all three on were 0-9 %
   slower than all off in the same device run (the others still finish
   their one wide phase-A piece before J1's gemm), so they stay off. */
#define OMP_LU_J1FIRST 0
#define OMP_LU_RTRSM 0
#define OMP_LU_J1SPLIT 0
/* Atomic counters per step of the tiled path. */
#define OMP_LU_CTRS 7

/* Unsigned integers of the scalars' widths (the pivot search compares bit
   patterns, omp_lu_t.h). */
typedef uint64_t omp_dlu_bits;
typedef uint32_t omp_slu_bits;

#define AXB_TEMPLATE "backend/omp/omp_lu_t.h"
#include "core/instantiate.h"

#endif
