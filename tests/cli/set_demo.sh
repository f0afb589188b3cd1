#!/usr/bin/env bash
# iotrial set / revert on a loop device of our own, in their everyday
# uses. scheduler=deadline gives mq-deadline with a note;
# read_ahead_kb=4096s gives 2048 KiB (blockdev --getra: 4096);
# atime=noatime then relatime, both verified in mountinfo; bdflush names
# translated; revert brings every original back; --dry-run prints the
# plan in apply order and changes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm

mkloop 128M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
mkmount "$L" || skip "cannot make a file system"
M=$MNT
out=$TEST_TMP/out
orig_sched=$(active_sched "$L")
orig_ra=$(queue "$L" read_ahead_kb)
orig_nr=$(queue "$L" nr_requests)
orig_wb=$(cat /proc/sys/vm/dirty_writeback_centisecs)
offered=" $(tr -d '[]' <"/sys/block/$N/queue/scheduler") "
S=$(other_sched "$L") || skip "'$N' offers one scheduler only"

# --dry-run: the plan, in apply order, and nothing changed
$IOTRIAL set --device "$L" read_ahead_kb=1M nr_requests=64 "scheduler=$S" \
	--dry-run >"$out" 2>&1
check "--dry-run exits 0" test $? = 0
check "the plan puts the scheduler first" \
	grep -q "^  1. 'scheduler' on '$N': $orig_sched -> $S" "$out"
check "then nr_requests, then read-ahead" \
	grep -q "^  3. 'read_ahead_kb' on '$N': .* -> 1024 KiB" "$out"
check "each step names the file written" \
	has "$out" "write '/sys/block/$N/queue/read_ahead_kb'"
check "the plan says the journal is written first" \
	has "$out" "saved to '$IOTRIAL_STATE_DIR/journal' and fsync'd"
check "--dry-run changed nothing" test "$(active_sched "$L")" = "$orig_sched"
check "--dry-run left no journal" test ! -e "$IOTRIAL_STATE_DIR/journal"

# the scheduler: a legacy name, translated with a note
$IOTRIAL set --device "$L" scheduler=deadline >"$out" 2>&1
check "set scheduler=deadline exits 0" test $? = 0
check "the kernel now runs mq-deadline" test "$(active_sched "$L")" = mq-deadline
check "a note says deadline is now mq-deadline" \
	grep -q "^note: scheduler: 'deadline' is the single-queue name.*'mq-deadline'" "$out"
check "the change is printed old -> new" \
	has "$out" "'scheduler' on '$N': $orig_sched -> mq-deadline"

# read-ahead in 512-byte sectors, as blockdev --setra takes it
$IOTRIAL set --device "$L" read_ahead_kb=4096s >"$out" 2>&1
check "set read_ahead_kb=4096s exits 0" test $? = 0
check "read_ahead_kb is 2048" test "$(queue "$L" read_ahead_kb)" = 2048
check "blockdev --getra says 4096" test "$(blockdev --getra "$L")" = 4096
check "the output shows KiB and the blockdev equivalent" \
	has "$out" "-> 2048 KiB (2 MiB; blockdev --setra 4096)"
$IOTRIAL set --device "$L" read_ahead_kb=2MB >"$out" 2>&1
check "2MB is decimal, said so, and rounded to pages" \
	grep -q "2000000 bytes.*1952 KiB" "$out"
check "read_ahead_kb is 1952" test "$(queue "$L" read_ahead_kb)" = 1952

# atime: noatime, then back to relatime (the remount trap)
$IOTRIAL set -t "$M" atime=noatime >"$out" 2>&1
check "set atime=noatime exits 0" test $? = 0
check "mountinfo says noatime" grep -qw noatime <<<"$(mount_opts "$M")"
$IOTRIAL set -t "$M" atime=relatime >"$out" 2>&1
check "set atime=relatime exits 0" test $? = 0
check "mountinfo says relatime, and noatime is gone" \
	test "$(mount_opts "$M")" = rw,relatime
