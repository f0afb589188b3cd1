#!/usr/bin/env bash
# iotrial run --job / compare --job: fio's example job files (copied in
# tests/data/fio/) run with -t DIR --size 16M --time 1s and give one run
# object per job section; bad job files fail with file, line and option
# before anything runs; --job-lenient, ${VAR} and include work.
# parallel: runs in a directory and on a loop device of its own; no page cache dropped
. "$(dirname "$0")/lib.sh"

data=$IOTRIAL_SRC/tests/data/fio
# O_DIRECT needs a real filesystem; /tmp may be tmpfs elsewhere
dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
trap 'test_cleanup; rm -rf "$dir"' EXIT
json=$TEST_TMP/out.json

# run_example NAME FILE: run a copied example with the quick overrides
run_example() {
	rm -f "$json"
	if "$IOTRIAL" run --job "$data/$2" -t "$dir" --size 16M --time 1s \
		--json="$json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
		ok "$1 runs"
	else
		fail "$1 runs: $(head -c 400 "$TEST_TMP/err")"
	fi
}

# check_jobs NAME PYTHON: assertions over o (the job_file object)
check_jobs() {
	check "$1" python3 - "$json" "$2" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["schema"] == "iotrial/1" and o["type"] == "job_file", o.get("type")
for j in o["jobs"]:
    r = j["run"]
    assert r["schema"] == "iotrial/1"
    assert r["params"]["size"] == 16 << 20, r["params"]["size"]
    assert r["time_requested_s"] == 1.0, r.get("time_requested_s")
    assert r["ops"] > 0 and r["seconds"] > 0
    assert r["params"]["label"] == j["name"]
    assert len(j["id"]) == 8, j["id"]
exec(sys.argv[2])
PY
}

run_example "fio-rand-read.fio" fio-rand-read.fio
check_jobs "fio-rand-read.fio: one randread job, libaio at depth 16" '
j = o["jobs"]
assert len(j) == 1 and j[0]["section"] == "file1" and j[0]["name"] == "file1"
p = j[0]["run"]["params"]
assert j[0]["run"]["workload"] == "randread", j[0]["run"]["workload"]
assert p["bs"] == 4096 and p["iodepth"] == 16 and p["jobs"] == 1
assert p["engine"] == "libaio" and p["direct"] is False and p["shared"] is False
assert p["randommap"] is True and p["invalidate"] is True
assert p["fadvise"] is True
'
check "the runs are stored" "$IOTRIAL" show "$(json "$json" 'o["jobs"][0]["id"]')"

run_example "fio-rand-write.fio" fio-rand-write.fio
check_jobs "fio-rand-write.fio: four jobs on one shared file" '
r = o["jobs"][0]["run"]
assert r["workload"] == "randwrite" and r["params"]["jobs"] == 4
assert r["params"]["shared"] is True
assert len(r["jobs"]) == 4, r["jobs"]
'

run_example "fio-rand-RW.fio" fio-rand-RW.fio
check_jobs "fio-rand-RW.fio: randrw at rwmixread 60" '
r = o["jobs"][0]["run"]
assert r["workload"] == "randrw" and r["params"]["rwmixread"] == 60
assert r["bytes_read"] > 0 and r["bytes_written"] > 0
'
# numjobs=4: one entry per clone, as fio's JSON has, each with its own
# reads, writes and latency, adding up to the section's
check_jobs "fio-rand-RW.fio: per-clone accounting adds up to the section" '
r = o["jobs"][0]["run"]
js = r["jobs"]
assert len(js) == 4 and r["params"]["jobs"] == 4, len(js)
for d, ops in (("read", "ops_read"), ("write", "ops_written")):
    assert sum(j[ops] for j in js) == r[ops], (d, [j[ops] for j in js], r[ops])
    for j in js:
        l = j["latency_ns"][d]
        assert l["count"] == j[ops] > 0, (d, l["count"], j[ops])
        assert l["min"] <= l["p50"] <= l["p99"] <= l["max"], l
    assert max(j["latency_ns"][d]["max"] for j in js) == r["latency_ns"][d]["max"]
    assert min(j["latency_ns"][d]["min"] for j in js) == r["latency_ns"][d]["min"]
