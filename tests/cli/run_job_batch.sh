#!/usr/bin/env bash
# A job file submits as fio does: one I/O per submission unless it sets
# iodepth_batch_submit, so adjacent sequential reads never meet inside
# one submission and the block layer has nothing to merge. iotrial's own
# batching (--batch_submit 0: every free slot at once) hands the first
# iodepth reads over together, and those merge. Counted in
# /proc/diskstats of a loop device (read requests, reads merged), for
# both asynchronous engines; the run's parameters say the batch.
. "$(dirname "$0")/lib.sh"
need_root
mkloop 64M || skip "no loop device"

dev=${LOOP#/dev/}
json=$TEST_TMP/run.json

# stats: the loop device's reads completed and reads merged
stats() { awk -v d="$dev" '$3 == d { print $4, $5 }' /proc/diskstats; }

# run_counted FILE ARGS...: run the job on the device; sets READS, MERGED
run_counted() {
	local f=$1 a b
	shift
	a=($(stats))
	rm -f "$json"
	"$IOTRIAL" run --job "$f" -t "$LOOP" --no-store --json="$json" "$@" \
		>/dev/null 2>"$TEST_TMP/err"
	RC=$?
	b=($(stats))
	READS=$((b[0] - a[0]))
	MERGED=$((b[1] - a[1]))
}

param() { json "$json" "o[\"jobs\"][0][\"run\"][\"params\"][\"$1\"]"; }

for eng in libaio io_uring; do
	f=$TEST_TMP/$eng.fio
	printf '[seq]\nrw=read\nbs=4k\nsize=16m\ndirect=1\nioengine=%s\niodepth=4\nfilename=%s\n' \
		"$eng" "$LOOP" >"$f"
	run_counted "$f"
	check "$eng job: exit 0 (got $RC: $(head -c 200 "$TEST_TMP/err"))" \
		test $RC = 0
	check "$eng job: 4096 reads or more reached the device (got $READS)" \
		test $READS -ge 4096
	check "$eng job: none merged, one I/O per submission (got $MERGED)" \
		test $MERGED = 0
	check "$eng job: the run says batch_submit 1, complete 1..1" \
		test "$(param batch_submit) $(param batch_complete_min) $(param batch_complete_max)" = "1 1 1"

	run_counted "$f" --batch_submit 0
	check "$eng job --batch_submit 0: exit 0 (got $RC)" test $RC = 0
	check "$eng job --batch_submit 0: the first batch merges (got $MERGED)" \
		test $MERGED -ge 1
	check "$eng job --batch_submit 0: the run says it" \
		test "$(param batch_submit)" = 0

	printf 'iodepth_batch=4\n' >>"$f"
	run_counted "$f"
	check "$eng job with iodepth_batch=4: merges too (got $MERGED)" \
		test $RC = 0 -a $MERGED -ge 1
done
