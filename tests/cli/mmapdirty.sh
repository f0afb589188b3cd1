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
