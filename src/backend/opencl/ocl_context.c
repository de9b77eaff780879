/*
 * The OpenCL handle's context (issue 29): context and in-order queue on
 * the selected device, the program cache (built once per context and
 * precision; a build error becomes AXB_ERR_DEVICE with the compiler's log
 * in the detail), kernel launches, host <-> device copies (timed for the
 * report's transfer time) and OpenCL/CLBlast codes as statuses.
 */
#include "backend/opencl/ocl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char *const axb__ocl_sources[];
extern const size_t axb__ocl_source_count;

static const char *const kernel_names[OCL_KERNEL_COUNT] = {
    "lu_panel",        "laswp",          "chol_diag",     "set_identity",
    "zero_triangle",   "col_diag",       "col_offdiag",   "col_single",
    "col_single_diag", "col_lower_copy", "gj_pivot",      "gj_eliminate",
    "gj_unswap",       "trtri_lower",    "lu_leaf_start", "lu_step",
    "lu_leaf_persist", "gemm_cpu",       "transpose_cpu", "trsv_block"};

/* ---- errors ---------------------------------------------------------------
 */

static const char *cl_error_name(cl_int e) {
  switch (e) {
  case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
  case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
  case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
  case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
  case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
  case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
  case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
  case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
  case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
  case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
  case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
  case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
  case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
  case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
  default: return "OpenCL error";
  }
}

axb_status axb__ocl_check(axb_handle h, cl_int err, const char *what) {
  if (err == CL_SUCCESS) return AXB_SUCCESS;
  const axb_ocl *o = axb__ocl(h);
  const axb_status st = err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                                err == CL_OUT_OF_HOST_MEMORY ||
                                err == CL_INVALID_BUFFER_SIZE
                            ? AXB_ERR_OUT_OF_MEMORY
                            : AXB_ERR_DEVICE;
  return axb__fail(h, st, "OpenCL: %s failed: %s (%d) on %s", what,
                   cl_error_name(err), (int)err, o ? o->name : "?");
}

axb_status axb__ocl_blast(axb_handle h, CLBlastStatusCode err,
                          const char *what) {
  if (h->ocl) axb__ocl(h)->enq++; /* the profile's count of CLBlast calls */
  if (err == CLBlastSuccess) return AXB_SUCCESS;
  if (err > -1000) return axb__ocl_check(h, (cl_int)err, what);
  const axb_ocl *o = axb__ocl(h);
  return axb__fail(h, AXB_ERR_DEVICE, "CLBlast: %s failed: status %d on %s",
                   what, (int)err, o ? o->name : "?");
}

/* ---- handle ---------------------------------------------------------------
 */

static unsigned floor_pow2(size_t v) {
  unsigned p = 1;
  while ((size_t)p * 2 <= v)
    p *= 2;
  return p;
}

/*
 * CLBlast on a CPU device (PoCL): its defaults chose the direct GEMM
 * kernel for the trailing updates and ran DGEMM at 2-4 GFLOP/s on the
 * 2-core VM; the indirect kernel with 64 x 64 tiles of 8 x 8 work-items
 * and 8-wide vectors ran 1024 x 1024 x 64 at 25-50 GFLOP/s there (noisy
 * machine; docs/notes/opencl.md).  Set for the device in CLBlast's
 * process-wide parameter cache unless AXB_OPENCL_CLBLAST_DEFAULTS is set.
 * GPUs keep CLBlast's own (tuned) parameters.
 */
static pthread_mutex_t clblast_lock = PTHREAD_MUTEX_INITIALIZER;

static void clblast_cpu_parameters(cl_device_id dev) {
  if (getenv("AXB_OPENCL_CLBLAST_DEFAULTS")) return;
  /* CLBlast's parameter cache is process-wide: one thread at a time */
  pthread_mutex_lock(&clblast_lock);
  static const char *const names[] = {
      "GEMMK", "KREG", "KWG", "KWI", "MDIMA", "MDIMC", "MWG", "NDIMB",
      "NDIMC", "NWG",  "SA",  "SB",  "STRM",  "STRN",  "VWM", "VWN"};
  static const size_t vals[] = {0, 1,  32, 2, 8, 8, 64, 8,
                                8, 64, 0,  0, 0, 0, 8,  8};
  static const char *const routine[] = {"XGEMM_MIN_INDIRECT_SIZE"};
  static const size_t one[] = {1};
  const CLBlastPrecision prec[] = {CLBlastPrecisionSingle,
                                   CLBlastPrecisionDouble};
  for (int p = 0; p < 2; ++p) {
    CLBlastOverrideParameters(dev, "Xgemm", prec[p], 16, (const char **)names,
                              vals);
    CLBlastOverrideParameters(dev, "GemmRoutine", prec[p], 1,
                              (const char **)routine, one);
  }
  pthread_mutex_unlock(&clblast_lock);
}

