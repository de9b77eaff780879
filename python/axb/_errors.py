"""axb's exceptions and the map from an axb status to one of them.

Numerical outcomes are ``LinAlgError`` subclasses (and so also
``numpy.linalg.LinAlgError``); each carries axb's detail message, the
status, LAPACK's 1-based ``info`` and, where an answer exists, ``x`` and
the ``report``.  Bad arguments are ``ValueError``/``TypeError`` raised
before any work; library failures are ``MemoryError``, ``OSError`` or
``DeviceError``.
"""
import warnings

import numpy as np

# axb statuses (include/axb/core.h, through include/axb.h).
SUCCESS = 0
SINGULAR = 1
NOT_SPD = 2
SMALL_PIVOT = 3
NO_CONVERGENCE = 4
ILL_CONDITIONED = 5
INACCURATE = 6
NUMERICAL = (SINGULAR, NOT_SPD, SMALL_PIVOT, NO_CONVERGENCE, ILL_CONDITIONED,
             INACCURATE)


class LinAlgError(np.linalg.LinAlgError):
    """A numerical failure axb detected and would not return silently."""

    def __init__(self, message, status=None, info=0, x=None, report=None,
                 batch_index=None):
        super().__init__(message)
        self.status = status
        self.info = int(info) if info is not None else 0
        self.x = x
        self.report = report
        self.batch_index = batch_index


class SingularMatrixError(LinAlgError):
    """U(i, i) is exactly zero; ``pivot`` is the 0-based column i."""

    @property
    def pivot(self):
        return self.info - 1 if self.info > 0 else None


class NotPositiveDefiniteError(LinAlgError):
    """The leading minor of order ``minor`` (= info) is not positive."""

    @property
    def minor(self):
        return self.info if self.info > 0 else None


class SmallPivotError(LinAlgError):
    """A method without pivoting met a zero or tiny pivot (or a named
    sparse preconditioner failed at row ``info``)."""


class IllConditionedError(LinAlgError):
    """Solved, but rcond < eps: the answer is not trustworthy (``x``)."""


class InaccurateError(LinAlgError):
    """Solved, but the backward error ratio of ``x`` is >= 30."""


class NoConvergenceError(LinAlgError):
    """An iteration stopped short of its tolerance (``x``: last iterate)."""


class DeviceError(RuntimeError):
    """No GPU, a CUDA error, or a backend not compiled into this build."""


class LinAlgWarning(UserWarning):
    """Some problems of a batch failed (see the report's ``info``)."""


_NUMERICAL = {
    SINGULAR: SingularMatrixError,
    NOT_SPD: NotPositiveDefiniteError,
    SMALL_PIVOT: SmallPivotError,
    NO_CONVERGENCE: NoConvergenceError,
    ILL_CONDITIONED: IllConditionedError,
    INACCURATE: InaccurateError,
}


def error_for(status, info=0, detail=None, x=None, report=None,
              batch_index=None):
    """The exception for a non-zero axb status."""
    from . import _axb
    msg = detail or _axb.strerror(status)
    cls = _NUMERICAL.get(status)
    if cls is not None:
        return cls(msg, status, info, x, report, batch_index)
    if -100 < status < 0:
        return ValueError("illegal argument %d: %s" % (-status, msg))
    if status == -100:
        return ValueError(msg)
    if status == -101:
        return MemoryError(msg)
    if status in (-102, -103):
        return OSError(msg)
    if status == -104:
        return NotImplementedError(msg)
    if status in (-105, -106, -107):
        return DeviceError(msg)
    return RuntimeError("axb status %d: %s" % (status, msg))


def raise_for(status, info=0, detail=None, x=None, report=None,
              batch_index=None):
    raise error_for(status, info, detail, x, report, batch_index)


def warn_batch(what, info, total):
    bad = np.flatnonzero(np.asarray(info).reshape(-1))
    if bad.size:
        warnings.warn("%d of %d %s failed (first: batch index %d, info %d); "
                      "their x is NaN, the report's info says why"
                      % (bad.size, total, what, bad[0],
                         int(np.asarray(info).reshape(-1)[bad[0]])),
                      LinAlgWarning, stacklevel=3)
