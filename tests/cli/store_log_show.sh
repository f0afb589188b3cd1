#!/usr/bin/env bash
# iotrial log and show over a store filled by import of generated iotrial
# run objects: log lists experiments newest first with their verdict,
# show prints one again by its id or a unique prefix, --json gives JSON.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/store/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"

gen_runs "$runs" none 6 1000
gen_runs "$runs" mq 6 1200
out=$("$IOTRIAL" import --db "$db" --arm scheduler=none "$runs"/none*.json \
	--arm scheduler=mq-deadline "$runs"/mq*.json)
check "import prints the new id" grep -qE '^imported 12 runs as experiment [0-9a-f]{8}$' <<<"$out"
id1=$(sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p' <<<"$out")
check "import prints the verdict table" grep -qE '^scheduler=mq-deadline .* faster$' <<<"$out"

gen_runs "$runs" one 5 500 6.1.0 seqread
out=$("$IOTRIAL" import --db "$db" "$runs"/one*.json)
id2=$(sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p' <<<"$out")

"$IOTRIAL" log --db "$db" >"$TEST_TMP/log" 2>"$TEST_TMP/err"
check "log exits 0" test $? = 0
check "log has a header" grep -qE '^id +date \(UTC\) +workload +target +metric +result$' "$TEST_TMP/log"
check "log lists the newest first" test "$(sed -n 2p "$TEST_TMP/log" | cut -c1-8)" = "$id2"
check "log shows the verdict summary" grep -qE "^$id1 .* randread +/srv +iops +\(imported\) 2 arms: scheduler=mq-deadline faster 1\.[12][0-9]x$" "$TEST_TMP/log"
check "log shows a one-arm summary" grep -qE "^$id2 .* seqread .*1 arm: 5 runs, median 50[0-9] iops$" "$TEST_TMP/log"
check "log -n 1 shows one" test "$("$IOTRIAL" log --db "$db" -n 1 | wc -l)" = 2
check "log --json is an object whose experiments are the two" \
	test "$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["experiments"]; print(len(d), d[1]["id"], d[1]["kernel"], d[1]["host"])')" = "2 $id1 6.1.0 host1"
check "log of a missing store is empty, exit 0" \
	"$IOTRIAL" log --db "$TEST_TMP/none/results.db"
check "log of a missing store did not create it" test ! -e "$TEST_TMP/none"
check "log --json of a missing store has no experiments" \
	test "$("$IOTRIAL" log --db "$TEST_TMP/none/results.db" --json | tr -d ' \n')" = '{"schema":"iotrial/1","experiments":[]}'
check "log --json has the schema" \
	test "$("$IOTRIAL" log --db "$db" --json | jq -r .schema)" = iotrial/1
check "--behaviour=log-json-array keeps the bare array" \
	test "$("$IOTRIAL" --behaviour=log-json-array log --db "$db" --json | jq -r '.[1].id')" = "$id1"
check "...and so does IOTRIAL_BEHAVIOUR" \
	test "$(IOTRIAL_BEHAVIOUR=log-json-array "$IOTRIAL" log --db "$TEST_TMP/none/results.db" --json | tr -d ' \n')" = "[]"

# the default store lives under $XDG_DATA_HOME (lib.sh points it to TEST_TMP)
"$IOTRIAL" import "$runs"/one*.json >/dev/null
check "the default store is under XDG_DATA_HOME" test -s "$XDG_DATA_HOME/iotrial/results.db"
check "log reads the default store" test "$("$IOTRIAL" log | wc -l)" = 2

"$IOTRIAL" show "$id1" --db "$db" >"$TEST_TMP/show"
check "show exits 0" test $? = 0
check "show prints the experiment header" grep -q "^experiment $id1: randread on /srv, iops (higher is better)$" "$TEST_TMP/show"
check "show prints the baseline" grep -qE '^scheduler=none +[0-9.k]+ .* baseline$' "$TEST_TMP/show"
check "show prints the verdict" grep -qE '^scheduler=mq-deadline .* faster$' "$TEST_TMP/show"
check "show says where it ran" grep -q "host host1, kernel 6.1.0, iotrial 0.1.0" "$TEST_TMP/show"
check "show by a unique prefix" cmp -s "$TEST_TMP/show" <("$IOTRIAL" show "${id1:0:5}" --db "$db")
"$IOTRIAL" show --db "$db" --json "$id1" >"$TEST_TMP/show.json"
check "show --json is the stored experiment" \
	test "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["id"], d["type"], len(d["runs"]), d["verdicts"][0]["verdict"])' "$TEST_TMP/show.json")" = "$id1 experiment 12 faster"
