#!/usr/bin/env bash
# compare --quiet says what run --quiet says: warnings and errors only.
# Without it, the session's knob notes (cfq translated to bfq) and a job
# file's notes (ioengine=sync runs as psync) are said; with it, none of
# them, while a warning still is.
. "$(dirname "$0")/lib.sh"
need_root
mkloop 64M || skip "no loop device"

dev=${LOOP#/dev/}
sched=$(sed 's/[][]//g' "/sys/block/$dev/queue/scheduler")
was=$(sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/$dev/queue/scheduler")
case " $sched " in
*" bfq "*) ;;
*) skip "no bfq scheduler for cfq to be translated to" ;;
esac
printf '[dev]\nrw=read\nsize=16m\nioengine=sync\nfilename=%s\n' "$LOOP" \
	>"$TEST_TMP/dev.fio"
cmp=(compare --job "$TEST_TMP/dev.fio" -t "$LOOP" --ios 200 --runs 6
	--no-store --vary scheduler=cfq,none)

"$IOTRIAL" "${cmp[@]}" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "compare --job --vary scheduler: exit 0 (got $rc)" test $rc = 0
check "...the knob's note is said" \
	grep -q "^note: scheduler: cfq was removed .* using 'bfq'" "$TEST_TMP/err"
check "...and the job file's" \
	grep -q "^note: .*dev.fio:4: ioengine=sync runs as psync" "$TEST_TMP/err"

"$IOTRIAL" "${cmp[@]}" --quiet >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "compare --job --vary scheduler --quiet: exit 0 (got $rc), nothing on stderr" \
	test $rc = 0 -a ! -s "$TEST_TMP/err"
check "...the arms still printed" grep -q 'scheduler=none' "$TEST_TMP/out"
check "...the scheduler restored" \
	grep -q "\[$was\]" "/sys/block/$dev/queue/scheduler"

# a warning is still said with --quiet
"$IOTRIAL" "${cmp[@]:0:7}" --runs 2 --no-store --vary bs=4k,8k --quiet >/dev/null \
	2>"$TEST_TMP/err"
check "compare --quiet still warns (too few runs)" \
	eval 'grep -q "^warning: --runs 2:" "$TEST_TMP/err" && ! grep -q "^note:" "$TEST_TMP/err"'
