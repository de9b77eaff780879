/*
 * Host <-> device copies of the CUDA backend's host-array entries.
 *
 * Pageable memory cannot be read by the DMA engine: cudaMemcpy from it
 * copies through the driver's own small pinned buffers, one at a time
 * (~10 GB/s measured on the H200 host).  Here each handle owns two pinned
 * halves of up to stage_chunk bytes (default 16 MiB), allocated at the
 * first copy that needs them, grown on demand, freed with the handle.  A
 * host block (column-major, any ld) is cut into pieces of whole columns (or,
 * for a column longer than a chunk, column segments), and the pieces go
 * through the halves alternately:
 *
 *   upload    pack piece k into half k%2 (threads), DMA it;  packing piece
 *             k+1 runs while piece k's DMA does (the half is reused only
 *             after the event of piece k-1 says its DMA is over);
 *   download  DMAs of pieces k and k+1 queued; unpack piece k when its
 *             event fires, then queue piece k+2 into the freed half.
 *
 * The reported transfer time is the host's wall clock over the whole
 * pipeline (host copies included), started once the stream has finished
 * the work queued before the copy, so it excludes computation.
 *
 * AXB_CUDA_STAGING=0 copies pageable memory directly (the old path),
 * =2 registers the caller's array (cudaHostRegister) for the copy and
 * unregisters it afterwards (measured against staging: docs/PERFORMANCE.md);
 * AXB_CUDA_STAGE_CHUNK=bytes sets the chunk (tests force small ones).
 */
#include "cuda_internal.h"
#include "stage_pack.h"

#include <chrono>
#include <stdlib.h>

