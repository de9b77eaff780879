#!/usr/bin/env python3
"""Markdown table of bench_cuda runs (issue 21): axb beside cuSOLVER.

dense-table.py FILE [FILE ...] [--ops dgetrf,sgetrf,...] [--before FILE]

Reads bench_cuda's text output (rows "op n axb_ms axb_TF cusol_ms cusol_TF
ratio berr_axb berr_cus dgemm_TF"; "#" lines carry the device) and prints
one row per n: for each op "axb ms / cuSOLVER ms (ratio)", ratio =
cuSOLVER ms / axb ms, > 1: axb faster.  With --before, each cell also
gives the ratio of that earlier file in brackets.  The last row of a
given (op, n) wins, so several files can be passed in order.
"""
import sys


def load(paths):
    rows, dev = {}, ""
    for p in paths:
        for line in open(p):
            if line.startswith("# device:"):
                dev = line[len("# device:"):].strip()
            f = line.split()
            if len(f) == 10 and not line.startswith("#") and f[0] != "op":
                try:
                    rows[(f[0], int(f[1]))] = [float(x) for x in f[2:]]
                except ValueError:
                    pass
    return rows, dev


def main(argv):
    ops, before, paths, i = None, None, [], 1
    while i < len(argv):
        if argv[i] == "--ops":
            ops = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--before":
            before = argv[i + 1]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    rows, dev = load(paths)
    old = load([before])[0] if before else {}
    if ops is None:
        ops = sorted({op for op, _ in rows})
    sizes = sorted({n for _, n in rows})
    head = "| n | " + " | ".join("%s axb / cuSOLVER ms (ratio)" % o for o in ops)
    head += " | DGEMM TF/s |"
    print(head)
    print("|---" * (len(ops) + 2) + "|")
    for n in sizes:
        cells, gtf = [], ""
        for o in ops:
            r = rows.get((o, n))
            if not r:
                cells.append("–")
                continue
            c = "%.3g / %.3g (**%.2f**)" % (r[0], r[2], r[4])
            if (o, n) in old:
                c += " [%.2f]" % old[(o, n)][4]
            cells.append(c)
            if r[7] > 0:
                gtf = "%.1f" % r[7]
        print("| %d | %s | %s |" % (n, " | ".join(cells), gtf))
    print()
    print("device: %s" % dev)


if __name__ == "__main__":
    main(sys.argv)
