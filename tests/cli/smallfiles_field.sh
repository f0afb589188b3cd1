#!/usr/bin/env bash
# The file server case: many clients, small files that live a short
# while. On an ext4 loop device of our own (formatted without lazy init
# so nothing else writes to it), files deleted a few operations after
# they were written, never fsync'd, do not reach the device: the
# absorbed fraction is near 1 and the run says the page cache absorbed
# them. With fsync on close, the device takes the bytes: the fraction
# is near 0, without that warning. And a run that fills the filesystem
# stops with a clear error, removes its files and stores nothing.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup is not installed"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed"
out=$TEST_TMP/run.json

mkloop 512M /var/tmp || { fail "losetup"; exit 1; }
mkmount "$LOOP" -E lazy_itable_init=0,lazy_journal_init=0 ||
	{ fail "mount"; exit 1; }
mnt=$MNT
name=$(basename "$LOOP")
sync

"$IOTRIAL" run smallfiles -t "$mnt" --clients 4 --sizes 16k --lifetime 20ops \
	--fsync never --time 2s --no-store --json="$out" >"$TEST_TMP/text"
check "short lifetime, no fsync: the run works" test $? = 0
check "...the truth is of $name" \
	test "$(json "$out" 'o["devices"][0]["name"]')" = "$name"
a=$(json "$out" 'o["truth"]["absorbed_fraction"]')
check "...absorbed fraction $a near 1 (> 0.9)" \
	python3 -c "import sys; sys.exit(not $a > 0.9)"
check "...the page-cache warning, blaming files deleted while dirty" \
	test "$(json "$out" 'sum("never reached the device" in w and "files were deleted or truncated while still dirty" in w for w in o["warnings"])')" = 1
check "...the text shows the absorption" \
	grep -q "absorbed by the page cache: 9[0-9]%\|absorbed by the page cache: 100%" "$TEST_TMP/text"

"$IOTRIAL" run smallfiles -t "$mnt" --clients 4 --sizes 16k --lifetime 20ops \
	--fsync close --time 2s --no-store --json="$out" >/dev/null
check "fsync on close: the run works" test $? = 0
a=$(json "$out" 'o["truth"]["absorbed_fraction"]')
check "...absorbed fraction $a near 0 (< 0.1)" \
	python3 -c "import sys; sys.exit(not $a < 0.1)"
check "...the device took at least what was written" \
	python3 -c "import sys; sys.exit(not $(json "$out" 'o["truth"]["device_write_bytes"] >= o["truth"]["logical_write_bytes"] > 0'))"
check "...no page-cache warning" \
	test "$(json "$out" 'sum("never reached" in w for w in o["warnings"])')" = 0

# Out of space mid-run: a small filesystem, only creates, no deletes.
# The space check before the run passes (it plans for half the files).
mkloop 48M || { fail "losetup (small)"; exit 1; }
mkmount "$LOOP" -m 0 || { fail "mount (small)"; exit 1; }
small=$MNT
mkdir "$small/t"
avail() { stat -f -c '%a %S' "$small" | awk '{ print $1 * $2 }'; }
free0=$(avail)
"$IOTRIAL" run smallfiles -t "$small/t" --clients 2 --sizes 1M --files 30 \
	--mix create:1 --time 30s >"$TEST_TMP/text" 2>&1
rc=$?
check "full filesystem: the run stops with exit 1" test "$rc" = 1
check "...saying the filesystem is full" \
	grep -q "^error: the filesystem of '$small/t' is full: client [01] cannot .* (No space left on device); the run is stopped and its files removed" "$TEST_TMP/text"
check "...the work directory removed" test -z "$(ls -A "$small/t")"
sync
check "...the space free again (within 1 MiB)" \
	test $((free0 - $(avail))) -lt 1048576
check "...and nothing stored" \
	bash -c '! "$1" log 2>/dev/null | grep -q smallfiles' _ "$IOTRIAL"

# a mix that cannot fit at all is refused before it starts
USAGE_DIR=$small/t
expect_usage "a mix too big for the filesystem is refused" \
	"the files of 2 clients \(half of --files 1000 each, 1048576 bytes on average\) need 1000 MiB but '$small/t' has .* free; lower --files" \
	run smallfiles -t "$small/t" --clients 2 --sizes 1M --time 1s --no-store
