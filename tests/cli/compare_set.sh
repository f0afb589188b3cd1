#!/usr/bin/env bash
# compare --set KNOB=VALUE (root): a knob held at one value in every arm
# while another is varied; every run records both, the held knob is back
# to its value at the end; a knob both held and varied, or held and reset
# by what an arm changes (a scheduler switch resets nr_requests), is
# refused before anything changes; without root it is a runtime refusal,
# as set and run --set say it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"

# not root: refused (exit 1) before anything runs; as nobody, in a
# directory of its own (TEST_TMP is root's alone)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	nb=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
	TEST_DIRS+=("$nb")
	chmod 777 "$nb"
	setpriv --reuid=65534 --regid=65534 --clear-groups env \
		IOTRIAL_STATE_DIR="$nb/state" XDG_DATA_HOME="$nb" \
		"$IOTRIAL" compare randread --set vm.dirty_ratio=20 \
		--vary bs=4k,8k -t "$nb" --size 1M --ios 50 --runs 2 \
		--no-store >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	check "not root: --set is refused as a runtime failure (rc=$rc)" \
		test $rc = 1
	check "...saying it needs root" grep -q "needs root" "$TEST_TMP/err"
fi
need_root

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
dev=${L#/dev/}
sched0=$(active_sched "$L")
ra0=$(cat "/sys/block/$dev/queue/read_ahead_kb")
ra=$((ra0 == 64 ? 96 : 64))
"$IOTRIAL" compare randread --set read_ahead_kb=$ra \
	--vary scheduler=none,mq-deadline -t "$L" --size=32M --direct=1 \
	--ios 500 --runs 2 --quiet --no-store --json="$TEST_TMP/set.json" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "compare --set read_ahead_kb=$ra --vary scheduler runs (rc=$rc)" \
	test $rc = 0
[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/err"
check "every run holds read_ahead_kb=$ra and its arm's scheduler" \
	python3 - "$TEST_TMP/set.json" "$ra" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["runs"], o
for r in o["runs"]:
    k = r["run"]["knobs"]
    arm = o["arms"][r["arm"]]
    assert k["read_ahead_kb"] == sys.argv[2], k
    assert k["scheduler"] == arm["settings"]["scheduler"], (k, arm)
# held, not varied: no factor, no arm of it
assert [f["name"] for f in o["factors"]] == ["scheduler"], o["factors"]
PY
check "read_ahead_kb is back to $ra0" \
	test "$(cat "/sys/block/$dev/queue/read_ahead_kb")" = "$ra0"
check "the scheduler is back to '$sched0'" test "$(active_sched "$L")" = "$sched0"

# refused before anything changes
expect_usage "a knob both held and varied is refused" \
	"'read_ahead_kb' is both held by --set and varied by --vary" \
	compare randread --set read_ahead_kb=64 --vary read_ahead_kb=128,256 \
	-t "$L" --size=32M --ios 100 --runs 2 --no-store
expect_usage "a held knob an arm's switch resets is refused" \
	"--vary scheduler would undo --set nr_requests" \
	compare randread --set nr_requests=32 --vary scheduler=none,mq-deadline \
	-t "$L" --size=32M --ios 100 --runs 2 --no-store
expect_usage "a --set without '=' is a usage error" "takes KNOB=VALUE" \
	compare randread --set read_ahead_kb --vary bs=4k,8k -t "$L"
check "and nothing was left changed: read_ahead_kb $ra0" \
	test "$(cat "/sys/block/$dev/queue/read_ahead_kb")" = "$ra0"
