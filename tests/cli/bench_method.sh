#!/usr/bin/env bash
# The benches' method (bench/ratio-ci, bench/interleave.py) on inputs
# whose answers are known, so a bench that prints "goal met" means it.
# parallel: stand-in tools in a directory of its own; dry runs
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
rci=$IOTRIAL_SRC/bench/ratio-ci
[ -x "$rci" ] || skip "bench/ratio-ci is not built (make bench/ratio-ci)"

# Six blocks, every ratio above 1: the exact signed-rank p is 2/64, and
# the estimate is the median of the Walsh averages of the log-ratios.
out=$(printf 'r 1 100 110\nr 2 100 108\nr 3 100 111\nr 4 100 109\nr 5 100 112\nr 6 100 107\n' |
	"$rci")
read -r name n ratio lo hi p cov method <<<"$out"
check "ratio-ci: six blocks, one row ($out)" [ "$name $n $method" = "r 6 exact" ]
check "ratio-ci: exact p of six positive differences is 1/32 ($p)" \
	python3 -c "import sys; sys.exit(abs($p - 0.03125) > 1e-4)"
check "ratio-ci: the estimate lies inside its interval, which lies inside the data's range" \
	python3 -c "import sys; sys.exit(not (1.07 <= $lo <= $ratio <= $hi <= 1.12))"
check "ratio-ci: coverage of the interval at n=6 is 31/32 ($cov)" \
	python3 -c "import sys; sys.exit(abs($cov - 0.96875) > 1e-3)"
out=$(printf 'x 1 1 2\n' | "$rci")
check "ratio-ci: one block gives no interval ($out)" [ "$out" = "x 1 - - - - - -" ]
err=$(printf 'x 1 0 2\n' | "$rci" 2>&1)
rc=$?
check "ratio-ci: a value of 0 is refused with the line (rc=$rc: $err)" \
	test "$rc" = 1 -a -n "$(grep -F 'line 1' <<<"$err")"

