#!/usr/bin/env bash
# iotrial run exec -- CMD: any command as the workload. Its wall time is
# the metric (lower is better), its CPU is the tree's, {dir} and
# IOTRIAL_DIR name the work directory, --metric-from and --metric-cmd
# read the program's own number. A command that is not there is refused
# before anything runs; one that fails is not counted, with its status
# and stderr. compare exec varies a knob under the program and restores
# it.
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store --json -- \
	sh -c 'dd if=/dev/zero of={dir}/x bs=64k count=64 2>/dev/null;
	       test -f "$IOTRIAL_DIR/x" && pwd; i=0;
	       while [ $i -lt 20000 ]; do i=$((i+1)); done' >"$out.json" 2>"$out.err"
check "run exec exits 0" test $? = 0
check "its JSON: metric wall, lower is better; status 0; the tree's CPU" \
	python3 - "$out.json" "$TEST_TMP" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
m = o["metric"]
assert m["name"] == "wall" and m["higher_is_better"] is False, m
assert m["value"] > 0, m
ex = o["exec"]
assert ex["status"] == 0, ex
# {dir} and IOTRIAL_DIR are the work directory, and the command ran in it
assert ex["stdout_tail"].startswith(sys.argv[2] + "/iotrial."), ex
assert "{dir}" not in ex["cmd"], ex
# the busy loop ran in a child's child: its CPU counts
assert o["cpu"]["user_s"] + o["cpu"]["sys_s"] > 0, o["cpu"]
assert "truth" in o, list(o)  # devices too, unless /tmp is a tmpfs
PY

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store \
	--metric-from 'rate=([0-9.]+)' -- sh -c 'echo rate=123.5 ops' >"$out" 2>&1
check "--metric-from: the printed number is the metric" \
	grep -q "^metric: printed = 123.5 .*(higher is better)$" "$out"
check "...and the summary says what the command did" \
	grep -q "^  command  exited 0; printed 123.5; its last line: rate=123.5 ops$" "$out"

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store --metric printed_lower \
	--metric-cmd 'cat {dir}/t' -- sh -c 'echo 0.25 >t' >"$out" 2>&1
check "--metric-cmd reads the number after the run (lower is better)" \
	grep -q "^metric: printed_lower = 0.25 .*(lower is better)$" "$out"

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store --metric-from 'x=([0-9]+)' \
	-- echo nothing >"$out" 2>&1
check "--metric-from with no match: a runtime error (exit $?)" test $? = 1
check "...saying so" grep -q "nothing the command printed matches" "$out"

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store -- no-such-program-here 1 >"$out" 2>&1
check "a command that is not there: usage error" test $? = 2
check "...naming it" grep -qF "the command 'no-such-program-here' is not found" "$out"

# a shell line given as one argument after "--" is one word to the shell:
# refused before the first run (exit 2, not a failed run's 1), saying how
# to give a shell line
"$IOTRIAL" run exec -t "$TEST_TMP" --no-store -- \
	"grep -c root /etc/passwd; touch $TEST_TMP/ran" >"$out" 2>&1
check "a shell line as one argument after '--': usage error (exit $?)" test $? = 2
check "...before anything ran" test ! -e "$TEST_TMP/ran"
check "...saying it is one word and how to give a shell line" \
	grep -qF "is one word to the shell, 'grep -c root /etc/passwd; touch $TEST_TMP/ran'" "$out"
check "...with --cmd or sh -c" grep -qF -- "with --cmd 'grep -c root" "$out"
"$IOTRIAL" compare exec -t "$TEST_TMP" --vary label=a,b --runs 2 --no-store -- \
	"grep -c root /etc/passwd | wc -l" >"$out" 2>&1
check "compare refuses it too, before the first run (exit $?)" test $? = 2
"$IOTRIAL" run exec -t "$TEST_TMP" --no-store \
	--cmd "grep -c root /etc/passwd >/dev/null; touch $TEST_TMP/ran" >"$out" 2>&1
check "the same line as --cmd runs (exit $?)" test $? = 0
check "...all of it" test -e "$TEST_TMP/ran"

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store -- sh -c 'echo first >&2; echo gone wrong >&2; exit 3' >"$out" 2>&1
rc=$?
check "a command that fails: exit 1 (got $rc)" test "$rc" = 1
check "...with its status and the end of its stderr" \
	bash -c "grep -q 'exited with status 3; the run is not counted' '$out' && grep -q '^gone wrong$' '$out'"

"$IOTRIAL" run exec -t "$TEST_TMP" --no-store >"$out" 2>&1
check "exec without a command: usage error" test $? = 2
check "...showing the form" grep -qF -- "iotrial run exec -t DIR -- CMD ARGS..." "$out"

# compare: a knob varied under the user's program, restored at the end
if [ "$(id -u)" = 0 ]; then
	. "$(dirname "$0")/knob-lib.bash"
	knob_save_vm
	before=$(cat /proc/sys/vm/dirty_ratio)
	"$IOTRIAL" compare exec -t "$TEST_TMP" --vary vm.dirty_ratio=10,40 \
		--runs 4 --no-store --json -- \
		sh -c 'dd if=/dev/zero of={dir}/x bs=1M count=64 2>/dev/null; sync' \
		>"$out.json" 2>"$out.err"
	check "compare exec --vary vm.dirty_ratio=10,40 exits 0" test $? = 0
	check "...with a verdict on wall time for the second arm" python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["metric"]["name"] == "wall", o["metric"]
v = [x for x in o["verdicts"] if x.get("label") == "vm.dirty_ratio=40"]
assert v and v[0]["verdict"], o["verdicts"]
assert len(o["runs"]) == 8, len(o["runs"])
PY
	check "...and vm.dirty_ratio is restored" test "$(cat /proc/sys/vm/dirty_ratio)" = "$before"
fi
