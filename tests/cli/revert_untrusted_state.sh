#!/usr/bin/env bash
# The journal decides what is written back as root and what is deleted,
# so a state directory, journal or lock that someone else could have put
# there is refused: a journal planted in a world-writable state directory
# restores nothing and deletes nothing, and every message says what is
# wrong and how to fix it. Links are never followed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
S=$IOTRIAL_STATE_DIR
J=$S/journal
BOOT=$(cat /proc/sys/kernel/random/boot_id)

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
ID="$(cat /sys/block/$N/dev)%20diskseq%20$(cat /sys/block/$N/diskseq)"
# loop devices keep their settings from one use to the next
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
echo 0 >"/sys/block/$N/queue/nomerges"
echo precious >"$TEST_TMP/victim"
mkdir -p "$TEST_TMP/iotrial-scratch."

# what someone planted: a knob to write and a file to delete (a set
# line of the previous format, which this iotrial still reads)
plant() {
	forge_journal "$J" <<EOF2
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 128
scr 3 1 file $TEST_TMP/iotrial-scratch./../victim %
EOF2
}
# untouched: the knob, the victim and the journal are as planted
untouched() {
	test "$(queue "$L" read_ahead_kb)" = 1024 &&
		test "$(cat "$TEST_TMP/victim")" = precious &&
		cmp -s "$J" "$TEST_TMP/planted"
}

plant
cp "$J" "$TEST_TMP/planted"
chmod 777 "$S"
$IOTRIAL knobs >"$out" 2>&1
check "a world-writable state dir: the command still runs" test $? = 0
check "nothing is restored, nothing deleted" untouched
check "the warning says what is wrong" \
	has "$out" "the state directory '$S' is writable by others (mode 0777)"
check "and how to fix it" has "$out" "chown root: '$S'; chmod go-w '$S'"
$IOTRIAL revert >"$out" 2>&1
check "revert refuses it (exit 1)" test $? = 1
check "revert changed nothing either" untouched
$IOTRIAL set --device "$L" nomerges=1 >"$out" 2>&1
check "set refuses to change anything there" test $? = 1
check "and nothing was set" test "$(queue "$L" nomerges)" = 0
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list refuses it too" has "$out" "writable by others"
chmod 775 "$S"
$IOTRIAL knobs >"$out" 2>&1
check "writable by its group: refused too" \
	has "$out" "is writable by its group (mode 0775)"
check "still untouched" untouched
chmod 755 "$S"

# owned by someone else
chown 65534 "$S"
$IOTRIAL knobs >"$out" 2>&1
check "a state dir of another user is refused" \
	has "$out" "the state directory '$S' belongs to uid 65534, not to root"
check "still untouched" untouched
chown 0 "$S"

# the journal itself: another user's, writable by others, a link
chown 65534 "$J"
$IOTRIAL knobs >"$out" 2>&1
check "a journal of another user is refused" \
	has "$out" "the journal '$J' belongs to uid 65534"
check "still untouched" untouched
chown 0 "$J"
chmod 666 "$J"
$IOTRIAL knobs >"$out" 2>&1
check "a journal others can write is refused" \
	has "$out" "the journal '$J' is writable by others (mode 0666)"
check "still untouched" untouched
chmod 644 "$J"
mv "$J" "$TEST_TMP/planted.real"
ln -s "$TEST_TMP/planted.real" "$J"
$IOTRIAL knobs >"$out" 2>&1
check "a journal that is a link is refused" \
	has "$out" "the journal '$J' is a symbolic link"
check "the knob is untouched" test "$(queue "$L" read_ahead_kb)" = 1024
check "the victim is untouched" test "$(cat "$TEST_TMP/victim")" = precious
rm -f "$J"

# a lock that is a link: never followed, never truncated
ln -sf "$TEST_TMP/victim" "$S/lock"
$IOTRIAL set --device "$L" nomerges=1 >"$out" 2>&1
check "a lock that is a link makes set fail" test $? = 1
check "saying so" has "$out" "the lock file '$S/lock' is a symbolic link"
check "the file it points to is untouched" \
	test "$(cat "$TEST_TMP/victim")" = precious
check "and nothing was set" test "$(queue "$L" nomerges)" = 0
rm -f "$S/lock"

# the state directory a link
mv "$S" "$TEST_TMP/state.real"
ln -s "$TEST_TMP/state.real" "$S"
$IOTRIAL set --device "$L" nomerges=1 >"$out" 2>&1
check "a state directory that is a link makes set fail" test $? = 1
check "saying so" has "$out" "the state directory '$S' is a symbolic link"
rm -f "$S"
mv "$TEST_TMP/state.real" "$S"

# put right, a journal there is honoured
forge_journal "$J" <<EOF2
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 128
EOF2
recover_now # a command that changes the system recovers first
check "a trusted journal is restored" test "$(queue "$L" read_ahead_kb)" = 128
