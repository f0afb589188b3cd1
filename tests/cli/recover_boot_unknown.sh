#!/usr/bin/env bash
# A boot id that cannot be read means "cannot tell", not "rebooted":
# recovery keeps the records of changes that a reboot would undo, says
# why, and restores them once the boot id reads again; the records of a
# run still going stay its own. The boot id is hidden in a mount
# namespace of the test's own (a tmpfs over /proc/sys/kernel/random).
# Also: `revert` after a killed run gives one account of what it did.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
unshare -m --propagation private true 2>/dev/null || skip "cannot make a mount namespace"
out=$TEST_TMP/out
J=$IOTRIAL_STATE_DIR/journal
BOOT=$(cat /proc/sys/kernel/random/boot_id)

# no_boot_id CMD...: CMD where the boot id file cannot be read
no_boot_id() {
	unshare -m --propagation private sh -c \
		'mount -t tmpfs iotrial-test /proc/sys/kernel/random && exec "$@"' sh "$@"
}
no_boot_id sh -c '! cat /proc/sys/kernel/random/boot_id' 2>/dev/null ||
	skip "cannot hide the boot id"

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
ID="$(cat /sys/block/$N/dev)%20diskseq%20$(cat /sys/block/$N/diskseq)"

# 1. this boot's change, its owner gone, the boot id unreadable
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 512
EOF
no_boot_id "$IOTRIAL" revert >"$out" 2>&1
check "unreadable boot id: the change is not retired as if rebooted" \
	bash -c "! grep -q 'before the last reboot' '$out'"
check "the record stays in the journal" grep -q '^set 2 ' "$J"
check "the knob is left as it is" test "$(queue "$L" read_ahead_kb)" = 1024
check "and it says why" has "$out" "cannot tell whether the machine rebooted"
check "naming the boot id file" has "$out" "boot id cannot be read (/proc/sys/kernel/random/boot_id)"
"$IOTRIAL" revert >"$out" 2>&1
check "once the boot id reads again, the change is restored" \
	test "$(queue "$L" read_ahead_kb)" = 512
check "and the journal is empty" test ! -e "$J"

# 2. a record written when the boot id could not be read
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
forge_journal "$J" <<EOF
own 1 999999 1 1700000000 unknown run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID 512
EOF
"$IOTRIAL" revert >"$out" 2>&1
check "a record of an unknown boot is kept too" grep -q '^set 2 ' "$J"
check "the knob is left as it is" test "$(queue "$L" read_ahead_kb)" = 1024
check "and it says that iotrial could not read the boot id" \
	has "$out" "that iotrial could not read the boot id"
rm -f "$J"
echo 512 >"/sys/block/$N/queue/read_ahead_kb"

# 3. a run still going, and an iotrial that cannot read the boot id
mkmount "$L" || skip "cannot make a file system"
mkdir -p "$MNT/w"
"$IOTRIAL" run seqread -t "$MNT/w" --size 8M --time 3s --set read_ahead_kb=2048 \
	--no-store >"$TEST_TMP/run.out" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
	[ "$(queue "$L" read_ahead_kb)" = 2048 ] && break
	sleep 0.05
done
no_boot_id "$IOTRIAL" revert >"$out" 2>&1
check "the running run's change is left alone" \
	test "$(queue "$L" read_ahead_kb)" = 2048
check "and its record is live: neither undone nor dropped by the other" \
	bash -c "grep -q '^set .* read_ahead_kb ' '$J' && ! grep -q '^\(undo\|drop\) ' '$J'"
wait "$pid"
check "the run restores it itself" test "$(queue "$L" read_ahead_kb)" = 512
check "and leaves no journal" test ! -e "$J"

# 4. revert after a killed run: one account, on stdout and stderr alike
"$IOTRIAL" run seqwrite -t "$MNT/w" --size 8M --time 10s --no-store >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
	ls "$MNT"/w/iotrial.*/* >/dev/null 2>&1 && break
	sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
"$IOTRIAL" revert >"$out" 2>"$TEST_TMP/err"
check "revert removed the killed run's work directory and says so" \
	has "$TEST_TMP/err" "removed the leftover work directory"
check "stdout does not contradict it with 'nothing to revert'" \
	bash -c "! grep -q 'nothing to revert' '$out'"
check "stdout says what the journal held" \
	has "$out" "settled what a gone iotrial left behind (1 record"
exit 0
