#!/usr/bin/env bash
# iotrial run crashdump: a brief run's JSON carries its metric (dumps
# per minute read by the consumers), the producers' rate, the
# per-operation table (write_dump, read_dump, delete_dump) and the device
# truth; the text shows the table; --ios counts dumps read; --keep
# leaves the dumps read in place (delete_dump counts only recycled ones);
# the spool is gone afterwards, and after kill -9 the next command
# removes it; a size distribution that makes no sense is a usage error. As root, on a small filesystem that fills up during
# the run: the run stops with a clear error, its files are removed and
# nothing is stored.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
trap 'test_cleanup; rm -rf "$dir"' EXIT
json=$TEST_TMP/out.json

"$IOTRIAL" run crashdump -t "$dir" --producers 2 --consumers 2 --time 1s \
	--sizes 4k:3,256k:1 --dirs 16 --no-store --json="$json" >"$TEST_TMP/text"
check "crashdump --time 1s --json runs" test $? = 0
check "its JSON has the metric, the per-operation table and the truth" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["workload"] == "crashdump"
m = o["metric"]
assert m["name"] == "dumps_per_min" and m["higher_is_better"], m
assert m["unit"] == "dumps/min", m
t = o["file_ops"]
assert set(t) == {"write_dump", "read_dump", "delete_dump"}, t
for name, e in t.items():
    assert e["count"] > 0 and e["errors"] == 0, (name, e)
    assert 0 < e["p50_us"] <= e["p99_us"] <= e["max_us"], (name, e)
assert abs(m["value"] - t["read_dump"]["count"] / o["seconds"] * 60) < 1e-6 * m["value"]
p = o["metrics"]["produced_per_min"]
assert abs(p - t["write_dump"]["count"] / o["seconds"] * 60) < 1e-6 * p
assert o["metrics"]["mbps"] > 0
# every dump read was deleted; fsync on by default: one per dump
assert t["delete_dump"]["count"] == t["read_dump"]["count"]
assert o["fsyncs"] == t["write_dump"]["count"]
assert sum(e["count"] for e in t.values()) == o["file_ops_total"]
assert o["bytes_written"] > 0 and o["bytes_read"] > 0
assert o["truth"]["logical_write_bytes"] == o["bytes_written"]
assert o["truth"]["logical_read_bytes"] == o["bytes_read"]
assert "absorbed_fraction" in o["truth"]
assert o["params"]["producers"] == 2 and o["params"]["dirs"] == 16
assert len(o["jobs"]) == 4
PY
check "the text names the workload and shows the table" \
	grep -q "^crashdump: 2 producers, 2 consumers, sizes 4k:3,256k:1, fsync on" "$TEST_TMP/text"
check "...with a row per operation" \
	test "$(grep -cE '^  (write_dump|read_dump|delete_dump) +[0-9]+ +[0-9.]+ (ns|us|ms|s) ' "$TEST_TMP/text")" = 3
check "...and the metric in dumps per minute" \
	grep -q "^metric: dumps_per_min = .* dumps/min (higher is better)" "$TEST_TMP/text"
check "...printed as the other numbers are, not in scientific notation" \
	grep -qE "^metric: dumps_per_min = [0-9]+(\.[0-9]+)? dumps/min" "$TEST_TMP/text"
check "the spool is removed after the run" test -z "$(ls -A "$dir")"

"$IOTRIAL" run crashdump -t "$dir" --ios 200 --sizes 8k --fsync 0 \
	--no-store --json="$json" >/dev/null
check "--ios counts dumps read" \
	test "$(json "$json" 'o["file_ops"]["read_dump"]["count"] >= 200')" = True
check "...--fsync 0 syncs nothing" test "$(json "$json" 'o["fsyncs"]')" = 0

"$IOTRIAL" run crashdump -t "$dir" --ios 200 --sizes 8k --keep \
	--no-store --json="$json" >/dev/null
