#!/usr/bin/env bash
# The crash-dump collector's field case: compare crashdump over
# read_ahead_kb=128,2048 and atime=relatime,noatime on a scratch ext4 of
# its own. It runs end to end and prints the verdict table; while it
# runs, the scratch loop device and its mount take each arm's values
# (watched from outside, in sysfs and mountinfo); afterwards the journal
# holds nothing to revert, the scratch device and mount are gone, and
# the root disk (its read-ahead, the root mount's options) is as it
# was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
export TMPDIR=$TEST_TMP # the scratch image and mount go here

root_dev=$(findmnt -n -o SOURCE / | sed 's|^/dev/||; s|\[.*||')
root_disk=$(lsblk -no PKNAME "/dev/$root_dev" 2>/dev/null | head -1)
[ -n "$root_disk" ] || root_disk=$root_dev
ra_file=/sys/block/$root_disk/queue/read_ahead_kb
ra0=$(cat "$ra_file" 2>/dev/null)
root_opts0=$(mount_opts /)

# what the scratch device and mount show while the compare runs
seen=$TEST_TMP/seen
watch_scratch() {
	local loop opts
	while kill -0 "$1" 2>/dev/null; do
		loop=$(losetup -a | grep -F "$TEST_TMP/iotrial-scratch." | cut -d: -f1)
		loop=${loop#/dev/}
		[ -n "$loop" ] && echo "ra=$(cat "/sys/block/$loop/queue/read_ahead_kb" 2>/dev/null)"
		opts=$(grep -F "$TEST_TMP/iotrial-scratch." /proc/self/mountinfo | awk '{ print $6 }')
		[ -n "$opts" ] && echo "opts=$opts"
		sleep 0.05
	done >"$seen"
}

json=$TEST_TMP/cd.json
"$IOTRIAL" compare crashdump -t scratch:1G:ext4 --vary read_ahead_kb=128,2048 \
	--vary atime=relatime,noatime --time 500ms --runs 2 --no-store \
	--json="$json" >"$TEST_TMP/out" 2>&1 &
pid=$!
watch_scratch "$pid" &
wpid=$!
wait "$pid"
rc=$?
wait "$wpid"
check "compare crashdump on scratch:1G:ext4 runs end to end (rc=$rc)" test "$rc" = 0
check "it prints the verdict table" python3 - "$TEST_TMP/out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
i = t.index("\nevery arm against the baseline arm:\narm ")
rows = t[i:].split("\n")[3:7]
assert rows[0].startswith("read_ahead_kb=128 atime=relatime ") and rows[0].endswith("baseline"), rows
for r in rows[1:]:
    assert re.match(r"^read_ahead_kb=\d+ atime=\w+ +\S+ +\[", r), r
PY
check "its metric is dumps per minute, each run at its arm's knobs" \
	python3 - "$json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["metric"]["name"] == "dumps_per_min", o["metric"]
assert len(o["arms"]) == 4 and len(o["runs"]) == 8
for r in o["runs"]:
    arm = o["arms"][r["arm"]]
    assert r["run"]["knobs"] == arm["settings"], (r["run"]["knobs"], arm)
    assert r["metric"] > 0
    assert r["run"]["file_ops"]["read_dump"]["count"] > 0
PY
check "while it ran, the scratch device took read_ahead_kb 2048" grep -qx "ra=2048" "$seen"
check "...and 128" grep -qx "ra=128" "$seen"
check "...its mount took noatime" grep -q "^opts=.*noatime" "$seen"
check "...and relatime" grep -q "^opts=.*relatime" "$seen"
check "afterwards the journal holds nothing to revert" \
	grep -q "nothing to revert" <<<"$("$IOTRIAL" revert 2>&1)"
check "...the scratch device, mount and image are gone" scratch_clean
check "...'$root_disk' keeps read_ahead_kb $ra0" test "$(cat "$ra_file" 2>/dev/null)" = "$ra0"
check "...and the root mount its options ($root_opts0)" \
	test "$(mount_opts /)" = "$root_opts0"
