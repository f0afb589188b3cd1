#!/usr/bin/env bash
# Hints for what newcomers type: a scratch target without its size,
# folklore knob names (blockdev's "readahead", the kernel's old
# "elevator="), and the advice a non-root `run --set` gets, which must
# name a command that has --dry-run.
. "$(dirname "$0")/lib.sh"
out=$TEST_TMP/out

"$IOTRIAL" run -t scratch --time 1s --no-store >"$out" 2>&1
rc=$?
check "-t scratch without a size: usage error" test "$rc" = 2
check "...that gives the form and an example" \
	grep -qF "needs a size: scratch:SIZE[:ext4|xfs], e.g. scratch:2G:ext4" "$out"

"$IOTRIAL" run -t "$TEST_TMP/none" --time 1s --no-store >"$out" 2>&1
rc=$?
check "a missing target: usage error naming every kind of target" \
	bash -c "test $rc = 2 && grep -qF 'scratch:SIZE[:ext4|xfs]' '$out'"

for pair in readahead:read_ahead_kb ra:read_ahead_kb elevator:scheduler \
	iosched:scheduler; do
	said=${pair%%:*} means=${pair#*:}
	"$IOTRIAL" set --dry-run -t "$TEST_TMP" "$said=1" >"$out" 2>&1
	rc=$?
	check "set $said=1: usage error suggesting '$means'" \
		bash -c "test $rc = 2 && grep -qF \"did you mean '$means'?\" '$out'"
done

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOTRIAL"; then
	d=$(mktemp -d /tmp/iotrial-hints.XXXXXX)
	chmod 1777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env IOTRIAL_STATE_DIR="$d/state" XDG_DATA_HOME="$d/data" \
		"$IOTRIAL" run -t "$d" --set read_ahead_kb=1024 --time 1s \
		--no-store >"$out" 2>&1
	rc=$?
	rm -rf "$d"
	check "non-root run --set: refused (exit $rc)" test "$rc" != 0
	check "...pointing to a command that has --dry-run" \
		grep -qF "'iotrial set --dry-run read_ahead_kb=1024' shows the plan" "$out"
	check "...not to run's own --dry-run, which it lacks" \
		bash -c "! grep -qF 'or add --dry-run' '$out'"
else
	echo "# not root, or nobody cannot run '$IOTRIAL': the non-root case is not checked"
fi

"$IOTRIAL" compare seqread -t "$TEST_TMP" --vary readahead=128,1024 \
	--no-store >"$out" 2>&1
rc=$?
check "compare --vary readahead=...: usage error suggesting 'read_ahead_kb'" \
	bash -c "test $rc = 2 && grep -qF \"did you mean 'read_ahead_kb'?\" '$out'"
