#!/usr/bin/env bash
# Device truth in run results. On a scratch ext4 loop device of our own
# (a file in /var/tmp, formatted without lazy init so nothing else writes
# to it; unmounted and detached on exit), a buffered write left dirty
# when the timed region closes (--settle=none) and deleted afterwards must
# show absorbed_fraction > 0.5 with the warning; the same write flushed
# inside the region (--settle=sync, the default) near 0. A tmpfs target
# must run and say why it has no device columns.
. "$(dirname "$0")/lib.sh"

out=$TEST_TMP/run.json

# /dev/shm is a tmpfs, or (a chroot given a plain bind of /dev) a
# directory of the devtmpfs on /dev, which statfs also calls tmpfs: the
# reason names the file system the mount table lists
shm_fs=$(findmnt -n -o FSTYPE --target /dev/shm 2>/dev/null)
shm_fs=${shm_fs:-tmpfs}
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	"$IOTRIAL" run seqwrite -t /dev/shm --size 8M --bs 64k --ios 128 \
		--json="$out" >"$TEST_TMP/text"
	check "tmpfs: the run works" test $? = 0
	check "tmpfs: no devices[]" test "$(json "$out" '"devices" in o')" = False
	check "tmpfs: truth says why" \
		grep -q "'$shm_fs'" <<<"$(json "$out" 'o["truth"]["no_device_reason"]')"
	check "tmpfs: device bytes unknown (null)" \
		test "$(json "$out" 'o["truth"]["device_write_bytes"]')" = None
	check "tmpfs: a note says there is no device truth" \
		test "$(json "$out" 'sum("no device truth" in n for n in o["notes"])')" = 1
	check "tmpfs: the environment is attached" \
		test "$(json "$out" 'o["env"]["kernel_release"]')" = "$(uname -r)"
	check "tmpfs: the text summary says why" \
		grep -q "device truth: not available: .*tmpfs" "$TEST_TMP/text"
fi

need_root
command -v losetup >/dev/null || skip "losetup is not installed"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed"
mkloop 512M /var/tmp || { fail "losetup"; exit 1; }
loop=$LOOP img=$LOOP_IMG
name=$(basename "$loop")
mkmount "$loop" -E lazy_itable_init=0,lazy_journal_init=0 ||
	{ fail "mount"; exit 1; }
mnt=$MNT

"$IOTRIAL" run seqwrite -t "$mnt" --size 64M --bs 1M --ios 64 \
	--settle=none --json="$out" >"$TEST_TMP/text"
check "settle=none: the run works" test $? = 0
check "settle=none: devices[0] is $name" \
	test "$(json "$out" 'o["devices"][0]["name"]')" = "$name"
check "settle=none: the backing file's device is listed too" \
	test "$(json "$out" 'o["devices"][1]["via"]')" = backing
check "settle=none: logical bytes are the 64 MiB written" \
	test "$(json "$out" 'o["truth"]["logical_write_bytes"]')" = 67108864
a=$(json "$out" 'o["truth"]["absorbed_fraction"]')
check "settle=none: absorbed_fraction $a > 0.5" \
	python3 -c "import sys; sys.exit(not $a > 0.5)"
check "settle=none: the warning quotes the numbers" \
	test "$(json "$out" 'sum("never reached the device: the workload wrote 64 MiB" in w for w in o["warnings"])')" = 1
check "settle=none: the warning blames writes left dirty, suggests --settle=sync" \
	test "$(json "$out" 'sum("still dirty when the run ended (--settle=none); use --settle=sync" in w for w in o["warnings"])')" = 1
check "settle=none: dirty memory peak is recorded" \
	python3 -c "import sys; sys.exit(not $(json "$out" 'o["truth"]["dirty_peak_bytes"]') > 0)"
check "settle=none: the text summary shows the absorption" \
	grep -q "absorbed by the page cache: [0-9]*%" "$TEST_TMP/text"

"$IOTRIAL" run seqwrite -t "$mnt" --size 64M --bs 1M --ios 64 \
	--json="$out" >"$TEST_TMP/text"
check "settle=sync (default): the run works" test $? = 0
a=$(json "$out" 'o["truth"]["absorbed_fraction"]')
check "settle=sync: absorbed_fraction $a near 0 (< 0.1)" \
	python3 -c "import sys; sys.exit(not $a < 0.1)"
check "settle=sync: the device took at least what was written" \
	python3 -c "import sys; sys.exit(not $(json "$out" 'o["truth"]["device_write_bytes"]') >= 67108864)"
check "settle=sync: no absorption warning" \
	test "$(json "$out" 'sum("never reached" in w for w in o["warnings"])')" = 0
check "settle=sync: the flush count is reported" \
	test "$(json "$out" '"flushes" in o["devices"][0]')" = True
check "settle=sync: burst and settled throughput reported" \
	python3 -c "import sys; sys.exit(not ($(json "$out" 'o["truth"]["burst_mbps"]') >= $(json "$out" 'o["truth"]["settled_mbps"]')))"
check "the sampler's cost is reported" \
	python3 -c "import sys; sys.exit(not $(json "$out" 'o["truth"]["sampler"]["cpu_s"]') >= 0)"
check "the environment names the loop device and its backing file" \
	test "$(json "$out" 'o["env"]["stack"]["devices"][0]["backing_file"]')" = "$img"

# A time-based seqwrite over a file far smaller than what it writes,
# synced (the default): blocks are rewritten while dirty, so the device
# takes a sliver of the bytes although the run synced. The warning names
# that cause, and does not suggest the --settle=sync the run used.
"$IOTRIAL" run seqwrite -t "$mnt" --size 4M --bs 1M --time 1s \
	--json="$out" >/dev/null
check "rewrites: the run works" test $? = 0
check "rewrites: the absorption warning" \
	test "$(json "$out" 'sum("never reached the device" in w for w in o["warnings"])')" = 1
check "rewrites: the cause is blocks rewritten while dirty" \
	test "$(json "$out" 'sum("the run synced, but it wrote its 4 MiB working set" in w and "times over, and blocks rewritten while still dirty reach the device only once" in w for w in o["warnings"])')" = 1
check "rewrites: the remedy is direct I/O, a larger file or --ios" \
	test "$(json "$out" 'sum("use --direct=1, a larger --size, or --ios to write it once" in w for w in o["warnings"])')" = 1
check "rewrites: --settle=sync is not suggested to a run that used it" \
	test "$(json "$out" 'sum("--settle" in w for w in o["warnings"])')" = 0

# Buffered sequential reads that wrap around a small file: after the first
# pass the page cache serves them, whatever the device's speed (random
# reads of a cold file would make this depend on how fast the device is).
# With O_DIRECT the device does.
"$IOTRIAL" run seqread -t "$mnt" --size 8M --bs 128k --time 1s \
	--json="$out" >/dev/null
check "cached reads: the run works" test $? = 0
check "cached reads: the page-cache warning, with its numbers" \
	test "$(json "$out" 'sum("reads measured the page cache, not the device: the workload read" in w for w in o["warnings"])')" = 1
"$IOTRIAL" run randread -t "$mnt" --size 32M --time 1s --direct=1 \
	--json="$out" >/dev/null
# (the loop device may still say its backing file was in the host's
# page cache: that is the disk under it, another warning)
check "direct reads: no page-cache warning" \
	test "$(json "$out" 'sum("reads measured the page cache" in w for w in o["warnings"])')" = 0
check "direct reads: the device delivered what was read" \
	python3 -c "import sys; sys.exit(not $(json "$out" 'o["truth"]["device_read_bytes"]') >= $(json "$out" 'o["truth"]["logical_read_bytes"]'))"
