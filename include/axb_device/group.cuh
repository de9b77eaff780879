/*
 * Part of axb_device.cuh (include that header, not this one).
 * Groups: how the G lanes of one matrix talk (Warp, WarpShared, Block),
 * the pivot keys of the warp groups, the pivot search and the pivot records
 * the LU, the solves and the inverse share.
 */
#ifndef AXB_DEVICE_GROUP_CUH
#define AXB_DEVICE_GROUP_CUH

#include "common.cuh"

namespace axb_dev {

/* ======================================================================== */
/* Groups: how the lanes of one matrix talk                                 */
/* ======================================================================== */

/*
 * A group of G lanes works on one matrix of order n <= NMAX.  Each lane
 * holds R = NMAX / G rows in registers (R = 1 when G >= NMAX): r[q] is row
 * lane + G q.  Fewer lanes per matrix (R > 1) means more matrices per warp
 * and R rows of independent work per lane between two exchanges, each of
 * which is a latency the whole group waits for.  A row is named by its id,
 * lane * R + q.  What a group provides (Warp, WarpShared, Block):
 *   keyed == true (Warp, WarpShared): max_key(key), first_lane(pred)
 *                                   the group's largest pivot key, the
 *                                   first lane where pred holds
 *   keyed == false (Block): argmax(v, pos, id, wpos)
 *                                   id of the best (v, pos) of the group;
 *                                   v and wpos become the best's
 *   row_begin(r, sq, src, j0); row_get(r, sq, j, src) ...; row_end()
 *                                   entries j >= j0 of row r[sq] of lane src
 *   row_get_dyn(r, sq, idx, src)    entry idx of that row (idx per lane)
 *   col_begin(x); col_get(x, j); col_end()
 *                                   x[q] of lane l is entry l + G q of a
 *                                   column; col_get returns entry j
 *   positions(pos); at(pos, k)      id of the row whose position is k
 *   shfl(x, src), barrier()
 */
template <int NMAX, int G> struct RowsPer {
  static_assert(NMAX <= G || NMAX % G == 0, "G must divide NMAX");
  static constexpr int value = NMAX <= G ? 1 : NMAX / G;
};

/* Better candidate: larger magnitude; on ties the smaller position (LAPACK
   takes the first). */
template <typename T>
__device__ __forceinline__ bool better(T v, int p, T bv, int bp) {
  return v > bv || (v == bv && p < bp);
}

/* Bits that hold a position or a row id, 0 .. NMAX - 1, in a pivot key. */
template <int NMAX> struct KeyBits {
  static constexpr int value =
      NMAX <= 2 ? 1 : 1 + KeyBits<(NMAX + 1) / 2>::value;
};

/* The top 31 bits of a magnitude (double: sign-free high word, 11 exponent
   and 20 mantissa bits; float: all its bits but the sign); a NaN gives 0. */
__device__ __forceinline__ unsigned magnitude_word(double x) {
  const unsigned hi =
      (unsigned)((unsigned long long)__double_as_longlong(x) >> 32);
  return x != x ? 0u : hi & 0x7fffffffu;
}
__device__ __forceinline__ unsigned magnitude_word(float x) {
  const unsigned b = __float_as_uint(x) & 0x7fffffffu;
  return b > 0x7f800000u ? 0u : b;
}

/* Pivot key of a candidate row of a warp group, 32 bits: the magnitude's
   top bits above, then (2^P - 1) - its position and its id (P =
   KeyBits<NMAX> bits each) below, so that one unsigned maximum picks the
   largest magnitude and, among equal ones, the first position (LAPACK's
   rule), and names the winner: one shuffle and one maximum a round.  The
   magnitude keeps its exponent and 24 - 2P (float) or 21 - 2P (double)
   mantissa bits: double 15 at NMAX <= 8, 13 at <= 16, 11 at <= 32; float
   18, 16, 14.  Candidates that agree in those bits count as tied and the
   first of them wins: threshold partial pivoting with |l| <= 1 + 2^-11 at
   worst (double, NMAX <= 32), whose stability is that of partial
   pivoting.  A NaN counts as 0; a row that may not pivot has key 0, below
   every candidate's. */
template <int NMAX>
__device__ __forceinline__ unsigned pivot_key(unsigned mag, int pos, int id) {
  constexpr int P = KeyBits<NMAX>::value;
  static_assert(2 * P <= 14, "NMAX <= 128");
  /* unsigned: a row that is no candidate may have pos >= 2^P (its key is
     dropped), and a negative int must not be shifted */
  return (mag >> (2 * P - 1)) << (2 * P) | (unsigned)((1 << P) - 1 - pos) << P |
         (unsigned)id;
}
/* The position and id a key carries, and whether its magnitude reads 0
   (double: below 2^(-1022 - (21 - 2P)); a pivot that small has a
   reciprocal that overflows). */
template <int NMAX> __device__ __forceinline__ int key_position(unsigned key) {
  constexpr int P = KeyBits<NMAX>::value;
  return (1 << P) - 1 - (int)((key >> P) & ((1u << P) - 1u));
}
template <int NMAX> __device__ __forceinline__ int key_id(unsigned key) {
  return (int)(key & ((1u << KeyBits<NMAX>::value) - 1u));
}
template <int NMAX> __device__ __forceinline__ bool key_zero(unsigned key) {
  return (key >> (2 * KeyBits<NMAX>::value)) == 0u;
}

/* G consecutive lanes of a warp (G a power of two <= 32), by shuffles.
   FULL = true: the caller guarantees that all 32 lanes of the warp run the
   group functions together, every group of the warp in step (same n, same
   calls; see group_inverse's active argument for a batch's last matrices),
   and the collectives then name the whole warp (mask 0xffffffff), which
   spares the compiler's convergence test before each of them (sixth
   round, docs/PERFORMANCE.md: ~10 % of a Gauss-Jordan step). */
template <int G, bool FULL = false> struct Warp {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: 1..32, 2^k");
  static constexpr int size = G;
  static constexpr bool keyed = true; /* pivot search by max_key */
  static constexpr bool full = FULL;  /* in step with the whole warp */
  unsigned mask;                      /* lanes of the collectives */
  unsigned bits;                      /* lanes of the group */
  int lane;
  __device__ Warp() {
    const int l = (int)(threadIdx.x & 31);
    lane = l & (G - 1);
    bits = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (l & ~(G - 1));
    mask = FULL ? 0xffffffffu : bits;
  }
  template <typename T> __device__ __forceinline__ T shfl(T v, int src) const {
    return __shfl_sync(mask, v, src, G);
  }
  /* The largest key of the group.  In step on sm_80 and later, for G >= 16:
     one warp-wide REDUX per group of the warp, the other groups' lanes
     giving 0 (below every key), one hop instead of log2(G) shuffle rounds
     on each elimination step's serial chain (eighth round,
     docs/PERFORMANCE.md: H200, double, the solve 4.85 -> 5.10x cuBLAS at
     n = 16, 4.20 -> 4.88x at 24; at G = 8 four reductions instead of three
     rounds measured slower). */
  __device__ __forceinline__ unsigned max_key(unsigned key) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (FULL && G >= 16) {
      const int me = (int)(threadIdx.x & 31) / G;
      unsigned out = 0u;
#pragma unroll
      for (int h = 0; h < 32 / G; ++h) {
        const unsigned m = __reduce_max_sync(0xffffffffu, me == h ? key : 0u);
        if (me == h) out = m;
      }
      return out;
    } else
#endif
      return max_key_shfl(key);
  }
  __device__ __forceinline__ unsigned max_key_shfl(unsigned key) const {
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {
      const unsigned ok = __shfl_xor_sync(mask, key, o, G);
      key = ok > key ? ok : key;
    }
    return key;
  }
  /* The first lane of the group where pred holds (it must hold on one). */
  __device__ __forceinline__ int first_lane(bool pred) const {
    const unsigned b = __ballot_sync(mask, pred) & bits;
    return __ffs(b) - 1 - (int)((threadIdx.x & 31) & ~(unsigned)(G - 1));
  }
  /* r[sq][j] on lane src (the other lanes' sq are ignored). */
  template <typename T, int R, int M>
  __device__ __forceinline__ void row_begin(const T (&)[R][M], int, int,
                                            int = 0) {}
  template <typename T, int R, int M>
  __device__ __forceinline__ T row_get(const T (&r)[R][M], int sq, int j,
                                       int src) const {
    T x = r[0][j];
#pragma unroll
    for (int q = 1; q < R; ++q)
      if (sq == q) x = r[q][j];
    return shfl(x, src);
  }
  template <typename T, int R, int M>
  __device__ __forceinline__ T row_get_dyn(const T (&r)[R][M], int sq, int idx,
                                           int src) const {
    T out = T(0);
#pragma unroll
    for (int j = 0; j < M; ++j) {
      const T v = row_get(r, sq, j, src);
      if (j == idx) out = v;
    }
    return out;
  }
  __device__ __forceinline__ void row_end() {}
  template <typename T, int R>
  __device__ __forceinline__ void col_begin(const T (&)[R]) {}
  template <typename T, int R>
  __device__ __forceinline__ T col_get(const T (&x)[R], int j) const {
    return shfl(x[j / G], j % G);
  }
  __device__ __forceinline__ void col_end() {}
  /* Memory barrier of the group (reads before writes). */
  __device__ __forceinline__ void barrier() const { __syncwarp(mask); }
  template <int R>
  __device__ __forceinline__ void positions(const int (&)[R]) {}
  template <int R>
  __device__ __forceinline__ int at(const int (&pos)[R], int k) const {
    bool hit = false;
    int myq = 0;
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (pos[q] == k) {
        hit = true;
        myq = q;
      }
    const int wl = first_lane(hit);
    return R == 1 ? wl : wl * R + __shfl_sync(mask, myq, wl, G);
  }
};

