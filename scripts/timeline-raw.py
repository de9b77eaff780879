#!/usr/bin/env python3
"""Read the GPU ranks' raw device timeline (issue 24, eleventh session).

bench_dist_gpu --tl-raw PREFIX writes one file per rank, PREFIX.rRANK.csv,
one line per bracketed interval: routine, n, rep, rank, phase (0 panel,
1 bcast, 2 swap, 3 update), stream (0 compute, 1 look-ahead lane, 2 NCCL),
begin and end in ms after the factorization's origin event.

For each file and repetition this prints where the device work starts
(ms after the origin: the host's set-up before the first phase), its
window (first begin to last end), the union of all streams' intervals
inside it (device busy), the compute stream's busy time, and the idle
gaps inside the window (count, sum, the largest with their offsets).

Usage: python3 scripts/timeline-raw.py PREFIX.r0.csv[.gz] ...
"""
import gzip
import sys


def union(iv):
    """Length of the union of (begin, end) pairs, and the gaps between."""
    iv = sorted(iv)
    busy, gaps = 0.0, []
    lo, hi = iv[0]
    for b, e in iv[1:]:
        if b > hi:
            busy += hi - lo
            gaps.append((hi, b))
            lo, hi = b, e
        elif e > hi:
            hi = e
    return busy + hi - lo, gaps


def main(paths):
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            rows = [line.strip().split(",") for line in f if line.strip()]
        for rep in sorted({r[2] for r in rows}, key=int):
            iv = [(float(r[6]), float(r[7]), int(r[5])) for r in rows
                  if r[2] == rep]
            first = min(b for b, _, _ in iv)
            last = max(e for _, e, _ in iv)
            busy, gaps = union([(b, e) for b, e, _ in iv])
            cbusy, _ = union([(b, e) for b, e, s in iv if s == 0])
            idle = sum(b - a for a, b in gaps)
            big = sorted(gaps, key=lambda g: g[0] - g[1])[:3]
            print(f"{path} rep {rep}: device work from {first:.1f} ms, "
                  f"window {last - first:.1f} ms, busy {busy:.1f}, "
                  f"compute busy {cbusy:.1f}, idle {idle:.1f} in "
                  f"{len(gaps)} gaps (largest "
                  + ", ".join(f"{b - a:.2f} at {a - first:.0f}"
                              for a, b in big) + ")")


if __name__ == "__main__":
    main(sys.argv[1:])
