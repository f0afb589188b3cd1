#!/usr/bin/env bash
# Linux 2.4's bdflush line as people have it from tuning advice, and the
# plan set --dry-run prints for it: each field that has a modern knob
# translated, the others named, each note once, and a value already in
# force shown as unchanged. --dry-run changes nothing, so no root.
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out
wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)

$IOTRIAL set --dry-run "bdflush=80 0 0 0 $wb 3000 90 0 0" >"$out" 2>&1
check "the nine-field line is accepted" test $? = 0
check "nfract is set as vm.dirty_background_ratio" \
	grep -q "'vm.dirty_background_ratio': .* 80\$\|'vm.dirty_background_ratio': 80, unchanged" "$out"
check "nfract_sync is set as vm.dirty_ratio" \
	grep -q "'vm.dirty_ratio': .*90" "$out"
check "the fields without a modern knob are named, with their values" \
	grep -q "ndirty=0 and nfract_stop_bdflush=0 have no modern knob and are not set" "$out"
check "each translation note is printed once" \
	test "$(grep -c "is the Linux 2.4 name of 'vm.dirty_ratio'" "$out")" = 1
check "the line's note is printed once" \
	test "$(grep -c "is Linux 2.4's line" "$out")" = 1
check "the interval already in force is unchanged, not a change" \
	grep -q "'vm.dirty_writeback_centisecs': $wb centiseconds .*, unchanged (already in force)" "$out"
check "and is not counted as one" \
	grep -q "^plan: [0-9] changes\? and [1-9] values\? already in force" "$out"

$IOTRIAL set --dry-run bdflush.nfract=10 >"$out" 2>&1
check "a single field's note is printed once" \
	test "$(grep -c "Linux 2.4 name" "$out")" = 1

$IOTRIAL set --dry-run "bdflush=80 x" >"$out" 2>&1
check "a field that is not a number is refused (exit 2)" test $? = 2
check "naming the field" grep -q "field 2 (ndirty) is 'x'" "$out"
$IOTRIAL compare seqread --vary bdflush.ndirty=1,2 --no-store >"$out" 2>&1
check "a field without a modern knob is refused (exit 2)" test $? = 2
check "saying so and naming the fields that have one" \
	grep -q "'bdflush.ndirty' has no modern knob.*bdflush.nfract_sync" "$out"
