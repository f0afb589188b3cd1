#!/usr/bin/env bash
# compare with two factors (workload parameters only, no knobs): the text
# gives each factor's effect within the other's levels and says whether
# one's effect depends on the other, before the table of every arm
# against the baseline arm; the JSON has "effects" and "interactions";
# show prints them again from the store; one factor has neither.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches)
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
common=(-t "$dir" --size=8M --no-drop-caches --quiet)

"$IOTRIAL" run randread --engine=io_uring --ios 100 --no-store -t "$dir" --size=8M \
	>/dev/null 2>&1 || skip "io_uring does not work here"

json=$TEST_TMP/two.json
"$IOTRIAL" compare randread --vary bs=4k,16k --vary iodepth=1,4 \
	--engine=io_uring "${common[@]}" --time 200ms --runs 6 --seed 5 \
	--json="$json" >"$TEST_TMP/two.txt" 2>"$TEST_TMP/two.err"
check "a two-factor compare exits 0" test $? = 0

# each factor's heading, then one line per level of the other
check "bs's effect within each iodepth" python3 - "$TEST_TMP/two.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
assert re.search(r"\nbs=16k vs bs=4k\n  at iodepth=1 .*\n  at iodepth=4 ", t), t
assert re.search(r"\niodepth=4 vs iodepth=1\n  at bs=4k .*\n  at bs=16k ", t), t
PY
check "the interaction is a sentence with both ratios and p" grep -qE \
	"bs's effect (depends|does not depend) on iodepth.*: [0-9.]+x at iodepth=1, [0-9.]+x at iodepth=4 \(interaction p [0-9.e-]+\)\*?$|^no evidence that bs's effect depends on iodepth: [0-9.]+x at iodepth=1, [0-9.]+x at iodepth=4 \(interaction p [0-9.e-]+\)\*?$" \
	"$TEST_TMP/two.txt"
check "the single-baseline table follows the effects" python3 - "$TEST_TMP/two.txt" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index("\nbs=16k vs bs=4k\n")
j = t.index("\nevery arm against the baseline arm:\narm ")
assert i < j, t
assert "\nbs=16k iodepth=4 " in t[j:], t
PY

check "the JSON has the effects and the interaction" python3 - "$json" <<'PY'
import json, math, sys
o = json.load(open(sys.argv[1]))
ef, xs = o["effects"], o["interactions"]
assert len(ef) == 4, ef
want = [("bs", "16k", "4k", {"iodepth": "1"}), ("bs", "16k", "4k", {"iodepth": "4"}),
        ("iodepth", "4", "1", {"bs": "4k"}), ("iodepth", "4", "1", {"bs": "16k"})]
for e, (f, l, b, w) in zip(ef, want):
    assert (e["factor"], e["level"], e["baseline_level"], e["within"]) == (f, l, b, w), e
    for k in ("ratio", "ci_low", "ci_high", "p", "p_adjusted"):
        assert isinstance(e[k], float) and math.isfinite(e[k]), (k, e)
    assert e["ci_low"] <= e["ratio"] <= e["ci_high"], e
    assert e["p"] <= e["p_adjusted"] <= 1, e
    assert e["n"] == 6 and e["test"] == "wilcoxon-signed-rank", e
    assert e["verdict"] in ("faster", "slower", "equivalent", "inconclusive"), e
# Holm within a factor: two effects, the larger adjusted p is 2x or 1
for f in ("bs", "iodepth"):
    ps = sorted(e["p"] for e in ef if e["factor"] == f)
    adj = sorted(e["p_adjusted"] for e in ef if e["factor"] == f)
    assert abs(adj[0] - min(1, 2 * ps[0])) < 1e-12, (ps, adj)
# an effect at the other factor's baseline level is the arm's verdict
arms = {a["label"]: a["arm"] for a in o["arms"]}
v = {x["arm"]: x for x in o["verdicts"]}
assert ef[0]["arm"] == arms["bs=16k iodepth=1"] and ef[0]["baseline_arm"] == 0
assert ef[0]["ratio"] == v[ef[0]["arm"]]["ratio"], (ef[0], v)
assert ef[0]["p"] == v[ef[0]["arm"]]["p"]
assert len(xs) == 1, xs
x = xs[0]
assert (x["factor"], x["level"], x["baseline_level"]) == ("bs", "16k", "4k"), x
assert (x["by"], x["by_level"], x["by_baseline_level"]) == ("iodepth", "4", "1"), x
assert x["within"] == {} and x["n"] == 6, x
assert x["ratio_at_baseline"] == ef[0]["ratio"], x
assert x["ratio_at_level"] == ef[1]["ratio"], x
assert x["ci_low"] <= x["ratio"] <= x["ci_high"], x
assert x["p_adjusted"] == x["p"], x
assert x["verdict"] in ("interaction", "no interaction", "inconclusive"), x
PY

id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$json")
"$IOTRIAL" show "$id" >"$TEST_TMP/show.txt" 2>&1
check "show prints the effects again" python3 - "$TEST_TMP/two.txt" "$TEST_TMP/show.txt" <<'PY'
import sys
two, show = open(sys.argv[1]).read(), open(sys.argv[2]).read()
cut = lambda t: t[t.index("\neffect "):t.index("\nevery arm against")]
assert cut(two) == cut(show), (two, show)
PY

"$IOTRIAL" compare randread --vary bs=4k,16k "${common[@]}" --ios 200 \
	--runs 2 --no-store --json >"$TEST_TMP/one.json" 2>/dev/null
check "one factor has no effects and no interactions" python3 - "$TEST_TMP/one.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert "effects" not in o and "interactions" not in o, o.keys()
PY

check "nothing left in the target" test -z "$(ls -A "$dir")"
