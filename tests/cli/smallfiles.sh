#!/usr/bin/env bash
# iotrial run smallfiles: a brief run's JSON carries its metric (ops/s),
# the per-operation table and the device truth's logical bytes; the text
# shows the table; --ios counts operations; the work directory is gone
# afterwards; nonsense in sizes, mix, lifetime or fsync is a usage error
# (exit 2, one line, nothing left behind) naming what would be right.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
trap 'test_cleanup; rm -rf "$dir"' EXIT
json=$TEST_TMP/out.json

"$IOTRIAL" run smallfiles -t "$dir" --clients 2 --time 1s --sizes 4k:3,64k:1 \
	--no-store --json="$json" >"$TEST_TMP/text"
check "smallfiles --time 1s --json runs" test $? = 0
check "its JSON has the metric, the per-operation table and the truth" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["workload"] == "smallfiles"
m = o["metric"]
assert m["name"] == "ops_per_s" and m["higher_is_better"], m
assert m["value"] > 0 and abs(m["value"] - o["ops_per_s"]) < 1e-9 * m["value"]
assert abs(o["ops_per_s"] - o["file_ops_total"] / o["seconds"]) < 1e-6 * o["ops_per_s"]
t = o["file_ops"]
assert set(t) == {"create", "write", "read", "stat", "rename", "delete"}, t
for name, e in t.items():
    assert e["count"] > 0 and e["errors"] == 0, (name, e)
    assert 0 < e["p50_us"] <= e["p99_us"] <= e["max_us"], (name, e)
    assert 0 < e["mean_us"] <= e["max_us"], (name, e)
assert sum(e["count"] for e in t.values()) == o["file_ops_total"]
assert o["bytes_written"] > 0 and o["bytes_read"] > 0
assert o["truth"]["logical_write_bytes"] == o["bytes_written"]
assert o["truth"]["logical_read_bytes"] == o["bytes_read"]
assert "absorbed_fraction" in o["truth"]
assert o["params"]["clients"] == 2 and o["params"]["sizes"] == "4k:3,64k:1"
assert len(o["jobs"]) == 2
assert "dbench_mbps" not in o
PY
check "the text shows ops/s and the table" \
	grep -qE "^  ops +[0-9]+ ops/s" "$TEST_TMP/text"
check "...with a row per operation" \
	test "$(grep -cE '^  (create|write|read|stat|rename|delete) +[0-9]+ +[0-9.]+ (ns|us|ms|s) ' "$TEST_TMP/text")" = 6
check "the work directory is removed after the run" test -z "$(ls -A "$dir")"

"$IOTRIAL" run smallfiles -t "$dir" --clients 3 --ios 3000 --sizes 1k \
	--lifetime 10ops --mix create:1,read:1 --no-store --json="$json" >/dev/null
check "--ios counts operations" \
	test "$(json "$json" 'o["file_ops_total"]')" -ge 3000
check "...and a short lifetime deletes files" \
	test "$(json "$json" 'o["file_ops"]["delete"]["count"]')" -gt 0
"$IOTRIAL" run smallfiles -t "$dir" --clients 1 --ios 500 --sizes 4k \
	--fsync close --mix create:1,delete:1 --no-store --json="$json" >/dev/null
check "--fsync close syncs every file written" \
	test "$(json "$json" 'o["fsyncs"] == o["file_ops"]["create"]["count"]')" = True

"$IOTRIAL" run smallfiles --help >"$TEST_TMP/help"
for p in clients sizes mix lifetime fsync dirs files loadfile; do
	check "--help lists --$p" grep -q -- "--$p" "$TEST_TMP/help"
done

USAGE_DIR=$dir
expect_usage "a negative size is refused with the valid forms" \
	"invalid size distribution '-4k': .*negative.*uniform:MIN-MAX.*lognormal:mean=SIZE" \
	run smallfiles -t "$dir" --sizes=-4k --time 1s --no-store
expect_usage "min above max is refused" \
	"invalid size distribution 'uniform:64k-4k': min 64k is above max 4k; expected" \
	run smallfiles -t "$dir" --sizes uniform:64k-4k --time 1s --no-store
expect_usage "an unknown distribution is refused" \
	"unknown distribution 'gauss'; expected a size" \
	run smallfiles -t "$dir" --sizes gauss:mean=4k --time 1s --no-store
expect_usage "an unknown operation in the mix is refused" \
	"invalid mix 'create:1,stats:2': unknown operation 'stats' \(did you mean 'stat'\?\)" \
	run smallfiles -t "$dir" --mix create:1,stats:2 --time 1s --no-store
expect_usage "a bad lifetime is refused" "invalid lifetime 'soon'" \
	run smallfiles -t "$dir" --lifetime soon --time 1s --no-store
expect_usage "a bad fsync policy is refused" \
	"invalid fsync 'sometimes': expected never, close or a number N" \
	run smallfiles -t "$dir" --fsync sometimes --time 1s --no-store
expect_usage "mix parameters do not go with a loadfile" \
	"'mix' does not apply to a loadfile replay" \
	run smallfiles -t "$dir" --loadfile /dev/null --mix create:1 --time 1s --no-store
