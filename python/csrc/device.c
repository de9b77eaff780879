/*
 * device.c — the _dev and batched routines on device pointers for GPU
 * arrays (CuPy, PyTorch).  python/axb/_gpu.py reads each array's pointer,
 * strides and stream from the array library, allocates the copies and
 * outputs with it, and calls one routine here: no host array, no copy,
 * no synchronisation.  The call runs on a CUDA handle of the array's
 * device whose stream is set to the caller's current stream; stream 0
 * (the legacy default stream, what CuPy and PyTorch report for their
 * default) is passed as cudaStreamLegacy, since axb_set_stream(NULL) would
 * select the handle's own non-blocking stream, which does not order with
 * the caller's work.
 */
#include "axbpy.h"

#include <string.h>

#define AXBPY_STREAM_LEGACY ((void *)0x1) /* cudaStreamLegacy */
#define MAXV 16

typedef struct {
  const char *name;
  int nvals; /* integer arguments after (name, dtype, device, stream) */
} routine;

static const routine routines[] = {
    {"getrf", 5},           /* n, A, lda, ipiv, info */
    {"getrs", 8},           /* trans, n, nrhs, A, lda, ipiv, B, ldb */
    {"potrf", 5},           /* uplo, n, A, lda, info */
    {"potrs", 7},           /* uplo, n, nrhs, A, lda, B, ldb */
    {"getri", 5},           /* n, A, lda, ipiv, info */
    {"gesv_batched", 10},   /* n, nrhs, A, lda, sA, B, ldb, sB, info, batch */
    {"posv_batched", 11},   /* uplo, n, nrhs, A, lda, sA, B, ldb, sB, info,
                              batch */
    {"inverse_batched", 6}, /* n, A, lda, sA, info, batch */
    {"gesv_batched_cert", 15}, /* rowmajor, n, nrhs, A, lda, sA, B, ldb, sB,
                                  X, ldx, sX, info, berr, batch */
};

#define P(i) ((void *)(uintptr_t)v[i])
#define IV(i) ((int64_t)v[i])

/* run_d and run_s: the table's routine r on the values v, in double (X =
   d) or float (X = s). */
#define RUN_IN(X)                                                              \
  static axb_status run_##X(axb_handle h, int r, const uint64_t *v) {          \
    switch (r) {                                                               \
    case 0:                                                                    \
        return axb_##X##getrf_dev(h, IV(0), IV(0), P(1), IV(2), P(3), P(4));   \
    case 1:                                                                    \
      return axb_##X##getrs_dev(h, (axb_trans)IV(0), IV(1), IV(2), P(3),       \
                                IV(4), P(5), P(6), IV(7));                     \
    case 2:                                                                    \
      return axb_##X##potrf_dev(h, (axb_uplo)IV(0), IV(1), P(2), IV(3), P(4)); \
    case 3:                                                                    \
      return axb_##X##potrs_dev(h, (axb_uplo)IV(0), IV(1), IV(2), P(3), IV(4), \
                                P(5), IV(6));                                  \
    case 4: return axb_##X##getri_dev(h, IV(0), P(1), IV(2), P(3), P(4));      \
    case 5:                                                                    \
      return axb_##X##gesv_batched(h, IV(0), IV(1), P(2), IV(3), IV(4), NULL,  \
                                   IV(0), P(5), IV(6), IV(7), P(8), IV(9));    \
    case 6:                                                                    \
      return axb_##X##posv_batched(h, (axb_uplo)IV(0), IV(1), IV(2), P(3),     \
                                   IV(4), IV(5), P(6), IV(7), IV(8), P(9),     \
                                   IV(10));                                    \
    case 7:                                                                    \
      return axb_##X##inverse_batched(h, IV(0), P(1), IV(2), IV(3), P(4),      \
                                      IV(5));                                  \
    default:                                                                   \
      return axb_##X##gesv_batched_cert(                                       \
          h, (int)IV(0), IV(1), IV(2), P(3), IV(4), IV(5), P(6), IV(7), IV(8), \
          P(9), IV(10), IV(11), P(12), P(13), IV(14));                         \
    }                                                                          \
  }
RUN_IN(d)
RUN_IN(s)

/* dev_call(name, dtype, device, stream, ints...) -> (status, detail).
   dtype: "float32" or "float64"; pointers and sizes as Python ints. */
PyObject *axbpy_dev_call(PyObject *self, PyObject *const *args,
                         Py_ssize_t nargs) {
  (void)self;
  if (nargs < 4) {
    PyErr_SetString(PyExc_TypeError,
                    "dev_call(name, dtype, device, stream, ...)");
    return NULL;
  }
  const char *name = PyUnicode_AsUTF8(args[0]);
  const char *dt = PyUnicode_AsUTF8(args[1]);
  if (!name || !dt) return NULL;
  int r = -1;
  for (int i = 0; i < (int)(sizeof routines / sizeof *routines); i++)
    if (!strcmp(name, routines[i].name)) r = i;
  if (r < 0 || nargs - 4 != routines[r].nvals ||
      (strcmp(dt, "float32") && strcmp(dt, "float64"))) {
    PyErr_Format(PyExc_ValueError, "dev_call: bad routine or arguments (%s)",
                 name);
    return NULL;
  }
  uint64_t v[MAXV];
  int device;
  if (axbpy_int(args[2], &device)) return NULL;
  unsigned long long stream = PyLong_AsUnsignedLongLongMask(args[3]);
  if (PyErr_Occurred()) return NULL;
  for (Py_ssize_t i = 4; i < nargs; i++) {
    v[i - 4] = PyLong_AsUnsignedLongLongMask(args[i]);
    if (PyErr_Occurred()) return NULL;
  }
  axb_handle h = NULL;
  axb_status st = axbpy_handle(AXB_BACKEND_CUDA, device < 0 ? 0 : device, &h);
  if (!st)
    st = axb_set_stream(h, stream ? (void *)(uintptr_t)stream
                                  : AXBPY_STREAM_LEGACY);
  if (!st) {
    int is_float = !strcmp(dt, "float32");
    Py_BEGIN_ALLOW_THREADS;
    st = is_float ? run_s(h, r, v) : run_d(h, r, v);
    Py_END_ALLOW_THREADS;
  }
  PyObject *d = axbpy_detail(st, h);
  if (!d) return NULL;
  PyObject *res = Py_BuildValue("(iO)", st, d);
  Py_DECREF(d);
  return res;
}
