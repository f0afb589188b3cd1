#!/usr/bin/env bash
# A time-based buffered read of a file smaller than what the run reads
# wraps it, and every pass after the first comes from the page cache
# (field note 000: one reader of a 2 GiB file for 2 s "slower" than two).
# compare says so once per setting, before the block goes on, and the
# runs are flagged page_cache with both numbers, so the verdict is
# marked; with --direct=1 neither happens.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
need_root
dir=$TEST_TMP/target
mkdir -p "$dir"
[ -n "$(findmnt -n -o SOURCE -T "$dir" | grep '^/dev/')" ] ||
	skip "$dir is not on a block device (no device truth)"

common=(seqread -t "$dir" --size=4M --bs=1M --time 500ms --vary jobs=1,2
	--runs 2 --seed 3 --no-store)
"$IOTRIAL" compare "${common[@]}" --json="$TEST_TMP/wrap.json" \
	>"$TEST_TMP/wrap.txt" 2>"$TEST_TMP/wrap.err"
check "a wrapping compare exits 0" test $? = 0
check "the wrap is warned once, with the remedies" python3 - \
	"$TEST_TMP/wrap.err" <<'PY'
import sys
t = open(sys.argv[1]).read()
w = [l for l in t.splitlines() if "of a 4 MiB file for 0.5 s" in l]
assert len(w) == 2, t  # jobs=1 and jobs=2, once each
assert all(l.startswith("warning: seqread of a 4 MiB file") for l in w), w
assert all("--size" in l and "--direct=1" in l and "--ios" in l
           for l in w), w
# the speed: a probe of the device before the runs, or, where its node
# cannot be opened, what the first run of the setting that wrapped read
assert all("in a run of this setting" in l or "probe of" in l
           for l in w), w
PY
check "the runs are flagged page_cache, the fraction in the truth" \
	python3 - "$TEST_TMP/wrap.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for r in o["runs"]:
    t = r["run"]["truth"]
    assert t["cached_read_fraction"] > 0.05, t
    assert "page_cache" in r["run"]["warning_kinds"], r["run"]["warnings"]
assert all(v["suspect"] for v in o["verdicts"]), o["verdicts"]
assert all(e["suspect"] for e in o.get("effects", [])), o.get("effects")
PY
check "the verdict is marked" grep -qE "(faster|slower|inconclusive|equivalent|no verdict)\*$" \
	"$TEST_TMP/wrap.txt"

"$IOTRIAL" compare "${common[@]}" --direct=1 --json="$TEST_TMP/direct.json" \
	>"$TEST_TMP/direct.txt" 2>"$TEST_TMP/direct.err"
check "a direct compare exits 0" test $? = 0
check "...warns of no wrap" test -z "$(grep "file for 0.5 s" "$TEST_TMP/direct.err")"
check "...and no run read the page cache" python3 - "$TEST_TMP/direct.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
for r in o["runs"]:
    assert "page_cache" not in r["run"].get("warning_kinds", []), r
PY
