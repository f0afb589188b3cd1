#!/usr/bin/env bash
# --memory-limit, --cpus and --mems: the workload runs in a cgroup
# iotrial makes, journals and removes. The limit is in effect (the
# cgroup's peak use stays within it, and the page cache's dirty memory
# with it), the cgroup is gone afterwards, also after kill -9 (the next
# iotrial removes it from the journal), and bad input is refused before
# anything is made.
. "$(dirname "$0")/lib.sh"
need_root
out=$TEST_TMP/out
mem_root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ {print $2; exit}' \
	/proc/self/mounts 2>/dev/null)
[ -n "$mem_root" ] || [ -n "$(grep -w memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null)" ] ||
	skip "no memory cgroup controller here"
leftovers() { find /sys/fs/cgroup -maxdepth 6 -type d -name 'iotrial-cg.*' 2>/dev/null; }
[ -z "$(leftovers)" ] || skip "iotrial cgroups are already there: $(leftovers)"

# a buffered writer, 256 MiB through a 64 MiB limit; on a disk, since a
# tmpfs's pages (a /tmp on tmpfs) are charged to the cgroup and cannot
# be written back: the limit would kill the writer
disk_dir=$(mktemp -d /var/tmp/iotrial-cgroup.XXXXXX) || skip "no /var/tmp"
TEST_DIRS+=("$disk_dir")
[ "$(stat -f -c %T "$disk_dir")" != tmpfs ] || skip "/var/tmp is a tmpfs"
"$IOTRIAL" run seqwrite -t "$disk_dir" --size 256M --memory-limit 64M \
	--time 1s --no-store --json >"$out.json" 2>"$out.err"
rc=$?
check "run --memory-limit 64M exits 0 (got $rc)" test "$rc" = 0
check "the JSON has the limit and a peak within it" python3 - "$out.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
l = o["limits"]
assert l["memory_max"] == 64 << 20, l
assert l["memory_peak"] and 0 < l["memory_peak"] <= l["memory_max"], l
assert "/iotrial-cg." in l["cgroup"], l
PY
check "the cgroup is gone after the run" test -z "$(leftovers)"

"$IOTRIAL" run randread -t "$TEST_TMP" --size 4M --cpus 0 --time 1s \
	--no-store >"$out" 2>&1
check "run --cpus 0 exits 0" test $? = 0
check "the summary names the cgroup's CPUs" grep -q "^  cgroup   cpus 0$" "$out"
check "the cpuset cgroup is gone too" test -z "$(leftovers)"

# kill -9 while inside: the next iotrial removes the cgroup
"$IOTRIAL" run randread -t "$TEST_TMP" --size 4M --memory-limit 64M \
	--time 30s --no-store >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -n "$(leftovers)" ] && break; sleep 0.1; done
made=$(leftovers)
check "while running, the cgroup exists" test -n "$made"
# it makes the cgroup, then moves itself in: wait for that too
for _ in $(seq 100); do
	grep -qx "$pid" "$made/cgroup.procs" 2>/dev/null && break
	sleep 0.1
done
check "...and iotrial is in it" grep -qx "$pid" "$made/cgroup.procs"
kill -9 "$pid"
wait "$pid" 2>/dev/null
"$IOTRIAL" revert --list >"$out" 2>&1
check "after kill -9 the journal lists the cgroup" grep -qF "cgroup '$made'" "$out"
"$IOTRIAL" revert >"$out" 2>&1
check "the next iotrial removes it" test -z "$(leftovers)"
check "...and says so" grep -qF "removed cgroup '$made'" "$out"

# bad input: refused before anything is made
expect_bad() {
	local what=$1 msg=$2
	shift 2
	"$IOTRIAL" run randread -t "$TEST_TMP" --size 4M --time 1s --no-store \
		"$@" >"$out" 2>&1
	local rc=$?
	check "$what: usage error (got $rc)" test "$rc" = 2
	check "...saying: $msg" grep -qF -- "$msg" "$out"
}
expect_bad "--cpus of an offline CPU" "which is not online; this machine has" --cpus 4095
expect_bad "--cpus not a list" "is not a list of CPU numbers" --cpus 0-x
expect_bad "--memory-limit too small" "would starve iotrial itself" --memory-limit 1M
expect_bad "--memory-limit not a size" "--memory-limit:" --memory-limit lots
check "nothing was made by the bad calls" test -z "$(leftovers)"

if command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOTRIAL"; then
	d=$(mktemp -d /tmp/iotrial-cg.XXXXXX)
	chmod 1777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env IOTRIAL_STATE_DIR="$d/state" XDG_DATA_HOME="$d/data" \
		"$IOTRIAL" run randread -t "$d" --size 1M --memory-limit 64M \
		--time 1s --no-store >"$out" 2>&1
	rc=$?
	rm -rf "$d"
	check "non-root --memory-limit: refused with exit 1 (got $rc)" test "$rc" = 1
	check "...saying it needs root" grep -qF -- "--memory-limit needs root" "$out"
fi
