#!/usr/bin/env bash
# observe --cgroup: only the service's I/O on the device is measured
# (its cgroup's io.stat, or blkio on a cgroup v1 hierarchy), and a
# window where another process wrote to the same device is marked with
# the numbers. A load in a cgroup of the test's own writes steadily; a
# writer outside it writes a burst in the middle.
. "$(dirname "$0")/lib.sh"
need_root
command -v jq >/dev/null || skip "needs jq"
jqe() { jq -e "$@" >/dev/null; }
mkloop 256M || skip "cannot make a loop device"
L=$LOOP
devno=$(cat "/sys/block/${L#/dev/}/dev")
out=$TEST_TMP/out
CG=
v2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ {print $2; exit}' /proc/mounts)
if [ -n "$v2" ] && grep -qw io "$v2/cgroup.subtree_control" 2>/dev/null; then
	CG=$v2/iotrial-observe-test.$$
	mkdir "$CG" || skip "cannot make a cgroup"
elif [ -n "$v1" ]; then
	CG=$v1/iotrial-observe-test.$$
	mkdir "$CG" || skip "cannot make a cgroup"
	# v1 counts only with a throttle rule: first without, refused
	"$IOTRIAL" observe --device "$L" --cgroup "$CG" --vary label=a,b \
		--window 1s --windows 6 --no-store >"$out" 2>&1
	check "v1 without a throttle rule: refused with the advice" \
		grep -q "throttle rule" "$out"
	# a rule that limits nothing (100 GB/s)
	echo "$devno 100000000000" >"$CG/blkio.throttle.write_bps_device"
else
	skip "no cgroup with I/O statistics (v2 io controller or v1 blkio)"
fi

LOADPID=
cleanup() {
	[ -n "$LOADPID" ] && kill "$LOADPID" 2>/dev/null && wait "$LOADPID" 2>/dev/null
	# the loop's last dd may still be leaving the cgroup
	for _ in $(seq 1 50); do
		[ -z "$CG" ] || [ ! -d "$CG" ] || rmdir "$CG" 2>/dev/null && break
		sleep 0.1
	done
	test_cleanup
}
trap cleanup EXIT

(
	echo "$BASHPID" >"$CG/cgroup.procs"
	exec bash -c "while :; do dd if=/dev/zero of=$L bs=1M count=4 \
		oflag=direct conv=notrunc status=none; sleep 0.2; done"
) &
LOADPID=$!
sleep 0.3
# the other writer, outside the cgroup, in the middle of the experiment
(sleep 4; dd if=/dev/zero of="$L" bs=1M count=64 seek=100 oflag=direct \
	conv=notrunc status=none) &
OTHER=$!

"$IOTRIAL" observe --device "$L" --cgroup "$CG" --vary label=a,b \
	--window 1s --settle 0 --windows 6 --metric mbps --no-store \
	--json="$TEST_TMP/cg.json" >"$out" 2>&1
check "scoped: exit 0" [ $? = 0 ]
wait "$OTHER"
check "scoped: every window has the cgroup's numbers" \
	jqe '[.windows[] | .cgroup.mbps != null] | all' "$TEST_TMP/cg.json"
check "scoped: the burst's windows are marked, with the numbers" \
	jqe '[.windows[] | select(.other_io != null)] | length >= 1' \
	"$TEST_TMP/cg.json"
check "scoped: the other windows are not" \
	jqe '[.windows[] | select(.other_io == null)] | length >= 6' \
	"$TEST_TMP/cg.json"
check "scoped: a marked window's metric is the cgroup's, not the device's" \
	jqe '[.windows[] | select(.other_io != null) |
	      .metric < .device.mbps] | all' "$TEST_TMP/cg.json"
check "scoped: the output says so" grep -q "other I/O on the device" "$out"
check "scoped: the verdict is suspect for it" \
	jqe '.verdicts[0].suspect | map(.kind) | index("other_io") != null' \
	"$TEST_TMP/cg.json"
