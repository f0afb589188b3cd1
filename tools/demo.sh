#!/usr/bin/env bash
# make demo: install missing build dependencies (when root; otherwise print
# the apt-get line and stop), build, and run iotrial's main job on its
# embedded defaults: one measured run, then a short compare whose verdict
# table answers "is B faster than A here?". Root gets a raw scratch loop
# device (torn down afterwards; its image is filled first so that reads
# reach the disk under it, and the page cache is dropped before each run)
# and varies read-ahead, the setting our users raise by folklore, for
# buffered sequential reads; the "measured:" line under the table says
# how many bytes the disk moved. Others get a directory under $TMPDIR and
# vary the block size. Results go to the default store.
#
#   tools/demo.sh --args  prints root's compare arguments, one a line
#                         (for the tests), and runs nothing
set -euo pipefail
cd "$(dirname "$0")/.."
# time-based runs over the whole scratch device (3 GiB), which neither
# arm reads in 1.5 s at the speeds of today's disks; --invalidate=1
# drops what a faster one read before it reads it again, so no run can
# measure the page cache instead of the disk
root_args=(seqread --vary read_ahead_kb=16,1024 -t scratch:3G --size 3G
	--invalidate=1 --bs=64k --time 1500ms --budget 60s)
if [ "${1:-}" = --args ]; then
	printf '%s\n' "${root_args[@]}"
	exit 0
fi
tools/deps.sh --build-only --install --for 'make demo'
if [ "$(id -u)" = 0 ] && ! command -v mkfs.ext4 >/dev/null; then
	tools/deps.sh --install --for 'make demo'
fi
make --no-print-directory iotrial
base=${TMPDIR:-/tmp}
say() { printf '\n$ %s\n' "$*"; }

say ./iotrial run seqwrite -t "$base" --bs=1M --direct=1 --engine=io_uring --iodepth=8 --size=1G --time 3s
./iotrial run seqwrite -t "$base" --bs=1M --direct=1 --engine=io_uring --iodepth=8 --size=1G --time 3s

if [ "$(id -u)" = 0 ]; then
	args=("${root_args[@]}")
	# the scratch image must sit on a disk, not in memory: a tmpfs
	# TMPDIR is passed over for /var/tmp
	img_dir=${TMPDIR:-/var/tmp}
	[ "$(stat -f -c %T "$img_dir" 2>/dev/null)" = tmpfs ] && img_dir=/var/tmp
	if [ "$(stat -f -c %T "$img_dir" 2>/dev/null)" = tmpfs ]; then
		echo "note: $img_dir is a tmpfs, so the scratch image has no disk" \
			"under it and the compare below measures memory; set TMPDIR" \
			"to a directory on a disk"
	fi
	say ./iotrial compare "${args[*]}"
	out=$(mktemp)
	TMPDIR=$img_dir ./iotrial compare "${args[@]}" | tee "$out"
	echo
	if grep -q "^measured: .*(the disk under it)" "$out"; then
		echo "The 'measured:' line says where the bytes came from: the" \
			"scratch loop device, and the disk under its image in" \
			"'$img_dir'."
	else
		echo "The 'measured:' line names the scratch loop device only:" \
			"iotrial could not follow '$img_dir' down to a disk here," \
			"so it cannot say that the reads reached one."
	fi
	rm -f "$out"
else
	args=(seqread --vary bs=4k,1M -t "$base" --direct=1 --size=256M
		--time 2s --budget 60s)
	say ./iotrial compare "${args[*]}"
	./iotrial compare "${args[@]}"
fi
echo
echo "Stored; './iotrial log' lists experiments, './iotrial show ID' prints one."