/* The outer block (ocl.h): AXB_OPENCL_NB when it is a multiple of
   AXB_OCL_NB in [64, 1024], else 64 on a GPU and 256 on a CPU device. */
static int outer_block(int gpu) {
  const char *e = getenv("AXB_OPENCL_NB");
  const long v = e ? strtol(e, NULL, 10) : 0;
  if (v >= AXB_OCL_NB && v <= 1024 && v % AXB_OCL_NB == 0) return (int)v;
  return gpu ? AXB_OCL_NB : AXB_OCL_NB_CPU;
}

/* An integer from the environment variable `name` when it is set and in
   [lo, hi], else def. */
static int env_int(const char *name, int lo, int hi, int def) {
  const char *e = getenv(name);
  const long v = e && *e ? strtol(e, NULL, 10) : (long)def;
  return v >= lo && v <= hi ? (int)v : def;
}

/* The GPU-device path (issue 29d): the default on GPU devices, the
   CPU-device path on CPU devices (AXB_OPENCL_GPU_PATH=0/1 forces either;
   the tests run both on PoCL).  On NVIDIA's OpenCL (H200, 2026-11-27)
   both passed every test, and at n = 8192 the GPU path's getrf took 347
   ms against 1012 (potrf 717 against 705); on PoCL the CPU-device path
   is the faster one.  Its outer block AXB_OPENCL_GPU_NB (multiple of 32,
   64..1024, default 256), its LU leaf AXB_OPENCL_GPU_LEAF (16..64, default
   32) and the reductions' work-group (256 on a GPU; 16 on a CPU device,
   where a work-group is a loop on one core); AXB_OPENCL_GPU_PROFILE=1
   its phase profile (ocl_prof.h).
   AXB_OPENCL_GPU_LEAF_PERSIST (default 1 on GPU devices, 0 elsewhere)
   factors each leaf in one launch of lu_leaf_persist (lu_persist.cl)
   instead of one launch per column: G groups spinning at a global
   barrier, which deadlocks unless all G run at once.  On the H100's
   OpenCL (2026-11-27) every test passed both ways and getrf double at
   n = 8192 took 143 ms on the device against 214 with the per-column
   leaf (8448 launches); =0 keeps the per-column leaf.  =1: G up to the
   compute units on a GPU (the hardware keeps every launched group
   resident up to its capacity), G = 1 on a CPU device (PoCL runs groups
   on a thread pool whose scheduler may hand several groups to one
   thread, one after the other: newer PoCL does so for short kernels);
   =2: G up to the compute units on any device (the tests' way to the
   barrier on PoCL 3.1, whose scheduler gives each of 2 threads one of 2
   groups; not safe in general on a CPU device). */
static void gpu_path_settings(axb_ocl *o, int is_gpu, int units) {
  o->gpu_path = env_int("AXB_OPENCL_GPU_PATH", 0, 1, is_gpu != 0);
  o->gpu_nb = env_int("AXB_OPENCL_GPU_NB", 64, 1024, 256) / 32 * 32;
  o->gpu_leaf = env_int("AXB_OPENCL_GPU_LEAF", 16, 64, 32);
  o->gpu_prof = env_int("AXB_OPENCL_GPU_PROFILE", 0, 2, 0);
  const int pe = env_int("AXB_OPENCL_GPU_LEAF_PERSIST", 0, 2, is_gpu != 0);
  const int cap = units < 1 ? 1 : units > 256 ? 256 : units;
  o->gpu_persist = !pe ? 0 : pe == 2 || is_gpu ? cap : 1;
  const int r = is_gpu ? 256 : 16;
  o->rwg = o->max_wg < r ? o->max_wg : r;
}

