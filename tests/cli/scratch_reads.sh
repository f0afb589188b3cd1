#!/usr/bin/env bash
# A raw scratch device is a loop device on a sparse image, and reading a
# hole costs no disk I/O. Reads on scratch:SIZE must therefore be filled
# first (said on stderr, once per target) and then reach the disk under
# the image: at least 90% of the bytes read, with the disk's bytes in the
# run's truth and under compare's table. A loop device the user made is
# never written, and reading its holes warns that the reads never reached
# the disk. A file system with too little room for the fill gives a clear
# error and leaves nothing.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"

# where scratch_open() puts its image: TMPDIR, else /var/tmp
base=${TMPDIR:-/var/tmp}
fstype=$(stat -f -c %T "$base") || skip "cannot examine '$base'"
[ "$fstype" = tmpfs ] &&
	skip "scratch images would go to '$base', a tmpfs: no disk under it to measure (set TMPDIR to a directory on a disk)"
SCR=$(mktemp -d "$base/iotrial-test-scratch.XXXXXX") ||
	skip "cannot make a directory in '$base'"
cleanup() {
	test_cleanup
	rm -rf "$SCR"
}
trap cleanup EXIT
export TMPDIR=$SCR
out=$TEST_TMP/out
err=$TEST_TMP/err
# what a scratch target under SCR left: loop devices, mounts, files
leftovers() {
	losetup -a | grep -F "$SCR/iotrial-scratch."
	grep -F "$SCR/iotrial-scratch." /proc/self/mountinfo
	ls -d "$SCR"/iotrial-scratch.* 2>/dev/null
}
nothing_left() { [ -z "$(leftovers)" ]; }
# py EXPR: EXPR over the run object in $out (o), printed
py() { json "$out" "$1"; }

"$IOTRIAL" run seqread -t scratch:256M --bs=1M --direct=1 --time 2s \
	--no-store --json >"$out" 2>"$err"
rc=$?
check "a direct read of a raw scratch device exits 0" test "$rc" = 0
bottom=$(py 'o["truth"]["bottom_device"]')
if [ "$rc" = 0 ] && [ "$bottom" = None ]; then
	sed 's/^/# /' "$err"
	skip "no disk found under '$base' ($fstype)"
fi
# a loop device between the image and the disk (a machine whose root
# is itself a loop device) without direct I/O serves its backing file
# from the host's page cache: the disk cannot be measured through it
for d in $(py '" ".join(x["name"] for x in o.get("devices", [])[1:] if x.get("kind") == "loop")'); do
	[ "$(cat "/sys/block/$d/loop/dio" 2>/dev/null)" = 1 ] ||
		skip "'$base' is on $d, a loop device without direct I/O: its backing file is cached by the host, so reads need not reach $bottom"
done
echo "# read $(py 'o["truth"]["logical_read_bytes"]') bytes; $(py 'o["truth"]["device"]') delivered $(py 'o["truth"]["device_read_bytes"]'), $bottom $(py 'o["truth"]["bottom_read_bytes"]')"
check "the fill is said on stderr" \
	grep -q "^note: writing 256 MiB of data to '/dev/loop[0-9]*' so that reads reach the disk" "$err"
check "at least 90% of the bytes read came from the disk ($bottom)" \
	test "$(py 'o["truth"]["bottom_read_bytes"] >= 0.9 * o["truth"]["logical_read_bytes"] > 0')" = True
check "and no warning says they never reached it" \
	test "$(py 'any("never reached" in w for w in o["warnings"])')" = False
check "the scratch target leaves nothing behind" nothing_left

# buffered, one pass over the region: the page cache starts cold
"$IOTRIAL" run seqread -t scratch:128M --bs=1M --ios 128 --no-store \
	--json >"$out" 2>"$err"
check "a buffered read of a raw scratch device exits 0" test $? = 0
check "...and at least 90% of it came from the disk" \
	test "$(py 'o["truth"]["bottom_read_bytes"] >= 0.9 * o["truth"]["logical_read_bytes"] > 0')" = True
check "...leaving nothing behind" nothing_left

# an experiment fills once: later runs and arms reuse the fill
"$IOTRIAL" compare seqread --vary bs=64k,1M -t scratch:64M --direct=1 \
	--time 300ms --runs 2 --no-store >"$out" 2>"$err"
