#!/usr/bin/env bash
# iotrial against fio with iotrial's own method: many short runs of both
# tools in randomized blocks (bench/interleave.py), the ratio iotrial/fio
# per block, and for every row the Hodges-Lehmann estimate with its
# signed-rank 95% interval (bench/ratio-ci, the statistics of compare).
# Each row's goal is judged from the interval: "goal met" when all of it
# is on the right side, "missed" when all of it is on the wrong side,
# "cannot tell" otherwise. The machine's noise (steal time, other I/O on
# the tests' devices, CPU clock) is printed beside the result.
#
# Tests (a RAM loop device is a loop device over 1 GiB in /dev/shm):
#   qd32      4k random read, io_uring, QD32, O_DIRECT, RAM loop, against
#             fio's defaults and against fio tuned (fixedbufs,
#             registerfiles, batched submit and reap)
#   aio32     the same with libaio against fio's defaults
#   qd1       4k random read, psync, QD1, O_DIRECT, RAM loop
#   psync4j   4 psync jobs on the whole RAM loop device
#   seqread   1 MiB sequential O_DIRECT reads of the RAM loop device
#   seqwrite  1 MiB sequential O_DIRECT writes of the RAM loop device
#   diskread, diskwrite: the same on a 1 GiB file under /var/tmp (the
#             root disk), both tools given a fresh file laid out alike
#
# Usage: bench/vs-fio.sh [--ios N (400000)] [--qd1-ios N (100000)]
#                        [--seq-mib N (512)] [--budget SECONDS (900)]
#                        [--min-blocks N (6)] [--max-blocks N (30)]
#                        [--no-disk] [--tests LIST] [--keep DIR] [--seed S]
#                        [--dry-run]
# --tests LIST runs only the named tests (comma-separated, from the list
# above, e.g. --tests qd32best); --dry-run writes and prints the plan
# (every command, every row and its goal) and runs nothing.
# Environment: IOTRIAL (default ./iotrial), FIO (default fio).
# Needs root (loop devices); exits 77 otherwise.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
FIO=${FIO:-fio}
ios=400000
qd1_ios=100000
seq_mib=512
disk=1
keep=
only=
dry=
drive=()

usage() {
	sed -n '/^# Usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--ios) ios=$2; shift 2 ;;
	--qd1-ios) qd1_ios=$2; shift 2 ;;
	--seq-mib) seq_mib=$2; shift 2 ;;
	--budget|--min-blocks|--max-blocks|--seed)
		drive+=("$1" "$2"); shift 2 ;;
	--no-disk) disk=; shift ;;
	--tests) only=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	--keep) keep=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "error: unknown option '$1'" >&2; usage ;;
	esac
done

if [ -z "$dry" ] && [ "$(id -u)" != 0 ]; then
	echo "skipped: bench/vs-fio.sh needs root (it creates a loop device)"
	exit 77
fi
need=(python3)
[ -n "$dry" ] || need+=("$FIO" losetup)
for tool in "${need[@]}"; do
	if ! command -v "$tool" >/dev/null; then
		echo "skipped: '$tool' is not installed"
		exit 77
	fi
done
if [ -z "$dry" ] && [ ! -x "$IOTRIAL" ]; then
	echo "error: no iotrial binary at '$IOTRIAL'; run 'make' first" >&2
	exit 1
fi
[ -n "$dry" ] || make -s -C "$here" bench/ratio-ci >/dev/null

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
img=
loop=
res=${keep:-$work/results}
mkdir -p "$res" "$work/iotrial" "$work/seq" "$work/state"
export IOTRIAL_STATE_DIR=$work/state

