#!/usr/bin/env bash
# An arm is named alike wherever a command takes one (export --arm,
# apply --arm, compare --baseline, diff --arm): by its label, its
# settings as the admin typed them in --vary or as iotrial set them,
# the value alone with one factor, its number; export and apply also by
# a value that means the same on the disk. 'export --arm
# scheduler=deadline' was refused while compare --baseline took it.
# Experiments are generated and imported (no run); apply and compare
# only with --dry-run, on a loop device of the test's own.
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
grep -qw mq-deadline "/sys/block/$dev/queue/scheduler" ||
	skip "'$dev' does not offer mq-deadline"

# as compare stores --vary scheduler=none,deadline: the second arm set
# mq-deadline, asked as deadline
asked() {
	python3 - "$1" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
a = e["arms"][1]
a["label"] = "scheduler=mq-deadline (asked: deadline)"
a["asked"] = {"scheduler": "deadline"}
e["factors"][0]["values"] = ["none", "deadline"]
json.dump(e, open(sys.argv[1], "w"))
PY
}
gen_exp "$TEST_TMP/a.json" "$MNT" "$dev" 1 scheduler=none,mq-deadline
asked "$TEST_TMP/a.json"
a=$(imp_exp "$TEST_TMP/a.json")
gen_exp "$TEST_TMP/b.json" "$MNT" "$dev" -1 scheduler=none,mq-deadline
asked "$TEST_TMP/b.json"
b=$(imp_exp "$TEST_TMP/b.json")
# as compare stores --vary scheduler=none,mq-deadline: nothing asked
gen_exp "$TEST_TMP/c.json" "$MNT" "$dev" 1 scheduler=none,mq-deadline
c=$(imp_exp "$TEST_TMP/c.json")
check "three experiments imported" test -n "$a" -a -n "$b" -a -n "$c"

# export_arm ID ARM [ARGS]: export arm ARM of ID as a udev rule; $rc,
# and $got the label its header names
export_arm() {
	local id=$1 arm=$2
	shift 2
	"$IOTRIAL" export "$id" --db "$DB" --arm "$arm" --format udev "$@" \
		>"$TEST_TMP/x.rules" 2>"$TEST_TMP/err"
	rc=$?
	got=$(sed -n "s/^# iotrial experiment [0-9a-f]* ([0-9-]*), arm '\(.*\)':$/\1/p" "$TEST_TMP/x.rules")
}
want="scheduler=mq-deadline (asked: deadline)"
for arm in "$want" scheduler=deadline scheduler=mq-deadline deadline \
	mq-deadline 2 '#2'; do
	export_arm "$b" "$arm"
	check "export --arm '$arm' (rc=$rc)" test $rc = 0 -a "$got" = "$want"
done
"$IOTRIAL" apply "$b" --db "$DB" --arm scheduler=deadline --dry-run \
	>"$TEST_TMP/dry" 2>"$TEST_TMP/err"
rc=$?
check "apply --arm scheduler=deadline --dry-run (rc=$rc)" \
	test $rc = 0 -a -n "$(grep -F "arm '$want':" "$TEST_TMP/dry")"
export_arm "$b" scheduler=kyber
check "an arm no name fits: refused, its arms listed (rc=$rc)" \
	test $rc = 2 -a -n "$(grep -F "has no arm 'scheduler=kyber'; its arms: 'scheduler=none', '$want'" "$TEST_TMP/err")"

# an experiment that set mq-deadline by that name: deadline means it on
# a disk that offers mq-deadline
export_arm "$c" scheduler=deadline -t "$MNT"
check "export --arm scheduler=deadline of a mq-deadline arm (rc=$rc)" \
	test $rc = 0 -a "$got" = scheduler=mq-deadline
check "...the rule sets mq-deadline" \
	grep -q "ATTR{queue/scheduler}=\"mq-deadline\"" "$TEST_TMP/x.rules"

# diff --arm: the same names, in each experiment
"$IOTRIAL" diff "$a" "$b" --db "$DB" --arm scheduler=deadline --force \
	>"$TEST_TMP/diff" 2>"$TEST_TMP/err"
rc=$?
check "diff --arm scheduler=deadline finds the arm in both (rc=$rc)" \
	test $rc = 0 -a -z "$(grep "is not in experiment" "$TEST_TMP/err")"
"$IOTRIAL" diff "$a" "$b" --db "$DB" --arm '#2' --force >/dev/null 2>&1
check "diff --arm '#2' too" test $? = 0

# compare --baseline: the number too, not only the spellings
for arm in 2 '#2' scheduler=deadline scheduler=mq-deadline deadline; do
	"$IOTRIAL" compare seqread -t "$MNT" --vary scheduler=none,deadline \
		--baseline "$arm" --size 1M --dry-run >"$TEST_TMP/plan" 2>"$TEST_TMP/err"
	rc=$?
	check "compare --baseline '$arm' (rc=$rc)" test $rc = 0 -a \
		-n "$(grep -F "arm 2 '$want' (the baseline):" "$TEST_TMP/plan")"
done
"$IOTRIAL" compare seqread -t "$MNT" --vary scheduler=none,deadline \
	--baseline scheduler=kyber --size 1M --dry-run >/dev/null 2>"$TEST_TMP/err"
rc=$?
check "compare --baseline of no arm is refused (rc=$rc)" test $rc = 2 -a \
	-n "$(grep "^error: baseline 'scheduler=kyber' is not one of the arms" "$TEST_TMP/err")"
