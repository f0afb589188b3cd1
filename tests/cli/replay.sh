#!/usr/bin/env bash
# The replay workload: a recorded command replayed on a directory target
# does the same operations, bytes and names (fidelity near 100, in the
# run object); a trace that lost calls is refused unless --allow-lost,
# which marks the run; a trace's paths never reach outside the work
# directory, and one with ".." is refused. A file dropped from the page
# cache with fadvise(DONTNEED) is dropped in the replay too, so its
# reads reach the device; an advice Linux does not know is refused.
. "$(dirname "$0")/lib.sh"
need_root
W="$TEST_TMP/w"
T="$TEST_TMP/target"
mkdir -p "$W" "$T"
cd "$W" || exit 1
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi

head -c 65536 /dev/urandom >"$W/old"
"$IOTRIAL" record -o "$TEST_TMP/t1" -- sh -c \
	'dd if=/dev/zero of=f1 bs=4k count=100 conv=fsync 2>/dev/null;
	 dd if=old of=/dev/null bs=16k 2>/dev/null; mkdir d; mv f1 d/f2;
	 rm -r d' >/dev/null 2>&1
check "record the command" test $? = 0

# what any field of the run object says, wherever it is
field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def walk(x, k):
    if isinstance(x, dict):
        for a, b in x.items():
            if a == k:
                yield b
            yield from walk(b, k)
    elif isinstance(x, list):
        for b in x:
            yield from walk(b, k)
v = list(walk(json.load(open(sys.argv[1])), sys.argv[2]))
print(v[0] if v else "none")
PY
}
"$IOTRIAL" run replay --trace "$TEST_TMP/t1" -t "$T" --no-store \
	--json="$TEST_TMP/r1.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "replay runs" test $? = 0
check "its fidelity is printed" \
	grep -q "^note: replay fidelity" "$TEST_TMP/out" "$TEST_TMP/err"
fid=$(field "$TEST_TMP/r1.json" fidelity)
check "the run object's fidelity is 98 or more ($fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') >= 98)"
check "the 100 writes of dd, replayed" \
	test "$(field "$TEST_TMP/r1.json" ops_written)" -ge 100
check "the 64 KiB of the file that existed, read back in 16 KiB reads" \
	grep -q "read  *[0-9]* IOPS.*; [0-9]* ops, [0-9.]* KiB" "$TEST_TMP/out"
check "nothing is left in the target" \
	test -z "$(find "$T" -mindepth 1 -print -quit)"
check "the recorded files are untouched where they were" \
	test "$(stat -c %s "$W/old")" = 65536

# a trace that lost calls
"$IOTRIAL" record --ring 4K -o "$TEST_TMP/t2" -- \
	dd if=/dev/zero of=lf bs=512 count=20000 >/dev/null 2>&1
rm -f lf
"$IOTRIAL" run replay --trace "$TEST_TMP/t2" -t "$T" --no-store \
	>/dev/null 2>"$TEST_TMP/err"
check "a trace with lost calls is refused" test $? != 0
check "saying how to replay it anyway" grep -q -- "--allow-lost" "$TEST_TMP/err"
"$IOTRIAL" run replay --trace "$TEST_TMP/t2" -t "$T" --no-store \
	--allow-lost --speed max --json="$TEST_TMP/r2.json" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "with --allow-lost it runs" test $? = 0
check "and the run is marked" grep -q '"fidelity"' "$TEST_TMP/r2.json"
check "with a warning that says so" \
	grep -q "the trace lost [0-9]* calls in its capture" "$TEST_TMP/out" \
	"$TEST_TMP/err"

# hostile traces: an unlink of a file outside, a path with ..
mkdir -p "$TEST_TMP/outside"
echo keep >"$TEST_TMP/outside/x"
mktrace() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
def rec(t, p): return struct.pack('<II', t, len(p)) + p
path = sys.argv[2].encode()
f = rec(2, struct.pack('<IBBHQQQ', 1, 1, 1, len(path), 0, 0, 5) + path)
ev = struct.pack('<QQIHHIIQQqIi', 1000, 10, 1, 11, 0, 1, 0, 0, 0, 0, 0, -1)
end = rec(4, struct.pack('<QQQQQQ', 1, 0, 10**6, 0, 0, 0))
open(sys.argv[1], 'wb').write(b'IOTRACE\n' + struct.pack('<HHI', 1, 0, 16)
                              + f + rec(3, ev) + end)
PY
}
mktrace "$TEST_TMP/t3" "$TEST_TMP/outside/x"
"$IOTRIAL" run replay --trace "$TEST_TMP/t3" -t "$T" --no-store \
	>/dev/null 2>"$TEST_TMP/err"
check "an unlink of a path outside runs" test $? = 0
check "but only beneath the work directory: the file outside is there" \
	test "$(cat "$TEST_TMP/outside/x")" = keep
mktrace "$TEST_TMP/t4" "$TEST_TMP/w/../outside/x"
"$IOTRIAL" run replay --trace "$TEST_TMP/t4" -t "$T" --no-store \
	>/dev/null 2>"$TEST_TMP/err"
check "a path with .. is refused" test $? != 0
check "saying so" grep -q "not a plain absolute path" "$TEST_TMP/err"
check "the file outside is still there" \
	test "$(cat "$TEST_TMP/outside/x")" = keep

