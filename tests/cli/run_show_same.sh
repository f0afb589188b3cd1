#!/usr/bin/env bash
# A run or a compare prints the object it stores, and show prints it
# again the same way: `run --json` is the run object of `show --json ID`
# (runs[0].run), `compare --json` is `show --json ID`, and the text of
# run and compare is the text of show.
#
# What may differ, because it is about the act of running or storing
# and not about the run (and nothing else):
# - run's last line, "stored as ID ('iotrial show ID')";
# - show's last two lines, a blank one and "stored DATE, origin ...".
# The JSON is the same to the last key: compare's object gets its id,
# "created" and "origin" from the store before it is printed.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
dir=$TEST_TMP/target
mkdir -p "$dir"

# same_json NAME LIVE STORED PYTHON-PATH: LIVE equals the object at the
# path of STORED ("o" for the whole object)
same_json() {
	check "$1" python3 - "$2" "$3" "$4" <<'PY'
import json, sys
live = json.load(open(sys.argv[1]))
o = json.load(open(sys.argv[2]))
stored = eval(sys.argv[3])
if live != stored:
    a, b = set(live), set(stored)
    print("# keys only live:", sorted(a - b), "only stored:", sorted(b - a))
    for k in sorted(a & b):
        if live[k] != stored[k]:
            print("# differs:", k, str(live[k])[:200], "|", str(stored[k])[:200])
    sys.exit(1)
PY
}

# same_text NAME LIVE SHOW: the texts agree but for the lines above
same_text() {
	sed '/^stored as [0-9a-f]* (.iotrial show [0-9a-f]*.)$/d' "$2" >"$TEST_TMP/live.txt"
	sed '$d' "$3" | sed '$d' >"$TEST_TMP/show.txt"
	tail -n 1 "$3" | grep -q '^stored .*, origin local' &&
		tail -n 2 "$3" | head -n 1 | grep -q '^$' ||
		echo "# show does not end with its stored line"
	if diff -u "$TEST_TMP/live.txt" "$TEST_TMP/show.txt" >"$TEST_TMP/text.diff"; then
		ok "$1"
	else
		fail "$1"
		sed 's/^/# /' "$TEST_TMP/text.diff"
	fi
}

# run_case NAME ARGS...: a run with --json=FILE (JSON and text from one
# run), then show and show --json of what it stored
run_case() {
	local name=$1 id
	shift
	if ! "$IOTRIAL" run "$@" -t "$dir" --db "$db" --seed 4242 \
		--json="$TEST_TMP/$name.json" >"$TEST_TMP/$name.txt" 2>"$TEST_TMP/$name.err"; then
		fail "$name runs"
		sed 's/^/# /' "$TEST_TMP/$name.err"
		return
	fi
	id=$(sed -n 's/^stored as \([0-9a-f]*\) .*/\1/p' "$TEST_TMP/$name.txt")
	check "$name is stored" test -n "$id"
	"$IOTRIAL" show "$id" --db "$db" >"$TEST_TMP/$name.show"
	"$IOTRIAL" show "$id" --db "$db" --json >"$TEST_TMP/$name.show.json"
	same_json "$name: run --json is the stored run object" \
		"$TEST_TMP/$name.json" "$TEST_TMP/$name.show.json" 'o["runs"][0]["run"]'
	same_text "$name: the text of run is the text of show" \
		"$TEST_TMP/$name.txt" "$TEST_TMP/$name.show"
	check "$name: the stored run keeps its seed" python3 - "$TEST_TMP/$name.show.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["seed"] == "4242" and o["runs"][0]["run"]["seed"] == 4242, o["seed"]
assert o["runs_mode"] == "run" and o["arms"][0]["label"] == "run"
assert o["stopped"] == "single run"
PY
	check "$name: show prints the seed it ran with" \
		grep -q '"seed": "4242"' "$TEST_TMP/$name.show.json"
	"$IOTRIAL" report "$id" --db "$db" --format json >"$TEST_TMP/$name.report.json"
	same_json "$name: report --format json is show --json" \
		"$TEST_TMP/$name.show.json" "$TEST_TMP/$name.report.json" 'o'
	"$IOTRIAL" report "$id" --db "$db" >"$TEST_TMP/$name.report"
	check "$name: report's text begins with show's" \
		test "$(head -n "$(grep -c '' "$TEST_TMP/$name.txt")" "$TEST_TMP/$name.report" | sed '$d')" = \
		"$(sed '$d' "$TEST_TMP/$name.txt")"
}

run_case seqread seqread --size 8M --ios 2000
# the CPU of the whole process is in the stored run too, not only printed
check "seqread: the stored run has the process's CPU" python3 - \
	"$TEST_TMP/seqread.show.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["run"]["cpu"]
for k in ("user_s", "sys_s", "system_busy_s", "system_total_s",
          "system_steal_s", "process_s", "workers_s", "outside_s"):
    assert k in c, k
# the kernel counts CPU in ticks of 10 ms: a short run on tmpfs (a
# fresh machine's /tmp) may give its workers none, never the process
assert c["process_s"] > 0 and c["process_s"] >= c["workers_s"] >= 0, c
PY
run_case smallfiles smallfiles --clients 2 --time 1s
run_case crashdump crashdump --time 1s

# a compare: the whole experiment object, and its text
if "$IOTRIAL" compare seqread -t "$dir" --size 4M --ios 500 --vary label=a,b \
	--runs 2 --no-drop-caches --db "$db" --seed 7 \
	--json="$TEST_TMP/cmp.json" >"$TEST_TMP/cmp.txt" 2>"$TEST_TMP/cmp.err"; then
	ok "compare runs"
else
	fail "compare runs"
	sed 's/^/# /' "$TEST_TMP/cmp.err"
fi
id=$(json "$TEST_TMP/cmp.json" 'o["id"]')
check "compare --json carries the stored id" test -n "$id"
"$IOTRIAL" show "$id" --db "$db" >"$TEST_TMP/cmp.show"
"$IOTRIAL" show "$id" --db "$db" --json >"$TEST_TMP/cmp.show.json"
same_json "compare --json is show --json" \
	"$TEST_TMP/cmp.json" "$TEST_TMP/cmp.show.json" 'o'
same_text "the text of compare is the text of show" \
	"$TEST_TMP/cmp.txt" "$TEST_TMP/cmp.show"
