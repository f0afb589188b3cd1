#!/usr/bin/env bash
# A compare that varies a knob is killed with SIGKILL mid-run, leaving a
# chain of arm switches in the journal; then an admin writes the other
# arm's value by hand (the winner, applied). The next command that
# changes settings (revert, or a run) must keep that value: it differs
# from what iotrial wrote last, even though an older record of the chain
# wrote it. Without the admin's change the original comes back. For
# read_ahead_kb and for the scheduler (between schedulers this kernel
# offers). Revert says it kept the value, and no line of it says the
# value was restored.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out
log=$TEST_TMP/compare.log
J=$IOTRIAL_STATE_DIR/journal

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
RA=/sys/block/$N/queue/read_ahead_kb
SCHED=/sys/block/$N/queue/scheduler
# loop devices keep their settings from one use to the next
ra0=$(queue "$L" read_ahead_kb)
sched0=$(active_sched "$L")
trap 'echo "$ra0" >"$RA"; echo "$sched0" >"$SCHED"; knob_cleanup' EXIT
echo 2560 >"$RA"
echo none >"$SCHED"
for s in mq-deadline kyber; do
	grep -qw "$s" "$SCHED" || skip "the loop device does not offer $s"
done

# now KNOB: the value the knob reads as iotrial writes it
now() {
	if [ "$1" = scheduler ]; then active_sched "$L"; else queue "$L" "$1"; fi
}
# last_wrote: the value the journal's newest set record wrote
last_wrote() { grep '^set ' "$J" | tail -n 1 | cut -d' ' -f10; }
# sets: how many set records the journal holds
sets() {
	local n
	n=$(grep -c '^set ' "$J" 2>/dev/null)
	echo "${n:-0}"
}

# kill_compare KNOB V1,V2: a compare of the two values killed with
# SIGKILL after its third arm switch, while that arm runs (the value it
# wrote in place). Fails when the compare never got there. A kill that
# fell between a record and its write's confirmation is done again: there
# the journal cannot tell the two values apart (iotrial(1), SAFETY).
kill_compare() {
	local knob=$1 vals=$2 try i pid
	for try in 1 2 3; do
		"$IOTRIAL" compare seqread -t "$L" --size 4M --vary "$knob=$vals" \
			--time 500ms --runs 20 --no-drop-caches --no-store \
			>"$log" 2>&1 &
		pid=$!
		for i in $(seq 1 400); do
			[ "$(sets)" -ge 3 ] && [ "$(now "$knob")" = "$(last_wrote)" ] &&
				break
			sleep 0.05
		done
		sleep 0.1
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		[ "$(sets)" -ge 3 ] || return 1
		if [ "$(tail -n 1 "$J" | cut -d' ' -f1)" = set ] &&
			grep -q '^wrote ' "$J"; then
			"$IOTRIAL" revert >/dev/null 2>&1
			continue
		fi
		return 0
	done
	return 1
}

# other KNOB V1 V2: of the two arm values, the one the knob does not hold
other() { if [ "$(now "$1")" = "$2" ]; then echo "$3"; else echo "$2"; fi; }

# one KNOB V1 V2 ORIG NEXT: kill a compare of V1,V2; the admin writes
# the other value; NEXT (revert, or a run) must keep it
one() {
	local knob=$1 v1=$2 v2=$3 orig=$4 next=$5 admin file
	file=$RA
	[ "$knob" = scheduler ] && file=$SCHED
	kill_compare "$knob" "$v1,$v2" || {
		sed 's/^/# compare: /' "$log" | tail -n 5
		fail "$knob: the compare got to its third arm switch"
		return
	}
	admin=$(other "$knob" "$v1" "$v2")
	echo "# $knob: iotrial wrote $(now "$knob") last; the admin writes $admin"
	echo "$admin" >"$file"
	if [ "$next" = revert ]; then
		"$IOTRIAL" revert >"$out" 2>&1
	else
		recover_now
	fi
	check "$knob, $next after the kill: the admin's $admin (an older arm's value) is kept (now $(now "$knob"))" \
		test "$(now "$knob")" = "$admin"
	check "$knob, $next: it says the value is kept" has "$out" "that value is kept"
	# and no line of revert's says the kept change was restored
	[ "$next" = revert ] &&
		check "$knob, revert: no line says it restored what it kept" \
			bash -c "! grep -E '^restored |restored what' '$out'"
	check "$knob, $next: the journal is empty" test ! -e "$J"
	echo "$orig" >"$file"
}

one read_ahead_kb 128 4096 2560 revert
one read_ahead_kb 128 4096 2560 run
one scheduler mq-deadline kyber none revert
one scheduler mq-deadline kyber none run

# no admin change: the original comes back
if kill_compare read_ahead_kb 128,4096; then
	"$IOTRIAL" revert >"$out" 2>&1
	check "without an admin's change, revert restores the original 2560" \
		test "$(queue "$L" read_ahead_kb)" = 2560
	check "and the journal is empty" test ! -e "$J"
else
	fail "read_ahead_kb: the compare got to its third arm switch"
fi
if kill_compare scheduler mq-deadline,kyber; then
	recover_now
	check "without an admin's change, the next run restores 'none'" \
		test "$(active_sched "$L")" = none
else
	fail "scheduler: the compare got to its third arm switch"
fi
