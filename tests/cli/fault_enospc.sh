#!/usr/bin/env bash
# A write that fails with ENOSPC. On ext2 (no fallocate: glibc writes
# every block to preallocate) a work file as large as the free space
# cannot be laid out, since the file's indirect blocks need room too; the
# space check before it passes. The run (exit 2) and a compare (exit 1:
# it fails while running) must end with a clear message, put back the
# knob they set, remove their work directory, and leave the filesystem
# as free as before. A scratch target too small for --size is refused
# before it writes and leaves no loop device, mount or image.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v mkfs.ext2 >/dev/null || skip "needs mkfs.ext2 (e2fsprogs)"
command -v python3 >/dev/null || skip "needs python3"
export TMPDIR=$TEST_TMP # scratch images go here
out=$TEST_TMP/out

mkloop 16M || skip "cannot make a loop device"
mkfs.ext2 -q -F -m 0 -b 1024 "$LOOP" >/dev/null 2>&1 || skip "mkfs.ext2 failed"
MNT=$(mktemp -d "$TEST_TMP/mnt.XXXXXX")
mount "$LOOP" "$MNT" || skip "cannot mount ext2"
TEST_MOUNTS+=("$MNT")
dev=${LOOP#/dev/}
mkdir "$MNT/t"
avail() { stat -f -c '%a %S' "$MNT" | awk '{ print $1 * $2 }'; }
free0=$(avail)
ra0=$(queue "$LOOP" read_ahead_kb)
ra_set=$((ra0 == 1024 ? 2048 : 1024))
# the free space less 8 KiB: passes the check, not the layout
size=$((free0 - 8192))

"$IOTRIAL" run seqwrite -t "$MNT/t" --size="$size" --bs=1k --ios 100 \
	--set read_ahead_kb=$ra_set --no-store >"$out" 2>&1
rc=$?
check "run: a full filesystem during layout exits 2" test "$rc" = 2
check "...saying what was full" \
	grep -q "^error: cannot allocate $size bytes for '$MNT/t/iotrial\..*/job0.prealloc': No space left on device" "$out"
check "...with the knob it set put back" \
	test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
check "...the work directory removed" \
	test -z "$(ls -A "$MNT/t")"
check "...and the space free again" test "$(avail)" = "$free0"

"$IOTRIAL" compare seqwrite -t "$MNT/t" --size="$size" --bs=1k --ios 100 \
	--vary read_ahead_kb=$ra_set,$((ra_set * 2)) --runs 4 \
	--no-drop-caches --quiet >"$out" 2>&1
rc=$?
check "compare: the same layout failure ends the experiment (exit 1)" \
	test "$rc" = 1
check "...saying what was full" grep -q "No space left on device" "$out"
check "...with the knob put back" \
	test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
check "...no work directory left" test -z "$(ls -A "$MNT/t")"
check "...the space free again" test "$(avail)" = "$free0"
check "...and nothing stored: no run was made" \
	bash -c '! "$1" log 2>/dev/null | grep -q seqwrite' _ "$IOTRIAL"
check "the journal holds nothing to revert" \
	grep -q "nothing to revert" <<<"$("$IOTRIAL" revert 2>&1)"

# a scratch filesystem smaller than --size: refused before writing
"$IOTRIAL" run seqwrite -t scratch:64M:ext4 --size=128M --ios 10 \
	--no-store >"$out" 2>&1
rc=$?
check "scratch: --size beyond the free space exits 2" test "$rc" = 2
check "...saying how much is needed and free" \
	grep -q "^error: the workload needs 128 MiB but '.*' has .* free; lower --size" "$out"
check "...leaving no loop device, mount or image" scratch_clean
