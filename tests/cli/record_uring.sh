#!/usr/bin/env bash
# record takes io_uring requests: a liburing program's reads, writes,
# fsyncs and reads through a registered file are in the trace with their
# offsets, sizes, files and depths, and the operations record does not
# take (nop, statx) are named, not silently lost; fio --ioengine=io_uring
# (plain, then SQPOLL with registered files) is recorded with exactly
# the requests fio says it issued; a replay does them through io_uring
# and its fidelity is judged. Skipped only where io_uring is not
# available (or the BPF capture cannot load at all).
. "$(dirname "$0")/lib.sh"
need_root
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	skip "io_uring is disabled here (kernel.io_uring_disabled)"
fi
cc -O1 -o "$TEST_TMP/uring_ops" "$IOTRIAL_SRC/tests/cli/uring_ops.c" -luring \
	2>"$TEST_TMP/cc"
check "build the liburing helper" test $? = 0 || { cat "$TEST_TMP/cc"; exit 1; }
mkloop 128M || skip "cannot make a loop device"
mkmount "$LOOP" || skip "cannot make ext4"
"$TEST_TMP/uring_ops" "$MNT/probe" 2>"$TEST_TMP/err"
case $? in
0) ;;
77) skip "io_uring is not available here: $(cat "$TEST_TMP/err")" ;;
*) fail "the helper runs without record"; cat "$TEST_TMP/err" ;;
esac
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi
check "record can see io_uring requests on this kernel" \
	test -z "$(grep "io_uring requests are not recorded" "$TEST_TMP/err")" ||
	cat "$TEST_TMP/err"

# the helper: 32 writes, an fsync, an fdatasync, 16 readv, 8 reads of a
# registered file, 2 nops and a statx
"$IOTRIAL" record -o "$TEST_TMP/ops" -- "$TEST_TMP/uring_ops" "$MNT/u" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "record the liburing program" test $? = 0 || cat "$TEST_TMP/err"
check "record counts its ring and its requests" grep -q \
	"^io_uring: 1 ring made, 58 requests on 1 ring recorded (0 not completed" \
	"$TEST_TMP/out" || cat "$TEST_TMP/out"
check "and names the operations it left out" grep -q \
	"^warning: 3 io_uring requests of operations record does not take are not in the trace (nop 2, statx 1)" \
	"$TEST_TMP/err" || cat "$TEST_TMP/err"
"$IOTRIAL" trace stats "$TEST_TMP/ops" >"$TEST_TMP/os"
ops() { awk -v op="$1" '$1 == op && $3 ~ /\/s$/ { print $2 }' "$2"; }
check "32 io_uring writes" test "$(ops uring_write "$TEST_TMP/os")" = 32
check "24 io_uring reads" test "$(ops uring_read "$TEST_TMP/os")" = 24
check "an fsync and an fdatasync" test "$(ops uring_fsync "$TEST_TMP/os")" = 1 \
	-a "$(ops uring_fdatasync "$TEST_TMP/os")" = 1
check "128 KiB written" grep -q "written 128 KiB$" "$TEST_TMP/os" ||
	cat "$TEST_TMP/os"
check "8 on the registered file, at most 8 in flight" grep -q \
	"^io_uring: 58 requests on 1 ring, in flight at submission max 8, .*; 8 on registered files, 0 submitted by a ring's kernel thread, 0 not completed" \
	"$TEST_TMP/os" || grep io_uring "$TEST_TMP/os"
check "the stats name what was left out" grep -q \
	"^io_uring requests left out: 3 of operations not recorded (nop 2, statx 1)" \
	"$TEST_TMP/os"
"$IOTRIAL" trace show "$TEST_TMP/ops" >"$TEST_TMP/show"
check "the format is 1.3" grep -q "^iotrial trace, format 1.3$" "$TEST_TMP/show"
# each write at its offset, on the file the program named
id=$(awk -v p="$MNT/u" '$2 == "file" && $NF == p { print $1 }' "$TEST_TMP/show")
check "the file is in the trace" test -n "$id"
offs=$(awk -v id="$id" '$4 == "uring_write" && $6 == id { print $7 }' \
	"$TEST_TMP/show" | sort -n | tr '\n' ' ')
check "the writes at 0, 4 KiB, ... 124 KiB" \
	test "$offs" = "$(seq 0 4096 126976 | tr '\n' ' ')"
check "the reads of the registered file are on it" test "$(awk -v id="$id" \
	'$4 == "uring_read" && $6 == id && / fixed/ { n++ } END { print n }' \
	"$TEST_TMP/show")" = 8

# fio --ioengine=io_uring: 4 KiB random reads, O_DIRECT, 8 in flight
fio --name=lay --filename="$MNT/f" --size=16M --rw=write --bs=1M \
	--ioengine=psync >/dev/null 2>&1
