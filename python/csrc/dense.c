/*
 * dense.c — one dense system: the certified driver (axb_solve), the typed
 * LU and Cholesky factor/solve pairs (scipy's lu_factor / cho_factor
 * conventions are finished in python/axb/dense.py) and the inverse.
 *
 * Copies: axb_solve leaves A alone (it factors a copy of its own), so a
 * column-major A goes in as it is.  A row-major A is A^T to axb: it goes in
 * as it is too, with opts.trans = AXB_TRANS (the driver solves (A^T)^T X =
 * A X = B and certifies that system).  Only the two methods without a
 * transposed solve (gauss, lu-mixed) still get a column-major copy of an
 * unsymmetric row-major A.  The factorizations work in place on a copy (the
 * caller's array when overwrite is asked and its layout allows).
 */
#include "axbpy.h"

/* Argument i of a FASTCALL entry as an ndarray (new reference). */
static PyArrayObject *arg_array(PyObject *o) {
  return (PyArrayObject *)PyArray_FROM_O(o);
}

static int is_cholesky_method(int m) {
  return m == AXB_METHOD_CHOLESKY || m == AXB_METHOD_CHOLESKY_CROUT ||
         m == AXB_METHOD_CHOLESKY_BANACHIEWICZ ||
         m == AXB_METHOD_CHOLESKY_MIXED;
}

static int check_nargs(Py_ssize_t got, Py_ssize_t want, const char *name) {
  if (got == want) return 0;
  PyErr_Format(PyExc_TypeError, "_axb.%s takes %zd arguments", name, want);
  return -1;
}

/* The methods whose driver path has no transposed solve. */
static int has_trans(int method) {
  return method != AXB_METHOD_GAUSS && method != AXB_METHOD_LU_MIXED;
}

/* A as a column-major matrix M axb reads and *trans such that op(M) = A:
   a new reference to A itself (column-major: M = A; row-major: M = A^T,
   *trans = AXB_TRANS, or NO_TRANS where A^T = A) or to a column-major
   copy; ld out. */
static PyArrayObject *driver_matrix(PyArrayObject *A, int type, int method,
                                    int64_t *ld, axb_trans *trans) {
  *trans = AXB_NO_TRANS;
  if (PyArray_TYPE(A) == type && axbpy_colmajor(A, ld)) {
    Py_INCREF(A);
    return A;
  }
  if (PyArray_TYPE(A) == type && axbpy_rowmajor(A, ld) &&
      (has_trans(method) || is_cholesky_method(method) ||
       axbpy_symmetric(PyArray_DATA(A), PyArray_DIM(A, 0), *ld, type))) {
    /* The Cholesky methods need A^T = A (the driver checks): trans is
       theirs to ignore. */
    if (has_trans(method)) *trans = AXB_TRANS;
    Py_INCREF(A);
    return A;
  }
  PyArrayObject *c = axbpy_fcopy(A, type);
  *ld = PyArray_DIM(A, 0);
  return c;
}

/* A0 as it is when it already has the type, in column-major (*rowmajor =
   0) or row-major (*rowmajor = 1) order with leading dimension *ld: a new
   reference to it; otherwise a column-major copy (*ld = max(1, n)).  NULL
   with a Python error when the copy fails. */
static PyArrayObject *either_order(PyArrayObject *A0, int type, int64_t *ld,
                                   int *rowmajor) {
  const int64_t n = PyArray_DIM(A0, 0);
  *rowmajor = 0;
  if (PyArray_TYPE(A0) == type && axbpy_colmajor(A0, ld)) {
    Py_INCREF(A0);
    return A0;
  }
  if (PyArray_TYPE(A0) == type && axbpy_rowmajor(A0, ld)) {
    *rowmajor = 1;
    Py_INCREF(A0);
    return A0;
  }
  *ld = n > 1 ? n : 1;
  return axbpy_fcopy(A0, type);
}