axb_status axb__opencl_handle_init(axb_handle h) {
  int ord = -1;
  axb_status st = axb__opencl_device_select(h->device, &ord);
  if (st != AXB_SUCCESS)
    return axb__fail(h, st, "%s", axb_detail(NULL)); /* move to h */
  axb_opencl_device info;
  axb__opencl_device_info(ord, &info);
  axb_ocl *o = axb__calloc(1, sizeof *o);
  if (!o) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no memory for OpenCL");
  h->ocl = o;
  o->ordinal = ord;
  /* AXB_OPENCL_NO_FP64=1: behave as on a device without double (the
     tests' way to the NOT_SUPPORTED path on PoCL, which has fp64). */
  const char *nofp64 = getenv("AXB_OPENCL_NO_FP64");
  o->fp64 = info.fp64 && !(nofp64 && *nofp64 && *nofp64 != '0');
  snprintf(o->name, sizeof o->name, "%s (%s)", info.name, info.platform);
  /* the device again, as a handle (discovery is cheap and stateless) */
  cl_platform_id plats[16];
  cl_uint np = 0;
  clGetPlatformIDs(16, plats, &np);
  o->platform = plats[info.platform_index];
  cl_device_id ids[64];
  cl_uint nd = 0;
  clGetDeviceIDs(o->platform, CL_DEVICE_TYPE_ALL, 64, ids, &nd);
  o->device = ids[info.device_index];
  size_t maxwg = 0;
  clGetDeviceInfo(o->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg,
                  &maxwg, NULL);
  o->wg = (int)floor_pow2(maxwg < 256 ? (maxwg ? maxwg : 1) : 256);
  o->max_wg = (int)floor_pow2(maxwg ? maxwg : 1);
  o->nb = outer_block(info.is_gpu);
  cl_uint units = 0;
  clGetDeviceInfo(o->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                  NULL);
  gpu_path_settings(o, info.is_gpu, (int)units);
  /* A CPU device runs a work-group on one core, a barrier being a pass
     over all its work-items (PoCL: ~10 us): the one-group kernels (panel,
     diagonal block, pivot row) run as one work-item there, a plain loop
     with no barrier at all.  The LU panel at n = 1024 on PoCL: ~200 ms
     with 256 work-items, ~150 with 64, ~25 with one. */
  if (!info.is_gpu) {
    clblast_cpu_parameters(o->device);
    o->wg = 1;
    o->cpu_dev = 1;
    const char *g = getenv("AXB_OPENCL_CPU_GEMM"); /* ocl_gemm.c */
    o->own_gemm = !(g && strcmp(g, "clblast") == 0);
    /* The device's own threads are the cores: the driver's host-side work
       (copy, condition estimate, backward error) on one thread, not an
       OpenMP pool spinning against the device's (the certified solve at
       n = 1024 on PoCL: 255 -> 107 ms; axb_set_threads overrides). */
    h->threads = 1;
  }
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         (cl_context_properties)o->platform, 0};
  o->ctx = clCreateContext(props, 1, &o->device, NULL, NULL, &err);
  if (err == CL_SUCCESS)
    o->q = clCreateCommandQueue(o->ctx, o->device, 0, &err);
  if (err == CL_SUCCESS && o->gpu_path)
    o->q2 = clCreateCommandQueue(o->ctx, o->device, 0, &err);
  if (err != CL_SUCCESS) {
    st = axb__ocl_check(h, err, "creating the context and queue");
    axb__opencl_handle_fini(h);
    return st;
  }
  return AXB_SUCCESS;
}

void axb__opencl_handle_fini(axb_handle h) {
  axb_ocl *o = axb__ocl(h);
  if (!o) return;
  for (int p = 0; p < 2; ++p) {
    for (int k = 0; k < OCL_KERNEL_COUNT; ++k)
      if (o->kern[p][k]) clReleaseKernel(o->kern[p][k]);
    if (o->prog[p]) clReleaseProgram(o->prog[p]);
  }
  axb__ocl_free(o->gemm_tmp);
  axb__ocl_free(o->kept);
  if (o->q) clReleaseCommandQueue(o->q);
  if (o->q2) clReleaseCommandQueue(o->q2);
  if (o->ctx) clReleaseContext(o->ctx);
  axb__free(o);
  h->ocl = NULL;
}

/* ---- program cache --------------------------------------------------------
 */

/* Build the precision's program; the compiler's log goes into the detail.
   AXB_OPENCL_BUILD_OPTIONS adds options (the tests use it to force a
   build error). */
