#!/usr/bin/env bash
# No flag days: a script written today pins behaviour with --compat=0.1
# (or IOTRIAL_COMPAT) and --schema=1, and works now; a release newer
# than the binary is refused naming it; --schema=2 is refused (iotrial/2
# is never written unless asked for, by a release that has it); `help
# compat` lists the registry; --behaviour brings back the two behaviours
# that changed before the first release: diff's verdict on experiments
# that are not like for like, and --fail-on-regression counting arms
# whose runs iotrial flagged.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
runs=$TEST_TMP/runs
mkdir -p "$runs"

# gen PREFIX N MEDIAN BS [WARNING]: N run objects of randread at bs BS
gen() {
	python3 - "$runs" "$@" <<'PY'
import json, random, sys
out, prefix, n, median, bs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
warn = sys.argv[6] if len(sys.argv) > 6 else None
random.seed(prefix)
for i in range(n):
    v = median * (1 + random.uniform(-0.01, 0.01))
    run = {"schema": "iotrial/1", "workload": "randread",
           "params": {"bs": bs}, "knobs": {},
           "target": {"spec": "/srv", "kind": "dir"},
           "seconds": 1.0, "ops": int(v), "iops": v, "mbps": v * bs / 1e6,
           "metric": {"name": "iops", "value": v, "higher_is_better": True},
           "env": {"iotrial_version": "0.1.0", "hostname": "host1",
                   "kernel_release": "6.1.0", "boot_id": prefix,
                   "cpu": {"model": "EPYC", "count": 2}},
           "warnings": []}
    if warn:
        run["warnings"] = ["reads were served from the page cache"]
        run["warning_kinds"] = [warn]
    json.dump(run, open("%s/%s%d.json" % (out, prefix, i), "w"))
PY
}
imp() {
	"$IOTRIAL" import --db "$db" "$@" | sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p'
}
schema_of() {
	python3 -c 'import json,sys; d=json.load(sys.stdin); d=d[0] if isinstance(d,list) else d; print(d["schema"])'
}

gen a 6 1000 4096
gen b 6 900 4096
gen c 6 900 8192
a=$(imp "$runs"/a*.json)
b=$(imp "$runs"/b*.json)
c=$(imp "$runs"/c*.json)
check "three experiments imported" test -n "$a" -a -n "$b" -a -n "$c"

