#!/usr/bin/env bash
# A knob iotrial set to the value it already had (or whose last arm was
# the original) is not "restored 256 KiB -> 256 KiB": revert says it
# holds its original again. A real change is still restored and said so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
# loop devices keep their settings from one use to the next
echo 256 >"/sys/block/$N/queue/read_ahead_kb"

$IOTRIAL set --device "$L" read_ahead_kb=256 >"$out" 2>&1
check "set to the value it has exits 0" test $? = 0
$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "revert does not call it a change" \
	test -z "$(grep -- "-> 256 KiB" "$out")"
check "it says the knob holds its original again" \
	has "$out" "'read_ahead_kb' on '$N' holds its original 256 KiB (256 KiB; blockdev --setra 512) again; nothing to restore"

$IOTRIAL set --device "$L" read_ahead_kb=1024 >"$out" 2>&1
$IOTRIAL revert >"$out" 2>&1
check "a real change is restored and said so" \
	has "$out" "restored 'read_ahead_kb' on '$N': 1024 KiB (1 MiB; blockdev --setra 2048) -> 256 KiB"
check "read_ahead_kb is back at 256" test "$(queue "$L" read_ahead_kb)" = 256
