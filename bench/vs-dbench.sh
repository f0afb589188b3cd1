#!/usr/bin/env bash
# iotrial's loadfile replay against dbench, measured in the same run on
# the same scratch ext4, alternating dbench, iotrial, dbench, iotrial so
# drift hits both alike. Both replay the same client.txt with the same
# number of clients (1, 4 and 16 by default) for the same time after the
# same warm-up (dbench's default: a fifth of the time).
#
# Throughput is compared by dbench's own accounting: the ReadX and
# WriteX sizes over the measured time, in 10^6 bytes per second (dbench's
# "Throughput ... MB/sec", iotrial's dbench_mbps). CPU per operation is
# the rusage of the child process (wait4: every thread and process it
# ran, its set-up and clean-up included) over the operations it counted
# in the measured part (dbench's per-operation table, iotrial's
# file_ops_total).
#
# Usage: bench/vs-dbench.sh [--pairs N (3)] [--time SECONDS (10)]
#                           [--clients LIST (1,4,16)] [--loadfile FILE]
#                           [--keep DIR]
# Environment: IOTRIAL (default ./iotrial), DBENCH (default dbench).
# Needs root (a loop device); exits 77 otherwise. Prints a table of
# medians, ratios (iotrial / dbench) and PASS/MISS against the goals:
# MB/s ratio >= 1.0 and CPU per operation ratio <= 1.0.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
IOTRIAL=${IOTRIAL:-$here/iotrial}
DBENCH=${DBENCH:-dbench}
pairs=3
secs=10
clients=1,4,16
loadfile=/usr/share/dbench/client.txt
keep=

usage() {
	sed -n '/^# Usage:/,/^# Needs root/p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--pairs=*) pairs=${1#*=}; shift ;;
	--time) secs=$2; shift 2 ;;
	--time=*) secs=${1#*=}; shift ;;
	--clients) clients=$2; shift 2 ;;
	--clients=*) clients=${1#*=}; shift ;;
	--loadfile) loadfile=$2; shift 2 ;;
	--loadfile=*) loadfile=${1#*=}; shift ;;
	--keep) keep=$2; shift 2 ;;
	--keep=*) keep=${1#*=}; shift ;;
	-h|--help) usage ;;
	*) echo "error: unknown option '$1'" >&2; usage ;;
	esac
done

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

work=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
img=$work/ext4.img
mnt=$work/mnt
loop=
res=${keep:-$work/results}
mkdir -p "$res" "$mnt"
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$work"
}
trap cleanup EXIT

# 4 GiB sparse: 16 dbench clients keep a few hundred MiB of files
truncate -s 4G "$img"
loop=$(losetup --find --show "$img")
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop"
mount "$loop" "$mnt"

python3 - "$IOTRIAL" "$DBENCH" "$loadfile" "$mnt" "$res" "$pairs" "$secs" \
	"$clients" <<'PY'
import json, os, re, statistics, subprocess, sys

iotrial, dbench, loadfile, mnt, res = sys.argv[1:6]
pairs, secs = int(sys.argv[6]), int(sys.argv[7])
clients = [int(c) for c in sys.argv[8].split(",")]
warm = secs // 5  # dbench's default warm-up; iotrial gets the same


def settle():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def timed(cmd, out_path):
    """Run cmd, its stdout to out_path; the child's CPU seconds."""
    with open(out_path, "w") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("error: %s failed (%d); see %s" % (cmd[0], status, out_path))
    return ru.ru_utime + ru.ru_stime


def run_dbench(n, i):
    d = os.path.join(mnt, "dbench")
    os.makedirs(d, exist_ok=True)
    out = os.path.join(res, "dbench-%d-%d.txt" % (n, i))
    cmd = [dbench, "-c", loadfile, "-D", d, "-t", str(secs), str(n)]
    cpu = timed(cmd, out)
    text = open(out).read()
    mbps = float(re.search(r"^Throughput ([0-9.e+]+) MB/sec", text,
                           re.M).group(1))
    table = text.split("----------------------------------------")[1]
    ops = sum(int(m.group(1)) for m in
              re.finditer(r"^ \w+\s+(\d+)\s", table, re.M))
    subprocess.run(["rm", "-rf", d], check=True)
    return mbps, cpu / ops * 1e6, ops


def run_iotrial(n, i):
    out = os.path.join(res, "iotrial-%d-%d.json" % (n, i))
    cmd = [iotrial, "run", "smallfiles", "-t", mnt, "--loadfile", loadfile,
           "--clients", str(n), "--time", "%ds" % secs,
           "--ramp", "%ds" % warm, "--no-store", "--json=" + out]
    cpu = timed(cmd, out + ".txt")
    o = json.load(open(out))
    errors = sum(e["errors"] for e in o["file_ops"].values())
    if errors:
        print("  note: iotrial counted %d unmet statuses (%s)" % (errors, out))
    return o["dbench_mbps"], cpu / o["file_ops_total"] * 1e6, \
        o["file_ops_total"]


print("dbench %s and iotrial on '%s', %d s after %d s of warm-up, %d "
      "pairs, scratch ext4 on a loop device" % (dbench, loadfile, secs,
                                                 warm, pairs))
rows = []
for n in clients:
    d_mbps, d_cpu, i_mbps, i_cpu = [], [], [], []
    for i in range(pairs):
        settle()
        m, c, ops = run_dbench(n, i)
        d_mbps.append(m)
        d_cpu.append(c)
        print("  clients %2d pair %d: dbench  %8.2f MB/s %7.2f us CPU/op "
              "(%d ops)" % (n, i + 1, m, c, ops), flush=True)
        settle()
        m, c, ops = run_iotrial(n, i)
        i_mbps.append(m)
        i_cpu.append(c)
        print("  clients %2d pair %d: iotrial %8.2f MB/s %7.2f us CPU/op "
              "(%d ops)" % (n, i + 1, m, c, ops), flush=True)
    rows.append((n, statistics.median(d_mbps), statistics.median(i_mbps),
                 statistics.median(d_cpu), statistics.median(i_cpu)))

print()
print("%-8s %12s %12s %7s %6s %12s %12s %7s %6s" % (
    "clients", "dbench MB/s", "iotrial MB/s", "ratio", "goal",
    "dbench us/op", "iotrial us/op", "ratio", "goal"))
missed = 0
for n, dm, im, dc, ic in rows:
    r_mb, r_cpu = im / dm, ic / dc
    ok_mb, ok_cpu = r_mb >= 1.0, r_cpu <= 1.0
    missed += (not ok_mb) + (not ok_cpu)
    print("%-8d %12.2f %12.2f %7.3f %6s %12.2f %12.2f %7.3f %6s" % (
        n, dm, im, r_mb, "PASS" if ok_mb else "MISS", dc, ic, r_cpu,
        "PASS" if ok_cpu else "MISS"))
sys.exit(1 if missed else 0)
PY
