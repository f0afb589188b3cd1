#!/usr/bin/env bash
# iotrial watch: its three output forms, the keys its JSON lines share
# with a run's devices[] entries, the default device choice, and bad
# input (an unknown device lists the ones that exist; a bad interval or
# count is a usage error). Short intervals keep it under two seconds.
. "$(dirname "$0")/lib.sh"

dev=
for d in /sys/block/*; do
	[ -r "$d/stat" ] || continue
	[ "$(cat "$d/size" 2>/dev/null)" != 0 ] || continue
	read -r rd _ _ _ wr _ <"$d/stat"
	if [ "$((rd + wr))" -gt 0 ]; then dev=$(basename "$d"); break; fi
done
[ -n "$dev" ] || skip "no disk has done any I/O"

out=$TEST_TMP/w.jsonl
"$IOTRIAL" watch "$dev" --interval 100ms --count 3 --json >"$out"
check "watch --json exits 0" test $? = 0
check "one line per device per interval" test "$(wc -l <"$out")" = 3
check "every line is a JSON object with the run's device keys" python3 - "$out" "$dev" <<'PY'
import json, sys
keys = {"time", "name", "r_s", "w_s", "rmbps", "wmbps", "r_await_ms",
        "w_await_ms", "aqu_sz", "util_pct", "flushes", "discards",
        "read_bytes", "write_bytes", "dirty_bytes", "writeback_bytes"}
for line in open(sys.argv[1]):
    o = json.loads(line)
    missing = keys - set(o)
    assert not missing, missing
    assert o["name"] == sys.argv[2]
    assert o["time"].endswith("Z") and "T" in o["time"]
    assert o["util_pct"] is None or 0 <= o["util_pct"] <= 100
    assert o["dirty_bytes"] is None or o["dirty_bytes"] >= 0
PY

"$IOTRIAL" watch "/dev/$dev" --interval 50ms --count 2 --csv >"$out"
check "watch --csv exits 0 and accepts /dev/NAME" test $? = 0
check "csv: a header and a line per interval" test "$(wc -l <"$out")" = 3
check "csv: the header names the columns" \
	grep -q '^time,name,r_s,w_s,rmbps,wmbps,r_await_ms,w_await_ms,aqu_sz,util_pct' "$out"
check "csv: lines have as many fields as the header" \
	test "$(awk -F, '{print NF}' "$out" | sort -u | wc -l)" = 1
check "csv: the time is a full UTC ISO 8601 time, date included" \
	test "$(tail -n +2 "$out" | grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z,')" = 2

"$IOTRIAL" watch --interval 50ms --count 1 >"$out"
check "default devices: exits 0" test $? = 0
check "default devices: a header with Dirty and Writeback" \
	grep -q 'r/s.*w/s.*rMB/s.*wMB/s.*r_await.*w_await.*aqu-sz.*%util.*Dirty.*Writeback' "$out"
check "default devices include $dev" grep -q " $dev " "$out"
for d in /sys/block/*; do
	read -r rd _ _ _ wr _ <"$d/stat" 2>/dev/null || continue
	if [ "$((rd + wr))" = 0 ] && [ "$(cat "$d/inflight" 2>/dev/null | tr -d ' ')" = 00 ]; then
		idle=$(basename "$d")
		check "an idle disk ($idle) is left out by default" \
			bash -c "! grep -q ' $idle ' '$out'"
		break
	fi
done

"$IOTRIAL" watch nosuchdev0 --count 1 >/dev/null 2>"$TEST_TMP/err"
check "an unknown device is a usage error" test $? = 2
check "the error names it and lists the devices" \
	grep -q "no block device 'nosuchdev0'; the devices here are: .*$dev" "$TEST_TMP/err"
"$IOTRIAL" watch "$dev" --interval 1ms --count 1 >/dev/null 2>&1
check "a too short interval is a usage error" test $? = 2
"$IOTRIAL" watch "$dev" --interval soon >/dev/null 2>&1
check "a malformed interval is a usage error" test $? = 2
"$IOTRIAL" watch "$dev" --count 0 >/dev/null 2>&1
check "count 0 is a usage error" test $? = 2
"$IOTRIAL" watch "$dev" --csv --json --count 1 >/dev/null 2>&1
check "--csv with --json is a usage error" test $? = 2
"$IOTRIAL" watch --help >"$out"
check "--help describes the keys" grep -q "dirty_bytes" "$out"

# Dirty and Writeback are the machine's: shown once per interval, on its
# first line, not repeated on every device's.
"$IOTRIAL" watch "$dev" "$dev" --interval 50ms --count 2 >"$out"
check "two devices: watch exits 0" test $? = 0
check "memory on the first line of each interval only" python3 - "$out" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])][1:]
assert len(rows) == 4, rows
for i, r in enumerate(rows):
    # time device 10 numbers, then Dirty and Writeback (value unit each)
    assert len(r) == (16 if i % 2 == 0 else 12), r
PY

# A detached loop device keeps its counters but has no size: not listed.
if loop=$(losetup -f 2>/dev/null) && [ -e "/sys/block/${loop#/dev/}" ]; then
	img=$TEST_TMP/w.img
	truncate -s 8M "$img"
	if losetup "$loop" "$img" 2>/dev/null; then
		dd if="$loop" of=/dev/null bs=4k count=4 iflag=direct 2>/dev/null
		losetup -d "$loop"
		name=${loop#/dev/}
		"$IOTRIAL" watch --interval 50ms --count 1 >"$out"
		check "a detached loop device ($name) is left out by default" \
			bash -c "! grep -q ' $name ' '$out'"
	fi
fi
