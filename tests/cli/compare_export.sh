#!/usr/bin/env bash
# compare --export-csv and --export-markdown, hyperfine's tables for a
# compare's arms, with --no-store: a header and a row per arm with the
# median and its interval, the ratio and its interval and the verdict
# (the JSON's numbers), factor_NAME columns, the baseline's ratio 1; a
# label a spreadsheet would run as a formula stays text; Markdown's
# pipe table escapes a '|' of a label. A few seconds.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/target
mkdir -p "$T"

"$IOTRIAL" compare randread -t "$T" --size 1M --ios 128 --runs 4 \
	--vary 'label==1+2,-x,a|b' --no-store --json=c.json \
	--export-csv c.csv --export-markdown c.md >/dev/null 2>&1
check "compare with both exports and --no-store exits 0" test $? = 0
check "csv: the header, hyperfine-like, and a factor column" \
	test "$(head -1 c.csv | tr -d '\r')" = \
	"arm,metric,unit,runs,median,median_ci_low,median_ci_high,min,max,cv,ratio,ratio_ci_low,ratio_ci_high,p,verdict,factor_label"
check "csv: CRLF line ends, a row per arm" \
	test "$(grep -c $'\r$' c.csv)" = 4
check "csv: the numbers are the experiment's; formulas stay text" python3 - c.csv c.json <<'PY'
import csv, json, sys
exp = json.load(open(sys.argv[2]))
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
arms = {a["label"]: a for a in exp["arms"]}
verdicts = {v["label"]: v for v in exp["verdicts"]}
base = exp["arms"][exp["baseline"]]["label"]
assert len(rows) == 3
for r in rows:
    label = r["arm"][1:] if r["arm"].startswith("'") else r["arm"]
    a = arms[label]
    assert abs(float(r["median"]) - a["median"]) <= 1e-9 * a["median"]
    assert abs(float(r["median_ci_low"]) - a["ci_low"]) <= 1e-9 * a["ci_low"]
    assert int(r["runs"]) == a["n"] == 4
    if label == base:
        assert r["verdict"] == "baseline" and r["ratio"] == "1", r
    else:
        v = verdicts[label]
        assert r["verdict"] == v["verdict"], r
        assert abs(float(r["ratio"]) - v["ratio"]) <= 1e-9 * v["ratio"]
        assert abs(float(r["ratio_ci_high"]) - v["ci_high"]) <= 1e-9 * v["ci_high"]
# a spreadsheet would run "=..." and "-x": a ' keeps them text
cells = [c for r in rows for c in r.values()]
assert "'=1+2" in cells and "'-x" in cells, cells
for c in cells:
    assert c[:1] not in ("=", "+", "@"), c
    if c[:1] == "-":
        float(c)  # only a number may start so
PY
check "markdown: a header, its rule and a row per arm" \
	test "$(grep -c '^|' c.md)" = 5
check "markdown: the baseline's relative column is 1.00" \
	grep -qE '^\| label==1\+2 \| 4 \| .* \| 1\.00 \| baseline \|$' c.md
check "markdown: a '|' of a label is escaped" grep -qF 'label=a\|b |' c.md
check "markdown: the others' ratio with its interval" \
	test "$(grep -cE '\| [0-9.]+ \([0-9.]+ to [0-9.]+\) \|' c.md)" = 2

"$IOTRIAL" compare randread -t "$T" --size 1M --ios 64 --runs 2 \
	--vary bs=4k,8k --no-store --export-csv - >out.txt 2>/dev/null
check "--export-csv - writes to stdout, after the table" \
	grep -q '^arm,metric,unit,runs' out.txt
expect_usage "an export to a directory is refused before the runs" \
	"export-csv: .*(not a regular file|directory)" \
	compare randread -t "$T" --size 1M --ios 64 --runs 2 --vary bs=4k,8k \
	--no-store --export-csv "$T"
