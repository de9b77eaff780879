/*
 * Host-side copies of the CUDA backend's pinned staging (C, OpenMP): the
 * columns of a host array packed into / unpacked from a staging chunk by
 * several threads, so that the host copy keeps up with the DMA engine
 * (one core moves ~10 GB/s, PCIe 5 about 50).
 */
#ifndef AXB_STAGE_PACK_H
#define AXB_STAGE_PACK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ncols columns of col_bytes each: column j from src + j * src_ld to
   dst + j * dst_ld (byte strides), with up to `threads` threads. */
void axb__stage_copy_cols(void *dst, size_t dst_ld, const void *src,
                          size_t src_ld, size_t col_bytes, size_t ncols,
                          int threads);

/* Threads worth using for one staging copy: the handle's thread count
   (0: OpenMP's), capped at 8 (a few cores saturate a socket's memory
   bandwidth). */
int axb__stage_threads(int handle_threads);

#ifdef __cplusplus
}
#endif

#endif