/* G lanes of a warp like Warp<G>, but rows and columns are broadcast
   through a small shared-memory slot of the group (fewer instructions than
   shuffles, two per double): ws points to WarpShared::kWords entries of T
   in __shared__ memory (not global or local: the address is kept as a
   shared-window offset), one slot per group, 16-byte aligned. */
template <int G, typename T, int NMAX, bool FULL = false>
struct WarpShared : Warp<G, FULL> {
  /* a row with a carried right-hand side (NMAX + 1), or a chunk of up to
     8 right-hand sides */
  static constexpr int kRow = NMAX + 8;
  /* a multiple of 4, so that consecutive slots stay 16-byte aligned at odd
     NMAX too */
  static constexpr int kWords = (kRow + NMAX + 3) / 4 * 4;
  T *s;
  __device__ explicit WarpShared(T *ws) : Warp<G, FULL>(), s(pinned(ws)) {}
  /* ws, held in a register as a shared-memory address: without the empty
     asm, ptxas may recompute the slot's address from the block's shared
     window (S2R, LEA) before each broadcast when registers are short
     (seventh round: ~8 instructions a step and an S2R latency, inverse at
     NMAX = 16). */
  static __device__ __forceinline__ T *pinned(T *ws) {
#ifdef __CUDA_ARCH__
    unsigned a = (unsigned)__cvta_generic_to_shared(ws);
    asm volatile("" : "+r"(a));
    return (T *)__cvta_shared_to_generic(a);
#else
    return ws; /* host emulation (tests/device_emu) */
#endif
  }
  template <int R, int M>
  __device__ __forceinline__ void row_begin(const T (&r)[R][M], int sq, int src,
                                            int j0 = 0) {
    static_assert(M <= kRow, "row longer than the slot");
    if (this->lane == src) {
#pragma unroll
      for (int q = 0; q < R; ++q)
        if (q == sq) {
#pragma unroll
          for (int j = 0; j < M; ++j)
            if (j >= j0) s[j] = r[q][j];
        }
    }
    __syncwarp(this->mask);
  }
  template <int R, int M>
  __device__ __forceinline__ T row_get(const T (&)[R][M], int, int j,
                                       int) const {
    return s[j];
  }
  template <int R, int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[R][M], int, int idx,
                                           int) const {
    return s[idx];
  }
  __device__ __forceinline__ void row_end() { __syncwarp(this->mask); }
  template <int R> __device__ __forceinline__ void col_begin(const T (&x)[R]) {
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (this->lane + G * q < NMAX) s[kRow + this->lane + G * q] = x[q];
    __syncwarp(this->mask);
  }
  template <int R>
  __device__ __forceinline__ T col_get(const T (&)[R], int j) const {
    return s[kRow + j];
  }
  __device__ __forceinline__ void col_end() { __syncwarp(this->mask); }
};

