/*
 * Host emulation of the CUDA built-ins that include/axb_device.cuh and
 * src/backend/cuda/batched_thread.cuh use, so that their logic runs and is
 * checked on a machine without a GPU (run.sh).  One OS thread stands for one
 * CUDA thread; every collective (shuffle, ballot, __syncwarp,
 * __syncthreads) waits on a barrier of its scope: the `width` lanes of a
 * shuffle segment, the lanes of a __syncwarp mask, the whole block.  Shared
 * memory is a function-static array (one block at a time).  Timing, the
 * memory model and compiler behaviour are not emulated: this checks the
 * algorithms (pivoting, positions, rows per lane, tiles), not the device.
 */
#ifndef AXB_CUDA_EMU_H
#define AXB_CUDA_EMU_H

#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(x)

struct EmuDim {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local EmuDim threadIdx;
inline EmuDim blockDim, blockIdx, gridDim{1, 1, 1};

struct EmuBarrier {
  std::mutex m;
  std::condition_variable cv;
  int n = 0, count = 0;
  long gen = 0;
  void wait() {
    std::unique_lock<std::mutex> l(m);
    const long g = gen;
    if (++count == n) {
      count = 0;
      ++gen;
      cv.notify_all();
    } else {
      cv.wait(l, [&] { return gen != g; });
    }
  }
};

/* Barriers of the segments of width 2^w (w = 0..5) and of the block. */
inline EmuBarrier emu_seg[6][64];
inline EmuBarrier emu_block;
inline unsigned char emu_x[128][8];
inline int emu_p[128];

inline void emu_init(int threads) {
  blockDim.x = (unsigned)threads;
  for (int w = 0; w < 6; ++w)
    for (int s = 0; s < 64; ++s) {
      emu_seg[w][s].n = 1 << w;
      emu_seg[w][s].count = 0;
    }
  emu_block.n = threads;
  emu_block.count = 0;
}
inline void emu_bar(int width) {
  int l = 0;
  while ((1 << l) < width)
    ++l;
  emu_seg[l][threadIdx.x / width].wait();
}

/* A shuffle waits on every lane its mask names (the whole warp for
   0xffffffff, as the hardware requires), not only on its width's segment:
   a group that skips a collective its warp runs then hangs the emulator
   instead of passing unnoticed. */
inline int emu_span(unsigned mask, int width) {
  const int m = __builtin_popcount(mask);
  return m > width ? m : width;
}
/* Every lane publishes v, then reads the value of lane src (0..width-1)
   of its own width-wide segment. */
template <typename T> T emu_shfl(unsigned mask, T v, int src, int width) {
  const int t = (int)threadIdx.x, base = t & ~(width - 1);
  std::memcpy(emu_x[t], &v, sizeof(T));
  emu_bar(emu_span(mask, width));
  T out;
  std::memcpy(&out, emu_x[base + (src & (width - 1))], sizeof(T));
  emu_bar(emu_span(mask, width));
  return out;
}
template <typename T>
T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  return emu_shfl(mask, v, src, width);
}
template <typename T>
T __shfl_xor_sync(unsigned mask, T v, int o, int width = 32) {
  const int lane = (int)threadIdx.x & (width - 1);
  return emu_shfl(mask, v, lane ^ o, width);
}
inline unsigned __ballot_sync(unsigned mask, int pred) {
  const int t = (int)threadIdx.x, width = __builtin_popcount(mask);
  const int base = t & ~(width - 1), warp0 = t & ~31;
  emu_p[t] = pred != 0;
  emu_bar(width);
  unsigned b = 0;
  for (int l = base; l < base + width; ++l)
    if (emu_p[l]) b |= 1u << (l - warp0);
  emu_bar(width);
  return b;
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  emu_bar(__builtin_popcount(mask));
}
inline void __syncthreads() { emu_block.wait(); }
inline int __ffs(unsigned x) { return x ? __builtin_ctz(x) + 1 : 0; }
/* bit casts of the pivot keys */
inline long long __double_as_longlong(double x) {
  long long b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double __longlong_as_double(long long b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline unsigned __float_as_uint(float x) {
  unsigned b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline float __uint_as_float(unsigned b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
using std::sqrt;
inline float sqrtf(float x) { return std::sqrt(x); }

#endif
