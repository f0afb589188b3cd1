#!/usr/bin/env bash
# iotrial's loadfile replay against dbench with the method of the fio
# benches (bench/interleave.py): both replay the same client.txt with the
# same number of clients (1, 4 and 16 by default) for the same time after
# the same warm-up (dbench's default, a fifth of the time; iotrial's
# --ramp), on one scratch ext4, in randomized blocks (each block runs
# every client count once under both tools, in a fresh random order).
# Per block the ratio iotrial / dbench; per row the Hodges-Lehmann
# estimate with its signed-rank 95% interval (bench/ratio-ci), judged
# from the interval: "goal met", "missed" or "cannot tell". The noise
# (steal time, other I/O on the disk under the image, CPU clock) is
# printed beside it.
#
# Throughput is dbench's own accounting: the ReadX and WriteX sizes over
# the measured time, in 10^6 bytes per second (dbench's "Throughput ...
# MB/sec", iotrial's dbench_mbps); goal >= 1.0. CPU per operation is the
# rusage of the child process (wait4: every thread and process it ran,
# its set-up and clean-up included) over the operations it counted in
# the measured part (dbench's per-operation table, iotrial's
# file_ops_total); goal <= 1.0.
#
# Usage: bench/vs-dbench.sh [--time SECONDS (10)] [--clients LIST (1,4,16)]
#                           [--loadfile FILE] [--ram] [--budget SECONDS
#                           (1800)] [--min-blocks N (6)] [--max-blocks N
#                           (12)] [--keep DIR] [--seed S] [--dry-run]
# --ram puts the ext4 image in /dev/shm (the tools, not the disk); by
# default it is a sparse file in /var/tmp on the root disk. --dry-run
# prints the plan (every command, row and goal) and runs nothing.
# Environment: IOTRIAL (default ./iotrial), DBENCH (default dbench).
# Needs root (a loop device, dropping caches); exits 77 otherwise.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
DBENCH=${DBENCH:-dbench}
secs=10
clients=1,4,16
loadfile=/usr/share/dbench/client.txt
ram=
keep=
dry=
drive=(--max-blocks 12 --budget 1800)

usage() {
	sed -n '/^# Usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--time) secs=$2; shift 2 ;;
	--clients) clients=$2; shift 2 ;;
	--loadfile) loadfile=$2; shift 2 ;;
	--ram) ram=1; shift ;;
	--budget|--min-blocks|--max-blocks|--seed)
		drive+=("$1" "$2"); shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	-h|--help) usage ;;
	*) echo "error: unknown option '$1'" >&2; usage ;;
	esac
done
case $secs in
'' | *[!0-9]* | 0) echo "error: --time wants whole seconds > 0" >&2; exit 2 ;;
esac
case ,$clients, in
*,,* | *[!0-9,]*) echo "error: --clients wants a list like 1,4,16" >&2; exit 2 ;;
esac

