#!/usr/bin/env bash
# mmapdirty: map a file, dirty every byte (or every stride), msync. The
# metric is wall time (lower is better); a page dirtied is a write of its
# size; with msync the dirty pages reach the disk inside the run.
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out

"$IOTRIAL" run mmapdirty -t "$TEST_TMP" --size 16M --no-store --json \
	>"$out.json" 2>"$out.err"
check "run mmapdirty exits 0" test $? = 0
check "its JSON: wall (lower is better), every page dirtied once, one msync" \
	python3 - "$out.json" <<'PY'
import json, sys, os
o = json.load(open(sys.argv[1]))
assert o["metric"]["name"] == "wall", o["metric"]
assert o["metric"]["higher_is_better"] is False, o["metric"]
page = os.sysconf("SC_PAGE_SIZE")
assert o["ops_written"] == (16 << 20) // page, o["ops_written"]
assert o["bytes_written"] == 16 << 20, o["bytes_written"]
assert o["fsyncs"] == 1, o["fsyncs"]
assert o["latency_ns"]["write"]["p50"] > 0, o["latency_ns"]
assert "truth" in o, list(o)  # devices too, unless /tmp is a tmpfs
PY

"$IOTRIAL" run mmapdirty -t "$TEST_TMP" --size 16M --stride 64k --passes 2 \
	--sync none --no-store --json >"$out.json" 2>"$out.err"
check "--stride 64k --passes 2 --sync none: one page in 16, twice, no sync" \
	python3 - "$out.json" <<'PY'
import json, sys, os
o = json.load(open(sys.argv[1]))
page = os.sysconf("SC_PAGE_SIZE")
assert o["ops_written"] == 2 * (16 << 20) // (64 << 10), o["ops_written"]
assert o["fsyncs"] == 0, o["fsyncs"]
PY

"$IOTRIAL" run mmapdirty -t "$TEST_TMP" --size 1M --stride 2M --no-store >"$out" 2>&1
check "a stride larger than the size: usage error" test $? = 2
check "...saying why" grep -q "stride 2M is larger than size 1M" "$out"
"$IOTRIAL" run mmapdirty -t "$TEST_TMP" --sync=sometimes --no-store >"$out" 2>&1
check "an unknown --sync: usage error" test $? = 2

# it runs to its own end: --time, --ios and --ramp are not offered, a
# --time given is said to be ignored, and its warnings advise what it has
"$IOTRIAL" run mmapdirty --help >"$out" 2>&1
check "--help does not offer --time, --ios or --ramp" \
	bash -c "! grep -qE '^  --(time|ios|ramp) ' '$out'"
"$IOTRIAL" run exec --help >"$out" 2>&1
check "nor does exec's" bash -c "! grep -qE '^  --(time|ios|ramp) ' '$out'"
"$IOTRIAL" run seqread --help >"$out" 2>&1
check "seqread's still does" grep -qE '^  --time DURATION' "$out"
"$IOTRIAL" run mmapdirty -t "$TEST_TMP" --size 1M --time 7s --no-store >"$out" 2>&1
check "a --time given runs (exit $?)" test $? = 0
check "...with a note that it is ignored" \
	grep -q "^note: mmapdirty runs to its own end, so --time does not apply and is ignored" "$out"
check "a short run's advice is mmapdirty's, not --time or --ios" \
	grep -q "too short to trust: .*; give it a larger --size or more --passes" "$out"
