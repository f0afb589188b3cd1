#!/usr/bin/env bash
# On a filesystem with no block device (tmpfs) every read is memory's,
# the first pass as well: a time-based read that wraps its file changes
# nothing there. compare said "give a --size larger than 'the device'
# reads in 0.5 s (more than 0 B per reader)" after the first run and,
# before it, that "the first run of each setting will tell"; it says
# neither now, but that every read there comes from memory.
. "$(dirname "$0")/lib.sh"
need_root
dir=/dev/shm/iotrial-test-wrap.$$
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] ||
	skip "/dev/shm is not a tmpfs"
mkdir -p "$dir"
TEST_DIRS+=("$dir")
absent() { ! grep -qE "$1" "$2"; } # ERE FILE

"$IOTRIAL" compare seqread -t "$dir" --size=4M --bs=1M --time 500ms \
	--vary jobs=1,2 --runs 2 --seed 3 --no-store \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a wrapping compare on tmpfs exits 0" test $? = 0
check "no advice about a device there is none of" \
	absent "the device' reads|more than 0 B|--size larger than" \
	"$TEST_TMP/err"
check "no promise that the first run will tell" \
	absent "the first run of each setting will tell" "$TEST_TMP/err"
check "compare says there is no block device, reads are memory" \
	grep -q "no block device under the target: every read comes from memory" "$TEST_TMP/err"
