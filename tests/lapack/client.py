"""A real LAPACK client: Debian's numpy and scipy, whose linalg calls the
system LAPACK's dgesv_/dgetrf_/dgetrs_/dgetri_/dpotrf_/dpotrs_ (and the
s-prefixed ones scipy uses for float32; numpy.linalg computes float32 in
double, so SGESV is left to the LIN tests).  Run twice by client.sh: once plainly
(--save: the system library's answers) and once with libaxb_lapack.so
preloaded (--compare: axb's answers must agree with them and have small
backward errors).  Sizes straddle axb's block sizes; n = 2600 crosses the
default GPU crossover (2048), so on a GPU machine AXB_LAPACK_BACKEND=auto
sends it to the GPU."""
import sys

import numpy as np
import scipy.linalg as sl


def problems():
    rng = np.random.default_rng(25)
    for n in (1, 7, 64, 257, 600, 2600):
        for dt in (np.float64, np.float32):
            if n == 2600 and dt == np.float32:
                continue
            A = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
            S = A @ A.T + n * np.eye(n)
            B = rng.standard_normal((n, 3))
            yield f"{n}_{np.dtype(dt).name}", A.astype(dt), S.astype(dt), B.astype(dt)


def answers():
    out = {}
    for key, A, S, B in problems():
        out["solve_" + key] = np.linalg.solve(A, B)
        out["inv_np_" + key] = np.linalg.inv(A)
        lu, piv = sl.lu_factor(A)
        out["lu_solve_" + key] = sl.lu_solve((lu, piv), B)
        out["lu_solve_T_" + key] = sl.lu_solve((lu, piv), B, trans=1)
        c = sl.cho_factor(S)
        out["cho_solve_" + key] = sl.cho_solve(c, B)
        cu = sl.cho_factor(S, lower=False)
        out["cho_solve_U_" + key] = sl.cho_solve(cu, B)
        out["inv_sl_" + key] = sl.inv(A)  # getrf + getri
    return out


def main():
    mode, path = sys.argv[1], sys.argv[2]
    got = answers()
    if mode == "--save":
        np.savez(path, **got)
        return 0
    ref = np.load(path)
    bad = 0
    for k, x in got.items():
        r = ref[k]
        eps = np.finfo(r.dtype).eps
        # Different but valid pivot orders give different roundings: agree
        # to a multiple of kappa * eps (kappa here is O(10)).
        tol = 1e3 * eps * max(1, r.shape[0]) ** 0.5
        d = np.max(np.abs(x - r)) / max(np.max(np.abs(r)), 1e-300)
        ok = np.all(np.isfinite(x)) and d <= tol
        print(f"{'ok ' if ok else 'BAD'} {k:28s} rel. difference {d:.2e} (tol {tol:.1e})")
        bad += not ok
    print(f"{len(got) - bad} of {len(got)} answers agree with the system LAPACK's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
