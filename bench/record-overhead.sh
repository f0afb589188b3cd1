#!/usr/bin/env bash
# The capture's own cost, with the repository's method (bench/interleave.py,
# bench/README.md): fio reads a cached 64 MiB file under /var/tmp at a fixed rate
# (psync 4 KiB random reads, 3000 a second by default), alone and under
# `iotrial record`, in randomized blocks. Two figures:
#
#  1. the CPU time of the run (user + sys of the whole process tree, from
#     wait4: fio, and under record iotrial too, and the BPF programs,
#     which run in fio's system calls), as the ratio record/alone with its
#     95% interval, judged against the goal of under 3% of a core: the
#     ratio whose excess over 1 is 3% of a core for the run's length, from
#     fio's CPU in a first run alone;
#  2. what record measured of itself in each run (the kernel's BPF
#     statistics of its programs, run count and time, and its own CPU),
#     as shares of one core: median and range over the runs. Its BPF
#     figure counts the programs' runs in every process of the machine
#     (a recorded call run by another process still runs them, to be
#     filtered), which 1. does not see.
#
#   sudo bench/record-overhead.sh [--iops N] [--seconds N] [--min-blocks N]
#        [--max-blocks N] [--budget SECONDS] [--keep DIR] [--seed S]
#
# Environment: IOTRIAL (default ./iotrial). Needs root and fio (exits 77
# otherwise); a quiet machine gives narrower intervals.
set -eu
iops=3000 secs=3 keep=
drive=()
while [ $# -gt 0 ]; do
	case $1 in
	--iops) iops=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--min-blocks|--max-blocks|--budget|--seed)
		drive+=("$1" "$2"); shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	*) sed -n '/^#   sudo/,/^#  *\[--max/p' "$0" | sed 's/^# *//' >&2
	   exit 2 ;;
	esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${IOTRIAL:-$here/iotrial}
[ "$(id -u)" = 0 ] || { echo "needs root" >&2; exit 77; }
command -v fio >/dev/null || { echo "needs fio" >&2; exit 77; }
[ -x "$here/bench/ratio-ci" ] || make -C "$here" bench/ratio-ci >/dev/null
dir=$(mktemp -d /var/tmp/iotrial-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
out=${keep:-$dir/out}
mkdir -p "$out"
head -c 64M /dev/zero >"$dir/data"
job=(fio --name=b --filename="$dir/data" --rw=randread --bs=4k
	--ioengine=psync --time_based --runtime="$secs" --rate_iops="$iops"
	--output-format=json)

# under record: fio's JSON to stdout (what interleave.py reads), record's
# own lines kept in record.log
cat >"$dir/under-record.sh" <<EOF
#!/usr/bin/env bash
"$bin" record --force -o "$dir/t" -- ${job[*]} --output="$dir/rec.json" \
	>>"$out/record.log" 2>&1 || exit 1
cat "$dir/rec.json"
EOF
chmod +x "$dir/under-record.sh"

# the goal as a ratio: 3% of a core for secs over fio's CPU alone
cpu=$(python3 - "${job[@]}" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, _, ru = os.wait4(pid, 0)
print(ru.ru_utime + ru.ru_stime)
PY
)
goal=$(python3 -c "import sys; print('%.4f' % (1 + 0.03 * float(sys.argv[1]) / float(sys.argv[2])))" "$secs" "$cpu")
echo "fio alone: ${cpu} s of CPU in ${secs} s at ${iops} IO/s; goal: CPU ratio <= $goal (3% of a core)"
python3 - "$dir/plan.json" "$goal" "$dir/under-record.sh" "${job[@]}" <<'PY'
import json, sys
plan, goal, wrap, job = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
json.dump({"title": "iotrial record's overhead: fio alone vs fio under record",
           "tools": ["fio", "record"],
           "tests": [{"name": "randread",
                      "cmd": {"fio": job, "record": [wrap]},
                      "metrics": [{"row": "CPU (fio + record)", "get": "cpu_s",
                                   "goal": ["<=", goal]},
                                  {"row": "fio IOPS", "get": "iops",
                                   "goal": [">=", 0.97]}]}]},
          open(plan, "w"), indent=1)
PY
[ -z "$keep" ] || cp "$dir/plan.json" "$dir/under-record.sh" "$out/"
python3 "$here/bench/interleave.py" "$dir/plan.json" --out "$out" \
	"${drive[@]+"${drive[@]}"}"
echo
python3 - "$out/record.log" <<'PY'
import re, sys
runs = []
text = open(sys.argv[1]).read()
for rec, cost in re.findall(r"^(recorded .*)\n(capture cost: .*)$", text, re.M):
    calls = int(re.search(r"recorded (\d+) calls", rec).group(1))
    bpf, progs, usr = re.search(
        r"([0-9.]+)% of a core in BPF \((\d+) program runs\), ([0-9.]+)% in iotrial",
        cost).groups()
    runs.append((float(bpf), float(usr), int(progs) / max(1, calls), calls))
if not runs:
    sys.exit("no capture cost in record's output")
def med(i):
    v = sorted(r[i] for r in runs)
    return "%.2f [%.2f, %.2f]" % (v[len(v) // 2], v[0], v[-1])
print("record's own figures over %d runs, median [min, max]:" % len(runs))
print("  recorded calls per run       %s" % med(3))
print("  BPF program runs per call    %s" % med(2))
print("  %% of a core in BPF           %s" % med(0))
print("  %% of a core in iotrial       %s" % med(1))
tot = sorted(r[0] + r[1] for r in runs)
print("  total                        %.2f%% [%.2f, %.2f] (goal < 3%%)"
      % (tot[len(tot) // 2], tot[0], tot[-1]))
PY
