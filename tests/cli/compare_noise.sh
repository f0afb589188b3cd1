#!/usr/bin/env bash
# The noise model of this machine: a stored compare adds what its blocks
# say of the noise (the sd of the per-block log-ratios, the time a block
# takes), and the next comparison like it says, before its first run,
# what --precision will cost by that: n = (z sd / atanh(p))^2 blocks, at
# least the fewest a verdict needs.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches); a store of its own
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
common=(randread --vary bs=4k,8k -t "$dir" --size=4M --no-drop-caches
	--ios 500 --max-runs 6 --db "$TEST_TMP/db")

"$IOTRIAL" compare "${common[@]}" --json="$TEST_TMP/first.json" \
	>/dev/null 2>"$TEST_TMP/first.err"
check "the first comparison runs" test $? = 0
check "  ... and knows no cost yet" \
	grep -q "no experiment like this one is stored here yet" \
	"$TEST_TMP/first.err"

"$IOTRIAL" compare "${common[@]}" --precision 1% \
	--json="$TEST_TMP/second.json" >/dev/null 2>"$TEST_TMP/second.err"
check "the second comparison runs" test $? = 0
check "  ... and says the cost by the first one's noise" python3 - \
	"$TEST_TMP/first.json" "$TEST_TMP/second.err" <<'PY'
import json, math, re, statistics, sys
o = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
m = re.search(r"on this machine \+-1% needs about (\d+) blocks of "
              r"([0-9.]+) s \(.*\), from 1 earlier experiment like it "
              r"\(sd of the per-block log-ratio ([0-9.]+)\)", err)
assert m, err
blocks = {}
for r in o["runs"]:
    blocks.setdefault(r["block"], {})[r["arm"]] = r["metric"]
d = [math.log(b[1] / b[0]) for b in blocks.values()]
sd = statistics.stdev(d)
assert o["blocks"] == len(d) >= 2, (o["blocks"], d)
assert m.group(3) == "%.3f" % sd, (m.group(3), sd)
assert m.group(2) == "%.1f" % o["block_s"], (m.group(2), o["block_s"])
need = max(6, math.ceil((1.959963984540054 * sd / math.atanh(0.01)) ** 2))
assert int(m.group(1)) == min(need, 10**6), (m.group(1), need)
PY

check "nothing left in the target" test -z "$(ls -A "$dir")"
