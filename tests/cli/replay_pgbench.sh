#!/usr/bin/env bash
# A real server no one here wrote: PostgreSQL under pgbench, recorded
# by its postmaster's pid (every backend it forks is followed) on a
# loop device and replayed on a scratch file system: the replay's
# device moves the capture's bytes within 5% (the WAL's commits are
# fdatasync'ed, so what reached the device does not hang on when
# writeback came), scores 95 or more and carries no warning of kind
# fidelity. Skipped where PostgreSQL is not installed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replay-lib.bash"
need_root
command -v pgbench >/dev/null || skip "pgbench is not installed"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] ||
	skip "the PostgreSQL server is not installed"
id postgres >/dev/null 2>&1 || skip "no user postgres"
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi
mkloop 384M /var/tmp || skip "cannot make a loop device"
mkmount "$LOOP" -E lazy_itable_init=0,lazy_journal_init=0 ||
	skip "cannot make a file system"
SRC=$MNT
chmod 755 "$TEST_TMP" && chown postgres "$SRC"
PORT=$((50000 + $$ % 10000))
pg() { setpriv --reuid=postgres --regid=postgres --clear-groups "$@"; }
# the server goes before the file system it runs on
trap 'pg "$PGBIN/pg_ctl" -D "$SRC/data" -m immediate stop >/dev/null 2>&1;
	test_cleanup' EXIT
pg "$PGBIN/initdb" --no-sync -A trust -D "$SRC/data" >"$TEST_TMP/initdb" 2>&1 ||
	skip "initdb failed: $(tail -1 "$TEST_TMP/initdb")"
pg "$PGBIN/pg_ctl" -D "$SRC/data" -w -l "$SRC/log" \
	-o "-k $SRC -c listen_addresses= -p $PORT" start >/dev/null 2>&1 ||
	skip "the server does not start: $(tail -1 "$SRC/log")"
pg pgbench -h "$SRC" -p "$PORT" -i -s 1 -q postgres >"$TEST_TMP/init" 2>&1
check "pgbench fills its tables" test $? = 0
PM=$(head -1 "$SRC/data/postmaster.pid")
meta() { awk -v k="$2" '$1 == k && $2 == "=" { print $3 }' "$1"; }

sync
"$IOTRIAL" record --force -p "$PM" --duration 4s -o "$TEST_TMP/pg" \
	>"$TEST_TMP/rec.out" 2>&1 &
rec=$!
# the capture is on once its trace has its meta
for i in $(seq 50); do
	[ -s "$TEST_TMP/pg" ] && break
	sleep 0.1
done
pg pgbench -h "$SRC" -p "$PORT" -T 2 -c 2 postgres >"$TEST_TMP/bench" 2>&1
check "pgbench runs" test $? = 0
wait $rec
check "record the server's backends" test $? = 0
"$IOTRIAL" trace show --limit 1 "$TEST_TMP/pg" >"$TEST_TMP/show"
"$IOTRIAL" trace stats "$TEST_TMP/pg" >"$TEST_TMP/stats"
check "the capture has the WAL's flushes" \
	grep -Eq "^  fdatasync +[1-9]" "$TEST_TMP/stats"
rs=$(meta "$TEST_TMP/show" device.read_sectors)
ws=$(meta "$TEST_TMP/show" device.write_sectors)
pg "$PGBIN/pg_ctl" -D "$SRC/data" -m fast stop >/dev/null 2>&1
"$IOTRIAL" run replay --trace "$TEST_TMP/pg" -t scratch:256M:ext4 \
	--speed max --no-store --json="$TEST_TMP/pg.json" >"$TEST_TMP/out" 2>&1
check "replay it" test $? = 0
replay_show "$TEST_TMP/out"
# what another process's drop of the page cache (drop_caches, after a
# sync) did during either is not the calls': then the writes alone,
# which the WAL's flushes decide, are compared
drops=$(meta "$TEST_TMP/show" device.cache_drops)
if [ "${drops:-1}" = 0 ] &&
	! grep -q "another process dropped the page cache" "$TEST_TMP/out"; then
	got=$(json "$TEST_TMP/pg.json" \
		"o['devices'][0]['read_bytes'] + o['devices'][0]['write_bytes']")
	want=$(((rs + ws) * 512))
	what="bytes"
else
	echo "# another process dropped the page cache during the capture" \
		"or the replay: the writes alone are compared"
	got=$(json "$TEST_TMP/pg.json" "o['devices'][0]['write_bytes']")
	want=$((ws * 512))
	what="bytes written"
fi
check "the replay's device moved the capture's $what within 5% ($got, $want)" \
	python3 -c "import sys; sys.exit(not abs($got - $want) <= 0.05 * $want)"
fid=$(json "$TEST_TMP/pg.json" "o['fidelity']")
check "it scores 95 or more ($fid)" \
	python3 -c "import sys; sys.exit(not float('$fid') >= 95)"
check "no warning of kind fidelity" \
	test "$(json "$TEST_TMP/pg.json" "sum(k == 'fidelity' for k in o['warning_kinds'])")" = 0
