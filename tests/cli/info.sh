#!/usr/bin/env bash
# iotrial info: the root filesystem's device and its queue settings match
# sysfs; a tmpfs has no devices and says why; a scratch loop device (ours,
# on a file in /var/tmp, torn down on exit) names itself, its backing file
# and the device holding that file (of any kind: a disk, an LVM volume,
# another loop device); bad targets are usage errors.
# parallel: a loop device of its own; the settings it reads change only in tests that run alone
. "$(dirname "$0")/lib.sh"

out=$TEST_TMP/info.json
"$IOTRIAL" info -t / --json >"$out"
check "info -t / --json exits 0" test $? = 0
check "info reports the kernel release" \
	test "$(json "$out" 'o["kernel_release"]')" = "$(uname -r)"
check "info reports the CPU count" \
	test "$(json "$out" 'o["cpu"]["count"]')" = "$(nproc)"
check "info reports vm.dirty_ratio" \
	test "$(json "$out" 'o["vm"]["dirty_ratio"]')" = "$(cat /proc/sys/vm/dirty_ratio)"
check "info reports the root mount" \
	test "$(json "$out" 'o["stack"]["mount"]["target"]')" = /
root_src=$(findmnt -n -v -o SOURCE /)
root_fs=$(findmnt -n -o FSTYPE /)
if ! mountpoint -q /; then
	# a chroot whose root is a directory: the mount table does not list
	# it, and iotrial finds its file system by st_dev
	check "a root that is not a mount is said to be unlisted" \
		test "$(json "$out" 'o["stack"]["mount"].get("unlisted")')" = True
	root_src=/dev/$(basename "$(readlink "/sys/dev/block/$(stat -c %Hd:%Ld /)")")
	root_fs=$(json "$out" 'o["stack"]["mount"]["fstype"]')
	check "its file system type agrees with statfs" \
		test "$(stat -f -c %T /)" = "$(case $root_fs in ext[234]) echo ext2/ext3 ;; *) echo "$root_fs" ;; esac)"
fi
check "info names the root fs type ($root_fs)" \
	test "$(json "$out" 'o["stack"]["mount"]["fstype"]')" = "$root_fs"
if [ -b "$root_src" ]; then
	dev=$(basename "$(readlink -f "$root_src")")
	check "info names the root device ($dev)" \
		test "$(json "$out" 'o["stack"]["devices"][0]["name"]')" = "$dev"
	q=/sys/class/block/$dev/queue
	[ -d "$q" ] || q=$(dirname "$(readlink -f /sys/class/block/$dev)")/queue
	sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
	[ -n "$sched" ] || sched=$(cat "$q/scheduler")
	check "info gives the scheduler ($sched)" \
		test "$(json "$out" 'o["stack"]["devices"][0]["scheduler"]')" = "$sched"
	check "info gives read_ahead_kb" \
		test "$(json "$out" 'o["stack"]["devices"][0]["read_ahead_kb"]')" = "$(cat "$q/read_ahead_kb")"
	check "info gives nr_requests" \
		test "$(json "$out" 'o["stack"]["devices"][0]["nr_requests"]')" = "$(cat "$q/nr_requests")"
	check "info gives the logical block size" \
		test "$(json "$out" 'o["stack"]["devices"][0]["logical_block_bytes"]')" = "$(cat "$q/logical_block_size")"
	check "info gives the size" \
		test "$(json "$out" 'o["stack"]["devices"][0]["size_bytes"]')" = "$(($(cat /sys/class/block/$dev/size) * 512))"
	text=$("$IOTRIAL" info -t /)
	check "text names the device and scheduler" \
		grep -q "^ *$dev (.*\$" <<<"$text"
	check "text shows scheduler $sched" grep -q "scheduler $sched" <<<"$text"
else
	ok "# root has no block device source ($root_src); skipping its checks"
fi

