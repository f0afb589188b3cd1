#!/usr/bin/env bash
# Fidelity at the device: record writes what reached the device under
# the traced files (meta device.*) and what the page cache held of each
# file at its first open (format 1.3); the replay starts each laid-out
# file as the capture found it, so a cold read replays cold and a warm
# one warm, both near at the device and without a warning; a replay
# whose reads came from the page cache where the capture's reached the
# device still scores lower and warns (kind fidelity) with the numbers;
# a trace without device.* (before format 1.2) still replays, its device
# terms "not recorded", its files started out of the page cache.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replay-lib.bash"
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
# a loop device keeps the queue settings an earlier user gave its
# number (read_ahead_kb, max_sectors_kb, wbt_lat_usec): the replay's
# device gets the capture's, so that they differ in nothing
for k in max_sectors_kb read_ahead_kb wbt_lat_usec; do
	f=queue/$k
	[ -w "/sys/block/${LOOP#/dev/}/$f" ] &&
		cat "/sys/block/${SRC_LOOP#/dev/}/$f" \
			>"/sys/block/${LOOP#/dev/}/$f" 2>/dev/null
done
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

# the replay lays the file out, then starts it as the capture found it:
# out of the page cache for the cold read (so its reads reach the
# device too), in it for the warm one (it said it left them warm)
replay_must cold --trace "$TEST_TMP/cold" -t "$DST" --speed max
check "replay the cold read" test $? = 0
replay_show "$TEST_TMP/out"
check "it starts the file out of the page cache, as the capture found it" \
	grep -Eq "^note: the page cache as the capture found it \(each file's cached bytes at its first open\): [0-9]+ laid-out files? started out of it \(3[0-9]\.[0-9] MiB\)" \
	"$TEST_TMP/out"
check "the fidelity line has the device terms, dev-read near" \
	grep -Eq "^note: replay fidelity .*dev-read [0-9]\.[0-9]%" \
	"$TEST_TMP/out"
check "and nothing at the device warns" lacks "at the device" "$TEST_TMP/out"
# (a vm.dirty_* knob another test changed meanwhile moves dev-write: then
# it is reported in moved, not judged)
check "the run object has the device terms" \
	test "$(json "$TEST_TMP/cold.json" "(lambda d: d['dev_read'] < 0.1 and (d['dev_write'] if d['dev_write'] is not None else d['moved']['dev_write']) < 0.1)(o['fidelity_device'])")" = True
fid=$(json "$TEST_TMP/cold.json" "o['fidelity']")
check "the run object's score is 95 or more ($fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') >= 95)"
check "its reads are spread as the capture's (fidelity_dist)" \
	test "$(json "$TEST_TMP/cold.json" "o['fidelity_dist']['read']['size'] == 0 and o['fidelity_dist']['read']['offset'] == 0")" = True

replay_must warm --trace "$TEST_TMP/warm" -t "$DST" --speed max
check "replay the warm read" test $? = 0
replay_show "$TEST_TMP/out"
check "it starts the file in the page cache, as the capture found it" \
	grep -Eq "^note: the page cache as the capture found it .*, [0-9]+ in it \(3[0-9]\.[0-9] MiB read into it\)" \
	"$TEST_TMP/out"
check "its device terms are near" \
	grep -q "^note: replay fidelity .*dev-read 0.0%" "$TEST_TMP/out"
check "and do not warn" \
	lacks "at the device" "$TEST_TMP/out"
check "in the run object: dev-read judged, dev-size not (a few requests)" \
	test "$(json "$TEST_TMP/warm.json" "o['fidelity_device']['dev_read'] == 0 and o['fidelity_device']['dev_size'] is None")" = True

# the judge still sees a replay whose reads came from the page cache
# where the capture's reached the device: the cold trace told that its
# file was cached at its open (its CACHED record rewritten), so the
# replay warms it, and its device counters say otherwise
python3 - "$TEST_TMP/cold" "$TEST_TMP/lying" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
out, at = bytearray(d[:16]), 16
while at < len(d):
    t, n = struct.unpack_from('<II', d, at)
    rec = bytearray(d[at:at + 8 + n])
    at += 8 + n
    if t == 5:  # CACHED: u32 id, u32 0, u64 bytes: all of it cached
        for k in range(8, len(rec), 16):
            struct.pack_into('<Q', rec, k + 8, 1 << 40)
    out += rec
open(sys.argv[2], 'wb').write(out)
PY
replay_must lying --trace "$TEST_TMP/lying" -t "$DST" --speed max
replay_show "$TEST_TMP/out"
check "a replay whose reads came from the page cache warns" \
	grep -q "^warning: .*at the device: the capture's reads reached the device (3[0-9.]* MiB); the replay's came from the page cache" \
	"$TEST_TMP/out"
check "the warning is of kind fidelity" \
	test "$(json "$TEST_TMP/lying.json" "sum(k == 'fidelity' and 'at the device' in w for k, w in zip(o['warning_kinds'], o['warnings']))")" = 1
# the file terms are near 0, dev-read near 1, dev-write near 0; the
# replay's device moved under 1 MiB, too few requests for a mean size or
# depth: 100 * (1 - 0.5 / 4) = 87.5
fid=$(json "$TEST_TMP/lying.json" "o['fidelity']")
check "the run object's score counts it (under 90: $fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') < 90)"
check "size and depth of a replay that hardly reached the device are not judged" \
	test "$(json "$TEST_TMP/lying.json" "o['fidelity_device']['dev_size'] is None and o['fidelity_device']['dev_depth'] is None")" = True

# a trace without device.* (a 1.2 trace has neither its files' cache
# state nor the settings): the terms are not recorded, the replay runs,
# its files start out of the page cache, as compare starts them
python3 - "$TEST_TMP/cold" "$TEST_TMP/old" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
out, at = bytearray(d[:16]), 16
struct.pack_into('<H', out, 10, 2)
while at < len(d):
    t, n = struct.unpack_from('<II', d, at)
    rec = d[at:at + 8 + n]
    at += 8 + n
    if t == 5:
        continue
    if t == 1:
        kl, = struct.unpack_from('<H', rec, 8)
        key = rec[10:10 + kl]
        if key.startswith((b'device.', b'settings.', b'bdi.')) or \
           (key.startswith(b'knob.') and not key.startswith(b'knob.vm.')):
            continue
    out += rec
open(sys.argv[2], 'wb').write(out)
PY
replay_must old --trace "$TEST_TMP/old" -t "$DST" --speed max
check "a trace without device meta replays" test $? = 0
replay_show "$TEST_TMP/out"
check "its device terms are not recorded" \
	grep -q "^note: replay fidelity .*device terms not recorded" \
	"$TEST_TMP/out"
check "its files start out of the page cache, saying why" \
	grep -Eq "^note: the page cache as the capture found it \(not recorded: a cold start, as compare's\): [0-9]+ laid-out files? started out of it" \
	"$TEST_TMP/out"
check "the device's settings were not recorded: every device term moves" \
	test "$(json "$TEST_TMP/old.json" "[s['moves'] for s in o['fidelity_settings'] if s['capture'] is None]")" = "[['dev_read', 'dev_write', 'dev_size', 'dev_depth', 'latency']]"
