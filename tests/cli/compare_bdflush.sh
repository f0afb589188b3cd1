#!/usr/bin/env bash
# The bdflush names of Linux 2.4 in compare: an arm asked for as
# bdflush.nfract=N is labelled with the knob that is set
# ("vm.dirty_background_ratio=N (asked: bdflush.nfract=N)"), and the
# whole nine-field line varies as one factor, each arm setting the
# modern knobs of its fields. vm.dirty_* are machine-wide: recorded
# first (under the tests' vm lock) and put back whatever happens.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm
before=$(knob_vm_now)
d=$TEST_TMP/dir
mkdir -p "$d"

"$IOTRIAL" compare seqwrite -t "$d" --size=4M --ios 256 --runs 2 \
	--no-store --vary bdflush.nfract=5,7 --baseline bdflush.nfract=7 \
	--json="$TEST_TMP/n.json" >"$TEST_TMP/n.out" 2>"$TEST_TMP/n.err"
rc=$?
check "compare --vary bdflush.nfract runs (rc=$rc)" test $rc = 0
check "the table labels the arm with the modern name and what was asked" \
	grep -q '^vm.dirty_background_ratio=5 (asked: bdflush.nfract=5) ' "$TEST_TMP/n.out"
check "--baseline in the old spelling names the arm" \
	test "$(json "$TEST_TMP/n.json" 'o["baseline"]')" = 1
check "the translation is noted once" \
	test "$(grep -c "Linux 2.4 name of 'vm.dirty_background_ratio'" "$TEST_TMP/n.err")" = 1
check "vm.dirty_* are as they were" test "$(knob_vm_now)" = "$before"

"$IOTRIAL" compare seqwrite -t "$d" --size=4M --ios 256 --runs 2 \
	--no-store --vary 'bdflush=5 0 0 0 500 3000 30 0 0,7 0 0 0 400 2000 40 0 0' \
	--json="$TEST_TMP/l.json" >"$TEST_TMP/l.out" 2>"$TEST_TMP/l.err"
rc=$?
check "compare --vary with two nine-field lines runs (rc=$rc)" test $rc = 0
check "the note names the fields with no modern knob" \
	grep -q "ndirty=0 and nfract_stop_bdflush=0 have no modern knob" "$TEST_TMP/l.err"
check "each run set the modern knobs of its line's fields" python3 - "$TEST_TMP/l.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
want = {"5 0 0 0 500 3000 30 0 0": {"dirty_background_ratio": 5,
        "dirty_writeback_centisecs": 500, "dirty_expire_centisecs": 3000,
        "dirty_ratio": 30},
        "7 0 0 0 400 2000 40 0 0": {"dirty_background_ratio": 7,
        "dirty_writeback_centisecs": 400, "dirty_expire_centisecs": 2000,
        "dirty_ratio": 40}}
assert len(o["runs"]) == 4, len(o["runs"])
for r in o["runs"]:
    line = o["arms"][r["arm"]]["settings"]["bdflush"]
    vm = r["run"]["env"]["vm"]
    for k, v in want[line].items():
        assert vm[k] == v, (line, k, vm)
PY
check "vm.dirty_* are as they were after the lines" test "$(knob_vm_now)" = "$before"
