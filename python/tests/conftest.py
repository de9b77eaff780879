"""Shared helpers of the axb Python tests: seeded matrices, the scaled
residual of DESIGN.md computed independently of axb (NumPy, in the
inputs' precision's eps), and where the shared real matrices are."""
import os
import pathlib

import numpy as np
import pytest

ROOT = pathlib.Path(os.environ.get("AXB_SOURCE_DIR",
                                   pathlib.Path(__file__).resolve().parents[2]))


def matrices_dir():
    d = os.environ.get("AXB_MATRICES")
    return pathlib.Path(d) if d else ROOT.parent / "shared" / "matrices"


def eps(dtype):
    return 2.0 ** -24 if np.dtype(dtype) == np.float32 else 2.0 ** -53


def backward_ratio(A, x, b):
    """max over columns ||b - A x||_inf / (||A||_inf ||x||_inf n eps), in
    float64 (A, x, b of one system; b (n,) or (n, k))."""
    A64 = np.asarray(A, np.float64)
    x2 = np.asarray(x, np.float64).reshape(A.shape[0], -1)
    b2 = np.asarray(b, np.float64).reshape(A.shape[0], -1)
    r = np.abs(b2 - A64 @ x2).max(axis=0)
    den = (np.abs(A64).sum(axis=1).max() * np.abs(x2).max(axis=0)
           * A.shape[0] * eps(x.dtype))
    return float(np.max(np.where(r == 0, 0, r / den))) if r.size else 0.0


def well_conditioned(n, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, (n, n)) + n * np.eye(n)).astype(dtype)


def spd(n, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    R = rng.uniform(-1, 1, (n, n))
    return (R @ R.T + n * np.eye(n)).astype(dtype)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
