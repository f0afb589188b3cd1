#!/usr/bin/env bash
# Scratch targets: -t scratch:SIZE[:ext4|xfs] makes a sparse file, a loop
# device and (optionally) a mounted file system, and tears all of it
# down afterwards; a kill -9 at any moment leaves nothing behind once the
# next iotrial has run. Bad specs and non-root are refused clearly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
out=$TEST_TMP/out
export TMPDIR=$TEST_TMP # scratch images go here, not /var/tmp

# bad specs are usage errors, before anything is made
for spec in scratch:lots scratch:1G:btrfs scratch:4M:ext4 scratch:1000; do
	$IOTRIAL knobs -t "$spec" >"$out" 2>&1
	rc=$?
	check "'$spec' is a usage error" test "$rc" = 2
done
$IOTRIAL knobs -t scratch:1G:btrfs >"$out" 2>&1
check "an unknown file system names the ones there are" \
	has "$out" "unknown file system 'btrfs' in 'scratch:1G:btrfs'; give ext4 or xfs"
$IOTRIAL knobs -t scratch:4M:ext4 >"$out" 2>&1
check "too small for ext4 says the minimum" has "$out" "give at least 16 MiB"

need_root
as_nobody "$IOTRIAL" knobs -t scratch:64M >"$out" 2>&1
check "non-root: a scratch target needs root" \
	has "$out" "a scratch target needs root (it attaches a loop device)"

$IOTRIAL knobs -t scratch:64M:ext4 >"$out" 2>&1
check "knobs -t scratch:64M:ext4 exits 0" test $? = 0
check "it lists a loop device and the scratch mount" \
	grep -q "^knobs of device 'loop[0-9]*' and mount '$TEST_TMP/iotrial-scratch\.[^']*/mnt'" "$out"
check "and leaves nothing behind" scratch_clean

$IOTRIAL knobs -t scratch:32M >"$out" 2>&1
check "a raw scratch device has device knobs" grep -q '^scheduler ' "$out"
check "and no atime (nothing is mounted)" has "$out" "atime: '/dev/loop"
check "and leaves nothing behind" scratch_clean

if command -v mkfs.xfs >/dev/null; then
	$IOTRIAL knobs -t scratch:320M:xfs >"$out" 2>&1
	check "scratch:320M:xfs works" test $? = 0
else
	$IOTRIAL knobs -t scratch:320M:xfs >"$out" 2>&1
	check "without mkfs.xfs: says which package to install" \
		has "$out" "'mkfs.xfs' was not found; install xfsprogs"
fi
check "a failed scratch leaves nothing behind" scratch_clean

# a scheduler a loop device offers and does not run from the start (not
# bfq by name: a kernel may have none)
mkloop 1M || skip "cannot make a loop device"
S=$(other_sched "$LOOP") || skip "a loop device offers one scheduler only"
$IOTRIAL run seqwrite -t scratch:96M:ext4 --size 16M --time 300ms \
	--set scheduler="$S" --set atime=noatime --json >"$out" 2>"$TEST_TMP/err"
check "run on a scratch file system with --set exits 0" test $? = 0
check "the run's JSON says the target is a scratch" \
	jqe '.target.kind == "scratch"' "$out"
check "and records the knobs it ran with" \
	jqe --arg s "$S" '.knobs.scheduler == $s and .knobs.atime == "noatime"' "$out"
check "and leaves nothing behind" scratch_clean
check "no journal is left" test ! -e "$IOTRIAL_STATE_DIR/journal"

# kill -9 at random moments (during mkfs, mount, the run, teardown)
for i in 1 2 3 4; do
	"$IOTRIAL" run seqwrite -t scratch:96M:ext4 --size 16M --time 1s \
		>"$out" 2>&1 &
	pid=$!
	ms=$((RANDOM % 1500))
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$IOTRIAL" revert >"$out" 2>&1 # a command that changes the system repairs
	"$IOTRIAL" revert --list >>"$out" 2>&1
	if scratch_clean; then
		ok "kill -9 at $ms ms: the next command removed every scratch part"
	else
		fail "kill -9 at $ms ms: left behind:"
		scratch_leftovers | sed 's/^/#   /'
		sed 's/^/#   /' "$out"
	fi
done
