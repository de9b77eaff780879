"""axb.solve and the scipy-style pairs against NumPy/SciPy on the same
inputs: dtypes, orders, shapes, methods, reports and error paths."""
import numpy as np
import pytest
sl = pytest.importorskip("scipy.linalg")

import axb
from conftest import backward_ratio, spd, well_conditioned

DTYPES = [np.float32, np.float64]
ORDERS = ["C", "F"]
SIZES = [1, 2, 7, 33, 100]


def tol(dtype):
    return 1e-4 if dtype == np.float32 else 1e-11


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("k", [None, 1, 3])
def test_solve_matches_numpy(dtype, order, n, k):
    A = np.asarray(well_conditioned(n, n, dtype), order=order)
    rng = np.random.default_rng(n)
    b = rng.uniform(-1, 1, (n,) if k is None else (n, k)).astype(dtype)
    x, rep = axb.solve(A, b, full_output=True)
    assert x.dtype == dtype and x.shape == b.shape
    assert rep.status == 0 and rep.certified
    assert rep.backward_error < 30
    assert backward_ratio(A, x, b) < 30
    ref = np.linalg.solve(A.astype(np.float64), b.astype(np.float64))
    assert np.allclose(x, ref, rtol=tol(dtype), atol=tol(dtype))


def test_solve_leaves_inputs_alone():
    A = well_conditioned(20)
    b = np.ones(20)
    A0, b0 = A.copy(), b.copy()
    axb.solve(A, b)
    axb.solve(np.ascontiguousarray(A.T), b)
    assert np.array_equal(A, A0) and np.array_equal(b, b0)


def test_row_major_unsymmetric_is_not_solved_transposed():
    # C-order A is A^T to axb: the answer must be A's, not A^T's.
    A = np.array([[2.0, 1.0], [0.0, 1.0]])
    x = axb.solve(A, np.array([3.0, 1.0]))
    assert np.allclose(x, [1.0, 1.0])


def test_strided_views():
    big = well_conditioned(40)
    A = big[::2, ::2]          # neither C nor F contiguous
    Af = np.asfortranarray(big)[:20, :20]   # F with a leading dimension 40
    b = np.arange(20.0)
    for M in (A, Af, A.T):
        assert np.allclose(axb.solve(M, b), np.linalg.solve(M, b))


def test_lists_and_integer_inputs_become_float64():
    x = axb.solve([[2, 0], [0, 4]], [2, 4])
    assert x.dtype == np.float64 and np.allclose(x, [1, 1])
    x = axb.solve(np.eye(3, dtype=np.float32), np.ones(3))
    assert x.dtype == np.float64


@pytest.mark.parametrize("method", ["auto", "lu", "cholesky", "gauss-jordan",
                                    "lu-crout", "gauss", "cholesky-crout",
                                    "cholesky-banachiewicz"])
@pytest.mark.parametrize("order", ORDERS)
def test_methods(method, order):
    A = np.asarray(spd(37, 3), order=order)
    b = np.linspace(-1, 1, 37)
    x, rep = axb.solve(A, b, method=method, full_output=True)
    assert backward_ratio(A, x, b) < 30
    assert np.allclose(x, np.linalg.solve(A, b), rtol=1e-10, atol=1e-12)
    if method == "auto":
        assert rep.method == "cholesky"
    else:
        assert rep.method == method


def test_auto_falls_back_from_cholesky():
    A = spd(10)
    A[0, 1] = A[1, 0] = 1000.0    # positive diagonal, not positive definite
    b = np.ones(10)
    x, rep = axb.solve(A, b, full_output=True)
    assert rep.method == "lu" and rep.fallback and rep.cholesky_fell_back
    assert np.allclose(x, np.linalg.solve(A, b))


