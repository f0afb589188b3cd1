#!/usr/bin/env bash
# iotrial report in every format, show --runs and compare --report, from
# a real compare whose free-text factor value is hostile (quotes, HTML,
# Markdown and table syntax): the text has the verdict table and one row
# per run in run order, the CSV one record per run with the same number
# of fields, the Markdown a table the label cannot split, the HTML no
# markup from the label. Bad input: an unknown format lists the formats,
# an unknown id, an output file that exists (refused without --force,
# left as it was), a report path compare would overwrite.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

dir=$TEST_TMP/target
db=$TEST_TMP/store/results.db
mkdir -p "$dir"
hostile='<b>"q"|*_'
"$IOTRIAL" compare randread -t "$dir" --size=4M --no-drop-caches --quiet \
	--vary bs=4k,8k --vary "label=plain,$hostile" --ios 300 --runs 3 \
	--seed 5 --db "$db" --report "$TEST_TMP/cmp.html" \
	>"$TEST_TMP/cmp.txt" 2>"$TEST_TMP/cmp.err"
check "compare --report exits 0" test $? = 0
id=$("$IOTRIAL" log --db "$db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["experiments"][0]["id"])')
check "the experiment is stored" test -n "$id"
check "compare --report wrote the HTML report" grep -q '^<!DOCTYPE html>' "$TEST_TMP/cmp.html"

# text: show's page, then the runs
"$IOTRIAL" report "$id" --db "$db" >"$TEST_TMP/r.txt" 2>"$TEST_TMP/err"
check "report exits 0" test $? = 0
check "report text has the verdict table" grep -qE '^arm +median +95% CI' "$TEST_TMP/r.txt"
check "report text has the runs header" \
	grep -qE '^block +arm +iops +real +user +sys +device +tps +MB_read/s +MB_wrtn/s +MB_read +MB_wrtn$' "$TEST_TMP/r.txt"
python3 - "$TEST_TMP/r.txt" "$TEST_TMP/store.json" <<'PY' >"$TEST_TMP/order" 2>&1
import json, subprocess, sys, os
lines = open(sys.argv[1]).read().split("\nruns, in the order they ran:\n")[1].splitlines()
rows = [l for l in lines[1:] if l.strip() and not l.startswith("stored ")]
print(len(rows))
PY
check "report text has one row per run (12)" test "$(cat "$TEST_TMP/order")" = 12
check "a run row has real/user/sys as time(1) prints them" \
	grep -qE '^ +[0-2]  bs=[48]k label=.* +[0-9.k]+ +[0-9]+m[0-9.]+s +[0-9]+m[0-9.]+s +[0-9]+m[0-9.]+s ' "$TEST_TMP/r.txt"
"$IOTRIAL" report "$id" --db "$db" --format json >"$TEST_TMP/r.json"
"$IOTRIAL" show "$id" --db "$db" --json >"$TEST_TMP/show.json"
check "report --format json is show --json" cmp -s "$TEST_TMP/r.json" "$TEST_TMP/show.json"
python3 - "$TEST_TMP/r.json" "$TEST_TMP/r.txt" <<'PY' >"$TEST_TMP/runorder"
import json, sys
e = json.load(open(sys.argv[1]))
labels = {a["arm"]: a["label"] for a in e["arms"]}
want = ["%d %s" % (r["block"], labels[r["arm"]]) for r in e["runs"]]
text = open(sys.argv[2]).read().split("\nruns, in the order they ran:\n")[1]
got = []
for l in text.splitlines()[1:]:
    if not l.startswith("    "):
        continue
    block, rest = l.strip().split("  ", 1)
    lab = next(v for v in sorted(labels.values(), key=len, reverse=True) if rest.startswith(v))
    got.append("%s %s" % (block, lab))
print("same" if got == want else "differ: %r %r" % (got, want))
PY
check "the rows are in run order" test "$(cat "$TEST_TMP/runorder")" = same

# show --runs prints the same rows
"$IOTRIAL" show "$id" --db "$db" --runs >"$TEST_TMP/show.txt"
check "show --runs exits 0" test $? = 0
check "show --runs has the same rows as report" \
	cmp -s <(sed -n '/^runs, in the order/,$p' "$TEST_TMP/show.txt") \
	<(sed -n '/^runs, in the order/,$p' "$TEST_TMP/r.txt")
"$IOTRIAL" show "$id" --db "$db" >"$TEST_TMP/show-plain.txt"
check "show without --runs has no rows" bash -c "! grep -q '^runs, in the order' '$TEST_TMP/show-plain.txt'"

# CSV: a header, one record per run, each with as many fields
"$IOTRIAL" report "$id" --db "$db" --format csv -o "$TEST_TMP/r.csv"
check "report --format csv -o exits 0" test $? = 0
check "csv: header and 12 records, every record as wide, the label intact" \
	test "$(python3 - "$TEST_TMP/r.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]
