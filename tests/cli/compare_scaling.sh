#!/usr/bin/env bash
# compare over a numeric factor (iodepth=16,1,4, given out of order):
# after the verdict table, the scaling table lists each value in numeric
# order with the metric's median, its CI, n and the ratio to the first
# value; the JSON carries the same rows as "scaling"; the verdicts stay
# against the baseline arm (the first value given); show prints the
# table again from the store; a factor that is not numeric has none.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches)
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
common=(-t "$dir" --size=8M --no-drop-caches --quiet --engine=io_uring)

"$IOTRIAL" run randread --engine=io_uring --ios 100 --no-store -t "$dir" --size=8M \
	>/dev/null 2>&1 || skip "io_uring does not work here"

json=$TEST_TMP/sweep.json
"$IOTRIAL" compare randread --vary iodepth=16,1,4 "${common[@]}" \
	--time 200ms --runs 3 --seed 7 --json="$json" >"$TEST_TMP/sweep.txt" \
	2>"$TEST_TMP/sweep.err"
check "a 3-value sweep exits 0" test $? = 0
check "the JSON has a scaling row per value, in numeric order" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
rows = o["scaling"]
assert [r["value"] for r in rows] == ["1", "4", "16"], rows
arms = {a["arm"]: a for a in o["arms"]}
for r in rows:
    assert r["factor"] == "iodepth" and r["within"] == {}, r
    a = arms[r["arm"]]
    assert a["settings"]["iodepth"] == r["value"], (a, r)
    for k in ("median", "ci_low", "ci_high", "n"):
        assert r[k] == a[k], (k, r, a)
    assert r["n"] == 3
    first = rows[0]["median"]
    assert abs(r["ratio_to_first"] - r["median"] / first) < 1e-9 * r["ratio_to_first"]
assert rows[0]["ratio_to_first"] == 1.0
# verdicts stay against the baseline: iodepth=16, the first given
assert o["baseline"] == 0 and o["arms"][0]["settings"]["iodepth"] == "16"
assert sorted(v["arm"] for v in o["verdicts"]) == [1, 2]
PY
check "the text has the scaling table after the verdict table" \
	python3 - "$TEST_TMP/sweep.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
i = t.index("\narm ")
j = t.index("\nscaling of iops with iodepth:\niodepth median  95% CI              n  vs iodepth=1\n")
assert i < j, t
lines = t[j:].split("\n")[3:6]
assert [l.split()[0] for l in lines] == ["1", "4", "16"], lines
for l in lines:
    # '*': the row rests on runs iotrial flagged (200 ms runs are short)
    assert re.match(r"^\S+ +\S+ +\[\S+, \S+\] +3  [0-9.]+x\*?$", l), l
assert re.search(r" 1\.00x\*?$", lines[0]), lines
PY
id=$(json "$json" 'o["id"]')
"$IOTRIAL" show "$id" >"$TEST_TMP/show.txt" 2>&1
check "show prints the scaling table from the store" \
	grep -q "^scaling of iops with iodepth:$" "$TEST_TMP/show.txt"

"$IOTRIAL" compare randread --vary label=A,B "${common[@]}" --time 100ms \
	--runs 2 --no-store --json="$json" >"$TEST_TMP/label.txt" 2>&1
check "a factor that is not numeric has no scaling table" \
	test "$(json "$json" '"scaling" in o')" = False
check "...nor a scaling text" bash -c '! grep -q "^scaling of" "$1"' _ "$TEST_TMP/label.txt"
check "compare --help tells of the scaling table" bash -c '"$1" compare --help | grep -q "scaling table"' _ "$IOTRIAL"
