#!/usr/bin/env bash
# iotrial run smallfiles --loadfile: a short dbench load file of our own
# replays with every operation known and every expected status met
# (failures the file expects included), reports dbench's MB/s, counts a
# line that ends otherwise as an error of its kind without stopping, and
# reports an unknown operation once. A malformed line is a usage error
# naming the file and the line, before anything is written. Debian's
# client.txt, when dbench is installed, replays with no unknown
# operation and no error.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
trap 'test_cleanup; rm -rf "$dir"' EXIT
json=$TEST_TMP/out.json
load=$TEST_TMP/load.txt

cat >"$load" <<'LOAD'
# a client's session, in dbench's load file format
Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 100 NT_STATUS_OK
Close 100 NT_STATUS_OK
NTCreateX "\clients\client1\Report.DOC" 0x40 0x1 101 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_PATH_INFORMATION "\clients\client1\Report.DOC" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
FIND_FIRST "\clients\client1\<.TMP" 260 1366 0 NT_STATUS_NO_SUCH_FILE
NTCreateX "\clients\client1\Report.DOC" 0x40 0x2 101 NT_STATUS_OK
QUERY_FS_INFORMATION 1 NT_STATUS_OK
WriteX 101 0 65536 65536 NT_STATUS_OK
WriteX 101 65536 4096 4096 NT_STATUS_OK
QUERY_FILE_INFORMATION 101 258 NT_STATUS_OK
SET_FILE_INFORMATION 101 1004 NT_STATUS_OK
LockX 101 2147483538 1 NT_STATUS_OK
UnlockX 101 2147483538 1 NT_STATUS_OK
Flush 101 NT_STATUS_OK
Close 101 NT_STATUS_OK
NTCreateX "\clients\client1\report.doc" 0x40 0x1 102 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "\clients\client1\Report.DOC" 0x40 0x1 102 NT_STATUS_OK
ReadX 102 0 65536 65536 NT_STATUS_OK
ReadX 102 65536 65536 4096 NT_STATUS_OK
Close 102 NT_STATUS_OK
FIND_FIRST "\clients\client1\*" 260 1366 3 NT_STATUS_OK
FIND_FIRST "\clients\client1\REPORT.*" 260 1366 1 NT_STATUS_OK
QUERY_PATH_INFORMATION "\clients\client1\Report.DOC" 1004 NT_STATUS_OK
Rename "\clients\client1\Report.DOC" "\clients\client1\Report.BAK" NT_STATUS_OK
Unlink "\clients\client1\Report.DOC" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "\clients\client1\Report.BAK" 0x6 NT_STATUS_OK
NTCreateX "\clients\client1\sub" 0x1 0x2 103 NT_STATUS_OK
Close 103 NT_STATUS_OK
Rmdir "\clients\client1\sub" NT_STATUS_OK
Rmdir "\clients\client1\sub" NT_STATUS_OBJECT_NAME_NOT_FOUND
Deltree "\clients\client1" NT_STATUS_OK
LOAD

"$IOTRIAL" run smallfiles -t "$dir" --loadfile "$load" --clients 2 \
	--ios 20000 --no-store --json="$json" >"$TEST_TMP/text"
check "the replay runs" test $? = 0
check "every operation is known and every status met" python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["metric"]["name"] == "ops_per_s" and o["metric"]["value"] > 0
assert o["file_ops_total"] == 20000, o["file_ops_total"]
t = o["file_ops"]
want = {"NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Rmdir",
        "Mkdir", "Qpathinfo", "Qfileinfo", "Qfsinfo", "Sfileinfo", "Find",
        "WriteX", "ReadX", "LockX", "UnlockX", "Flush"}
assert set(t) == want, set(t) ^ want
for name, e in t.items():
    assert e["errors"] == 0, (name, e)
    assert e["p50_us"] <= e["p99_us"] <= e["max_us"], (name, e)
