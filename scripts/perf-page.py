#!/usr/bin/env python3
"""Regenerate the generated tables of docs/PERFORMANCE.md in place.

A generated table sits between two marker lines:

    <!-- bench-table: bench/results/X/NAME.json [bench-table.py options] -->
    ... (replaced by the output of scripts/bench-table.py with those args)
    <!-- /bench-table -->

or, for bench_mixed's JSON lines, mixed-table (scripts/mixed-table.py), for
bench_cuda's text output dense-table (scripts/dense-table.py), for
`python -m axb.bench --json` files python-table (scripts/python-table.py).

Everything outside the markers is left as written.  --check exits 1
(and changes nothing) when a table differs from what its result file
gives, so a stale page can be caught.  Without a path it does this for
docs/PERFORMANCE.md and every page of docs/notes/ (where the secondary
tables the one-page summary left out are generated the same way).

Usage: python3 scripts/perf-page.py [--check] [PAGE.md ...]
"""
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPEN = re.compile(
    r"^<!-- (bench-table|mixed-table|dense-table|python-table): (.*) -->$")


def table(script, args):
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", script + ".py")] + args,
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return out.strip("\n").split("\n")


def page(path, check):
    """Regenerates (or with check, compares) one page; 0 when up to date."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = OPEN.match(lines[i])
        i += 1
        if not m:
            continue
        while i < len(lines) and lines[i] != "<!-- /%s -->" % m.group(1):
            i += 1
        if i == len(lines):
            sys.exit("%s: unclosed %s block" % (path, m.group(1)))
        out += table(m.group(1), shlex.split(m.group(2))) + [lines[i]]
        i += 1
    new = "\n".join(out)
    if check:
        same = new == "\n".join(lines)
        print("%s: %s" % (path, "up to date" if same else "tables differ"))
        return 0 if same else 1
    open(path, "w", encoding="utf-8").write(new)
    return 0


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv[1:] if a != "--check"]
    if not paths:
        docs = os.path.join(ROOT, "docs")
        paths = [os.path.join(docs, "PERFORMANCE.md")] + sorted(
            glob.glob(os.path.join(docs, "notes", "*.md")))
    return max(page(p, check) for p in paths)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
