#!/usr/bin/env bash
# --verify=crc32c: every written block carries a header and a crc32c and
# is read back from the disk after the run. A clean run reports 0
# mismatches; a byte changed on the disk between the write and the
# read-back (by the IOTRIAL_TEST_VERIFY_HOOK test aid) is reported with
# its file and offset, and the run exits 1.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out

"$IOTRIAL" run seqwrite -t "$TEST_TMP" --size 4M --ios 2048 --verify=crc32c \
	--no-store --json="$out.json" >"$out" 2>"$out.err"
check "seqwrite --verify=crc32c exits 0" test $? = 0
check "its JSON: every block checked, 0 mismatches, the check's cpu" \
	python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
v = o["verify"]
assert o["params"]["verify"] == "crc32c", o["params"]
assert v["method"] == "crc32c", v
assert v["blocks"] == (4 << 20) // 4096, v
assert v["mismatches"] == 0, v
assert v["cpu_s"] > 0 and v["readback_s"] > 0, v
assert v["first"] is None, v
PY
check "the summary says so" grep -q "verify   crc32c: 1024 blocks checked, 0 mismatches" "$out"

"$IOTRIAL" run seqwrite -t "$TEST_TMP" --size 1M --ios 256 --no-store \
	--json="$out.json" >"$out" 2>&1
check "without --verify: no verify object" python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert "verify" not in o and o["params"]["verify"] == "off", o["params"]
' "$out.json"

# The hook flips the byte at 5*4096+100 of job 0's file and notes the file.
cat >"$TEST_TMP/flip.py" <<'PY'
import os, sys
path, off = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDWR)
b = os.pread(fd, 1, off)
os.pwrite(fd, bytes([b[0] ^ 0x5a]), off)
os.close(fd)
PY
hook='[ "$IOTRIAL_VERIFY_FILE_ID" != 0 ] || { echo "$IOTRIAL_VERIFY_FILE" >"'$TEST_TMP'/flipped"; python3 "'$TEST_TMP'/flip.py" "$IOTRIAL_VERIFY_FILE" 20580; }'
IOTRIAL_TEST_VERIFY_HOOK=$hook "$IOTRIAL" run seqwrite -t "$TEST_TMP" \
	--size 1M --ios 512 --jobs 2 --verify=crc32c --no-store \
	--json="$out.json" >"$out" 2>"$out.err"
check "a byte changed on the disk: exit 1" test $? = 1
check "the hook ran on job 0's file" test -s "$TEST_TMP/flipped"
flipped=$(cat "$TEST_TMP/flipped" 2>/dev/null)
check "the error names that file, the block, the byte, the count" grep -qF \
	"data verification failed: 1 of 512 blocks not as written; the first: '$flipped' block at offset 20480 (first bad byte at offset 20580), found by the read-back: crc32c failed" \
	"$out.err"
check "the JSON is written, with the mismatch" python3 - "$out.json" "$flipped" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
v = o["verify"]
assert v["blocks"] == 512 and v["mismatches"] == 1, v
f = v["first"]
assert f["file"] == sys.argv[2], f
assert f["offset"] == 20480 and f["bad_byte"] == 20580, f
assert f["crc_ok"] is False and f["header_ok"] is True, f
assert f["found_by"] == "read-back", f
# the header was intact: job 0, the block's offset, the run's seed, and
# the 6th write of a pass over the 256 blocks (how many passes the
# unmeasured start made varies)
for k in ("expected", "found"):
    h = f[k]
    assert h["file_id"] == 0 and h["offset"] == 20480, f
    assert h["seed"] == o["seed"], f
    assert h["seq"] % 256 == 6, f
assert f["expected"] == f["found"], f
PY
IOTRIAL_TEST_VERIFY_HOOK=$hook "$IOTRIAL" run seqwrite -t "$TEST_TMP" \
	--size 1M --ios 256 --verify=crc32c >/dev/null 2>&1
check "a run with bad data is not stored" test "$(
	"$IOTRIAL" log 2>/dev/null | grep -c seqwrite)" = 0
check "the summary shows the first mismatch" grep -q "first mismatch: '.*job0" "$out"
check "and the work files are gone" test -z "$(find "$TEST_TMP" -name 'job*' 2>/dev/null)"

