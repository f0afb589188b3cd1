#!/usr/bin/env bash
# iotrial set says how long a change lasts and how to keep it (a udev
# rule for the disk's attributes).
# iotrial revert KNOB ...: only the knobs named come back, on every
# device they were set for; the others stay kept until a plain revert.
# Names are checked (a folklore name gets the knob it means, KNOB=VALUE
# is refused), and a knob the journal does not hold says so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
out=$TEST_TMP/out
orig_sched=$(active_sched "$L")
orig_ra=$(queue "$L" read_ahead_kb)
orig_nr=$(queue "$L" nr_requests)
new_ra=$((orig_ra == 512 ? 1024 : 512))
new_nr=$((orig_nr == 64 ? 32 : 64))

$IOTRIAL set --device "$L" read_ahead_kb=$new_ra nr_requests=$new_nr >"$out" 2>&1
check "set two knobs" test $? = 0
check "read_ahead_kb is set" test "$(queue "$L" read_ahead_kb)" = "$new_ra"
check "set says the change lasts until reboot" grep -q "last until reboot" "$out"
check "...and gives one udev rule for the disk, in apply order" \
	grep -qF "KERNEL==\"${L#/dev/}\", ATTR{queue/nr_requests}=\"$new_nr\", ATTR{queue/read_ahead_kb}=\"$new_ra\"" "$out"

$IOTRIAL revert read_ahead_kb >"$out" 2>&1
check "revert read_ahead_kb exits 0" test $? = 0
check "read_ahead_kb is back" test "$(queue "$L" read_ahead_kb)" = "$orig_ra"
check "nr_requests is still kept" test "$(queue "$L" nr_requests)" = "$new_nr"
$IOTRIAL revert --list >"$out" 2>&1
check "the journal still lists nr_requests" grep -q "nr_requests" "$out"
check "...and no longer read_ahead_kb" bash -c "! grep -q read_ahead_kb '$out'"

$IOTRIAL revert read_ahead_kb >"$out" 2>&1
check "reverting it again: exit 0" test $? = 0
check "...saying the journal holds no kept change of it" \
	grep -qF "no kept change of 'read_ahead_kb'" "$out"

$IOTRIAL revert readahead >"$out" 2>&1
check "a folklore name: usage error" test $? = 2
check "...naming the knob it means" grep -qF "did you mean 'read_ahead_kb'" "$out"
$IOTRIAL revert nr_requests=64 >"$out" 2>&1
check "KNOB=VALUE: usage error" test $? = 2
check "...saying revert takes names" grep -qF "revert takes knob names" "$out"
check "nothing was restored by the bad calls" \
	test "$(queue "$L" nr_requests)" = "$new_nr"

$IOTRIAL revert >"$out" 2>&1
check "a plain revert restores the rest" test "$(queue "$L" nr_requests)" = "$orig_nr"
check "the scheduler was never touched" test "$(active_sched "$L")" = "$orig_sched"
