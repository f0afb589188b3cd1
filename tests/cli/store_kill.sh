#!/usr/bin/env bash
# A writer killed with kill -9 at a random moment leaves a store that
# passes PRAGMA integrity_check, holds only whole experiments (every
# experiment with all its runs: one transaction each), and takes the
# next import. The writer is a loop of imports of 150 run files.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 command"

db=$TEST_TMP/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"
python3 - "$runs" <<'PY'
import json, random, sys
random.seed(7)
for i in range(150):
    v = 1000 * (1 + random.uniform(-0.05, 0.05))
    run = {"schema": "iotrial/1", "workload": "randread",
           "target": {"spec": "/srv"}, "iops": v, "padding": "x" * 2000,
           "metric": {"name": "iops", "value": v, "higher_is_better": True}}
    json.dump(run, open("%s/r%03d.json" % (sys.argv[1], i), "w"))
PY
# expect NAME WANT SQL: the query on the store prints WANT
expect() {
	local res
	# a killed process drops its locks only when its exit completes
	res=$(sqlite3 -cmd '.timeout 10000' "$db" "$3" 2>&1)
	if [ "$res" = "$2" ]; then ok "$1"; else fail "$1: got '$res'"; fi
}

half=("$runs"/r0*.json)
rest=("$runs"/r1*.json)

for round in 1 2 3 4 5 6; do
	# job control on: the loop and its import form a process group of
	# their own, killed together so no import survives the kill
	set -m
	(
		while :; do
			"$IOTRIAL" import --db "$db" --arm a "${half[@]}" \
				--arm b "${rest[@]}" >/dev/null 2>&1
		done
	) &
	loop=$!
	set +m
	sleep "0.$((RANDOM % 9 + 1))$round"
	kill -9 -- -"$loop"
	wait "$loop" 2>/dev/null
	expect "round $round: integrity_check is ok" ok \
		'PRAGMA integrity_check'
	# killed before the first import made its tables: nothing to count
	# (the next import finishes the store)
	res=$(sqlite3 -cmd '.timeout 10000' "$db" \
		"SELECT count(*) FROM sqlite_master WHERE name = 'runs'")
	if [ "$res" = 0 ]; then
		ok "round $round: only whole experiments (no tables yet)"
		continue
	fi
	expect "round $round: only whole experiments" 0 \
		'SELECT count(*) FROM experiments e WHERE (SELECT count(*)
		 FROM runs r WHERE r.experiment = e.id) != 150'
done
n=$(sqlite3 -cmd '.timeout 10000' "$db" 'SELECT count(*) FROM experiments')
check "the store takes the next import" "$IOTRIAL" import --db "$db" "${half[@]}" >/dev/null
check "...and lists it" test "$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["experiments"]))')" = $((n + 1))
echo "# $n experiments were complete when the writers were killed"
