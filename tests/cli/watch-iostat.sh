#!/usr/bin/env bash
# iotrial watch against iostat -dxy on the same device, side by side:
# while fio drives a steady, rate-limited random read/write load on a loop
# device of our own (a file in /var/tmp; detached on exit), both tools
# sample it at 1 s for 5 intervals, started together. Their mean r/s,
# w/s, rMB/s and wMB/s must agree within 2%. The load is rate-limited so
# the rates are steady and the result does not depend on how fast the
# machine is; nothing here asserts a speed.
. "$(dirname "$0")/lib.sh"
need_root
command -v iostat >/dev/null || skip "iostat (sysstat) is not installed"
command -v fio >/dev/null || skip "fio is not installed"
command -v losetup >/dev/null || skip "losetup is not installed"

fio_pid=
stop_fio() {
	[ -n "$fio_pid" ] && kill "$fio_pid" 2>/dev/null && wait "$fio_pid" 2>/dev/null
}
trap 'stop_fio; test_cleanup' EXIT
mkloop 256M /var/tmp || { fail "losetup"; exit 1; }
loop=$LOOP
name=$(basename "$loop")

fio --name=steady --filename="$loop" --rw=randrw --rwmixread=75 --bs=4k \
	--direct=1 --ioengine=psync --rate_iops=1500,500 --time_based \
	--runtime=10 --output=/dev/null >/dev/null 2>&1 &
fio_pid=$!
sleep 2 # let fio's rate settle

iostat -dxy -k -o JSON 1 5 "$name" >"$TEST_TMP/iostat.json" &
iostat_pid=$!
"$IOTRIAL" watch "$name" --interval 1s --count 5 --json >"$TEST_TMP/watch.jsonl"
watch_rc=$?
wait "$iostat_pid"
check "watch ran for 5 intervals" test "$watch_rc" = 0

python3 - "$TEST_TMP/iostat.json" "$TEST_TMP/watch.jsonl" "$name" <<'PY'
import json, sys
ios = json.load(open(sys.argv[1]))
stats = ios["sysstat"]["hosts"][0]["statistics"]
rows = [d for s in stats for d in s["disk"] if d["disk_device"] == sys.argv[3]]
ours = [json.loads(l) for l in open(sys.argv[2])]
def mean(xs):
    return sum(xs) / len(xs)
# iostat's kB is KiB (sectors / 2); our mbps is 10^6 bytes/s
pairs = {
    "r/s": (mean([r["r/s"] for r in rows]), mean([o["r_s"] for o in ours])),
    "w/s": (mean([r["w/s"] for r in rows]), mean([o["w_s"] for o in ours])),
    "rMB/s": (mean([r["rkB/s"] for r in rows]) * 1024 / 1e6,
              mean([o["rmbps"] for o in ours])),
    "wMB/s": (mean([r["wkB/s"] for r in rows]) * 1024 / 1e6,
              mean([o["wmbps"] for o in ours])),
}
print("# intervals: iostat %d, watch %d" % (len(rows), len(ours)))
print(("ok" if len(rows) == 5 and len(ours) == 5 else "not ok") +
      " - both tools gave 5 intervals")
for k, (a, b) in pairs.items():
    diff = abs(a - b) / a if a else float("inf")
    print("%s - %s agrees within 2%%: iostat %.3f, watch %.3f (%.2f%%)" %
          ("ok" if a > 0 and diff <= 0.02 else "not ok", k, a, b,
           100 * diff))
PY
