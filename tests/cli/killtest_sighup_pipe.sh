#!/usr/bin/env bash
# What an SSH connection that drops does to the iotrial at its end: its
# stdout and stderr are pipes whose reader goes away, then it gets
# SIGHUP. A compare (knobs changed per arm, a work directory) and a run
# --set get that at moments spread over the whole run: before the
# journal exists, while the work files are made, with an arm's knobs in
# place, while restoring, while the results are written. Each time the
# process must not die of SIGPIPE (which killed it halfway through its
# clean-up), every knob must be back, and no work directory and no
# journal record may be left for a later revert (a SIGHUP before iotrial
# catches signals ends it before it changed anything). Which phases the
# signals hit is printed, not judged.
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
orig=$(knob_state "$L" "$M")
J=$IOTRIAL_STATE_DIR/journal

# hup_round DELAY_MS CMD...: CMD with stdout and stderr on pipes whose
# reader exits after DELAY_MS; then SIGHUP. Sets RC and PHASE (what had
# happened when the signal came).
hup_round() {
	local ms=$1 fo=$TEST_TMP/o fe=$TEST_TMP/e rdr pid
	shift
	rm -f "$fo" "$fe"
	mkfifo "$fo" "$fe"
	(exec 3<"$fo" 4<"$fe"; sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))") &
	rdr=$!
	"$@" >"$fo" 2>"$fe" &
	pid=$!
	wait "$rdr"
	PHASE=started
	ls -d "$M"/w/iotrial.* >/dev/null 2>&1 && PHASE=work-files
	[ "$(knob_state "$L" "$M")" != "$orig" ] && PHASE=knobs-changed
	kill -0 "$pid" 2>/dev/null || PHASE=ended
	kill -HUP "$pid" 2>/dev/null
	wait "$pid"
	RC=$?
}

declare -A seen
bad=0 rounds=0
CMP=("$IOTRIAL" compare seqread -t "$M/w" --size 8M --vary read_ahead_kb=128,1024
	--vary nr_requests=32,64 --time 0.1s --runs 2 --no-drop-caches --json=-)
RUN=("$IOTRIAL" run seqwrite -t "$M/w" --size 8M --time 0.6s
	--set scheduler="$SCHED" --set read_ahead_kb=4096s --set atime=noatime
	--set vm.dirty_expire_centisecs=15s --json)
for what in CMP RUN; do
	for ms in 0 30 100 250 500 800 1200 1700 2400; do
		rounds=$((rounds + 1))
		if [ $what = CMP ]; then
			hup_round "$ms" "${CMP[@]}"
		else
			hup_round "$ms" "${RUN[@]}"
		fi
		now=$(knob_state "$L" "$M")
		left=$(ls -d "$M"/w/iotrial.* 2>/dev/null)
		live=$(grep -c '^\(set\|scr\) ' "$J" 2>/dev/null)
		seen[$PHASE]=1
		if [ "$RC" = 141 ] || [ "$now" != "$orig" ] ||
			[ -n "$left" ] || [ -e "$J" ]; then
			bad=$((bad + 1))
			echo "# $what SIGHUP at ${ms} ms ($PHASE): exit $RC, records ${live:-0}, work dir '${left}'"
			diff <(echo "$orig") <(echo "$now") | sed 's/^/#   /'
			"$IOTRIAL" revert >/dev/null 2>&1 # the next round starts clean
			rm -rf "$M"/w/iotrial.*
		else
			echo "# $what SIGHUP at ${ms} ms ($PHASE): exit $RC, all clean"
		fi
	done
done
echo "# phases hit: ${!seen[*]}"
check "a closed pipe and SIGHUP at $rounds moments: no SIGPIPE death, every knob back, no work directory, no journal ($bad bad)" \
	test "$bad" = 0
check "the signals hit a run with its knobs changed" test -n "${seen[knobs-changed]:-}"
exit 0
