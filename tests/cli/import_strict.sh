#!/usr/bin/env bash
# import reads a file from elsewhere strictly, through the model's
# codec: a member of the wrong type is refused with its path, where it
# was read as missing (a fio job's "iops" as a string left that job out
# of the sum, and the import went on with a wrong metric). What import
# has always read leniently stays so: text before the report, a run
# without a metric's direction (higher is better).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db

# fio_file FILE IOPS2: a fio report of two randread jobs, the second
# job's read iops written as given (JSON text)
fio_file() {
	python3 - "$1" "$2" <<'PY'
import json, sys
job = lambda n, iops: {"jobname": n, "error": 0,
    "job options": {"rw": "randread", "filename": "/srv/f"},
    "read": {"iops": iops, "bw_bytes": 4096000, "bw": 4000},
    "write": {"iops": 0.0, "bw_bytes": 0, "bw": 0}}
doc = {"fio version": "fio-3.33",
       "jobs": [job("a", 1000.5), job("b", json.loads(sys.argv[2]))]}
open(sys.argv[1], "w").write("note: a line fio printed\n" + json.dumps(doc, indent=1))
PY
}

fio_file "$TEST_TMP/ok.json" 500.25
"$IOTRIAL" import --db "$db" --json "$TEST_TMP/ok.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a fio report after a line of text imports" test $? = 0
check "...its metric the sum of its jobs' iops" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(abs(d["runs"][0]["metric"] - 1500.75) > 1e-9)' "$TEST_TMP/out"

fio_file "$TEST_TMP/bad.json" '"500.25"'
"$IOTRIAL" import --db "$db" "$TEST_TMP/bad.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a fio job's iops as a string is refused (exit 2)" test $? = 2
check "...naming the file and the member" \
	grep -qF "error: '$TEST_TMP/bad.json': jobs[1].read.iops: expected a number" "$TEST_TMP/err"

cat >"$TEST_TMP/run.json" <<'J'
{"schema": "iotrial/1", "workload": "randread", "target": {"spec": "/srv"},
 "iops": 900.0, "metric": {"name": "iops", "value": 900.0}}
J
cp "$TEST_TMP/run.json" "$TEST_TMP/run1.json"
"$IOTRIAL" import --db "$db" "$TEST_TMP/run.json" "$TEST_TMP/run1.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a run without the metric's direction imports" test $? = 0
check "...as higher is better" grep -q "randread on /srv, iops (higher is better)" "$TEST_TMP/out"

sed 's/"value": 900.0/"value": true/' "$TEST_TMP/run.json" >"$TEST_TMP/run2.json"
"$IOTRIAL" import --db "$db" "$TEST_TMP/run2.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a run whose metric value is true is refused (exit 2)" test $? = 2
check "...naming the member" grep -qF "metric.value: expected a number" "$TEST_TMP/err"
