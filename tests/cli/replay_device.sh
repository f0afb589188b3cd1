#!/usr/bin/env bash
# Fidelity at the device: record writes what reached the device under
# the traced files (meta device.*); a replay whose reads came from the
# page cache where the capture's reached the device scores lower and
# warns (kind fidelity) with the numbers; a capture whose reads were
# cached too replays without that warning; a trace without device.*
# (before format 1.2) still replays, its device terms "not recorded".
. "$(dirname "$0")/lib.sh"
need_root
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi
mkloop 128M || skip "cannot make a loop device"
SRC_LOOP=$LOOP
# no lazy initialisation: ext4lazyinit would write while we measure
LAZY="-E lazy_itable_init=0,lazy_journal_init=0"
mkmount "$SRC_LOOP" $LAZY || skip "cannot make a file system"
SRC=$MNT
mkloop 128M || skip "cannot make a loop device"
mkmount "$LOOP" $LAZY || skip "cannot make a file system"
DST=$MNT
dd if=/dev/urandom of="$SRC/data" bs=1M count=32 conv=fsync 2>/dev/null
# a cold file: this file system's cache goes with the mount
umount "$SRC" && mount "$SRC_LOOP" "$SRC" ||
	skip "cannot mount '$SRC_LOOP' again"

lacks() { ! grep -q "$@"; }
meta() { awk -v k="$2" '$1 == k && $2 == "=" { print $3 }' "$1"; }
cd "$SRC" || exit 1
"$IOTRIAL" record -o "$TEST_TMP/cold" -- cat data >/dev/null 2>"$TEST_TMP/err"
check "record a cold read" test $? = 0
"$IOTRIAL" trace show "$TEST_TMP/cold" >"$TEST_TMP/show"
check "the meta names the file system's device" \
	test "$(meta "$TEST_TMP/show" device.name)" = "${SRC_LOOP#/dev/}"
sect=$(meta "$TEST_TMP/show" device.read_sectors)
check "the 32 MiB read reached the device ($sect sectors)" \
	test "${sect:-0}" -ge 60000
check "the traced calls explain it" \
	python3 -c "import sys; sys.exit(not float('$(meta "$TEST_TMP/show" device.explained)') > 0.9)"
check "the meta says other processes' I/O is counted" \
	grep -q "device.scope = every process's I/O" "$TEST_TMP/show"
# the same file, read warm
cat data >/dev/null
"$IOTRIAL" record -o "$TEST_TMP/warm" -- cat data >/dev/null 2>"$TEST_TMP/err"
check "record a warm read" test $? = 0
"$IOTRIAL" trace show "$TEST_TMP/warm" >"$TEST_TMP/show"
sect=$(meta "$TEST_TMP/show" device.read_sectors)
check "the warm read did not reach the device ($sect sectors)" \
	test -n "$sect" -a "${sect:-1}" -lt 2048
cd / || exit 1

# the replay lays the file out, so its reads are warm
"$IOTRIAL" run replay --trace "$TEST_TMP/cold" -t "$DST" --no-store \
	--json="$TEST_TMP/cold.json" >"$TEST_TMP/out" 2>&1
check "replay the cold read" test $? = 0
check "the fidelity line has the device terms" \
	grep -Eq "^note: replay fidelity .*dev-read (9[0-9]|100)\.[0-9]%" \
	"$TEST_TMP/out" || grep fidelity "$TEST_TMP/out"
check "the device reads that came from the cache warn" \
	grep -q "^warning: .*at the device: the capture's reads reached the device (3[0-9.]* MiB); the replay's came from the page cache" \
	"$TEST_TMP/out"
check "the warning is of kind fidelity" \
	test "$(json "$TEST_TMP/cold.json" "sum(k == 'fidelity' and 'at the device' in w for k, w in zip(o['warning_kinds'], o['warnings']))")" = 1
check "the run object has the device terms" \
	test "$(json "$TEST_TMP/cold.json" "o['fidelity_device']['dev_read'] > 0.9 and o['fidelity_device']['dev_write'] < 0.1")" = True
# the file terms are near 0, dev-read near 1, dev-write near 0; the
# replay's device moved under 1 MiB, too few requests for a mean size or
# depth: 100 * (1 - 0.5 / 4) = 87.5
fid=$(json "$TEST_TMP/cold.json" "o['fidelity']")
check "the run object's score counts it (under 90: $fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') < 90)"
check "size and depth of a replay that hardly reached the device are not judged" \
	test "$(json "$TEST_TMP/cold.json" "o['fidelity_device']['dev_size'] is None and o['fidelity_device']['dev_depth'] is None")" = True

"$IOTRIAL" run replay --trace "$TEST_TMP/warm" -t "$DST" --no-store \
	--json="$TEST_TMP/warm.json" >"$TEST_TMP/out" 2>&1
check "replay the warm read" test $? = 0
check "its device terms are near" \
	grep -q "^note: replay fidelity .*dev-read 0.0%" "$TEST_TMP/out" ||
	grep fidelity "$TEST_TMP/out"
check "and do not warn" \
	lacks "at the device" "$TEST_TMP/out"
check "in the run object: dev-read judged, dev-size not (a few requests)" \
	test "$(json "$TEST_TMP/warm.json" "o['fidelity_device']['dev_read'] == 0 and o['fidelity_device']['dev_size'] is None")" = True

# a trace without device.*: the terms are not recorded, the replay runs
python3 - "$TEST_TMP/cold" "$TEST_TMP/old" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
out, at = bytearray(d[:16]), 16
while at < len(d):
    t, n = struct.unpack_from('<II', d, at)
    rec = d[at:at + 8 + n]
    at += 8 + n
    if t == 1:
        kl, = struct.unpack_from('<H', rec, 8)
        if rec[10:10 + kl].startswith(b'device.'):
            continue
    out += rec
open(sys.argv[2], 'wb').write(out)
PY
"$IOTRIAL" run replay --trace "$TEST_TMP/old" -t "$DST" --no-store \
	>"$TEST_TMP/out" 2>&1
check "a trace without device meta replays" test $? = 0
check "its device terms are not recorded" \
	grep -q "^note: replay fidelity .*device terms not recorded" \
	"$TEST_TMP/out" || grep fidelity "$TEST_TMP/out"