# The same through O_DIRECT and libaio: the pass reads the disk directly.
rm -f "$TEST_TMP/flipped"
IOTRIAL_TEST_VERIFY_HOOK=$hook "$IOTRIAL" run randwrite -t "$TEST_TMP" \
	--size 256k --ios 2000 --direct=1 --engine=libaio --iodepth 4 \
	--verify=crc32c --no-store --json="$out.json" >"$out" 2>"$out.err"
check "--direct=1 --engine=libaio: the changed byte is found, exit 1" \
	test $? = 1
check "...at its offset" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["verify"]["first"]
assert (f["offset"], f["bad_byte"]) == (20480, 20580), f
' "$out.json"

# Random writes rewrite blocks: the read-back must expect the latest.
for engine in psync io_uring libaio; do
	"$IOTRIAL" run randwrite -t "$TEST_TMP" --size 64k --ios 3000 \
		--engine=$engine --iodepth 8 --verify=crc32c --no-store \
		--json="$out.json" >"$out" 2>"$out.err"
	rc=$?
	check "randwrite --engine=$engine: 3000 writes on 16 blocks, exit 0" test $rc = 0
	check "...every block checked at its latest write, 0 mismatches" \
		python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
v = o["verify"]
assert o["ops_written"] == 3000, o["ops_written"]
assert v["blocks"] == 16 and v["mismatches"] == 0, v
PY
done

"$IOTRIAL" run randrw -t "$TEST_TMP" --size 256k --ios 4000 --verify=crc32c \
	--no-store --json="$out.json" >"$out" 2>"$out.err"
check "randrw --verify: reads of written blocks are checked too" \
	python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
v = o["verify"]
assert v["mismatches"] == 0, v
assert v["blocks"] > 64, v  # the read-back's 64 at most, plus reads
PY

"$IOTRIAL" run seqwrite -t "$TEST_TMP" --bs 32 --verify=crc32c --no-store \
	>"$out" 2>&1
check "bs smaller than the header: usage error" test $? = 2
check "...naming the header's size" grep -q "bs 32 is smaller than the 48-byte header" "$out"
"$IOTRIAL" run seqread -t "$TEST_TMP" --verify=crc32c --no-store >"$out" 2>&1
check "--verify on a read workload: usage error" test $? = 2
"$IOTRIAL" run randwrite -t "$TEST_TMP" --size 16k --engine io_uring \
	--iodepth 8 --verify=crc32c --no-store >"$out" 2>&1
check "fewer blocks than iodepth: usage error" test $? = 2

# smallfiles: the mix's files, checked on its reads and read back.
"$IOTRIAL" run smallfiles -t "$TEST_TMP" --clients 2 --files 40 --ios 1500 \
	--verify=crc32c --no-store --json="$out.json" >"$out" 2>"$out.err"
check "smallfiles --verify=crc32c exits 0" test $? = 0
check "...0 mismatches over its files' blocks" python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
v = o["verify"]
assert v["mismatches"] == 0 and v["blocks"] > 0 and v["first"] is None, v
assert o["file_ops"]["read"]["count"] > 0, o["file_ops"]
PY
rm -f "$TEST_TMP/flipped"
sfhook='case "$IOTRIAL_VERIFY_FILE" in */client1/*) [ -e "'$TEST_TMP'/flipped" ] || { echo "$IOTRIAL_VERIFY_FILE" >"'$TEST_TMP'/flipped"; python3 "'$TEST_TMP'/flip.py" "$IOTRIAL_VERIFY_FILE" 300; };; esac'
IOTRIAL_TEST_VERIFY_HOOK=$sfhook "$IOTRIAL" run smallfiles -t "$TEST_TMP" \
	--clients 2 --files 40 --ios 1500 --verify=crc32c --no-store \
	--json="$out.json" >"$out" 2>"$out.err"
check "smallfiles: a byte changed in one file: exit 1" test $? = 1
flipped=$(cat "$TEST_TMP/flipped" 2>/dev/null)
check "...the error names that file and offset" grep -qF \
	"data verification failed: 1 of " "$out.err"
check "...exactly" grep -qF \
	"the first: '$flipped' block at offset 0 (first bad byte at offset 300)" \
	"$out.err"
"$IOTRIAL" run smallfiles -t "$TEST_TMP" --sizes 16 --verify=crc32c \
	--no-store >"$out" 2>&1
check "smallfiles: files smaller than the header: usage error" test $? = 2
