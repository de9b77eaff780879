"""axb.solve of a C-order (row-major) NumPy A before and after issue 26's
opts.trans, in one process: the package under test (`import axb`) and an
older build of it loaded beside it as `axb_before` (--before DIR, DIR
holding that build's `axb` package), each call round-robin with
numpy.linalg.solve so that all three see the same load on a shared
machine.  Medians of --reps calls after one warm-up each.

  PYTHONPATH=build/rel/python python bench/python_trans.py \
      --before /tmp/old --n 2048 --reps 5 --json bench/results/...json
"""
import argparse
import datetime
import importlib.util
import json
import os
import pathlib
import statistics
import sys
import time
import tracemalloc

import numpy as np

import axb


def load_before(d):
    pkg = pathlib.Path(d) / "axb"
    spec = importlib.util.spec_from_file_location(
        "axb_before", pkg / "__init__.py",
        submodule_search_locations=[str(pkg)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["axb_before"] = mod
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", help="directory with an older build's axb")
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--json")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time.process_time (CPU seconds of the process: "
                    "steadier than wall time on a loaded machine when the "
                    "libraries run one thread, OMP_NUM_THREADS=1 "
                    "OPENBLAS_NUM_THREADS=1)")
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (a.n, a.n)).astype(a.dtype)   # C order
    b = rng.uniform(-1, 1, a.n).astype(a.dtype)
    Af = np.asfortranarray(A)
    calls = {"axb C-order (after)": lambda: axb.solve(A, b),
             "axb F-order": lambda: axb.solve(Af, b),
             "numpy.linalg.solve C-order": lambda: np.linalg.solve(A, b)}
    if a.before:
        old = load_before(a.before)
        calls["axb C-order (before)"] = lambda: old.solve(A, b)
    clock = time.process_time if a.cpu_time else time.perf_counter
    times = {k: [] for k in calls}
    for fn in calls.values():
        fn()
    for _ in range(a.reps):
        for k, fn in calls.items():
            t0 = clock()
            fn()
            times[k].append(clock() - t0)
    # NumPy-allocated memory at the call's peak (tracemalloc sees NumPy's
    # arrays, such as the binding's copies; not the library's own buffers).
    peak = {}
    for k, fn in calls.items():
        tracemalloc.start()
        fn()
        peak[k] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    _, rep = axb.solve(A, b, full_output=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    doc = {"date": datetime.date.today().isoformat(),
           "command": " ".join(["python"] + sys.argv),
           "machine": {"cpu_count": os.cpu_count(),
                       "load": open("/proc/loadavg").read().split()[:3],
                       "numpy": np.__version__, "axb": axb.info()},
           "n": a.n, "dtype": a.dtype, "reps": a.reps,
           "clock": "process_time" if a.cpu_time else "perf_counter",
           "threads": {k: os.environ.get(k) for k in
                       ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
           "median_s": med, "all_s": times, "numpy_peak_bytes": peak,
           "after_report": {"backend": rep.backend,
                            "backward_error": rep.backward_error,
                            "rcond": rep.rcond, "times": rep.times}}
    if "axb C-order (before)" in med:
        doc["after_vs_before"] = (med["axb C-order (before)"]
                                  / med["axb C-order (after)"])
    doc["after_vs_numpy"] = (med["numpy.linalg.solve C-order"]
                             / med["axb C-order (after)"])
    print(json.dumps({k: doc[k] for k in ("median_s", "after_vs_numpy")
                      if k in doc} | ({"after_vs_before":
                                       doc["after_vs_before"]}
                                      if "after_vs_before" in doc else {}),
                     indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1, default=str)
            f.write("\n")


if __name__ == "__main__":
    main()
