/*
 * axbpy.h — the internal interface of axb's Python extension module
 * (`axb._axb`), a client of the public include/axb.h only (like the CLI
 * and lapack/; tests/layering_check.sh enforces it).
 *
 * The module is thin: each entry takes NumPy arrays (or, for GPU arrays,
 * raw device pointers the Python side read from the array), checks shapes
 * and dtypes before any work (ValueError / TypeError), runs one axb call
 * with the GIL released and returns the array(s) with the axb status, the
 * index (info) and the handle's detail message.  Numerical outcomes are
 * never raised here: python/axb/_errors.py turns statuses into exceptions,
 * so that the batched and "check=False" paths can report them instead.
 *
 * Layout: axb is column-major.  A C-order (row-major) n x n array is A^T in
 * column-major, which each entry uses without a copy where the maths allows
 * (inverse: inv(A^T) = inv(A)^T; Cholesky: the other triangle; symmetric
 * A), and copies otherwise (python/README section in the top README).
 */
#ifndef AXBPY_H
#define AXBPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL axbpy_ARRAY_API
#ifndef AXBPY_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <axb.h>

/* module.c: a handle for (backend, device) owned by the calling thread
   (axb handles are used by one thread at a time), created on first use and
   destroyed when the thread exits. */
axb_status axbpy_handle(int backend, int device, axb_handle *out);
/* (status, info, detail-or-None) as a new tuple's tail helpers. */
PyObject *axbpy_detail(axb_status st, axb_handle h);

/* layout.c: array helpers. */
/* NPY_FLOAT when every array given is float32, else NPY_DOUBLE; TypeError
   (-1) for complex, object, string or other non-real dtypes. */
int axbpy_real_type(PyArrayObject *a, PyArrayObject *b);
/* 1 when a (2-D) is column-major with a leading dimension: entries of a
   column adjacent, columns ld apart; ld out.  rowmajor: the transpose. */
int axbpy_colmajor(PyArrayObject *a, int64_t *ld);
int axbpy_rowmajor(PyArrayObject *a, int64_t *ld);
/* Exactly symmetric n x n at p (column-major, ld), type NPY_FLOAT/DOUBLE. */
int axbpy_symmetric(const void *p, int64_t n, int64_t ld, int type);
/* A new array of the given shape, dtype and order (fortran = 1: F). */
PyArrayObject *axbpy_empty(int nd, const npy_intp *dims, int type, int fortran);
/* A new F-order copy of `a` as type (the right-hand side to overwrite). */
PyArrayObject *axbpy_fcopy(PyArrayObject *a, int type);
/* axb descriptor over a column-major 2-D (or 1-D: one column) array. */
axb_dense axbpy_wrap(PyArrayObject *a, int64_t ld);
/* Parse helpers for METH_FASTCALL entries: an int or a bool argument. */
int axbpy_int(PyObject *o, int *out);
/* The dtype of an NPY type (AXB_F32 / AXB_F64). */
static inline axb_dtype axbpy_dtype(int type) {
  return type == NPY_FLOAT ? AXB_F32 : AXB_F64;
}

/* Entries (dense.c, batched.c, sparse.c, device.c). */
PyObject *axbpy_solve(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_getrf(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_getrs(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_potrf(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_potrs(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_invert(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *axbpy_solve_batched(PyObject *self, PyObject *const *args,
                              Py_ssize_t n);
PyObject *axbpy_inverse_batched(PyObject *self, PyObject *const *args,
                                Py_ssize_t n);
PyObject *axbpy_sparse_solve(PyObject *self, PyObject *const *args,
                             Py_ssize_t n);
PyObject *axbpy_dev_call(PyObject *self, PyObject *const *args, Py_ssize_t n);

#endif /* AXBPY_H */
