"""Sparse iterative solvers for scipy.sparse matrices: axb.sparse.solve,
cg, bicgstab, gmres with ``precond=`` and scipy-like ``rtol``/``maxiter``.
Each returns (x, report); report.true_residual is ||b - A x||_2 / ||b||_2
recomputed at the end.  check=True (default) raises NoConvergenceError
(with .x and .report) when the true residual is above rtol or the method
broke down."""
import numpy as np

from . import _axb
from ._errors import raise_for
from ._report import SparseReport
from .batched import real_dtype

METHODS = {"auto": 0, "cg": 1, "cg1": 2, "bicgstab": 3, "gmres": 4,
           "direct": 5}
PRECONDS = {"auto": 0, "none": 1, "jacobi": 2, "ilu0": 3, "ic0": 4,
            "parilu": 5, "paric": 6}
TRISOLVES = {"exact": 0, "jacobi": 1}
_BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2, "ref": 3}


def _pick(table, value, what):
    if not isinstance(value, str) or value not in table:
        raise ValueError("%s must be one of %s, not %r"
                         % (what, ", ".join(sorted(table)), value))
    return table[value]


def _csr(A):
    """Canonical CSR (sorted columns, no duplicates), int64 indices."""
    import scipy.sparse as sp
    if not sp.issparse(A):
        raise TypeError("A must be a scipy.sparse matrix (axb.solve takes "
                        "dense arrays)")
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("A must be square, got shape %s" % (A.shape,))
    A = A.tocsr()
    if not A.has_canonical_format:
        A = A.copy()
        A.sum_duplicates()
    return A


def solve(A, b, x0=None, *, method="auto", precond="auto", rtol=1e-8,
          maxiter=None, restart=30, sweeps=3, trisolve="exact", tri_sweeps=3,
          history=False, backend="auto", check=True):
    """Solve A x = b, A a scipy.sparse matrix (any format; CSR is read in
    place), b (n,) or (n, k).  method: auto (CG for symmetric A with a
    positive diagonal, else GMRES), cg, cg1, bicgstab, gmres.  precond:
    auto (IC(0) for CG, ILU(0) otherwise, falling back to Jacobi), none,
    jacobi, ilu0, ic0, parilu, paric.  history=True: report.history holds
    ||r_k|| / ||b|| of the recurrence (last right-hand side)."""
    A = _csr(A)
    b = np.asarray(b)
    n = A.shape[0]
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError("b must have shape (%d,) or (%d, k)" % (n, n))
    if not (rtol > 0):
        raise ValueError("rtol must be positive")
    if maxiter is not None and int(maxiter) < 1:
        raise ValueError("maxiter must be at least 1")
    if int(restart) < 1 or int(sweeps) < 1 or int(tri_sweeps) < 1:
        raise ValueError("restart, sweeps and tri_sweeps must be at least 1")
    t = real_dtype(A.data, b)
    B = np.asfortranarray(b.reshape(n, -1), dtype=t)
    X0 = None
    if x0 is not None:
        X0 = np.asarray(x0)
        if X0.shape != b.shape:
            raise ValueError("x0 must have b's shape %s" % (b.shape,))
        X0 = X0.reshape(n, -1)
    opts = (_pick(METHODS, method, "method"),
            _pick(PRECONDS, precond, "precond"), float(rtol),
            int(maxiter or 0), int(restart), int(sweeps),
            _pick(TRISOLVES, trisolve, "trisolve"), int(tri_sweeps),
            bool(history))
    X, st, detail, rep, hist = _axb.sparse_solve(
        A.indptr.astype(np.int64, copy=False),
        A.indices.astype(np.int64, copy=False), A.data.astype(t, copy=False),
        B, X0, opts, _pick(_BACKENDS, backend, "backend"))
    x = X.reshape(b.shape)
    report = SparseReport(rep, st, hist) if rep is not None else None
    if st and (check or st < 0):
        raise_for(st, rep["info"] if rep else 0, detail, x, report)
    return x, report


def cg(A, b, x0=None, *, rtol=1e-5, maxiter=None, precond="auto",
       history=False, backend="auto", check=True):
    """Conjugate gradients (preconditioned), as scipy.sparse.linalg.cg but
    returning (x, report)."""
    return solve(A, b, x0, method="cg", precond=precond, rtol=rtol,
                 maxiter=maxiter, history=history, backend=backend,
                 check=check)


def bicgstab(A, b, x0=None, *, rtol=1e-5, maxiter=None, precond="auto",
             history=False, backend="auto", check=True):
    """BiCGStab (right preconditioned); returns (x, report)."""
    return solve(A, b, x0, method="bicgstab", precond=precond, rtol=rtol,
                 maxiter=maxiter, history=history, backend=backend,
                 check=check)


def gmres(A, b, x0=None, *, rtol=1e-5, restart=30, maxiter=None,
          precond="auto", history=False, backend="auto", check=True):
    """Restarted GMRES(restart), right preconditioned; maxiter counts inner
    iterations (scipy counts restart cycles); returns (x, report)."""
    return solve(A, b, x0, method="gmres", precond=precond, rtol=rtol,
                 maxiter=maxiter, restart=restart, history=history,
                 backend=backend, check=check)
