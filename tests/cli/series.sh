#!/usr/bin/env bash
# iotrial series: a fixed workload, groups of iterations appended one
# per (simulated) boot and tagged, a report with the boot as the unit.
# The workload is exec of a sleep whose length a file sets, so that the
# groups tagged "slow" are slower than those tagged "base" by design:
# the report calls them slower with 4 boots a side and exits 3 with
# --fail-on-regression, and says nothing with 3. Also: the plan of
# boots, the at-boot unit under a --root (checked with systemd-analyze
# verify when it is there; never installed on this machine), the plan's
# last group removing it, and refusals.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

db=$TEST_TMP/results.db
delay=$TEST_TMP/delay
root=$TEST_TMP/root

"$IOTRIAL" series k --define --db "$db" -- exec -- sh -c "sleep \$(cat $delay)" \
	>"$TEST_TMP/out" 2>&1
check "--define exits 0" test $? = 0
check "--define says what the series runs" grep -q "^series 'k' defined: iotrial run exec -- sh -c sleep" "$TEST_TMP/out"
"$IOTRIAL" series k add --db "$db" -- exec -- true >/dev/null 2>"$TEST_TMP/err"
check "a second definition exits 2" test $? = 2
check "... saying it is defined" grep -q "series 'k' is defined already" "$TEST_TMP/err"

# group RATE TAG: one boot's group of 2 iterations
group() {
	echo "$1" >"$delay"
	"$IOTRIAL" series k run --iterations 2 --tag "$2" --db "$db" >"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err"
}
ok_runs=1
for i in 1 2 3; do
	group 0.02 base || ok_runs=0
	group 0.12 slow || ok_runs=0
done
check "six groups run" test $ok_runs = 1
check "a group says which it is" grep -q "^series k: group 6, 2 iterations, kernel $(uname -r), boot " "$TEST_TMP/run.err"
check "a group is stored" grep -q "^series k: group 6 stored" "$TEST_TMP/run.out"

"$IOTRIAL" series k report --by tag --db "$db" --fail-on-regression >"$TEST_TMP/r3" 2>&1
check "3 boots a side: no regression claimed (exit 0)" test $? = 0
check "3 boots a side: no verdict" grep -qE "^slow +3 +6 .* no verdict +\| pooled: .* slower$" "$TEST_TMP/r3"
check "... saying how many boots a verdict needs" grep -q "no verdict with fewer than 4 boots a side" "$TEST_TMP/r3"

group 0.02 base && group 0.12 slow
check "the eighth group runs" test $? = 0
"$IOTRIAL" series k report --by tag --db "$db" >"$TEST_TMP/r4" 2>&1
check "report exits 0" test $? = 0
check "report heads with the series" grep -q "^series k: 16 iterations in 8 boots, wall (lower is better), by tag$" "$TEST_TMP/r4"
check "each boot has real, user and sys of its iterations" \
	test "$(grep -cE '^	(real|user|sys) +[0-9]+m[0-9]+\.[0-9]{3}s +[0-9]+m[0-9]+\.[0-9]{3}s$' "$TEST_TMP/r4")" = 24
check "each boot has the device table" \
	test "$(grep -c '^	Device:        tps    MB_read/s    MB_wrtn/s    MB_read    MB_wrtn$' "$TEST_TMP/r4")" = 8
check "groups of one boot are said not to be independent" grep -q "^note: 7 of 8 groups ran in a boot an earlier group ran in" "$TEST_TMP/r4"
check "4 boots a side: slower, the pooled figure beside it" \
	grep -qE "^slow +4 +8  [0-9.]+ \[[0-9.]+, [0-9.]+\] +0\.0286 +slower +\| pooled: .* slower$" "$TEST_TMP/r4"
"$IOTRIAL" series k report --by tag --db "$db" --fail-on-regression >/dev/null 2>&1
check "--fail-on-regression exits 3" test $? = 3
"$IOTRIAL" series k report --by tag --baseline slow --db "$db" --fail-on-regression >"$TEST_TMP/rb" 2>&1
check "against the slow baseline: faster, exit 0" test $? = 0 -a "$(grep -cE '^base +4 +8 .* faster' "$TEST_TMP/rb")" = 1
"$IOTRIAL" series k report --by tag --db "$db" --json --schema=1 >"$TEST_TMP/j"
check "report --json" test "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["comparisons"][0]
g = d["groups"]
print(d["schema"], d["kind"], d["boots"], d["iterations"], c["value"], c["boots"], c["verdict"], c["pooled"]["verdict"],
      len(g), sum(len(x["iterations"]) for x in g), g[1]["tag"], g[1]["iterations"][0]["real_s"] > 0.1)' "$TEST_TMP/j")" = \
	"iotrial/1 series 8 16 slow 4 slower slower 8 16 slow True"
"$IOTRIAL" series k report --by kernel --db "$db" >"$TEST_TMP/rk"
check "by kernel: one kernel, nothing to compare" grep -q "^only one kernel so far ('$(uname -r)'): nothing to compare" "$TEST_TMP/rk"
"$IOTRIAL" series k report --by tag --baseline nope --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "an unknown baseline exits 2 listing the tags" \
	test $? = 2 -a "$(grep -c "baseline 'nope' is no tag of series 'k'; its tags are: 'base', 'slow'" "$TEST_TMP/err")" = 1