if [ -z "$dry" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "skipped: bench/vs-dbench.sh needs root (it creates a loop device)"
		exit 77
	fi
	for tool in "$DBENCH" python3 losetup mkfs.ext4; do
		if ! command -v "$tool" >/dev/null; then
			echo "skipped: '$tool' is not installed"
			exit 77
		fi
	done
	if [ ! -r "$loadfile" ]; then
		echo "skipped: no loadfile '$loadfile' (apt-get install dbench)"
		exit 77
	fi
	if [ ! -x "$IOTRIAL" ]; then
		echo "error: no iotrial binary at '$IOTRIAL'; run 'make' first" >&2
		exit 1
	fi
	make -s -C "$here" bench/ratio-ci >/dev/null
fi

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
img=
mnt=$work/mnt
loop=
res=${keep:-$work/results}
mkdir -p "$res" "$mnt" "$work/state"
export IOTRIAL_STATE_DIR=$work/state
cleanup() {
	# Only what this script made: its mount, loop device, image, directory.
	if mountpoint -q "$mnt"; then
		umount "$mnt" || umount -l "$mnt"
	fi
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || true
	fi
	[ -z "$img" ] || rm -f "$img"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$dry" ]; then
	# 4 GiB sparse: 16 dbench clients keep a few hundred MiB of files
	if [ -n "$ram" ]; then
		img=$(mktemp /dev/shm/iotrial-bench.XXXXXX)
	else
		img=$work/ext4.img
	fi
	truncate -s 4G "$img"
	loop=$(losetup --find --show "$img")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop"
	mount "$loop" "$mnt"
fi
# Other I/O is counted on the disk under the image (nothing else uses
# the loop device); with --ram there is no disk, and the loop device's
# own count is given instead.
if [ -n "$ram" ]; then
	ndev=${loop:-/dev/loopN}
	ndev=${ndev#/dev/}
else
	# by st_dev, as iotrial info: a chroot's mount table may list no
	# mount for it, and a plan needs no mount at all
	. "$here/bench/disk-under.sh"
	ndev=$(disk_under "$work") || ndev=
	if [ -z "$ndev" ] && [ -z "$dry" ]; then
		echo "error: cannot tell which disk holds '$work' (its file" \
			"system has no block device), whose other I/O the bench" \
			"counts; give --ram" >&2
		exit 1
	fi
	ndev=${ndev:-DISK}
fi

python3 - "$work/plan.json" "$IOTRIAL" "$DBENCH" "$loadfile" "$mnt" \
	"$secs" "$clients" "$ndev" "${ram:+RAM}" <<'PY'
import json, sys
plan, iot, dbench, loadfile, mnt, secs, clients, ndev, place = sys.argv[1:10]
secs = int(secs)
warm = secs // 5  # dbench's default warm-up; iotrial gets the same
d = mnt + "/dbench"
# untimed, before every run of either tool: the last run's files gone,
# dirty data written, the page cache dropped (as the old pairs did)
settle = ["sh", "-c", 'rm -rf -- "$1" && sync && '
          'echo 3 >/proc/sys/vm/drop_caches && mkdir -p -- "$2"',
          "settle", d]
tests = []
for n in [int(c) for c in clients.split(",")]:
    tests.append({
        "name": "c%d" % n, "devices": [ndev],
        "cmd": {
            "dbench": [dbench, "-c", loadfile, "-D", d, "-t", str(secs),
                       str(n)],
            "iotrial": [iot, "run", "smallfiles", "-t", mnt, "--loadfile",
                        loadfile, "--clients", str(n), "--time",
                        "%ds" % secs, "--ramp", "%ds" % warm, "--no-store",
                        "--json"]},
        "format": {"dbench": "dbench"},
        "before": {"dbench": settle + [d], "iotrial": settle + [mnt]},
        "metrics": [
            {"row": "%d clients MB/s" % n, "get": "dbench_mbps",
             "goal": [">=", 1.0]},
            {"row": "%d clients CPU/op" % n, "get": "cpu_per_op",
             "goal": ["<=", 1.0]}]})
json.dump({"title": "iotrial smallfiles --loadfile vs dbench: %s, %d s "
           "after %d s of warm-up, ext4 on a %sloop device" % (
               loadfile, secs, warm, place + " " if place else ""),
           "tools": ["dbench", "iotrial"], "tests": tests},
          open(plan, "w"), indent=1)
PY

if [ -n "$dry" ]; then
	cat "$work/plan.json"
	exit 0
fi
cp "$work/plan.json" "$res/plan.json"
{
	echo "$("$DBENCH" --help 2>&1 | grep -m1 -o 'dbench version [^ ]*' || echo dbench)," \
		"iotrial at $IOTRIAL, kernel $(uname -r), $(nproc) CPUs"
	echo "the exact commands: $res/plan.json (kept with --keep DIR)"
} >&2
rc=0
python3 "$here/bench/interleave.py" "$work/plan.json" --out "$res" \
	"${drive[@]}" || rc=$?
# iotrial honours expected statuses: say where a line's did not hold
python3 - "$res" <<'PY' || true
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/c*.iotrial.*.json")):
    text = open(f, errors="replace").read()
    try:
        o = json.loads(text[text.find("{"):])
    except ValueError:
        continue
    n = sum(e.get("errors", 0) for e in o.get("file_ops", {}).values())
    if n:
        print("note: iotrial counted %d unmet statuses in %s" % (n, f))
PY
exit "$rc"
