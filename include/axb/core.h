/*
 * <axb/core.h>: status codes, version and build, the handle, the shared
 * enumerations. One piece of axb's public API: include <axb.h>, which includes
 * every piece (its conventions hold here); each piece also compiles alone.
 */
#ifndef AXB_API_CORE_H
#define AXB_API_CORE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/*
 * 0 is success.
 * Positive values are numerical outcomes; the index (1-based pivot column or
 * leading minor) is returned in the routine's `info` argument or the report.
 * -1 .. -99: argument i of a typed routine is illegal (LAPACK numbering: the
 * handle is not counted, so for axb_dgetrf(h, m, n, ...) m is argument 1).
 * <= -100: library errors.
 */
typedef int axb_status;

enum {
  AXB_SUCCESS = 0,
  AXB_ERR_SINGULAR = 1,         /* exact zero pivot U(info,info)            */
  AXB_ERR_NOT_SPD = 2,          /* leading minor of order info not positive */
  AXB_ERR_SMALL_PIVOT = 3,      /* unpivoted variant met a zero/tiny pivot  */
  AXB_ERR_NO_CONVERGENCE = 4,   /* iteration stopped short of tolerance     */
  AXB_ERR_ILL_CONDITIONED = 5,  /* solved, but rcond < eps: not trustworthy */
  AXB_ERR_INACCURATE = 6,       /* solved, but the backward error check of
                                   the answer failed (ratio >= 30)         */
  AXB_ERR_INVALID = -100,       /* bad value not tied to one argument       */
  AXB_ERR_OUT_OF_MEMORY = -101, /* allocation failed or size overflows      */
  AXB_ERR_IO = -102,            /* cannot open / read / write a file        */
  AXB_ERR_PARSE = -103,         /* malformed input file                     */
  AXB_ERR_NOT_SUPPORTED = -104, /* combination not implemented (yet)        */
  AXB_ERR_NOT_COMPILED = -105,  /* backend not compiled into this build     */
  AXB_ERR_NO_DEVICE = -106,     /* no usable GPU                            */
  AXB_ERR_DEVICE = -107,        /* CUDA / device library error              */
  AXB_ERR_INTERNAL = -108       /* a bug in axb                             */
};

/* Short, static description of a status (never NULL). */
const char *axb_strerror(axb_status status);

/* ------------------------------------------------------------------------ */
/* Version and build                                                        */
/* ------------------------------------------------------------------------ */

#define AXB_VERSION_MAJOR 0
#define AXB_VERSION_MINOR 1
#define AXB_VERSION_PATCH 0

const char *axb_version(void); /* "0.1.0" */
void axb_version_numbers(int *major, int *minor, int *patch);
/* BLAS/LAPACK linked as comparison anchor and building block, or "none". */
const char *axb_blas_info(void);

/* ------------------------------------------------------------------------ */
/* Handle                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum {
  AXB_BACKEND_AUTO = 0, /* CUDA when compiled, a device exists and the
                           routine is implemented there; else CPU        */
  AXB_BACKEND_CPU = 1,  /* multicore CPU (OpenMP)                         */
  AXB_BACKEND_CUDA = 2, /* NVIDIA GPU                                     */
  AXB_BACKEND_REF = 3,  /* sequential reference kernels: the test oracle */
  /* an OpenCL 1.2+ device, GPU or CPU (issue 29) */
  AXB_BACKEND_OPENCL = 4
} axb_backend;

typedef struct axb_handle_s *axb_handle;

/*
 * Threads.  A handle is used by one thread at a time: use one handle per
 * thread (or serialize calls on a shared one yourself).  A handle holds
 * mutable state (its detail message, an AUTO handle's GPU sub-handle, the
 * CUDA stream), so two concurrent calls on the same handle race.  Calls on
 * different handles may run concurrently from any number of threads; the
 * library has no other mutable global state (its kernel tables are built
 * once under pthread_once).  axb_detail(NULL), the message of a failure
 * that had no handle to hold it, is per thread.  Checked under
 * ThreadSanitizer by tests/test_threads.c (scripts/test.sh).
 */

/* device: GPU ordinal for CUDA (ignored otherwise). AUTO resolves at
   creation; axb_handle_backend() tells what was chosen. */
axb_status axb_handle_create(axb_handle *h, axb_backend backend, int device);
axb_status axb_handle_destroy(axb_handle h); /* NULL is fine */
axb_backend axb_handle_backend(axb_handle h);
/* Threads used by CPU kernels; 0 = all cores (the default). */
axb_status axb_set_threads(axb_handle h, int nthreads);
int axb_get_threads(axb_handle h);
/* CUDA stream (a cudaStream_t) used by device work; NULL = the handle's own. */
axb_status axb_set_stream(axb_handle h, void *stream);
void *axb_get_stream(axb_handle h);
/* Detail of the last failure on this handle ("" after success).  With
   h = NULL: the last failure of this thread that had no handle to hold it
   (axb_handle_create, and I/O or generators called with h = NULL). */
const char *axb_detail(axb_handle h);

const char *axb_backend_name(axb_backend b);
int axb_backend_compiled(axb_backend b); /* 1 when built in */
/* Number of CUDA devices usable now (0 without a driver or GPU). */
axb_status axb_cuda_device_count(int *count);
/* Name and memory of device `dev`; buf may be NULL. */
axb_status axb_cuda_device_info(int dev, char *name, size_t name_len,
                                size_t *total_bytes);

/* OpenCL devices (issue 29).  axb numbers them GPUs first (platform by
   platform, in the ICD loader's order), then the other devices, so that
   device 0 of axb_handle_create(&h, AXB_BACKEND_OPENCL, 0) is the first
   GPU, else the first device.  The environment variable AXB_OPENCL_DEVICE
   overrides the ordinal: "P:D" (platform P, its device D, as clinfo -l
   numbers them), a number (axb's ordinal) or a piece of the device or
   platform name (case-insensitive). */
typedef struct {
  char name[128];
  char platform[128];
  char version[64]; /* CL_DEVICE_VERSION */
  size_t global_bytes;
  int compute_units;
  int is_gpu;
  int fp64; /* 1 when the device does double precision (cl_khr_fp64) */
  int platform_index, device_index; /* "P:D" */
} axb_opencl_device;
/* Number of OpenCL devices (0 when none, or the backend is not compiled). */
axb_status axb_opencl_device_count(int *count);
axb_status axb_opencl_device_info(int dev, axb_opencl_device *info);
/* The ordinal AXB_OPENCL_DEVICE (or, when unset, `device`) selects. */
axb_status axb_opencl_device_select(int device, int *ordinal);

/* ------------------------------------------------------------------------ */
/* Shared enumerations (dense, batched, mixed and the checks)               */
/* ------------------------------------------------------------------------ */

typedef enum { AXB_LOWER = 0, AXB_UPPER = 1 } axb_uplo;
typedef enum { AXB_NO_TRANS = 0, AXB_TRANS = 1 } axb_trans;
typedef enum { AXB_LEFT = 0, AXB_RIGHT = 1 } axb_side;
typedef enum { AXB_NON_UNIT = 0, AXB_UNIT = 1 } axb_diag;
typedef enum {
  AXB_NORM_ONE = 0,
  AXB_NORM_INF = 1,
  AXB_NORM_MAX = 2,
  AXB_NORM_FRO = 3
} axb_norm;

#ifdef __cplusplus
}
#endif
#endif /* AXB_API_CORE_H */