static PyObject *report_tuple(const axb_report *r) {
  return Py_BuildValue(
      "{s:s,s:s,s:s,s:L,s:L,s:L,s:O,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:s,s:L,"
      "s:L,s:L,s:i,s:L}",
      "method", axb_method_name(r->method), "backend",
      axb_backend_name(r->backend), "dtype", axb_dtype_name(r->dtype), "n",
      (long long)r->n, "nrhs", (long long)r->nrhs, "info", (long long)r->info,
      "cholesky_fell_back", r->cholesky_fell_back ? Py_True : Py_False,
      "t_factor", r->t_factor, "t_solve", r->t_solve, "t_transfer",
      r->t_transfer, "t_certify", r->t_certify, "t_total", r->t_total, "gflops",
      r->gflops, "backward_error", r->backward_error, "rcond", r->rcond,
      "factor_precision", axb_factor_precision_name(r->factor_precision),
      "refine_steps", (long long)r->refine_steps, "gmres_iters",
      (long long)r->gmres_iters, "mixed_iter", (long long)r->mixed_iter,
      "mixed_fallbacks", r->mixed_fallbacks, "sweeps", (long long)r->sweeps);
}

/* Shapes of solve's operands: A n x n, B (n,) or (n, k). */
static int check_system(PyArrayObject *A, PyArrayObject *B) {
  if (PyArray_NDIM(A) != 2 || PyArray_DIM(A, 0) != PyArray_DIM(A, 1)) {
    PyErr_SetString(PyExc_ValueError, "A must be a square 2-D array");
    return -1;
  }
  if (B && (PyArray_NDIM(B) < 1 || PyArray_NDIM(B) > 2 ||
            PyArray_DIM(B, 0) != PyArray_DIM(A, 0))) {
    PyErr_Format(PyExc_ValueError,
                 "b must have shape (%zd,) or (%zd, k) for A of shape "
                 "(%zd, %zd)",
                 (Py_ssize_t)PyArray_DIM(A, 0), (Py_ssize_t)PyArray_DIM(A, 0),
                 (Py_ssize_t)PyArray_DIM(A, 0), (Py_ssize_t)PyArray_DIM(A, 1));
    return -1;
  }
  return 0;
}

/* solve(A, B, method, backend, factor_precision, report)
   -> (X, status, info, detail, report dict or None) */
PyObject *axbpy_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  int method, backend, fprec, want;
  if (check_nargs(nargs, 6, "solve") || axbpy_int(args[2], &method) ||
      axbpy_int(args[3], &backend) || axbpy_int(args[4], &fprec) ||
      axbpy_int(args[5], &want))
    return NULL;
  PyArrayObject *A = arg_array(args[0]), *B = NULL, *Aw = NULL, *X = NULL;
  PyObject *res = NULL;
  if (!A || !(B = arg_array(args[1])) || check_system(A, B)) goto done;
  int type = axbpy_real_type(A, B);
  if (type < 0) goto done;
  int64_t ld = 1;
  axb_trans trans = AXB_NO_TRANS;
  if (!(Aw = driver_matrix(A, type, method, &ld, &trans))) goto done;
  if (!(X = axbpy_fcopy(B, type))) goto done;
  int64_t n = PyArray_DIM(A, 0);
  if (n == 0 || PyArray_SIZE(X) == 0) {
    res = Py_BuildValue("(OiiOO)", X, 0, 0, Py_None, Py_None);
    goto done;
  }
  axb_handle h;
  axb_status st = axbpy_handle(backend, -1, &h);
  axb_report rep;
  rep.info = 0;
  if (!st) {
    axb_dense Ad = axbpy_wrap(Aw, ld), Xd = axbpy_wrap(X, n);
    axb_solve_opts o;
    axb_solve_opts_default(&o);
    o.method = (axb_method)method;
    o.trans = trans;
    if (fprec >= 0) o.mixed.precision = (axb_factor_precision)fprec;
    Py_BEGIN_ALLOW_THREADS;
    st = axb_solve(h, &Ad, &Xd, &o, &rep);
    Py_END_ALLOW_THREADS;
  }
  PyObject *detail = axbpy_detail(st, h);
  PyObject *r = want && h ? report_tuple(&rep) : (Py_INCREF(Py_None), Py_None);
  if (detail && r)
    res = Py_BuildValue("(OiLOO)", X, st, (long long)rep.info, detail, r);
  Py_XDECREF(detail);
  Py_XDECREF(r);
