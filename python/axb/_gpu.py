"""GPU arrays: CuPy arrays and PyTorch CUDA tensors to axb's device
routines (getrf/getrs/potrf/potrs/getri _dev, the batched kernels).

Nothing moves to the host: the working copies (axb factors in place) and
the results are allocated by the caller's array library on the array's
device, every kernel runs on the caller's current stream (CuPy's
get_current_stream, PyTorch's current_stream), and the result is the same
kind of array.  The pointers come from the libraries' own accessors (what
__cuda_array_interface__ and DLPack export).

Layout: a C-order (row-major) matrix is A^T to axb, so a single system is
factored as A^T (a plain copy) and solved with getrs(TRANS); a stack is
copied transposed (one copy, needed anyway); the inverse of A^T read in C
order is inv(A).

check=True certifies on the device (||b - A x||_inf / (||A||_inf ||x||_inf
n eps) < 30, DESIGN.md) and then synchronises once to read the verdict
and the pivot info; check=False queues everything and returns without a
synchronisation, with the info left on the device in the report.  Batched
calls never synchronise unless strict=True.
"""
import math

import numpy as np

from . import _axb
from ._errors import SINGULAR, NOT_SPD, INACCURATE, raise_for, error_for
from ._report import BatchReport, SolveReport


def kind(a):
    """'cupy', 'torch' (a CUDA tensor), or None."""
    mod = type(a).__module__
    if mod.startswith("cupy"):
        return "cupy"
    if mod.startswith("torch") and getattr(a, "is_cuda", False):
        return "torch"
    return None


