#!/usr/bin/env python3
"""Markdown tables from `axb bench --out DIR` results (DIR/results.json),
one per routine and precision: a row per n (and matrix), per implementation
the median wall time in ms (GPU: transfers included) with the median device
time (CUDA events) in brackets, and GFLOP/s from the wall time (sparse
solvers: the iteration count instead).  A flagged implementation shows
FLAGGED instead of times (it is not ranked).

Usage: python3 scripts/bench-table.py DIR/results.json [--speedup-over IMPL]
           [--compact] [--routines R1,R2] [--precision P] [--sizes N1,N2]

--compact: one table for the whole file (a row per routine, precision,
matrix and n) instead of one per routine and precision.  --routines,
--precision, --sizes keep only those rows.  scripts/perf-page.py runs
this script to regenerate the tables of docs/PERFORMANCE.md.
"""
import json
import sys


def impl_name(r):
    if r["backend"] in ("cpu", "openblas", "eigen"):
        return "%s/t%d" % (r["backend"], r["threads"])
    return r["backend"]


def cell(r):
    if r["flagged"] or r["median_s"] is None:
        return "FLAGGED" if r["flagged"] else (r["note"] or "-")
    s = "%.3f" % (r["median_s"] * 1e3)
    if r.get("device_median_s") is not None:
        s += " (%.3f)" % (r["device_median_s"] * 1e3)
    if r["gflops"] is not None:
        s += " · %.1f" % r["gflops"]
    elif r["note"].endswith(" iterations"):  # sparse solvers: iterations
        s += " · %s it" % r["note"].split()[0]
    return s


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    over = None
    if "--speedup-over" in argv:
        over = argv[argv.index("--speedup-over") + 1]
    d = json.load(open(argv[1]))
    res = d["results"]

    def arg(name):
        return argv[argv.index(name) + 1].split(",") if name in argv else None

    keep_rt, keep_p, keep_n = arg("--routines"), arg("--precision"), arg("--sizes")
    res = [r for r in res
           if (keep_rt is None or r["routine"] in keep_rt)
           and (keep_p is None or r["precision"] in keep_p)
           and (keep_n is None or str(r["n"]) in keep_n)]
    compact = "--compact" in argv
    groups = {}
    for r in res:
        key = ("", "") if compact else (r["routine"], r["precision"])
        groups.setdefault(key, []).append(r)
    for (rt, prec), rows in groups.items():
        impls = []
        for r in rows:  # implementations that ran here (not "no X anchor")
            if impl_name(r) not in impls and (r["runs"] or r["flagged"]):
                impls.append(impl_name(r))
        probs = []
        for r in rows:
            k = (r["routine"], r["precision"], r["matrix"], r["n"])
            if not compact:
                k = ("", "") + k[2:]
            if k not in probs:
                probs.append(k)
        sparse = all(r["gflops"] is None for r in rows)
        what = "iterations" if sparse else "GFLOP/s"
        if compact:
            print("\nmedian ms wall (device) · %s" % what)
        else:
            print("\n%s, %s: median ms wall (device) · %s" % (rt, prec, what))
        head = (["routine", "precision"] if compact else []) + ["matrix", "n"] + impls
        if over:
            head += ["speedup %s vs %s" % (i, over) for i in impls if i != over]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for rt_, p_, m, n in probs:
            by = {impl_name(r): r for r in rows
                  if (r["matrix"], r["n"]) == (m, n)
                  and (not compact or (r["routine"], r["precision"]) == (rt_, p_))}
            line = ([rt_, p_] if compact else []) + [m, str(n)]
            line += [cell(by[i]) if i in by else "" for i in impls]
            if over:
                b = by.get(over)
                for i in impls:
                    if i == over:
                        continue
                    r = by.get(i)
                    ok = (r and b and not r["flagged"] and not b["flagged"]
                          and r["median_s"] and b["median_s"])
                    line.append("%.2f" % (b["median_s"] / r["median_s"]) if ok else "-")
            print("| " + " | ".join(line) + " |")
    anchors = d.get("anchors", {})
    if anchors:
        print("\nanchors: " + "; ".join("%s: %s" % kv for kv in anchors.items()))
    print("command: `" + " ".join(d["command"]) + "`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
