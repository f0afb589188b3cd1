#!/usr/bin/env bash
# compare plans so that a verdict is reachable: a budget or a --max-runs
# too small for the exact signed-rank test is refused before the first
# run (and says what would do), --force runs anyway with a warning, and
# an experiment that stops on a limit says how many more blocks its own
# variation needs.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches); a loop device of its own
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
common=(-t "$dir" --size=4M --no-drop-caches --quiet)
USAGE_DIR=$dir

# 12 arms of 3 s: one block is about 37 s; 11 Holm-adjusted comparisons
# need 9 blocks (11 x 2 / 2^8 = 0.086 is not below 0.05)
arms=label=a,b,c,d,e,f,g,h,i,j,k,l
expect_usage "a budget too small for a verdict is refused before any run" \
	"--budget 40s allows about 1 block of 12 arms.*needs at least 9 blocks.*use --budget [0-9]+m" \
	compare randread --vary $arms "${common[@]}" --time 3s --budget 40s
check "  ... and nothing was measured (no output on stdout)" \
	test ! -s "$TEST_TMP/out"
expect_usage "--max-runs below the blocks a verdict needs is refused" \
	"--max-runs 5 stops after 5 blocks.*needs at least 6 blocks.*--max-runs 6" \
	compare randread --vary label=a,b "${common[@]}" --ios 100 --max-runs 5
expect_usage "the refusal names --force" "or --force to run anyway" \
	compare randread --vary label=a,b "${common[@]}" --ios 100 --max-runs 5

# --force: the warning comes before the header and the first run
"$IOTRIAL" compare randread --vary label=a,b -t "$dir" --size=4M \
	--no-drop-caches --time 100ms --budget 300ms --force --no-store \
	--json="$TEST_TMP/forced.json" >"$TEST_TMP/forced.out" \
	2>"$TEST_TMP/forced.err"
check "--force runs what was refused" test $? = 0
check "  ... the warning is the first line on stderr, before the header" \
	bash -c "head -1 '$TEST_TMP/forced.err' | grep -q '^warning: --budget .* needs at least 6 blocks' &&
		grep -q '^compare: 2 arms' '$TEST_TMP/forced.err'"
check "  ... and the advice says what a verdict needs" python3 - "$TEST_TMP/forced.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["stopped"] == "budget spent", o["stopped"]
a = o["advice"]
assert a["stopped"] == "budget spent" and a["min_blocks"] == 6, a
assert a["blocks_needed"] >= 6 and a["blocks"] == o["blocks"], a
assert a["more_blocks"] == a["blocks_needed"] - a["blocks"], a
assert a["budget_s"] > 0 and a["aa"] is True, a
PY
check "  ... in the text too" grep -q '^stopped on the budget after' \
	"$TEST_TMP/forced.out"

# stopped on --max-runs: blocks needed from the spread of the log ratios
"$IOTRIAL" compare randread --vary bs=4k,8k "${common[@]}" --ios 2000 \
	--max-runs 6 --precision 0.5% --no-store --json="$TEST_TMP/max.json" \
	>"$TEST_TMP/max.out" 2>/dev/null
check "a run stopped on --max-runs advises how many more blocks" python3 - "$TEST_TMP/max.json" <<'PY'
import json, math, statistics, sys
o = json.load(open(sys.argv[1]))
assert o["stopped"] == "max runs", o["stopped"]
a = o["advice"]
assert a["blocks"] == 6 and a["aa"] is False and a["arm"] == "bs=8k", a
# the sd of the per-block log ratios, recomputed
m = {}
for r in o["runs"]:
    m.setdefault(r["block"], {})[r["arm"]] = r["metric"]
d = [math.log(b[1] / b[0]) for b in m.values()]
sd = statistics.stdev(d)
assert abs(a["log_ratio_sd"] - sd) < 1e-9 * max(1, sd), (a, sd)
need = max(6, math.ceil((1.959963984540054 * sd / math.atanh(0.005)) ** 2))
need = max(need, 7)  # at least one block more than was run
assert a["blocks_needed"] == need, (a, need)
assert a["more_blocks"] == a["blocks_needed"] - 6, a
PY
check "  ... and the text says how many" \
	grep -qE '^stopped on --max-runs after 6 blocks: .* (needs about [0-9]+ blocks, [0-9]+ more|would need more than 10000 blocks)' \
	"$TEST_TMP/max.out"

# A/A: how many runs per arm resolve +-precision
"$IOTRIAL" compare randread --vary label=A,B "${common[@]}" --ios 2000 \
	--max-runs 6 --precision 0.5% --no-store --json="$TEST_TMP/aa.json" \
	>"$TEST_TMP/aa.out" 2>/dev/null
check "an A/A experiment says how many runs reach +-precision" python3 - "$TEST_TMP/aa.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
a = o["advice"]
assert a["aa"] is True and a["blocks_needed"] > 6 and a["halfwidth"] > 0, a
PY
check "  ... in the text as runs per arm" \
	grep -qE 'identical arms differ by .* runs per arm' "$TEST_TMP/aa.out"

# the same value twice, as typed or once translated: refused, with both
# spellings, what they mean, and how to run an A/A experiment instead
expect_usage "a value twice points to an A/A experiment" \
	"lists '4k' twice; each arm must differ: .*A/A.*--vary label=A,B" \
	compare randread --vary bs=4k,4k "${common[@]}"
expect_usage "4k and 4096 are the same size" \
	"'4k' and '4096' both mean 4096 bytes.*--vary label=A,B" \
	compare randread --vary bs=4k,8k,4096 "${common[@]}"
expect_usage "1 and yes are the same switch" "'1' and 'yes' both mean on" \
	compare randread --vary direct=1,yes "${common[@]}"
expect_usage "a label twice asks for two labels" \
	"lists 'a' twice; give each arm its own label" \
	compare randread --vary label=a,a "${common[@]}"

if [ "$(id -u)" = 0 ] && mkloop 64M; then
	USAGE_DIR=$TEST_TMP
	expect_usage "deadline is mq-deadline" \
		"'mq-deadline' and 'deadline' both mean mq-deadline.*--vary label=A,B" \
		compare randread --vary scheduler=mq-deadline,deadline -t "$LOOP" \
		--size=1M --ios 10
	expect_usage "4096 sectors are 2048 KiB" \
		"'4096s' and '2048' both mean 2048 KiB" \
		compare randread --vary read_ahead_kb=4096s,2048 -t "$LOOP" \
		--size=1M --ios 10
	USAGE_DIR=$dir
else
	echo "# not root: the knob spellings are not checked"
fi

# --budget alone: the budget is the limit, not the default 30 blocks;
# a --max-runs given beside it still stops it
"$IOTRIAL" compare randread --vary label=a,b "${common[@]}" --ios 1 \
	--budget 3s --precision 0.01% --no-store --json="$TEST_TMP/b.json" \
	>/dev/null 2>&1
check "--budget alone is not stopped by the default --max-runs" python3 - \
	"$TEST_TMP/b.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["stopped"] in ("budget spent", "precision reached"), o["stopped"]
PY
"$IOTRIAL" compare randread --vary label=a,b "${common[@]}" --ios 1 \
	--budget 60s --max-runs 10 --precision 0.01% --no-store \
	--json="$TEST_TMP/bm.json" >/dev/null 2>&1
check "...and --max-runs beside it stops it" python3 - "$TEST_TMP/bm.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["stopped"] == "max runs" and o["blocks"] == 10, (o["stopped"], o["blocks"])
PY

check "nothing left in the target" test -z "$(ls -A "$dir")"
