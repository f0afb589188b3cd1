#!/usr/bin/env bash
# Hints for what newcomers type: a scratch target without its size,
# folklore knob names (blockdev's "readahead", the kernel's old
# "elevator="), and the advice a non-root `run --set` gets, which must
# name a command that has --dry-run; fio's --rw, a bare --time, a
# store that cannot be made, many jobs, a mounted disk as the target.
# parallel: its own files, directory and store; nothing machine-wide; no run as root changes a knob or drops the page cache
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out

"$IOTRIAL" run -t scratch --time 1s --no-store >"$out" 2>&1
rc=$?
check "-t scratch without a size: usage error" test "$rc" = 2
check "...that gives the form and an example" \
	grep -qF "needs a size: scratch:SIZE[:ext4|xfs], e.g. scratch:2G:ext4" "$out"

"$IOTRIAL" run -t "$TEST_TMP/none" --time 1s --no-store >"$out" 2>&1
rc=$?
check "a missing target: usage error naming every kind of target" \
	bash -c "test $rc = 2 && grep -qF 'scratch:SIZE[:ext4|xfs]' '$out'"

for pair in readahead:read_ahead_kb ra:read_ahead_kb elevator:scheduler \
	iosched:scheduler; do
	said=${pair%%:*} means=${pair#*:}
	"$IOTRIAL" set --dry-run -t "$TEST_TMP" "$said=1" >"$out" 2>&1
	rc=$?
	check "set $said=1: usage error suggesting '$means'" \
		bash -c "test $rc = 2 && grep -qF \"did you mean '$means'?\" '$out'"
done

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOTRIAL"; then
	# on a disk: a knob of a tmpfs (a /tmp on tmpfs) is refused as
	# having no device, before the question of root comes up
	d=$(mktemp -d /var/tmp/iotrial-hints.XXXXXX)
	chmod 1777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env IOTRIAL_STATE_DIR="$d/state" XDG_DATA_HOME="$d/data" \
		"$IOTRIAL" run -t "$d" --set read_ahead_kb=1024 --time 1s \
		--no-store >"$out" 2>&1
	rc=$?
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env IOTRIAL_STATE_DIR="$d/state" XDG_DATA_HOME="$d/data" \
		"$IOTRIAL" compare seqread -t "$d" --vary read_ahead_kb=128,1024 \
		--time 1s --no-store >"$TEST_TMP/cmp" 2>&1
	crc=$?
	rm -rf "$d"
	check "non-root run --set: refused with exit 1 (got $rc)" test "$rc" = 1
	check "non-root compare --vary KNOB: the same exit 1 (got $crc)" \
		test "$crc" = 1
	check "...saying it needs root" grep -qF "needs root" "$TEST_TMP/cmp"
	check "...pointing to a command that has --dry-run" \
		grep -qF "'iotrial set --dry-run read_ahead_kb=1024' shows the plan" "$out"
	check "...not to run's own --dry-run, which it lacks" \
		bash -c "! grep -qF 'or add --dry-run' '$out'"
else
	echo "# not root, or nobody cannot run '$IOTRIAL': the non-root case is not checked"
fi

"$IOTRIAL" compare seqread -t "$TEST_TMP" --vary readahead=128,1024 \
	--no-store >"$out" 2>&1
rc=$?
check "compare --vary readahead=...: usage error suggesting 'read_ahead_kb'" \
	bash -c "test $rc = 2 && grep -qF \"did you mean 'read_ahead_kb'?\" '$out'"

# fio's --rw names the pattern; here the workload is the first argument
"$IOTRIAL" run --rw=randread >"$out" 2>&1
rc=$?
check "run --rw=...: usage error saying the workload comes first" \
	bash -c "test $rc = 2 && grep -qF 'the workload is the first argument' '$out'"

# a bare --time is seconds, and said so
"$IOTRIAL" run randread -t "$TEST_TMP" --size 1M --time 1 --no-store >"$out" 2>&1
check "--time 1: runs" test $? = 0
check "...with a note that a bare number is seconds" \
	grep -qF "note: --time 1 has no unit and is read as seconds" "$out"
"$IOTRIAL" run randread -t "$TEST_TMP" --size 1M --time 1s --no-store >"$out" 2>&1
check "--time 1s: no note" bash -c "! grep -q 'has no unit' '$out'"

# a store that cannot be made: the error says what to do instead
mkdir -p "$TEST_TMP/ro" && touch "$TEST_TMP/ro/file"
"$IOTRIAL" run randread -t "$TEST_TMP" --size 1M --time 1s \
	--db "$TEST_TMP/ro/file/results.db" >"$out" 2>&1
rc=$?
check "an impossible store: refused before measuring (exit $rc)" \
	bash -c "test $rc != 0 && ! grep -q IOPS '$out'"
check "...suggesting --db or --no-store" \
	grep -qF "give a writable place with --db PATH, or 'iotrial run --no-store'" "$out"

# many jobs: one summary line, unless --per-job
"$IOTRIAL" run randread -t "$TEST_TMP" --size 64k --jobs=6 --ios 600 \
	--no-store >"$out" 2>&1
check "6 jobs: summarised on one line" \
	bash -c "grep -q '^  jobs     6: IOPS min .* median .* max' '$out' && ! grep -q '^  job 0 ' '$out'"
"$IOTRIAL" run randread -t "$TEST_TMP" --size 64k --jobs=6 --ios 600 \
	--per-job --no-store >"$out" 2>&1
check "--per-job: a line per job" test "$(grep -c '^  job [0-9]' "$out")" = 6

# a mounted disk as the target: say it is mounted, and where
root_dev=$(findmnt -no SOURCE / 2>/dev/null)
if [ -b "$root_dev" ]; then
	"$IOTRIAL" run seqread -t "$root_dev" --time 1s --no-store >"$out" 2>&1
	rc=$?
	check "-t $root_dev (mounted): refused (exit $rc)" test "$rc" = 2
	check "...saying it is mounted, and where" grep -qF "'$root_dev' is mounted on '" "$out"
else
	echo "# / is not on a block device here: the mounted-disk case is not checked"
fi

# every command's --help leaves the descriptors it did not open alone:
# observe's closed standard input (its log's descriptor started at 0),
# which the manual's generator, reading a template there, would lose
if command -v strace >/dev/null; then
	for c in run compare observe record tune bisect series watch; do
		strace -f -e trace=close -o "$TEST_TMP/strace" \
			"$IOTRIAL" "$c" --help >/dev/null 2>&1 </dev/null
		check "$c --help leaves standard input open" \
			bash -c "! grep -q 'close(0)' '$TEST_TMP/strace'"
	done
else
	echo "# strace is not installed: --help's descriptors are not checked"
fi
