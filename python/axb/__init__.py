"""axb — solve Ax = b on CPUs and NVIDIA GPUs, with a certificate.

    import numpy as np, axb
    x = axb.solve(A, b)                       # certified, or an exception
    x, rep = axb.solve(A, b, full_output=True)
    rep.backward_error, rep.rcond, rep.method, rep.backend, rep.times

Dense: solve, lu_factor, lu_solve, cho_factor, cho_solve, inv (scipy's
names and conventions).  Batched: the same solve/inv on stacks (..., n, n).
Sparse: axb.sparse.solve, cg, bicgstab, gmres on scipy.sparse matrices.
GPU: CuPy arrays and PyTorch CUDA tensors go to axb's device routines on
the caller's stream and come back as the same kind of array.
"""
from . import _axb
from ._errors import (DeviceError, IllConditionedError, InaccurateError,
                      LinAlgError, LinAlgWarning, NoConvergenceError,
                      NotPositiveDefiniteError, SingularMatrixError,
                      SmallPivotError)
from ._report import BatchReport, SolveReport, SparseReport
from .dense import cho_factor, cho_solve, inv, lu_factor, lu_solve, solve
from . import sparse

__version__ = _axb.build_info()["version"]


def info():
    """Build facts: version, BLAS, whether CUDA is compiled in, GPUs seen."""
    return _axb.build_info()


__all__ = ["solve", "lu_factor", "lu_solve", "cho_factor", "cho_solve", "inv",
           "sparse", "info", "LinAlgError", "SingularMatrixError",
           "NotPositiveDefiniteError", "SmallPivotError",
           "IllConditionedError", "InaccurateError", "NoConvergenceError",
           "DeviceError", "LinAlgWarning", "SolveReport", "BatchReport",
           "SparseReport"]
