#!/usr/bin/env bash
# A time-based buffered read of a file smaller than what the run reads
# wraps it, and every pass after the first comes from the page cache
# (field note 000: one reader of a 2 GiB file for 2 s "slower" than two).
# compare and run say so before the first timed run, from direct reads of
# the laid-out file (this VM's disk node cannot be opened, and a loop
# device's speed is its image's), on a directory of a disk and on a
# scratch loop device; compare says it once per setting, the runs are
# flagged page_cache with both numbers, and the verdict is marked; with
# --direct=1 neither happens.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
need_root
dir=$TEST_TMP/target
mkdir -p "$dir"
[ -n "$(findmnt -n -o SOURCE -T "$dir" | grep '^/dev/')" ] ||
	skip "$dir is not on a block device (no device truth)"

# the warnings of one arm each, said before the first run: the speed is
# what direct reads of the laid-out file read, not what a run read
before_first_run() { # FILE NR_LINES
	python3 - "$1" "$2" <<'PY'
import sys
t = open(sys.argv[1]).read()
w = [l for l in t.splitlines() if "of a 4 MiB file for 0.5 s" in l]
assert len(w) == int(sys.argv[2]), t
assert all(l.startswith(("warning: seqread of a 4 MiB file",
                         "warning: arm 'jobs=")) for l in w), w
assert all("--size" in l and "--direct=1" in l and "--ios" in l
           for l in w), w
assert all("(estimated before the first run: direct reads of the "
           "laid-out file, 1 MiB sequential, read " in l for l in w), w
assert "in a run of this setting" not in t, t
assert "cannot measure" not in t, t
PY
}

common=(seqread -t "$dir" --size=4M --bs=1M --time 500ms --vary jobs=1,2
	--runs 2 --seed 3 --no-store)
"$IOTRIAL" compare "${common[@]}" --json="$TEST_TMP/wrap.json" \
	>"$TEST_TMP/wrap.txt" 2>"$TEST_TMP/wrap.err"
check "a wrapping compare exits 0" test $? = 0
check "the wrap is warned once per setting before the first run" \
	before_first_run "$TEST_TMP/wrap.err" 2
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

"$IOTRIAL" run seqread -t "$dir" --size=4M --bs=1M --time 500ms --no-store \
	>"$TEST_TMP/run.txt" 2>"$TEST_TMP/run.err"
check "a wrapping run exits 0" test $? = 0
check "...warns before its run, from the laid-out file" \
	before_first_run "$TEST_TMP/run.err" 1

# a scratch loop device: no device probe would do (a loop device's speed
# is its image's), the laid-out region is read
"$IOTRIAL" compare seqread -t scratch:64M --size=4M --bs=1M --time 500ms \
	--vary jobs=1,2 --runs 2 --seed 3 --no-store \
	>"$TEST_TMP/scratch.txt" 2>"$TEST_TMP/scratch.err"
check "a wrapping compare on scratch:64M exits 0" test $? = 0
check "...warns once per setting before the first run" \
	before_first_run "$TEST_TMP/scratch.err" 2
"$IOTRIAL" run seqread -t scratch:64M:ext4 --size=4M --bs=1M --time 500ms \
	--no-store >"$TEST_TMP/srun.txt" 2>"$TEST_TMP/srun.err"
check "a wrapping run on scratch:64M:ext4 exits 0" test $? = 0
check "...warns before its run" before_first_run "$TEST_TMP/srun.err" 1

# an end by size cannot wrap: nothing is measured, nothing said
"$IOTRIAL" run seqread -t "$dir" --size=4M --bs=1M --ios 8 --no-store \
	>"$TEST_TMP/ios.txt" 2>"$TEST_TMP/ios.err"
check "a run ended by --ios exits 0" test $? = 0
check "...warns of no wrap" test -z "$(grep "file for" "$TEST_TMP/ios.err")"
