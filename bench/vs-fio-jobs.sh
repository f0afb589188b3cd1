#!/usr/bin/env bash
# fio's own example job files under fio and under `iotrial run --job`, in
# randomized interleaved blocks (bench/interleave.py: the method of
# compare), on two places: ext4 on a RAM loop device (where the disk's
# noise cannot hide a difference in the tools) and a directory on the
# root disk. Every job gets size=SIZE, runtime=TIME and time_based, its
# files in the place's directory, emptied (and synced) before every run
# of either tool. Each job section's IOPS ratio iotrial/fio gets its
# Hodges-Lehmann estimate and signed-rank 95% interval, judged against
# the goal 0.9..1.1 (the interval must lie inside it).
#
# fio gets a copy of each job file with those overrides written into
# every section (fio's command line cannot override a job's own
# settings); iotrial gets the file as it is with -t, --size and --time.
#
# Usage: bench/vs-fio-jobs.sh [--size SIZE (64M)] [--time SECONDS (2)]
#                             [--budget SECONDS (1200)] [--min-blocks N (6)]
#                             [--max-blocks N (20)] [--no-disk] [--no-ram]
#                             [--keep DIR] [--seed S] [FILE.fio ...]
# Environment: IOTRIAL (default ./iotrial), FIO (default fio).
# Default files: the examples in tests/data/fio that iotrial runs.
# Needs root for the RAM loop device (without root: --no-ram).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
FIO=${FIO:-fio}
size=64M
secs=2
disk=1
ram=1
keep=
files=()
drive=(--max-blocks 20 --budget 1200)

usage() {
	sed -n '/^# Usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--time) secs=$2; shift 2 ;;
	--budget|--min-blocks|--max-blocks|--seed)
		drive+=("$1" "$2"); shift 2 ;;
	--no-disk) disk=; shift ;;
	--no-ram) ram=; shift ;;
	--keep) keep=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) echo "error: unknown option '$1'" >&2; usage ;;
	*) files+=("$1"); shift ;;
	esac
done
for tool in "$FIO" python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "skipped: '$tool' is not installed"
		exit 77
	fi
done
if [ ! -x "$IOTRIAL" ]; then
	echo "error: no iotrial binary at '$IOTRIAL'; run 'make' first" >&2
	exit 1
fi
if [ -n "$ram" ] && [ "$(id -u)" != 0 ]; then
	echo "skipped: the RAM place needs root (a loop device); give --no-ram"
	exit 77
fi
if [ ${#files[@]} = 0 ]; then
	for f in fio-rand-read fio-rand-write fio-rand-RW fio-seq-read \
		fio-seq-write ssd-test aio-read; do
		files+=("$here/tests/data/fio/$f.fio")
	done
fi
make -s -C "$here" bench/ratio-ci >/dev/null

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
res=${keep:-$work/res}
img=
loop=
mkdir -p "$res" "$work/state" "$work/data" "$work/disk" "$work/ram" \
	"$work/jobs"
cleanup() {
	if [ -n "$loop" ]; then
		umount "$work/ram" 2>/dev/null || true
		losetup -d "$loop" 2>/dev/null || true
	fi
	[ -n "$img" ] && rm -f "$img"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export IOTRIAL_STATE_DIR=$work/state XDG_DATA_HOME=$work/data

places=()
if [ -n "$ram" ]; then
	img=$(mktemp /dev/shm/iotrial-bench.XXXXXX)
	truncate -s 2G "$img"
	loop=$(losetup --find --show "$img")
	mkfs.ext4 -q -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$loop"
	mount -o noatime "$loop" "$work/ram"
	places+=("ram:$work/ram:${loop#/dev/}")
fi
if [ -n "$disk" ]; then
	. "$here/bench/disk-under.sh"
	vdev=$(disk_under "$work/disk") || {
		echo "error: cannot tell which disk holds '$work/disk'" >&2
		exit 1
	}
	places+=("disk:$work/disk:$vdev")
fi

python3 - "$work" "$FIO" "$IOTRIAL" "$size" "$secs" "${#files[@]}" \
	"${files[@]}" "${places[@]}" <<'PY'
import json, os, sys
work, fio, iot, size, secs, nf = sys.argv[1:7]
files = sys.argv[7:7 + int(nf)]
places = [p.split(":") for p in sys.argv[7 + int(nf):]]
drop = ("size", "filesize", "runtime", "time_based", "directory",
        "filename_format")
tests = []
for f in files:
    name = os.path.basename(f)[:-4]
    sections = []
    for line in open(f):
        s = line.strip()
        if s.startswith("[") and s.endswith("]") and s != "[global]":
            sections.append(s[1:-1])
    for place, path, dev in places:
        copy = "%s/jobs/%s.%s.fio" % (work, name, place)
        out = []
        for line in open(f):
            s = line.strip()
            if s.split("=")[0].strip() in drop:
                continue
            out.append(line)
            if s.startswith("["):
                out.append("size=%s\nruntime=%s\ntime_based\ndirectory=%s\n"
                           % (size, secs, path))
        open(copy, "w").write("".join(out))
        empty = ["sh", "-c", 'rm -rf -- "$1"/* && sync', "empty", path]
        tests.append({
            "name": "%s.%s" % (name, place), "devices": [dev],
            "cmd": {"fio": [fio, "--output-format=json", copy],
                    "iotrial": [iot, "run", "--job", f, "-t", path,
                                "--size", size, "--time", secs + "s",
                                "--no-store", "--json"]},
            "before": {"fio": empty, "iotrial": empty},
            "metrics": [{"row": "%s %s [%s]" % (name, s, place),
                         "get": "job_iops:" + s, "goal": ["in", 0.9, 1.1]}
                        for s in sections]})
json.dump({"title": "fio's example jobs, fio vs iotrial run --job, size=%s "
           "runtime=%ss" % (size, secs), "tools": ["fio", "iotrial"],
           "tests": tests}, open(work + "/plan.json", "w"), indent=1)
PY
cp "$work/plan.json" "$res/plan.json"
echo "$("$FIO" --version), iotrial at $IOTRIAL, kernel $(uname -r); the" \
	"exact commands: $res/plan.json, the fio copies: $work/jobs" >&2
python3 "$here/bench/interleave.py" "$work/plan.json" --out "$res" \
	"${drive[@]}"
