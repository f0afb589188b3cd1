#!/usr/bin/env bash
# The results store's filesystem is full (XDG_DATA_HOME on a small tmpfs
# of ours, filled up). Every command ends with a clear message and exit 1,
# stores nothing half-way, leaves an existing store as it was and no new
# file behind, and runs nothing when it could not store the result.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"

data=$XDG_DATA_HOME
work=$TEST_TMP/work
out=$TEST_TMP/out
mkdir -p "$work"
mount -t tmpfs -o size=2m iotrial-test-store "$data" ||
	skip "cannot mount a tmpfs"
TEST_MOUNTS+=("$data")
db=$data/iotrial/results.db

# fill: take all but KEEP KiB of the tmpfs (0: all of it)
fill() {
	rm -f "$data/fill"
	dd if=/dev/zero of="$data/fill" bs=4k \
		count=$(($(stat -f -c %a "$data") - $1 / 4)) 2>/dev/null
	[ "$1" != 0 ] || dd if=/dev/zero of="$data/fill" bs=4k \
		oflag=append conv=notrunc 2>/dev/null
	true
}
unfill() { rm -f "$data/fill"; }
# rows: "experiments runs" in the store, and its integrity
rows() {
	python3 - "$db" <<'PY'
import sqlite3, sys
# read-write, as iotrial opens it: a read-only connection would leave
# SQLite's -wal and -shm files behind when it closes
c = sqlite3.connect(sys.argv[1])
ok = c.execute("PRAGMA integrity_check").fetchone()[0]
e = c.execute("SELECT count(*) FROM experiments").fetchone()[0]
r = c.execute("SELECT count(*) FROM runs").fetchone()[0]
print(e, r, ok)
c.close()
PY
}
# an experiment object of SIZE bytes or so, to import
make_exp() {
	python3 - "$1" "$2" <<'PY'
import json, sys
runs = [{"arm": i % 2, "seq": i, "metric": 100.0 + i + 10 * (i % 2)}
        for i in range(8)]
exp = {"schema": "iotrial/1", "type": "experiment", "id": "",
       "workload": "seqread", "target": "/srv",
       "metric": {"name": "mbps", "higher_is_better": True},
       "factors": [{"name": "bs", "kind": "param", "values": ["4k", "8k"]}],
       "baseline": 0,
       "arms": [{"arm": 0, "label": "bs=4k", "settings": {"bs": "4k"}},
                {"arm": 1, "label": "bs=8k", "settings": {"bs": "8k"}}],
       "runs": runs, "blocks": 4, "stopped": "precision",
       "warnings": ["w" * 1000] * (int(sys.argv[2]) // 1000)}
json.dump(exp, open(sys.argv[1], "w"))
PY
}

# 1. no store yet, and no room for one
fill 0
"$IOTRIAL" run seqread -t "$work" --size 1M --ios 10 >"$out" 2>&1
check "run, no room for a new store: exit 1" test $? = 1
check "...saying the disk is full" \
	grep -qE "^error: .*'$db'.*(disk is full|No space left on device)" "$out"
check "...before running anything" bash -c '! grep -q "^seqread" "$1"' _ "$out"
check "...leaving no file or directory behind" \
	test "$(ls -A "$data")" = fill
check "...nor a work directory" test -z "$(ls -A "$work")"
"$IOTRIAL" compare seqread -t "$work" --size 1M --ios 10 --vary bs=4k,8k \
	--runs 4 --no-drop-caches --quiet >"$out" 2>&1
check "compare, no room for a new store: exit 1, nothing left" \
	test $? = 1 -a "$(ls -A "$data")" = fill

# 2. a store with one experiment, and the disk full
unfill
make_exp "$TEST_TMP/small.json" 1000
"$IOTRIAL" import "$TEST_TMP/small.json" >"$out" 2>&1
check "with room, an import is stored" test $? = 0
before=$(rows)
check "...one experiment, eight runs, intact" test "$before" = "1 8 ok"
fill 0
"$IOTRIAL" run seqread -t "$work" --size 1M --ios 10 >"$out" 2>&1
check "run, store's disk full: exit 1" test $? = 1
check "...saying the disk is full" \
	grep -qE "^error: .*'$db'.*(disk is full|No space left on device)" "$out"
unfill
check "...the store as it was" test "$(rows)" = "$before"

# 3. room to open the store, not to save a large experiment
fill 64
make_exp "$TEST_TMP/big.json" 300000
"$IOTRIAL" import "$TEST_TMP/big.json" >"$out" 2>&1
check "import that does not fit: exit 1" test $? = 1
check "...saying the disk is full" \
	grep -qE "^error: cannot save the experiment in '$db': .*(disk is full|No space left on device)" "$out"
check "...not claiming it was imported" bash -c '! grep -q "^imported" "$1"' _ "$out"
unfill
check "...no half-stored rows: the store as it was" test "$(rows)" = "$before"
check "...and no file but the store's (SQLite's -wal and -shm)" \
	test -z "$(ls -A "$data/iotrial" | grep -vxE 'results\.db(-wal|-shm)?')"
"$IOTRIAL" import "$TEST_TMP/big.json" >"$out" 2>&1
check "with room again, the same import is stored" test $? = 0
check "...the store now has two" test "$(rows)" = "2 16 ok"
check "...and SQLite has tidied its -wal and -shm away" \
	test "$(ls -A "$data/iotrial")" = results.db

# 4. the disk fills while a run measures: the result cannot be stored
before=$(rows)
"$IOTRIAL" run seqread -t "$work" --size 1M --time 2s >"$out" 2>&1 &
pid=$!
# the work file exists once the store was checked; then take the room
for i in $(seq 400); do
	ls "$work"/iotrial.*/job0.data >/dev/null 2>&1 && break
	sleep 0.05
done
fill 0
wait "$pid"
rc=$?
check "run, disk full by the end: exit 1" test "$rc" = 1
check "...saying the run was not stored, and why" \
	grep -qE "^error: the run was not stored: .*(disk is full|No space left on device)" "$out"
check "...still printing what it measured" grep -q "^seqread" "$out"
unfill
check "...and the store as it was" test "$(rows)" = "$before"