static axb_status build_program(axb_handle h, axb_ocl *o, int dbl) {
  char opts[512];
  const char *extra = getenv("AXB_OPENCL_BUILD_OPTIONS");
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DWG=%d%s %s", o->wg,
           dbl ? " -DAXB_FP64" : "", extra ? extra : "");
  cl_int err = CL_SUCCESS;
  cl_program p =
      clCreateProgramWithSource(o->ctx, (cl_uint)axb__ocl_source_count,
                                (const char **)axb__ocl_sources, NULL, &err);
  if (err != CL_SUCCESS)
    return axb__ocl_check(h, err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &o->device, opts, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[768] = "";
    size_t len = 0;
    clGetProgramBuildInfo(p, o->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
                          log, &len);
    if (len == 0 || log[0] == '\0')
      snprintf(log, sizeof log, "(no log; %s)", cl_error_name(err));
    clReleaseProgram(p);
    return axb__fail(h, AXB_ERR_DEVICE,
                     "OpenCL: building axb's %s kernels for %s failed "
                     "(options %s): %s",
                     dbl ? "double" : "float", o->name, opts, log);
  }
  o->prog[dbl] = p;
  for (int k = 0; k < OCL_KERNEL_COUNT; ++k) {
    o->kern[dbl][k] = clCreateKernel(p, kernel_names[k], &err);
    if (err != CL_SUCCESS) return axb__ocl_check(h, err, kernel_names[k]);
  }
  return AXB_SUCCESS;
}

axb_status axb__ocl_kernel(axb_handle h, int dbl, int which, cl_kernel *k) {
  axb_ocl *o = axb__ocl(h);
  if (dbl && !o->fp64)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "OpenCL device %s has no double precision "
                     "(cl_khr_fp64): use float, or another device "
                     "(AXB_OPENCL_DEVICE)",
                     o->name);
  if (!o->prog[dbl]) {
    axb_status st = build_program(h, o, dbl);
    if (st != AXB_SUCCESS) return st;
  }
  *k = o->kern[dbl][which];
  return AXB_SUCCESS;
}

/* ---- launches and copies ---------------------------------------------------
 */

axb_status axb__ocl_args(axb_handle h, cl_kernel k, int n, const size_t *sz,
                         const void *const *val) {
  for (int i = 0; i < n; ++i) {
    cl_int err = clSetKernelArg(k, (cl_uint)i, sz[i], val[i]);
    if (err != CL_SUCCESS) return axb__ocl_check(h, err, "clSetKernelArg");
  }
  return AXB_SUCCESS;
}

axb_status axb__ocl_run(axb_handle h, int dbl, int which, size_t gx, size_t gy,
                        size_t lx, size_t ly, int n, const size_t *sz,
                        const void *const *val) {
  cl_kernel k;
  axb_status st = axb__ocl_kernel(h, dbl, which, &k);
  if (!st) st = axb__ocl_args(h, k, n, sz, val);
  if (!st) st = axb__ocl_launch(h, k, gx, gy, lx, ly);
  return st;
}

static size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

axb_status axb__ocl_launch(axb_handle h, cl_kernel k, size_t gx, size_t gy,
                           size_t lx, size_t ly) {
  /* A device with smaller work-groups: the kernels whose local size is
     free (all but the one-group kernels, launched at o->wg <= max_wg) run
     with a smaller one. */
  const size_t max = (size_t)axb__ocl(h)->max_wg;
  if (!gy) ly = 1;
  while (lx * ly > max) {
    if (lx >= ly)
      lx /= 2;
    else
      ly /= 2;
  }
  size_t g[2] = {round_up(gx, lx), gy ? round_up(gy, ly) : 1};
  size_t l[2] = {lx, ly};
  cl_int err = clEnqueueNDRangeKernel(axb__ocl(h)->q, k, gy ? 2 : 1, NULL, g, l,
                                      0, NULL, NULL);
  axb__ocl(h)->enq++;
  return axb__ocl_check(h, err, "clEnqueueNDRangeKernel");
}

axb_status axb__ocl_alloc(axb_handle h, size_t bytes, cl_mem *dst) {
  cl_int err = CL_SUCCESS;
  *dst = clCreateBuffer(axb__ocl(h)->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 16,
                        NULL, &err);
  if (err != CL_SUCCESS) *dst = NULL;
  return axb__ocl_check(h, err, "clCreateBuffer");
}