def test_report_fields():
    A = well_conditioned(50)
    b = np.ones(50)
    x, rep = axb.solve(A, b, backend="cpu", full_output=True)
    assert rep.backend == "cpu" and rep.dtype == "double"
    assert rep.n == 50 and rep.nrhs == 1 and rep.info == 0
    assert 0 < rep.rcond <= 1
    assert set(rep.times) == {"factor", "solve", "transfer", "certify",
                              "total"}
    assert rep.times["total"] >= rep.times["factor"] >= 0
    assert "backward_error" in repr(rep)
    x2 = axb.solve(A, b, backend="ref")
    assert np.allclose(x, x2)


@pytest.mark.parametrize("precision", ["mixed", "fp32", "fp64"])
def test_mixed_precision(precision):
    A = well_conditioned(60)
    b = np.linspace(0, 1, 60)
    x, rep = axb.solve(A, b, precision=precision, full_output=True)
    assert rep.method == "lu-mixed"
    assert x.dtype == np.float64 and backward_ratio(A, x, b) < 30
    xs, rep = axb.solve(spd(30), np.ones(30), method="cholesky",
                        precision=precision, full_output=True)
    assert rep.method == "cholesky-mixed"


def test_precision_casts():
    A = well_conditioned(10)
    assert axb.solve(A, np.ones(10), precision="single").dtype == np.float32
    assert axb.solve(A.astype(np.float32), np.ones(10, np.float32),
                     precision="double").dtype == np.float64


def test_empty_and_tiny():
    assert axb.solve(np.zeros((0, 0)), np.zeros(0)).shape == (0,)
    assert axb.solve(np.zeros((0, 0)), np.zeros((0, 2))).shape == (0, 2)
    assert axb.solve(np.eye(3), np.zeros((3, 0))).shape == (3, 0)
    assert np.allclose(axb.solve([[4.0]], [2.0]), [0.5])


# ---- errors ---------------------------------------------------------------

def singular(n=6, col=2):
    A = well_conditioned(n)
    A[:, col] = 0
    return A


def test_singular_raises_with_pivot():
    with pytest.raises(axb.SingularMatrixError) as e:
        axb.solve(singular(6, 2), np.ones(6), method="lu")
    assert isinstance(e.value, np.linalg.LinAlgError)
    assert e.value.info >= 1 and e.value.pivot == e.value.info - 1
    assert str(e.value)


def test_singular_check_false_returns_nan_and_report():
    x, rep = axb.solve(singular(), np.ones(6), check=False, full_output=True)
    assert np.isnan(x).all() and rep.status == 1 and rep.info >= 1


def test_not_spd_raises_with_minor():
    A = spd(8)
    A[4, 4] = -100
    with pytest.raises(axb.NotPositiveDefiniteError) as e:
        axb.solve(A, np.ones(8), method="cholesky")
    assert e.value.minor == 5


def test_ill_conditioned_raises_and_keeps_x():
    n = 12
    H = 1.0 / (np.arange(n)[:, None] + np.arange(n)[None, :] + 1)  # Hilbert
    with pytest.raises((axb.IllConditionedError, axb.InaccurateError)) as e:
        axb.solve(H, np.ones(n), method="lu")
    assert e.value.x is not None and e.value.x.shape == (n,)
    x, rep = axb.solve(H, np.ones(n), method="lu", check=False,
                       full_output=True)
    assert rep.status in (5, 6) and np.isfinite(x).all()


def test_nan_input_is_value_error():
    A = well_conditioned(4)
    A[1, 1] = np.nan
    with pytest.raises(ValueError):
        axb.solve(A, np.ones(4))
    with pytest.raises(ValueError):
        axb.lu_factor(A)


@pytest.mark.parametrize("A,b,exc", [
    (np.ones((3, 4)), np.ones(3), ValueError),
    (np.ones(3), np.ones(3), ValueError),
    (np.eye(3), np.ones(4), ValueError),
    (np.eye(3), np.ones((3, 2, 2)), ValueError),
    (np.eye(3, dtype=complex), np.ones(3), TypeError),
    (np.eye(3), np.array(["a", "b", "c"]), TypeError),
    (np.eye(3, dtype=np.longdouble), np.ones(3), TypeError),
])
def test_bad_shapes_and_dtypes(A, b, exc):
    with pytest.raises(exc):
        axb.solve(A, b)


