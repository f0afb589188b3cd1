#!/usr/bin/env bash
# iotrial tune and bisect on a loop device with tiny runs: the race
# runs, every knob it touched is back afterwards (and after kill -9,
# at the next iotrial), the answer is a stored experiment that show
# prints again, a candidate whose runs fail leaves with the reason
# while the rest goes on, and bad input gets a clear refusal (exit 2)
# that changes nothing. The search itself is tested on a simulated
# response surface in tests/unit/test_tune.c; here only its plumbing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
mkloop 64M || skip "cannot make a loop device"
L=$LOOP
D=${L#/dev/}
out=$TEST_TMP/out
db=$TEST_TMP/db.sqlite
q=/sys/block/$D/queue
echo 16 >"$q/read_ahead_kb"
state() {
	for k in read_ahead_kb scheduler nr_requests add_random nomerges; do
		echo "$k=$(cat "$q/$k")"
	done
}
before=$(state)
run=(seqread -t "$L" --size 4M --time 100ms --max-blocks 6 --db "$db"
	--seed 7 --quiet)

"$IOTRIAL" tune "${run[@]}" --space read_ahead_kb=16,256 \
	--space add_random=0,1 --space nr_requests=100000 \
	--json="$TEST_TMP/t.json" >"$out" 2>&1
rc=$?
check "tune runs (rc=$rc)" test $rc = 0
check "...and every knob is back" test "$(state)" = "$before"
check "it is a stored experiment of kind tune" \
	test "$(json "$TEST_TMP/t.json" 'o["kind"]')" = tune
check "...with the runs against a full grid" \
	json "$TEST_TMP/t.json" \
	'o["tune"]["runs"] > 0 and o["tune"]["grid_arms"] == 8 and o["tune"]["grid_runs"] >= o["tune"]["runs"] or exit(1)'
check "...a recommendation and the current settings' values" \
	json "$TEST_TMP/t.json" \
	'[s["current"] for s in o["tune"]["space"]] == ["16", "0", o["tune"]["space"][2]["values"][0]] and "recommended" in o["tune"] or exit(1)'
check "the answer is printed" grep -q "^recommended: " "$out"
# add_random resets read-ahead at every switch: the journal's note of it
# is said once, not at every block
check "no note is said twice" \
	test -z "$(grep '^note:' "$out" | sort | uniq -d)"
check "...with the runs against a grid" grep -q "^runs: .* a full grid of 8" "$out"
# nr_requests=100000 parses but the kernel refuses it: its candidate
# leaves with the reason, the others go on
check "a candidate the kernel refuses leaves with the reason" \
	json "$TEST_TMP/t.json" \
	'[c for c in o["tune"]["candidates"] if c["changes"] == {"nr_requests": "100000"} and c["state"] == "failed" and "nr_requests" in c["why"]] or exit(1)'
check "...and the rest ran" \
	json "$TEST_TMP/t.json" \
	'[c for c in o["tune"]["candidates"] if c["changes"] == {"read_ahead_kb": "256"} and c["runs"] >= 6] or exit(1)'
id=$(json "$TEST_TMP/t.json" 'o["id"]')
"$IOTRIAL" show "$id" --db "$db" >"$out" 2>&1
check "show prints the stored tune's answer" grep -q "^recommended: " "$out"

# two arms of the stored experiment are bisect's sets: one setting
# differs, and its step runs A and B once a block
"$IOTRIAL" bisect "${run[@]}" --from "$id:#1" --to "$id:#2" \
	--json="$TEST_TMP/b1.json" >"$out" 2>&1
rc=$?
check "bisect --from ID:ARM --to ID:ARM runs (rc=$rc)" test $rc = 0
check "...on the one setting the two arms differ in" \
	json "$TEST_TMP/b1.json" \
	'[(s["knob"], s["from"], s["to"]) for s in o["bisect"]["settings"]] == [("read_ahead_kb", "16", "256")] or exit(1)'
check "...each block runs each set once" \
	json "$TEST_TMP/b1.json" \
	'len(o["runs"]) == 2 * len({r["block"] for r in o["runs"]}) or exit(1)'
check "...and every knob is back" test "$(state)" = "$before"

# --progress=json and --metrics-file follow the race, as compare's do
"$IOTRIAL" tune "${run[@]}" --space add_random=0,1 --no-store \
	--progress=json:3 --metrics-file "$TEST_TMP/t.prom" \
	3>"$TEST_TMP/t.jsonl" >"$out" 2>&1
check "tune --progress=json:3 --metrics-file exits 0" test $? = 0
check "...its lines fit the progress schema" python3 \
	"$IOTRIAL_SRC/tests/json_schema.py" "$IOTRIAL_SRC/docs/schema" \
	"$TEST_TMP/t.jsonl"
check "...one start and one end, the runs counted, the command tune" \
	python3 - "$TEST_TMP/t.jsonl" <<'PY'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
assert L[0]["event"] == "start" and L[-1]["event"] == "end", L
assert L[-1]["outcome"] == "done", L[-1]
assert all(x["command"] == "tune" for x in L), L
assert max(x.get("done", 0) for x in L) >= 2, L
PY
check "...the metrics file has the race's arms" \
	grep -q '^iotrial_arm_runs{command="tune",arm="add_random=1"}' \
	"$TEST_TMP/t.prom"
if command -v promtool >/dev/null; then
	check "...which promtool accepts" \
		eval 'promtool check metrics <"$TEST_TMP/t.prom"'
fi
check "...and every knob is back" test "$(state)" = "$before"

# bad input: a clear message, exit 2, nothing changed
bad() {
	local name=$1 want=$2
	shift 2
	"$IOTRIAL" "$@" >"$out" 2>&1
	local rc=$?
	check "$name: exit 2 (rc=$rc)" test $rc = 2
	check "$name: says '$want'" grep -qF -- "$want" "$out"
	check "$name: nothing changed" test "$(state)" = "$before"
}
bad "unknown knob" "unknown knob 'read_ahead'" \
	tune "${run[@]}" --space read_ahead=16,256
bad "a value that does not parse" "--space read_ahead_kb" \
	tune "${run[@]}" --space read_ahead_kb=16,lots
bad "a row with only the current value" "no value here but its current one" \
	tune "${run[@]}" --space read_ahead_kb=16
bad "read-ahead for a workload that does not read" \
	"'read_ahead_kb' cannot act on seqwrite: the workload does not read" \
	tune seqwrite "${run[@]:1}" --space read_ahead_kb=16,256
bad "read-ahead for direct I/O" "direct I/O goes around the page cache" \
	tune "${run[@]}" --direct=1 --space read_ahead_kb=16,256
bad "a knob given twice" "'add_random' is given twice" \
	tune "${run[@]}" --space add_random=0,1 --space add_random=1,0
bad "a budget too small" "racing this space needs at least" \
	tune "${run[@]}" --space read_ahead_kb=16,256 --budget 1s
bad "a value outside --max-change" "outside --max-change" \
	tune "${run[@]}" --space read_ahead_kb=16,4096 \
	--max-change read_ahead_kb=0..1024
bad "sets that do not differ" "do not differ" \
	bisect "${run[@]}" --from read_ahead_kb=16 --to read_ahead_kb=16k
bad "a set that is no set" "a directory, not a regular file" \
	bisect "${run[@]}" --from "$TEST_TMP" --to read_ahead_kb=64
bad "bisect without --to" "needs both sets" \
	bisect "${run[@]}" --from read_ahead_kb=16
bad "two arms that do not differ" "do not differ" \
	bisect "${run[@]}" --from "$id:#1" --to "$id:#1"
bad "an arm the experiment lacks" "has no arm '#99'" \
	bisect "${run[@]}" --from "$id:#99" --to "$id:#1"
printf '{"schema": "iotrial/1", "knobs": [{"name": "sysctl:kernel.sysrq", "value": "1"}]}' >"$TEST_TMP/raw.json"
bad "a set file that names a raw knob" "names the raw knob 'sysctl:kernel.sysrq'" \
	bisect "${run[@]}" --from "$TEST_TMP/raw.json" --to read_ahead_kb=64

bad "an --abort-if that does not parse" "cannot read --abort-if" \
	tune "${run[@]}" --space read_ahead_kb=16,256 --abort-if p99
# a rule the current settings break ends the search, with the numbers
"$IOTRIAL" tune "${run[@]}" --space read_ahead_kb=16,256 --no-store \
	--abort-if 'mbps>0' >"$out" 2>&1
rc=$?
check "--abort-if: the current settings break it (rc=$rc)" \
	grep -q "^stopped: the current settings: broke --abort-if 'mbps>0': mbps was" "$out"
check "...which ends the search early: exit 1 (rc=$rc)" test $rc = 1
check "...and says so" grep -q "^error: the search ended early: the current settings" "$out"
check "...and every knob is back" test "$(state)" = "$before"

# bisect: two settings differ; the answer names each one's role
"$IOTRIAL" bisect "${run[@]}" --from read_ahead_kb=16 --from add_random=0 \
	--to read_ahead_kb=256 --to add_random=1 \
	--json="$TEST_TMP/b.json" >"$out" 2>&1
rc=$?
check "bisect runs (rc=$rc)" test $rc = 0
check "...and every knob is back" test "$(state)" = "$before"
check "it is a stored experiment of kind bisect" \
	json "$TEST_TMP/b.json" \
	'o["kind"] == "bisect" and [s["knob"] for s in o["bisect"]["settings"]] == ["read_ahead_kb", "add_random"] and o["bisect"]["stopped"] or exit(1)'
check "the answer is printed" grep -q "^steps: .*testing each setting alone: 2" "$out"
# a knobs --json file is a set
"$IOTRIAL" knobs -t "$L" --json >"$TEST_TMP/knobs.json" 2>/dev/null
bad "a machine's knobs that match this one" "do not differ" \
	bisect "${run[@]}" --from "$TEST_TMP/knobs.json" --to read_ahead_kb=16

# add_random resets read-ahead when written (Linux 6.x): it is set
# first, and both come back
"$IOTRIAL" set add_random=1 read_ahead_kb=32 --device "$L" >"$out" 2>&1
check "add_random and read-ahead set together both hold" \
	test "$(cat "$q/add_random") $(cat "$q/read_ahead_kb")" = "1 32"
"$IOTRIAL" revert >"$out" 2>&1
check "...and revert brings both back" test "$(state)" = "$before"

# kill -9 mid-race: the next iotrial restores every knob
"$IOTRIAL" tune seqread -t "$L" --size 4M --time 300ms --db "$db" \
	--space read_ahead_kb=16,256 --space nomerges=0,2 --quiet \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ "$(state)" != "$before" ] && break
	sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9: a knob was left changed" test "$(state)" != "$before"
recover_now
check "kill -9: the next iotrial restores every knob" \
	test "$(state)" = "$before"
