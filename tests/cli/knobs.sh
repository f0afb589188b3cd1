#!/usr/bin/env bash
# iotrial knobs: lists every knob of a target with value, unit, allowed
# values, scope and notes; read-only, so it works without root and with
# a state directory it cannot write. The root part uses a loop device of
# its own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"

out=$TEST_TMP/out
err=$TEST_TMP/err

$IOTRIAL knobs >"$out" 2>"$err"
check "knobs without a target exits 0" test $? = 0
check "it lists the vm.dirty knobs" has "$out" "vm.dirty_background_bytes"
check "it says device knobs need --device or -t" \
	has "$out" "give --device DEV or -t TARGET"
check "it names the escape hatches" has "$out" "sysctl:NAME"
check "nothing is printed on stderr (no journal, nothing to recover)" \
	test ! -s "$err"

$IOTRIAL knobs --json >"$out" 2>"$err"
check "--json exits 0" test $? = 0
check "--json is an object with knobs" jqe '.knobs | length >= 7' "$out"
check "a knob has value, unit, allowed, scope, notes" jqe \
	'.knobs[] | select(.name == "vm.dirty_bytes") |
	 .unit == "bytes" and .scope == "system" and (.notes | length) > 0
	 and (.value | test("^[0-9]+$"))' "$out"
check "legacy bdflush names are listed" jqe \
	'.knobs[] | select(.name == "vm.dirty_ratio") |
	 .legacy_names == ["bdflush.nfract_sync"]' "$out"
check "the missing device is explained" jqe \
	'.device == null and (.unavailable.device | length) > 0' "$out"
check "the names a device and a mount would add are listed" jqe \
	'(.unavailable_knobs | index("scheduler") != null) and
	 (.unavailable_knobs | index("nr_requests") != null) and
	 (.unavailable_knobs | index("atime") != null) and
	 (.unavailable_knobs | index("vm.dirty_ratio") == null)' "$out"

# /dev/shm is a tmpfs, or (a chroot given a plain bind of /dev) a
# directory of the devtmpfs on /dev, which statfs also calls tmpfs: the
# reason names the file system the mount table lists
shm_fs=$(findmnt -n -o FSTYPE --target /dev/shm 2>/dev/null)
shm_fs=${shm_fs:-tmpfs}
$IOTRIAL knobs -t /dev/shm >"$out" 2>&1
check "a tmpfs directory has no device knobs, and says why" \
	has "$out" "'$shm_fs' file system, which has no block device"
check "a tmpfs directory still has atime" grep -q '^atime ' "$out"

$IOTRIAL knobs --device /dev/iotrial-nonexistent >"$out" 2>&1
check "a device that does not exist is a usage error" test $? = 2
check "and the message says so" has "$out" "does not exist"
$IOTRIAL knobs --device /etc/hostname >"$out" 2>&1
check "a file that is not a block device is refused" \
	has "$out" "is not a block device"
$IOTRIAL knobs --bogus >"$out" 2>&1
check "an unknown option is a usage error" test $? = 2
$IOTRIAL knobs -t /tmp --device /dev/vda >"$out" 2>&1
check "-t and --device together are refused" test $? = 2

need_root
mkloop 64M || skip "cannot make a loop device"
L=$LOOP
mkmount "$L" || skip "cannot make a file system"
M=$MNT
$IOTRIAL knobs --device "$L" >"$out" 2>&1
check "knobs --device LOOP exits 0" test $? = 0
check "the scheduler lists what the kernel offers" \
	grep -q "allowed: .*$(active_sched "$L")" "$out"
check "read-ahead shows KiB and the blockdev --setra equivalent" \
	grep -q "^read_ahead_kb .* KiB (.*blockdev --setra $(blockdev --getra "$L"))" "$out"
check "the mounted device's atime is listed" grep -q '^atime  *relatime' "$out"
$IOTRIAL knobs -t "$M" --json >"$out"
check "-t DIR finds the loop device and its mount" jqe \
	--arg d "${L#/dev/}" --arg m "$M" '.device == $d and .mount == $m' "$out"
check "iosched parameters of the active scheduler are listed" jqe \
	'[.knobs[].name] | index("scheduler") != null' "$out"

# without root, and with a state directory it cannot even read
as_nobody "$IOTRIAL" knobs --device "$L" >"$out" 2>"$err"
check "knobs works without root" test $? = 0
check "and prints the same knobs" grep -q '^scheduler ' "$out"
check "an unreadable state directory is not an error for knobs" \
	test ! -s "$err"
