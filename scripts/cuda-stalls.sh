#!/usr/bin/env bash
# On the device machine, after staging (same layout as gpu-check.sh): the
# warp-state (stall) profile of the CUDA factorisations' own kernels, for
# docs/PERFORMANCE.md (issue 4).  ncu with clocks and caches untouched
# (steady state, as in the benchmark), full section set, a few launches of
# each kernel; the report details and the per-instruction SASS page go to
# $OUT (gzipped), a summary of the stall reasons to $OUT/stalls.txt.
#   STALL_SPECS="dgetrf:1024:lu_leafc:2 ..."  op:n:kernel-regex:launches[:ENV=V]
#   (ENV=V: one environment setting for that run, e.g. AXB_CUDA_LU_ROLL=0)
set -uo pipefail
final=${OUT:-/tmp/axb-gpu-out}
mkdir -p "$final"
out=$(mktemp -d) # work folder: $final gets stalls.txt and stalls.tgz
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
b=build/gpu/bench/bench_cuda
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
specs=${STALL_SPECS:-"dgetrf:1024:lu_leafc:1 dgetrf:1024:lu_leaf1:1 dpotrf:1024:potrf_tiles:1"}
for spec in $specs; do
  IFS=: read -r op n kre cnt ev <<<"$spec"
  tag=$op-$n-$kre
  timeout 150 env ${ev:-AXB_NONE=} "$ncu" --clock-control none --cache-control none --set full \
    --import-source no -k "regex:$kre" --launch-count "$cnt" \
    -o "$out/$tag" -f "$b" --axb-only --reps 1 --ops "$op" "$n" \
    >"$out/$tag.log" 2>&1
  "$ncu" -i "$out/$tag.ncu-rep" --print-details all >"$out/$tag.txt" 2>&1
  "$ncu" -i "$out/$tag.ncu-rep" --page source --csv --print-source sass \
    >"$out/$tag-sass.csv" 2>&1
  {
    echo "## $tag"
    grep -E "Duration|Warp Cycles Per Issued|Issued Ipc|No Eligible|Registers Per|Block Size|Achieved Occupancy|Executed Instructions  |Stall|stall" "$out/$tag.txt" | head -60
  } >>"$out/stalls.txt"
done
# every raw metric (the stall reasons: smsp__average_warps_issue_stalled_*
# per issued instruction, smsp__pcsamp_warps_issue_stalled_* samples), and a
# table of the stall reasons per kernel
for spec in $specs; do
  IFS=: read -r op n kre cnt ev <<<"$spec"
  tag=$op-$n-$kre
  "$ncu" -i "$out/$tag.ncu-rep" --page raw --csv >"$out/$tag-raw.csv" 2>&1
  python3 - "$out/$tag-raw.csv" "$tag" >>"$out/stalls.txt" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
if len(rows) < 3:
    print("# no raw rows for", sys.argv[2]); sys.exit()
hdr = rows[0]
pre = "smsp__average_warps_issue_stalled_"
for r in rows[2:]:
    if len(r) != len(hdr): continue
    d = dict(zip(hdr, r))
    name = d.get("Kernel Name", "?")[:60]
    st = []
    for k, v in d.items():
        if k.startswith(pre) and k.endswith("_per_issue_active.ratio"):
            try: st.append((float(v.replace(",", "")), k[len(pre):-len("_per_issue_active.ratio")]))
            except ValueError: pass
    st.sort(reverse=True)
    tot = sum(x for x, _ in st if _ != "selected")
    print("## %s %s: duration %s ns, cycles/issued %.1f (stall sum)" % (sys.argv[2], name, d.get("gpu__time_duration.sum", "?"), tot))
    print("   " + ", ".join("%s %.2f" % (k, x) for x, k in st[:10]))
PY
done
# code size and registers of the kernels (cuobjdump, when present)
cob=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$cob" ]; then
  "$cob" -res-usage build/gpu/libaxb.so >"$out/res-usage.txt" 2>&1
  "$cob" -sass build/gpu/libaxb.so 2>/dev/null | awk '
    /Function :/ { if (f != "") print n, f; f = $3; n = 0; next }
    /^ +\/\*[0-9a-f]+\*\// { n++ }
    END { if (f != "") print n, f }' | grep -E "leaf|potrf_tiles|swap_trsm" \
    >"$out/sass-size.txt"
  cat "$out/sass-size.txt"
fi
# one archive: the device tool returns at most 8 files
cp "$out/stalls.txt" "$final/"
tar czf "$final/stalls.tgz" -C "$out" .
cat "$out/stalls.txt"
