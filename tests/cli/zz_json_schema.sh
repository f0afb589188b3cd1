#!/usr/bin/env bash
# Every JSON object iotrial prints fits its published schema
# (docs/schema/*.schema.json, JSON Schema 2020-12): one of each kind made
# here, and every document iotrial wrote in the tests before this one
# (run-tests.sh points IOTRIAL_JSON_LOG_DIR at build/test-logs/json,
# where iotrial keeps a copy of each, and runs this test last). The
# validator fails on an object that does not fit, a bare array and an
# object without "schema": shown with one bad object of each.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
python3 -c 'import jsonschema' 2>/dev/null || skip "needs python3-jsonschema"
V="python3 $IOTRIAL_SRC/tests/json_schema.py $IOTRIAL_SRC/docs/schema"
J=$TEST_TMP/json
mkdir -p "$J"
db=$TEST_TMP/results.db
dir=$TEST_TMP/w
mkdir -p "$dir"

# one of each kind, none needing root
"$IOTRIAL" info -t "$dir" --json >"$J/info.json"
"$IOTRIAL" log --db "$db" --json >"$J/log-empty.json"
"$IOTRIAL" knobs -t "$dir" --json >"$J/knobs.json"
"$IOTRIAL" run randread -t "$dir" --size 1M --ios 256 --no-store \
	--json="$J/run.json" >/dev/null 2>&1
"$IOTRIAL" compare randread -t "$dir" --size 1M --ios 256 --vary bs=4k,8k \
	--runs 2 --db "$db" --json="$J/compare.json" >/dev/null 2>&1
id=$(jq -r .id "$J/compare.json")
"$IOTRIAL" compare randread -t "$dir" --size 1M --ios 256 --vary bs=4k,8k \
	--runs 2 --db "$db" >/dev/null 2>&1
"$IOTRIAL" log --db "$db" --json >"$J/log.json"
id2=$(jq -r '.experiments[0].id' "$J/log.json")
"$IOTRIAL" show "$id" --db "$db" --json >"$J/show.json"
"$IOTRIAL" report "$id" --db "$db" --format json >"$J/report.json"
"$IOTRIAL" diff "$id" "$id2" --db "$db" --json >"$J/diff.json" 2>/dev/null
"$IOTRIAL" revert --list --json >"$J/journal.json"
"$IOTRIAL" compare randread -t "$dir" --vary bs=4k,8k --dry-run --json >"$J/dry-run.json"
dev=$(jq -r '.device // empty' "$J/knobs.json")
if [ -n "$dev" ]; then
	"$IOTRIAL" set --device "/dev/$dev" read_ahead_kb=128 --dry-run \
		--json >"$J/set.json"
	"$IOTRIAL" watch "$dev" --interval 50ms --count 2 --json >"$J/watch.jsonl"
fi
for f in "$J"/*; do
	check "$(basename "$f") was written" test -s "$f"
done
out=$($V "$J"/* 2>&1)
check "each kind fits its schema" test $? = 0
grep -v '^valid' <<<"$out" | sed 's/^/#   /'
kinds=$(sed -n 's/^valid .*(\(.*\))$/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
check "they cover the kinds (got: $kinds)" \
	test "$kinds" = "diff dry-run experiment info journal knobs log plan run watch " -o \
	-z "$dev" -a "$kinds" = "diff dry-run experiment info journal knobs log run "

# what iotrial wrote in the suite (this test's documents too)
if [ -n "${IOTRIAL_JSON_LOG_DIR:-}" ] && [ -d "$IOTRIAL_JSON_LOG_DIR" ] &&
	[ -n "$(ls "$IOTRIAL_JSON_LOG_DIR")" ]; then
	n=$(find "$IOTRIAL_JSON_LOG_DIR" -mindepth 1 -maxdepth 1 | wc -l)
	out=$($V "$IOTRIAL_JSON_LOG_DIR" 2>&1)
	rc=$?
	check "the $n documents iotrial wrote in the suite fit their schemas" test $rc = 0
	grep -v '^valid' <<<"$out" | sed 's/^/#   /'
else
	echo "# no documents kept (IOTRIAL_JSON_LOG_DIR unset or empty): only this test's"
fi

# the validator fails on what does not fit
jq 'del(.metric)' "$J/run.json" >"$TEST_TMP/bad-run.json"
$V "$TEST_TMP/bad-run.json" >"$TEST_TMP/out" 2>&1
check "a run without its metric fails" test $? = 1
check "...naming what is missing" grep -q "'metric' is a required property" "$TEST_TMP/out"
jq '.changes[0].unchanged = "no"' "$J/set.json" >"$TEST_TMP/bad-plan.json" 2>/dev/null ||
	echo '{"schema":"iotrial/1","kind":"set-plan","dry_run":true,"changes":[{}]}' >"$TEST_TMP/bad-plan.json"
$V "$TEST_TMP/bad-plan.json" >/dev/null 2>&1
check "a plan with a wrong type fails" test $? = 1
"$IOTRIAL" --behaviour=log-json-array log --db "$db" --json >"$TEST_TMP/bare.json"
$V "$TEST_TMP/bare.json" >/dev/null 2>&1
check "the bare array of --behaviour=log-json-array fits no schema" test $? = 1
jq 'del(.schema)' "$J/info.json" >"$TEST_TMP/noschema.json"
$V "$TEST_TMP/noschema.json" >/dev/null 2>&1
check "an object without \"schema\" fails" test $? = 1
