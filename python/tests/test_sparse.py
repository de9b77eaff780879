"""axb.sparse against scipy.sparse.linalg on the same matrices: methods,
preconditioners, history, x0, dtypes, non-convergence and bad input."""
import numpy as np
import pytest
sp = pytest.importorskip("scipy.sparse")
spl = pytest.importorskip("scipy.sparse.linalg")

import axb


def poisson2d(g, dtype=np.float64):
    T = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(g, g))
    I = sp.identity(g)
    return (sp.kron(I, T) + sp.kron(T, I)).astype(dtype).tocsr()


def convdiff(g, peclet=2.0):
    """Upwind convection-diffusion on a g x g grid: unsymmetric."""
    lo = sp.diags([-1 - peclet, 2 + peclet, -1], [-1, 0, 1], shape=(g, g))
    I = sp.identity(g)
    return (sp.kron(I, lo) + sp.kron(lo, I)).tocsr()


def true_residual(A, x, b):
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


@pytest.mark.parametrize("fn,precond", [
    (axb.sparse.cg, "none"), (axb.sparse.cg, "jacobi"),
    (axb.sparse.cg, "ic0"), (axb.sparse.cg, "paric"),
    (axb.sparse.bicgstab, "ilu0"), (axb.sparse.gmres, "ilu0"),
    (axb.sparse.gmres, "parilu"), (axb.sparse.gmres, "auto")])
def test_spd_methods_match_scipy(fn, precond):
    A = poisson2d(20)
    b = np.random.default_rng(0).uniform(-1, 1, A.shape[0])
    x, rep = fn(A, b, rtol=1e-10, precond=precond)
    assert rep.converged and rep.true_residual <= 1e-10
    assert true_residual(A, x, b) <= 1e-10 * 1.01
    assert np.allclose(x, spl.spsolve(A.tocsc(), b), rtol=1e-7, atol=1e-8)
    assert rep.iterations > 0 and rep.times["solve"] >= 0


def test_unsymmetric_gmres_bicgstab():
    A = convdiff(15)
    b = np.ones(A.shape[0])
    ref = spl.spsolve(A.tocsc(), b)
    for method in ("gmres", "bicgstab", "auto"):
        x, rep = axb.sparse.solve(A, b, method=method, rtol=1e-9)
        # AUTO takes the direct path when its factor is cheap (issue 23)
        want = ("gmres", "bicgstab", "direct") if method == "auto" else (method,)
        assert rep.method in want
        assert true_residual(A, x, b) <= 1e-9 * 1.01
        assert np.allclose(x, ref, rtol=1e-6, atol=1e-7)


def test_auto_picks_cg_for_spd():
    # small: the direct path when SuiteSparse is built in, else PCG + IC(0)
    x, rep = axb.sparse.solve(poisson2d(10), np.ones(100))
    assert rep.method == "direct" or (rep.method == "cg" and rep.precond == "ic0")
    # a Krylov method asked for: CG with IC(0) on the SPD matrix
    x, rep = axb.sparse.solve(poisson2d(10), np.ones(100), method="cg")
    assert rep.method == "cg" and rep.precond == "ic0"
    assert true_residual(poisson2d(10), x, np.ones(100)) <= 1e-8 * 1.01


def test_direct_method():
    A = convdiff(15)
    b = np.ones(A.shape[0])
    try:
        x, rep = axb.sparse.solve(A, b, method="direct")
    except NotImplementedError as e:  # a build without SuiteSparse says so
        assert "SuiteSparse" in str(e)
        return
    assert rep.method == "direct"
    assert np.allclose(x, spl.spsolve(A.tocsc(), b), rtol=1e-9, atol=1e-10)


