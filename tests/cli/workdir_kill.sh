#!/usr/bin/env bash
# A run killed in the moment after its work directory is made and before
# anything else happens (strace holds the mkdirat() there) leaves no
# directory behind: the work directory is journaled before it is made,
# and the next iotrial removes it. fault_kill.sh found this window 1 time
# in 50 random kills; here it is hit every time.
. "$(dirname "$0")/lib.sh"
need_root
command -v strace >/dev/null || skip "needs strace"

dir=$TEST_TMP/target
mkdir -p "$dir"
# mkdirat() returns 5 s late: the directory is there, nothing after it
strace -f -o /dev/null -e trace=mkdirat \
	-e inject=mkdirat:delay_exit=5000000 \
	"$IOTRIAL" run seqwrite -t "$dir" --size 1M --time 100ms --no-store \
	>"$TEST_TMP/out" 2>&1 &
tracer=$!
made=
for _ in $(seq 200); do
	made=$(find "$dir" -mindepth 1 -maxdepth 1 -name 'iotrial.*' | head -n 1)
	[ -n "$made" ] && break
	sleep 0.05
done
check "the run made its work directory" test -n "$made"
pid=$(pgrep -P "$tracer" -x iotrial | head -n 1)
check "the run is held in mkdirat()" test -n "$pid"
[ -n "$pid" ] && kill -9 "$pid"
wait "$tracer" 2>/dev/null
check "it was killed there, its directory left" test -d "$made"

"$IOTRIAL" revert >"$TEST_TMP/revert" 2>&1
rc=$?
check "revert exits 0 (rc=$rc: $(head -c 200 "$TEST_TMP/revert"))" test $rc = 0
check "the next iotrial removed the leftover work directory" \
	test ! -e "$made"
check "and said so" grep -q "removed the leftover work directory" \
	"$TEST_TMP/revert"

# A directory of that name that is not iotrial's (others may enter it) is
# left alone, even when a record announced it
mkdir -m 0755 "$dir/iotrial.Zz9Zz9"
strace -f -o /dev/null -e trace=mkdirat \
	-e inject=mkdirat:delay_exit=5000000 \
	"$IOTRIAL" run seqwrite -t "$dir" --size 1M --time 100ms --no-store \
	>"$TEST_TMP/out" 2>&1 &
tracer=$!
for _ in $(seq 200); do
	n=$(find "$dir" -mindepth 1 -maxdepth 1 -name 'iotrial.*' | wc -l)
	[ "$n" -ge 2 ] && break
	sleep 0.05
done
pid=$(pgrep -P "$tracer" -x iotrial | head -n 1)
[ -n "$pid" ] && kill -9 "$pid"
wait "$tracer" 2>/dev/null
"$IOTRIAL" revert >"$TEST_TMP/revert" 2>&1
check "a foreign directory of iotrial's shape is kept" \
	test -d "$dir/iotrial.Zz9Zz9"
left=$(find "$dir" -mindepth 1 -maxdepth 1 -name 'iotrial.*' | wc -l)
check "only it is left ($left)" test "$left" = 1
