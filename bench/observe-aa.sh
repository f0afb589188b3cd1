#!/usr/bin/env bash
# A/A campaign of `iotrial observe` on bench/live-load.sh's sqlite and tar
# load: N observes of --vary label=a,b (nothing differs between the arms)
# judging the load's own metric, its transactions a window (--metric-file
# LOG --metric-regex txn). Every verdict other than "inconclusive" (or
# "equivalent") is a false positive; the half-width of the interval after
# the planned windows is observe's precision on that load.
#
# Usage: bench/observe-aa.sh --out DIR [--n N (20)] [--window D (8s)]
#                            [--settle D (2s)] [--windows N (16)]
#                            [--antagonist simple|full] [--size SIZE (1G)]
#                            [--first K (1): number files and seeds from K]
# Writes DIR/oaa-NNN.json (each observe's --json), DIR/load.txt (the load
# average after each) and DIR/summary.txt. The load and the antagonist are
# started here and stopped at the end (also on ^C).
# Environment: IOTRIAL (default ./iotrial). Needs root.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
n=20
window=8s
settle=2s
windows=16
antagonist=
size=1G
first=1
out=

usage() {
	sed -n '/^# Usage:/,/^# Environment/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--n) n=$2; shift 2 ;;
	--window) window=$2; shift 2 ;;
	--settle) settle=$2; shift 2 ;;
	--windows) windows=$2; shift 2 ;;
	--antagonist) antagonist=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--first) first=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "observe-aa.sh: unknown option '$1'" >&2; usage ;;
	esac
done
[ -n "$out" ] || usage
[ "$(id -u)" = 0 ] || { echo "observe-aa.sh: needs root" >&2; exit 77; }
mkdir -p "$out"

cleanup() {
	[ -z "$antagonist" ] || "$here/bench/antagonist.sh" stop >/dev/null 2>&1 || :
	"$here/bench/live-load.sh" stop >/dev/null 2>&1 || :
}
trap cleanup EXIT
"$here/bench/live-load.sh" start --size "$size"
eval "$("$here/bench/live-load.sh" env)"
[ -z "$antagonist" ] || "$here/bench/antagonist.sh" start "$antagonist"
sleep 10 # the load past its start (the table filling, the first tar)

for i in $(seq "$first" $((first + n - 1))); do
	f=$out/$(printf 'oaa-%03d' "$i").json
	"$IOTRIAL" observe --device "$DEV" --vary label=a,b --window "$window" \
		--settle "$settle" --windows "$windows" --metric-file "$LOG" \
		--metric-regex txn --seed "$i" --no-store --json="$f" \
		>/dev/null 2>"$out/observe.err" ||
		{ echo "observe $i failed:" >&2; cat "$out/observe.err" >&2; exit 1; }
	echo "$i $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
	python3 - "$f" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdicts"][0]
a = v.get("adjusted") or {}
print(sys.argv[1].rsplit("/", 1)[-1], d.get("blocks"),
      "%.3f [%.3f, %.3f] %s" % (v["ratio"], v["ci_low"], v["ci_high"],
                                v["verdict"]),
      "from", v.get("verdict_from"),
      "adjusted %.3f [%.3f, %.3f]" % (a.get("ratio", float("nan")),
                                      a.get("ci_low", float("nan")),
                                      a.get("ci_high", float("nan"))))
EOF
done | tee "$out/summary.txt"

python3 - "$out" <<'EOF'
import glob, json, sys
hws, fps, afps = [], 0, 0
for f in sorted(glob.glob(sys.argv[1] + "/oaa-*.json")):
    v = json.load(open(f))["verdicts"][0]
    # half-width as the manual gives it: (high - low) / (high + low)
    hws.append(100 * (v["ci_high"] - v["ci_low"]) /
               (v["ci_high"] + v["ci_low"]))
    fps += v["verdict"] not in ("inconclusive", "equivalent")
    a = v.get("adjusted") or {}
    afps += bool(a) and not (a["ci_low"] <= 1 <= a["ci_high"])
hws.sort()
print("%d observes: %d false verdicts (verdict as printed), %d adjusted "
      "intervals excluding 1; half-width median %.1f%% (%.1f-%.1f%%)" % (
          len(hws), fps, afps, hws[len(hws) // 2], hws[0], hws[-1]))
EOF
