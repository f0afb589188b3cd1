#!/usr/bin/env bash
# compare with knobs (root): the scheduler varied on a loop device and on
# a scratch target, restored afterwards; and kill -9 in the middle of a
# compare that varies a vm.dirty knob: the store stays intact and the
# next command restores the knob.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v sqlite3 >/dev/null || skip "needs the sqlite3 command"
knob_save_vm

mkloop 512M || skip "cannot make a loop device"
L=$LOOP
dev=${L#/dev/}
sched0=$(active_sched "$L")
"$IOTRIAL" compare randread --vary scheduler=none,mq-deadline -t "$L" \
	--size=64M --direct=1 --ios 2000 --runs 4 --quiet \
	--json="$TEST_TMP/sched.json" >"$TEST_TMP/sched.out" 2>&1
rc=$?
check "scheduler compare on a loop device runs (rc=$rc)" test $rc = 0
check "the scheduler is back to '$sched0'" test "$(active_sched "$L")" = "$sched0"
check "each run recorded its arm's scheduler" python3 - "$TEST_TMP/sched.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for r in o["runs"]:
    arm = o["arms"][r["arm"]]
    assert r["run"]["knobs"]["scheduler"] == arm["settings"]["scheduler"], r["run"]["knobs"]
assert o["factors"][0]["kind"] == "knob"
PY

# its scratch image is named for its pid (iotrial-scratch.PID-XXXXXX):
# only a loop device over that image would be its own leftover, whatever
# other loop devices come and go on the machine meanwhile
"$IOTRIAL" compare randread --vary scheduler=none,mq-deadline \
	-t scratch:256M --size=32M --direct=1 --ios 1000 --runs 4 --quiet \
	--no-store >"$TEST_TMP/scratch.out" 2>&1 &
cpid=$!
wait "$cpid"
rc=$?
check "scheduler compare on scratch:256M runs end to end (rc=$rc)" test $rc = 0
check "the scratch loop device is gone" \
	bash -c '! losetup -a | grep -qF "iotrial-scratch.$1-"' _ "$cpid"
check "the verdict table was printed" grep -q 'scheduler=mq-deadline' "$TEST_TMP/scratch.out"

# kill -9 in the middle, three times at different moments
db=$TEST_TMP/kill.db
orig=$(cat /proc/sys/vm/dirty_expire_centisecs)
alt=$((orig + 100))
dir=$TEST_TMP/kdir
mkdir -p "$dir"
good=0
for ms in 700 1900 3300; do
	setsid "$IOTRIAL" compare randwrite --vary vm.dirty_expire_centisecs=$orig,$alt \
		-t "$dir" --size=8M --ios 300 --runs 30 --quiet --db "$db" \
		>/dev/null 2>&1 &
	pid=$!
	sleep "$(awk "BEGIN{print $ms/1000}")"
	kill -9 -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$IOTRIAL" revert >/dev/null 2>&1 # a command that changes the system repairs
	if [ "$(cat /proc/sys/vm/dirty_expire_centisecs)" = "$orig" ]; then
		good=$((good + 1))
	else
		echo "# after kill at ${ms}ms: $(cat /proc/sys/vm/dirty_expire_centisecs), want $orig"
	fi
	rm -rf "${dir:?}"/iotrial.*
done
check "kill -9 of compare: the knob is restored by the next command ($good/3)" test $good = 3
# a completed experiment, then the integrity check of what the kills left
"$IOTRIAL" compare randwrite --vary vm.dirty_expire_centisecs=$orig,$alt \
	-t "$dir" --size=8M --ios 200 --runs 4 --quiet --db "$db" >/dev/null 2>&1
check "compare after the kills still saves to the store" \
	test "$(sqlite3 "$db" 'select count(*) from experiments')" -ge 1
check "the store passes PRAGMA integrity_check" \
	test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok
check "vm.dirty_expire_centisecs is at its original value" \
	test "$(cat /proc/sys/vm/dirty_expire_centisecs)" = "$orig"