/* Shared-memory workspace of Block<NW> (declare it __shared__). */
template <typename T, int NMAX> struct BlockWork {
  T row[NMAX + 8]; /* a row and a carried right-hand side */
  T col[NMAX];
  T rv[32];
  int rp[32], rl[32];
  int wl[NMAX];
};

/* The whole thread block (blockDim.x == 32 * NW), through shared memory;
   one row per lane (NMAX <= 32 * NW). */
template <int NW, typename T, int NMAX> struct Block {
  static constexpr int size = 32 * NW;
  static constexpr bool keyed = false; /* pivot search by argmax */
  static constexpr bool full = false;
  static_assert(NMAX <= size, "Block: one row per lane");
  BlockWork<T, NMAX> *w;
  int lane;
  __device__ explicit Block(BlockWork<T, NMAX> *work)
      : w(work), lane((int)threadIdx.x) {}
  __device__ __forceinline__ T shfl(T v, int src) const {
    __syncthreads();
    if (lane == src) w->rv[0] = v;
    __syncthreads();
    return w->rv[0];
  }
  __device__ __forceinline__ int argmax(T &v, int pos, int id,
                                        int &wpos) const {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const T ov = __shfl_xor_sync(0xffffffffu, v, o);
      const int op = __shfl_xor_sync(0xffffffffu, pos, o);
      const int oi = __shfl_xor_sync(0xffffffffu, id, o);
      if (better(ov, op, v, pos)) {
        v = ov;
        pos = op;
        id = oi;
      }
    }
    __syncthreads();
    if ((lane & 31) == 0) {
      w->rv[lane >> 5] = v;
      w->rp[lane >> 5] = pos;
      w->rl[lane >> 5] = id;
    }
    __syncthreads();
    v = w->rv[0];
    pos = w->rp[0];
    id = w->rl[0];
#pragma unroll
    for (int q = 1; q < NW; ++q) {
      if (better(w->rv[q], w->rp[q], v, pos)) {
        v = w->rv[q];
        pos = w->rp[q];
        id = w->rl[q];
      }
    }
    wpos = pos;
    return id;
  }
  template <int M>
  __device__ __forceinline__ void row_begin(const T (&r)[1][M], int, int src,
                                            int j0 = 0) {
    static_assert(M <= NMAX + 8, "row longer than the workspace");
    if (lane == src) {
#pragma unroll
      for (int j = 0; j < M; ++j)
        if (j >= j0) w->row[j] = r[0][j];
    }
    __syncthreads();
  }
  template <int M>
  __device__ __forceinline__ T row_get(const T (&)[1][M], int, int j,
                                       int) const {
    return w->row[j];
  }
  template <int M>
  __device__ __forceinline__ T row_get_dyn(const T (&)[1][M], int, int idx,
                                           int) const {
    return w->row[idx];
  }
  __device__ __forceinline__ void row_end() { __syncthreads(); }
  __device__ __forceinline__ void col_begin(const T (&x)[1]) {
    if (lane < NMAX) w->col[lane] = x[0];
    __syncthreads();
  }
  __device__ __forceinline__ T col_get(const T (&)[1], int j) const {
    return w->col[j];
  }
  __device__ __forceinline__ void col_end() { __syncthreads(); }
  __device__ __forceinline__ void barrier() const { __syncthreads(); }
  __device__ __forceinline__ void positions(const int (&pos)[1]) {
    __syncthreads();
    if (pos[0] < NMAX) w->wl[pos[0]] = lane;
    __syncthreads();
  }
  __device__ __forceinline__ int at(const int (&)[1], int k) const {
    return w->wl[k];
  }
};

