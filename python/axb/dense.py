"""Dense systems: axb.solve (certified driver, batched stacks, GPU arrays),
and scipy.linalg's lu_factor / lu_solve / cho_factor / cho_solve / inv.
"""
import numpy as np

from . import _axb, _gpu, batched
from ._errors import (SINGULAR, NOT_SPD, SMALL_PIVOT, NUMERICAL, raise_for)
from ._report import SolveReport

METHODS = {"auto": 0, "lu": 1, "cholesky": 2, "gauss-jordan": 3,
           "lu-crout": 4, "gauss": 5, "cholesky-crout": 6,
           "cholesky-banachiewicz": 7, "lu-fixedpoint": 8, "lu-mixed": 9,
           "cholesky-mixed": 10}
BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2, "ref": 3}
FACTOR_PRECISIONS = {"mixed": 0, "fp32": 1, "tf32": 2, "fp16": 3, "bf16": 4,
                     "fp64": 5}
_CAST = {"double": np.float64, "float64": np.float64,
         "single": np.float32, "float32": np.float32}


def _code(table, value, what):
    code = table.get(value) if isinstance(value, str) else None
    if code is None:
        raise ValueError("%s must be one of %s, not %r"
                         % (what, ", ".join(sorted(table)), value))
    return code


def _precision(A, b, method, precision):
    """(A, b, method code, factor precision code or -1) for `precision`:
    'double'/'single' cast the inputs; 'mixed', 'fp32', 'tf32', 'fp16',
    'bf16', 'fp64' solve a float64 system with a low-precision factor and
    FP64 refinement (lu-mixed, or cholesky-mixed for method 'cholesky')."""
    if precision in _CAST:
        t = _CAST[precision]
        return A.astype(t, copy=False), b.astype(t, copy=False), method, -1
    fp = _code(FACTOR_PRECISIONS, precision, "precision")
    if method in (METHODS["cholesky"], METHODS["cholesky-mixed"]):
        method = METHODS["cholesky-mixed"]
    elif method in (METHODS["auto"], METHODS["lu"], METHODS["lu-mixed"]):
        method = METHODS["lu-mixed"]
    else:
        raise ValueError("precision=%r goes with method auto, lu or cholesky"
                         % precision)
    return (A.astype(np.float64, copy=False), b.astype(np.float64, copy=False),
            method, fp)


def solve(A, b, method="auto", backend="auto", precision=None, check=True,
          full_output=False, strict=False):
    """Solve A x = b with a certificate.

    A: (n, n) array, b: (n,) or (n, k); or stacks (..., n, n) with (..., n)
    or (..., n, k) (batched routines, see axb.batched.solve); NumPy arrays,
    or CuPy arrays / PyTorch CUDA tensors (the GPU, no copies to the host).
    A in C or Fortran order is read as it is (C order through the driver's
    transposed solve; only method='gauss' and precision='mixed' copy an
    unsymmetric C-order A).  method: auto (Cholesky when A is symmetric with a positive diagonal,
    else LU), lu, cholesky, gauss-jordan, or a study variant of axb.
    backend: auto, cpu, cuda or ref.  precision: None (the inputs' dtype),
    'double', 'single', or a mixed-precision factor ('mixed', 'fp32',
    'tf32', 'fp16', 'bf16').  check=True raises a LinAlgError subclass
    when axb cannot certify the answer (singular, not SPD, ill-conditioned,
    inaccurate); check=False returns x anyway (NaN where no answer exists)
    and the report says what happened.  full_output=True returns
    (x, report).  strict (batches): raise for the first failing matrix
    instead of reporting it.
    """
    if type(A) is not np.ndarray or type(b) is not np.ndarray:
        if _gpu.kind(A) or _gpu.kind(b):
            return _gpu.solve(A, b, method, backend, precision, check,
                              full_output, strict)
        A = np.asarray(A)
        b = np.asarray(b)
    m = METHODS.get(method) if isinstance(method, str) else None
    if m is None:
        m = _code(METHODS, method, "method")
    be = BACKENDS.get(backend) if isinstance(backend, str) else None
    if be is None:
        be = _code(BACKENDS, backend, "backend")
    fp = -1
    if precision is not None:
        A, b, m, fp = _precision(A, b, m, precision)
    if A.ndim != 2:
        if A.ndim > 2:
            return batched.solve(A, b, method, backend, check, full_output,
                                 strict)
        raise ValueError("A must be a square 2-D array (or a stack of them)")
    x, st, info, detail, rep = _axb.solve(A, b, m, be, fp, full_output)
    if st:
        report = SolveReport(rep, st) if rep is not None else None
        if check or st not in NUMERICAL:
            raise_for(st, info, detail, x, report)
        if st in (SINGULAR, NOT_SPD, SMALL_PIVOT):
            x[...] = np.nan
        return (x, report) if full_output else x
    if full_output:
        return x, SolveReport(rep, st)
    return x


