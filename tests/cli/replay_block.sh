#!/usr/bin/env bash
# The block layer: record --layer block captures a randwrite run's
# requests on a loop device, and replay --layer block on another loop
# device reproduces its request sizes, write count and flushes exactly
# (counted by a capture of the replay and by the device's own stat); a
# write that carried FUA or a preflush is replayed as a write and a
# flush; a target smaller than the trace's reach is refused unless
# --fold; a file-layer replay of a block trace is refused.
. "$(dirname "$0")/lib.sh"
need_root
mkloop 64M || skip "cannot make a loop device"
SRC=$LOOP
mkloop 64M || skip "cannot make a loop device"
DST=$LOOP
if ! "$IOTRIAL" record --layer block --device "$SRC" --duration 10ms \
	-o "$TEST_TMP/probe.trace" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF block capture cannot load here"
fi

# a randwrite capture: 4 KiB writes with an fsync every 50, then 64 KiB
# ones, one at a time
stat_of() { awk -v f="$2" '{ print $f }' "/sys/block/${1#/dev/}/stat"; }
sw0=$(stat_of "$SRC" 5) sf0=$(stat_of "$SRC" 16)
"$IOTRIAL" record --layer block --device "$SRC" -o "$TEST_TMP/cap" -- \
	sh -c "'$IOTRIAL' run randwrite -t '$SRC' --allow-destroy --direct=1 \
		--bs=4k --size=16M --ios=200 --fsync=50 --seed=3 &&
	       '$IOTRIAL' run randwrite -t '$SRC' --allow-destroy --direct=1 \
		--bs=64k --size=16M --ios=30 --seed=4" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "record the block layer of two randwrite runs" test $? = 0 ||
	cat "$TEST_TMP/err"
sw1=$(stat_of "$SRC" 5) sf1=$(stat_of "$SRC" 16)
check "record names the device" \
	grep -q "^recorded [0-9]* requests of '$SRC'" "$TEST_TMP/out"
"$IOTRIAL" trace stats "$TEST_TMP/cap" >"$TEST_TMP/cs"
ops() { awk -v op="$1" '$1 == op && $3 ~ /\/s$/ { print $2 }' "$2"; }
check "the capture holds the 230 writes" test "$(ops blk_write "$TEST_TMP/cs")" = 230 ||
	cat "$TEST_TMP/cs"
check "and their sizes" grep -q "write  4 KiB to under 8 KiB: 200" "$TEST_TMP/cs"
check "... both of them" grep -q "write  64 KiB to under 128 KiB: 30" "$TEST_TMP/cs"
check "the 4 fsyncs are flushes" test "$(ops blk_flush "$TEST_TMP/cs")" -ge 4
"$IOTRIAL" trace show "$TEST_TMP/cap" >"$TEST_TMP/show"
check "the device's geometry is in the trace" \
	grep -q "^  block.logical_block_size = 512$" "$TEST_TMP/show"
check "and its queue" grep -q "^  block.nr_requests = [0-9]" "$TEST_TMP/show"
check "the format is 1.3" grep -q "^iotrial trace, format 1.3$" "$TEST_TMP/show"

# the replay, on the other device, itself recorded
w0=$(stat_of "$DST" 5) f0=$(stat_of "$DST" 16)
"$IOTRIAL" record --layer block --device "$DST" -o "$TEST_TMP/rep" -- \
	"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block \
	-t "$DST" --allow-destroy --json="$TEST_TMP/run.json" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "replay the capture at the block layer" test $? = 0 ||
	cat "$TEST_TMP/err" "$TEST_TMP/out"
w1=$(stat_of "$DST" 5) f1=$(stat_of "$DST" 16)
"$IOTRIAL" trace stats "$TEST_TMP/rep" >"$TEST_TMP/rs"
check "the replay made as many writes" \
	test "$(ops blk_write "$TEST_TMP/rs")" = "$(ops blk_write "$TEST_TMP/cs")"
check "of the same sizes" \
	diff <(grep '^  write ' "$TEST_TMP/cs") <(grep '^  write ' "$TEST_TMP/rs")