/* ======================================================================== */
/* Cooperative kernels on rows in registers                                 */
/* ======================================================================== */

/*
 * State of a factored matrix in a group: row q of a lane (row i = lane +
 * G q at the start) sits at position pos[q]; g.at(pos, k) is the id of the
 * row at position k.  Row interchanges move no data: two rows exchange
 * their positions.  Rows >= n hold zeros and never move.
 */

/* Positions after the interchange of step k: the row at position k takes
   the pivot's position wpos, the pivot row (id wid) takes k. */
template <int R>
__device__ __forceinline__ void swap_positions(int (&pos)[R], int lane, int k,
                                               int wid, int wpos) {
#pragma unroll
  for (int q = 0; q < R; ++q) {
    if (pos[q] == k) pos[q] = wpos;
    if (lane * R + q == wid) pos[q] = k;
  }
}

/* Partial pivoting in column k: the best of the lane's rows that are below
   n and at position >= k, then of the group (warp groups: by pivot_key,
   one maximum; Block: by argmax).  Returns the winner's id; wpos is its
   position, and wzero tells that its magnitude is 0 (a NaN counts as 0:
   it never wins, and a column of NaNs and zeros is singular). */
template <int NMAX, int R, typename Grp, typename T, int W>
__device__ __forceinline__ int pivot_search(Grp &g, int n, const T (&r)[R][W],
                                            const int (&pos)[R], int k,
                                            int &wpos, bool &wzero) {
  if constexpr (Grp::keyed) {
    unsigned best = 0u;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      const unsigned key =
          pivot_key<NMAX>(magnitude_word(r[q][k]), pos[q], g.lane * R + q);
      const bool cand = g.lane + Grp::size * q < n && pos[q] >= k;
      if (cand && key > best) best = key;
    }
    /* k < n leaves a candidate; its key may be 0 (magnitude 0, the last
       position, id 0), and then it is still the one that 0 decodes to */
    const unsigned wkey = g.max_key(best);
    wpos = key_position<NMAX>(wkey);
    wzero = key_zero<NMAX>(wkey);
    return key_id<NMAX>(wkey);
  } else {
    T bv = T(-1);
    int bp = 0x7fffffff, bid = g.lane * R;
#pragma unroll
    for (int q = 0; q < R; ++q) {
      T v = absval(r[q][k]);
      if (!(v >= T(0))) v = T(0); /* NaN never wins */
      if (!(g.lane + Grp::size * q < n && pos[q] >= k)) v = T(-1);
      if (better(v, pos[q], bv, bp)) {
        bv = v;
        bp = pos[q];
        bid = g.lane * R + q;
      }
    }
    const int wid = g.argmax(bv, bp, bid, wpos);
    wzero = !(bv > T(0));
    return wid;
  }
}

/* The id of each elimination step's pivot row (the row that ends at
   position k; the same on every lane of the group), a byte per step: w[k /
   4] byte k % 4.  Indexed only by unrolled constants, so it stays in
   registers. */
template <int NMAX> struct PivotIds {
  static_assert(NMAX <= 256, "ids in one byte");
  unsigned w[(NMAX + 3) / 4];
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int i = 0; i < (NMAX + 3) / 4; ++i)
      w[i] = 0u;
  }
  __device__ __forceinline__ void set(int k, int id) {
    w[k / 4] |= (unsigned)id << (8 * (k % 4));
  }
  __device__ __forceinline__ int get(int k) const {
    return (int)((w[k / 4] >> (8 * (k % 4))) & 255u);
  }
};

/* What a solve with a carried right-hand side keeps of each elimination
   step: the pivot rows' ids (so that the back substitution needs no search
   for them) and rinv[q] = 1 / the pivot of the lane's row q (no division on
   the back substitution's serial chain). */
template <int NMAX, int R, typename T> struct PivotRecord {
  PivotIds<NMAX> id;
  T rinv[R];
};

} // namespace axb_dev

#endif