assert not [n for n in o["notes"] if "unknown operation" in n], o["notes"]
assert not [w for w in o["warnings"] if "did not end as" in w], o["warnings"]
# dbench's figure: ReadX and WriteX sizes over the time; the file asks
# for 64k+4k written and 128k read per pass
passes = t["Deltree"]["count"] / 2
want = passes * (65536 + 4096 + 2 * 65536)
got = o["dbench_mbps"] * 1e6 * o["seconds"]
assert abs(got - want) <= 2 * (65536 * 4), (got, want)
assert o["fsyncs"] == t["Flush"]["count"]
assert o["truth"]["logical_write_bytes"] == o["bytes_written"] > 0
PY
check "the text reports dbench's MB/s" \
	grep -qE "^  dbench +[0-9.]+ MB/s" "$TEST_TMP/text"
check "the work directory is removed after the run" test -z "$(ls -A "$dir")"

# a line whose status the replay cannot meet, and an unknown operation
{
	cat "$load"
	echo 'QUERY_PATH_INFORMATION "\clients" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND'
	echo 'NTCreateX "\nowhere\x" 0x40 0x1 104 NT_STATUS_OK'
	echo 'SMB2_Teleport "\clients" 7 NT_STATUS_OK'
	echo 'SMB2_Teleport "\clients" 8 NT_STATUS_OK'
} >"$TEST_TMP/odd.txt"
"$IOTRIAL" run smallfiles -t "$dir" --loadfile "$TEST_TMP/odd.txt" --clients 1 \
	--ios 360 --no-store --json="$json" >/dev/null
check "a replay with unmet statuses still runs to its end" test $? = 0
check "...counting them as errors of their kind" python3 - "$json" "$TEST_TMP/odd.txt" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
t = o["file_ops"]
# without --ramp nothing runs before the timed part: the 360 operations
# are the file's 35 ten times over, then its first 10 (two Deltrees and
# three Qpathinfos a pass, one of each in the first 10)
assert (t["Deltree"]["count"], t["Qpathinfo"]["count"]) == (21, 31), \
    (t["Deltree"], t["Qpathinfo"])
assert t["Qpathinfo"]["errors"] == 10, t["Qpathinfo"]
assert t["NTCreateX"]["errors"] == 10, t["NTCreateX"]
assert o["file_ops_total"] == 360
w = [w for w in o["warnings"] if "did not end as" in w]
assert len(w) == 2, w
assert any("10 Qpathinfo operations" in x and "line 35: it succeeded where the trace failed" in x for x in w), w
assert any("10 NTCreateX operations" in x and "line 36: No such file or directory" in x for x in w), w
n = [n for n in o["notes"] if "unknown operation" in n]
assert n == ["loadfile '%s': unknown operation 'SMB2_Teleport' on 2 lines (the first is line 37) skipped" % sys.argv[2]], n
PY

USAGE_DIR=$dir
printf 'Close 1 NT_STATUS_OK\nWriteX 1 0 4096 NT_STATUS_OK\n' >"$TEST_TMP/bad.txt"
expect_usage "a malformed line: file and line, nothing written" \
	"^error: loadfile '$TEST_TMP/bad.txt' line 2: WriteX takes 4 fields" \
	run smallfiles -t "$dir" --loadfile "$TEST_TMP/bad.txt" --time 1s --no-store
expect_usage "a loadfile that cannot be read" \
	"cannot read loadfile '$TEST_TMP/none.txt'" \
	run smallfiles -t "$dir" --loadfile "$TEST_TMP/none.txt" --time 1s --no-store

client=/usr/share/dbench/client.txt
[ -r "$client" ] || skip "dbench's client.txt is not installed (apt-get install dbench)"
"$IOTRIAL" run smallfiles -t "$dir" --loadfile "$client" --clients 2 \
	--time 3s --no-store --json="$json" >/dev/null
check "Debian's client.txt replays" test $? = 0
check "...with no unknown operation" \
	test "$(json "$json" 'sum("unknown operation" in n for n in o["notes"])')" = 0
check "...and no unmet status" \
	test "$(json "$json" 'sum(e["errors"] for e in o["file_ops"].values())')" = 0
check "...reporting dbench's MB/s" \
	python3 -c "import sys; sys.exit(not $(json "$json" 'o["dbench_mbps"]') > 0)"
