#!/usr/bin/env bash
# Bad input to iotrial run: a one-line error saying what was wrong and what
# would be right, exit code 2, and nothing written to the target.
# parallel: its own files, directory and store; nothing machine-wide; a loop device of its own
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"

USAGE_DIR=$dir # expect_usage: nothing may be left in the target

expect_usage "unknown workload suggests the nearest" "did you mean 'randread'" \
	run randred -t "$dir"
expect_usage "unknown parameter suggests the nearest" "did you mean '--bs'" \
	run randread -t "$dir" --bsz=4k
expect_usage "unknown command suggests the nearest" "did you mean 'run'" \
	rnu
expect_usage "malformed size 4kk" "invalid value '4kk' for 'bs'" \
	run randread -t "$dir" --bs=4kk
expect_usage "negative size" "'-1M'" \
	run randread -t "$dir" --size=-1M
expect_usage "bs not aligned for direct I/O" "not a multiple of the logical block size.*--bs=" \
	run randread -t "$dir" --direct=1 --bs=1000
expect_usage "target that does not exist" "does not exist" \
	run randread -t "$dir/nope"
expect_usage "size larger than the free space" "needs .* free" \
	run seqwrite -t "$dir" --size=1000T
expect_usage "both --time and --ios" "not both" \
	run randread -t "$dir" --time 1s --ios 10
expect_usage "bad duration" "invalid duration|'10x'" \
	run randread -t "$dir" --time 10x
expect_usage "choice value suggests the nearest" "did you mean 'io_uring'" \
	run randread -t "$dir" --engine=io_uringg
expect_usage "rwmixread outside randrw" "only applies to 'randrw'" \
	run randread -t "$dir" --rwmixread=70
expect_usage "mmap with direct" "mmap engine cannot do O_DIRECT" \
	run randread -t "$dir" --engine=mmap --direct=1
expect_usage "an option before the workload" "the workload comes first: 'iotrial run seqread" \
	run --bs=8k seqread -t "$dir"
expect_usage "an unwritable --json file fails before the run" "cannot write '/nonexistent/x.json'" \
	run randread -t "$dir" --json=/nonexistent/x.json
expect_usage "--ios fewer than the jobs" "fewer than the 3 jobs" \
	run randread -t "$dir" --jobs=3 --ios 2
expect_usage "iodepth out of range" "out of range for 'iodepth'" \
	run randread -t "$dir" --iodepth=0

if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null; then
	mkloop 64M /var/tmp
	mkfs.ext4 -q -F "$LOOP"
	dev=$LOOP
	expect_usage "device with a filesystem signature is refused" "holds a 'ext4' filesystem.*--allow-destroy" \
		run randwrite -t "$dev" --ios 10
	check "the filesystem is intact" bash -c "blkid -p '$dev' | grep -q ext4"
else
	echo "skipped: device signature check needs root and mkfs.ext4"
fi
