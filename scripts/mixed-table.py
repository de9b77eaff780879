#!/usr/bin/env python3
"""Markdown tables of bench_mixed results (JSON lines, one run each).

  mixed-table.py FILE --speed KIND   rows: solvers; columns: n; cells:
                                     ms (speedup vs cuSOLVER DDgesv or
                                     dpotrf+dpotrs), iterations, ratio;
                                     --solvers "L1,L2" keeps only the rows
                                     so labelled (e.g. "cuSOLVER DDgesv,
                                     axb fp32"; the one-page summary keeps
                                     the headline rows, docs/notes all)
  mixed-table.py FILE --kappa        rows: matrices; columns: requested
                                     factor precision; cells: the precision
                                     that certified, IR steps / GMRES
                                     iterations (iter < 0: fallback)
"""
import json
import sys


def load(path):
    return [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]


def label(r):
    if r["solver"] == "cusolver":
        return "cuSOLVER " + r["factor"]
    return r["solver"] + (" " + r["factor"] if r["solver"] == "axb" else "")


def row_label(r):
    """The label speed() prints: axb rows by the precision requested."""
    if r["solver"] == "axb":
        return "axb " + r.get("requested", r["factor"])
    return label(r)


def speed(rows, kind, keep=None):
    rows = [r for r in rows if r["kind"] == kind
            and (keep is None or row_label(r) in keep)]
    ns = sorted({r["n"] for r in rows})
    names = []
    for r in rows:
        # axb rows are keyed by the requested precision's order of runs
        if label(r) not in names and r["solver"] != "axb":
            names.append(label(r))
    axb = [r for r in rows if r["solver"] == "axb"]
    order = []
    for r in axb:
        key = r.get("requested", r["factor"])
        if key not in order:
            order.append(key)
    print("| solver | " + " | ".join("n = %d" % n for n in ns) + " |")
    print("|---|" + "---|" * len(ns))
    for name in names:
        cells = []
        for n in ns:
            m = [r for r in rows if r["n"] == n and label(r) == name]
            cells.append(fmt(m[0]) if m else "")
        print("| %s | %s |" % (name, " | ".join(cells)))
    for key in order:
        cells = []
        for n in ns:
            m = [r for r in axb if r["n"] == n and
                 r.get("requested", r["factor"]) == key]
            cells.append(fmt(m[0]) if m else "")
        print("| axb %s | %s |" % (key, " | ".join(cells)))


def fmt(r):
    it = r["iter"]
    g = (", %d GMRES" % r["gmres"]) if r.get("gmres") else ""
    fac = "" if r["solver"] == "cusolver" else r["factor"] + ", "
    return "%.1f ms (**%.2f×**), %siter %d%s, ratio %.2g" % (
        r["ms"], r["speedup_vs_anchor"], fac, it, g, r["ratio"])


def kappa(rows):
    kinds = []
    for r in rows:
        if r["kind"] not in kinds:
            kinds.append(r["kind"])
    precs = []
    for r in rows:
        if r["solver"].startswith("axb-") and r["solver"] not in precs:
            precs.append(r["solver"])
    print("| matrix (n = %d) | cuSOLVER DDgesv | %s |" % (
        rows[0]["n"], " | ".join(p.replace("axb-", "axb ") for p in precs)))
    print("|---|---|" + "---|" * len(precs))
    for k in kinds:
        dd = [r for r in rows if r["kind"] == k and r["solver"] == "cusolver"]
        cells = ["%.1f ms" % dd[0]["ms"] if dd else ""]
        for p in precs:
            m = [r for r in rows if r["kind"] == k and r["solver"] == p]
            if not m:
                cells.append("")
                continue
            r = m[0]
            cells.append("%s: iter %d, %d GMRES, %.1f ms" % (
                r["factor"], r["iter"], r["gmres"], r["ms"]))
        print("| %s | %s |" % (k, " | ".join(cells)))


def main(argv):
    rows = load(argv[1])
    if "--kappa" in argv:
        kappa(rows)
    else:
        keep = None
        if "--solvers" in argv:
            keep = argv[argv.index("--solvers") + 1].split(",")
        speed(rows, argv[argv.index("--speed") + 1], keep)


if __name__ == "__main__":
    main(sys.argv)
