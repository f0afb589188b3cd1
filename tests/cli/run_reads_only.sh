#!/usr/bin/env bash
# A device that holds a filesystem may be read without --allow-destroy:
# a workload that only reads (seqread, randread, randrw at rwmixread=100;
# no verify, no layout) runs there and says so on the line that says
# what ran where. Anything that writes is still refused, before it
# starts or, for an arm of compare that writes, before that arm's first
# run; the device is left as it was either way.
. "$(dirname "$0")/lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
out=$TEST_TMP/out
err=$TEST_TMP/err

mkloop 64M || skip "cannot attach a loop device"
mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
sum() { md5sum <"$LOOP_IMG"; }
before=$(sum)

"$IOTRIAL" run randread -t "$LOOP" --ios 2000 --no-store >"$out" 2>"$err"
rc=$?
check "randread on an ext4 device runs without --allow-destroy (rc=$rc)" \
	test "$rc" = 0
check "its first line says it reads only, and why" \
	grep -q "on $LOOP, reads only (it holds a 'ext4' filesystem)" "$out"
check "the plan line on stderr says so before the run" \
	grep -qx "run: target $LOOP holds a 'ext4' filesystem: reads only" "$err"
"$IOTRIAL" compare randread -t "$LOOP" --vary bs=4k,8k --runs 2 --ios 200 \
	--no-store >"$out" 2>"$err"
check "compare's plan line says it too" \
	grep -qx "compare: target $LOOP holds a 'ext4' filesystem: reads only" "$err"
"$IOTRIAL" run seqread -t "$LOOP" --ios 200 --bs 64k --direct=1 \
	--engine=io_uring --iodepth 8 --no-store --json="$TEST_TMP/r.json" \
	>"$out" 2>"$err"
rc=$?
check "seqread with O_DIRECT on io_uring runs too (rc=$rc)" test "$rc" = 0
check "the run object's \"described\" says it reads only" \
	python3 -c "import json, sys
d = json.load(open('$TEST_TMP/r.json'))['described']
sys.exit('reads only (it holds a \'ext4\' filesystem)' not in d)"
"$IOTRIAL" run randrw --rwmixread 100 -t "$LOOP" --ios 500 --no-store \
	>"$out" 2>"$err"
check "randrw at rwmixread=100 writes nothing, so it runs" test $? = 0
check "no read changed the device" test "$(sum)" = "$before"

for wl in seqwrite randwrite randrw; do
	"$IOTRIAL" run "$wl" -t "$LOOP" --ios 100 --no-store >"$out" 2>"$err"
	rc=$?
	check "$wl is refused (rc=$rc)" test "$rc" = 2
	check "$wl: the message says writing would destroy the ext4" \
		grep -q "'$LOOP' holds a 'ext4' filesystem; writing would destroy it" "$err"
done
"$IOTRIAL" run randread --verify=crc32c -t "$LOOP" --ios 100 --no-store \
	>"$out" 2>"$err"
check "randread --verify is refused (verify needs writes)" test $? = 2
"$IOTRIAL" run --job "$IOTRIAL_SRC/tests/data/fio/fio-rand-write.fio" \
	-t "$LOOP" --size 8M --time 200ms --no-store >"$out" 2>"$err"
check "a job file that writes is refused" \
	grep -q "holds a 'ext4' filesystem; writing would destroy it" "$err"
"$IOTRIAL" run --job "$IOTRIAL_SRC/tests/data/fio/fio-rand-read.fio" \
	-t "$LOOP" --size 8M --time 200ms --no-store >"$out" 2>"$err"
rc=$?
check "a job file that only reads runs (rc=$rc)" test "$rc" = 0
check "and says it reads only" grep -q "reads only (it holds" "$out"
# the first arm reads, the second would write: refused before its run
"$IOTRIAL" compare randrw --rwmixread 100 --vary rwmixread=100,50 --runs 2 \
	--ios 200 -t "$LOOP" --no-store >"$out" 2>"$err"
rc=$?
check "compare: an arm that writes fails the experiment (rc=$rc)" \
	test "$rc" != 0
check "compare: the message names the workload that writes" \
	grep -q "holds a 'ext4' filesystem; randrw writes, which would destroy it" "$err"
check "nothing that writes changed the device" test "$(sum)" = "$before"

# with --allow-destroy the device is the user's to use: no note
"$IOTRIAL" run randread -t "$LOOP" --ios 200 --allow-destroy --no-store \
	>"$out" 2>"$err"
check "--allow-destroy: runs, and the line does not say reads only" \
	bash -c "grep -q 'on $LOOP\$' '$out'"
wipefs -q -a "$LOOP" >/dev/null
"$IOTRIAL" run randread -t "$LOOP" --ios 200 --no-store >"$out" 2>"$err"
check "a blank device: no 'reads only' either" \
	bash -c "grep -q 'on $LOOP\$' '$out'"
