#!/usr/bin/env bash
# --metric: the metric the question is about. Latency is lower-is-better
# (a slower arm has the higher p99 and is "slower"), the other metrics
# are reported beside the primary one, an unknown name gets a suggestion
# and the list, and stored experiments keep their metric for show, log
# and diff.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches)
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
db=$TEST_TMP/db
common=(-t "$dir" --size=64M --no-drop-caches --quiet --db "$db")

# a 64M read takes milliseconds, a 4k one microseconds, page cache or not;
# 8 blocks leave room for a block that a busy machine turns around
"$IOTRIAL" compare randread --vary bs=4k,64M "${common[@]}" --time 300ms \
	--runs 8 --seed 3 --metric p99 --json="$TEST_TMP/p99.json" \
	>"$TEST_TMP/p99.txt" 2>"$TEST_TMP/p99.err"
check "compare --metric p99 exits 0" test $? = 0
check "  ... the slower arm (higher p99) is 'slower', lower is better" \
	python3 - "$TEST_TMP/p99.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
m = o["metric"]
assert m == {"name": "p99", "higher_is_better": False, "unit": "ns"}, m
v = o["verdicts"][0]
assert v["label"] == "bs=64M" and v["verdict"] == "slower", v
assert v["ratio"] > 1 and v["ci_low"] > 1, v
for r in o["runs"]:
    run = r["run"]
    assert run["metric"]["name"] == "p99" and not run["metric"]["higher_is_better"]
    assert r["metric"] == run["metric"]["value"] == run["metrics"]["p99"]
    assert run["metrics"]["p99"] == run["latency_ns"]["read"]["p99"]
    assert run["metrics"]["iops"] == run["iops"]
# the others beside it: a median per arm
a = o["arms"][1]["metrics"]
assert a["iops"] > 0 and a["mbps"] > 0 and a["wall"] > 0, a
assert {d["name"] for d in o["metrics"]} >= {"iops", "mbps", "p99", "wall"}
PY
check "  ... the text says so" grep -q "^experiment .*p99 (lower is better)$" \
	"$TEST_TMP/p99.txt"
check "  ... and names the verdict" grep -qE '^bs=64M .* slower\*?$' "$TEST_TMP/p99.txt"
check "  ... with the other metrics beside it" \
	bash -c "grep -A3 '^beside it, median per arm' '$TEST_TMP/p99.txt' | grep -qE '^arm +iops \\(IO/s\\)'"
id=$(json "$TEST_TMP/p99.json" 'o["id"]')
"$IOTRIAL" show "$id" --db "$db" >"$TEST_TMP/show.txt" 2>&1
check "show prints the stored metric and its direction" \
	grep -q "^experiment $id: randread on .*, p99 (lower is better)$" \
	"$TEST_TMP/show.txt"
check "  ... and the verdict" grep -qE '^bs=64M .* slower\*?$' "$TEST_TMP/show.txt"
check "log names the metric and its direction" \
	bash -c "'$IOTRIAL' log --db '$db' | grep -E '^$id .* p99 .*slower.* \(lower is better\)$'"

# the same experiment judged by IOPS: diff refuses to compare them
"$IOTRIAL" compare randread --vary bs=4k,64M "${common[@]}" --time 300ms \
	--runs 4 --seed 3 --json="$TEST_TMP/iops.json" >/dev/null 2>&1
id2=$(json "$TEST_TMP/iops.json" 'o["id"]')
check "without --metric, randread is judged by iops" \
	test "$(json "$TEST_TMP/iops.json" 'o["metric"]["name"]')" = iops
"$IOTRIAL" diff "$id" "$id2" --db "$db" >"$TEST_TMP/diff.out" 2>&1
rc=$?
check "diff of a p99 and an iops experiment compares nothing" \
	bash -c "[ $rc = 2 ] && grep -q \"measured different metrics ('p99' and 'iops')\" '$TEST_TMP/diff.out' &&
		! grep -qE 'faster|slower' '$TEST_TMP/diff.out'"

# two p99 experiments: diff keeps the metric and its direction
"$IOTRIAL" compare randread --vary bs=4k,64M "${common[@]}" --time 300ms \
	--runs 4 --seed 4 --metric p99 --json="$TEST_TMP/p99b.json" >/dev/null 2>&1
id3=$(json "$TEST_TMP/p99b.json" 'o["id"]')
"$IOTRIAL" diff "$id" "$id3" --db "$db" >"$TEST_TMP/diff2.out" 2>&1
check "diff of two p99 experiments judges by p99, lower is better" \
	grep -q "^experiment $id\.\.$id3: randread on .*, p99 (lower is better)$" \
	"$TEST_TMP/diff2.out"

# run --metric
"$IOTRIAL" run randread -t "$dir" --size=16M --time 200ms --metric read_p99 \
	--db "$db" --json="$TEST_TMP/run.json" >"$TEST_TMP/run.txt" 2>&1
check "run --metric read_p99 judges the run by it" python3 - "$TEST_TMP/run.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
m = o["metric"]
assert m["name"] == "read_p99" and m["higher_is_better"] is False, m
assert m["unit"] == "ns" and m["value"] == o["latency_ns"]["read"]["p99"], m
PY
check "  ... and says it" grep -q "^metric: read_p99 = .* (lower is better)$" \
	"$TEST_TMP/run.txt"
rid=$(bash -c "'$IOTRIAL' log --db '$db' | awk '\$6 == \"read_p99\" { print \$1; exit }'")
check "  ... stored with it" bash -c "'$IOTRIAL' show '$rid' --db '$db' | grep -q '^metric: read_p99 = .* (lower is better)$'"
"$IOTRIAL" run seqwrite -t "$dir" --size=16M --time 200ms --metric read_p99 \
	--no-store >/dev/null 2>"$TEST_TMP/nowrite.err"
check "a metric the workload does not measure fails and says so" \
	grep -q "the run has no 'read_p99'" "$TEST_TMP/nowrite.err"

USAGE_DIR=$dir
expect_usage "an unknown metric gets a suggestion and the list" \
	"unknown metric 'p98'; did you mean 'p99'\\? the metrics of 'randread' are iops, mbps, device_mbps, .*wall" \
	compare randread --vary bs=4k,8k -t "$dir" --metric p98
expect_usage "run too" "unknown metric 'ipos'; did you mean 'iops'" \
	run randread -t "$dir" --metric ipos
check "compare --help lists the metrics and their direction" \
	bash -c "'$IOTRIAL' compare randread --help | grep -qE '^  read_p99 +ns +lower '"

check "nothing left in the target" test -z "$(ls -A "$dir")"
