#!/usr/bin/env bash
# One set of conventions: a misspelled global option is answered with the
# one meant; --json[=FILE] means the same on every command that prints
# JSON; report -f is --format, as on export; watch takes iostat's
# INTERVAL [COUNT] after the devices (and -c, -n still); run --quiet says
# nothing on stderr but warnings; run --dry-run and compare --dry-run
# print the arms, each arm's knob plan, the blocks and the time, and
# change, create and store nothing (JSON with --json); when the target is
# a directory, the plan names the disk whose knobs will change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
command -v jq >/dev/null || skip "needs jq"
db=$TEST_TMP/results.db
dir=$TEST_TMP/w
mkdir -p "$dir"

# global options
expect_usage "--vresion suggests --version" \
	"unknown option '--vresion'; did you mean '--version'\\?" --vresion
expect_usage "--comapt=0.1 suggests --compat" \
	"unknown option '--comapt'; did you mean '--compat'\\?" --comapt=0.1 log
expect_usage "an option like no global one lists them" \
	"the options before a command are --help, --version" --zzzzzzzzz

# --json=FILE on every JSON command, the same document as --json
"$IOTRIAL" compare randread -t "$dir" --size 1M --ios 256 --vary bs=4k,8k \
	--runs 2 --db "$db" --quiet --json="$TEST_TMP/c.json" >/dev/null 2>&1
id=$(jq -r .id "$TEST_TMP/c.json")
check "compare --json=FILE stored an experiment" test -n "$id" -a "$id" != null
"$IOTRIAL" compare randread -t "$dir" --size 1M --ios 256 --vary bs=4k,8k \
	--runs 2 --db "$db" --quiet --json="$TEST_TMP/c2.json" >/dev/null 2>&1
id2=$(jq -r .id "$TEST_TMP/c2.json")
same_json() { # NAME ARGS...: --json and --json=FILE agree
	local name=$1
	shift
	"$IOTRIAL" "$@" --json >"$TEST_TMP/a.json" 2>/dev/null
	rm -f "$TEST_TMP/b.json"
	"$IOTRIAL" "$@" --json="$TEST_TMP/b.json" >"$TEST_TMP/stdout" 2>/dev/null
	check "$name --json=FILE writes what --json prints, and nothing to stdout" \
		test -s "$TEST_TMP/b.json" -a ! -s "$TEST_TMP/stdout" -a \
		"$(jq -cS 'del(.boot_id)' "$TEST_TMP/a.json")" = "$(jq -cS 'del(.boot_id)' "$TEST_TMP/b.json")"
}
same_json log log --db "$db"
same_json show show "$id" --db "$db"
same_json knobs knobs -t "$dir"
same_json diff diff "$id" "$id2" --db "$db"
same_json "revert --list" revert --list
same_json "compare --dry-run" compare randread -t "$dir" --vary bs=4k,8k --dry-run
"$IOTRIAL" info -t "$dir" --json="$TEST_TMP/i.json" >"$TEST_TMP/stdout"
check "info --json=FILE writes the environment" \
	test "$(jq -r .schema "$TEST_TMP/i.json")" = iotrial/1 -a ! -s "$TEST_TMP/stdout"
expect_usage "--json=FILE that cannot be written is refused first" \
	"cannot write '/nonexistent/x.json'" log --db "$db" --json=/nonexistent/x.json

# report -f as export -f
"$IOTRIAL" report "$id" --db "$db" -f json >"$TEST_TMP/r1.json"
"$IOTRIAL" report "$id" --db "$db" --format json >"$TEST_TMP/r2.json"
check "report -f json is report --format json" \
	test -s "$TEST_TMP/r1.json" -a "$(jq -c . "$TEST_TMP/r1.json")" = "$(jq -c . "$TEST_TMP/r2.json")"

# run --quiet
"$IOTRIAL" run randread -t "$dir" --size 1M --time 1s --no-store \
	>/dev/null 2>"$TEST_TMP/loud"
"$IOTRIAL" run randread -t "$dir" --size 1M --time 1s --no-store \
	--quiet >"$TEST_TMP/out" 2>"$TEST_TMP/quiet"