# page cache advice: a file written, synced, dropped from the cache with
# fadvise(DONTNEED) (dd iflag=nocache count=0), read back; the replay on
# a scratch device drops it too, so its reads reach the device
"$IOTRIAL" record -o "$TEST_TMP/t5" -- sh -c \
	'dd if=/dev/zero of=fa bs=64k count=64 conv=fsync 2>/dev/null;
	 dd if=fa iflag=nocache count=0 2>/dev/null;
	 dd if=fa of=/dev/null bs=64k 2>/dev/null; rm fa' >/dev/null 2>&1
check "record the advice" test $? = 0
"$IOTRIAL" trace show "$TEST_TMP/t5" >"$TEST_TMP/show"
check "trace show has the fadvise and its advice" \
	grep -q " fadvise .* advice=dontneed$" "$TEST_TMP/show"
"$IOTRIAL" trace stats "$TEST_TMP/t5" >"$TEST_TMP/stats"
check "trace stats counts it" grep -q "^  fadvise  *[1-9]" "$TEST_TMP/stats"
"$IOTRIAL" trace export --format fio-iolog3 -o "$TEST_TMP/t5.iolog" \
	"$TEST_TMP/t5" >"$TEST_TMP/out" 2>&1
check "an iolog export says it left the advice out" \
	grep -q "[1-9][0-9]* fadvise and readahead calls left out" \
	"$TEST_TMP/out"
"$IOTRIAL" run replay --trace "$TEST_TMP/t5" -t scratch:64M:ext4 \
	--no-store --json="$TEST_TMP/r5.json" >"$TEST_TMP/out" 2>&1
check "replay it on a scratch device" test $? = 0 || cat "$TEST_TMP/out"
dev_read=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r = r.get("run", r)
# the scratch device itself: the disk under its image may serve the
# image from its own page cache (a loop device inside a loop image)
print(r["devices"][0]["read_bytes"])' "$TEST_TMP/r5.json")
check "the replay's reads of the 4 MiB dropped reach the device ($dev_read B)" \
	test "$dev_read" -ge 2097152

# the same captured on a tmpfs, as a fresh machine's /tmp is: there the
# fsync takes no time, so nothing but the order between the threads
# keeps the replay's advice after the replay's flush
TFS="$TEST_TMP/tfs"
mkdir -p "$TFS" && mount -t tmpfs tmpfs "$TFS" && TEST_MOUNTS+=("$TFS")
(cd "$TFS" && "$IOTRIAL" record -o "$TEST_TMP/t6" -- sh -c \
	'dd if=/dev/zero of=fa bs=64k count=64 conv=fsync 2>/dev/null;
	 dd if=fa iflag=nocache count=0 2>/dev/null;
	 dd if=fa of=/dev/null bs=64k 2>/dev/null; rm fa' >/dev/null 2>&1)
for speed in 1 max; do
	"$IOTRIAL" run replay --trace "$TEST_TMP/t6" -t scratch:64M:ext4 \
		--speed "$speed" --no-store --json="$TEST_TMP/r6.json" \
		>"$TEST_TMP/out" 2>&1
	dev_read=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r = r.get("run", r)
print(r["devices"][0]["read_bytes"])' "$TEST_TMP/r6.json")
	check "captured on a tmpfs, --speed $speed: the advice waits for the other thread's fsync, the reads reach the device ($dev_read B)" \
		test "${dev_read:-0}" -ge 2097152
done

# an advice Linux does not know, in a hostile trace, is refused at load;
# so is the fadvise op in a trace that says 1.1
mkadv() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
def rec(t, p): return struct.pack('<II', t, len(p)) + p
path = b'/x'
f = rec(2, struct.pack('<IBBHQQQ', 1, 1, 1, len(path), 0, 0, 5) + path)
ev = struct.pack('<QQIHHIIQQqIi', 1000, 10, 1, 24, 0, 1, 0, 0, 0, 0,
                 int(sys.argv[3]), 3)
end = rec(4, struct.pack('<QQQQQQ', 1, 0, 10**6, 0, 0, 0))
open(sys.argv[1], 'wb').write(b'IOTRACE\n' +
                              struct.pack('<HHI', 1, int(sys.argv[2]), 16)
                              + f + rec(3, ev) + end)
PY
}
mkadv "$TEST_TMP/t6" 2 4
check "a 1.2 trace with a fadvise(DONTNEED) reads" \
	"$IOTRIAL" trace show "$TEST_TMP/t6"
mkadv "$TEST_TMP/t7" 2 9
"$IOTRIAL" run replay --trace "$TEST_TMP/t7" -t "$T" --no-store \
	>/dev/null 2>"$TEST_TMP/err"
check "an unknown advice is refused" test $? != 0
check "saying so" grep -q "fadvise of an unknown advice 9" "$TEST_TMP/err"
mkadv "$TEST_TMP/t8" 1 4
"$IOTRIAL" trace show "$TEST_TMP/t8" >/dev/null 2>"$TEST_TMP/err"
check "a 1.1 trace holding a fadvise is refused" test $? != 0
check "as an unknown operation" \
	grep -q "unknown operation 24" "$TEST_TMP/err"
