#!/usr/bin/env bash
# Read-only commands must not get in the way of `set`: with a journal in
# place (a change kept by `set`), `iotrial log` and `iotrial knobs` run in
# loops while `set` is called 40 times; every set succeeds, since a
# command with nothing to recover reads the journal without the lock.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out
ROUNDS=40

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
echo 256 >"/sys/block/$N/queue/read_ahead_kb"
$IOTRIAL set --device "$L" read_ahead_kb=512 >"$out" 2>&1
check "a kept change puts a journal in place" \
	test -e "$IOTRIAL_STATE_DIR/journal"

reader() {
	while [ ! -e "$TEST_TMP/stop" ]; do
		"$IOTRIAL" "$@" >/dev/null 2>&1
	done
}
reader log &
r1=$!
reader knobs --device "$L" &
r2=$!
failed=0
for i in $(seq 1 "$ROUNDS"); do
	if ! $IOTRIAL set --device "$L" read_ahead_kb=$((1024 * (1 + i % 2))) \
		>"$out" 2>&1; then
		failed=$((failed + 1))
		sed 's/^/# set failed: /' "$out"
	fi
done
touch "$TEST_TMP/stop"
wait "$r1" "$r2"
check "$ROUNDS set calls beside readers in loops: $failed failed" \
	test "$failed" = 0
$IOTRIAL revert >"$out" 2>&1
check "revert brings back the original" test "$(queue "$L" read_ahead_kb)" = 256
