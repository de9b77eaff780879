/*
 * GPU ranks of the distributed layer (issue 24g): the choice of the table
 * of rank-local operations, the local arrays' memory and, when built with
 * CUDA (AXB_DIST_GPU), the device table itself (dist_gpu_t.h).
 *
 * Design (docs/notes/dist.md, "GPU ranks"): on a CUDA handle a rank's local
 * array is CUDA managed memory on the handle's device.  The algorithms run
 * unchanged through the device table: GEMM and TRSM by cuBLAS, row
 * interchanges by cuBLAS swaps, row packing by cuBLAS strided copies into a
 * device buffer and one copy to the host message buffer.  Managed memory
 * keeps every host path of the layer valid (generators, reading, the NaN
 * scan, norms, the backward error, the pivot row reads of the LU panel):
 * they touch the array from the host and the driver migrates its pages.
 * Host operands (message buffers) of a cuBLAS call are staged through
 * device scratch buffers; an operation whose operands are all host memory
 * (a wrapped caller array) runs the CPU table on a private CPU handle, and
 * an operation that cannot get its staging memory falls back to the CPU
 * code on the managed array, so a GPU rank computes what a CPU rank does.
 *
 * Messages are host-staged MPI (the existing calls on host buffers, which
 * are page-locked on GPU ranks: axb__dist_halloc), but for the panel
 * broadcasts, which go between the GPUs by NCCL where the build found it
 * (the table's bcast; AXB_DIST_NCCL=0 turns it off, every rank alike).  Inside
 * getrf/potrf no host code touches the device array (issue 24h; gpusim's
 * test_dist_traffic faults on any such access): the step's panels go up
 * once per step (the table's mirror), the Cholesky diagonal blocks are a
 * cuBLAS syrk, its nb x nb potrf runs on a host copy, and a one-process-row
 * LU panel is a cuSOLVER getrf on the device array.
 */
#include "core/template.h"
#include "dist/dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef AXB_DIST_GPU

const axb_dist_ops_d *axb__dist_ops_d(axb_handle h) {
  (void)h;
  return &axb__dist_cpu_d;
}
const axb_dist_ops_s *axb__dist_ops_s(axb_handle h) {
  (void)h;
  return &axb__dist_cpu_s;
}
int axb__dist_gpu_handle(axb_handle h) {
  (void)h;
  return 0;
}
void *axb__dist_alloc(axb_handle h, int64_t count, size_t size, int *owns) {
  (void)h;
  *owns = 1;
  return axb__calloc(count, size);
}
void axb__dist_free(void *p, int owns) {
  (void)owns;
  axb__free(p);
}
void axb__dist_gpu_prefetch(axb_handle h, const axb_dist_matrix *A) {
  (void)h;
  (void)A;
}
void *axb__dist_halloc(axb_handle h, int64_t count, size_t size) {
  (void)h;
  return axb__malloc(count, size);
}
void axb__dist_hfree(void *p) { axb__free(p); }
void *axb__dist_bcbuf(axb_handle h, int64_t count, size_t size) {
  (void)h;
  return axb__malloc(count, size);
}
int axb_dist_gpu_device(MPI_Comm comm) {
  (void)comm;
  return -1;
}
int axb__dist_gpu_timeline_start(axb_handle h) {
  (void)h;
  return 0;
}
void axb__dist_gpu_mark(int phase, int begin) {
  (void)phase;
  (void)begin;
}
void axb__dist_gpu_timeline_end(axb_dist_timeline *t) {
  memset(t, 0, sizeof *t);
}
long long axb__dist_gpu_timeline_raw(double *iv, long long cap) {
  (void)iv;
  (void)cap;
  return 0;
}

#else /* AXB_DIST_GPU */

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

/* Broadcast slots (dslot; dist.h): the LU's three panels and U12. */
enum { NBC = 4 };

/* One device per process: the cuBLAS and cuSOLVER handles (legacy default
   stream: the compute stream, on which every operation of the table is
   enqueued in order), the broadcasts' stream and the staging buffers live
   as long as the process. */