check "--keep alone keeps the dumps read" \
	test "$(json "$json" 'o["params"]["keep"]')" = True
check "...deleting none of them (none recycled here)" \
	test "$(json "$json" 'o["file_ops"].get("delete_dump", {}).get("count", 0)')" = 0
check "...and the spool is still removed at the end" test -z "$(ls -A "$dir")"

"$IOTRIAL" run crashdump --help >"$TEST_TMP/help"
for p in producers consumers sizes fsync evict keep dirs bs; do
	check "--help lists --$p" grep -q -- "--$p" "$TEST_TMP/help"
done
check "--help lists the metrics" grep -q "produced_per_min" "$TEST_TMP/help"

USAGE_DIR=$dir
expect_usage "a negative size is refused with the valid forms" \
	"invalid size distribution '-4k': .*negative.*uniform:MIN-MAX.*lognormal:mean=SIZE" \
	run crashdump -t "$dir" --sizes=-4k --time 1s --no-store
expect_usage "min above max is refused" \
	"invalid size distribution 'uniform:64k-4k': min 64k is above max 4k" \
	run crashdump -t "$dir" --sizes uniform:64k-4k --time 1s --no-store
expect_usage "an unknown distribution is refused" \
	"unknown distribution 'gauss'; expected a size" \
	run crashdump -t "$dir" --sizes gauss:mean=4k --time 1s --no-store

# kill -9 mid-run leaves the spool; the next command removes it
"$IOTRIAL" run crashdump -t "$dir" --time 20s --sizes 8k --no-store \
	>"$TEST_TMP/kill" 2>&1 &
pid=$!
for _ in $(seq 200); do
	[ -n "$(find "$dir" -name 'dump*.dmp' -print -quit 2>/dev/null)" ] && break
	sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
wd=$(ls -d "$dir"/iotrial.* 2>/dev/null | head -n 1)
check "kill -9 leaves the spool" test -d "$wd/spool"
out=$TEST_TMP/kill recover_now # a command that changes the system
check "...the next command removes it and says so" \
	grep -q "removed the leftover work directory '$wd'" "$TEST_TMP/kill"
check "...the target directory is as it was" test -z "$(ls -A "$dir")"

# Out of space mid-run: the spool stays within half of the free space,
# so something else fills the filesystem while the producers write.
[ "$(id -u)" = 0 ] || exit 0
command -v mkfs.ext4 >/dev/null || exit 0
mkloop 64M || { fail "losetup (small)"; exit 1; }
mkmount "$LOOP" -m 0 || { fail "mount (small)"; exit 1; }
small=$MNT
mkdir "$small/t"
avail() { stat -f -c '%a %S' "$small" | awk '{ print $1 * $2 }'; }
sync
free0=$(avail)
timeout 120 "$IOTRIAL" run crashdump -t "$small/t" --sizes 256k --keep=1 \
	--time 60s >"$TEST_TMP/text" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -n "$(find "$small/t" -name 'dump*.dmp' -print -quit)" ] && break
	sleep 0.1
done
fallocate -l "$(avail)" "$small/filler" 2>/dev/null ||
	dd if=/dev/zero of="$small/filler" bs=1M 2>/dev/null
wait "$pid"
rc=$?
rm -f "$small/filler"
check "full filesystem: the run stops with exit 1" test "$rc" = 1
check "...saying the filesystem is full" \
	grep -q "^error: the filesystem of '$small/t' is full: producer [01] cannot .* 'spool/.*/dump[0-9]*.tmp' (No space left on device); the run is stopped and its files removed" "$TEST_TMP/text"
check "...the spool removed" test -z "$(ls -A "$small/t")"
sync
check "...the space free again (within 1 MiB)" \
	test $((free0 - $(avail))) -lt 1048576
check "...and nothing stored" \
	bash -c '! "$1" log 2>/dev/null | grep -q crashdump' _ "$IOTRIAL"
