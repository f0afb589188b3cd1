# Helpers for the knob tests (knobs*, set*, revert*, killtest*, scratch*).
# Source after lib.sh. Tests change knobs only on loop devices they make
# (lib.sh's mkloop; never vda), and every global setting they may touch
# (vm.dirty_*) is recorded first and put back by the EXIT trap, whatever
# happens. Not a test itself: run-tests.sh only runs *.sh.

KNOB_VM_SAVED=""

# Put the vm.dirty_* values back: the active one of each twin pair.
knob_restore_vm() {
	[ -n "$KNOB_VM_SAVED" ] || return 0
	local f v
	for f in dirty_expire_centisecs dirty_writeback_centisecs \
		dirtytime_expire_seconds; do
		v=$(sed -n "s/^$f=//p" <<<"$KNOB_VM_SAVED")
		[ -n "$v" ] && echo "$v" >/proc/sys/vm/$f
	done
	for f in dirty dirty_background; do
		v=$(sed -n "s/^${f}_bytes=//p" <<<"$KNOB_VM_SAVED")
		if [ -n "$v" ] && [ "$v" != 0 ]; then
			echo "$v" >/proc/sys/vm/${f}_bytes
		else
			v=$(sed -n "s/^${f}_ratio=//p" <<<"$KNOB_VM_SAVED")
			[ -n "$v" ] && echo "$v" >/proc/sys/vm/${f}_ratio
		fi
	done
}

# The machine-wide lock of the tests that change vm.dirty_*. It lives in
# /run, where only root can create files: in /tmp another user could put
# a link there that root would follow when it opens the lock.
KNOB_VM_LOCK=/run/iotrial-knob-tests.lock

# Record vm.dirty_* now; the trap restores them. Tests that change these
# machine-wide values take a machine-wide lock first, so that two test
# runs at once (two engineers, one VM) never record each other's
# temporary values as the originals.
knob_save_vm() {
	local f
	if [ -L "$KNOB_VM_LOCK" ] || { [ -e "$KNOB_VM_LOCK" ] &&
		[ "$(stat -c %u "$KNOB_VM_LOCK")" != 0 ]; }; then
		skip "the lock '$KNOB_VM_LOCK' is a link or not root's; remove it"
	fi
	exec 9>>"$KNOB_VM_LOCK"
	flock -w 600 9 || skip "another test run holds the vm.dirty_* lock"
	KNOB_VM_SAVED=$(for f in /proc/sys/vm/dirty_* \
		/proc/sys/vm/dirtytime_expire_seconds; do
		echo "$(basename "$f")=$(cat "$f")"
	done)
}

# The values now, one "name=value" per line, for comparing.
knob_vm_now() {
	local f
	for f in /proc/sys/vm/dirty_* /proc/sys/vm/dirtytime_expire_seconds; do
		echo "$(basename "$f")=$(cat "$f")"
	done
}

# On exit: vm.dirty_* first, then lib.sh's mounts, loop devices, files.
knob_cleanup() {
	knob_restore_vm
	test_cleanup
}
trap knob_cleanup EXIT

# queue DEV ATTR: /sys/block/<dev>/queue/<attr>
queue() { cat "/sys/block/${1#/dev/}/queue/$2"; }
# active_sched DEV: the bracketed scheduler
active_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/${1#/dev/}/queue/scheduler"; }
# other_sched DEV: a scheduler DEV offers that is not its active one,
# for tests that change it: bfq where the kernel offers it, else
# mq-deadline, kyber or none; fails (prints nothing) when DEV offers one
# only. Kernels differ: many offer no bfq.
other_sched() {
	local s active offered
	offered=" $(tr -d '[]' <"/sys/block/${1#/dev/}/queue/scheduler") "
	active=$(active_sched "$1")
	for s in bfq mq-deadline kyber none; do
		[ "$s" != "$active" ] || continue
		case $offered in *" $s "*) echo "$s" && return 0 ;; esac
	done
	return 1
}
# mount_opts DIR: the per-mount options in mountinfo
mount_opts() { awk -v m="$1" '$5 == m { o = $6 } END { print o }' /proc/self/mountinfo; }
# as_nobody CMD...: run without root (IOTRIAL_STATE_DIR passed through)
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env IOTRIAL_STATE_DIR="$IOTRIAL_STATE_DIR" "$@"
}
# jqe FILTER FILE: jq -e, quietly
jqe() { jq -e "$@" >/dev/null; }
# has LOGFILE TEXT: the file contains TEXT (fixed string)
has() { grep -qF -- "$2" "$1"; }

# knob_state DEV MNT: the knobs the kill tests change on DEV and on the
# mount MNT, and vm.dirty_*, one "name=value" per line, for comparing.
knob_state() {
	echo "scheduler=$(active_sched "$1")"
	echo "read_ahead_kb=$(queue "$1" read_ahead_kb)"
	echo "nr_requests=$(queue "$1" nr_requests)"
	echo "atime=$(mount_opts "$2")"
	knob_vm_now
}

# forge_journal FILE: write FILE as a journal of the record bodies given
# on stdin, one a line, with the header and each line's checksum.
forge_journal() {
	python3 -c '
import sys, zlib
out = ["iotrial-journal 1\n"]
for body in sys.stdin.read().splitlines():
    out.append("%s c=%08x\n" % (body, zlib.crc32(body.encode()) & 0xffffffff))
sys.stdout.write("".join(out))' >"$1"
}

# scratch_leftovers: what scratch targets (made with TMPDIR=$TEST_TMP)
# left behind: loop devices, mounts, directories; one line each.
scratch_leftovers() {
	losetup -a | grep -F "$TEST_TMP/iotrial-scratch."
	grep -F "$TEST_TMP/iotrial-scratch." /proc/self/mountinfo
	ls -d "$TEST_TMP"/iotrial-scratch.* 2>/dev/null
}
# scratch_clean: succeeds when scratch_leftovers finds nothing
scratch_clean() { [ -z "$(scratch_leftovers)" ]; }
