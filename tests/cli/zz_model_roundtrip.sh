#!/usr/bin/env bash
# The model's codec gives back every run and experiment document
# iotrial wrote in the suite byte for byte: encode(decode(doc)) is doc
# (run-tests.sh keeps a copy of each in IOTRIAL_JSON_LOG_DIR; this runs
# after every other CLI test but zz_json_schema). A document with a
# member the model has no field for still comes back (kept as it was)
# and is named on a comment line: the model should learn it.
. "$(dirname "$0")/lib.sh"
rt=$IOTRIAL_SRC/build/san/tests/test_model_json
[ -x "$rt" ] || skip "needs build/san/tests/test_model_json (make check builds it)"
dir=${IOTRIAL_JSON_LOG_DIR:-}
if [ -z "$dir" ] || [ ! -d "$dir" ] || [ -z "$(ls "$dir")" ]; then
	dir=$IOTRIAL_SRC/tests/data/model
	echo "# no documents kept (IOTRIAL_JSON_LOG_DIR unset or empty): the corpus"
fi
out=$("$rt" --dir "$dir" 2>&1)
rc=$?
sed 's/^/# /' <<<"$out"
check "every run and experiment document in $(basename "$dir") comes back byte for byte" \
	test "$rc" = 0
check "...and there was one at least" \
	grep -qE '^[0-9]+ documents .*: [1-9][0-9]* byte-identical' <<<"$out"
