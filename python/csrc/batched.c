/*
 * batched.c — stacks of small systems: (batch, n, n) with (batch, n, k),
 * C-contiguous (python/axb/batched.py flattens the leading dimensions and
 * broadcasts), to axb's batched routines with a per-matrix info array.
 *
 * gesv_batched/posv_batched overwrite A with its factors, so A is copied
 * anyway; the copy transposes each row-major matrix into the column-major
 * order axb reads (for n = 8 that costs what a plain copy does, and the
 * batched API has no transposed solve).  X comes back as a (batch, n, k)
 * array whose matrices are column-major (strides (n k, 1, n) items): the
 * solve writes it in place, with no copy back.
 *
 * The certificate: with check, every problem's answer gets the backward
 * error ratio max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf n eps) of
 * DESIGN.md, computed in double from the caller's A and B; the Python side
 * flags a ratio >= 30 per matrix.  A problem whose factorization failed
 * (info > 0) gets NaN in x: axb leaves its B unchanged, which must never be
 * mistaken for an answer.
 */
#include "axbpy.h"

#include <math.h>

/* W_b := A_b^T for every b (row-major A is column-major A^T). */
#define TRANSPOSE_COPY(T)                                                      \
  static void transpose_##T(const T *A, T *W, int64_t n, int64_t k,            \
                            int64_t batch) {                                   \
    for (int64_t b = 0; b < batch; b++) {                                      \
      const T *a = A + b * n * k;                                              \
      T *w = W + b * n * k;                                                    \
      for (int64_t i = 0; i < n; i++)                                          \
        for (int64_t j = 0; j < k; j++)                                        \
          w[i + j * n] = a[i * k + j];                                         \
    }                                                                          \
  }
TRANSPOSE_COPY(float)
TRANSPOSE_COPY(double)

/* Per problem: the backward error ratio above; NaN in x when info != 0. */
#define CERTIFY(T)                                                             \
  static void certify_##T(const T *A, const T *B, T *X, const int *info,       \
                          double *berr, int64_t n, int64_t k, int64_t batch,   \
                          double eps) {                                        \
    for (int64_t b = 0; b < batch; b++) {                                      \
      const T *a = A + b * n * n, *bb = B + b * n * k;                         \
      T *x = X + b * n * k;                                                    \
      if (info[b]) {                                                           \
        for (int64_t i = 0; i < n * k; i++)                                    \
          x[i] = (T)NAN;                                                       \
        if (berr) berr[b] = INFINITY;                                          \
        continue;                                                              \
      }                                                                        \
      if (!berr) continue;                                                     \
      double anorm = 0, worst = 0;                                             \
      for (int64_t i = 0; i < n; i++) {                                        \
        double s = 0;                                                          \
        for (int64_t j = 0; j < n; j++)                                        \
          s += fabs((double)a[i * n + j]);                                     \
        anorm = s > anorm ? s : anorm;                                         \
      }                                                                        \
      for (int64_t c = 0; c < k; c++) {                                        \
        const T *xc = x + c * n;                                               \
        double rmax = 0, xmax = 0;                                             \
        for (int64_t i = 0; i < n; i++) {                                      \
          double r = (double)bb[i * k + c];                                    \
          for (int64_t j = 0; j < n; j++)                                      \
            r -= (double)a[i * n + j] * (double)xc[j];                         \
          rmax = fabs(r) > rmax ? fabs(r) : rmax;                              \
          xmax = fabs((double)xc[i]) > xmax ? fabs((double)xc[i]) : xmax;      \
        }                                                                      \
        double den = anorm * xmax * (double)n * eps;                           \
        double ratio = rmax == 0 ? 0 : den > 0 ? rmax / den : INFINITY;        \
        if (!(ratio <= worst)) worst = ratio; /* NaN propagates */             \
      }                                                                        \
      berr[b] = worst;                                                         \
    }                                                                          \
  }
CERTIFY(float)
CERTIFY(double)

static int check_stack(PyArrayObject *A, PyArrayObject *B, int *type) {
  if (PyArray_NDIM(A) != 3 || PyArray_DIM(A, 1) != PyArray_DIM(A, 2) ||
      !PyArray_IS_C_CONTIGUOUS(A) || !PyArray_ISBEHAVED_RO(A) ||
      (B &&
       (PyArray_NDIM(B) != 3 || PyArray_DIM(B, 0) != PyArray_DIM(A, 0) ||
        PyArray_DIM(B, 1) != PyArray_DIM(A, 1) || !PyArray_IS_C_CONTIGUOUS(B) ||
        !PyArray_ISBEHAVED_RO(B) || PyArray_TYPE(B) != PyArray_TYPE(A)))) {
    PyErr_SetString(PyExc_ValueError,
                    "internal: batched operands must be C-contiguous "
                    "(batch, n, n) and (batch, n, k) of one dtype");
    return -1;
  }
  *type = PyArray_TYPE(A);
  if (*type != NPY_FLOAT && *type != NPY_DOUBLE) {
    PyErr_SetString(PyExc_TypeError, "internal: float32 or float64 expected");
    return -1;
  }
  return 0;
}

static axb_status run_solve(axb_handle h, int type, int chol, int64_t n,
                            int64_t k, void *W, void *X, int *info,
                            int64_t batch) {
  if (type == NPY_FLOAT)
    return chol ? axb_sposv_batched(h, AXB_LOWER, n, k, W, n, n * n, X, n,
                                    n * k, info, batch)
                : axb_sgesv_batched(h, n, k, W, n, n * n, NULL, n, X, n, n * k,
                                    info, batch);
  return chol ? axb_dposv_batched(h, AXB_LOWER, n, k, W, n, n * n, X, n, n * k,
                                  info, batch)
              : axb_dgesv_batched(h, n, k, W, n, n * n, NULL, n, X, n, n * k,
                                  info, batch);
}

