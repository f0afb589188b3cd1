#!/usr/bin/env bash
# A whole experiment imported from a file whose every string (member
# names too) carries terminal escapes: ESC sequences, BEL, a C1 CSI and
# a byte that is not UTF-8. Nothing of it may reach the terminal raw,
# neither from import nor later from log, show or diff.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db

# make_exp FILE HOST: an experiment of two arms, four runs each
make_exp() {
	python3 - "$1" "$2" <<'PY'
import json, sys
E = "\x1b[31m\x1b]0;pwn\x07\u009b2J\x7f"
def taint(o, keys=True):
    if isinstance(o, dict):
        return {k + E * keys: taint(v, keys) for k, v in o.items()}
    if isinstance(o, list):
        return [taint(v, keys) for v in o]
    if isinstance(o, str):
        return o + E
    return o
runs = [{"arm": i % 2, "seq": i, "metric": 1000.0 + 10 * i + 50 * (i % 2),
         "source": "r%d.json" % i,
         "run": taint({"workload": "randread", "warnings": ["w"]})}
        for i in range(8)]
exp = {
    "schema": "iotrial/1", "type": "experiment", "id": "",
    "workload": "randread" + E, "target": "/srv" + E,
    "params": taint({"bs": "4k"}), "seed": "none" + E,
    "metric": {"name": "iops" + E, "higher_is_better": True},
    "factors": [{"name": "scheduler" + E, "kind": "knob" + E,
                 "values": ["none" + E, "bfq" + E]}],
    "baseline": 0,
    "arms": [{"arm": 0, "label": "none" + E,
              "settings": taint({"scheduler": "none"})},
             {"arm": 1, "label": "bfq" + E,
              "settings": taint({"scheduler": "bfq"})}],
    "runs": runs, "blocks": 4, "stopped": "precision" + E,
    "runs_mode": "auto" + E, "warnings": ["absorbed" + E],
    "env": taint({"hostname": sys.argv[2], "kernel_release": "6.1",
                  "iotrial_version": "0.1", "fio_version": "fio-3"},
                 keys=False),
    "created": "2026-01-01T00:00:00Z" + E,
}
raw = json.dumps(exp).encode()
# a lone byte that is not UTF-8, inside the workload string
raw = raw.replace(b'"randread', b'"randread\xff', 1)
open(sys.argv[1], "wb").write(raw)
PY
}

# clean FILE: no control byte but newline, no C1, no broken UTF-8
clean() {
	python3 - "$1" <<'PY'
import re, sys
d = open(sys.argv[1], "rb").read()
try:
    t = d.decode("utf-8")
except UnicodeDecodeError:
    sys.exit(1)
sys.exit(1 if re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", t) else 0)
PY
}

make_exp "$TEST_TMP/a.json" hosta
make_exp "$TEST_TMP/b.json" hostb
"$IOTRIAL" import --db "$db" "$TEST_TMP/a.json" >"$TEST_TMP/out" 2>&1
check "the tainted experiment imports" test $? = 0
"$IOTRIAL" import --db "$db" "$TEST_TMP/b.json" >>"$TEST_TMP/out" 2>&1
check "...twice" test $? = 0
check "import prints no control characters" clean "$TEST_TMP/out"
check "...but shows the text around them" \
	grep -qF 'randread??[31m?]0;pwn??2J? on /srv?[31m?]0;pwn??2J?,' "$TEST_TMP/out"
ids=$(sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p' "$TEST_TMP/out")
set -- $ids
check "both got an id" test $# = 2

"$IOTRIAL" log --db "$db" >"$TEST_TMP/log" 2>&1
check "log prints no control characters" clean "$TEST_TMP/log"
check "...and lists both" test "$(grep -c randread "$TEST_TMP/log")" = 2
"$IOTRIAL" show --db "$db" "$1" >"$TEST_TMP/show" 2>&1
check "show prints no control characters" clean "$TEST_TMP/show"
check "...arm labels included" grep -q '^bfq?\[31m' "$TEST_TMP/show"
check "...and the host" grep -q 'host hosta?\[31m' "$TEST_TMP/show"
"$IOTRIAL" show --db "$db" "$1" --json >"$TEST_TMP/show.json" 2>&1
check "show --json has no escapes left, member names included" \
	python3 -c 'import json,re,sys
s = json.dumps(json.load(open(sys.argv[1])), ensure_ascii=False)
sys.exit(1 if re.search("[\x00-\x1f\x7f-\x9f]", s) else 0)' "$TEST_TMP/show.json"
"$IOTRIAL" diff --db "$db" "$1" "$2" >"$TEST_TMP/diff" 2>&1
check "diff prints no control characters" clean "$TEST_TMP/diff"
check "...and the differing host" grep -q 'hostb' "$TEST_TMP/diff"
"$IOTRIAL" show --db "$db" ffffffff >"$TEST_TMP/miss" 2>&1
check "the 'nearest' hint of a missing id prints none either" \
	clean "$TEST_TMP/miss"
