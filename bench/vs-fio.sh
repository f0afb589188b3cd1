#!/usr/bin/env bash
# iotrial against fio, measured in the same run, alternating A B A B so
# drift (thermal, page cache, a noisy neighbour) hits both tools alike.
#
#   (a) 4k random reads, io_uring, QD32, O_DIRECT, a fixed I/O count, on a
#       loop device over a file in /dev/shm: CPU seconds (user+sys) per
#       million I/Os, and IOPS
#   (b) the same device, 4k random reads, psync, QD1: p50 latency
#   (c) a file on the root disk (under /var/tmp): MB/s of 1 MiB O_DIRECT
#       sequential reads and writes
#
# CPU is measured the same way for both tools: the rusage of the child
# process (wait4), which includes every thread it ran (io-wq workers
# too) and its set-up. Each tool otherwise runs with its own defaults;
# the options given are the ones that define the job. One exception:
# iotrial's seqwrite is run with --settle=none, because by default it
# flushes inside the timed region and fio (end_fsync=0) does not.
#
# Usage: bench/vs-fio.sh [--pairs N (5)] [--ios N] [--qd1-ios N]
#                        [--seq-mib N] [--keep DIR]
# Environment: IOTRIAL (default ./iotrial), FIO (default fio).
# Needs root (loop devices); exits 77 otherwise. Prints a table of
# medians, ratios (iotrial / fio) and PASS/MISS against the goals.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
FIO=${FIO:-fio}
pairs=5
ios=2000000
qd1_ios=200000
seq_mib=2048
keep=

usage() {
	sed -n '/^# Usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--pairs=*) pairs=${1#*=}; shift ;;
	--ios) ios=$2; shift 2 ;;
	--ios=*) ios=${1#*=}; shift ;;
	--qd1-ios) qd1_ios=$2; shift 2 ;;
	--qd1-ios=*) qd1_ios=${1#*=}; shift ;;
	--seq-mib) seq_mib=$2; shift 2 ;;
	--seq-mib=*) seq_mib=${1#*=}; shift ;;
	--keep) keep=$2; shift 2 ;;
	--keep=*) keep=${1#*=}; shift ;;
	-h|--help) usage ;;
	*) echo "error: unknown option '$1'" >&2; usage ;;
	esac
done

if [ "$(id -u)" != 0 ]; then
	echo "skipped: bench/vs-fio.sh needs root (it creates a loop device)"
	exit 77
fi
for tool in "$FIO" python3 losetup; do
	if ! command -v "$tool" >/dev/null; then
		echo "skipped: '$tool' is not installed"
		exit 77
	fi
done
if [ ! -x "$IOTRIAL" ]; then
	echo "error: no iotrial binary at '$IOTRIAL'; run 'make' first" >&2
	exit 1
fi
if [ "$pairs" -lt 3 ]; then
	echo "error: --pairs must be at least 3 for a median" >&2
	exit 2
fi

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
img=$(mktemp /dev/shm/iotrial-bench.XXXXXX)
loop=
res=${keep:-$work/results}
mkdir -p "$res" "$work/iotrial" "$work/seq"