static struct {
  int device;          /* -1: not set up */
  cublasHandle_t blas; /* the current stream's: blas0, or blas1 on lane 1 */
  cublasHandle_t blas0, blas1;
  void *scratch[15]; /* 0-3: staging of host operands; 4-5: mirrors;
                        6-9: device copies of broadcasts (bcast, dbuf:
                        NBC slots); 10-12: work buffers (dwork); 13-14:
                        the panel getrf's workspace and pivots (its
                        pivots are read after the host has gone on) */
  size_t cap[15];
  axb_handle cpu;   /* the CPU table's handle for host-only operands */
  int panel_device; /* AXB_DIST_GPU_PANEL=device: pivot search on device */
  int panel_solver; /* AXB_DIST_GPU_PANEL unset or "auto": one-process-row
                       panels by cuSOLVER getrf */
  cusolverDnHandle_t solver; /* the current stream's, as blas */
  cusolverDnHandle_t solver0, solver1;
  int solver_tried, solver_ok; /* solver0 created on first use */
  void *host; /* host copy of a diagonal block (potrf), grow-only */
  size_t hcap;
  /* bcast's device copies: the host buffer each holds, its bytes, 1 when
     ev_done marks the end of its transfer (pending: a stream reading it
     waits for that), 1 while a receiver's host copy is owed (bcast_wait). */
  const void *bc_host[NBC];
  size_t bc_bytes[NBC];
  int bc_pending[NBC], bc_owed[NBC];
  cudaStream_t cs; /* the broadcasts' stream (non-blocking); NULL: none */
  int cs_tried;
  cudaEvent_t ev_in[NBC], ev_done[NBC]; /* compute -> broadcast, back */
  cudaEvent_t ev_gin, ev_gdone;         /* the same for gatherv */
  cudaStream_t cur;     /* where operations go: 0 (the compute stream) or ls */
  cudaStream_t ls;      /* the look-ahead lane (lane(1)); NULL: none */
  cudaEvent_t ev_fence; /* the compute stream's work the lane waits for */
  int lanes;            /* 1: ls and ev_fence exist and lanes are on */
  /* laswp's pivots (piv_upload): a ring of page-locked host buffers and
     their device copies; a buffer is refilled only after the event
     recorded behind the laswp that read its copy. */
  int64_t *ph[4], *pd[4]; /* wide enough for either kind (piv_upload) */
  size_t pcap[4];
  cudaEvent_t pev[4];
  int pused[4], pnext;
  int failed;    /* a device failure with no status to return: sync()'s */
  int sync_each; /* AXB_DIST_GPU_SYNC=1: every operation waits (op_done) */
  int laswp_axb; /* axb's laswp_dev (AXB_DIST_GPU_LASWP=cusolver: cuSOLVER's) */
} gpu = {.device = -1};

/* The device copy of host buffer p left by a broadcast, if any, dropped. */
static void bcast_forget(const void *p) {
  for (int i = 0; i < NBC; ++i)
    if (p && gpu.bc_host[i] == p) gpu.bc_host[i] = NULL;
}

/* The current stream ordered after broadcast slot i (no host wait). */
static void bcast_join(int i) {
  if (!gpu.bc_pending[i]) return;
  if (cudaStreamWaitEvent(gpu.cur, gpu.ev_done[i], 0) != cudaSuccess) {
    cudaGetLastError();
    gpu.failed = 1;
  }
}

int axb__dist_gpu_handle(axb_handle h) {
  return h && axb_handle_backend(h) == AXB_BACKEND_CUDA;
}

/* Device of this process's rank: AXB_DIST_DEVICE if set, else the rank
   among the ranks of this host modulo the device count; -1 without one. */
int axb_dist_gpu_device(MPI_Comm comm) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
    cudaGetLastError();
    return -1;
  }
  const char *env = getenv("AXB_DIST_DEVICE");
  if (env && *env) return atoi(env) % count;
  MPI_Comm local;
  int lrank = 0;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                          &local) == MPI_SUCCESS) {
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_free(&local);
  }
  return lrank % count;
}

