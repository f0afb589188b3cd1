#!/usr/bin/env bash
# Every spelling of a knob reaches the same judgement, end to end: a
# compare varying one setting in each of the spellings iotrial accepts
# (the modern name, the Linux 2.4 names and a bdflush line, a raw
# sysctl: or sysfs: path, the old scheduler names, read-ahead in
# blockdev's 512-byte sectors) says alike whether the setting could
# matter: the same "could not matter" line but for the factor's name,
# and the same "regimes" in the JSON, the measured numbers aside. The
# table holds a few cells per family; tests/unit/test_regime_spell.c
# holds the rest of the cross product at unit level. The issue's own
# case comes first: two bdflush lines varied in smallfiles. Short runs
# (--time 200ms, --runs 2). vm.dirty_* are recorded first, under the
# tests' vm lock, and put back; the device knobs are on a loop device
# of the test's own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm
before=$(knob_vm_now)
dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
TEST_DIRS+=("$dir")
mkloop 64M /var/tmp || skip "cannot make a loop device"
dev=${LOOP#/dev/}
Q=sysfs:/sys/block/$dev/queue
ra0=$(queue "$LOOP" read_ahead_kb)
sched0=$(active_sched "$LOOP")

# compare_to OUT TARGET WORKLOAD-ARGS FACTOR: a short compare varying
# FACTOR; OUT.out, OUT.err, OUT.json; its exit status
compare_to() {
	local out=$1 target=$2 args=$3 factor=$4 a
	read -ra a <<<"$args"
	"$IOTRIAL" compare "${a[@]}" -t "$target" --time 200ms --runs 2 \
		--no-store --vary "$factor" --json="$out.json" \
		>"$out.out" 2>"$out.err"
}

# The issue: two bdflush lines, varied as one factor, are judged as the
# knobs they set are (nfract and nfract_sync differ between them).
compare_to "$TEST_TMP/issue" "$dir" smallfiles \
	"bdflush=40 0 0 0 500 3000 60 0 0,80 0 0 0 500 3000 90 0 0"
rc=$?
check "compare smallfiles varying two bdflush lines runs (rc=$rc)" test $rc = 0
check "...and says whether the lines could matter, by the knobs that differ" \
	grep -q "^bdflush (vm.dirty_background_ratio, vm.dirty_ratio) could not matter: none of its 4 runs reached the regime it controls$" \
	"$TEST_TMP/issue.out"
check "...with each line's reasons" \
	grep -q "^  at 80 0 0 0 500 3000 90 0 0 (2 runs): bdflush.nfract (vm.dirty_background_ratio): dirty memory peaked at .*; bdflush.nfract_sync (vm.dirty_ratio): dirty and writeback memory peaked at " \
	"$TEST_TMP/issue.out"
check "...and stores it in regimes" python3 - "$TEST_TMP/issue.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
(g,) = o["regimes"]
assert g["factor"] == "bdflush" and g["state"] == "not_reached", g
assert g["runs"] == 4 and g["not_reached"] == 4, g
assert sorted(v["value"] for v in g["values"]) == [
    "40 0 0 0 500 3000 60 0 0", "80 0 0 0 500 3000 90 0 0"], g
PY

# The table: GROUP, TARGET (dir or loop), the workload's arguments and
# the factor in one spelling. The first line of a group is its modern
# spelling; every other must be judged as it is.
SPELLINGS="
bg    dir   smallfiles          vm.dirty_background_ratio=10,80
bg    dir   smallfiles          bdflush.nfract=10,80
bg    dir   smallfiles          bdflush=10,80
bg    dir   smallfiles          sysctl:vm.dirty_background_ratio=10,80
ra    loop  seqread:--direct=1  read_ahead_kb=128,2048
ra    loop  seqread:--direct=1  read_ahead_kb=256s,4096s
ra    loop  seqread:--direct=1  read_ahead_kb=128KiB,2MiB
ra    loop  seqread:--direct=1  $Q/read_ahead_kb=128,2048
sched loop  randread:--direct=1 scheduler=mq-deadline,none
sched loop  randread:--direct=1 scheduler=deadline,noop
sched loop  randread:--direct=1 $Q/scheduler=mq-deadline,none
"

# judgement OUT: the could-not-matter lines of OUT.out and the regimes
# of OUT.json, without the factor's name, the measured numbers and the
# order of values (the order of the runs)
judgement() {
	python3 - "$1.out" "$1.json" <<'PY'
import json, re, sys
out, js = sys.argv[1:]
def plain(s):
    s = re.sub(r"[0-9][0-9.]* ?[KMGT]?i?B\b", "SIZE", s)
    return re.sub(r"[0-9]+(\.[0-9]+)?", "N", s)
heads, values, inside = [], [], False
for l in open(out):
    m = re.search(r" (could not matter|regime unknown)\b.*", l)
    if m and not l.startswith(" "):
        heads.append(plain(m.group(0)))
        inside = True
    elif inside and l.startswith("  at "):
        values.append(plain(l))
    else:
        inside = False
g = json.load(open(js))["regimes"]
for e in g:
    e.pop("factor")
    for v in e.get("values", []):
        v["why"] = plain(v["why"])
    e["values"] = sorted(e.get("values", []), key=lambda v: (v["why"], v["value"]))
print("".join(heads + sorted(values)) + json.dumps(g, sort_keys=True))
PY
}

declare -A want
while read -r group kind args assignment; do
	[ -n "$group" ] || continue
	target=$dir
	[ "$kind" = loop ] && target=$LOOP
	factor=${assignment%%=*}
	out=$TEST_TMP/$group.$(tr -c 'A-Za-z0-9' _ <<<"$factor")
	compare_to "$out" "$target" "${args//:/ }" "$assignment"
	rc=$?
	check "$group: compare varying $assignment runs (rc=$rc)" test $rc = 0
	got=$(judgement "$out")
	if [ -z "${want[$group]:-}" ]; then
		want[$group]=$got
		check "$group: $assignment could not matter, and says so" \
			grep -q "^$factor .*could not matter: none of its 4 runs" "$out.out"
		continue
	fi
	if [ "$got" = "${want[$group]}" ]; then
		ok "$group: $assignment is judged as the modern name is"
	else
		fail "$group: $assignment is judged as the modern name is"
		diff <(echo "${want[$group]}") <(echo "$got") | sed 's/^/#   /'
	fi
done <<<"$SPELLINGS"

check "vm.dirty_* are as they were" test "$(knob_vm_now)" = "$before"
check "read-ahead of '$dev' is as it was" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
check "the scheduler of '$dev' is as it was" test "$(active_sched "$LOOP")" = "$sched0"
