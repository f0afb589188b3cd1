# Shared helpers for CLI tests. Source it; then call ok/fail/check.
# Each check prints "ok - NAME" or "not ok - NAME", which run-tests.sh
# counts. A test that cannot run here exits 77 via skip.
set -u
: "${IOTRIAL:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/san/iotrial}"
: "${IOTRIAL_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
# Tests never touch the real journal or store.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-test.XXXXXX")
export IOTRIAL_STATE_DIR="$TEST_TMP/state"
export XDG_DATA_HOME="$TEST_TMP/data"
mkdir -p "$IOTRIAL_STATE_DIR" "$XDG_DATA_HOME"

# What a test attached and mounted, taken away on exit (mounts first),
# whatever happens; images and directories made outside TEST_TMP are
# deleted too.
TEST_MOUNTS=()
TEST_LOOPS=()
TEST_FILES=()
TEST_DIRS=()
test_cleanup() {
	local m l
	for m in "${TEST_MOUNTS[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for l in "${TEST_LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
	rm -f "${TEST_FILES[@]}"
	rm -rf "${TEST_DIRS[@]}" "$TEST_TMP"
}
trap test_cleanup EXIT

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "skipped: $*"; exit 77; }
# check NAME CMD...: ok when CMD succeeds
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# mkloop SIZE [DIR]: a loop device in $LOOP on a sparse file of ours in
# $LOOP_IMG (made in DIR, default TEST_TMP; /var/tmp when the image must
# sit on a disk, not on a tmpfs). Not through $(...): the cleanup list
# must be filled in this shell.
mkloop() {
	LOOP= LOOP_IMG=
	LOOP_IMG=$(mktemp "${2:-$TEST_TMP}/iotrial-loop.XXXXXX.img") || return 1
	[ -n "${2:-}" ] && TEST_FILES+=("$LOOP_IMG")
	truncate -s "$1" "$LOOP_IMG" || return 1
	LOOP=$(losetup --find --show "$LOOP_IMG") || return 1
	TEST_LOOPS+=("$LOOP")
}

# mkmount DEV [MKFS-OPTION...]: ext4 on DEV, mounted on a directory of
# ours in $MNT.
mkmount() {
	local dev=$1
	shift
	MNT=$(mktemp -d "$TEST_TMP/mnt.XXXXXX")
	mkfs.ext4 -q -F "$@" "$dev" >/dev/null 2>&1 || return 1
	mount "$dev" "$MNT" || return 1
	TEST_MOUNTS+=("$MNT")
}

# json FILE PYTHON-EXPR: the expression's value over the parsed file (o)
json() {
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# The paths under $USAGE_DIR (default TEST_TMP), sorted, but for the out
# and err files expect_usage itself writes.
usage_files() {
	find "${USAGE_DIR:-$TEST_TMP}" -mindepth 1 \
		! -path "$TEST_TMP/out" ! -path "$TEST_TMP/err" | sort
}

# expect_usage NAME PATTERN ARGS...: iotrial ARGS exits 2 with one line
# on stderr matching PATTERN (grep -E), and leaves no file behind: the
# names under $USAGE_DIR (the target, or by default all of TEST_TMP) are
# the same before and after.
expect_usage() {
	local name=$1 pat=$2 rc lines before after
	shift 2
	before=$(usage_files)
	"$IOTRIAL" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	after=$(usage_files)
	lines=$(grep -c . "$TEST_TMP/err")
	if [ $rc = 2 ] && grep -qE -- "$pat" "$TEST_TMP/err" &&
		[ "$lines" = 1 ] && [ "$before" = "$after" ]; then
		ok "$name"
	else
		fail "$name (rc=$rc, lines=$lines: $(head -c 300 "$TEST_TMP/err"))"
		[ "$before" = "$after" ] ||
			diff <(echo "$before") <(echo "$after") | sed 's/^/#   files: /'
	fi
}

# gen_runs DIR PREFIX N MEDIAN [KERNEL [WORKLOAD]]: N iotrial/1 run
# objects DIR/PREFIXi.json, for import; their values scatter 1% around
# MEDIAN (seeded by PREFIX), their boot id is PREFIX, KERNEL defaults to
# 6.1.0, WORKLOAD to randread.
gen_runs() {
	python3 - "$@" <<'PY'
import json, random, sys
out, prefix, n, median = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
kernel = sys.argv[5] if len(sys.argv) > 5 else "6.1.0"
workload = sys.argv[6] if len(sys.argv) > 6 else "randread"
random.seed(prefix)
for i in range(n):
    v = median * (1 + random.uniform(-0.01, 0.01))
    run = {"schema": "iotrial/1", "workload": workload,
           "params": {"bs": 4096}, "knobs": {},
           "target": {"spec": "/srv", "kind": "dir"},
           "seconds": 1.0, "ops": int(v), "iops": v, "mbps": v * 4096 / 1e6,
           "metric": {"name": "iops", "value": v, "higher_is_better": True},
           "env": {"iotrial_version": "0.1.0", "hostname": "host1",
                   "kernel_release": kernel, "boot_id": prefix,
                   "cpu": {"model": "EPYC", "count": 2}},
           "warnings": []}
    json.dump(run, open("%s/%s%d.json" % (out, prefix, i), "w"))
PY
}

# recover_now: a command that changes the system, so it first restores
# what a crashed iotrial left (read-only ones only say so); a short run
# that changes nothing itself. Its output goes to $out.
# shellcheck disable=SC2154 # $out is each test's own
recover_now() {
	"$IOTRIAL" run seqread -t "$TEST_TMP" --size 64k --ios 4 --no-store \
		>"$out" 2>&1
}