# a 1M file read for 1 s wraps: a warning on a disk; on a tmpfs, with
# no device under it, a wrap changes nothing and run says nothing
if [ "$(stat -f -c %T "$dir")" = tmpfs ]; then
	echo "# $dir is on a tmpfs: no wrap warning to silence"
else
	check "run --time 1s on a small file warns without --quiet" \
		grep -q "^warning:" "$TEST_TMP/loud"
fi
check "run --quiet says nothing on stderr" test ! -s "$TEST_TMP/quiet"
check "...and still prints the run" grep -q "^randread:" "$TEST_TMP/out"

# run --dry-run, compare --dry-run: nothing made, nothing stored
n0=$(jq '.experiments | length' <("$IOTRIAL" log --db "$db" --json))
"$IOTRIAL" compare randread -t "$dir" --vary bs=4k,8k --runs 8 --time 2s \
	--db "$db" --dry-run >"$TEST_TMP/dry" 2>"$TEST_TMP/err"
check "compare --dry-run exits 0" test $? = 0
check "it names the workload, target and arms" \
	grep -q "^compare --dry-run: randread on $dir, 2 arms; nothing is changed or stored$" "$TEST_TMP/dry"
check "each arm, the baseline marked" \
	test "$(grep -c "^arm [12] 'bs=[48]k'" "$TEST_TMP/dry")" = 2 -a \
	"$(grep -c "(the baseline)" "$TEST_TMP/dry")" = 1
check "the blocks planned" grep -q "^blocks: 8 planned, each arm once per block in random order: 16 runs$" "$TEST_TMP/dry"
check "the estimated time" grep -qE "^estimated time: [0-9]+ s \(2\.[0-9] s per run" "$TEST_TMP/dry"
check "nothing made in the target" test -z "$(ls -A "$dir")"
check "nothing stored" test "$(jq '.experiments | length' <("$IOTRIAL" log --db "$db" --json))" = "$n0"
"$IOTRIAL" compare randread -t "$dir" --vary bs=4k,8k --runs 8 --time 2s \
	--dry-run --json >"$TEST_TMP/dry.json"
check "compare --dry-run --json: arms, blocks, runs, estimate" \
	test "$(jq -c '[.kind, .command, (.arms | length), .blocks, .runs, .adaptive, (.estimated_seconds > 16)]' "$TEST_TMP/dry.json")" = \
	'["dry-run","compare",2,8,16,false,true]'
"$IOTRIAL" compare randread -t "$dir" --vary bs=4k,8k --time 1s --max-runs 9 --dry-run >"$TEST_TMP/dry"
check "an adaptive compare says its least and most blocks" \
	grep -qE "^blocks: until the estimate is within \+-2%, at least [0-9]+, at most 9 \(--max-runs\)$" "$TEST_TMP/dry"
"$IOTRIAL" run randread -t "$dir" --time 3s --dry-run >"$TEST_TMP/dry"
check "run --dry-run: one run, its time" \
	test "$(sed -n 1p "$TEST_TMP/dry")" = "run --dry-run: randread on $dir; nothing is changed or stored" -a \
	"$(grep -c "^one run$" "$TEST_TMP/dry")" = 1
check "...nothing made" test -z "$(ls -A "$dir")"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TEST_TMP" && chmod 777 "$dir"
	# a system knob: the plan needs no disk under "$dir" (a tmpfs /tmp
	# has none), and changing it needs root all the same
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env \
		IOTRIAL_STATE_DIR="$dir/state" "$IOTRIAL" compare randread -t "$dir" \
		--vary vm.dirty_expire_centisecs=3000,2000 --runs 7 --dry-run 2>&1)
	check "not root: the plan is shown and says a run needs root" \
		test "$(tail -n 1 <<<"$out")" = "running it needs root: it changes knobs"
	rm -rf "$dir/state"
fi
expect_usage "--dry-run on a scratch target" "--dry-run plans on a target that exists" \
	run randread -t scratch:64M --dry-run