@pytest.mark.parametrize("kw", [{"method": "qr"}, {"backend": "tpu"},
                                {"precision": "fp8"}, {"method": 3}])
def test_bad_options(kw):
    with pytest.raises(ValueError):
        axb.solve(np.eye(2), np.ones(2), **kw)


def test_cuda_backend_without_gpu_is_device_error():
    if axb.info()["cuda_devices"]:
        pytest.skip("a GPU exists")
    with pytest.raises(axb.DeviceError):
        axb.solve(np.eye(3), np.ones(3), backend="cuda")


# ---- lu_factor / lu_solve -------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n", [1, 5, 64, 129])
def test_lu_matches_scipy(dtype, order, n):
    A = np.asarray(well_conditioned(n, n, dtype), order=order)
    lu, piv = axb.lu_factor(A)
    lu2, piv2 = sl.lu_factor(A)
    assert lu.dtype == dtype and piv.dtype == np.int32
    assert np.array_equal(piv, piv2)       # diagonally dominant: no ties
    assert np.allclose(lu, lu2, rtol=tol(dtype) * 10, atol=tol(dtype) * 10)
    b = np.linspace(-1, 1, n).astype(dtype)
    for trans in (0, 1, 2):
        x = axb.lu_solve((lu, piv), b, trans=trans)
        ref = sl.lu_solve((lu2, piv2), b, trans=trans)
        assert np.allclose(x, ref, rtol=tol(dtype), atol=tol(dtype))
    B = np.ones((n, 3), dtype)
    assert np.allclose(axb.lu_solve((lu, piv), B), sl.lu_solve((lu2, piv2), B),
                       rtol=tol(dtype), atol=tol(dtype))


def test_lu_rectangular():
    rng = np.random.default_rng(1)
    for shape in [(7, 4), (4, 7)]:
        A = rng.uniform(-1, 1, shape)
        lu, piv = axb.lu_factor(A)
        lu2, piv2 = sl.lu_factor(A)
        assert np.allclose(lu, lu2) and np.array_equal(piv, piv2)


def test_lu_overwrite():
    A = np.asfortranarray(well_conditioned(10))
    lu, _ = axb.lu_factor(A, overwrite_a=True)
    assert np.shares_memory(lu, A)
    A2 = well_conditioned(10)            # C order: copied, not overwritten
    lu, _ = axb.lu_factor(A2, overwrite_a=True)
    assert not np.shares_memory(lu, A2)
    b = np.asfortranarray(np.ones((10, 2)))
    x = axb.lu_solve(axb.lu_factor(well_conditioned(10)), b, overwrite_b=True)
    assert np.shares_memory(x, b)


def test_lu_singular():
    with pytest.raises(axb.SingularMatrixError) as e:
        axb.lu_factor(singular(6, 2))
    assert e.value.pivot is not None
    lu, piv = axb.lu_factor(singular(6, 2), check=False)
    assert lu.shape == (6, 6)


def test_lu_solve_bad_piv():
    lu, piv = axb.lu_factor(well_conditioned(4))
    with pytest.raises(ValueError):
        axb.lu_solve((lu, piv + 10), np.ones(4))
    with pytest.raises(ValueError):
        axb.lu_solve((lu, piv[:2]), np.ones(4))
    with pytest.raises(ValueError):
        axb.lu_solve((lu, piv), np.ones(4), trans=3)