def _finite(a, check_finite):
    if check_finite and not np.isfinite(a).all():
        raise ValueError("array must not contain infs or NaNs")


def _host(a, name):
    if _gpu.kind(a):
        raise TypeError("%s: GPU arrays go through axb.solve and axb.inv; "
                        "the factor/solve pairs take host arrays" % name)
    return np.asarray(a)


def lu_factor(a, overwrite_a=False, check_finite=True, *, backend="auto",
              check=True):
    """LU with partial pivoting, as scipy.linalg.lu_factor: returns
    (lu, piv) with piv 0-based (row i was interchanged with piv[i]).  A
    singular U raises SingularMatrixError (check=False: returned, as
    LAPACK does)."""
    a = _host(a, "lu_factor")
    _finite(a, check_finite)
    be = _code(BACKENDS, backend, "backend")
    lu, piv, st, info, detail = _axb.getrf(a, be, bool(overwrite_a))
    if st and (check or st not in NUMERICAL):
        raise_for(st, info, detail)
    return lu, (piv - 1).astype(np.int32)


def _trans_code(trans):
    codes = {0: 0, 1: 1, 2: 1, "N": 0, "T": 1, "C": 1}
    if trans not in codes:
        raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C'")
    return codes[trans]


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True, *,
             backend="auto"):
    """Solve A x = b (trans=0) or A^T x = b (1, 2) from lu_factor's
    (lu, piv), as scipy.linalg.lu_solve."""
    lu, piv = lu_and_piv
    lu = _host(lu, "lu_solve")
    b = _host(b, "lu_solve")
    _finite(b, check_finite)
    piv = np.asarray(piv)
    if piv.ndim != 1 or piv.shape[0] != lu.shape[0] or (
            piv.size and (piv.min() < 0 or piv.max() >= lu.shape[0])):
        raise ValueError("piv must hold n row indices 0..n-1")
    x, st, info, detail = _axb.getrs(lu, piv.astype(np.int64) + 1, b,
                                     _trans_code(trans),
                                     _code(BACKENDS, backend, "backend"),
                                     bool(overwrite_b))
    if st:
        raise_for(st, info, detail)
    return x


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True, *,
               backend="auto"):
    """Cholesky, as scipy.linalg.cho_factor: (c, lower) with A = L L^T in
    c's lower triangle or A = U^T U in its upper one; the other triangle
    holds what was there.  Raises NotPositiveDefiniteError (.minor)."""
    a = _host(a, "cho_factor")
    _finite(a, check_finite)
    c, st, info, detail = _axb.potrf(a, bool(lower),
                                     _code(BACKENDS, backend, "backend"),
                                     bool(overwrite_a))
    if st:
        raise_for(st, info, detail)
    return c, bool(lower)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True, *,
              backend="auto"):
    """Solve A x = b from cho_factor's (c, lower), as scipy's cho_solve."""
    c, lower = c_and_lower
    c = _host(c, "cho_solve")
    b = _host(b, "cho_solve")
    _finite(b, check_finite)
    x, st, info, detail = _axb.potrs(c, bool(lower), b,
                                     _code(BACKENDS, backend, "backend"),
                                     bool(overwrite_b))
    if st:
        raise_for(st, info, detail)
    return x


def inv(a, overwrite_a=False, check_finite=True, *, method="lu",
        backend="auto", strict=False, check=True):
    """The inverse, as scipy.linalg.inv (method 'lu': getrf + getri, or
    'gauss-jordan').  A singular matrix raises SingularMatrixError.  A
    stack (..., n, n) goes to the batched inverse (Gauss-Jordan): a
    singular matrix among them gets NaN and (with check) a LinAlgWarning,
    or raises with strict=True.  overwrite_a is accepted and ignored."""
    del overwrite_a
    if _gpu.kind(a):
        return _gpu.inv(a, method, backend, strict)
    a = np.asarray(a)
    _finite(a, check_finite)
    if a.ndim > 2:
        return batched.inv(a, backend, strict, check)
    if method not in ("lu", "gauss-jordan"):
        raise ValueError("inverse methods are 'lu' and 'gauss-jordan'")
    x, st, info, detail = _axb.invert(a, METHODS[method],
                                      _code(BACKENDS, backend, "backend"))
    if st:
        raise_for(st, _pivot_from(detail) if st == SINGULAR else info, detail)
    return x


def _pivot_from(detail):
    """axb_invert names the zero pivot in its detail ("... pivot 3 ...");
    its 1-based index, or 0 when the message has none."""
    import re
    m = re.search(r"pivot[^0-9]*([0-9]+)", detail or "")
    return int(m.group(1)) if m else 0
