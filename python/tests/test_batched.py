"""Stacks (..., n, n): the batched routines against numpy.linalg, per-matrix
info, one bad matrix among many, empty batches, broadcasting, dtypes."""
import warnings

import numpy as np
import pytest

import axb
from conftest import backward_ratio


def stack(batch_shape, n, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, batch_shape + (n, n)) + n * np.eye(n)
    return A.astype(dtype)


def spd_stack(batch, n, seed=0):
    rng = np.random.default_rng(seed)
    R = rng.uniform(-1, 1, (batch, n, n))
    return R @ R.swapaxes(1, 2) + n * np.eye(n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 8, 13, 33])
@pytest.mark.parametrize("k", [None, 1, 4])
def test_batched_solve_matches_numpy(dtype, n, k):
    A = stack((17,), n, n, dtype)
    rng = np.random.default_rng(n)
    b = rng.uniform(-1, 1, (17, n) if k is None else (17, n, k)).astype(dtype)
    x, rep = axb.solve(A, b, full_output=True)
    assert x.shape == b.shape and x.dtype == dtype
    assert (rep.info == 0).all() and rep.certified.all()
    assert rep.backward_error.shape == (17,) and (rep.backward_error < 30).all()
    ref = np.linalg.solve(A.astype(np.float64),
                          b.astype(np.float64)[..., None] if k is None
                          else b.astype(np.float64))
    ref = ref[..., 0] if k is None else ref
    t = 1e-4 if dtype == np.float32 else 1e-11
    assert np.allclose(x, ref, rtol=t, atol=t)
    for i in range(17):
        assert backward_ratio(A[i], x[i], b[i]) < 30


def test_batch_shapes_and_broadcasting():
    A = stack((2, 3), 4)
    b = np.ones((2, 3, 4))
    x = axb.solve(A, b)
    assert x.shape == (2, 3, 4)
    assert np.allclose(x, np.linalg.solve(A, b[..., None])[..., 0])
    one_b = np.arange(4.0)                    # same b for every matrix
    x = axb.solve(A, np.broadcast_to(one_b, (2, 3, 4)))
    assert np.allclose(x[1, 2], np.linalg.solve(A[1, 2], one_b))
    one_A = stack((), 4)                      # one A, many b: (5, 4, 2)
    x = axb.solve(one_A[None], np.ones((5, 4, 2)))
    assert x.shape == (5, 4, 2)
    assert np.allclose(x[3], np.linalg.solve(one_A, np.ones((4, 2))))


def test_c_and_f_order_stacks():
    A = stack((6,), 5)
    b = np.ones((6, 5, 2))
    for AA in (A, np.asfortranarray(A), A.transpose(0, 2, 1).copy()
               .transpose(0, 2, 1)):
        assert np.allclose(axb.solve(AA, b), np.linalg.solve(A, b))


def test_empty_batch():
    x, rep = axb.solve(np.zeros((0, 4, 4)), np.zeros((0, 4)),
                       full_output=True)
    assert x.shape == (0, 4) and rep.info.shape == (0,)
    assert axb.solve(np.zeros((3, 0, 0)), np.zeros((3, 0))).shape == (3, 0)
    assert axb.inv(np.zeros((0, 3, 3))).shape == (0, 3, 3)


def test_one_singular_among_many():
    A = stack((1000,), 8)
    A[417, :, 3] = 0                          # exactly singular
    b = np.ones((1000, 8))
    with pytest.warns(axb.LinAlgWarning, match="417"):
        x, rep = axb.solve(A, b, full_output=True)
    assert rep.info[417] >= 1 and (np.delete(rep.info, 417) == 0).all()
    assert np.isnan(x[417]).all()
    assert not rep.certified[417] and rep.certified.sum() == 999
    assert rep.failed.tolist() == [[417]]
    good = np.delete(np.arange(1000), 417)
    assert np.allclose(x[good], np.linalg.solve(A[good], b[good][..., None])
                       [..., 0])


def test_strict_raises_with_batch_index():
    A = stack((5,), 3)
    A[2] = 0
    with pytest.raises(axb.SingularMatrixError) as e:
        axb.solve(A, np.ones((5, 3)), strict=True)
    assert e.value.batch_index == (2,)


def test_check_false_no_certificate_no_warning():
    A = stack((4,), 3)
    A[1] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x, rep = axb.solve(A, np.ones((4, 3)), check=False, full_output=True)
    assert rep.backward_error is None and rep.info[1] >= 1
    assert np.isnan(x[1]).all() and np.isfinite(x[0]).all()


def test_batched_cholesky():
    A = spd_stack(50, 6)
    b = np.ones((50, 6))
    x = axb.solve(A, b, method="cholesky")
    assert np.allclose(x, np.linalg.solve(A, b[..., None])[..., 0])
    A[7, 2, 2] = -100
    with pytest.warns(axb.LinAlgWarning):
        x, rep = axb.solve(A, b, method="cholesky", full_output=True)
    assert rep.info[7] == 3 and np.isnan(x[7]).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batched_inverse(dtype):
    A = stack((3, 4), 7, 1, dtype)
    X = axb.inv(A)
    assert X.dtype == dtype and X.shape == A.shape
    t = 1e-4 if dtype == np.float32 else 1e-11
    assert np.allclose(X, np.linalg.inv(A.astype(np.float64)), rtol=t, atol=t)
    A[1, 2] = 0
    with pytest.warns(axb.LinAlgWarning):
        X = axb.inv(A)
    assert np.isnan(X[1, 2]).all() and np.isfinite(X[0]).all()
    with pytest.raises(axb.SingularMatrixError):
        axb.inv(A, strict=True)


@pytest.mark.parametrize("A,b,exc,kw", [
    (np.ones((2, 3, 4)), np.ones((2, 3)), ValueError, {}),
    (np.ones((2, 3, 3)), np.ones((2, 4)), ValueError, {}),
    (np.ones((2, 3, 3)), np.ones((3, 3, 1)), ValueError, {}),
    (np.ones((2, 3, 3), complex), np.ones((2, 3)), TypeError, {}),
    (np.ones((2, 3, 3)), np.ones((2, 3)), ValueError, {"method": "gauss"}),
    (np.ones((2, 3, 3)), np.ones((2, 3)), ValueError, {"backend": "cuda"}),
])
def test_batched_errors(A, b, exc, kw):
    with pytest.raises(exc):
        axb.solve(A, b, **kw)
