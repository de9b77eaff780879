"""The Python package's benchmarks (issue 26): `python -m axb.bench`.

  overhead   axb.solve on a 4 x 4 system from Python, minus the same
             certified axb_solve called in a C loop (_axb.c_solve_seconds):
             the cost of the binding (target <= 5 us); best of the
             repetitions, C and Python loops alternating
  batch-cpu  100 000 systems of order 8 (stacked arrays) vs
             numpy.linalg.solve on the same arrays (target >= 5x), as
             installed (its BLAS threads as they come) and with its BLAS on
             one thread (a child process)
  batch-gpu  the same batch as CuPy arrays / torch CUDA tensors vs
             cupy.linalg.solve and torch.linalg.solve (target >= 5x)
  dense-gpu  n = 4096 from host NumPy arrays vs cupy.linalg.solve with its
             transfers (target >= 1x)
  dense-cpu  n = 2048 (AXB_BENCH_DENSE_N) from a C-order NumPy A on the CPU:
             axb.solve reading it as it is (opts.trans), the same after
             the F-order copy the binding used to make (np.asfortranarray
             inside the timed region), an F-order A, and numpy.linalg.solve

Medians over repetitions after a warm-up; the GPU cases synchronise the
device inside the timed region and skip without a GPU, CuPy or torch.
--json FILE writes the results; bench/results/python-*.json are such
files, scripts/python-table.py makes docs/PERFORMANCE.md's table of them.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import axb
from axb import _axb


def median_time(fn, reps, warm=1):
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def overhead(reps):
    n, calls = 4, 20000
    A = np.array([[n + 1.0 if i == j else 1.0 / (1 + i + j) for j in range(n)]
                  for i in range(n)])
    A = np.asfortranarray(A)
    b = np.ones(n)
    solve = axb.solve

    def py_loop():
        for _ in range(calls):
            solve(A, b)

    def np_loop():
        for _ in range(calls):
            np.linalg.solve(A, b)

    # C and Python loops alternate, so that both see the same load (a
    # shared machine); as timeit advises for such small costs, the best of
    # the repetitions is the figure (the medians are kept beside it).
    py_loop()
    cs, ps, diffs = [], [], []
    for _ in range(reps):
        c = _axb.c_solve_seconds(n, calls)
        t0 = time.perf_counter()
        py_loop()
        p = (time.perf_counter() - t0) / calls
        cs.append(c)
        ps.append(p)
        diffs.append(p - c)
    c, p = min(cs), min(ps)
    nps = median_time(np_loop, reps) / calls
    return [{"case": "overhead", "what": "axb.solve 4x4 minus the C call",
             "axb_us": p * 1e6, "c_us": c * 1e6,
             "overhead_us": (p - c) * 1e6,
             "overhead_median_us": statistics.median(diffs) * 1e6,
             "axb_median_us": statistics.median(ps) * 1e6,
             "c_median_us": statistics.median(cs) * 1e6,
             "numpy_us": nps * 1e6, "target": "<= 5 us",
             "met": (p - c) * 1e6 <= 5}]


_NUMPY_ONE_THREAD = """
import numpy as np, statistics, sys, time
rng = np.random.default_rng(0)
batch, n, reps = (int(a) for a in sys.argv[1:4])
A = rng.uniform(-1, 1, (batch, n, n)) + n * np.eye(n)
b = rng.uniform(-1, 1, (batch, n))
np.linalg.solve(A, b[..., None])
ts = []
for _ in range(reps):
    t0 = time.perf_counter()
    np.linalg.solve(A, b[..., None])
    ts.append(time.perf_counter() - t0)