namespace axb_cuda {

namespace {

constexpr size_t kDefaultChunk = (size_t)16 << 20;
/* Smaller copies go straight from pageable memory: the driver's own
   staging is as fast there, and no pinned memory is needed. */
constexpr size_t kDirectBelow = (size_t)256 << 10;

size_t env_size(const char *name, size_t dflt) {
  const char *e = getenv(name);
  if (!e || !*e) return dflt;
  char *end = nullptr;
  unsigned long long v = strtoull(e, &end, 10);
  return end && *end == '\0' && v > 0 ? (size_t)v : dflt;
}

double now_s() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/* One piece of the block: column segment [r0, r0 + rb) bytes of columns
   [c0, c0 + nc). */
struct Piece {
  size_t r0, rb, c0, nc;
};

/* How a rows x cols block is cut into pieces of at most chunk bytes. */
struct Cut {
  size_t row_bytes, cols, chunk;
  size_t segs;  /* column segments per column (1: whole columns) */
  size_t per;   /* whole columns per piece (segs == 1) */
  size_t count; /* pieces */
  Cut(size_t rb, size_t c, size_t ch) : row_bytes(rb), cols(c), chunk(ch) {
    if (rb <= ch) {
      segs = 1;
      per = ch / rb;
      count = (c + per - 1) / per;
    } else {
      segs = (rb + ch - 1) / ch;
      per = 1;
      count = c * segs;
    }
  }
  Piece at(size_t q) const {
    Piece p;
    if (segs == 1) {
      p.r0 = 0;
      p.rb = row_bytes;
      p.c0 = q * per;
      p.nc = cols - p.c0 < per ? cols - p.c0 : per;
    } else {
      const size_t s = q % segs;
      p.r0 = s * chunk;
      p.rb = row_bytes - p.r0 < chunk ? row_bytes - p.r0 : chunk;
      p.c0 = q / segs;
      p.nc = 1;
    }
    return p;
  }
};

/* Both halves hold at least `half` bytes (a larger pinned allocation
   replaces the old one; the old one is idle: every copy waits for its
   DMAs).  Fails (no pinned memory) without changing the old halves. */
cudaError_t ensure_halves(Context *c, size_t half) {
  if (c->stage_buf && c->stage_half >= half) return cudaSuccess;
  /* grow geometrically so that growing sizes do not reallocate each time */
  size_t want = c->stage_half * 2 > half ? c->stage_half * 2 : half;
  if (want > c->stage_chunk) want = c->stage_chunk;
  if (want < half) want = half;
  void *p = nullptr;
  cudaError_t e = cudaHostAlloc(&p, 2 * want, cudaHostAllocDefault);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return e;
  }
  if (c->stage_buf) cudaFreeHost(c->stage_buf);
  c->stage_buf = p;
  c->stage_half = want;
  return cudaSuccess;
}

char *half_at(Context *c, size_t i) {
  return (char *)c->stage_buf + i * c->stage_half;
}

/* The DMA of one piece between half b and the device block. */
cudaError_t piece_dma(Context *c, cudaStream_t s, const Piece &p, size_t b,
                      char *dev, size_t ldd, cudaMemcpyKind kind) {
  char *d = dev + p.c0 * ldd + p.r0;
  char *hb = half_at(c, b);
  cudaError_t e =
      kind == cudaMemcpyHostToDevice
          ? cudaMemcpy2DAsync(d, ldd, hb, p.rb, p.rb, p.nc, kind, s)
          : cudaMemcpy2DAsync(hb, p.rb, d, ldd, p.rb, p.nc, kind, s);
  return e == cudaSuccess ? cudaEventRecord(c->stage_ev[b], s) : e;
}

cudaError_t staged_upload(Context *c, cudaStream_t s, char *dev, size_t ldd,
                          const char *host, size_t lds, const Cut &cut,
                          int threads) {
  for (size_t q = 0; q < cut.count; ++q) {
    const size_t b = q & 1;
    const Piece p = cut.at(q);
    if (q >= 2) { /* half b last held piece q - 2 */
      cudaError_t e = cudaEventSynchronize(c->stage_ev[b]);
      if (e != cudaSuccess) return e;
    }
    axb__stage_copy_cols(half_at(c, b), p.rb, host + p.c0 * lds + p.r0, lds,
                         p.rb, p.nc, threads);
    cudaError_t e = piece_dma(c, s, p, b, dev, ldd, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) return e;
  }
  return cudaStreamSynchronize(s);
}

cudaError_t staged_download(Context *c, cudaStream_t s, char *host, size_t ldh,
                            const char *dev, size_t ldd, const Cut &cut,
                            int threads) {
  for (size_t q = 0; q < cut.count && q < 2; ++q) {
    cudaError_t e =
        piece_dma(c, s, cut.at(q), q, (char *)dev, ldd, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return e;
  }
  for (size_t q = 0; q < cut.count; ++q) {
    const size_t b = q & 1;
    const Piece p = cut.at(q);
    cudaError_t e = cudaEventSynchronize(c->stage_ev[b]);
    if (e != cudaSuccess) return e;
    axb__stage_copy_cols(host + p.c0 * ldh + p.r0, ldh, half_at(c, b), p.rb,
                         p.rb, p.nc, threads);
    if (q + 2 < cut.count) {
      e = piece_dma(c, s, cut.at(q + 2), b, (char *)dev, ldd,
                    cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) return e;
    }
  }
  return cudaSuccess;
}

/* The caller's array pinned for the copy (mode 2): register the pages the
   block spans, one 2-D DMA, unregister.  cudaErrorHostMemoryAlreadyRegistered
   and friends: the caller falls back to staging. */
cudaError_t registered_copy(cudaStream_t s, void *dst, size_t ldd,
                            const void *src, size_t lds, size_t row_bytes,
                            size_t cols, cudaMemcpyKind kind) {
  const bool up = kind == cudaMemcpyHostToDevice;
  void *host = up ? (void *)src : dst;
  const size_t ldh = up ? lds : ldd;
  const size_t span = (cols - 1) * ldh + row_bytes;
  cudaError_t e = cudaHostRegister(host, span, cudaHostRegisterDefault);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return e;
  }
  e = cudaMemcpy2DAsync(dst, ldd, src, lds, row_bytes, cols, kind, s);
  cudaError_t e2 = cudaStreamSynchronize(s);
  cudaHostUnregister(host);
  if (e != cudaSuccess || e2 != cudaSuccess)
    cudaGetLastError(); /* the caller falls back to staging: no stale error */
  return e != cudaSuccess ? e : e2;
}

} // namespace