# /dev/shm is a tmpfs, or (a chroot given a plain bind of /dev) a
# directory of the devtmpfs on /dev, which statfs also calls tmpfs: the
# reason names the file system the mount table lists
shm_fs=$(findmnt -n -o FSTYPE --target /dev/shm 2>/dev/null)
shm_fs=${shm_fs:-tmpfs}
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	"$IOTRIAL" info -t /dev/shm --json >"$out"
	check "tmpfs: no devices" \
		test "$(json "$out" 'len(o["stack"]["devices"])')" = 0
	check "tmpfs: the reason names tmpfs" \
		grep -q "'$shm_fs'" <<<"$(json "$out" 'o["stack"]["no_device_reason"]')"
	check "tmpfs: text says none and why" \
		grep -q "devices  none: .*no block device" <<<"$("$IOTRIAL" info -t /dev/shm)"
fi

"$IOTRIAL" info -t /no/such/dir >/dev/null 2>"$TEST_TMP/err"
check "a missing target is a usage error" test $? = 2
check "the error names the target" grep -q "'/no/such/dir'" "$TEST_TMP/err"
"$IOTRIAL" info --bogus >/dev/null 2>&1
check "an unknown option is a usage error" test $? = 2

# A scratch target: iotrial makes (and removes) the loop device itself.
if [ "$(id -u)" = 0 ]; then
	"$IOTRIAL" info -t scratch:64M --json >"$out" 2>"$TEST_TMP/err"
	if [ $? = 0 ]; then
		check "scratch: the top device is a loop device" \
			test "$(json "$out" 'o["stack"]["devices"][0]["kind"]')" = loop
		check "scratch: its backing file is named" \
			grep -q "iotrial" <<<"$(json "$out" 'o["stack"]["devices"][0]["backing_file"]')"
		check "scratch: the backing file's device is listed" \
			test "$(json "$out" 'o["stack"]["devices"][1]["via"]')" = backing
	else
		ok "# scratch targets unavailable here: $(tail -n 1 "$TEST_TMP/err")"
	fi
fi

# A loop device of our own.
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	ok "# not root or no losetup: loop checks skipped"
	exit 0
fi
mkloop 64M /var/tmp || { fail "losetup"; exit 1; }
loop=$LOOP img=$LOOP_IMG
name=$(basename "$loop")
"$IOTRIAL" info -t "$loop" --json >"$out"
check "loop node: the top device is $name" \
	test "$(json "$out" 'o["stack"]["devices"][0]["name"]')" = "$name"
check "loop node: kind loop" \
	test "$(json "$out" 'o["stack"]["devices"][0]["kind"]')" = loop
check "loop node: the backing file" \
	test "$(json "$out" 'o["stack"]["devices"][0]["backing_file"]')" = "$img"
# by the backing file's st_dev: findmnt finds no mount in a chroot
# whose root is a directory
backing_dev=$(basename "$(readlink "/sys/dev/block/$(stat -c %Hd:%Ld "$img")")")
check "loop node: the backing file's device ($backing_dev) is listed" \
	test "$(json "$out" '[d["name"] for d in o["stack"]["devices"] if d["via"] == "backing"][0]')" = "$backing_dev"
if command -v mkfs.ext4 >/dev/null; then
	mkmount "$loop"
	mnt=$MNT
	"$IOTRIAL" info -t "$mnt" --json >"$out"
	check "loop fs: the mount source is $loop" \
		test "$(json "$out" 'o["stack"]["mount"]["source"]')" = "$loop"
	check "loop fs: the top device is $name" \
		test "$(json "$out" 'o["stack"]["devices"][0]["name"]')" = "$name"
	text=$("$IOTRIAL" info -t "$mnt")
	check "loop fs text: backing file shown" grep -q "backing file $img" <<<"$text"
	check "loop fs text: the backing device is indented under it" \
		grep -q "^    $backing_dev ([a-z]*, holds the backing file of $name)" <<<"$text"
fi