cleanup() {
	# Only what this script made: our loop device, image and directory.
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || true
	fi
	[ -z "$img" ] || rm -f "$img"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$dry" ]; then
	# The plan only: a name in place of the loop device the run would make.
	loop=
	ldev=loopN
	q=
else
# A 1 GiB device with real pages behind it (zeros, written once), so reads
# copy memory rather than hit tmpfs holes.
img=$(mktemp /dev/shm/iotrial-bench.XXXXXX)
dd if=/dev/zero of="$img" bs=1M count=1024 status=none
loop=$(losetup --find --show --direct-io=off "$img")
ldev=${loop#/dev/}
# A loop device keeps the queue settings of its last user (sysfs outlives
# losetup -d); put back what a fresh one has.
q=/sys/block/$ldev/queue
set_queue() { # knob value
	if [ -w "$q/$1" ]; then
		echo "$2" >"$q/$1" 2>/dev/null ||
			echo "warning: cannot set $1=$2 on $loop" >&2
	fi
}
set_queue scheduler none
set_queue nr_requests "$(cat "/sys/block/$ldev/mq/0/nr_tags" 2>/dev/null || echo 128)"
set_queue rq_affinity 1
set_queue nomerges 0
set_queue read_ahead_kb 128
fi

# The root disk under /var/tmp, for the other-I/O count of the disk rows.
# By st_dev, as iotrial info: a chroot's mount table may list no mount
# for it, and a plan needs no mount at all.
. "$here/bench/disk-under.sh"
vdev=$(disk_under "$work") || vdev=
if [ -z "$vdev" ] && [ -n "$disk" ] && [ -z "$dry" ]; then
	echo "error: cannot tell which disk holds '$work' (its file system" \
		"has no block device), whose other I/O the disk rows count;" \
		"give --no-disk" >&2
	exit 1
fi
vdev=${vdev:-DISK}

# lay_out read|write FILE: the file fio gets for a disk row, made as
# iotrial makes its own just before its timed part. read: 1 GiB written
# in full with buffered 1 MiB writes of varied data, fsync'd, dropped
# from the page cache; write: a fresh 1 GiB posix_fallocate. A sync
# first and after, for both tools alike (a deleted file's discards and
# dirty data out of the way).
cat >"$work/lay-out.py" <<'PY'
import os, sys
mode, path = sys.argv[1], sys.argv[2]
size = 1 << 30
os.sync()
try:
    os.unlink(path)
except FileNotFoundError:
    pass
if mode == 'none':
    os.sync()
    sys.exit(0)
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
if mode == 'read':
    chunk = bytearray(os.urandom(1 << 20))
    for off in range(0, size, 1 << 20):
        chunk[:8] = os.urandom(8)
        os.pwrite(fd, chunk, off)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
else:
    os.posix_fallocate(fd, 0, size)
os.close(fd)
os.sync()
PY

python3 - "$work/plan.json" "$FIO" "$IOTRIAL" "${loop:-/dev/$ldev}" "$ldev" \
	"$vdev" "$work" "$ios" "$qd1_ios" "$seq_mib" "$disk" "$only" <<'PY'
import json, sys
(plan, fio, iot, loop, ldev, vdev, work, ios, qd1, seq_mib,
 disk, only) = sys.argv[1:13]
ios, qd1, seq_mib = int(ios), int(qd1), int(seq_mib)
F = [fio, "--output-format=json", "--group_reporting"]
I = [iot, "run"]
dev = ["--filename=" + loop, "--direct=1", "--size=1G"]
tests = []

def test(name, devs, f, i, metrics, before=None):
    t = {"name": name, "devices": devs, "cmd": {"fio": F + f,
                                                   "iotrial": I + i + ["--no-store",
                                                            "--json"]},
         "metrics": [{"row": r, "get": g, "goal": goal}
                     for r, g, goal in metrics]}
    if before:
        t["before"] = before
    tests.append(t)

cpu_def = ("<=", 0.50)
cpu_best = ("<=", 1.0)
iops_def = (">=", 1.05)
iops_best = (">=", 1.0)
test("qd32", [ldev],
     ["--name=qd32", "--rw=randread", "--bs=4k", "--iodepth=32",
      "--ioengine=io_uring", "--io_size=%d" % (ios * 4096)] + dev,
     ["randread", "-t", loop, "--bs=4k", "--iodepth=32", "--engine=io_uring",
      "--direct=1", "--size=1G", "--ios=%d" % ios],
     [("io_uring QD32 CPU/IO", "cpu_per_mio", cpu_def),
      ("io_uring QD32 IOPS", "iops", iops_def)])
test("qd32best", [ldev],
     ["--name=qd32best", "--rw=randread", "--bs=4k", "--iodepth=32",
      "--ioengine=io_uring", "--fixedbufs=1", "--registerfiles=1",
      "--iodepth_batch_submit=32", "--iodepth_batch_complete_min=1",
      "--iodepth_batch_complete_max=32", "--norandommap=1",
      "--randrepeat=0", "--io_size=%d" % (ios * 4096)] + dev,
     ["randread", "-t", loop, "--bs=4k", "--iodepth=32", "--engine=io_uring",
      "--direct=1", "--size=1G", "--ios=%d" % ios],
     [("io_uring QD32 CPU/IO vs tuned", "cpu_per_mio", cpu_best),
      ("io_uring QD32 IOPS vs tuned", "iops", iops_best)])
test("aio32", [ldev],
     ["--name=aio32", "--rw=randread", "--bs=4k", "--iodepth=32",
      "--ioengine=libaio", "--io_size=%d" % (ios * 4096)] + dev,
     ["randread", "-t", loop, "--bs=4k", "--iodepth=32", "--engine=libaio",
      "--direct=1", "--size=1G", "--ios=%d" % ios],
     [("libaio QD32 CPU/IO", "cpu_per_mio", cpu_def),
      ("libaio QD32 IOPS", "iops", iops_def)])
test("qd1", [ldev],
     ["--name=qd1", "--rw=randread", "--bs=4k", "--ioengine=psync",
      "--io_size=%d" % (qd1 * 4096)] + dev,
     ["randread", "-t", loop, "--bs=4k", "--engine=psync", "--direct=1",
      "--size=1G", "--ios=%d" % qd1],
     [("psync QD1 p50", "p50_us", ("<=", 1.0)),
      ("psync QD1 CPU/IO", "cpu_per_mio", cpu_def)])
test("psync4j", [ldev],
     ["--name=psync4j", "--rw=randread", "--bs=4k", "--ioengine=psync",
      "--numjobs=4", "--io_size=%d" % (qd1 * 4096)] + dev,
     ["randread", "-t", loop, "--bs=4k", "--jobs=4", "--shared=1",
      "--engine=psync", "--direct=1", "--size=1G", "--ios=%d" % (4 * qd1)],
     [("psync 4 jobs CPU/IO", "cpu_per_mio", cpu_def),
      ("psync 4 jobs IOPS", "iops", iops_def)])
test("seqread", [ldev],
     ["--name=seqread", "--rw=read", "--bs=1M",
      "--io_size=%dM" % seq_mib] + dev,
     ["seqread", "-t", loop, "--bs=1M", "--direct=1", "--size=1G",
      "--ios=%d" % seq_mib],
     [("seq read MB/s, RAM loop", "mbps", (">=", 1.0))])
test("seqwrite", [ldev],
     ["--name=seqwrite", "--rw=write", "--bs=1M",
      "--io_size=%dM" % seq_mib] + dev,
     ["seqwrite", "-t", loop, "--allow-destroy", "--bs=1M", "--direct=1",
      "--size=1G", "--ios=%d" % seq_mib, "--settle=none"],
     [("seq write MB/s, RAM loop", "mbps", (">=", 1.0))])
if disk:
    lay = ["python3", work + "/lay-out.py"]
    data, pre = work + "/seq/job0.data", work + "/seq/job0.prealloc"
    test("diskread", [vdev],
         ["--name=diskread", "--filename=" + data, "--rw=read", "--bs=1M",
          "--direct=1", "--size=1G", "--io_size=%dM" % seq_mib],
         ["seqread", "-t", work + "/iotrial", "--bs=1M", "--direct=1",
          "--size=1G", "--ios=%d" % seq_mib],
         [("seq read MB/s, root disk", "mbps", (">=", 1.0))],
         {"fio": lay + ["read", data], "iotrial": lay + ["none", data]})
    test("diskwrite", [vdev],
         ["--name=diskwrite", "--filename=" + pre, "--rw=write", "--bs=1M",
          "--direct=1", "--size=1G", "--io_size=%dM" % seq_mib],
         ["seqwrite", "-t", work + "/iotrial", "--bs=1M", "--direct=1",
          "--size=1G", "--ios=%d" % seq_mib, "--settle=none"],
         [("seq write MB/s, root disk", "mbps", (">=", 1.0))],
         {"fio": lay + ["write", pre], "iotrial": lay + ["none", pre]})
if only:
    want = only.split(",")
    known = [t["name"] for t in tests]
    bad = [w for w in want if w not in known]
    if bad:
        sys.exit("error: no test %s (the tests: %s)" % (", ".join(bad),
                                                       ", ".join(known)))
    tests = [t for t in tests if t["name"] in want]
json.dump({"title": "iotrial vs fio: RAM loop %s, root disk %s" % (loop, vdev),
           "tools": ["fio", "iotrial"], "tests": tests}, open(plan, "w"),
          indent=1)
PY

if [ -n "$dry" ]; then
	cat "$work/plan.json"
	exit 0
fi
{
	echo "$("$FIO" --version), iotrial at $IOTRIAL, kernel $(uname -r), $(nproc) CPUs"
	printf '%s queue:' "$loop"
	for k in scheduler nr_requests rq_affinity nomerges read_ahead_kb; do
		printf ' %s=%s' "$k" "$(sed 's/.*\[\(.*\)\].*/\1/' "$q/$k")"
	done
	echo
	echo "the exact commands: $res/plan.json (kept with --keep DIR)"
} >&2
cp "$work/plan.json" "$res/plan.json"
python3 "$here/bench/interleave.py" "$work/plan.json" --out "$res" \
	"${drive[@]}"
