#!/usr/bin/env bash
# A/A campaign of `iotrial series`: N series, each planned as a real one
# is (`series plan --values a,b --boots B`), its groups run one after the
# other with `series run --planned`, then judged with `series report --by
# tag --baseline a --json`. Nothing differs between the tags a and b, so
# every verdict other than "inconclusive" (or "equivalent", with an
# equivalence margin) is a false positive of the series path.
#
# This machine cannot be rebooted from here: every group of a series runs
# in this boot. Each group is its own process, its own fresh scratch
# target and a cold page cache (caches dropped before it), so what the
# campaign tests is the report's statistics on real groups; the variance
# a reboot adds (the layout, the device's state, the kernel's luck) is
# not in it. The report says so itself ("same boot id").
#
# Usage: bench/series-aa.sh --out DIR [--n N (20)] [--boots B (4)]
#                           [--iterations I (3)] [--antagonist simple|full]
#                           -- WORKLOAD [ARGS...]
#   e.g. bench/series-aa.sh --out /var/tmp/saa --n 20 --
#            crashdump -t scratch:1G:ext4 --time 2s
# Writes DIR/saa-NNN.json (each series' report) and DIR/summary.txt.
# Environment: IOTRIAL (default ./iotrial). Needs root.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
n=20
boots=4
iters=3
out=
antagonist=

usage() {
	sed -n '/^# Usage:/,/^# Environment/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--n) n=$2; shift 2 ;;
	--boots) boots=$2; shift 2 ;;
	--iterations) iters=$2; shift 2 ;;
	--antagonist) antagonist=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) usage ;;
	*) echo "series-aa.sh: unknown option '$1'" >&2; usage ;;
	esac
done
[ -n "$out" ] && [ $# -gt 0 ] || usage
[ "$(id -u)" = 0 ] || { echo "series-aa.sh: needs root" >&2; exit 77; }
mkdir -p "$out"

stop_antagonist() {
	[ -z "$antagonist" ] || "$here/bench/antagonist.sh" stop >/dev/null 2>&1 || :
}
trap stop_antagonist EXIT
[ -z "$antagonist" ] || "$here/bench/antagonist.sh" start "$antagonist"

for i in $(seq 1 "$n"); do
	tag=$(printf 'saa-%03d' "$i")
	db=$out/$tag.db
	rm -f "$db"
	"$IOTRIAL" series s --define --db "$db" -- "$@" >/dev/null
	"$IOTRIAL" series s plan --values a,b --boots "$boots" --seed "$i" \
		--db "$db" >/dev/null
	for g in $(seq 1 $((2 * boots))); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		"$IOTRIAL" series s run --planned --iterations "$iters" \
			--db "$db" >/dev/null 2>"$out/$tag.err" ||
			{ echo "$tag: group $g failed" >&2; cat "$out/$tag.err" >&2; exit 1; }
	done
	"$IOTRIAL" series s report --by tag --baseline a --json \
		--db "$db" >"$out/$tag.json" || :
	printf '%s load %s\n' "$tag" "$(cut -d' ' -f1 /proc/loadavg)" >>"$out/load.txt"
	python3 - "$out/$tag.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["comparisons"][0]
print(sys.argv[1].rsplit("/", 1)[-1], c.get("ratio"), c.get("ratio_low"),
      c.get("ratio_high"), c.get("verdict"), c["pooled"].get("verdict"))
EOF
done | tee "$out/summary.txt"

python3 - "$out" <<'EOF'
import glob, json, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/saa-*.json")):
    c = json.load(open(f))["comparisons"][0]
    rows.append(c)
def fp(v):
    return v not in (None, "inconclusive", "equivalent")
# half-width as the manual gives it: (high - low) / (high + low)
hw = sorted((c["ratio_high"] - c["ratio_low"]) /
            (c["ratio_high"] + c["ratio_low"]) for c in rows
            if c.get("ratio_low") and c.get("ratio_high"))
print("%d series: %d false verdicts by boots, %d by pooled iterations; "
      "median half-width %.1f%%" % (
          len(rows), sum(fp(c.get("verdict")) for c in rows),
          sum(fp(c["pooled"].get("verdict")) for c in rows),
          100 * hw[len(hw) // 2] if hw else float("nan")))
EOF