for j in js:
    assert j["bytes_read"] == 4096 * j["ops_read"]
    assert j["ops"] == j["ops_read"] + j["ops_written"]
'
check "fio-rand-RW.fio: the text has a line per clone with its latency" \
	test "$(grep -Ec '^  job [0-3] .* IOPS, .*; read p50 .* p99 .*; write p50 .* p99 ' "$TEST_TMP/out")" = 4

run_example "fio-seq-read.fio" fio-seq-read.fio
check_jobs "fio-seq-read.fio: O_DIRECT 256k sequential reads" '
p = o["jobs"][0]["run"]["params"]
assert o["jobs"][0]["run"]["workload"] == "seqread"
assert p["bs"] == 262144 and p["direct"] is True
'

run_example "fio-seq-write.fio" fio-seq-write.fio
check_jobs "fio-seq-write.fio: sequential writes" '
assert o["jobs"][0]["run"]["workload"] == "seqwrite"
'

run_example "ssd-test.fio (directory= overridden by -t)" ssd-test.fio
check_jobs "ssd-test.fio: four stonewalled groups, in file order" '
j = o["jobs"]
assert [x["section"] for x in j] == ["seq-read", "rand-read", "seq-write", "rand-write"]
assert [x["group"] for x in j] == [0, 1, 2, 3]
assert [x["run"]["workload"] for x in j] == ["seqread", "randread", "seqwrite", "randwrite"]
assert all(x["run"]["params"]["direct"] is True for x in j)
'
check "every job's files were removed" test -z "$(ls -A "$dir")"

# what iotrial cannot do as fio does is refused, and nothing runs
expect_usage "rw=rw (a sequential mix) is refused with file and line" \
	"fio-seq-RW.fio:8: 'rw=rw' mixes sequential reads and writes" \
	run --job "$data/fio-seq-RW.fio" -t "$dir" --size 16M --time 1s
run_example "aio-read.fio (four sections at once)" aio-read.fio
check_jobs "aio-read.fio: four run objects, each with its own iodepth and numbers" '
j = o["jobs"]
assert [x["section"] for x in j] == ["file1", "file2", "file3", "file4"]
assert [x["group"] for x in j] == [0, 0, 0, 0]
assert [x["run"]["params"]["iodepth"] for x in j] == [4, 32, 8, 16]
assert all(x["run"]["workload"] == "randread" for x in j)
assert all(x["run"]["params"]["engine"] == "libaio" for x in j)
assert len({x["run"]["ops"] for x in j}) > 1, [x["run"]["ops"] for x in j]
# no device truth of their own: it is the group s, and they say so
assert all("truth" not in x["run"] for x in j)
assert all(any("device truth is the group" in n for n in x["run"]["notes"]) for x in j)
'
check "aio-read.fio: one shared device truth window for the group" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
g = o["groups"]
assert len(g) == 1 and g[0]["sections"] == ["file1", "file2", "file3", "file4"], g
assert g[0]["group_reporting"] is False and "run" not in g[0]
t = g[0]["truth"]
assert t["seconds"] > 0, t
# the window covers every section: each one ran within it
assert all(x["run"]["seconds"] <= t["seconds"] + 0.05 for x in o["jobs"]), t
assert g[0]["id"] == o["jobs"][0]["id"]
PY
check "aio-read.fio: the sections' files were removed" test -z "$(ls -A "$dir")"

# group_reporting: the group's totals as a run object; a writer in the
# group verifies its blocks (verify=crc32c) and finds them clean
cat >"$TEST_TMP/gr.fio" <<'FIO'
[global]
bs=4k
size=4m
group_reporting

[reader]
rw=randread

[writer]
rw=randwrite
numjobs=2
verify=crc32c
FIO
rm -f "$json"
"$IOTRIAL" run --job "$TEST_TMP/gr.fio" -t "$dir" --time 1s --no-store \
	--json="$json" >/dev/null 2>"$TEST_TMP/err"
