"""GPU arrays (CuPy, PyTorch CUDA tensors) and the CUDA backend on host
arrays.  Every test skips with its reason where there is no GPU, no CUDA in
this build, or no CuPy / torch; on the device machine (CuPy and torch
installed) they run against NumPy on the same inputs."""
import numpy as np
import pytest

import axb
from conftest import backward_ratio

INFO = axb.info()
HAVE_GPU = INFO["cuda"] and INFO["cuda_devices"] > 0
needs_gpu = pytest.mark.skipif(
    not HAVE_GPU, reason="no GPU (CUDA compiled: %s, devices: %d)"
    % (INFO["cuda"], INFO["cuda_devices"]))


def _cupy():
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        return cupy
    except Exception:
        return None


def _torch():
    try:
        import torch
        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


class CupyLib:
    name = "cupy"

    def __init__(self):
        self.xp = _cupy()

    def asarray(self, a, order="C"):
        return self.xp.asarray(np.asarray(a, order=order))

    def host(self, a):
        return self.xp.asnumpy(a)

    def is_mine(self, a):
        return isinstance(a, self.xp.ndarray)

    def stream(self):
        return self.xp.cuda.Stream(non_blocking=True)

    def on(self, s):
        return s


class TorchLib:
    name = "torch"

    def __init__(self):
        self.xp = _torch()

    def asarray(self, a, order="C"):
        t = self.xp.from_numpy(np.ascontiguousarray(a)).cuda()
        if order == "F" and t.ndim >= 2:
            t = t.transpose(-1, -2).contiguous().transpose(-1, -2)
        return t

    def host(self, a):
        return a.cpu().numpy()

    def is_mine(self, a):
        return isinstance(a, self.xp.Tensor) and a.is_cuda

    def stream(self):
        return self.xp.cuda.Stream()

    def on(self, s):
        return self.xp.cuda.stream(s)


def libs():
    out = []
    for cls, probe in ((CupyLib, _cupy), (TorchLib, _torch)):
        mark = pytest.mark.skipif(
            not HAVE_GPU or probe() is None,
            reason="needs a GPU, CUDA in this build and %s" % cls.name)
        out.append(pytest.param(cls, marks=mark, id=cls.name))
    return out


def system(n, k, dtype, seed=0):
    rng = np.random.default_rng(seed)
    A = (rng.uniform(-1, 1, (n, n)) + n * np.eye(n)).astype(dtype)
    b = rng.uniform(-1, 1, (n,) if k is None else (n, k)).astype(dtype)
    return A, b


def tol(dtype):
    return 1e-4 if dtype == np.float32 else 1e-10


@pytest.mark.parametrize("Lib", libs())
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("n,k", [(1, None), (7, None), (100, 3), (513, 1)])
def test_gpu_solve_matches_numpy(Lib, dtype, order, n, k):
    lib = Lib()
    A, b = system(n, k, dtype, n)
    x, rep = axb.solve(lib.asarray(A, order), lib.asarray(b), full_output=True)
    assert lib.is_mine(x) and tuple(x.shape) == b.shape
    assert rep.backend == "cuda" and rep.backward_error < 30
    xh = lib.host(x)
    assert xh.dtype == dtype and backward_ratio(A, xh, b) < 30
    assert np.allclose(xh, np.linalg.solve(A.astype(np.float64), b),
                       rtol=tol(dtype), atol=tol(dtype))


@pytest.mark.parametrize("Lib", libs())
def test_gpu_cholesky(Lib):
    lib = Lib()
    rng = np.random.default_rng(3)
    R = rng.uniform(-1, 1, (64, 64))
    A = R @ R.T + 64 * np.eye(64)
    b = np.ones(64)
    x = axb.solve(lib.asarray(A), lib.asarray(b), method="cholesky")
    assert np.allclose(lib.host(x), np.linalg.solve(A, b))


@pytest.mark.parametrize("Lib", libs())
def test_gpu_caller_stream(Lib):
    lib = Lib()
    A, b = system(300, 2, np.float64, 5)
    s = lib.stream()
    with lib.on(s):
        dA, db = lib.asarray(A), lib.asarray(b)
        x = axb.solve(dA, db, check=False)   # queued on s, no sync
        y = x * 2                              # ordered after the solve on s
    s.synchronize()
    assert np.allclose(lib.host(y), 2 * np.linalg.solve(A, b))


@pytest.mark.parametrize("Lib", libs())
def test_gpu_singular(Lib):
    lib = Lib()
    A, b = system(16, None, np.float64)
    A[:, 5] = 0
    with pytest.raises(axb.SingularMatrixError) as e:
        axb.solve(lib.asarray(A), lib.asarray(b))
    assert e.value.info >= 1
    x, rep = axb.solve(lib.asarray(A), lib.asarray(b), check=False,
                       full_output=True)
    assert int(rep.info[0]) >= 1        # on the device until asked