fiorun() {
	local trace=$1
	shift
	"$IOTRIAL" record -o "$trace" -- fio --name=ur --filename="$MNT/f" \
		--size=16M --rw=randread --bs=4k --ioengine=io_uring --iodepth=8 \
		--direct=1 --randseed=7 "$@" --output-format=json \
		--output="$TEST_TMP/fio.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
fiorun "$TEST_TMP/fio" --number_ios=2000
check "record fio --ioengine=io_uring" test $? = 0 || cat "$TEST_TMP/err"
issued=$(json "$TEST_TMP/fio.json" "o['jobs'][0]['read']['total_ios']")
bytes=$(json "$TEST_TMP/fio.json" "o['jobs'][0]['read']['io_bytes']")
"$IOTRIAL" trace stats "$TEST_TMP/fio" >"$TEST_TMP/fs"
check "the trace holds the $issued reads fio issued" \
	test "$(ops uring_read "$TEST_TMP/fs")" = "$issued" || cat "$TEST_TMP/fs"
"$IOTRIAL" trace show "$TEST_TMP/fio" >"$TEST_TMP/fshow"
check "of 4 KiB each" test "$(awk '$4 == "uring_read" && $8 == 4096 { n++ }
	END { print n }' "$TEST_TMP/fshow")" = "$issued"
check "and the $bytes bytes fio read" test "$(awk \
	'$4 == "uring_read" { b += $9 } END { print b }' "$TEST_TMP/fshow")" = "$bytes"
depth=$(sed -n 's/^io_uring: .* in flight at submission max \([0-9]*\),.*/\1/p' \
	"$TEST_TMP/fs")
check "at a depth of 2 to 8 ($depth)" test "${depth:-0}" -ge 2 -a "${depth:-9}" -le 8

# SQPOLL: the ring's kernel thread submits, on registered files
fiorun "$TEST_TMP/sqp" --number_ios=300 --sqthread_poll=1 --registerfiles=1
check "record fio with a submission thread" test $? = 0 || cat "$TEST_TMP/err"
issued=$(json "$TEST_TMP/fio.json" "o['jobs'][0]['read']['total_ios']")
"$IOTRIAL" trace stats "$TEST_TMP/sqp" >"$TEST_TMP/ss"
check "every request fio issued, submitted by the kernel thread" grep -q \
	"^io_uring: $issued requests on 1 ring, .*; $issued on registered files, $issued submitted by a ring's kernel thread" \
	"$TEST_TMP/ss" || grep io_uring "$TEST_TMP/ss"

# the replays: through io_uring, their fidelity judged
mkdir -p "$TEST_TMP/dir"
"$IOTRIAL" run replay --trace "$TEST_TMP/fio" -t "$TEST_TMP/dir" --no-store \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "replay the fio trace" test $? = 0 || cat "$TEST_TMP/err"
check "as many io_uring reads" grep -q "^  uring_read *2000 .* 0$" "$TEST_TMP/out" ||
	cat "$TEST_TMP/out"
check "its fidelity judged, ops and bytes as recorded" grep -q \
	"^note: replay fidelity [0-9.]* of 100 (off by: ops 0.0%, bytes 0.0%" \
	"$TEST_TMP/out" || grep fidelity "$TEST_TMP/out"
# a file only io_uring requests read is laid out with its bytes, not as
# a hole (as one only named is), and started as the capture found it
python3 - "$TEST_TMP/ur1" <<'PY'
import struct, sys
def rec(t, p): return struct.pack('<II', t, len(p)) + p
def ev(ts, op, off=0, size=0, ret=0, fd=3, ring=0):
    return struct.pack('<QQIHHIIQQqIi', ts, 1000, 1, op, 0, 1, ring, off,
                       size, ret, 1 if ring else 0, fd)
d = b'IOTRACE\n' + struct.pack('<HHI', 1, 3, 16)
d += rec(1, struct.pack('<H', 5) + b'layer' + struct.pack('<H', 4) + b'file')
d += rec(2, struct.pack('<IBBHQQQ', 1, 1, 1, 6, 0, 0, 1 << 20) + b'/x/u/f')
e = [ev(1000, 1, ret=3), ev(5000, 28, 0, 4096, 4096, ring=1),
     ev(9000, 28, 65536, 4096, 4096, ring=1), ev(12000, 2)]
d += rec(3, b''.join(e))
d += rec(4, struct.pack('<QQQQQQ', len(e), 0, 20000, 0, 0, 0))
open(sys.argv[1], 'wb').write(d)
PY
mkdir -p "$TEST_TMP/dir1"
"$IOTRIAL" run replay --trace "$TEST_TMP/ur1" -t "$TEST_TMP/dir1" --no-store \
	>"$TEST_TMP/out1" 2>"$TEST_TMP/err"
check "replay a trace whose file only io_uring reads read" test $? = 0 ||
	cat "$TEST_TMP/err"
check "that file is laid out with its bytes and started out of the cache" \
	grep -q "^note: the page cache as the capture found it (.*): 1 laid-out file started out of it (1.0 MiB)" \
	"$TEST_TMP/out1"
"$IOTRIAL" record -o "$TEST_TMP/rep" -- "$IOTRIAL" run replay \
	--trace "$TEST_TMP/ops" -t "$TEST_TMP/dir" --no-store --speed max \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "replay the liburing trace, recorded" test $? = 0 || cat "$TEST_TMP/err"
# the replay opens its files with openat2, which record does not take:
# some of its requests may not be attributed, but all are seen
seen=$(sed -n 's/^io_uring: .* made, \([0-9]*\) requests on.*/\1/p' "$TEST_TMP/out")
unattr=$(sed -n 's/^warning: \([0-9]*\) io_uring requests could not be attributed.*/\1/p' \
	"$TEST_TMP/err")
check "the replay did its 58 requests through io_uring ($seen + ${unattr:-0})" \
	test $((${seen:-0} + ${unattr:-0})) = 58
check "and judged its fidelity" grep -q "^note: replay fidelity [0-9.]* of 100" \
	"$TEST_TMP/out"
exit 0