cudaError_t staging_init(Context *c) {
  const char *m = getenv("AXB_CUDA_STAGING");
  c->stage_mode = m && *m ? atoi(m) : 1;
  if (c->stage_mode < 0 || c->stage_mode > 2) c->stage_mode = 1;
  c->stage_chunk = env_size("AXB_CUDA_STAGE_CHUNK", kDefaultChunk);
  cudaError_t e =
      cudaEventCreateWithFlags(&c->stage_ev[0], cudaEventDisableTiming);
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags(&c->stage_ev[1], cudaEventDisableTiming);
  return e;
}

void staging_release(Context *c) {
  for (int i = 0; i < 2; ++i)
    if (c->stage_ev[i]) cudaEventDestroy(c->stage_ev[i]);
  if (c->stage_buf) cudaFreeHost(c->stage_buf);
  c->stage_buf = nullptr;
  c->stage_half = 0;
}

/* The direct (pageable) copy, timed by events around it as before staging
   existed: small copies (the estimate's vectors) pay no extra drain. */
static axb_status direct_copy(axb_handle h, Context *ctx, void *dst, size_t ldd,
                              const void *src, size_t lds, size_t row_bytes,
                              size_t cols, cudaMemcpyKind kind, bool timed) {
  cudaStream_t s = stream(h);
  AXB_CU(h, cudaEventRecord(ctx->t0, s));
  AXB_CU(h, cudaMemcpy2DAsync(dst, ldd, src, lds, row_bytes, cols, kind, s));
  AXB_CU(h, cudaEventRecord(ctx->t1, s));
  AXB_CU(h, cudaEventSynchronize(ctx->t1));
  float ms = 0;
  if (timed && cudaEventElapsedTime(&ms, ctx->t0, ctx->t1) == cudaSuccess)
    ctx->transfer_s += ms * 1e-3;
  return AXB_SUCCESS;
}

axb_status copy_2d_bytes(axb_handle h, Context *ctx, void *dst, size_t ldd,
                         const void *src, size_t lds, size_t row_bytes,
                         size_t cols, cudaMemcpyKind kind) {
  if (row_bytes == 0 || cols == 0) return AXB_SUCCESS;
  const bool host_side =
      kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost;
  const size_t direct_below =
      kDirectBelow < ctx->stage_chunk ? kDirectBelow : ctx->stage_chunk;
  int mode =
      host_side && row_bytes * cols >= direct_below ? ctx->stage_mode : 0;
  if (mode == 0)
    return direct_copy(h, ctx, dst, ldd, src, lds, row_bytes, cols, kind,
                       host_side);
  cudaStream_t s = stream(h);
  /* Drain the stream first: the clock starts with the copy itself. */
  AXB_CU(h, cudaEventRecord(ctx->t0, s));
  AXB_CU(h, cudaEventSynchronize(ctx->t0));
  const double t0 = now_s();
  cudaError_t e = cudaSuccess;
  if (mode == 2) {
    e = registered_copy(s, dst, ldd, src, lds, row_bytes, cols, kind);
    if (e != cudaSuccess) mode = 1; /* not registrable: stage it */
  }
  if (mode == 1) {
    const Cut cut(row_bytes, cols, ctx->stage_chunk);
    const size_t biggest = cut.segs == 1
                               ? row_bytes * (cut.per < cols ? cut.per : cols)
                               : ctx->stage_chunk;
    e = ensure_halves(ctx, biggest);
    if (e != cudaSuccess) /* no pinned memory: the pageable path works */
      return direct_copy(h, ctx, dst, ldd, src, lds, row_bytes, cols, kind,
                         true);
    const int threads = axb__stage_threads(h->threads);
    e = kind == cudaMemcpyHostToDevice
            ? staged_upload(ctx, s, (char *)dst, ldd, (const char *)src, lds,
                            cut, threads)
            : staged_download(ctx, s, (char *)dst, ldd, (const char *)src, lds,
                              cut, threads);
  }
  if (e != cudaSuccess) {
    /* no DMA may still target a staging half or the caller's array */
    cudaStreamSynchronize(s);
    return fail_cuda(h, e, "host <-> device copy");
  }
  ctx->transfer_s += now_s() - t0;
  return AXB_SUCCESS;
}

} // namespace axb_cuda
