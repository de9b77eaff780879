/*
 * sparse.c — axb_sparse_solve over a CSR matrix given as three arrays
 * (python/axb/sparse.py turns any scipy.sparse matrix into canonical CSR
 * with int64 indices: sorted columns, no duplicates, as axb_csr asks).
 * The CSR arrays are read in place; X is a new F-order (n, k) array.
 */
#include "axbpy.h"

static PyObject *sparse_report(const axb_sparse_report *r) {
  return Py_BuildValue(
      "{s:s,s:s,s:s,s:O,s:s,s:L,s:s,s:s,s:L,s:L,s:L,s:L,s:L,s:i,s:d,s:d,s:d,"
      "s:d}",
      "method", axb_sparse_method_name(r->method), "precond",
      axb_precond_name(r->precond), "precond_requested",
      axb_precond_name(r->precond_requested), "precond_fell_back",
      r->precond_fell_back ? Py_True : Py_False, "precond_status",
      axb_strerror(r->precond_status), "precond_info",
      (long long)r->precond_info, "breakdown",
      axb_sparse_breakdown_name(r->breakdown), "backend",
      axb_backend_name(r->backend), "n", (long long)r->n, "nnz",
      (long long)r->nnz, "nrhs", (long long)r->nrhs, "info", (long long)r->info,
      "iterations", (long long)r->iterations, "restarts", r->restarts,
      "t_setup", r->t_setup, "t_solve", r->t_solve, "residual", r->residual,
      "true_residual", r->true_residual);
}

/* opts = (method, precond, tol, max_iter, restart, sweeps, trisolve,
   tri_sweeps, history), each already validated by the Python side. */
static int parse_opts(PyObject *t, axb_sparse_opts *o) {
  axb_sparse_opts_default(o);
  int method, precond, restart, sweeps, trisolve, tri_sweeps, history;
  long long max_iter;
  double tol;
  if (!PyArg_ParseTuple(t, "iidLiiiip", &method, &precond, &tol, &max_iter,
                        &restart, &sweeps, &trisolve, &tri_sweeps, &history))
    return -1;
  o->method = (axb_sparse_method)method;
  o->precond = (axb_precond)precond;
  o->tol = tol;
  o->max_iter = max_iter;
  o->restart = restart;
  o->sweeps = sweeps;
  o->trisolve = (axb_trisolve)trisolve;
  o->tri_sweeps = tri_sweeps;
  o->history = history;
  return 0;
}

static PyArrayObject *vector(PyObject *o, int type) {
  PyArrayObject *a =
      (PyArrayObject *)PyArray_FROM_OTF(o, type, NPY_ARRAY_IN_ARRAY);
  if (a && PyArray_NDIM(a) != 1) {
    PyErr_SetString(PyExc_ValueError, "CSR arrays must be 1-D");
    Py_CLEAR(a);
  }
  return a;
}

static PyObject *history_array(const axb_sparse_report *r) {
  if (!r->history || r->history_len <= 0) Py_RETURN_NONE;
  npy_intp len = r->history_len;
  PyArrayObject *h = axbpy_empty(1, &len, NPY_DOUBLE, 0);
  if (h) memcpy(PyArray_DATA(h), r->history, (size_t)len * sizeof(double));
  return (PyObject *)h;
}

/* sparse_solve(indptr, indices, data, B, X0, opts, backend)
   -> (X, status, detail, report dict or None, history or None) */
PyObject *axbpy_sparse_solve(PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs) {
  (void)self;
  int backend;
  axb_sparse_opts o;
  if (nargs != 7 || axbpy_int(args[6], &backend) || parse_opts(args[5], &o)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "_axb.sparse_solve takes 7 arguments");
    return NULL;
  }
  PyArrayObject *P = NULL, *J = NULL, *V = NULL, *B = NULL, *X = NULL;
  PyObject *res = NULL;
  if (!PyArray_Check(args[3])) {
    PyErr_SetString(PyExc_TypeError, "internal: B must be an ndarray");
    return NULL;
  }
  B = (PyArrayObject *)args[3];
  Py_INCREF(B);
  int type = PyArray_TYPE(B);
  if (type != NPY_FLOAT && type != NPY_DOUBLE) {
    PyErr_SetString(PyExc_TypeError, "internal: float32 or float64 expected");
    goto done;
  }
  if (!(P = vector(args[0], NPY_INT64)) || !(J = vector(args[1], NPY_INT64)) ||
      !(V = vector(args[2], type)))
    goto done;
  int64_t n = PyArray_DIM(B, 0), nnz = PyArray_DIM(V, 0);
  if (PyArray_NDIM(B) != 2 || !PyArray_IS_F_CONTIGUOUS(B) ||
      !PyArray_ISBEHAVED_RO(B) || PyArray_DIM(P, 0) != n + 1 ||
      PyArray_DIM(J, 0) != nnz) {
    PyErr_SetString(PyExc_ValueError, "internal: inconsistent CSR arrays");
    goto done;
  }
  if (args[4] != Py_None) {
    if (!(X = axbpy_fcopy((PyArrayObject *)args[4], type))) goto done;
    o.use_x0 = 1;
  } else if (!(X = axbpy_empty(2, PyArray_DIMS(B), type, 1))) {
    goto done;
  }
  axb_csr A = {n,
               n,
               nnz,
               axbpy_dtype(type),
               PyArray_DATA(P),
               PyArray_DATA(J),
               PyArray_DATA(V)};
  axb_handle h = NULL;
  axb_sparse_report rep;
  memset(&rep, 0, sizeof rep);
  axb_status st = axbpy_handle(backend, -1, &h);
  if (!st) {
    axb_dense Bd = axbpy_wrap(B, n > 0 ? n : 1),
              Xd = axbpy_wrap(X, n > 0 ? n : 1);
    Py_BEGIN_ALLOW_THREADS;
    st = axb_sparse_solve(h, &A, &Bd, &Xd, &o, &rep);
    Py_END_ALLOW_THREADS;
  }
  PyObject *d = axbpy_detail(st, h);
  PyObject *r = h ? sparse_report(&rep) : (Py_INCREF(Py_None), Py_None);
  PyObject *hist = history_array(&rep);
  axb_sparse_report_free(&rep);
  if (d && r && hist) res = Py_BuildValue("(OiOOO)", X, st, d, r, hist);
  Py_XDECREF(d);
  Py_XDECREF(r);
  Py_XDECREF(hist);
done:
  Py_XDECREF(P);
  Py_XDECREF(J);
  Py_XDECREF(V);
  Py_XDECREF(B);
  Py_XDECREF(X);
  return res;
}
