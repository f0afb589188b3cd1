#!/usr/bin/env bash
# iotrial run --json: the iotrial/1 object is valid and self-consistent,
# every engine moves bytes, jobs=N reports per-job numbers, and the work
# directory is gone afterwards.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
# O_DIRECT needs a real filesystem; /tmp may be tmpfs elsewhere
ddir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
trap 'test_cleanup; rm -rf "$ddir"' EXIT

json=$TEST_TMP/out.json
if "$IOTRIAL" run randread -t "$dir" --size=64M --ios 200000 --json >"$json"; then
	ok "randread --ios 200000 --json runs"
else
	fail "randread --ios 200000 --json runs"
fi
check "randread JSON is a consistent iotrial/1 object" python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["schema"] == "iotrial/1", o["schema"]
assert o["workload"] == "randread"
assert o["ops"] == 200000, o["ops"]
assert abs(o["iops"] - o["ops"] / o["seconds"]) <= 1e-9 * o["iops"], (o["iops"], o["ops"], o["seconds"])
assert abs(o["mbps"] - (o["bytes_read"] + o["bytes_written"]) / o["seconds"] / 1e6) <= 1e-9 * max(o["mbps"], 1)
assert o["bytes_read"] == 200000 * 4096 and o["bytes_written"] == 0
lat = o["latency_ns"]["read"]
assert 0 < lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p999"] <= lat["max"], lat
assert lat["count"] == 200000
assert lat["min"] <= lat["mean"] <= lat["max"]
for k in ("user_s", "sys_s", "system_busy_s", "system_steal_s"):
    assert o["cpu"][k] >= 0, k
# steal is its own figure, a part of the busy time
assert o["cpu"]["system_steal_s"] <= o["cpu"]["system_busy_s"] + 1e-9, o["cpu"]
# the whole process's CPU, split into the workers' and the rest
c = o["cpu"]
assert c["workers_s"] > 0 and c["outside_s"] >= 0, c
assert abs(c["workers_s"] + c["outside_s"] - c["process_s"]) < 1e-6, c
assert abs(c["workers_s"] - sum(j["user_s"] + j["sys_s"] for j in o["jobs"])) < 1e-6, c
assert c["process_s"] >= c["user_s"] + c["sys_s"] - 0.02, c
assert o["metric"] == {"name": "iops", "value": o["iops"], "higher_is_better": True, "unit": "IO/s"}, o["metric"]
assert o["metrics"]["iops"] == o["iops"] and o["metrics"]["mbps"] == o["mbps"], o["metrics"]
assert isinstance(o["warnings"], list)
assert o["params"]["bs"] == 4096 and o["params"]["engine"] == "psync"
PY
check "the work directory is removed after the run" \
	test -z "$(ls -A "$dir")"

for eng in psync io_uring libaio mmap; do
	direct=1
	[ $eng = mmap ] && direct=0
	out=$TEST_TMP/$eng.json
	if "$IOTRIAL" run randrw -t "$ddir" --engine=$eng --direct=$direct \
		--iodepth 8 --size=16M --ios 4000 --json >"$out"; then
		check "engine $eng (direct=$direct) reads and writes" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["ops"] == 4000, o["ops"]
assert o["ops_read"] > 1000 and o["ops_written"] > 1000, (o["ops_read"], o["ops_written"])
assert o["bytes_read"] == o["ops_read"] * 4096
assert "read" in o["latency_ns"] and "write" in o["latency_ns"]
PY
		check "engine $eng: engine_features says what it set up" \
			python3 - "$out" "$eng" <<'PY'
import json, sys
o, eng = json.load(open(sys.argv[1])), sys.argv[2]
f = o["engine_features"]
if eng == "io_uring":
    # registered files and buffers, batched reaping, no polling thread
    assert {"fixed_files", "fixed_buffers", "batch_reap"} <= set(f), f
    assert "sqpoll" not in f, f
    assert "defer_taskrun" not in f or "single_issuer" in f, f
else:
    assert f == [], f
PY
	else
		fail "engine $eng (direct=$direct) reads and writes"
	fi
done