check "group_reporting: the group's run sums its sections, every thread listed" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
j = o["jobs"]
assert [x["section"] for x in j] == ["reader", "writer"]
g = o["groups"][0]
assert g["group_reporting"] is True
r = g["run"]
assert r["workload"] == "fio-group"
assert r["ops"] == sum(x["run"]["ops"] for x in j), r["ops"]
assert r["ops_read"] == j[0]["run"]["ops"] and r["ops_written"] == j[1]["run"]["ops"]
assert r["bytes_written"] == j[1]["run"]["bytes_written"]
assert len(r["jobs"]) == 3, r["jobs"]
lat = r["latency_ns"]
assert lat["read"]["count"] == j[0]["run"]["latency_ns"]["read"]["count"], lat
assert "truth" in r and r["truth"] == g["truth"]
PY
check "verify=crc32c in a job file: read back clean" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
w = o["jobs"][1]["run"]
assert w["params"]["verify"] == "crc32c", w["params"]
v = w["verify"]
assert v["method"] == "crc32c" and v["blocks"] > 0 and v["mismatches"] == 0, v
assert o["groups"][0]["run"]["verify"]["mismatches"] == 0
PY
printf '[w]\nrw=write\nsize=1m\nverify=md5\n' >"$TEST_TMP/v.fio"
expect_usage "verify= other than crc32c is refused with what is supported" \
	"v.fio:4: verify=md5 is not supported; iotrial verifies with crc32c" \
	run --job "$TEST_TMP/v.fio" -t "$dir"
rm -f "$json"
"$IOTRIAL" run --job "$data/aio-read.fio" --section file3 -t "$dir" \
	--size 16M --time 1s --no-store --json="$json" >/dev/null 2>"$TEST_TMP/err"
check "aio-read.fio --section file3 runs that job alone" \
	eval '[ "$(json "$json" "[(j[\"section\"], j[\"run\"][\"params\"][\"iodepth\"], j[\"id\"]) for j in o[\"jobs\"]]")" = "[('"'file3'"', 8, None)]" ]'

