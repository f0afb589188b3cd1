#!/usr/bin/env bash
# compare --duet: the arms of a block run at the same time, each on a
# scratch target of its own. Every block has each arm once, on places
# drawn per block; the runs overlap in time; each place's device has the
# knob of the arm that ran there; afterwards every scratch device and
# mount is gone. Refused: a target that is not scratch, a knob of the
# whole system, more arms than places.
. "$(dirname "$0")/lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
export TMPDIR=$TEST_TMP # the scratch images and mounts go here

json=$TEST_TMP/duet.json
"$IOTRIAL" compare crashdump -t scratch:256M:ext4 --duet \
	--vary read_ahead_kb=128,2048 --time 300ms --runs 3 --seed 5 \
	--no-store --json="$json" >"$TEST_TMP/out" 2>&1
rc=$?
check "compare --duet runs end to end (rc=$rc)" test "$rc" = 0
check "every block runs each arm once, on two places, each with its arm's read-ahead" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["duet"] == 2, o.get("duet")
runs = o["runs"]
assert len(runs) == 6, len(runs)
blocks = {}
for r in runs:
    blocks.setdefault(r["block"], []).append(r)
assert sorted(blocks) == [0, 1, 2], sorted(blocks)
devs = set()
for b, rs in blocks.items():
    assert sorted(r["arm"] for r in rs) == [0, 1], rs
    assert sorted(r["place"] for r in rs) == [0, 1], rs
    for r in rs:
        ra = r["run"]["knobs"]["read_ahead_kb"]
        assert ra == ("128" if r["arm"] == 0 else "2048"), (r["arm"], ra)
        devs.add((r["place"], r["run"]["truth"]["device"]))
# two places, two devices, each place always the same device
assert len(devs) == 2 and len({p for p, _ in devs}) == 2, devs
# a duet run's others include the other arm's run: no others_runnable
assert all("steal" in r["covariates"] for r in runs)
assert all(r["covariates"]["others_runnable"] is None for r in runs), runs[0]["covariates"]
PY
check "the verdict has its adjusted comparison beside it" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][0]
assert v["adjusted"]["why"] == "few blocks" and v["verdict_from"] == "plain", v
' "$json"
check "no scratch loop device is left" \
	sh -c "! losetup -a | grep -qF '$TEST_TMP/iotrial-scratch.'"
check "no scratch mount is left" \
	sh -c "! grep -qF '$TEST_TMP/iotrial-scratch.' /proc/self/mountinfo"
check "the journal holds nothing to revert" \
	sh -c "'$IOTRIAL' revert --list 2>&1 | grep -qi 'nothing'"

# SIGINT during a duet: the runs made are kept, nothing is left behind
"$IOTRIAL" compare crashdump -t scratch:256M:ext4 --duet --vary label=a,b \
	--time 300ms --runs 100 --no-store --json="$TEST_TMP/int.json" \
	>"$TEST_TMP/int.out" 2>&1 &
pid=$!
for _ in $(seq 100); do
	grep -q '"block": 1' "$TEST_TMP/int.json" 2>/dev/null && break
	losetup -a | grep -qF "$TEST_TMP/iotrial-scratch." && sleep 1 && break
	sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT ends a duet compare (exit 1)" test "$rc" = 1
check "...saying the verdicts cover the runs done" \
	grep -q "interrupted: the verdicts cover only the runs done" "$TEST_TMP/int.out"
check "...and leaving no scratch device or mount" \
	sh -c "! losetup -a | grep -qF '$TEST_TMP/iotrial-scratch.' && ! grep -qF '$TEST_TMP/iotrial-scratch.' /proc/self/mountinfo"

out=$TEST_TMP/refused
"$IOTRIAL" compare crashdump -t "$TEST_TMP" --duet --vary label=a,b \
	--time 300ms --runs 2 --no-store >"$out" 2>&1
check "refused without a scratch target (exit 2)" test "$?" = 2
check "... saying it needs one" grep -q "needs one: -t scratch:" "$out"
"$IOTRIAL" compare crashdump -t scratch:256M:ext4 --duet \
	--vary vm.dirty_ratio=10,20 --time 300ms --runs 2 --no-store >"$out" 2>&1
check "refused for a knob of the whole system (exit 2)" test "$?" = 2
check "... naming it" grep -q "'vm.dirty_ratio' is set for the whole system" "$out"
"$IOTRIAL" compare crashdump -t scratch:256M:ext4 --duet \
	--vary label=a,b,c,d,e --time 300ms --runs 2 --no-store >"$out" 2>&1
check "refused for more arms than places (exit 2)" test "$?" = 2
check "... saying how many" grep -q "at most 4 of them; this experiment has 5" "$out"
check "and no scratch device is left after the refusals" \
	sh -c "! losetup -a | grep -qF '$TEST_TMP/iotrial-scratch.'"
