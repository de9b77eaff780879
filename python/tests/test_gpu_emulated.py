"""The GPU path's Python logic (python/axb/_gpu.py: layouts, transposed
solves, stacks, NaN for failed problems, certificates, strict) run on the
host: a CuPy stand-in over NumPy arrays and a stand-in for the device
routines (_axb.dev_call) over SciPy's LAPACK on the same pointers.  The
real device routines are test_gpu.py's (device machine)."""
import ctypes
import types

import numpy as np
import pytest
sl = pytest.importorskip("scipy.linalg")

import axb
from axb import _gpu

# NumPy warns about the NaN a singular system leaves in x (the device
# libraries do not).
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


class Fake(np.ndarray):
    """A 'device array': NumPy memory, CuPy's spelling."""


def dev(a):
    return np.asarray(a).view(Fake)


def view(ptr, count, dtype):
    ct = ctypes.c_float if dtype == "float32" else ctypes.c_double
    if dtype in ("int32", "int64"):
        ct = ctypes.c_int32 if dtype == "int32" else ctypes.c_int64
    buf = (ct * count).from_address(ptr)
    return np.ctypeslib.as_array(buf)


def colmajor(ptr, rows, cols, ld, dtype):
    """The rows x cols column-major matrix at ptr (a writeable view)."""
    flat = view(ptr, ld * (cols - 1) + rows, dtype)
    return np.lib.stride_tricks.as_strided(
        flat, (rows, cols), (flat.itemsize, flat.itemsize * ld))


def rowmajor(ptr, rows, cols, ld, dtype):
    """The rows x cols row-major matrix at ptr (a writeable view)."""
    flat = view(ptr, ld * (rows - 1) + cols, dtype)
    return np.lib.stride_tricks.as_strided(
        flat, (rows, cols), (flat.itemsize * ld, flat.itemsize))


def fake_cert(dt, rm, n, k, A, lda, sA, B, ldb, sB, X, ldx, sX, info, berr,
              batch):
    """gesv_batched_cert: LAPACK's gesv per problem and check.c's ratio."""
    it = 4 if dt == "float32" else 8
    mat = rowmajor if rm else colmajor
    infos, berrs = view(info, batch, "int32"), view(berr, batch, dt)
    eps = 2.0 ** (-24 if dt == "float32" else -53)
    for i in range(batch):
        M = np.array(mat(A + i * sA * it, n, n, lda, dt))
        Bm = np.array(mat(B + i * sB * it, n, k, ldb, dt))
        Xm = mat(X + i * sX * it, n, k, ldx, dt)
        _, _, x, inf = lapack("gesv", dt)(M.copy(), Bm.copy())
        infos[i] = inf
        if inf:
            Xm[...] = np.nan
            berrs[i] = np.inf
            continue
        Xm[...] = x
        x64, M64 = x.astype(np.float64), M.astype(np.float64)
        r = np.abs(Bm - M64 @ x64).max(axis=0)
        an = np.abs(M64).sum(axis=1).max()
        xn = np.abs(x64).max(axis=0)
        berrs[i] = (r / an / xn / (n * eps)).max() if k else 0


def lapack(name, dtype):
    return sl.get_lapack_funcs(name, dtype=np.dtype(dtype))


def fake_dev_call(name, dt, device, stream, *v):
    if name == "getrf":
        n, A, lda, ipiv, info = v
        M = colmajor(A, n, n, lda, dt)
        lu, piv, inf = lapack("getrf", dt)(M)
        M[...] = lu
        view(ipiv, n, "int64")[:] = piv + 1
        view(info, 1, "int64")[0] = inf
    elif name == "getrs":
        trans, n, k, A, lda, ipiv, B, ldb = v
        M = colmajor(A, n, n, lda, dt)
        X = colmajor(B, n, k, ldb, dt)
        piv = view(ipiv, n, "int64") - 1
        X[...], _ = lapack("getrs", dt)(np.asfortranarray(M), piv, X.copy(),
                                         trans=trans)
    elif name == "potrf":
        uplo, n, A, lda, info = v
        M = colmajor(A, n, n, lda, dt)
        c, inf = lapack("potrf", dt)(np.asfortranarray(M), lower=uplo == 0,
                                     clean=0)
        M[...] = c
        view(info, 1, "int64")[0] = inf
    elif name == "potrs":
        uplo, n, k, A, lda, B, ldb = v
        X = colmajor(B, n, k, ldb, dt)
        X[...], _ = lapack("potrs", dt)(np.asfortranarray(
            colmajor(A, n, n, lda, dt)), X.copy(), lower=uplo == 0)
    elif name == "getri":
        n, A, lda, ipiv, info = v
        M = colmajor(A, n, n, lda, dt)
        inv, inf = lapack("getri", dt)(np.asfortranarray(M),
                                       view(ipiv, n, "int64") - 1)
        if inf == 0:
            M[...] = inv
    elif name in ("gesv_batched", "posv_batched"):
        if name == "posv_batched":
            v = v[1:]
        n, k, A, lda, sA, B, ldb, sB, info, batch = v
        it = 4 if dt == "float32" else 8
        infos = view(info, batch, "int32")
        for i in range(batch):
            M = colmajor(A + i * sA * it, n, n, lda, dt)
            X = colmajor(B + i * sB * it, n, k, ldb, dt)
            if name == "gesv_batched":
                _, _, x, inf = lapack("gesv", dt)(M.copy(), X.copy())
            else:
                _, x, inf = lapack("posv", dt)(M.copy(), X.copy(), lower=1)
            infos[i] = inf
            if inf == 0:
                X[...] = x
    elif name == "gesv_batched_cert":
        fake_cert(dt, *v)
    elif name == "inverse_batched":
        n, A, lda, sA, info, batch = v
        it = 4 if dt == "float32" else 8
        infos = view(info, batch, "int32")
        for i in range(batch):
            M = colmajor(A + i * sA * it, n, n, lda, dt)
            try:
                M[...] = np.linalg.inv(M)
                infos[i] = 0
            except np.linalg.LinAlgError:
                infos[i] = 1
    else:
        raise AssertionError(name)
    return 0, None


