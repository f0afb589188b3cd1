#!/usr/bin/env bash
# The kill test: a run changes five knobs with --set (scheduler,
# read-ahead, nr_requests, atime, vm.dirty_expire_centisecs) and is
# killed with SIGKILL at a random moment, 20 times; each time the next
# command (iotrial revert) must bring all five back to their originals.
# Any moment counts: before the journal exists, between a journal write
# and the knob write, during the run, during the restore.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm
ROUNDS=${KILLTEST_ROUNDS:-20}

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
SCHED=$(other_sched "$L")
[ -n "$SCHED" ] || skip "the loop device offers no scheduler to switch to"
mkmount "$L" || skip "cannot make a file system"
M=$MNT
mkdir -p "$M/w"
log=$TEST_TMP/run.log
out=$TEST_TMP/out

orig=$(knob_state "$L" "$M")
good=0
changed_seen=0
for i in $(seq 1 "$ROUNDS"); do
	"$IOTRIAL" run seqwrite -t "$M/w" --size 16M --time 2s \
		--set scheduler="$SCHED" --set read_ahead_kb=4096s \
		--set nr_requests=64 --set atime=noatime \
		--set vm.dirty_expire_centisecs=15s >"$log" 2>&1 &
	pid=$!
	ms=$((RANDOM % 2600))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
	[ "$(knob_state "$L" "$M")" != "$orig" ] && changed_seen=$((changed_seen + 1))
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$IOTRIAL" revert >"$out" 2>&1
	rc=$?
	now=$(knob_state "$L" "$M")
	if [ "$rc" = 0 ] && [ "$now" = "$orig" ] &&
		[ ! -e "$IOTRIAL_STATE_DIR/journal" ]; then
		good=$((good + 1))
		echo "# round $i: killed at ${ms} ms: all five restored"
	else
		echo "# round $i: killed at ${ms} ms: NOT restored (revert rc $rc)"
		diff <(echo "$orig") <(echo "$now") | sed 's/^/#   /'
		sed 's/^/#   revert: /' "$out"
		sed 's/^/#   run: /' "$log" | tail -n 20
		"$IOTRIAL" revert >/dev/null 2>&1 # next round starts clean
	fi
	rm -rf "$M"/w/iotrial.* # a killed run leaves its work files
done
echo "# kill test: $good/$ROUNDS restored; changes were visible at $changed_seen kill moments"
check "kill -9 at $ROUNDS random moments: $good/$ROUNDS restored every knob" \
	test "$good" = "$ROUNDS"
check "the kills hit changed state most of the time" \
	test "$changed_seen" -ge $((ROUNDS / 2))
