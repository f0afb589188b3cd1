#!/usr/bin/env bash
# iotrial compare end to end without root-only knobs: a big real effect
# is "faster", an A/A experiment is never faster/slower (beyond the 5%
# false-positive rate the test accounts for), --fail-on-regression exits
# 3, the JSON is a full experiment object, and the store has it.
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
common=(-t "$dir" --size=16M --no-drop-caches --quiet)

json=$TEST_TMP/bs.json
"$IOTRIAL" compare seqread --vary bs=4k,1M "${common[@]}" --time 300ms \
	--runs 6 --seed 7 --json="$json" >"$TEST_TMP/bs.txt" 2>"$TEST_TMP/bs.err"
check "compare exits 0" test $? = 0
check "bs=1M vs 4k is 'faster' with a ratio far from 1" python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["type"] == "experiment" and o["schema"] == "iotrial/1"
assert len(o["arms"]) == 2 and o["baseline"] == 0
assert o["arms"][0]["label"] == "bs=4k"
assert len(o["runs"]) == 12, len(o["runs"])
v = o["verdicts"][0]
assert v["verdict"] == "faster", v
assert v["ratio"] > 1.5 and v["ci_low"] > 1.0, v
assert v["test"] == "wilcoxon-signed-rank"
assert o["seed"] == "7" and o["blocks"] == 6
assert o["stopped"] == "fixed run count"
assert len(o["id"]) == 8
for r in o["runs"]:
    assert r["run"]["schema"] == "iotrial/1"
    assert r["metric"] == r["run"]["metric"]["value"]
    assert 0 <= r["block"] < 6
# every block holds both arms once
from collections import Counter
c = Counter(r["block"] for r in o["runs"])
assert all(n == 2 for n in c.values()), c
assert "env" in o and o["env"]["kernel_release"]
PY
check "the text table names the verdict" grep -q 'bs=1M .* faster' "$TEST_TMP/bs.txt"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$json")
check "the experiment is in the store" bash -c "'$IOTRIAL' log | grep -q '$id'"
check "show prints it again" bash -c "'$IOTRIAL' show '$id' | grep -q 'bs=1M .* faster'"

# A/A: the arms differ in a label only. By design 5% of A/A experiments
# are false positives, so one retry with another seed keeps the test
# honest (a broken analysis fails both) without a 1-in-20 flake.
aa_ok=0
for seed in 11 12; do
	"$IOTRIAL" compare randread --vary label=a,b "${common[@]}" --ios 2000 \
		--runs 8 --seed $seed --no-store --json >"$TEST_TMP/aa.json" 2>/dev/null
	v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdicts"][0]["verdict"])' "$TEST_TMP/aa.json")
	case $v in equivalent | inconclusive) aa_ok=1; break ;; esac
	echo "# A/A seed $seed gave '$v'"
done
check "A/A experiment is equivalent or inconclusive" test $aa_ok = 1

# runs this short are flagged (too short to trust, and read from the
# page cache here), so only a strict gate counts the slower arm
"$IOTRIAL" compare seqread --vary bs=1M,4k "${common[@]}" --time 300ms \
	--runs 6 --no-store --fail-on-regression --strict >/dev/null 2>&1
check "--fail-on-regression exits 3 when an arm is slower" test $? = 3

"$IOTRIAL" compare randread --vary label=a,b "${common[@]}" --ios 500 \
	--runs 3 --no-store --json >"$TEST_TMP/few.json" 2>/dev/null
check "fewer than 4 runs per arm gives no verdict" python3 - "$TEST_TMP/few.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["verdicts"][0]["verdict"] == "no verdict", o["verdicts"]
PY

"$IOTRIAL" compare randread --vary label=a,b "${common[@]}" --ios 300 \
	--runs auto --max-runs 7 --precision 0.001% --no-store --json \
	>"$TEST_TMP/auto.json" 2>/dev/null
check "adaptive runs stop at --max-runs when precision is out of reach" python3 - "$TEST_TMP/auto.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["runs_mode"] == "auto"
assert o["blocks"] == 7, o["blocks"]
assert o["stopped"] == "max runs", o["stopped"]
PY

check "nothing left in the target" test -z "$(ls -A "$dir")"

# bad input: exit 2, one line, nothing run, nothing left in the target
USAGE_DIR=$dir
expect_usage "unknown factor suggests the nearest" "did you mean 'iodepth'" \
	compare randread --vary iodeph=1,2 -t "$dir"
expect_usage "a factor that is no knob or parameter" "neither a knob nor a parameter" \
	compare randread --vary frobnicate=1,2 -t "$dir"
expect_usage "too many arms are refused" "more than 64.*--max-arms" \
	compare randread --vary bs=4k,8k,16k,32k,64k --vary iodepth=1,2,4,8 \
	--vary jobs=1,2,3,4 -t "$dir"
expect_usage "a bad value in one arm fails before any run" "arm 'bs=4kk'" \
	compare randread --vary bs=4k,4kk -t "$dir"
expect_usage "no --vary" "at least one --vary" compare randread -t "$dir"
expect_usage "a value listed twice" "twice" compare randread --vary bs=4k,4k -t "$dir"
expect_usage "two spellings of one value" "same value twice \\('4k' and '4096' both mean 4096 bytes\\)" \
	compare randread --vary bs=4k,4096 -t "$dir"
expect_usage "a factor varied twice" "'bs' is varied twice" \
	compare randread --vary bs=4k,8k --vary bs=16k,32k -t "$dir"
expect_usage "one value is no comparison" "at least two" \
	compare randread --vary bs=4k -t "$dir"
expect_usage "an unwritable --json file fails before any run" "cannot write" \
	compare randread --vary bs=4k,8k --json=/nonexistent/x.json -t "$dir"
expect_usage "unknown baseline" "not one of the arms" \
	compare randread --vary bs=4k,8k --baseline 16k -t "$dir"
expect_usage "bad --precision" "precision" \
	compare randread --vary bs=4k,8k --precision=-1 -t "$dir"

"$IOTRIAL" compare randread --vary label=a,b -t "$dir" --size=16M --ios 500 \
	--runs 4 --warmup 3 --no-drop-caches --no-store --quiet --json \
	>"$TEST_TMP/warm.json" 2>/dev/null
check "--warmup runs are discarded" python3 - "$TEST_TMP/warm.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert len(o["runs"]) == 8, len(o["runs"])
assert all(r["block"] >= 0 for r in o["runs"])
PY

# a parameter given as "--size 1M" (two words) is kept until the end and
# freed: no leak report under the sanitizers, exit 0
"$IOTRIAL" compare seqread --vary bs=4k,8k -t "$dir" --size 1M --ios 20 \
	--runs 4 --no-store --no-drop-caches --quiet >"$TEST_TMP/two.txt" 2>&1
check "'--size 1M' in two words: compare exits 0" test $? = 0
check "...and leaks nothing" bash -c '! grep -q LeakSanitizer "$1"' _ "$TEST_TMP/two.txt"
