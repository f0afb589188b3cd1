#!/usr/bin/env bash
# A failed `set` undoes everything it changed, a knob kept by an earlier
# `set` included: it goes back to the value it had before this call (not
# to the first original, and not left at the new value). revert then
# walks back to the first original.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
# loop devices keep their settings from one use to the next
echo 256 >"/sys/block/$N/queue/read_ahead_kb"
echo none >"/sys/block/$N/queue/scheduler" 2>/dev/null
echo 0 >"/sys/block/$N/queue/nomerges"
nr=$(queue "$L" nr_requests)

$IOTRIAL set --device "$L" read_ahead_kb=1024 >"$out" 2>&1
check "set read_ahead_kb=1024 exits 0" test $? = 0
# nr_requests=100000 is more than the kernel allows: the second change
# fails after the first was made
$IOTRIAL set --device "$L" read_ahead_kb=2048 \
	"sysfs:/sys/block/$N/queue/nr_requests=100000" >"$out" 2>&1
rc=$?
check "the failing set exits 2" test "$rc" = 2
check "it says it undoes what was changed" has "$out" "undoing what was changed"
check "read_ahead_kb is back at its value before this set" \
	test "$(queue "$L" read_ahead_kb)" = 1024
check "and it said so" \
	has "$out" "restored 'read_ahead_kb' on '$N': 2048 KiB (2 MiB; blockdev --setra 4096) -> 1024 KiB"
check "nr_requests is unchanged" test "$(queue "$L" nr_requests)" = "$nr"

# a failure in the middle of three, with a kept knob among them
$IOTRIAL set --device "$L" nomerges=2 read_ahead_kb=4096 \
	"sysfs:/sys/block/$N/queue/nr_requests=100000" >"$out" 2>&1
check "a second failing set exits 2" test $? = 2
check "nomerges is back at 0" test "$(queue "$L" nomerges)" = 0
check "read_ahead_kb is back at 1024" test "$(queue "$L" read_ahead_kb)" = 1024

$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "revert brings back the first original" \
	test "$(queue "$L" read_ahead_kb)" = 256
check "and empties the journal" test ! -e "$IOTRIAL_STATE_DIR/journal"

# set twice, then revert: back through both
$IOTRIAL set --device "$L" read_ahead_kb=1024 >"$out" 2>&1 &&
	$IOTRIAL set --device "$L" read_ahead_kb=2048 >"$out" 2>&1
check "two sets in a row exit 0" test $? = 0
$IOTRIAL revert >"$out" 2>&1
check "revert undoes both, back to the first original" \
	test "$(queue "$L" read_ahead_kb)" = 256
