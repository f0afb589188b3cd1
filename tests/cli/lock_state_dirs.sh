#!/usr/bin/env bash
# The settings lock is the machine's, whatever IOTRIAL_STATE_DIR says:
# two compares with different state directories that vary the same knob
# at once must not both change it (the second is refused, naming the
# holder, and the original survives); a compare killed with SIGKILL
# leaves its changes in its state directory's journal, and an iotrial
# with another state directory must not build on them (it is refused,
# naming that directory) until they are restored there. Compares on two
# different devices do not wait for each other. Revert does not restore
# a knob whose lock another holds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
S1=$TEST_TMP/s1
S2=$TEST_TMP/s2
mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
mkloop 64M || skip "cannot make a second loop device"
L2=$LOOP
N2=${L2#/dev/}
RA=/sys/block/$N/queue/read_ahead_kb
RA2=/sys/block/$N2/queue/read_ahead_kb
ra0=$(cat "$RA")
ra20=$(cat "$RA2")
trap 'echo "$ra0" >"$RA"; echo "$ra20" >"$RA2"; knob_cleanup' EXIT
echo 2560 >"$RA"
echo 2560 >"$RA2"

# cmp_in DIR DEV VALUES OUT: a compare of read_ahead_kb in state
# directory DIR, in the background ($!)
cmp_in() {
	IOTRIAL_STATE_DIR=$1 "$IOTRIAL" compare seqread -t "$2" --size 4M \
		--vary "read_ahead_kb=$3" --time 500ms --runs 3 \
		--no-drop-caches --no-store >"$4" 2>&1 &
}
# wait_set DIR: until DIR's journal holds a set record (bounded)
wait_set() {
	local i
	for i in $(seq 1 400); do
		grep -q '^set ' "$1/journal" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# two at once on one device, two state directories
cmp_in "$S1" "$L" 128,4096 "$TEST_TMP/o1"
p1=$!
wait_set "$S1" || fail "the first compare changed read_ahead_kb"
cmp_in "$S2" "$L" 512,1024 "$TEST_TMP/o2"
p2=$!
wait "$p2"
rc2=$?
wait "$p1"
rc1=$?
check "the first compare ends well (exit $rc1)" test "$rc1" = 0
check "the second, with another state directory, is refused (exit $rc2)" \
	test "$rc2" = 1
check "...naming the holder's pid and command" \
	has "$TEST_TMP/o2" "another iotrial (pid $p1, 'compare') is changing"
check "...and the device" has "$TEST_TMP/o2" "changing settings of '$N' now"
check "the original 2560 survives both (now $(cat "$RA"))" \
	test "$(cat "$RA")" = 2560
check "both journals are empty" \
	test ! -e "$S1/journal" -a ! -e "$S2/journal"
check "with nothing journaled, no lock file is left" \
	test ! -e "/run/iotrial/device-$N.lock"

# a compare killed in S1; one in S2 must not build on what it left
cmp_in "$S1" "$L" 128,4096 "$TEST_TMP/o1"
p1=$!
wait_set "$S1" || fail "the first compare changed read_ahead_kb"
sleep 0.3
kill -9 "$p1"
wait "$p1" 2>/dev/null
left=$(cat "$RA")
check "the lock in /run/iotrial names the state directory of the changes" \
	grep -qF "$S1" "/run/iotrial/device-$N.lock"
cmp_in "$S2" "$L" 512,1024 "$TEST_TMP/o2"
p2=$!
wait "$p2"
rc2=$?
check "after a kill, a compare with another state directory is refused (exit $rc2)" \
	test "$rc2" = 1
check "...naming the state directory that holds the changes" \
	has "$TEST_TMP/o2" "$S1"
check "...and changing nothing (still $left, now $(cat "$RA"))" \
	test "$(cat "$RA")" = "$left"
IOTRIAL_STATE_DIR=$S1 "$IOTRIAL" revert >"$TEST_TMP/out" 2>&1
check "revert with the first state directory restores 2560 (now $(cat "$RA"))" \
	test "$(cat "$RA")" = 2560
cmp_in "$S2" "$L" 512,1024 "$TEST_TMP/o2"
p2=$!
wait "$p2"
rc2=$?
check "then the other state directory may change it (exit $rc2)" test "$rc2" = 0
check "and restores it too" test "$(cat "$RA")" = 2560

# two devices: neither waits for the other
cmp_in "$S1" "$L" 128,4096 "$TEST_TMP/o1"
p1=$!
wait_set "$S1" || fail "the first compare changed read_ahead_kb"
cmp_in "$S2" "$L2" 512,1024 "$TEST_TMP/o2"
p2=$!
wait "$p2"
rc2=$?
wait "$p1"
rc1=$?
check "two compares on two devices both run (exits $rc1 and $rc2)" \
	test "$rc1" = 0 -a "$rc2" = 0
check "and both devices are back at 2560" \
	test "$(cat "$RA")" = 2560 -a "$(cat "$RA2")" = 2560

# revert respects the lock too: while another holds it, nothing is
# restored and revert says so
IOTRIAL_STATE_DIR=$S1 "$IOTRIAL" set --device "$L" read_ahead_kb=512 \
	>/dev/null 2>&1
flock "/run/iotrial/device-$N.lock" sleep 3 &
holder=$!
sleep 0.5
IOTRIAL_STATE_DIR=$S1 "$IOTRIAL" revert >"$TEST_TMP/out" 2>&1
rc=$?
check "revert while another holds the lock fails (exit $rc)" test "$rc" = 1
check "...saying the change is left for later" \
	has "$TEST_TMP/out" "is left for later: another iotrial"
check "...and restores nothing (now $(cat "$RA"))" test "$(cat "$RA")" = 512
wait "$holder"
IOTRIAL_STATE_DIR=$S1 "$IOTRIAL" revert >"$TEST_TMP/out" 2>&1
check "once it is free, revert restores 2560 (now $(cat "$RA"))" \
	test "$(cat "$RA")" = 2560