@pytest.mark.parametrize("Lib", libs())
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n,k", [(4, None), (8, None), (16, 2), (33, None)])
def test_gpu_batched(Lib, dtype, n, k):
    lib = Lib()
    rng = np.random.default_rng(n)
    A = (rng.uniform(-1, 1, (500, n, n)) + n * np.eye(n)).astype(dtype)
    b = rng.uniform(-1, 1, (500, n) if k is None else (500, n, k)) \
        .astype(dtype)
    A[123, :, 1] = 0                               # one singular matrix
    x, rep = axb.solve(lib.asarray(A), lib.asarray(b), full_output=True)
    assert lib.is_mine(x) and tuple(x.shape) == b.shape
    info = lib.host(rep.info)
    assert info[123] >= 1 and (np.delete(info, 123) == 0).all()
    xh = lib.host(x)
    assert np.isnan(xh[123]).all()
    good = np.delete(np.arange(500), 123)
    bb = b[good] if k else b[good][..., None]
    ref = np.linalg.solve(A[good].astype(np.float64), bb)
    ref = ref if k else ref[..., 0]
    assert np.allclose(xh[good], ref, rtol=tol(dtype) * 10,
                       atol=tol(dtype) * 10)
    assert (lib.host(rep.backward_error)[good] < 30).all()
    with pytest.raises(axb.SingularMatrixError) as e:
        axb.solve(lib.asarray(A), lib.asarray(b), strict=True)
    assert e.value.batch_index == 123


@pytest.mark.parametrize("Lib", libs())
def test_gpu_inverse(Lib):
    lib = Lib()
    A, _ = system(70, None, np.float64)
    X = axb.inv(lib.asarray(A))
    assert lib.is_mine(X)
    assert np.allclose(lib.host(X), np.linalg.inv(A))
    S = np.stack([A[:9, :9] + i * np.eye(9) for i in range(20)])
    X = axb.inv(lib.asarray(S))
    assert np.allclose(lib.host(X), np.linalg.inv(S))
    A[:, 3] = 0
    with pytest.raises(axb.SingularMatrixError):
        axb.inv(lib.asarray(A))


@pytest.mark.parametrize("Lib", libs())
def test_gpu_argument_errors(Lib):
    lib = Lib()
    A, b = system(4, None, np.float64)
    with pytest.raises(TypeError):
        axb.solve(lib.asarray(A), b)             # a host b with a GPU A
    with pytest.raises(ValueError):
        axb.solve(lib.asarray(A), lib.asarray(b), backend="cpu")
    with pytest.raises(ValueError):
        axb.solve(lib.asarray(A), lib.asarray(np.ones(5)))
    with pytest.raises(TypeError):
        axb.lu_factor(lib.asarray(A))


@needs_gpu
def test_host_arrays_on_cuda_backend():
    A, b = system(300, 2, np.float64)
    x, rep = axb.solve(A, b, backend="cuda", full_output=True)
    assert rep.backend == "cuda" and backward_ratio(A, x, b) < 30
    lu, piv = axb.lu_factor(A, backend="cuda")
    assert np.allclose(axb.lu_solve((lu, piv), b, backend="cuda"),
                       np.linalg.solve(A, b))
    X = axb.inv(A, backend="cuda")
    assert np.allclose(X, np.linalg.inv(A))


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 257, 1500])
def test_host_c_order_on_cuda_backend(dtype, n):
    # A C-order A goes to the resident driver with opts.trans (issue 26t):
    # the same answer and A's certificate as the F-order A, both on cuda.
    rng = np.random.default_rng(n)
    A = (rng.uniform(-1, 1, (n, n))
         + np.triu(rng.uniform(1, 2, (n, n)), 1)).astype(dtype)
    A += (n * np.eye(n)).astype(dtype)
    b = rng.uniform(-1, 1, (n, 2)).astype(dtype)
    xc, rc = axb.solve(np.ascontiguousarray(A), b, backend="cuda",
                       full_output=True)
    xf, rf = axb.solve(np.asfortranarray(A), b, backend="cuda",
                       full_output=True)
    assert rc.backend == "cuda" and rf.backend == "cuda"
    assert backward_ratio(A, xc, b) < 30 and rc.backward_error < 30
    tol = 1e-3 if dtype == np.float32 else 1e-10
    assert np.allclose(xc, xf, rtol=tol, atol=tol)
    assert rc.rcond == pytest.approx(rf.rcond, rel=2)
    if n > 1:
        assert backward_ratio(A.T, xc, b) > 30


@needs_gpu
def test_sparse_on_cuda_backend():
    sp = pytest.importorskip("scipy.sparse")
    T = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(40, 40))
    A = (sp.kron(sp.identity(40), T) + sp.kron(T, sp.identity(40))).tocsr()
    b = np.ones(1600)
    x, rep = axb.sparse.cg(A, b, rtol=1e-10, backend="cuda")
    assert rep.backend == "cuda" and rep.true_residual <= 1e-10
    assert np.linalg.norm(b - A @ x) / np.linalg.norm(b) <= 1.01e-10
