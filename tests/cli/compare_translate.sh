#!/usr/bin/env bash
# compare says how it reads a knob value it translates, as run --set
# does (cfq is bfq, 2MB is 1952 KiB), once per value and before the
# runs, and labels the arm with what is really set: "scheduler=bfq
# (asked: cfq)" in the table and the JSON; --baseline takes either
# spelling. On a loop device of ours (root).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
dev=${L#/dev/}
ra0=$(cat /sys/block/$dev/queue/read_ahead_kb)
sched0=$(active_sched "$L")

# read_ahead_kb=2MB: decimal, whole pages; 1952 KiB is set
"$IOTRIAL" compare seqread --vary read_ahead_kb=128,2MB -t "$L" \
	--size=16M --ios 200 --runs 2 --no-store \
	--json="$TEST_TMP/ra.json" >"$TEST_TMP/ra.out" 2>"$TEST_TMP/ra.err"
rc=$?
check "compare with read_ahead_kb=2MB runs (rc=$rc)" test $rc = 0
check "the note says how 2MB is read, once" \
	test "$(grep -c "^note: read_ahead_kb: '2MB' is decimal.*1952 KiB" "$TEST_TMP/ra.err")" = 1
check "the note comes before the runs" \
	test "$(grep -n "^note: read_ahead_kb: '2MB'" "$TEST_TMP/ra.err" | cut -d: -f1)" -lt \
	"$(grep -n '^compare: ' "$TEST_TMP/ra.err" | cut -d: -f1)"
check "the table labels the arm with what was set" \
	grep -q '^read_ahead_kb=1952 (asked: 2MB) ' "$TEST_TMP/ra.out"
check "the JSON arm says what was set and what was asked" python3 - "$TEST_TMP/ra.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
a = o["arms"][1]
assert a["label"] == "read_ahead_kb=1952 (asked: 2MB)", a
assert a["settings"] == {"read_ahead_kb": "1952"}, a
assert a["asked"] == {"read_ahead_kb": "2MB"}, a
assert "asked" not in o["arms"][0], o["arms"][0]
assert o["verdicts"][0]["label"] == a["label"]
for r in o["runs"]:
    want = o["arms"][r["arm"]]["settings"]["read_ahead_kb"]
    assert r["run"]["knobs"]["read_ahead_kb"] == want, r["run"]["knobs"]
PY
check "read_ahead_kb is back to $ra0" \
	test "$(cat /sys/block/$dev/queue/read_ahead_kb)" = "$ra0"

# --baseline in either spelling
for b in read_ahead_kb=2MB read_ahead_kb=1952 2MB 1952 \
	"read_ahead_kb=1952 (asked: 2MB)"; do
	"$IOTRIAL" compare seqread --vary read_ahead_kb=128,2MB -t "$L" \
		--size=16M --ios 200 --runs 2 --no-store --quiet \
		--baseline "$b" --json="$TEST_TMP/b.json" >/dev/null 2>&1
	rc=$?
	check "--baseline '$b' names the translated arm (rc=$rc)" \
		test "$rc-$(json "$TEST_TMP/b.json" 'o["baseline"]')" = 0-1
done

# scheduler=cfq is bfq, where this kernel has bfq
if grep -qw bfq /sys/block/$dev/queue/scheduler; then
	"$IOTRIAL" compare randread --vary scheduler=none,cfq -t "$L" \
		--size=16M --ios 200 --runs 2 --no-store \
		--json="$TEST_TMP/s.json" >"$TEST_TMP/s.out" 2>"$TEST_TMP/s.err"
	rc=$?
	check "compare with scheduler=cfq runs (rc=$rc)" test $rc = 0
	check "the note says cfq is bfq" \
		test "$(grep -c "^note: scheduler: cfq was removed.*using 'bfq'" "$TEST_TMP/s.err")" = 1
	check "the table labels the arm scheduler=bfq (asked: cfq)" \
		grep -q '^scheduler=bfq (asked: cfq) ' "$TEST_TMP/s.out"
	check "the JSON arm says bfq was set" \
		test "$(json "$TEST_TMP/s.json" 'o["arms"][1]["settings"]["scheduler"]')" = bfq
	check "the scheduler is back to '$sched0'" \
		test "$(active_sched "$L")" = "$sched0"
else
	echo "# no bfq on this kernel: the scheduler translation is not tried"
fi