# ---- cho_factor / cho_solve -----------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("n", [1, 6, 70])
def test_cholesky_matches_scipy(dtype, order, lower, n):
    A = np.asarray(spd(n, n, dtype), order=order)
    c, low = axb.cho_factor(A, lower=lower)
    c2, _ = sl.cho_factor(A, lower=lower)
    assert low == lower and c.dtype == dtype
    tri = np.tril if lower else np.triu
    assert np.allclose(tri(c), tri(c2), rtol=tol(dtype) * 10,
                       atol=tol(dtype) * 10 * n)
    b = np.linspace(1, 2, n).astype(dtype)
    for cc in (c, np.ascontiguousarray(c), np.asfortranarray(c)):
        x = axb.cho_solve((cc, lower), b)
        assert np.allclose(x, sl.cho_solve((c2, lower), b), rtol=tol(dtype),
                           atol=tol(dtype))


def test_cholesky_reads_one_triangle():
    A = spd(9)
    junk = A + np.triu(np.full((9, 9), 7.0), 1)   # upper triangle garbage
    c, _ = axb.cho_factor(junk, lower=True)
    c2, _ = sl.cho_factor(A, lower=True)
    assert np.allclose(np.tril(c), np.tril(c2))


def test_cholesky_not_spd():
    A = spd(8)
    A[3, 3] = -50
    with pytest.raises(axb.NotPositiveDefiniteError) as e:
        axb.cho_factor(A)
    assert e.value.minor == 4


# ---- inv ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("method", ["lu", "gauss-jordan"])
@pytest.mark.parametrize("n", [1, 3, 65])
def test_inv_matches_numpy(dtype, order, method, n):
    A = np.asarray(well_conditioned(n, n, dtype), order=order)
    X = axb.inv(A, method=method)
    assert X.dtype == dtype
    assert np.allclose(X, np.linalg.inv(A.astype(np.float64)),
                       rtol=tol(dtype) * 10, atol=tol(dtype))


def test_inv_singular():
    with pytest.raises(axb.SingularMatrixError):
        axb.inv(singular(5, 1))
    with pytest.raises(ValueError):
        axb.inv(np.eye(3), method="cholesky")
    assert axb.inv(np.zeros((0, 0))).shape == (0, 0)


def test_threads_each_get_their_own_handle():
    # The GIL is released during the solve; each thread uses its own axb
    # handle (axb handles are one thread at a time).
    from concurrent.futures import ThreadPoolExecutor
    systems = [(well_conditioned(80, s), np.full(80, float(s)))
               for s in range(16)]

    def run(Ab):
        A, b = Ab
        x = axb.solve(A, b)
        X = axb.solve(np.stack([A] * 50), np.stack([b] * 50))
        return np.abs(x - np.linalg.solve(A, b)).max(), \
            np.abs(X - x).max()

    with ThreadPoolExecutor(4) as pool:
        for err, err_b in pool.map(run, systems * 4):
            assert err < 1e-12 and err_b < 1e-12


def test_extension_rejects_bad_calls_cleanly():
    # The private module is reached only through the wrappers, but bad
    # arguments must still give an exception, never a crash.
    from axb import _axb
    A, b = np.eye(3), np.ones(3)
    x, st, info, detail, rep = _axb.solve(A, b, 99, 0, -1, 0)
    assert st != 0 and detail
    x, st, info, detail, rep = _axb.solve(A, b, 0, 9, -1, 0)
    assert st != 0
    for call in (lambda: _axb.solve(A, b), lambda: _axb.solve(A, b, "a", 0,
                                                               -1, 0),
                 lambda: _axb.getrf(A), lambda: _axb.solve_batched(A, b, 0, 0,
                                                                   0),
                 lambda: _axb.inverse_batched(A, 0),
                 lambda: _axb.dev_call("nope", "float64", 0, 0),
                 lambda: _axb.dev_call("getrf", "float16", 0, 0, 1, 2, 3, 4,
                                       5),
                 lambda: _axb.sparse_solve(1, 2, 3, b, None, (), 0)):
        with pytest.raises((TypeError, ValueError)):
            call()
