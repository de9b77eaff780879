/*
 * axb_device.cuh — dense solvers callable from inside a user's CUDA kernel
 * (header-only, C++ / CUDA, no library to link).  Include it in a .cu file.
 *
 * Two kinds of functions, float and double (template T), the matrix order n
 * chosen at run time up to a compile-time bound NMAX:
 *
 * Per thread (one matrix per thread, tiny n): the matrix lives in a local
 * array `T a[NMAX * NMAX]`, column-major with leading dimension NMAX, that
 * the compiler keeps in registers (every index is a compile-time constant
 * after unrolling; keep NMAX <= 8 in double, <= 12 in float).
 *     thread_getrf, thread_getrs, thread_inverse, thread_potrf, thread_potrs
 * A block's matrices reach such threads fastest through shared memory:
 *     tile_load, tile_get, tile_put, tile_store (coalesced staging)
 *
 * Cooperative (one matrix per group of threads, larger n): the G lanes of
 * the group hold the rows of the matrix in registers, NMAX / G rows each
 * (lane l: rows l, l + G, ...; one row per lane when G >= NMAX), and talk
 * through warp shuffles (Warp<G>, G = 2, 4, ..., 32 lanes), through warp
 * shuffles and a shared-memory slot per group (WarpShared<G, T, NMAX>,
 * faster) or through a small shared-memory workspace (Block<NW>: the whole
 * block, NW warps, one row per lane, n <= 32 * NW).  Row interchanges move
 * no data: a row stays in its lane and changes its position label.  The
 * batched API's shapes are GroupLanes in src/backend/cuda/batched.cu.  The
 * functions read and write the
 * matrix in any memory (global or shared), leading dimension lda: group_getrf,
 * group_getrs, group_gesv, group_gesv1 (one right-hand side), group_inverse,
 * group_potrf, group_potrs, group_posv.
 * Every lane of the group must call them together with the same arguments.
 * Warp<G, true> and WarpShared<G, T, NMAX, true> are for kernels that keep
 * every group of a warp in step: whole warps launched, all 32 lanes calling
 * the same function with the same n, the collectives then naming the whole
 * warp (which saves the compiler's convergence test before each of them).
 * Only group_inverse, group_gesv1 (both take active = false for a group
 * with no matrix, e.g. past the end of a batch) and group_getrf run the
 * same collectives whatever the matrix; the others stop early on a
 * singular or not-SPD matrix and refuse such groups at compile time.
 *
 * Statuses: every factorization returns the per-matrix info of LAPACK: 0, or
 * k (1-based) for the first exactly zero pivot U(k,k) (LU, inverse) or the
 * first leading minor that is not positive definite (Cholesky).  getrf
 * completes the factorization when U is singular (as LAPACK); the inverse,
 * gesv and posv leave A (inverse) or B (gesv, posv) unchanged then.  Pivot
 * arrays are 1-based (LAPACK): row i was interchanged with row ipiv[i].
 * Partial pivoting takes the largest magnitude and, on ties, the first row
 * in the current order (LAPACK's rule).  The warp groups (Warp, WarpShared)
 * compare magnitudes by their exponent and top mantissa bits (pivot_key:
 * double 15 / 13 / 11 bits at NMAX <= 8 / 16 / 32; float 18 / 16 / 14):
 * candidates that agree there count as tied and the first wins, so that
 * |l| <= 1 + 2^-11 (threshold partial pivoting, as stable as partial
 * pivoting), and a column whose candidates are all below 2^-1037 /
 * 2^-1035 / 2^-1033 (double, same NMAX) in magnitude is taken as zero
 * (getrf and gesv1 then pivot on the first row and report info when it
 * holds an exact zero; LAPACK would divide by the denormal, whose
 * reciprocal overflows).  There a NaN never wins the search: the inverse
 * reports a column of NaNs and zeros as singular, getrf pivots on its
 * first row.
 *
 * The same functions run behind the batched API of axb.h on CUDA handles
 * (axb_dgesv_batched, ...); examples/kalman/kalman.cu shows a user kernel.
 */
#ifndef AXB_DEVICE_CUH
#define AXB_DEVICE_CUH
/* The implementation, by kind, in include/axb_device/ (installed beside
   this header): */
#include "axb_device/cholesky.cuh" /* rows_potrf/potrs, group_potrf/posv */
#include "axb_device/common.cuh"   /* |x|, sqrt */
#include "axb_device/group.cuh"    /* Warp, WarpShared, Block; pivot keys */
#include "axb_device/inverse.cuh"  /* rows_inverse, group_inverse */
#include "axb_device/lu.cuh"       /* rows_getrf/getrs, group_getrf/gesv */
#include "axb_device/memory.cuh"   /* rows between memory and registers */
#include "axb_device/thread.cuh"   /* per thread: thread_* */
#include "axb_device/tile.cuh"     /* shared-memory staging: tile_* */

#endif
