#!/usr/bin/env bash
# Fault injection: run, compare, set and scratch setup, each killed at
# random moments with SIGKILL, SIGTERM, SIGINT or SIGQUIT. After every
# kill the next command (iotrial revert) must leave the machine as it
# was: every knob at its original, no journal, no work directory, no
# scratch image, loop device or mount, and a store whose experiments are
# whole (each holds as many run rows as its JSON lists runs).
# FAULT_ROUNDS sets the number of kills (default 50).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v sqlite3 >/dev/null || skip "needs sqlite3"
command -v jq >/dev/null || skip "needs jq"
knob_save_vm
ROUNDS=${FAULT_ROUNDS:-50}

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
SCHED=$(other_sched "$L")
[ -n "$SCHED" ] || skip "the loop device offers no scheduler to switch to"
mkmount "$L" || skip "cannot make a file system"
M=$MNT
mkdir -p "$M/w"
# scratch images go here, so that strays are easy to see
SCR=$TEST_TMP/scratch
mkdir -p "$SCR"
DB=$XDG_DATA_HOME/iotrial/results.db
log=$TEST_TMP/cmd.log
out=$TEST_TMP/revert.log

# What iotrial may leave behind, one line each; empty when clean.
leftovers() {
	[ -e "$IOTRIAL_STATE_DIR/journal" ] && echo "journal"
	ls -d "$M"/w/iotrial.* 2>/dev/null | sed 's/^/work dir /'
	ls -A "$SCR" 2>/dev/null | sed 's/^/scratch /'
	losetup -a 2>/dev/null | grep -F "$SCR" | sed 's/^/loop /'
	grep -F " $SCR" /proc/self/mountinfo | sed 's/^/mount /'
}
# Experiments whose run rows do not match their JSON; empty when whole.
partial_rows() {
	[ -f "$DB" ] || return 0
	sqlite3 "$DB" 'PRAGMA integrity_check' | grep -vx ok
	sqlite3 -separator ' ' "$DB" \
		"SELECT e.id, (SELECT count(*) FROM runs r WHERE r.experiment = e.id) FROM experiments e" |
		while read -r id n; do
			want=$(sqlite3 "$DB" "SELECT json FROM experiments WHERE id = '$id'" |
				jq '.runs | length')
			[ "$n" = "$want" ] || echo "experiment $id: $n rows, JSON lists $want"
		done
}

cmd_run=(run seqwrite -t "$M/w" --size 16M --time 2s --set "scheduler=$SCHED"
	--set read_ahead_kb=1024 --set vm.dirty_expire_centisecs=15s)
cmd_compare=(compare seqread -t "$M/w" --vary read_ahead_kb=128,1024
	--size 8M --time 200ms --runs 4 --no-drop-caches)
cmd_set=(set read_ahead_kb=2048 nr_requests=64 atime=noatime
	vm.dirty_expire_centisecs=20s -t "$M/w")
cmd_scratch=(run seqwrite -t scratch:96M:ext4 --size 8M --time 1s
	--set read_ahead_kb=512)
sigs=(KILL TERM INT QUIT)
# job control: without it bash starts background commands with SIGINT and
# SIGQUIT ignored, and those two kills would test nothing
set -m

orig=$(knob_state "$L" "$M")
good=0
for i in $(seq 1 "$ROUNDS"); do
	case $((RANDOM % 4)) in
	0) name=run cmd=("${cmd_run[@]}") ;;
	1) name=compare cmd=("${cmd_compare[@]}") ;;
	2) name=set cmd=("${cmd_set[@]}") ;;
	3) name=scratch cmd=("${cmd_scratch[@]}") ;;
	esac
	sig=${sigs[RANDOM % 4]}
	ms=$((RANDOM % 2500))
	TMPDIR=$SCR "$IOTRIAL" "${cmd[@]}" >"$log" 2>&1 &
	pid=$!
	sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
	kill -s "$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	TMPDIR=$SCR "$IOTRIAL" revert >"$out" 2>&1
	rrc=$?
	now=$(knob_state "$L" "$M")
	left=$(leftovers)
	part=$(partial_rows)
	if [ "$rrc" = 0 ] && [ "$now" = "$orig" ] && [ -z "$left" ] &&
		[ -z "$part" ] && ! grep -q 'AddressSanitizer\|runtime error' "$log"; then
		good=$((good + 1))
		echo "# round $i: $name, SIG$sig at $ms ms (exit $rc): clean"
	else
		echo "# round $i: $name, SIG$sig at $ms ms (exit $rc): NOT clean (revert exit $rrc)"
		diff <(echo "$orig") <(echo "$now") | sed 's/^/#   /'
		[ -n "$left" ] && sed 's/^/#   left: /' <<<"$left"
		[ -n "$part" ] && sed 's/^/#   store: /' <<<"$part"
		sed 's/^/#   revert: /' "$out"
		tail -n 15 "$log" | sed 's/^/#   cmd: /'
		# start the next round clean
		"$IOTRIAL" revert >/dev/null 2>&1
		rm -rf "$M"/w/iotrial.* "${SCR:?}"/*
	fi
done
echo "# fault kill test: $good/$ROUNDS clean"
check "kill at $ROUNDS random moments of run, compare, set and scratch setup: $good/$ROUNDS clean" \
	test "$good" = "$ROUNDS"