/* Select h's device and create the cuBLAS handle (once). */
static int gpu_setup(axb_handle h) {
  if (gpu.device >= 0) return 1;
  int dev = h->device >= 0 ? h->device : 0;
  if (cudaSetDevice(dev) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  if (cublasCreate(&gpu.blas0) != CUBLAS_STATUS_SUCCESS) return 0;
  gpu.blas = gpu.blas0;
  if (!gpu.cpu &&
      axb_handle_create(&gpu.cpu, AXB_BACKEND_CPU, 0) != AXB_SUCCESS)
    gpu.cpu = NULL;
  const char *env = getenv("AXB_DIST_GPU_PANEL");
  gpu.panel_device = env && strcmp(env, "device") == 0;
  gpu.panel_solver = !env || !*env || strcmp(env, "auto") == 0;
  env = getenv("AXB_DIST_GPU_SYNC");
  gpu.sync_each = env && strcmp(env, "1") == 0;
  env = getenv("AXB_DIST_GPU_LASWP");
  gpu.laswp_axb = !env || strcmp(env, "cusolver") != 0;
  gpu.device = dev;
  return 1;
}

/* 1 when p is device or managed memory (cuBLAS can use it). */
static int on_device(const void *p) {
  if (!p || gpu.device < 0) return 0;
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* Scratch slot s of at least bytes (grow-only); NULL on failure. */
static void *scratch(int s, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (gpu.cap[s] >= bytes) return gpu.scratch[s];
  if (gpu.scratch[s]) cudaFree(gpu.scratch[s]);
  gpu.scratch[s] = NULL;
  gpu.cap[s] = 0;
  if (cudaMalloc(&gpu.scratch[s], bytes) != cudaSuccess) {
    cudaGetLastError();
    gpu.scratch[s] = NULL;
    return NULL;
  }
  gpu.cap[s] = bytes;
  return gpu.scratch[s];
}

/* A 2-D copy on the current stream (gpu.cur); complete on return when
   either side is host memory (the host reads or reuses it next), else
   only ordered on the stream.  1 on success. */
static int gcpy2d(void *d, size_t dp, const void *s, size_t sp, size_t w,
                  size_t h) {
  if (cudaMemcpy2DAsync(d, dp, s, sp, w, h, cudaMemcpyDefault, gpu.cur) !=
          cudaSuccess ||
      ((!on_device(d) || !on_device(s)) &&
       cudaStreamSynchronize(gpu.cur) != cudaSuccess)) {
    cudaGetLastError();
    return 0;
  }
  return 1;
}
static int gcpy(void *d, const void *s, size_t bytes) {
  return gcpy2d(d, bytes, s, bytes, bytes, 1);
}

/* A device view of the m x n operand A (ld lda, elements of es bytes): A
   itself when on the device (*ld = lda), else a packed copy in slot s (ld
   m; copied up when up).  NULL when staging fails. */
static void *stage(int s, const void *A, int64_t m, int64_t n, int64_t lda,
                   size_t es, int up, int64_t *ld) {
  if (on_device(A)) {
    *ld = lda;
    return (void *)A;
  }
  int64_t mm = m > 1 ? m : 1;
  void *d = scratch(s, (size_t)mm * (size_t)(n > 0 ? n : 1) * es);
  if (!d) return NULL;
  *ld = mm;
  if (up && m > 0 && n > 0 &&
      !gcpy2d(d, (size_t)mm * es, A, (size_t)lda * es, (size_t)m * es,
              (size_t)n))
    return NULL;
  return d;
}

/* Host scratch of at least bytes (grow-only); NULL on failure. */
static void *host_scratch(size_t bytes) {
  if (gpu.hcap >= bytes) return gpu.host;
  free(gpu.host);
  gpu.host = malloc(bytes ? bytes : 1);
  gpu.hcap = gpu.host ? bytes : 0;
  return gpu.host;
}

/* Copy the staged m x n block d (ld m) back to host A (ld lda). */
static int unstage(const void *d, void *A, int64_t m, int64_t n, int64_t lda,
                   size_t es) {
  if (d == A || m <= 0 || n <= 0) return 1;
  return gcpy2d(A, (size_t)lda * es, d, (size_t)m * es, (size_t)m * es,
                (size_t)n);
}

/* Wait for the device's work; 1 on success. */
static int gpu_sync(void) {
  if (cudaDeviceSynchronize() != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return 1;
}

/* The end of a table operation: nothing (the operations run in order on
   the compute stream; dist.h), or with AXB_DIST_GPU_SYNC=1 the device
   idle, as every operation ended before issue 24i: for an A/B timing in
   one run, or to rule out an ordering bug on a new machine. */
static void op_done(void) {
  if (gpu.sync_each) gpu_sync();
}

static cublasOperation_t cb_op(axb_trans t) {
  return t == AXB_NO_TRANS ? CUBLAS_OP_N : CUBLAS_OP_T;
}

void *axb__dist_alloc(axb_handle h, int64_t count, size_t size, int *owns) {
  *owns = 1;
  if (!axb__dist_gpu_handle(h) || !gpu_setup(h))
    return axb__calloc(count, size);
  if (count < 1) count = 1;
  void *p = NULL;
  if (cudaMallocManaged(&p, (size_t)count * size, cudaMemAttachGlobal) !=
      cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  memset(p, 0, (size_t)count * size); /* first touch on the host */
  *owns = 2;
  return p;
}

void axb__dist_free(void *p, int owns) {
  if (owns == 2)
    cudaFree(p);
  else
    axb__free(p);
}

void *axb__dist_halloc(axb_handle h, int64_t count, size_t size) {
  if (count < 1) count = 1;
  void *p = NULL;
  if (axb__dist_gpu_handle(h) && gpu_setup(h)) {
    if (cudaMallocHost(&p, (size_t)count * size) == cudaSuccess) return p;
    cudaGetLastError();
  }
  return axb__malloc(count, size);
}

void *axb__dist_bcbuf(axb_handle h, int64_t count, size_t size) {
  const char *e = getenv("AXB_DIST_PINNED");
  if (e && strcmp(e, "1") == 0) return axb__dist_halloc(h, count, size);
  return axb__malloc(count < 1 ? 1 : count, size);
}

void axb__dist_hfree(void *p) {
  /* A later buffer at the same address must not find this one's device
     copy (bcast_copy): the Cholesky's wl did on a 2 x 2 grid of H100s. */
  bcast_forget(p);
  struct cudaPointerAttributes a;
  if (p && gpu.device >= 0 && cudaPointerGetAttributes(&a, p) == cudaSuccess &&
      a.type == cudaMemoryTypeHost) {
    cudaFreeHost(p);
    return;
  }
  cudaGetLastError();
  axb__free(p);
}

void axb__dist_gpu_prefetch(axb_handle h, const axb_dist_matrix *A) {
  if (!axb__dist_gpu_handle(h) || A->owns != 2 || !A->data) return;
  size_t bytes = (size_t)A->lld * (size_t)(A->nloc > 1 ? A->nloc : 1) *
                 axb_dtype_size(A->dtype);
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  loc.type = cudaMemLocationTypeDevice;
  loc.id = gpu.device;
  if (cudaMemPrefetchAsync(A->data, bytes, loc, 0, 0) != cudaSuccess)
    cudaGetLastError(); /* only a hint */
  gpu_sync();           /* the host code that follows finds the pages settled */
}

/* The timeline first: the broadcasts bracket their transfers with it. */
#include "dist/dist_gpu_timeline.h"

#include "dist/dist_gpu_bcast.h"

/* The current stream's cuSOLVER handle: the compute stream's created once
   (0: none), the lane's with the lane. */
static int solver_setup(void) {
  if (gpu.cur != NULL) return 1;
  if (!gpu.solver_tried) {
    gpu.solver_tried = 1;
    gpu.solver_ok = cusolverDnCreate(&gpu.solver0) == CUSOLVER_STATUS_SUCCESS;
  }
  gpu.solver = gpu.solver0;
  return gpu.solver_ok;
}

/* The look-ahead lane (dist.h: lane; issue 24i): a second stream, of the
   highest priority (the panel's small kernels go before the trailing
   update's remaining blocks) and non-blocking (the legacy default stream,
   the compute stream, does not wait for it, nor it for that), with its own
   cuBLAS and cuSOLVER handles (no workspace shared between streams that
   run at once), created once; 0 without it, or with
   AXB_DIST_GPU_LANES=0. */
static int lanes_setup(void) {
  static int tried;
  if (tried) return gpu.lanes;
  tried = 1;
  const char *env = getenv("AXB_DIST_GPU_LANES");
  int lo = 0, hi = 0;
  cudaStream_t s = NULL;
  if (!(env && strcmp(env, "0") == 0) &&
      cudaDeviceGetStreamPriorityRange(&lo, &hi) == cudaSuccess &&
      cudaEventCreateWithFlags(&gpu.ev_fence, cudaEventDisableTiming) ==
          cudaSuccess &&
      cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi) ==
          cudaSuccess &&
      cublasCreate(&gpu.blas1) == CUBLAS_STATUS_SUCCESS &&
      cublasSetStream(gpu.blas1, s) == CUBLAS_STATUS_SUCCESS &&
      cusolverDnCreate(&gpu.solver1) == CUSOLVER_STATUS_SUCCESS &&
      cusolverDnSetStream(gpu.solver1, s) == CUSOLVER_STATUS_SUCCESS) {
    gpu.ls = s;
    gpu.lanes = 1;
  }
  cudaGetLastError();
  return gpu.lanes;
}

/* Operations go to lane s from here: the cuBLAS and cuSOLVER handles and
   the copies follow gpu.cur.  Into lane 1: after the last fence and the
   broadcasts. */
static void gpu_lane(int s) {
  if (gpu.device < 0 || !lanes_setup()) return;
  cudaStream_t to = s ? gpu.ls : NULL;
  if (to == gpu.cur) return;
  int ok = 1;
  if (s) {
    ok = cudaStreamWaitEvent(gpu.ls, gpu.ev_fence, 0) == cudaSuccess;
    for (int i = 0; i < NBC; ++i)
      if (gpu.bc_pending[i])
        ok &= cudaStreamWaitEvent(gpu.ls, gpu.ev_done[i], 0) == cudaSuccess;
  }
  gpu.blas = s ? gpu.blas1 : gpu.blas0;
  gpu.solver = s ? gpu.solver1 : gpu.solver0;
  if (!ok) {
    cudaGetLastError();
    gpu.failed = 1;
  }
  gpu.cur = to;
}

/* The compute stream's work so far: what lane 1 waits for next. */
static void gpu_fence(void) {
  if (gpu.device < 0 || gpu.cur != NULL || !lanes_setup()) return;
  if (cudaEventRecord(gpu.ev_fence, NULL) != cudaSuccess) {
    cudaGetLastError();
    gpu.failed = 1;
  }
}

/* Before host code touches p (a CPU fallback on managed memory): the
   device's pending work on it done. */
static void host_touch(const void *p) {
  if (on_device(p)) gpu_sync();
}

/* The pivots ipiv[k1 .. k2) (1-based rows, int64) as cuSOLVER's laswp on
   A + k1 reads them (ints relative to row k1: every pivot row is at or
   below its own), in device memory, copied up without a host wait (the
   source is a page-locked ring slot not refilled before its copy and the
   laswp behind it are done: piv_done).  Slot index, or -1. */
static int piv_upload(const int64_t *ipiv, int64_t k1, int64_t k2, int wide) {
  int i = gpu.pnext;
  size_t m = (size_t)(k2 - k1), bytes = m * sizeof(int64_t); /* either kind */
  if (gpu.pused[i] && cudaEventSynchronize(gpu.pev[i]) != cudaSuccess)
    return -1;
  gpu.pused[i] = 0;
  if (!gpu.pev[i] && cudaEventCreateWithFlags(
                         &gpu.pev[i], cudaEventDisableTiming) != cudaSuccess) {
    gpu.pev[i] = NULL;
    return -1;
  }
  if (gpu.pcap[i] < m) {
    cudaFreeHost(gpu.ph[i]);
    cudaFree(gpu.pd[i]);
    gpu.ph[i] = NULL;
    gpu.pd[i] = NULL;
    gpu.pcap[i] = 0;
    if (cudaMallocHost((void **)&gpu.ph[i], bytes) != cudaSuccess ||
        cudaMalloc((void **)&gpu.pd[i], bytes) != cudaSuccess)
      return -1;
    gpu.pcap[i] = m;
  }
  /* axb_[ds]laswp_dev's int64_t, or cuSOLVER's int packed at the start */
  for (size_t j = 0; j < m; ++j) {
    const int64_t p = ipiv[k1 + (int64_t)j] - k1;
    if (wide)
      gpu.ph[i][j] = p;
    else
      ((int *)gpu.ph[i])[j] = (int)p;
  }
  if (cudaMemcpyAsync(gpu.pd[i], gpu.ph[i],
                      m * (wide ? sizeof(int64_t) : sizeof(int)),
                      cudaMemcpyHostToDevice, gpu.cur) != cudaSuccess)
    return -1;
  gpu.pnext = (i + 1) % 4;
  return i;
}

/* panel_lu_start's pivots and info: copied from the device into a
   page-locked buffer behind the panel's getrf, with an event that
   panel_lu_wait waits for, so that the host goes on queueing the step's
   trailing update meanwhile.  One panel at a time: the LU waits for panel
   k's pivots before it starts panel k + 1. */
static struct {
  int *h;
  size_t cap;
  cudaEvent_t ev;
  int64_t n;
  int pending;
} pp;

/* Room for n pivots and info, before the factorization is queued. */
static int pp_reserve(int64_t n) {
  size_t bytes = (size_t)(n + 1) * sizeof(int);
  if (pp.pending) return 0;
  if (!pp.ev &&
      cudaEventCreateWithFlags(&pp.ev, cudaEventDisableTiming) != cudaSuccess) {
    pp.ev = NULL;
    cudaGetLastError();
    return 0;
  }
  if (pp.cap >= bytes) return 1;
  cudaFreeHost(pp.h);
  pp.cap = 0;
  if (cudaMallocHost((void **)&pp.h, bytes) != cudaSuccess) {
    pp.h = NULL;
    cudaGetLastError();
    return 0;
  }
  pp.cap = bytes;
  return 1;
}

/* The copy of the device's n pivots and info (dp) queued behind the
   factorization on the current stream; 1 on success. */
static int pp_start(const int *dp, int64_t n) {
  if (cudaMemcpyAsync(pp.h, dp, (size_t)(n + 1) * sizeof(int),
                      cudaMemcpyDeviceToHost, gpu.cur) != cudaSuccess ||
      cudaEventRecord(pp.ev, gpu.cur) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  pp.n = n;
  pp.pending = 1;
  return 1;
}

/* The pending panel's pivots (1-based panel rows) and info, once there. */
static int pp_wait(int64_t n, int64_t *ipiv, int64_t *info) {
  if (!pp.pending) return 0;
  pp.pending = 0;
  if (cudaEventSynchronize(pp.ev) != cudaSuccess || pp.n != n) {
    cudaGetLastError();
    return 0;
  }
  for (int64_t j = 0; j < n; ++j)
    ipiv[j] = pp.h[j];
  *info = pp.h[n] > 0 ? pp.h[n] : 0;
  return 1;
}

/* The laswp that read ring slot i is enqueued: its buffers' release. */
static void piv_done(int i) {
  if (cudaEventRecord(gpu.pev[i], gpu.cur) == cudaSuccess)
    gpu.pused[i] = 1;
  else
    gpu_sync(); /* no event: wait here, the slot is free after */
}

/* The table's sync (dist.h): the device idle, and any failure that an
   operation without a status (void) met, reported once. */
static axb_status gpu_sync_op(axb_handle h) {
  if (gpu.device < 0) return AXB_SUCCESS;
  gpu_lane(0);
  int ok = gpu_sync() && !gpu.failed;
  gpu.failed = 0;
  for (int i = 0; i < NBC; ++i)
    gpu.bc_pending[i] = 0; /* every event has completed */
  return ok ? AXB_SUCCESS
            : axb__fail(h, AXB_ERR_DEVICE,
                        "GPU rank: a device copy or broadcast failed");
}

#ifdef AXB_DIST_NCCL
/* A collective's outcome (1: done everywhere), waited for on the device
   under AXB_DIST_GPU_SYNC=1, as every operation is then. */
static int coll_done(int ok) {
  if (ok && gpu.sync_each) gpu_sync();
  return ok;
}
#endif

#define AXB_DIST_GPU_T
#define T double
#define P d
#define CB(name) cublasD##name
#define CB_I(name) cublasId##name
#define CS(name) cusolverDnD##name
#include "dist/dist_gpu_t.h"
#undef T
#undef P
#undef CB
#undef CB_I
#undef CS
#define T float
#define P s
#define CB(name) cublasS##name
#define CB_I(name) cublasIs##name
#define CS(name) cusolverDnS##name
#include "dist/dist_gpu_t.h"
#undef T
#undef P
#undef CB
#undef CB_I
#undef CS

#endif /* AXB_DIST_GPU */