/* A rows x cols block between the device buffer mem at row i0, column
   j0 (leading dimension ldd) and host memory (ldh), blocking, after the
   queue's work, to the device when `write`.  The transfer clock counts the
   copy, not the queued work before it. */
static axb_status rect_copy_at(axb_handle h, int write, cl_mem mem, int64_t i0,
                               int64_t j0, int64_t ldd, int64_t rows,
                               int64_t cols, size_t es, void *host,
                               int64_t ldh) {
  if (rows == 0 || cols == 0) return AXB_SUCCESS;
  cl_int err = clFinish(axb__ocl(h)->q);
  if (err != CL_SUCCESS) return axb__ocl_check(h, err, "clFinish");
  const double t0 = axb__now();
  const size_t zero[3] = {0, 0, 0};
  const size_t at[3] = {(size_t)i0 * es, (size_t)j0, 0};
  const size_t region[3] = {(size_t)rows * es, (size_t)cols, 1};
  const size_t dpitch = (size_t)ldd * es, hpitch = (size_t)ldh * es;
  err = write ? clEnqueueWriteBufferRect(axb__ocl(h)->q, mem, CL_TRUE, at, zero,
                                         region, dpitch, 0, hpitch, 0, host, 0,
                                         NULL, NULL)
              : clEnqueueReadBufferRect(axb__ocl(h)->q, mem, CL_TRUE, at, zero,
                                        region, dpitch, 0, hpitch, 0, host, 0,
                                        NULL, NULL);
  axb__ocl(h)->transfer_seconds += axb__now() - t0;
  return axb__ocl_check(
      h, err, write ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect");
}

static axb_status rect_copy(axb_handle h, int write, cl_mem mem, int64_t ldd,
                            int64_t rows, int64_t cols, size_t es, void *host,
                            int64_t ldh) {
  return rect_copy_at(h, write, mem, 0, 0, ldd, rows, cols, es, host, ldh);
}

axb_status axb__ocl_write(axb_handle h, cl_mem dst, int64_t ldd, int64_t rows,
                          int64_t cols, size_t es, const void *src,
                          int64_t lda) {
  return rect_copy(h, 1, dst, ldd, rows, cols, es, (void *)src, lda);
}

/* A copy of the host block in a new device buffer (kept: the handle's
   kept one when it is large enough). */
static axb_status upload(axb_handle h, int kept, const void *src, int64_t lda,
                         int64_t rows, int64_t cols, size_t es, cl_mem *dst,
                         int64_t *ldd) {
  axb_ocl *o = axb__ocl(h);
  *ldd = (int64_t)round_up((size_t)(rows > 0 ? rows : 1), 16);
  /* On a CPU device, columns a power of two apart in bytes (16 KiB at
     n = 2048 in double) fall into the same few cache sets, and a kernel
     walking a block along its rows misses on every element: the 64 x 64
     Cholesky diagonal kernel took ~20 of the ~110 ms of an n = 2048
     dpotrf on PoCL, ~2 with the columns an odd number of lines apart. */
  const size_t line = 64;
  if (o->cpu_dev && line % es == 0 && (*ldd * es / line) % 2 == 0)
    *ldd += (int64_t)(line / es);
  const size_t bytes = (size_t)*ldd * (size_t)cols * es;
  axb_status st = AXB_SUCCESS;
  if (kept && o->kept && o->kept_bytes >= bytes) {
    *dst = o->kept;
    o->kept = NULL;
  } else
    st = axb__ocl_alloc(h, bytes, dst);
  if (st != AXB_SUCCESS || !src) return st;
  st = axb__ocl_write(h, *dst, *ldd, rows, cols, es, src, lda);
  if (st != AXB_SUCCESS) {
    axb__ocl_free(*dst);
    *dst = NULL;
  }
  return st;
}

axb_status axb__ocl_upload(axb_handle h, const void *src, int64_t lda,
                           int64_t rows, int64_t cols, size_t es, cl_mem *dst,
                           int64_t *ldd) {
  return upload(h, 0, src, lda, rows, cols, es, dst, ldd);
}

axb_status axb__ocl_upload_kept(axb_handle h, const void *src, int64_t lda,
                                int64_t rows, int64_t cols, size_t es,
                                cl_mem *dst, int64_t *ldd) {
  return upload(h, 1, src, lda, rows, cols, es, dst, ldd);
}

/* PoCL takes a new buffer's memory from malloc, which maps fresh pages
   above 32 MiB (glibc's largest mmap threshold): the n = 2048 double
   matrix's upload faulted 8000 pages in, 20 ms of every ~110 ms dpotrf
   (float's 16 MiB, reused by malloc after a few calls: 2 ms).  The
   routines' matrix copies go through the kept buffer instead: one per
   handle, replaced by a larger one, at most AXB_OCL_KEPT_MAX (on a CPU
   device it is host memory held between calls), none on a GPU. */
void axb__ocl_free_kept(axb_handle h, cl_mem m) {
  axb_ocl *o = axb__ocl(h);
  size_t bytes = 0;
  if (!m) return;
  if (!o->cpu_dev ||
      clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
          CL_SUCCESS ||
      bytes > AXB_OCL_KEPT_MAX || (o->kept && o->kept_bytes > bytes)) {
    clReleaseMemObject(m);
    return;
  }
  axb__ocl_free(o->kept);
  o->kept = m;
  o->kept_bytes = bytes;
}

axb_status axb__ocl_download(axb_handle h, cl_mem src, int64_t ldd,
                             int64_t rows, int64_t cols, size_t es, void *dst,
                             int64_t ldh) {
  return rect_copy(h, 0, src, ldd, rows, cols, es, dst, ldh);
}

axb_status axb__ocl_download_at(axb_handle h, cl_mem src, int64_t i0,
                                int64_t j0, int64_t ldd, int64_t rows,
                                int64_t cols, size_t es, void *dst,
                                int64_t ldh) {
  return rect_copy_at(h, 0, src, i0, j0, ldd, rows, cols, es, dst, ldh);
}

axb_status axb__ocl_copy_block(axb_handle h, size_t es, cl_mem src, size_t so,
                               size_t lds, cl_mem dst, size_t dO, size_t ldd,
                               size_t rows, size_t cols) {
  if (!rows || !cols) return AXB_SUCCESS;
  const size_t s3[3] = {so * es, 0, 0}, d3[3] = {dO * es, 0, 0};
  const size_t region[3] = {rows * es, cols, 1};
  axb__ocl(h)->enq++;
  return axb__ocl_check(h,
                        clEnqueueCopyBufferRect(axb__ocl(h)->q, src, dst, s3,
                                                d3, region, lds * es, 0,
                                                ldd * es, 0, 0, NULL, NULL),
                        "clEnqueueCopyBufferRect");
}

/* On PoCL every CLBlast GEMM through its indirect kernel allocated fresh
   buffers for the padded copies of A, B and C, whose pages the copy
   kernels then faulted in: ~6000 page faults per n = 2048 dpotrf (perf),
   more than a third of its faults.  One scratch per handle, reused by
   every GEMM of the CPU-device path (the queue is in order, so a GEMM's
   kernels are done with it before the next GEMM's start); a larger one
   replaces it (released buffers outlive the commands queued on them).
   Above AXB_OCL_GEMM_TMP_MAX the scratch is the caller's own, released
   after its GEMM, so that a handle does not hold a large one between
   calls (on a CPU device it is host memory). */
cl_int axb__ocl_gemm_tmp(axb_handle h, size_t bytes, cl_mem *tmp, int *own) {
  axb_ocl *o = axb__ocl(h);
  cl_int err = CL_SUCCESS;
  *tmp = NULL;
  *own = 0;
  if (!o->cpu_dev) return CL_SUCCESS; /* a GPU: CLBlast's own */
  if (bytes > AXB_OCL_GEMM_TMP_MAX) {
    *tmp = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    *own = err == CL_SUCCESS;
    if (!*own) *tmp = NULL;
    return err;
  }
  if (bytes > o->gemm_tmp_bytes || !o->gemm_tmp) {
    axb__ocl_free(o->gemm_tmp);
    o->gemm_tmp_bytes = 0;
    o->gemm_tmp = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 16,
                                 NULL, &err);
    if (err != CL_SUCCESS) {
      o->gemm_tmp = NULL;
      return err;
    }
    o->gemm_tmp_bytes = bytes;
  }
  *tmp = o->gemm_tmp;
  return CL_SUCCESS;
}

axb_status axb__ocl_finish(axb_handle h) {
  return axb__ocl_check(h, clFinish(axb__ocl(h)->q), "clFinish");
}

void axb__ocl_free(cl_mem m) {
  if (m) clReleaseMemObject(m);
}
