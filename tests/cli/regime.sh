#!/usr/bin/env bash
# Why a knob could not matter: a read-ahead compare with O_DIRECT reads on
# a loop device (read-ahead only fills the page cache) says so beside its
# verdicts, in the text and the JSON, and names the device the knob was
# set on in the plan and the "measured:" line; a run that writes nothing
# says a dirty threshold could not matter, and its summary shows the
# kernel's dirty thresholds in bytes next to the dirty peak. vm.dirty_*
# values are recorded first and put back by the EXIT trap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
dev=${L#/dev/}
ra0=$(cat "/sys/block/$dev/queue/read_ahead_kb")
"$IOTRIAL" compare seqread --vary read_ahead_kb=128,256 -t "$L" \
	--size=32M --direct=1 --ios 400 --runs 4 --no-store \
	--json="$TEST_TMP/ra.json" >"$TEST_TMP/ra.out" 2>"$TEST_TMP/ra.err"
rc=$?
check "read-ahead compare on a loop device runs (rc=$rc)" test $rc = 0
check "read-ahead is back to $ra0" \
	test "$(cat "/sys/block/$dev/queue/read_ahead_kb")" = "$ra0"
check "the plan names the device" \
	grep -qx "compare: 2 arms, seed [0-9]*; set: read_ahead_kb on '$dev'" "$TEST_TMP/ra.err"
check "the measured: line names the device" \
	grep -q "^measured: .*; read_ahead_kb was set on '$dev'$" "$TEST_TMP/ra.out"
check "a line beside the verdicts says read-ahead could not matter" \
	grep -q "^read_ahead_kb (on '$dev') could not matter: none of its 8 runs reached the regime it controls$" \
	"$TEST_TMP/ra.out"
check "with the reason for each value" \
	grep -q "^  at 256 (4 runs): the workload's reads bypassed the page cache (direct=1)" \
	"$TEST_TMP/ra.out"
check "the JSON keeps it, per run and for the experiment" \
	python3 - "$TEST_TMP/ra.json" "$dev" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
dev = sys.argv[2]
f = o["factors"][0]
assert f["name"] == "read_ahead_kb" and f["object"] == dev, f
assert f["scope"] == "device", f
for r in o["runs"]:
    g = [e for e in r["run"]["regime"] if e["knob"] == "read_ahead_kb"]
    assert len(g) == 1 and g[0]["state"] == "not_reached", g
    assert g[0]["object"] == dev and "direct=1" in g[0]["why"], g
    assert any(p["name"] == dev for p in r["run"]["truth"]["queue_peaks"])
(g,) = o["regimes"]
assert g["factor"] == "read_ahead_kb" and g["runs"] == 8, g
assert sorted(v["value"] for v in g["values"]) == ["128", "256"], g
PY

dir=$TEST_TMP/d
mkdir -p "$dir"
bg=$(cat /proc/sys/vm/dirty_background_ratio)
"$IOTRIAL" run seqread -t "$dir" --size=8M --ios 200 --no-store \
	--set "vm.dirty_background_ratio=$bg" --json="$TEST_TMP/run.json" \
	>"$TEST_TMP/run.out" 2>&1
rc=$?
check "a run with a dirty threshold set runs (rc=$rc)" test $rc = 0
check "the summary says the threshold could not matter, and why" \
	grep -q "^could not matter: vm.dirty_background_ratio=$bg: the workload wrote nothing" \
	"$TEST_TMP/run.out"
if grep -q '^nr_dirty_background_threshold ' /proc/vmstat; then
	check "the summary shows the thresholds in bytes beside the dirty peak" \
		grep -Eq '^  dirty memory: peak .*; thresholds: background [0-9.]+ [KMGT]?i?B, throttle ' \
		"$TEST_TMP/run.out"
	check "the run object has the thresholds in bytes" \
		python3 - "$TEST_TMP/run.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
t = o["truth"]["dirty_thresholds"]
assert t["background_bytes"] > 0 and t["throttle_bytes"] >= t["background_bytes"], t
assert t["dirtyable_bytes"] > t["background_bytes"], t
(g,) = o["regime"]
assert g["canonical"] == "vm.dirty_background_ratio" and g["state"] == "not_reached", g
PY
fi

# nr_requests on the loop device: one direct read at a time never fills
# a queue of 32, let alone 64; a raw knob's regime is unknown, said once
"$IOTRIAL" compare seqread --vary nr_requests=32,64 -t "$L" --size=32M \
	--direct=1 --ios 300 --runs 2 --no-store --json="$TEST_TMP/nr.json" \
	>"$TEST_TMP/nr.out" 2>"$TEST_TMP/nr.err"
rc=$?
check "an nr_requests compare on a loop device runs (rc=$rc)" test $rc = 0
check "a line beside the verdicts says nr_requests could not matter" \
	grep -q "^nr_requests (on '$dev') could not matter: none of its 4 runs reached the regime it controls$" \
	"$TEST_TMP/nr.out"
check "with the queue's peak against the smaller value" \
	grep -Eq "^  at 32 \(2 runs\): '$dev' never held as many as the 32 requests it allows: at most [01] in flight" \
	"$TEST_TMP/nr.out"
check "the JSON has it, per run and for the experiment" \
	python3 - "$TEST_TMP/nr.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for r in o["runs"]:
    (g,) = [e for e in r["run"]["regime"] if e["knob"] == "nr_requests"]
    assert g["state"] == "not_reached" and "never held" in g["why"], g
(g,) = o["regimes"]
assert g["factor"] == "nr_requests" and g["state"] == "not_reached", g
assert g["runs"] == 4 and g["not_reached"] == 4, g
PY

raw=sysfs:/sys/block/$dev/queue/iostats
ar0=$(cat "/sys/block/$dev/queue/iostats")
"$IOTRIAL" compare randread --vary "$raw=0,1" -t "$L" --size=16M \
	--direct=1 --ios 200 --runs 2 --no-store --json="$TEST_TMP/raw.json" \
	>"$TEST_TMP/raw.out" 2>"$TEST_TMP/raw.err"
rc=$?
check "a compare of a raw knob runs (rc=$rc)" test $rc = 0
check "...and puts it back" \
	test "$(cat "/sys/block/$dev/queue/iostats")" = "$ar0"
check "one line says its regime is unknown, and why" \
	test "$(grep -c "^$raw (on '$dev'): regime unknown in its 4 runs: iotrial does not know what a raw knob controls" \
		"$TEST_TMP/raw.out")" = 1
check "...and no line pretends it could not matter" \
	test -z "$(grep "could not matter" "$TEST_TMP/raw.out")"
check "the JSON says unknown, per run and once for the experiment" \
	python3 - "$TEST_TMP/raw.json" "$raw" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
raw = sys.argv[2]
for r in o["runs"]:
    (g,) = [e for e in r["run"]["regime"] if e["knob"] == raw]
    assert g["state"] == "unknown" and "raw knob" in g["why"], g
(g,) = o["regimes"]
assert g["factor"] == raw and g["state"] == "unknown", g
assert g["not_reached"] == 0 and g["values"] == [] and g["runs"] == 4, g
PY
"$IOTRIAL" run randread -t "$L" --size=16M --direct=1 --ios 200 --no-store \
	--set "$raw=$ar0" --set wbt_lat_usec=-1 >"$TEST_TMP/rawrun.out" 2>&1
rc=$?
check "a run with a raw knob and wbt_lat_usec set runs (rc=$rc)" test $rc = 0
check "...says once that the raw knob's regime is unknown" \
	test "$(grep -c "^regime unknown: $raw=$ar0 (on '$dev'): iotrial does not know" \
		"$TEST_TMP/rawrun.out")" = 1
check "...and that writeback throttling had nothing to throttle" \
	grep -q "^could not matter: wbt_lat_usec=-1 (on '$dev'): the workload wrote nothing, and writeback throttling slows only buffered writeback" \
	"$TEST_TMP/rawrun.out"

# vm.dirtytime_expire_seconds, set to what it is: without lazytime no
# inode holds only dirty timestamps; with it, a short run is shorter than
# the expiry
dt=$(cat /proc/sys/vm/dirtytime_expire_seconds)
for opt in relatime relatime,lazytime; do
	"$IOTRIAL" run seqwrite -t scratch:64M:ext4 --size=4M --ios 100 \
		--no-store --set "atime=$opt" \
		--set "vm.dirtytime_expire_seconds=$dt" \
		--json="$TEST_TMP/dt-$opt.json" >"$TEST_TMP/dt-$opt.out" 2>&1
	rc=$?
	check "a run with atime=$opt and the dirtytime expiry set runs (rc=$rc)" \
		test $rc = 0
done
check "without lazytime: no dirty timestamps to age" \
	grep -q "^could not matter: vm.dirtytime_expire_seconds=$dt: the target's file system was mounted without lazytime" \
	"$TEST_TMP/dt-relatime.out"
if [ "$dt" -gt 60 ]; then
	check "with lazytime: the run is shorter than the expiry" \
		grep -Eq "^could not matter: vm.dirtytime_expire_seconds=$dt: the run lasted [0-9.]+ s, and an inode whose only dirty data is its timestamps is written back only after $dt s$" \
		"$TEST_TMP/dt-relatime,lazytime.out"
fi
check "the run object keeps it" python3 - "$TEST_TMP/dt-relatime.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
(g,) = [e for e in o["regime"] if e["knob"] == "vm.dirtytime_expire_seconds"]
assert g["state"] == "not_reached" and "lazytime" in g["why"], g
PY
