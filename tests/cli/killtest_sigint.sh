#!/usr/bin/env bash
# SIGINT (and SIGTERM, SIGHUP) during a run with --set: the run stops
# early, says so, restores every knob and removes its work files; no
# journal is left behind. How long that took is printed, not judged:
# the machines that run this are shared.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
knob_save_vm

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
SCHED=$(other_sched "$L")
[ -n "$SCHED" ] || skip "the loop device offers no scheduler to switch to"
mkmount "$L" || skip "cannot make a file system"
M=$MNT
mkdir -p "$M/w"
log=$TEST_TMP/run.log

orig=$(knob_state "$L" "$M")

for sig in INT TERM HUP; do
	"$IOTRIAL" run seqwrite -t "$M/w" --size 16M --time 30s \
		--set scheduler="$SCHED" --set read_ahead_kb=4096s \
		--set nr_requests=64 --set atime=noatime \
		--set vm.dirty_expire_centisecs=15s >"$log" 2>&1 &
	pid=$!
	# wait until the knobs are in place and the work files exist
	for _ in $(seq 1 100); do
		[ "$(knob_state "$L" "$M")" != "$orig" ] &&
			ls "$M"/w/iotrial.*/* >/dev/null 2>&1 && break
		sleep 0.05
	done
	check "SIG$sig: the run changed the knobs and made work files" \
		bash -c "test '$(knob_state "$L" "$M")' != '$orig' && ls '$M'/w/iotrial.*/* >/dev/null 2>&1"
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	echo "# SIG$sig: the run ended $ms ms after the signal"
	check "SIG$sig: the run stopped, exit 1, and said it was interrupted" \
		bash -c "test $rc = 1 && grep -q 'interrupted by a signal' '$log'"
	now=$(knob_state "$L" "$M")
	[ "$now" = "$orig" ] || diff <(echo "$orig") <(echo "$now") | sed "s/^/#   /"
	check "SIG$sig: every knob is back" test "$now" = "$orig"
	check "SIG$sig: the work files are gone" \
		bash -c "! ls -d '$M'/w/iotrial.* >/dev/null 2>&1"
	check "SIG$sig: the run said what it restored" \
		has "$log" "note: restored 'scheduler'"
	check "SIG$sig: no journal is left" test ! -e "$IOTRIAL_STATE_DIR/journal"
done

# a reader that goes away (| head) must not kill the run before it restores
"$IOTRIAL" run seqwrite -t "$M/w" --size 16M --time 300ms \
	--set scheduler="$SCHED" --set nr_requests=64 --json 2>"$log" | head -c 1 >/dev/null
sleep 0.5 # the run finishes on its own after head exits
for _ in $(seq 1 40); do
	[ "$(knob_state "$L" "$M")" = "$orig" ] &&
		[ ! -e "$IOTRIAL_STATE_DIR/journal" ] && break
	sleep 0.1
done
check "a closed pipe: every knob is back" \
	test "$(knob_state "$L" "$M")" = "$orig"
check "a closed pipe: no journal is left" test ! -e "$IOTRIAL_STATE_DIR/journal"