cleanup() {
	# Only what this script made: our loop device, image and directory.
	if [ -n "$loop" ]; then
		losetup -d "$loop" 2>/dev/null || true
	fi
	rm -f "$img"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A 1 GiB device with real pages behind it (zeros, written once), so reads
# copy memory rather than hit tmpfs holes.
dd if=/dev/zero of="$img" bs=1M count=1024 status=none
loop=$(losetup --find --show --direct-io=off "$img")
# A loop device keeps the queue settings of its last user (sysfs outlives
# losetup -d), and other tools tune them; put back what a fresh one has:
# no scheduler, the full hardware queue, default affinity and merging.
q=/sys/block/${loop#/dev/}/queue
set_queue() { # knob value
	if [ -w "$q/$1" ]; then
		echo "$2" >"$q/$1" 2>/dev/null ||
			echo "warning: cannot set $1=$2 on $loop" >&2
	fi
}
set_queue scheduler none
set_queue nr_requests "$(cat /sys/block/${loop#/dev/}/mq/0/nr_tags 2>/dev/null || echo 128)"
set_queue rq_affinity 1
set_queue nomerges 0
set_queue read_ahead_kb 128

# measure OUT_JSON CPU_FILE CMD...: run CMD with stdout to OUT_JSON and
# write "user_s sys_s wall_s" of the child (and its descendants) to
# CPU_FILE. Returns CMD's exit code; its stderr goes to OUT_JSON.err.
measure() {
	python3 - "$@" <<'PY'
import os, sys, time
out, cpu_file, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.monotonic()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(os.open(out + '.err', os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                    0o644), 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.execvp(cmd[0], cmd)
_, status, ru = os.wait4(pid, 0)
with open(cpu_file, 'w') as f:
    f.write('%.6f %.6f %.6f\n' % (ru.ru_utime, ru.ru_stime,
                                 time.monotonic() - start))
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

# run NAME TOOL CMD...: one measured run into $res/NAME.TOOL.N.json.
declare -A count
run() {
	local name=$1 tool=$2
	shift 2
	local n=$((${count[$name.$tool]:-0} + 1))
	count[$name.$tool]=$n
	local out=$res/$name.$tool.$n.json
	printf '  %-10s %-7s run %d ... ' "$name" "$tool" "$n" >&2
	if ! measure "$out" "$res/$name.$tool.$n.cpu" "$@"; then
		echo "failed" >&2
		echo "error: $tool failed; command: $*" >&2
		sed 's/^/    /' "$out.err" >&2
		exit 1
	fi
	echo "done" >&2
}

bs4k=4096
mib=$((1024 * 1024))
seq_ios=$seq_mib
fio_common=(--output-format=json --group_reporting)

# The exact commands, printed so a reader can rerun any of them.
fio_a=("$FIO" --name=randread-qd32 --filename="$loop" --rw=randread
	--bs=4k --iodepth=32 --ioengine=io_uring --direct=1 --size=1G
	--io_size=$((ios * bs4k)) "${fio_common[@]}")
iot_a=("$IOTRIAL" run randread --no-store -t "$loop" --bs=4k --iodepth=32
	--engine=io_uring --direct=1 --size=1G --ios="$ios" --json)
fio_l=("$FIO" --name=randread-aio32 --filename="$loop" --rw=randread
	--bs=4k --iodepth=32 --ioengine=libaio --direct=1 --size=1G
	--io_size=$((ios * bs4k)) "${fio_common[@]}")
iot_l=("$IOTRIAL" run randread --no-store -t "$loop" --bs=4k --iodepth=32
	--engine=libaio --direct=1 --size=1G --ios="$ios" --json)
fio_b=("$FIO" --name=randread-qd1 --filename="$loop" --rw=randread
	--bs=4k --ioengine=psync --direct=1 --size=1G
	--io_size=$((qd1_ios * bs4k)) "${fio_common[@]}")
iot_b=("$IOTRIAL" run randread --no-store -t "$loop" --bs=4k --iodepth=1
	--engine=psync --direct=1 --size=1G --ios="$qd1_ios" --json)
# Four threads of psync on the whole device each (fio's numjobs on one
# filename; iotrial's jobs with shared=1), qd1_ios each.
fio_j=("$FIO" --name=randread-4j --filename="$loop" --rw=randread
	--bs=4k --ioengine=psync --direct=1 --size=1G --numjobs=4
	--io_size=$((qd1_ios * bs4k)) "${fio_common[@]}")
iot_j=("$IOTRIAL" run randread --no-store -t "$loop" --bs=4k --jobs=4
	--shared=1 --engine=psync --direct=1 --size=1G
	--ios=$((4 * qd1_ios)) --json)
# The sequential jobs read and write one path, $work/seq/job0.*, laid
# out the same way for both tools (see lay_out below).
fio_r=("$FIO" --name=seqread --filename="$work/seq/job0.data" --rw=read
	--bs=1M --direct=1 --size=1G --io_size=$((seq_ios * mib))
	"${fio_common[@]}")
iot_r=("$IOTRIAL" run seqread --no-store -t "$work/iotrial" --bs=1M --direct=1
	--size=1G --ios="$seq_ios" --json)
fio_w=("$FIO" --name=seqwrite --filename="$work/seq/job0.prealloc" --rw=write
	--bs=1M --direct=1 --size=1G --io_size=$((seq_ios * mib))
	"${fio_common[@]}")
iot_w=("$IOTRIAL" run seqwrite --no-store -t "$work/iotrial" --bs=1M --direct=1
	--size=1G --ios="$seq_ios" --settle=none --json)

# settle: before every sequential run, for both tools, write out what
# is dirty and commit the journal. Deleting a 1 GiB file on a filesystem
# mounted with -o discard sends the disk its discards at the next commit;
# without this, whichever tool runs right after a deletion reads while
# the disk is still trimming.
settle() {
	sync
}

# lay_out read|write FILE: the file fio gets, made as iotrial makes its
# own just before its timed part. read: 1 GiB written in full with
# buffered 1 MiB writes of varied data, fsync'd and dropped from the page
# cache; write: a fresh 1 GiB posix_fallocate (unwritten extents, which
# the first O_DIRECT write of each converts, for both tools alike).
lay_out() {
	python3 - "$@" <<'PY'
import os, sys
mode, path = sys.argv[1], sys.argv[2]
size = 1 << 30
try:
    os.unlink(path)
except FileNotFoundError:
    pass
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
PY
}

{
	echo "iotrial vs fio: $pairs pairs, device $loop (1 GiB in /dev/shm), files in $work"
	echo "$("$FIO" --version), iotrial at $IOTRIAL, kernel $(uname -r), $(nproc) CPUs"
	printf '%s queue:' "$loop"
	for k in scheduler nr_requests rq_affinity nomerges read_ahead_kb; do
		printf ' %s=%s' "$k" "$(sed 's/.*\[\(.*\)\].*/\1/' "$q/$k")"
	done
	echo
	echo "commands:"
	for c in fio_a iot_a fio_l iot_l fio_b iot_b fio_j iot_j fio_r iot_r fio_w iot_w; do
		declare -n arr=$c
		printf '  %s\n' "${arr[*]}"
	done
	echo "sequential files: both tools get a fresh file for every run,"
	echo "  laid out the same way just before it: for reads written in"
	echo "  full (buffered 1 MiB writes, fsync, dropped from the cache),"
	echo "  for writes posix_fallocate'd (unwritten extents for both);"
	echo "  sync before every sequential run (a deleted file's discards"
	echo "  and dirty data out of the way), for both tools alike"
	echo
} >&2

for ((p = 1; p <= pairs; p++)); do
	echo "pair $p of $pairs" >&2
	run qd32 fio "${fio_a[@]}"
	run qd32 iotrial "${iot_a[@]}"
	run aio32 fio "${fio_l[@]}"
	run aio32 iotrial "${iot_l[@]}"
	run qd1 fio "${fio_b[@]}"
	run qd1 iotrial "${iot_b[@]}"
	run psync4j fio "${fio_j[@]}"
	run psync4j iotrial "${iot_j[@]}"
	lay_out read "$work/seq/job0.data"
	settle
	run seqread fio "${fio_r[@]}"
	rm -f "$work/seq/job0.data"
	settle
	run seqread iotrial "${iot_r[@]}"
	lay_out write "$work/seq/job0.prealloc"
	settle
	run seqwrite fio "${fio_w[@]}"
	rm -f "$work/seq/job0.prealloc"
	settle
	run seqwrite iotrial "${iot_w[@]}"
done

python3 - "$res" "$pairs" <<'PY'
import json, statistics, sys

res, pairs = sys.argv[1], int(sys.argv[2])

def load(name, tool, n):
    base = '%s/%s.%s.%d' % (res, name, tool, n)
    text = open(base + '.json').read()
    doc = json.loads(text[text.index('{'):])
    user, sys_s, wall = map(float, open(base + '.cpu').read().split())
    return doc, user + sys_s, wall

def fio_job(doc):
    return doc['jobs'][0]

# metric name -> (test, how to read it per tool, goal op, goal ratio)
def total_ios(tool, doc):
    if tool == 'fio':
        return fio_job(doc)['read']['total_ios'] + \
            fio_job(doc)['write']['total_ios']
    return doc['ops']

def cpu_per_m(tool, doc, cpu):
    return cpu / total_ios(tool, doc) * 1e6

def iops(tool, doc, cpu):
    return fio_job(doc)['read']['iops'] if tool == 'fio' else doc['iops']

def p50_us(tool, doc, cpu):
    if tool == 'fio':
        return fio_job(doc)['read']['clat_ns']['percentile']['50.000000'] / 1e3
    return doc['latency_ns']['read']['p50'] / 1e3

def mbps(direction):
    def get(tool, doc, cpu):
        if tool == 'fio':
            return fio_job(doc)[direction]['bw_bytes'] / 1e6
        return doc['mbps']
    return get

metrics = [
    ('qd32 CPU s per 1M IOs', 'qd32', cpu_per_m, '<=', 0.85),
    ('qd32 IOPS', 'qd32', iops, '>=', 1.0),
    ('libaio qd32 CPU/1M IOs', 'aio32', cpu_per_m, '<=', 0.85),
    ('libaio qd32 IOPS', 'aio32', iops, '>=', 1.0),
    ('qd1 psync p50 us', 'qd1', p50_us, '<=', 1.0),
    ('4 jobs psync CPU/1M IOs', 'psync4j', cpu_per_m, '<=', 1.0),
    ('4 jobs psync IOPS', 'psync4j', iops, '>=', 1.0),
    ('seq read 1M MB/s', 'seqread', mbps('read'), '>=', 0.98),
    ('seq write 1M MB/s', 'seqwrite', mbps('write'), '>=', 0.98),
]

print()
print('per run (fio | iotrial):')
rows = []
for label, test, get, op, goal in metrics:
    vals = {}
    for tool in ('fio', 'iotrial'):
        vals[tool] = []
        for n in range(1, pairs + 1):
            doc, cpu, wall = load(test, tool, n)
            vals[tool].append(get(tool, doc, cpu))
    print('  %-24s %s | %s' % (label,
          ' '.join('%.4g' % v for v in vals['fio']),
          ' '.join('%.4g' % v for v in vals['iotrial'])))
    f = statistics.median(vals['fio'])
    i = statistics.median(vals['iotrial'])
    ratios = [b / a for a, b in zip(vals['fio'], vals['iotrial'])]
    ratio = statistics.median(ratios)
    ok = ratio <= goal if op == '<=' else ratio >= goal
    rows.append((label, f, i, ratio, min(ratios), max(ratios), op, goal,
                 'PASS' if ok else 'MISS'))

print()
print('%-24s %12s %12s %7s %15s %9s %5s' % ('metric (median)', 'fio',
      'iotrial', 'ratio', 'pair ratios', 'goal', ''))
for label, f, i, ratio, lo, hi, op, goal, verdict in rows:
    print('%-24s %12.4g %12.4g %7.3f %7.3f..%-7.3f %2s %5.2f  %s' % (
        label, f, i, ratio, lo, hi, op, goal, verdict))
print()
print('whole process, as a user times it (wait4 rusage; medians):')
print('%-10s %10s %10s %7s %10s %10s %7s' % ('test', 'fio wall',
      'iot wall', 'ratio', 'fio CPU', 'iot CPU', 'ratio'))
for test in ('qd32', 'aio32', 'qd1', 'psync4j', 'seqread', 'seqwrite'):
    w, c = {}, {}
    for tool in ('fio', 'iotrial'):
        runs = [load(test, tool, n) for n in range(1, pairs + 1)]
        w[tool] = statistics.median(r[2] for r in runs)
        c[tool] = statistics.median(r[1] for r in runs)
    print('%-10s %9.3fs %9.3fs %7.3f %9.3fs %9.3fs %7.3f' % (
        test, w['fio'], w['iotrial'], w['iotrial'] / w['fio'],
        c['fio'], c['iotrial'], c['iotrial'] / c['fio']))
print('(wall and CPU include each tool\'s set-up: iotrial lays out its')
print(' sequential files inside its run, fio\'s were laid out before)')
print()
print('ratio = median of the pairs\' iotrial / fio; CPU = user+sys of the whole process '
      '(wait4 rusage), same for both')
PY
