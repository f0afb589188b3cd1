# Helpers for the replay tests (replay*, record*). Source after lib.sh.
# Not a test itself: run-tests.sh only runs *.sh.

# replay_quiet NAME ARGS...: iotrial run replay ARGS --no-store into
# $TEST_TMP/out and $TEST_TMP/NAME.json; again, up to five times in
# all, while another process dropped the page cache during the run (a
# busy machine's other tests: the replay warns, and what its warm start
# did at the device then says nothing). Returns the last run's exit
# status, or 75 when every try was so (the caller says it and judges
# nothing of that replay; replay_skip_all skips the test when nothing
# was judged).
REPLAY_JUDGED=0
replay_quiet() {
	local name=$1 try rc
	shift
	for try in 1 2 3 4 5; do
		"$IOTRIAL" run replay "$@" --no-store \
			--json="$TEST_TMP/$name.json" >"$TEST_TMP/out" 2>&1
		rc=$?
		if ! grep -q "another process dropped the page cache" \
			"$TEST_TMP/out"; then
			REPLAY_JUDGED=$((REPLAY_JUDGED + 1))
			return $rc
		fi
	done
	echo "# $name: another process dropped the page cache during each" \
		"of 5 replays: not judged here"
	return 75
}

# replay_must NAME ARGS...: replay_quiet, the test skipped (77) when
# every try was disturbed
replay_must() {
	replay_quiet "$@"
	local rc=$?
	[ $rc != 75 ] ||
		skip "another process dropped the page cache during each of 5 replays of $1"
	return $rc
}

# replay_skip_all: skip the test (77) if no replay was judged
replay_skip_all() {
	[ "$REPLAY_JUDGED" -gt 0 ] ||
		skip "another process dropped the page cache during every replay"
}

# replay_show FILE: the notes and warnings of a replay's output, on
# comment lines, for a failing check's log
replay_show() {
	grep -E '^(note|warning):' "$1" | sed 's/^/# /'
}
