/*
 * Part of axb_device.cuh (include that header, not this one).
 * Per thread: one small matrix per thread, in a local array the compiler
 * keeps in registers (thread_getrf, thread_getrs, thread_inverse,
 * thread_potrf, thread_potrs).
 */
#ifndef AXB_DEVICE_THREAD_CUH
#define AXB_DEVICE_THREAD_CUH

#include "common.cuh"

namespace axb_dev {

/* ======================================================================== */
/* Per thread: a[i + j * NMAX], n <= NMAX                                   */
/* ======================================================================== */

/* Partial pivoting in column k: the row p in [k, n) of the largest |a_pk|
   (the first on ties). */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_pivot(int n, int k,
                                            const T (&a)[NMAX * NMAX]) {
  int p = k;
  T best = absval(a[k + k * NMAX]);
#pragma unroll
  for (int i = k + 1; i < NMAX; ++i) {
    const T v = absval(a[i + k * NMAX]);
    if (i < n && v > best) {
      best = v;
      p = i;
    }
  }
  return p;
}

/* Rows k and p >= k of a exchanged.  Every row below k is tested against p
   so that all indices are constants once the callers' loops unroll (an
   index p would move a to local memory). */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_swap_rows(int k, int p,
                                                 T (&a)[NMAX * NMAX]) {
#pragma unroll
  for (int i = k + 1; i < NMAX; ++i) {
    if (i == p) {
#pragma unroll
      for (int j = 0; j < NMAX; ++j) {
        const T t = a[k + j * NMAX];
        a[k + j * NMAX] = a[i + j * NMAX];
        a[i + j * NMAX] = t;
      }
    }
  }
}

/* LU with partial pivoting, in place (L unit lower below, U on and above
   the diagonal); ipiv[0..n) 1-based.  Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_getrf(int n, T (&a)[NMAX * NMAX],
                                            int (&ipiv)[NMAX]) {
  int info = 0;
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int p = thread_pivot<NMAX>(n, k, a);
      ipiv[k] = p + 1;
      thread_swap_rows<NMAX>(k, p, a);
      const T piv = a[k + k * NMAX];
      if (piv == T(0)) {
        if (!info) info = k + 1;
      } else {
        const T r = T(1) / piv;
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + k * NMAX] *= r;
      }
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T u = a[k + j * NMAX];
#pragma unroll
        for (int i = k + 1; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * u;
      }
    }
  }
  return info;
}

/* Solve A x = b with thread_getrf's factors; b[0..n) becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_getrs(int n, const T (&a)[NMAX * NMAX],
                                             const int (&ipiv)[NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const int p = ipiv[k] - 1;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i) {
        if (i == p) {
          const T t = b[k];
          b[k] = b[i];
          b[i] = t;
        }
      }
    }
  }
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
#pragma unroll
    for (int i = k + 1; i < NMAX; ++i)
      b[i] -= a[i + k * NMAX] * b[k];
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = 0; i < k; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
}

/* Inverse in place (Gauss-Jordan with partial pivoting).  Returns info; a is
   unspecified when info > 0 (keep a copy if you need it). */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_inverse(int n, T (&a)[NMAX * NMAX]) {
  int piv[NMAX];
  int info = 0; /* no early return: it would keep the loop from unrolling */
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    piv[k] = k;
    if (k < n && !info) {
      const int p = thread_pivot<NMAX>(n, k, a);
      piv[k] = p;
      thread_swap_rows<NMAX>(k, p, a);
      const T d = a[k + k * NMAX];
      if (d == T(0)) {
        info = k + 1;
      } else {
        const T r = T(1) / d;
        a[k + k * NMAX] = T(1);
#pragma unroll
        for (int j = 0; j < NMAX; ++j)
          a[k + j * NMAX] *= r;
#pragma unroll
        for (int i = 0; i < NMAX; ++i) {
          if (i != k) {
            const T f = a[i + k * NMAX];
            a[i + k * NMAX] = T(0);
#pragma unroll
            for (int j = 0; j < NMAX; ++j)
              a[i + j * NMAX] -= f * a[k + j * NMAX];
          }
        }
      }
    }
  }
  if (info) return info;
    /* Undo the row interchanges on the columns, last first (written as
       selects: a branchy swap here made the compiler move a to local memory).
     */
#pragma unroll
  for (int kk = 0; kk < NMAX; ++kk) {
    const int k = NMAX - 1 - kk, p = piv[k];
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
      const T ak = a[i + k * NMAX];
      T nk = ak;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T aj = a[i + j * NMAX];
        const bool s = j == p;
        nk = s ? aj : nk;
        a[i + j * NMAX] = s ? ak : aj;
      }
      a[i + k * NMAX] = nk;
    }
  }
  return 0;
}

/* Cholesky A = L L^T in place (lower triangle referenced and written).
   Returns info. */
template <int NMAX, typename T>
__device__ __forceinline__ int thread_potrf(int n, T (&a)[NMAX * NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      const T d = a[k + k * NMAX];
      if (!(d > T(0))) return k + 1;
      const T s = sqrt_(d), r = T(1) / s;
      a[k + k * NMAX] = s;
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        a[i + k * NMAX] *= r;
#pragma unroll
      for (int j = k + 1; j < NMAX; ++j) {
        const T l = a[j + k * NMAX];
#pragma unroll
        for (int i = j; i < NMAX; ++i)
          a[i + j * NMAX] -= a[i + k * NMAX] * l;
      }
    }
  }
  return 0;
}

/* Solve A x = b with thread_potrf's factor; b becomes x. */
template <int NMAX, typename T>
__device__ __forceinline__ void thread_potrs(int n, const T (&a)[NMAX * NMAX],
                                             T (&b)[NMAX]) {
#pragma unroll
  for (int k = 0; k < NMAX; ++k) {
    if (k < n) {
      b[k] /= a[k + k * NMAX];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        b[i] -= a[i + k * NMAX] * b[k];
    }
  }
#pragma unroll
  for (int k = NMAX - 1; k >= 0; --k) {
    if (k < n) {
      T s = b[k];
#pragma unroll
      for (int i = k + 1; i < NMAX; ++i)
        if (i < n) s -= a[i + k * NMAX] * b[i];
      b[k] = s / a[k + k * NMAX];
    }
  }
}

} // namespace axb_dev

#endif
