/*
 * Part of axb_device.cuh (include that header, not this one).
 * Rows between memory (global or shared) and a group's registers: the
 * matrix rows, the stored rows at their final positions, and the
 * right-hand sides in chunks.
 */
#ifndef AXB_DEVICE_MEMORY_CUH
#define AXB_DEVICE_MEMORY_CUH

#include "group.cuh"

namespace axb_dev {

/* ======================================================================== */
/* Cooperative functions on a matrix in memory (global or shared)           */
/* ======================================================================== */

/* Row i of A (zeros outside n x n). */
template <int NMAX, typename T, int W>
__device__ __forceinline__ void load_row(int n, const T *A, int64_t lda, int i,
                                         T (&r)[W]) {
  static_assert(W >= NMAX, "row shorter than NMAX");
#pragma unroll
  for (int j = 0; j < NMAX; ++j)
    r[j] = (i < n && j < n) ? A[i + j * lda] : T(0);
}
/* The lane's rows lane + G q. */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ void load_rows(const Grp &g, int n, const T *A,
                                          int64_t lda, T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q)
    load_row<NMAX>(n, A, lda, g.lane + Grp::size * q, r[q]);
}

/* Row q of the lane (its first NMAX entries) to row pos[q] of A. */
template <int NMAX, int R, typename T, int W>
__device__ __forceinline__ void
store_rows(int n, T *A, int64_t lda, const int (&pos)[R], const T (&r)[R][W]) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (pos[q] < n) {
#pragma unroll
      for (int j = 0; j < NMAX; ++j)
        if (j < n) A[pos[q] + j * lda] = r[q][j];
    }
  }
}

/* Right-hand sides of B in chunks of NR columns: b[c] = B(row, c0 + c). */
template <int NR, typename T>
__device__ __forceinline__ void load_b(int n, int nrhs, const T *B, int64_t ldb,
                                       int row, int c0, T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    b[c] = (row < n && c0 + c < nrhs) ? B[row + (int64_t)(c0 + c) * ldb] : T(0);
}
template <int NR, typename T>
__device__ __forceinline__ void store_b(int n, int nrhs, T *B, int64_t ldb,
                                        int row, int c0, const T (&b)[NR]) {
#pragma unroll
  for (int c = 0; c < NR; ++c)
    if (row < n && c0 + c < nrhs) B[row + (int64_t)(c0 + c) * ldb] = b[c];
}

} // namespace axb_dev

#endif
