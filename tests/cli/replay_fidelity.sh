#!/usr/bin/env bash
# What a replay is held to (trace format 1.3): the capture records the
# settings in force on its device (knob.*, bdi.*, settings.disk) and
# what the page cache held of each file as it was first opened; a
# compare that varies read-ahead judges the arm whose settings are the
# capture's in full and, in the other arm, only what read-ahead cannot
# move: its device request sizes are reported as its effect, not as a
# fidelity flag, while a replay whose bytes differ is still flagged;
# the capture's sync is replayed (as syncfs of the target) so its
# writes reach the device as the capture's did.
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
LAZY="-E lazy_itable_init=0,lazy_journal_init=0"
mkmount "$SRC_LOOP" $LAZY || skip "cannot make a file system"
SRC=$MNT
# the capture's device reads ahead 128 KiB (said here, as the test
# depends on it); a loop device keeps it past its detach: put back
RA_FILE="/sys/block/${SRC_LOOP#/dev/}/queue/read_ahead_kb"
RA0=$(cat "$RA_FILE")
trap 'echo "$RA0" >"$RA_FILE"; test_cleanup' EXIT
echo 128 >"$RA_FILE"
# 40 MiB: a mean request size is judged over 32 MiB or more
dd if=/dev/urandom of="$SRC/data" bs=1M count=40 conv=fsync 2>/dev/null
meta() { awk -v k="$2" '$1 == k && $2 == "=" { print $3 }' "$1"; }

cd "$SRC" || exit 1
# a capture during which another process dropped the page cache has no
# device terms to hold a replay to (device.cache_drops): taken again
for try in 1 2 3 4 5; do
	cd / && umount "$SRC" && mount "$SRC_LOOP" "$SRC" && cd "$SRC" ||
		skip "cannot mount '$SRC_LOOP' again"
	"$IOTRIAL" record --force -o "$TEST_TMP/ra" -- \
		dd if=data of=/dev/null bs=16k >/dev/null 2>&1
	rc=$?
	"$IOTRIAL" trace show "$TEST_TMP/ra" >"$TEST_TMP/show"
	[ "$(meta "$TEST_TMP/show" device.cache_drops)" = 0 ] && break
done
check "record a cold read of 40 MiB" test $rc = 0
[ "$(meta "$TEST_TMP/show" device.cache_drops)" = 0 ] ||
	skip "another process dropped the page cache during each of 5 captures"
check "the trace is format 1.3" grep -q "^iotrial trace, format 1.3$" \
	"$TEST_TMP/show"
check "it records the read-ahead in force" \
	test "$(meta "$TEST_TMP/show" knob.read_ahead_kb)" = 128
check "and the disk it is of" \
	test "$(meta "$TEST_TMP/show" settings.disk)" = "${SRC_LOOP#/dev/}"
check "and the scheduler, the atime mode, the bdi's limits" \
	test -n "$(meta "$TEST_TMP/show" knob.scheduler)" -a \
	-n "$(meta "$TEST_TMP/show" knob.atime)" -a \
	-n "$(meta "$TEST_TMP/show" bdi.max_ratio)"

# sync: recorded, replayed as a flush of the target's file system
"$IOTRIAL" record -o "$TEST_TMP/sync" -- sh -c \
	'dd if=/dev/zero of=w bs=64k count=64 2>/dev/null; sync; rm w' \
	>/dev/null 2>&1
check "record a write and a sync" test $? = 0
cd / || exit 1
"$IOTRIAL" trace stats "$TEST_TMP/sync" >"$TEST_TMP/stats"
check "trace stats counts the sync" grep -q "^  sync  *1 " "$TEST_TMP/stats"

# compare read-ahead 128 KiB (the capture's) with 4 MiB: the device's
# requests grow with read-ahead, which is the experiment's result; the
# capture's other queue limits are set too (a loop device keeps what
# its last user set)
sets=()
for k in max_sectors_kb nr_requests wbt_lat_usec nomerges rq_affinity; do
	v=$(meta "$TEST_TMP/show" "knob.$k")
	[ -n "$v" ] && sets+=(--set "$k=$v")
done
"$IOTRIAL" compare replay --trace "$TEST_TMP/ra" --speed max \
	--vary read_ahead_kb=128,4096 --runs 4 -t scratch:128M:ext4 \
	"${sets[@]}" --no-store --json="$TEST_TMP/cmp.json" >"$TEST_TMP/out" 2>&1
check "compare the replay over read-ahead" test $? = 0 ||
	tail -5 "$TEST_TMP/out"
