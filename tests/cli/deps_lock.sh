#!/usr/bin/env bash
# tools/deps.sh --install while another apt or dpkg holds the package
# manager's lock (an unattended upgrade on a freshly booted machine):
# it says which process it waits for and runs apt-get once the lock is
# free, instead of failing at once as apt-get does; after DEPS_LOCK_WAIT
# seconds it gives up with the apt-get line to run. In a mount namespace
# of the test's own, over empty dpkg and apt state directories, with an
# apt-get of the test's that only records whether the lock was free:
# nothing is installed, and the machine's own locks are not touched.
# parallel: a mount namespace and locks of its own
. "$(dirname "$0")/lib.sh"
need_root
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
command -v python3 >/dev/null || skip "needs python3"
command -v dpkg-query >/dev/null || skip "not a Debian system (no dpkg-query)"
[ -r /proc/locks ] || skip "no /proc/locks to find a lock's holder in (is /proc mounted?)"
# (in a chroot whose root is a plain directory, / is no mount whose
# propagation could be made private, and nothing is mounted over it)
unshare -m --propagation private true 2>/dev/null ||
	skip "cannot make a private mount namespace here (is / a mount point?)"

mkdir -p "$TEST_TMP/bin"
# the stand-in apt-get: fails, as apt-get does, when dpkg's lock is held
cat >"$TEST_TMP/bin/apt-get" <<'EOF'
#!/bin/sh
exec python3 - "$@" <<'PY'
import fcntl, os, sys
f = open("/var/lib/dpkg/lock-frontend", "a")
try:
    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    state = "free"
except OSError:
    state = "held"
with open(os.environ["APT_LOG"], "a") as log:
    log.write("%s %s\n" % (state, " ".join(sys.argv[1:])))
sys.exit(state != "free")
PY
EOF
chmod +x "$TEST_TMP/bin/apt-get"

# inside.sh RELEASE: hold dpkg's lock in another process, run deps.sh;
# RELEASE=1 lets go once deps.sh says it waits. Writes deps.out, deps.rc
# and holder.pid.
cat >"$TEST_TMP/inside.sh" <<'EOF'
set -u
T=$1 release=$2
for d in /var/lib/dpkg /var/lib/apt/lists /var/cache/apt/archives; do
	mkdir -p "$d" && mount -t tmpfs tmpfs "$d" || exit 1
	touch "$d/lock"
done
touch /var/lib/dpkg/lock-frontend
python3 -c 'import fcntl, sys
f = open("/var/lib/dpkg/lock-frontend", "a")
fcntl.lockf(f, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()' <"$T/hold" >"$T/holder.out" &
holder=$!
echo "$holder" >"$T/holder.pid"
exec 8>"$T/hold" # the holder lets go when this closes
for _ in $(seq 1 200); do
	grep -q held "$T/holder.out" && break
	sleep 0.05
done
PATH=$T/bin:$PATH APT_LOG=$T/apt.log "$IOTRIAL_SRC/tools/deps.sh" \
	--install --for 'the test' >"$T/deps.out" 2>&1 8>&- &
deps=$!
if [ "$release" = 1 ]; then
	# until deps.sh says it waits (or ends without waiting)
	while kill -0 "$deps" 2>/dev/null &&
		! grep -q '^waiting for process' "$T/deps.out"; do
		sleep 0.1
	done
	exec 8>&-
fi
wait "$deps"
echo $? >"$T/deps.rc"
exec 8>&-
wait "$holder"
EOF

# 1. the lock is let go while deps.sh waits
mkfifo "$TEST_TMP/hold"
unshare -m --propagation private bash "$TEST_TMP/inside.sh" "$TEST_TMP" 1
holder=$(cat "$TEST_TMP/holder.pid")
rc=$(cat "$TEST_TMP/deps.rc")
sed 's/^/# deps.sh: /' "$TEST_TMP/deps.out" | head -n 5
sed 's/^/# apt-get: /' "$TEST_TMP/apt.log" 2>/dev/null | cut -c1-120
check "deps.sh waits for the lock, then installs (exit $rc)" test "$rc" = 0
check "...saying which process holds which lock" \
	grep -q "^waiting for process $holder (.*python3 -c import fcntl.*) to release '/var/lib/dpkg/lock-frontend'" \
	"$TEST_TMP/deps.out"
check "...and runs apt-get update, then install, both with the lock free" \
	test "$(cut -d' ' -f1-4 "$TEST_TMP/apt.log" | sed 's/=[0-9]*//' | tr '\n' '|')" = \
	"free -o DPkg::Lock::Timeout update|free -o DPkg::Lock::Timeout install|"

# 2. a lock that stays held: deps.sh gives up after DEPS_LOCK_WAIT
rm -f "$TEST_TMP/apt.log"
DEPS_LOCK_WAIT=2 unshare -m --propagation private bash \
	"$TEST_TMP/inside.sh" "$TEST_TMP" 0
holder=$(cat "$TEST_TMP/holder.pid")
rc=$(cat "$TEST_TMP/deps.rc")
sed 's/^/# deps.sh: /' "$TEST_TMP/deps.out" | head -n 5
check "a lock held throughout: deps.sh gives up (exit $rc)" test "$rc" = 1
check "...naming the holder and the apt-get line to run when it is done" \
	grep -q "^error: '/var/lib/dpkg/lock-frontend' is still held by process $holder after 2 s; when it is done, run: apt-get update && apt-get install -y " \
	"$TEST_TMP/deps.out"
check "...without running apt-get" test ! -e "$TEST_TMP/apt.log"
