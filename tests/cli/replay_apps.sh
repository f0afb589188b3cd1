#!/usr/bin/env bash
# A replay under the capture's own settings is faithful: tar extracting
# a tree, the crashdump collector and smallfiles, each captured cold
# (its file system just mounted) and warm (read just before), replay on
# a scratch file system with a score of 95 or more and no warning of
# kind fidelity. The captures flush at their end (tar's is followed by a
# sync, the workloads fsync), as other processes' syncs on a busy
# machine would decide otherwise what reached the device in the window.
# The replays run as fast as they go: their timing against the capture
# is replay_order.sh's and test_fidelity's, not a busy machine's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/replay-lib.bash"
need_root
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi
command -v tar >/dev/null || skip "tar is not installed"
# on a loop device whose image is where a scratch target's is: its
# settings (a loop device's read-ahead follows its image's file system)
# are the replays' own
mkloop 256M /var/tmp || skip "cannot make a loop device"
SRC_LOOP=$LOOP
mkmount "$SRC_LOOP" -E lazy_itable_init=0,lazy_journal_init=0 ||
	skip "cannot make a file system"
SRC=$MNT

# a tree of 240 files, 12 MiB, as a tarball
python3 - "$SRC/tree" <<'PY'
import os, random, sys
random.seed(7)
for d in range(8):
    os.makedirs(f"{sys.argv[1]}/d{d}")
    for f in range(30):
        with open(f"{sys.argv[1]}/d{d}/f{f}", "wb") as fh:
            fh.write(os.urandom(random.choice([2000, 20000, 100000])))
PY
(cd "$SRC" && tar cf t.tar tree && rm -r tree && sync)
# its own cache goes with the mount
cold() { umount "$SRC" && mount "$SRC_LOOP" "$SRC"; }

# record NAME CMD...: capture CMD in $SRC into $TEST_TMP/NAME
record() {
	local name=$1
	shift
	(cd "$SRC" && "$IOTRIAL" record --force -o "$TEST_TMP/$name" -- "$@" \
		>"$TEST_TMP/rec.out" 2>&1)
}

# judge NAME: replay $TEST_TMP/NAME and check it
judge() {
	local name=$1 fid kinds rc
	replay_quiet "$name" --trace "$TEST_TMP/$name" \
		-t scratch:160M:ext4 --speed max
	rc=$?
	[ $rc = 75 ] && return
	touch "$TEST_TMP/$name.judged"
	check "$name: the replay runs" test $rc = 0
	replay_show "$TEST_TMP/out"
	fid=$(json "$TEST_TMP/$name.json" "o['fidelity']")
	kinds=$(json "$TEST_TMP/$name.json" "sum(k == 'fidelity'
		for k in o['warning_kinds'])")
	# every call ends as recorded: names the capture took to lie under
	# a descriptor it left out (the sampler's PID/stat under /proc) or
	# could not read at the call's entry (the journal's boot_id, right
	# after exec) put calls on the wrong files, which then ended
	# otherwise in about half the replays
	check "$name: every call ended as recorded" \
		grep -q "; 0 calls ended otherwise than recorded" "$TEST_TMP/out"
	check "$name: it scores 95 or more ($fid)" \
		python3 -c "import sys; sys.exit(not float('$fid') >= 95)"
	check "$name: no warning of kind fidelity ($kinds)" test "$kinds" = 0
}

cold || skip "cannot mount '$SRC_LOOP' again"
record tar-cold sh -c 'tar xf t.tar && sync'
check "record tar, cold" test $? = 0
rm -r "$SRC/tree"
# warm: the tarball read just before, as its first open finds it (the
# capture says so); another process's drop of the page cache between
# the read and the capture makes it cold: then again
warm=0
for try in 1 2 3 4 5; do
	cat "$SRC/t.tar" >/dev/null
	record tar-warm sh -c 'tar xf t.tar && sync'
	rc=$?
	rm -r "$SRC/tree"
	"$IOTRIAL" trace show --limit 1 "$TEST_TMP/tar-warm" >"$TEST_TMP/show"
	id=$(awk '$NF ~ /\/t\.tar$/ { print $1 }' "$TEST_TMP/show")
	awk -v id="$id" '$1 == id && $2 == "cached" && $3 " " $4 == $6 " " $7 { ok = 1 }
		END { exit !ok }' "$TEST_TMP/show" && warm=1 && break
done
check "record tar, warm" test $rc = 0
[ $warm = 1 ] || echo "# another process dropped the tarball from the page" \
	"cache before each of 5 captures: tar-warm not judged here"
mkdir "$SRC/cd" "$SRC/sf"
# record's process that lets the tracepoints go leaves the directory
check "the file system unmounts right after a record" cold
record crashdump-cold "$IOTRIAL" run crashdump -t "$SRC/cd" --time 500ms \
	--no-store
check "record crashdump, cold" test $? = 0
record crashdump-warm "$IOTRIAL" run crashdump -t "$SRC/cd" --time 500ms \
	--no-store
check "record crashdump, warm" test $? = 0
check "and again" cold
record smallfiles-cold "$IOTRIAL" run smallfiles -t "$SRC/sf" --time 500ms \
	--clients 2 --fsync close --no-store
check "record smallfiles, cold" test $? = 0
record smallfiles-warm "$IOTRIAL" run smallfiles -t "$SRC/sf" --time 500ms \
	--clients 2 --fsync close --no-store
check "record smallfiles, warm" test $? = 0
cd / || exit 1

for t in tar crashdump smallfiles; do
	judge "$t-cold"
	[ $t != tar ] || [ $warm = 1 ] && judge "$t-warm"
done
replay_skip_all
[ -e "$TEST_TMP/tar-cold.judged" ] &&
	check "tar's cold replay read the tarball at the device" \
		test "$(json "$TEST_TMP/tar-cold.json" "o['devices'][0]['read_bytes'] > 8 << 20")" = True
[ -e "$TEST_TMP/tar-warm.judged" ] &&
	check "tar's warm replay read it from the page cache" \
		test "$(json "$TEST_TMP/tar-warm.json" "o['devices'][0]['read_bytes'] < 4 << 20")" = True