python3 - "$TEST_TMP/cmp.json" >"$TEST_TMP/runs" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
labels = {a['arm']: a['label'] for a in o['arms']}
for r in o['runs']:
    run = r['run']
    kinds = [k for k in run['warning_kinds'] if k == 'fidelity']
    s = {x['name']: (x['capture'], x['replay'], x['moves'])
         for x in run.get('fidelity_settings', [])}
    d = run['fidelity_device']
    # another process's drop of the page cache: device terms not judged;
    # a setting besides read-ahead another test changed meanwhile (a
    # vm.dirty_* knob) moves some of them
    quiet = not any('another process dropped the page cache' in w
                    for w in run['warnings']) and \
        not [x for x in s if x != 'read_ahead_kb']
    if d.get('not_judged'):
        print('  device terms:', d['not_judged'])
    print(labels[r['arm']], 'quiet' if quiet else 'disturbed',
          'fidelity-warnings=%d' % len(kinds),
          'settings=%s' % sorted(s),
          'moved=%s' % sorted(d.get('moved', {})),
          'dev_size=%s' % ('judged' if d['dev_size'] is not None else 'none'),
          'score=%.1f' % run['fidelity'])
    for w, k in zip(run['warnings'], run['warning_kinds']):
        if k == 'fidelity':
            print('  warning:', w)
for v in o['verdicts']:
    print('verdict', v['label'], sorted({s['kind'] for s in v.get('suspect', [])}))
PY
sed 's/^/# /' "$TEST_TMP/runs"
# (a run during which another process dropped the page cache has no
# device terms, and one another setting moved some: these count the
# others)
quiet128=$(grep -c '^read_ahead_kb=128 quiet' "$TEST_TMP/runs")
quiet4096=$(grep -c '^read_ahead_kb=4096 quiet' "$TEST_TMP/runs")
[ "$quiet128" -gt 0 ] && [ "$quiet4096" -gt 0 ] ||
	skip "other processes disturbed every run of an arm (page cache drops, vm.dirty_* changed)"
check "the capture's arm: its device request size is judged ($quiet128 undisturbed runs)" \
	test "$(grep -c '^read_ahead_kb=128 quiet .*settings=\[\] .*dev_size=judged' "$TEST_TMP/runs")" = "$quiet128" -a "$quiet128" -gt 0
check "the other arm: read-ahead is said to differ, its size moved, not judged ($quiet4096 undisturbed runs)" \
	test "$(grep -c "^read_ahead_kb=4096 quiet .*settings=\['read_ahead_kb'\] moved=\[.*'dev_size'.*\] dev_size=none" "$TEST_TMP/runs")" = "$quiet4096" -a "$quiet4096" -gt 0
check "no run carries a fidelity warning" \
	test "$(grep -c 'fidelity-warnings=0' "$TEST_TMP/runs")" = 8
check "so the verdict is not suspect of infidelity" \
	sh -c "grep '^verdict' '$TEST_TMP/runs' | grep -vq fidelity"
check "every run scores 95 or more" \
	test "$(grep -c 'score=\(9[5-9]\|100\)' "$TEST_TMP/runs")" = 8

# the same setting, and the bytes differ: a trace whose file was 4 MiB
# (its file record rewritten) reads 4 MiB where the capture read 40;
# read-ahead moves the device's terms, not the calls', so it is flagged
python3 - "$TEST_TMP/ra" "$TEST_TMP/short" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
out, at = bytearray(d[:16]), 16
while at < len(d):
    t, n = struct.unpack_from('<II', d, at)
    rec = bytearray(d[at:at + 8 + n])
    at += 8 + n
    if t == 2 and rec[8 + 32:].endswith(b'/data'):
        struct.pack_into('<Q', rec, 8 + 24, 4 << 20)
    out += rec
open(sys.argv[2], 'wb').write(out)
PY
"$IOTRIAL" run replay --trace "$TEST_TMP/short" -t scratch:128M:ext4 \
	--speed max --set read_ahead_kb=4096 --no-store >"$TEST_TMP/out" 2>&1
check "replay it with read-ahead at 4 MiB" test $? = 0
replay_show "$TEST_TMP/out"
check "the bytes that differ are flagged" \
	grep -q "^warning: the replay was not faithful to its trace: .*bytes differ by" \
	"$TEST_TMP/out"
check "what read-ahead moved is said as its effect" \
	grep -q "^note: replay settings that differ from the capture's: .*read_ahead_kb (4096 here, 128 in the capture)" \
	"$TEST_TMP/out"

# the capture's sync flushed its writes: the replay's do too (syncfs of
# the target), so the device's writes are judged near
replay_must sync --trace "$TEST_TMP/sync" -t scratch:128M:ext4 --speed max
check "replay the write and the sync" test $? = 0
replay_show "$TEST_TMP/out"
# (judged, or the effect of a setting that differs here: a vm.dirty_*
# knob another test changed meanwhile, a loop device that kept another
# user's queue limits)
dw="(lambda d: d['dev_write'] if d['dev_write'] is not None else d.get('moved', {}).get('dev_write'))(o['fidelity_device'])"
check "its writes reached the device as the capture's (dev_write $(json "$TEST_TMP/sync.json" "$dw"))" \
	test "$(json "$TEST_TMP/sync.json" "$dw is not None and $dw < 0.25")" = True
check "the flushes are a class of the distributions" \
	test "$(json "$TEST_TMP/sync.json" "o['fidelity_dist']['sync']['calls_replay'] >= 1")" = True
