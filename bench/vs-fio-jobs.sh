#!/usr/bin/env bash
# fio's own example job files under fio and under `iotrial run --job`,
# alternately (fio, iotrial, fio, iotrial, ...) on the same directory
# with the same overrides: every job gets size=SIZE, runtime=TIME and
# time_based, and its files go in the same directory. Prints the median
# IOPS of each job section under both tools and their ratio (issue 12
# asks for iotrial within 10% of fio).
#
# fio gets a copy of each job file with those overrides written into
# every section (fio's command line cannot override a job's own
# settings); iotrial gets the file as it is with -t, --size and --time.
# iotrial runs with --settle=none: by default it flushes written data
# inside the timed region, and fio (end_fsync=0 in these files) does not.
#
# Usage: bench/vs-fio-jobs.sh [--pairs N (3)] [--size SIZE (64M)]
#                             [--time SECONDS (2)] [--dir DIR] [FILE.fio ...]
# Environment: IOTRIAL (default ./iotrial), FIO (default fio).
# Default files: the examples in tests/data/fio that iotrial runs.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
FIO=${FIO:-fio}
pairs=3
size=64M
secs=2
dir=
files=()

usage() {
	sed -n '/^# Usage:/,/^# Default files/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--time) secs=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
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
if [ ${#files[@]} = 0 ]; then
	for f in fio-rand-read fio-rand-write fio-rand-RW fio-seq-read \
		fio-seq-write ssd-test aio-read; do
		files+=("$here/tests/data/fio/$f.fio")
	done
fi

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
target=${dir:-$work/target}
mkdir -p "$target" "$work/res" "$work/state" "$work/data"
cleanup() { [ -n "${KEEP:-}" ] && cp -r "$work/res" "$KEEP"; rm -rf "$work"; }
trap cleanup EXIT
export IOTRIAL_STATE_DIR=$work/state XDG_DATA_HOME=$work/data

# fio_copy IN OUT: IN with the overrides written into every section
fio_copy() {
	python3 - "$1" "$2" "$size" "$secs" "$target" <<'PY'
import sys
src, dst, size, secs, target = sys.argv[1:6]
drop = ("size", "filesize", "runtime", "time_based", "directory")
out = []
for line in open(src):
    s = line.strip()
    if s.split("=")[0].strip() in drop:
        continue
    out.append(line)
    if s.startswith("["):
        out.append("size=%s\nruntime=%s\ntime_based\ndirectory=%s\n"
                   % (size, secs, target))
open(dst, "w").write("".join(out))
PY
}

for f in "${files[@]}"; do
	name=$(basename "$f" .fio)
	fio_copy "$f" "$work/$name.fio"
	for i in $(seq 1 "$pairs"); do
		"$FIO" --output-format=json --output="$work/res/$name.fio.$i.json" \
			"$work/$name.fio" >/dev/null
		rm -rf "${target:?}"/*
		"$IOTRIAL" run --job "$f" -t "$target" --size "$size" \
			--time "${secs}s" --settle=none --no-store \
			--json="$work/res/$name.iotrial.$i.json" >/dev/null 2>"$work/err" ||
			{ echo "iotrial failed on $name:"; cat "$work/err"; } >&2
	done
done

python3 - "$work/res" "${files[@]}" <<'PY'
import json, os, statistics, sys
res, files = sys.argv[1], sys.argv[2:]

def fio_iops(path):
    """Per job section: the IOPS of all its numjobs clones."""
    o = json.load(open(path))
    per = {}
    for j in o["jobs"]:
        per[j["jobname"]] = per.get(j["jobname"], 0) + \
            j["read"]["iops"] + j["write"]["iops"]
    return per

def io_iops(path):
    o = json.load(open(path))
    return {j["section"]: j["run"]["iops"] for j in o["jobs"]}, \
        {j["section"]: j["name"] for j in o["jobs"]}

print("%-16s %-11s %12s %12s %7s" % ("file", "section", "fio IOPS",
                                     "iotrial IOPS", "ratio"))
for f in files:
    name = os.path.basename(f)[:-4]
    fio, ours = {}, {}
    i = 1
    while os.path.exists("%s/%s.fio.%d.json" % (res, name, i)):
        for k, v in fio_iops("%s/%s.fio.%d.json" % (res, name, i)).items():
            fio.setdefault(k, []).append(v)
        p = "%s/%s.iotrial.%d.json" % (res, name, i)
        if os.path.exists(p):
            iops, names = io_iops(p)
            for k, v in iops.items():
                ours.setdefault(names[k], []).append(v)
        i += 1
    for job in fio:
        a = statistics.median(fio[job])
        b = statistics.median(ours[job]) if job in ours else float("nan")
        print("%-16s %-11s %12.0f %12.0f %7.3f" % (name, job, a, b, b / a))
PY
