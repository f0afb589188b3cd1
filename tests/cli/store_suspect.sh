#!/usr/bin/env bash
# Suspect verdicts of stored experiments, from generated iotrial/1 runs
# (so every verdict is known): runs whose warnings are only texts (as
# older iotrials wrote them) are classified; an experiment stored before
# verdicts had reasons is marked by log and show all the same; diff
# marks a verdict from flagged runs, counts it for --fail-on-regression
# only with --strict, and refuses experiments that ran differently
# unless --force (a parameter unset and set to its default is alike).
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"

# gen PREFIX N MEDIAN PARAMS-JSON [WARNING]: N run objects around MEDIAN
gen() {
	python3 - "$runs" "$@" <<'PY'
import json, random, sys
out, prefix, n, median, params = sys.argv[1:6]
warn = sys.argv[6] if len(sys.argv) > 6 else None
random.seed(prefix)
for i in range(int(n)):
    v = float(median) * (1 + random.uniform(-0.01, 0.01))
    run = {"schema": "iotrial/1", "workload": "randread",
           "params": json.loads(params), "knobs": {},
           "target": {"spec": "/srv", "kind": "dir"},
           "seconds": 1.0, "ops": int(v), "iops": v,
           "metric": {"name": "iops", "value": v, "higher_is_better": True},
           "env": {"hostname": "host1", "kernel_release": "6.1.0"},
           "warnings": [warn] if warn else []}
    json.dump(run, open("%s/%s%d.json" % (out, prefix, i), "w"))
PY
}
imp() {
	"$IOTRIAL" import --db "$db" "$@" | sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p'
}
cache="reads measured the page cache, not the device: the workload read 1 GiB but 'vda' delivered 1 MiB (0.1%)"

gen base 6 1000 '{"bs": 4096}'
gen fast 6 1300 '{"bs": 4096}' "$cache"
gen slow 6 900 '{"bs": 4096}' "$cache"
gen dflt 6 1000 '{"bs": "4k", "direct": false}'
gen other 6 1000 '{"bs": 8192, "direct": true}'
x=$(imp --arm base "$runs"/base*.json --arm fast "$runs"/fast*.json)
check "imported" test -n "$x"

"$IOTRIAL" show --db "$db" "$x" >"$TEST_TMP/show"
check "show marks a verdict from flagged runs" grep -qE '^fast .* faster\*$' "$TEST_TMP/show"
check "its footnote counts the runs" grep -qxF \
	"* fast: reads measured the page cache (6 of 6 runs of the arm)" "$TEST_TMP/show"
check "log marks it" grep -qE "^$x .* 2 arms: fast faster\\* 1\\.30x \\(suspect: page_cache\\)\$" \
	<("$IOTRIAL" log --db "$db")

# as stored by an iotrial before suspect reasons: no "suspect", no
# "warning_kinds", log's text without the mark
python3 - "$db" "$x" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
(text,) = db.execute("SELECT json FROM experiments WHERE id = ?", (sys.argv[2],)).fetchone()
o = json.loads(text)
for v in o["verdicts"]:
    del v["suspect"]
db.execute("UPDATE experiments SET json = ?, verdicts = ? WHERE id = ?",
           (json.dumps(o, separators=(",", ":")), "2 arms: fast faster 1.30x", sys.argv[2]))
db.commit()
PY
check "the old object has no reasons" test "$("$IOTRIAL" show --db "$db" "$x" --json | grep -c '"suspect"')" = 0
check "log marks an experiment stored before" grep -qE "^$x .* fast faster\\* 1\\.30x \\(suspect: page_cache\\)\$" \
	<("$IOTRIAL" log --db "$db")
check "show marks it" grep -qE '^fast .* faster\*$' <("$IOTRIAL" show --db "$db" "$x")

# diff: "after" flagged and slower
a=$(imp "$runs"/base*.json)
b=$(imp "$runs"/slow*.json)
"$IOTRIAL" diff --db "$db" "$a" "$b" --fail-on-regression >"$TEST_TMP/diff" 2>"$TEST_TMP/diff.err"
check "diff: a suspect regression does not fail without --strict" test $? = 0
check "diff marks the verdict" grep -qE "^after $b .* slower\\*\$" "$TEST_TMP/diff"
check "diff's footnote names the runs" grep -qxF \
	"* after $b: reads measured the page cache (6 of 6 runs of the arm)" "$TEST_TMP/diff"
check "diff says the regression was not counted" grep -qF \
	"warning: --fail-on-regression: arm 'after $b' is slower but suspect (page_cache): not counted" \
	"$TEST_TMP/diff.err"
"$IOTRIAL" diff --db "$db" "$a" "$b" --fail-on-regression --strict >"$TEST_TMP/diff" 2>&1
check "diff --strict --fail-on-regression exits 3" test $? = 3
check "diff --strict refuses 'slower'" grep -qE "^after $b .* suspect\\*\$" "$TEST_TMP/diff"
"$IOTRIAL" diff --db "$db" "$b" "$a" --json >"$TEST_TMP/diff.json"
check "diff --json: the baseline's reasons" test "$(json "$TEST_TMP/diff.json" \
	'[(r["arm"], r["label"], r["kind"], r["runs"], r["of"]) for r in o["experiment"]["verdicts"][0]["suspect"]]')" = \
	"[('baseline', 'before $b', 'page_cache', 6, 6)]"

# like for like: direct unset is direct=0, "4k" is 4096
d=$(imp "$runs"/dflt*.json)
o=$(imp "$runs"/other*.json)
"$IOTRIAL" diff --db "$db" "$a" "$d" >"$TEST_TMP/like" 2>&1
check "a parameter unset and set to its default is like for like" test $? = 0
check "and gets a verdict" grep -qE "^after $d .* equivalent\$" "$TEST_TMP/like"
check "without a word of unlikeness" test "$(grep -c 'not like for like' "$TEST_TMP/like")" = 0

"$IOTRIAL" diff --db "$db" "$a" "$o" >"$TEST_TMP/unlike" 2>"$TEST_TMP/unlike.err"
check "diff of unlike experiments exits 2" test $? = 2
check "it says so first" test "$(sed -n 2p "$TEST_TMP/unlike")" = \
	"not like for like: the two arms ran differently"
check "it lists the differences" test "$(sed -n 3,4p "$TEST_TMP/unlike")" = \
	"$(printf '  bs: 4 KiB (default) vs 8 KiB\n  direct: 0 (default) vs 1')"
check "and gives no verdict" test "$(grep -cE '^after|ratio' "$TEST_TMP/unlike")" = 0
check "the error says how to force it" grep -qxF \
	"error: experiments '$a' and '$o' are not like for like (the differences are listed above); --force compares them anyway" \
	"$TEST_TMP/unlike.err"
"$IOTRIAL" diff --db "$db" "$a" "$o" --json >"$TEST_TMP/unlike.json" 2>/dev/null
check "diff --json of unlike experiments" test "$(json "$TEST_TMP/unlike.json" \
	'(o["like_for_like"], o["unlike"], o["verdict"], "experiment" in o)')" = \
	"(False, ['bs: 4 KiB (default) vs 8 KiB', 'direct: 0 (default) vs 1'], '', False)"
"$IOTRIAL" diff --db "$db" "$a" "$o" --force >"$TEST_TMP/force" 2>&1
check "diff --force compares them anyway" test $? = 0
check "--force still says it first" test "$(sed -n 2p "$TEST_TMP/force")" = \
	"not like for like: the two arms ran differently"
check "--force gives the verdict" grep -qE "^after $o .* equivalent\$" "$TEST_TMP/force"