check "and as many flushes" \
	test "$(ops blk_flush "$TEST_TMP/rs")" = "$(ops blk_flush "$TEST_TMP/cs")"
# the kernel counts a flush as a flush and an empty write: the two
# devices' own counts agree
check "the devices counted as many writes" test $((w1 - w0)) = $((sw1 - sw0))
check "and as many flushes" test $((f1 - f0)) = $((sf1 - sf0))
check "the run says its fidelity" \
	grep -q "^note: block replay fidelity [0-9.]* of 100" "$TEST_TMP/out"
check "the fidelity is in the run object" \
	test "$(json "$TEST_TMP/run.json" "o['runs'][0]['fidelity'] if 'runs' in o else o['fidelity']" 2>/dev/null)" != ""

# a synthetic trace: one write with FUA, one with a preflush, one read
python3 - "$TEST_TMP/fua" <<'PY'
import struct, sys
ev = b""
for ts, op, flags in ((1000, 21, 16), (2000, 21, 8), (3000, 20, 0)):
    ev += struct.pack("<QQIHHIIQQqIi", ts, 10, 1, op, flags, 0, 0,
                      8192 * (ts // 1000), 4096, 0, 1, -1)
rec = lambda t, p: struct.pack("<II", t, len(p)) + p
meta = rec(1, struct.pack("<H", 5) + b"layer" + struct.pack("<H", 5) + b"block")
end = rec(4, struct.pack("<QQQQQQ", 3, 0, 5000, 0, 0, 0))
open(sys.argv[1], "wb").write(b"IOTRACE\n" + struct.pack("<HHI", 1, 1, 16)
                              + meta + rec(3, ev) + end)
PY
r0=$(stat_of "$DST" 1) w0=$(stat_of "$DST" 5) f0=$(stat_of "$DST" 16)
"$IOTRIAL" run replay --trace "$TEST_TMP/fua" --layer block -t "$DST" \
	--allow-destroy >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "replay a trace with FUA and preflush writes" test $? = 0 ||
	cat "$TEST_TMP/err"
r1=$(stat_of "$DST" 1) w1=$(stat_of "$DST" 5) f1=$(stat_of "$DST" 16)
check "the read reached the device" test $((r1 - r0)) = 1
check "the two writes did, each with a flush" \
	test $((w1 - w0)) -ge 2 -a $((f1 - f0)) -ge 2
"$IOTRIAL" run replay --trace "$TEST_TMP/fua" --layer block -t "$DST" \
	--allow-destroy >/dev/null 2>&1
f2=$(stat_of "$DST" 16)
# the same without the flags: no flush
python3 - "$TEST_TMP/fua" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.index(b"block") + 5 + 8  # the events' payload
for i in range(3):
    b[at + 64 * i + 22] = 0
open(sys.argv[1], "wb").write(b)
PY
"$IOTRIAL" run replay --trace "$TEST_TMP/fua" --layer block -t "$DST" \
	--allow-destroy >/dev/null 2>&1
f3=$(stat_of "$DST" 16)
check "without FUA and preflush, no flush" test $((f3 - f2)) = 0

# a target smaller than the trace reaches
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block -t scratch:4M \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a smaller target is refused" test $? != 0
check "saying how far the trace reaches and what --fold does" \
	grep -q "the trace reaches byte [0-9]* of its device.*--fold=1" "$TEST_TMP/err"
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block -t scratch:4M \
	--fold=1 >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--fold replays it" test $? = 0 || cat "$TEST_TMP/err"
check "and says how many it folded" \
	grep -q "^note: [0-9]* requests past the target's end were folded" "$TEST_TMP/out"

mkdir -p "$TEST_TMP/dir"
# a knob above the block layer is refused, or with --force suspect
"$IOTRIAL" compare replay --trace "$TEST_TMP/cap" --layer block -t "$DST" \
	--allow-destroy --vary read_ahead_kb=128,2048 --runs 6 --no-store \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "read_ahead_kb with a block replay is refused" test $? = 2
check "saying why" grep -q "'read_ahead_kb' with replay: a block-layer replay issues the recorded requests itself" "$TEST_TMP/err"
"$IOTRIAL" compare replay --trace "$TEST_TMP/cap" --layer block -t "$DST" \
	--allow-destroy --vary vm.dirty_ratio=10,20 --runs 6 --no-store \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "so is vm.dirty_ratio" grep -q "'vm.dirty_ratio' with replay: .*acts above the block layer" "$TEST_TMP/err"
"$IOTRIAL" compare replay --trace "$TEST_TMP/cap" --layer block -t "$DST" \
	--allow-destroy --vary read_ahead_kb=128,2048 --runs 1 --no-store \
	--force --speed max --json="$TEST_TMP/cf.json" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--force runs it, the verdict suspect" \
	grep -q "warning: 'read_ahead_kb' with replay: .*the verdict is suspect" "$TEST_TMP/err" ||
	cat "$TEST_TMP/err"
# every run of the experiment object carries the warning, of kind
# fidelity, and the comparison is marked suspect
marks() {
	python3 - "$1" <<'PY'
import json, sys
def walk(x):
    if isinstance(x, dict):
        if "warning_kinds" in x:
            yield "run:" + ",".join(x["warning_kinds"])
        if x.get("suspect"):
            yield "suspect"
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
print(" ".join(sorted(set(walk(json.load(open(sys.argv[1])))))))
PY
}
m=$(marks "$TEST_TMP/cf.json")
check "its runs carry a fidelity warning ($m)" \
	test -z "$(tr ' ' '\n' <<<"$m" | grep '^run:' | grep -v fidelity)"
check "... that says why, on both arms" test "$(grep -o \
	"'read_ahead_kb' with replay (--force): a block-layer replay" \
	"$TEST_TMP/cf.json" | wc -l)" -ge 2
check "... and a verdict over them is suspect" grep -qw suspect <<<"$m"
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block -t "$DST" \
	--allow-destroy --set read_ahead_kb=2048 --no-store --speed max \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "run --set read_ahead_kb with a block replay is refused" test $? = 2
check "saying why" grep -q "'read_ahead_kb' with replay: .*acts above the block layer.*--force" "$TEST_TMP/err"
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block -t "$DST" \
	--allow-destroy --set read_ahead_kb=2048 --no-store --speed max \
	--force --json="$TEST_TMP/rf.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "run --force runs it" test $? = 0 || cat "$TEST_TMP/err"
check "... its run marked with a fidelity warning" \
	grep -q "run:.*fidelity" <<<"$(marks "$TEST_TMP/rf.json")"
check "... that says why" grep -q \
	"'read_ahead_kb' with replay (--force): a block-layer replay" \
	"$TEST_TMP/rf.json"
"$IOTRIAL" compare replay --trace "$TEST_TMP/cap" -t "$TEST_TMP/dir" \
	--vary read_ahead_kb=128,2048 --runs 6 --no-store --time 1s \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a file-layer replay is not refused for it" \
	test -z "$(grep "acts above the block layer" "$TEST_TMP/err")"

# the wrong layer, the wrong target
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" -t "$TEST_TMP/dir" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a file-layer replay of block requests is refused" \
	grep -q "holds block requests only: replay it with --layer=block" "$TEST_TMP/err"
"$IOTRIAL" run replay --trace "$TEST_TMP/cap" --layer block -t "$TEST_TMP/dir" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a block replay on a directory is refused" \
	grep -q "a block-layer replay writes a device" "$TEST_TMP/err"
"$IOTRIAL" record --layer block -o "$TEST_TMP/x" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--layer block needs --device" grep -q "needs --device DEV" "$TEST_TMP/err"
"$IOTRIAL" record --layer block --device "$TEST_TMP/dir" -o "$TEST_TMP/x" \
	-- true >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--device must be a block device" grep -q "is not a block device" "$TEST_TMP/err"

# a trace of both layers: each replay compares its own layer
mkmount "$SRC" || skip "cannot make ext4"
(cd "$MNT" && "$IOTRIAL" record --layer both --device "$SRC" -o "$TEST_TMP/both" -- \
	sh -c 'dd if=/dev/zero of=f bs=4k count=50 conv=fsync 2>/dev/null') \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "record both layers" grep -q "^of them [0-9]* requests of '$SRC'" "$TEST_TMP/out" ||
	cat "$TEST_TMP/out" "$TEST_TMP/err"
umount "$MNT"
"$IOTRIAL" run replay --trace "$TEST_TMP/both" -t "$TEST_TMP/dir" --speed max \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "the file layer of it replays its calls only" \
	grep -q "^note: replay fidelity .*(off by: ops 0.0%, bytes 0.0%" "$TEST_TMP/out" ||
	cat "$TEST_TMP/out" "$TEST_TMP/err"
"$IOTRIAL" run replay --trace "$TEST_TMP/both" --layer block -t "$DST" \
	--allow-destroy --speed max >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "the block layer its requests only" \
	grep -q "^note: block replay fidelity .*(off by: ops 0.0%, bytes 0.0%" "$TEST_TMP/out" ||
	cat "$TEST_TMP/out" "$TEST_TMP/err"

# blktrace's binary records (blkparse -d) imported as a block trace
python3 - "$TEST_TMP/bt.bin" <<'PY'
import struct, sys
def rec(ns, sector, nbytes, ta, tc, dev=(7 << 20) | 3, pdu=b""):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, 1, ns, sector, nbytes,
                       ta | (tc << 16), 42, dev, 0, 0, len(pdu)) + pdu
d = b"".join(rec(1000 * i, 8 * i, 4096, 7, 2) + rec(1000 * i + 500, 8 * i, 4096, 8, 2)
             for i in range(1, 21))
d += rec(30000, 0, 0, 7, 4) + rec(30100, 0, 0, 8, 4) + rec(30200, 9, 512, 7, 1, dev=8 << 20)
open(sys.argv[1], "wb").write(d)
PY
"$IOTRIAL" trace import -o "$TEST_TMP/bt.trace" "$TEST_TMP/bt.bin" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "import blktrace records" grep -q "^imported 21 block requests of 7:3" "$TEST_TMP/out" ||
	cat "$TEST_TMP/out" "$TEST_TMP/err"
check "saying what of another device it left out" \
	grep -q "note: 1 records of other devices than 7:3 were left out" "$TEST_TMP/err"
"$IOTRIAL" trace stats "$TEST_TMP/bt.trace" >"$TEST_TMP/bs"
check "the imported writes and flush" \
	test "$(ops blk_write "$TEST_TMP/bs")" = 20 -a "$(ops blk_flush "$TEST_TMP/bs")" = 1
"$IOTRIAL" trace export --format blkparse -o "$TEST_TMP/cap.bt" "$TEST_TMP/cap" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "export the capture as blktrace records" test $? = 0
"$IOTRIAL" trace import -o "$TEST_TMP/cap.rt" "$TEST_TMP/cap.bt" >/dev/null 2>&1
"$IOTRIAL" trace stats "$TEST_TMP/cap.rt" >"$TEST_TMP/rts"
check "which import back as the same requests" \
	diff <(grep -E '^  (blk_|write |read )' "$TEST_TMP/cs" | awk '$3 ~ /\/s$/ { print $1, $2; next } { print }') \
	<(grep -E '^  (blk_|write |read )' "$TEST_TMP/rts" | awk '$3 ~ /\/s$/ { print $1, $2; next } { print }')
if command -v blkparse >/dev/null; then
	blkparse -i - <"$TEST_TMP/cap.bt" >"$TEST_TMP/bp" 2>&1
	check "blkparse reads them: the writes completed" \
		grep -q "Writes Completed: *230," "$TEST_TMP/bp"
fi
head -c 47 "$TEST_TMP/bt.bin" >"$TEST_TMP/bt.cut"
"$IOTRIAL" trace import -o "$TEST_TMP/bt2.trace" "$TEST_TMP/bt.cut" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a cut record is no blktrace (an iolog then), refused" test $? = 2
exit 0
