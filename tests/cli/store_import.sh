#!/usr/bin/env bash
# iotrial import of real results: fio --output-format=json reports made
# here by running fio briefly (one run per file; IOPS for random
# patterns, MB/s for sequential ones, --metric to choose), iotrial run
# --json objects from short runs, and a whole experiment exported with
# show --json and imported again under a new id.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
work=$TEST_TMP/work
mkdir -p "$work"

# fio_run NAME RW [ARGS...]: one brief fio run into $TEST_TMP/NAME.json
fio_run() {
	local name=$1 rw=$2
	shift 2
	fio --name=t --filename="$TEST_TMP/f" --size=8M --rw="$rw" --bs=4k \
		--runtime=1 --time_based --output-format=json "$@" \
		>"$TEST_TMP/$name.json" 2>"$TEST_TMP/$name.err"
}

# id_of FILE: the id an import printed
id_of() { sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p' "$1"; }

fio_run rr1 randread || skip "fio cannot run here: $(head -n 1 "$TEST_TMP/rr1.err")"
fio_run rr2 randread
fio_run rr3 randread --rate_iops=500
fio_run rr4 randread --rate_iops=500
fio_run sr1 read

"$IOTRIAL" import --db "$db" "$TEST_TMP/rr1.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "import of one fio report exits 0" test $? = 0
id=$(id_of "$TEST_TMP/out")
check "it gets an id" grep -qE '^[0-9a-f]{8}$' <<<"$id"
check "the fio workload is named after its pattern" \
	grep -q "^experiment $id: fio:randread on $TEST_TMP/f, iops (higher is better)$" "$TEST_TMP/out"
want=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"]; print(sum(x["read"]["iops"]+x["write"]["iops"] for x in j))' "$TEST_TMP/rr1.json")
got=$("$IOTRIAL" show "$id" --db "$db" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["runs"][0]["metric"])')
check "the run's metric is fio's read+write iops" \
	python3 -c 'import sys; a,b=map(float,sys.argv[1:]); sys.exit(abs(a-b) > 1e-6*b)' "$want" "$got"
check "the run keeps fio's whole report" \
	test "$("$IOTRIAL" show "$id" --db "$db" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["runs"][0]["run"]["fio version"] == d["env"]["fio_version"])')" = True

"$IOTRIAL" import --db "$db" --arm fast "$TEST_TMP"/rr1.json "$TEST_TMP"/rr2.json \
	--arm capped "$TEST_TMP"/rr3.json "$TEST_TMP"/rr4.json >"$TEST_TMP/out2" 2>&1
check "import of two fio arms exits 0" test $? = 0
check "two arms, baseline first" grep -qE '^fast +[0-9.kMG]+ .* baseline$' "$TEST_TMP/out2"
check "the capped arm is compared" grep -qE '^capped +[0-9.k]+ .* 0\.[0-9]+ \[' "$TEST_TMP/out2"
check "log lists the fio import" "$IOTRIAL" log --db "$db" | grep -qE "^$(id_of "$TEST_TMP/out2") .* fio:randread .* iops +2 arms: capped "

"$IOTRIAL" import --db "$db" "$TEST_TMP/sr1.json" >"$TEST_TMP/out3" 2>&1
check "a sequential fio run is judged by MB/s" grep -q "fio:read on .*, mbps (higher is better)" "$TEST_TMP/out3"
"$IOTRIAL" import --db "$db" --metric iops "$TEST_TMP/sr1.json" >"$TEST_TMP/out4" 2>&1
check "--metric iops overrides" grep -q "fio:read on .*, iops (higher is better)" "$TEST_TMP/out4"
"$IOTRIAL" import --db "$db" "$TEST_TMP/rr1.json" "$TEST_TMP/sr1.json" >/dev/null 2>"$TEST_TMP/err"
check "random and sequential runs in one import are refused (exit 2)" test $? = 2
check "...saying which metric each measured" grep -q "measured 'mbps' but .* measured 'iops'; give --metric" "$TEST_TMP/err"
"$IOTRIAL" import --db "$db" --metric iops --workload mixed "$TEST_TMP/rr1.json" "$TEST_TMP/sr1.json" >"$TEST_TMP/out5" 2>&1
check "--metric and --workload import them together" grep -q "^experiment .*: mixed on" "$TEST_TMP/out5"

# fio prints warnings before its JSON at times: they are skipped
{ echo "fio: note: something"; cat "$TEST_TMP/rr1.json"; } >"$TEST_TMP/noisy.json"
check "text before fio's JSON is skipped" "$IOTRIAL" import --db "$db" "$TEST_TMP/noisy.json"

# iotrial run --json objects from short runs
for i in 1 2; do
	"$IOTRIAL" run randread -t "$work" --size=4M --time 200ms --json \
		>"$TEST_TMP/it$i.json" 2>/dev/null
done
"$IOTRIAL" import --db "$db" "$TEST_TMP"/it1.json "$TEST_TMP"/it2.json >"$TEST_TMP/out6" 2>&1
check "iotrial run --json objects import" grep -q "^imported 2 runs as experiment" "$TEST_TMP/out6"
check "...as their workload" grep -q ": randread on $work, iops" "$TEST_TMP/out6"

# a whole experiment, exported and imported again: new id, same runs
"$IOTRIAL" show "$id" --db "$db" --json >"$TEST_TMP/exp.json"
"$IOTRIAL" import --db "$db" "$TEST_TMP/exp.json" >"$TEST_TMP/out7" 2>&1
check "a whole experiment imports" test $? = 0
id7=$(id_of "$TEST_TMP/out7")
check "...under a new id, as its id is taken" test -n "$id7" -a "$id7" != "$id"
"$IOTRIAL" import --db "$TEST_TMP/other.db" "$TEST_TMP/exp.json" >"$TEST_TMP/out8" 2>&1
check "...and keeps its id in another store" test "$(id_of "$TEST_TMP/out8")" = "$id"
