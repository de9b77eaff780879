#!/usr/bin/env python3
"""Kernel timeline of one factorisation, cuSOLVER beside axb (issue 21).

timeline-table.py OP N DIR reads DIR/OP-N-{axb,anchor}.csv (ncu --csv
--page raw, one run's kernels) and DIR/OP-N-wall.txt (bench_cuda's table)
and prints, per side, each kernel family (name up to the first '<' or
'('): launches, total and mean microseconds, grid and block of its first
launch; then the kernel sum beside the unprofiled wall time.
"""
import csv
import sys
from collections import OrderedDict


def family(name):
    for stop in "<(":
        i = name.find(stop)
        if i > 0:
            name = name[:i]
    return name.strip().split(" ")[-1][:48]


def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return 0.0


def load(path):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return None
    rows = list(csv.reader(lines[start:]))
    hdr = rows[0]
    fams = OrderedDict()
    for r in rows[2:]:  # rows[1]: units
        if len(r) != len(hdr):
            continue
        d = dict(zip(hdr, r))
        ns = num(d.get("gpu__time_duration.sum", "0"))
        f = fams.setdefault(family(d.get("Kernel Name", "?")),
                            [0, 0.0, d.get("launch__grid_size", "?"),
                             d.get("launch__block_size", "?"),
                             d.get("launch__registers_per_thread", "?")])
        f[0] += 1
        f[1] += ns / 1000.0
    return fams


def wall(path, op):
    """(axb ms, cuSOLVER ms) from bench_cuda's table."""
    try:
        for l in open(path):
            p = l.split()
            if len(p) >= 6 and p[0] == op:
                return float(p[2]), float(p[4])
    except (OSError, ValueError):
        pass
    return None, None


def main():
    op, n, d = sys.argv[1], sys.argv[2], sys.argv[3]
    wa, wc = wall("%s/%s-%s-wall.txt" % (d, op, n), op)
    print("## %s n = %s" % (op, n))
    for side, w in (("anchor", wc), ("axb", wa)):
        fams = load("%s/%s-%s-%s.csv" % (d, op, n, side))
        label = "cuSOLVER" if side == "anchor" else "axb"
        if not fams:
            print("\n%s: no kernels recorded" % label)
            continue
        tot = sum(f[1] for f in fams.values())
        cnt = sum(f[0] for f in fams.values())
        print("\n%s: %d kernels, sum %.1f us; wall %s ms (gaps/waits %s us)"
              % (label, cnt, tot, "%.3f" % w if w else "?",
                 "%.1f" % (w * 1000 - tot) if w else "?"))
        print("| kernel | launches | total us | mean us | share | grid | block | regs |")
        print("|---|---|---|---|---|---|---|---|")
        for k, f in sorted(fams.items(), key=lambda kv: -kv[1][1]):
            print("| %s | %d | %.1f | %.2f | %.0f%% | %s | %s | %s |"
                  % (k, f[0], f[1], f[1] / f[0], 100 * f[1] / tot, f[2],
                     f[3], f[4]))
    print()


if __name__ == "__main__":
    main()