/* solve_batched(A3, B3, cholesky, backend, check)
   -> (X3, info int32, berr float64 or None, status, detail) */
PyObject *axbpy_solve_batched(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs) {
  (void)self;
  int chol, backend, check, type;
  if (nargs != 5 || axbpy_int(args[2], &chol) || axbpy_int(args[3], &backend) ||
      axbpy_int(args[4], &check)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "_axb.solve_batched takes 5 arguments");
    return NULL;
  }
  if (!PyArray_Check(args[0]) || !PyArray_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "internal: ndarrays expected");
    return NULL;
  }
  PyArrayObject *A = (PyArrayObject *)args[0], *B = (PyArrayObject *)args[1];
  if (check_stack(A, B, &type)) return NULL;
  int64_t batch = PyArray_DIM(A, 0), n = PyArray_DIM(A, 1);
  int64_t k = PyArray_DIM(B, 2);
  npy_intp it = PyArray_ITEMSIZE(A);
  npy_intp xdims[3] = {batch, n, k}, xstr[3] = {n * k * it, it, n * it};
  npy_intp one = batch;
  PyArrayObject *W = axbpy_empty(3, PyArray_DIMS(A), type, 0);
  PyArrayObject *X = (PyArrayObject *)PyArray_New(&PyArray_Type, 3, xdims, type,
                                                  xstr, NULL, 0, 0, NULL);
  PyArrayObject *Info = axbpy_empty(1, &one, NPY_INT32, 0);
  PyArrayObject *E = check ? axbpy_empty(1, &one, NPY_DOUBLE, 0) : NULL;
  PyObject *res = NULL;
  if (!W || !X || !Info || (check && !E)) goto done;
  /* info stays 0 where nothing runs (n = 0, k = 0 or an empty batch). */
  memset(PyArray_DATA(Info), 0, (size_t)batch * sizeof(int));
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  if (batch > 0 && n > 0 && k > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    const void *a = PyArray_DATA(A), *bb = PyArray_DATA(B);
    void *w = PyArray_DATA(W), *x = PyArray_DATA(X);
    int *info = PyArray_DATA(Info);
    double *berr = E ? PyArray_DATA(E) : NULL;
    double eps = axb_eps(axbpy_dtype(type));
    Py_BEGIN_ALLOW_THREADS;
    if (type == NPY_FLOAT) {
      transpose_float(a, w, n, n, batch);
      transpose_float(bb, x, n, k, batch);
    } else {
      transpose_double(a, w, n, n, batch);
      transpose_double(bb, x, n, k, batch);
    }
    st = run_solve(h, type, chol, n, k, w, x, info, batch);
    if (!st && type == NPY_FLOAT)
      certify_float(a, bb, x, info, berr, n, k, batch, eps);
    else if (!st)
      certify_double(a, bb, x, info, berr, n, k, batch, eps);
    Py_END_ALLOW_THREADS;
  } else if (E) {
    memset(PyArray_DATA(E), 0, (size_t)batch * sizeof(double));
  }
  PyObject *d = axbpy_detail(st, h);
  if (d)
    res = Py_BuildValue("(OOOiO)", X, Info, E ? (PyObject *)E : Py_None, st, d);
  Py_XDECREF(d);
done:
  Py_XDECREF(W);
  Py_XDECREF(X);
  Py_XDECREF(Info);
  Py_XDECREF(E);
  return res;
}

/* inverse_batched(A3, backend) -> (X3, info int32, status, detail).  Each
   row-major A_b is A_b^T to axb and inv(A^T) = inv(A)^T: the inverse
   written in place over a plain copy, read row-major, is inv(A_b). */
PyObject *axbpy_inverse_batched(PyObject *self, PyObject *const *args,
                                Py_ssize_t nargs) {
  (void)self;
  int backend, type;
  if (nargs != 2 || !PyArray_Check(args[0]) || axbpy_int(args[1], &backend)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "_axb.inverse_batched(A3, backend)");
    return NULL;
  }
  PyArrayObject *A = (PyArrayObject *)args[0];
  if (check_stack(A, NULL, &type)) return NULL;
  int64_t batch = PyArray_DIM(A, 0), n = PyArray_DIM(A, 1);
  npy_intp nb = batch;
  PyArrayObject *X = (PyArrayObject *)PyArray_NewCopy(A, NPY_CORDER);
  PyArrayObject *Info = axbpy_empty(1, &nb, NPY_INT32, 0);
  PyObject *res = NULL;
  if (!X || !Info) goto done;
  memset(PyArray_DATA(Info), 0, (size_t)batch * sizeof(int));
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  if (batch > 0 && n > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    void *x = PyArray_DATA(X);
    int *info = PyArray_DATA(Info);
    Py_BEGIN_ALLOW_THREADS;
    st = type == NPY_FLOAT
             ? axb_sinverse_batched(h, n, x, n, n * n, info, batch)
             : axb_dinverse_batched(h, n, x, n, n * n, info, batch);
    Py_END_ALLOW_THREADS;
  }
  PyObject *d = axbpy_detail(st, h);
  if (d) res = Py_BuildValue("(OOiO)", X, Info, st, d);
  Py_XDECREF(d);
done:
  Py_XDECREF(X);
  Py_XDECREF(Info);
  return res;
}