done:
  Py_XDECREF(A);
  Py_XDECREF(B);
  Py_XDECREF(Aw);
  Py_XDECREF(X);
  return res;
}

/* A copy of A (type; F-order, or C-order when fortran = 0) to factor in
   place, or A itself when overwrite is asked and A is a writeable array
   of type in that order. */
static PyArrayObject *work_copy(PyArrayObject *A, int type, int overwrite,
                                int fortran) {
  if (overwrite && PyArray_TYPE(A) == type && PyArray_ISWRITEABLE(A) &&
      PyArray_ISBEHAVED(A) &&
      (fortran ? PyArray_IS_F_CONTIGUOUS(A) : PyArray_IS_C_CONTIGUOUS(A))) {
    Py_INCREF(A);
    return A;
  }
  if (fortran) return axbpy_fcopy(A, type);
  PyArrayObject *x = axbpy_empty(PyArray_NDIM(A), PyArray_DIMS(A), type, 0);
  if (x && PyArray_CopyInto(x, A) < 0) Py_CLEAR(x);
  return x;
}

static PyObject *status_tuple(PyObject *a, PyObject *b, axb_status st,
                              int64_t info, axb_handle h) {
  PyObject *d = axbpy_detail(st, h);
  if (!d) return NULL;
  PyObject *r = b ? Py_BuildValue("(OOiLO)", a, b, st, (long long)info, d)
                  : Py_BuildValue("(OiLO)", a, st, (long long)info, d);
  Py_DECREF(d);
  return r;
}

/* getrf(A, backend, overwrite) -> (LU F-order, ipiv int64 1-based, status,
   info, detail); A m x n. */
PyObject *axbpy_getrf(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  int backend, overwrite;
  if (check_nargs(nargs, 3, "getrf") || axbpy_int(args[1], &backend) ||
      axbpy_int(args[2], &overwrite))
    return NULL;
  PyArrayObject *A = arg_array(args[0]), *LU = NULL, *P = NULL;
  PyObject *res = NULL;
  if (!A) return NULL;
  if (PyArray_NDIM(A) != 2) {
    PyErr_SetString(PyExc_ValueError, "a must be a 2-D array");
    goto done;
  }
  int type = axbpy_real_type(A, NULL);
  if (type < 0 || !(LU = work_copy(A, type, overwrite, 1))) goto done;
  int64_t m = PyArray_DIM(A, 0), n = PyArray_DIM(A, 1);
  npy_intp k = m < n ? m : n;
  if (!(P = axbpy_empty(1, &k, NPY_INT64, 0))) goto done;
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  int64_t info = 0;
  if (k > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    void *a = PyArray_DATA(LU);
    int64_t *ip = PyArray_DATA(P), lda = m > 1 ? m : 1;
    Py_BEGIN_ALLOW_THREADS;
    if (type == NPY_FLOAT)
      st = axb_sgetrf(h, m, n, a, lda, ip, &info);
    else
      st = axb_dgetrf(h, m, n, a, lda, ip, &info);
    Py_END_ALLOW_THREADS;
  }
  res = status_tuple((PyObject *)LU, (PyObject *)P, st, info, h);
done:
  Py_XDECREF(A);
  Py_XDECREF(LU);
  Py_XDECREF(P);
  return res;
}

/* The right-hand side to overwrite with X: B itself (overwrite, F-order,
   type) or an F-order copy. */
static PyArrayObject *rhs_copy(PyArrayObject *B, int type, int overwrite) {
  return work_copy(B, type, overwrite, 1);
}

