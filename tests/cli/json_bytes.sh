#!/usr/bin/env bash
# The JSON iotrial writes is strict UTF-8 JSON whatever bytes the user's
# words carry: a compare label in Latin-1 (0xe9, no UTF-8) was written
# as it was and Python (which decodes the file as UTF-8, and refuses
# NaN) could not read the experiment; now the byte is U+FFFD and the
# rest of the label as it was. (Controls in a label are refused; the
# writer escapes DEL and C1 anyway, tests/unit/test_text.c.)
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
command -v jq >/dev/null || skip "needs jq"
T=$TEST_TMP/target
mkdir -p "$T"

label=$(printf 'caf\351 \303\251t\303\251')
"$IOTRIAL" compare randread -t "$T" --size 64k --ios 8 \
	--vary "label=$label,b" --runs 2 --no-store \
	--json="$TEST_TMP/c.json" >/dev/null 2>"$TEST_TMP/err"
check "compare with an odd label runs" test $? = 0
check "its JSON is UTF-8 and strict JSON" python3 - "$TEST_TMP/c.json" <<'PY'
import json, sys
def no_const(x):
    raise ValueError("not JSON: " + x)
o = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"),
               parse_constant=no_const)
labels = [a["label"] for a in o["arms"]]
# the byte that was no UTF-8 is U+FFFD, the UTF-8 around it kept
assert "label=caf\ufffd \u00e9t\u00e9" in labels, labels
PY
check "jq reads it" eval 'jq -e ".arms | length == 2" "$TEST_TMP/c.json" >/dev/null'

# the same on standard output, as a terminal would get it
"$IOTRIAL" compare randread -t "$T" --size 64k --ios 8 \
	--vary "label=$label,b" --runs 2 --no-store --json \
	>"$TEST_TMP/out.json" 2>/dev/null
check "--json on standard output is UTF-8 JSON too" python3 -c \
	'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' \
	"$TEST_TMP/out.json"
