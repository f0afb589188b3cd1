#!/usr/bin/env bash
# iotrial diff: the same workload in two stored experiments, before and
# after a kernel change. A synthetic pair made by importing generated
# iotrial run objects: "after" is 10% slower and ran on another kernel.
# diff must call it slower, flag the kernel, exit 3 only with
# --fail-on-regression, and refuse experiments of different workloads.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"

# imp ARGS...: import into $db and print the new id
imp() {
	"$IOTRIAL" import --db "$db" "$@" | sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p'
}

gen_runs "$runs" before 6 1000 6.1.0
gen_runs "$runs" after 6 900 6.18.44
gen_runs "$runs" same 6 1000 6.1.0
gen_runs "$runs" seq 6 800 6.1.0 seqread
before=$(imp "$runs"/before*.json)
after=$(imp "$runs"/after*.json)
same=$(imp "$runs"/same*.json)
seq=$(imp "$runs"/seq*.json)
check "four experiments imported" test -n "$before" -a -n "$after" -a -n "$same" -a -n "$seq"

"$IOTRIAL" diff "$before" "$after" --db "$db" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "diff without --fail-on-regression exits 0" test $rc = 0
check "diff names both sides" grep -q "^before: $before arm 'imported'; after: $after arm 'imported'$" "$TEST_TMP/out"
check "diff has a before row" grep -qE "^before $before +[0-9]+ .* baseline$" "$TEST_TMP/out"
check "diff calls after slower" grep -qE "^after $after +[0-9]+ .* 0\.(89|9[01])[0-9] \[.*slower$" "$TEST_TMP/out"
check "diff flags the kernel" grep -qx "env differs: kernel_release: '6.1.0' vs '6.18.44'" "$TEST_TMP/out"
check "diff ignores the boot id" test "$(grep -c 'env differs' "$TEST_TMP/out")" = 1

"$IOTRIAL" diff "$before" "$after" --db "$db" --fail-on-regression >/dev/null 2>&1
check "diff --fail-on-regression exits 3 when slower" test $? = 3
"$IOTRIAL" diff "$after" "$before" --db "$db" --fail-on-regression >"$TEST_TMP/out2" 2>&1
check "diff --fail-on-regression exits 0 when faster" test $? = 0
check "the other way round is faster" grep -qE "^after $before .*faster$" "$TEST_TMP/out2"
"$IOTRIAL" diff "$before" "$same" --db "$db" >"$TEST_TMP/out3" 2>&1
check "no environment differences are said" grep -qx "no differences in the recorded environments" "$TEST_TMP/out3"

"$IOTRIAL" diff "$before" "$after" --db "$db" --json >"$TEST_TMP/json"
check "diff --json" test "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["verdict"], d["before"] == sys.argv[2], d["after"] == sys.argv[3],
      len(d["experiment"]["runs"]), d["differences"])' "$TEST_TMP/json" "$before" "$after")" = \
	"slower True True 12 [\"env differs: kernel_release: '6.1.0' vs '6.18.44'\"]"

# --arm picks an arm present in both
gen_runs "$runs" qa 5 1000 6.1.0
gen_runs "$runs" qb 5 1300 6.1.0
gen_runs "$runs" qc 5 1000 6.1.0
gen_runs "$runs" qd 5 1000 6.1.0
two1=$(imp --arm base "$runs"/qa*.json --arm fast "$runs"/qb*.json)
two2=$(imp --arm base "$runs"/qc*.json --arm fast "$runs"/qd*.json)
"$IOTRIAL" diff "$two1" "$two2" --db "$db" --arm fast >"$TEST_TMP/arm" 2>&1
check "diff --arm compares that arm" grep -q "^before: $two1 arm 'fast'; after: $two2 arm 'fast'$" "$TEST_TMP/arm"
check "diff --arm finds the slowdown" grep -qE "^after $two2 .*slower$" "$TEST_TMP/arm"
"$IOTRIAL" diff "$two1" "$two2" --db "$db" >"$TEST_TMP/base" 2>&1
check "diff defaults to the baseline arms" grep -q "arm 'base'; after: $two2 arm 'base'$" "$TEST_TMP/base"

# refusals: exit 2, one clear line
"$IOTRIAL" diff "$before" "$seq" --db "$db" >/dev/null 2>"$TEST_TMP/err"
rc=$?
check "diff of different workloads exits 2" test $rc = 2
check "diff of different workloads says why" \
	grep -qx "error: experiments '$before' and '$seq' ran different workloads ('randread' and 'seqread'); diff compares the same workload before and after a change" "$TEST_TMP/err"
"$IOTRIAL" diff "$two1" "$two2" --db "$db" --arm nope >/dev/null 2>"$TEST_TMP/err"
check "diff --arm of a missing arm exits 2" test $? = 2
check "diff --arm lists the arms" grep -qx "error: arm 'nope' is not in experiment '$two1'; its arms are 'base', 'fast'" "$TEST_TMP/err"
"$IOTRIAL" diff "$before" --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "diff needs two ids" test $? = 2 -a "$(wc -l <"$TEST_TMP/err")" = 1
"$IOTRIAL" diff "$before" ffffffff --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "diff of an unknown id exits 2 naming the nearest" \
	test $? = 2 -a "$(grep -c "no experiment 'ffffffff'.*nearest: " "$TEST_TMP/err")" = 1
