#!/usr/bin/env bash
# A trace whose files do not fit the target is refused before anything
# is laid out, with advice replay can follow: it said "lower --size or
# --jobs", which replay has neither of. And an import of one file says
# "1 file", not "1 files".
. "$(dirname "$0")/lib.sh"
need_root
mkloop 64M || skip "cannot make a loop device"
mkmount "$LOOP" || skip "cannot make a file system"
# one file written at 0 and at 256 MiB: 256 MiB laid out as recorded
printf 'fio version 3 iolog\n0 /big add\n1 /big open\n2 /big write 0 4096\n3 /big write 268435456 4096\n4 /big close\n' \
	>"$TEST_TMP/big.iolog"
"$IOTRIAL" trace import -o "$TEST_TMP/big.trace" "$TEST_TMP/big.iolog" \
	>"$TEST_TMP/imp" 2>&1
check "the iolog imports" test $? = 0
check "one file is said as one file" grep -q " on 1 file from " "$TEST_TMP/imp"
"$IOTRIAL" run replay --trace "$TEST_TMP/big.trace" -t "$MNT" --no-store \
	>"$TEST_TMP/out" 2>&1
check "a trace larger than the target is refused" test $? = 2
check "it says how much is needed" grep -q "the workload needs 256 MiB" \
	"$TEST_TMP/out"
check "no advice of options replay does not have" \
	test -z "$(grep -e "--size" -e "--jobs" "$TEST_TMP/out")"
check "it says the files are laid out as recorded" \
	grep -q "laid out at their recorded sizes: pick another target" \
	"$TEST_TMP/out"
