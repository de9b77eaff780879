/*
 * module.c — axb._axb: module definition, per-thread handles, build facts,
 * and the C-call baseline of the overhead benchmark (python/axb/bench.py).
 */
#define AXBPY_MODULE_MAIN
#include "axbpy.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* ---- per-thread handles ----------------------------------------------- */

/* Slots: AUTO, CPU, CUDA device 0 (plain backend), REF, then CUDA devices
   0..AXBPY_DEVICES-1 for GPU arrays (a handle on the array's device). */
#define AXBPY_DEVICES 16
#define AXBPY_SLOTS (4 + AXBPY_DEVICES)

typedef struct {
  axb_handle h[AXBPY_SLOTS];
} handle_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static int cache_key_ok;

static void cache_free(void *p) {
  handle_cache *c = p;
  for (int i = 0; i < AXBPY_SLOTS; i++)
    axb_handle_destroy(c->h[i]);
  free(c);
}

static void cache_init(void) {
  cache_key_ok = pthread_key_create(&cache_key, cache_free) == 0;
}

axb_status axbpy_handle(int backend, int device, axb_handle *out) {
  *out = NULL;
  pthread_once(&cache_once, cache_init);
  if (!cache_key_ok) return AXB_ERR_OUT_OF_MEMORY;
  handle_cache *c = pthread_getspecific(cache_key);
  if (!c) {
    if (!(c = calloc(1, sizeof *c))) return AXB_ERR_OUT_OF_MEMORY;
    if (pthread_setspecific(cache_key, c)) {
      free(c);
      return AXB_ERR_OUT_OF_MEMORY;
    }
  }
  if (backend < 0 || backend > AXB_BACKEND_REF) return AXB_ERR_INVALID;
  int slot = backend;
  if (device >= 0) {
    if (device >= AXBPY_DEVICES) return AXB_ERR_NO_DEVICE;
    slot = 4 + device;
    backend = AXB_BACKEND_CUDA;
  }
  if (!c->h[slot]) {
    axb_status st = axb_handle_create(&c->h[slot], (axb_backend)backend,
                                      device < 0 ? 0 : device);
    if (st) {
      c->h[slot] = NULL;
      return st;
    }
  }
  *out = c->h[slot];
  return AXB_SUCCESS;
}

/* The detail message after a failed call: the handle's, or the thread's
   when no handle could be made. */
PyObject *axbpy_detail(axb_status st, axb_handle h) {
  if (st == AXB_SUCCESS) Py_RETURN_NONE;
  const char *d = axb_detail(h);
  if (!d || !*d) d = axb_strerror(st);
  return PyUnicode_FromString(d);
}

/* ---- build facts --------------------------------------------------------- */

static PyObject *py_build_info(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  int ndev = 0;
  if (axb_cuda_device_count(&ndev)) ndev = 0;
  return Py_BuildValue(
      "{s:s,s:s,s:O,s:i}", "version", axb_version(), "blas", axb_blas_info(),
      "cuda", axb_backend_compiled(AXB_BACKEND_CUDA) ? Py_True : Py_False,
      "cuda_devices", ndev);
}

static PyObject *py_strerror(PyObject *self, PyObject *arg) {
  (void)self;
  long st = PyLong_AsLong(arg);
  if (st == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(axb_strerror((axb_status)st));
}

/* ---- the C baseline of the call-overhead benchmark ----------------------- */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Mean seconds per axb_solve of the same n x n double system (A
   diagonally dominant, b = ones) over `reps` calls, B restored before each
   call by a copy of n doubles as the Python path copies b: what a C caller
   pays for the certified solve the Python call wraps. */
static PyObject *py_c_solve_seconds(PyObject *self, PyObject *args) {
  (void)self;
  int n, reps;
  if (!PyArg_ParseTuple(args, "ii", &n, &reps)) return NULL;
  if (n < 1 || n > 64 || reps < 1) {
    PyErr_SetString(PyExc_ValueError, "1 <= n <= 64 and reps >= 1");
    return NULL;
  }
  double A[64 * 64], b[64], x[64];
  for (int j = 0; j < n; j++) {
    b[j] = 1;
    for (int i = 0; i < n; i++)
      A[i + j * n] = i == j ? n + 1.0 : 1.0 / (1 + i + j);
  }
  axb_handle h;
  axb_status st = axbpy_handle(AXB_BACKEND_AUTO, -1, &h);
  if (st) return PyErr_Format(PyExc_RuntimeError, "%s", axb_strerror(st));
  axb_dense Ad = axb_dense_wrap(n, n, n, AXB_F64, A);
  axb_dense Xd = axb_dense_wrap(n, 1, n, AXB_F64, x);
  axb_solve_opts o;
  axb_solve_opts_default(&o);
  double t0 = now_s();
  for (int r = 0; r < reps && !st; r++) {
    for (int i = 0; i < n; i++)
      x[i] = b[i];
    st = axb_solve(h, &Ad, &Xd, &o, NULL);
  }
  double t = (now_s() - t0) / reps;
  if (st) return PyErr_Format(PyExc_RuntimeError, "%s", axb_detail(h));
  return PyFloat_FromDouble(t);
}

/* ---- module -------------------------------------------------------------- */

#define FAST(name, fn, doc)                                                    \
  { name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc }

static PyMethodDef methods[] = {
    FAST("solve", axbpy_solve,
         "solve(A, B, method, backend, factor_precision, report)"),
    FAST("getrf", axbpy_getrf, "getrf(A, backend, overwrite)"),
    FAST("getrs", axbpy_getrs, "getrs(LU, ipiv, B, trans, backend, overwrite)"),
    FAST("potrf", axbpy_potrf, "potrf(A, lower, backend, overwrite)"),
    FAST("potrs", axbpy_potrs, "potrs(C, lower, B, backend, overwrite)"),
    FAST("invert", axbpy_invert, "invert(A, method, backend)"),
    FAST("solve_batched", axbpy_solve_batched,
         "solve_batched(A3, B3, cholesky, backend, check)"),
    FAST("inverse_batched", axbpy_inverse_batched,
         "inverse_batched(A3, backend)"),
    FAST("sparse_solve", axbpy_sparse_solve,
         "sparse_solve(indptr, indices, data, B, X0, opts, backend)"),
    FAST("dev_call", axbpy_dev_call,
         "dev_call(name, dtype, device, stream, "
         "ints...): a _dev or batched routine"),
    {"build_info", py_build_info, METH_NOARGS, "version, BLAS, CUDA"},
    {"strerror", py_strerror, METH_O, "axb_strerror(status)"},
    {"c_solve_seconds", py_c_solve_seconds, METH_VARARGS,
     "c_solve_seconds(n, reps): seconds per axb_solve call from C"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_axb",
                                    "axb's C extension (include/axb.h)",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__axb(void) {
  import_array();
  return PyModule_Create(&module);
}
