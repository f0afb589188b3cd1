#!/usr/bin/env bash
# export --arm and apply --arm take an arm's label or its number, as
# their help says: numbers count from 1 in the order the tables and
# --dry-run list the arms ('export --arm 4' of four arms was refused:
# the number was the JSON's index, from 0, which no text shows). '#N'
# is always a number; a bare number that is also another arm's label is
# refused as ambiguous, naming both and how to pick each. Experiments
# are generated and imported (no run); apply only with --dry-run on a
# scratch loop device.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"

DB=$TEST_TMP/results.db
mkloop 64M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
ra0=$(queue "$LOOP" read_ahead_kb)
ra1=$((ra0 == 4096 ? 2048 : 4096))

# four arms, the last faster: read_ahead_kb x nr_requests
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 3 read_ahead_kb=$ra0,$ra1 \
	nr_requests=64,128
id=$(imp_exp "$TEST_TMP/e.json")
check "experiment imported" test -n "$id"
arm() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["arms"][int(sys.argv[2])]["label"])' "$TEST_TMP/e.json" "$1"; }

# export_arm ARM: export arm ARM as a shell script; $rc its exit status,
# $got the label its arm line names (not in a subshell: rc is needed)
export_arm() {
	"$IOTRIAL" export "$id" --db "$DB" --arm "$1" --format shell \
		>"$TEST_TMP/x.sh" 2>"$TEST_TMP/err"
	rc=$?
	got=$(sed -n "s/^# iotrial experiment [0-9a-f]* ([0-9-]*), arm '\(.*\)':$/\1/p" "$TEST_TMP/x.sh")
}
export_arm 4
check "export --arm 4 exports the fourth arm listed (rc=$rc)" \
	test "$got" = "$(arm 3)" -a $rc = 0
export_arm 1
check "export --arm 1 exports the first (the baseline)" \
	test "$got" = "$(arm 0)" -a $rc = 0
export_arm '#2'
check "export --arm '#2' is the second" test "$got" = "$(arm 1)"
export_arm "$(arm 2)"
check "export --arm LABEL still works" test "$got" = "$(arm 2)"
export_arm 5
check "export --arm 5 of four arms exits 2" test $rc = 2
check "... listing the arms and their numbers" \
	grep -q "has no arm '5'; its arms: '$(arm 0)', .* (or their numbers, 1 to 4, in that order)" "$TEST_TMP/err"
export_arm 0
check "export --arm 0 exits 2: numbers count from 1" test $rc = 2

# apply --arm N: the plan of that arm (dry run; nothing changes)
"$IOTRIAL" apply "$id" --db "$DB" --arm 4 --dry-run >"$TEST_TMP/dry" 2>"$TEST_TMP/err"
rc=$?
check "apply --arm 4 --dry-run succeeds (rc=$rc)" test $rc = 0
[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/err"
check "... naming the fourth arm" grep -qF "arm '$(arm 3)':" "$TEST_TMP/dry"
"$IOTRIAL" apply "$id" --db "$DB" --arm 2 --dry-run >"$TEST_TMP/dry" 2>"$TEST_TMP/err"
check "apply --arm 2 names the second arm" grep -qF "arm '$(arm 1)':" "$TEST_TMP/dry"
check "nothing was changed" test "$(queue "$LOOP" read_ahead_kb)" = $ra0

# an arm labelled "2" (a hand-made import): "2" could be its label or
# the second arm's number, so it is refused; '#' picks either
python3 - "$TEST_TMP/e.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["arms"][3]["label"] = "2"
e["seed"] = "2"
json.dump(e, open(sys.argv[1], "w"))
PY
id=$(imp_exp "$TEST_TMP/e.json")
check "the experiment with an arm labelled 2 is imported" test -n "$id"
export_arm 2
check "export --arm 2 is ambiguous: exit 2" test $rc = 2
check "... naming both and how to give each" \
	grep -qF "'2' is both the label of arm 4 and the number of arm 2 ('$(arm 1)'); give '#2' for arm 2, or '#4' for the arm labelled '2'" "$TEST_TMP/err"
export_arm '#2'
check "export --arm '#2' is the second arm" test "$got" = "$(arm 1)"
export_arm '#4'
check "export --arm '#4' is the arm labelled 2" test "$got" = 2
"$IOTRIAL" apply "$id" --db "$DB" --arm 2 --dry-run >/dev/null 2>"$TEST_TMP/err"
check "apply --arm 2 is refused as ambiguous too" \
	test $? = 2 -a "$(grep -c "is both the label of arm 4" "$TEST_TMP/err")" = 1

# --dry-run numbers the arms as --arm takes them
"$IOTRIAL" compare seqread -t "$MNT" --vary read_ahead_kb=$ra0,$ra1 --size 1M \
	--dry-run >"$TEST_TMP/plan" 2>&1
check "compare --dry-run numbers the arms from 1" \
	test "$(grep -c "^arm [12] 'read_ahead_kb=" "$TEST_TMP/plan")" = 2 -a \
	"$(grep -c "^arm 0 " "$TEST_TMP/plan")" = 0
