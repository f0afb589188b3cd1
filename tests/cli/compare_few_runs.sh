#!/usr/bin/env bash
# compare --runs N with fewer blocks than a faster/slower verdict needs
# (6 for one comparison at 5%) runs as asked but says so before the
# first run; 6 blocks say nothing.
# parallel: runs in a directory of its own and keeps the page cache (--no-drop-caches)
. "$(dirname "$0")/lib.sh"

dir=$TEST_TMP/target
mkdir -p "$dir"
for n in 5 6; do
	"$IOTRIAL" compare randread -t "$dir" --size=1M --ios 100 --no-drop-caches \
		--quiet --vary bs=4k,8k --runs $n --no-store >"$TEST_TMP/out$n" 2>"$TEST_TMP/err$n"
	check "compare --runs $n exits 0" test $? = 0
done
check "--runs 5 warns that no verdict can be faster or slower" \
	grep -qx "warning: --runs 5: a faster/slower verdict needs at least 6 blocks (the exact signed-rank test of 5 cannot reach p < 0.05); these runs can only say equivalent or inconclusive" "$TEST_TMP/err5"
check "--runs 6 does not" test "$(grep -c 'verdict needs' "$TEST_TMP/err6")" = 0
