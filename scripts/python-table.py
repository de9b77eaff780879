#!/usr/bin/env python3
"""Markdown table of a `python -m axb.bench --json` result file (issue 26),
for docs/PERFORMANCE.md (scripts/perf-page.py, `python-table` blocks).

Usage: python3 scripts/python-table.py bench/results/python-cpu.json [--skip TEXT]...

--skip TEXT (repeatable) leaves out the rows whose case description
contains TEXT (the one-page summary drops the `check=False` twins and the
forced-backend variants; docs/notes/python.md keeps every row).
"""
import json
import sys


def fmt_time(r):
    if "axb_us" in r:
        return ("%.2f µs (C call %.2f µs; numpy.linalg.solve %.2f µs); "
                "medians %.2f / %.2f µs"
                % (r["axb_us"], r["c_us"], r["numpy_us"],
                   r["axb_median_us"], r["c_median_us"]))
    return "%.2f ms vs %.2f ms" % (r["axb_s"] * 1e3, r["anchor_s"] * 1e3)


def fmt_result(r):
    if "overhead_us" in r:
        return ("%.2f µs above C (median of paired runs %.2f)"
                % (r["overhead_us"], r["overhead_median_us"]))
    return "%.2f×" % r["speedup"]


def main(path, skip=()):
    doc = json.load(open(path, encoding="utf-8"))
    m = doc["machine"]
    print("| case | axb vs anchor | result | target | met |")
    print("|---|---|---|---|---|")
    for r in doc["results"]:
        if any(t in r["what"] for t in skip):
            continue
        anchor = r.get("anchor", "the same axb_solve from C")
        print("| %s: %s (vs %s) | %s | **%s** | %s | %s |"
              % (r["case"], r["what"], anchor, fmt_time(r), fmt_result(r),
                 r["target"], "yes" if r["met"] else "no"))
    print()
    print("`%s`, %s, %s cores, Python %s, NumPy %s, %s%s; %s."
          % (doc["command"], m["cpu"], m["cores"], m["python"], m["numpy"],
             m["blas"], ", GPU " + ", ".join(m["gpus"]) if m["gpus"] else "",
             doc["date"]))


if __name__ == "__main__":
    argv = sys.argv
    main(argv[1], [argv[i + 1] for i, a in enumerate(argv) if a == "--skip"])
