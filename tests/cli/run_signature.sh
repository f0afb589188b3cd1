#!/usr/bin/env bash
# A block device target is written only when libblkid says cleanly that
# it holds no signature. Two conflicting signatures (xfs over swap, which
# libblkid calls "ambivalent") must be refused like one, with the types
# named and --allow-destroy as the way out; the device stays untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v mkfs.xfs >/dev/null || skip "needs mkfs.xfs (xfsprogs)"
command -v mkswap >/dev/null || skip "needs mkswap (util-linux)"
out=$TEST_TMP/out
err=$TEST_TMP/err

# An xfs superblock in sector 0 of a swap area: both signatures present.
xfs_img=$TEST_TMP/xfs.img
img=$TEST_TMP/two.img
truncate -s 300M "$xfs_img"
mkfs.xfs -q -f "$xfs_img" || skip "mkfs.xfs failed"
truncate -s 64M "$img"
mkswap "$img" >/dev/null 2>&1 || skip "mkswap failed"
dd if="$xfs_img" of="$img" bs=512 count=1 conv=notrunc status=none
rm -f "$xfs_img"
L=$(losetup --find --show "$img") || skip "cannot attach a loop device"
TEST_LOOPS+=("$L")
blkid -p "$L" >/dev/null 2>&1
check "libblkid calls the device ambivalent (blkid exit 8)" test $? = 8
sum_before=$(md5sum <"$img")

"$IOTRIAL" run seqwrite -t "$L" --size=8M --time 300ms --no-store \
	>"$out" 2>"$err"
rc=$?
check "conflicting signatures: run is refused (exit 2)" test "$rc" = 2
check "the message says the signatures conflict and names them" \
	grep -qE "'$L' holds conflicting signatures \(('xfs', 'swap'|'swap', 'xfs')\)" "$err"
check "the message names --allow-destroy" has "$err" "--allow-destroy"
check "nothing was written to the device" test "$(md5sum <"$img")" = "$sum_before"
check "both signatures are still there" \
	bash -c "wipefs -n '$L' | grep -q xfs && wipefs -n '$L' | grep -q swap"

"$IOTRIAL" compare seqwrite -t "$L" --vary bs=4k,8k --runs 2 --size=8M \
	--time 100ms --no-store >"$out" 2>"$err"
check "compare refuses it too" has "$err" "holds conflicting signatures"
check "and writes nothing" test "$(md5sum <"$img")" = "$sum_before"

# one signature: refused as before
wipefs -q -a "$L" >/dev/null
mkswap "$L" >/dev/null 2>&1
"$IOTRIAL" run seqwrite -t "$L" --size=8M --time 300ms --no-store \
	>"$out" 2>"$err"
check "a single swap signature is refused" has "$err" "holds a 'swap' filesystem"

# --allow-destroy overrides; a blank device needs nothing
"$IOTRIAL" run seqwrite -t "$L" --size=8M --time 300ms --no-store \
	--allow-destroy >"$out" 2>"$err"
check "--allow-destroy overrides the refusal" test $? = 0
wipefs -q -a "$L" >/dev/null
"$IOTRIAL" run seqwrite -t "$L" --size=8M --time 300ms --no-store \
	>"$out" 2>"$err"
check "a blank device is written without --allow-destroy" test $? = 0