@pytest.fixture(autouse=True)
def emulate(monkeypatch):
    cuda = types.SimpleNamespace(
        get_current_stream=lambda: types.SimpleNamespace(ptr=0),
        Device=lambda d: types.SimpleNamespace(
            __enter__=None, __exit__=None))

    class Dev:
        def __init__(self, d):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    cuda.Device = Dev
    xp = types.SimpleNamespace(
        cuda=cuda, abs=np.abs, where=lambda c, a, b: np.where(c, a, b)
        .view(Fake), full_like=np.full_like, float32=np.float32,
        float64=np.float64, int32=np.int32, int64=np.int64,
        empty=lambda shape, dtype: np.empty(shape, dtype).view(Fake))

    def init(self, a):
        self.name, self.xp, self.device = "cupy", xp, 0

    monkeypatch.setattr(_gpu, "kind",
                        lambda a: "cupy" if isinstance(a, Fake) else None)
    monkeypatch.setattr(_gpu._Lib, "__init__", init)
    monkeypatch.setattr(_gpu._Lib, "ptr", lambda self, a: a.ctypes.data)
    monkeypatch.setattr(_gpu._axb, "dev_call", fake_dev_call)


def system(n, k, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    A = (rng.uniform(-1, 1, (n, n)) + n * np.eye(n)).astype(dtype)
    b = rng.uniform(-1, 1, (n,) if k is None else (n, k)).astype(dtype)
    return A, b


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("n,k", [(1, None), (9, None), (40, 3)])
@pytest.mark.parametrize("method", ["lu", "cholesky"])
def test_emulated_solve(dtype, order, n, k, method):
    A, b = system(n, k, dtype)
    if method == "cholesky":
        A = (A @ A.T + n * np.eye(n)).astype(dtype)
    x, rep = axb.solve(dev(np.asarray(A, order=order)), dev(b),
                       method=method, full_output=True)
    assert isinstance(x, Fake) and x.shape == b.shape
    assert rep.backward_error < 30 and rep.info == 0
    t = 1e-4 if dtype == np.float32 else 1e-10
    assert np.allclose(x, np.linalg.solve(A.astype(np.float64), b),
                       rtol=t, atol=t)


def test_emulated_singular():
    A, b = system(6, None)
    A[:, 2] = 0
    with pytest.raises(axb.SingularMatrixError):
        axb.solve(dev(A), dev(b))
    x, rep = axb.solve(dev(A), dev(b), check=False, full_output=True)
    assert int(rep.info[0]) >= 1


@pytest.mark.parametrize("k", [None, 2])
@pytest.mark.parametrize("method", ["lu", "cholesky"])
def test_emulated_batched(k, method):
    rng = np.random.default_rng(1)
    A = rng.uniform(-1, 1, (30, 5, 5)) + 5 * np.eye(5)
    if method == "cholesky":
        A = A @ A.swapaxes(1, 2) + 5 * np.eye(5)
    b = rng.uniform(-1, 1, (30, 5) if k is None else (30, 5, k))
    A[7, :, 1] = 0
    A[7, 1, :] = 0
    x, rep = axb.solve(dev(A), dev(b), method=method, full_output=True)
    assert isinstance(x, Fake) and x.shape == b.shape
    assert rep.info[7] >= 1 and (np.delete(rep.info, 7) == 0).all()
    assert np.isnan(x[7]).all() and rep.backward_error[7] == np.inf
    good = np.delete(np.arange(30), 7)
    bb = b[good] if k else b[good][..., None]
    ref = np.linalg.solve(A[good], bb)
    assert np.allclose(x[good], ref if k else ref[..., 0])
    assert (rep.backward_error[good] < 30).all()
    with pytest.raises(axb.LinAlgError) as e:
        axb.solve(dev(A), dev(b), method=method, strict=True)
    assert e.value.batch_index == 7


def test_emulated_inverse():
    A, _ = system(12, None)
    X = axb.inv(dev(A))
    assert isinstance(X, Fake) and np.allclose(X, np.linalg.inv(A))
    S = np.stack([A[:4, :4] + i * np.eye(4) for i in range(6)])
    S[2] = 0
    X = axb.inv(dev(S))
    assert np.isnan(X[2]).all()
    assert np.allclose(np.delete(X, 2, 0), np.linalg.inv(np.delete(S, 2, 0)))
    A[:, 0] = 0
    with pytest.raises(axb.SingularMatrixError):
        axb.inv(dev(A))


def test_emulated_argument_errors():
    A, b = system(4, None)
    with pytest.raises(TypeError):
        axb.solve(dev(A), b)
    with pytest.raises(ValueError):
        axb.solve(dev(A), dev(b), backend="cpu")
    with pytest.raises(ValueError):
        axb.solve(dev(A), dev(np.ones(5)))
    with pytest.raises(ValueError):
        axb.solve(dev(A), dev(b), method="gauss")
    with pytest.raises(TypeError):
        axb.solve(dev(A.astype(complex)), dev(b))