/* getrs(LU, ipiv, B, trans, backend, overwrite) -> (X, status, info, detail) */
PyObject *axbpy_getrs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  int trans, backend, overwrite;
  if (check_nargs(nargs, 6, "getrs") || axbpy_int(args[3], &trans) ||
      axbpy_int(args[4], &backend) || axbpy_int(args[5], &overwrite))
    return NULL;
  PyArrayObject *L0 = arg_array(args[0]), *LU = NULL, *B = NULL, *X = NULL;
  PyArrayObject *P = NULL;
  PyObject *res = NULL;
  if (!L0 || !(B = arg_array(args[2])) || check_system(L0, B)) goto done;
  int type = axbpy_real_type(L0, NULL);
  if (type < 0) goto done;
  int64_t ld = 1, n = PyArray_DIM(L0, 0);
  if (PyArray_TYPE(L0) == type && axbpy_colmajor(L0, &ld)) {
    LU = L0;
    Py_INCREF(LU);
  } else if (!(LU = axbpy_fcopy(L0, type)))
    goto done;
  else
    ld = n > 1 ? n : 1;
  P = (PyArrayObject *)PyArray_FROM_OTF(args[1], NPY_INT64, NPY_ARRAY_IN_ARRAY);
  if (!P) goto done;
  if (PyArray_NDIM(P) != 1 || PyArray_DIM(P, 0) != n) {
    PyErr_SetString(PyExc_ValueError, "piv must have one entry per row of lu");
    goto done;
  }
  if (!(X = rhs_copy(B, type, overwrite))) goto done;
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  int64_t info = 0, nrhs = PyArray_NDIM(X) > 1 ? PyArray_DIM(X, 1) : 1;
  if (n > 0 && nrhs > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    const void *a = PyArray_DATA(LU);
    void *x = PyArray_DATA(X);
    const int64_t *ip = PyArray_DATA(P);
    axb_trans tr = trans ? AXB_TRANS : AXB_NO_TRANS;
    Py_BEGIN_ALLOW_THREADS;
    if (type == NPY_FLOAT)
      st = axb_sgetrs(h, tr, n, nrhs, a, ld, ip, x, n, &info);
    else
      st = axb_dgetrs(h, tr, n, nrhs, a, ld, ip, x, n, &info);
    Py_END_ALLOW_THREADS;
  }
  res = status_tuple((PyObject *)X, NULL, st, info, h);
done:
  Py_XDECREF(L0);
  Py_XDECREF(LU);
  Py_XDECREF(B);
  Py_XDECREF(X);
  Py_XDECREF(P);
  return res;
}

/* potrf(A, lower, backend, overwrite) -> (C, status, info, detail).  A
   C-order A is factored in C order with the other triangle: its row-major
   upper triangle is the column-major lower one of the same buffer. */
PyObject *axbpy_potrf(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  int lower, backend, overwrite;
  if (check_nargs(nargs, 4, "potrf") || axbpy_int(args[1], &lower) ||
      axbpy_int(args[2], &backend) || axbpy_int(args[3], &overwrite))
    return NULL;
  PyArrayObject *A = arg_array(args[0]), *C = NULL;
  PyObject *res = NULL;
  if (!A || check_system(A, NULL)) goto done;
  int type = axbpy_real_type(A, NULL);
  if (type < 0) goto done;
  int corder = PyArray_IS_C_CONTIGUOUS(A) && !PyArray_IS_F_CONTIGUOUS(A);
  if (!(C = work_copy(A, type, overwrite, !corder))) goto done;
  int64_t n = PyArray_DIM(A, 0), info = 0;
  axb_uplo uplo = (lower != 0) != corder ? AXB_LOWER : AXB_UPPER;
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  if (n > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    void *a = PyArray_DATA(C);
    Py_BEGIN_ALLOW_THREADS;
    if (type == NPY_FLOAT)
      st = axb_spotrf(h, uplo, n, a, n, &info);
    else
      st = axb_dpotrf(h, uplo, n, a, n, &info);
    Py_END_ALLOW_THREADS;
  }
  res = status_tuple((PyObject *)C, NULL, st, info, h);
done:
  Py_XDECREF(A);
  Py_XDECREF(C);
  return res;
}

