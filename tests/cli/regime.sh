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