print(statistics.median(ts))
"""


def numpy_one_thread(batch, n, reps):
    """numpy.linalg.solve's time with its BLAS on one thread (a child
    process: OpenBLAS reads its thread count at start-up)."""
    import subprocess
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _NUMPY_ONE_THREAD, str(batch),
                          str(n), str(reps)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out)


def batch_cpu(reps, batch=100000, n=8):
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (batch, n, n)) + n * np.eye(n)
    b = rng.uniform(-1, 1, (batch, n))
    out = []
    t_np = median_time(lambda: np.linalg.solve(A, b[..., None]), reps)
    t_np1 = numpy_one_thread(batch, n, reps)
    for check in (True, False):
        t = median_time(lambda: axb.solve(A, b, check=check), reps)
        for anchor, ta in (("numpy", t_np),
                           ("numpy, BLAS on 1 thread", t_np1)):
            out.append({"case": "batch-cpu", "what": "%d x order %d, "
                        "check=%s" % (batch, n, check), "axb_s": t,
                        "anchor": anchor, "anchor_s": ta, "speedup": ta / t,
                        "target": ">= 5x", "met": ta / t >= 5})
    return out


def _gpu_libs():
    libs = []
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            libs.append(("cupy", cupy))
    except Exception:
        pass
    try:
        import torch
        if torch.cuda.is_available():
            libs.append(("torch", torch))
    except Exception:
        pass
    return libs


def _sync(name, xp):
    if name == "cupy":
        xp.cuda.Device().synchronize()
    else:
        xp.cuda.synchronize()


def batch_gpu(reps, batch=100000, n=8):
    out = []
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (batch, n, n)) + n * np.eye(n)
    b = rng.uniform(-1, 1, (batch, n))
    for name, xp in _gpu_libs():
        if name == "cupy":
            dA, db = xp.asarray(A), xp.asarray(b)
            anchor = lambda: xp.linalg.solve(dA, db[..., None])  # noqa: E731
        else:
            dA, db = xp.from_numpy(A).cuda(), xp.from_numpy(b).cuda()
            anchor = lambda: xp.linalg.solve(dA, db[..., None])  # noqa: E731

        def timed(fn):
            def run():
                fn()
                _sync(name, xp)
            return median_time(run, reps, warm=2)

        t_anchor = timed(anchor)
        for check in (True, False):
            t = timed(lambda: axb.solve(dA, db, check=check))
            out.append({"case": "batch-gpu", "what": "%d x order %d, %s, "
                        "check=%s" % (batch, n, name, check), "axb_s": t,
                        "anchor": "%s.linalg.solve" % name,
                        "anchor_s": t_anchor, "speedup": t_anchor / t,
                        "target": ">= 5x", "met": t_anchor / t >= 5})
    return out


def dense_gpu(reps, n=4096):
    libs = dict(_gpu_libs())
    if "cupy" not in libs:
        return []
    cp = libs["cupy"]
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (n, n))
    b = rng.uniform(-1, 1, n)
    Af = np.asfortranarray(A)

    def anchor():
        x = cp.asnumpy(cp.linalg.solve(cp.asarray(A), cp.asarray(b)))
        cp.cuda.Device().synchronize()
        return x

    t_anchor = median_time(anchor, reps, warm=2)
    out = []
    for label, M, backend in (("C-order A, auto", A, "auto"),
                              ("C-order A, cuda", A, "cuda"),
                              ("F-order A, cuda", Af, "cuda")):
        t = median_time(lambda: axb.solve(M, b, backend=backend), reps,
                        warm=2)
        _, rep = axb.solve(M, b, backend=backend, full_output=True)
        out.append({"case": "dense-gpu", "what": "n = %d host arrays, %s "
                    "(ran on %s)" % (n, label, rep.backend), "axb_s": t,
                    "anchor": "cupy.linalg.solve + transfers",
                    "anchor_s": t_anchor, "speedup": t_anchor / t,
                    "target": ">= 1x", "met": t_anchor / t >= 1})
    return out


def dense_cpu(reps, n=None):
    n = n or int(os.environ.get("AXB_BENCH_DENSE_N", "2048"))
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (n, n))          # C order
    b = rng.uniform(-1, 1, n)
    Af = np.asfortranarray(A)
    cases = (("C-order A as it is (trans)", lambda: axb.solve(A, b)),
             ("C-order A copied to F order first (the binding before)",
              lambda: axb.solve(np.asfortranarray(A), b)),
             ("F-order A", lambda: axb.solve(Af, b)))
    t_np = median_time(lambda: np.linalg.solve(A, b), reps)
    out = []
    for what, fn in cases:
        t = median_time(fn, reps)
        _, rep = axb.solve(A if "as it is" in what else Af, b,
                           full_output=True)
        out.append({"case": "dense-cpu", "what": "n = %d, %s" % (n, what),
                    "axb_s": t, "backend": rep.backend,
                    "backward_error": rep.backward_error, "rcond": rep.rcond,
                    "anchor": "numpy.linalg.solve (C-order A)",
                    "anchor_s": t_np, "speedup": t_np / t})
    return out


def machine():
    info = axb.info()
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    gpus = []
    for name, xp in _gpu_libs():
        if name == "torch":
            gpus.append(xp.cuda.get_device_name(0))
    return {"cpu": cpu, "cores": os.cpu_count(), "python": sys.version.split()[0],
            "numpy": np.__version__, "axb": info["version"],
            "blas": info["blas"].split(" (")[0], "cuda": info["cuda"],
            "gpus": gpus, "omp_num_threads": os.environ.get("OMP_NUM_THREADS")}


CASES = {"overhead": overhead, "batch-cpu": batch_cpu,
         "batch-gpu": batch_gpu, "dense-gpu": dense_gpu,
         "dense-cpu": dense_cpu}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m axb.bench",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES),
                    help="any of %s (default: all)" % ", ".join(CASES))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json", help="write the results to this file")
    args = ap.parse_args(argv)
    results = []
    for c in args.cases:
        if c not in CASES:
            ap.error("unknown case %r" % c)
        for r in CASES[c](args.reps):
            results.append(r)
            print(json.dumps(r))
    doc = {"date": datetime.date.today().isoformat(),
           "command": "python -m axb.bench " + " ".join(
               (argv if argv is not None else sys.argv[1:])),
           "machine": machine(), "results": results}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
