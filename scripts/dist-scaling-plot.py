#!/usr/bin/env python3
"""TF/s per GPU against n, one line per process grid (issue 27's plot).

Reads bench_dist_gpu CSV rows (routine, impl, n, nb, P, Q, ranks, seconds,
GFLOP/s, check) and draws, for getrf and potrf side by side, the rate per
GPU of each grid (impl axb-gpu and axb-gpu-certified: P x Q GPUs) and of
one GPU (impl axb-1gpu) as a plain SVG (no plotting library needed).
When a (routine, impl, grid, n) appears more than once the fastest row is
kept (the CSVs hold one median per run).

Usage: python3 scripts/dist-scaling-plot.py OUT.svg TITLE CSV...
"""
import csv
import math
import sys

W, H, PAD = 420, 300, 50
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def load(paths):
    best = {}
    for p in paths:
        for r in csv.reader(open(p)):
            if len(r) < 10 or not r[1].startswith("axb-"):
                continue
            rt, impl, n, P, Q, gf = r[0], r[1], int(r[2]), int(r[4]), int(r[5]), float(r[8])
            if impl == "axb-1gpu":
                grid, g = "1 GPU", 1
            elif impl in ("axb-gpu", "axb-gpu-certified"):
                grid, g = "%dx%d" % (P, Q), P * Q
            else:
                continue
            k = (rt, grid, n)
            best[k] = max(best.get(k, 0), gf / g / 1000)
    return best


def panel(out, x0, rt, best, ymax, nmin, nmax, grids):
    lx = lambda n: x0 + PAD + (math.log2(n) - math.log2(nmin)) / max(
        1e-9, math.log2(nmax) - math.log2(nmin)) * (W - 2 * PAD)
    ly = lambda v: H - PAD + 10 - v / ymax * (H - 2 * PAD)
    out.append('<text x="%d" y="20" font-size="14">%s</text>' % (x0 + PAD, rt))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' %
               (x0 + PAD, ly(0), x0 + W - PAD, ly(0)))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' %
               (x0 + PAD, ly(0), x0 + PAD, ly(ymax)))
    for t in range(0, int(ymax) + 1, 10):
        out.append('<text x="%d" y="%d" font-size="10" text-anchor="end">%d</text>'
                   % (x0 + PAD - 4, ly(t) + 3, t))
    ns = sorted({n for (r, g, n) in best if r == rt})
    for n in ns:
        out.append('<text x="%d" y="%d" font-size="10" text-anchor="middle">%d</text>'
                   % (lx(n), ly(0) + 14, n))
    out.append('<text x="%d" y="%d" font-size="11">n</text>' % (x0 + W - PAD + 4, ly(0) + 4))
    out.append('<text x="%d" y="%d" font-size="11" transform="rotate(-90 %d %d)">'
               'TF/s per GPU</text>' % (x0 + 14, H / 2 + 30, x0 + 14, H / 2 + 30))
    for i, grid in enumerate(grids):
        pts = sorted((n, v) for (r, g, n), v in best.items() if r == rt and g == grid)
        if not pts:
            continue
        c = COLORS[i % len(COLORS)]
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                   % (c, " ".join("%.1f,%.1f" % (lx(n), ly(v)) for n, v in pts)))
        for n, v in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (lx(n), ly(v), c))


def main():
    out_path, title, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    best = load(paths)
    grids = sorted({g for (r, g, n) in best}, key=lambda g: (g != "1 GPU", g))
    ymax = max(10, 10 * (int(max(best.values()) / 10) + 1))
    nmin, nmax = min(n for (_, _, n) in best), max(n for (_, _, n) in best)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (2 * W, H + 40),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="%d" font-size="12">%s</text>' % (PAD, H + 30, title)]
    for i, rt in enumerate(["getrf", "potrf"]):
        panel(out, i * W, rt, best, ymax, nmin, nmax, grids)
    for i, grid in enumerate(grids):
        out.append('<text x="%d" y="%d" font-size="11" fill="%s">%s</text>'
                   % (2 * W - 90, 40 + 14 * i, COLORS[i % len(COLORS)], grid))
    out.append("</svg>")
    open(out_path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
