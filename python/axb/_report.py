"""Reports: what ran and the certificate, as attributes."""


class Report:
    """Base: fields as attributes, a readable repr."""

    _fields = ()

    def __repr__(self):
        items = ", ".join("%s=%r" % (k, getattr(self, k, None))
                          for k in self._fields)
        return "%s(%s)" % (type(self).__name__, items)


class SolveReport(Report):
    """axb_solve's report: method, backend, times (seconds), backward_error
    (the ratio ||b - Ax||_inf / (||A||_inf ||x||_inf n eps), < 30 when
    certified), rcond (1-norm estimate), fallback (AUTO's Cholesky fell
    back to LU, or mixed precision fell back), status and info."""

    _fields = ("status", "method", "backend", "dtype", "n", "nrhs",
               "backward_error", "rcond", "fallback", "info", "times",
               "factor_precision", "refine_steps")

    def __init__(self, d, status=0):
        self.status = status
        if d is None:  # an empty problem: nothing ran
            d = {"method": "none", "backend": "none", "dtype": "",
                 "n": 0, "nrhs": 0, "info": 0, "cholesky_fell_back": False,
                 "backward_error": 0.0, "rcond": None,
                 "factor_precision": "", "refine_steps": 0, "gmres_iters": 0,
                 "mixed_iter": 0, "mixed_fallbacks": 0, "sweeps": 0,
                 "gflops": 0.0}
            d.update({k: 0.0 for k in ("t_factor", "t_solve", "t_transfer",
                                       "t_certify", "t_total")})
        self.method = d["method"]
        self.backend = d["backend"]
        self.dtype = d["dtype"]
        self.n = d["n"]
        self.nrhs = d["nrhs"]
        self.info = d["info"]
        self.backward_error = d["backward_error"]
        self.rcond = d["rcond"] if d["rcond"] is None or d["rcond"] >= 0 \
            else None
        self.cholesky_fell_back = d["cholesky_fell_back"]
        self.fallback = bool(d["cholesky_fell_back"] or d["mixed_fallbacks"])
        self.factor_precision = d["factor_precision"]
        self.refine_steps = d["refine_steps"]
        self.gmres_iters = d["gmres_iters"]
        self.mixed_iter = d["mixed_iter"]
        self.sweeps = d["sweeps"]
        self.gflops = d["gflops"]
        self.times = {"factor": d["t_factor"], "solve": d["t_solve"],
                      "transfer": d["t_transfer"], "certify": d["t_certify"],
                      "total": d["t_total"]}

    @property
    def certified(self):
        return self.status == 0


class BatchReport(Report):
    """A batched call's report: ``info`` per matrix (0, or the 1-based
    pivot / minor that failed), ``backward_error`` per matrix (with check;
    inf where the factorization failed), ``certified`` per matrix, and the
    indices of the ``failed`` ones."""

    _fields = ("method", "backend", "batch_shape", "failed", "times")

    def __init__(self, method, backend, info, backward_error, times,
                 batch_shape):
        self.method = method
        self.backend = backend
        self.info = info
        self.backward_error = backward_error
        self.times = times
        self.batch_shape = batch_shape
        self.rcond = None

    @property
    def certified(self):
        ok = self.info == 0
        if self.backward_error is not None:
            ok = ok & (self.backward_error < 30)
        return ok

    @property
    def failed(self):
        import numpy as np
        c = self.certified
        if not isinstance(c, np.ndarray):  # a GPU array: left to its library
            return None
        return np.argwhere(~c)


class SparseReport(Report):
    """axb_sparse_solve's report: iterations, true_residual (||b - Ax||_2 /
    ||b||_2 recomputed at the end), residual (the recurrence's), method,
    precond (and fallback when AUTO's choice failed), breakdown, times,
    history (with history=True)."""

    _fields = ("status", "method", "precond", "iterations", "true_residual",
               "residual", "fallback", "breakdown", "backend", "times")

    def __init__(self, d, status, history):
        self.status = status
        self.method = d["method"]
        self.precond = d["precond"]
        self.precond_requested = d["precond_requested"]
        self.fallback = d["precond_fell_back"]
        self.precond_status = d["precond_status"]
        self.breakdown = d["breakdown"]
        self.backend = d["backend"]
        self.n = d["n"]
        self.nnz = d["nnz"]
        self.nrhs = d["nrhs"]
        self.info = d["info"]
        self.iterations = d["iterations"]
        self.restarts = d["restarts"]
        self.residual = d["residual"]
        self.true_residual = d["true_residual"]
        self.times = {"setup": d["t_setup"], "solve": d["t_solve"]}
        self.history = history

    @property
    def converged(self):
        return self.status == 0
