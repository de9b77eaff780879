/*
 * Part of axb_device.cuh (include that header, not this one).
 * Helpers every part uses: |x| and sqrt for both precisions.
 */
#ifndef AXB_DEVICE_COMMON_CUH
#define AXB_DEVICE_COMMON_CUH

#include <stdint.h>

namespace axb_dev {

template <typename T> __device__ __forceinline__ T absval(T x) {
  return x < T(0) ? -x : x;
}
__device__ __forceinline__ double sqrt_(double x) { return sqrt(x); }
__device__ __forceinline__ float sqrt_(float x) { return sqrtf(x); }

} // namespace axb_dev

#endif
