#!/usr/bin/env bash
# make demo: install missing build dependencies (when root; otherwise print
# the apt-get line and stop), build, and run iotrial's main job on its
# embedded defaults: one measured run, then a short compare whose verdict
# table answers "is B faster than A here?". Root gets a scratch loop
# device with ext4 (torn down afterwards) and varies read-ahead, the
# setting our users raise by folklore; others get a directory under
# $TMPDIR and vary the block size. Results go to the default store.
set -eu
cd "$(dirname "$0")/.."
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
	args=(seqread --vary read_ahead_kb=16,1024 -t scratch:2G:ext4
		--size=1536M --bs=64k --ios 24576 --budget 60s)
else
	args=(seqread --vary bs=4k,1M -t "$base" --direct=1 --size=256M
		--time 2s --budget 60s)
fi
say ./iotrial compare "${args[*]}"
./iotrial compare "${args[@]}"
echo
echo "Stored; './iotrial log' lists experiments, './iotrial show ID' prints one."
