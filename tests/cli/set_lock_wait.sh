#!/usr/bin/env bash
# The lock a run holds for a few milliseconds at its start and end must
# not make `set` fail: set waits up to 2 s for it. A holder that keeps it
# longer (a compare) still gets "another iotrial ... is changing
# settings now", and nothing is changed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v flock >/dev/null || skip "needs flock(1)"
mkloop 64M || skip "cannot make a loop device"
L=$LOOP
out=$TEST_TMP/out
orig_ra=$(queue "$L" read_ahead_kb)
new_ra=$((orig_ra == 512 ? 1024 : 512))

# make the state directory and its lock as iotrial would
"$IOTRIAL" set --device "$L" read_ahead_kb="$orig_ra" >/dev/null 2>&1
"$IOTRIAL" revert >/dev/null 2>&1
lock=$IOTRIAL_STATE_DIR/lock
check "the state directory has its lock" test -f "$lock"

flock "$lock" sleep 0.5 &
holder=$!
sleep 0.1
"$IOTRIAL" set --device "$L" read_ahead_kb="$new_ra" >"$out" 2>&1
rc=$?
wait "$holder"
check "set while the lock is held for 0.5 s: it waits and succeeds (got $rc)" \
	test "$rc" = 0
check "...and the value is set" test "$(queue "$L" read_ahead_kb)" = "$new_ra"
"$IOTRIAL" revert >/dev/null 2>&1
check "revert puts it back" test "$(queue "$L" read_ahead_kb)" = "$orig_ra"

flock "$lock" sleep 4 &
holder=$!
sleep 0.1
"$IOTRIAL" set --device "$L" read_ahead_kb="$new_ra" >"$out" 2>&1
rc=$?
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
check "a lock held longer: set gives up (exit $rc)" test "$rc" != 0
check "...saying another iotrial is changing settings" \
	grep -q "is changing settings now" "$out"
check "...and changed nothing" test "$(queue "$L" read_ahead_kb)" = "$orig_ra"