# bad job files
cat >"$TEST_TMP/syntax.fio" <<'FIO'
[global]
rw=read
[job1
size=1m
FIO
expect_usage "a syntax error names the file and line" \
	"syntax.fio:3: unterminated section header" \
	run --job "$TEST_TMP/syntax.fio" -t "$dir"
cat >"$TEST_TMP/unsup.fio" <<'FIO'
[global]
rw=read
thinktime=20
size=1m
[job1]
verify_pattern=0xff
bs=4k
FIO
expect_usage "the unsupported option that matters is named with its line and why" \
	"unsup.fio:3: 'thinktime=20' pauses between I/Os; .*\(and 1 other option" \
	run --job "$TEST_TMP/unsup.fio" -t "$dir" --time 1s
rm -f "$json"
"$IOTRIAL" run --job "$TEST_TMP/unsup.fio" --job-lenient -t "$dir" --time 1s \
	--no-store --json="$json" >/dev/null 2>"$TEST_TMP/err"
check "--job-lenient warns about each and runs" \
	eval 'grep -q "unsup.fio:3: ignoring .thinktime." "$TEST_TMP/err" && grep -q "unsup.fio:6: ignoring .verify_pattern." "$TEST_TMP/err" && [ "$(json "$json" "o[\"jobs\"][0][\"run\"][\"workload\"]")" = seqread ]'

# --quiet: the job file's warnings still said, its notes not; the
# summary printed all the same
cat >"$TEST_TMP/quiet.fio" <<'FIO'
[q]
rw=randread
size=1m
thinktime=20
write_lat_log=lat
FIO
"$IOTRIAL" run --job "$TEST_TMP/quiet.fio" --job-lenient -t "$dir" --time 1s \
	--no-store >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a job file's warning and note are said" \
	eval 'grep -q "^warning: .*quiet.fio:4: ignoring .thinktime." "$TEST_TMP/err" && grep -q "^note: .*quiet.fio:5: .write_lat_log. writes no fio log" "$TEST_TMP/err"'
"$IOTRIAL" run --job "$TEST_TMP/quiet.fio" --job-lenient -t "$dir" --time 1s \
	--no-store --quiet >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "run --job --quiet: exit 0 (got $rc), the warning alone on stderr" \
	test $rc = 0 -a "$(grep -c . "$TEST_TMP/err")" = 1 -a \
	"$(grep -c "^warning: .*quiet.fio:4: ignoring .thinktime." "$TEST_TMP/err")" = 1
check "...and the summary on stdout" grep -q "^\[q\] group 0, randread:" "$TEST_TMP/out"

# ${VAR} and include
mkdir -p "$TEST_TMP/inc"
cat >"$TEST_TMP/inc/common.fio" <<'FIO'
; shared settings
bs=${IOTRIAL_TEST_BS}
include more.fio
FIO
echo 'size=${IOTRIAL_TEST_SIZE}' >"$TEST_TMP/inc/more.fio"
cat >"$TEST_TMP/top.fio" <<'FIO'
[global]
include inc/common.fio
[writer]
rw=write
loops=2
FIO
rm -f "$json"
IOTRIAL_TEST_BS=8k IOTRIAL_TEST_SIZE=2m "$IOTRIAL" run --job "$TEST_TMP/top.fio" \
	-t "$dir" --no-store --json="$json" >/dev/null 2>"$TEST_TMP/err"
check "\${VAR} and nested include: bs 8k, size 2m, written twice (loops=2)" \
	eval '[ "$(json "$json" "(o[\"jobs\"][0][\"run\"][\"params\"][\"bs\"], o[\"jobs\"][0][\"run\"][\"params\"][\"size\"], o[\"jobs\"][0][\"run\"][\"ops\"])")" = "(8192, 2097152, 512)" ]'
IOTRIAL_TEST_BS=8k expect_usage "an unset variable is named with its line" \
	"more.fio:1: environment variable 'IOTRIAL_TEST_SIZE' is not set" \
	run --job "$TEST_TMP/top.fio" -t "$dir"
echo 'include ../top.fio' >"$TEST_TMP/inc/more.fio"
IOTRIAL_TEST_BS=8k expect_usage "an include loop is refused" \
	"include loop" run --job "$TEST_TMP/top.fio" -t "$dir"

# options that belong with --job
expect_usage "--section without --job" "--section goes with --job" \
	run --section x -t "$dir"
expect_usage "a workload and --job" "give a workload or --job, not both" \
	run randread --job "$data/fio-rand-read.fio" -t "$dir"

# compare: the job section is every arm's workload
rm -f "$json"
if "$IOTRIAL" compare --job "$data/ssd-test.fio" --section rand-read \
	-t "$dir" --size 16M --time 500ms --vary iodepth=1,2 --runs 2 \
	--no-drop-caches --no-store --quiet --json="$json" >/dev/null 2>"$TEST_TMP/err"; then
	ok "compare --job --section runs"
else
	fail "compare --job --section runs: $(head -c 300 "$TEST_TMP/err")"
fi
check "compare --job: randread from the job, its settings, both arms" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["workload"] == "randread", o["workload"]
assert len(o["arms"]) == 2 and len(o["runs"]) == 4
r = o["runs"][0]["run"]
assert r["params"]["engine"] == "libaio" and r["params"]["direct"] is True
assert r["params"]["size"] == 16 << 20
assert r["params"]["label"] == "rand-read"
PY
expect_usage "compare --job with several sections asks for --section" \
	"has 4 job sections; compare varies one: pick it with --section" \
	compare --job "$data/ssd-test.fio" -t "$dir" --vary iodepth=1,2 --no-store
expect_usage "compare --job with sections at once says compare runs one" \
	"has 4 job sections \(some run at the same time, which compare does not do\)" \
	compare --job "$data/aio-read.fio" -t "$dir" --vary iodepth=1,2 --no-store
check "nothing is left in the target" test -z "$(ls -A "$dir")"

# a filename= that is a block device: only when -t names it
if [ "$(id -u)" = 0 ] && mkloop 64M; then
	printf '[dev]\nrw=read\nsize=16m\nfilename=%s\n' "$LOOP" >"$TEST_TMP/dev.fio"
	expect_usage "a block device filename= without -t naming it is refused" \
		"dev.fio:1: \[dev\] has filename=$LOOP, a block device; iotrial writes to a device only when -t names it" \
		run --job "$TEST_TMP/dev.fio" -t "$dir" --time 1s
	rm -f "$json"
	"$IOTRIAL" run --job "$TEST_TMP/dev.fio" -t "$LOOP" --time 1s --no-store \
		--json="$json" >/dev/null 2>"$TEST_TMP/err"
	check "with -t naming the device it runs there" \
		eval '[ "$(json "$json" "o[\"jobs\"][0][\"run\"][\"target\"][\"kind\"]")" = blockdev ]'
	# --set's notes (set, restored) are not said with --quiet
	ra=$(cat "/sys/block/${LOOP#/dev/}/queue/read_ahead_kb")
	"$IOTRIAL" run --job "$TEST_TMP/dev.fio" -t "$LOOP" --time 1s --no-store \
		--set read_ahead_kb=$((ra == 64 ? 32 : 64)) >/dev/null 2>"$TEST_TMP/err"
	check "run --job --set: the knob's notes are said" \
		test "$(grep -c "^note: .*read_ahead_kb. on" "$TEST_TMP/err")" = 2
	"$IOTRIAL" run --job "$TEST_TMP/dev.fio" -t "$LOOP" --time 1s --no-store \
		--set read_ahead_kb=$((ra == 64 ? 32 : 64)) --quiet >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	check "run --job --set --quiet: exit 0 (got $rc), nothing on stderr" \
		test $rc = 0 -a ! -s "$TEST_TMP/err"
	check "...the knob restored" \
		test "$(cat "/sys/block/${LOOP#/dev/}/queue/read_ahead_kb")" = "$ra"
	printf '[global]\nrw=randread\nsize=8m\n[a]\n[b]\n' >"$TEST_TMP/devgroup.fio"
	expect_usage "sections at once on a block device are refused" \
		"need a directory target; on a block device their regions would overlap" \
		run --job "$TEST_TMP/devgroup.fio" -t "$LOOP" --time 1s --no-store
else
	echo "# not root or no loop device: block device filename= not tested"
fi

# not time based, with a runtime: whichever comes first ends the run (a
# 2 GiB file in direct 4k writes is far more than a second of I/O here)
cat >"$TEST_TMP/cap.fio" <<'FIO'
[cap]
rw=write
bs=4k
size=2g
direct=1
runtime=1
FIO
rm -f "$json"
"$IOTRIAL" run --job "$TEST_TMP/cap.fio" -t "$dir" --no-store \
	--json="$json" >/dev/null 2>"$TEST_TMP/err"
check "runtime= caps a job that is not time based" \
	python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["run"]
assert r["ios_requested"] == 2 << 30 >> 12, r.get("ios_requested")
assert 0 < r["ops"] < r["ios_requested"], r["ops"]
PY

# ramp_time= before a size-based end: the ramp's I/Os are not counted
# and the timed part still does the whole size, as fio resets its
# counters when the ramp ends
cat >"$TEST_TMP/ramp.fio" <<'FIO'
[ramp]
rw=randread
bs=4k
size=4m
ramp_time=300ms
FIO
rm -f "$json"
"$IOTRIAL" run --job "$TEST_TMP/ramp.fio" -t "$dir" --no-store \
	--json="$json" >/dev/null 2>"$TEST_TMP/err"
check "ramp_time= ramps, then the size ends the timed part" \
	python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["run"]
assert r["ramp_s"] == 0.3, r.get("ramp_s")
assert r["ops"] == r["ios_requested"] == 1024, (r["ops"], r.get("ios_requested"))
assert r["jobs"][0]["latency_ns"]["read"]["count"] == 1024, r["jobs"]
PY

# numjobs on one filename= share one file: two jobs of 8m lay out 8m
cat >"$TEST_TMP/shared.fio" <<'FIO'
[shared]
rw=randread
size=8m
numjobs=2
filename=data
FIO
rm -f "$json"
"$IOTRIAL" run --job "$TEST_TMP/shared.fio" -t "$dir" --time 1s --no-store \
	--json="$json" >/dev/null 2>"$TEST_TMP/err"
check "numjobs on one filename= read one file" \
	python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["run"]
assert r["params"]["shared"] is True and len(r["jobs"]) == 2
PY
check "nothing is left in the target at the end" test -z "$(ls -A "$dir")"
