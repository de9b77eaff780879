"""The shared real matrices (SuiteSparse collection, ../shared/matrices or
$AXB_MATRICES), read in place: dense solves against NumPy (certified or a
reported failure, never a silent wrong answer) and sparse Krylov solves
against SciPy's direct solver.  Skipped when the directory is absent."""
import numpy as np
import pytest

import axb
from conftest import backward_ratio, matrices_dir

DIR = matrices_dir()
DENSE_MAX = 1200      # orders solved dense here (O(n^3) on a shared CI box)


def entries():
    if not DIR.is_dir():
        return []
    return sorted(DIR.glob("*.mtx"))


def read(path):
    import scipy.io
    return scipy.io.mmread(str(path)).tocsr()


def small(path):
    with open(path) as f:
        for line in f:
            if not line.startswith("%"):
                return int(line.split()[0]) <= DENSE_MAX
    return False


def assert_converged(A, x, b, rep):
    """Converged to 1e-8: the reported and the recomputed residual."""
    r = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
    assert rep.true_residual <= 1e-8 and r <= 1e-8 * 1.01


def ones_system(name):
    """The shared matrix `name` (skipped when absent) and b = A * ones."""
    if not (DIR / name).exists():
        pytest.skip("%s absent" % name)
    A = read(DIR / name)
    return A, A @ np.ones(A.shape[0])


pytest.importorskip("scipy.io")
needs_dir = pytest.mark.skipif(not DIR.is_dir(),
                               reason="no shared matrices at %s" % DIR)
DENSE = [p for p in entries() if small(p)]


@needs_dir
@pytest.mark.parametrize("path", DENSE, ids=lambda p: p.name)
def test_dense_real_matrix(path):
    A = read(path).toarray()
    n = A.shape[0]
    x_true = np.random.default_rng(n).uniform(-1, 1, n)
    b = A @ x_true
    x, rep = axb.solve(A, b, check=False, full_output=True)
    if rep.status == 0:
        # certified: the independent check agrees, and so does LAPACK
        assert backward_ratio(A, x, b) < 30
        ref = np.linalg.solve(A, b)
        cond = 1 / rep.rcond
        err = np.abs(x - ref).max() / np.abs(ref).max()
        assert err <= max(1e-10, 1e3 * cond * 2 ** -53)
    else:
        # the only acceptable failures on these nonsingular matrices
        assert rep.status in (axb._errors.ILL_CONDITIONED,
                              axb._errors.INACCURATE), rep
        with pytest.raises((axb.IllConditionedError, axb.InaccurateError)):
            axb.solve(A, b)


SPD = ["LFAT5.mtx", "bcsstk01.mtx", "mesh1e1.mtx", "nos4.mtx", "gr_30_30.mtx",
       "494_bus.mtx", "Trefethen_500.mtx", "1138_bus.mtx", "bcsstk16.mtx"]
UNSYM = ["cage5.mtx", "olm500.mtx", "pde2961.mtx", "orsirr_1.mtx",
         "cage10.mtx"]


@needs_dir
@pytest.mark.parametrize("name", SPD)
def test_cg_real_spd(name):
    A, b = ones_system(name)
    try:
        x, rep = axb.sparse.cg(A, b, rtol=1e-8, maxiter=20000)
    except axb.NoConvergenceError as e:   # reported, with what it reached
        assert e.report.true_residual > 1e-8
        return
    assert_converged(A, x, b, rep)


@needs_dir
@pytest.mark.parametrize("name", UNSYM)
def test_gmres_real_unsymmetric(name):
    A, b = ones_system(name)
    try:
        x, rep = axb.sparse.gmres(A, b, rtol=1e-8, restart=50,
                                  maxiter=20000)
    except (axb.NoConvergenceError, axb.SmallPivotError) as e:
        assert e.report is None or e.report.true_residual > 1e-8 or \
            e.report.breakdown != "none"
        return
    assert_converged(A, x, b, rep)
