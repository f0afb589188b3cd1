#!/usr/bin/env bash
# A real application no one here wrote: sqlite3 building a database
# (a table filled in ten transactions, an index), recorded on a loop
# device and replayed on a scratch file system: the replay's device
# moves the capture's bytes within 5%, scores 95 or more and carries no
# warning of kind fidelity. sqlite3 fsyncs every commit, so what reached
# the device does not hang on when writeback came; a capture during
# which another process dropped the page cache (sqlite3 read its pages
# back from the device then) is taken again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replay-lib.bash"
need_root
command -v sqlite3 >/dev/null || skip "sqlite3 is not installed"
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi
mkloop 128M /var/tmp || skip "cannot make a loop device"
mkmount "$LOOP" -E lazy_itable_init=0,lazy_journal_init=0 ||
	skip "cannot make a file system"
SRC=$MNT
python3 - >"$TEST_TMP/fill.sql" <<'PY'
import random
random.seed(3)
print("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL, b BLOB);")
for tx in range(10):
    print("BEGIN;")
    for i in range(400):
        print(f"INSERT INTO t(name, v, b) VALUES('n{tx}_{i}', "
              f"{random.random()}, randomblob({random.choice([100, 600, 2000])}));")
    print("COMMIT;")
print("CREATE INDEX t_name ON t(name);")
print("SELECT count(*) FROM t;")
PY
meta() { awk -v k="$2" '$1 == k && $2 == "=" { print $3 }' "$1"; }

# the capture counts another process's drops of the page cache in its
# window (device.cache_drops): a capture with one is taken again
quiet=0
for try in 1 2 3 4 5; do
	rm -f "$SRC/db.sqlite"
	sync
	(cd "$SRC" && "$IOTRIAL" record --force -o "$TEST_TMP/sq" -- \
		sh -c "sqlite3 db.sqlite <'$TEST_TMP/fill.sql'" \
		>"$TEST_TMP/rec.out" 2>&1)
	rc=$?
	"$IOTRIAL" trace show --limit 1 "$TEST_TMP/sq" >"$TEST_TMP/show"
	[ "$(meta "$TEST_TMP/show" device.cache_drops)" = 0 ] && quiet=1 &&
		break
done
check "record sqlite3 building a database" test $rc = 0
check "it built it" grep -q "^4000$" "$TEST_TMP/rec.out"
[ $quiet = 1 ] ||
	skip "another process dropped the page cache during each of 5 captures"
rs=$(meta "$TEST_TMP/show" device.read_sectors)
ws=$(meta "$TEST_TMP/show" device.write_sectors)
check "the capture says what reached its device ($rs, $ws sectors)" \
	test -n "$rs" -a -n "$ws" -a "${ws:-0}" -gt 4096
replay_must sq --trace "$TEST_TMP/sq" -t scratch:96M:ext4 --speed max
check "replay it" test $? = 0
replay_show "$TEST_TMP/out"
got=$(json "$TEST_TMP/sq.json" \
	"o['devices'][0]['read_bytes'] + o['devices'][0]['write_bytes']")
want=$(((rs + ws) * 512))
check "the replay's device moved the capture's bytes within 5% ($got, $want)" \
	python3 -c "import sys; sys.exit(not abs($got - $want) <= 0.05 * $want)"
fid=$(json "$TEST_TMP/sq.json" "o['fidelity']")
check "it scores 95 or more ($fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') >= 95)"
check "no warning of kind fidelity" \
	test "$(json "$TEST_TMP/sq.json" "sum(k == 'fidelity' for k in o['warning_kinds'])")" = 0
check "its commits' fsyncs are a class of the distributions" \
	test "$(json "$TEST_TMP/sq.json" "o['fidelity_dist']['sync']['calls_capture'] >= 10")" = True
