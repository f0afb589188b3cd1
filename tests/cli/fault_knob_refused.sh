#!/usr/bin/env bash
# A knob write the kernel refuses (nr_requests far above what the queue
# allows), after another knob (the scheduler) was already changed. run,
# set and compare must each end with a clear message and exit 2 (compare:
# 1, the refusal comes mid-experiment), with every knob back as it was
# and nothing left in the journal.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out

mkloop 64M || skip "cannot make a loop device"
dev=${LOOP#/dev/}
sched0=$(active_sched "$LOOP")
other=
for s in mq-deadline none kyber bfq; do
	if [ "$s" != "$sched0" ] && grep -qw "$s" "/sys/block/$dev/queue/scheduler"; then
		other=$s
		break
	fi
done
[ -n "$other" ] || skip "'$dev' offers one scheduler only"
nr0=$(queue "$LOOP" nr_requests)
ra0=$(queue "$LOOP" read_ahead_kb)
# as_before: every knob of the device as it was, and the journal empty
as_before() {
	[ "$(active_sched "$LOOP")" = "$sched0" ] &&
		[ "$(queue "$LOOP" nr_requests)" = "$nr0" ] &&
		[ "$(queue "$LOOP" read_ahead_kb)" = "$ra0" ] &&
		"$IOTRIAL" revert 2>&1 | grep -q "nothing to revert"
}

"$IOTRIAL" run seqread -t "$LOOP" --allow-destroy --size 8M --ios 10 \
	--no-store --set scheduler=$other --set nr_requests=100000 >"$out" 2>&1
check "run: a refused knob write exits 2" test $? = 2
check "...naming the knob, the value and the file" \
	grep -qF "error: the kernel refused '100000' for 'nr_requests' (/sys/block/$dev/queue/nr_requests)" "$out"
check "...measuring nothing" bash -c '! grep -q "^seqread" "$1"' _ "$out"
check "...with the scheduler it had set put back" as_before

"$IOTRIAL" set scheduler=$other nr_requests=100000 --device "$dev" >"$out" 2>&1
check "set: a refused knob write exits 2" test $? = 2
check "...naming it" grep -qF "the kernel refused '100000' for 'nr_requests'" "$out"
check "...with everything put back" as_before

"$IOTRIAL" compare seqread -t "$LOOP" --allow-destroy --size 8M --ios 50 \
	--vary nr_requests=64,100000 --runs 4 --no-drop-caches --no-store \
	--quiet >"$out" 2>&1
check "compare: a refused knob write ends the experiment (exit 1)" test $? = 1
check "...naming it" grep -qF "the kernel refused '100000' for 'nr_requests'" "$out"
check "...with everything put back" as_before
check "...and no leak report on that path" \
	bash -c '! grep -q LeakSanitizer "$1"' _ "$out"