# the rest needs a device of ours
[ "$(id -u)" = 0 ] || { echo "# not root: watch and the knob plans on a device are not tested"; exit 0; }
mkloop 64M || skip "cannot make a loop device"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"

# watch DEV INTERVAL COUNT
"$IOTRIAL" watch "$dev" 0.05 3 --json >"$TEST_TMP/w.jsonl"
check "watch DEV 0.05 3 prints three samples" test "$(wc -l <"$TEST_TMP/w.jsonl")" = 3
"$IOTRIAL" watch "$dev" 50ms 2 --csv >"$TEST_TMP/w.csv"
check "watch DEV 50ms 2: a duration too" test "$(wc -l <"$TEST_TMP/w.csv")" = 3
"$IOTRIAL" watch "$dev" -c 2 -i 50ms --json >"$TEST_TMP/w.jsonl"
check "watch -c 2 still works" test "$(wc -l <"$TEST_TMP/w.jsonl")" = 2
"$IOTRIAL" watch "$dev" -n 2 -i 50ms --json >"$TEST_TMP/w.jsonl"
check "watch -n 2 counts as log -n does" test "$(wc -l <"$TEST_TMP/w.jsonl")" = 2
"$IOTRIAL" watch "$dev" 50ms 2 --json="$TEST_TMP/wf.jsonl" >"$TEST_TMP/stdout"
check "watch --json=FILE writes the lines there" \
	test "$(jq -r .name "$TEST_TMP/wf.jsonl" | sort -u)" = "$dev" -a ! -s "$TEST_TMP/stdout"
expect_usage "a count given twice" "the count is given twice" watch "$dev" -c 2 1 3
expect_usage "a third number" "unexpected argument '3'" watch "$dev" 1 2 3
expect_usage "a device after the interval" "device '$dev' after the interval" watch 1 "$dev"

# knob plans on a directory name the disk
ra0=$(queue "$LOOP" read_ahead_kb)
ra1=$((ra0 == 4096 ? 2048 : 4096))
"$IOTRIAL" compare randread -t "$MNT" --vary read_ahead_kb=$ra0,$ra1 --runs 7 \
	--dry-run >"$TEST_TMP/dry" 2>"$TEST_TMP/err"
check "compare --dry-run names the disk under the directory" \
	grep -qx "target $MNT on $dev: knobs will be changed on $dev" "$TEST_TMP/dry"
check "...and each arm's change from what to what" \
	grep -qE "^  1\. 'read_ahead_kb' on '$dev': $ra0 KiB .* -> $ra1 KiB" "$TEST_TMP/dry"
check "...changing nothing" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
"$IOTRIAL" run randread -t "$MNT" --set read_ahead_kb=$ra1 --dry-run --json >"$TEST_TMP/rd.json"
check "run --dry-run --json: the --set change and the disk" \
	test "$(jq -r '"\(.knobs_changed_on) \(.fixed[0].before) \(.fixed[0].value)"' "$TEST_TMP/rd.json")" = "$dev $ra0 $ra1"
"$IOTRIAL" run randread -t "$MNT" --size 1M --ios 64 --no-store \
	--set read_ahead_kb=$ra1 >/dev/null 2>"$TEST_TMP/err"
check "run --set on a directory says which disk it tunes" \
	grep -qx "run: target $MNT on $dev: knobs will be changed on $dev" "$TEST_TMP/err"
check "...and restored it" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
"$IOTRIAL" compare randread -t "$MNT" --size 1M --ios 64 --runs 2 --no-store \
	--vary read_ahead_kb=$ra0,$ra1 >/dev/null 2>"$TEST_TMP/err"
check "compare on a directory says which disk it tunes" \
	grep -qx "compare: target $MNT on $dev: knobs will be changed on $dev" "$TEST_TMP/err"
"$IOTRIAL" compare randread -t "$MNT" --size 1M --ios 64 --runs 2 --no-store \
	--vary bs=4k,8k >/dev/null 2>"$TEST_TMP/err"
check "...and says nothing of it when no knob is varied" \
	test "$(grep -c "knobs will be changed" "$TEST_TMP/err")" = 0
check "the knob is back" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