check "compare on a raw scratch device exits 0" test $? = 0
check "...and fills it once, not per run" \
	test "$(grep -c "^note: writing .* of data to '/dev/loop" "$err")" = 1
check "...and says what the disk under it moved per run" \
	grep -q "^measured: per run (median of [0-9]* runs), the workload read .*, 'loop[0-9]*' delivered .* and '$bottom' (the disk under it) .*; the page cache was dropped before each run$" "$out"
check "...leaving nothing behind" nothing_left

# SIGINT while filling: the run ends at once, and the image goes
"$IOTRIAL" run seqread -t scratch:4G --no-store >"$out" 2>"$err" &
pid=$!
for _ in $(seq 100); do
	grep -q "of data to" "$err" && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT during the fill ends the run (exit 1)" test "$rc" = 1
check "...saying it was interrupted" grep -q "^error: interrupted" "$err"
check "...leaving nothing behind" nothing_left

# a writing workload needs no fill
"$IOTRIAL" run seqwrite -t scratch:64M --direct=1 --ios 64 --bs=1M \
	--no-store >"$out" 2>"$err"
check "a write workload is not preceded by a fill" \
	bash -c '! grep -q "of data to" "$1"' _ "$err"

# a loop device of the user's: never filled; its holes never reach vda
mkloop 128M "$SCR" || skip "cannot make a loop device"
"$IOTRIAL" run seqread -t "$LOOP" --bs=1M --direct=1 --time 1s --no-store \
	--json >"$out" 2>"$err"
check "a read of a user's sparse loop device exits 0" test $? = 0
check "...which is not filled" \
	bash -c '! grep -q "of data to" "$1" && test "$(du -k "$2" | cut -f1)" = 0' \
	_ "$err" "$LOOP_IMG"
check "...and warns that the reads never reached $bottom" \
	test "$(py "any(\"reads never reached '$bottom'\" in w for w in o['warnings'])")" = True
check "...with the bottom device's bytes in the truth" \
	test "$(py 'o["truth"]["bottom_read_bytes"] < 0.1 * o["truth"]["device_read_bytes"]')" = True
"$IOTRIAL" run seqread -t "$LOOP" --bs=1M --direct=1 --time 1s \
	--no-store >"$out" 2>&1
check "...and the text names the disk's bytes" \
	grep -q "from '$bottom' (the disk under it)" "$out"
check "...and warns there too" \
	grep -qE "^warning: (most )?reads never reached '$bottom'" "$out"

# a file system with too little room for the fill (ext2 with 1 KiB
# blocks: the image's block maps need room beyond its size, and a loop
# device can drop a write that finds the disk full without an error):
# refused before writing, with the numbers, leaving nothing behind
if command -v mkfs.ext2 >/dev/null; then
	mkloop 16M || skip "cannot make a loop device"
	mkfs.ext2 -q -F -m 0 -b 1024 "$LOOP" >/dev/null 2>&1 ||
		skip "mkfs.ext2 failed"
	MNT=$(mktemp -d "$TEST_TMP/mnt.XXXXXX")
	mount "$LOOP" "$MNT" || skip "cannot mount ext2"
	TEST_MOUNTS+=("$MNT")
	avail() { stat -f -c '%a %S' "$MNT" | awk '{ print $1 * $2 }'; }
	free0=$(avail)
	size=$(((free0 - 16384) / 4096 * 4096))
	TMPDIR=$MNT "$IOTRIAL" run seqread -t "scratch:$size" --bs=64k \
		--ios 16 --no-store >"$out" 2>&1
	rc=$?
	check "too little room for the fill is refused (exit 2, as --size too large)" \
		test "$rc" = 2
	check "...saying how much room it needs and has" \
		grep -q "^error: reading '/dev/loop[0-9]*' needs its image filled first (a hole reads without touching the disk), which needs .* free in '$MNT/iotrial-scratch\..*'; it has .*: give a smaller --size" "$out"
	check "...leaving no scratch directory" \
		test -z "$(ls -d "$MNT"/iotrial-scratch.* 2>/dev/null)"
	check "...and the space free again" test "$(avail)" = "$free0"
fi
