#!/usr/bin/env bash
# The capture's own cost: fio reads a cached file at a fixed rate (50k
# 4 KiB reads a second by default), alone and under `iotrial record`;
# prints fio's rate both ways and what record measured of itself (CPU
# of its BPF programs and of iotrial, as a share of one core), against
# the goal of under 3% of a core. Needs root and fio; a quiet machine.
#
#   sudo bench/record-overhead.sh [--iops N] [--seconds N]
set -u
iops=50000 secs=15
while [ $# -gt 0 ]; do
	case $1 in
	--iops) iops=$2; shift ;;
	--seconds) secs=$2; shift ;;
	*) echo "usage: $0 [--iops N] [--seconds N]" >&2; exit 2 ;;
	esac
	shift
done
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${IOTRIAL:-$here/iotrial}
[ "$(id -u)" = 0 ] || { echo "needs root" >&2; exit 1; }
command -v fio >/dev/null || { echo "needs fio" >&2; exit 1; }
dir=$(mktemp -d /dev/shm/iotrial-bench.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
head -c 256M /dev/zero >"$dir/data"
job=(fio --name=b --filename="$dir/data" --rw=randread --bs=4k
	--ioengine=psync --time_based --runtime="$secs" --rate_iops="$iops"
	--output-format=json)
rate() { python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]))' "$1"; }
"${job[@]}" >"$dir/alone.json" 2>/dev/null
"$bin" record -o "$dir/t" -- "${job[@]}" >"$dir/rec.json" 2>"$dir/rec.err"
echo "fio alone:          $(rate "$dir/alone.json") IO/s"
# fio's JSON comes first on stdout, record's lines after it
echo "fio under record:   $(python3 -c 'import json,sys; print(round(json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]["jobs"][0]["read"]["iops"]))' "$dir/rec.json") IO/s"
grep -E '^(recorded|capture cost)' "$dir/rec.json"
bpf=$(grep -o 'cost: [0-9.]*%' "$dir/rec.json" | grep -o '[0-9.]*')
usr=$(grep -o '[0-9.]*% in iotrial' "$dir/rec.json" | grep -o '^[0-9.]*')
python3 -c "import sys; t=float(sys.argv[1])+float(sys.argv[2]); print('capture total: %.2f%% of a core: %s (goal < 3%%)' % (t, 'PASS' if t < 3 else 'MISS'))" "$bpf" "$usr"