/* potrs(C, lower, B, backend, overwrite) -> (X, status, info, detail). */
PyObject *axbpy_potrs(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  int lower, backend, overwrite;
  if (check_nargs(nargs, 5, "potrs") || axbpy_int(args[1], &lower) ||
      axbpy_int(args[3], &backend) || axbpy_int(args[4], &overwrite))
    return NULL;
  PyArrayObject *C0 = arg_array(args[0]), *C = NULL, *B = NULL, *X = NULL;
  PyObject *res = NULL;
  if (!C0 || !(B = arg_array(args[2])) || check_system(C0, B)) goto done;
  int type = axbpy_real_type(C0, NULL);
  if (type < 0) goto done;
  int64_t ld = 1, n = PyArray_DIM(C0, 0), info = 0;
  int flip = 0;
  if (!(C = either_order(C0, type, &ld, &flip))) goto done;
  if (!(X = rhs_copy(B, type, overwrite))) goto done;
  axb_uplo uplo = (lower != 0) != flip ? AXB_LOWER : AXB_UPPER;
  int64_t nrhs = PyArray_NDIM(X) > 1 ? PyArray_DIM(X, 1) : 1;
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  if (n > 0 && nrhs > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    const void *a = PyArray_DATA(C);
    void *x = PyArray_DATA(X);
    Py_BEGIN_ALLOW_THREADS;
    if (type == NPY_FLOAT)
      st = axb_spotrs(h, uplo, n, nrhs, a, ld, x, n, &info);
    else
      st = axb_dpotrs(h, uplo, n, nrhs, a, ld, x, n, &info);
    Py_END_ALLOW_THREADS;
  }
  res = status_tuple((PyObject *)X, NULL, st, info, h);
done:
  Py_XDECREF(C0);
  Py_XDECREF(C);
  Py_XDECREF(B);
  Py_XDECREF(X);
  return res;
}

/* invert(A, method, backend) -> (X, status, info, detail).  A row-major A
   is A^T to axb and inv(A^T) = inv(A)^T: written row-major, X is inv(A),
   so neither order needs a transposing copy. */
PyObject *axbpy_invert(PyObject *self, PyObject *const *args,
                       Py_ssize_t nargs) {
  (void)self;
  int method, backend;
  if (check_nargs(nargs, 3, "invert") || axbpy_int(args[1], &method) ||
      axbpy_int(args[2], &backend))
    return NULL;
  PyArrayObject *A0 = arg_array(args[0]), *A = NULL, *X = NULL;
  PyObject *res = NULL;
  if (!A0 || check_system(A0, NULL)) goto done;
  int type = axbpy_real_type(A0, NULL);
  if (type < 0) goto done;
  int64_t ld = 1, n = PyArray_DIM(A0, 0);
  int corder = 0;
  if (!(A = either_order(A0, type, &ld, &corder))) goto done;
  if (!(X = axbpy_empty(2, PyArray_DIMS(A0), type, !corder))) goto done;
  axb_handle h = NULL;
  axb_status st = AXB_SUCCESS;
  if (n > 0 && !(st = axbpy_handle(backend, -1, &h))) {
    axb_dense Ad = axbpy_wrap(A, ld), Xd = axbpy_wrap(X, n);
    Py_BEGIN_ALLOW_THREADS;
    st = axb_invert(h, &Ad, &Xd, (axb_method)method);
    Py_END_ALLOW_THREADS;
  }
  int64_t info = 0;
  if (st == AXB_ERR_SINGULAR) {
    /* The detail names the pivot ("... pivot 3 ..."); the Python side
       parses it into the exception's index. */
    info = -1;
  }
  res = status_tuple((PyObject *)X, NULL, st, info, h);
done:
  Py_XDECREF(A0);
  Py_XDECREF(A);
  Py_XDECREF(X);
  return res;
}
