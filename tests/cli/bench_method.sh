#!/usr/bin/env bash
# The benches' method (bench/ratio-ci, bench/interleave.py) on inputs
# whose answers are known, so a bench that prints "goal met" means it.
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
# Too few blocks for a 95% interval: never a verdict.
out=$(python3 "$IOTRIAL_SRC/bench/interleave.py" "$TEST_TMP/plan.json" \
	--out "$TEST_TMP/res3" --min-blocks 3 --max-blocks 3 --seed 1 2>&1)
check "interleave: 3 blocks cannot reach 95%, so it cannot tell" \
	grep -Eq '^meets .*cannot tell .*interval covers 75\.0%' <<<"$out"