out=$TEST_TMP/seqwrite.json
"$IOTRIAL" run seqwrite -t "$dir" --bs=1M --size=64M --time 1s --json >"$out"
check "seqwrite settles with a flush inside the timed region" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["bytes_written"] > 0
assert o["fsyncs"] >= 1, o["fsyncs"]
assert 0 < o["burst_seconds"] <= o["seconds"], (o["burst_seconds"], o["seconds"])
assert o["metric"]["name"] == "mbps"
assert o["seconds"] >= 1.0
PY

out=$TEST_TMP/seqwrite-none.json
"$IOTRIAL" run seqwrite -t "$dir" --bs=1M --size=64M --time 1s --settle=none --json >"$out"
check "settle=none does not flush" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["fsyncs"] == 0, o["fsyncs"]
PY

out=$TEST_TMP/jobs.json
"$IOTRIAL" run seqread -t "$dir" --jobs=2 --bs=128k --size=32M --time 1s --json >"$out"
check "jobs=2 reports two jobs that add up" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
jobs = o["jobs"]
assert len(jobs) == 2, jobs
assert all(j["ops"] > 0 for j in jobs), jobs
assert sum(j["ops"] for j in jobs) == o["ops"]
assert sum(j["bytes_read"] for j in jobs) == o["bytes_read"]
PY

out=$TEST_TMP/fsync.json
"$IOTRIAL" run randwrite -t "$dir" --size=8M --fsync=100 --ios 1000 --json >"$out"
check "fsync=100 flushes every 100 writes" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["ops"] == 1000
assert 10 <= o["fsyncs"] <= 11, o["fsyncs"]
PY

"$IOTRIAL" run seqread -t "$dir" --size=8M --ios 100 --json="$TEST_TMP/file.json" >"$TEST_TMP/text.out"
check "--json=FILE writes the file and a text summary" \
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TEST_TMP/file.json"
check "text summary names the workload" grep -q '^seqread:' "$TEST_TMP/text.out"
check "nothing left in the target" test -z "$(ls -A "$dir")"

# every run is kept in the results store unless --no-store
"$IOTRIAL" run seqread -t "$dir" --size=8M --ios 100 >"$TEST_TMP/stored.out"
id=$(sed -n "s/^stored as \([0-9a-f]*\) .*/\1/p" "$TEST_TMP/stored.out")
check "a run says where it was stored" test -n "$id"
check "log lists the stored run" bash -c "'$IOTRIAL' log | grep -q '^$id .*seqread'"
n0=$("$IOTRIAL" log | grep -c .)
"$IOTRIAL" run seqread -t "$dir" --size=8M --ios 100 --no-store >"$TEST_TMP/nostore.out"
check "--no-store stores nothing" test "$("$IOTRIAL" log | grep -c .)" = "$n0"
check "--no-store prints no id" bash -c "! grep -q '^stored as' '$TEST_TMP/nostore.out'"

# jobs sharing a block device (shared=1) need room for one region, not
# one each: four jobs of 64M on a 64M device
if [ "$(id -u)" = 0 ] && mkloop 64M; then
	"$IOTRIAL" run randread -t "$LOOP" --jobs=4 --shared=1 --size=64M \
		--ios 400 --no-store --json >"$out" 2>"$TEST_TMP/err"
	check "shared=1 jobs fit a device one region long" python3 - "$out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["ops"] == 400 and len(o["jobs"]) == 4, o["ops"]
PY
fi

# the machine's busy time and the hypervisor's steal, apart, in the text
# as in the JSON of the same run
"$IOTRIAL" run randread -t "$TEST_TMP" --size=8M --time 1s --no-store \
	--json="$TEST_TMP/st.json" >"$TEST_TMP/st.out" 2>&1
check "the text's machine line matches the JSON's busy and steal" \
	python3 - "$TEST_TMP/st.json" "$TEST_TMP/st.out" <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))["cpu"]
text = open(sys.argv[2]).read()
m = re.search(r"; machine (\d+)% busy(, (\d+)% stolen by the hypervisor)?\n", text)
assert m, text
busy = 100 * (c["system_busy_s"] - c["system_steal_s"]) / c["system_total_s"]
steal = 100 * c["system_steal_s"] / c["system_total_s"]
assert abs(int(m.group(1)) - busy) <= 0.51, (m.group(0), c)
if steal >= 0.5:
    assert m.group(3) and abs(int(m.group(3)) - steal) <= 0.51, (m.group(0), c)
else:
    assert not m.group(2), (m.group(0), c)
PY