def test_formats_and_canonicalisation():
    A = poisson2d(8)
    b = np.ones(64)
    ref, _ = axb.sparse.cg(A, b, rtol=1e-10)
    for M in (A.tocoo(), A.tocsc(), sp.csr_array(A), A.todok()):
        x, _ = axb.sparse.cg(M, b, rtol=1e-10)
        assert np.allclose(x, ref, rtol=1e-8)
    # duplicate entries (each value split in two halves): summed first
    coo = A.tocoo()
    half = coo.data / 2
    dup = sp.coo_matrix((np.r_[half, half], (np.r_[coo.row, coo.row],
                                             np.r_[coo.col, coo.col])),
                        shape=A.shape)
    x, _ = axb.sparse.cg(dup, b, rtol=1e-10)
    assert np.allclose(x, ref, rtol=1e-8)
    # unsorted column indices within rows
    csr = A.copy()
    for i in range(csr.shape[0]):
        lo, hi = csr.indptr[i], csr.indptr[i + 1]
        csr.indices[lo:hi] = csr.indices[lo:hi][::-1]
        csr.data[lo:hi] = csr.data[lo:hi][::-1]
    csr.has_sorted_indices = False
    x, _ = axb.sparse.cg(csr, b, rtol=1e-10)
    assert np.allclose(x, ref, rtol=1e-8)


def test_history_x0_and_multiple_rhs():
    A = poisson2d(12)
    b = np.ones(144)
    x, rep = axb.sparse.cg(A, b, rtol=1e-8, history=True, precond="none")
    h = rep.history
    assert h is not None and len(h) >= rep.iterations
    assert h[0] == pytest.approx(1.0) and h[-1] <= 1e-8
    x2, rep2 = axb.sparse.cg(A, b, x0=x, rtol=1e-8, precond="none")
    assert rep2.iterations <= 1
    B = np.stack([b, np.arange(144.0)], axis=1)
    X, rep = axb.sparse.cg(A, B, rtol=1e-9)
    assert X.shape == (144, 2) and rep.nrhs == 2
    for j in range(2):
        assert true_residual(A, X[:, j], B[:, j]) <= 1e-9 * 1.01


def test_float32():
    A = poisson2d(10, np.float32)
    b = np.ones(100, np.float32)
    x, rep = axb.sparse.cg(A, b, rtol=1e-5)
    assert x.dtype == np.float32 and rep.true_residual <= 1e-5


def test_no_convergence_raises_with_report():
    A = poisson2d(30)
    b = np.ones(900)
    with pytest.raises(axb.NoConvergenceError) as e:
        axb.sparse.cg(A, b, rtol=1e-12, maxiter=3, precond="none")
    rep = e.value.report
    assert rep.iterations == 3 and rep.true_residual > 1e-12
    assert e.value.x.shape == (900,)
    x, rep = axb.sparse.cg(A, b, rtol=1e-12, maxiter=3, precond="none",
                           check=False)
    assert not rep.converged and rep.breakdown != "none"


def test_cg_on_indefinite_reports_not_spd():
    A = poisson2d(6) - 10 * sp.identity(36)
    with pytest.raises(axb.LinAlgError):
        axb.sparse.cg(A.tocsr(), np.ones(36), precond="none")


@pytest.mark.parametrize("args,kw,exc", [
    ((np.eye(3), np.ones(3)), {}, TypeError),
    ((sp.csr_matrix(np.ones((2, 3))), np.ones(2)), {}, ValueError),
    ((sp.identity(3, format="csr"), np.ones(4)), {}, ValueError),
    ((sp.identity(3, format="csr"), np.ones(3)), {"rtol": 0}, ValueError),
    ((sp.identity(3, format="csr"), np.ones(3)), {"maxiter": 0}, ValueError),
    ((sp.identity(3, format="csr"), np.ones(3)), {"precond": "amg"},
     ValueError),
    ((sp.identity(3, format="csr"), np.ones(3)), {"method": "lsqr"},
     ValueError),
    ((sp.identity(3, format="csr", dtype=complex), np.ones(3)), {},
     TypeError),
])
def test_bad_input(args, kw, exc):
    with pytest.raises(exc):
        axb.sparse.solve(*args, **kw)


def test_nan_in_matrix():
    A = poisson2d(4)
    A.data[3] = np.nan
    with pytest.raises(ValueError):
        axb.sparse.solve(A, np.ones(16))
