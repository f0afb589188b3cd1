# Helpers for the replay tests (replay*, record*). Source after lib.sh.
# Not a test itself: run-tests.sh only runs *.sh.

# replay_quiet NAME ARGS...: iotrial run replay ARGS --no-store into
# $TEST_TMP/out and $TEST_TMP/NAME.json; again, up to five times in
# all, while another process dropped the page cache during the run (a
# busy machine's other tests: the replay warns, and what its warm start
# did at the device then says nothing); the whole test is skipped when
# every try was. Returns the last run's exit status.
replay_quiet() {
	local name=$1 try rc
	shift
	for try in 1 2 3 4 5; do
		"$IOTRIAL" run replay "$@" --no-store \
			--json="$TEST_TMP/$name.json" >"$TEST_TMP/out" 2>&1
		rc=$?
		grep -q "another process dropped the page cache" \
			"$TEST_TMP/out" || return $rc
	done
	skip "another process dropped the page cache during each of 5 replays"
}

# replay_show FILE: the notes and warnings of a replay's output, on
# comment lines, for a failing check's log
replay_show() {
	grep -E '^(note|warning):' "$1" | sed 's/^/# /'
}
