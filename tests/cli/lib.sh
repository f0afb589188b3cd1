# Shared helpers for CLI tests. Source it; then call ok/fail/check.
# Each check prints "ok - NAME" or "not ok - NAME", which run-tests.sh
# counts. A test that cannot run here exits 77 via skip.
set -u
: "${IOTRIAL:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/san/iotrial}"
: "${IOTRIAL_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
# Tests never touch the real journal or store.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-test.XXXXXX")
export IOTRIAL_STATE_DIR="$TEST_TMP/state"
export XDG_DATA_HOME="$TEST_TMP/data"
mkdir -p "$IOTRIAL_STATE_DIR" "$XDG_DATA_HOME"

# What a test attached and mounted, taken away on exit (mounts first),
# whatever happens; images made outside TEST_TMP are deleted too.
TEST_MOUNTS=()
TEST_LOOPS=()
TEST_FILES=()
test_cleanup() {
	local m l
	for m in "${TEST_MOUNTS[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for l in "${TEST_LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
	rm -f "${TEST_FILES[@]}"
	rm -rf "$TEST_TMP"
}
trap test_cleanup EXIT

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "skipped: $*"; exit 77; }
# check NAME CMD...: ok when CMD succeeds
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# mkloop SIZE [DIR]: a loop device in $LOOP on a sparse file of ours in
# $LOOP_IMG (made in DIR, default TEST_TMP; /var/tmp when the image must
# sit on a disk, not on a tmpfs). Not through $(...): the cleanup list
# must be filled in this shell.
mkloop() {
	LOOP= LOOP_IMG=
	LOOP_IMG=$(mktemp "${2:-$TEST_TMP}/iotrial-loop.XXXXXX.img") || return 1
	[ -n "${2:-}" ] && TEST_FILES+=("$LOOP_IMG")
	truncate -s "$1" "$LOOP_IMG" || return 1
	LOOP=$(losetup --find --show "$LOOP_IMG") || return 1
	TEST_LOOPS+=("$LOOP")
}

# mkmount DEV [MKFS-OPTION...]: ext4 on DEV, mounted on a directory of
# ours in $MNT.
mkmount() {
	local dev=$1
	shift
	MNT=$(mktemp -d "$TEST_TMP/mnt.XXXXXX")
	mkfs.ext4 -q -F "$@" "$dev" >/dev/null 2>&1 || return 1
	mount "$dev" "$MNT" || return 1
	TEST_MOUNTS+=("$MNT")
}
