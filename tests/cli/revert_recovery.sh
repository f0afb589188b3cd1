#!/usr/bin/env bash
# Recovery at the start of every command that changes the system (run,
# compare, set, apply, revert), from journals written the way a crashed
# iotrial leaves them; the read-only commands (knobs, info, log, show,
# report, set --dry-run) only say what was left and change nothing. Same
# boot, the changes are restored and said so; after a reboot, they no longer apply and each is named
# (scratch files on disk are still removed); a device that was replaced
# is not touched; a torn last line is reported and cut; without root,
# only a warning. Nothing to recover prints nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
J=$IOTRIAL_STATE_DIR/journal
BOOT=$(cat /proc/sys/kernel/random/boot_id)

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
ID="$(cat /sys/block/$N/dev)%20diskseq%20$(cat /sys/block/$N/diskseq)"

$IOTRIAL revert >"$out" 2>&1
check "revert with no journal: nothing to do" has "$out" "nothing to revert"
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list with no journal" has "$out" "holds nothing to restore"

# same boot, owner gone: restored by any command, and said so
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 512
EOF
# read-only commands: say so, change nothing (the journal, the knob)
for cmd in "knobs" "knobs --json" "info" "log" "set --device $L read_ahead_kb=64 --dry-run"; do
	# shellcheck disable=SC2086 # the words of the command
	$IOTRIAL $cmd >"$out" 2>&1
	check "'$cmd' restores nothing a dead iotrial left" \
		eval 'test "$(queue "$L" read_ahead_kb)" = 1024 && test -s "$J"'
	check "'$cmd' says what was left and what restores it" \
		has "$out" "warning: 1 setting left by iotrial pid 999999 (ended); 'iotrial revert' restores it"
done
recover_now
check "a command that changes the system restores what a dead iotrial left" \
	test "$(queue "$L" read_ahead_kb)" = 512
check "and says whose changes it restored" \
	has "$out" "note: iotrial pid 999999 ('run') is gone and left changes behind"
check "and what it restored" \
	has "$out" "note: restored 'read_ahead_kb' on '$N': 1024 KiB"
check "the journal is gone afterwards" test ! -e "$J"
$IOTRIAL knobs >"$out" 2>&1
check "with nothing to recover, a read-only command prints nothing on stderr" \
	bash -c "! grep -q '^note\|^warning' '$out'"

# a previous boot: no longer applies, named, not restored
ratio=$(cat /proc/sys/vm/dirty_ratio)
mkdir -p "$TEST_TMP/iotrial-scratch.1-00a1d0"
touch "$TEST_TMP/iotrial-scratch.1-00a1d0/disk.img"
forge_journal "$J" <<EOF
own 1 4242 1 1700000000 00000000-0000-0000-0000-000000000000 run
scr 2 1 dir $TEST_TMP/iotrial-scratch.1-00a1d0 %
scr 3 1 file $TEST_TMP/iotrial-scratch.1-00a1d0/disk.img %
scr 4 1 loop /dev/loop99 $TEST_TMP/iotrial-scratch.1-00a1d0/disk.img
set 5 1 vm.dirty_ratio vm.dirty system system % 7
EOF
recover_now
check "after a reboot the change is named and no longer applies" \
	has "$out" "'vm.dirty_ratio' (it was 7) was changed before the last reboot; that change no longer applies"
check "and vm.dirty_ratio was not touched" \
	test "$(cat /proc/sys/vm/dirty_ratio)" = "$ratio"
check "the loop device of the old boot is named too" \
	has "$out" "scratch loop '/dev/loop99' was changed before the last reboot"
check "scratch files left on disk are still removed" \
	test ! -e "$TEST_TMP/iotrial-scratch.1-00a1d0"
check "the journal is empty again" test ! -e "$J"

# a replaced device (other disk sequence): not touched
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N 7:99%20diskseq%201 512
EOF
recover_now
check "a device that is not the one journaled is left alone" \
	test "$(queue "$L" read_ahead_kb)" = 1024
check "and the note says why" has "$out" "no longer applies ('$N' is not the device it was"

# a knob this iotrial does not know (a newer one wrote it): kept, warned
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
set 2 1 frobnicate frobnicate system system % 5
EOF
recover_now
check "an unknown knob in the journal is not dropped" test -e "$J"
check "and the warning says why" \
	has "$out" "this iotrial does not know the knob 'frobnicate'"
rm -f "$J"

# kept by `iotrial set`: stays until revert, even with the owner gone
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT set
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 256
keep 3 1
EOF
recover_now
check "kept changes are not undone by recovery" \
	test "$(queue "$L" read_ahead_kb)" = 1024
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list shows the kept change with its original" \
	has "$out" "'read_ahead_kb' on '$N': original 256 KiB"
check "and who kept it" has "$out" "made by 'iotrial set' (pid 999999"

# without root: a warning, nothing changed, and root repairs it later
rm -f "$J"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 512
EOF
chmod 755 "$TEST_TMP" "$IOTRIAL_STATE_DIR"
chmod 644 "$J"
as_nobody "$IOTRIAL" knobs >"$out" 2>&1
check "non-root: the command still works" test $? = 0
check "non-root: a warning says to run revert as root" \
	has "$out" "holds 1 change left by iotrial pid 999999, which is gone; run 'iotrial revert' as root"
check "non-root: nothing was restored" test "$(queue "$L" read_ahead_kb)" = 1024
$IOTRIAL revert >"$out" 2>&1
check "root: restored" test "$(queue "$L" read_ahead_kb)" = 512
chmod 700 "$TEST_TMP"

# a torn last line (a crash mid-append): reported and cut, the rest kept
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT set
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 128
keep 3 1
EOF
printf 'set 4 1 nr_requests nr_req' >>"$J"
$IOTRIAL set --device "$L" nomerges=0 >"$out" 2>&1
check "a torn last line is not corruption" test $? = 0
check "it is reported" has "$out" "line 5) was cut short by a crash before its change was made"
check "and cut off" bash -c "! grep -q nr_req '$J'"
$IOTRIAL revert >"$out" 2>&1
check "the kept change before it is still restored" \
	test "$(queue "$L" read_ahead_kb)" = 128
