#!/usr/bin/env bash
# Work files live in iotrial's own directory, held open: whoever can
# write to the target directory may rename iotrial.XXXXXX away during a
# run and put a symbolic link to another directory in its place, and
# iotrial must still neither create, truncate nor delete anything there.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out
T=$TEST_TMP/shared # the target: writable by "another user" (this test)
V=$TEST_TMP/victim # what the link points to
mkdir -p "$T" "$V"
chmod 1777 "$T"

# the victim holds files with the work files' names, and one more
fill_victim() {
	rm -rf "${V:?}"/*
	echo precious-prealloc >"$V/job0.prealloc"
	echo precious-data >"$V/job0.data"
	echo other >"$V/notes.txt"
}
victim_state() { (cd "$V" && ls -lA --time-style=+ . && md5sum ./*); }

# swap_during WORKLOAD FILE: run it, wait for its work FILE, then move the
# work directory away and link the victim in its place
swap_during() {
	local wl=$1 file=$2 pid wd="" i
	fill_victim
	before=$(victim_state)
	"$IOTRIAL" run "$wl" -t "$T" --size 8M --time 2s --no-store \
		>"$out" 2>&1 &
	pid=$!
	for i in $(seq 1 200); do
		wd=$(ls -d "$T"/iotrial.* 2>/dev/null | head -n 1)
		[ -n "$wd" ] && [ -e "$wd/$file" ] && break
		sleep 0.02
	done
	if [ -z "$wd" ] || [ ! -e "$wd/$file" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid"
		fail "$wl: the run made its work file (saw '$wd')"
		return
	fi
	mv "$wd" "$T/moved"
	ln -s "$V" "$wd"
	wait "$pid"
	rc=$?
	check "$wl: the run still ends cleanly (rc=$rc)" test "$rc" = 0
	after=$(victim_state)
	[ "$before" = "$after" ] || diff <(echo "$before") <(echo "$after") | sed 's/^/#   /'
	check "$wl: the victim directory is untouched" test "$before" = "$after"
	check "$wl: the link put in place is not followed or removed" test -L "$wd"
	check "$wl: iotrial emptied its own directory where it was moved" \
		test -z "$(ls -A "$T/moved")"
	rm -rf "$T/moved" "$wd"
}

swap_during seqwrite job0.prealloc
swap_during randread job0.data

# the work directory is private and is the only thing a run removes
"$IOTRIAL" run seqwrite -t "$T" --size 4M --time 200ms --no-store >"$out" 2>&1
check "a normal run leaves the target directory as it was" \
	test -z "$(ls -A "$T")"
