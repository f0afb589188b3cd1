#!/usr/bin/env bash
# Bad input to the store commands: exit 2 and one clear line on stderr.
# A --db that is not our store (a text file, another program's SQLite
# database, a store from a newer iotrial) is refused and left exactly as
# it was; an unknown id names the nearest ones.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 command"

db=$TEST_TMP/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"

# untouched NAME FILE SUM: FILE still has checksum SUM and no -wal/-shm
untouched() {
	check "$1" test "$(sha256sum <"$2")" = "$3" -a ! -e "$2-wal" -a ! -e "$2-shm" -a ! -e "$2-journal"
}

python3 - "$runs" <<'PY'
import json, sys
for i in range(4):
    run = {"schema": "iotrial/1", "workload": "randread",
           "target": {"spec": "/srv"},
           "metric": {"name": "iops", "value": 1000.0 + i,
                      "higher_is_better": True}, "mbps": 4.0}
    json.dump(run, open("%s/r%d.json" % (sys.argv[1], i), "w"))
bad = dict(run, metric={"name": "iops", "value": 0})
json.dump(bad, open("%s/zero.json" % sys.argv[1], "w"))
seq = dict(run, workload="seqread")
json.dump(seq, open("%s/seq.json" % sys.argv[1], "w"))
lat = dict(run, metric={"name": "p99_ns", "value": 5.0,
                        "higher_is_better": False})
json.dump(lat, open("%s/lat.json" % sys.argv[1], "w"))
json.dump({"hello": "world"}, open("%s/other.json" % sys.argv[1], "w"))
json.dump(dict(run, schema="iotrial/9"), open("%s/future.json" % sys.argv[1], "w"))
open("%s/trunc.json" % sys.argv[1], "w").write('{"schema": "iotrial/1", "metric": {')
PY

# a text file given as --db
notes=$TEST_TMP/notes.txt
seq 1 2000 >"$notes"
sum=$(sha256sum <"$notes")
expect_usage "import into a text file is refused" \
	"^error: '$notes' is not an iotrial results store \(not an SQLite database\); iotrial left it untouched; give another --db$" \
	import --db "$notes" "$runs/r0.json"
untouched "the text file is untouched" "$notes" "$sum"
expect_usage "log of a text file is refused" "not an SQLite database" log --db "$notes"
expect_usage "show from a text file is refused" "not an SQLite database" show abc --db "$notes"
untouched "the text file is still untouched" "$notes" "$sum"

# another program's database
other=$TEST_TMP/other.db
sqlite3 "$other" "CREATE TABLE invoices (n INTEGER); INSERT INTO invoices VALUES (1);"
sum=$(sha256sum <"$other")
expect_usage "import into another program's database is refused" \
	"'$other' is an SQLite database but not an iotrial results store \(it has table 'invoices'\)" \
	import --db "$other" "$runs/r0.json"
untouched "the other database is untouched" "$other" "$sum"

# a store written by a newer iotrial
"$IOTRIAL" import --db "$db" "$runs"/r[0-3].json >/dev/null || fail "import"
sqlite3 "$db" "PRAGMA journal_mode = DELETE; PRAGMA user_version = 7;" >/dev/null
sum=$(sha256sum <"$db")
expect_usage "a newer store is refused" \
	"'$db' was written by a newer iotrial \(store schema 7; this one reads up to 1\); upgrade iotrial" \
	import --db "$db" "$runs/r0.json"
expect_usage "log of a newer store is refused" "newer iotrial" log --db "$db"
untouched "the newer store is untouched" "$db" "$sum"
sqlite3 "$db" "PRAGMA user_version = 1;"

# unknown ids
id=$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["experiments"][0]["id"])')
typo=${id:0:6}$(printf '%x%x' $(( (0x${id:6:1} + 1) % 16 )) $(( (0x${id:7:1} + 1) % 16 )))
expect_usage "show of an unknown id names the nearest" \
	"^error: no experiment '$typo' in '$db'; nearest: $id \(randread, [0-9-]+\); 'iotrial log' lists them all$" \
	show "$typo" --db "$db"
expect_usage "show without an id" "needs an experiment id" show --db "$db"
expect_usage "show with an unknown option suggests" "did you mean '--json'" show "$id" --db "$db" --jsn
expect_usage "show from a store that does not exist" "no results store at" show "$id" --db "$TEST_TMP/nope.db"
check "...and does not create it" test ! -e "$TEST_TMP/nope.db"

# diff of different workloads
cp "$runs/seq.json" "$runs/seq2.json"
"$IOTRIAL" import --db "$db" "$runs/seq.json" "$runs/seq2.json" >/dev/null
expect_usage "import of one file twice is refused" "is given twice" \
	import --db "$db" "$runs/seq.json" "$runs/seq.json"
sid=$("$IOTRIAL" log --db "$db" -n 1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["experiments"][0]["id"])')
expect_usage "diff of different workloads is refused" \
	"ran different workloads \('randread' and 'seqread'\)" diff "$id" "$sid" --db "$db"

# bad files to import
expect_usage "import of a missing file" "cannot read '$runs/missing.json'" import --db "$db" "$runs/missing.json"
expect_usage "import of a zero metric" "has iops 0; an imported run needs a positive" import --db "$db" "$runs/zero.json"
expect_usage "import of foreign JSON" "is neither iotrial JSON .* nor fio --output-format=json output" import --db "$db" "$runs/other.json"
expect_usage "import of a newer schema" "has schema 'iotrial/9'; this iotrial reads 'iotrial/1'" import --db "$db" "$runs/future.json"
expect_usage "import of truncated JSON" "is not valid JSON: it ends in the middle" import --db "$db" "$runs/trunc.json"
expect_usage "import of different workloads" "ran workload 'seqread' but .* ran 'randread'; give --workload" import --db "$db" "$runs/r0.json" "$runs/seq.json"
expect_usage "import of different metrics" "measured 'p99_ns' but .* measured 'iops'" import --db "$db" "$runs/r0.json" "$runs/lat.json"
expect_usage "import with a bad --metric" "--metric: 'lat' is not one of iops, mbps" import --db "$db" --metric lat "$runs/r0.json"
expect_usage "import of an empty arm" "arm 'b' has no files" import --db "$db" --arm a "$runs/r0.json" --arm b
expect_usage "import of nothing" "needs at least one FILE" import --db "$db"
expect_usage "log with a bad -n" "^error: -n: invalid count 'x'" log --db "$db" -n x
check "failed imports stored nothing" test "$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["experiments"]))')" = 2
check "the store passes integrity_check" test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok
