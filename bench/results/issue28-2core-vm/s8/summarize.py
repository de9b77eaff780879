#!/usr/bin/env python3
"""Issue 28d: one line per (file, round, n) of run-ab.sh's output: load,
posv / OpenBLAS dposv / Cholesky driver / AUTO medians (ms), the driver's
ratio to posv, and its solve and rcond phases (ms)."""
import re
import sys
from pathlib import Path

d = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
print("| file | round | load | family | n | ours | OpenBLAS | driver | auto | driver / ours | solve | rcond |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for f in sorted(d.glob("*.md")):
    if f.name.startswith("summary"):
        continue
    rnd = load = "?"
    rows = {}
    for line in f.read_text().splitlines():
        m = re.match(r"## \S+ round (\d+) \S+ load (\S+)", line)
        if m:
            rnd, load = m.group(1), m.group(2)
            continue
        c = [x.strip() for x in line.split("|")]
        if len(c) < 11 or not c[2].isdigit():
            continue
        fam, n, impl, med = c[1], c[2], c[4], float(c[5])
        r = rows.setdefault((rnd, fam, n), {"load": load})
        if impl.startswith("axb_solve") or impl.startswith("axb_invert"):
            key = "auto" if impl.endswith("auto") else "driver"
            r[key] = med
            if key == "driver":
                ph = dict(re.findall(r"(\w+) ([\d.]+)", c[10]))
                r["solve"], r["rcond"] = ph.get("solve"), ph.get("rcond")
        elif impl.startswith("OpenBLAS"):
            r["ob"] = med
        else:
            r["ours"] = med
    for (rnd, fam, n), r in rows.items():
        if "driver" not in r or "ours" not in r:
            continue
        print(f"| {f.stem} | {rnd} | {r['load']} | {fam} | {n} | {r['ours']:.1f} | "
              f"{r.get('ob', float('nan')):.1f} | {r['driver']:.1f} | "
              f"{r.get('auto', float('nan')):.1f} | {r['driver'] / r['ours']:.2f} | "
              f"{r.get('solve')} | {r.get('rcond')} |")