class _Lib:
    """What axb needs from an array library."""

    def __init__(self, a):
        self.name = kind(a)
        if self.name == "cupy":
            import cupy
            self.xp = cupy
            self.device = a.device.id
        else:
            import torch
            self.xp = torch
            self.device = a.device.index or 0

    def stream(self):
        if self.name == "cupy":
            return self.xp.cuda.get_current_stream().ptr
        return self.xp.cuda.current_stream(self.device).cuda_stream

    def ptr(self, a):
        return a.data.ptr if self.name == "cupy" else a.data_ptr()

    def dtype(self, *arrays):
        """'float32' when every array is float32, else 'float64'."""
        names = [self._dtype_name(a) for a in arrays]
        for s in names:
            if not (s.startswith(("float", "int", "uint")) or
                    s in ("bool", "bfloat16")) or s == "float128":
                raise TypeError("axb solves real float32/float64 systems; "
                                "got dtype %s" % s)
        return "float32" if all(s == "float32" for s in names) else "float64"

    _names = {}  # dtype object -> its name (str() of a dtype costs ~2 us)

    def _dtype_name(self, a):
        d = a.dtype
        name = _Lib._names.get(d)
        if name is None:
            name = _Lib._names[d] = str(d).replace("torch.", "")
        return name

    def is_c(self, a):
        """C-contiguous (cheap flags, no stride arithmetic)."""
        return a.flags.c_contiguous if self.name == "cupy" \
            else a.is_contiguous()

    def _t(self, dtype):
        return getattr(self.xp, dtype)

    def empty(self, shape, dtype):
        """C-contiguous, on the array's device."""
        return self.empties((shape, dtype))[0]

    def copy_into(self, dst, src):
        if self.name == "cupy":
            dst[...] = src
        else:
            dst.copy_(src)
        return dst

    def estrides(self, a):
        """Strides in elements."""
        if self.name == "cupy":
            return tuple(st // a.itemsize for st in a.strides)
        return tuple(a.stride())

    def rowmajor(self, a, dt):
        """(a', ld, stride) for a stack a (batch, rows, cols): a' of dtype
        dt with unit stride along its last axis and its matrices apart (a
        itself when it already is so; a C-order copy otherwise)."""
        if self._dtype_name(a) == dt and self.is_c(a):  # the usual case
            return a, max(a.shape[-1], 1), a.shape[-2] * a.shape[-1]

        def layout(x):
            st = self.estrides(x)
            ld = max(st[-2], x.shape[-1], 1)
            unit = x.shape[-1] <= 1 or st[-1] == 1
            apart = x.shape[0] <= 1 or st[0] >= ld * x.shape[-2]
            return unit and apart, ld, st[0]
        ok, ld, sa = layout(a)
        if not ok or self._dtype_name(a) != dt:
            a = self.copy_into(self.empty(a.shape, dt), a)
            ok, ld, sa = layout(a)
        return a, ld, sa

    def empties(self, *specs):
        """C-contiguous arrays of the (shape, dtype) specs on the array's
        device (CuPy: in one device scope, ~1 us each)."""
        if self.name == "cupy":
            with self.xp.cuda.Device(self.device):
                return [self.xp.empty(sh, dtype=self._t(d))
                        for sh, d in specs]
        dev = "cuda:%d" % self.device
        return [self.xp.empty(sh, dtype=self._t(d), device=dev)
                for sh, d in specs]

    def transpose(self, a):
        return a.swapaxes(-1, -2) if self.name == "cupy" \
            else a.transpose(-1, -2)

    def call(self, routine, dtype, *ints):
        st, detail = _axb.dev_call(routine, dtype, self.device, self.stream(),
                                   *[int(i) for i in ints])
        if st:
            raise_for(st, 0, detail)

    # device-side reductions for the certificate (no synchronisation)
    def amax(self, a, axis=None):
        if self.name == "cupy":
            return self.xp.abs(a).max(axis=axis)
        if axis is None:
            return a.abs().max()
        return a.abs().amax(dim=axis)

    def rowsum_max(self, A):
        if self.name == "cupy":
            return self.xp.abs(A).sum(axis=-1).max(axis=-1)
        return A.abs().sum(dim=-1).amax(dim=-1)

    def where(self, cond, a, b):
        return self.xp.where(cond, a, b)


def _eps(dtype):
    return 2.0 ** -24 if dtype == "float32" else 2.0 ** -53


def _check_backend(backend):
    if backend not in ("auto", "cuda"):
        raise ValueError("GPU arrays run on backend 'auto' or 'cuda', not %r"
                         % (backend,))


def _ratio(lib, A, x, b, n, dtype):
    """The backward error ratio on the device; x, b as (..., n, k)."""
    r = b - A @ x
    rmax = lib.amax(r, axis=-2)          # per column
    xmax = lib.amax(x, axis=-2)
    anorm = lib.rowsum_max(A)
    den = anorm[..., None] * xmax * (n * _eps(dtype))
    ratio = rmax / den
    ratio = lib.where(rmax == 0, rmax * 0, ratio)  # 0/0: exact answer
    return ratio.max(axis=-1) if lib.name == "cupy" else ratio.amax(dim=-1)


def solve(A, b, method, backend, precision, check, full_output, strict):
    if kind(A) is None or kind(A) != kind(b):
        raise TypeError("A and b must both be CuPy arrays or both torch CUDA "
                        "tensors")
    _check_backend(backend)
    if precision is not None:
        raise ValueError("precision= is for host arrays (the GPU path solves "
                         "in the arrays' dtype)")
    if method not in ("auto", "lu", "cholesky"):
        raise ValueError("GPU arrays take method auto, lu or cholesky")
    lib = _Lib(A)
    if A.ndim > 2:
        return _solve_batched(lib, A, b, method, check, full_output, strict)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("A must be a square 2-D array (or a stack)")
    n = A.shape[0]
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError("b must have shape (%d,) or (%d, k)" % (n, n))
    dt = lib.dtype(A, b)
    k = 1 if b.ndim == 1 else b.shape[1]
    # W: A in C order = A^T column-major; X: b as column-major (k, n) rows.
    W = lib.copy_into(lib.empty((n, n), dt), A)
    Xt = lib.copy_into(lib.empty((k, n), dt), lib.transpose(b.reshape(n, k)))
    info = lib.empty((1,), "int64")
    if n == 0 or k == 0:
        x = lib.transpose(Xt).reshape(b.shape)
        return (x, SolveReport(None)) if full_output else x
    chol = method == "cholesky"
    if chol:
        # W's column-major lower triangle is A's upper one; A symmetric.
        lib.call("potrf", dt, 0, n, lib.ptr(W), n, lib.ptr(info))
        lib.call("potrs", dt, 0, n, k, lib.ptr(W), n, lib.ptr(Xt), n)
    else:
        ipiv = lib.empty((n,), "int64")
        lib.call("getrf", dt, n, lib.ptr(W), n, lib.ptr(ipiv), lib.ptr(info))
        lib.call("getrs", dt, 1, n, k, lib.ptr(W), n, lib.ptr(ipiv),
                 lib.ptr(Xt), n)
    x2 = lib.transpose(Xt)
    x = x2.reshape(b.shape)
    report = SolveReport(None)
    report.method = "cholesky" if chol else "lu"
    report.backend = "cuda"
    report.dtype = dt
    report.n, report.nrhs, report.rcond = n, k, None
    report.info = info
    report.backward_error = None
    if check:
        A_ = A if str(A.dtype).endswith(dt) else _cast(lib, A, dt)
        b2 = b.reshape(n, k)
        b_ = b2 if str(b.dtype).endswith(dt) else _cast(lib, b2, dt)
        ratio = _ratio(lib, A_, x2, b_, n, dt)
        i, r = int(info[0]), float(ratio)  # the one synchronisation
        report.info, report.backward_error = i, r
        if i:
            raise_for(NOT_SPD if chol else SINGULAR, i,
                      "%s: %s %d" % ("potrf_dev" if chol else "getrf_dev",
                                     "leading minor" if chol
                                     else "zero pivot U(i,i), i =", i),
                      None, report)
        if not (r < 30):
            raise_for(INACCURATE, 0, "backward error ratio %.3g >= 30" % r,
                      x, report)
    return (x, report) if full_output else x


def _cast(lib, a, dt):
    return a.astype(dt) if lib.name == "cupy" else a.to(getattr(lib.xp, dt))


def _solve_batched(lib, A, b, method, check, full_output, strict):
    n = A.shape[-1]
    if A.shape[-2] != n:
        raise ValueError("A must be a stack of square matrices (..., n, n)")
    vec = b.ndim == A.ndim - 1
    if (vec and b.shape[-1] != n) or (not vec and (b.ndim < 2 or
                                                   b.shape[-2] != n)):
        raise ValueError("b must have shape (..., n) or (..., n, k)")
    shape = tuple(A.shape[:-2])
    if tuple(b.shape[:-1] if vec else b.shape[:-2]) != shape:
        raise ValueError("A and b must have the same batch shape on the GPU")
    dt = lib.dtype(A, b)
    batch = math.prod(shape)
    k = 1 if vec else b.shape[-1]
    A3 = A.reshape((batch, n, n))
    B3 = b.reshape((batch, n, k))
    if method != "cholesky" and n <= 64:
        return _solve_batched_cert(lib, A3, B3, shape, vec, dt, full_output,
                                   strict)
    W = lib.copy_into(lib.empty((batch, n, n), dt), lib.transpose(A3))
    Xt = lib.copy_into(lib.empty((batch, k, n), dt), lib.transpose(B3))
    info = lib.empty((batch,), "int32")
    if lib.name == "cupy":
        info.fill(0)
    else:
        info.zero_()
    chol = method == "cholesky"
    if batch and n and k:
        if chol:
            lib.call("posv_batched", dt, 0, n, k, lib.ptr(W), n, n * n,
                     lib.ptr(Xt), n, n * k, lib.ptr(info), batch)
        else:
            lib.call("gesv_batched", dt, n, k, lib.ptr(W), n, n * n,
                     lib.ptr(Xt), n, n * k, lib.ptr(info), batch)
    X = lib.transpose(Xt)                      # (batch, n, k)
    bad = (info != 0)[:, None, None]
    X = lib.where(bad, X * float("nan"), X)
    berr = None
    if check:
        A_ = A3 if str(A3.dtype).endswith(dt) else _cast(lib, A3, dt)
        B_ = B3 if str(B3.dtype).endswith(dt) else _cast(lib, B3, dt)
        berr = _ratio(lib, A_, X, B_, n, dt)
        berr = lib.where(info != 0, lib.xp.full_like(berr, float("inf")),
                         berr)
        berr = berr.reshape(shape)
    x = X[:, :, 0].reshape(shape + (n,)) if vec else X.reshape(shape + (n, k))
    report = BatchReport("cholesky" if chol else "lu", "cuda",
                         info.reshape(shape), berr, {}, shape)
    if strict:
        ok = (info == 0) if berr is None else ((info == 0) &
                                              (berr.reshape(-1) < 30))
        if not bool(ok.all()):
            first = int((~ok).nonzero()[0][0]) if lib.name == "cupy" else \
                int((~ok).nonzero()[0][0])
            i = int(info[first])
            raise error_for((NOT_SPD if chol else SINGULAR) if i else
                            INACCURATE, i, "batch index %d failed" % first,
                            x, report, first)
    return (x, report) if full_output else x


def _solve_batched_cert(lib, A3, B3, shape, vec, dt, full_output, strict):
    """LU stacks by gesv_batched_cert: the caller's C-order stacks read in
    place (no transposed copies), X, info and every backward error written
    by one kernel; X is NaN where info != 0 and the ratio is computed
    whether or not check is asked (it costs a second read of A)."""
    batch, n, k = B3.shape
    A3, lda, sA = lib.rowmajor(A3, dt)
    B3, ldb, sB = lib.rowmajor(B3, dt)
    X, info, berr = lib.empties(((batch, n, k), dt), ((batch,), "int32"),
                                ((batch,), dt))
    if batch:
        lib.call("gesv_batched_cert", dt, 1, n, k, lib.ptr(A3), lda, sA,
                 lib.ptr(B3), ldb, sB, lib.ptr(X), max(k, 1), n * k,
                 lib.ptr(info), lib.ptr(berr), batch)
    x = X.reshape(shape + ((n,) if vec else (n, k)))
    same = len(shape) == 1  # no reshape (a view costs ~1 us each)
    report = BatchReport("lu", "cuda", info if same else info.reshape(shape),
                         berr if same else berr.reshape(shape), {}, shape)
    if strict:
        ok = (info == 0) & (berr < 30)
        if not bool(ok.all()):
            first = int((~ok).nonzero()[0][0])
            i = int(info[first])
            raise error_for(SINGULAR if i else INACCURATE, i,
                            "batch index %d failed" % first, x, report, first)
    return (x, report) if full_output else x


def inv(a, method, backend, strict):
    _check_backend(backend)
    lib = _Lib(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("a must be square (or a stack of square matrices)")
    dt = lib.dtype(a)
    n = a.shape[-1]
    if a.ndim > 2:
        shape = tuple(a.shape[:-2])
        batch = int(np.prod(shape))
        W = lib.copy_into(lib.empty((batch, n, n), dt),
                          a.reshape((batch, n, n)))
        info = lib.empty((batch,), "int32")
        info.fill(0) if lib.name == "cupy" else info.zero_()
        if batch and n:
            lib.call("inverse_batched", dt, n, lib.ptr(W), n, n * n,
                     lib.ptr(info), batch)
        W = lib.where((info != 0)[:, None, None], W * float("nan"), W)
        if strict and not bool((info == 0).all()):
            first = int((info != 0).nonzero()[0][0])
            raise_for(SINGULAR, int(info[first]),
                      "batch index %d is singular" % first, None, None)
        return W.reshape(shape + (n, n))
    W = lib.copy_into(lib.empty((n, n), dt), a)
    if n == 0:
        return W
    info = lib.empty((1,), "int64")
    ipiv = lib.empty((n,), "int64")
    lib.call("getrf", dt, n, lib.ptr(W), n, lib.ptr(ipiv), lib.ptr(info))
    lib.call("getri", dt, n, lib.ptr(W), n, lib.ptr(ipiv), lib.ptr(info))
    i = int(info[0])  # inv raises on a singular matrix: one synchronisation
    if i:
        raise_for(SINGULAR, i, "getrf_dev: zero pivot U(%d,%d)" % (i, i))
    return W
