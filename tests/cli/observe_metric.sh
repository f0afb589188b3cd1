#!/usr/bin/env bash
# observe's own metric sources, end to end on an A/A switchback (nothing
# is changed, so no root is needed): a log followed as it grows, its
# lines counted per second or a number extracted from them; a command
# printing a counter, differenced per window; --per-load; and the
# refusals of what cannot be measured.
# parallel: A/A labels only (no knob, no device), its own services and logs
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
jqe() { jq -e "$@" >/dev/null; }
out=$TEST_TMP/out
LOG=$TEST_TMP/app.log
CNT=$TEST_TMP/counter
: >"$LOG"
echo 0 >"$CNT"
# a service: one request every 20 ms, its latency in the log, and a
# counter of requests served
(
	n=0
	while :; do
		n=$((n + 1))
		echo "served request $n in $((n % 7 + 3)) ms" >>"$LOG"
		echo "$n" >"$CNT.new" && mv "$CNT.new" "$CNT"
		sleep 0.02
	done
) &
SVC=$!
trap 'kill $SVC 2>/dev/null; wait $SVC 2>/dev/null; test_cleanup' EXIT

"$IOTRIAL" observe --vary label=a,b --window 0.5s --settle 0.25s \
	--windows 6 --metric-file "$LOG" --metric-regex 'served request' \
	--no-store --json="$TEST_TMP/count.json" >"$out" 2>&1
check "log count: exit 0" [ $? = 0 ]
check "log count: the user's metric judged" \
	jqe '.metric.name == "metric"' "$TEST_TMP/count.json"
# about 50 lines a second (sleep 0.02 plus the loop's own time)
# (the median window: on a loaded machine the service may be starved
# for a window, which is the load's doing, not the count's)
check "log count: lines per second, every window counted" \
	jqe '[.windows[] | .metric] | (map(. >= 0) | all) and
	     (sort | .[length / 2 | floor] | . > 5 and . < 60)' \
	"$TEST_TMP/count.json"
# the same service under both labels: a ratio near 1 (a verdict could
# be a false positive, which a test must not depend on)
check "log count: A/A ratio near 1" \
	jqe '.verdicts[] | select(.arm == 1) | .ratio > 0.7 and .ratio < 1.4' \
	"$TEST_TMP/count.json"

# a load whose count is small and random (every 0.1 s a burst of 0 to
# 16 lines, about 24 a 0.3 s window): the windows vary at least as a
# count at random does, and observe says counting limits the interval
# and which window would count about 100. The number it names is the
# windows' median count.
BURST=$TEST_TMP/burst.log
: >"$BURST"
python3 -c '
import random, sys, time
random.seed(7)
f = open(sys.argv[1], "a")
while True:
    f.write("tick\n" * random.randint(0, 16))
    f.flush()
    time.sleep(0.1)' "$BURST" &
BURSTER=$!
trap 'kill $SVC $BURSTER 2>/dev/null; wait $SVC $BURSTER 2>/dev/null; test_cleanup' EXIT
"$IOTRIAL" observe --vary label=a,b --window 0.3s --settle 0.1s \
	--windows 10 --metric-file "$BURST" --metric-regex tick --no-store \
	--json="$TEST_TMP/burst.json" >"$out" 2>&1
check "small random count: exit 0" [ $? = 0 ]
check "small random count: counting named as the limit, with a window" \
	grep -q "counted about [0-9]* a window.*counting alone keeps the interval near +-[0-9]*% after 10 blocks.*(--window [0-9]*s) would count about 100" "$out"
check "small random count: said once, with the report" \
	test "$(grep -c "counted about" "$out")" = 1
check "small random count: the count said is the windows' median" python3 - "$TEST_TMP/burst.json" <<'PY'
import json, re, statistics, sys
d = json.load(open(sys.argv[1]))
w = [r["metric"] * r["run"]["seconds"] for r in d["runs"]]
said = [int(m) for x in d["warnings"]
        for m in re.findall(r"counted about ([0-9]+) a window", x)]
assert len(said) == 1, d["warnings"]
assert abs(said[0] - statistics.median(w)) <= 1, (said, w)
PY
kill $BURSTER 2>/dev/null

"$IOTRIAL" observe --vary label=a,b --window 0.5s --settle 0.25s \
	--windows 6 --metric-file "$LOG" \
	--metric-regex 'in ([0-9]+) ms' --no-store \
	--json="$TEST_TMP/extract.json" >"$out" 2>&1
check "log extract: the mean of the numbers (3..9 ms)" \
	jqe '[.windows[] | .metric | select(. != null)] |
	     length >= 6 and (map(. >= 3 and . <= 9) | all)' \
	"$TEST_TMP/extract.json"
check "log extract: a mean is no count, nothing said of counting" \
	jqe '[.warnings[] | test("counted about")] | any | not' \
	"$TEST_TMP/extract.json"

"$IOTRIAL" observe --vary label=a,b --window 0.5s --settle 0.25s \
	--windows 6 --metric-cmd "cat $CNT" --counter --no-store \
	--json="$TEST_TMP/counter.json" >"$out" 2>&1
check "counter: differenced per second" \
	jqe '[.windows[] | .metric] | (map(. >= 0) | all) and
	     (sort | .[length / 2 | floor] | . > 5 and . < 60)' \
	"$TEST_TMP/counter.json"

"$IOTRIAL" observe --vary label=a,b --window 0.5s --settle 0.25s \
	--windows 6 --metric-cmd "cat $CNT" --counter --per-load metric \
	--metric-file "$LOG" --metric-regex x --no-store >"$out" 2>&1
check "one source only" grep -q "not both" "$out"

"$IOTRIAL" observe --vary label=a,b --window 0.5s --windows 6 \
	--metric metric --no-store >"$out" 2>&1
check "metric without a source refused" [ $? = 2 ]
"$IOTRIAL" observe --vary label=a,b --window 0.5s --windows 6 \
	--abort-if 'p99>2x baseline' --no-store >"$out" 2>&1
check "p99 rule refused with the reason" grep -q "percentiles" "$out"
"$IOTRIAL" observe --vary label=a,b --window 0.5s --windows 6 \
	--metric-file "$LOG" --metric-regex '(' --no-store >"$out" 2>&1
check "a bad regex refused" grep -q "cannot use --metric-regex" "$out"
"$IOTRIAL" observe --vary label=a,b --window 0.5s --budget 2s \
	--no-store >"$out" 2>&1
check "a budget too small refused" grep -q "longer --budget" "$out"
