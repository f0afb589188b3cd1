#!/usr/bin/env bash
# A smallfiles run killed with -9 leaves its work directory full of
# client directories; the next command removes all of it and says so,
# as for the block-I/O workloads' files. A directory in it that iotrial
# does not make (a name no work file has) is still left alone.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
T=$TEST_TMP/t
mkdir -p "$T"

# wait_clients DIR: until DIR/iotrial.*/client0 holds a file; the dir
wait_clients() {
	local i wd
	for i in $(seq 1 500); do
		wd=$(ls -d "$1"/iotrial.* 2>/dev/null | head -n 1)
		if [ -n "$wd" ] && [ -n "$(ls -A "$wd/client0/d0" 2>/dev/null)" ]; then
			echo "$wd"
			return 0
		fi
		sleep 0.02
	done
	return 1
}

"$IOTRIAL" run smallfiles -t "$T" --clients 3 --time 20s --no-store \
	>"$out" 2>&1 &
pid=$!
wd=$(wait_clients "$T")
check "the run made its client directories and files" test -n "$wd"
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9 leaves them" test -d "$wd/client2"
# links inside are removed, never followed
mkdir "$TEST_TMP/keepdir"
echo keep >"$TEST_TMP/keepdir/file"
ln -s "$TEST_TMP/keepdir/file" "$wd/client0/link"
ln -s "$TEST_TMP/keepdir" "$wd/client1/d0/dlink"
recover_now
check "the next command removes the work directory" test ! -e "$wd"
check "and says so" grep -q "removed the leftover work directory '$wd'" "$out"
check "the target directory is as it was" test -z "$(ls -A "$T")"
check "what the links pointed to is intact" \
	test "$(cat "$TEST_TMP/keepdir/file")" = keep

# the same with a directory of someone else's inside: left alone
"$IOTRIAL" run smallfiles -t "$T" --clients 1 --time 20s --no-store \
	>"$out" 2>&1 &
pid=$!
wd=$(wait_clients "$T")
mkdir "$wd/.not-ours"
kill -9 "$pid"
wait "$pid" 2>/dev/null
recover_now
check "a foreign entry keeps the work directory" test -d "$wd/.not-ours"
check "...and the warning names it" \
	grep -q "it holds '.not-ours', which iotrial does not make" "$out"
rm -rf "$wd"