$IOTRIAL set -t "$M" atime=strictatime,lazytime >"$out" 2>&1
check "strictatime,lazytime: neither flag, lazytime in the super options" \
	bash -c "test '$(mount_opts "$M")' = rw && grep -q ' $M .* rw,lazytime' /proc/self/mountinfo"

# bdflush, 2.4's names: translated with a note
$IOTRIAL set bdflush.interval=4s >"$out" 2>&1
check "set bdflush.interval=4s exits 0" test $? = 0
check "a note says it is the 2.4 name of vm.dirty_writeback_centisecs" \
	grep -q "'bdflush.interval' is the Linux 2.4 name of 'vm.dirty_writeback_centisecs'" "$out"
check "vm.dirty_writeback_centisecs is 400" \
	test "$(cat /proc/sys/vm/dirty_writeback_centisecs)" = 400
$IOTRIAL set bdflush.nfract=5 --dry-run >"$out" 2>&1
check "bdflush.nfract is vm.dirty_background_ratio, of available memory" \
	grep -q "vm.dirty_background_ratio'; today's ratio is of available memory" "$out"

# the journal holds the first originals; revert restores all of them
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list shows the kept changes" \
	grep -q "#[0-9]* 'scheduler' on '$N': original $orig_sched" "$out"
$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "the scheduler is back" test "$(active_sched "$L")" = "$orig_sched"
check "read-ahead is back" test "$(queue "$L" read_ahead_kb)" = "$orig_ra"
check "nr_requests is back" test "$(queue "$L" nr_requests)" = "$orig_nr"
check "atime is back to relatime, no lazytime" \
	bash -c "grep -q ' $M rw,relatime - ext4 $L rw\$' /proc/self/mountinfo"
check "vm.dirty_writeback_centisecs is back" \
	test "$(cat /proc/sys/vm/dirty_writeback_centisecs)" = "$orig_wb"
check "revert printed what it restored" \
	has "$out" "restored 'read_ahead_kb' on '$N': 1952 KiB"
check "the journal is gone" test ! -e "$IOTRIAL_STATE_DIR/journal"
$IOTRIAL revert >"$out" 2>&1
check "a second revert has nothing to do" has "$out" "nothing to revert"

# switching the scheduler resets its parameters: they come back too
# (from mq-deadline to bfq, or kyber where the kernel has no bfq)
case $offered in
*" bfq "*) to=bfq param=slice_idle value=0 ;;
*" kyber "*) to=kyber param=read_lat_nsec value=1000000 ;;
*) to= ;;
esac
case $offered in *" mq-deadline "*) ;; *) to= ;; esac
if [ -n "$to" ]; then
	echo mq-deadline >"/sys/block/$N/queue/scheduler"
	echo 300 >"/sys/block/$N/queue/iosched/read_expire"
	echo 64 >"/sys/block/$N/queue/nr_requests"
	$IOTRIAL set --device "$L" "scheduler=$to" "iosched.$param=$value" \
		>"$out" 2>&1
	check "a parameter of the scheduler switched to ($to) is set after the switch" \
		test "$(queue "$L" "iosched/$param")" = "$value"
	$IOTRIAL revert >"$out" 2>&1
	check "revert brings back mq-deadline" test "$(active_sched "$L")" = mq-deadline
	check "with its read_expire" test "$(queue "$L" iosched/read_expire)" = 300
	check "and nr_requests" test "$(queue "$L" nr_requests)" = 64
else
	echo "# '$N' offers no mq-deadline, or neither bfq nor kyber: switching schedulers is not tried"
fi

# all or nothing: a refused write undoes the ones before it
echo none >"/sys/block/$N/queue/scheduler"
ra=$(queue "$L" read_ahead_kb)
$IOTRIAL set --device "$L" read_ahead_kb=512 nr_requests=100000 >"$out" 2>&1
check "a value the kernel refuses is bad input (exit 2)" test $? = 2
check "and says the kernel refused it" \
	has "$out" "the kernel refused '100000' for 'nr_requests'"
check "the read-ahead written before it was rolled back" \
	test "$(queue "$L" read_ahead_kb)" = "$ra"
check "and the journal is empty again" test ! -e "$IOTRIAL_STATE_DIR/journal"
