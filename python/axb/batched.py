"""Stacks of small systems, (..., n, n) with (..., n) or (..., n, k), to
axb's batched routines: a per-matrix info array, never an exception for one
bad matrix unless strict=True (a LinAlgWarning names the first failure)."""
import numpy as np

from . import _axb
from ._errors import (SINGULAR, NOT_SPD, error_for, raise_for, warn_batch)
from ._report import BatchReport

_BACKENDS = {"auto": 0, "cpu": 1, "ref": 3}


def _backend(backend):
    if backend == "cuda":
        raise ValueError("batched host arrays run on backend 'auto' (which "
                         "moves large batches to the GPU when `axb tune` "
                         "says so), 'cpu' or 'ref'; pass CuPy arrays or "
                         "torch CUDA tensors to run on the GPU")
    if backend not in _BACKENDS:
        raise ValueError("backend must be auto, cpu, cuda or ref, not %r"
                         % (backend,))
    return _BACKENDS[backend]


def real_dtype(*arrays):
    for a in arrays:
        if a.dtype.kind not in "fiub" or a.dtype.itemsize > 8 and \
                a.dtype.kind == "f":
            raise TypeError("axb solves real float32/float64 systems; got "
                            "dtype %s" % a.dtype)
    if all(a.dtype == np.float32 for a in arrays):
        return np.float32
    return np.float64


def _stacks(A, b):
    """(A3, B3, batch shape, vector?) with A3 (batch, n, n) and B3
    (batch, n, k) C-contiguous in one dtype, broadcast over the batch."""
    if A.ndim < 3 or A.shape[-1] != A.shape[-2]:
        raise ValueError("A must be a stack of square matrices (..., n, n)")
    n = A.shape[-1]
    vec = b.ndim == A.ndim - 1
    if b.ndim < 1 or (vec and b.shape[-1] != n) or (
            not vec and (b.ndim < 2 or b.shape[-2] != n)):
        raise ValueError("b must have shape (..., %d) or (..., %d, k) for A "
                         "of shape %s" % (n, n, A.shape))
    t = real_dtype(A, b)
    bb = b.shape[:-1] if vec else b.shape[:-2]
    shape = np.broadcast_shapes(A.shape[:-2], bb)
    A3 = np.ascontiguousarray(np.broadcast_to(A, shape + (n, n)), dtype=t)
    if vec:
        B3 = np.broadcast_to(b, shape + (n,))[..., None]
    else:
        B3 = np.broadcast_to(b, shape + b.shape[-2:])
    B3 = np.ascontiguousarray(B3, dtype=t)
    batch = int(np.prod(shape))
    return (A3.reshape((batch, n, n)), B3.reshape((batch, n, B3.shape[-1])),
            shape, vec)


def solve(A, b, method="auto", backend="auto", check=True, full_output=False,
          strict=False):
    """axb.solve on a stack; see axb.solve.  method auto/lu (gesv_batched)
    or cholesky (posv_batched, lower triangle).  With check, every answer
    gets its backward error ratio (report.backward_error)."""
    A = np.asarray(A)
    b = np.asarray(b)
    if method not in ("auto", "lu", "cholesky"):
        raise ValueError("batched methods are auto, lu and cholesky")
    be = _backend(backend)
    A3, B3, shape, vec = _stacks(A, b)
    import time
    t0 = time.perf_counter()
    X, info, berr, st, detail = _axb.solve_batched(
        A3, B3, method == "cholesky", be, bool(check))
    t = time.perf_counter() - t0
    if st:
        raise_for(st, 0, detail)
    n, k = A3.shape[1], B3.shape[2]
    x = X[:, :, 0].reshape(shape + (n,)) if vec else X.reshape(shape + (n, k))
    info = info.reshape(shape)
    berr = berr.reshape(shape) if berr is not None else None
    report = BatchReport("cholesky" if method == "cholesky" else "lu",
                         backend, info, berr, {"total": t}, shape)
    if check or strict:
        _outcome(report, info.size, strict, x, "systems",
                 NOT_SPD if method == "cholesky" else SINGULAR)
    return (x, report) if full_output else x


def _outcome(report, total, strict, x, what, status):
    bad = ~report.certified
    if not bad.any():
        return
    if strict:
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        info = int(report.info[idx])
        err = error_for(status if info else 6, info,
                        "batch index %s: %s" % (idx, "info %d" % info if info
                                                else "backward error %.3g >= 30"
                                                % report.backward_error[idx]),
                        x, report, idx)
        raise err
    warn_batch(what, np.where(bad, np.maximum(report.info, 1), 0), total)


def inv(a, backend="auto", strict=False, check=True):
    """Inverses of a stack (..., n, n) by batched Gauss-Jordan; a singular
    matrix gets NaN (with check, a LinAlgWarning), or raises with
    strict=True."""
    if a.ndim < 3 or a.shape[-1] != a.shape[-2]:
        raise ValueError("a must be a stack of square matrices (..., n, n)")
    t = real_dtype(a)
    shape, n = a.shape[:-2], a.shape[-1]
    A3 = np.ascontiguousarray(a, dtype=t).reshape((int(np.prod(shape)), n, n))
    X, info, st, detail = _axb.inverse_batched(A3, _backend(backend))
    if st:
        raise_for(st, 0, detail)
    X[info != 0] = np.nan
    info = info.reshape(shape)
    report = BatchReport("gauss-jordan", backend, info, None, {}, shape)
    if check or strict:
        _outcome(report, info.size, strict, None, "inverses", SINGULAR)
    return X.reshape(shape + (n, n))