# the script of the issue: pinned behaviour and schema, working today
out=$("$IOTRIAL" --compat=0.1 log --json --schema=1 --db "$db" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["experiments"]))')
check "--compat=0.1 log --json --schema=1 lists the three" test "$out" = 3
out=$("$IOTRIAL" --compat=0.1 log --json --schema=1 --db "$db" | schema_of)
check "--compat=0.1 log --json --schema=1 writes iotrial/1" test "$out" = iotrial/1
out=$("$IOTRIAL" --compat=0.1 show "$a" --json --schema=1 --db "$db" | schema_of)
check "--compat=0.1 show --json --schema=1 writes iotrial/1" test "$out" = iotrial/1
out=$("$IOTRIAL" report "$a" --format json --schema=1 --compat=0.1.0 --db "$db" | schema_of)
check "report --format json --schema=1 --compat=0.1.0 (after the command)" test "$out" = iotrial/1
out=$(IOTRIAL_COMPAT=0.1 "$IOTRIAL" diff "$a" "$b" --json --schema=1 --db "$db" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')
check "IOTRIAL_COMPAT=0.1 diff --json --schema=1 gives the verdict" test "$out" = slower
"$IOTRIAL" --compat=0.1 diff "$a" "$b" --fail-on-regression --db "$db" >/dev/null 2>&1
check "--compat=0.1 keeps exit 3 of --fail-on-regression" test $? = 3
"$IOTRIAL" knobs --json --schema=1 -t "$TEST_TMP" >/dev/null 2>&1
check "knobs takes --schema=1" test $? = 0

mkdir -p "$TEST_TMP/target"
"$IOTRIAL" --compat=0.1 compare randread -t "$TEST_TMP/target" --size=1M --ios 100 \
	--no-drop-caches --quiet --vary bs=4k,64k --runs 6 --db "$db" \
	--json="$TEST_TMP/cmp.json" --schema=1 --fail-on-regression >/dev/null 2>&1
rc=$?
check "--compat=0.1 compare --json=FILE --schema=1 --fail-on-regression runs (0 or 3)" \
	test $rc = 0 -o $rc = 3
check "... and writes iotrial/1" test "$(schema_of <"$TEST_TMP/cmp.json")" = iotrial/1

# refusals
"$IOTRIAL" --compat=0.2 log --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "--compat newer than the binary exits 2" test $? = 2
check "... naming the version" grep -q "^error: --compat=0.2: release 0.2.0 is newer than this iotrial (0.1.0)" "$TEST_TMP/err"
IOTRIAL_COMPAT=7.3 "$IOTRIAL" log --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "IOTRIAL_COMPAT newer than the binary exits 2 naming it" \
	test $? = 2 -a "$(grep -c '^error: IOTRIAL_COMPAT=7.3: release 7.3.0 is newer' "$TEST_TMP/err")" = 1
"$IOTRIAL" --compat=latest log --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "--compat=latest is not a release" test $? = 2
"$IOTRIAL" log --json --schema=2 --db "$db" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--schema=2 exits 2" test $? = 2
check "... and writes nothing" test ! -s "$TEST_TMP/out"
check "... saying iotrial/1 is what is written" grep -q "writes JSON schema 1 (iotrial/1) only" "$TEST_TMP/err"
"$IOTRIAL" set --schema=1 >/dev/null 2>"$TEST_TMP/err"
check "a command that prints no JSON has no --schema" test $? = 2

# the registry
"$IOTRIAL" help compat >"$TEST_TMP/help"
check "help compat exits 0" test $? = 0
for n in regression-counts-flagged regression-skips-flagged diff-verdict-unlike diff-refuse-unlike; do
	check "help compat names $n" grep -q -- "--behaviour=$n\$" "$TEST_TMP/help"
done
"$IOTRIAL" --behaviour=nope log --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "an unknown behaviour exits 2 listing the names" \
	test $? = 2 -a "$(grep -c "unknown behaviour 'nope'; known: regression-counts-flagged" "$TEST_TMP/err")" = 1

# diff of unlike experiments: the new way refuses, the old way decides
"$IOTRIAL" diff "$a" "$c" --db "$db" >"$TEST_TMP/out" 2>&1
check "diff of unlike experiments exits 2" test $? = 2
"$IOTRIAL" --behaviour=diff-refuse-unlike diff "$a" "$c" --db "$db" >/dev/null 2>&1
check "naming the new behaviour changes nothing" test $? = 2
"$IOTRIAL" --behaviour=diff-verdict-unlike diff "$a" "$c" --db "$db" >"$TEST_TMP/out" 2>&1
check "--behaviour=diff-verdict-unlike gives a verdict (exit 0)" test $? = 0
check "... slower, with the differences listed" grep -qE "^after $c .*slower$" "$TEST_TMP/out"
IOTRIAL_BEHAVIOUR=diff-verdict-unlike "$IOTRIAL" diff "$a" "$c" --db "$db" --fail-on-regression >/dev/null 2>&1
check "IOTRIAL_BEHAVIOUR selects it too (exit 3 with --fail-on-regression)" test $? = 3

# --fail-on-regression and a flagged slower arm
gen f 6 900 4096 page_cache
f=$(imp "$runs"/f*.json)
"$IOTRIAL" diff "$a" "$f" --db "$db" >"$TEST_TMP/out" 2>&1
if grep -qE "^after $f .*slower" "$TEST_TMP/out" && grep -q '\*' "$TEST_TMP/out"; then
	"$IOTRIAL" diff "$a" "$f" --db "$db" --fail-on-regression >/dev/null 2>&1
	check "a flagged slower arm is not counted (exit 0)" test $? = 0
	"$IOTRIAL" --behaviour=regression-counts-flagged diff "$a" "$f" --db "$db" --fail-on-regression >/dev/null 2>&1
	check "--behaviour=regression-counts-flagged counts it (exit 3)" test $? = 3
else
	fail "the page_cache run objects did not make a suspect slower arm"
	cat "$TEST_TMP/out"
fi
