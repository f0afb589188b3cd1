# Helpers for the export and apply tests. Source after lib.sh (and
# knob-lib.bash). Not a test itself: run-tests.sh only runs *.sh.

# need_tool CMD PACKAGE: CMD is there, or PACKAGE is installed now (as
# root, with apt-get); when it cannot be, the test is skipped saying
# which package is missing.
need_tool() {
	command -v "$1" >/dev/null && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "$2" >"$TEST_TMP/apt.log" 2>&1
	fi
	command -v "$1" >/dev/null ||
		skip "the Debian package '$2' (for '$1') cannot be installed" \
			"($(tail -1 "$TEST_TMP/apt.log" 2>/dev/null))"
}

# gen_exp FILE TARGET DISK WINNER FACTOR=V1,V2 ...: an iotrial/1
# experiment object of randread on TARGET (whose disk is DISK) varying
# the knob factors given (a factor written PARAM:bs=4k,8k is a workload
# parameter), every arm ran in 12 blocks; arm number WINNER (-1: none) is
# 1.5 times faster than the others, which are all alike. SUSPECT=1 in the
# environment gives the winner's runs the page-cache warning.
gen_exp() {
	python3 - "$@" <<'PY'
import itertools, json, os, random, sys
out, target, disk, winner = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
factors = []
for spec in sys.argv[5:]:
    kind = "knob"
    if spec.startswith("PARAM:"):
        kind, spec = "param", spec[6:]
    name, values = spec.split("=", 1)
    factors.append({"name": name, "kind": kind, "values": values.split(",")})
arms = []
for i, combo in enumerate(itertools.product(*[f["values"] for f in factors])):
    settings = {f["name"]: v for f, v in zip(factors, combo)}
    label = " ".join("%s=%s" % kv for kv in settings.items())
    arms.append({"arm": i, "label": label, "settings": settings})
env = {"iotrial_version": "0.1.0", "hostname": "host1",
       "kernel_release": "6.1.0", "boot_id": "b1",
       "cpu": {"model": "EPYC", "count": 2},
       "stack": {"path": target, "devices": [
           {"name": disk, "kind": "disk", "queue_dev": disk}]}}
random.seed(os.path.basename(out))  # the same data every run
runs, seq = [], 0
for b in range(12):
    for a in arms:
        v = 1000 * (1.5 if a["arm"] == winner else 1.0) * (1 + random.uniform(-0.005, 0.005))
        run = {"schema": "iotrial/1", "workload": "randread",
               "params": {"bs": 4096}, "knobs": a["settings"],
               "target": {"spec": target, "kind": "dir"},
               "seconds": 1.0, "ops": int(v), "iops": v,
               "metric": {"name": "iops", "value": v, "higher_is_better": True},
               "env": env, "warnings": []}
        if os.environ.get("SUSPECT") and a["arm"] == winner:
            run["warnings"] = ["reads measured the page cache, not the "
                               "device: the workload read 1 GiB"]
        runs.append({"arm": a["arm"], "block": b, "seq": seq, "metric": v, "run": run})
        seq += 1
exp = {"schema": "iotrial/1", "type": "experiment", "id": "0",
       "created": "2026-11-29T22:58:00Z", "workload": "randread",
       "target": target, "params": {"bs": 4096}, "seed": "1",
       "metric": {"name": "iops", "higher_is_better": True},
       "factors": factors, "baseline": 0, "arms": arms, "runs": runs,
       "blocks": 12, "stopped": "fixed run count", "runs_mode": "fixed",
       "precision": 0.02, "equivalence": 0.02, "alpha": 0.05, "env": env}
json.dump(exp, open(out, "w"))
PY
}

# imp_exp FILE: import the experiment FILE into $DB and print its id
imp_exp() {
	"$IOTRIAL" import --db "$DB" "$1" |
		sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p'
}

# A loop device keeps its queue settings after it is detached, so what a
# test sets on one is put back before the device goes: save_queue DEV
# records them, the EXIT trap restores them, then runs knob_cleanup.
QUEUE_SAVED=()
save_queue() {
	local d=${1#/dev/}
	QUEUE_SAVED+=("$d $(active_sched "$d") $(queue "$d" read_ahead_kb) $(queue "$d" nr_requests)")
}
restore_queues() {
	local e d s ra nr
	for e in "${QUEUE_SAVED[@]}"; do
		read -r d s ra nr <<<"$e"
		echo "$s" >"/sys/block/$d/queue/scheduler" 2>/dev/null
		echo "$nr" >"/sys/block/$d/queue/nr_requests" 2>/dev/null
		echo "$ra" >"/sys/block/$d/queue/read_ahead_kb" 2>/dev/null
	done
}
export_cleanup() {
	restore_queues
	knob_cleanup
}
trap export_cleanup EXIT
