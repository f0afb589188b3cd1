#!/usr/bin/env bash
# Recovery takes scratch paths from the journal only in the exact shape
# iotrial makes them (TMPDIR/iotrial-scratch.PID-XXXXXX, its disk.img and
# mnt, /dev/loopN backed by that disk.img), reached without following a
# symbolic link and owned by the user: a record naming anything else
# ("..", extra components, a link, someone else's directory, another
# loop device or mount) touches nothing, is retired and is warned about.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
J=$IOTRIAL_STATE_DIR/journal
BOOT=$(cat /proc/sys/kernel/random/boot_id)
V=$TEST_TMP/victim

# recover NAME: revert, which changes the system, runs recovery; it must leave the victim
# files alone, retire the records and warn about each
recover() {
	local name=$1 n
	n=$(grep -c '^scr' "$J")
	"$IOTRIAL" revert >"$out" 2>&1 # a command that changes the system repairs
	check "$name: the victim files are intact" \
		test "$(cat "$V/victim.txt" "$V/d/disk.img" 2>&1)" = "$(printf 'keep\nkeep-img')"
	check "$name: the empty victim directory is still there" test -d "$V/empty"
	check "$name: every record was warned about ($n)" \
		test "$(grep -c 'which was left alone' "$out")" = "$n"
	check "$name: and retired" test ! -e "$J"
	grep -q 'which was left alone' "$out" || sed 's/^/#   /' "$out"
}

mkdir -p "$V/empty" "$V/d"
echo keep >"$V/victim.txt"
printf keep-img >"$V/d/disk.img"

# ".." and extra components, in the shapes of the image and directory
# (the directories exist, as a planted journal's author would make them,
# so that ".." resolves)
mkdir -p "$TEST_TMP/iotrial-scratch." "$TEST_TMP/iotrial-scratch.1-abcdef/x"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 file $TEST_TMP/iotrial-scratch./../victim/victim.txt %
scr 3 1 file $TEST_TMP/iotrial-scratch.1-abcdef/../victim/victim.txt %
scr 4 1 dir $TEST_TMP/iotrial-scratch.1-abcdef/../victim/empty %
scr 5 1 file $TEST_TMP/iotrial-scratch.1-abcdef/../../$(basename "$TEST_TMP")/victim/d/disk.img %
scr 6 1 file $V/d/disk.img %
scr 7 1 dir $V/empty %
scr 8 1 file $TEST_TMP/iotrial-scratch.1-abcdef/x/disk.img %
scr 9 1 file iotrial-scratch.1-abcdef/disk.img %
scr 10 1 file $TEST_TMP//iotrial-scratch.1-abcdef/disk.img %
EOF
recover "'..', extra components, wrong shapes"

# a link in the place of a scratch directory
ln -s "$V/d" "$TEST_TMP/iotrial-scratch.2-abcdef"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 file $TEST_TMP/iotrial-scratch.2-abcdef/disk.img %
scr 3 1 dir $TEST_TMP/iotrial-scratch.2-abcdef %
EOF
recover "a symbolic link as the scratch directory"
check "the link itself is left too" test -L "$TEST_TMP/iotrial-scratch.2-abcdef"
rm -f "$TEST_TMP/iotrial-scratch.2-abcdef"

# a link on the way to it
mkdir -p "$V/sub/iotrial-scratch.3-abcdef"
printf x >"$V/sub/iotrial-scratch.3-abcdef/disk.img"
ln -s "$V/sub" "$TEST_TMP/hop"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 file $TEST_TMP/hop/iotrial-scratch.3-abcdef/disk.img %
EOF
recover "a symbolic link on the way"
check "the file behind the link is left" test -e "$V/sub/iotrial-scratch.3-abcdef/disk.img"

# the right shape, but another user's directory
mkdir -p "$TEST_TMP/iotrial-scratch.4-abcdef"
printf x >"$TEST_TMP/iotrial-scratch.4-abcdef/disk.img"
chown -R 65534:65534 "$TEST_TMP/iotrial-scratch.4-abcdef"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 file $TEST_TMP/iotrial-scratch.4-abcdef/disk.img %
scr 3 1 dir $TEST_TMP/iotrial-scratch.4-abcdef %
EOF
recover "another user's directory"
check "its file is left" test -e "$TEST_TMP/iotrial-scratch.4-abcdef/disk.img"

# a loop device and a mount that are not a scratch target's
mkloop 32M || skip "cannot make a loop device"
L=$LOOP
img=$(losetup -nO BACK-FILE "$L")
mkloop 32M || skip "cannot make a loop device"
L2=$LOOP
mkfs.ext4 -q -F "$L2" >/dev/null 2>&1 || skip "cannot make a file system"
M=$TEST_TMP/iotrial-scratch.6/mnt
mkdir -p "$M"
mount "$L2" "$M" || skip "cannot mount"
TEST_MOUNTS+=("$M")
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 loop $L $img
scr 3 1 mount $M $L2
scr 4 1 mount $TEST_TMP/iotrial-scratch.1-abcdef/../iotrial-scratch.6/mnt $L2
scr 5 1 loop /dev/../dev/${L#/dev/} $img
EOF
recover "another loop device and mount"
check "the loop device is still attached" \
	test "$(losetup -nO BACK-FILE "$L")" = "$img"
check "the file system is still mounted" mountpoint -q "$M"

# what iotrial does make is still removed
S=$TEST_TMP/iotrial-scratch.5-0a1b2c
mkdir -m 700 "$S"
printf x >"$S/disk.img"
mkdir -m 700 "$S/mnt"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
scr 2 1 dir $S %
scr 3 1 file $S/disk.img %
scr 4 1 dir $S/mnt %
EOF
"$IOTRIAL" revert >"$out" 2>&1
check "a real scratch leftover is removed" test ! -e "$S"
check "and said so" has "$out" "deleted scratch image '$S/disk.img'"
check "without a warning" bash -c "! grep -q '^warning' '$out'"
check "the journal is empty again" test ! -e "$J"
