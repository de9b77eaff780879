/*
 * layout.c — dtype choice, column-/row-major detection, symmetry test and
 * array allocation for the extension's entries.
 */
#include "axbpy.h"

#include <string.h>

int axbpy_real_type(PyArrayObject *a, PyArrayObject *b) {
  PyArrayObject *arr[2] = {a, b};
  int all_float = 1;
  for (int k = 0; k < 2; k++) {
    if (!arr[k]) continue;
    int t = PyArray_TYPE(arr[k]);
    if (t == NPY_FLOAT) continue;
    all_float = 0;
    if (t == NPY_DOUBLE || PyTypeNum_ISINTEGER(t) || PyTypeNum_ISBOOL(t) ||
        t == NPY_HALF)
      continue;
    PyErr_Format(PyExc_TypeError,
                 "axb solves real float32/float64 systems; got dtype %S",
                 (PyObject *)PyArray_DESCR(arr[k]));
    return -1;
  }
  return all_float ? NPY_FLOAT : NPY_DOUBLE;
}

/* A usable operand: aligned, native byte order, of the chosen type. */
static int behaved(PyArrayObject *a) {
  return PyArray_ISALIGNED(a) && PyArray_ISNOTSWAPPED(a);
}

/* Column-major with leading dimension: stride of a row step is one item,
   a column step a positive multiple of it and at least rows (1-element
   dimensions may carry any stride). */
static int strided_major(PyArrayObject *a, int row_axis, int64_t *ld) {
  if (PyArray_NDIM(a) != 2 || !behaved(a)) return 0;
  npy_intp it = PyArray_ITEMSIZE(a);
  npy_intp r = PyArray_DIM(a, row_axis), c = PyArray_DIM(a, 1 - row_axis);
  npy_intp sr = PyArray_STRIDE(a, row_axis),
           sc = PyArray_STRIDE(a, 1 - row_axis);
  if (r > 1 && sr != it) return 0;
  if (c <= 1) {
    *ld = r > 1 ? r : 1;
    return 1;
  }
  if (sc <= 0 || sc % it || sc / it < r) return 0;
  *ld = sc / it;
  return 1;
}

int axbpy_colmajor(PyArrayObject *a, int64_t *ld) {
  return strided_major(a, 0, ld);
}

int axbpy_rowmajor(PyArrayObject *a, int64_t *ld) {
  return strided_major(a, 1, ld);
}

/* Bitwise-exact symmetry (NaN never equals itself: such an A goes the
   general way, where the driver reports the NaN).  Stops at the first
   mismatch, which for an unsymmetric matrix is nearly always in the first
   column. */
int axbpy_symmetric(const void *p, int64_t n, int64_t ld, int type) {
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j + 1; i < n; i++) {
      if (type == NPY_FLOAT) {
        const float *a = p;
        if (a[i + j * ld] != a[j + i * ld]) return 0;
      } else {
        const double *a = p;
        if (a[i + j * ld] != a[j + i * ld]) return 0;
      }
    }
  return 1;
}

PyArrayObject *axbpy_empty(int nd, const npy_intp *dims, int type,
                           int fortran) {
  return (PyArrayObject *)PyArray_New(&PyArray_Type, nd, (npy_intp *)dims, type,
                                      NULL, NULL, 0, fortran, NULL);
}

/* dst (rows x cols, column-major, leading dimension rows) := src (the same
   matrix stored row-major, rows lds apart), in square tiles so that both
   sides stay in cache: NumPy's own transposing copy walks one side with a
   stride of a whole row and ran at 1/10 of a plain copy at n = 4096.
   Tiles are independent: OpenMP splits them over the cores. */
#define TILE                                                                   \
  8 /* measured at n = 4096: 8 beat 16, 32 and 64 (rows 2^15 bytes apart share \
       cache sets) */

/* The tile of src starting at row i0, column j0 (as entries of size `it`:
   double or float, chosen by the caller's type). */
static void tile_copy(char *dst, const char *src, int64_t rows, int64_t cols,
                      int64_t lds, int64_t i0, int64_t j0, size_t it) {
  int64_t i1 = i0 + TILE < rows ? i0 + TILE : rows;
  int64_t j1 = j0 + TILE < cols ? j0 + TILE : cols;
  if (it == sizeof(double)) {
    double *d = (double *)(void *)dst;
    const double *a = (const double *)(const void *)src;
    for (int64_t j = j0; j < j1; j++)
      for (int64_t i = i0; i < i1; i++)
        d[i + j * rows] = a[i * lds + j];
  } else {
    float *d = (float *)(void *)dst;
    const float *a = (const float *)(const void *)src;
    for (int64_t j = j0; j < j1; j++)
      for (int64_t i = i0; i < i1; i++)
        d[i + j * rows] = a[i * lds + j];
  }
}

static void transpose_copy(void *dst, const void *src, int64_t rows,
                           int64_t cols, int64_t lds, size_t it) {
  int64_t tr = (rows + TILE - 1) / TILE, tc = (cols + TILE - 1) / TILE;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (rows * cols > 65536)
#endif
  for (int64_t t = 0; t < tr * tc; t++)
    tile_copy(dst, src, rows, cols, lds, (t / tc) * TILE, (t % tc) * TILE, it);
}

PyArrayObject *axbpy_fcopy(PyArrayObject *a, int type) {
  PyArrayObject *x = axbpy_empty(PyArray_NDIM(a), PyArray_DIMS(a), type, 1);
  if (!x) return NULL;
  int64_t ld;
  /* The common case (a small b of the right dtype, contiguous) as one
     memcpy: NumPy's general copy costs about a microsecond more, which is
     a fifth of the call-overhead budget on a 4 x 4 system. */
  if (PyArray_TYPE(a) == type && PyArray_IS_F_CONTIGUOUS(a) &&
      PyArray_ISBEHAVED_RO(a)) {
    memcpy(PyArray_DATA(x), PyArray_DATA(a), (size_t)PyArray_NBYTES(a));
    return x;
  }
  if (PyArray_TYPE(a) == type && PyArray_NDIM(a) == 2 &&
      axbpy_rowmajor(a, &ld)) {
    int64_t r = PyArray_DIM(a, 0), c = PyArray_DIM(a, 1);
    void *d = PyArray_DATA(x);
    const void *s = PyArray_DATA(a);
    Py_BEGIN_ALLOW_THREADS;
    transpose_copy(d, s, r, c, ld, (size_t)PyArray_ITEMSIZE(a));
    Py_END_ALLOW_THREADS;
    return x;
  }
  if (PyArray_CopyInto(x, a) < 0) Py_CLEAR(x);
  return x;
}

axb_dense axbpy_wrap(PyArrayObject *a, int64_t ld) {
  int64_t rows = PyArray_DIM(a, 0);
  int64_t cols = PyArray_NDIM(a) > 1 ? PyArray_DIM(a, 1) : 1;
  return axb_dense_wrap(rows, cols, ld < 1 ? 1 : ld,
                        axbpy_dtype(PyArray_TYPE(a)), PyArray_DATA(a));
}

int axbpy_int(PyObject *o, int *out) {
  long v = PyLong_AsLong(o);
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = (int)v;
  return 0;
}
