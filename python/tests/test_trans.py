"""axb.solve of a C-order (row-major) A: the buffer is A^T to axb, and the
driver solves it with opts.trans (issue 26), so no transposing copy is
made.  C and F order must give the same answer and the same certificate:
the backward error of A x = b (checked here with NumPy) and the 1-norm
rcond of A (checked against an explicit inverse)."""
import tracemalloc

import numpy as np
import pytest

import axb
from conftest import backward_ratio, spd, well_conditioned

DTYPES = [np.float32, np.float64]


def unsymmetric(n, seed, dtype):
    """A random A far from symmetric: solving A^T instead of A fails."""
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (n, n)) + np.triu(rng.uniform(2, 3, (n, n)), 1)
    return (A + n * np.eye(n)).astype(dtype)


def tol(dtype):
    return 1e-4 if dtype == np.float32 else 1e-10


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 7, 33, 129])
@pytest.mark.parametrize("k", [None, 3])
@pytest.mark.parametrize("method", ["auto", "lu", "gauss-jordan", "lu-crout",
                                    "gauss"])
def test_c_and_f_order_agree(dtype, n, k, method):
    A = unsymmetric(n, n, dtype)
    rng = np.random.default_rng(n + 1)
    b = rng.uniform(-1, 1, (n,) if k is None else (n, k)).astype(dtype)
    Ac, Af = np.ascontiguousarray(A), np.asfortranarray(A)
    xc, rc = axb.solve(Ac, b, method=method, full_output=True)
    xf, rf = axb.solve(Af, b, method=method, full_output=True)
    assert xc.dtype == dtype and xc.shape == b.shape
    assert np.allclose(xc, xf, rtol=tol(dtype), atol=tol(dtype))
    # The certificate is A's (not A^T's), recomputed independently.
    for x, r in ((xc, rc), (xf, rf)):
        assert r.certified and r.backward_error < 30
        assert backward_ratio(A, x, b) < 30
        assert abs(r.backward_error - backward_ratio(A, x, b)) <= \
            1 + 0.5 * max(r.backward_error, backward_ratio(A, x, b))
    if n > 1:
        assert backward_ratio(A.T, xc, b) > 30   # the test has power
    if method != "gauss":
        assert rc.rcond == pytest.approx(rf.rcond, rel=2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rcond_is_that_of_a(dtype):
    # Row 0 scaled: A's 1- and inf-norm conditions differ by far more than
    # the estimator's slack; both orders must report the 1-norm one of A.
    n = 60
    A = np.random.default_rng(3).uniform(-1, 1, (n, n))
    A[0] *= 1000
    A = A.astype(dtype)
    A64 = A.astype(np.float64)
    Ai = np.linalg.inv(A64)
    exact1 = 1 / (np.abs(A64).sum(0).max() * np.abs(Ai).sum(0).max())
    exactinf = 1 / (np.abs(A64).sum(1).max() * np.abs(Ai).sum(1).max())
    assert exactinf < exact1 / 8
    b = np.ones(n, dtype)
    for M in (np.ascontiguousarray(A), np.asfortranarray(A)):
        _, r = axb.solve(M, b, method="lu", full_output=True)
        slack = 0.9 if dtype == np.float32 else 1 - 1e-6
        assert exact1 * slack <= r.rcond <= 3 * exact1


@pytest.mark.parametrize("dtype", DTYPES)
def test_symmetric_and_spd_c_order(dtype):
    S = spd(41, 2, dtype)
    b = np.arange(41, dtype=dtype)
    for method in ("auto", "cholesky", "lu"):
        x, r = axb.solve(np.ascontiguousarray(S), b, method=method,
                         full_output=True)
        assert r.certified and backward_ratio(S, x, b) < 30
        assert r.method == ("lu" if method == "lu" else "cholesky")


def test_mixed_precision_c_order():
    # lu-mixed has no transposed solve: the binding copies (still right).
    A = unsymmetric(50, 5, np.float64)
    b = np.ones(50)
    x, r = axb.solve(np.ascontiguousarray(A), b, precision="mixed",
                     full_output=True)
    assert backward_ratio(A, x, b) < 30
    assert np.allclose(x, np.linalg.solve(A, b))


def test_singular_c_order_raises_with_pivot():
    A = unsymmetric(9, 1, np.float64)
    A[4] = 0          # a zero row of A: a zero column of the buffer
    with pytest.raises(axb.SingularMatrixError):
        axb.solve(np.ascontiguousarray(A), np.ones(9))


def test_c_order_makes_no_copy_of_a():
    # NumPy's allocations are traced: the old binding made an F-order copy
    # of A (n^2 doubles) before the call; now the driver reads A as it is.
    n = 400
    A = unsymmetric(n, 7, np.float64)
    b = np.ones(n)
    axb.solve(A, b)              # warm: the handle exists
    tracemalloc.start()
    x = axb.solve(A, b)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < A.nbytes / 4, peak
    assert backward_ratio(A, x, b) < 30
