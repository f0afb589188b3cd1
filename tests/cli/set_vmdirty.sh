#!/usr/bin/env bash
# The twin trap: writing vm.dirty_bytes zeroes vm.dirty_ratio (and the
# reverse). Restoring "the original dirty_bytes" (0) would leave the
# ratio at 0; the journal records which twin was active and restores
# that one. These are machine-wide settings: every value is recorded
# first and put back by the EXIT trap whatever happens.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm
before=$(knob_vm_now)
out=$TEST_TMP/out
ratio=$(cat /proc/sys/vm/dirty_ratio)
bytes=$(cat /proc/sys/vm/dirty_bytes)
bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
[ "$bytes" = 0 ] || skip "vm.dirty_bytes is in use on this machine"

$IOTRIAL set vm.dirty_bytes=256MiB >"$out" 2>&1
check "set vm.dirty_bytes=256MiB exits 0" test $? = 0
check "vm.dirty_bytes is 268435456" \
	test "$(cat /proc/sys/vm/dirty_bytes)" = 268435456
check "the kernel zeroed vm.dirty_ratio" \
	test "$(cat /proc/sys/vm/dirty_ratio)" = 0
check "the journal saved the active twin: the ratio, and what was written" \
	grep -q " vm.dirty_bytes vm.dirty system system % vm.dirty_ratio=$ratio 268435456 c=" \
	"$IOTRIAL_STATE_DIR/journal"
$IOTRIAL set vm.dirty_ratio=30 >"$out" 2>&1
check "setting the other twin journals the bytes it replaces" \
	grep -q " vm.dirty_ratio vm.dirty system system % vm.dirty_bytes=268435456 30 c=" \
	"$IOTRIAL_STATE_DIR/journal"
check "and keeps the first original" \
	grep -q " vm.dirty_bytes vm.dirty system system % vm.dirty_ratio=$ratio 268435456 c=" \
	"$IOTRIAL_STATE_DIR/journal"
$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "vm.dirty_ratio is back at its original $ratio" \
	test "$(cat /proc/sys/vm/dirty_ratio)" = "$ratio"
check "vm.dirty_bytes is back at 0" test "$(cat /proc/sys/vm/dirty_bytes)" = 0

# the same through a run: --set for the run only
mkdir -p "$TEST_TMP/w"
$IOTRIAL run seqwrite -t "$TEST_TMP/w" --size 8M --time 300ms \
	--set vm.dirty_background_bytes=64MiB >"$out" 2>&1
check "run --set vm.dirty_background_bytes exits 0" test $? = 0
check "it said what it set for the run" \
	has "$out" "'vm.dirty_background_bytes': 0 (off: 'vm.dirty_background_ratio' applies) -> 67108864 (64 MiB) (for this run)"
check "after the run vm.dirty_background_ratio is back" \
	test "$(cat /proc/sys/vm/dirty_background_ratio)" = "$bg_ratio"
check "and vm.dirty_background_bytes is 0" \
	test "$(cat /proc/sys/vm/dirty_background_bytes)" = 0
check "every vm.dirty_* value is as before" test "$(knob_vm_now)" = "$before"