# A covariate of each run (ZA ZB: the steal during each tool's run): the
# ratios follow the steal difference within the block (exp(-0.01 z)) and
# little else, so compare's adjustment is used and its interval narrows
# to about 1 where the plain one is wide.
obs=$(python3 -c '
import math
for b in range(1, 13):
    z = (b % 2 * 2 - 1) * (3 + b)
    e = 0.002 * ((7 * b) % 11 - 5)
    print("s", b, 1000, 1000 * math.exp(-0.01 * z + e), 0, z)')
out=$("$rci" <<<"$obs")
read -r name n ratio lo hi p cov method word aratio alo ahi ap acov used r2 <<<"$out"
check "ratio-ci: with ZA ZB the row goes on with the adjusted comparison ($out)" \
	[ "$name $n $word $used" = "s 12 adjusted used" ]
check "ratio-ci: the adjusted interval holds 1 and is far narrower than the plain one" \
	python3 -c "import sys; sys.exit(not ($alo < 1 < $ahi and ($ahi - $alo) * 5 < $hi - $lo and $r2 > 0.9))"
out=$(awk '{ print $1, $2, $3, $4 }' <<<"$obs" | "$rci")
check "ratio-ci: without them, the plain comparison only ($out)" \
	[ "$(wc -w <<<"$out")" = 8 ]
out=$(head -6 <<<"$obs" | "$rci")
check "ratio-ci: 6 blocks are too few to adjust ($out)" \
	grep -q ' adjusted .* few_blocks ' <<<"$out"
err=$(printf 'x 1 1 2 0\n' | "$rci" 2>&1)
rc=$?
check "ratio-ci: a line with one covariate value is refused (rc=$rc: $err)" \
	test "$rc" = 1 -a -n "$(grep -F 'line 1' <<<"$err")"

# interleave.py with two fake tools whose answers are known: b is about
# 1.25 times a in every block (1.247..1.253), with a drifting a (so only pairing by block
# gives a tight interval); the goal >= 1.2 is met, <= 1.1 missed, and
# 1.25 inside 1.2..1.3.
cat >"$TEST_TMP/tool.py" <<'PY'
import json, os, sys
state = sys.argv[2]
n = int(open(state).read()) if os.path.exists(state) else 0
open(state, "w").write(str(n + 1))
f = float(sys.argv[1])
if f != 1:  # distinct ratios near f, so the exact method applies
    f += 0.001 * ((3 * n) % 7 - 3)
iops = 1000.0 * (1 + 0.1 * n) * f
# a single run's "jobs" are its threads (no "run" in them), as iotrial's are
print(json.dumps({"schema": "iotrial/1", "iops": iops, "ops": 100,
                  "bytes_read": 4096, "jobs": [{"job": 0, "ops": 100}]}))
PY
# a device to count the other I/O on (any one /proc/diskstats lists)
dev=$(awk 'NR == 1 { print $3 }' /proc/diskstats)
python3 - "$TEST_TMP" "$dev" <<'PY'
import json, sys
d, dev = sys.argv[1], sys.argv[2]
def cmd(f, s):
    return ["python3", d + "/tool.py", f, d + "/" + s]
json.dump({"title": "known", "tools": ["a", "b"], "tests": [
    {"name": "t", "devices": [dev], "cmd": {"a": cmd("1", "sa"), "b": cmd("1.25", "sb")},
     "metrics": [{"row": "meets", "get": "iops", "goal": [">=", 1.2]},
                 {"row": "misses", "get": "iops", "goal": ["<=", 1.1]},
                 {"row": "inside", "get": "iops", "goal": ["in", 1.2, 1.3]}]}]},
    open(d + "/plan.json", "w"))
PY
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/plan.json" \
	--out "$TEST_TMP/res" --min-blocks 6 --max-blocks 8 --seed 1 2>&1)
rc=$?
check "interleave: runs the plan (rc=$rc)" test "$rc" = 0
check "interleave: stops at 6 blocks, every row settled" \
	grep -q '^6 blocks (stopped: every row settled)' <<<"$out"
check "interleave: ratio 1.25 with a 95% interval, goal >= 1.2 met" \
	grep -Eq '^meets +1\.25[0-9] \[ 1\.24[0-9],  1\.25[0-9]\] +>= 1\.20 +goal met' <<<"$out"
check "interleave: goal <= 1.1 missed" \
	grep -Eq '^misses +1\.25[0-9] .* missed' <<<"$out"
check "interleave: goal 1.2..1.3 met" \
	grep -Eq '^inside +1\.25[0-9] .*1\.20\.\.1\.30 +goal met' <<<"$out"
check "interleave: the noise is reported" grep -q 'steal time' <<<"$out"
check "interleave: every observation kept (6 blocks x 3 rows)" \
	test "$(wc -l <"$TEST_TMP/res/observations.txt")" = 18
# A run's steal is a covariate only with 1 s of the machine's CPU time
# behind it (compare's rule): noise.txt keeps each run's CPU time, and an
# observation's steal is nan exactly where its run had less.
check "interleave: a run's steal counts only over 1 s of machine CPU" \
	python3 - "$TEST_TMP/res" <<'PY'
import math, sys
d = sys.argv[1]
noise = [l.rstrip("\n").split("\t") for l in open(d + "/noise.txt")]
assert all(len(n) == 6 for n in noise), noise[0]
cpu = {}
for i, n in enumerate(noise):  # one test: each block's two runs in turn
    cpu[(i // 2 + 1, n[1])] = float(n[5])
for l in open(d + "/observations.txt"):
    row, block, a, b, za, zb = l.rstrip("\n").split("\t")
    for tool, z in (("a", za), ("b", zb)):
        assert math.isnan(float(z)) == (cpu[(int(block), tool)] < 1.0), l
PY
# Too few blocks for a 95% interval: never a verdict.
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/plan.json" \
	--out "$TEST_TMP/res3" --min-blocks 3 --max-blocks 3 --seed 1 2>&1)
check "interleave: 3 blocks cannot reach 95%, so it cannot tell" \
	grep -Eq '^meets .*cannot tell .*interval covers 75\.0%' <<<"$out"

# 30 blocks take the normal approximation, whose interval covers 94.9%:
# read as 95%, as compare's report reads it (it was "cannot tell" for
# an interval wholly on the wrong side).
check "interleave: an interval covering 94.9% is judged" \
	python3 -c "
import sys; sys.path.insert(0, '$IOTRIAL_SRC/bench')
import interleave as i
sys.exit(not (i.judge((0.699, 0.868), ('<=', 0.5), 0.9493) == 'missed'
              and i.judge((0.953, 1.025), ('<=', 1.0), 0.9493) == 'cannot tell'
              and i.judge((0.5, 0.9), ('<=', 1.0), 0.75) == 'cannot tell'))"

# dbench prints text, not JSON: a fake dbench whose accounting is known
# (its table's counts sum to 1000 operations; near 80 MB/s, distinct per
# run, against the other tool's 100) read through the plan's "format".
cat >"$TEST_TMP/dbench.py" <<'PY'
import os, sys
state = sys.argv[2]
n = int(open(state).read()) if os.path.exists(state) else 0
open(state, "w").write(str(n + 1))
mbps = float(sys.argv[1]) * (1 + 0.001 * ((3 * n) % 7 - 3))
print("dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n")
print("Running for 3 seconds with load 'x' and minimum warmup 0 secs")
print("   1  cleanup   3 sec\n")
print(" Operation      Count    AvgLat    MaxLat")
print(" ----------------------------------------")
for op, n in (("NTCreateX", 400), ("Close", 300), ("ReadX", 299),
              ("Mkdir", 1)):
    print(" %-13s %6d     0.035    17.923" % (op, n))
print("\nThroughput %.3f MB/sec  1 clients  1 procs  max_latency=4.9 ms" %
      mbps)
PY
python3 - "$TEST_TMP" <<'PY'
import json, sys
d = sys.argv[1]
other = ["python3", "-c", "import json; print(json.dumps({'schema': "
         "'iotrial/1', 'dbench_mbps': 100.0, 'file_ops_total': 1000, "
         "'bytes_read': 0}))"]
json.dump({"title": "dbench text", "tools": ["dbench", "other"], "tests": [
    {"name": "d", "cmd": {"dbench": ["python3", d + "/dbench.py", "80",
                                     d + "/sd"],
                          "other": other},
     "format": {"dbench": "dbench"},
     "metrics": [{"row": "mbps", "get": "dbench_mbps", "goal": [">=", 1.2]},
                 {"row": "cpu", "get": "cpu_per_op", "goal": ["<=", 100]}]}]},
    open(d + "/dplan.json", "w"))
PY
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/dplan.json" \
	--out "$TEST_TMP/dres" --min-blocks 6 --max-blocks 6 --seed 1 2>&1)
check "interleave: reads dbench's Throughput line (100 / 80 = 1.25, goal met)" \
	grep -Eq '^mbps +1\.25[0-9] \[ 1\.24[0-9],  1\.25[0-9]\] +>= 1\.20 +goal met' <<<"$out"
check "interleave: dbench's Throughput kept as read, once per block" \
	test "$(awk '$1 == "mbps" && $3 > 79.7 && $3 < 80.3' \
		"$TEST_TMP/dres/observations.txt" | wc -l)" = 6
check "interleave: CPU per operation is judged too" \
	grep -Eq '^cpu +[0-9.]+ \[.*<= 100\.00 +goal met' <<<"$out"
python3 "$TEST_TMP/dbench.py" 80 "$TEST_TMP/sd1" >"$TEST_TMP/d.txt"
check "dbench_doc: 1000 operations from the table, bytes = MB/s x 3 s" \
	python3 -c "import sys
sys.dont_write_bytecode = True
sys.path.insert(0, '$IOTRIAL_SRC/bench')
import interleave
d = interleave.dbench_doc('$TEST_TMP/d.txt')
sys.exit(not (d['file_ops_total'] == 1000 and
              abs(d['dbench_bytes'] - d['dbench_mbps'] * 3e6) < 1 and
              abs(d['dbench_mbps'] - 79.76) < 1e-9))"

# The benches' plans, without running them (no root, no tools needed).
plan=$(bash "$IOTRIAL_SRC/bench/vs-dbench.sh" --dry-run --clients 1,4 \
	--time 5 2>&1)
check "vs-dbench.sh --dry-run prints a plan with both tools per client count" \
	python3 -c "import json, sys
p = json.loads(sys.argv[1])
t = p['tests']
sys.exit(not ([x['name'] for x in t] == ['c1', 'c4'] and
              t[1]['cmd']['dbench'][-3:] == ['-t', '5', '4'] and
              t[1]['cmd']['iotrial'][-8:-2] == ['--clients', '4', '--time', '5s', '--ramp', '1s'] and
              [m['goal'] for m in t[0]['metrics']] == [['>=', 1.0], ['<=', 1.0]]))" "$plan"
bash "$IOTRIAL_SRC/bench/vs-dbench.sh" --dry-run --clients 1,,4 >/dev/null 2>&1
check "vs-dbench.sh refuses an empty client count" test $? = 2
plan=$(bash "$IOTRIAL_SRC/bench/vs-fio.sh" --dry-run --no-disk \
	--tests qd32best,qd1 --ios 5000 2>&1)
check "vs-fio.sh --tests keeps only the named tests, in the plan's order" \
	python3 -c "import json, sys
t = json.loads(sys.argv[1])['tests']
sys.exit(not ([x['name'] for x in t] == ['qd32best', 'qd1'] and
              '--ios=5000' in t[0]['cmd']['iotrial']))" "$plan"
out=$(bash "$IOTRIAL_SRC/bench/vs-fio.sh" --dry-run --tests qd32,nope 2>&1)
check "vs-fio.sh --tests names an unknown test and the known ones ($?)" \
	grep -q 'no test nope (the tests: qd32, qd32best' <<<"$out"

# A plain chroot (a debootstrap directory, as Debian's builders test)
# has no mount for its directories: findmnt finds none. A plan needs no
# mount, and the disk under /var/tmp is found by st_dev as info does.
mkdir -p "$TEST_TMP/nomount"
printf '#!/bin/sh\nexit 1\n' >"$TEST_TMP/nomount/findmnt"
chmod +x "$TEST_TMP/nomount/findmnt"
want=
if src=$(findmnt -no SOURCE --target /var/tmp 2>/dev/null) &&
	[ "${src#/dev/}" != "$src" ]; then
	want=$(lsblk -no PKNAME "$src" 2>/dev/null | head -n1)
	want=${want:-${src##*/}}
fi
plan=$(PATH=$TEST_TMP/nomount:$PATH bash "$IOTRIAL_SRC/bench/vs-fio.sh" \
	--dry-run --tests diskread 2>"$TEST_TMP/err")
check "vs-fio.sh --dry-run with no mount table: a plan ($(head -c 200 "$TEST_TMP/err"))" \
	python3 -c "import json, sys; json.loads(sys.argv[1])" "$plan"
if [ -n "$want" ]; then
	check "...whose disk rows count the disk the mount table names ('$want')" \
		python3 -c "import json, sys
t = json.loads(sys.argv[1])['tests']
sys.exit(not ([x['devices'] for x in t] == [[sys.argv[2]]]))" "$plan" "$want"
fi
plan=$(PATH=$TEST_TMP/nomount:$PATH bash "$IOTRIAL_SRC/bench/vs-dbench.sh" \
	--dry-run --clients 2 2>"$TEST_TMP/err")
check "vs-dbench.sh --dry-run with no mount table: a plan ($(head -c 200 "$TEST_TMP/err"))" \
	python3 -c "import json, sys; json.loads(sys.argv[1])" "$plan"
if [ -n "$want" ]; then
	check "...which counts the other I/O of '$want'" \
		python3 -c "import json, sys
t = json.loads(sys.argv[1])['tests']
sys.exit(not (t[0]['devices'] == [sys.argv[2]]))" "$plan" "$want"
fi
# the disk of a partition, and of a device-mapper device over one, in a
# made-up /sys
S=$TEST_TMP/sys
mkdir -p "$S/devices/sdz/sdz2" "$S/devices/dm-7/slaves" "$S/dev"
touch "$S/devices/sdz/sdz2/partition"
ln -s ../../sdz/sdz2 "$S/devices/dm-7/slaves/sdz2"
ln -s ../devices/sdz/sdz2 "$S/dev/8:2"
ln -s ../devices/dm-7 "$S/dev/253:7"
got=$(. "$IOTRIAL_SRC/bench/disk-under.sh" &&
	echo "$(disk_of_sys "$S/dev/8:2") $(disk_of_sys "$S/dev/253:7") $(disk_of_sys "$S/devices/sdz")")
check "disk_of_sys: a partition's disk, a dm device's, a disk itself ($got)" \
	test "$got" = "sdz sdz sdz"
# --duet: two fake tools whose value is the machine's "noise" during
# the run times their own speed (b is 1.25 times a). The noise is a level
# of 1x to 3x (in quarters) drawn by the first tool to run after "before" cleared it:
# one after the other, each tool draws its own and the per-block ratio is
# noisy; at the same time (each on its own place) the second finds the
# first's, and the ratio is 1.25 in every block. Each tool prints the
# place it was given.
cat >"$TEST_TMP/noisy.py" <<'PY'
import json, os, random, sys, time
path = sys.argv[3]
try:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    # quarters: exact in binary, so that a duet's ratios are exactly
    # equal, not equal but for the last bit (ranks drawn by rounding
    # made the interval's coverage 94.6% in some runs)
    os.write(fd, b"%.6f\n" % (1 + random.randint(0, 8) / 4))
    os.close(fd)
except FileExistsError:
    pass
text = ""
while not text.endswith("\n"):
    text = open(path).read()
time.sleep(0.1)
print(json.dumps({"schema": "iotrial/1",
                  "iops": 1000 * float(text) * float(sys.argv[1]),
                  "ops": 100, "bytes_read": 0, "place": sys.argv[2],
                  "jobs": [{"job": 0, "ops": 100}]}))
PY
python3 - "$TEST_TMP" <<'PY'
import json, sys
d = sys.argv[1]
lvl = d + "/level"
def cmd(f):
    return ["python3", d + "/noisy.py", f, "{P}", lvl]
json.dump({"title": "duet", "tools": ["a", "b"],
           "places": [{"P": "p0"}, {"P": "p1"}],
           "tests": [{"name": "t", "duet": True,
                      "before": {"a": ["rm", "-f", lvl],
                                 "b": ["rm", "-f", lvl]},
                      "cmd": {"a": cmd("1"), "b": cmd("1.25")},
                      "metrics": [{"row": "r", "get": "iops",
                                   "goal": ["in", 1.2, 1.3]}]}]},
          open(d + "/nplan.json", "w"))
PY
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/nplan.json" \
	--out "$TEST_TMP/nres" --min-blocks 8 --max-blocks 8 --seed 3 --duet 2>&1)
check "interleave --duet: the ratio is 1.25 in every block, goal met" \
	grep -Eq '^r +1\.250 \[ 1\.250,  1\.250\] +1\.20\.\.1\.30 +goal met' <<<"$out"
check "interleave --duet: each tool ran on a place of its own, both places used" \
	python3 - "$TEST_TMP/nres" <<'PY'
import glob, json, sys
seen = {}
for f in glob.glob(sys.argv[1] + "/t.*.json"):
    tool, block = f.split("/")[-1].split(".")[1:3]
    seen.setdefault(block, {})[tool] = json.load(open(f))["place"]
assert len(seen) == 8, seen
assert all(sorted(v.values()) == ["p0", "p1"] for v in seen.values()), seen
assert {v["a"] for v in seen.values()} == {"p0", "p1"}, seen
PY
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/nplan.json" \
	--out "$TEST_TMP/nres2" --min-blocks 8 --max-blocks 8 --seed 3 2>&1)
check "interleave without --duet: one after the other, the same plan cannot tell" \
	grep -Eq '^r +[0-9.]+ \[[ 0-9.]+, [ 0-9.]+\] +1\.20\.\.1\.30 +cannot tell' <<<"$out"