ok = (len(rows) == 13 and all(len(r) == len(h) for r in rows)
      and h[:6] == ["run", "block", "arm", "label", "bs", "label"]
      and "read_p99_ns" in h and "user_s" in h and "mb_read_s" in h
      and any(r[5] == '<b>"q"|*_' for r in rows[1:])
      and open(sys.argv[1], "rb").read().count(b"\r\n") == 13)
print("yes" if ok else "no: %r" % rows[:2])
PY
)" = yes

# Markdown: the label cannot split a cell or open a tag
"$IOTRIAL" report "$id" --db "$db" --format md >"$TEST_TMP/r.md"
check "md has the verdict table" grep -q '^| arm | median | 95% CI |' "$TEST_TMP/r.md"
check "md escapes the label" grep -qF 'label=&lt;b&gt;"q"\|\*\_ |' "$TEST_TMP/r.md"
check "md has no raw tag" bash -c "! grep -q '<b>' '$TEST_TMP/r.md'"
check "md has the environment" grep -q '^### Environment' "$TEST_TMP/r.md"

# HTML: the label is text
"$IOTRIAL" report "$id" --db "$db" --format html -o "$TEST_TMP/r.html"
check "html escapes the label" grep -qF 'label=&lt;b&gt;&quot;q&quot;|*_' "$TEST_TMP/r.html"
check "html has no raw tag from the label" bash -c "! grep -qF '<b>\"q\"' '$TEST_TMP/r.html'"
check "html has no script" bash -c "! grep -qi '<script' '$TEST_TMP/r.html'"
check "compare --report and report --format html agree" \
	cmp -s <(grep -v 'Every run\|stored' "$TEST_TMP/cmp.html" | grep -c '<svg') \
	<(grep -v 'Every run\|stored' "$TEST_TMP/r.html" | grep -c '<svg')

# bad input
expect_usage "an unknown format lists the formats" \
	"^error: --format: 'pdf' is not one of text, json, csv, md, html$" \
	report "$id" --db "$db" --format pdf
expect_usage "a misspelt format gets the one it resembles" \
	"^error: --format: 'htlm' is not one of text, json, csv, md, html; did you mean 'html'\?$" \
	report "$id" --db "$db" --format htlm
expect_usage "an unknown id is refused" "^error: no experiment 'ffffffff' in " \
	report ffffffff --db "$db"
echo keep >"$TEST_TMP/exists.html"
expect_usage "an existing -o file is refused without --force" \
	"^error: '.*/exists.html' exists; give another file, or --force to replace it$" \
	report "$id" --db "$db" --format html -o "$TEST_TMP/exists.html"
check "the existing file is left as it was" test "$(cat "$TEST_TMP/exists.html")" = keep
"$IOTRIAL" report "$id" --db "$db" --format html -o "$TEST_TMP/exists.html" --force
check "--force replaces it" grep -q '^<!DOCTYPE html>' "$TEST_TMP/exists.html"
ln -s "$TEST_TMP/exists.html" "$TEST_TMP/link.html"
"$IOTRIAL" report "$id" --db "$db" --format csv -o "$TEST_TMP/link.html" --force 2>"$TEST_TMP/err"
check "a symbolic link is not written through" grep -q '^<!DOCTYPE html>' "$TEST_TMP/exists.html"
expect_usage "compare --report to an existing file is refused before running" \
	"^error: '.*/exists.html' exists; give another file, or remove it" \
	compare randread -t "$dir" --size=4M --vary bs=4k,8k --ios 100 \
	--runs 2 --no-store --report "$TEST_TMP/exists.html"
expect_usage "report without an id" "needs an experiment id" report --db "$db"
expect_usage "show --json --runs" "do not go together" show "$id" --db "$db" --json --runs
