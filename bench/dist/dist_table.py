#!/usr/bin/env python3
"""Markdown tables from bench_dist's CSV (bench/results/dist_*.csv): per
routine, grid and n the median seconds of axb (look-ahead on), axb without
look-ahead and ScaLAPACK, the ratios ScaLAPACK / axb and no-look-ahead /
look-ahead (> 1: axb, or the look-ahead, faster) and axb's certified
backward error; then the pivot demo rows (local vs partial pivoting) and
the certified driver's phases (--rcond-cost: the condition estimate's time
against the factorization's).

Usage: python3 bench/dist/dist_table.py bench/results/dist_cpu.csv
"""
import csv
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    cases = {}
    demo = []
    driver = {}
    for r in rows:
        if r["routine"] == "pivot-demo":
            demo.append(r)
            continue
        if r["routine"].startswith("driver-"):
            key = (r["routine"][7:], r["P"], r["Q"], r["threads"], int(r["n"]),
                   r["nb"])
            driver.setdefault(key, {})[r["impl"]] = r
            continue
        key = (r["routine"], r["P"], r["Q"], r["threads"], int(r["n"]), r["nb"])
        cases.setdefault(key, {})[r["impl"]] = r
    if cases:
        print("| routine | grid × threads | n | nb | axb s | no look-ahead s | "
              "ScaLAPACK s | ScaLAPACK / axb | look-ahead gain | "
              "backward error |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(cases):
        rt, p, q, t, n, nb = key
        c = cases[key]
        a, o, s = (float(c[k]["seconds"]) if k in c else None
                   for k in ("axb", "axb-nolookahead", "scalapack"))
        ratio = "%.2f" % (s / a) if a and s else "–"
        gain = "%.2f" % (o / a) if a and o else "–"
        print("| %s | %s×%s × %s | %d | %s | %s | %s | %s | **%s** | %s | %s |"
              % (rt, p, q, t, n, nb, "%.3f" % a if a else "–",
                 "%.3f" % o if o else "–", "%.3f" % s if s else "–", ratio,
                 gain, c["axb"]["check"] if "axb" in c else "–"))
    if demo:
        print()
        print("| pivoting | grid | n | nb | backward error (certified below 30) |")
        print("|---|---|---|---|---|")
        for r in demo:
            print("| %s | %s×%s | %s | %s | %s |" % (r["impl"], r["P"], r["Q"],
                                                   r["n"], r["nb"], r["check"]))
    if driver:
        if cases or demo:
            print()
        print("| routine | grid × threads | n | nb | factor s | solve s | "
              "rcond s | rcond / factor | rcond |")
        print("|---|---|---|---|---|---|---|---|---|")
        for key in sorted(driver):
            rt, p, q, t, n, nb = key
            c = driver[key]
            f, so, rc = (float(c[k]["seconds"]) for k in
                         ("factor", "solve", "rcond"))
            print("| %s | %s×%s × %s | %d | %s | %.3f | %.3f | %.3f | **%.1f%%** "
                  "| %s |" % (rt, p, q, t, n, nb, f, so, rc, 100 * rc / f,
                              c["rcond"]["check"]))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