"$IOTRIAL" series k report --by size --db "$db" >/dev/null 2>&1
check "--by size exits 2" test $? = 2
"$IOTRIAL" series k run --iterations 0 --db "$db" >/dev/null 2>&1
check "--iterations 0 exits 2" test $? = 2
"$IOTRIAL" series nope report --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "an unknown series exits 2" test $? = 2 -a "$(grep -c "no series 'nope'" "$TEST_TMP/err")" = 1
"$IOTRIAL" series 'a b' run --db "$db" >/dev/null 2>&1
check "a name with a blank exits 2" test $? = 2
"$IOTRIAL" series j --define --db "$db" -- randread --db /tmp/x.db >/dev/null 2>"$TEST_TMP/err"
check "--db inside the workload is refused" test $? = 2 -a "$(grep -c "'--db' belongs to the series" "$TEST_TMP/err")" = 1
"$IOTRIAL" series --db "$db" >"$TEST_TMP/list"
check "series lists the series" test "$(cat "$TEST_TMP/list")" = k

# the plan and the at-boot unit, under a root of the test's own
"$IOTRIAL" series k plan --values base,slow --boots 2 --seed 3 --db "$db" >"$TEST_TMP/plan" 2>&1
check "plan exits 0" test $? = 0
check "plan lists four boots from group 9" \
	test "$(grep -cE '^  group (9|10|11|12): (base|slow)$' "$TEST_TMP/plan")" = 4
check "each block of two has both values" test "$(python3 -c '
import re, sys
v = re.findall(r"^  group \d+: (\w+)$", open(sys.argv[1]).read(), re.M)
print(all(sorted(v[i:i + 2]) == ["base", "slow"] for i in (0, 2)))' "$TEST_TMP/plan")" = True
"$IOTRIAL" series k plan --values base,slow --boots 2 --seed 3 --db "$db" >"$TEST_TMP/plan2" 2>&1
check "the same seed gives the same order" cmp -s "$TEST_TMP/plan" "$TEST_TMP/plan2"
"$IOTRIAL" series k plan --values base,base --db "$db" >/dev/null 2>&1
check "a value twice exits 2" test $? = 2

mkdir -p "$root"
"$IOTRIAL" series k at-boot --install --root "$root" --db "$db" >"$TEST_TMP/inst" 2>&1
check "at-boot --install --root exits 0" test $? = 0
unit=$root/etc/systemd/system/iotrial-series-k.service
check "the unit is written" grep -q "^ExecStart=/.* series k run --planned --at-boot --db $db$" "$unit"
check "it is enabled as systemctl would" \
	test "$(readlink "$root/etc/systemd/system/multi-user.target.wants/iotrial-series-k.service")" = /etc/systemd/system/iotrial-series-k.service
check "install says which group the next boot runs" grep -q "the next boot runs group 9 (tag " "$TEST_TMP/inst"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify "$unit" >"$TEST_TMP/verify" 2>&1
	check "systemd-analyze verify accepts the unit" test $? = 0
	cat "$TEST_TMP/verify"
else
	echo "# systemd-analyze is not installed: the unit is not verified"
fi
check "nothing was installed on this machine" test ! -e /etc/systemd/system/iotrial-series-k.service
# a root that does not exist yet: its directories are made, as
# systemctl --root makes them
"$IOTRIAL" series k at-boot --install --root "$TEST_TMP/new/root" --db "$db" >"$TEST_TMP/inst2" 2>&1
check "at-boot --install --root NEW exits 0 (the root is made)" test $? = 0
check "... and the unit is there" test -f "$TEST_TMP/new/root/etc/systemd/system/iotrial-series-k.service" -a \
	-L "$TEST_TMP/new/root/etc/systemd/system/multi-user.target.wants/iotrial-series-k.service"

# the four planned boots, as the unit would run them
ok_runs=1
for i in 1 2 3 4; do
	tag=$(sed -n "s/^  group $((8 + i)): //p" "$TEST_TMP/plan")
	[ "$tag" = slow ] && echo 0.12 >"$delay" || echo 0.02 >"$delay"
	"$IOTRIAL" series k run --planned --at-boot --root "$root" --iterations 1 --db "$db" \
		>"$TEST_TMP/p$i" 2>"$TEST_TMP/pe$i" || ok_runs=0
	grep -q ", tag $tag\$" "$TEST_TMP/pe$i" || ok_runs=0
	if [ $i -lt 4 ]; then test -e "$unit" || ok_runs=0; fi
done
check "the planned groups ran with the plan's tags" test $ok_runs = 1
check "the last one removed the unit" test ! -e "$unit" -a ! -L "$root/etc/systemd/system/multi-user.target.wants/iotrial-series-k.service"
check "... and said so" grep -q "^removed $root/etc/systemd/system/iotrial-series-k.service" "$TEST_TMP/p4"
"$IOTRIAL" series k run --planned --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "a planned run after the plan exits 2" test $? = 2 -a "$(grep -c "the plan of series 'k' is done" "$TEST_TMP/err")" = 1
"$IOTRIAL" series k at-boot --install --root "$root" --db "$db" >/dev/null 2>&1
check "no unit is installed for a finished plan" test $? = 2 -a ! -e "$unit"
"$IOTRIAL" series k at-boot --remove --root relative --db "$db" >/dev/null 2>&1
check "a relative --root exits 2" test $? = 2
"$IOTRIAL" series k run --tag $'x\033[31m' --db "$db" >/dev/null 2>"$TEST_TMP/err"
check "a tag with a control character exits 2" test $? = 2
